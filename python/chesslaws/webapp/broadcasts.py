"""A round broadcast live (:class:`chesslaws.tournament.feed.PgnFeeds` does the work), read by anyone:

- ``GET /api/tournaments/{id}/rounds/{n}/pgn``: the round's PGN feed, every board's game as it stands (moves
  with ``[%clk]``, the result or ``*``, ``[Round "N.B"]``), for lichess Broadcast and other viewers that
  poll a URL; ``GET /api/tournaments/{id}/pgn``: every round's. Both answer an ``ETag`` and ``304 Not
  Modified`` to an ``If-None-Match`` that names it;
- ``GET /api/tournaments/{id}/rounds/{n}/boards``: the round's boards as the spectators' page
  (``/tournament/{id}/round/{n}``) shows them: players, position, last move, clocks, results. The page
  reads them again on every ``changed`` of the event's WebSocket.

Every read counts against the anonymous reads of events per address.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from chesslaws.tournament import limits
from chesslaws.tournament.feed import Feed, PgnFeeds
from chesslaws.webapp.context import address, hub_of

router = APIRouter()

#: Seconds a cache may keep a feed without asking again (a viewer polling every few seconds asks anyway).
FEED_MAX_AGE = 1


def feeds(conn: HTTPConnection) -> PgnFeeds:
    got: PgnFeeds = conn.app.state.feeds
    return got


def answer(feed: Feed, request: Request) -> Response:
    headers = {"ETag": feed.etag, "Cache-Control": f"public, max-age={FEED_MAX_AGE}"}
    asked = request.headers.get("if-none-match", "")
    if feed.etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(feed.body, media_type="application/x-chess-pgn; charset=utf-8", headers=headers)


def counted(request: Request) -> None:
    hub_of(request).rate.hit("tournament_reads_per_address", address(request))


@router.get("/api/tournaments/{tid}/pgn", tags=["broadcast"], response_class=Response,
            summary="The event's PGN feed, every round's boards as they stand (ETag, If-None-Match)")
async def event_feed(tid: str, request: Request) -> Response:
    counted(request)
    return answer(await feeds(request).feed(tid), request)


@router.get("/api/tournaments/{tid}/rounds/{number}/pgn", tags=["broadcast"], response_class=Response,
            summary="The round's PGN feed for live viewers: one game per board, [%clk], results (ETag)")
async def round_feed(tid: str, request: Request,
                     number: int = Path(ge=1, le=limits.MAX_ROUNDS)) -> Response:
    counted(request)
    return answer(await feeds(request).feed(tid, number), request)


@router.get("/api/tournaments/{tid}/rounds/{number}/boards", tags=["broadcast"],
            summary="The round's boards for spectators: players, position, last move, clocks, results")
async def round_boards(tid: str, request: Request,
                       number: int = Path(ge=1, le=limits.MAX_ROUNDS)) -> dict[str, Any]:
    counted(request)
    return await feeds(request).boards(tid, number)


__all__ = ["router"]

"""The tournaments over HTTP and their pages' WebSocket (:class:`chesslaws.tournament.live.LiveTournaments`
does the work; the event arbiter's or a player's token goes in ``Authorization: Bearer TOKEN``):

- ``POST /api/tournaments``: a tournament with its regulations and players; answers its id and the secret
  token of its arbiter (shown once);
- ``GET /api/tournaments?limit=&before=``: the events, the latest changed first, a page at a time;
- ``GET /api/tournaments/{id}`` (and ``.../trf``, FIDE's TRF-16, as a file): the rounds and the standings; every game
  that the Laws have ended meanwhile gives its board its result first (a late arrival is a forfeit);
- ``POST /api/tournaments/{id}/players``, ``.../players/{n}/withdraw`` and ``.../players/{n}/bye`` (the
  arbiter): registration, withdrawal, a requested bye;
- ``POST /api/tournaments/{id}/rounds`` (the arbiter): pairs the next round and creates each board's game,
  with the event's regulations in its start event; answers the seat links per player. The round starts
  fairly by default (``"start": "held"``): its clocks start when the arbiter starts it (``.../rounds/N/start``)
  or at ``start_in`` seconds after pairing, and a player who does not come is decided by the default time;
  ``{"start": "now"}``: the clocks run from pairing;
- ``POST /api/tournaments/{id}/rounds/{n}/start`` (the arbiter): the round's clocks start now, or ``in``
  seconds (Article 6.7 decides who does not come);
- ``POST /api/tournaments/{id}/rounds/{n}/boards/{table}/result`` (the arbiter): the result of a board whose
  game was annulled or is not on the server (a game that is in play or over gives its own);
- ``GET /api/tournaments/{id}/console?round=N`` (the arbiter): the round's arbiter console, every board's game
  as it stands (moves, clocks, pending claims and offers, stopped clocks, flags down, absent players, what
  waits for the arbiter's decision, results) with the link to each game's own arbiter console;
- ``GET /api/tournaments/{id}/players/{n}`` (the player's own token): the player's current game's link and
  results;
- ``GET /api/games/{id}/tournament``: the event, round and table of a tournament's game (its page links back);
- ``WS /api/tournaments/{id}/ws``: ``{"kind": "changed"}`` whenever a game or the event changes (the pages
  read the event again).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from chesslaws.refused import Refused
from chesslaws.regulations import Regulations as GameRegulations
from chesslaws.server.guard import VisibleName
from chesslaws.server.refusals import translated
from chesslaws.tournament import limits
from chesslaws.tournament.live import LiveTournaments, check_tid, new_tournament
from chesslaws.tournament.model import TournamentError
from chesslaws.webapp.context import address, hub_of, token_of
from chesslaws.webapp.language import client_language

router = APIRouter()
bearer = HTTPBearer(auto_error=False)


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: VisibleName = Field(min_length=1, max_length=limits.MAX_NAME)
    rating: int = Field(0, ge=0, le=limits.MAX_RATING)
    title: str = Field("", max_length=limits.MAX_TITLE)
    federation: str = Field("", max_length=limits.MAX_FEDERATION)
    fide_id: str = Field("", max_length=limits.MAX_FIDE_ID)


class EnteredResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    result: Literal["1-0", "0-1", "1/2-1/2", "0-0", "+-", "-+", "--"]


class NewTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: VisibleName = Field(min_length=1, max_length=limits.MAX_NAME)
    system: Literal["swiss", "round-robin", "double-round-robin"] = "swiss"
    rounds: int = Field(9, ge=1, le=limits.MAX_ROUNDS)
    edition: Literal["1989", "1997", "2023"] = "2023"
    time_control: str = Field("5400+30", max_length=200)
    default_time: float | None = Field(None, ge=0, le=86400, description="seconds (Article 6.7): a player who "
                                                                        "comes later loses by default")
    scoring: str = Field("1-0.5-0", max_length=40)
    quickplay: bool = False
    tiebreaks: list[str] | None = Field(None, description=(
        "C.07 codes in order (default: the system's); STD (Standard Points) only with tiebreak_rules 2026"))
    tiebreak_rules: Literal["2023", "2026"] = Field("2023", description=(
        "the Tie-Break Regulations (C.07): as of 2023, or 2026 (in force from 1 March 2026: Art. 16.4 amended, "
        "Standard Points)"))
    no_draw_offers: bool = Field(False, description=(
        "no draw offered or agreed in the event's games without the arbiter's consent (2023 9.1.1); written "
        "into each game's start"))
    no_draw_before_move: int | None = Field(None, ge=1, le=1000, description=(
        "no draw offered or agreed before each player has made this many moves, without the arbiter's consent "
        "(2023 9.1.1); written into each game's start"))
    report_leaving: bool = Field(False, description=(
        "the opponent of the player having the move reports to the arbiter before leaving the playing area "
        "(2023 11.2.4)"))
    increment_possible: bool = Field(True, description=(
        "false: the event's clocks cannot introduce the increment of 2023 Guidelines III.4"))
    players: list[NewPlayer] = Field(default_factory=list, max_length=2000)


class PairRound(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: Literal["held", "now"] = Field("held", description=(
        "held (the default, a fair start): the games' clocks wait until the arbiter starts the round "
        "(POST .../rounds/N/start) or until start_in, and the players are absent until they open their game "
        "(the event's default time decides who does not come: Article 6.7); now: the clocks run from pairing "
        "whoever is there (only when asked for)"))
    start_in: float | None = Field(None, ge=0, le=86400, description=(
        "held only: the round starts by itself this many seconds after pairing (a scheduled start), as if "
        "the arbiter started it with {\"in\": start_in}"))


class StartRound(BaseModel):
    model_config = ConfigDict(extra="forbid")
    in_: float = Field(0, ge=0, le=86400, alias="in", description="seconds from now until the clocks start")


class ByeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=limits.MAX_ROUNDS, description="the round (not paired yet)")
    kind: Literal["full", "half", "zero"] = Field("half", description="what the regulations give for it")


class Withdrawal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    from_round: int | None = Field(None, ge=1, le=limits.MAX_ROUNDS, description="the first round the player misses "
                                                                  "(default: the next round to pair)")


def service(conn: HTTPConnection) -> LiveTournaments:
    """The app's tournaments."""
    got: LiveTournaments = conn.app.state.tournaments
    return got


async def read(tid: str, kind: str, request: Request) -> bytes:
    """The event's body for an anonymous read, limited per address."""
    check_tid(tid)  # an id that names no event is refused before anything is counted
    hub_of(request).rate.hit("tournament_reads_per_address", address(request))
    return await service(request).read(tid, kind)


@router.get("/api/tournaments", tags=["tournaments"], summary="The events, the latest changed first, a page at a time")
async def list_tournaments(
        request: Request,
        limit: int = Query(50, ge=1, le=200, description="events on this page"),
        before: str | None = Query(None, max_length=40, description="the id of the last event of the previous page")
) -> list[dict[str, Any]]:
    return await service(request).page(limit, before)


@router.get("/api/games/{game_id}/tournament", tags=["tournaments"],
            summary="The tournament a game is a round's board of (404 if none)")
async def tournament_of(game_id: str, request: Request) -> dict[str, Any]:
    return await service(request).of_game(game_id)


async def changes(ws: WebSocket) -> None:
    """``{"kind": "changed"}`` whenever a game of the event or the event changes (never more than the reader
    reads: one pending message at most)."""
    tid = str(ws.path_params["tid"])
    tournaments = service(ws)
    await ws.accept()
    try:
        q = await tournaments.listen(tid)
    except Refused as err:
        await ws.send_json({"kind": "error", "status": err.status,
                            "error": translated(err.message, client_language(ws))})
        await ws.close(code=4000 + err.status)
        return
    await ws.send_json({"kind": "hello"})

    async def sender() -> None:
        while True:
            await ws.send_json({"kind": await q.get()})

    task = asyncio.create_task(sender())
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        task.cancel()
        tournaments.unlisten(tid, q)


router.add_api_websocket_route("/api/tournaments/{tid}/ws", changes)


@router.get("/api/tournaments/{tid}/console", tags=["tournaments"],
            summary="The round's arbiter console: every board's game as it stands")
async def console(tid: str, request: Request, round: int | None = None,
                  cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    return await service(request).console(tid, token_of(cred), round, str(request.base_url))


@router.post("/api/tournaments", status_code=201, tags=["tournaments"], summary="Create a tournament")
async def create_tournament(body: NewTournament, request: Request) -> dict[str, Any]:
    hub_of(request).rate.hit("tournaments_per_address", address(request))
    try:
        t = new_tournament(body.name, body.system, body.rounds, body.edition, body.time_control, body.default_time,
                           body.scoring, body.quickplay, body.tiebreaks, body.tiebreak_rules,
                           [(p.name, p.rating, p.title, p.federation, p.fide_id) for p in body.players],
                           laws=GameRegulations(no_draw_offers=body.no_draw_offers,
                                                no_draw_before_move=body.no_draw_before_move,
                                                report_leaving=body.report_leaving,
                                                increment_possible=body.increment_possible))
    except TournamentError as err:
        raise Refused(422, str(err)) from None
    return await service(request).create(t, str(request.base_url))


@router.get("/api/tournaments/{tid}", tags=["tournaments"], summary="Rounds and standings of a tournament")
async def get_tournament(tid: str, request: Request) -> Response:
    return Response(await read(tid, "json", request), media_type="application/json")


@router.post("/api/tournaments/{tid}/players", status_code=201, tags=["tournaments"],
             summary="Register a player (before round 1 is paired)")
async def add_player(tid: str, body: NewPlayer, request: Request,
                     cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    return await service(request).add_player(tid, token_of(cred), body.name, body.rating, body.title,
                                              body.federation, body.fide_id)


@router.post("/api/tournaments/{tid}/players/{number}/withdraw", tags=["tournaments"],
             summary="A player withdraws: no pairing from the given round on")
async def withdraw(tid: str, number: int, body: Withdrawal, request: Request,
                   cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    return await service(request).change_player(tid, token_of(cred), lambda t: t.withdraw(number, body.from_round))


@router.post("/api/tournaments/{tid}/players/{number}/bye", tags=["tournaments"],
             summary="A player asks for a bye in a round not paired yet")
async def request_bye(tid: str, number: int, body: ByeRequest, request: Request,
                      cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    return await service(request).change_player(tid, token_of(cred),
                                                 lambda t: t.request_bye(body.round, number, body.kind))


@router.get("/api/tournaments/{tid}/trf", tags=["tournaments"], summary="The event in FIDE's TRF-16",
            response_class=PlainTextResponse)
async def trf(tid: str, request: Request) -> PlainTextResponse:
    body = await read(tid, "trf", request)
    # A file to keep and hand to a pairing program or the rating officer: downloaded, not shown as a page.
    return PlainTextResponse(body, headers={"content-disposition": f'attachment; filename="{tid}.trf"'})


@router.get("/api/tournaments/{tid}/players/{number}", tags=["tournaments"],
            summary="A player's own view: the current game's link and the results (the player's token as Bearer)")
async def player_view(tid: str, number: int, request: Request,
                      cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    return await service(request).player_view(tid, number, token_of(cred), str(request.base_url))


@router.post("/api/tournaments/{tid}/rounds/{number}/boards/{table}/result", tags=["tournaments"],
             summary="The arbiter enters a board's result (a game annulled, or not played on the server)")
async def enter_result(tid: str, number: int, table: int, body: EnteredResult, request: Request,
                       cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    await service(request).enter_result(tid, token_of(cred), number, table, body.result)
    return {"round": number, "table": table, "result": body.result}


@router.post("/api/tournaments/{tid}/rounds/{number}/start", tags=["tournaments"],
             summary="Start the round's clocks (now, or in a number of seconds)")
async def start_round(tid: str, number: int, body: StartRound, request: Request,
                      cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    return await service(request).start_round(tid, token_of(cred), number, body.in_)


@router.post("/api/tournaments/{tid}/rounds", status_code=201, tags=["tournaments"],
             summary="Pair the next round and create its games")
async def next_round(tid: str, request: Request, body: PairRound | None = None,
                     cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
    tournaments = service(request)
    arbiter = await tournaments.arbiter_of(tid, token_of(cred))
    body = body or PairRound.model_validate({})
    held = body.start == "held"
    if body.start_in is not None and not held:
        raise Refused(422, "start_in schedules a held round's start: it cannot go with \"start\": \"now\"")
    rate, where = hub_of(request).rate, address(request)
    rate.hit("rounds_per_address", where)
    return await tournaments.pair_round(tid, arbiter, str(request.base_url), held=held, start_in=body.start_in,
                                        count_games=lambda n: rate.hit("round_games_per_address", where, n))


__all__ = ["router"]

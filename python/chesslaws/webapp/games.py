"""The games over HTTP: list, create, read, join, a seat's events, the log and the PGN, a rematch; the scoresheet
languages and QR codes of seat links.

Routes (JSON unless said otherwise; a seat token goes in ``Authorization: Bearer TOKEN``):

- ``GET /api/games`` list; ``POST /api/games`` create (returns the id and the tokens, once).
- ``GET /api/games/{id}`` the state: the spec's state JSON, moves, legal moves, server time.
- ``POST /api/games/{id}/join`` take an open seat (returns its token, once).
- ``GET /api/games/{id}/seat`` which seat a token opens.
- ``POST /api/games/{id}/events`` an event; the server stamps ``t`` and, for players, ``by``
  (:mod:`chesslaws.webapp.acting`, the path the WebSocket's events take too).
- ``GET /api/games/{id}/log`` the log (JSON lines); sealed moves hidden from all but the arbiter.
- ``GET /api/games/{id}/pgn`` the game in PGN.
- ``GET /api/games/{id}/read-move?move=`` a move as the arbiter records what was played over the board: its
  coordinates and whether it is legal in the current position (an illegal ``Ke6`` is ``e8e6``).
- ``POST /api/games/{id}/rematch`` (a player's token) and ``GET /api/games/{id}/rematch``: the same game
  again, colours swapped (:mod:`chesslaws.server.rematch`).
- ``GET /api/languages`` the scoresheet's languages; ``POST /api/qr`` a QR code (SVG) of a text.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from chesslaws.errors import AmbiguousMove, ChessLawsError
from chesslaws.notation import LANGUAGES, read_illegal_move
from chesslaws.qrcode import QrBusy, QrTooLong
from chesslaws.regulations import FIELDS as REGULATION_FIELDS
from chesslaws.server.export import export_pgn
from chesslaws.server.guard import strict_json
from chesslaws.server.hub import ApiError, LiveGame, public_event
from chesslaws.store.games import Seat
from chesslaws.webapp.acting import NO_SEAT, SPECTATOR, seat_for, take_event
from chesslaws.webapp.context import address, game_links, hub_of, qr_of, rematches_of, token_of
from chesslaws.webapp.language import LANG_NAMES_OTHER
from chesslaws.webapp.models import (ERRORS, Ack, CreatedGame, CreateGame, EventIn, Joined, JoinSeat, QrText,
                                     ReadMove, SeatInfo, fair_start)

#: The seat token of a request, when it has one (a missing token is not refused here: spectators read too).
bearer = HTTPBearer(auto_error=False, description="the secret token of a seat (white, black or arbiter)")
#: The same for the rematch routes, which only the players use.
players_bearer = HTTPBearer(auto_error=False, description="the secret token of a seat (white or black)")

#: The rematch routes (registered before the pages, as the app has them first).
rematch_router = APIRouter()
#: Every other route of this module.
router = APIRouter()


@rematch_router.post("/api/games/{game_id}/rematch", tags=["games"],
                     summary="A rematch, colours swapped (a player)")
async def rematch(game_id: str, request: Request,
                  cred: HTTPAuthorizationCredentials | None = Depends(players_bearer)) -> dict[str, Any]:
    hub = hub_of(request)
    live = await hub.fetch(game_id)
    seat = live.seat_of(cred.credentials if cred else None)
    if seat not in ("white", "black"):
        raise ApiError(403, "only a player of this game asks for a rematch (with his seat's token)")
    hub.rate.hit("create_per_address", address(request))
    done = await rematches_of(request).ask(live, seat)
    # White of the old game is Black of the new one; against an engine the person's seat is the one kept.
    mine = next(iter(done.tokens)) if len(done.tokens) == 1 else ("black" if seat == "white" else "white")
    token = done.tokens.get(mine)
    base = str(request.base_url)
    return {"id": done.game_id, "seat": mine,
            "link": f"{base}game/{done.game_id}" + (f"#token={token}" if token else "")}


@rematch_router.get("/api/games/{game_id}/rematch", tags=["games"], summary="The rematch of a game, if there is one")
async def rematch_of(game_id: str, request: Request) -> dict[str, Any]:
    done = rematches_of(request).made.get(game_id)
    if done is None:
        raise ApiError(404, "no rematch of this game yet")
    return {"id": done.game_id}


@router.get("/api/languages", tags=["games"], summary="Languages of the scoresheet's piece letters")
async def languages(request: Request) -> list[dict[str, str]]:
    return hub_of(request).language_list()


@router.post("/api/qr", tags=["games"], summary="A QR code (SVG) of a text, e.g. a seat link for a phone",
             response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}, **ERRORS})
async def qr_code(body: QrText, request: Request) -> Response:
    """Limited per address, made in a child process (never on the event loop), the last ones kept."""
    hub_of(request).rate.hit("qr_per_address", address(request))
    try:
        svg = await qr_of(request).svg(body.text)
    except QrTooLong:
        raise ApiError(422, "text: too long for a QR code") from None
    except QrBusy:
        raise ApiError(503, "the server is making other QR codes: try again in a moment", retry_after=1) from None
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-store"})


@router.get("/api/games", tags=["games"], summary="List the games, newest first, a page at a time",
            responses=ERRORS)
async def list_games(
        request: Request,
        limit: int = Query(50, ge=1, le=200, description="games on this page"),
        before: str | None = Query(None, max_length=40,
                                   description="the id of the last game of the previous page")
) -> list[dict[str, Any]]:
    return await hub_of(request).page(limit, before)


@router.post("/api/games", status_code=201, tags=["games"], summary="Create a game", responses=ERRORS)
async def create_game(body: CreateGame, request: Request) -> CreatedGame:
    hub = hub_of(request)
    hub.rate.hit("create_per_address", address(request))
    start: dict[str, Any] = {"edition": body.edition, "time_control": body.time_control,
                             "arbiter": body.arbiter, "white": body.white or "?", "black": body.black or "?"}
    for name in ("mode", "fen", "quickplay_guidelines", "event", "site", "round", "default_time",
                 "start_position", "clock", "visually_disabled", "assistant", "hearing_impaired", "setup",
                 *REGULATION_FIELDS):
        value = getattr(body, name)
        if value is not None:
            start[name] = value
    if body.variant == "chess960":
        start["variant"] = "chess960"
        if body.start_position is None and body.fen is None:
            # Guidelines II.1: drawn at random, here on the server, and written into the log.
            start["start_position"] = secrets.randbelow(960)
    when_ready, presence = fair_start(body)
    seat_open = body.interface == "online" and (body.white is None or body.black is None)
    arbiter_link = body.arbiter_link if body.arbiter_link is not None else not seat_open
    if seat_open and arbiter_link:  # whoever holds the arbiter's link may play the other seat: said to the joiner
        start["arbiter_is_a_player"] = True
    live, tokens = await hub.create(start, {"white": body.white, "black": body.black}, body.interface,
                                    body.start_in, when_ready=when_ready, abort_after=body.abort_after,
                                    presence=presence, arbiter_token=arbiter_link or body.interface != "online")
    return CreatedGame(id=live.id, tokens=tokens, links=game_links(live.id, tokens, str(request.base_url)),
                       state=hub.view(live))


@router.get("/api/games/{game_id}", tags=["games"], summary="The state of a game", responses=ERRORS)
async def get_state(game_id: str, request: Request, lang: str = Query("en", max_length=10)) -> dict[str, Any]:
    hub = hub_of(request)
    lang = hub.language_of(lang)
    final = await hub.final_view(game_id)  # a retired game: its stored final state, no replay
    if final is not None:
        final["rematch"] = hub.views.rematches.get(game_id)
        if lang != "en" and hub.write_move is not None:
            hub.localise(final["moves"], final["initial_fen"], lang, bool(final.get("chess960")))
            final["lang"] = lang
        return final
    return hub.view(await hub.fetch(game_id), lang)


@router.post("/api/games/{game_id}/join", tags=["games"], summary="Take an open seat", responses=ERRORS)
async def join(game_id: str, body: JoinSeat, request: Request) -> Joined:
    hub = hub_of(request)
    hub.rate.hit("join_per_address", address(request))
    live = await hub.fetch(game_id, write=True)
    if live.game.state.config.arbiter_is_a_player and not body.arbiter_is_a_player:
        raise ApiError(409, "this game's creator, who plays the other seat, also holds its arbiter's link (he may "
                            "set the clocks and decide claims): join with 'arbiter_is_a_player': true to accept")
    token = await hub.join(live, body.seat, body.name)
    return Joined(seat=body.seat, token=token, link=f"{request.base_url}game/{game_id}#token={token}")


async def _viewer(request: Request, game_id: str,
                  cred: HTTPAuthorizationCredentials | None) -> tuple[LiveGame, Seat | None]:
    """The game and the seat its reader's token opens (None: a spectator, who sends no token); a token that
    opens no seat is refused (401) rather than read as a spectator's."""
    live = await hub_of(request).fetch(game_id)
    tok = token_of(cred)
    s = live.seat_of(tok)
    if tok and s is None:
        raise ApiError(401, NO_SEAT)
    return live, s


@router.get("/api/games/{game_id}/seat", tags=["games"], summary="Which seat a token opens", responses=ERRORS)
async def seat(game_id: str, request: Request,
               cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> SeatInfo:
    _, s = await _viewer(request, game_id, cred)
    return SeatInfo(seat=s or "spectator")


@router.post(
    "/api/games/{game_id}/events",
    tags=["events"],
    summary="Post an event (the server stamps t)",
    responses=ERRORS,
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": EventIn.model_json_schema(ref_template="#/components/schemas/{model}")}}}},
)
async def post_event(game_id: str, request: Request,
                     cred: HTTPAuthorizationCredentials | None = Depends(bearer),
                     lang: str = Query("en", max_length=10, description="piece letters of the state's moves")) -> Ack:
    hub = hub_of(request)
    body = strict_json(await request.body())
    tok = token_of(cred)
    if not tok:  # refused before anything is read or counted: a spectator spends no one's budget
        raise ApiError(401, SPECTATOR)
    if game_id in hub.set_aside:
        ack = await hub.annul_set_aside(game_id, tok, body)
        return Ack(seq=ack["seq"], event=ack["event"], state=hub.view(hub.get(game_id), lang))
    live = await hub.fetch(game_id)
    seat_ = await seat_for(hub, live, tok)
    if seat_ is None:
        raise ApiError(401, NO_SEAT)
    live, ack = await take_event(hub, live, body, seat_, tok, write=True)
    return Ack(seq=ack["seq"], event=ack["event"], state=hub.view(live, lang))


@router.get("/api/games/{game_id}/log", tags=["games"], summary="The game log (JSON Lines)", responses=ERRORS,
            response_class=PlainTextResponse)
async def game_log(game_id: str, request: Request,
                   cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Response:
    live, s = await _viewer(request, game_id, cred)
    lines = [json.dumps(public_event(e.to_json(), arbiter=s == "arbiter"), ensure_ascii=False)
             for e in live.game.events]
    return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson")


@router.get("/api/games/{game_id}/read-move", tags=["games"], responses=ERRORS,
            summary="A move as played on the board, legal or not, in coordinates")
async def read_played_move(game_id: str, request: Request,
                           move: str = Query(..., min_length=1, max_length=40, description="as a player writes it"),
                           lang: str | None = Query(None, max_length=10,
                                                    description="the piece letters it is written in")) -> ReadMove:
    """What the arbiter records over the board: the move the text names in the game's position now, read by the
    notation's one grammar (:func:`chesslaws.notation.read_illegal_move`); an illegal move is then sent in the
    coordinates given here, as the log writes one. Its ``lang`` names the piece letters: a refusal is in the
    language of the page's switch or the browser."""
    setattr(request.state, LANG_NAMES_OTHER, True)
    live = await hub_of(request).fetch(game_id)
    position = hub_of(request).game_now(live).state.position
    try:
        uci, legal = read_illegal_move(position, move, lang if lang in LANGUAGES else None)
    except AmbiguousMove as err:
        return ReadMove(move=move, uci=None, legal=False, candidates=list(getattr(err, "candidates", [])))
    except ChessLawsError as err:
        raise ApiError(422, str(err).replace(f" in {position.fen()}", "")) from None
    return ReadMove(move=move, uci=uci, legal=legal)


@router.get("/api/games/{game_id}/pgn", tags=["games"], summary="The game in PGN", responses=ERRORS,
            response_class=PlainTextResponse)
async def game_pgn(game_id: str, request: Request) -> Response:
    hub = hub_of(request)
    live = await hub.fetch(game_id)
    game = hub.game_now(live)
    cfg = game.state.config
    text = export_pgn(game, live.names.get("white") or cfg.white, live.names.get("black") or cfg.black,
                      live.created_at)
    return PlainTextResponse(text, media_type="application/x-chess-pgn",
                             headers={"content-disposition": f'inline; filename="{game_id}.pgn"'})


__all__ = ["bearer", "rematch_router", "router"]

"""The ASGI application of ``chesslaws serve`` (FastAPI; the OpenAPI description at ``/openapi.json``).

Routes (JSON unless said otherwise; a seat token goes in ``Authorization: Bearer TOKEN``):

- ``GET /`` the lobby page; ``GET /game/{id}`` the game page (the seat token in the URL fragment).
- ``GET /api/games`` list; ``POST /api/games`` create (returns the id and the tokens, once).
- ``GET /api/games/{id}`` the state: the spec's state JSON, moves, legal moves, server time.
- ``POST /api/games/{id}/join`` take an open seat (returns its token, once).
- ``GET /api/games/{id}/seat`` which seat a token opens.
- ``POST /api/games/{id}/events`` an event; the server stamps ``t`` and, for players, ``by``.
- ``GET /api/games/{id}/log`` the log (JSON lines); sealed moves hidden from all but the arbiter.
- ``GET /api/games/{id}/pgn`` the game in PGN.
- ``WS /api/games/{id}/ws?token=&lang=&moves=`` states as they change; events may be sent on it too.
  With ``moves=new`` a state's ``moves`` holds only the moves after the first ``moves_from`` of the
  list this socket has (the first state has ``moves_from`` 0: the whole list), and ``controls`` is
  left out while it is the one last sent; the acknowledgement of an event sent on such a socket
  carries the socket's new state (``"state"``) in place of a separate state message. Without it,
  every state is whole.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Literal, Sequence

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chesslaws.events import RANGES, SCHEMAS
from chesslaws.qrcode import MAX_TEXT, QrBusy, QrMaker, QrTooLong
from chesslaws.server.export import export_pgn
from chesslaws.engines import EngineSpec
from chesslaws.server.engines import EnginePlayers
from chesslaws.server.engines import install as install_engines
from chesslaws.server.rematch import install as install_rematch
from chesslaws.server.guard import SECURITY_HEADERS, Limits, Refused, SocketLimit, VisibleName, strict_json
from chesslaws.server.paths import PathCheck
from chesslaws.server.hub import MAX_BODY, ApiError, Hub, LiveGame, Subscriber, public_event
from chesslaws.store.games import Store, open_store
from chesslaws.store.rows import dumps

log = logging.getLogger("chesslaws.server")

WEB_DIR = Path(str(resources.files("chesslaws").joinpath("web")))


# --- request and response models (for validation and the OpenAPI description) -------------------


class CreateGame(BaseModel):
    """A new game. Players left out (null) leave their seat open for ``join``."""

    model_config = ConfigDict(extra="forbid")
    edition: Literal["1989", "1997", "2023"] = "2023"
    time_control: str = Field("300+2", max_length=200, description="e.g. 300+2, 40/5400+30:1800+30, 300d5, - (no clock)")
    mode: Literal["standard", "rapid", "blitz"] | None = None
    arbiter: Literal["present", "absent", "occasional"] = Field("present", description=(
        "present: the arbiter sees flags and illegal moves at once; absent: only the players' claims; occasional: "
        "present in the venue, he sees them when his console says he observed them ('observe')"))
    white: VisibleName | None = Field(None, min_length=1, max_length=100)
    black: VisibleName | None = Field(None, min_length=1, max_length=100)
    fen: str | None = Field(None, max_length=200)
    variant: Literal["standard", "chess960"] = Field(
        "standard", description="chess960: 2023 Guidelines II (the 2023 Laws only)")
    start_position: int | None = Field(None, ge=0, le=959, description=(
        "Chess960 only: the starting position's number (518 is the standard array); left out (and no fen), "
        "the server draws one at random and writes it into the log"))
    interface: Literal["online", "otb"] = Field(
        "online", description="online: players act for themselves and illegal moves are refused; "
                              "otb: over-the-board, the arbiter enters every event and illegal moves are logged")
    start_in: float = Field(0, ge=0, le=86400, description="seconds until the scheduled start (t=0)")
    when_ready: bool | None = Field(None, description=(
        "online only: t=0 (the clocks start) when both seats are taken and both players have opened the game "
        "(its WebSocket with their token). Left out, it is true for an online game without start_in (the fair "
        "start, the default); false asks for the old behaviour: the clocks start at creation"))
    abort_after: float | None = Field(None, ge=5, le=3600, description=(
        "online only: seconds after the start (for Black: after White's first move) within which the side to "
        "move must make its first move, else the game is aborted: logged as the arbiter's 'annul' with a "
        "reason beginning 'aborted:' (no result)"))
    presence: bool | None = Field(None, description=(
        "online only, with start_in: both players count as absent until they open the game (its WebSocket "
        "with their token); those there before t=0 arrive at t=0, later ones when they open it, and the "
        "edition's default time (Article 6.7; 'default_time' to set it) decides who came too late. Left out, "
        "it is true for an online game with start_in > 0 (unless when_ready is true); false asks for the old "
        "behaviour: the clocks start at t=0 whoever is there"))
    default_time: float | None = Field(None, ge=0, le=86400, description="seconds: the default time announced "
                                                                         "for late arrival (Article 6.7)")
    quickplay_guidelines: bool | None = None
    clock: Literal["analogue", "digital"] | None = Field(None, description=(
        "the clock at the board: digital establishes which flag fell first when both have fallen (1989 12.8, "
        "1997 6.11, 2023 III.3.1); analogue (the default) does not"))
    visually_disabled: list[Literal["white", "black"]] | None = Field(None, max_length=2, description=(
        "2023 Appendix D: the players who are visually disabled (moves announced, two boards, game scores)"))
    assistant: list[Literal["white", "black"]] | None = Field(None, max_length=2, description=(
        "2023 8.1.6, D.2.10-D.2.11: the players with an assistant at the board (one who records the moves for a "
        "player unable to keep score; a visually disabled player's, or the sighted player's when he has none)"))
    hearing_impaired: list[Literal["white", "black"]] | None = Field(None, max_length=2, description=(
        "2023 D.2.11: hearing-impaired players (a visually disabled player paired with one needs an assistant)"))
    event: str | None = Field(None, max_length=200)
    site: str | None = Field(None, max_length=200)
    round: str | None = Field(None, max_length=50)
    arbiter_link: bool | None = Field(None, description=(
        "online only: whether the creator receives the game's arbiter token. Left out, he does when both seats are "
        "named, and not when a seat is left open (issue 36: whoever takes that seat must not face an opponent who "
        "is also the arbiter). true with a seat open: the game's state says arbiter_is_a_player, and a player "
        "joins only with 'arbiter_is_a_player': true in his request (he was told before he sat down)"))


def fair_start(body: CreateGame) -> tuple[bool, bool]:
    """``when_ready`` and ``presence`` as the request asks, with the fair start as the default of every
    online game (issue 27): without start_in, the clocks start when both players have opened the game;
    with start_in, at the scheduled start, the players absent until they open it (the default time decides).
    The old start (the clocks run from creation, or from t=0 whoever is there) only when asked for with
    false. Over-the-board games keep the Laws' start: neither applies to them."""
    online = body.interface == "online"
    when_ready = body.when_ready if body.when_ready is not None else \
        online and body.start_in == 0 and not body.presence
    presence = body.presence if body.presence is not None else online and body.start_in > 0 and not when_ready
    return when_ready, presence


class QrText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, description=f"what the QR code holds, e.g. a seat link (at most {MAX_TEXT} "
                                                "characters)")

    @field_validator("text")
    @classmethod
    def _short(cls, text: str) -> str:
        if len(text) > MAX_TEXT:
            raise ValueError(f"too long for a QR code here: {len(text)} characters, at most {MAX_TEXT} (a seat "
                             "link has fewer than 200)")
        return text


class CreatedGame(BaseModel):
    id: str
    tokens: dict[str, str] = Field(description="seat -> secret token; shown once, only hashes are stored")
    links: dict[str, str]
    state: dict[str, Any]


class JoinSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Literal["white", "black"]
    name: VisibleName = Field(min_length=1, max_length=100)
    arbiter_is_a_player: bool = Field(False, description=(
        "true: the player knows that the game's creator, his opponent, holds its arbiter's link (the state's "
        "arbiter_is_a_player); such a game refuses a join without it"))


class Joined(BaseModel):
    seat: str
    token: str
    link: str


class SeatInfo(BaseModel):
    seat: Literal["white", "black", "arbiter", "spectator"]


class ErrorBody(BaseModel):
    error: str
    status: int


class Ack(BaseModel):
    seq: int
    event: dict[str, Any]
    state: dict[str, Any]


def _event_model() -> type[BaseModel]:
    """The OpenAPI description of an event, made from the arbiter's own schemas (``events.SCHEMAS``),
    so that every event type and every field the arbiter takes is in it, and nothing else."""
    pytypes: dict[str, Any] = {}
    for schema in SCHEMAS.values():
        for name, kind in {**schema.required, **schema.optional}.items():
            kinds = kind if isinstance(kind, tuple) else (kind,)
            t: Any = float if set(kinds) == {int, float} else (kinds[0] if len(kinds) == 1 else str)
            if kinds == (str, int):
                t = str | int
            pytypes[name] = t
    types = tuple(k for k in SCHEMAS if k != "start")
    fields: dict[str, Any] = {
        "type": (Literal[types], Field(description="the event type; see the game-log documentation")),
        "by": (Literal["white", "black", "arbiter"] | None, Field(
            None, description="a player's token acts for its own side; the arbiter names the side in "
                              "over-the-board games")),
    }
    for name, t in sorted(pytypes.items()):
        if name in ("type", "by", "t"):
            continue
        users = sorted(k for k, sc in SCHEMAS.items() if name in sc.required or name in sc.optional)
        low, high = RANGES.get(name, (None, None))
        fields[name] = (t | None, Field(None, ge=low, le=high, description="in: " + ", ".join(users)))
    model: type[BaseModel] = create_model(
        "EventIn", __config__=ConfigDict(extra="forbid"),
        __doc__="An event of the game log without ``t`` (the server stamps it): see docs/game-log.md.",
        **fields)
    return model


EventIn = _event_model()


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text} for code, text in (
        (400, "the body is not strict JSON (syntax, repeated key, NaN, nesting, a lone surrogate)"),
        (401, "the token opens no seat of this game"),
        (403, "this seat may not send this event"),
        (404, "no such game"),
        (409, "not allowed now (the game's state, a set-aside game, a full log)"),
        (413, "the body is too large"),
        (422, "a field is wrong (named in the message), or the arbiter refuses the event"),
        (429, "too many requests: see Retry-After"),
        (503, "the database is unreachable: nothing was recorded; see Retry-After"),
    )
}


# --- a limit on body sizes, before anything reads them -----------------------------------------


class BodyLimit:
    """Before anything reads a request: 413 for a body over ``limit`` bytes (declared or streamed),
    400/422 for a body that is not strict JSON (:func:`guard.strict_json`), and the security headers
    (CSP without inline script, no framing, no referrer, nosniff) on every response."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def _reject(self, send: Send, status: int = 413, message: str | None = None) -> None:
        text = message or f"the request body is over {self.limit} bytes"
        body = json.dumps({"error": text, "status": status}).encode()
        log.info("refused: %d %s", status, text)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        inner = send

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await inner(message)

        send = send_with_headers
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > self.limit:
                        await self._reject(send)
                        return
                except ValueError:
                    pass
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._reject(send)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip():
            try:
                strict_json(body)
            except Refused as err:
                await self._reject(inner, err.status, err.message)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# --- the app -------------------------------------------------------------------------------------


def create_app(db: str | Store = "./chesslaws.sqlite3", limits: Limits | None = None, *,
               engines: Sequence[EngineSpec] = (), engine_pool: int = 2) -> FastAPI:
    """The server's ASGI app over a store (a Store, a SQLite path or a postgresql:// URL), with the
    rate limits ``limits`` (:class:`guard.Limits`; the defaults suit a club server); ``engines`` can be
    played against (:mod:`chesslaws.server.engines`)."""
    store = db if isinstance(db, Store) else open_store(db)
    hub = Hub(store, limits)
    qr = QrMaker()
    players = EnginePlayers(hub, engines, engine_pool)  # issue 19: engines as players

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        await players.start()
        yield
        await players.stop()
        await asyncio.to_thread(qr.close)
        await hub.stop()

    app = FastAPI(
        title="chesslaws",
        summary="Live chess games under the 1989, 1997 and 2023 FIDE Laws, with the clock and the arbiter.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI and ReDoc load from a CDN: the server serves only local files
        redoc_url=None,
    )
    app.state.hub = hub
    app.state.qr = qr
    app.state.engines = players
    install_engines(app, hub, players)
    install_rematch(app, hub, players)
    app.add_middleware(PathCheck)  # issue 36: ids and numbers in paths, before tokens and stores
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SocketLimit, per_address=hub.limits.sockets_per_address)  # issue 30: idle sockets
    bearer = HTTPBearer(auto_error=False, description="the secret token of a seat (white, black or arbiter)")

    def error(status: int, message: str, retry_after: int | None = None) -> JSONResponse:
        headers = {"retry-after": str(retry_after)} if retry_after else None
        return JSONResponse({"error": message, "status": status}, status_code=status, headers=headers)

    @app.exception_handler(Refused)
    async def _api_error(request: Request, exc: Refused) -> JSONResponse:
        log.info("refused %s %s: %d %s", request.method, request.url.path, exc.status, exc.message)
        return error(exc.status, exc.message, getattr(exc, "retry_after", None))

    @app.exception_handler(Exception)
    async def _fault(request: Request, exc: Exception) -> JSONResponse:
        log.exception("fault on %s %s", request.method, request.url.path)
        return error(500, "the server failed on this request; the fault is logged for its operator")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errs):
            return error(400, "the body is not valid JSON")
        parts = []
        for e in errs[:5]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        text = "; ".join(parts) or "invalid request"
        log.info("refused %s %s: 422 %s", request.method, request.url.path, text)
        return error(422, text)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error(exc.status_code, str(exc.detail))

    def token_of(cred: HTTPAuthorizationCredentials | None) -> str | None:
        return cred.credentials if cred is not None else None

    def links(gid: str, tokens: dict[str, str], base: str) -> dict[str, str]:
        out = {seat: f"{base}game/{gid}#token={tok}" for seat, tok in tokens.items()}
        out["spectator"] = f"{base}game/{gid}"
        return out

    # --- pages ---------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "game.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    from chesslaws.tournament.live import install as install_tournaments  # tournaments: /api/tournaments, /tournament/ID

    install_tournaments(app, hub, store.url)

    # --- API -----------------------------------------------------------------------------
    @app.get("/api/languages", tags=["games"], summary="Languages of the scoresheet's piece letters")
    async def languages() -> list[dict[str, str]]:
        return hub.language_list()

    @app.post("/api/qr", tags=["games"], summary="A QR code (SVG) of a text, e.g. a seat link for a phone",
              response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}, **ERRORS})
    async def qr_code(body: QrText, request: Request) -> Response:
        # issue 36: limited per address, made in a child process (never on this loop), the last ones kept
        hub.rate.hit("qr_per_address", address(request))
        try:
            svg = await qr.svg(body.text)
        except QrTooLong:
            raise ApiError(422, "text: too long for a QR code") from None
        except QrBusy:
            raise ApiError(503, "the server is making other QR codes: try again in a moment", retry_after=1) from None
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-store"})

    @app.get("/api/games", tags=["games"], summary="List the games, newest first, a page at a time",
             responses=ERRORS)
    async def list_games(
            limit: int = Query(50, ge=1, le=200, description="games on this page"),
            before: str | None = Query(None, max_length=40,
                                       description="the id of the last game of the previous page")
    ) -> list[dict[str, Any]]:
        return await hub.page(limit, before)

    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    @app.post("/api/games", status_code=201, tags=["games"], summary="Create a game", responses=ERRORS)
    async def create_game(body: CreateGame, request: Request) -> CreatedGame:
        hub.rate.hit("create_per_address", address(request))
        start: dict[str, Any] = {"edition": body.edition, "time_control": body.time_control,
                                 "arbiter": body.arbiter, "white": body.white or "?", "black": body.black or "?"}
        for name in ("mode", "fen", "quickplay_guidelines", "event", "site", "round", "default_time",
                     "start_position", "clock", "visually_disabled", "assistant", "hearing_impaired"):
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
        return CreatedGame(id=live.id, tokens=tokens, links=links(live.id, tokens, str(request.base_url)),
                           state=hub.view(live))

    @app.get("/api/games/{game_id}", tags=["games"], summary="The state of a game", responses=ERRORS)
    async def get_state(game_id: str, lang: str = Query("en", max_length=10)) -> dict[str, Any]:
        lang = hub.language_of(lang)
        final = await hub.final_view(game_id)  # a retired game: its stored final state, no replay
        if final is not None:
            if lang != "en" and hub.write_move is not None:
                hub.localise(final["moves"], final["initial_fen"], lang, bool(final.get("chess960")))
                final["lang"] = lang
            return final
        return hub.view(await hub.fetch(game_id), lang)

    @app.post("/api/games/{game_id}/join", tags=["games"], summary="Take an open seat", responses=ERRORS)
    async def join(game_id: str, body: JoinSeat, request: Request) -> Joined:
        hub.rate.hit("join_per_address", address(request))
        live = await hub.fetch(game_id, write=True)
        if live.game.state.config.arbiter_is_a_player and not body.arbiter_is_a_player:
            raise ApiError(409, "this game's creator, who plays the other seat, also holds its arbiter's link (he may "
                                "set the clocks and decide claims): join with 'arbiter_is_a_player': true to accept")
        token = await hub.join(live, body.seat, body.name)
        return Joined(seat=body.seat, token=token, link=f"{request.base_url}game/{game_id}#token={token}")

    @app.get("/api/games/{game_id}/seat", tags=["games"], summary="Which seat a token opens", responses=ERRORS)
    async def seat(game_id: str, cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> SeatInfo:
        live = await hub.fetch(game_id)
        tok = token_of(cred)
        s = live.seat_of(tok)
        if tok and s is None:
            raise ApiError(401, "this token opens no seat of this game")
        return SeatInfo(seat=s or "spectator")

    @app.post(
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
        body = strict_json(await request.body())
        tok = token_of(cred)
        if not tok:  # refused before anything is read or counted: a spectator spends no one's budget
            raise ApiError(401, "a seat token is needed to act in a game (spectators only watch)")
        if game_id in hub.set_aside:
            ack = await hub.annul_set_aside(game_id, tok, body)
            return Ack(seq=ack["seq"], event=ack["event"], state=hub.view(hub.get(game_id), lang))
        live = await hub.fetch(game_id)
        seat_ = live.seat_of(tok)
        if seat_ is None and hub.store.shared:  # a seat another process gave just now
            await hub.refresh_seats(live)
            seat_ = live.seat_of(tok)
        if seat_ is None:
            raise ApiError(401, "this token opens no seat of this game")
        # The seat is known: only now is anything counted, and against this seat's own budget.
        hub.rate.hit("events_per_token", tok)
        hub.rate.hit("events_per_game", f"{game_id}/{seat_}")
        live = await hub.fetch(game_id, write=True)
        ack = await hub.submit(live, body, seat_)
        return Ack(seq=ack["seq"], event=ack["event"], state=hub.view(live, lang))

    @app.get("/api/games/{game_id}/log", tags=["games"], summary="The game log (JSON Lines)", responses=ERRORS,
             response_class=PlainTextResponse)
    async def game_log(game_id: str, cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Response:
        live = await hub.fetch(game_id)
        tok = token_of(cred)
        s = live.seat_of(tok)
        if tok and s is None:
            raise ApiError(401, "this token opens no seat of this game")
        lines = [json.dumps(public_event(e.to_json(), arbiter=s == "arbiter"), ensure_ascii=False)
                 for e in live.game.events]
        return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson")

    @app.get("/api/games/{game_id}/pgn", tags=["games"], summary="The game in PGN", responses=ERRORS,
             response_class=PlainTextResponse)
    async def game_pgn(game_id: str) -> Response:
        live = await hub.fetch(game_id)
        game = hub.game_now(live)
        cfg = game.state.config
        text = export_pgn(game, live.names.get("white") or cfg.white, live.names.get("black") or cfg.black,
                          live.created_at)
        return PlainTextResponse(text, media_type="application/x-chess-pgn",
                                 headers={"content-disposition": f'inline; filename="{game_id}.pgn"'})

    # A plain Starlette route: FastAPI's own wraps every socket in two exit stacks for dependencies this
    # one does not have (about 2 KiB a socket, held as long as it is open; issue 27).
    @app.websocket_route("/api/games/{game_id}/ws")
    async def stream(ws: WebSocket) -> None:
        game_id = str(ws.path_params["game_id"])
        await ws.accept()
        try:
            live = await hub.fetch(game_id)
        except ApiError as err:
            await ws.send_json({"kind": "error", "status": err.status, "error": err.message})
            await ws.close(code=4000 + err.status)
            return
        tok = ws.query_params.get("token") or None
        seat_ = live.seat_of(tok)
        if tok and seat_ is None and hub.store.shared:
            await hub.refresh_seats(live)
            seat_ = live.seat_of(tok)
        if tok and seat_ is None:
            await ws.send_json({"kind": "error", "status": 401, "error": "this token opens no seat of this game"})
            await ws.close(code=4401)
            return
        lang = hub.language_of(ws.query_params.get("lang"))
        sub = Subscriber(lang, seat_ or "spectator", delta=ws.query_params.get("moves") == "new")
        live.subscribers.add(sub)
        sub.queue.put_nowait(dumps({"kind": "hello", "seat": seat_ or "spectator"}))
        hub.send_state(live, sub)
        await hub.present(live, seat_)
        if seat_ == "arbiter":  # the players see that an arbiter watches ("Call the arbiter"), on every process
            hub.arbiter_console(live, True)
        # Only now is the socket written to (the hello first): when the hello arrives, the seat is present.
        # From here on, a message is written at once when the socket takes it (hub.Outbox).
        sub.queue.attach(ws.send_text)

        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    try:
                        text = (frame.get("bytes") or b"").decode("utf-8")
                    except UnicodeDecodeError:
                        text = "\u0000not utf-8"
                reply: dict[str, Any]
                rid: Any = None
                try:
                    if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
                        raise ApiError(413, f"the message is over {MAX_BODY} bytes")
                    msg = strict_json(text)
                    if not isinstance(msg, dict):
                        raise ApiError(400, "a message is a JSON object {\"rid\": ..., \"event\": {...}}")
                    if msg.get("type") == "ping" and "event" not in msg:
                        # The page's heartbeat: a socket on which no pong comes back is dead even if no close
                        # arrived. Anyone may ping (nothing is counted); the pong carries the game's time t,
                        # by which the page sets its clocks against the server's.
                        pid = msg.get("id")
                        if not isinstance(pid, (str, int)) or isinstance(pid, bool):
                            pid = None
                        reply = {"kind": "pong", "id": pid, "t": hub.t_of(live)}
                        try:
                            sub.queue.put_nowait(dumps(reply))
                        except asyncio.QueueFull:
                            await ws.send_text(dumps(reply))
                        continue
                    rid = msg.get("rid")
                    if not isinstance(rid, (str, int, type(None))) or isinstance(rid, bool):
                        rid = None
                        raise ApiError(400, "'rid' is a string or an integer")
                    if "event" not in msg:
                        raise ApiError(400, "a message carries an 'event'")
                    if seat_ is None or tok is None:  # a spectator's socket: nothing it sends is counted
                        raise ApiError(401, "a seat token is needed to act in a game (spectators only watch)")
                    hub.rate.hit("events_per_token", tok)
                    hub.rate.hit("events_per_game", f"{game_id}/{seat_}")
                    ack = await hub.submit(live, msg["event"], seat_, via=sub, rid=rid)
                    if ack.get("queued"):  # already in this socket's queue, with its new state
                        continue
                    reply = {"kind": "ack", "rid": rid, "seq": ack["seq"], "event": ack["event"]}
                except Refused as err:
                    log.info("refused on the socket of game %s: %d %s", game_id, err.status, err.message)
                    reply = {"kind": "error", "rid": rid, "status": err.status, "error": err.message}
                    retry = getattr(err, "retry_after", None)
                    if retry:
                        reply["retry_after"] = retry
                except Exception:  # noqa: BLE001 - a fault: logged; the socket stays open
                    log.exception("fault on the socket of game %s", game_id)
                    reply = {"kind": "error", "rid": rid, "status": 500,
                             "error": "the server failed on this message; the fault is logged for its operator"}
                try:
                    sub.queue.put_nowait(dumps(reply))
                except asyncio.QueueFull:
                    await ws.send_text(dumps(reply))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket closed under us
            pass
        finally:
            live.subscribers.discard(sub)
            sub.queue.close()
            if seat_ == "arbiter" and not any(s.seat == "arbiter" for s in live.subscribers):
                hub.arbiter_console(live, False)
            hub.maybe_retire(live)

    return app


__all__ = ["create_app", "CreateGame", "EventIn"]

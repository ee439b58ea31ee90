"""The ASGI application of ``chesslaws serve`` (FastAPI; the OpenAPI description at ``/openapi.json``),
composed of the server's live games (:mod:`chesslaws.server`) and the tournaments (:mod:`chesslaws.tournament`)
under one roof: neither of them knows of the other or of the web.

The routes are in one module per resource: :mod:`.games` (the games over HTTP), :mod:`.socket` (a game's
WebSocket), :mod:`.engines` (games against an engine), :mod:`.tournaments`, :mod:`.broadcasts` (a round's PGN feed and spectators' boards) and :mod:`.pages`. Before any of
them a request passes :class:`~chesslaws.server.paths.PathCheck` (ids and numbers in paths),
:class:`.bodylimit.BodyLimit` (the body's size and strict JSON) and
:class:`~chesslaws.server.guard.SocketLimit` (open sockets per address).
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from typing import AsyncIterator, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from chesslaws.engines import EngineSpec
from chesslaws.qrcode import QrMaker
from chesslaws.server.engines import EnginePlayers
from chesslaws.server.guard import Limits, Refused, SocketLimit
from chesslaws.server.hub import MAX_BODY, Hub
from chesslaws.server.paths import PathCheck
from chesslaws.server.refusals import translated
from chesslaws.server.rematch import Rematches
from chesslaws.store.games import Store, open_store
from chesslaws.tournament.feed import PgnFeeds
from chesslaws.tournament.live import LiveTournaments
from chesslaws.store.tournaments import TournamentStore
from chesslaws.webapp import broadcasts, games, manual, pages, socket, texts, tournaments
from chesslaws.webapp.engines import router as engine_routes
from chesslaws.webapp.bodylimit import BodyLimit
from chesslaws.webapp.hubgames import HubGames, annul_orphans
from chesslaws.webapp.language import client_language, refusal_for

log = logging.getLogger("chesslaws.server")


def create_app(db: str | Store = "./chesslaws.sqlite3", limits: Limits | None = None, *,
               engines: Sequence[EngineSpec] = (), engine_pool: int = 2) -> FastAPI:
    """The server's ASGI app over a store (a Store, a SQLite path or a postgresql:// URL), with the
    rate limits ``limits`` (:class:`guard.Limits`; the defaults suit a club server); ``engines`` can be
    played against (:mod:`chesslaws.server.engines`)."""
    store = db if isinstance(db, Store) else open_store(db)
    hub = Hub(store, limits)
    events = TournamentStore(store.url, store)  # on PostgreSQL the games' connection pool is shared
    annul_orphans(events)  # games an older server's pairing left without their round: before the hub loads them
    qr = QrMaker()
    players = EnginePlayers(hub, engines, engine_pool)

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
    app.state.rematches = Rematches(hub, players)
    app.state.tournaments = LiveTournaments(events, HubGames(hub))
    app.state.feeds = PgnFeeds(app.state.tournaments)
    app.add_middleware(PathCheck, speak=refusal_for)  # ids and numbers in paths, before tokens and stores
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SocketLimit, per_address=hub.limits.sockets_per_address,  # idle sockets per address
                       speak=refusal_for)
    _answer_errors(app)
    app.include_router(engine_routes)
    app.include_router(games.rematch_router)
    app.include_router(pages.router)
    app.include_router(manual.router)
    app.include_router(texts.router)
    pages.mount_static(app)
    app.include_router(pages.tournament_router)
    app.include_router(tournaments.router)
    app.include_router(broadcasts.router)
    app.include_router(games.router)
    app.router.routes.append(socket.route)
    return app


def _error(status: int, message: str, retry_after: int | None = None) -> JSONResponse:
    headers = {"retry-after": str(retry_after)} if retry_after else None
    return JSONResponse({"error": message, "status": status}, status_code=status, headers=headers)


async def _refused(request: Request, exc: Refused) -> JSONResponse:
    log.info("refused %s %s: %d %s", request.method, request.url.path, exc.status, exc.message)
    return _error(exc.status, translated(exc.message, client_language(request)), getattr(exc, "retry_after", None))


async def _fault(request: Request, exc: Exception) -> JSONResponse:
    log.exception("fault on %s %s", request.method, request.url.path)
    return _error(500, translated("the server failed on this request; the fault is logged for its operator",
                                  client_language(request)))


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming each field that is wrong (at most five) and what is wrong with it: the field's name as the
    client sent it, pydantic's message in the client's language."""
    errs = exc.errors()
    lang = client_language(request)
    if any(e.get("type") == "json_invalid" for e in errs):
        return _error(400, translated("the body is not valid JSON", lang))
    english, said = [], []
    for e in errs[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        msg = str(e.get("msg"))
        english.append(f"{where}: {msg}" if where else msg)
        said.append(f"{where}: {translated(msg, lang)}" if where else translated(msg, lang))
    text = "; ".join(english) or "invalid request"
    log.info("refused %s %s: 422 %s", request.method, request.url.path, text)
    return _error(422, "; ".join(said) or translated("invalid request", lang))


async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    return _error(exc.status_code, str(exc.detail))


def _answer_errors(app: FastAPI) -> None:
    """Every refusal and fault as ``{"error": ..., "status": ...}`` (with Retry-After when it has one)."""
    app.exception_handler(Refused)(_refused)
    app.exception_handler(Exception)(_fault)
    app.exception_handler(RequestValidationError)(_invalid)
    app.exception_handler(StarletteHTTPException)(_http)


__all__ = ["create_app"]

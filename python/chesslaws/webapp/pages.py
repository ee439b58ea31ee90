"""The pages: the lobby, a game, the tournaments' pages, and the static files they load.

``GET /`` the lobby; ``GET /game/{id}`` a game (a seat token in the URL fragment); ``GET /tournaments`` the
events and the form that creates one; ``GET /tournament/{id}`` the standings; ``.../arbiter`` the round's
arbiter console (the arbiter's token in the fragment); ``.../player/{n}`` a player's page (the player's token
in the fragment); ``.../sheet`` the pairing sheet; ``.../round/{n}`` a round broadcast live (every board); ``/static/...`` the scripts and styles.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from chesslaws.webapp.context import WEB_DIR

router = APIRouter(include_in_schema=False)
tournament_router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html")


@router.get("/game/{game_id}")
async def game_page(game_id: str) -> FileResponse:
    return FileResponse(WEB_DIR / "game.html")


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")


@tournament_router.get("/tournaments")
async def tournaments_page() -> FileResponse:
    return FileResponse(WEB_DIR / "tournaments.html")


@tournament_router.get("/tournament/{tid}")
async def tournament_page(tid: str) -> FileResponse:
    return FileResponse(WEB_DIR / "tournament.html")


@tournament_router.get("/tournament/{tid}/arbiter")
async def console_page(tid: str) -> FileResponse:
    return FileResponse(WEB_DIR / "round-console.html")


@tournament_router.get("/tournament/{tid}/player/{number}")
async def player_page(tid: str, number: int) -> FileResponse:
    return FileResponse(WEB_DIR / "tournament-player.html")


@tournament_router.get("/tournament/{tid}/round/{number}")
async def round_live_page(tid: str, number: int) -> FileResponse:
    return FileResponse(WEB_DIR / "round-live.html")


@tournament_router.get("/tournament/{tid}/sheet")
async def sheet_page(tid: str) -> FileResponse:
    return FileResponse(WEB_DIR / "pairing-sheet.html")


def mount_static(app: FastAPI) -> None:
    """``/static``: the package's web folder."""
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")


__all__ = ["mount_static", "router", "tournament_router"]

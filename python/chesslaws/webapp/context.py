"""What the routes read from a request or a socket: the app's hub, the client's address, the seat token, links.

The app keeps its services in ``app.state`` (:func:`chesslaws.webapp.app.create_app`): ``hub`` (the live games),
``qr`` (the QR maker), ``engines`` (the engine players), ``rematches`` and ``tournaments``. The routes are plain
functions that take them from there, so that a route module holds no state of its own.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, cast

from fastapi.security import HTTPAuthorizationCredentials
from starlette.requests import HTTPConnection

from chesslaws.server.hub import Hub

if TYPE_CHECKING:
    from chesslaws.qrcode import QrMaker
    from chesslaws.server.engines import EnginePlayers
    from chesslaws.server.rematch import Rematches

#: The pages, scripts and styles the server serves (the package's ``web`` folder).
WEB_DIR = Path(str(resources.files("chesslaws").joinpath("web")))


def hub_of(conn: HTTPConnection) -> Hub:
    """The app's hub: every live game."""
    return cast(Hub, conn.app.state.hub)


def qr_of(conn: HTTPConnection) -> QrMaker:
    return cast("QrMaker", conn.app.state.qr)


def engines_of(conn: HTTPConnection) -> EnginePlayers:
    return cast("EnginePlayers", conn.app.state.engines)


def rematches_of(conn: HTTPConnection) -> Rematches:
    return cast("Rematches", conn.app.state.rematches)


def address(conn: HTTPConnection) -> str:
    """The client's address as the server sees it (the peer, or what a trusted proxy forwarded)."""
    return conn.client.host if conn.client else "unknown"


def token_of(cred: HTTPAuthorizationCredentials | None) -> str | None:
    """The bearer token of a request (None without one)."""
    return cred.credentials if cred is not None else None


def game_links(gid: str, tokens: dict[str, str], base: str) -> dict[str, str]:
    """Each seat's link to a game (its token in the fragment) and the spectators' link."""
    out = {seat: f"{base}game/{gid}#token={tok}" for seat, tok in tokens.items()}
    out["spectator"] = f"{base}game/{gid}"
    return out


__all__ = ["WEB_DIR", "address", "engines_of", "game_links", "hub_of", "qr_of", "rematches_of", "token_of"]

"""The errors the server answers to its clients: :class:`ApiError` (an HTTP status, a message, and for 429
and 503 the seconds after which to try again), the outage's 503, and the check of a game id."""

from __future__ import annotations

import re

from chesslaws.errors import ChessLawsError
from chesslaws.server.guard import Refused

#: Seconds a client is told to wait (Retry-After) while the database is unreachable.
RETRY_AFTER_OUTAGE = 2


class ApiError(Refused):
    """An error answered to the client: an HTTP status and a message (and, for 429 and 503, the
    seconds after which to try again)."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(status, message)
        self.retry_after = retry_after


def unavailable() -> ApiError:
    """The 503 of a request made while the game store is unreachable."""
    return ApiError(503, "the game store is unreachable: nothing was recorded; the clocks are held "
                         "until it returns (try again in a moment)", retry_after=RETRY_AFTER_OUTAGE)


def reason(err: BaseException) -> str:
    """An error as one line for the server's log or a set-aside game's reason (at most 300 characters)."""
    text = str(err) if isinstance(err, ChessLawsError) else f"{type(err).__name__}: {err}"
    return text[:300]


_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_id(game_id: str, what: str = "") -> None:
    """Game ids are short URL-safe tokens: anything else names no game (and never reaches the store)."""
    if not _GAME_ID.fullmatch(game_id):
        shown = game_id[:40].encode("unicode_escape").decode("ascii")
        raise ApiError(404, f"{what}no game {shown!r}")


__all__ = ["ApiError", "RETRY_AFTER_OUTAGE", "check_id", "reason", "unavailable"]

"""Path parameters checked before anything else reads them.

Every id and number in a path (a game's id, a tournament's id, a round, a start number, a table) is
checked for its shape here, in an ASGI middleware in front of every route: a NUL (which PostgreSQL
refuses in text, answering 500 or dropping the connection), an invisible or stray character, an id of
a hundred characters, a number of thirty digits is answered 404 (an id: it names nothing) or 422 (a
number), naming the field, before a token is checked or a store is asked.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping

#: How a refusal reaches the client: the English message, for the request's scope, in the client's language.
Speak = Callable[[Mapping[str, Any], str], str]

#: Ids (games and tournaments) are short URL-safe tokens.
ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: Rounds, start numbers and tables: positive integers of a few digits.
NUMBER = re.compile(r"[0-9]{1,6}")

# (the path's leading segments, the kind of id that follows them)
_IDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("api", "games"), "game"),
    (("game",), "game"),
    (("api", "tournaments"), "tournament"),
    (("tournament",), "tournament"),
)
# A segment that a number follows, in a tournament's paths, and the field it is.
_NUMBERS = {"players": "number", "player": "number", "rounds": "number", "boards": "table"}


def shown(text: str) -> str:
    """A path parameter as an error may quote it: 40 characters, escaped."""
    return text[:40].encode("unicode_escape").decode("ascii")


def path_error(path: str) -> tuple[int, str] | None:
    """The status and message for a path whose id or number is malformed, or None if it is well formed
    (or names no such parameter)."""
    parts = path.split("/")[1:]
    for head, kind in _IDS:
        n = len(head)
        if len(parts) <= n or tuple(parts[:n]) != head:
            continue
        ident = parts[n]
        if not ident and len(parts) == n + 1:
            return None  # /api/games/: the list
        if not ID.fullmatch(ident):
            name = "game_id" if kind == "game" else "tid"
            return 404, (f"{name}: no {kind} {shown(ident)!r} (an id is letters, digits, '-' and '_', "
                         "at most 64)")
        if kind == "tournament":
            rest = parts[n + 1:]
            for i, seg in enumerate(rest[:-1]):
                field = _NUMBERS.get(seg)
                if field is not None and not NUMBER.fullmatch(rest[i + 1]):
                    return 422, (f"{field}: {shown(rest[i + 1])!r} is not a {'table' if field == 'table' else seg.rstrip('s')}"
                                 " number (a positive integer of at most 6 digits)")
        return None
    return None


def english(scope: Mapping[str, Any], message: str) -> str:
    """A refusal as it is written: English."""
    return message


class PathCheck:
    """ASGI middleware: :func:`path_error` answered at once (HTTP), or the socket closed before it is
    accepted (WebSocket, code 1008 with the message); ``speak`` puts the message in the client's language."""

    def __init__(self, app: Any, speak: Speak = english) -> None:
        self.app = app
        self.speak = speak

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        found = path_error(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        status, english_message = found
        message = self.speak(scope, english_message)
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": close_reason(message)})
            return
        body = json.dumps({"error": message, "status": status}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def close_reason(message: str) -> str:
    """A WebSocket close reason: at most 123 bytes of UTF-8, cut at a character."""
    return message.encode()[:120].decode(errors="ignore")


__all__ = ["ID", "NUMBER", "PathCheck", "Speak", "close_reason", "english", "path_error", "shown"]

"""What stands between a client and the games: strict JSON, text hygiene, rate limits, headers.

Everything a client sends is read here first, over HTTP and over the WebSocket alike, and refused
with a 4xx naming what is wrong before anything reaches the arbiter or the store:

- JSON is parsed strictly: nesting at most :data:`MAX_DEPTH` deep, no repeated key in an object
  (``{"type": "move", "type": "resign"}`` is ambiguous, not "the last wins"), no ``NaN`` or
  ``Infinity``, no integer of more than :data:`MAX_INT_DIGITS` digits.
- Every string is checked: no lone surrogate (it cannot be stored or sent back as UTF-8), no control
  character (NUL included), and no bidirectional control character (a right-to-left override would
  show a name reversed in the lobby). One rule for both stores: SQLite and PostgreSQL see the same
  text or nothing.
- Rate limits (the ``limits`` library's moving windows, in memory): per address for creating games
  and taking seats, per token for events, and per game for events.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

#: How deep a JSON document may nest (an event is two levels deep; a WebSocket message three).
MAX_DEPTH = 8
#: The longest integer literal accepted (clock values in ms have at most 10 digits).
MAX_INT_DIGITS = 20

# Bidirectional controls (embeddings, overrides, isolates, marks): they reorder how text is shown.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class Refused(Exception):
    """A request refused before it reaches a game: an HTTP status and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _depth_ok(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest at most ``limit`` deep (scanned before parsing, so that
    a deeply nested document never reaches the recursive parser)."""
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Refused(400, f"the key {key!r} appears twice in one object: say it once")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise Refused(400, f"{name} is not a JSON number: send a finite number")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise Refused(422, f"the number {text[:12]}… has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(422, f"the number {text[:12]}… is too large")
    return value


def check_text(value: str, where: str) -> None:
    """Refuses a string with a lone surrogate, a control character or a bidirectional control."""
    for i, ch in enumerate(value):
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            raise Refused(400, f"{where}: a lone surrogate (U+{code:04X}) at character {i} is not text")
        if ch in _BIDI:
            raise Refused(422, f"{where}: the bidirectional control U+{code:04X} at character {i} is not allowed")
        if code < 0x20 or 0x7F <= code < 0xA0 or unicodedata.category(ch) == "Cc":
            raise Refused(422, f"{where}: the control character U+{code:04X} at character {i} is not allowed")


def _check_strings(value: Any, where: str) -> None:
    if isinstance(value, str):
        check_text(value, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key, f"{where} key")
            _check_strings(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_strings(item, f"{where}[{i}]")


_W = "[ \\t\\n\\r]*"
#: The message a player's page sends for a move, ``{"rid": N, "event": {"type": "move", "move": "e2e4"}}``:
#: ASCII letters and digits only, no repeated key, two levels deep. Read without the general parser
#: (a move is most of what a server receives); anything else takes the general path.
_MOVE_MESSAGE = re.compile(
    f'{{{_W}"rid"{_W}:{_W}(0|[1-9][0-9]{{0,14}}){_W},{_W}"event"{_W}:{_W}{{{_W}"type"{_W}:{_W}"move"{_W},'
    f'{_W}"move"{_W}:{_W}"([A-Za-z0-9=+#-]{{1,12}})"{_W}}}{_W}}}')


def strict_json(data: bytes | str) -> Any:
    """Parses a request body or a WebSocket message strictly, or raises :class:`Refused`."""
    if isinstance(data, str):
        plain = _MOVE_MESSAGE.fullmatch(data)
        if plain is not None:
            return {"rid": int(plain[1]), "event": {"type": "move", "move": plain[2]}}
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise Refused(400, f"the body is not UTF-8 (byte {err.start})") from None
    else:
        text = data
    if not _depth_ok(text, MAX_DEPTH):
        raise Refused(400, f"the JSON nests deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                           parse_int=_int, parse_float=_float)
    except Refused:
        raise
    except (ValueError, RecursionError) as err:
        where = f" (line {err.lineno}, column {err.colno})" if isinstance(err, json.JSONDecodeError) else ""
        raise Refused(400, f"the body is not valid JSON{where}") from None
    _check_strings(value, "")
    return value


# --- rate limits -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits (``limits`` notation: "30/minute"; several separated by ";"). ``None``
    turns a limit off."""

    create_per_address: str | None = "20/minute;200/hour"
    join_per_address: str | None = "30/minute"
    events_per_token: str | None = "10/second;300/minute"
    events_per_game: str | None = "400/minute"
    #: Events in one game's log at most (a long game has a few hundred).
    max_events_per_game: int = 3000
    #: Incorrect claims by one side after which the arbiter is told of a possible annoyance (2023 11.5).
    incorrect_claims_alert: int = 3
    #: Tournaments created, rounds paired, and games those rounds create, per address (a round's
    #: games count one each: a round of 500 boards is 500 of them).
    tournaments_per_address: str | None = "10/minute;50/hour"
    rounds_per_address: str | None = "30/minute;300/hour"
    round_games_per_address: str | None = "2000/minute;5000/hour"


UNLIMITED = Limits(None, None, None, None, 100_000, 3, tournaments_per_address=None, rounds_per_address=None,
                   round_games_per_address=None)


class RateLimiter:
    """Moving-window limits in memory, by kind and key."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._storage = MemoryStorage()
        self._strategy = MovingWindowRateLimiter(self._storage)
        self._items: dict[str, list[RateLimitItem]] = {}
        for kind in ("create_per_address", "join_per_address", "events_per_token", "events_per_game",
                     "tournaments_per_address", "rounds_per_address", "round_games_per_address"):
            spec = getattr(limits, kind)
            self._items[kind] = [parse(part.strip()) for part in spec.split(";") if part.strip()] if spec else []

    def hit(self, kind: str, key: str, cost: int = 1) -> None:
        """Counts one request (``cost``: as that many); raises :class:`Refused` (429) when a limit is reached."""
        for item in self._items.get(kind, ()):
            if not self._strategy.hit(item, kind, key, cost=cost):
                reset, _ = self._strategy.get_window_stats(item, kind, key)
                raise RateLimited(item, reset)


class RateLimited(Refused):
    """429 with the seconds to wait."""

    def __init__(self, item: RateLimitItem, reset: float) -> None:
        import time

        self.retry_after = max(1, math.ceil(reset - time.time()))
        super().__init__(429, f"too many requests: at most {item.amount} per {item.multiples} "
                              f"{item.GRANULARITY.name}{'s' if item.multiples != 1 else ''}; "
                              f"try again in {self.retry_after} s")


# --- headers ---------------------------------------------------------------------------------------

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

__all__ = ["CSP", "Limits", "MAX_DEPTH", "RateLimited", "RateLimiter", "Refused", "SECURITY_HEADERS",
           "UNLIMITED", "check_text", "strict_json"]

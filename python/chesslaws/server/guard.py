"""What stands between a client and the games: strict JSON, text hygiene, rate limits, headers.

Everything a client sends is read here first, over HTTP and over the WebSocket alike, and refused
with a 4xx naming what is wrong before anything reaches the arbiter or the store:

- JSON is parsed strictly: nesting at most :data:`MAX_DEPTH` deep, no repeated key in an object
  (``{"type": "move", "type": "resign"}`` is ambiguous, not "the last wins"), no ``NaN`` or
  ``Infinity``, no integer of more than :data:`MAX_INT_DIGITS` digits.
- Every string is checked: no lone surrogate (it cannot be stored or sent back as UTF-8), no control
  character (NUL included), no bidirectional control character (a right-to-left override would
  show a name reversed in the lobby), and no line or paragraph separator (U+2028, U+2029). One rule for both stores: SQLite and PostgreSQL see the same
  text or nothing.
- Rate limits (the ``limits`` library's moving windows, in memory): per address for creating games
  and taking seats, per token for events, and per game for events.
- Connections (:func:`connection_guard`): a request's headers must arrive within a time limit (a
  half-open connection is closed, not held: slowloris), an address may hold only so many connections
  and WebSockets at once (:class:`SocketLimit`), and a forwarded address is believed only from a
  configured proxy (``chesslaws serve --forwarded-allow-ips``).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import AfterValidator

from chesslaws.jsondepth import MAX_DEPTH, depth_ok
from chesslaws.names import name_problem
from chesslaws.refused import Refused
from chesslaws.server.paths import Speak, close_reason, english

#: The longest integer literal accepted (clock values in ms have at most 10 digits).
MAX_INT_DIGITS = 20

# Bidirectional controls (embeddings, overrides, isolates, marks): they reorder how text is shown.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# The line and paragraph separators: a line break where none is expected (a name on two lines).
_SEPARATORS = {"\u2028": "line", "\u2029": "paragraph"}


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
        if ch in _SEPARATORS:
            raise Refused(422, f"{where}: the {_SEPARATORS[ch]} separator U+{code:04X} at character {i} is not "
                               "allowed (it breaks a name over lines, and ends a line in JavaScript)")


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
    if not depth_ok(text, MAX_DEPTH):
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


def _visible(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return name


#: A name a person sees (a player's, an event's): at least one visible character, few combining marks in a
#: row (:func:`chesslaws.names.name_problem`); a pydantic field of this type answers 422 naming itself.
VisibleName = Annotated[str, AfterValidator(_visible)]


# --- rate limits -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits (``limits`` notation: "30/minute"; several separated by ";"). ``None``
    turns a limit off."""

    create_per_address: str | None = "20/minute;200/hour"
    join_per_address: str | None = "30/minute"
    events_per_token: str | None = "10/second;300/minute"
    #: Per seat of a game (white, black, arbiter): no sender can spend another seat's budget.
    events_per_game: str | None = "400/minute"
    #: Events in one game's log at most (a long game has a few hundred). The players' events are refused
    #: beyond it (except one that ends the game); the arbiter's never are, so that he can decide the game.
    max_events_per_game: int = 3000
    #: Incorrect claims by one side after which the arbiter is told of a possible annoyance (2023 11.5).
    incorrect_claims_alert: int = 3
    #: Claims by one side that leave the game going (incorrect, not admitted), at most in one position
    #: (between two moves) and in one game: beyond, such a claim is refused and not logged, as the
    #: annoyance the Laws forbid (1989 15.1(d), 1997 12.5, 2023 11.5). A claim that is correct is never
    #: refused. 0 turns a limit off.
    claims_per_move: int = 4
    claims_per_game: int = 25
    #: The same for a side's other events that neither move nor end the game (touch, adjust, offers,
    #: requests, summons; claims included): with the claims' limits, they keep the log of a real game
    #: far below ``max_events_per_game``.
    events_aside_per_move: int = 12
    events_aside_per_game: int = 300
    #: WebSockets open at once from one address (the N+1th is refused with 403); None: no limit.
    sockets_per_address: int | None = 200
    #: Tournaments created, rounds paired, and games those rounds create, per address (a round's
    #: games count one each: a round of 500 boards is 500 of them).
    tournaments_per_address: str | None = "10/minute;50/hour"
    rounds_per_address: str | None = "30/minute;300/hour"
    round_games_per_address: str | None = "2000/minute;5000/hour"
    #: After the end, per side and game: signatures of the scoresheets (the first and its
    #: replacements, 2023 8.7), and requests for an explanation with appeals (2023 11.9, 11.10) in all.
    #: 0 turns a limit off. See :mod:`chesslaws.server.budget`.
    signatures_per_game: int = 3
    recourse_per_game: int = 8
    #: The longest text a player writes in an event (a question, a reason), in characters; the most items
    #: of a list (squares, a written game score).
    text_chars: int = 500
    list_items: int = 3000
    #: QR codes (``POST /api/qr``) per address: a pairing sheet asks one per seat (a round of 150 boards
    #: is 300 of them); each costs the server up to 40 ms of a core.
    qr_per_address: str | None = "300/minute;3000/hour"
    #: Anonymous reads of an event (``GET /api/tournaments/ID`` and ``.../trf``) per address: each is made
    #: once per change of the event, but one address should not ask for thousands.
    tournament_reads_per_address: str | None = "600/minute"


UNLIMITED = Limits(create_per_address=None, join_per_address=None, events_per_token=None, events_per_game=None,
                   max_events_per_game=100_000, claims_per_move=0, claims_per_game=0, events_aside_per_move=0,
                   events_aside_per_game=0, sockets_per_address=None, tournaments_per_address=None,
                   rounds_per_address=None, round_games_per_address=None, signatures_per_game=0,
                   recourse_per_game=0, qr_per_address=None, tournament_reads_per_address=None)


class RateLimiter:
    """Moving-window limits in memory, by kind and key."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._storage = MemoryStorage()
        self._strategy = MovingWindowRateLimiter(self._storage)
        self._items: dict[str, list[RateLimitItem]] = {}
        for kind in ("create_per_address", "join_per_address", "events_per_token", "events_per_game",
                     "tournaments_per_address", "rounds_per_address", "round_games_per_address", "qr_per_address",
                     "tournament_reads_per_address"):
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


# --- connections ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What a connection may hold before it has sent a request (``chesslaws serve`` flags)."""

    #: Seconds from a connection's first byte (or its opening) to the end of a request's headers.
    header_timeout: float = 10.0
    #: Seconds a kept-alive connection may stay idle between requests.
    keep_alive_timeout: float = 5.0
    #: HTTP connections open at once from one address (not counting configured proxies); None: no limit.
    connections_per_address: int | None = 100
    #: Seconds from the end of a request's headers to the end of its body (a body sent a byte at a time
    #: is answered 408 and its connection closed, not held for hours).
    body_timeout: float = 20.0


def connection_guard(limits: ConnectionLimits, trusted: frozenset[str] = frozenset()) -> type[Any]:
    """uvicorn's HTTP protocol (httptools or h11) with two limits it does not have: a request's headers
    must be complete within ``limits.header_timeout`` seconds of its first byte (or of the connection's
    opening), else the connection is closed; and an address (other than the proxies in ``trusted``)
    holding ``limits.connections_per_address`` connections has the next one closed at once. A connection
    upgraded to a WebSocket leaves this count (the app's :class:`SocketLimit` counts sockets). A request's
    body must then be complete within ``limits.body_timeout`` seconds of its headers, else it is answered
    408 (if nothing was answered yet) and the connection is closed."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    open_by_address: dict[str, int] = {}
    cap = limits.connections_per_address
    timeout = limits.header_timeout
    body_timeout = limits.body_timeout
    base: Any = AutoHTTPProtocol
    too_slow = json.dumps({"error": f"the request body did not arrive within {body_timeout:g} s", "status": 408})
    answer_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\ncontent-length: "
                  + str(len(too_slow)).encode() + b"\r\nconnection: close\r\n\r\n" + too_slow.encode())

    class GuardedHTTP(base):  # type: ignore[misc]
        _guard_host: str | None = None
        _guard_timer: Any = None
        _guard_cycle: Any = None
        _guard_body: Any = None

        def connection_made(self, transport: Any) -> None:
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else None
            if host is not None and host not in trusted:
                count = open_by_address.get(host, 0)
                if cap is not None and count >= cap:
                    transport.abort()  # refused before anything is read: the address holds enough
                    return
                open_by_address[host] = count + 1
                self._guard_host = host
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._guard_cycle = self.cycle
            self._guard_timer = self.loop.call_later(timeout, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
                self._guard_timer = None

        def _headers_too_slow(self) -> None:
            self._guard_timer = None
            if not self.transport.is_closing():
                self.transport.abort()

        def _body_too_slow(self) -> None:
            self._guard_body = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_started:
                cycle.response_started = True  # the app's own answer, if it comes, is not sent after this one
                self.transport.write(answer_408)
            self.transport.close()

        def _body_done(self) -> None:
            if self._guard_body is not None:
                self._guard_body.cancel()
                self._guard_body = None

        def _release(self) -> None:
            self._disarm()
            self._body_done()
            host, self._guard_host = self._guard_host, None
            if host is not None:
                left = open_by_address.get(host, 1) - 1
                if left > 0:
                    open_by_address[host] = left
                else:
                    open_by_address.pop(host, None)

        def data_received(self, data: bytes) -> None:
            if self._guard_timer is None and (self.cycle is None or self.cycle.response_complete):
                self._arm()  # the first bytes of a new request on a kept-alive connection
            super().data_received(data)
            if self.transport.get_protocol() is not self:  # upgraded to a WebSocket
                self._release()
                return
            if self.cycle is not self._guard_cycle:  # the request's headers are complete
                self._disarm()
                self._guard_cycle = self.cycle
                self._body_done()
                if self.cycle is not None and self.cycle.more_body:  # its body must follow in time
                    self._guard_body = self.loop.call_later(body_timeout, self._body_too_slow)
            if self._guard_body is not None and (self.cycle is None or not self.cycle.more_body):
                self._body_done()  # the body is complete

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return GuardedHTTP


class SocketLimit:
    """ASGI middleware: at most ``per_address`` WebSockets open at once from one address (the client's
    address as the server sees it: the peer, or the address a configured proxy forwarded). The next is
    refused before it is accepted (HTTP 403), told in its language by ``speak`` (:mod:`chesslaws.server.paths`)."""

    def __init__(self, app: Any, per_address: int | None, speak: Speak = english) -> None:
        self.app = app
        self.per_address = per_address
        self.speak = speak
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket" or self.per_address is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        host = str(client[0]) if client else "unknown"
        count = self.open.get(host, 0)
        if count >= self.per_address:
            await receive()  # websocket.connect
            said = self.speak(scope, f"at most {self.per_address} sockets from one address")
            await send({"type": "websocket.close", "code": 1008, "reason": close_reason(said)})
            return
        self.open[host] = count + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open.get(host, 1) - 1
            if left > 0:
                self.open[host] = left
            else:
                self.open.pop(host, None)


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

__all__ = ["CSP", "ConnectionLimits", "Limits", "SocketLimit", "connection_guard", "MAX_DEPTH", "RateLimited", "RateLimiter", "Refused", "SECURITY_HEADERS",
           "UNLIMITED", "VisibleName", "check_text", "strict_json"]

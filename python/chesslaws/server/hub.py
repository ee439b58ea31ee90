"""The live games: each one a :class:`~chesslaws.game.Game` in memory, its log in the store.

The :class:`Hub` owns the store (on a thread of its own), the server's clock
and every live game. An event is stamped with ``t`` by the server, checked by
the arbiter (``Game.apply``), committed to the store, and only then applied in
memory, acknowledged and broadcast. A flag fall needs no event: the hub wakes
up at the instant the running side's flag falls (``clock.flag_time``), writes
the arbiter's ``observe`` into the log (so that the ending is the log's, not
only the clock's) and broadcasts the state, in which an arbiter who is present
has observed it.
"""

from __future__ import annotations

import asyncio
import hmac
import importlib
import json
import logging
import re
import secrets
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Coroutine, Mapping, Sequence, TypeVar

import orjson

from chesslaws.errors import AmbiguousMove, ChessLawsError, IllegalMove, InvalidInput, UnreadableMove, WrongState
from chesslaws.events import SCHEMAS, ms_to_t
from chesslaws.game import Game
from chesslaws.game.draws import awaiting_arbiter
from chesslaws.game.flags import due, ending_by_itself
from chesslaws.game.state import GameState
from chesslaws.history import Moves
from chesslaws.position import STARTING_FEN, Position
from chesslaws.server.controls import controls, quickplay_players
from chesslaws.server import budget, lapse
from chesslaws.server.guard import Limits, RateLimiter, Refused
from chesslaws.server.messages import for_people
from chesslaws.server.newgame import NewGame, make_game
from chesslaws.store.db import StoreError, is_outage
from chesslaws.store.db import describe_error as _reason
from chesslaws.store.games import GameRecord, Seat, SeatTaken, Store, hash_token
from chesslaws.store.rows import UnreadableRow, dumps

log = logging.getLogger("chesslaws.server")

T = TypeVar("T")

#: The largest request body or WebSocket message accepted, in bytes.
MAX_BODY = 16 * 1024


class ApiError(Refused):
    """An error answered to the client: an HTTP status and a message (and, for 429 and 503, the
    seconds after which to try again)."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(status, message)
        self.retry_after = retry_after


#: Seconds a client is told to wait (Retry-After) while the database is unreachable.
RETRY_AFTER_OUTAGE = 2
#: How often the store is pinged, in seconds (an outage is noticed within this time); each ping records
#: the server's heartbeat.
PING_EVERY = 1.0
#: Seconds between a request's own questions to an unreachable store (see Hub._refuse_while_down).
ASK_EVERY = 0.25
#: A restart after a longer gap since the last heartbeat gives the time back to the running clocks.
RESTART_GAP = 1.0
#: Seconds between the reminders a process sends while an arbiter's console of a game is open on it (several
#: processes on one database); one not reminded of for three times as long is gone (its process died).
ARBITER_BEAT = 5.0
#: Seconds after the server (or its database) is back at which a scheduled game that has not begun (no
#: player at the board yet, no move) starts, if its start fell while no player could reach it: the time for
#: the players' pages to connect again (see Hub._give_back).
RESUME_GRACE = 10.0
#: Seconds a game that is over stays in memory (for its last viewers) before it is retired to the
#: store as its final state; it is loaded again on demand.
RETIRE_AFTER = 60.0


def seen_at(game: Game, t: float) -> Game:
    """The game as it stands at instant ``t`` (what happened by itself by then: a flag fall an arbiter
    present observes, the default time), or as its last event left it when ``t`` is before that event."""
    ms = round(t * 1000)
    return game.at(t) if ms > game.state.t_ms else game


_STATE_HEAD = '{"kind":"state","state":'


def _with_state(ack: dict[str, Any], state_message: str) -> str:
    """The acknowledgement ``ack`` with the state of ``state_message`` (a serialised
    ``{"kind": "state", "state": {...}}``) as its ``"state"``, without encoding the state again."""
    assert state_message.startswith(_STATE_HEAD)
    return dumps(ack)[:-1] + ',"state":' + state_message[len(_STATE_HEAD):]


def _state_text(state: dict[str, Any], legal: str) -> str:
    """The message ``{"kind": "state", "state": state}`` with ``legal`` (JSON text) as the state's
    ``"legal_moves"`` (the last key), without decoding and encoding it again (see :meth:`Hub._view`)."""
    return dumps({"kind": "state", "state": state})[:-2] + ',"legal_moves":' + legal + "}}"


def _clocks_at(clocks: dict[str, Any], st: GameState, ms: int) -> None:
    """``clocks``, the clocks of ``st.to_json()``, as they stand at the later instant ``ms`` when nothing
    happens by itself by then (:func:`~chesslaws.game.flags.due` is false): as in ``st`` at ``ms``, only
    the running side's time has run on (:meth:`~chesslaws.clock.Clock.remaining` at ``ms``, as the
    state's own ``to_json`` reads it at its instant). Cheaper than the state at ``ms`` (a test holds the
    two equal)."""
    running = st.clock.running
    if running is not None:
        clocks["white_ms" if running == "white" else "black_ms"] = st.clock.remaining(ms, running)


#: A live game keeps the FEN after every this many moves for its view (see Hub._move_list).
_FEN_STEP = 32

#: The letters of a move in a language, by (language, English SAN): shared by every game (bounded).
_LETTERS: dict[tuple[str, str], str] = {}


def _common_prefix(sent: Sequence[Any] | None, now: Sequence[Any]) -> int:
    """How many of the moves ``now`` a viewer that was sent ``sent`` already has. Move records are
    shared between successive states (a later state's moves are a longer view of the same buffer, or
    a tuple beginning with the same objects), so this is cheap; a takeback or correction shortens the
    prefix."""
    if sent is None:
        return 0
    common = getattr(sent, "common_prefix", None)  # two views of packed moves (not isinstance: slower)
    if common is not None and type(sent) is type(now):
        return int(common(now))
    n = min(len(sent), len(now))
    if n == 0 or sent[n - 1] is now[n - 1]:
        return n
    k = 0
    while k < n and sent[k] is now[k]:
        k += 1
    return k


def replay_lenient(events: list[dict[str, Any]]) -> tuple[Game | None, int, str | None]:
    """Replays a stored log as far as it goes: the game of the longest replayable prefix, the number
    of events in it, and why the next one could not be applied (None when the whole log replays)."""
    if not events:
        return None, 0, "the log is empty"
    for i, line in enumerate(events):
        if isinstance(line, UnreadableRow):  # replay stops before it
            if i == 0:
                return None, 0, line.reason
            events = events[:i]
            game, good, why = replay_lenient(events)
            return game, good, why if why is not None else line.reason
    try:
        game = Game.from_events(events[:1])
    except Exception as err:  # noqa: BLE001 - a stored line may be anything: say what, never crash
        return None, 0, _reason(err)
    for i, line in enumerate(events[1:], start=1):
        try:
            game = game.apply(line)
        except Exception as err:  # noqa: BLE001
            return game, i, f"event {i}: {_reason(err)}"
    return game, len(events), None


_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _check_id(game_id: str, what: str = "") -> None:
    """Game ids are short URL-safe tokens: anything else names no game (and never reaches the store)."""
    if not _GAME_ID.fullmatch(game_id):
        shown = game_id[:40].encode("unicode_escape").decode("ascii")
        raise ApiError(404, f"{what}no game {shown!r}")


@dataclass(eq=False)
class SetAside:
    """A stored game whose log cannot be replayed: kept out of play, served as an error naming the
    reason, until the arbiter annuls it."""

    record: GameRecord
    reason: str
    prefix: Game | None
    good: int  # events of the log that replay

    def seat_of(self, token: str | None) -> Seat | None:
        if not token:
            return None
        h = hash_token(token)
        for seat in ("arbiter", "white", "black"):
            stored = self.record.token_hashes.get(seat)
            if stored and hmac.compare_digest(stored, h):
                return seat
        return None


def public_event(event: Mapping[str, Any], *, arbiter: bool) -> dict[str, Any]:
    """A log line as a viewer may see it: a sealed move stays hidden from all but the arbiter."""
    out = dict(event)
    if out.get("type") == "seal" and not arbiter:
        out["move"] = None
    return out


def _notation() -> Callable[..., str] | None:
    try:
        mod = importlib.import_module("chesslaws.notation")
    except ImportError:
        return None
    fn = getattr(mod, "write_move", None)
    return fn if callable(fn) else None


def _languages() -> list[dict[str, str]]:
    """The scoresheet languages ``chesslaws.notation`` knows (code and name), English first."""
    english = [{"code": "en", "name": "English"}]
    try:
        mod = importlib.import_module("chesslaws.notation")
    except ImportError:
        return english
    table = getattr(mod, "LANGUAGES", None)
    if not isinstance(table, Mapping):
        return english
    out = []
    for code, lang in table.items():
        name = getattr(lang, "name", None) or str(code)
        out.append({"code": str(code), "name": str(name)})
    out.sort(key=lambda d: (d["code"] != "en", d["name"]))
    return out if out and out[0]["code"] == "en" else english + out


async def _resume(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Runs on, as a task, a coroutine that :meth:`Outbox.put_nowait` began and that stopped at
    ``waiting`` (what it yielded: a future, or None for a bare yield), until it returns."""
    try:
        while True:
            try:
                if waiting is None:
                    await asyncio.sleep(0)
                else:
                    waiting._asyncio_future_blocking = False  # taken, as a task takes what it is yielded
                    await waiting
            except asyncio.CancelledError:
                raise
            except BaseException:  # noqa: BLE001 - the coroutine meets it itself, below, as asyncio does
                pass
            try:
                waiting = coro.send(None)
            except StopIteration:
                return
    finally:
        coro.close()


class Outbox:
    """A socket's bounded queue of messages.

    What the hub needs of :class:`asyncio.Queue` (``put_nowait``, ``get``, ``get_nowait``, ``empty``,
    :class:`asyncio.QueueFull` when full), in about 150 bytes instead of about 2 KiB (three deques): a
    server holds one per socket, ten thousand of them (issue 27). Full means the viewer does not read;
    :meth:`Hub.broadcast` then keeps only the latest state, so a slow viewer never holds more than
    ``maxsize`` messages, and never delays anyone: nothing here waits for a socket.

    With a ``writer`` (the socket's send), a message is written at once when nothing is queued or
    being written: the send runs to its end here when the socket takes it (the usual case, no task and
    no switch), and only when the socket is full (a viewer that reads late) does the rest of that
    send, then what is queued meanwhile, go on in a task of its own, in order. Without one (an engine's
    seat), one reader takes the messages with :meth:`get`. A socket that is not written to holds no task.
    """

    __slots__ = ("maxsize", "writer", "_items", "_waiter", "_writing")

    def __init__(self, maxsize: int = 64, writer: Callable[[str], Coroutine[Any, Any, None]] | None = None) -> None:
        self.maxsize = maxsize
        self.writer = writer
        self._items: list[str] = []
        self._waiter: asyncio.Future[None] | None = None
        self._writing: asyncio.Task[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return len(self._items) >= self.maxsize

    def put_nowait(self, item: str) -> None:
        if self.writer is not None and self._writing is None and not self._items:
            self._write(self.writer, item)
            return
        if len(self._items) >= self.maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def attach(self, writer: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """From now on, messages go to ``writer``; what was queued before goes first, in order."""
        self.writer = writer
        while self._items and self._writing is None and self.writer is not None:
            self._write(self.writer, self._items.pop(0))

    def _write(self, writer: Callable[[str], Coroutine[Any, Any, None]], item: str) -> None:
        coro = writer(item)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # written
        except Exception:  # noqa: BLE001 - the socket is closing: its handler ends it (Outbox.close)
            coro.close()
            self.writer = None
            return
        self._writing = asyncio.ensure_future(self._drain(_resume(coro, waiting)))

    async def _drain(self, first: Coroutine[Any, Any, None]) -> None:
        """The send the socket could not take at once, then what was queued meanwhile, in order."""
        try:
            await first
            while self._items and self.writer is not None:
                await self.writer(self._items.pop(0))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the socket is closing: its handler ends it
            self.writer = None
        finally:
            self._writing = None

    def close(self) -> None:
        """The socket is gone: nothing more is written, what was queued is dropped."""
        self.writer = None
        self._items.clear()
        if self._writing is not None:
            self._writing.cancel()
            self._writing = None

    def get_nowait(self) -> str:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    def clear(self) -> None:
        self._items.clear()

    async def get(self) -> str:
        """The next message, once there is one (one reader at a time; an outbox without a writer)."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


@dataclass(eq=False)
class Subscriber:
    """A WebSocket viewer: states are queued for its sender task."""

    lang: str
    seat: str = "spectator"
    queue: Outbox = field(default_factory=Outbox)
    # Moves by difference (the page asks with ?moves=new): a state then carries only the moves this
    # viewer does not have yet, after the first ``moves_from`` of those it was sent (``sent``).
    delta: bool = False
    sent: Sequence[Any] | None = None
    sent_controls: dict[str, Any] | None = None  # the controls block last sent (left out while unchanged)


@dataclass(eq=False)
class LiveGame:
    id: str
    created_at: float
    interface: str
    names: dict[str, str | None]
    token_hashes: dict[str, str | None]
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    # The fair start of an online game (see Hub.present): t=0 waits until both players have opened it;
    # a game whose side to move makes no first move within abort_after seconds is aborted.
    waiting: bool = False
    abort_after: float | None = None
    present: set[str] = field(default_factory=set)
    # A scheduled online start (Article 6.7): the players are absent until they open the game;
    # those who opened it before t=0 arrive at t=0.
    scheduled: bool = False
    early: set[str] = field(default_factory=set)
    # A tournament round's game (with ``waiting``): t=0 comes when the arbiter starts the round
    # (Hub.start_held), not when the players come; until then nothing runs.
    held: bool = False
    incorrect_claims: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    full_alerted: bool = False  # the arbiter was told that the log is full
    # The other processes of a shared store with an arbiter's console of this game open: their origins, and
    # when each last said so (monotonic seconds; each says it again every ARBITER_BEAT s while it is open).
    arbiters_elsewhere: dict[str, float] = field(default_factory=dict)
    retire: asyncio.TimerHandle | None = None
    # What the view computed and keeps (see Hub._move_list): the move records it was computed for, the
    # FEN after every _FEN_STEP-th move (None from a move the board cannot replay on) and after the last
    # move viewed (the number of moves, the FEN): not one per move (issue 27); and the legal moves.
    move_records: Sequence[Any] = ()
    move_fens: list[str | None] = field(default_factory=list)
    move_tail: tuple[int, str | None] | None = None
    # The legal moves of one position (the position itself, held, is the key: no FEN is written for it).
    legal_cache: tuple[Position, str, str] | None = None  # (position, language, their JSON)
    view_records: Sequence[Any] = ()  # the move records of the latest view (see Hub.broadcast)
    # What a view takes from the game's configuration alone (see Hub.view), per language: built again
    # only when an event changes the configuration (the object is then another one).
    config_cache: dict[str, tuple[Any, dict[str, Any]]] = field(default_factory=dict)

    def follow(self, rule: Mapping[str, Any]) -> None:
        """Takes the game's start rule, as stored (``Hub._rule`` writes it; ``{}``: it starts as created)."""
        self.waiting = bool(rule.get("waiting"))
        self.abort_after = rule.get("abort_after")
        self.scheduled = bool(rule.get("scheduled"))
        self.held = self.waiting and bool(rule.get("held"))

    @property
    def seq(self) -> int:
        return len(self.game.events)

    def seat_of(self, token: str | None) -> Seat | None:
        """Which seat this token opens, or None."""
        if not token:
            return None
        h = hash_token(token)
        for seat in ("arbiter", "white", "black"):
            stored = self.token_hashes.get(seat)
            if stored and hmac.compare_digest(stored, h):
                return seat
        return None


class Hub:
    """Every live game, the store and the server's clock."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.rate = RateLimiter(self.limits)
        self.games: dict[str, LiveGame] = {}
        self.set_aside: dict[str, SetAside] = {}
        # Outage bookkeeping: the last instant the store answered, and since when it has not.
        self.last_ok = 0.0
        self.down_since: float | None = None
        self._recovering: asyncio.Lock | None = None  # one give-back at a time (the ping's or a request's)
        self._asked_at = 0.0  # the last time a request asked the store whether it is back
        self._asking = False  # a request is asking it now
        self._monitor: asyncio.Task[None] | None = None
        self.retire_after = RETIRE_AFTER
        self.claim_grace = lapse.CLAIM_GRACE  # a claim that waits for an arbiter nobody watches lapses then
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._listener: Any = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chesslaws-store")
        # The server's clock: wall time anchored once, then advanced by the monotonic clock.
        self._wall0 = time.time()
        self._mono0 = time.monotonic()
        self._loop: asyncio.AbstractEventLoop | None = None
        # No game wakes up before the start has given back the time the server was not running: an ending
        # seen earlier would be written on the clock as it stood before the give-back.
        self._started = False
        self._pending: list[tuple[tuple[str, int, dict[str, Any]], asyncio.Future[None]]] = []
        self._flushing = False
        self.write_move = _notation()
        self.languages = _languages()
        self._codes = {d["code"] for d in self.languages}
        self._rules: dict[str, dict[str, Any]] = {}  # the online games' start rules, read at start
        self._presence: dict[str, set[str]] = {}  # who opened a scheduled game before its start, read at start
        # Told the id of every game whose state changed (its broadcast): tournaments follow their boards.
        self.watchers: list[Callable[[str], None]] = []
        # Told the id of every tournament another process changed (see :meth:`announce_tournament`).
        self.tournament_watchers: list[Callable[[str], None]] = []
        self.origin = secrets.token_hex(6)  # this process, in what it announces (its own notes are not news)

    def language_list(self) -> list[dict[str, str]]:
        return list(self.languages)

    def language_of(self, lang: str | None) -> str:
        """The scoresheet language a request asks for, if the server has it; English otherwise (the
        state's ``lang`` says which was used). Only these codes ever key a game's caches: a client
        cannot grow them with values of its own."""
        return lang if lang is not None and lang in self._codes and self.write_move is not None else "en"

    # --- time ------------------------------------------------------------------
    def now(self) -> float:
        return self._wall0 + (time.monotonic() - self._mono0)

    def t_of(self, live: LiveGame) -> float:
        """Seconds since the game's scheduled start, never before its last event. While the store is
        unreachable, time stands still at the outage's start: no flag falls for a player who cannot
        move (the time is given back in the log when the store returns)."""
        if live.waiting:
            return -1.0  # not started: t=0 comes when both players are there
        now = self.now() if self.down_since is None else min(self.now(), self.down_since)
        t = round(now - live.created_at, 3)
        last = live.game.events[-1].t_ms / 1000
        return max(t, last) if t >= 0 else t

    # --- store access, on the store's own thread ----------------------------------

    def game_now(self, live: LiveGame) -> Game:
        """The game at the server's instant (see :func:`seen_at`)."""
        return seen_at(live.game, self.t_of(live))
    async def _commit(self, game_id: str, seq: int, line: dict[str, Any]) -> None:
        """Appends one event; returns once it is committed. Events of several games that wait
        together are committed in one transaction (group commit: one fsync for all)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(((game_id, seq, line), fut))
        if not self._flushing:
            self._flushing = True
            asyncio.ensure_future(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                items = [item for item, _ in batch]
                try:
                    await self._db(lambda: self.store.append_many(items))
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception as err:  # noqa: BLE001
                    if not isinstance(err, StoreError):  # the database is unreachable: all fail alike
                        for _, fut in batch:
                            if not fut.done():
                                fut.set_exception(err)
                        continue
                    # Something in the batch was refused: commit them one by one to tell which.
                    results = []
                    for item in items:
                        try:
                            await self._db(lambda item=item: self.store.append(*item))  # type: ignore[misc]
                            results.append(None)
                        except Exception as err:
                            results.append(err)
                for (_, fut), failure in zip(batch, results):
                    if fut.done():
                        continue
                    if failure is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(failure)
        finally:
            self._flushing = False

    async def _db(self, fn: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self._executor, fn)
        except StoreError:
            self.last_ok = self.now()  # the database answered (it refused)
            raise
        except Exception as err:
            if not is_outage(err):  # a fault of this request, not of the database: no outage
                log.exception("the store failed on one request")
                raise StoreError("the store could not write this event") from None
            self._store_down()
            raise
        self.last_ok = self.now()
        return out

    # --- outages --------------------------------------------------------------------
    def _store_down(self) -> None:
        if self.down_since is None:
            self.down_since = self.last_ok or self.now()  # the last instant it was known to work
            log.error("the game store is unreachable: moves are refused (503) and the clocks held "
                      "since %.3f", self.down_since)
            for live in self.games.values():
                if live.timer is not None:
                    live.timer.cancel()
                    live.timer = None
                self.broadcast(live)

    def _unavailable(self) -> ApiError:
        return ApiError(503, "the game store is unreachable: nothing was recorded; the clocks are held "
                             "until it returns (try again in a moment)", retry_after=RETRY_AFTER_OUTAGE)

    async def _watch_store(self) -> None:
        """Pings the store; notices an outage within a second even if nobody writes, and when it
        returns, writes the interruption into every game that was running."""
        beat = time.monotonic()
        while True:
            await asyncio.sleep(PING_EVERY)
            try:
                await self._db(lambda: self.store.ping(self.now()))
            except Exception:  # noqa: BLE001 - an outage, already noted by _db
                continue
            if time.monotonic() - beat >= ARBITER_BEAT:
                beat = time.monotonic()
                lapse.sweep(self)  # a claim waiting for an arbiter whose console is gone (its process died)
                for live in list(self.games.values()) if self.store.shared else ():
                    if self._arbiter_here(live):  # the arbiter's consoles open here: still open
                        self._announce(live.id, f"arbiter {self.origin} 1")
            if self.down_since is not None:
                try:
                    await self._recover()
                except Exception as err:  # noqa: BLE001 - still down: try again on the next ping
                    log.warning("the game store came back but the interruptions could not be written yet: %s",
                                _reason(err))

    async def _refuse_while_down(self) -> None:
        """Raises the outage's 503 while the store is unreachable. Before refusing, a request asks the
        store once more (at most every ``ASK_EVERY`` seconds): the first request after the database
        returned is served, the interruptions written first, rather than refused until the next ping."""
        if self.down_since is None:
            return
        now = time.monotonic()
        if not self._asking and now - self._asked_at >= ASK_EVERY:  # one question at a time: a database
            self._asking, self._asked_at = True, now  # that hangs (up to the pool's timeout) piles up nothing
            try:
                await self._db(lambda: self.store.ping(self.now()))
                await self._recover()
            except Exception:  # noqa: BLE001 - still away (or the give-back failed): refused below
                pass
            finally:
                self._asking = False
        if self.down_since is not None:
            raise self._unavailable()

    async def _recover(self) -> None:
        """The store is back: the time that passed while no move could be stored is given back. Once:
        the ping and a request that both find the store back share one give-back."""
        if self._recovering is None:
            self._recovering = asyncio.Lock()
        async with self._recovering:
            if self.down_since is None:
                return  # given back by whoever held the lock
            down, up = self.down_since, self.now()
            await self._give_back(down, up, f"the server could not store moves for {up - down:.1f} s (its "
                                            "database was unreachable)", "the server's database is back")
            self.down_since = None
        log.warning("the game store is back after %.1f s; the interruptions are in the logs", up - down)
        for live in self.games.values():
            self.schedule(live)
            self.broadcast(live)

    async def _give_back(self, down: float, up: float, why: str, back: str) -> None:
        """Every game whose clock ran between ``down`` and ``up`` (unix seconds) while no move could be
        stored gets the arbiter's interruption: ``stop_clocks`` at ``down`` and ``start_clocks`` at
        ``up``, each with a ruling citing the edition's article on interruptions; no flag falls because
        of it. Raises if the store fails meanwhile (the games done so far keep their interruption)."""
        for live in list(self.games.values()):
            if live.waiting:
                continue  # not started: its t=0 comes when both players are there
            async with live.lock:
                if self.store.shared:
                    # Another process that lived through the same outage may have given the time back
                    # already: read its log first, and give nothing back twice.
                    await self._catch_up_locked(live)
                    since_ms = (down - live.created_at) * 1000
                    if any(e.type == "start_clocks" and e.by == "arbiter" and e.t_ms >= since_ms
                           for e in live.game.events[-4:]):
                        continue
                if await self._postpone_unbegun_locked(live, down, up):
                    continue
                # Who was at the board while nothing could be written (opened the game before t=0, or came
                # during the outage) is written at the board first, before the interruption: the time the
                # server could not store moves never makes him absent.
                if live.early and round(down - live.created_at, 3) >= 0:
                    await self._arrivals_locked(live)
                game = live.game
                t_down = max(round(down - live.created_at, 3), game.events[-1].t_ms / 1000)
                t_up = max(round(up - live.created_at, 3), t_down)
                if t_down < 0 or not game.state.ongoing or game.state.config.time_control.unlimited:
                    continue
                seen = seen_at(game, t_down)
                if not seen.state.ongoing or seen.state.clock.running is None:
                    continue
                stop: dict[str, Any] = {"type": "stop_clocks", "t": t_down, "by": "arbiter",
                                        "reason": f"{why}; the time that passed is given back"}
                if seen.state.absent:  # nobody could be written at the board meanwhile: the default time waits too
                    stop["default_time_extended_ms"] = round((t_up - t_down) * 1000)
                try:
                    stopped = game.apply(stop)
                    new = stopped.apply({"type": "start_clocks", "t": t_up, "by": "arbiter", "reason": back})
                except Exception as err:  # noqa: BLE001 - one game's interruption, never the server's start
                    log.warning("game %s: no interruption written: %s", live.id, err)
                    continue
                lines = [stopped.events[-1].to_json(), new.events[-1].to_json()]
                seq = live.seq
                try:
                    await self._db(lambda: self.store.append_many(
                        [(live.id, seq, lines[0]), (live.id, seq + 1, lines[1])]))
                except StoreError:  # another process wrote first (its own interruption): take its log
                    await self._catch_up_locked(live)
                    continue
                live.game = new
                log.info("game %s: clocks held from t=%.3f to t=%.3f (%s)", live.id, t_down, t_up, why)

    async def _postpone_unbegun_locked(self, live: LiveGame, down: float, up: float) -> bool:
        """A scheduled game whose log is its start alone (nobody at the board yet, no move) and whose t=0 came
        before ``up`` while no player could reach it or be written at the board (the server or its database
        away from ``down`` to ``up``): its t=0 moves later by the time that could not be used, to
        ``RESUME_GRACE`` seconds after ``up`` less the time it had already run before ``down``. So a round
        start missed while the server was down happens a few seconds after it is back, the clocks and the
        default time (Article 6.7) counting none of the time away. True if it was postponed."""
        game = live.game
        t0 = live.created_at
        if not live.scheduled or len(game.events) != 1 or not game.state.ongoing or t0 >= up:
            return False
        if t0 < down and not seen_at(game, round(down - t0, 3)).state.ongoing:
            return False  # over by itself before (the default time passed): its ending stands
        new_t0 = round(up + RESUME_GRACE - max(0.0, down - t0), 3)
        if self.store.shared:  # another process back from the same outage may have postponed it already
            rec = await self._db(lambda: self.store.load(live.id))
            if rec is not None and rec.created_at != t0:
                live.created_at = rec.created_at
                return True
        await self._db(lambda: self.store.set_start(live.id, new_t0, self._rule(live)))
        live.created_at = new_t0
        log.info("game %s: its start, at %.3f while the server could not record it, moves to %.3f", live.id, t0,
                 new_t0)
        return True

    async def start(self) -> None:
        """Rebuilds every stored game from its log. A log that cannot be replayed does not stop the
        server: its game is set aside (served as an error naming the reason) until the arbiter annuls it."""
        self._loop = asyncio.get_running_loop()
        records = await self._db(lambda: list(self.store.load_live()))  # games that are over stay in the store
        self._rules = await self._db(self.store.start_rules)
        self._presence = await self._db(self.store.presences)
        for rec in records:
            self._load(rec)
        # The time since the last heartbeat (a crash, a restart, an outage the last server did not live
        # through) is time in which no player could move: it is given back.
        beat = await self._db(self.store.last_heartbeat)
        now = self.now()
        if beat is not None and now - beat >= RESTART_GAP:
            await self._give_back(beat, now, f"the server was not running for {now - beat:.1f} s", "the server is back")
        self._started = True
        for live in self.games.values():
            self.schedule(live)
        await self._db(lambda: self.store.ping(now))
        self.last_ok = now
        self._monitor = asyncio.ensure_future(self._watch_store())
        if self.store.shared:  # other processes write too: hear of their changes
            loop = self._loop
            self._listener = self.store.listen(
                lambda gid, what: loop.call_soon_threadsafe(self._changed, gid, what))

    # --- several processes on one database -------------------------------------------------------
    def _changed(self, game_id: str | None, what: str) -> None:
        """Another process (or this one) committed a change: bring the copy in memory up to date."""
        if game_id is None:  # (re)connected: whatever was missed meanwhile
            for each in list(self.games.values()):
                asyncio.ensure_future(self._catch_up(each))
            self._announce("*", f"arbiter? {self.origin}")  # and whose arbiter's console is open elsewhere
            return
        kind, _, origin = what.partition(" ")
        if kind == "tournament":  # an event changed on another process: its pages here read it again
            if origin != self.origin:
                for told in self.tournament_watchers:
                    told(game_id)
            return
        if kind == "arbiter?" and origin != self.origin:  # a process asks who has an arbiter's console open
            for each in ([self.games[game_id]] if game_id in self.games else
                         list(self.games.values()) if game_id == "*" else []):
                if self._arbiter_here(each):
                    self._announce(each.id, f"arbiter {self.origin} 1")
            return
        live = self.games.get(game_id)
        if live is None:
            return  # not in memory here: loaded from the store when asked for
        if kind in ("arbiter", "alert"):
            if origin.split(" ", 1)[0] != self.origin:
                self._heard_arbiter(live, kind, origin)
            return
        if what == "seat":
            asyncio.ensure_future(self.refresh_seats(live))
        elif what == "presence":
            asyncio.ensure_future(self.refresh_presence(live))
        elif what.isdigit() and int(what) >= live.seq:
            asyncio.ensure_future(self._catch_up(live))

    async def _catch_up(self, live: LiveGame) -> None:
        try:
            async with live.lock:
                await self._catch_up_locked(live)
        except Exception as err:  # noqa: BLE001 - an outage: caught up on the next change or write
            log.warning("game %s: could not catch up with the store: %s", live.id, _reason(err))

    async def _catch_up_locked(self, live: LiveGame) -> bool:
        """Applies the events another process appended to this game's log; True if there were any."""
        rows = await self._db(lambda: self.store.events_since(live.id, live.seq))
        if not rows:
            return False
        game = live.game
        for row in rows:
            try:
                game = game.apply(row)
            except Exception as err:  # noqa: BLE001 - another process stored it: it replays
                log.error("game %s: an event stored by another process does not apply here: %s",
                          live.id, _reason(err))
                break
            by = row.get("by")
            if row.get("type") in budget.CLAIMS and by in ("white", "black") and game.state.ongoing and not game.state.claims:
                # A claim that left the game going, made through another process: counted here too (the
                # arbiter is told by the process that takes the claim reaching the limit, wherever it is).
                live.incorrect_claims[by] = live.incorrect_claims.get(by, 0) + 1
        live.game = game
        self.schedule(live)
        self.broadcast(live)
        self.maybe_retire(live)
        return True

    async def refresh_seats(self, live: LiveGame) -> None:
        """Reads the seats again (another process gave one to a player)."""
        try:
            rec = await self._db(lambda: self.store.load(live.id))
        except Exception:  # noqa: BLE001
            return
        if rec is not None:
            live.token_hashes.update(rec.token_hashes)
            live.names.update(rec.names)
            if rec.created_at != live.created_at and live.waiting:  # another process started it
                live.created_at = rec.created_at
                live.waiting = False
                live.held = False
                self.schedule(live)
            self.broadcast(live)

    def announce_tournament(self, tid: str) -> None:
        """Tells the other processes of a shared store that the tournament ``tid`` changed (a round paired or
        started, a result, a player's entry): their standings, player and console pages read it again."""
        self._announce(tid, f"tournament {self.origin}")

    def _announce(self, key: str, what: str) -> None:
        """NOTIFY ``key what`` to the other processes of a shared store (nothing on a store of one process)."""
        if not self.store.shared or self.down_since is not None:
            return

        async def run() -> None:
            try:
                await self._db(lambda: self.store.announce(key, what))
            except Exception as err:  # noqa: BLE001 - told again on the next change
                log.warning("%s: %s could not be announced: %s", key, what.split(" ", 1)[0], _reason(err))

        asyncio.ensure_future(run())

    # --- the arbiter's consoles, on whichever process -----------------------------------------------
    def arbiter_console(self, live: LiveGame, opened: bool) -> None:
        """An arbiter's console of the game opened here, or the last one here closed: the players (here and,
        told with NOTIFY, on the other processes) see whether an arbiter watches ("Call the arbiter"), and
        what waits for him (a summons, a claim he decides) is accepted on every process while he does."""
        self.broadcast(live)
        self._announce(live.id, f"arbiter {self.origin} {int(opened)}")
        if not opened:
            lapse.lapse_later(self, live)

    def _heard_arbiter(self, live: LiveGame, kind: str, rest: str) -> None:
        """Another process's news of the game's arbiter: his console opened or closed there ("arbiter ORIGIN
        1|0"), or an alert for him made there ("alert ORIGIN JSON"), shown by the consoles open here."""
        origin, _, tail = rest.partition(" ")
        if kind == "arbiter":
            was = self._arbiter_watching(live)
            if tail == "1":
                live.arbiters_elsewhere[origin] = time.monotonic()
            else:
                live.arbiters_elsewhere.pop(origin, None)
            if was != self._arbiter_watching(live):
                self.broadcast(live)
            if tail != "1":
                lapse.lapse_later(self, live)
            return
        self._to_arbiter_consoles(live, tail)

    async def refresh_presence(self, live: LiveGame) -> None:
        """Reads again who opened the game before its start (another process's player opened it): a held or
        scheduled game's early arrivals, or the players a fair start waits for."""
        try:
            seats = await self._db(lambda: self.store.presence(live.id))
        except Exception:  # noqa: BLE001 - read again on the next change
            return
        if live.waiting and not live.held:  # a fair start: both players there, on whichever process
            if seats - live.present:
                live.present |= seats
                await self._start_when_ready(live)
            return
        st = live.game.state
        new = {s for s in seats if s in st.absent} - live.early if st.ongoing and live.scheduled else set()
        if not new:
            return
        live.early |= new
        if self.t_of(live) >= 0:  # started meanwhile: he is at the board from t=0 (whoever writes it first)
            await self._arrive_early(live)
        else:
            self._tell_watchers(live.id)
            self.broadcast(live)

    def _load(self, rec: GameRecord) -> None:
        """Rebuilds a stored game; one that cannot be rebuilt is set aside (never fatal)."""
        try:
            self._load_record(rec)
        except Exception as err:  # noqa: BLE001 - whatever is in a stored row, the server starts
            why = f"it cannot be loaded ({_reason(err)})"
            print(f"chesslaws serve: game {rec.id} is set aside: {why}", file=sys.stderr)
            self.games.pop(rec.id, None)
            self.set_aside[rec.id] = SetAside(rec, why, None, 0)

    def _load_record(self, rec: GameRecord) -> None:
        if rec.unreadable is not None:  # its own row: nothing to replay, nothing the arbiter can annul
            print(f"chesslaws serve: game {rec.id} is set aside: {rec.unreadable}; its row in the games table "
                  "must be repaired", file=sys.stderr)
            self.set_aside[rec.id] = SetAside(rec, rec.unreadable, None, 0)
            return
        game, good, why = replay_lenient(rec.events)
        if why is not None:
            last = rec.events[-1] if rec.events else {}
            if game is not None and isinstance(last, dict) and last.get("type") == "annul":
                try:  # annulled after being set aside: the replayable part, then the annulment
                    game = game.apply(last)
                    why = None
                except Exception:  # noqa: BLE001
                    pass
            if why is not None:
                print(f"chesslaws serve: game {rec.id} is set aside: its log cannot be replayed ({why}); "
                      "the arbiter may annul it", file=sys.stderr)
                self.set_aside[rec.id] = SetAside(rec, why, game, good)
                return
        assert game is not None
        rule = self._rules.get(rec.id)
        if rule is None:
            rule = {}
        elif isinstance(rule, UnreadableRow):
            if game.state.ongoing:  # its start cannot be known: set aside until the arbiter annuls it
                print(f"chesslaws serve: game {rec.id} is set aside: {rule.reason}; the arbiter may annul it",
                      file=sys.stderr)
                self.set_aside[rec.id] = SetAside(rec, rule.reason, game, good)
                return
            rule = {}
        live = LiveGame(rec.id, rec.created_at, rec.interface, rec.names, rec.token_hashes, game)
        live.follow(rule)
        if live.scheduled and game.state.ongoing:  # who opened it before its start, not yet written at the board
            live.early = {s for s in self._presence.get(rec.id, ()) if s in game.state.absent}
        elif live.waiting and not live.held:  # who opened a game that waits for both players
            live.present = set(self._presence.get(rec.id, ()))
        self.games[rec.id] = live
        self.schedule(live)
        self.maybe_retire(live)

    # --- games that are over leave memory ------------------------------------------------------
    def ended(self, live: LiveGame) -> Game | None:
        """The game as it ended, if it is over at the server's instant, else None: the one answer to "is
        this game over, and how" for every path (the lobby, retiring, tournaments). It includes what the
        Laws decided by themselves with no event in the log: a flag fall the arbiter present observes,
        the default time for a player who did not come (both read from the log and the clock, so they
        hold after a restart and on every process of one database)."""
        game = self.game_now(live)
        return game if game.state.status in ("finished", "annulled") else None

    def _over(self, live: LiveGame) -> bool:
        return self.ended(live) is not None

    async def settle(self, live: LiveGame) -> Game | None:
        """:meth:`ended`, with an ending that happened by itself first written into the game's log (the
        arbiter's ``observe``: a flag fall, the default time). Every path that shows or takes a result
        (a game's state, the lobby, a tournament's standings) goes through here, so that no result is shown
        that the log does not hold: a SIGKILL right after it, and the restart that gives back the time since
        the last heartbeat, can never undo it. If it cannot be written now (the database is away), the
        ending is still answered; it is written on the next look (:meth:`next_wakeup_ms`)."""
        if self._ending_unwritten(live):
            try:
                async with live.lock:
                    await self._write_ending_locked(live, self.t_of(live))
            except ApiError as err:
                log.warning("game %s: its ending could not be written into its log yet: %s", live.id, err.message)
        return self.ended(live)

    def _ending_unwritten(self, live: LiveGame) -> bool:
        """Has the game ended by itself (a flag fall observed, the default time) with its log not saying so
        yet? (Cheap when nothing is due: no state at the instant is built.)"""
        st = live.game.state
        if not st.ongoing or live.waiting:
            return False
        t = self.t_of(live)
        return t >= 0 and due(st, round(t * 1000)) and seen_at(live.game, t).state.status == "finished"

    async def _write_ending_locked(self, live: LiveGame, t: float) -> None:
        """If the game ended by itself by instant ``t`` and its log does not say so yet, the arbiter's
        ``observe`` event at ``t`` (the caller holds the game's lock)."""
        game = live.game
        if live.waiting or t < 0 or not game.state.ongoing or not due(game.state, round(t * 1000)):
            return
        seen = seen_at(game, t).state
        if seen.status != "finished":
            return
        try:
            await self._apply(live, "observe", "arbiter", {"what": ending_by_itself(seen)}, "arbiter", at=t)
        except ApiError as err:
            if err.status != 409:  # 409: another process wrote first; its log, now read, ends the game
                raise

    def maybe_retire(self, live: LiveGame) -> None:
        """Once a game is over (and nobody watches it), it leaves memory after ``retire_after`` seconds,
        its final state written to the store so that reading it needs no replay."""
        if live.retire is not None:
            live.retire.cancel()
            live.retire = None
        if self._loop is None or live.subscribers or not self._over(live):
            return
        live.retire = self._loop.call_later(self.retire_after, lambda: asyncio.ensure_future(self._retire(live)))

    async def _retire(self, live: LiveGame, *, stopping: bool = False) -> None:
        """Writes a game that is over to the store as its final state and lets it leave memory (when
        ``stopping``, the server is going away: whoever still watches it)."""
        live.retire = None
        async with live.lock:
            if (live.subscribers and not stopping) or not self._over(live) or self.games.get(live.id) is not live:
                return
            final = {"view": self.view(live), "summary": self.summary(live)}
            try:
                await self._db(lambda: self.store.set_final(live.id, final["summary"]["status"], final))
            except Exception as err:  # noqa: BLE001 - stays in memory; tried again on its next change
                log.warning("game %s: could not be retired: %s", live.id, _reason(err))
                return
            if live.timer is not None:
                live.timer.cancel()
            del self.games[live.id]

    async def fetch(self, game_id: str, *, write: bool = False) -> LiveGame:
        """The game in memory, loaded from its log on demand if it was retired. With ``write``, the
        store marks it live again first (an event may follow)."""
        _check_id(game_id)
        live = self.games.get(game_id)
        if live is None and game_id not in self.set_aside:
            pending = self._loading.get(game_id)
            if pending is None:
                pending = self._loading[game_id] = asyncio.get_running_loop().create_future()
                try:
                    rec = await self._db(lambda: self.store.load(game_id))
                    rule = await self._db(lambda: self.store.start_rule(game_id))
                    if rule is not None:
                        self._rules[game_id] = rule
                    seats = await self._db(lambda: self.store.presence(game_id))
                    if seats:
                        self._presence[game_id] = seats
                    if rec is not None and game_id not in self.games:
                        self._load(rec)
                        self._announce(game_id, f"arbiter? {self.origin}")  # his console may be open elsewhere
                    pending.set_result(self.games.get(game_id))
                except Exception:  # noqa: BLE001
                    api = ApiError(503, "the game could not be loaded: the database is unreachable",
                                   retry_after=RETRY_AFTER_OUTAGE)
                    pending.set_exception(api)
                    pending.exception()  # retrieved: waiters get it through shield
                    raise api from None
                finally:
                    del self._loading[game_id]
            live = await asyncio.shield(pending)
        if live is None:
            return self.get(game_id)  # 404, or the reason it is set aside
        await self.settle(live)
        if write and live.retire is None and self._over(live):
            try:
                await self._db(lambda: self.store.set_final(game_id, "live", None))
            except Exception:  # noqa: BLE001
                raise self._unavailable() from None
        return live

    async def final_view(self, game_id: str) -> dict[str, Any] | None:
        """The stored final state of a retired game (no replay), or None."""
        _check_id(game_id)
        if game_id in self.games or game_id in self.set_aside:
            return None
        try:
            got = await self._db(lambda: self.store.final(game_id))
        except Exception:  # noqa: BLE001
            raise self._unavailable() from None
        return None if got is None else dict(got[1]["view"])

    async def stop(self) -> None:
        if self._monitor is not None:
            self._monitor.cancel()
        if self._listener is not None:
            await asyncio.to_thread(self._listener.close)
        for live in self.games.values():
            if live.timer is not None:
                live.timer.cancel()
        if self.down_since is None:  # the games that are over leave as they would have: the next start skips them
            for live in list(self.games.values()):
                if live.retire is not None:
                    live.retire.cancel()
                    live.retire = None
                if self._over(live):
                    await self._retire(live, stopping=True)
        if self.down_since is None:
            try:  # the last heartbeat: a restart soon after loses nobody any time, a late one gives it back
                await self._db(lambda: self.store.ping(self.now()))
            except Exception:  # noqa: BLE001 - the store is going away: the next start sees the older beat
                pass
        await self._db(self.store.close)
        self._executor.shutdown(wait=True)

    # --- games -------------------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            aside = self.set_aside.get(game_id)
            if aside is not None:
                if aside.record.unreadable is not None:
                    raise ApiError(409, f"game {game_id!r} is set aside: {aside.reason}; its operator must "
                                        "repair its row")
                raise ApiError(409, f"game {game_id!r} is set aside: its log cannot be replayed "
                                    f"({aside.reason}); the arbiter may annul it")
            raise ApiError(404, f"no game {game_id!r}")
        return live

    async def annul_set_aside(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """The arbiter annuls a game that was set aside: the annulment is appended to its log, and the
        game (its replayable part, annulled) is served again."""
        aside = self.set_aside.get(game_id)
        if aside is None:
            raise ApiError(404, f"no game {game_id!r}")
        if aside.seat_of(token) != "arbiter":
            raise ApiError(403, "only the arbiter may annul a game that was set aside")
        if not isinstance(body, dict) or body.get("type") != "annul":
            raise ApiError(409, f"game {game_id!r} is set aside ({aside.reason}): the only event it takes "
                                "is the arbiter's 'annul'")
        if aside.prefix is None:
            raise ApiError(409, f"game {game_id!r} cannot be annulled: even its start cannot be read "
                                f"({aside.reason})")
        reason = body.get("reason") if isinstance(body.get("reason"), str) else None
        t = max(aside.prefix.events[-1].t_ms / 1000, 0)
        line = {"type": "annul", "t": t, "by": "arbiter",
                "reason": reason or f"its log could not be replayed ({aside.reason})"}
        game = aside.prefix.apply(line)
        seq = len(aside.record.events)
        await self._refuse_while_down()
        try:
            await self._db(lambda: self.store.append(game_id, seq, game.events[-1].to_json()))
        except StoreError:
            raise ApiError(409, "the annulment could not be stored: the log has moved on") from None
        except Exception:  # noqa: BLE001
            raise self._unavailable() from None
        rec = aside.record
        del self.set_aside[game_id]
        live = LiveGame(rec.id, rec.created_at, rec.interface, rec.names, rec.token_hashes, game)
        self.games[game_id] = live
        log.warning("game %s: set aside, annulled by the arbiter", game_id)
        return {"seq": seq, "event": game.events[-1].to_json()}

    async def create(self, start: dict[str, Any], names: dict[str, str | None], interface: str,
                     start_in: float = 0.0, *, when_ready: bool = False,
                     abort_after: float | None = None, presence: bool = False,
                     held: bool = False, arbiter_token: bool = True) -> tuple[LiveGame, dict[str, str]]:
        """A new game. ``held``: a tournament round's game, whose t=0 comes when the arbiter starts the
        round (:meth:`start_held`); with ``presence``, the players are absent until they open it.
        ``arbiter_token``: False, the game has no arbiter's token (nobody can act as its arbiter)."""
        try:
            new = make_game(start, names, interface, round(self.now() + start_in, 3), self.games,
                            when_ready=when_ready, abort_after=abort_after, presence=presence, held=held,
                            arbiter_token=arbiter_token)
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None
        await self._refuse_while_down()
        rec = new.record
        try:
            await self._db(lambda: self.store.create_game(rec))
        except Exception as err:  # the database is down or refuses: no game
            log.error("store failure: %s", _reason(err))
            raise ApiError(503, "the game could not be stored: the database is unreachable; try again",
                           retry_after=RETRY_AFTER_OUTAGE) from None
        if new.rule is not None:
            rule = new.rule
            try:
                await self._db(lambda: self.store.set_start(rec.id, rec.created_at, rule))
            except Exception as err:
                log.error("store failure: %r", err)
                raise ApiError(503, f"the game's start could not be stored: {err}") from None
        return self.adopt(new), new.tokens

    def adopt(self, new: NewGame) -> LiveGame:
        """A new game, once written (with its start rule), in memory and on the clock."""
        r = new.record
        live = LiveGame(r.id, r.created_at, r.interface, dict(r.names), dict(r.token_hashes), new.game)
        live.follow(new.rule or {})
        self.games[r.id] = live
        self.schedule(live)
        return live

    @staticmethod
    def _rule(live: LiveGame) -> dict[str, Any]:
        return {"waiting": live.waiting, "abort_after": live.abort_after, "scheduled": live.scheduled,
                "held": live.held}

    def waiting_for(self, live: LiveGame) -> list[str]:
        """The seats a waiting game still waits for (not taken, or not yet opened)."""
        if not live.waiting or live.held:  # a held game waits for the arbiter alone
            return []
        return [s for s in ("white", "black") if not live.token_hashes.get(s) or s not in live.present]

    async def present(self, live: LiveGame, seat: str | None) -> None:
        """A player has opened the game (his seat's WebSocket): when both are there, t=0 is now."""
        if seat in ("white", "black") and live.scheduled:
            await self._arrive(live, seat)
            return
        if seat not in ("white", "black") or not live.waiting or live.held:
            return
        if seat not in live.present:
            live.present.add(seat)  # this process knows at once (a state read meanwhile shows him here),
            if not self.waiting_for(live):  # and when both are here t=0 is now, before the store is written
                await self._start_when_ready(live)
            # It is kept in the store: the other player's socket may be on another process of the database,
            # which must know that this one is here (told with NOTIFY, or read when it loads the game).
            at = self.now()
            others: set[str] = set()
            try:
                await self._db(lambda: self.store.note_presence(live.id, seat, at))
                if self.store.shared:
                    others = await self._db(lambda: self.store.presence(live.id))
            except Exception as err:  # noqa: BLE001 - this process knows; the others when he opens it again
                log.warning("game %s: %s's opening could not be stored: %s", live.id, seat, _reason(err))
            live.present |= others
        await self._start_when_ready(live)

    async def _start_when_ready(self, live: LiveGame) -> None:
        """A game that waits for its players: t=0 is now if both are there (on whichever process). Another
        process that saw them first may have started it: its t=0 is taken (one t=0 for every process)."""
        if self.waiting_for(live):
            self.broadcast(live)
            return
        async with live.lock:
            if not live.waiting:
                return
            created_at = round(self.now(), 3)
            before = live.created_at
            live.waiting = False  # started now (as anyone who looks meanwhile sees it) ...
            live.created_at = created_at
            rule = self._rule(live)
            try:  # ... unless another process started it first: then its t=0
                live.created_at = await self._db(lambda: self.store.start_waiting(live.id, created_at, rule))
            except Exception as err:  # noqa: BLE001 - the start stays in memory; a restart waits for them again
                log.error("store failure: %r", err)
            if live.created_at != created_at:
                log.info("game %s: started by another process at %.3f (created %.3f)", live.id, live.created_at,
                         before)
            self.schedule(live)
        self.broadcast(live)

    async def start_held(self, live: LiveGame, at: float) -> bool:
        """The arbiter starts a held game (a tournament round's): its t=0 is ``at`` (unix seconds, now or
        later). Returns False if it was not held (already started, or annulled meanwhile)."""
        async with live.lock:
            if not (live.held and live.waiting):
                return False
            live.waiting = False
            live.held = False
            created_at = round(at, 3)
            try:
                await self._db(lambda: self.store.set_start(live.id, created_at, self._rule(live)))
            except Exception:
                live.waiting = live.held = True
                raise self._unavailable() from None
            live.created_at = created_at
            self.schedule(live)
        if live.early and self.t_of(live) >= 0:  # started now: who opened it before is at the board at t=0
            await self._arrive_early(live)
        self.broadcast(live)
        return True

    async def _arrive(self, live: LiveGame, seat: str) -> None:
        """A scheduled game: the player is at the board. Before t=0 he will arrive at t=0 exactly."""
        if self.t_of(live) < 0:
            if seat not in live.early:
                live.early.add(seat)
                # Kept in the store, not in the log (the Laws write nothing before t=0): every process of the
                # database (the round's console may be served by another one) and a restart know he is here.
                at = self.now()
                try:
                    await self._db(lambda: self.store.note_presence(live.id, seat, at))
                except Exception as err:  # noqa: BLE001 - this process still knows; he is written at t=0
                    log.warning("game %s: %s's opening before the start could not be stored: %s", live.id, seat,
                                _reason(err))
                self._tell_watchers(live.id)  # the round's console shows who is there before the start
            return
        async with live.lock:
            st = live.game.state
            if st.ongoing and seat in st.absent:
                try:
                    await self._apply(live, "arrive", seat, {}, seat)  # type: ignore[arg-type]
                except ApiError as err:
                    log.warning("arrival in %s refused: %s", live.id, err.message)
                    # The store is away: he is at the board, written when it is back (if the game had not
                    # ended by itself by then: the server's time stands still at the outage's start).
                    if err.status == 503 and seen_at(live.game, self.t_of(live)).state.ongoing:
                        live.early.add(seat)
                    return
            else:
                return
        self.broadcast(live)

    async def _arrive_early(self, live: LiveGame) -> None:
        """At t=0: the players who opened the game before are at the board from the start. If another
        event came first (the opponent's arrival just after t=0, an arbiter's event), the early player's
        arrival is written at that event's instant, the earliest the log allows: never dropped, since
        dropping it would leave a player who was there absent until the default time forfeits him."""
        async with live.lock:
            await self._arrivals_locked(live)
        self.broadcast(live)

    async def _arrivals_locked(self, live: LiveGame) -> None:
        """The arrivals of ``live.early``, each at the first instant the log allows (the caller holds the
        game's lock). One the store cannot take now (an outage) stays, to be written when it is back (before
        the interruption: :meth:`_give_back`): a player who was there is never dropped for it."""
        for seat in sorted(live.early):
            keep = False
            for _ in range(3):  # another process may write first (his arrival, or another event): read, again
                if self.store.shared:
                    try:
                        await self._catch_up_locked(live)
                    except Exception:  # noqa: BLE001 - the store is away: written when it is back
                        keep = True
                        break
                st = live.game.state
                if not (st.ongoing and seat in st.absent):
                    break
                try:
                    await self._apply(live, "arrive", seat, {}, seat,  # type: ignore[arg-type]
                                      at=max(st.t_ms, 0) / 1000)
                    break
                except ApiError as err:
                    log.warning("arrival in %s refused: %s", live.id, err.message)
                    if err.status == 503:
                        keep = True
                        break
                    if err.status != 409:
                        break
            if not keep:
                live.early.discard(seat)

    def abort_deadline_ms(self, live: LiveGame) -> int | None:
        """When an online game without a first move by the side to move is aborted (ms since t=0), or None."""
        if live.abort_after is None or live.interface != "online" or live.waiting:
            return None
        st = live.game.state
        if not st.ongoing or len(st.moves) >= 2 or st.claims or st.clock.running is None:
            return None
        if st.absent:
            return None  # a player not yet at the board: the default time (Article 6.7) rules, not an abort
        since = st.moves[0].t_ms if st.moves else st.config.start_t_ms
        # From the moment both are at the board, or the clocks were started again after an interruption.
        restarts = [e.t_ms for e in live.game.events if e.type in ("arrive", "start_clocks")]
        if restarts:
            since = max(since, restarts[-1])
        deadline = since + round(live.abort_after * 1000)
        flag = st.clock.flag_time(st.clock.running)
        if flag is not None and flag - 50 < deadline:
            deadline = max(since, flag - 50)  # an abort, never a forfeit without a move
        return deadline

    async def _abort(self, live: LiveGame) -> None:
        async with live.lock:
            deadline = self.abort_deadline_ms(live)
            if deadline is None or self.t_of(live) * 1000 < deadline:
                return
            st = live.game.state
            who = "White" if st.turn == "white" else "Black"
            reason = f"aborted: {who} made no first move within {live.abort_after:g} s"
            try:
                await self._apply(live, "annul", "arbiter", {"reason": reason}, "arbiter")
            except ApiError as err:
                log.warning("abort of %s refused: %s", live.id, err.message)
                return
        self.broadcast(live)

    async def join(self, live: LiveGame, seat: str, name: str) -> str:
        if seat not in ("white", "black"):
            raise ApiError(422, "seat must be \"white\" or \"black\"")
        if live.token_hashes.get(seat):
            raise ApiError(409, f"the {seat} seat is taken")
        token = secrets.token_urlsafe(24)
        h = hash_token(token)
        async with live.lock:
            try:
                await self._db(lambda: self.store.take_seat(live.id, seat, h, name))  # type: ignore[arg-type]
            except SeatTaken as err:
                raise ApiError(409, str(err)) from None
            except Exception as err:  # noqa: BLE001
                log.error("store failure: %s", _reason(err))
                raise ApiError(503, "the seat could not be stored: the database is unreachable; try again",
                               retry_after=RETRY_AFTER_OUTAGE) from None
            live.token_hashes[seat] = h
            live.names[seat] = name
        self.broadcast(live)
        return token

    # --- events ----------------------------------------------------------------------
    async def submit(self, live: LiveGame, body: Any, seat: Seat | None, *,
                     via: Subscriber | None = None, rid: Any = None) -> dict[str, Any]:
        """Stamps, checks, commits, applies and broadcasts one event; returns the acknowledgement.
        ``via``: the socket (asking for new moves) that sent it, under ``rid``: its acknowledgement
        carries its new state and goes into its queue with the broadcast (``"queued"`` in the result)."""
        if seat is None:
            raise ApiError(401, "a seat token is needed to act in a game (spectators only watch)")
        if not isinstance(body, dict):
            raise ApiError(422, "an event is a JSON object such as {\"type\": \"move\", \"move\": \"e4\"}")
        kind = body.get("type")
        if not isinstance(kind, str):
            raise ApiError(422, "every event needs a 'type' (a string)")
        schema = SCHEMAS.get(kind)
        if schema is None:
            raise ApiError(422, f"unknown event type {kind!r}; known: {', '.join(sorted(SCHEMAS))}")
        if kind == "start":
            raise ApiError(409, "the game has already started ('start' is only the log's first line)")
        if "t" in body:
            raise ApiError(422, "do not send 't': the server's clock stamps every event")
        if seat in ("white", "black") and kind == "stop_clocks":
            self._may_summon(live, seat)
        await self._refuse_while_down()
        claimed_by = body.get("by")
        if seat in ("white", "black"):
            if schema.by == "arbiter":
                raise ApiError(403, f"'{kind}' is an arbiter's event: it needs the arbiter's token")
            if claimed_by is not None and claimed_by != seat:
                raise ApiError(403, f"this token is {seat}'s: it cannot act for {claimed_by!r}")
            too_long = budget.text_refusal(body, self.limits)
            if too_long is not None:
                raise ApiError(422, too_long)
            if live.interface == "otb" and schema.by == "player":
                pass  # players may still act themselves in over-the-board mode
            by: str = seat
        else:  # the arbiter
            if schema.by == "player":
                if live.interface != "otb":
                    raise ApiError(403, "in an online game each player acts for himself; the arbiter enters "
                                        "player events only in over-the-board mode (interface 'otb')")
                if claimed_by not in ("white", "black"):
                    raise ApiError(422, f"the arbiter entering '{kind}' must say for whom: 'by': \"white\" or \"black\"")
                by = str(claimed_by)
            elif schema.by == "any":
                if claimed_by not in (None, "arbiter", "white", "black"):
                    raise ApiError(422, "'by' must be \"white\", \"black\" or \"arbiter\"")
                by = str(claimed_by or "arbiter")
            else:
                if claimed_by not in (None, "arbiter"):
                    raise ApiError(422, "an arbiter's event has 'by': \"arbiter\"")
                by = "arbiter"
        # The locked part runs as a task of its own: if the client goes away, the event is still either
        # committed and applied, or neither (the memory never drifts from the log).
        task = asyncio.ensure_future(self._submit_locked(live, kind, by, body, seat, via, rid))
        return await asyncio.shield(task)

    async def _submit_locked(self, live: LiveGame, kind: str, by: str, body: dict[str, Any],
                             seat: Seat, via: Subscriber | None = None, rid: Any = None) -> dict[str, Any]:
        async with live.lock:
            ack, new, t = await self._apply(live, kind, by, body, seat)
        if via is not None and via.delta and via in live.subscribers:
            # One frame for the sender instead of two: its acknowledgement carries its state.
            self.broadcast(live, ack=(via, {"kind": "ack", "rid": rid, "seq": ack["seq"], "event": ack["event"]}))
            ack["queued"] = True
        else:
            self.broadcast(live)
        self.maybe_retire(live)
        if kind in budget.CLAIMS and by in ("white", "black"):
            self._count_claim(live, by, new)
        wait = awaiting_arbiter(new.state) if seat in ("white", "black") else None
        if wait is not None and wait.claim.t_ms == new.events[-1].t_ms and wait.claim.by == seat:
            self.alert(live, {"what": "decide", "by": seat, "t": t,
                              "text": f"{seat.capitalize()} makes {wait.what}: the clocks are stopped until you "
                                      f"decide it (Article {wait.article})."})
        if seat in ("white", "black") and kind == "stop_clocks":
            self.alert(live, {"what": "summons", "by": seat, "t": t,
                              "text": f"{seat.capitalize()} stopped the clocks to summon the arbiter "
                                      f"(Article {new.state.config.edition.article('summon_arbiter')})."})
        return ack

    async def _apply(self, live: LiveGame, kind: str, by: str, body: dict[str, Any],
                     seat: Seat, *, at: float | None = None) -> tuple[dict[str, Any], Game, float]:
        """Stamps, checks, commits and applies one event; the caller holds the game's lock.
        ``at``: the server's own events only, an instant already passed (arrivals at t=0).
        Returns the acknowledgement, the new game and the event's t."""
        if self.store.shared:  # another process may have written meanwhile: judge on the whole log
            try:
                await self._catch_up_locked(live)
            except Exception:  # noqa: BLE001
                raise self._unavailable() from None
        t = self.t_of(live) if at is None else at
        before_start = live.waiting or t < 0
        if before_start and kind == "annul" and by == "arbiter":
            t = 0.0  # the arbiter calls off a game that has not begun: recorded at its start, t=0
        elif live.held:
            raise ApiError(409, "the game has not started: its clocks start when the arbiter starts the round")
        elif live.waiting:
            raise ApiError(409, "the game has not started: it starts when both players have opened it")
        elif t < 0:
            raise ApiError(409, f"the game has not started yet: it starts in {-t:.0f} s")
        ms = round(t * 1000)
        # Something happened by itself by t (a flag fall observed, the default time)? Asked once: usually not.
        by_itself = due(live.game.state, ms)
        if by_itself and kind != "observe":  # a game that ended by itself by then: the ending is written first
            await self._write_ending_locked(live, t)
            by_itself = due(live.game.state, ms)
        event: dict[str, Any] = {"type": kind, "t": t, "by": by}
        for k, v in body.items():  # (a loop: no dictionary built to be copied in)
            if k != "type" and k != "t" and k != "by":
                event[k] = v
        game = live.game
        if live.interface != "otb":  # judged on the game as it stands at t (a flag may have fallen)
            self._check_legal(seen_at(game, t) if by_itself else game, event)
        try:
            new = game.apply(event)
        except WrongState as err:  # said for people: what was not done and why, without the log's t=
            if seat != "arbiter" and live.seq >= self.limits.max_events_per_game:
                raise self._log_full(live, by) from None  # the reason that matters: only the arbiter acts now
            raise ApiError(409, for_people(err)) from None
        except InvalidInput as err:
            raise ApiError(422, str(err)) from None
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None
        except Exception:
            # The arbiter should have answered with a ChessLawsError: a real fault, logged with its
            # traceback; the client learns only that nothing was recorded.
            log.exception("arbiter failure in game %s on %s", live.id, event)
            raise ApiError(422, "the arbiter could not process this event; nothing was recorded "
                                "(the fault is logged for the server's operator)") from None
        if seat != "arbiter":
            self._may_await_arbiter(live, game, new)
            self._may_log(live, kind, by, new)
        line = new.events[-1].to_json()
        seq = live.seq
        try:
            await self._commit(live.id, seq, line)
        except StoreError as err:
            if self.store.shared:  # another process appended event `seq` first: fenced off
                try:
                    await self._catch_up_locked(live)
                except Exception:  # noqa: BLE001
                    pass
                raise ApiError(409, "another event was recorded first (the game moved on): "
                                    "look at the new state and try again") from None
            log.error("game %s: event %d refused by the store: %s", live.id, seq, _reason(err))
            raise ApiError(409, f"the event could not be stored as event {seq} of the log (another server "
                                "process writing to this database, or a fault logged for the operator)") from None
        except Exception as err:  # the database is down: the game is untouched
            log.error("store failure: %s", _reason(err))
            self._store_down()
            raise self._unavailable() from None
        live.game = new
        if before_start and live.waiting:  # annulled before both players came: it waits for nobody now
            live.waiting = live.held = False
            try:
                await self._db(lambda: self.store.set_start(live.id, live.created_at, self._rule(live)))
            except Exception as err:  # noqa: BLE001 - the annulment is in the log; a restart shows it
                log.error("store failure: %r", err)
        self.schedule(live)
        if seat != "arbiter" and live.seq >= self.limits.max_events_per_game:
            await self._stop_for_full_log(live, t)
        return {"seq": seq, "event": public_event(line, arbiter=seat == "arbiter")}, new, t

    async def _stop_for_full_log(self, live: LiveGame, t: float) -> None:
        """A player's event filled the log: the clocks are stopped (the arbiter's ``stop_clocks``, in the
        room kept for him) so that nobody loses on time for moves the log can no longer take; the arbiter
        decides the game. A game without an arbiter's token (an open-seat game of the lobby, a rematch) is
        adjudicated drawn at once instead, as the arbiter acting in the best interest of the competition
        (1989 16.4, 1997 13.2, 2023 12.2.2): one player alone cannot fill the log (:mod:`budget`), so both
        played on together beyond any real game. The caller holds the game's lock."""
        st = live.game.state
        limit = self.limits.max_events_per_game
        if st.ongoing and not live.token_hashes.get("arbiter"):  # nobody could decide it: never frozen for good
            try:
                await self._apply(live, "decision", "arbiter", {"on": "adjudication", "ruling": "draw", "reason": (
                    f"the game's log is full ({limit} events) and the game has no arbiter to decide it; the players "
                    "filled it together, and neither won")}, "arbiter", at=t)
            except ApiError as err:
                log.warning("game %s: the full log could not end the game: %s", live.id, err.message)
            return
        if not st.ongoing or st.clock.running is None:
            return
        art = st.config.edition.article("interruption")
        try:
            await self._apply(live, "stop_clocks", "arbiter", {
                "reason": f"this game's log is full ({limit} events): the clocks are stopped until the arbiter "
                          f"decides the game (Article {art})"}, "arbiter", at=t)
        except ApiError as err:
            log.warning("game %s: the clocks could not be stopped at a full log: %s", live.id, err.message)
            return
        live.full_alerted = True
        self.alert(live, {"what": "log_full", "count": live.seq,
                          "text": f"This game's log is full ({limit} events): the clocks are stopped and the "
                                  "players' events refused (except one that ends the game) until you decide "
                                  "the game."})

    def _may_log(self, live: LiveGame, kind: str, by: str, new: Game) -> None:
        """Whether a player's event, already judged (``new``), may go into the log; refused (409, nothing
        logged) when it leaves the game going and the log is full (``max_events_per_game``: the room beyond
        is the arbiter's, who decides the game; an event that ends the game is still taken), or when its
        side's budget is spent (:mod:`chesslaws.server.budget`: every kind a player may send counts, before
        and after the end, except a move and an event that ends the game)."""
        if live.seq >= self.limits.max_events_per_game and new.state.ongoing:
            raise self._log_full(live, by)
        why = budget.refusal(self.limits, kind, by, live.game.events, live.game.state, new.state)
        if why is not None:
            raise ApiError(409, why)

    def _log_full(self, live: LiveGame, by: str) -> ApiError:
        limit = self.limits.max_events_per_game
        if not live.full_alerted:
            live.full_alerted = True
            self.alert(live, {"what": "log_full", "by": by, "count": live.seq,
                              "text": f"This game's log is full ({limit} events): the players' events are "
                                      "refused (except one that ends the game) until you decide the game."})
        return ApiError(409, f"this game's log is full ({limit} events): the arbiter must decide the game; "
                             "only an event that ends it is still accepted")

    @staticmethod
    def _arbiter_here(live: LiveGame) -> bool:
        """Is an arbiter's console of this game open on this process?"""
        return any(sub.seat == "arbiter" for sub in live.subscribers)

    @classmethod
    def _arbiter_watching(cls, live: LiveGame) -> bool:
        """Is an arbiter's console of this game open, here or on another process of the database (one that
        said so lately: a process that died says nothing more)?"""
        if cls._arbiter_here(live):
            return True
        since = time.monotonic() - 3 * ARBITER_BEAT
        return any(t >= since for t in live.arbiters_elsewhere.values())

    def _may_await_arbiter(self, live: LiveGame, before: Game, new: Game) -> None:
        """A player's claim that stops play until the arbiter decides it (the Laws say which:
        :func:`chesslaws.game.draws.awaiting_arbiter`) is refused, not recorded, while no arbiter watches
        the game: nobody could decide it, and the clocks would stand still for good."""
        wait = awaiting_arbiter(new.state)
        if wait is None or awaiting_arbiter(before.state) is not None or self._arbiter_watching(live):
            return
        if wait.concludes:
            why = (f"without an arbiter present {wait.what} concludes the game and is referred to an arbiter, "
                   f"whose decision is final (Article {wait.article})")
        else:
            why = f"{wait.what} stops the clocks and summons the arbiter to decide it (Article {wait.article})"
        raise ApiError(409, f"refused, not recorded: {why}, but no arbiter is watching this game to decide it "
                            "(the clocks would stand still for good). Play on; the claim can be made while the "
                            "arbiter's console is open")

    def _may_summon(self, live: LiveGame, seat: str) -> None:
        """A player stops the clocks only to summon an arbiter who is present (1997 6.12(b),
        2023 6.11.2): refused where there is none, so that nobody can freeze an online game."""
        cfg = live.game.state.config
        art = cfg.edition.article("summon_arbiter")
        if not cfg.arbiter_present:
            raise ApiError(409, f"no arbiter is present in this game: a player stops the clocks only to "
                                f"summon the arbiter (Article {art})")
        if not self._arbiter_watching(live):
            raise ApiError(409, f"no arbiter is watching this game now: a player stops the clocks only to "
                                f"summon the arbiter (Article {art}); the arbiter's console must be open")

    def _count_claim(self, live: LiveGame, side: str, game: Game) -> None:
        """Counts a claim that left the game going as incorrect; the arbiter is told when one side's
        incorrect claims reach the limit, as the annoyance the Laws forbid (2023 11.5)."""
        st = game.state
        if not st.ongoing or st.claims:
            return  # the claim ended the game, or awaits the arbiter's decision
        live.incorrect_claims[side] = n = live.incorrect_claims.get(side, 0) + 1
        every = self.limits.incorrect_claims_alert
        if every and n % every == 0:
            art = st.config.edition.article("annoyance")
            self.alert(live, {"what": "annoyance", "by": side, "count": n,
                              "text": f"{side.capitalize()} has made {n} claims that did not end the game: "
                                      f"unreasonable claims may annoy the opponent (Article {art})."})

    def alert(self, live: LiveGame, alert: dict[str, Any]) -> None:
        """Tells the arbiter's open consoles at once (a message of kind "alert")."""
        msg = dumps({"kind": "alert", **alert})
        log.info("game %s: alert %s", live.id, alert.get("what"))
        self._to_arbiter_consoles(live, msg)
        if live.arbiters_elsewhere and len(msg) < 7000:  # his console on another process (NOTIFY: 8000 bytes)
            self._announce(live.id, f"alert {self.origin} {msg}")

    @staticmethod
    def _to_arbiter_consoles(live: LiveGame, msg: str) -> None:
        """Queues ``msg`` for the arbiter's consoles of the game open on this process (a full queue drops it)."""
        for sub in list(live.subscribers):
            if sub.seat == "arbiter":
                try:
                    sub.queue.put_nowait(msg)
                except asyncio.QueueFull:
                    pass

    @staticmethod
    def _check_legal(seen: Game, event: dict[str, Any]) -> None:
        """A live interface rejects illegal moves before they reach the log."""
        st = seen.state
        if not st.ongoing or event.get("by") != st.turn:
            return  # the arbiter answers (game over, out of turn)
        kind = event["type"]
        text = event.get("move")
        if kind not in ("move", "claim_draw") or not isinstance(text, str):
            return
        try:
            st.position.parse_move(text)
        except IllegalMove:
            raise ApiError(422, f"illegal move {text!r} in this position") from None
        except AmbiguousMove as err:
            raise ApiError(422, f"ambiguous move {text!r}: it could be {', '.join(err.candidates)}") from None
        except UnreadableMove:
            raise ApiError(422, f"unreadable move {text!r}: write it in SAN (Nf3) or UCI (g1f3)") from None
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None

    # --- views ----------------------------------------------------------------------------
    def view(self, live: LiveGame, lang: str = "en", moves_from: int = 0) -> dict[str, Any]:
        """The state of the spec, plus what a board needs: moves, legal moves, names, server time.
        ``moves_from``: the moves from that index on only (a broadcast to viewers that have the earlier
        ones, see :meth:`broadcast`); every other view has them all."""
        out, legal = self._view(live, lang, moves_from)
        out["legal_moves"] = orjson.loads(legal)
        return out

    def _view(self, live: LiveGame, lang: str, moves_from: int) -> tuple[dict[str, Any], str]:
        """:meth:`view` without its legal moves, and the legal moves as JSON text (the core writes them so,
        for the broadcast to splice into its message: see :func:`_state_text`)."""
        lang = self.language_of(lang)
        t = self.t_of(live)
        game = live.game
        st = game.state
        ms = round(t * 1000)
        if ms > st.t_ms and due(st, ms):  # something happened by itself by t: the game as it stands then
            game = game.at(t)
            st = game.state
        cfg = st.config
        out = game.to_json()
        if ms > st.t_ms:  # nothing else changed by t but the running clock (flags.due): its time at t
            _clocks_at(out["clocks"], st, ms)
        local = lang != "en"
        moves = self._move_list(live, st.moves, cfg.fen, lang if local else "en", cfg.chess960, moves_from)
        live.view_records = st.moves
        legal = "[]"
        if st.ongoing:
            pos, key = st.position, lang if local else "en"
            kept = live.legal_cache
            if kept is not None and kept[0] is pos and kept[1] == key:
                legal = kept[2]
            else:
                if local:
                    listed = [{"uci": u, "san": s} for u, s in pos.legal_moves_san()]
                    self._localise_legal(listed, pos, lang)
                    legal = dumps(listed)
                else:
                    legal = pos.legal_moves_json()
                live.legal_cache = (pos, key, legal)
        fixed = live.config_cache.get(lang)
        if fixed is None or fixed[0] is not cfg:
            fixed = live.config_cache[lang] = (cfg, {
                "edition": cfg.edition.name,
                "time_control": str(cfg.time_control) if not cfg.time_control.unlimited else "-",
                "mode": cfg.mode,
                "arbiter": ("absent" if not cfg.arbiter_present else "present" if cfg.observes_all else "occasional"),
                "visually_disabled": sorted(cfg.visually_disabled),
                "assistants": sorted(cfg.assistants),
                "flags_observed": cfg.flags_observed,
                "initial_fen": cfg.fen,
                "variant": "chess960" if cfg.chess960 else "standard",
                "chess960": cfg.chess960,
                "start_position": cfg.start_number,
                # The controls depend on the configuration and the language only (server/controls.py).
                "controls": controls(st, lang),
            })
        out.update(fixed[1])
        # Who is in the quickplay finish now (the last period): the moves decide it, so not in the controls kept.
        out["quickplay_players"] = quickplay_players(st) if fixed[1]["controls"]["quickplay"] is not None else []
        # Written key by key (the order of the message's keys is this one): about 1 µs less than a dictionary
        # built and then copied in, at every broadcast.
        names, hashes = live.names, live.token_hashes
        out["id"] = live.id
        out["seq"] = live.seq
        out["server_t"] = t
        out["started"] = t >= 0
        out["white"] = names.get("white") or cfg.white
        out["black"] = names.get("black") or cfg.black
        out["seats_open"] = [s for s in ("white", "black") if not hashes.get(s)]
        out["interface"] = live.interface
        out["moves"] = moves
        out["check"] = st.position.is_check()
        out["absent"] = sorted(st.absent) if st.absent else []
        out["lang"] = lang
        out["waiting_for"] = self.waiting_for(live)
        abort = self.abort_deadline_ms(live) if live.abort_after is not None else None
        out["abort_at"] = None if abort is None else ms_to_t(abort)
        out["aborted"] = st.status == "annulled" and self._aborted(game)
        out["store_down"] = self.down_since is not None
        out["arbiter_watching"] = self._arbiter_watching(live)
        out["arbiter_is_a_player"] = cfg.arbiter_is_a_player
        out["held"] = live.held
        return out, legal

    @staticmethod
    def _aborted(game: Game) -> bool:
        """Was the game aborted by the server (an ``annul`` whose reason begins with 'aborted:')?"""
        last = game.events[-1]
        return (game.state.status == "annulled" and last.type == "annul"
                and str(last.get("reason") or "").startswith("aborted:"))

    def _move_list(self, live: LiveGame, records: Sequence[Any], fen: str, lang: str,
                   chess960: bool = False, start: int = 0) -> list[dict[str, Any]]:
        """The moves from ``start`` on as the page shows them (with each move's resulting FEN, and its
        letters in the scoresheet's language). A live game keeps no FEN or dictionary per move (issue
        27): the core replays the moves, in one call, from the nearest FEN kept (every _FEN_STEP-th
        move's and the last move viewed's), so that a broadcast to viewers that have the earlier moves
        plays the new ones only, and a whole list replays the game once. A move's letters in a language
        are those of its English SAN (notation.write_move translates the SAN), shared by every game."""
        marks = live.move_fens
        n = _common_prefix(live.move_records, records)  # a takeback or correction shortens it
        del marks[n // _FEN_STEP:]
        live.move_records = records
        end = len(records)
        first = min(max(0, start), end)
        i = min(first // _FEN_STEP, len(marks)) * _FEN_STEP
        before: str | None = marks[i // _FEN_STEP - 1] if i else fen
        tail = live.move_tail
        if tail is not None and i < tail[0] <= min(first, n):
            i, before = tail
        # The moves' fields, read at once from a packed history (records are built when read).
        recs = (records.rows(i, end) if isinstance(records, Moves)
                else [(m.ply, m.color, m.san, m.uci, m.t_ms, m.clock_ms, m.draw_offer) for m in records[i:end]])
        ucis = [m[3] for m in recs]
        fens: list[str | None] = [None] * len(ucis)
        if before is not None and ucis:
            fens = Position(before, chess960=chess960).fens_after(ucis)
            if fens[-1] is None:  # a move the board cannot replay (one that stood illegally)
                log.warning("cannot replay %s", ucis[fens.index(None)])
        while i <= (len(marks) + 1) * _FEN_STEP - 1 < end:  # the FENs kept that this replay reached
            marks.append(fens[(len(marks) + 1) * _FEN_STEP - 1 - i])
        live.move_tail = (end, fens[-1] if fens else before)
        out: list[dict[str, Any]] = []
        for k in range(first, end):
            ply, color, san, uci, t_ms, clock_ms, offer = recs[k - i][:7]
            after = fens[k - i]
            d: dict[str, Any] = {"ply": ply, "color": color, "san": san, "uci": uci,
                                 "t": ms_to_t(t_ms), "clock_ms": clock_ms, "draw_offer": offer}
            if lang == "en":
                if after is not None:
                    d["fen"] = after
            else:
                prior = fens[k - i - 1] if k > i else before
                text = None if prior is None or after is None else self._letters(prior, san, uci, lang, chess960)
                if text is not None:
                    d["san_local"] = text
                    d["fen"] = after
            out.append(d)
        return out

    def _letters(self, before: str, san: str, uci: str, lang: str, chess960: bool) -> str | None:
        """The move ``san`` (``uci``, played from the FEN ``before``) in ``lang``'s letters, or None."""
        key = (lang, san)
        text = _LETTERS.get(key)
        if text is None:
            assert self.write_move is not None
            try:
                text = str(self.write_move(Position(before, chess960=chess960), uci, lang))
            except Exception as err:  # noqa: BLE001 - another engineer's module
                log.warning("cannot replay %s: %r", uci, err)
                return None
            if len(_LETTERS) >= 1 << 16:
                _LETTERS.clear()
            _LETTERS[key] = text
        return text

    def _localise_legal(self, legal: list[dict[str, str]], pos: Position, lang: str) -> None:
        """The legal moves in the scoresheet's letters too (keyboard entry in that language)."""
        assert self.write_move is not None
        try:
            for m in legal:
                m["san_local"] = str(self.write_move(pos, m["uci"], lang))
        except Exception as err:  # another engineer's module: never let it break a state
            log.warning("notation failed for %s: %r", lang, err)

    def localise(self, moves: list[dict[str, Any]], fen: str, lang: str, chess960: bool = False) -> None:
        assert self.write_move is not None
        pos = Position(fen, chess960=chess960)
        try:
            for m in moves:
                m["san_local"] = str(self.write_move(pos, m["uci"], lang))
                pos = pos.play(m["uci"])
        except Exception as err:  # another engineer's module: never let it break a state
            log.warning("notation failed for %s: %r", lang, err)
            for m in moves:
                m.pop("san_local", None)

    def state_message(self, live: LiveGame, lang: str) -> str:
        return _state_text(*self._view(live, lang, 0))

    def send_state(self, live: LiveGame, sub: Subscriber) -> None:
        """Queues the whole state for one viewer (on connecting, or after it missed messages)."""
        sub.sent = None
        sub.sent_controls = None
        self.broadcast(live, only=sub)

    def _tell_watchers(self, game_id: str) -> None:
        for watch in self.watchers:
            try:
                watch(game_id)
            except Exception:  # noqa: BLE001 - a watcher's fault never stops a state
                log.exception("a watcher of game %s failed", game_id)

    def broadcast(self, live: LiveGame, only: Subscriber | None = None,
                  ack: tuple[Subscriber, dict[str, Any]] | None = None) -> None:
        """Queues the state for every viewer (or ``only`` one). The view is built once per language and
        serialised once per (language, moves the viewer already has): a viewer that asked for moves by
        difference gets the moves it lacks, so that a broadcast costs the same at move 200 as at move 2.
        ``ack``: (the sender's socket, its acknowledgement): that socket gets the acknowledgement with
        its state in it (``"state"``), in place of the state alone."""
        if only is None:
            self._tell_watchers(live.id)
        views: dict[str, tuple[dict[str, Any], str]] = {}
        cache: dict[tuple[str, int, bool], str] = {}
        records: Sequence[Any] | None = None
        subs = [only] if only is not None else list(live.subscribers)
        # The view of each language has the moves from the first one a viewer of that language lacks.
        now = live.game.state.moves
        first: dict[str, int] = {}
        has: list[int] = []  # how many of the moves each viewer has (asking for new moves only)
        for sub in subs:
            lacks = _common_prefix(sub.sent, now) if sub.delta else 0
            has.append(lacks)
            first[sub.lang] = min(first.get(sub.lang, lacks), lacks)
        for k, sub in enumerate(subs):
            parts = views.get(sub.lang)
            if parts is None:
                parts = views[sub.lang] = self._view(live, sub.lang, first[sub.lang])
                if live.view_records is not now:  # the moves seen at t are others: all of them
                    first[sub.lang] = 0
                    parts = views[sub.lang] = self._view(live, sub.lang, 0)
                if records is None:
                    records = live.view_records
            assert records is not None
            view, legal = parts
            base = (has[k] if records is now else _common_prefix(sub.sent, records)) if sub.delta else -1
            offset = first[sub.lang]
            same = bool(sub.delta and sub.sent is not None and (sub.sent_controls is view["controls"]
                                                                 or sub.sent_controls == view["controls"]))
            msg = cache.get((sub.lang, base, same))
            if msg is None:
                out = view
                if base >= 0:  # only the moves it lacks, and the controls only when they changed
                    out = {**view, "moves": view["moves"][base - offset:], "moves_from": base}
                    if same:
                        del out["controls"]
                msg = cache[(sub.lang, base, same)] = _state_text(out, legal)
            if ack is not None and sub is ack[0]:
                msg = _with_state(ack[1], msg)
            try:
                sub.queue.put_nowait(msg)
            except asyncio.QueueFull:  # a viewer that does not read: only the latest state matters
                sub.queue.clear()
                if base > 0 or same:  # what it missed may have changed anything: the whole state again
                    whole = view if offset == 0 else self._view(live, sub.lang, 0)[0]
                    msg = _state_text({**whole, "moves_from": 0}, legal)
                    if ack is not None and sub is ack[0]:
                        msg = _with_state(ack[1], msg)
                sub.queue.put_nowait(msg)
            sub.sent = records
            sub.sent_controls = view["controls"]

    # --- flag falls without events ----------------------------------------------------------
    def next_wakeup_ms(self, live: LiveGame) -> int | None:
        """The next instant (ms since the scheduled start) at which the state changes by itself:
        the scheduled start, a flag fall an arbiter present observes, the default time for an absent player."""
        st = live.game.state
        if not st.ongoing:
            return None
        cfg = st.config
        now_ms = round((self.now() - live.created_at) * 1000)
        if self._ending_unwritten(live):
            return now_ms  # ended by itself while nobody wrote it (a restart, an outage): written now
        when: list[int] = []
        if now_ms < 0:
            when.append(0)
        if cfg.flags_observed and st.clock.running is not None:
            ft = st.clock.flag_time(st.clock.running)
            if ft is not None:
                when.append(ft)
        if st.absent:
            when.append(st.default_deadline_ms + 1)
        abort = self.abort_deadline_ms(live)
        if abort is not None:
            when.append(abort)
        future = [w for w in when if w >= now_ms]
        return min(future) if future else None

    def schedule(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        loop = self._loop
        if loop is None or self.down_since is not None or not self._started:
            return  # no flag falls while moves cannot be stored, nor before the start gave the time back
        try:
            ms = self.next_wakeup_ms(live)
            if ms is None:
                return
            # A far wake-up is re-scheduled on waking: call_later never sees an absurd delay.
            delay = min(max(0.0, live.created_at + ms / 1000 - self.now()) + 0.002, 86_400.0)
            live.timer = loop.call_later(delay, self._wake, live)
        except (OverflowError, ValueError, ArithmeticError) as err:
            log.error("game %s: its next flag fall cannot be scheduled: %s", live.id, _reason(err))

    def _wake(self, live: LiveGame) -> None:
        live.timer = None
        if live.early and self.t_of(live) >= 0:
            asyncio.ensure_future(self._arrive_early(live))
        abort = self.abort_deadline_ms(live)
        if abort is not None and self.t_of(live) * 1000 >= abort:
            asyncio.ensure_future(self._abort(live))
        if self.down_since is not None:
            return
        if self._ending_unwritten(live):
            # The game ended by itself (a flag fall observed, the default time): the arbiter's `observe`
            # is written into its log before anyone is told (a restart gives back the time after the last
            # heartbeat, but never to a game whose log says it is over).
            asyncio.ensure_future(self._ended_by_itself(live))
            return
        self.broadcast(live)
        self.maybe_retire(live)  # the state game.at(now): what happened by itself is in it
        self.schedule(live)

    async def _ended_by_itself(self, live: LiveGame) -> None:
        await self.settle(live)  # not written (the database away): the wake-up after its return writes it
        self.broadcast(live)
        self.maybe_retire(live)

    # --- listing --------------------------------------------------------------------------
    async def page(self, limit: int, before: str | None = None) -> list[dict[str, Any]]:
        """A page of the lobby, newest first, from the store's index: at most ``limit`` games created
        before the game ``before`` (the last id of the previous page). Games in memory are shown as they
        are now; retired ones by their stored summary."""
        if before is not None:
            _check_id(before, "before: ")
        try:
            rows = await self._db(lambda: self.store.page(limit, before))
        except Exception:  # noqa: BLE001
            raise self._unavailable() from None
        if rows is None:
            raise ApiError(404, f"before: no game {before!r}")
        out = []
        for gid, status, final in rows:
            live = self.games.get(gid)
            if live is None and final is None and gid not in self.set_aside:
                try:  # a live game another process created: loaded here too
                    live = await self.fetch(gid)
                except ApiError:
                    pass
            if live is not None:
                await self.settle(live)
                out.append(self.summary(live))
            elif final is not None:
                out.append(final["summary"])
            elif gid in self.set_aside:
                out.append({"id": gid, "status": "set_aside", "reason": self.set_aside[gid].reason})
        return out

    def summary(self, live: LiveGame) -> dict[str, Any]:
        game = self.game_now(live)
        st = game.state
        cfg = st.config
        return {
            "id": live.id,
            "white": live.names.get("white") or cfg.white,
            "black": live.names.get("black") or cfg.black,
            "edition": cfg.edition.name,
            "time_control": str(cfg.time_control) if not cfg.time_control.unlimited else "-",
            "mode": cfg.mode,
            "status": st.status,
            "result": st.result,
            "termination": st.termination,
            "ply": len(st.moves),
            "created_at": live.created_at,
            "seats_open": [s for s in ("white", "black") if not live.token_hashes.get(s)],
            "starting_position": cfg.fen == STARTING_FEN,
            "chess960": cfg.chess960,
            "start_position": cfg.start_number,
            "waiting_for": self.waiting_for(live),
            "aborted": self._aborted(game),
            "pending": [p["kind"] for p in st.pending()],
            "clocks_stopped": st.ongoing and st.clock.running is None and not cfg.time_control.unlimited,
        }


__all__ = ["ApiError", "Hub", "LiveGame", "MAX_BODY", "Outbox", "SetAside", "Subscriber", "public_event", "replay_lenient"]

"""Where games live: the game log, committed event by event.

A :class:`Store` keeps, per game, a row of metadata (the wall-clock instant
of the scheduled start, hashes of the seat tokens, the players' names, the
interface mode) and the log itself: one row per event, numbered from 0 (the
``start`` event). :meth:`Store.append` returns only once the event is
committed (SQLite in WAL mode with ``synchronous=FULL``, or a PostgreSQL
transaction), so an event the server has acknowledged survives a crash of
the process or of the machine.

Both implementations are synchronous and must be used from one thread at a
time; the server gives each store a thread of its own.

Schema (the same in both databases)::

    games(id TEXT PRIMARY KEY, created_at DOUBLE /* unix seconds of t=0 */,
          interface TEXT /* 'online' | 'otb' */,
          white_name TEXT, black_name TEXT,
          white_token TEXT, black_token TEXT, arbiter_token TEXT /* sha256 hex, or NULL: seat open */)
    events(game_id TEXT REFERENCES games(id), seq INTEGER, body TEXT /* the log line, JSON */,
           PRIMARY KEY (game_id, seq))
    game_starts(game_id TEXT PRIMARY KEY REFERENCES games(id),
                rule TEXT /* JSON: {"waiting": bool, "abort_after": seconds or null} (online fair start) */)
    game_presence(game_id TEXT REFERENCES games(id), seat TEXT /* 'white' | 'black' */,
                  t DOUBLE /* unix seconds */, PRIMARY KEY (game_id, seat))

``game_starts`` is a table of its own (created when missing, so older databases need no
migration): a game without a row there started at ``created_at`` and is never aborted.

``game_presence`` (also created when missing) holds who has opened an online game before its t=0: in a
scheduled or held game (a tournament round's) such a player is at the board from t=0 (Article 6.7), but the
game's log cannot say so before t=0 (the Laws write nothing before the start); a fair start waits for both
players. Kept in the database, every process of one PostgreSQL database (and a restart) knows who is there:
the round's console served by one process shows present a player whose socket is on another, whichever
process writes the arrivals at t=0 writes his, and a fair start comes when its two players reached two
processes (t=0 set once: :meth:`Store.start_waiting`).

A stored row that cannot be read (a body that is not JSON, or too deep, or with an integer beyond
Python's limit; a creation time that is not a time; a start rule that is not an object; a broken final
state or heartbeat) never stops the server: a log row is read as an :class:`UnreadableRow` (its game is
set aside, named on standard error, until the arbiter annuls it), a game row as a record with its
``unreadable`` reason, a final state as none (the game is read from its log again), a heartbeat as none.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import sqlite3
import sys
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Iterator, Literal

import orjson

from chesslaws.jsondepth import depth_ok

log = logging.getLogger("chesslaws.server")

Seat = Literal["white", "black", "arbiter"]
SEATS: tuple[Seat, ...] = ("white", "black", "arbiter")


class StoreError(Exception):
    """The store refused a write (e.g. a duplicate sequence number)."""


class SeatTaken(StoreError):
    """A seat that already has a player."""


def hash_token(token: str) -> str:
    """Only hashes of tokens are stored (tokens are random, so a plain SHA-256 is enough)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class GameRecord:
    """A stored game: metadata and log (events as JSON objects, in order)."""

    id: str
    created_at: float
    interface: str
    names: dict[str, str | None]
    token_hashes: dict[str, str | None]
    events: list[dict[str, Any]] = field(default_factory=list)
    #: Why the game's own row cannot be used (e.g. its creation time is not a time), or None.
    unreadable: str | None = None


class UnreadableRow(dict[str, Any]):
    """A stored row that cannot be read, in the place of what it should hold (an event, a start rule):
    empty, with the reason. A game's replay stops at such an event (the game is set aside)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


#: How deep a stored row may nest before it is refused unread (an event is two levels deep).
_MAX_ROW_DEPTH = 64


def read_row(text: Any, what: str) -> Any:
    """A stored JSON text, or raises ValueError with the reason it cannot be read (``what`` names it)."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{what} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise ValueError(f"{what} is not text ({type(text).__name__})")
    if not depth_ok(text, _MAX_ROW_DEPTH):  # (counts the brackets first: an exact scan only where needed)
        raise ValueError(f"{what} nests deeper than {_MAX_ROW_DEPTH} levels")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} nests too deep") from None
    except ValueError as err:
        if "digits" in str(err) and not isinstance(err, json.JSONDecodeError):
            raise ValueError(f"{what} holds an integer of more than {sys.get_int_max_str_digits()} digits") from None
        raise ValueError(f"{what} is not JSON ({str(err)[:80]})") from None


def read_event(text: Any, seq: int) -> dict[str, Any]:
    """A stored log row: the event, or an :class:`UnreadableRow` naming why it cannot be read."""
    try:
        value = read_row(text, f"the stored row of event {seq}")
    except ValueError as err:
        return UnreadableRow(str(err))
    if not isinstance(value, dict):
        return UnreadableRow(f"the stored row of event {seq} is not a JSON object")
    return value


def read_rule(text: Any) -> dict[str, Any]:
    """A stored start rule (game_starts.rule), or an :class:`UnreadableRow` naming why it is unusable."""
    try:
        value = read_row(text, "its start rule (game_starts.rule)")
    except ValueError as err:
        return UnreadableRow(str(err))
    if not isinstance(value, dict):
        return UnreadableRow("its start rule (game_starts.rule) is not a JSON object")
    after = value.get("abort_after")
    if (not isinstance(value.get("waiting", False), bool) or not isinstance(value.get("scheduled", False), bool)
            or not (after is None or (isinstance(after, (int, float)) and not isinstance(after, bool)
                                      and math.isfinite(after) and after > 0))):
        return UnreadableRow("its start rule (game_starts.rule) has a field of the wrong kind")
    return value


def read_final(text: Any, game_id: str) -> dict[str, Any] | None:
    """A stored final state ({"view": ..., "summary": ...}), or None (noted in the server's log) if it
    cannot be read: the game is then read from its log again."""
    if text is None:
        return None
    try:
        value = read_row(text, f"the final state of game {game_id}")
    except ValueError as err:
        log.warning("%s; its log is read instead", err)
        return None
    if not (isinstance(value, dict) and isinstance(value.get("view"), dict)
            and isinstance(value.get("summary"), dict)):
        log.warning("the final state of game %s is not a view and a summary; its log is read instead", game_id)
        return None
    return value


def read_time(value: Any) -> float | None:
    """A stored instant (unix seconds), or None if it is not one (text, NaN, infinite, negative)."""
    if isinstance(value, bool):
        return None
    try:
        t = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return t if math.isfinite(t) and 0 <= t < 1e11 else None


class Store(ABC):
    """The interface of the game log storage."""

    url: str
    #: Whether other server processes may write to this store at the same time (PostgreSQL): then
    #: every change is announced (:meth:`listen`) and a process catches up before it writes.
    shared: bool = False

    def events_since(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The events of a game's log from number ``seq`` on (what another process appended)."""
        return [read_event(r[1], r[0]) for r in self._q(
            "SELECT seq, body FROM events WHERE game_id = {p} AND seq >= {p} ORDER BY seq", (game_id, seq))]

    def listen(self, callback: Any) -> Any:
        """Calls ``callback(game_id, what)`` (from another thread) for every change another process
        commits (``what``: the new event's number, "seat", or "presence": a player opened the game before
        its start); returns an object with ``close()``.
        Only shared stores announce changes."""
        raise NotImplementedError

    @abstractmethod
    def create_game(self, record: GameRecord) -> None:
        """Stores a new game with its first events (``record.events``: the start event); commits."""

    @abstractmethod
    def append(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        """Appends event number ``seq`` of the game's log and commits before returning."""

    def append_many(self, items: list[tuple[str, int, dict[str, Any]]]) -> None:
        """Appends events (game id, seq, event) in one transaction: all are committed, or none."""
        for game_id, seq, event in items:
            self.append(game_id, seq, event)

    @abstractmethod
    def take_seat(self, game_id: str, seat: Seat, token_hash: str, name: str) -> None:
        """Gives an open seat to a player; raises :class:`SeatTaken` if it is not open."""

    @abstractmethod
    def load(self, game_id: str) -> GameRecord | None:
        """One game with its whole log, or None."""

    @abstractmethod
    def game_ids(self) -> list[str]:
        """Every stored game, oldest first."""

    def load_all(self) -> Iterator[GameRecord]:
        for gid in self.game_ids():
            rec = self.load(gid)
            if rec is not None:
                yield rec

    # --- games that are over: kept as their final state, out of memory ------------------------
    @abstractmethod
    def _q(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Runs one statement (``{p}`` stands for the parameter mark) in its own committed
        transaction; returns the rows it gives, if any."""

    def live_ids(self) -> list[str]:
        """The games that are not over (loaded at startup), oldest first."""
        return [r[0] for r in self._q("SELECT id FROM games WHERE status = 'live' ORDER BY created_at, id")]

    def load_live(self) -> Iterator[GameRecord]:
        for gid in self.live_ids():
            rec = self.load(gid)
            if rec is not None:
                yield rec

    def set_final(self, game_id: str, status: str, final: dict[str, Any] | None) -> None:
        """Marks a game over (``status``: its state's status) with its final state, so that reading it
        needs no replay; or live again (``status`` "live", ``final`` None)."""
        self._q("UPDATE games SET status = {p}, final = {p} WHERE id = {p}",
                (status, None if final is None else dumps(final), game_id))

    def final(self, game_id: str) -> tuple[str, dict[str, Any]] | None:
        """The status and final state of a game that is over, or None (unknown, or not over)."""
        rows = self._q("SELECT status, final FROM games WHERE id = {p}", (game_id,))
        if not rows:
            return None
        final = read_final(rows[0][1], game_id)
        return None if final is None else (str(rows[0][0]), final)

    def page(self, limit: int, before: str | None = None) -> list[tuple[str, str, dict[str, Any] | None]] | None:
        """A page of games, newest first (id, status, final state or None), before the game ``before``
        (None if there is no such game)."""
        cols = "SELECT id, status, final FROM games"
        if before is None:
            rows = self._q(cols + " ORDER BY created_at DESC, id DESC LIMIT {p}", (limit,))
        else:
            anchor = self._q("SELECT created_at FROM games WHERE id = {p}", (before,))
            if not anchor:
                return None
            c = anchor[0][0]
            rows = self._q(cols + " WHERE created_at < {p} OR (created_at = {p} AND id < {p}) "
                           "ORDER BY created_at DESC, id DESC LIMIT {p}", (c, c, before, limit))
        return [(r[0], r[1], read_final(r[2], r[0])) for r in rows]

    def _migrate(self, columns: set[str]) -> None:
        """Brings an older database up to date (the columns of games that are over, and indexes)."""
        if "status" not in columns:
            self._q("ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'live'")
        if "final" not in columns:
            self._q("ALTER TABLE games ADD COLUMN final TEXT")
        self._q("CREATE INDEX IF NOT EXISTS games_by_time ON games (created_at, id)")
        self._q("CREATE INDEX IF NOT EXISTS games_by_status ON games (status, created_at)")

    @abstractmethod
    def ping(self, t: float | None = None) -> None:
        """Raises if the database cannot be reached now (the server watches for outages with it).
        With ``t`` (unix seconds), also records it as the server's heartbeat: the last instant the
        server was running with a working store."""

    @abstractmethod
    def last_heartbeat(self) -> float | None:
        """The last heartbeat recorded, or None."""

    @abstractmethod
    def close(self) -> None:
        """Closes the connection."""

    # --- how an online game starts (table game_starts; see :meth:`set_start`) ---------------
    def set_start(self, game_id: str, created_at: float, rule: dict[str, Any]) -> None:
        """Records how the game starts (``rule``: ``waiting`` for both players, ``abort_after`` seconds)
        and its instant of t=0 (``created_at``, which moves when the players are there); commits."""
        raise StoreError(f"{type(self).__name__} cannot record a game's start rule")

    def start_rules(self) -> dict[str, dict[str, Any]]:
        """The start rule of every game that is not over, by id (games created without one are absent)."""
        return {}

    def start_waiting(self, game_id: str, created_at: float, rule: dict[str, Any]) -> float:
        """Starts a game that waits for its players (its rule ``waiting``) at ``created_at``, as
        :meth:`set_start`, unless another process started it first: the game's t=0 in effect either way
        (one t=0 for every process, whichever saw both players first)."""
        raise StoreError(f"{type(self).__name__} cannot record a game's start rule")

    def start_rule(self, game_id: str) -> dict[str, Any] | None:
        """One game's start rule, or None."""
        rows = self._q("SELECT rule FROM game_starts WHERE game_id = {p}", (game_id,))
        return read_rule(rows[0][0]) if rows else None

    # --- who opened a scheduled game before its start (table game_presence) ----------------------
    def announce(self, key: str, what: str) -> None:
        """Tells the other processes of a shared store that ``key`` changed (``what`` says what kind of thing it
        is: ``callback(key, what)`` of their :meth:`listen`); nothing on a store of one process."""

    def note_presence(self, game_id: str, seat: str, t: float) -> None:
        """Records that the player of ``seat`` opened the game at ``t`` (unix seconds), before its t=0;
        once (the first opening counts); commits. Shared stores announce it ("presence")."""
        self._q("INSERT INTO game_presence VALUES ({p},{p},{p}) ON CONFLICT (game_id, seat) DO NOTHING",
                (game_id, seat, t))

    def presence(self, game_id: str) -> set[str]:
        """The seats whose players opened the game before its t=0."""
        return {str(r[0]) for r in self._q("SELECT seat FROM game_presence WHERE game_id = {p}", (game_id,))
                if r[0] in ("white", "black")}

    def presences(self) -> dict[str, set[str]]:
        """:meth:`presence` of every game that is not over, by id (games nobody opened early are absent)."""
        out: dict[str, set[str]] = {}
        for gid, seat in self._q("SELECT p.game_id, p.seat FROM game_presence p JOIN games g ON g.id = p.game_id "
                                 "WHERE g.status = 'live'"):
            if seat in ("white", "black"):
                out.setdefault(str(gid), set()).add(str(seat))
        return out


def insert_games(cur: Any, games: list[tuple[GameRecord, dict[str, Any] | None]], *, pg: bool) -> None:
    """Writes new games (their rows, their first events, their start rules when given) with ``cur``, inside
    the caller's transaction, committing nothing: a tournament round's games go in the same transaction as
    the round itself (:meth:`chesslaws.tournament.store.TournamentStore.pair_round`), so that a kill or an
    outage leaves the whole round or none of it. ``pg``: the cursor is psycopg's (``%s`` marks)."""
    p = "%s" if pg else "?"
    cur.executemany(
        "INSERT INTO games (id, created_at, interface, white_name, black_name, white_token, black_token, "
        f"arbiter_token) VALUES ({p},{p},{p},{p},{p},{p},{p},{p})",
        [(r.id, r.created_at, r.interface, r.names.get("white"), r.names.get("black"), r.token_hashes.get("white"),
          r.token_hashes.get("black"), r.token_hashes.get("arbiter")) for r, _ in games])
    cur.executemany(f"INSERT INTO events VALUES ({p},{p},{p})",
                    [(r.id, seq, dumps(ev)) for r, _ in games for seq, ev in enumerate(r.events)])
    cur.executemany(f"INSERT INTO game_starts VALUES ({p},{p})",
                    [(r.id, json.dumps(rule)) for r, rule in games if rule is not None])


class StoreLocked(Exception):
    """Another ``chesslaws serve`` has this SQLite file open."""


_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_at DOUBLE PRECISION NOT NULL,
    interface TEXT NOT NULL,
    white_name TEXT,
    black_name TEXT,
    white_token TEXT,
    black_token TEXT,
    arbiter_token TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS game_starts (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    rule TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_presence (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    t DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS heartbeat (
    id INTEGER PRIMARY KEY,
    t DOUBLE PRECISION NOT NULL
);
"""

_HEARTBEAT = "INSERT INTO heartbeat VALUES (1, {p}) ON CONFLICT (id) DO UPDATE SET t = excluded.t"


def _record(row: tuple[Any, ...], events: list[Any]) -> GameRecord:
    """A game from its stored rows; what cannot be read is named (see :class:`UnreadableRow`)."""
    gid, created_at, interface, wn, bn, wt, bt, at = row
    names = {"white": wn, "black": bn}
    hashes = {"white": wt, "black": bt, "arbiter": at}
    why = None
    t = read_time(created_at)
    if t is None:
        why = f"its creation time (games.created_at = {str(created_at)[:30]!r}) is not a time"
    elif interface not in ("online", "otb"):
        why = f"its interface (games.interface = {str(interface)[:30]!r}) is neither 'online' nor 'otb'"
    elif not all(v is None or isinstance(v, str) for v in (*names.values(), *hashes.values())):
        why = "a name or a seat token in its row is not text"
    if why is not None:
        names = {k: v if isinstance(v, str) else None for k, v in names.items()}
        hashes = {k: v if isinstance(v, str) else None for k, v in hashes.items()}
    return GameRecord(
        id=str(gid),
        created_at=t or 0.0,
        interface=interface if interface in ("online", "otb") else "online",
        names=names,
        token_hashes=hashes,
        events=[read_event(b, i) for i, b in enumerate(events)],
        unreadable=why,
    )


def _beat(row: Any) -> float | None:
    if row is None:
        return None
    t = read_time(row[0])
    if t is None:
        log.warning("the stored heartbeat (%s) is not a time: ignored (no time is given back for the last "
                    "stop)", str(row[0])[:30])
    return t


def dumps(value: Any) -> str:
    """Compact JSON, UTF-8 as it is: a stored row, and every message the server sends (hub.py).
    orjson encodes a state several times faster than the standard library (and the store's thread holds
    the interpreter lock while it encodes); what orjson does not encode (an integer beyond 64 bits) the
    standard library does, in the same form."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _rollback(db: sqlite3.Connection) -> None:
    """Rolls back the open transaction, if SQLite has not already done so itself (it does on some
    errors, a full disk among them): the error that caused it is the one to report, not "cannot
    rollback" (which hid a full disk, an outage, behind a fault of the request)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass


class SQLiteStore(Store):
    """A SQLite file in WAL mode with ``synchronous=FULL``: a commit is on disk when it returns."""

    def __init__(self, path: str) -> None:
        self.url = path
        self._lock = threading.Lock()
        self._lockfile = _lock_file(path)
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except BaseException:
            self._lockfile.close()
            raise
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SQLITE_SCHEMA)
        self._migrate({r[1] for r in self._db.execute("PRAGMA table_info(games)")})

    def _q(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return [tuple(r) for r in self._db.execute(sql.format(p="?"), params).fetchall()]

    def create_game(self, record: GameRecord) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "INSERT INTO games (id, created_at, interface, white_name, black_name, white_token, black_token, arbiter_token) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    (record.id, record.created_at, record.interface, record.names.get("white"),
                     record.names.get("black"), record.token_hashes.get("white"),
                     record.token_hashes.get("black"), record.token_hashes.get("arbiter")),
                )
                for seq, ev in enumerate(record.events):
                    db.execute("INSERT INTO events VALUES (?,?,?)", (record.id, seq, dumps(ev)))
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def append(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        with self._lock:
            try:
                self._db.execute("INSERT INTO events VALUES (?,?,?)", (game_id, seq, dumps(event)))
            except sqlite3.IntegrityError as err:
                raise StoreError(str(err)) from None

    def append_many(self, items: list[tuple[str, int, dict[str, Any]]]) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("INSERT INTO events VALUES (?,?,?)", [(g, n, dumps(e)) for g, n, e in items])
                db.execute("COMMIT")
            except sqlite3.IntegrityError as err:
                _rollback(db)
                raise StoreError(str(err)) from None
            except BaseException:
                _rollback(db)
                raise

    def take_seat(self, game_id: str, seat: Seat, token_hash: str, name: str) -> None:
        col = {"white": ("white_token", "white_name"), "black": ("black_token", "black_name")}.get(seat)
        if col is None:
            raise SeatTaken("the arbiter's seat is given at creation")
        with self._lock:
            cur = self._db.execute(
                f"UPDATE games SET {col[0]}=?, {col[1]}=? WHERE id=? AND {col[0]} IS NULL",
                (token_hash, name, game_id),
            )
            if cur.rowcount != 1:
                raise SeatTaken(f"the {seat} seat is taken")

    def load(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, created_at, interface, white_name, black_name, white_token, black_token, arbiter_token "
                "FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                return None
            events = [r[0] for r in self._db.execute(
                "SELECT body FROM events WHERE game_id=? ORDER BY seq", (game_id,))]
        return _record(tuple(row), events)

    def game_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created_at, id")]

    def set_start(self, game_id: str, created_at: float, rule: dict[str, Any]) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("UPDATE games SET created_at=? WHERE id=?", (created_at, game_id))
                db.execute("INSERT INTO game_starts VALUES (?,?) ON CONFLICT (game_id) DO UPDATE SET rule=excluded.rule",
                           (game_id, json.dumps(rule)))
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def start_waiting(self, game_id: str, created_at: float, rule: dict[str, Any]) -> float:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT s.rule, g.created_at FROM games g LEFT JOIN game_starts s ON s.game_id = g.id "
                                 "WHERE g.id = ?", (game_id,)).fetchone()
                if row is not None and row[0] is not None and not read_rule(row[0]).get("waiting"):
                    db.execute("COMMIT")
                    return float(row[1])
                db.execute("UPDATE games SET created_at=? WHERE id=?", (created_at, game_id))
                db.execute("INSERT INTO game_starts VALUES (?,?) "
                           "ON CONFLICT (game_id) DO UPDATE SET rule=excluded.rule", (game_id, json.dumps(rule)))
                db.execute("COMMIT")
                return created_at
            except BaseException:
                _rollback(db)
                raise

    def start_rules(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {r[0]: read_rule(r[1]) for r in self._db.execute(
                "SELECT s.game_id, s.rule FROM game_starts s JOIN games g ON g.id = s.game_id WHERE g.status = 'live'")}

    def ping(self, t: float | None = None) -> None:
        with self._lock:
            if t is None:
                self._db.execute("SELECT 1").fetchone()
            else:
                self._db.execute(_HEARTBEAT.format(p="?"), (t,))

    def last_heartbeat(self) -> float | None:
        with self._lock:
            row = self._db.execute("SELECT t FROM heartbeat WHERE id = 1").fetchone()
        return _beat(row)

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._lockfile.close()  # closing the file releases the lock


class PostgresStore(Store):
    """PostgreSQL through psycopg 3 and its connection pool: each write is its own committed
    transaction. A connection broken by a database restart is discarded and a new one made (the
    pool reconnects in the background with exponential backoff); while none can be made, every call
    fails within ``timeout`` seconds instead of hanging."""

    shared = True

    def __init__(self, url: str, timeout: float = 3.0) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.url = url
        self._lock = threading.Lock()
        # Fail at once (with the server's reason) if the database is not there at startup.
        psycopg.connect(url, connect_timeout=10).close()
        self._pool = ConnectionPool(url, min_size=1, max_size=2, timeout=timeout, open=True,
                                    kwargs={"autocommit": False, "connect_timeout": 3},
                                    check=ConnectionPool.check_connection,
                                    name="chesslaws")
        self._tx(self._create_schema)
        self._migrate({r[0] for r in self._q(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'games' "
            "AND table_schema = current_schema()")})

    def _q(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        def run(cur: Any) -> list[tuple[Any, ...]]:
            cur.execute(sql.format(p="%s"), params)
            return [tuple(r) for r in cur.fetchall()] if cur.description else []

        out: list[tuple[Any, ...]] = self._tx(run)
        return out

    @staticmethod
    def _create_schema(cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(4242424242)")  # two servers creating tables at once
        for stmt in _SQLITE_SCHEMA.split(";"):
            if stmt.strip():
                cur.execute(stmt)

    def _tx(self, fn: Any) -> Any:
        import psycopg

        with self._lock, self._pool.connection() as db:
            try:
                with db.cursor() as cur:
                    out = fn(cur)
                db.commit()
                return out
            except psycopg.errors.UniqueViolation as err:
                db.rollback()
                raise StoreError(str(err)) from None
            except psycopg.errors.ForeignKeyViolation as err:
                db.rollback()
                raise StoreError(str(err)) from None

    def create_game(self, record: GameRecord) -> None:
        def run(cur: Any) -> None:
            cur.execute(
                "INSERT INTO games (id, created_at, interface, white_name, black_name, white_token, black_token, arbiter_token) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                (record.id, record.created_at, record.interface, record.names.get("white"),
                 record.names.get("black"), record.token_hashes.get("white"),
                 record.token_hashes.get("black"), record.token_hashes.get("arbiter")),
            )
            for seq, ev in enumerate(record.events):
                cur.execute("INSERT INTO events VALUES (%s,%s,%s)", (record.id, seq, dumps(ev)))

        self._tx(run)

    def append(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        self.append_many([(game_id, seq, event)])

    def append_many(self, items: list[tuple[str, int, dict[str, Any]]]) -> None:
        def run(cur: Any) -> None:
            cur.executemany("INSERT INTO events VALUES (%s,%s,%s)", [(g, n, dumps(e)) for g, n, e in items])
            last: dict[str, int] = {}
            for g, n, _ in items:
                last[g] = max(n, last.get(g, -1))
            # Delivered to every listening process when (and only if) the transaction commits.
            cur.executemany("SELECT pg_notify('chesslaws', %s)", [(f"{g} {n}",) for g, n in last.items()])

        self._tx(run)

    def take_seat(self, game_id: str, seat: Seat, token_hash: str, name: str) -> None:
        col = {"white": ("white_token", "white_name"), "black": ("black_token", "black_name")}.get(seat)
        if col is None:
            raise SeatTaken("the arbiter's seat is given at creation")

        def run(cur: Any) -> int:
            cur.execute(
                f"UPDATE games SET {col[0]}=%s, {col[1]}=%s WHERE id=%s AND {col[0]} IS NULL",
                (token_hash, name, game_id),
            )
            cur.execute("SELECT pg_notify('chesslaws', %s)", (f"{game_id} seat",))
            return int(cur.rowcount)

        if self._tx(run) != 1:
            raise SeatTaken(f"the {seat} seat is taken")

    def load(self, game_id: str) -> GameRecord | None:
        def run(cur: Any) -> GameRecord | None:
            cur.execute(
                "SELECT id, created_at, interface, white_name, black_name, white_token, black_token, arbiter_token "
                "FROM games WHERE id=%s", (game_id,))
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute("SELECT body FROM events WHERE game_id=%s ORDER BY seq", (game_id,))
            return _record(tuple(row), [r[0] for r in cur.fetchall()])

        out: GameRecord | None = self._tx(run)
        return out

    def game_ids(self) -> list[str]:
        def run(cur: Any) -> list[str]:
            cur.execute("SELECT id FROM games ORDER BY created_at, id")
            return [r[0] for r in cur.fetchall()]

        out: list[str] = self._tx(run)
        return out

    def listen(self, callback: Any) -> Any:
        return _Listener(self.url, callback)

    def announce(self, key: str, what: str) -> None:
        self._tx(lambda cur: cur.execute("SELECT pg_notify('chesslaws', %s)", (f"{key} {what}",)))

    def note_presence(self, game_id: str, seat: str, t: float) -> None:
        def run(cur: Any) -> None:
            cur.execute("INSERT INTO game_presence VALUES (%s,%s,%s) ON CONFLICT (game_id, seat) DO NOTHING",
                        (game_id, seat, t))
            if cur.rowcount == 1:  # other processes: the round's console shows him here
                cur.execute("SELECT pg_notify('chesslaws', %s)", (f"{game_id} presence",))

        self._tx(run)

    def set_start(self, game_id: str, created_at: float, rule: dict[str, Any]) -> None:
        def run(cur: Any) -> None:
            cur.execute("UPDATE games SET created_at=%s WHERE id=%s", (created_at, game_id))
            cur.execute("INSERT INTO game_starts VALUES (%s,%s) ON CONFLICT (game_id) DO UPDATE SET rule=excluded.rule",
                        (game_id, json.dumps(rule)))
            cur.execute("SELECT pg_notify('chesslaws', %s)", (f"{game_id} seat",))  # other processes: t=0 moved

        self._tx(run)

    def start_waiting(self, game_id: str, created_at: float, rule: dict[str, Any]) -> float:
        def run(cur: Any) -> float:
            cur.execute("SELECT g.created_at, s.rule FROM games g LEFT JOIN game_starts s ON s.game_id = g.id "
                        "WHERE g.id = %s FOR UPDATE OF g", (game_id,))  # one process at a time decides
            row = cur.fetchone()
            if row is not None and row[1] is not None and not read_rule(row[1]).get("waiting"):
                return float(row[0])  # another process started it first: its t=0
            cur.execute("UPDATE games SET created_at=%s WHERE id=%s", (created_at, game_id))
            cur.execute("INSERT INTO game_starts VALUES (%s,%s) ON CONFLICT (game_id) DO UPDATE SET rule=excluded.rule",
                        (game_id, json.dumps(rule)))
            cur.execute("SELECT pg_notify('chesslaws', %s)", (f"{game_id} seat",))  # other processes: t=0 is set
            return created_at

        out: float = self._tx(run)
        return out

    def start_rules(self) -> dict[str, dict[str, Any]]:
        def run(cur: Any) -> dict[str, dict[str, Any]]:
            cur.execute("SELECT s.game_id, s.rule FROM game_starts s JOIN games g ON g.id = s.game_id "
                        "WHERE g.status = 'live'")
            return {r[0]: read_rule(r[1]) for r in cur.fetchall()}

        out: dict[str, dict[str, Any]] = self._tx(run)
        return out

    def ping(self, t: float | None = None) -> None:
        if t is None:
            self._tx(lambda cur: cur.execute("SELECT 1"))
        else:
            self._tx(lambda cur: cur.execute(_HEARTBEAT.format(p="%s"), (t,)))

    def last_heartbeat(self) -> float | None:
        def run(cur: Any) -> float | None:
            cur.execute("SELECT t FROM heartbeat WHERE id = 1")
            return _beat(cur.fetchone())

        out: float | None = self._tx(run)
        return out

    def close(self) -> None:
        with self._lock:
            self._pool.close()


class _Listener:
    """LISTEN chesslaws on a connection of its own, in a thread; reconnects after an outage."""

    def __init__(self, url: str, callback: Any) -> None:
        self.url = url
        self.callback = callback
        self._stop = threading.Event()
        self._conn: Any = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="chesslaws-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=3) as conn:
                    self._conn = conn
                    conn.execute("LISTEN chesslaws")
                    self.ready.set()
                    self.callback(None, "listening")  # anything missed while not listening: catch up
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            game_id, _, what = note.payload.partition(" ")
                            self.callback(game_id, what)
            except Exception:  # noqa: BLE001 - the database went away: listen again when it is back
                self._conn = None
                self._stop.wait(0.5)

    def close(self) -> None:
        self._stop.set()
        self.thread.join(5)


def sqlite_file(name: str) -> str | None:
    """The file a SQLite name opens (None for an in-memory database), as SQLite reads it: a plain path,
    or a ``file:`` URI (``file:PATH``, ``file:///PATH``, ``file://localhost/PATH``; percent-escapes
    decoded; the query string, e.g. ``?mode=rwc&cache=shared``, and a fragment left out; ``mode=memory``
    or ``:memory:`` is in memory). So that every name of one file leads to the one lock on it."""
    from urllib.parse import parse_qs, unquote

    if name in ("", ":memory:"):
        return None
    if not name.startswith("file:"):
        return name
    rest = name[len("file:"):].split("#", 1)[0]
    rest, _, query = rest.partition("?")
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if authority not in ("", "localhost"):
            raise StoreError(f"{name}: a file: URI names a file on this machine (authority '' or localhost, "
                             f"not {authority!r})")
        rest = slash + path
    path = unquote(rest)
    if path in ("", ":memory:") or "memory" in parse_qs(query).get("mode", []):
        return None
    return path


def _lock_file(path: str) -> Any:
    """Takes the lock that keeps a second server off this SQLite file: an exclusive ``flock`` on the
    database file itself, held while the store is open (the operating system releases it if the process
    dies). The lock belongs to the file (its device and inode), not to the name it was opened by: a
    symbolic or hard link to the same file finds it taken. (SQLite's own locks are ``fcntl`` locks,
    independent of this one.)"""
    import fcntl

    target = sqlite_file(path)
    if target is None:
        return open(os.devnull, "rb")  # an in-memory database: nothing to share
    handle = open(target, "a+b")  # noqa: SIM115 - held until close(); creates the file (an empty database)
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        st = os.fstat(handle.fileno())
        handle.close()
        raise StoreLocked(f"{path} is in use by another chesslaws serve (the same file, device {st.st_dev} "
                          f"inode {st.st_ino}, perhaps under another name): one SQLite file serves one "
                          "server process (use PostgreSQL for several)") from None
    return handle


def open_store(url: str) -> Store:
    """A store for ``url``: ``postgresql://...`` (or ``postgres://``) or a SQLite file path."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///"):]
    return SQLiteStore(url)


__all__ = ["GameRecord", "UnreadableRow", "read_event", "read_rule", "PostgresStore", "SQLiteStore", "SEATS", "Seat", "SeatTaken", "Store", "StoreError",
           "StoreLocked", "hash_token", "insert_games", "open_store"]

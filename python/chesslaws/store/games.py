"""Where games live: the game log, committed event by event (the game repository).

A :class:`Store` keeps, per game, a row of metadata (the wall-clock instant of the scheduled start, hashes of
the seat tokens, the players' names, the interface mode) and the log itself: one row per event, numbered from
0 (the ``start`` event). :meth:`Store.append` returns only once the event is committed (SQLite in WAL mode with
``synchronous=FULL``, or a PostgreSQL transaction: :mod:`chesslaws.store.db`), so an event the server has
acknowledged survives a crash of the process or of the machine.

A store is synchronous and used from one thread at a time; the server gives it a thread of its own.

Schema (the same in both databases)::

    games(id TEXT PRIMARY KEY, created_at DOUBLE /* unix seconds of t=0 */,
          interface TEXT /* 'online' | 'otb' */,
          white_name TEXT, black_name TEXT,
          white_token TEXT, black_token TEXT, arbiter_token TEXT /* sha256 hex, or NULL: seat open */,
          status TEXT /* 'live', or the final status of a game that is over */,
          final TEXT /* JSON: {"view": ..., "summary": ...} of a game that is over, or NULL */)
    events(game_id TEXT REFERENCES games(id), seq INTEGER, body TEXT /* the log line, JSON */,
           PRIMARY KEY (game_id, seq))
    game_starts(game_id TEXT PRIMARY KEY REFERENCES games(id),
                rule TEXT /* JSON: {"waiting": bool, "abort_after": seconds or null, "scheduled": bool,
                             "held": bool}: the start rule of a game whose log's start does not carry it */)
    game_presence(game_id TEXT REFERENCES games(id), seat TEXT /* 'white' | 'black' */,
                  t DOUBLE /* unix seconds */, PRIMARY KEY (game_id, seat))
    heartbeat(id INTEGER PRIMARY KEY /* 1 */, t DOUBLE /* the last instant the server ran with its store */)
    game_holders(game_id TEXT, origin TEXT /* a server process */, PRIMARY KEY (game_id, origin))
    server_beats(origin TEXT PRIMARY KEY, t DOUBLE /* the last instant that process said it runs */)

Tables and columns missing from a database made earlier are created when it is opened. A game's start rule
is in its log (the ``start`` event's ``wait``, ``abort_after`` and ``scheduled``, and the ``begin`` event that
fixes a waiting game's t=0: ``docs/game-log.md``); ``game_starts`` holds it for the games whose log does not
(databases written before the log carried it). A game with neither started at ``created_at`` and is never
aborted.

``game_presence`` holds who has opened an online game before its t=0: in a scheduled or held game (a
tournament round's) such a player is at the board from t=0 (Article 6.7), but the game's log cannot say so
before t=0 (the Laws write nothing before the start); a fair start waits for both players. Kept in the
database, every process of one PostgreSQL database (and a restart) knows who is there: the round's console
served by one process shows present a player whose socket is on another, whichever process writes the
arrivals at t=0 writes his, and a fair start comes when its two players reached two processes (t=0 set once:
:meth:`Store.start_waiting`).

``game_holders`` says which server processes of a shared (PostgreSQL) database hold a game in memory: a new
event is announced (NOTIFY) only when a process other than its writer holds the game, so that a game served by
one process (the proxy sends its requests there) costs the others nothing, and its writer nothing beyond the
write. A process takes its row in the transaction that reads the log (:meth:`Store.load` with ``hold``), after
locking the game's row: a writer's check for holders (after its insert, which takes the key-share lock of the
events' foreign key) either finds the row or committed before the log was read. ``server_beats`` has each
process's last beat; the rows of a process silent for ``HOLDER_TIMEOUT`` seconds (it died) are deleted.

A stored row that cannot be read never stops the server (:mod:`chesslaws.store.rows`): a log row is read as
an :class:`~chesslaws.store.rows.UnreadableRow`, a game row as a record with its ``unreadable`` reason.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Literal

from chesslaws.store.db import (CHANNEL, Database, Listener, PostgresDatabase, SQLiteDatabase, StoreError, Tx,
                                is_postgres, sqlite_path)
from chesslaws.store.rows import dumps, read_event, read_final, read_rule, read_time

log = logging.getLogger("chesslaws.server")

Seat = Literal["white", "black", "arbiter"]
SEATS: tuple[Seat, ...] = ("white", "black", "arbiter")

#: The key of the lock two processes creating the game tables at once take in turn (PostgreSQL).
_SCHEMA_LOCK = 4242424242


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


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_at DOUBLE PRECISION NOT NULL,
    interface TEXT NOT NULL,
    white_name TEXT,
    black_name TEXT,
    white_token TEXT,
    black_token TEXT,
    arbiter_token TEXT
)""",
    """CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
    """CREATE TABLE IF NOT EXISTS game_starts (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    rule TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS game_presence (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    t DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
)""",
    """CREATE TABLE IF NOT EXISTS heartbeat (
    id INTEGER PRIMARY KEY,
    t DOUBLE PRECISION NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS game_holders (
    game_id TEXT NOT NULL,
    origin TEXT NOT NULL,
    PRIMARY KEY (game_id, origin)
)""",
    """CREATE TABLE IF NOT EXISTS server_beats (
    origin TEXT PRIMARY KEY,
    t DOUBLE PRECISION NOT NULL
)""",
)

#: Seconds after its last beat after which a process's holds are deleted (it died without letting go).
HOLDER_TIMEOUT = 30.0

_HEARTBEAT = "INSERT INTO heartbeat VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET t = excluded.t"
_GAME_ROW = "id, created_at, interface, white_name, black_name, white_token, black_token, arbiter_token"
_HOLD = "INSERT INTO game_holders VALUES (?, ?) ON CONFLICT (game_id, origin) DO NOTHING"
_UPSERT_RULE = "INSERT INTO game_starts VALUES (?,?) ON CONFLICT (game_id) DO UPDATE SET rule=excluded.rule"


def create_schema(tx: Tx) -> None:
    """Creates the game tables where missing, and brings those of an older database up to date (the columns
    of games that are over, and indexes)."""
    tx.lock_schema(_SCHEMA_LOCK)
    for stmt in _SCHEMA:
        tx.execute(stmt)
    columns = tx.columns("games")
    if "status" not in columns:
        tx.execute("ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'live'")
    if "final" not in columns:
        tx.execute("ALTER TABLE games ADD COLUMN final TEXT")
    tx.execute("CREATE INDEX IF NOT EXISTS games_by_time ON games (created_at, id)")
    tx.execute("CREATE INDEX IF NOT EXISTS games_by_status ON games (status, created_at)")
    if tx.pg:
        tx.execute(_ANNOUNCE_FUNCTION)
        if not tx.rows("SELECT 1 FROM pg_trigger WHERE tgname = 'zz_chesslaws_announce' AND "
                       "tgrelid = 'events'::regclass"):
            tx.execute("CREATE TRIGGER zz_chesslaws_announce AFTER INSERT ON events FOR EACH ROW "
                       "EXECUTE FUNCTION chesslaws_announce_event()")


def insert_games(tx: Tx, games: list[tuple[GameRecord, dict[str, Any] | None]]) -> None:
    """Writes new games (their rows, their first events, their start rules when given) inside the caller's
    transaction: a tournament round's games go in the same transaction as the round itself
    (:meth:`chesslaws.store.tournaments.TournamentStore.pair_round`), so that a kill or an outage leaves the
    whole round or none of it."""
    tx.executemany(
        f"INSERT INTO games ({_GAME_ROW}) VALUES (?,?,?,?,?,?,?,?)",
        [(r.id, r.created_at, r.interface, r.names.get("white"), r.names.get("black"), r.token_hashes.get("white"),
          r.token_hashes.get("black"), r.token_hashes.get("arbiter")) for r, _ in games])
    tx.executemany("INSERT INTO events VALUES (?,?,?)",
                   [(r.id, seq, dumps(ev)) for r, _ in games for seq, ev in enumerate(r.events)])
    tx.executemany("INSERT INTO game_starts VALUES (?,?)",
                   [(r.id, json.dumps(rule)) for r, rule in games if rule is not None])


class StoreBehind(StoreError):
    """The database lacks the event before the one to append: it went back in time (a failover to a replica
    that had not received the last events). Nothing was written (a gap never is)."""


#: Event ``seq`` is written only after event ``seq - 1`` of its game (or as the first): never a gap in a log.
_APPEND = ("INSERT INTO events (game_id, seq, body) SELECT ?, ?, ? WHERE ? = 0 OR EXISTS "
           "(SELECT 1 FROM events WHERE game_id = ? AND seq = ?)")


#: Every new event of a game is announced ("GAME SEQ ORIGIN") to the processes that hold the game, but the one
#: whose connection wrote it (its setting ``chesslaws.origin``). A trigger named after the foreign key's
#: (triggers fire in the order of their names), whose query is a statement of its own (a volatile function, read
#: committed): it reads the holders after the insert took the game row's key-share lock (see the module's
#: description). One statement writes an event and announces it: one round trip.
_ANNOUNCE_FUNCTION = f"""CREATE OR REPLACE FUNCTION chesslaws_announce_event() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE me text := coalesce(current_setting('chesslaws.origin', true), '');
BEGIN
    IF EXISTS (SELECT 1 FROM game_holders WHERE game_id = NEW.game_id AND origin <> me) THEN
        PERFORM pg_notify('{CHANNEL}', rtrim(NEW.game_id || ' ' || NEW.seq || ' ' || me));
    END IF;
    RETURN NULL;
END $$"""


def append_events(tx: Tx, items: list[tuple[str, int, dict[str, Any]]]) -> None:
    """Appends events (game id, seq, event) to their games' logs inside the caller's transaction, each only after
    the event before it (:class:`StoreBehind` if the log lacks it: the transaction must not commit); the other
    processes of a shared database that hold a game hear of each new event (the trigger ``_ANNOUNCE_FUNCTION``)
    when (and only if) it commits. A game no other process holds is announced to nobody."""
    if len(items) == 1:  # the usual batch, and a plain statement costs a third of executemany's pipeline
        g, n, e = items[0]
        tx.execute(_APPEND, (g, n, dumps(e), n, g, n - 1))
    else:
        tx.executemany(_APPEND, [(g, n, dumps(e), n, g, n - 1) for g, n, e in items])
    if tx.rowcount != len(items):
        raise StoreBehind(f"the log of game {items[0][0]!r} lacks an event before the one to append"
                          if len(items) == 1 else "a log lacks an event before the one to append")


class Store:
    """The game repository on a database (see the module's description)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.url = database.url
        #: Whether other server processes may write to this store at the same time (PostgreSQL): then
        #: every change is announced (:meth:`listen`) and a process catches up before it writes.
        self.shared = database.shared
        self._session = database.session()
        self._session.run(create_schema)

    @property
    def origin(self) -> str:
        """This process, in what it announces (its own announcements are no news to it); empty until named."""
        return self.database.origin

    @origin.setter
    def origin(self, value: str) -> None:
        self.database.origin = value

    def _q(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._session.query(sql, params)

    def _tx(self, fn: Callable[[Tx], Any]) -> Any:
        return self._session.run(fn)

    def events_since(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The events of a game's log from number ``seq`` on (what another process appended)."""
        return [read_event(r[1], r[0]) for r in self._q(
            "SELECT seq, body FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, seq))]

    def log_lengths(self, game_ids: list[str]) -> dict[str, int]:
        """How many events each game's log has in the database (a game not there: absent)."""
        out: dict[str, int] = {}
        for k in range(0, len(game_ids), 500):
            chunk = game_ids[k:k + 500]
            marks = ",".join("?" * len(chunk))
            for gid, top in self._q(f"SELECT game_id, MAX(seq) FROM events WHERE game_id IN ({marks}) "
                                    "GROUP BY game_id", tuple(chunk)):
                out[str(gid)] = int(top) + 1
        return out

    def listen(self, callback: Callable[[str | None, str], object]) -> Listener:
        """Calls ``callback(game_id, what)`` (from another thread) for every change another process
        commits (``what``: the new event's number and the process that wrote it, "seat", or "presence": a player opened the game before
        its start); returns an object with ``close()``. Only shared stores announce changes."""
        return self.database.listen(callback)

    def create_game(self, record: GameRecord) -> None:
        """Stores a new game with its first events (``record.events``: the start event); commits. On a shared
        store this process holds it (it is in memory here)."""
        def run(tx: Tx) -> None:
            insert_games(tx, [(record, None)])
            if self.holding:
                tx.execute(_HOLD, (record.id, self.origin))

        self._tx(run)

    # --- which processes hold a game in memory (a shared store; see the module's description) ------------
    @property
    def holding(self) -> bool:
        """Whether this store records which games its process holds: a shared store, once its process is named."""
        return self.shared and bool(self.origin)

    def hold(self, game_ids: list[str]) -> None:
        """Records that this process holds the games (a tournament round's, made by the tournament store; or all
        it has, again, after its holds were deleted), their rows locked meanwhile (as :meth:`load`); commits."""
        if not self.holding or not game_ids:
            return

        def run(tx: Tx) -> None:
            tx.execute("SELECT id FROM games WHERE id = ANY(?) ORDER BY id" + tx.for_update("games"),
                       (sorted(game_ids),))
            tx.executemany(_HOLD, [(g, self.origin) for g in game_ids])

        self._tx(run)

    def release(self, game_ids: list[str]) -> None:
        """The games left this process's memory: their events are no longer announced to it; commits."""
        if self.holding and game_ids:
            self._tx(lambda tx: tx.executemany("DELETE FROM game_holders WHERE game_id = ? AND origin = ?",
                                               [(g, self.origin) for g in game_ids]))

    def holders(self, game_ids: list[str], since: float) -> dict[str, set[str]]:
        """The processes that hold each game and said they run at ``since`` (unix seconds) or later."""
        out: dict[str, set[str]] = {}
        if not game_ids:
            return out
        marks = ",".join("?" * len(game_ids))
        for gid, origin in self._q(f"SELECT h.game_id, h.origin FROM game_holders h JOIN server_beats b ON "
                                   f"b.origin = h.origin WHERE b.t >= ? AND h.game_id IN ({marks})",
                                   (since, *game_ids)):
            out.setdefault(str(gid), set()).add(str(origin))
        return out

    def glance(self, known: dict[str, int]) -> dict[str, tuple[GameRecord, int]]:
        """Games as the lobby lists them, without holding them: each game's row, with its log from number
        ``known[id]`` on (what a copy of its first ``known[id]`` events lacks), and that number (0 when the log
        is shorter than the copy: read whole)."""
        ids = list(known)
        if not ids:
            return {}

        def run(tx: Tx) -> dict[str, tuple[GameRecord, int]]:
            marks = ",".join("?" * len(ids))
            rows = tx.rows(f"SELECT {_GAME_ROW} FROM games WHERE id IN ({marks})", ids)
            tops = dict(tx.rows(f"SELECT game_id, MAX(seq) FROM events WHERE game_id IN ({marks}) GROUP BY game_id",
                                ids))
            start = {g: known[g] if known[g] <= int(tops.get(g, -1)) + 1 else 0 for g in ids}
            where = " OR ".join("(game_id = ? AND seq >= ?)" for _ in ids)
            bodies: dict[str, list[Any]] = {}
            for gid, body in tx.rows(f"SELECT game_id, body FROM events WHERE {where} ORDER BY game_id, seq",
                                     [x for g in ids for x in (g, start[g])]):
                bodies.setdefault(str(gid), []).append(body)
            return {str(r[0]): (_record(r, bodies.get(str(r[0]), [])), start[str(r[0])]) for r in rows}

        out: dict[str, tuple[GameRecord, int]] = self._session.run(run, write=False)
        return out

    def beat(self, t: float) -> bool:
        """Says that this process runs at ``t`` (unix seconds), and deletes the holds of processes silent for
        ``HOLDER_TIMEOUT`` seconds (they died without letting their games go); commits. True if this process had
        no beat (its first, or it was silent so long that its holds were deleted: they must be taken again)."""
        if not self.holding:
            return False

        def run(tx: Tx) -> bool:
            lost = tx.execute("UPDATE server_beats SET t = ? WHERE origin = ?", (t, self.origin)).rowcount == 0
            if lost:
                tx.execute("INSERT INTO server_beats VALUES (?, ?)", (self.origin, t))
            tx.execute("DELETE FROM game_holders WHERE origin IN (SELECT origin FROM server_beats WHERE t < ?)",
                       (t - HOLDER_TIMEOUT,))
            tx.execute("DELETE FROM server_beats WHERE t < ?", (t - HOLDER_TIMEOUT,))
            return lost

        out: bool = self._tx(run)
        return out

    def stop_holding(self) -> None:
        """This process stops: it holds nothing any more; commits."""
        if self.holding:
            def run(tx: Tx) -> None:
                tx.execute("DELETE FROM game_holders WHERE origin = ?", (self.origin,))
                tx.execute("DELETE FROM server_beats WHERE origin = ?", (self.origin,))

            self._tx(run)

    def append(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        """Appends event number ``seq`` of the game's log and commits before returning (a number the log
        already has: :class:`~chesslaws.store.db.StoreError`)."""
        self.append_many([(game_id, seq, event)])

    def append_many(self, items: list[tuple[str, int, dict[str, Any]]]) -> None:
        """Appends events (game id, seq, event) in one transaction: all are committed, or none."""
        if len(items) == 1:  # one statement, its own transaction: written, or not at all
            g, n, e = items[0]
            if self._session.write_alone(_APPEND, (g, n, dumps(e), n, g, n - 1)) != 1:
                raise StoreBehind(f"the log of game {g!r} lacks an event before the one to append")
        else:
            self._tx(lambda tx: append_events(tx, items))

    def take_seat(self, game_id: str, seat: Seat, token_hash: str, name: str) -> None:
        """Gives an open seat to a player; raises :class:`SeatTaken` if it is not open."""
        col = {"white": ("white_token", "white_name"), "black": ("black_token", "black_name")}.get(seat)
        if col is None:
            raise SeatTaken("the arbiter's seat is given at creation")

        def run(tx: Tx) -> int:
            tx.execute(f"UPDATE games SET {col[0]}=?, {col[1]}=? WHERE id=? AND {col[0]} IS NULL",
                       (token_hash, name, game_id))
            taken = tx.rowcount
            tx.notify(game_id, "seat")
            return taken

        if self._tx(run) != 1:
            raise SeatTaken(f"the {seat} seat is taken")

    def load(self, game_id: str, *, hold: bool = False) -> GameRecord | None:
        """One game with its whole log, or None. ``hold``: the game is to be in this process's memory (on a
        shared store, its row in ``game_holders`` is taken first, the game's row locked meanwhile: every event
        that is not in the log read is announced to this process)."""
        hold = hold and self.holding

        def run(tx: Tx) -> GameRecord | None:
            row = tx.execute(f"SELECT {_GAME_ROW} FROM games WHERE id=?" + (tx.for_update("games") if hold else ""),
                             (game_id,)).fetchone()
            if row is None:
                return None
            if hold:
                tx.execute(_HOLD, (game_id, self.origin))
            return _record(row, [r[0] for r in tx.rows("SELECT body FROM events WHERE game_id=? ORDER BY seq",
                                                       (game_id,))])

        out: GameRecord | None = self._session.run(run, write=hold)
        return out

    def game_ids(self) -> list[str]:
        """Every stored game, oldest first."""
        return [r[0] for r in self._q("SELECT id FROM games ORDER BY created_at, id")]

    def load_all(self) -> Iterator[GameRecord]:
        for gid in self.game_ids():
            rec = self.load(gid)
            if rec is not None:
                yield rec

    # --- games that are over: kept as their final state, out of memory ------------------------
    def live_ids(self) -> list[str]:
        """The games that are not over (loaded at startup), oldest first."""
        return [r[0] for r in self._q("SELECT id FROM games WHERE status = 'live' ORDER BY created_at, id")]

    def load_live(self, *, hold: bool = False) -> Iterator[GameRecord]:
        for gid in self.live_ids():
            rec = self.load(gid, hold=hold)
            if rec is not None:
                yield rec

    def set_final(self, game_id: str, status: str, final: dict[str, Any] | None) -> None:
        """Marks a game over (``status``: its state's status) with its final state, so that reading it
        needs no replay; or live again (``status`` "live", ``final`` None)."""
        self._q("UPDATE games SET status = ?, final = ? WHERE id = ?",
                (status, None if final is None else dumps(final), game_id))

    def final(self, game_id: str) -> tuple[str, dict[str, Any]] | None:
        """The status and final state of a game that is over, or None (unknown, or not over)."""
        rows = self._q("SELECT status, final FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        final = read_final(rows[0][1], game_id)
        return None if final is None else (str(rows[0][0]), final)

    def page(self, limit: int, before: str | None = None) -> list[tuple[str, str, dict[str, Any] | None]] | None:
        """A page of games, newest first (id, status, final state or None), before the game ``before``
        (None if there is no such game)."""
        cols = "SELECT id, status, final FROM games"
        if before is None:
            rows = self._q(cols + " ORDER BY created_at DESC, id DESC LIMIT ?", (limit,))
        else:
            anchor = self._q("SELECT created_at FROM games WHERE id = ?", (before,))
            if not anchor:
                return None
            c = anchor[0][0]
            rows = self._q(cols + " WHERE created_at < ? OR (created_at = ? AND id < ?) "
                           "ORDER BY created_at DESC, id DESC LIMIT ?", (c, c, before, limit))
        return [(r[0], r[1], read_final(r[2], r[0])) for r in rows]

    def ping(self, t: float | None = None) -> None:
        """Raises if the database cannot be reached now (the server watches for outages with it).
        With ``t`` (unix seconds), also records it as the server's heartbeat: the last instant the
        server was running with a working store."""
        if t is None:
            self._q("SELECT 1")
        else:
            self._q(_HEARTBEAT, (t,))

    def last_heartbeat(self) -> float | None:
        """The last heartbeat recorded, or None."""
        rows = self._q("SELECT t FROM heartbeat WHERE id = 1")
        if not rows:
            return None
        t = read_time(rows[0][0])
        if t is None:
            log.warning("the stored heartbeat (%s) is not a time: ignored (no time is given back for the last "
                        "stop)", str(rows[0][0])[:30])
        return t

    def close(self) -> None:
        """Closes the database."""
        self.database.close()

    # --- how an online game starts (its log, or the table game_starts; see :meth:`set_start`) ---------
    def set_start(self, game_id: str, created_at: float, rule: dict[str, Any] | None) -> None:
        """Records the game's instant of t=0 (``created_at``, which moves when the players are there) and, for a
        game whose log does not carry it, how it starts (``rule``: ``waiting`` for both players,
        ``abort_after`` seconds, ...; None: the log carries it); commits."""
        def run(tx: Tx) -> None:
            tx.execute("UPDATE games SET created_at=? WHERE id=?", (created_at, game_id))
            if rule is not None:
                tx.execute(_UPSERT_RULE, (game_id, json.dumps(rule)))
            tx.notify(game_id, "seat")  # other processes: t=0 moved

        self._tx(run)

    def begin(self, game_id: str, created_at: float, line: dict[str, Any]) -> tuple[float, bool]:
        """Begins a game that waits (for its players, or for its arbiter) and whose log carries its start rule:
        its t=0 is ``created_at`` and ``line`` (its ``begin`` event) the log's second event, in one transaction,
        unless its log has moved on past its start (another process began it, or the arbiter annulled it).
        Returns the game's t=0 in effect and whether this call began it (one t=0 for every process)."""
        def run(tx: Tx) -> tuple[float, bool]:
            row = tx.execute("SELECT created_at FROM games WHERE id = ?" + tx.for_update("games"),
                             (game_id,)).fetchone()  # one process decides
            if row is None:
                raise StoreError(f"no game {game_id!r}")
            if tx.execute("SELECT 1 FROM events WHERE game_id = ? AND seq >= 1 LIMIT 1", (game_id,)).fetchone():
                return float(row[0]), False
            tx.execute("UPDATE games SET created_at=? WHERE id=?", (created_at, game_id))
            append_events(tx, [(game_id, 1, line)])
            tx.notify(game_id, "seat")  # other processes: t=0 is set
            return created_at, True

        out: tuple[float, bool] = self._tx(run)
        return out

    def start_rules(self) -> dict[str, dict[str, Any]]:
        """The start rule of every game that is not over, by id (games created without one are absent)."""
        return {r[0]: read_rule(r[1]) for r in self._q(
            "SELECT s.game_id, s.rule FROM game_starts s JOIN games g ON g.id = s.game_id WHERE g.status = 'live'")}

    def start_waiting(self, game_id: str, created_at: float, rule: dict[str, Any]) -> float:
        """Starts a game that waits for its players (its rule ``waiting``) at ``created_at``, as
        :meth:`set_start`, unless another process started it first: the game's t=0 in effect either way
        (one t=0 for every process, whichever saw both players first)."""
        def run(tx: Tx) -> float:
            row = tx.execute("SELECT g.created_at, s.rule FROM games g LEFT JOIN game_starts s ON s.game_id = g.id "
                             "WHERE g.id = ?" + tx.for_update("g"), (game_id,)).fetchone()  # one process decides
            if row is not None and row[1] is not None and not read_rule(row[1]).get("waiting"):
                return float(row[0])  # another process started it first: its t=0
            tx.execute("UPDATE games SET created_at=? WHERE id=?", (created_at, game_id))
            tx.execute(_UPSERT_RULE, (game_id, json.dumps(rule)))
            tx.notify(game_id, "seat")  # other processes: t=0 is set
            return created_at

        out: float = self._tx(run)
        return out

    def start_rule(self, game_id: str) -> dict[str, Any] | None:
        """One game's start rule, or None."""
        rows = self._q("SELECT rule FROM game_starts WHERE game_id = ?", (game_id,))
        return read_rule(rows[0][0]) if rows else None

    # --- who opened a scheduled game before its start (table game_presence) ----------------------
    def announce(self, key: str, what: str) -> None:
        """Tells the other processes of a shared store that ``key`` changed (``what`` says what kind of thing it
        is: ``callback(key, what)`` of their :meth:`listen`); nothing on a store of one process."""
        if self.shared:
            self._tx(lambda tx: tx.notify(key, what))

    def note_presence(self, game_id: str, seat: str, t: float) -> None:
        """Records that the player of ``seat`` opened the game at ``t`` (unix seconds), before its t=0;
        once (the first opening counts); commits. Shared stores announce it ("presence")."""
        def run(tx: Tx) -> None:
            tx.execute("INSERT INTO game_presence VALUES (?,?,?) ON CONFLICT (game_id, seat) DO NOTHING",
                       (game_id, seat, t))
            if tx.rowcount == 1:  # other processes: the round's console shows him here
                tx.notify(game_id, "presence")

        self._tx(run)

    def presence(self, game_id: str) -> set[str]:
        """The seats whose players opened the game before its t=0."""
        return {str(r[0]) for r in self._q("SELECT seat FROM game_presence WHERE game_id = ?", (game_id,))
                if r[0] in ("white", "black")}

    def presences(self) -> dict[str, set[str]]:
        """:meth:`presence` of every game that is not over, by id (games nobody opened early are absent)."""
        out: dict[str, set[str]] = {}
        for gid, seat in self._q("SELECT p.game_id, p.seat FROM game_presence p JOIN games g ON g.id = p.game_id "
                                 "WHERE g.status = 'live'"):
            if seat in ("white", "black"):
                out.setdefault(str(gid), set()).add(str(seat))
        return out


class SQLiteStore(Store):
    """The games of one server in a SQLite file, which no other server may open meanwhile
    (:class:`~chesslaws.store.db.StoreLocked`)."""

    def __init__(self, path: str) -> None:
        database = SQLiteDatabase(path, exclusive=True)
        try:
            super().__init__(database)
        except BaseException:
            database.close()
            raise


class PostgresStore(Store):
    """The games of one or more servers in a PostgreSQL database (every call fails within ``timeout``
    seconds while it cannot be reached)."""

    def __init__(self, url: str, timeout: float = 3.0) -> None:
        database = PostgresDatabase(url, timeout=timeout)
        try:
            super().__init__(database)
        except BaseException:
            database.close()
            raise


def open_store(url: str) -> Store:
    """A store for ``url``: ``postgresql://...`` (or ``postgres://``) or a SQLite file path."""
    return PostgresStore(url) if is_postgres(url) else SQLiteStore(sqlite_path(url))


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


__all__ = ["GameRecord", "PostgresStore", "SEATS", "SQLiteStore", "Seat", "SeatTaken", "Store", "StoreBehind",
           "HOLDER_TIMEOUT", "append_events",
           "create_schema", "hash_token", "insert_games", "open_store"]

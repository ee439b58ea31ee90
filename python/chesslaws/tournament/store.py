"""Tournaments in the server's database (a SQLite file or a postgresql:// URL), tables created if missing.

Schema (the same in both databases)::

    tournaments(id TEXT PRIMARY KEY, name TEXT, updated_at DOUBLE PRECISION,
                body TEXT /* the tournament as JSON: regulations, players, rounds, byes */,
                version INTEGER /* raised by every save: a save over a replaced version is refused */)
    tournament_games(tournament_id TEXT, round INTEGER, board INTEGER,
                     log TEXT /* the game's log, JSON Lines */, PRIMARY KEY (tournament_id, round, board))
    tournament_arbiters(tournament_id TEXT PRIMARY KEY, token_hash TEXT /* sha256 hex of the live arbiter's token */)
    tournament_game_keys(game_id TEXT PRIMARY KEY, tournament_id TEXT,
                         sealed TEXT /* the game's arbiter token sealed with the tournament arbiter's token */)
    tournament_player_keys(tournament_id TEXT, start_number INTEGER, token_hash TEXT /* sha256 hex */,
                           sealed TEXT /* the player's token sealed with the tournament arbiter's token */,
                           PRIMARY KEY (tournament_id, start_number))
    tournament_seat_keys(game_id TEXT, seat TEXT, tournament_id TEXT,
                         for_arbiter TEXT /* the seat's token sealed with the tournament arbiter's token */,
                         for_player TEXT /* ... and with the player's own token */, PRIMARY KEY (game_id, seat))

Each write is one committed transaction. A tournament is saved whole, but never over a change it has not
seen: each save raises its row's version, and a save of a value read at an older version (another process
or request saved meanwhile) writes nothing and raises :class:`StaleTournament`; :meth:`TournamentStore.update`
reads the event again and makes the change on it, so that two processes saving at once (on one PostgreSQL
database or one SQLite file) keep each other's board results. On PostgreSQL the server gives its games' store
(:class:`chesslaws.server.store.PostgresStore`): tournaments then use the same reconnecting
connection pool, and an outage fails a call within the pool's timeout (the server answers 503). On SQLite
the server's games store gives its connection (and its lock): tournaments and games are one database there too.

A round is paired in one transaction (:meth:`TournamentStore.pair_round`): the event with its new round, the
round's games and their sealed keys, all committed or none (issue 36: a kill, an outage or a second process
pairing the same round at once used to leave games without their round). A player's own token is given once
and never replaced (:meth:`TournamentStore.add_player_keys`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, TypeVar

from chesslaws.tournament.model import StaleTournament, Tournament, TournamentError

from chesslaws.server.store import _rollback, read_event

if TYPE_CHECKING:
    from chesslaws.server.store import GameRecord

T = TypeVar("T")

#: Seconds a round's pairing waits halfway through writing its games, inside its transaction (tests and the
#: attack bench: a process killed, or a database stopped, at that instant). Unset: no wait.
PAUSE_ENV = "CHESSLAWS_TEST_PAIRING_PAUSE"


class RoundPairedMeanwhile(StaleTournament):
    """The round was paired meanwhile by another process (or request): this pairing wrote nothing."""


def pause_mid_round(tournament_id: str, number: int) -> None:
    """The test hook of :meth:`TournamentStore.pair_round`: halfway through the round's games, inside the
    transaction, says so on standard error and waits ``$CHESSLAWS_TEST_PAIRING_PAUSE`` seconds."""
    pause = os.environ.get(PAUSE_ENV)
    if pause:
        print(f"chesslaws: pairing round {number} of {tournament_id}: paused mid-transaction for {pause} s "
              f"({PAUSE_ENV})", file=sys.stderr, flush=True)
        time.sleep(float(pause))

_DDL = (
    "CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
    "updated_at DOUBLE PRECISION NOT NULL, body TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tournament_games (tournament_id TEXT NOT NULL, round INTEGER NOT NULL, "
    "board INTEGER NOT NULL, log TEXT NOT NULL, PRIMARY KEY (tournament_id, round, board))",
    "CREATE TABLE IF NOT EXISTS tournament_arbiters (tournament_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tournament_game_keys (game_id TEXT PRIMARY KEY, tournament_id TEXT NOT NULL, "
    "sealed TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tournament_player_keys (tournament_id TEXT NOT NULL, start_number INTEGER NOT NULL, "
    "token_hash TEXT NOT NULL, sealed TEXT NOT NULL, PRIMARY KEY (tournament_id, start_number))",
    "CREATE TABLE IF NOT EXISTS tournament_seat_keys (game_id TEXT NOT NULL, seat TEXT NOT NULL, "
    "tournament_id TEXT NOT NULL, for_arbiter TEXT NOT NULL, for_player TEXT NOT NULL, PRIMARY KEY (game_id, seat))",
)


class TournamentStore:
    """Saves and loads tournaments; ``url`` is a SQLite path or a ``postgresql://`` URL."""

    def __init__(self, url: str, games: Any = None) -> None:
        """``games``: the server's games store; on PostgreSQL its connection pool is used (one pool, one
        reconnection policy for the whole server). Without it, a pool of the store's own."""
        self.url = url
        self._pg = url.startswith(("postgresql://", "postgres://"))
        self._conn: Any = None
        self._pool: Any = None
        self._own_pool = False
        self._shared = False  # the games' SQLite connection (autocommit: each transaction begun here)
        self._lock = threading.Lock()
        if self._pg:
            shared = getattr(games, "_pool", None) if getattr(games, "url", None) == url else None
            if shared is not None:
                # The games' pool (PostgresStore): its connections, its reconnection and its timeout; not its
                # lock, so that a slow tournament call never holds up the games' own thread.
                self._pool = shared
            else:
                self._own_pool = True
                from psycopg_pool import ConnectionPool

                self._pool = ConnectionPool(url, min_size=1, max_size=2, timeout=3.0, open=True,
                                            kwargs={"autocommit": False, "connect_timeout": 3},
                                            check=ConnectionPool.check_connection, name="chesslaws-tournaments")
        elif isinstance(getattr(games, "_db", None), sqlite3.Connection) and getattr(games, "url", None) == url:
            # The games' own SQLite connection (SQLiteStore), under its lock: a round and its games are written in
            # one transaction (pair_round), and an in-memory database is one database for both.
            self._conn = games._db
            self._lock = games._lock
            self._shared = True
        else:
            self._conn = sqlite3.connect(url, check_same_thread=False)  # the server uses it from its threads
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")

        def create(cur: Any) -> None:
            if self._pg:
                cur.execute("SELECT pg_advisory_xact_lock(4242424243)")  # two servers creating tables at once
            for ddl in _DDL:
                cur.execute(ddl)
            # The version column, added to a database made before it (its rows start at version 0).
            if self._pg:
                cur.execute("ALTER TABLE tournaments ADD COLUMN IF NOT EXISTS version INTEGER NOT NULL DEFAULT 0")
            else:
                cur.execute("PRAGMA table_info(tournaments)")
                if "version" not in {row[1] for row in cur.fetchall()}:
                    cur.execute("ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 0")

        self._run(create)

    # --- plumbing ---------------------------------------------------------------------

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self._pg else text

    def _run(self, fn: Callable[[Any], T]) -> T:
        """``fn(cursor)`` in one transaction, committed if it returns, rolled back if it raises, on whichever
        connection this store uses (the games' pool, a pool of its own, or its SQLite connection)."""
        out: T
        if self._pool is not None:
            # One connection at a time for tournaments: the games' thread always has the other one.
            with self._lock, self._pool.connection() as db:
                try:
                    with db.cursor() as cur:
                        out = fn(cur)
                except BaseException:
                    db.rollback()
                    raise
                db.commit()
                return out
        with self._lock:
            cur = self._conn.cursor()
            try:
                if self._shared:
                    cur.execute("BEGIN IMMEDIATE")
                out = fn(cur)
            except BaseException:
                if self._shared:
                    _rollback(self._conn)
                else:
                    self._conn.rollback()
                raise
            else:
                if self._shared:
                    cur.execute("COMMIT")
                else:
                    self._conn.commit()
            finally:
                cur.close()
            return out

    def close(self) -> None:
        if self._pool is not None:
            if self._own_pool:
                self._pool.close()
        elif self._conn is not None and not self._shared:
            self._conn.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tournaments -------------------------------------------------------------------

    def save(self, t: Tournament) -> Tournament:
        """Writes the tournament (a new one gets an id) and returns it as stored, at its new version. A
        tournament read at a version that has been replaced since is not written: :class:`StaleTournament`."""
        if not t.id:
            t = replace(t, id=uuid.uuid4().hex[:12], version=0)
        body = json.dumps(t.to_json(), separators=(",", ":"))
        tid, seen = t.id, t.version

        def run(cur: Any) -> int:
            cur.execute(self._sql("UPDATE tournaments SET name = ?, updated_at = ?, body = ?, version = version + 1 "
                                  "WHERE id = ? AND version = ?"), (t.name, time.time(), body, tid, seen))
            if cur.rowcount == 1:
                return seen + 1
            cur.execute(self._sql("SELECT version FROM tournaments WHERE id = ?"), (tid,))
            row = cur.fetchone()
            if row is not None:
                raise StaleTournament(f"tournament {tid} was changed meanwhile (version {row[0]}, this change was "
                                      f"made on version {seen}): nothing was written; read it again")
            cur.execute(self._sql("INSERT INTO tournaments (id, name, updated_at, body, version) VALUES (?, ?, ?, ?, 0)"),
                        (tid, t.name, time.time(), body))
            return 0

        return replace(t, version=self._run(run))

    def update(self, key: str, change: Callable[[Tournament], Tournament], attempts: int = 50) -> Tournament:
        """Reads the tournament, makes ``change`` on it and saves the result; if another process saved
        meanwhile, reads it again and makes the change again on what it saved (optimistic concurrency), so
        that neither overwrites the other. Nothing is written when ``change`` changes nothing. ``change`` may
        raise to refuse (the change no longer applies): nothing is written."""
        for _ in range(attempts):
            t = self.load(key)
            new = change(t)
            if new == t:
                return t
            try:
                return self.save(replace(new, version=t.version))
            except StaleTournament:
                continue
        raise StaleTournament(f"tournament {key!r}: {attempts} attempts met another change each time; try again")

    def load(self, key: str) -> Tournament:
        """A tournament by id, or by name when the name is unique."""
        def run(cur: Any) -> list[Any]:
            cur.execute(self._sql("SELECT body, version FROM tournaments WHERE id = ?"), (key,))
            row = cur.fetchone()
            if row is not None:
                return [row]
            cur.execute(self._sql("SELECT body, version FROM tournaments WHERE name = ?"), (key,))
            return list(cur.fetchall())

        rows = self._run(run)
        if len(rows) > 1:
            raise TournamentError(f"{len(rows)} tournaments are named {key!r}: give the id "
                                  f"(chesslaws tournament list)")
        if not rows:
            raise TournamentError(f"no tournament {key!r} in {self.url}")
        return replace(Tournament.from_json(json.loads(rows[0][0])), version=int(rows[0][1]))

    def tournaments(self) -> list[tuple[str, str, float]]:
        """(id, name, last change) of every tournament, the latest first."""
        def run(cur: Any) -> list[tuple[str, str, float]]:
            cur.execute("SELECT id, name, updated_at FROM tournaments ORDER BY updated_at DESC")
            return [(str(a), str(b), float(c)) for a, b, c in cur.fetchall()]

        return self._run(run)

    def page(self, limit: int, before: str | None = None) -> list[tuple[str, float, Tournament]] | None:
        """A page of tournaments, the latest changed first: at most ``limit`` after the tournament ``before``
        (the last id of the previous page) in that order; None if ``before`` names none."""
        def run(cur: Any) -> list[Any] | None:
            if before is None:
                cur.execute(self._sql("SELECT id, updated_at, body FROM tournaments "
                                      "ORDER BY updated_at DESC, id DESC LIMIT ?"), (limit,))
            else:
                cur.execute(self._sql("SELECT updated_at FROM tournaments WHERE id = ?"), (before,))
                row = cur.fetchone()
                if row is None:
                    return None
                cur.execute(self._sql("SELECT id, updated_at, body FROM tournaments WHERE updated_at < ? OR "
                                      "(updated_at = ? AND id < ?) ORDER BY updated_at DESC, id DESC LIMIT ?"),
                            (row[0], row[0], before, limit))
            return list(cur.fetchall())

        rows = self._run(run)
        if rows is None:
            return None
        out: list[tuple[str, float, Tournament]] = []
        for tid, updated, body in rows:
            try:
                out.append((str(tid), float(updated), Tournament.from_json(json.loads(body))))
            except Exception:  # noqa: BLE001 - a row that cannot be read is left out of the list, never fatal
                continue
        return out

    # --- the games' logs -----------------------------------------------------------------

    def save_game_log(self, tournament_id: str, round_number: int, board: int, lines: Iterable[str]) -> None:
        log = "\n".join(lines) + "\n"

        def run(cur: Any) -> None:
            cur.execute(self._sql("DELETE FROM tournament_games WHERE tournament_id = ? AND round = ? AND board = ?"),
                        (tournament_id, round_number, board))
            cur.execute(self._sql("INSERT INTO tournament_games (tournament_id, round, board, log) "
                                  "VALUES (?, ?, ?, ?)"), (tournament_id, round_number, board, log))

        self._run(run)

    def game_logs(self, tournament_id: str, round_number: int | None = None) -> list[tuple[int, int, str]]:
        """(round, board, log) of the stored games, in order."""
        def run(cur: Any) -> list[tuple[int, int, str]]:
            if round_number is None:
                cur.execute(self._sql("SELECT round, board, log FROM tournament_games WHERE tournament_id = ? "
                                      "ORDER BY round, board"), (tournament_id,))
            else:
                cur.execute(self._sql("SELECT round, board, log FROM tournament_games WHERE tournament_id = ? "
                                      "AND round = ? ORDER BY board"), (tournament_id, round_number))
            return [(int(r), int(b), str(log)) for r, b, log in cur.fetchall()]

        return self._run(run)

    # --- the live arbiter's token (only its hash) ---------------------------------------

    def set_arbiter_token_hash(self, tournament_id: str, token_hash: str) -> None:
        def run(cur: Any) -> None:
            cur.execute(self._sql("DELETE FROM tournament_arbiters WHERE tournament_id = ?"), (tournament_id,))
            cur.execute(self._sql("INSERT INTO tournament_arbiters (tournament_id, token_hash) VALUES (?, ?)"),
                        (tournament_id, token_hash))

        self._run(run)

    def arbiter_token_hash(self, tournament_id: str) -> str | None:
        def run(cur: Any) -> Any:
            cur.execute(self._sql("SELECT token_hash FROM tournament_arbiters WHERE tournament_id = ?"),
                        (tournament_id,))
            return cur.fetchone()

        row = self._run(run)
        return None if row is None else str(row[0])

    # --- the games' arbiter tokens, sealed (chesslaws.tournament.boards.seal) ---------------------
    def game_keys(self, tournament_id: str) -> dict[str, str]:
        """game id -> the sealed arbiter token, for the games of a tournament."""
        def run(cur: Any) -> dict[str, str]:
            cur.execute(self._sql("SELECT game_id, sealed FROM tournament_game_keys WHERE tournament_id = ?"),
                        (tournament_id,))
            return {str(g): str(s) for g, s in cur.fetchall()}

        return self._run(run)

    # --- the players' own tokens, and their seats' tokens, sealed ---------------------------------
    def add_player_keys(self, tournament_id: str, rows: list[tuple[int, str, str]]) -> dict[int, tuple[str, str]]:
        """Gives the players (start number, the hash of a new token, the token sealed for the arbiter) who have
        no token yet this one, in one transaction, and answers every player's key as stored. A player's token
        is never replaced: where another request or process gave one meanwhile, that one stays (and is
        answered), so that every link made from these keys works."""
        def run(cur: Any) -> dict[int, tuple[str, str]]:
            cur.executemany(self._sql("INSERT INTO tournament_player_keys (tournament_id, start_number, token_hash, "
                                      "sealed) VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, start_number) "
                                      "DO NOTHING"), [(tournament_id, n, h, s) for n, h, s in rows])
            cur.execute(self._sql("SELECT start_number, token_hash, sealed FROM tournament_player_keys "
                                  "WHERE tournament_id = ?"), (tournament_id,))
            return {int(n): (str(h), str(s)) for n, h, s in cur.fetchall()}

        return self._run(run)

    def player_keys(self, tournament_id: str) -> dict[int, tuple[str, str]]:
        """start number -> (the hash of the player's token, the token sealed for the arbiter)."""
        def run(cur: Any) -> dict[int, tuple[str, str]]:
            cur.execute(self._sql("SELECT start_number, token_hash, sealed FROM tournament_player_keys "
                                  "WHERE tournament_id = ?"), (tournament_id,))
            return {int(n): (str(h), str(s)) for n, h, s in cur.fetchall()}

        return self._run(run)

    def seat_keys(self, tournament_id: str) -> dict[tuple[str, str], tuple[str, str]]:
        """(game id, seat) -> (sealed for the arbiter, sealed for the player)."""
        def run(cur: Any) -> dict[tuple[str, str], tuple[str, str]]:
            cur.execute(self._sql("SELECT game_id, seat, for_arbiter, for_player FROM tournament_seat_keys "
                                  "WHERE tournament_id = ?"), (tournament_id,))
            return {(str(g), str(s)): (str(a), str(p)) for g, s, a, p in cur.fetchall()}

        return self._run(run)

    # --- a round paired: one transaction -------------------------------------------------------------
    def pair_round(self, paired: Tournament, seen: int, games: list[tuple[GameRecord, dict[str, Any] | None]],
                   game_keys: list[tuple[str, str]], seats: list[tuple[str, str, str, str]]) -> Tournament:
        """Writes a newly paired round in one transaction: the event with its new round (``paired``, made on
        the value stored at version ``seen``), the round's games (their rows, start events and start rules:
        :func:`chesslaws.server.store.insert_games`), their arbiters' tokens sealed (game id, sealed) and their
        seats' tokens sealed (game id, seat, for the arbiter, for the player). Either all of it is committed
        or none: a process killed, or a database lost, while it is written leaves no game without its round.

        The event's row is written first, on the condition that it is still at version ``seen``: another
        process (or request) that saved the event meanwhile, such as one that paired the same round at the
        same instant, makes this one write nothing and raise :class:`RoundPairedMeanwhile` (the round is
        there) or :class:`StaleTournament` (another change). On PostgreSQL the row's lock makes a second
        pairing wait for the first to commit, then find its version gone."""
        from chesslaws.server.store import insert_games

        body = json.dumps(paired.to_json(), separators=(",", ":"))
        number = len(paired.rounds)

        def run(cur: Any) -> int:
            cur.execute(self._sql("UPDATE tournaments SET name = ?, updated_at = ?, body = ?, version = version + 1 "
                                  "WHERE id = ? AND version = ?"), (paired.name, time.time(), body, paired.id, seen))
            if cur.rowcount != 1:
                cur.execute(self._sql("SELECT body FROM tournaments WHERE id = ?"), (paired.id,))
                row = cur.fetchone()
                if row is None:
                    raise TournamentError(f"no tournament {paired.id!r} in {self.url}")
                if len(json.loads(row[0]).get("rounds", [])) >= number:
                    raise RoundPairedMeanwhile(f"round {number} was paired meanwhile by another process (or "
                                               "request): nothing was written; its pairings are the event's")
                raise StaleTournament(f"the event changed while round {number} was being paired (another server "
                                      "process or request): nothing was paired; pair again")
            half = len(games) // 2
            insert_games(cur, games[:half], pg=self._pg)
            pause_mid_round(paired.id, number)
            insert_games(cur, games[half:], pg=self._pg)
            cur.executemany(self._sql("INSERT INTO tournament_game_keys (game_id, tournament_id, sealed) "
                                      "VALUES (?, ?, ?)"), [(g, paired.id, sealed) for g, sealed in game_keys])
            cur.executemany(self._sql("INSERT INTO tournament_seat_keys (game_id, seat, tournament_id, for_arbiter, "
                                      "for_player) VALUES (?, ?, ?, ?, ?)"),
                            [(g, seat, paired.id, a, p) for g, seat, a, p in seats])
            return seen + 1

        return replace(paired, version=self._run(run))

    # --- games a pairing cut short left without their round (an older server's) ----------------------
    def orphan_games(self) -> list[tuple[str, str, list[Any]]]:
        """The games not over (in the games' table, on this database) that were made for a tournament's round
        but belong to no round of it: (game id, tournament id, the stored rows of its log). A round paired by
        an older server (one game committed at a time) and cut short by a kill, an outage or a second process
        left such games. A game is one when its arbiter's key names the tournament, or when its start event
        names the tournament's event and a round, and its two players are the tournament's, and no board of
        any tournament holds it."""
        def run(cur: Any) -> list[tuple[str, str, list[Any]]]:
            cur.execute("SELECT id, name, body FROM tournaments")
            held: set[str] = set()  # the games of every paired board
            players: dict[str, set[str]] = {}
            by_name: dict[str, list[str]] = {}
            for tid, name, body in cur.fetchall():
                try:
                    obj = json.loads(body)
                    held.update(str(b["game_id"]) for r in obj.get("rounds", []) for b in r.get("boards", [])
                                if b.get("game_id"))
                    players[str(tid)] = {str(p.get("name")) for p in obj.get("players", [])}
                except (ValueError, TypeError, AttributeError, KeyError):
                    continue  # an unreadable event claims nothing (and its games are left as they are)
                by_name.setdefault(str(name), []).append(str(tid))
            if not players:
                return []
            cur.execute("SELECT g.id, e.body, k.tournament_id FROM games g JOIN events e ON e.game_id = g.id "
                        "AND e.seq = 0 LEFT JOIN tournament_game_keys k ON k.game_id = g.id WHERE g.status = 'live'")
            found: list[tuple[str, str]] = []
            for gid, first, key in cur.fetchall():
                if str(gid) in held:
                    continue
                start = read_event(first, 0)
                if key is not None:
                    if str(key) in players:
                        found.append((str(gid), str(key)))
                    continue
                if not start.get("round") or not isinstance(start.get("event"), str):
                    continue
                for tid in by_name.get(start["event"], []):
                    if {str(start.get("white")), str(start.get("black"))} <= players[tid]:
                        found.append((str(gid), tid))
                        break
            out: list[tuple[str, str, list[Any]]] = []
            for gid, tid in found:
                cur.execute(self._sql("SELECT body FROM events WHERE game_id = ? ORDER BY seq"), (gid,))
                out.append((gid, tid, [read_event(b, i) for i, (b,) in enumerate(cur.fetchall())]))
            return out

        return self._run(run)

    def append_event(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        """Appends event number ``seq`` to a game's log (an orphan's annulment); the other processes of a
        PostgreSQL database are told, as of any event."""
        from chesslaws.server.store import dumps

        def run(cur: Any) -> None:
            cur.execute(self._sql("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)"),
                        (game_id, seq, dumps(event)))
            if self._pg:
                cur.execute("SELECT pg_notify('chesslaws', %s)", (f"{game_id} {seq}",))

        self._run(run)

    def tournament_of_game(self, game_id: str) -> str | None:
        """The tournament a live game belongs to, or None."""
        def run(cur: Any) -> Any:
            cur.execute(self._sql("SELECT tournament_id FROM tournament_game_keys WHERE game_id = ?"), (game_id,))
            return cur.fetchone()

        row = self._run(run)
        return None if row is None else str(row[0])

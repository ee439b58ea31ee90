"""Tournaments in the server's database (a SQLite file or a postgresql:// URL): the tournament repository.

Schema (the same in both databases; tables created where missing)::

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

Each call is one committed transaction (:mod:`chesslaws.store.db`). A tournament is saved whole, but never over
a change it has not seen: each save raises its row's version, and a save of a value read at an older version
(another process or request saved meanwhile) writes nothing and raises :class:`StaleTournament`;
:meth:`TournamentStore.update` reads the event again and makes the change on it, so that two processes saving
at once (on one PostgreSQL database or one SQLite file) keep each other's board results. In the server the
tournaments share the game store's database (:class:`chesslaws.store.games.Store`): on PostgreSQL its
reconnecting connection pool (an outage fails a call within the pool's timeout, and the server answers 503),
on SQLite its connection.

A round is paired in one transaction (:meth:`TournamentStore.pair_round`): the event with its new round, the
round's games (:func:`chesslaws.store.games.insert_games`) and their sealed keys, all committed or none, so
that a kill, an outage or a second process pairing the same round at once leaves no game without its round.
A player's own token is given once and never replaced (:meth:`TournamentStore.add_player_keys`).
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from dataclasses import replace
from typing import Any, Callable, Iterable, TypeVar

from chesslaws.store.db import Database, Tx, open_database
from chesslaws.store.games import GameRecord, Store, append_events, insert_games
from chesslaws.store.rows import read_event
from chesslaws.tournament.model import StaleTournament, Tournament, TournamentError

T = TypeVar("T")

#: Seconds a round's pairing waits halfway through writing its games, inside its transaction (tests and the
#: attack bench: a process killed, or a database stopped, at that instant). Unset: no wait.
PAUSE_ENV = "CHESSLAWS_TEST_PAIRING_PAUSE"

#: The key of the lock two processes creating the tournament tables at once take in turn (PostgreSQL).
_SCHEMA_LOCK = 4242424243


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


def create_schema(tx: Tx) -> None:
    """Creates the tournament tables where missing, and the version column in a database made before it (its
    rows start at version 0)."""
    tx.lock_schema(_SCHEMA_LOCK)
    for ddl in _DDL:
        tx.execute(ddl)
    if "version" not in tx.columns("tournaments"):
        tx.execute("ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 0")


class TournamentStore:
    """Saves and loads tournaments."""

    def __init__(self, source: str | Database, games: Store | None = None) -> None:
        """``source``: the database, or its URL (a SQLite path or a ``postgresql://`` URL). ``games``: the
        server's game store; when it is on that URL, its database is used (one pool and one reconnection
        policy for the whole server on PostgreSQL, one connection on SQLite, and a round written with its
        games in one transaction); otherwise the store opens the database itself (and closes it)."""
        if isinstance(source, Database):
            self.database, self._own = source, False
        elif games is not None and games.url == source:
            self.database, self._own = games.database, False
        else:
            self.database, self._own = open_database(source, name="chesslaws-tournaments"), True
        self.url = self.database.url
        # Transactions one at a time, on a connection of their own on PostgreSQL: a slow tournament call never
        # holds up the games' own thread.
        self._session = self.database.session()
        try:
            self._run(create_schema)
        except BaseException:
            self.close()
            raise

    def _run(self, fn: Callable[[Tx], T]) -> T:
        """``fn(tx)`` in one transaction, committed if it returns, rolled back if it raises."""
        return self._session.run(fn)

    def _read(self, fn: Callable[[Tx], T]) -> T:
        """``fn(tx)``, which only reads."""
        return self._session.run(fn, write=False)

    def close(self) -> None:
        """Closes the database if this store opened it."""
        if self._own:
            self.database.close()

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

        def run(tx: Tx) -> int:
            tx.execute("UPDATE tournaments SET name = ?, updated_at = ?, body = ?, version = version + 1 "
                       "WHERE id = ? AND version = ?", (t.name, time.time(), body, tid, seen))
            if tx.rowcount == 1:
                return seen + 1
            tx.execute("SELECT version FROM tournaments WHERE id = ?", (tid,))
            row = tx.fetchone()
            if row is not None:
                raise StaleTournament(f"tournament {tid} was changed meanwhile (version {row[0]}, this change was "
                                      f"made on version {seen}): nothing was written; read it again")
            tx.execute("INSERT INTO tournaments (id, name, updated_at, body, version) VALUES (?, ?, ?, ?, 0)",
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
        def run(tx: Tx) -> list[Any]:
            tx.execute("SELECT body, version FROM tournaments WHERE id = ?", (key,))
            row = tx.fetchone()
            if row is not None:
                return [row]
            tx.execute("SELECT body, version FROM tournaments WHERE name = ?", (key,))
            return list(tx.fetchall())

        rows = self._read(run)
        if len(rows) > 1:
            raise TournamentError(f"{len(rows)} tournaments are named {key!r}: give the id "
                                  f"(chesslaws tournament list)")
        if not rows:
            raise TournamentError(f"no tournament {key!r} in {self.url}")
        return replace(Tournament.from_json(json.loads(rows[0][0])), version=int(rows[0][1]))

    def tournaments(self) -> list[tuple[str, str, float]]:
        """(id, name, last change) of every tournament, the latest first."""
        def run(tx: Tx) -> list[tuple[str, str, float]]:
            tx.execute("SELECT id, name, updated_at FROM tournaments ORDER BY updated_at DESC")
            return [(str(a), str(b), float(c)) for a, b, c in tx.fetchall()]

        return self._read(run)

    def page(self, limit: int, before: str | None = None) -> list[tuple[str, float, Tournament]] | None:
        """A page of tournaments, the latest changed first: at most ``limit`` after the tournament ``before``
        (the last id of the previous page) in that order; None if ``before`` names none."""
        def run(tx: Tx) -> list[Any] | None:
            if before is None:
                tx.execute("SELECT id, updated_at, body FROM tournaments "
                           "ORDER BY updated_at DESC, id DESC LIMIT ?", (limit,))
            else:
                tx.execute("SELECT updated_at FROM tournaments WHERE id = ?", (before,))
                row = tx.fetchone()
                if row is None:
                    return None
                tx.execute("SELECT id, updated_at, body FROM tournaments WHERE updated_at < ? OR "
                           "(updated_at = ? AND id < ?) ORDER BY updated_at DESC, id DESC LIMIT ?",
                           (row[0], row[0], before, limit))
            return list(tx.fetchall())

        rows = self._read(run)
        if rows is None:
            return None
        out: list[tuple[str, float, Tournament]] = []
        for tid, updated, body in rows:
            try:
                out.append((str(tid), float(updated), Tournament.from_json(json.loads(body))))
            except Exception:  # noqa: BLE001 - a row that cannot be read is left out of the list, never fatal
                continue
        return out

    def version(self, tournament_id: str) -> int | None:
        """The event's stored version (None if no event has this id): one small query."""
        row = self._read(lambda tx: tx.execute("SELECT version FROM tournaments WHERE id = ?",
                                               (tournament_id,)).fetchone())
        return None if row is None else int(row[0])

    # --- the games' logs -----------------------------------------------------------------

    def save_game_log(self, tournament_id: str, round_number: int, board: int, lines: Iterable[str]) -> None:
        log = "\n".join(lines) + "\n"

        def run(tx: Tx) -> None:
            tx.execute("DELETE FROM tournament_games WHERE tournament_id = ? AND round = ? AND board = ?",
                       (tournament_id, round_number, board))
            tx.execute("INSERT INTO tournament_games (tournament_id, round, board, log) "
                       "VALUES (?, ?, ?, ?)", (tournament_id, round_number, board, log))

        self._run(run)

    def game_logs(self, tournament_id: str, round_number: int | None = None) -> list[tuple[int, int, str]]:
        """(round, board, log) of the stored games, in order."""
        def run(tx: Tx) -> list[tuple[int, int, str]]:
            if round_number is None:
                tx.execute("SELECT round, board, log FROM tournament_games WHERE tournament_id = ? "
                           "ORDER BY round, board", (tournament_id,))
            else:
                tx.execute("SELECT round, board, log FROM tournament_games WHERE tournament_id = ? "
                           "AND round = ? ORDER BY board", (tournament_id, round_number))
            return [(int(r), int(b), str(log)) for r, b, log in tx.fetchall()]

        return self._read(run)

    # --- the live arbiter's token (only its hash) ---------------------------------------

    def set_arbiter_token_hash(self, tournament_id: str, token_hash: str) -> None:
        def run(tx: Tx) -> None:
            tx.execute("DELETE FROM tournament_arbiters WHERE tournament_id = ?", (tournament_id,))
            tx.execute("INSERT INTO tournament_arbiters (tournament_id, token_hash) VALUES (?, ?)",
                       (tournament_id, token_hash))

        self._run(run)

    def arbiter_token_hash(self, tournament_id: str) -> str | None:
        def run(tx: Tx) -> Any:
            tx.execute("SELECT token_hash FROM tournament_arbiters WHERE tournament_id = ?",
                       (tournament_id,))
            return tx.fetchone()

        row = self._read(run)
        return None if row is None else str(row[0])

    # --- the games' arbiter tokens, sealed (chesslaws.tournament.boards.seal) ---------------------
    def game_keys(self, tournament_id: str) -> dict[str, str]:
        """game id -> the sealed arbiter token, for the games of a tournament."""
        def run(tx: Tx) -> dict[str, str]:
            tx.execute("SELECT game_id, sealed FROM tournament_game_keys WHERE tournament_id = ?",
                       (tournament_id,))
            return {str(g): str(s) for g, s in tx.fetchall()}

        return self._read(run)

    # --- the players' own tokens, and their seats' tokens, sealed ---------------------------------
    def add_player_keys(self, tournament_id: str, rows: list[tuple[int, str, str]]) -> dict[int, tuple[str, str]]:
        """Gives the players (start number, the hash of a new token, the token sealed for the arbiter) who have
        no token yet this one, in one transaction, and answers every player's key as stored. A player's token
        is never replaced: where another request or process gave one meanwhile, that one stays (and is
        answered), so that every link made from these keys works."""
        def run(tx: Tx) -> dict[int, tuple[str, str]]:
            tx.executemany("INSERT INTO tournament_player_keys (tournament_id, start_number, token_hash, "
                           "sealed) VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, start_number) "
                           "DO NOTHING", [(tournament_id, n, h, s) for n, h, s in rows])
            tx.execute("SELECT start_number, token_hash, sealed FROM tournament_player_keys "
                       "WHERE tournament_id = ?", (tournament_id,))
            return {int(n): (str(h), str(s)) for n, h, s in tx.fetchall()}

        return self._run(run)

    def player_keys(self, tournament_id: str) -> dict[int, tuple[str, str]]:
        """start number -> (the hash of the player's token, the token sealed for the arbiter)."""
        def run(tx: Tx) -> dict[int, tuple[str, str]]:
            tx.execute("SELECT start_number, token_hash, sealed FROM tournament_player_keys "
                       "WHERE tournament_id = ?", (tournament_id,))
            return {int(n): (str(h), str(s)) for n, h, s in tx.fetchall()}

        return self._read(run)

    def seat_keys(self, tournament_id: str) -> dict[tuple[str, str], tuple[str, str]]:
        """(game id, seat) -> (sealed for the arbiter, sealed for the player)."""
        def run(tx: Tx) -> dict[tuple[str, str], tuple[str, str]]:
            tx.execute("SELECT game_id, seat, for_arbiter, for_player FROM tournament_seat_keys "
                       "WHERE tournament_id = ?", (tournament_id,))
            return {(str(g), str(s)): (str(a), str(p)) for g, s, a, p in tx.fetchall()}

        return self._read(run)

    # --- a round paired: one transaction -------------------------------------------------------------
    def pair_round(self, paired: Tournament, seen: int, games: list[tuple[GameRecord, dict[str, Any] | None]],
                   game_keys: list[tuple[str, str]], seats: list[tuple[str, str, str, str]]) -> Tournament:
        """Writes a newly paired round in one transaction: the event with its new round (``paired``, made on
        the value stored at version ``seen``), the round's games (their rows, start events and start rules:
        :func:`chesslaws.store.games.insert_games`), their arbiters' tokens sealed (game id, sealed) and their
        seats' tokens sealed (game id, seat, for the arbiter, for the player). Either all of it is committed
        or none: a process killed, or a database lost, while it is written leaves no game without its round.

        The event's row is written first, on the condition that it is still at version ``seen``: another
        process (or request) that saved the event meanwhile, such as one that paired the same round at the
        same instant, makes this one write nothing and raise :class:`RoundPairedMeanwhile` (the round is
        there) or :class:`StaleTournament` (another change). On PostgreSQL the row's lock makes a second
        pairing wait for the first to commit, then find its version gone."""
        body = json.dumps(paired.to_json(), separators=(",", ":"))
        number = len(paired.rounds)

        def run(tx: Tx) -> int:
            tx.execute("UPDATE tournaments SET name = ?, updated_at = ?, body = ?, version = version + 1 "
                       "WHERE id = ? AND version = ?", (paired.name, time.time(), body, paired.id, seen))
            if tx.rowcount != 1:
                tx.execute("SELECT body FROM tournaments WHERE id = ?", (paired.id,))
                row = tx.fetchone()
                if row is None:
                    raise TournamentError(f"no tournament {paired.id!r} in {self.url}")
                if len(json.loads(row[0]).get("rounds", [])) >= number:
                    raise RoundPairedMeanwhile(f"round {number} was paired meanwhile by another process (or "
                                               "request): nothing was written; its pairings are the event's")
                raise StaleTournament(f"the event changed while round {number} was being paired (another server "
                                      "process or request): nothing was paired; pair again")
            half = len(games) // 2
            insert_games(tx, games[:half])
            pause_mid_round(paired.id, number)
            insert_games(tx, games[half:])
            tx.executemany("INSERT INTO tournament_game_keys (game_id, tournament_id, sealed) "
                           "VALUES (?, ?, ?)", [(g, paired.id, sealed) for g, sealed in game_keys])
            tx.executemany("INSERT INTO tournament_seat_keys (game_id, seat, tournament_id, for_arbiter, "
                           "for_player) VALUES (?, ?, ?, ?, ?)",
                           [(g, seat, paired.id, a, p) for g, seat, a, p in seats])
            return seen + 1

        return replace(paired, version=self._run(run))

    # --- games a pairing cut short left without their round ------------------------------------------
    def orphan_games(self) -> list[tuple[str, str, list[Any]]]:
        """The games not over (in the games' table, on this database) that were made for a tournament's round
        but belong to no round of it: (game id, tournament id, the stored rows of its log). A database whose
        rounds were written one game per transaction may hold such games, where a kill, an outage or a second
        process cut a pairing short. A game is one when its arbiter's key names the tournament, or when its
        start event names the tournament's event and a round, and its two players are the tournament's, and no
        board of any tournament holds it."""
        def run(tx: Tx) -> list[tuple[str, str, list[Any]]]:
            tx.execute("SELECT id, name, body FROM tournaments")
            held: set[str] = set()  # the games of every paired board
            players: dict[str, set[str]] = {}
            by_name: dict[str, list[str]] = {}
            for tid, name, body in tx.fetchall():
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
            tx.execute("SELECT g.id, e.body, k.tournament_id FROM games g JOIN events e ON e.game_id = g.id "
                       "AND e.seq = 0 LEFT JOIN tournament_game_keys k ON k.game_id = g.id WHERE g.status = 'live'")
            found: list[tuple[str, str]] = []
            for gid, first, key in tx.fetchall():
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
                tx.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq", (gid,))
                out.append((gid, tid, [read_event(b, i) for i, (b,) in enumerate(tx.fetchall())]))
            return out

        return self._run(run)

    def append_event(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        """Appends event number ``seq`` to a game's log (an orphan's annulment); the other processes of a
        PostgreSQL database are told, as of any event."""
        self._run(lambda tx: append_events(tx, [(game_id, seq, event)]))

    def tournament_of_game(self, game_id: str) -> str | None:
        """The tournament a live game belongs to, or None."""
        def run(tx: Tx) -> Any:
            tx.execute("SELECT tournament_id FROM tournament_game_keys WHERE game_id = ?", (game_id,))
            return tx.fetchone()

        row = self._read(run)
        return None if row is None else str(row[0])


__all__ = ["PAUSE_ENV", "RoundPairedMeanwhile", "TournamentStore", "create_schema", "pause_mid_round"]

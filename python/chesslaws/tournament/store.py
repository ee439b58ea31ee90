"""Tournaments in the server's database (a SQLite file or a postgresql:// URL), tables created if missing.

Schema (the same in both databases)::

    tournaments(id TEXT PRIMARY KEY, name TEXT, updated_at DOUBLE PRECISION,
                body TEXT /* the tournament as JSON: regulations, players, rounds, byes */)
    tournament_games(tournament_id TEXT, round INTEGER, board INTEGER,
                     log TEXT /* the game's log, JSON Lines */, PRIMARY KEY (tournament_id, round, board))
    tournament_arbiters(tournament_id TEXT PRIMARY KEY, token_hash TEXT /* sha256 hex of the live arbiter's token */)
    tournament_game_keys(game_id TEXT PRIMARY KEY, tournament_id TEXT,
                         sealed TEXT /* the game's arbiter token sealed with the tournament arbiter's token */)

Each write is one committed transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from dataclasses import replace
from typing import Any, Iterable

from chesslaws.tournament.model import Tournament, TournamentError

_DDL = (
    "CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
    "updated_at DOUBLE PRECISION NOT NULL, body TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tournament_games (tournament_id TEXT NOT NULL, round INTEGER NOT NULL, "
    "board INTEGER NOT NULL, log TEXT NOT NULL, PRIMARY KEY (tournament_id, round, board))",
    "CREATE TABLE IF NOT EXISTS tournament_arbiters (tournament_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tournament_game_keys (game_id TEXT PRIMARY KEY, tournament_id TEXT NOT NULL, "
    "sealed TEXT NOT NULL)",
)


class TournamentStore:
    """Saves and loads tournaments; ``url`` is a SQLite path or a ``postgresql://`` URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._pg = url.startswith(("postgresql://", "postgres://"))
        self._conn: Any
        if self._pg:
            import psycopg

            self._conn = psycopg.connect(url, autocommit=False)
        else:
            self._conn = sqlite3.connect(url, check_same_thread=False)  # the server uses it from its loop thread
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
        with self._tx() as cur:
            for ddl in _DDL:
                cur.execute(ddl)

    # --- plumbing ---------------------------------------------------------------------

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self._pg else text

    class _Tx:
        def __init__(self, store: TournamentStore) -> None:
            self.store = store

        def __enter__(self) -> Any:
            self.cur = self.store._conn.cursor()
            return self.cur

        def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
            if exc_type is None:
                self.store._conn.commit()
            else:
                self.store._conn.rollback()
            self.cur.close()

    def _tx(self) -> TournamentStore._Tx:
        return TournamentStore._Tx(self)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tournaments -------------------------------------------------------------------

    def save(self, t: Tournament) -> Tournament:
        """Writes the tournament (a new one gets an id) and returns it as stored."""
        if not t.id:
            t = replace(t, id=uuid.uuid4().hex[:12])
        body = json.dumps(t.to_json(), separators=(",", ":"))
        with self._tx() as cur:
            cur.execute(self._sql("SELECT 1 FROM tournaments WHERE id = ?"), (t.id,))
            if cur.fetchone():
                cur.execute(self._sql("UPDATE tournaments SET name = ?, updated_at = ?, body = ? WHERE id = ?"),
                            (t.name, time.time(), body, t.id))
            else:
                cur.execute(self._sql("INSERT INTO tournaments (id, name, updated_at, body) VALUES (?, ?, ?, ?)"),
                            (t.id, t.name, time.time(), body))
        return t

    def load(self, key: str) -> Tournament:
        """A tournament by id, or by name when the name is unique."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT body FROM tournaments WHERE id = ?"), (key,))
            row = cur.fetchone()
            if row is None:
                cur.execute(self._sql("SELECT body FROM tournaments WHERE name = ?"), (key,))
                rows = cur.fetchall()
                if len(rows) > 1:
                    raise TournamentError(f"{len(rows)} tournaments are named {key!r}: give the id "
                                          f"(chesslaws tournament list)")
                row = rows[0] if rows else None
        if row is None:
            raise TournamentError(f"no tournament {key!r} in {self.url}")
        return Tournament.from_json(json.loads(row[0]))

    def tournaments(self) -> list[tuple[str, str, float]]:
        """(id, name, last change) of every tournament, the latest first."""
        with self._tx() as cur:
            cur.execute("SELECT id, name, updated_at FROM tournaments ORDER BY updated_at DESC")
            return [(str(a), str(b), float(c)) for a, b, c in cur.fetchall()]

    # --- the games' logs -----------------------------------------------------------------

    def save_game_log(self, tournament_id: str, round_number: int, board: int, lines: Iterable[str]) -> None:
        log = "\n".join(lines) + "\n"
        with self._tx() as cur:
            cur.execute(self._sql("DELETE FROM tournament_games WHERE tournament_id = ? AND round = ? AND board = ?"),
                        (tournament_id, round_number, board))
            cur.execute(self._sql("INSERT INTO tournament_games (tournament_id, round, board, log) "
                                  "VALUES (?, ?, ?, ?)"), (tournament_id, round_number, board, log))

    def game_logs(self, tournament_id: str, round_number: int | None = None) -> list[tuple[int, int, str]]:
        """(round, board, log) of the stored games, in order."""
        with self._tx() as cur:
            if round_number is None:
                cur.execute(self._sql("SELECT round, board, log FROM tournament_games WHERE tournament_id = ? "
                                      "ORDER BY round, board"), (tournament_id,))
            else:
                cur.execute(self._sql("SELECT round, board, log FROM tournament_games WHERE tournament_id = ? "
                                      "AND round = ? ORDER BY board"), (tournament_id, round_number))
            return [(int(r), int(b), str(log)) for r, b, log in cur.fetchall()]

    # --- the live arbiter's token (only its hash) ---------------------------------------

    def set_arbiter_token_hash(self, tournament_id: str, token_hash: str) -> None:
        with self._tx() as cur:
            cur.execute(self._sql("DELETE FROM tournament_arbiters WHERE tournament_id = ?"), (tournament_id,))
            cur.execute(self._sql("INSERT INTO tournament_arbiters (tournament_id, token_hash) VALUES (?, ?)"),
                        (tournament_id, token_hash))

    def arbiter_token_hash(self, tournament_id: str) -> str | None:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT token_hash FROM tournament_arbiters WHERE tournament_id = ?"),
                        (tournament_id,))
            row = cur.fetchone()
        return None if row is None else str(row[0])

    # --- the games' arbiter tokens, sealed (chesslaws.tournament.live.seal) ---------------------
    def save_game_key(self, tournament_id: str, game_id: str, sealed: str) -> None:
        with self._tx() as cur:
            cur.execute(self._sql("DELETE FROM tournament_game_keys WHERE game_id = ?"), (game_id,))
            cur.execute(self._sql("INSERT INTO tournament_game_keys (game_id, tournament_id, sealed) VALUES (?, ?, ?)"),
                        (game_id, tournament_id, sealed))

    def game_keys(self, tournament_id: str) -> dict[str, str]:
        """game id -> the sealed arbiter token, for the games of a tournament."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT game_id, sealed FROM tournament_game_keys WHERE tournament_id = ?"),
                        (tournament_id,))
            return {str(g): str(s) for g, s in cur.fetchall()}

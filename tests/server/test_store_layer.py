"""The database layer under the game and tournament repositories (chesslaws.store), on both databases."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest

from chesslaws.server.errors import reason as describe_error
from chesslaws.store.db import StoreError, Tx, is_outage
from chesslaws.store.games import GameRecord, hash_token, insert_games, open_store
from chesslaws.store.tournaments import TournamentStore
from chesslaws.tournament.model import Regulations, Tournament


def _game(gid: str) -> GameRecord:
    start = {"type": "start", "t": 0, "time_control": "300+0", "white": "A", "black": "B"}
    return GameRecord(gid, time.time(), "online", {"white": "A", "black": "B"},
                      {s: hash_token(gid + s) for s in ("white", "black", "arbiter")}, [start])


def test_the_tournaments_use_the_games_database_and_one_transaction_spans_both(db_url: str) -> None:
    games = open_store(db_url)
    tournaments = TournamentStore(db_url, games)
    try:
        assert tournaments.database is games.database
        t = tournaments.save(Tournament("Open", Regulations(rounds=3, time_control="300+0")))

        def half_written(tx: Tx) -> None:
            tx.execute("UPDATE tournaments SET name = ? WHERE id = ?", ("Renamed", t.id))
            insert_games(tx, [(_game("inTx"), None)])
            raise RuntimeError("cut short")

        with pytest.raises(RuntimeError):
            tournaments.database.session().run(half_written)
        assert games.load("inTx") is None and tournaments.load(t.id).name == "Open"  # neither was written
        tournaments.database.session().run(lambda tx: insert_games(tx, [(_game("inTx"), None)]))
        loaded = games.load("inTx")
        assert loaded is not None and loaded.events[0]["white"] == "A"
    finally:
        tournaments.close()  # the games' database stays open: the games store closes it
        assert games.game_ids() == ["inTx"]
        games.close()


def test_a_refused_write_is_a_store_error_and_no_outage(db_url: str) -> None:
    games = open_store(db_url)
    try:
        games.create_game(_game("g1"))
        with pytest.raises(StoreError) as err:
            games.append("g1", 0, {"type": "resign", "t": 1, "by": "white"})  # event 0 is the start
        assert not is_outage(err.value)
        with pytest.raises(StoreError):
            games.append("nogame", 1, {"type": "resign", "t": 1, "by": "white"})  # no such game
    finally:
        games.close()


@pytest.mark.parametrize("err,outage", [
    (sqlite3.OperationalError("database is locked"), True),
    (sqlite3.OperationalError("database or disk is full"), True),
    (sqlite3.OperationalError("no such table: games"), False),
    (OSError("connection refused"), True),
    (TimeoutError(), True),
    (ValueError("bad"), False),
])
def test_outages_are_told_from_faults_of_a_request(err: BaseException, outage: bool) -> None:
    assert is_outage(err) is outage
    assert describe_error(err).startswith(type(err).__name__)


def test_a_postgresql_outage_is_an_outage() -> None:
    psycopg: Any = pytest.importorskip("psycopg")
    assert is_outage(psycopg.OperationalError("server closed the connection"))
    assert is_outage(psycopg.errors.ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"))
    assert not is_outage(psycopg.errors.UniqueViolation("duplicate key"))

"""A game served by one process costs the others nothing: a new event is announced (NOTIFY) only to the other
processes that hold the game in memory, and a process that loads a game hears of every event not in the log it
read (its hold is taken in the same transaction, the game's row locked meanwhile)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Iterator

import httpx
import psycopg
import pytest

from chesslaws.store.games import HOLDER_TIMEOUT, GameRecord, PostgresStore

from test_api import auth

MOVE = {"type": "move", "t": 1.0, "by": "white", "move": "e4"}


class Heard:
    """Every note on the servers' channel, heard by a connection that holds no game."""

    def __init__(self, url: str) -> None:
        self.notes: list[str] = []
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute("LISTEN chesslaws")
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for note in self.conn.notifies(timeout=0.1):
                self.notes.append(note.payload)

    def about(self, gid: str, wait: float = 0.5) -> list[str]:
        time.sleep(wait)  # a note comes at the commit: what has not come by now was not sent
        return [n for n in self.notes if n.split(" ", 1)[0] == gid]

    def close(self) -> None:
        self._stop.set()
        self.thread.join(2)
        self.conn.close()


@pytest.fixture
def heard(pg_url: str) -> Iterator[Callable[[], Heard]]:
    made: list[Heard] = []

    def make() -> Heard:
        made.append(Heard(pg_url))
        return made[-1]

    yield make
    for h in made:
        h.close()


def _store(url: str, origin: str) -> PostgresStore:
    store = PostgresStore(url)
    store.origin = origin
    store.beat(time.time())
    return store


def _game(gid: str) -> GameRecord:
    return GameRecord(gid, time.time(), "online", {"white": "W", "black": "B"},
                      {"white": None, "black": None, "arbiter": None},
                      [{"type": "start", "t": 0, "edition": "2023", "time_control": "600"}])


def test_an_event_is_announced_only_to_the_other_processes_that_hold_the_game(
        pg_url: str, heard: Callable[[], Heard]) -> None:
    a, b = _store(pg_url, "aaaa"), _store(pg_url, "bbbb")
    try:
        a.create_game(_game("g1"))  # held by A, its writer
        seen = heard()
        a.append("g1", 1, MOVE)
        b.append("g1", 2, {**MOVE, "by": "black", "move": "e5"})  # B writes without holding it: A is told
        assert seen.about("g1") == ["g1 2 bbbb"]
        assert b.load("g1", hold=True) is not None  # B holds it now: A's events reach B
        a.append("g1", 3, {**MOVE, "move": "Nf3"})
        assert seen.about("g1")[1:] == ["g1 3 aaaa"]
        a.release(["g1"])  # A lets it go: B's events reach nobody
        b.append("g1", 4, {**MOVE, "by": "black", "move": "Nc6"})
        assert seen.about("g1")[2:] == []
        b.release(["g1"])
        a.append("g1", 5, {**MOVE, "move": "Bb5"})
        assert seen.about("g1")[2:] == [], "a game nobody else holds is announced to nobody"
    finally:
        a.close()
        b.close()


def test_the_holds_of_a_process_silent_too_long_are_swept_and_it_knows(pg_url: str, heard: Callable[[], Heard]) -> None:
    a, b = _store(pg_url, "aaaa"), _store(pg_url, "bbbb")
    try:
        a.create_game(_game("g2"))
        assert b.load("g2", hold=True) is not None
        seen = heard()
        now = time.time()
        assert a.beat(now + HOLDER_TIMEOUT + 1) is False  # A beats on; B has been silent for too long
        a.append("g2", 1, MOVE)
        assert seen.about("g2") == [], "the holds of a dead process are still announced to"
        assert b.beat(now + HOLDER_TIMEOUT + 1) is True  # B learns it lost its holds (the server takes them again)
    finally:
        a.close()
        b.close()


def two_processes_and_a_game(pg_url: str, server_factory: Callable[..., Any]) -> tuple[Any, Any, str, dict[str, str]]:
    """Two servers on one database, and a game created on the first: (a, b, its id, its seats' tokens)."""
    a, b = (server_factory(pg_url, extra=("--no-rate-limits",)) for _ in range(2))
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600",
                                                 "when_ready": False}).json()
    return a, b, g["id"], g["tokens"]


def move_on(base: str, gid: str, token: str, san: str) -> None:
    """The move sent to the server at ``base`` with the seat's token; it must be taken."""
    r = httpx.post(f"{base}/api/games/{gid}/events", json={"type": "move", "move": san},
                   headers=auth(token), timeout=10)
    assert r.status_code == 200, r.text


def test_a_game_played_on_one_process_sends_the_others_nothing(
        pg_url: str, server_factory: Callable[..., Any], heard: Callable[[], Heard]) -> None:
    a, b, gid, tok = two_processes_and_a_game(pg_url, server_factory)
    seen = heard()

    def move(base: str, seat: str, san: str) -> None:
        move_on(base, gid, tok[seat], san)

    move(a.url, "white", "e4")
    move(a.url, "black", "e5")
    assert [n for n in seen.about(gid) if n.split(" ")[1].isdigit()] == [], "a game only A holds was announced"
    assert [m["san"] for m in httpx.get(f"{b.url}/api/games/{gid}").json()["moves"]] == ["e4", "e5"]
    move(a.url, "white", "Nf3")  # B holds it now: B hears of it, and shows it
    notes = [n for n in seen.about(gid) if n.split(" ")[1].isdigit()]  # (not B's question for an arbiter)
    assert len(notes) == 1 and notes[0].startswith(f"{gid} 3 "), notes
    deadline = time.monotonic() + 5
    while [m["san"] for m in httpx.get(f"{b.url}/api/games/{gid}").json()["moves"]] != ["e4", "e5", "Nf3"]:
        assert time.monotonic() < deadline, "B did not follow A's move"
        time.sleep(0.05)
    log = httpx.get(f"{a.url}/api/games/{gid}/log").text.splitlines()
    assert [json.loads(x).get("move") for x in log[1:]] == ["e4", "e5", "Nf3"]


def test_the_lobby_lists_a_game_another_process_holds_without_taking_it(
        pg_url: str, server_factory: Callable[..., Any], heard: Callable[[], Heard]) -> None:
    a, b, gid, tok = two_processes_and_a_game(pg_url, server_factory)
    seen = heard()
    for seat, san in (("white", "e4"), ("black", "e5"), ("white", "Nf3")):
        move_on(a.url, gid, tok[seat], san)
        listed = {x["id"]: x for x in httpx.get(f"{b.url}/api/games").json()}
        assert listed[gid]["ply"] == ("e4", "e5", "Nf3").index(san) + 1
        assert listed[gid]["status"] == "ongoing" and listed[gid]["white"] == "W"
    assert [n for n in seen.about(gid) if n.split(" ")[1].isdigit()] == [], \
        "B's lobby took the game into memory (A's moves were announced to it)"

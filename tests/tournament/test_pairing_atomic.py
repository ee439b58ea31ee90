"""A round is paired in one transaction: the round, its games, their seats' tokens and the players'
keys are committed together, or nothing is. Two processes pairing the same round at the same instant: one
wins (201, every link it hands out works), the other is refused cleanly (409, nothing written, no player's
token replaced). A server killed while it writes a large round, or a database stopped then, leaves no game
without its round; games that an older server left so are annulled when the server starts."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlparse

import httpx
import pytest

from conftest import free_port, wait_port
from test_live_api import bearer, token_of, until

PAUSE_ENV = "CHESSLAWS_TEST_PAIRING_PAUSE"  # chesslaws.store.tournaments.PAUSE_ENV (the fixed code's test hook)


def create(c: httpx.Client, n: int, name: str = "Open") -> tuple[str, str]:
    body = {"name": name, "system": "swiss", "rounds": 3, "time_control": "300+0",
            "players": [{"name": f"P{i:04}", "rating": 2400 - i} for i in range(1, n + 1)]}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["arbiter_token"]


def links_work(c: httpx.Client, answer: dict[str, Any], tid: str) -> list[str]:
    """What in a pairing's answer does not open what it says: each seat's link must open its seat, each
    player's page must answer (200) with the player's own token and show the same game link."""
    wrong: list[str] = []
    for b in answer["boards"]:
        for seat in ("white", "black"):
            r = c.get(f"/api/games/{b['game_id']}/seat", headers=bearer(token_of(b[seat]["link"])))
            if r.status_code != 200 or r.json()["seat"] != seat:
                wrong.append(f"table {b['table']} {seat}: {r.status_code} {r.text[:80]}")
    links = {b[s]["start_number"]: b[s]["link"] for b in answer["boards"] for s in ("white", "black")}
    for p in answer["players"]:
        r = c.get(f"/api/tournaments/{tid}/players/{p['start_number']}", headers=bearer(token_of(p["page"])))
        if r.status_code != 200:
            wrong.append(f"player {p['start_number']}'s page: {r.status_code}")
        elif p["start_number"] in links and \
                urlparse((r.json()["current"] or {}).get("link") or "")[2:] != urlparse(links[p["start_number"]])[2:]:
            wrong.append(f"player {p['start_number']}'s page shows another link")  # (its process's own address)
    return wrong


class Serve:
    """``chesslaws serve`` in a subprocess with the pairing's test hook set; its standard error in a file."""

    def __init__(self, db: str, tmp: Path, pause: float | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.err = tmp / f"serve-{self.port}.err"
        env = dict(os.environ)
        env.pop(PAUSE_ENV, None)
        if pause is not None:
            env[PAUSE_ENV] = str(pause)
        with open(self.err, "wb") as err:
            self.proc = subprocess.Popen([sys.executable, "-m", "chesslaws.cli", "serve", "--port", str(self.port),
                                          "--db", db, "--no-rate-limits"], stdout=subprocess.DEVNULL, stderr=err,
                                         env=env)
        wait_port(self.port, proc=self.proc)

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def game_rows(db: str) -> int:
    """The games stored (committed) in the database, read as another process would."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as conn:
            exists = conn.execute("SELECT to_regclass('games')").fetchone()
            if exists is None or exists[0] is None:
                return 0
            row = conn.execute("SELECT count(*) FROM games").fetchone()
            return int(row[0]) if row else 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        try:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # not made yet
            return 0


@pytest.fixture
def servers(tmp_path: Path) -> Any:
    started: list[Serve] = []

    def make(db: str, pause: float | None = None) -> Serve:
        s = Serve(db, tmp_path, pause)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


def pair_at_once(clients: list[httpx.Client], tid: str, tok: str) -> list[httpx.Response]:
    """The same round's pairing asked of each client at the same instant."""
    barrier = threading.Barrier(len(clients))
    out: list[Any] = [None] * len(clients)

    def ask(i: int) -> None:
        barrier.wait()
        out[i] = clients[i].post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(clients))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return out


def test_two_processes_pairing_one_round_at_once_one_wins_and_the_other_writes_nothing(
        pg_url: str, servers: Callable[..., Serve]) -> None:
    """A race of two real processes of one PostgreSQL database (three trials, 8 players each) pairing one
    round: the loser must neither answer 500 (UniqueViolation on tournament_player_keys) nor overwrite the
    players' tokens, which would refuse the winner's links. Exactly one 201 and one 409 ("paired
    meanwhile", or "not finished" when the loser read the event after the winner's commit), every link of the
    201 opens its seat and every player's page, and the event has one round whose games are the 201's."""
    # The hook holds each pairing's transaction open a moment halfway through its games: the two overlap.
    a, b = servers(pg_url, pause=0.3), servers(pg_url, pause=0.3)
    with httpx.Client(base_url=a.url, timeout=30) as ca, httpx.Client(base_url=b.url, timeout=30) as cb:
        for trial in range(3):
            tid, tok = create(ca, 8, f"Race {trial}")
            answers = pair_at_once([ca, cb], tid, tok)
            codes = sorted(r.status_code for r in answers)
            assert codes == [201, 409], [(r.status_code, r.text[:200]) for r in answers]
            won = next(r for r in answers if r.status_code == 201).json()
            lost = next(r for r in answers if r.status_code == 409).json()
            for c in (ca, cb):
                assert links_work(c, won, tid) == []
                t = c.get(f"/api/tournaments/{tid}").json()
                assert len(t["rounds"]) == 1
                assert [x["game_id"] for x in t["rounds"][0]["boards"]] == [x["game_id"] for x in won["boards"]]
            assert game_rows(pg_url) == 4 * (trial + 1)  # the winners' games alone: the loser wrote none
            assert "paired meanwhile" in lost["error"] or "not finished" in lost["error"], lost


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_requests_pairing_one_round_at_once_on_one_process_one_wins(
        backend: str, tmp_path: Path, request: Any, servers: Callable[..., Serve]) -> None:
    """Within one process (the only way on SQLite: one file serves one process), two requests pairing the same
    round at once are serialized: one 201 whose links all work, one 409, one round, no other game."""
    db = str(tmp_path / "g.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    s = servers(db, pause=0.2)
    with httpx.Client(base_url=s.url, timeout=30) as c1, httpx.Client(base_url=s.url, timeout=30) as c2:
        tid, tok = create(c1, 8)
        answers = pair_at_once([c1, c2], tid, tok)
        assert sorted(r.status_code for r in answers) == [201, 409], [r.text[:200] for r in answers]
        won = next(r for r in answers if r.status_code == 201).json()
        assert links_work(c1, won, tid) == []
        assert len(c1.get(f"/api/tournaments/{tid}").json()["rounds"]) == 1
    assert game_rows(db) == 4


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_server_killed_while_it_writes_a_round_leaves_no_game_without_its_round(
        backend: str, tmp_path: Path, request: Any, servers: Callable[..., Serve]) -> None:
    """SIGKILL while a 60-board round is being written (the test hook holds the transaction open halfway
    through its games: it is killed once the first is there; games committed one at a time would be left
    behind, 'ongoing', without their round). After a restart: no game at all, no round; pairing again
    makes the whole round, every link working."""
    db = str(tmp_path / "g.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    s = servers(db, pause=60)
    c = httpx.Client(base_url=s.url, timeout=120)
    tid, tok = create(c, 120)
    assert game_rows(db) == 0

    def pair() -> None:
        try:
            c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))
        except httpx.HTTPError:
            pass  # killed: no answer

    th = threading.Thread(target=pair, daemon=True)
    th.start()
    until(lambda: "paused mid-transaction" in s.stderr() or game_rows(db) > 0, "the round being written", 30.0)
    s.kill()
    th.join(10)
    assert game_rows(db) == 0
    s2 = servers(db)
    with httpx.Client(base_url=s2.url, timeout=60) as c2:
        assert c2.get(f"/api/tournaments/{tid}").json()["rounds"] == []
        assert [g for g in c2.get("/api/games").json() if g["status"] == "ongoing"] == []
        r = c2.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))
        assert r.status_code == 201, r.text
        assert len(r.json()["boards"]) == 60 and links_work(c2, r.json(), tid) == []
    assert game_rows(db) == 60


def test_games_an_older_pairing_left_without_their_round_are_annulled_at_start(
        db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A database an older server wrote (one game committed at a time) may hold games of a round that was
    never stored: rows written here as it left them, one with its arbiter's key stored, one without (killed
    before), both held. The server annuls both when it starts, with a line in its log; a game of nobody's
    round (no tags), and one whose tags name another event, are left alone."""
    import logging

    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED
    from chesslaws.store.games import GameRecord, hash_token, open_store
    from chesslaws.tournament.model import Regulations, Tournament
    from chesslaws.store.tournaments import TournamentStore

    games = open_store(db_url)
    ts = TournamentStore(db_url, games)
    t = Tournament("Old Open", Regulations(rounds=3, time_control="300+0"))
    for i in range(1, 5):
        t = t.add_player(f"P{i}", 2000 - i)
    t = ts.save(t)
    now = time.time()
    held = {"waiting": True, "abort_after": None, "scheduled": True, "held": True}

    def write(gid: str, start: dict[str, Any], rule: dict[str, Any] | None) -> None:
        hashes: dict[str, str | None] = {s: hash_token(gid + s) for s in ("white", "black", "arbiter")}
        games.create_game(GameRecord(gid, now, "online", {"white": start.get("white"), "black": start.get("black")},
                                     hashes, [start]))
        if rule is not None:
            games.set_start(gid, now, rule)

    def round_start(white: str, black: str, event: str = "Old Open") -> dict[str, Any]:
        return {**t.regulations.start_event(white=white, black=black, round_number=1, event=event),
                "absent": ["white", "black"]}

    write("orphanKeyed", round_start("P1", "P4"), held)
    ts.database.session().run(lambda tx: tx.execute("INSERT INTO tournament_game_keys (game_id, tournament_id, "
                                                    "sealed) VALUES (?, ?, ?)", ("orphanKeyed", t.id, "00")))
    write("orphanBare", round_start("P2", "P3"), held)
    write("casualGame", {"type": "start", "t": 0, "time_control": "300+0", "white": "P1", "black": "P2"}, None)
    write("otherEvent", round_start("P1", "P2", event="Another Open"), held)
    ts.close()
    games.close()
    caplog.set_level(logging.WARNING, logger="chesslaws.server")
    with TestClient(create_app(db_url, limits=UNLIMITED)) as c:
        status = {gid: c.get(f"/api/games/{gid}").json()["status"]
                  for gid in ("orphanKeyed", "orphanBare", "casualGame", "otherEvent")}
        assert c.get(f"/api/tournaments/{t.id}").json()["rounds"] == []
    assert status == {"orphanKeyed": "annulled", "orphanBare": "annulled", "casualGame": "ongoing",
                      "otherEvent": "ongoing"}
    lines = [r.getMessage() for r in caplog.records if "belongs to no round" in r.getMessage()]
    assert len(lines) == 2 and all(t.id in line for line in lines), lines
    with TestClient(create_app(db_url, limits=UNLIMITED)):  # a second start finds nothing more to annul
        pass
    assert len([r for r in caplog.records if "belongs to no round" in r.getMessage()]) == 2


def test_a_postgresql_outage_while_a_round_is_written_leaves_no_game_without_its_round(
        pg_cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database stops halfway through a 20-board round's games (games committed one at a time would be
    left orphans): the pairing answers 503 and nothing of the round is stored; once the database is back the
    round pairs whole."""
    from fastapi.testclient import TestClient

    import chesslaws.store.tournaments as store_module
    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED

    stopped: list[str] = []

    def outage(tid: str, number: int) -> None:
        stopped.append(tid)
        pg_cluster.stop()

    with TestClient(create_app(pg_cluster.url, limits=UNLIMITED)) as c:
        tid, tok = create(c, 40)
        monkeypatch.setattr(store_module, "pause_mid_round", outage, raising=False)
        r = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))
        assert stopped == [tid] and r.status_code == 503, r.text[:300]
        monkeypatch.undo()
        pg_cluster.start()
        until(lambda: c.get(f"/api/tournaments/{tid}").status_code == 200, "the database back", 30.0)
        assert game_rows(pg_cluster.url) == 0
        assert c.get(f"/api/tournaments/{tid}").json()["rounds"] == []
        r = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))
        assert r.status_code == 201, r.text
        assert len(r.json()["boards"]) == 20 and links_work(c, r.json(), tid) == []
    assert game_rows(pg_cluster.url) == 20


def test_a_players_token_given_meanwhile_by_another_process_is_never_replaced(
        make_client: Callable[[], Any], db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The players' own tokens are made by the first request that needs them (a pairing, the console). A
    pairing that read the keys before another process stored them (here: the other's rows are written with a
    store of its own, and this pairing's read answers none) must not make new ones and write them over
    (DELETE then INSERT), which would refuse the pages the other handed out (403), nor fail on the key
    (UniqueViolation, 500): the other's tokens stay, and the pairing hands out those very ones."""
    import secrets

    from chesslaws.store.games import hash_token
    from chesslaws.tournament.boards import seal
    from chesslaws.store.tournaments import TournamentStore

    c = make_client()
    tid, tok = create(c, 4)
    theirs = {n: secrets.token_urlsafe(18) for n in range(1, 5)}
    with TournamentStore(db_url) as other:  # another process gives the players their tokens
        rows = [(tid, n, hash_token(x), seal(x, tok, f"{tid}:player:{n}")) for n, x in theirs.items()]
        other.database.session().run(lambda tx: tx.executemany(
            "INSERT INTO tournament_player_keys (tournament_id, start_number, token_hash, sealed) "
            "VALUES (?, ?, ?, ?)", rows))
    real = TournamentStore.player_keys
    stale = [True]

    def read_before_the_other_wrote(self: TournamentStore, tournament_id: str) -> dict[int, tuple[str, str]]:
        if stale and stale.pop():
            return {}
        return real(self, tournament_id)

    monkeypatch.setattr(TournamentStore, "player_keys", read_before_the_other_wrote)
    r = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))
    assert not stale and r.status_code == 201, r.text[:300]
    for n, x in theirs.items():
        assert c.get(f"/api/tournaments/{tid}/players/{n}", headers=bearer(x)).status_code == 200
    assert {p["start_number"]: token_of(p["page"]) for p in r.json()["players"]} == theirs
    assert links_work(c, r.json(), tid) == []

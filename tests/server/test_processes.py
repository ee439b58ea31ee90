"""Several ``chesslaws serve`` processes on one PostgreSQL database.

Any process serves any game: each catches up with the log before it writes, writes are fenced by the
event's number (the log's primary key), and every change is announced with LISTEN/NOTIFY so that each
process's WebSockets see the moves made through the others. A process that dies takes nothing with
it; a paused one judges nothing on an old copy when it wakes up."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from typing import Any, Callable

import httpx
import pytest
import websockets.sync.client as wsc

from test_api import auth


def _post(base: str, gid: str, token: str, event: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/api/games/{gid}/events", json=event, headers=auth(token), timeout=10)


@pytest.fixture
def three(pg_url: str, server_factory: Callable[..., Any]) -> list[Any]:
    return [server_factory(pg_url, extra=("--no-rate-limits",)) for _ in range(3)]


def test_any_process_serves_any_game_and_every_socket_sees_every_move(three: list[Any]) -> None:
    a, b, c = three
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600+5",
                                                  "when_ready": False}).json()
    gid, tok = g["id"], g["tokens"]
    ws_url = a.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={tok['white']}"
    with wsc.connect(ws_url) as ws:
        assert json.loads(ws.recv(5))["kind"] == "hello"
        assert _post(b.url, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
        assert _post(c.url, gid, tok["black"], {"type": "move", "move": "c5"}).status_code == 200
        seen: list[str] = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and seen != ["e4", "c5"]:
            msg = json.loads(ws.recv(10))
            if msg["kind"] == "state":
                seen = [m["san"] for m in msg["state"]["moves"]]
        assert seen == ["e4", "c5"], "process A's socket did not see the moves made through B and C"
    for server in three:
        st = httpx.get(f"{server.url}/api/games/{gid}").json()
        assert [m["san"] for m in st["moves"]] == ["e4", "c5"]
    # A game created through C is in A's lobby.
    g2 = httpx.post(f"{c.url}/api/games", json={"white": "X", "black": "Y"}).json()
    assert g2["id"] in [x["id"] for x in httpx.get(f"{a.url}/api/games").json()]
    # A seat taken through B opens the game through A at once.
    g3 = httpx.post(f"{a.url}/api/games", json={"white": "X", "when_ready": False}).json()
    joined = httpx.post(f"{b.url}/api/games/{g3['id']}/join", json={"seat": "black", "name": "Z"}).json()
    r = httpx.get(f"{a.url}/api/games/{g3['id']}/seat", headers=auth(joined["token"]))
    assert _post(a.url, g3["id"], g3["tokens"]["white"], {"type": "move", "move": "d4"}).status_code == 200
    assert _post(a.url, g3["id"], joined["token"], {"type": "move", "move": "d5"}).status_code == 200, r.text


def test_two_processes_never_both_accept_the_same_turn(three: list[Any]) -> None:
    a, b, _ = three
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600",
                                                 "when_ready": False}).json()
    gid, tok = g["id"], g["tokens"]
    httpx.get(f"{b.url}/api/games/{gid}")  # both have it in memory
    for white, black in (("e4", "e5"), ("Nf3", "Nc6"), ("Bb5", "a6"), ("Ba4", "Nf6")):
        results: list[int] = []
        threads = [threading.Thread(target=lambda base=base, move=move: results.append(
            _post(base, gid, tok["white"], {"type": "move", "move": move}).status_code))
            for base, move in ((a.url, white), (b.url, white))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results)[0] == 200 and sorted(results)[1] in (409, 422), results
        assert _post(b.url, gid, tok["black"], {"type": "move", "move": black}).status_code == 200
    played = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]

    def moves(base: str) -> list[Any]:
        return [json.loads(x).get("move") for x in httpx.get(f"{base}/api/games/{gid}/log").text.splitlines()[1:]]

    assert moves(b.url) == played  # the process that wrote the last move has every move, once
    # The other hears of it by PostgreSQL's notification, a moment later: the same log, never another.
    end = time.monotonic() + 10
    while (seen := moves(a.url)) != played:
        assert seen == played[: len(seen)] and time.monotonic() < end, seen
        time.sleep(0.05)


def test_a_killed_process_takes_nothing_with_it_and_a_paused_one_catches_up(three: list[Any]) -> None:
    a, b, c = three
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600",
                                                 "when_ready": False}).json()
    gid, tok = g["id"], g["tokens"]
    assert _post(a.url, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    assert httpx.get(f"{b.url}/api/games/{gid}").json()["ply"] == 1
    a.kill()
    assert _post(b.url, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200
    # C is paused while B takes two moves, then woken: it judges the next move on the whole log.
    assert c.proc is not None
    httpx.get(f"{c.url}/api/games/{gid}")
    os.kill(c.proc.pid, signal.SIGSTOP)
    try:
        assert _post(b.url, gid, tok["white"], {"type": "move", "move": "Nf3"}).status_code == 200
        assert _post(b.url, gid, tok["black"], {"type": "move", "move": "Nc6"}).status_code == 200
    finally:
        os.kill(c.proc.pid, signal.SIGCONT)
    r = _post(c.url, gid, tok["black"], {"type": "move", "move": "Nf6"})  # not Black's turn on the whole log
    assert r.status_code in (409, 422)
    r = _post(c.url, gid, tok["white"], {"type": "move", "move": "Bb5"})
    assert r.status_code == 200 and r.json()["seq"] == 5
    assert [m["san"] for m in r.json()["state"]["moves"]] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


def test_a_flag_falls_for_every_process_and_is_written_once(three: list[Any]) -> None:
    """Every process that has the game sees the flag fall; its ending is written into the log (the arbiter's
    `observe`) once, whichever process wrote it first."""
    a, b, _ = three
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "2",
                                                 "when_ready": False}).json()
    gid = g["id"]
    httpx.get(f"{b.url}/api/games/{gid}")
    time.sleep(2.5)
    for server in (a, b):
        st = httpx.get(f"{server.url}/api/games/{gid}").json()
        assert st["termination"] == "time_forfeit" and st["result"] == "0-1"
    for server in (a, b):
        deadline = time.monotonic() + 10  # the ending is written just after the flag falls: wait for it
        while True:
            lines = [json.loads(x) for x in httpx.get(f"{server.url}/api/games/{gid}/log").text.splitlines()]
            if len(lines) > 1 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert [(x["type"], x.get("what")) for x in lines] == [("start", None), ("observe", "flag")]


def _held_round(base: str, default_time: float) -> tuple[str, str, dict[str, Any]]:
    """A tournament of two with its round paired held (its players absent until they open their game)."""
    t = httpx.post(f"{base}/api/tournaments", json={"name": "Two Rooms", "rounds": 1, "time_control": "600+0",
                                                     "default_time": default_time,
                                                     "players": [{"name": "Anna"}, {"name": "Boris"}]}).json()
    tid, tok = t["id"], t["arbiter_token"]
    r = httpx.post(f"{base}/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=auth(tok))
    assert r.status_code == 201, r.text
    return tid, tok, r.json()["boards"][0]


def _console_game(base: str, tid: str, tok: str) -> dict[str, Any]:
    got: dict[str, Any] = httpx.get(f"{base}/api/tournaments/{tid}/console", headers=auth(tok)).json()
    return dict(got["boards"][0]["game"])


def _wait_console(base: str, tid: str, tok: str, want: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    g = _console_game(base, tid, tok)
    while not want(g) and time.monotonic() < deadline:  # waits for the state (the console's next read)
        time.sleep(0.05)
        g = _console_game(base, tid, tok)
    return g


def test_a_player_who_opens_his_game_on_one_process_is_here_for_the_console_of_another(
        pg_url: str, server_factory: Callable[..., Any]) -> None:
    """Who opened a held game before the round's start is known to every process (the store keeps it, NOTIFY
    tells it), never written into the game's log before t=0: the console on A shows White, whose socket is on
    B, at the board; the round started on A, he is at the board from t=0 and only Black loses by default."""
    a = server_factory(pg_url, extra=("--no-rate-limits",))
    b = server_factory(pg_url, extra=("--no-rate-limits",))
    tid, tok, board = _held_round(a.url, 0)
    gid, white = board["game_id"], board["white"]["link"].split("#token=")[1]
    with wsc.connect(b.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={white}") as ws:
        assert json.loads(ws.recv(5))["kind"] == "hello"
        g = _wait_console(a.url, tid, tok, lambda g: g["present_early"] == ["white"])
        assert (g["present_early"], g["absent"]) == (["white"], ["black"]), g
        log = [json.loads(x) for x in httpx.get(f"{a.url}/api/games/{gid}/log").text.splitlines()]
        assert [x["type"] for x in log] == ["start"]  # nothing in the log before t=0
        r = httpx.post(f"{a.url}/api/tournaments/{tid}/rounds/1/start", json={}, headers=auth(tok))
        assert r.status_code == 200 and r.json()["started"] == 1, r.text
        t = httpx.get(f"{a.url}/api/tournaments/{tid}").json()
    assert (t["rounds"][0]["boards"][0]["result"], t["rounds"][0]["boards"][0]["termination"]) == ("+-", "late_arrival")
    log = [json.loads(x) for x in httpx.get(f"{b.url}/api/games/{gid}/log").text.splitlines()]
    assert [(x["type"], x.get("by"), x["t"]) for x in log[:3]] == [("start", None, 0), ("begin", "arbiter", 0),
                                                                   ("arrive", "white", 0)], log


def test_a_fair_start_comes_when_both_players_are_there_whichever_process_each_reached(
        pg_url: str, server_factory: Callable[..., Any]) -> None:
    """The default online start (t=0 when both players have opened the game): White's socket on A, Black's on
    B. Each process knows the other's player is there (the store keeps who opened the game), the game starts
    once, at one t=0 for both, and a move is taken through either."""
    a = server_factory(pg_url, extra=("--no-rate-limits",))
    b = server_factory(pg_url, extra=("--no-rate-limits",))
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600+0"}).json()
    gid, tok = g["id"], g["tokens"]

    def ws(base: str, seat: str) -> Any:
        return wsc.connect(base.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={tok[seat]}")

    with ws(a.url, "white") as wa, ws(b.url, "black") as wb:
        for sock in (wa, wb):
            assert json.loads(sock.recv(5))["kind"] == "hello"
        started = {}
        for name, sock in (("A", wa), ("B", wb)):
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:  # the states the socket is sent, until the game has started
                msg = json.loads(sock.recv(10))
                if msg["kind"] == "state" and not msg["state"]["waiting_for"]:
                    started[name] = msg["state"]
                    break
        assert set(started) == {"A", "B"}, "the game never started for a process"
    rows = [httpx.get(f"{s.url}/api/games/{gid}").json() for s in (a, b)]
    assert rows[0]["waiting_for"] == rows[1]["waiting_for"] == []
    assert _post(b.url, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    assert _post(a.url, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200
    spans = []  # when each process says t=0 was: between (before - its t) and (after - its t)
    for s in (a, b):
        before = time.time()
        t = httpx.get(f"{s.url}/api/games/{gid}").json()["server_t"]
        spans.append((before - t, time.time() - t))
    assert max(lo for lo, _ in spans) <= min(hi for _, hi in spans) + 0.002, spans  # one t=0 for both


def _state_where(sock: Any, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The first state the socket is sent for which ``ok`` holds (10 s at most)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        msg = json.loads(sock.recv(10))
        if msg["kind"] == "state" and ok(msg["state"]):
            return dict(msg["state"])
    raise AssertionError(f"no state with {what}")


def test_an_arbiter_watching_on_one_process_is_there_for_the_players_of_another(
        pg_url: str, server_factory: Callable[..., Any]) -> None:
    """The arbiter's console of a game open on A: White's page on B offers to call him, White's summons
    through B is accepted and reaches the console on A at once; when the console closes, B knows."""
    a = server_factory(pg_url, extra=("--no-rate-limits",))
    b = server_factory(pg_url, extra=("--no-rate-limits",))
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600+0",
                                                 "when_ready": False}).json()
    gid, tok = g["id"], g["tokens"]

    def ws(base: str, seat: str) -> Any:
        return wsc.connect(base.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={tok[seat]}")

    with ws(b.url, "white") as white:
        assert json.loads(white.recv(5))["kind"] == "hello"
        assert not _state_where(white, lambda s: True, "a state")["arbiter_watching"]
        with ws(a.url, "arbiter") as arbiter:
            assert json.loads(arbiter.recv(5))["kind"] == "hello"
            _state_where(white, lambda s: s["arbiter_watching"], "the arbiter watching")
            assert _post(b.url, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
            r = _post(b.url, gid, tok["white"], {"type": "stop_clocks"})  # White summons the arbiter
            assert r.status_code == 200, r.text
            deadline = time.monotonic() + 10
            alert = None
            while alert is None and time.monotonic() < deadline:
                msg = json.loads(arbiter.recv(10))
                if msg["kind"] == "alert":
                    alert = msg
            assert alert is not None and alert["what"] == "summons" and alert["by"] == "white", alert
        _state_where(white, lambda s: not s["arbiter_watching"], "the arbiter gone")
    # A process that loads the game later asks whether its arbiter watches somewhere.
    with ws(a.url, "arbiter") as arbiter:
        assert json.loads(arbiter.recv(5))["kind"] == "hello"
        c = server_factory(pg_url, extra=("--no-rate-limits",))
        with ws(c.url, "black") as black:
            assert json.loads(black.recv(5))["kind"] == "hello"
            _state_where(black, lambda s: s["arbiter_watching"], "the arbiter watching (asked on loading)")


def test_incorrect_claims_made_through_two_processes_are_counted_together(
        pg_url: str, server_factory: Callable[..., Any]) -> None:
    """Three incorrect claims by White (2023 11.5), through A, B and A: the arbiter (his console on A) is
    told at the third, as when they all go through one process."""
    a = server_factory(pg_url, extra=("--no-rate-limits",))
    b = server_factory(pg_url, extra=("--no-rate-limits",))
    g = httpx.post(f"{a.url}/api/games", json={"white": "W", "black": "B", "time_control": "600",
                                                 "edition": "2023", "when_ready": False}).json()
    gid, tok = g["id"], g["tokens"]
    with wsc.connect(a.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={tok['arbiter']}") as ws:
        assert json.loads(ws.recv(5))["kind"] == "hello"
        for base in (a.url, b.url, a.url):
            r = _post(base, gid, tok["white"], {"type": "claim_flag"})
            assert r.status_code == 200 and r.json()["state"]["status"] == "ongoing", r.text
        alert = None
        deadline = time.monotonic() + 10
        while alert is None and time.monotonic() < deadline:
            msg = json.loads(ws.recv(10))
            if msg["kind"] == "alert":
                alert = msg
        assert alert is not None and alert["what"] == "annoyance" and alert["count"] == 3, alert

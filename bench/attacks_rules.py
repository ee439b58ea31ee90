"""Attacks on the game's rules (numbers 20-24), run by ``bench_attack.py`` against a real
``chesslaws serve`` (default limits, loopback, a fresh SQLite file), each on a freshly started server:

20. log flood: Black, not on move, sends each of ``request_explanation``, ``request_scoresheet``,
    ``displace``, ``scoresheet`` ``--rules-burst`` times in one position (events accepted of N sent), then
    the minutes the 3,000-event log takes to fill at the token's default rate (300 a minute) if nothing
    bounds them in the game;
21. after the end: White resigns, then both players send ``request_explanation`` (a ~15 KiB text) and
    ``sign`` for ``--rules-seconds`` (every other request a short text): requests and signatures accepted,
    log rows, database and RSS growth;
22. signatures after a resignation in a tournament game: both sign the opposite result; the game's result
    against the board's result in the event's standings;
23. the lobby's open-seat game: created as the lobby does (White named, Black open); a stranger joins as
    Black; can the creator set the stranger's clock to 1 ms (does he hold an arbiter's token at all)?
24. a quickplay claim (1997 rapid, arbiter present) made while the arbiter's console is open, then the
    console closes: are the clocks still stopped ``--rules-wait`` seconds later?

Usage: python bench/bench_attack.py --only 20,21,22,23,24 [--rules-burst 40] [--rules-seconds 20]
[--rules-wait 15]; with PYTHONPATH=python the worktree's code, without it the installed package.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Callable

import httpx
import websockets.sync.client as wsc

from bench_attack import HOST, Row, Server, run_attack

FOUR = [("request_explanation", {"about": "touch-move"}), ("request_scoresheet", {}),
        ("displace", {"squares": ["e7"]}), ("scoresheet", {"plies": 0})]
LOG_MAX = 3000
TOKEN_PER_MINUTE = 300


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--rules-burst", type=int, default=40, help="events of each kind sent in one position (20)")
    ap.add_argument("--rules-seconds", type=float, default=20, help="length of the after-the-end flood (21)")
    ap.add_argument("--rules-wait", type=float, default=15, help="seconds after the console closed (24)")


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _game(srv: Server, **body: Any) -> dict[str, Any]:
    payload = {"white": "W", "black": "B", "time_control": "600", "edition": "2023", "when_ready": False, **body}
    r = httpx.post(srv.base + "/api/games", json=payload, timeout=10)
    r.raise_for_status()
    return dict(r.json())


def _db_bytes(db: str) -> int:
    return sum(os.path.getsize(db + tail) for tail in ("", "-wal", "-shm") if os.path.exists(db + tail))


def attack_log_flood(burst: int) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        worst = 0
        with httpx.Client(timeout=10) as c:
            for kind, fields in FOUR:
                g = _game(srv)
                ok = 0
                for _ in range(burst):
                    r = c.post(f"{srv.base}/api/games/{g['id']}/events", json={"type": kind, **fields},
                               headers=_auth(g["tokens"]["black"]))
                    row.requests += 1
                    ok += r.status_code == 200
                    time.sleep(0.11)  # within the token's 10 a second
                worst = max(worst, ok)
                row.notes.append(f"{kind}: {ok} of {burst} accepted in one position")
        if worst >= burst:
            row.achieved = (f"{worst} of {burst} accepted in one position: the {LOG_MAX}-event log full in about "
                            f"{LOG_MAX / TOKEN_PER_MINUTE:.0f} min by one player")
        else:
            row.notes.append(f"at most {worst} a position; a side's events aside are bounded in the game too")
    return body


def attack_after_end(seconds: float, db: str) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        g = _game(srv)
        gid, tok = g["id"], g["tokens"]
        httpx.post(f"{srv.base}/api/games/{gid}/events", json={"type": "resign"}, headers=_auth(tok["white"]),
                   timeout=10).raise_for_status()
        db0, rss0 = _db_bytes(db), srv.rss()
        text = "x" * 15000
        asks = signs = longs = 0
        end = time.monotonic() + seconds
        with httpx.Client(timeout=10) as c:
            i = 0
            while time.monotonic() < end:
                for side in ("white", "black"):
                    about = text if i % 4 == 0 else "why?"  # a long text, then a short one
                    ev: dict[str, Any] = ({"type": "request_explanation", "about": about} if i % 2 == 0
                                          else {"type": "sign", "result": "1-0" if i % 4 == 1 else "0-1"})
                    r = c.post(f"{srv.base}/api/games/{gid}/events", json=ev, headers=_auth(tok[side]))
                    row.requests += 1
                    if r.status_code == 200:
                        longs += ev.get("about") is text
                        asks += ev["type"] == "request_explanation"
                        signs += ev["type"] == "sign"
                i += 1
                time.sleep(0.1)
        seq = httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()["seq"]
        grew_db = (_db_bytes(db) - db0) / 2**20
        grew_rss = srv.rss() - rss0
        row.notes.append(f"after the resignation in {seconds:.0f} s: {asks} requests ({longs} of 15 KiB) and {signs} signatures accepted "
                         f"of {row.requests}; log rows {seq}; database {grew_db:+.1f} MB; RSS {grew_rss:+.1f} MB")
        if asks + signs > 30:
            row.achieved = (f"{asks + signs} events logged after the end ({grew_db * 60 / seconds:.1f} MB a minute "
                            "into the database)")
    return body


def attack_signed_standings(srv: Server, row: Row) -> None:
    t = httpx.post(srv.base + "/api/tournaments", json={
        "name": "signed", "system": "swiss", "rounds": 1, "time_control": "600", "edition": "2023",
        "players": [{"name": "P1", "rating": 2000}, {"name": "P2", "rating": 1990}]}, timeout=10).json()
    tid, atok = t["id"], t["arbiter_token"]
    r = httpx.post(f"{srv.base}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=_auth(atok), timeout=10)
    board = r.json()["boards"][0]
    gid = board["game_id"]

    def tok(side: str) -> str:
        return str(board[side]["link"].split("token=", 1)[1])

    def ev(side: str, event: dict[str, Any]) -> int:
        row.requests += 1
        return httpx.post(f"{srv.base}/api/games/{gid}/events", json=event, headers=_auth(tok(side)),
                          timeout=10).status_code

    ev("white", {"type": "resign"})
    codes = [ev(side, {"type": "sign", "result": "1-0"}) for side in ("white", "black")]
    game = None
    standing = None
    for _ in range(40):  # the event reads its games on every read: a few reads at most
        game = httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()["result"]
        ev_ = httpx.get(f"{srv.base}/api/tournaments/{tid}", timeout=10).json()
        standing = ev_["rounds"][0]["boards"][0]["result"]
        if standing == game:
            break
        time.sleep(0.25)
    row.notes.append(f"signatures {codes}; the game's result {game}, the board's in the standings {standing}")
    if game != standing:
        row.achieved = f"game {game} but standings {standing}"


def attack_lobby_arbiter(srv: Server, row: Row) -> None:
    r = httpx.post(srv.base + "/api/games", json={"edition": "2023", "time_control": "300+2", "arbiter": "present",
                                                  "interface": "online", "white": "Creator", "when_ready": True},
                   timeout=10)
    g = r.json()
    joined = httpx.post(f"{srv.base}/api/games/{g['id']}/join", json={"seat": "black", "name": "Stranger"},
                        timeout=10)
    row.requests += 2
    arb = g["tokens"].get("arbiter")
    row.notes.append(f"the creator's tokens: {sorted(g['tokens'])}; the join: {joined.status_code}")
    if arb is None:
        row.notes.append("no arbiter's token: nobody can set the stranger's clock")
        return
    gid = g["id"]
    url = f"ws://{HOST}:{srv.port}/api/games/{gid}/ws?token="
    # Both players open the game (the lobby's fair start): the clocks start.
    with wsc.connect(url + g["tokens"]["white"]) as w, wsc.connect(url + joined.json()["token"]) as b:
        json.loads(w.recv(5))
        json.loads(b.recv(5))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()["waiting_for"]:
            time.sleep(0.05)
        httpx.post(f"{srv.base}/api/games/{gid}/events", json={"type": "move", "move": "e4"},
                   headers=_auth(g["tokens"]["white"]), timeout=10)
        r = httpx.post(f"{srv.base}/api/games/{gid}/events", json={"type": "set_clocks", "white_ms": 300000,
                                                                   "black_ms": 1}, headers=_auth(arb), timeout=10)
        row.requests += 2
        time.sleep(0.5)
        st = httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()
    row.notes.append(f"set_clocks black_ms=1 by the creator: {r.status_code}; then {st['result']} "
                     f"({st['termination']})")
    if r.status_code == 200:
        row.achieved = (f"the creator, holding the arbiter's link, set the stranger's clock to 1 ms: "
                        f"{st['result']} {st['termination']}")


def attack_quickplay_console(wait: float) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        g = _game(srv, edition="1997", time_control="60", mode="rapid", arbiter="present")
        gid, tok = g["id"], g["tokens"]

        def ev(side: str, event: dict[str, Any]) -> httpx.Response:
            row.requests += 1
            return httpx.post(f"{srv.base}/api/games/{gid}/events", json=event, headers=_auth(tok[side]), timeout=10)

        ev("white", {"type": "move", "move": "e4"})
        with wsc.connect(f"ws://{HOST}:{srv.port}/api/games/{gid}/ws?token={tok['arbiter']}") as ws:
            json.loads(ws.recv(5))
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()["arbiter_watching"]:
                    break
                time.sleep(0.05)
            r = ev("black", {"type": "claim_draw", "reason": "quickplay"})
        row.notes.append(f"quickplay claim with the console open: {r.status_code}; the console closed")
        time.sleep(wait)
        st = httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()
        row.notes.append(f"{wait:.0f} s later: status {st['status']}, clock running: {st['clocks']['running']}")
        if st["status"] == "ongoing" and st["clocks"]["running"] is None:
            row.achieved = f"game frozen: clocks stopped {wait:.0f} s after the console closed"
    return body


def _db(tmp: str, n: int) -> str:
    return os.path.join(tmp, f"rules-{n}.sqlite3")


PLAN: list[tuple[int, Callable[[argparse.Namespace, str], Row]]] = [
    (20, lambda a, tmp: run_attack("20 log flood, four kinds", _db(tmp, 20), attack_log_flood(a.rules_burst))),
    (21, lambda a, tmp: run_attack("21 after-the-end flood", _db(tmp, 21),
                                   attack_after_end(a.rules_seconds, _db(tmp, 21)))),
    (22, lambda a, tmp: run_attack("22 signatures vs standings", _db(tmp, 22), attack_signed_standings,
                                   victims=False)),
    (23, lambda a, tmp: run_attack("23 lobby creator's arbiter link", _db(tmp, 23), attack_lobby_arbiter,
                                   victims=False)),
    (24, lambda a, tmp: run_attack("24 quickplay after console", _db(tmp, 24),
                                   attack_quickplay_console(a.rules_wait), victims=False)),
]

"""Attacks on pairing (numbers 30-39), run by ``bench_attack.py`` (its PLAN), not a test.

30. two processes pairing at once: two ``chesslaws serve`` on one PostgreSQL database (a throwaway cluster),
    ``--race-trials`` events of 8 players; each event's round 1 is asked of both processes at the same instant.
    Counted: answers 201 / 409 / 500 (and other), trials with two 201s, the links of the 201 answers that are
    refused (a seat's link on ``/api/games/{id}/seat``, a player's page with the player's own token: 401/403,
    or a page showing another game), and games stored beyond the event's round (a loser's games).
31. a kill while pairing a large round: ``--kill-boards`` boards (540: 1,080 players) on PostgreSQL (and
    SQLite with ``--kill-sqlite``); the server is SIGKILLed ``--kill-after`` seconds after the round was asked
    for (the server runs with CHESSLAWS_TEST_PAIRING_PAUSE=30, which holds the transaction of a server with
    that test hook open halfway through the games; a server without it ignores it). After a restart: the round
    (none, whole, or partial), games stored, games 'ongoing' in the lobby that belong to no round (orphans).
    Then the round is paired on the restarted server and timed, while a probe asks ``/api/languages`` every 20 ms: the longest
    answer is what the pairing held the event loop for.

    python bench/bench_attack.py --only 30,31 [--race-trials 10] [--kill-boards 540] [--kill-after 3]
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import threading
import time
from typing import Any, Callable
from urllib.parse import urlparse

import httpx

from bench_attack import Row, Server, started_postgres

PAUSE_ENV = "CHESSLAWS_TEST_PAIRING_PAUSE"


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--race-trials", type=int, default=10, help="events paired by two processes at once (30)")
    ap.add_argument("--kill-boards", type=int, default=540, help="boards of the round killed while paired (31)")
    ap.add_argument("--kill-after", type=float, default=3.0, help="seconds into the pairing of the SIGKILL (31)")
    ap.add_argument("--kill-sqlite", action="store_true", help="attack 31 on SQLite too")


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _token(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def _event(c: httpx.Client, n: int, name: str) -> tuple[str, str]:
    """An event of ``n`` players: as many as a body holds (16 KiB) at its creation, the others registered."""
    first = min(n, 850)
    r = c.post("/api/tournaments", json={"name": name, "rounds": 3, "time_control": "600+5",
                                         "players": [{"name": f"P{i}"} for i in range(1, first + 1)]})
    r.raise_for_status()
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    for i in range(first + 1, n + 1):
        c.post(f"/api/tournaments/{tid}/players", json={"name": f"P{i}"}, headers=_bearer(tok)).raise_for_status()
    return tid, tok


def _refused_links(c: httpx.Client, answer: dict[str, Any], tid: str) -> int:
    bad = 0
    for b in answer["boards"]:
        for seat in ("white", "black"):
            r = c.get(f"/api/games/{b['game_id']}/seat", headers=_bearer(_token(b[seat]["link"])))
            bad += r.status_code != 200
    links = {b[s]["start_number"]: urlparse(b[s]["link"]).path + "#" + urlparse(b[s]["link"]).fragment
             for b in answer["boards"] for s in ("white", "black")}
    for p in answer["players"]:
        r = c.get(f"/api/tournaments/{tid}/players/{p['start_number']}", headers=_bearer(_token(p["page"])))
        if r.status_code != 200:
            bad += 1
            continue
        got = (r.json().get("current") or {}).get("link") or ""
        bad += urlparse(got).path + "#" + urlparse(got).fragment != links.get(p["start_number"])
    return bad


def _game_rows(db: str) -> int:
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as conn:
            row = conn.execute("SELECT count(*) FROM games").fetchone()
            return int(row[0]) if row else 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def attack_race(args: argparse.Namespace, tmp: str) -> Row:
    row = Row("30 two processes pair at once")
    pg = started_postgres(row)
    if pg is None:
        return row
    a = b = None
    try:
        a, b = Server(pg.url), Server(pg.url)
        if a.start() is None or b.start() is None:
            row.achieved = "a server did not start"
            return row
        codes: dict[int, int] = {}
        double = refused = 0
        ca, cb = httpx.Client(base_url=a.base, timeout=60), httpx.Client(base_url=b.base, timeout=60)
        for trial in range(args.race_trials):
            tid, tok = _event(ca if trial % 2 == 0 else cb, 8, f"Race {trial}")
            row.requests += 1
            barrier = threading.Barrier(2)
            out: list[Any] = [None, None]

            def ask(i: int, c: httpx.Client) -> None:
                barrier.wait()
                try:
                    out[i] = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=_bearer(tok))
                except httpx.HTTPError as err:
                    out[i] = err

            threads = [threading.Thread(target=ask, args=(i, c)) for i, c in enumerate((ca, cb))]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            row.requests += 2
            won = []
            for r in out:
                code = r.status_code if isinstance(r, httpx.Response) else 0
                codes[code] = codes.get(code, 0) + 1
                if code == 201:
                    won.append(r.json())
            double += len(won) > 1
            for w in won:
                refused += _refused_links(ca, w, tid)
                row.requests += 24
        stored = _game_rows(pg.url)
        extra = stored - 4 * args.race_trials
        row.notes.append(f"{args.race_trials} trials: answers " + ", ".join(f"{k}x{v}" for k, v in sorted(codes.items()))
                         + f"; two 201s: {double}; links refused: {refused}; games beyond the rounds: {extra}")
        hurt = []
        if codes.get(500):
            hurt.append(f"{codes[500]} answers 500")
        if double:
            hurt.append(f"{double} trials with two 201s")
        if refused:
            hurt.append(f"{refused} links refused")
        if extra:
            hurt.append(f"{extra} games beyond the rounds")
        row.achieved = "; ".join(hurt) or "held"
        ca.close()
        cb.close()
    finally:
        for s in (a, b):
            if s is not None:
                s.stop()
        pg.remove()
    return row


def _probe(base: str, stop: threading.Event, worst: list[float]) -> None:
    with httpx.Client(timeout=30) as c:
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                c.get(base + "/api/languages")
            except httpx.HTTPError:
                pass
            worst[0] = max(worst[0], time.monotonic() - t0)
            stop.wait(0.02)


def _kill(db: str, label: str, args: argparse.Namespace) -> Row:
    row = Row(f"{31 if label == 'PostgreSQL' else 32} kill while pairing ({label})")
    os.environ[PAUSE_ENV] = "30"  # a server with the hook holds its transaction open halfway (one without ignores it)
    try:
        srv = Server(db, ("--no-rate-limits",))
        started = srv.start()
    finally:
        os.environ.pop(PAUSE_ENV, None)
    if started is None:
        row.achieved = "the server did not start"
        return row
    c = httpx.Client(base_url=srv.base, timeout=600)
    tid, tok = _event(c, 2 * args.kill_boards, "Kill")
    row.requests += 1

    def pair() -> None:
        try:
            c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=_bearer(tok))
        except httpx.HTTPError:
            pass

    th = threading.Thread(target=pair, daemon=True)
    th.start()
    time.sleep(args.kill_after)
    assert srv.proc is not None
    srv.proc.send_signal(signal.SIGKILL)
    srv.proc.wait()
    th.join(10)
    row.requests += 1
    again = Server(db, ("--no-rate-limits",))
    row.restart = again.start()
    try:
        c2 = httpx.Client(base_url=again.base, timeout=600)
        t = c2.get(f"/api/tournaments/{tid}").json()
        boards = len(t["rounds"][0]["boards"]) if t["rounds"] else 0
        in_round = {b["game_id"] for r in t["rounds"] for b in r["boards"]}
        stored = _game_rows(db)
        ongoing = []
        page = c2.get("/api/games", params={"limit": 200}).json()
        while page:
            ongoing += [g["id"] for g in page if g["status"] == "ongoing" and g["id"] not in in_round]
            page = c2.get("/api/games", params={"limit": 200, "before": page[-1]["id"]}).json() \
                if len(page) == 200 else []
        round_state = "none" if not t["rounds"] else ("whole" if boards == args.kill_boards else f"{boards} boards")
        row.notes.append(f"killed {args.kill_after:.0f} s into a {args.kill_boards}-board round: round after "
                         f"restart: {round_state}; games stored: {stored}; orphans ongoing in the lobby: "
                         f"{len(ongoing)}")
        if ongoing or (stored and not t["rounds"]):
            row.achieved = f"{len(ongoing)} orphan games ongoing ({stored} stored, round {round_state})"
        # The round paired on the restarted server, timed, the event loop probed meanwhile.
        pairing_time = "-"
        if not t["rounds"]:
            stop, worst = threading.Event(), [0.0]
            probe = threading.Thread(target=_probe, args=(again.base, stop, worst))
            probe.start()
            t0 = time.monotonic()
            r = c2.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=_bearer(tok))
            took = time.monotonic() - t0
            stop.set()
            probe.join()
            row.requests += 1
            pairing_time = f"{r.status_code} in {took:.2f} s, /api/languages at worst {worst[0] * 1000:.0f} ms"
        row.notes.append(f"pairing the {args.kill_boards} boards after restart: {pairing_time}")
        c2.close()
    finally:
        again.stop()
        c.close()
    return row


def attack_kill(args: argparse.Namespace, tmp: str) -> Row:
    row = Row("31 kill while pairing (PostgreSQL)")
    pg = started_postgres(row)
    if pg is None:
        return row
    try:
        return _kill(pg.url, "PostgreSQL", args)
    finally:
        pg.remove()


def attack_kill_sqlite(args: argparse.Namespace, tmp: str) -> Row:
    if not args.kill_sqlite:
        return Row("32 kill while pairing (SQLite)", achieved="not run (--kill-sqlite)")
    return _kill(os.path.join(tmp, f"kill-{time.monotonic_ns()}.sqlite3"), "SQLite", args)


PLAN: list[tuple[int, Callable[[argparse.Namespace, str], Row]]] = [
    (30, attack_race),
    (31, attack_kill),
    (32, attack_kill_sqlite),
]

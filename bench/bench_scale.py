"""A server that holds a million games (not a test): startup, memory, and reading old games.

Seeds GAMES finished games straight into a SQLite store (a short game played through the server once,
its rows copied with new ids: the games row with its stored final state, and its log), plus LIVE games
that are not over, then starts ``chesslaws serve`` on it (loopback only) and measures:

- ready: from starting the process to the first answered request (seconds);
- the server's resident memory once ready (MiB);
- a state request for a random old game: median and p99 over REQUESTS requests (ms);
- the lobby's first page and a page deep in the past (ms).

For comparison in the same run, the same requests against a server on a store with only the LIVE
games (the floor: what the million stored games cost on top).

Usage:
    python bench/bench_scale.py [--games 1000000] [--live 50] [--requests 300]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

from bench_server import free_port, pct, rss_kib

HOST = "127.0.0.1"
FOOLS = ["f3", "e5", "g4", "Qh4#"]


def serve(db: str) -> tuple[subprocess.Popen[bytes], str, float]:
    port = free_port()
    base = f"http://{HOST}:{port}"
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits", "--host", HOST,
                             "--port", str(port), "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            if httpx.get(f"{base}/api/games?limit=1", timeout=1).status_code == 200:
                return proc, base, time.monotonic() - t0
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() - t0 > 120:
            raise SystemExit("the server did not start")
        time.sleep(0.02)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def seed(db: str, games: int, live: int) -> list[str]:
    """Plays one finished and one live game through a server, then copies their rows."""
    proc, base, _ = serve(db)
    try:
        g = httpx.post(f"{base}/api/games", json={"white": "A", "black": "B", "time_control": "600",
                                                  "when_ready": False}).json()
        for i, san in enumerate(FOOLS):
            side = "white" if i % 2 == 0 else "black"
            httpx.post(f"{base}/api/games/{g['id']}/events", json={"type": "move", "move": san},
                       headers={"Authorization": f"Bearer {g['tokens'][side]}"}).raise_for_status()
        ongoing = httpx.post(f"{base}/api/games", json={"white": "C", "black": "D", "time_control": "3600",
                                                        "when_ready": False}).json()
    finally:
        stop(proc)
    from chesslaws.game import Game
    from chesslaws.store.games import SQLiteStore

    store = SQLiteStore(db)  # from here on the store is written directly

    rec = store.load(g["id"])
    assert rec is not None
    game = Game.from_events(rec.events)
    view = {"status": game.state.status, "result": game.state.result, "termination": game.state.termination,
            "fen": game.state.position.fen(), "moves": [{"ply": m.ply, "san": m.san, "uci": m.uci} for m in game.state.moves]}
    store.close()
    db_ = sqlite3.connect(db)
    row = db_.execute("SELECT created_at, interface, white_name, black_name, white_token, black_token, arbiter_token "
                      "FROM games WHERE id = ?", (g["id"],)).fetchone()
    events = [r[0] for r in db_.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq", (g["id"],))]
    live_row = db_.execute("SELECT created_at, interface, white_name, black_name, white_token, black_token, "
                           "arbiter_token FROM games WHERE id = ?", (ongoing["id"],)).fetchone()
    live_events = [r[0] for r in db_.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq",
                                             (ongoing["id"],))]
    summary = {"id": None, "white": "A", "black": "B", "edition": "2023", "time_control": "600", "mode": "rapid",
               "status": "finished", "result": view["result"], "termination": view["termination"], "ply": 4,
               "created_at": row[0], "seats_open": [], "starting_position": True}
    ids: list[str] = []
    t0 = row[0] - games  # one game a second, oldest first
    batch = 20_000
    for start in range(0, games, batch):
        games_rows, event_rows = [], []
        for i in range(start, min(games, start + batch)):
            gid = f"old{i:07d}"
            ids.append(gid)
            final = {"view": {**view, "id": gid, "white": "A", "black": "B"}, "summary": {**summary, "id": gid,
                                                                                       "created_at": t0 + i}}
            games_rows.append((gid, t0 + i, *row[1:], "finished", json.dumps(final, separators=(",", ":"))))
            event_rows.extend((gid, seq, body) for seq, body in enumerate(events))
        with db_:
            db_.executemany("INSERT INTO games (id, created_at, interface, white_name, black_name, white_token, "
                            "black_token, arbiter_token, status, final) VALUES (?,?,?,?,?,?,?,?,?,?)", games_rows)
            db_.executemany("INSERT INTO events VALUES (?,?,?)", event_rows)
        print(f"\r  seeded {min(games, start + batch):,} of {games:,} games", end="", file=sys.stderr)
    print(file=sys.stderr)
    with db_:
        for i in range(live - 1):
            gid = f"live{i:05d}"
            db_.execute("INSERT INTO games (id, created_at, interface, white_name, black_name, white_token, "
                        "black_token, arbiter_token, status) VALUES (?,?,?,?,?,?,?,?,'live')", (gid, *live_row))
            db_.executemany("INSERT INTO events VALUES (?,?,?)", [(gid, n, b) for n, b in enumerate(live_events)])
        db_.execute("DELETE FROM events WHERE game_id = ?", (g["id"],))
        db_.execute("DELETE FROM games WHERE id = ?", (g["id"],))
    db_.close()
    return ids


def measure(db: str, ids: list[str], requests: int) -> dict[str, Any]:
    proc, base, ready = serve(db)
    try:
        time.sleep(0.5)
        rss = rss_kib(proc.pid) / 1024
        with httpx.Client(base_url=base, timeout=30) as http:
            times = []
            for gid in random.Random(1).choices(ids, k=requests) if ids else []:
                t = time.perf_counter()
                r = http.get(f"/api/games/{gid}")
                times.append((time.perf_counter() - t) * 1000)
                assert r.status_code == 200 and r.json()["status"] == "finished", r.text
            t = time.perf_counter()
            first = http.get("/api/games?limit=50").json()
            lobby = (time.perf_counter() - t) * 1000
            deep = None
            if ids:
                t = time.perf_counter()
                http.get(f"/api/games?limit=50&before={ids[len(ids) // 2]}").raise_for_status()
                deep = (time.perf_counter() - t) * 1000
    finally:
        stop(proc)
    return {"ready_s": round(ready, 2), "rss_mib": round(rss, 1),
            "state_ms": {"median": round(statistics.median(times), 2), "p99": round(pct(times, 99), 2)} if times else None,
            "lobby_first_ms": round(lobby, 1), "lobby_deep_ms": None if deep is None else round(deep, 1),
            "lobby_games": len(first)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1_000_000, help="finished games to seed (1..5,000,000)")
    ap.add_argument("--live", type=int, default=50, help="games not over (1..1000)")
    ap.add_argument("--requests", type=int, default=300, help="state requests for random old games")
    ap.add_argument("--db", default=None, help="where to build the seeded SQLite file (default: a temporary folder)")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="chesslaws-scale-")
    big = args.db or os.path.join(folder, "million.sqlite3")
    small = os.path.join(folder, "live-only.sqlite3")
    t = time.monotonic()
    ids = seed(big, max(1, min(args.games, 5_000_000)), max(1, min(args.live, 1000)))
    seeded = time.monotonic() - t
    seed(small, 1, max(1, min(args.live, 1000)))
    with sqlite3.connect(small) as db_:  # the floor: the live games only
        db_.execute("DELETE FROM events WHERE game_id LIKE 'old%'")
        db_.execute("DELETE FROM games WHERE id LIKE 'old%'")
    many = measure(big, ids, args.requests)
    floor = measure(small, [], 0)
    size = os.path.getsize(big) / 2**20
    print(f"chesslaws serve with {len(ids):,} stored finished games and {args.live} live ones (SQLite, "
          f"{size:,.0f} MiB, seeded in {seeded:.0f} s); load {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"  ready               {many['ready_s']} s   (live games only: {floor['ready_s']} s)")
    print(f"  resident memory     {many['rss_mib']} MiB   (live games only: {floor['rss_mib']} MiB)")
    st = many["state_ms"]
    print(f"  random old game     median {st['median']} ms, p99 {st['p99']} ms  ({args.requests} state requests)")
    print(f"  lobby               first page {many['lobby_first_ms']} ms, a page half-way back "
          f"{many['lobby_deep_ms']} ms   (live games only: {floor['lobby_first_ms']} ms)")
    print(json.dumps({"games": len(ids), "many": many, "floor": floor, "db_mib": round(size)}))


if __name__ == "__main__":
    main()

"""Several ``chesslaws serve`` processes on one PostgreSQL (not a test): load, and one process killed.

Starts a throwaway PostgreSQL cluster and PROCESSES servers on loopback ports (127.0.0.1 only),
creates GAMES games (1997 Laws, standard mode, 10 minutes + 5 s: no flag can fall at this pace),
gives each game's players to one process (round robin), and has them move every THINK seconds over
WebSockets. Half-way through, one process is SIGKILLed; its players connect to the next process
(with backoff) and go on. At the end every log is read back and compared with what was acknowledged.

Reports: moves per second; acknowledgement latency p50/p95/p99 (ms); takeover: for the games whose
process died, the time until their players were connected again (median and max); acknowledged
events missing from the logs (must be 0); events in the logs never acknowledged (at most one per
game: a move whose answer was lost with the killed process; none may be applied twice); games lost
on time (must be 0).

Usage:
    python bench/bench_processes.py [--processes 3] [--games 2000] [--think 2] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import httpx

from bench_chaos import Postgres, Server, Stats, play  # this folder: run as python bench/bench_processes.py
from bench_server import pct


async def run(processes: int, games: int, seconds: float, think: float) -> dict[str, Any]:
    pg = Postgres()
    pg.start()
    servers = [Server(pg.url) for _ in range(processes)]
    for server in servers:
        server.start()
    try:
        created = []
        async with httpx.AsyncClient(timeout=30) as http:
            for i in range(games):
                base = servers[i % processes].base
                r = await http.post(f"{base}/api/games", json={"white": f"W{i}", "black": f"B{i}", "edition": "1997",
                                                               "mode": "standard", "time_control": "600+5",
                                                               "when_ready": False})
                r.raise_for_status()
                created.append(r.json())
        stats = Stats()
        t0 = time.monotonic()
        stop_at = t0 + seconds
        victim = servers[0]
        killed_at = 0.0

        async def kill_one() -> None:
            nonlocal killed_at
            await asyncio.sleep(seconds / 2)
            victim.kill()
            killed_at = time.monotonic()

        order = [[s.base for s in servers[i % processes:] + servers[:i % processes]] for i in range(games)]
        await asyncio.gather(kill_one(), *(play(order[i], g, stop_at, think, stats) for i, g in enumerate(created)))
        elapsed = time.monotonic() - t0
        lost = unacked = forfeits = 0
        alive = servers[1].base
        async with httpx.AsyncClient(base_url=alive, timeout=30) as http:
            for g in created:
                r = await http.get(f"/api/games/{g['id']}/log",
                                   headers={"Authorization": f"Bearer {g['tokens']['arbiter']}"})
                lines = [json.loads(x) for x in r.text.splitlines() if x.strip()]
                acked = stats.acked.get(g["id"], {})
                lost += sum(1 for seq, ev in acked.items() if seq >= len(lines) or lines[seq] != ev)
                unacked += sum(1 for seq in range(1, len(lines)) if seq not in acked and lines[seq]["type"] == "move")
                st = (await http.get(f"/api/games/{g['id']}")).json()
                forfeits += st["termination"] == "time_forfeit"
    finally:
        for server in servers:
            server.stop()
        pg.remove()
    acknowledged = sum(len(v) for v in stats.acked.values())
    gaps = stats.gaps
    return {
        "processes": processes, "games": games, "think_s": think, "seconds": round(elapsed, 1),
        "acknowledged": acknowledged, "moves_per_second": round(acknowledged / elapsed, 1),
        "latency_ms": {"p50": round(pct(stats.latencies, 50), 1), "p95": round(pct(stats.latencies, 95), 1),
                       "p99": round(pct(stats.latencies, 99), 1)},
        "takeover_s": {"games": len(gaps), "median": round(statistics.median(gaps), 2) if gaps else None,
                       "max": round(max(gaps), 2) if gaps else None},
        "lost": lost, "unacknowledged_in_log": unacked, "lost_on_time": forfeits,
        "errors": stats.errors[:5], "load": open("/proc/loadavg").read().split()[:3],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--processes", type=int, default=3, help="server processes (2..8)")
    ap.add_argument("--games", type=int, default=2000, help="concurrent games (1..5000)")
    ap.add_argument("--think", type=float, default=2.0, help="seconds a player thinks before each move")
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the run (10..600)")
    args = ap.parse_args()
    res = asyncio.run(run(max(2, min(args.processes, 8)), max(1, min(args.games, 5000)),
                          max(10.0, min(args.seconds, 600.0)), max(0.0, min(args.think, 30.0))))
    lat, tk = res["latency_ms"], res["takeover_s"]
    print(f"chesslaws serve: {res['processes']} processes on PostgreSQL, {res['games']} games, {res['think_s']} s "
          f"think, {res['seconds']} s, one process SIGKILLed half-way; load {' '.join(res['load'])}")
    print(f"  acknowledged        {res['acknowledged']}  ({res['moves_per_second']} moves/s)")
    print(f"  round trip (ms)     p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}")
    print(f"  takeover            {tk['games']} reconnections, median {tk['median']} s, max {tk['max']} s")
    print(f"  lost                {res['lost']}   (acknowledged events missing; must be 0)")
    print(f"  never acknowledged  {res['unacknowledged_in_log']}   (moves in the logs whose answer was lost "
          "with the killed process; at most one a game)")
    print(f"  lost on time        {res['lost_on_time']}   (must be 0)")
    if res["errors"]:
        print(f"  errors              {res['errors']}")
    print(json.dumps(res))


if __name__ == "__main__":
    main()

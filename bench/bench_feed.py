"""The cost of a round broadcast live (not a test): the players' move latency with and without 100 polls a second
of the round's PGN feed, and the server's CPU per poll.

Starts ``chesslaws serve`` on a temporary SQLite file (loopback only, rate limits off), creates a Swiss event of
2 x BOARDS players under the 1997 Laws (no automatic end by repetition: the knights dance), pairs round 1 with
its clocks running, connects both players of every board over WebSockets, and has every game play a move every
THINK seconds (spread) for SECONDS seconds twice: first alone, then with POLLS polls a second of
``GET /api/tournaments/ID/rounds/1/pgn`` (half of them with the last ETag in ``If-None-Match``, as a polite
poller does; the rest unconditional, as a naive one does). Each poll's answer is checked: a 200 parses as one
game per board.

Prints, for both phases: moves acknowledged, the move round trip (send -> acknowledgement) p50 / p99, the
server's CPU per second; for the polled phase: polls answered (200 / 304), the poll's round trip p50 / p99,
and the server's CPU per poll (the phase's CPU less the moves' share measured alone, over the polls). The
ratio that matters is the players' p99 with polls over without (1.0: unchanged).

Usage:
    python bench/bench_feed.py [--boards 40] [--seconds 15] [--think 0.25] [--polls 100]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import DANCE, HOST, Seat, cpu_s, pct, started  # noqa: E402


async def players(base: str, boards: list[dict[str, Any]]) -> list[dict[str, Seat]]:
    ws_base = base.replace("http://", "ws://")
    conns = []
    for b in boards:
        seats = {}
        for side in ("white", "black"):
            link = b[side]["link"]
            gid = urlparse(link).path.rsplit("/", 1)[1]
            token = urlparse(link).fragment.split("token=", 1)[1]
            seats[side] = Seat(await websockets.connect(f"{ws_base}/api/games/{gid}/ws?token={token}&moves=new",
                                                        max_size=2**22))
        conns.append(seats)
    return conns


async def play(seats: dict[str, Seat], ply: list[int], stop_at: float, think: float, latencies: list[float],
               errors: list[str]) -> None:
    await asyncio.sleep(random.uniform(0, think))
    while time.monotonic() < stop_at:
        n = ply[0]
        side = "white" if n % 2 == 0 else "black"
        t0 = time.perf_counter()
        reply = await seats[side].send(n, {"type": "move", "move": DANCE[n % 4]})
        latencies.append((time.perf_counter() - t0) * 1000)
        if reply["kind"] != "ack":
            errors.append(str(reply.get("error")))
            return
        ply[0] += 1
        await asyncio.sleep(think)


async def poll(base: str, url: str, per_second: float, stop_at: float, boards: int, out: dict[str, Any]) -> None:
    etag: str | None = None
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        i = 0
        start = time.monotonic()
        tasks = []

        async def one(conditional: bool) -> None:
            nonlocal etag
            headers = {"If-None-Match": etag} if conditional and etag else {}
            t0 = time.perf_counter()
            r = await http.get(url, headers=headers)
            out["latency"].append((time.perf_counter() - t0) * 1000)
            out[r.status_code] = out.get(r.status_code, 0) + 1
            if r.status_code == 200:
                etag = r.headers["etag"]
                if r.text.count("[Round \"1.") != boards:
                    out["bad"] += 1

        while time.monotonic() < stop_at:
            due = start + i / per_second
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            tasks.append(asyncio.create_task(one(i % 2 == 0)))
            i += 1
        await asyncio.gather(*tasks)


def poller(base: str, url: str, per_second: float, seconds: float, boards: int, out: Any) -> None:
    """The pollers, in a process of their own: the players' client is not slowed by reading the feeds."""
    polled: dict[Any, Any] = {"latency": [], "bad": 0}
    asyncio.run(poll(base, url, per_second, time.monotonic() + seconds, boards, polled))
    out.put(polled)


async def phase(base: str, pid: int, conns: list[dict[str, Seat]], plies: list[list[int]], seconds: float,
                think: float, polls: float, tid: str, boards: int) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[str] = []
    polled: dict[Any, Any] = {"latency": [], "bad": 0}
    stop_at = time.monotonic() + seconds
    c0, t0, own0 = cpu_s(pid), time.monotonic(), time.process_time()
    jobs = [play(s, p, stop_at, think, latencies, errors) for s, p in zip(conns, plies)]
    proc = None
    if polls:
        out: Any = multiprocessing.Queue()
        proc = multiprocessing.Process(target=poller, args=(base, f"/api/tournaments/{tid}/rounds/1/pgn", polls,
                                                            seconds, boards, out))
        proc.start()
    await asyncio.gather(*jobs)
    elapsed = time.monotonic() - t0
    cpu, own = cpu_s(pid) - c0, time.process_time() - own0
    if proc is not None:
        polled = await asyncio.to_thread(out.get)
        proc.join()
    return {"seconds": elapsed, "cpu": cpu, "own": own, "moves": len(latencies), "errors": errors[:3],
            "p50": pct(latencies, 50), "p99": pct(latencies, 99), "polls": polled}


async def run(base: str, pid: int, boards: int, seconds: float, think: float, polls: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        body = {"name": "Broadcast bench", "system": "swiss", "rounds": 5, "edition": "1997",
                "time_control": "5400+30", "players": [{"name": f"Player {i}", "rating": 2400 - i}
                                                       for i in range(2 * boards)]}
        r = await http.post("/api/tournaments", json=body)
        r.raise_for_status()
        tid, tok = r.json()["id"], r.json()["arbiter_token"]
        r = await http.post(f"/api/tournaments/{tid}/rounds", json={"start": "now"},
                            headers={"Authorization": f"Bearer {tok}"})
        r.raise_for_status()
        paired = r.json()["boards"]
    conns = await players(base, paired)
    plies = [[0] for _ in conns]
    await asyncio.sleep(0.5)
    alone = await phase(base, pid, conns, plies, seconds, think, 0, tid, boards)
    polled = await phase(base, pid, conns, plies, seconds, think, polls, tid, boards)
    for seats in conns:
        for seat in seats.values():
            await seat.ws.close()
            seat.reader.cancel()
    p = polled["polls"]
    answered = p.get(200, 0) + p.get(304, 0)
    moves_cpu = alone["cpu"] / max(1, alone["moves"]) * polled["moves"]
    per_poll_ms = (polled["cpu"] - moves_cpu) / max(1, answered) * 1000
    print(f"chesslaws serve: a round of {boards} boards, a move every {think} s a game, {seconds:.0f} s a phase")
    for name, ph in (("moves alone", alone), (f"with {polls:g} polls/s", polled)):
        print(f"  {name:18} {ph['moves']:6} moves  move p50 {ph['p50']:6.2f} ms  p99 {ph['p99']:6.2f} ms  "
              f"server CPU {ph['cpu'] / ph['seconds']:.2f} s/s, players' client {ph['own'] / ph['seconds']:.2f} s/s" + (f"  errors {ph['errors']}" if ph["errors"] else ""))
    print(f"  polls: {answered} answered ({p.get(200, 0)} x 200, {p.get(304, 0)} x 304), {p['bad']} bad, "
          f"poll p50 {pct(p['latency'], 50):.2f} ms  p99 {pct(p['latency'], 99):.2f} ms, "
          f"server CPU {per_poll_ms:.3f} ms a poll")
    print(f"  the players' move latency with polls over without: p50 {polled['p50'] / alone['p50']:.2f}x, "
          f"p99 {polled['p99'] / alone['p99']:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=40, help="boards of the round (2 x players)")
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    ap.add_argument("--think", type=float, default=0.25, help="seconds between a game's moves")
    ap.add_argument("--polls", type=float, default=100.0, help="polls of the round's feed a second")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="chesslaws-bench-feed-")
    cmd = [sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits", "--host", HOST,
           "--db", str(Path(tmp) / "games.sqlite3")]
    with started(cmd) as (base, pid):
        asyncio.run(run(base, pid, args.boards, args.seconds, args.think, args.polls))


if __name__ == "__main__":
    main()

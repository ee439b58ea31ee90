"""The cost of a round broadcast live (not a test): the players' move latency with and without 100 polls a second
of the round's PGN feed, and the server's CPU per poll.

Starts ``chesslaws serve`` on a temporary SQLite file (loopback only, rate limits off), creates a Swiss event of
2 x BOARDS players under the 1997 Laws (no automatic end by repetition: the knights dance), pairs round 1 with
its clocks running, connects both players of every board over WebSockets, and has every game play a move every
THINK seconds (spread) for SECONDS seconds, REPEATS times alternately alone and with POLLS polls a second of
``GET /api/tournaments/ID/rounds/1/pgn`` (half of them with the last ETag in ``If-None-Match``, as a polite
poller does; the rest unconditional, as a naive one does). Each poll's answer is checked: a 200 parses as one
game per board.

Prints, for both phases: moves acknowledged, the move round trip (send -> acknowledgement) p50 / p99, the
server's CPU per second; for the polled phase: polls answered (200 / 304), the poll's round trip p50 / p99,
and the server's CPU per poll (the phase's CPU less the moves' share measured alone, over the polls). The
ratio that matters is the players' p99 with polls over without (1.0: unchanged).

Usage:
    python bench/bench_feed.py [--boards 40] [--seconds 10] [--think 2] [--polls 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
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
                if len(out["latency"]) % 10 == 0 and r.content.count(b'[Round "1.') != boards:  # checked 1 in 10
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
    own0 = time.process_time()
    asyncio.run(poll(base, url, per_second, time.monotonic() + seconds, boards, polled))
    polled["cpu"] = time.process_time() - own0
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


async def run(base: str, pid: int, boards: int, seconds: float, think: float, polls: float, repeats: int) -> None:
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
    # Alternate phases, alone then polled, so that what else the machine does weighs on both alike; each
    # figure is the median over the repeats.
    alone_runs, polled_runs = [], []
    for _ in range(repeats):
        alone_runs.append(await phase(base, pid, conns, plies, seconds, think, 0, tid, boards))
        polled_runs.append(await phase(base, pid, conns, plies, seconds, think, polls, tid, boards))
    for seats in conns:
        for seat in seats.values():
            await seat.ws.close()
            seat.reader.cancel()
    med = statistics.median
    print(f"chesslaws serve: a round of {boards} boards, a move every {think} s a game, {repeats} x 2 phases of "
          f"{seconds:.0f} s (alone, then with {polls:g} polls/s), medians")
    for name, runs in (("moves alone", alone_runs), (f"with {polls:g} polls/s", polled_runs)):
        print(f"  {name:18} {med([r['moves'] for r in runs]):7.0f} moves  move p50 {med([r['p50'] for r in runs]):6.2f} ms"
              f"  p99 {med([r['p99'] for r in runs]):7.2f} ms  server CPU {med([r['cpu'] / r['seconds'] for r in runs]):.2f} s/s"
              + (f"  errors {[r['errors'] for r in runs if r['errors']]}" if any(r["errors"] for r in runs) else ""))
    answered = [r["polls"].get(200, 0) + r["polls"].get(304, 0) for r in polled_runs]
    fresh = sum(r["polls"].get(200, 0) for r in polled_runs)
    bad = sum(r["polls"]["bad"] for r in polled_runs)
    poll_lat = [x for r in polled_runs for x in r["polls"]["latency"]]
    per_move = med([a["cpu"] / max(1, a["moves"]) for a in alone_runs])
    per_poll = med([(p["cpu"] - per_move * p["moves"]) / max(1, n) for p, n in zip(polled_runs, answered)]) * 1000
    print(f"  polls: {sum(answered)} answered ({fresh} x 200, {sum(answered) - fresh} x 304), {bad} bad, "
          f"poll p50 {pct(poll_lat, 50):.2f} ms  p99 {pct(poll_lat, 99):.2f} ms; server CPU {per_poll:.3f} ms a poll, "
          f"{per_move * 1000:.3f} ms a move; the pollers' own CPU "
          f"{med([r['polls']['cpu'] / r['seconds'] for r in polled_runs]):.2f} s/s")
    p50 = med([r["p50"] for r in polled_runs]) / med([r["p50"] for r in alone_runs])
    p99 = med([r["p99"] for r in polled_runs]) / med([r["p99"] for r in alone_runs])
    print(f"  the players' move latency with polls over without: p50 {p50:.2f}x, p99 {p99:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=40, help="boards of the round (2 x players)")
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    ap.add_argument("--think", type=float, default=2.0, help="seconds between a game's moves")
    ap.add_argument("--polls", type=float, default=100.0, help="polls of the round's feed a second")
    ap.add_argument("--repeats", type=int, default=3, help="pairs of phases (alone, polled), alternated")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="chesslaws-bench-feed-")
    cmd = [sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits", "--host", HOST,
           "--db", str(Path(tmp) / "games.sqlite3")]
    with started(cmd) as (base, pid):
        asyncio.run(run(base, pid, args.boards, args.seconds, args.think, args.polls, args.repeats))


if __name__ == "__main__":
    main()

"""Chaos benchmark of ``chesslaws serve`` on PostgreSQL (not a test).

Starts a throwaway PostgreSQL cluster and ``chesslaws serve`` on loopback ports (127.0.0.1 only),
creates GAMES games on a short clock (15 s + 1 s a move, 1997 Laws, standard mode: the knights may
dance for ever, and an arbiter present sees every flag fall), connects both players of each over
WebSockets, and has them move with a short think time while, on a fixed schedule:

- the server is SIGKILLed (at 20% of the run) and started again 1 s later,
- PostgreSQL is stopped (at 45%) for OUTAGE seconds, longer than any player's clock, and started again,
- the server is SIGKILLed again (at 75%) and started again.

Players reconnect after a kill, and retry a move refused with 503 after its Retry-After. At the end
every game's log is read back and compared with what was acknowledged.

Reports: events acknowledged; acknowledged events missing from the logs (must be 0); games lost on
time (must be 0: no clock can fall at this pace unless an outage ran it down); moves per second;
acknowledgement latency p50/p95/p99 (ms, successful moves only); 503s answered during the outage.

Usage:
    python bench/bench_chaos.py [--games 200] [--seconds 40] [--outage 20]
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench_server import free_port, pct  # this folder: run as python bench/bench_chaos.py

HOST = "127.0.0.1"  # loopback only
DANCE = ["g1f3", "g8f6", "f3g1", "f6g8"]

# The beginnings of an answer (an acknowledgement or an error), whatever the JSON's spacing.
ANSWERS = ('{"kind":"ack"', '{"kind":"error"')


class Postgres:
    """A throwaway cluster (as the postgres user when run as root)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("PostgreSQL binaries not installed (apt-get install postgresql)")
        self.bin = Path(found[-1]).parent
        self.root = tempfile.mkdtemp(prefix="chesslaws-chaos-pg-")
        self.data = os.path.join(self.root, "data")
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self.port = free_port()
        self.url = f"postgresql://postgres@{HOST}:{self.port}/postgres"
        self._run("initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=tool != "pg_ctl" or "stop" not in args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def start(self) -> None:
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.root, "log"), "-w", "-o",
                  f"-p {self.port} -k {self.root} -c listen_addresses={HOST} -c max_connections=40", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


class Server:
    def __init__(self, db: str) -> None:
        self.db = db
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(os.path.join(tempfile.gettempdir(), "chesslaws-chaos-server.log"), "ab")

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits",
                                      "--host", HOST, "--port", str(self.port), "--db", self.db],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.2):
                    return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Stats:
    def __init__(self) -> None:
        self.acked: dict[str, dict[int, dict[str, Any]]] = {}
        self.latencies: list[float] = []
        self.unavailable = 0
        self.reconnects = 0
        self.errors: list[str] = []
        self.last_ack: dict[str, float] = {}
        self.broken: dict[str, float] = {}  # game -> when its connection broke
        self.gaps: list[float] = []  # seconds from a broken connection to the next one that works


async def play(base: str | list[str], game: dict[str, Any], stop_at: float, think: float, stats: Stats) -> None:
    """One game: both players' sockets stay open; after a kill they connect again (with backoff; to the
    next server of ``base`` when there are several), learn whose turn it is from the state the server
    sends first, and go on."""
    bases = [base] if isinstance(base, str) else list(base)
    which = 0
    gid = game["id"]
    acked = stats.acked.setdefault(gid, {})
    await asyncio.sleep(random.uniform(0, think))
    rid = 0
    backoff = 0.2
    while time.monotonic() < stop_at:
        ws_base = bases[which % len(bases)].replace("http://", "ws://")
        try:
            async with websockets.connect(f"{ws_base}/api/games/{gid}/ws?token={game['tokens']['white']}&moves=new",
                                          max_size=2**22, open_timeout=10) as white, \
                    websockets.connect(f"{ws_base}/api/games/{gid}/ws?token={game['tokens']['black']}&moves=new",
                                       max_size=2**22, open_timeout=10) as black:
                seats = {"white": white, "black": black}
                while True:
                    st = json.loads(await asyncio.wait_for(white.recv(), 10))
                    if st["kind"] == "state":
                        st = st["state"]
                        break
                backoff = 0.2
                if gid in stats.broken:  # connected again: how long the game could not be played
                    stats.gaps.append(time.monotonic() - stats.broken.pop(gid))
                side, ply = st["turn"], len(st["moves"])
                while time.monotonic() < stop_at and st["status"] == "ongoing":
                    await asyncio.sleep(think)
                    rid += 1
                    t0 = time.perf_counter()
                    ws = seats[side]
                    await ws.send(json.dumps({"rid": rid, "event": {"type": "move", "move": DANCE[ply % 4]}}))
                    while True:
                        raw = await asyncio.wait_for(ws.recv(), 15)
                        # Only answers are read: parsing every state would spend the CPU the servers
                        # need on this machine (a browser parses them on its own).
                        if not raw[:16].replace(" ", "").startswith(ANSWERS):
                            continue
                        msg = json.loads(raw)
                        if msg.get("rid") == rid and msg["kind"] in ("ack", "error"):
                            break
                    if msg["kind"] == "ack":
                        stats.latencies.append((time.perf_counter() - t0) * 1000)
                        acked[msg["seq"]] = msg["event"]
                        stats.last_ack[gid] = time.monotonic()
                        side, ply = ("black" if side == "white" else "white"), ply + 1
                    elif msg["status"] == 503:
                        stats.unavailable += 1
                        await asyncio.sleep(msg.get("retry_after", 2))
                    else:
                        stats.errors.append(msg["error"])
                        break  # connect again and learn the state anew
                if st["status"] != "ongoing":
                    return
        except (OSError, websockets.WebSocketException, asyncio.TimeoutError, ValueError, KeyError):
            stats.reconnects += 1  # the server is down or restarting: try again shortly (or another one)
            stats.broken.setdefault(gid, time.monotonic())
            which += 1
            await asyncio.sleep(backoff + random.uniform(0, backoff))
            backoff = min(backoff * 2, 2.0)


async def chaos(server: Server, pg: Postgres, seconds: float, outage: float, log: list[str]) -> None:
    t0 = time.monotonic()

    async def at(fraction: float) -> None:
        await asyncio.sleep(max(0.0, t0 + fraction * seconds - time.monotonic()))

    await at(0.20)
    server.kill()
    log.append(f"{time.monotonic() - t0:5.1f} s  server SIGKILLed")
    await asyncio.sleep(1)
    await asyncio.to_thread(server.start)
    log.append(f"{time.monotonic() - t0:5.1f} s  server up again")
    await at(0.45)
    await asyncio.to_thread(pg.stop)
    log.append(f"{time.monotonic() - t0:5.1f} s  PostgreSQL stopped")
    await asyncio.sleep(outage)
    await asyncio.to_thread(pg.start)
    log.append(f"{time.monotonic() - t0:5.1f} s  PostgreSQL up again")
    await at(0.75)
    server.kill()
    log.append(f"{time.monotonic() - t0:5.1f} s  server SIGKILLed")
    await asyncio.sleep(1)
    await asyncio.to_thread(server.start)
    log.append(f"{time.monotonic() - t0:5.1f} s  server up again")


async def run(games: int, seconds: float, outage: float, think: float) -> dict[str, Any]:
    pg = Postgres()
    pg.start()
    server = Server(pg.url)
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            created = []
            for i in range(games):
                r = await http.post("/api/games", json={"white": f"W{i}", "black": f"B{i}", "edition": "1997",
                                                       "mode": "standard", "time_control": "15+1",
                                                       "when_ready": False})
                r.raise_for_status()
                created.append(r.json())
        stats = Stats()
        events: list[str] = []
        t0 = time.monotonic()
        stop_at = t0 + seconds
        await asyncio.gather(chaos(server, pg, seconds, outage, events),
                             *(play(server.base, g, stop_at, think, stats) for g in created))
        elapsed = time.monotonic() - t0
        lost = 0
        forfeits = 0
        other_end = 0
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            for g in created:
                r = await http.get(f"/api/games/{g['id']}/log", headers={"Authorization": f"Bearer {g['tokens']['arbiter']}"})
                lines = [json.loads(x) for x in r.text.splitlines() if x.strip()]
                for seq, ev in stats.acked.get(g["id"], {}).items():
                    if seq >= len(lines) or lines[seq] != ev:
                        lost += 1
                st = (await http.get(f"/api/games/{g['id']}")).json()
                if st["termination"] == "time_forfeit":
                    forfeits += 1
                elif st["status"] != "ongoing":
                    other_end += 1
    finally:
        server.stop()
        pg.remove()
    acknowledged = sum(len(v) for v in stats.acked.values())
    return {
        "games": games, "seconds": round(elapsed, 1), "outage_s": outage, "think_s": think,
        "acknowledged": acknowledged, "lost": lost, "lost_on_time": forfeits, "other_endings": other_end,
        "moves_per_second": round(acknowledged / elapsed, 1),
        "latency_ms": {"p50": round(pct(stats.latencies, 50), 1), "p95": round(pct(stats.latencies, 95), 1),
                       "p99": round(pct(stats.latencies, 99), 1)},
        "answered_503": stats.unavailable, "reconnects": stats.reconnects, "errors": stats.errors[:5],
        "schedule": events, "load": open("/proc/loadavg").read().split()[:3],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="concurrent games (1..1000)")
    ap.add_argument("--seconds", type=float, default=40.0, help="length of the run (20..300)")
    ap.add_argument("--outage", type=float, default=20.0,
                    help="seconds PostgreSQL stays down (default 20: longer than any clock in the run)")
    ap.add_argument("--think", type=float, default=0.3, help="seconds a player thinks before each move")
    args = ap.parse_args()
    result = asyncio.run(run(max(1, min(args.games, 1000)), max(20.0, min(args.seconds, 300.0)),
                             max(1.0, min(args.outage, 120.0)), max(0.0, min(args.think, 5.0))))
    lat = result["latency_ms"]
    print(f"chesslaws serve chaos: {result['games']} games, {result['seconds']} s, PostgreSQL, "
          f"load {' '.join(result['load'])}")
    for line in result["schedule"]:
        print(f"  {line}")
    print(f"  acknowledged        {result['acknowledged']}  ({result['moves_per_second']} moves/s)")
    print(f"  lost                {result['lost']}   (acknowledged events missing from the logs; must be 0)")
    print(f"  lost on time        {result['lost_on_time']}   (games ruled lost on time; must be 0)")
    print(f"  round trip (ms)     p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}")
    print(f"  503 during outage   {result['answered_503']}   reconnects {result['reconnects']}")
    if result["errors"]:
        print(f"  errors              {result['errors']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

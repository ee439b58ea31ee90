"""1, 2 and 3 ``chesslaws serve`` processes behind nginx with the shipped configuration (not a test).

For each number of processes: a fresh database on a throwaway PostgreSQL cluster, the processes started as
the README's recipe says (``--port``, ``--db``, ``--forwarded-allow-ips 127.0.0.1``), and Debian's nginx with
``deploy/nginx.conf`` as shipped but for what an operator sets (its upstream's ports, its listen port, the
paths of its logs). GAMES games are created through nginx, both players of each connect through it over TLS
(the token in the subprotocol header, as the game page does), and the games play:

- paced (``--rate R``, the default 400): the games together offer R moves a second, each game moving at the
  same pace (a move sent once the opponent's move before it has arrived), so that 1, 2 and 3 processes carry
  the same work and CPU per move compares like with like;
- or in a closed loop (``--rate 0``): each player moves as soon as the opponent's move reaches him, so moves
  per second is the capacity of the whole machine (servers, nginx, PostgreSQL and this client share it).

The peer, ``bench/bare_proxied.py``, is measured in the same run the same way: the same framework and store
(group commit from one thread) behind the same nginx, storing and relaying moves and nothing else. Its ratio
of 2 and 3 processes to one is what the machine charges any server for being split into processes (more
switches between more processes on the same cores); chesslaws' ratio reads against it.

Each number of processes is measured ``--rounds`` times, interleaved (1, 2, 3, 1, 2, 3, ...; chesslaws then
the peer), so that a change of the machine's load falls on all alike; the table gives the medians and the
spread of CPU per move. Per measure, over the window (after a warm-up):
- moves per second (all games together);
- move-to-opponent latency p50 / p99: from a player's sending his move to the opponent's socket receiving
  the state with it, through nginx;
- server CPU per move: the user and system CPU of the server processes (from /proc) over the window, divided
  by the moves (PostgreSQL's and nginx's CPU are printed apart);
- the load average.

The machine may be shared: CPU per move is the figure that compares, moves per second depends on the load.

Usage:
    python bench/bench_proxy.py [--games 200] [--rate 400] [--seconds 15] [--warmup 4] [--processes 1,2,3]
                                [--rounds 3] [--no-peer]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import websockets

from bench_chaos import HOST, Postgres  # this folder: run as python bench/bench_proxy.py
from bench_server import free_port, pct

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "deploy" / "nginx.conf"
DANCE = ["g1f3", "g8f6", "f3g1", "f6g8"]  # 1997 Laws: the knights may dance for ever


def nginx_config(ports: list[int], listen: int, logs: str) -> str:
    """deploy/nginx.conf as shipped, but for what the operator sets: the upstream's servers, the listen port and
    the logs' paths."""
    text = SHIPPED.read_text()
    servers = re.findall(r"^    server 127\.0\.0\.1:800\d (.*);$", text, re.M)
    assert len(servers) == 3, "deploy/nginx.conf: three upstream servers expected"
    text = re.sub(r"^    server 127\.0\.0\.1:800\d .*;\n", "", text, flags=re.M)
    upstream = "".join(f"    server 127.0.0.1:{p} {servers[0]};\n" for p in ports)
    text = text.replace("    keepalive 32;", upstream + "    keepalive 32;")
    for old, new in (("listen 443 ssl;", f"listen {HOST}:{listen} ssl;"),
                     ("/var/log/nginx/chesslaws.access.log", f"{logs}/access.log"),
                     ("/var/log/nginx/chesslaws.error.log", f"{logs}/error.log")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


class Nginx:
    """nginx with the shipped configuration in an http block of its own, on a loopback port."""

    def __init__(self, ports: list[int]) -> None:
        self.root = tempfile.mkdtemp(prefix="chesslaws-nginx-")
        self.port = free_port()
        (Path(self.root) / "chesslaws.conf").write_text(nginx_config(ports, self.port, self.root))
        (Path(self.root) / "nginx.conf").write_text(
            f"pid {self.root}/nginx.pid;\nerror_log {self.root}/main-error.log;\nworker_processes 1;\n"
            f"events {{ worker_connections 4096; }}\nhttp {{ include {self.root}/chesslaws.conf; }}\n")
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(binary):
            raise SystemExit("nginx is not installed (apt-get install nginx)")
        subprocess.run([binary, "-c", f"{self.root}/nginx.conf", "-p", self.root], check=True)
        self.base = f"https://{HOST}:{self.port}"
        self.pid = int(Path(f"{self.root}/nginx.pid").read_text())

    def pids(self) -> list[int]:
        out = [self.pid]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    if f" {self.pid} " in Path(f"/proc/{entry}/stat").read_text().split(")", 1)[1][:30]:
                        out.append(int(entry))
                except OSError:
                    pass
        return out

    def stop(self) -> None:
        try:
            os.kill(self.pid, signal.SIGTERM)
        except OSError:
            pass
        time.sleep(0.3)
        shutil.rmtree(self.root, ignore_errors=True)


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of the processes (and the threads in them), in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def postgres_pids(data: str) -> list[int]:
    head = int(Path(data, "postmaster.pid").read_text().split()[0])
    out = [head]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(head):
                    out.append(int(entry))
            except OSError:
                pass
    return out


class Window:
    """What the measured window saw."""

    def __init__(self) -> None:
        self.open = False
        self.moves = 0
        self.latencies: list[float] = []
        self.errors: list[str] = []


async def play(base: str, game: dict[str, Any], stop_at: float, window: Window, tls: ssl.SSLContext,
               every: float = 0.0, phase: float = 0.0) -> None:
    """One game. ``every`` 0: a closed loop, each player moves when the state with the opponent's move reaches
    him; otherwise paced: a move every ``every`` seconds (the first after ``phase``), each sent once the
    opponent's move before it has arrived."""
    ws_base = base.replace("https://", "wss://")
    url = f"{ws_base}/api/games/{game['id']}/ws?moves=new"
    proto = {seat: ["chesslaws", f"chesslaws.token.{game['tokens'][seat]}"] for seat in ("white", "black")}
    async with websockets.connect(url, ssl=tls, subprotocols=proto["white"], max_size=2**22) as white, \
            websockets.connect(url, ssl=tls, subprotocols=proto["black"], max_size=2**22) as black:
        socks = {"white": white, "black": black}
        plies = {"white": 0, "black": 0}  # the moves each socket has seen

        async def seen(seat: str, want: int) -> None:
            while plies[seat] < want:
                msg = json.loads(await asyncio.wait_for(socks[seat].recv(), 20))
                st = msg.get("state") if msg["kind"] in ("state", "ack") else None
                if st is not None:
                    plies[seat] = max(plies[seat], st.get("moves_from", 0) + len(st["moves"]))
                elif msg["kind"] == "error":
                    window.errors.append(msg["error"])
                    raise RuntimeError(msg["error"])

        await seen("white", 0)
        ply, side = 0, "white"
        due = time.monotonic() + phase
        while time.monotonic() < stop_at:
            other = "black" if side == "white" else "white"
            if every:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                due += every
            t0 = time.perf_counter()
            await socks[side].send(json.dumps({"rid": ply, "event": {"type": "move", "move": DANCE[ply % 4]}}))
            await seen(other, ply + 1)
            if window.open:
                window.latencies.append((time.perf_counter() - t0) * 1000)
                window.moves += 1
            ply, side = ply + 1, other


PEER = str(Path(__file__).resolve().parent / "bare_proxied.py")


async def one(pg: Postgres, processes: int, games: int, seconds: float, warmup: float,
              rate: float = 0.0, peer: bool = False) -> dict[str, Any]:
    """One measure: ``processes`` servers (``chesslaws serve``, or the peer ``bare_proxied.py``) behind nginx."""
    name = f"bench_proxy_{'peer_' if peer else ''}{processes}_{os.getpid()}"
    with psycopg.connect(pg.url, autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name}")  # type: ignore[arg-type]
        db.execute(f"CREATE DATABASE {name}")  # type: ignore[arg-type]
    url = pg.url.rsplit("/", 1)[0] + "/" + name
    ports = [free_port() for _ in range(processes)]
    log = open(os.path.join(tempfile.gettempdir(), "chesslaws-bench-proxy.log"), "ab")
    def command(port: int) -> list[str]:
        if peer:
            return [sys.executable, PEER, str(port), url]
        return [sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits", "--host", HOST,
                "--port", str(port), "--db", url, "--forwarded-allow-ips", "127.0.0.1"]

    procs = [subprocess.Popen(command(p), stdout=subprocess.DEVNULL, stderr=log) for p in ports]
    nginx: Nginx | None = None
    try:
        for p, proc in zip(ports, procs):
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"http://{HOST}:{p}/api/languages", timeout=1)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("a server did not start") from None
                    time.sleep(0.1)
        nginx = Nginx(ports)
        tls = ssl.create_default_context()
        tls.check_hostname = False
        tls.verify_mode = ssl.CERT_NONE
        created = []
        async with httpx.AsyncClient(base_url=nginx.base, verify=False, timeout=30) as http:
            for i in range(games):
                r = await http.post("/api/games", json={"white": f"W{i}", "black": f"B{i}", "edition": "1997",
                                                       "mode": "standard", "time_control": "600+5",
                                                       "when_ready": False})
                r.raise_for_status()
                created.append(r.json())
        window = Window()
        t0 = time.monotonic()
        stop_at = t0 + warmup + seconds
        every = games / rate if rate else 0.0  # each game's seconds between two moves, paced
        tasks = [asyncio.ensure_future(play(nginx.base, g, stop_at, window, tls, every, every * i / games))
                 for i, g in enumerate(created)]
        await asyncio.sleep(warmup)
        server_pids = [p.pid for p in procs]
        pg_pids = postgres_pids(pg.data)
        ngx = nginx.pids()
        before = (cpu_seconds(server_pids), cpu_seconds(pg_pids), cpu_seconds(ngx), time.monotonic())
        window.open = True
        await asyncio.sleep(seconds)
        window.open = False
        after = (cpu_seconds(server_pids), cpu_seconds(pg_pids), cpu_seconds(ngx), time.monotonic())
        moves = window.moves
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failed = [repr(r) for r in results if isinstance(r, BaseException)]
        spent = after[3] - before[3]
        return {
            "processes": processes, "games": games, "rate": rate, "seconds": round(spent, 1), "moves": moves,
            "moves_per_second": round(moves / spent, 1),
            "latency_ms": {"p50": round(pct(window.latencies, 50), 2), "p99": round(pct(window.latencies, 99), 2)},
            "server_cpu_ms_per_move": round((after[0] - before[0]) * 1000 / max(moves, 1), 3),
            "postgres_cpu_ms_per_move": round((after[1] - before[1]) * 1000 / max(moves, 1), 3),
            "nginx_cpu_ms_per_move": round((after[2] - before[2]) * 1000 / max(moves, 1), 3),
            "load": open("/proc/loadavg").read().split()[:3], "failed_games": failed[:3],
            "errors": window.errors[:3],
        }
    finally:
        if nginx is not None:
            nginx.stop()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def run(counts: list[int], games: int, seconds: float, warmup: float, rate: float, rounds: int,
              peer: bool) -> list[dict[str, Any]]:
    """Every measure, interleaved: each round runs every number of processes, chesslaws then its peer, so that
    a change of the machine's load falls on all of them alike."""
    pg = Postgres()
    pg.start()
    try:
        out = []
        for k in range(rounds):
            for n in counts:
                for who in ((False, True) if peer else (False,)):
                    r = await one(pg, n, games, seconds, warmup, rate, who)
                    r["server"], r["round"] = ("peer" if who else "chesslaws"), k + 1
                    print(f"  round {k + 1}: {r['server']:>9} {n} process(es): {r['server_cpu_ms_per_move']} ms "
                          f"a move, {r['moves_per_second']} moves/s, load {' '.join(r['load'])}", file=sys.stderr)
                    out.append(r)
        return out
    finally:
        pg.remove()


def median(values: list[float]) -> float:
    values = sorted(values)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="concurrent games (1..1000)")
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each measured window (5..300)")
    ap.add_argument("--warmup", type=float, default=4.0, help="seconds played before each window (1..60)")
    ap.add_argument("--processes", default="1,2,3", help="the numbers of processes (each 1..3; the first is the base)")
    ap.add_argument("--rate", type=float, default=400.0,
                    help="moves a second offered by all games together, each game paced alike (0: a closed loop)")
    ap.add_argument("--rounds", type=int, default=3, help="measures of each number of processes, interleaved (1..9)")
    ap.add_argument("--no-peer", action="store_true", help="skip the peer (bench/bare_proxied.py)")
    args = ap.parse_args()
    counts = list(dict.fromkeys(max(1, min(int(n), 3)) for n in args.processes.split(",")))
    results = asyncio.run(run(counts, max(1, min(args.games, 1000)), max(5.0, min(args.seconds, 300.0)),
                              max(1.0, min(args.warmup, 60.0)), max(0.0, args.rate), max(1, min(args.rounds, 9)),
                              not args.no_peer))
    print(f"behind nginx (deploy/nginx.conf), PostgreSQL; {args.games} games, "
          + (f"{args.rate:g} moves/s offered" if args.rate else "closed loop")
          + f"; medians of {args.rounds} interleaved measures (min-max)")
    for server in ("chesslaws", "peer"):
        mine = [r for r in results if r["server"] == server]
        if not mine:
            continue
        print("chesslaws serve" if server == "chesslaws" else "peer: bench/bare_proxied.py (store and relay only)")
        print("  procs  moves/s  p50 ms  p99 ms  server CPU/move (min-max)        ratio  postgres  nginx")
        base = median([r["server_cpu_ms_per_move"] for r in mine if r["processes"] == counts[0]])
        for n in counts:
            rs = [r for r in mine if r["processes"] == n]
            cpu = [r["server_cpu_ms_per_move"] for r in rs]
            print(f"  {n:>5}  {median([r['moves_per_second'] for r in rs]):>7.1f}  "
                  f"{median([r['latency_ms']['p50'] for r in rs]):>6.2f}  "
                  f"{median([r['latency_ms']['p99'] for r in rs]):>6.2f}  "
                  f"{median(cpu):>8.3f} ms ({min(cpu):.3f}-{max(cpu):.3f})  {median(cpu) / base:>10.2f}  "
                  f"{median([r['postgres_cpu_ms_per_move'] for r in rs]):>5.3f} ms  "
                  f"{median([r['nginx_cpu_ms_per_move'] for r in rs]):>5.3f} ms")
            for r in rs:
                for what in ("failed_games", "errors"):
                    if r[what]:
                        print(f"         {what}: {r[what]}")
    loads = [float(r["load"][0]) for r in results]
    print(f"load average (1 min) during the measures: {min(loads):.2f}-{max(loads):.2f}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()

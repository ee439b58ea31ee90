"""Ten thousand WebSockets on one ``chesslaws serve`` process (a benchmark, not a test).

Starts ``chesslaws serve`` (SQLite, WAL, synchronous=FULL) on a free loopback port, then, from this
process (a separate client process, its open-files limit raised), opens SOCKETS WebSockets:

- the two players of each of GAMES games that play;
- VIEWERS spectators of each of those games (``?moves=new``, as the game page asks), of which the
  share SLOW read late: a small receive buffer, and they read what waits for them only every
  SLOW_EVERY seconds (a phone on a bad line); at the end each must have its game's last move;
- the rest: idle spectators of games that do not move (20 a game), which cost memory only.

Then every game moves at its own pace so that all together make RATE moves a second, for SECONDS
seconds (each player sends his move on his own socket; the next move of a game waits for the
acknowledgement of the last one, so a server that cannot keep up shows a lower rate, not a queue
in the client). Reported:

- move latency: the move sent by the player -> the opponent's socket has the state with that move
  (p50/p95/p99), and the acknowledgement's round trip;
- the achieved move rate;
- memory per socket: the server's RSS after all sockets are open minus before any was, divided by the
  sockets (the games were created before: their memory is not in it);
- the server's CPU per move (user + system, from /proc), and the load average (``uptime``).

The same run then measures the peer, ``bench/bare_server.py`` (the same framework, uvicorn and
FastAPI, and the same store with the same group commit; no arbiter, clock or state: each move is one
row, acknowledged, relayed to the opponent and to the game's spectators, a spectator that reads late
skipped), with the same sockets, games and pace, and prints chesslaws' ratios to it.

Usage:
    python bench/bench_sockets.py [--sockets 10000] [--rate 1000] [--games 1000] [--viewers 2]
                                  [--slow 0.1] [--seconds 30] [--no-bare]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

try:
    import orjson

    loads: Any = orjson.loads
except ImportError:  # pragma: no cover - orjson is a dependency of the server
    loads = json.loads

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_server import HOST, cpu_s, pct, random_games, rss_kib, started  # noqa: E402

IDLE_PER_GAME = 20  # idle spectators per game that does not move
CONNECTING = 200  # handshakes in flight at once


@dataclass(eq=False)
class Board:
    """One game that plays, as the load generator sees it."""

    index: int
    line: list[str]
    urls: dict[str, str]  # white, black
    viewer_url: str
    socks: dict[str, ClientConnection] = field(default_factory=dict)
    acked: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    sent_at: dict[int, float] = field(default_factory=dict)  # ply -> when its move was sent
    played: int = 0


def rows_of(msg: dict[str, Any], bare: bool) -> int | None:
    """The last ply a message carries (a chesslaws state: its last move's; the bare relay: its row)."""
    if bare:
        return int(msg["seq"]) if msg.get("kind") == "state" else None
    state = msg.get("state")
    if not isinstance(state, dict):
        return None
    moves = state.get("moves") or []
    return int(moves[-1]["ply"]) if moves else None


async def connect(url: str, slow: bool = False) -> ClientConnection:
    if not slow:
        return await websockets.connect(url, max_size=2**22, ping_interval=None, compression=None, proxy=None,
                                        open_timeout=120)
    # A reader that reads late: a small receive buffer, and the client keeps one message at most
    # before it stops reading its socket, so that what it does not read waits on the server's side.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    return await websockets.connect(url, sock=sock, max_size=2**22, max_queue=1, ping_interval=None,
                                    compression=None, proxy=None, open_timeout=120)


class Load:
    def __init__(self, base: str, pid: int, bare: bool, args: argparse.Namespace,
                 lines: list[list[str]]) -> None:
        self.base, self.pid, self.bare, self.args, self.lines = base, pid, bare, args, lines
        self.ws_base = base.replace("http://", "ws://")
        self.boards: list[Board] = []
        self.others: list[ClientConnection] = []  # spectators (watching and idle)
        self.slow: list[tuple[Board, ClientConnection]] = []
        self.latency: list[float] = []
        self.ack_latency: list[float] = []
        self.errors: list[str] = []
        self.rss_sockets = (0, 0)
        self.last_seen: dict[ClientConnection, int] = {}
        self.opened = 0

    async def create(self) -> tuple[list[tuple[str, dict[str, str]]], list[str]]:
        """The games: those that play (ids and tokens) and the idle ones (ids)."""
        a = self.args
        if self.bare:
            return [(f"{i}", {}) for i in range(a.games)], [f"idle{j}" for j in range(a.idle_games)]
        out: list[tuple[str, dict[str, str]]] = []
        sem = asyncio.Semaphore(16)
        async with httpx.AsyncClient(base_url=self.base, timeout=120) as http:
            async def one(i: int) -> tuple[str, dict[str, str]]:
                async with sem:
                    r = await http.post("/api/games", json={
                        "white": f"W{i}", "black": f"B{i}", "edition": "1997", "time_control": "40/5400+30:1800+30",
                        "when_ready": False})
                    r.raise_for_status()
                    body = r.json()
                    return str(body["id"]), dict(body["tokens"])
            out = await asyncio.gather(*(one(i) for i in range(a.games + a.idle_games)))
        return out[:a.games], [gid for gid, _ in out[a.games:]]

    def urls(self, gid: str, tokens: dict[str, str]) -> tuple[dict[str, str], str]:
        if self.bare:
            return ({s: f"{self.ws_base}/ws?game={gid}&side={s}" for s in ("white", "black")},
                    f"{self.ws_base}/ws?game={gid}&side=viewer")
        ws = f"{self.ws_base}/api/games/{gid}/ws"
        return ({s: f"{ws}?token={tokens[s]}&moves=new" for s in ("white", "black")}, f"{ws}?moves=new")

    async def open_all(self) -> float:
        """Opens every socket; returns the seconds it took."""
        a = self.args
        games, idle = await self.create()
        for i, (gid, tokens) in enumerate(games):
            players, viewer = self.urls(gid, tokens)
            self.boards.append(Board(i, self.lines[i], players, viewer))
        jobs: list[Any] = []
        rng = random.Random(27)
        for b in self.boards:
            for side in ("white", "black"):
                jobs.append(("player", b, side))
            for _ in range(a.viewers):
                jobs.append(("slow" if rng.random() < a.slow else "viewer", b, None))
        idle_urls = [self.urls(gid, {"white": "", "black": ""})[1] for gid in idle]
        left = a.sockets - len(jobs)
        for k in range(max(0, left)):
            jobs.append(("idle", idle_urls[k % len(idle_urls)], None))
        rss0 = rss_kib(self.pid)
        sem = asyncio.Semaphore(CONNECTING)
        t0 = time.monotonic()

        async def open_one(job: tuple[str, Any, Any]) -> None:
            kind, b, side = job
            async with sem:
                if kind == "player":
                    ws = await connect(b.urls[side])
                    b.socks[side] = ws
                    asyncio.ensure_future(self.player(b, side, ws))
                elif kind == "idle":
                    ws = await connect(b)
                    self.others.append(ws)
                    asyncio.ensure_future(self.drain(ws))
                else:
                    ws = await connect(b.viewer_url, slow=kind == "slow")
                    self.others.append(ws)
                    if kind == "slow":
                        self.slow.append((b, ws))
                        asyncio.ensure_future(self.late_reader(b, ws))
                    else:
                        asyncio.ensure_future(self.drain(ws))

        await asyncio.gather(*(open_one(j) for j in jobs))
        took = time.monotonic() - t0
        await asyncio.sleep(2.0)  # the last states are written; the server settles
        self.rss_sockets = (rss0, rss_kib(self.pid))
        self.opened = len(jobs)
        return took

    async def late_reader(self, b: Board, ws: ClientConnection) -> None:
        """A spectator that reads late: every SLOW_EVERY seconds, whatever waits for it."""
        try:
            while True:
                await asyncio.sleep(self.args.slow_every)
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 0.05)
                    except asyncio.TimeoutError:
                        break
                    ply = rows_of(loads(raw), self.bare)
                    if ply is not None:
                        self.last_seen[ws] = max(ply, self.last_seen.get(ws, 0))
        except websockets.ConnectionClosed:
            pass

    async def drain(self, ws: ClientConnection) -> None:
        """A spectator that keeps up: reads every message, parses none."""
        try:
            async for _ in ws:
                pass
        except websockets.ConnectionClosed:
            pass

    async def player(self, b: Board, side: str, ws: ClientConnection) -> None:
        """A player's socket: acknowledgements of its own moves, and the opponent's moves as they come."""
        try:
            async for raw in ws:
                msg = loads(raw)
                kind = msg.get("kind")
                if kind in ("ack", "error"):
                    fut = b.acked.pop(msg.get("rid"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
                    continue
                ply = rows_of(msg, self.bare)
                if ply is not None and (ply % 2 == 1) == (side == "black"):  # the opponent's move (ply 1: White's)
                    sent = b.sent_at.pop(ply, None)
                    if sent is not None:
                        self.latency.append((time.perf_counter() - sent) * 1000)
        except websockets.ConnectionClosed:
            pass

    async def play(self, b: Board, start: float, stop: float) -> None:
        every = self.args.games / self.args.rate  # seconds between two moves of one game
        at = start + random.random() * every
        loop = asyncio.get_running_loop()
        while b.played < len(b.line):
            delay = at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if time.monotonic() >= stop:
                return
            n = b.played
            side = "white" if n % 2 == 0 else "black"
            fut: asyncio.Future[dict[str, Any]] = loop.create_future()
            b.acked[n] = fut
            t0 = time.perf_counter()
            b.sent_at[n + 1] = t0  # the move's ply; the bare relay's row number likewise
            await b.socks[side].send(json.dumps({"rid": n, "event": {"type": "move", "move": b.line[n]}}))
            reply = await fut
            self.ack_latency.append((time.perf_counter() - t0) * 1000)
            if reply.get("kind") != "ack":
                self.errors.append(str(reply.get("error")))
                return
            b.played += 1
            at = max(at + every, time.monotonic() - every)  # behind: no burst to catch up

    async def run(self) -> dict[str, Any]:
        a = self.args
        took = await self.open_all()
        t0 = time.monotonic()
        c0 = cpu_s(self.pid)
        own0 = time.process_time()
        load0 = os.getloadavg()
        await asyncio.gather(*(self.play(b, t0, t0 + a.seconds) for b in self.boards))
        elapsed = time.monotonic() - t0
        cpu = cpu_s(self.pid) - c0
        own = time.process_time() - own0
        rss_end = rss_kib(self.pid)
        moves = sum(b.played for b in self.boards)
        # The late readers read once more: each must have its game's last move (whatever was skipped).
        await asyncio.sleep(self.args.slow_every + 1.0)
        caught = sum(self.last_seen.get(ws, 0) >= b.played for b, ws in self.slow)
        for ws in [*self.others, *(s for b in self.boards for s in b.socks.values())]:
            ws.transport.abort()
        rss0, rss1 = self.rss_sockets
        return {
            "server": "bare" if self.bare else "chesslaws",
            "sockets": self.opened,
            "connect_s": round(took, 1),
            "seconds": round(elapsed, 2),
            "moves": moves,
            # Moves sent within the timed phase, over its length (the last ones are acknowledged just after it).
            "moves_per_second": round(moves / a.seconds, 1),
            "latency_ms": {p: round(pct(self.latency, q), 1) for p, q in (("p50", 50), ("p95", 95), ("p99", 99))}
                          | {"max": round(max(self.latency, default=float("nan")), 1), "n": len(self.latency)},
            "ack_ms": {p: round(pct(self.ack_latency, q), 1) for p, q in (("p50", 50), ("p99", 99))},
            "server_cpu_us_per_move": round(cpu / max(1, moves) * 1e6, 1),
            "server_cpu_share": round(cpu / elapsed, 2),
            "client_cpu_share": round(own / elapsed, 2),
            "rss_kib": {"before_sockets": rss0, "with_sockets": rss1, "end": rss_end},
            "kib_per_socket": round((rss1 - rss0) / max(1, self.opened), 1),
            "slow_readers": len(self.slow),
            "slow_caught_up": caught,
            "load_before": [round(x, 2) for x in load0],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "errors": self.errors[:5],
        }


def measure(cmd: list[str], bare: bool, args: argparse.Namespace, lines: list[list[str]]) -> dict[str, Any]:
    with started(cmd, stop_within=20.0) as (base, pid):
        return asyncio.run(Load(base, pid, bare, args, lines).run())


def show(r: dict[str, Any]) -> None:
    lat, ack, rss = r["latency_ms"], r["ack_ms"], r["rss_kib"]
    print(f"  {r['server']}: {r['sockets']} sockets open in {r['connect_s']} s; {r['moves']} moves in {r['seconds']} s "
          f"= {r['moves_per_second']} moves/s")
    print(f"    move -> opponent (ms)  p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {lat['max']}  "
          f"({lat['n']} moves)   acknowledgement p50 {ack['p50']}  p99 {ack['p99']}")
    print(f"    memory per socket      {r['kib_per_socket']} KiB  (RSS {rss['before_sockets']} -> {rss['with_sockets']} "
          f"KiB with the sockets, {rss['end']} KiB at the end)")
    print(f"    server CPU per move    {r['server_cpu_us_per_move']} us  (the server used {r['server_cpu_share']} of a "
          f"core, this client {r['client_cpu_share']})")
    print(f"    late readers           {r['slow_caught_up']} of {r['slow_readers']} had their game's last move when "
          f"they read at the end")
    print(f"    load average           {r['load_before']} before, {r['load_after']} after")
    if r["errors"]:
        print(f"    errors                 {r['errors']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sockets", type=int, default=10_000, help="WebSockets in all")
    ap.add_argument("--rate", type=float, default=1000.0, help="moves per second, all games together")
    ap.add_argument("--games", type=int, default=1000, help="games that play (two players each)")
    ap.add_argument("--viewers", type=int, default=2, help="spectators of each game that plays")
    ap.add_argument("--slow", type=float, default=0.1, help="share of those spectators that read late")
    ap.add_argument("--slow-every", type=float, default=5.0, help="seconds between two readings of a late reader")
    ap.add_argument("--seconds", type=float, default=30.0, help="length of the timed phase")
    ap.add_argument("--db", default=None, help="SQLite path (default: a temporary file)")
    ap.add_argument("--no-bare", action="store_true", help="skip the peer (bench/bare_server.py)")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.sockets + 1000
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < need:
        raise SystemExit(f"this process may open {hard} files at most; {need} are needed (ulimit -Hn)")
    busy = 2 * args.games + args.games * args.viewers
    args.idle_games = max(1, -(-(args.sockets - busy) // IDLE_PER_GAME))
    plies = int(args.rate / args.games * args.seconds) + 10
    lines = random_games(args.games, min(600, plies))
    tmp = tempfile.mkdtemp(prefix="chesslaws-bench-sockets-")
    db = args.db or os.path.join(tmp, "sockets.sqlite3")
    print(f"{args.sockets} WebSockets: {args.games} games playing ({2 * args.games} players, {args.games * args.viewers} "
          f"spectators, {round(args.slow * 100)}% of them reading late), the rest idle spectators of "
          f"{args.idle_games} games; {args.rate:g} moves/s for {args.seconds:g} s; SQLite (WAL, synchronous=FULL)")
    ours = measure([sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits", "--host", HOST, "--db", db],
                   False, args, lines)
    show(ours)
    result: dict[str, Any] = {"chesslaws": ours}
    if not args.no_bare:
        here = os.path.dirname(os.path.abspath(__file__))
        bare = measure([sys.executable, os.path.join(here, "bare_server.py"), "{port}", os.path.join(tmp, "bare.sqlite3")],
                       True, args, lines)
        show(bare)
        result["bare"] = bare
        ratio = {
            "p99": round(bare["latency_ms"]["p99"] / ours["latency_ms"]["p99"], 3),
            "p50": round(bare["latency_ms"]["p50"] / ours["latency_ms"]["p50"], 3),
            "cpu": round(bare["server_cpu_us_per_move"] / ours["server_cpu_us_per_move"], 3),
            "memory": round(bare["kib_per_socket"] / ours["kib_per_socket"], 3) if ours["kib_per_socket"] else None,
        }
        result["ratio_to_bare"] = ratio
        print(f"  chesslaws serve against the bare relay (bench/bare_server.py, same run): p99 latency {ratio['p99']}x, "
              f"p50 {ratio['p50']}x, CPU per move {ratio['cpu']}x, memory per socket {ratio['memory']}x "
              "(1 = as cheap as the relay)")
    p99 = ours["latency_ms"]["p99"]
    met = p99 < 100 and ours["moves_per_second"] >= 0.95 * args.rate and ours["sockets"] >= args.sockets
    print(f"  target (p99 < 100 ms at {args.rate:g} moves/s with {args.sockets} sockets): {'met' if met else 'NOT met'}")
    print(f"  uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

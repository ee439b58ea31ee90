"""Load benchmark of ``chesslaws serve`` (not a test): many concurrent games over WebSockets.

Starts the server as a subprocess on a free loopback port (127.0.0.1 only),
creates GAMES games, connects both players of each over WebSockets, and has
every game play moves as fast as the acknowledgements come back, for at most
SECONDS seconds. Each move is a real event: stamped, checked by the arbiter,
committed to the database (SQLite with synchronous=FULL by default), then
acknowledged and broadcast to both players.

Reports:
- moves per second (acknowledged events over the timed phase, all games together);
- round-trip latency (send -> acknowledgement) percentiles p50 / p95 / p99;
- memory per live game: the server's RSS after the games are created and
  connected and have played, minus its RSS before, divided by GAMES (this
  includes each game's two WebSockets and what the allocator keeps);
- memory per live game by tracemalloc, in this process (cheap, exact, no
  sockets): a Hub over a temporary SQLite store loads GAMES' logs of the
  plies the games played on average (half of at most 100 games live first,
  the other half measured), builds each one's
  view and a viewer asking for new moves, and what it then holds is divided
  by the games; the arbiter's Game alone likewise.

With --bare, the arbiter alone: ``Game.apply`` on the same moves in this process (the 1997 Laws and the
same clock), by CPU a move, and its dead-position search; a server that does both the arbiter's work
and the relay's reaches at most relay / (relay + arbiter) of a move's limit, whatever its view and
plumbing cost.

Memory per live game (tracemalloc, in-process part of this bench on its
random games; the same measure is held by tests/test_memory.py and
tests/server/test_memory_live.py), for three ways of holding a game: objects per event and move, shared
letters, the packed history:

    plies   live game in the Hub             the Game alone
    146     199.6 -> 85.2 -> 18.8 KiB        122.2 -> 59.1 -> 8.2 KiB
    200     273.0 -> 116.2 -> 26.1 KiB       165.7 -> 79.3 -> 9.7 KiB

The second shares the letters of moves and keeps no dictionary per move; the third packs the
history (chesslaws._packed): the log, the moves and the repetition keys (Zobrist) are a few words an
entry in append-only buffers that successive immutable states share (each holds a length), events
and move records are built when read, and the view keeps a FEN every 32 moves instead of one per
move. Of the 26.1 KiB at 200 plies, the history is about 6.4 KiB; the rest is fixed per game (the
state, the view's caches of legal moves and controls, the viewer's queue, the live game's fields).

Usage:
    python bench/bench_server.py [--games 200] [--seconds 20] [--think 0] [--db PATH_OR_URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import websockets

HOST = "127.0.0.1"  # loopback only
# 1997 Laws, classical control: no automatic end by repetition, so the knights can dance for ever.
DANCE = ["g1f3", "g8f6", "f3g1", "f6g8"]

# The beginnings of an answer (an acknowledgement or an error), whatever the JSON's spacing.
ANSWERS = ('{"kind":"ack"', '{"kind":"error"')


def random_games(n: int, plies: int, seed: int = 15) -> list[list[str]]:
    """``n`` random legal games of up to ``plies`` moves each (UCI), none ending by itself: every
    position is a new one for the arbiter (captures, promotions, checks), as in real play, rather than
    the four positions of the knights' dance. Built with python-chess before the timed phase."""
    import chess  # the peer, here only to make the moves

    rng = random.Random(seed)
    out = []
    for _ in range(n):
        board, line = chess.Board(), []
        while len(line) < plies:
            moves = list(board.legal_moves)
            rng.shuffle(moves)
            for m in moves:
                board.push(m)
                if not board.is_game_over():
                    line.append(m.uci())
                    break
                board.pop()
            else:
                break
        out.append(line)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_s(pid: int) -> float:
    """The process's CPU time so far (user + system), in seconds."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


class Seat:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                # The load generator reads acknowledgements only: parsing every state would spend the CPU
                # the server needs on this 2-core machine (a browser parses them on its own machine).
                if not raw[:16].replace(" ", "").startswith(ANSWERS):
                    continue
                msg = json.loads(raw)
                if msg.get("kind") in ("ack", "error"):
                    fut = self.waiting.pop(msg.get("rid"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
        except websockets.ConnectionClosed:
            pass

    async def send(self, rid: int, event: dict[str, Any]) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        await self.ws.send(json.dumps({"rid": rid, "event": event}))
        return await fut


async def play(seats: dict[str, Seat], stop_at: float, latencies: list[float], errors: list[str],
               think: float, line: list[str] | None) -> int:
    n = 0
    if think:
        await asyncio.sleep(random.uniform(0, think))  # spread the games' moves
    while time.monotonic() < stop_at:
        if think:
            await asyncio.sleep(think)
        side = "white" if n % 2 == 0 else "black"
        if line is not None and n >= len(line):
            break  # this game's moves are all played
        move = DANCE[n % 4] if line is None else line[n]
        t0 = time.perf_counter()
        reply = await seats[side].send(n, {"type": "move", "move": move})
        latencies.append((time.perf_counter() - t0) * 1000)
        if reply["kind"] != "ack":
            errors.append(reply.get("error", "?"))
            break
        n += 1
    return n


async def run(games: int, seconds: float, base: str, pid: int, think: float = 0.0,
              bare: bool = False, full_moves: bool = False, relay: bool = False,
              lines: list[list[str]] | None = None) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://")
    rss0 = rss_kib(pid)
    created = []
    if not bare:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for i in range(games):
                r = await http.post("/api/games", json={"white": f"W{i}", "black": f"B{i}", "edition": "1997",
                                                       "time_control": "40/5400+30:1800+30",
                                                       "when_ready": False})
                r.raise_for_status()
                created.append(r.json())
    conns: list[dict[str, Seat]] = []
    for i in range(games):
        seats = {}
        for side in ("white", "black"):
            url = ((f"{ws_base}/ws?game={i}&side={side}" if relay else f"{ws_base}/ws") if bare else
                   f"{ws_base}/api/games/{created[i]['id']}/ws?token={created[i]['tokens'][side]}"
                   f"{'' if full_moves else '&moves=new'}")
            seats[side] = Seat(await websockets.connect(url, max_size=2**20))
        conns.append(seats)
    await asyncio.sleep(0.5)
    latencies: list[float] = []
    errors: list[str] = []
    t0 = time.monotonic()
    c0 = cpu_s(pid)
    own0 = time.process_time()
    counts = await asyncio.gather(*(play(s, t0 + seconds, latencies, errors, think,
                                         None if lines is None else lines[i]) for i, s in enumerate(conns)))
    elapsed = time.monotonic() - t0
    cpu = cpu_s(pid) - c0
    own = time.process_time() - own0
    rss1 = rss_kib(pid)
    for seats in conns:
        for seat in seats.values():
            await seat.ws.close()
            seat.reader.cancel()
    total = sum(counts)
    return {
        "games": games,
        "think_s": think,
        "seconds": round(elapsed, 2),
        "moves": total,
        "moves_per_second": round(total / elapsed, 1),
        # The server's own CPU time per acknowledged message: what a busy machine changes least.
        "server_cpu_us_per_move": round(cpu / max(1, total) * 1e6, 1),
        # The load generator's own CPU per message: on a 2-core machine, when it nears a whole core the
        # rate says more about the generator than about the server (compare the CPU per move then).
        "client_cpu_us_per_move": round(own / max(1, total) * 1e6, 1),
        "server_cpu_share": round(cpu / elapsed, 2),
        "client_cpu_share": round(own / elapsed, 2),
        "latency_ms": {"p50": round(pct(latencies, 50), 2), "p95": round(pct(latencies, 95), 2),
                       "p99": round(pct(latencies, 99), 2), "mean": round(statistics.fmean(latencies), 2)},
        "rss_before_kib": rss0,
        "rss_after_kib": rss1,
        "kib_per_game": round((rss1 - rss0) / games, 1),
        "errors": errors[:5],
    }


@contextlib.contextmanager
def started(cmd: list[str], stop_within: float = 10.0) -> Iterator[tuple[str, int]]:
    """The server ``cmd`` running on a free loopback port ("{port}" in cmd, or --port added): its base URL
    and its process id, until the block ends (then it is stopped)."""
    port = free_port()
    cmd = [c.replace("{port}", str(port)) for c in cmd] if "{port}" in cmd else [*cmd, "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection((HOST, port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.05)
        yield f"http://{HOST}:{port}", proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(stop_within)
        except subprocess.TimeoutExpired:
            proc.kill()


def measure(cmd: list[str], games: int, seconds: float, think: float, *, bare: bool, relay: bool = False,
            full_moves: bool = False, lines: list[list[str]] | None = None) -> dict[str, Any]:
    """Starts the server ``cmd`` on a free loopback port ("{port}" in cmd, or --port added) and runs."""
    with started(cmd) as (base, pid):
        return asyncio.run(run(games, seconds, base, pid, think, bare, full_moves, relay, lines))


def game_log(line: list[str]) -> list[dict[str, Any]]:
    """The log of a game that plays ``line`` (UCI): its start (1997 Laws, the bench's time control) and a
    move event a move, 1.237 s apart."""
    events: list[dict[str, Any]] = [{"type": "start", "t": 0, "edition": "1997",
                                     "time_control": "40/5400+30:1800+30", "white": "W", "black": "B"}]
    for i, move in enumerate(line):
        events.append({"type": "move", "t": round(1 + i * 1.237, 3), "by": "white" if i % 2 == 0 else "black",
                       "move": move})
    return events


def traced_kib_per_game(lines: list[list[str]], plies: int) -> dict[str, Any]:
    """What a live game holds in the server, measured with tracemalloc in this process (see the
    module's docstring): KiB per game in a Hub (game, view caches, one viewer) and for the Game alone."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from memprobe import load_live, retained  # the measure of the memory tests (tests/memprobe.py)

    from chesslaws.game import Game
    from chesslaws.server.guard import UNLIMITED
    from chesslaws.server.hub import Hub
    from chesslaws.store.games import open_store

    logs = [game_log(line[:plies]) for line in lines]
    texts = ["\n".join(json.dumps(e) for e in events) for events in logs]
    tmp = tempfile.mkdtemp(prefix="chesslaws-bench-mem-")
    hub = Hub(open_store(os.path.join(tmp, "mem.sqlite3")), UNLIMITED)

    def load(i: int, text: str) -> None:
        load_live(hub, f"g{i}", [json.loads(x) for x in text.splitlines()])

    def traced(build: Any) -> int:
        size, kept = retained(build)
        del kept
        return size

    half = len(texts) // 2  # the first half live already (the letters of common moves are shared)
    for i, text in enumerate(texts[:half]):
        load(i, text)
    def load_measured() -> None:
        for i, text in enumerate(texts[half:], start=half):
            load(i, text)

    hub_bytes = traced(load_measured)
    game_bytes = traced(lambda: [Game.from_events(json.loads(x) for x in text.splitlines()) for text in texts[half:]])
    played = sum(len(hub.games[f"g{i}"].game.state.moves) for i in range(half, len(texts)))
    hub.store.close()
    n = len(texts) - half
    return {"games": n, "plies": round(played / n, 1), "hub_kib_per_game": round(hub_bytes / n / 1024, 1),
            "game_kib_per_game": round(game_bytes / n / 1024, 1)}


def arbiter_cpu_per_move(lines: list[list[str]]) -> dict[str, Any]:
    """What the arbiter alone costs a move, by CPU in this process: ``Game.apply`` on the same random games
    the server played (1997 Laws, the same time control, a move event each), and the part of it spent in the
    dead-position search (Article 9.6, native: the calls ``Game.apply`` makes, timed as it makes them). The
    server does this for every move, plus all that the relay does; so ``relay / (relay + arbiter)`` bounds the
    share of a move's limit that any server on this arbiter can reach."""
    from chesslaws import dead
    from chesslaws.game import Game

    searched = [0.0, 0]
    plain = dead.is_dead

    def timed(position: Any, **kw: Any) -> Any:
        t = time.process_time()
        try:
            return plain(position, **kw)
        finally:
            searched[0] += time.process_time() - t
            searched[1] += 1

    moves = 0
    dead.is_dead = timed  # type: ignore[assignment]
    try:
        t0 = time.process_time()
        for line in lines:
            start, *events = game_log(line)
            g = Game.from_events([start])
            for event in events:
                g = g.apply(event)
            moves += len(events)
        total = time.process_time() - t0
    finally:
        dead.is_dead = plain  # type: ignore[assignment]
    return {"moves": moves, "apply_us_per_move": round(total / max(1, moves) * 1e6, 1),
            "dead_search_us_per_move": round(searched[0] / max(1, moves) * 1e6, 1), "dead_searches": searched[1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="concurrent games (1..2000)")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the timed phase (at most 120)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds each player waits before each move (0: as fast as the server answers)")
    ap.add_argument("--db", default=None, help="SQLite path or postgresql:// URL (default: a temporary SQLite file)")
    ap.add_argument("--bare", action="store_true",
                    help="also measure the physical limit in the same run (bench/bare_server.py: the same "
                         "framework and SQLite store, one row appended a message; then the same with each row also "
                         "sent to the opponent's socket, the least a move needs) and print the shares of both")
    ap.add_argument("--full-moves", action="store_true",
                    help="players ask for every move in every state (as clients before moves=new did); "
                         "by default they ask for the new moves only, as the game page does")
    ap.add_argument("--moves", choices=("random", "dance"), default="random",
                    help="random: each game plays its own random legal game (every position new, as in real "
                         "play; the default); dance: the knights go back and forth (four positions)")
    args = ap.parse_args()
    games = max(1, min(args.games, 2000))
    seconds = max(1.0, min(args.seconds, 120.0))
    tmp = tempfile.mkdtemp(prefix="chesslaws-bench-")
    db = args.db or os.path.join(tmp, "bench.sqlite3")
    think = max(0.0, min(args.think, 60.0))
    lines = random_games(games, 600) if args.moves == "random" else None
    result = measure([sys.executable, "-m", "chesslaws.cli", "serve", "--no-rate-limits", "--host", HOST,
                      "--db", db], games, seconds, think, bare=False, full_moves=args.full_moves,
                     lines=lines)
    if args.bare:  # the physical limit, in the same run: the same framework and store, one row a message
        here = os.path.dirname(os.path.abspath(__file__))
        limit = measure([sys.executable, os.path.join(here, "bare_server.py"), "{port}",
                         os.path.join(tmp, "bare.sqlite3")], games, seconds, think, bare=True, lines=lines)
        result["bare"] = limit
        result["share_of_limit"] = round(result["moves_per_second"] / limit["moves_per_second"], 3)
        result["cpu_share_of_limit"] = round(limit["server_cpu_us_per_move"] / result["server_cpu_us_per_move"], 3)
        # The least a move needs on the same framework and store: the row also told to the opponent.
        relay = measure([sys.executable, os.path.join(here, "bare_server.py"), "{port}",
                         os.path.join(tmp, "relay.sqlite3")], games, seconds, think, bare=True, relay=True,
                        lines=lines)
        result["relay"] = relay
        result["share_of_relay"] = round(result["moves_per_second"] / relay["moves_per_second"], 3)
        result["cpu_share_of_relay"] = round(relay["server_cpu_us_per_move"] / result["server_cpu_us_per_move"], 3)
    plies = max(1, round(result["moves"] / games))  # the plies the games reached on average
    if args.bare and lines is not None:  # the arbiter alone on the moves the games played
        arb = result["arbiter"] = arbiter_cpu_per_move([line[:plies] for line in lines[:100]])
        r = result["relay"]["server_cpu_us_per_move"]
        result["arbiter_bound_of_relay"] = round(r / (r + arb["apply_us_per_move"]), 3)
    if lines is not None:  # the same random games, at the plies they reached on average
        result["traced"] = traced_kib_per_game(lines[:100], plies)  # half of them live first, half measured
    result["db"] = "postgresql" if db.startswith("postgres") else "sqlite (WAL, synchronous=FULL)"
    lat = result["latency_ms"]
    pace = f", {args.think} s per move per game" if args.think else ", closed loop (no think time)"
    pace += ", random games" if lines is not None else ", knights' dance"
    print(f"chesslaws serve: {games} games over WebSockets, {result['seconds']} s{pace}, {result['db']}")
    print(f"  moves acknowledged  {result['moves']}  ({result['moves_per_second']} moves/s)")
    print(f"  server CPU per move {result['server_cpu_us_per_move']} us  (the server used {result['server_cpu_share']} "
          f"of a core; the load generator {result['client_cpu_us_per_move']} us a move, {result['client_cpu_share']})")
    print(f"  round trip (ms)     p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  mean {lat['mean']}")
    print(f"  memory per game     {result['kib_per_game']} KiB by RSS growth / games  (RSS {result['rss_before_kib']} "
          f"-> {result['rss_after_kib']} KiB; two WebSockets a game included)")
    traced = result.get("traced")
    if traced:
        print(f"  memory per game     {traced['hub_kib_per_game']} KiB by tracemalloc (a live game of {traced['plies']} "
              f"plies in the Hub, views built, no sockets; the Game alone {traced['game_kib_per_game']} KiB; "
              f"{traced['games']} games, in this process)")
    if result["errors"]:
        print(f"  errors              {result['errors']}")
    if "bare" in result:
        b = result["bare"]["latency_ms"]
        print(f"  physical limit      {result['bare']['moves_per_second']} rows/s  (p50 {b['p50']}  p95 {b['p95']}  "
              f"p99 {b['p99']} ms): chesslaws serve reaches {result['share_of_limit']}x of it")
        print(f"  limit CPU per row   {result['bare']['server_cpu_us_per_move']} us: by CPU per message chesslaws "
              f"serve reaches {result['cpu_share_of_limit']}x of it (what a busy machine changes least)")
        r = result["relay"]
        print(f"  a move's limit      {r['moves_per_second']} rows/s, {r['server_cpu_us_per_move']} us a row (the row also "
              f"sent to the opponent's socket): chesslaws serve reaches {result['share_of_relay']}x of it by rate, "
              f"{result['cpu_share_of_relay']}x by CPU")
        arb = result.get("arbiter")
        if arb:
            r = result["relay"]["server_cpu_us_per_move"]
            print(f"  the arbiter alone   {arb['apply_us_per_move']} us a move by CPU (Game.apply on the same moves, in this "
                  f"process; the dead-position search {arb['dead_search_us_per_move']} us of it): a server that does it "
                  f"and what the relay does reaches at most {result['arbiter_bound_of_relay']}x of a move's limit; "
                  f"0.6x leaves {round(r / 0.6 - r, 1)} us a move for all that the relay does not do")
    print(f"  load average        {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

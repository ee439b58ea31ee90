"""Attack bench of ``chesslaws serve``: attacks 1-9 here, each against a live server (not a test).

Starts ``chesslaws serve`` with its default limits on a loopback port (127.0.0.1 only; 127.0.0.2 plays a
second client address) over a fresh SQLite file (PostgreSQL for attack 6: a throwaway cluster), and runs,
each on a freshly started server, while two real players play a victim game (1997 Laws, 30 s + 2 s a
move, the knights dancing, a move every half second, so that no flag can fall unless moves are refused):

1. spectator budget: tokenless POSTs ``{"type": "resign"}`` and messages on a spectator socket;
2. claim flood: Black repeats ``claim_flag`` while White is on move (the log's 3,000 rows fill in the
   minutes printed), then the arbiter's event must still be taken;
3. quickplay freeze: 1997 rapid, no arbiter, White plays e4, Black claims a draw ``quickplay``: are the
   clocks still stopped (the game frozen) after the time control has passed?
4. ``?lang=`` memory: distinct ``lang`` values on a game's state;
5. games through tournaments: tournaments created and paired as fast as they are answered (games
   created; held when the tournaments' own per-address limits answer 429 and bound the games), and a
   ``default_time`` of 1e308;
6. tournaments on PostgreSQL after the database restarts (its requests answered 500 afterwards);
7. bad stored rows: six kinds written into the store, then a restart: does the server start?
8. the SQLite lock through a symbolic link: does a second server start on the same file?
9. slowloris: half-open connections from one address, then a request from another: answered? Then
   idle WebSockets from one address (how many accepted), and ``X-Forwarded-For`` from a local peer
   (games created past the per-address limit by naming other addresses).

and attacks 10-16, 20-24, 30-32 and 40-46, from the modules attacks_loop.py, attacks_rules.py,
attacks_pairing.py and attacks_cli.py of this folder (bench/README.md lists them, with their figures).

Prints per attack: requests sent, moves refused to the real players, games lost on time, the server's
RSS growth, its restart time after the attack, and what the attack achieved ("held" when nothing).

Usage:
    cd bench && python3 bench_attack.py [--only 1,2,9,10] [--seconds 20] [--half-open 1100] [--sockets 1000]
                                        [--langs 5000] [--tournaments 60] [--kill-sqlite] (--help: all)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import httpx
import psutil
import websockets

from bench_chaos import Postgres  # this folder: run as python bench/bench_attack.py
from bench_server import free_port

HOST = "127.0.0.1"  # loopback only
OTHER = "127.0.0.2"  # a second client address, on loopback too
DANCE = ["g1f3", "g8f6", "f3g1", "f6g8"]


class Server:
    """``chesslaws serve`` with its default limits (what a real server runs)."""

    def __init__(self, db: str, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.extra = extra
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(os.path.join(tempfile.gettempdir(), "chesslaws-attack-server.log"), "ab")

    def start(self, timeout: float = 120) -> float | None:
        """Starts it; returns the seconds until it answers, or None if it did not start."""
        t0 = time.monotonic()
        self.proc = subprocess.Popen([sys.executable, "-m", "chesslaws.cli", "serve", "--host", HOST,
                                      "--port", str(self.port), "--db", self.db, *self.extra],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                return None
            try:
                if httpx.get(self.base + "/api/languages", timeout=2).status_code == 200:
                    return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        return None

    def rss(self) -> float:
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        return psutil.Process(self.proc.pid).memory_info().rss / 2**20

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@dataclass
class Row:
    attack: str
    requests: int = 0
    refused: int = 0
    lost: int = 0
    rss: float = 0.0
    restart: float | None = 0.0
    achieved: str = "held"
    notes: list[str] = field(default_factory=list)


class Victims:
    """Two real players of one game, moving by HTTP every ``pace`` seconds (the knights dance)."""

    def __init__(self, base: str, pace: float = 0.5, tc: str = "30+2", count: tuple[str, ...] = ("white", "black"),
                 body: dict[str, Any] | None = None) -> None:
        self.base = base
        self.pace = pace
        self.count = count
        payload = {"white": "Real White", "black": "Real Black", "time_control": tc, "edition": "1997",
                   "when_ready": False, **(body or {})}
        r = httpx.post(base + "/api/games", json=payload, timeout=10)
        r.raise_for_status()
        self.game = r.json()
        self.id = self.game["id"]
        self.moves = 0
        self.refused = 0
        self.reasons: dict[int, int] = {}
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> "Victims":
        self.thread.start()
        return self

    def _run(self) -> None:
        i = 0
        with httpx.Client(timeout=10) as c:
            while not self._stop.is_set():
                side = "white" if i % 2 == 0 else "black"
                try:
                    r = c.post(f"{self.base}/api/games/{self.id}/events",
                               json={"type": "move", "move": DANCE[i % 4]},
                               headers={"authorization": f"Bearer {self.game['tokens'][side]}"})
                    status = r.status_code
                    over = status == 409 and "over" in r.text
                except httpx.HTTPError:
                    status, over = 0, False
                if over:
                    return
                if status == 200:
                    i += 1
                    self.moves += 1
                elif side in self.count:
                    self.refused += 1
                    self.reasons[status] = self.reasons.get(status, 0) + 1
                self._stop.wait(self.pace)

    def stop(self) -> tuple[int, int]:
        """Stops; returns (moves refused, games lost on time)."""
        self._stop.set()
        self.thread.join(15)
        st = httpx.get(f"{self.base}/api/games/{self.id}", timeout=10).json()
        lost = int(st.get("termination") == "time_forfeit")
        return self.refused, lost


def run_attack(name: str, db: str, body: Callable[[Server, Row], None], *, extra: tuple[str, ...] = (),
               victims: bool = True) -> Row:
    row = Row(name)
    srv = started_server(row, db, extra)
    if srv is None:
        return row
    rss0 = srv.rss()
    vic = Victims(srv.base).start() if victims else None
    try:
        body(srv, row)
    finally:
        if vic is not None:
            refused, lost = vic.stop()
            row.refused += refused
            row.lost += lost
            if vic.reasons:
                row.notes.append("victims refused: " + ", ".join(f"{k}x{v}" for k, v in sorted(vic.reasons.items())))
        row.rss = srv.rss() - rss0
        srv.stop()
        if row.refused or row.lost:
            hurt = f"{row.refused} real moves refused, {row.lost} games lost on time"
            row.achieved = hurt if row.achieved == "held" else f"{row.achieved}; {hurt}"
    again = Server(db, extra)
    row.restart = again.start()
    again.stop()
    return row


# --- the attacks ---------------------------------------------------------------------------------------


def attack_spectator(seconds: float) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        vic_id = _current_victim(srv)

        async def flood() -> None:
            end = time.monotonic() + seconds
            url = f"ws://{HOST}:{srv.port}/api/games/{vic_id}/ws"
            async with httpx.AsyncClient(timeout=10) as c, websockets.connect(url) as ws:
                while time.monotonic() < end:
                    await c.post(f"{srv.base}/api/games/{vic_id}/events", json={"type": "resign"})
                    await ws.send(json.dumps({"rid": row.requests, "event": {"type": "resign"}}))
                    row.requests += 2
                    await asyncio.sleep(0.05)  # 20 POSTs and 20 socket messages a second

        asyncio.run(flood())
    return body


def _current_victim(srv: Server) -> str:
    """The victim game of the server (the newest game: created just before the attack)."""
    return str(httpx.get(srv.base + "/api/games?limit=1", timeout=10).json()[0]["id"])


def attack_claims(seconds: float) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        g = httpx.post(srv.base + "/api/games", json={"white": "W", "black": "B", "time_control": "600",
                                                      "edition": "1997", "when_ready": False}, timeout=10).json()
        gid, tok = g["id"], g["tokens"]
        logged = 0
        end = time.monotonic() + seconds
        with httpx.Client(timeout=10) as c:
            while time.monotonic() < end:
                r = c.post(f"{srv.base}/api/games/{gid}/events", json={"type": "claim_flag"},
                           headers={"authorization": f"Bearer {tok['black']}"})
                row.requests += 1
                logged += r.status_code == 200
                time.sleep(0.1)  # within the 10-a-second limit of a token
            r = c.post(f"{srv.base}/api/games/{gid}/events", json={"type": "stop_clocks", "reason": "bench"},
                       headers={"authorization": f"Bearer {tok['arbiter']}"})
        row.notes.append(f"claims logged {logged} of {row.requests}; arbiter's event: {r.status_code}")
        if logged > 10:
            per_min = logged / seconds * 60
            row.achieved = f"{logged} claims logged: the 3,000-row log full in {3000 / per_min:.0f} min"
        if r.status_code != 200:
            row.achieved = f"the arbiter's event refused ({r.status_code})"
    return body


def attack_quickplay(wait: float) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        g = httpx.post(srv.base + "/api/games", json={"white": "W", "black": "B", "edition": "1997",
                                                      "time_control": "20", "mode": "rapid", "arbiter": "absent",
                                                      "when_ready": False}, timeout=10).json()
        gid, tok = g["id"], g["tokens"]

        def ev(side: str, event: dict[str, Any]) -> httpx.Response:
            row.requests += 1
            return httpx.post(f"{srv.base}/api/games/{gid}/events", json=event, timeout=10,
                              headers={"authorization": f"Bearer {tok[side]}"})

        ev("white", {"type": "move", "move": "e4"})
        r = ev("black", {"type": "claim_draw", "reason": "quickplay"})
        row.notes.append(f"quickplay claim: {r.status_code}")
        time.sleep(wait)  # longer than the whole time control
        ev("white", {"type": "claim_flag"})
        st = httpx.get(f"{srv.base}/api/games/{gid}", timeout=10).json()
        if st["status"] == "ongoing" and st["clocks"]["running"] is None:
            row.achieved = f"game frozen: clocks stopped {wait:.0f} s after the claim, no end"
    return body


def attack_lang(count: int) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        gid = _current_victim(srv)
        rss0 = srv.rss()

        async def flood() -> None:
            async with httpx.AsyncClient(timeout=10, limits=httpx.Limits(max_connections=16)) as c:
                sem = asyncio.Semaphore(16)

                async def one(i: int) -> None:
                    async with sem:
                        await c.get(f"{srv.base}/api/games/{gid}?lang=z{i:08x}")
                        row.requests += 1

                await asyncio.gather(*(one(i) for i in range(count)))

        asyncio.run(flood())
        grew = srv.rss() - rss0
        if grew > 5:
            row.achieved = f"+{grew:.0f} MB for {count} language values, kept"
    return body


def attack_tournaments(count: int, players: int = 20) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        games = limited = 0
        t0 = time.monotonic()
        with httpx.Client(timeout=30) as c:
            for i in range(count):
                r = c.post(srv.base + "/api/tournaments", json={
                    "name": f"flood {i}", "rounds": 1, "time_control": "600",
                    "players": [{"name": f"P{i}-{k}", "rating": 2000 - k} for k in range(players)]})
                row.requests += 1
                limited += r.status_code == 429
                if r.status_code != 201:
                    continue
                t = r.json()
                r = c.post(f"{srv.base}/api/tournaments/{t['id']}/rounds",
                           headers={"authorization": f"Bearer {t['arbiter_token']}"})
                row.requests += 1
                if r.status_code == 201:
                    games += len(r.json()["boards"])
            r = c.post(srv.base + "/api/tournaments", json={"name": "forever", "default_time": 1e308,
                                                            "players": [{"name": "A"}, {"name": "B"}]})
            row.requests += 1
        took = time.monotonic() - t0
        row.notes.append(f"{games} games in {took:.0f} s through tournaments, {limited} of {count} tournaments "
                         f"refused (429); default_time 1e308: {r.status_code}")
        # A round creates its games at once (a 200-player open: 100 boards), so tournaments have limits of
        # their own (10 tournaments and 2,000 round games a minute, 5,000 an hour, per address): the attack
        # holds when those limits answer and bound the games, not the 20 a minute of POST /api/games.
        if limited == 0 or games > 2000 * max(1.0, took / 60):
            row.achieved = f"{games} games created in {took:.0f} s, {limited} tournaments refused: unbounded"
        if r.status_code == 201:
            row.achieved += "; default_time 1e308 accepted" if row.achieved != "held" else "default_time 1e308 accepted"
    return body


def started_server(row: Row, db: str, extra: tuple[str, ...] = ()) -> Server | None:
    """``chesslaws serve`` on ``db``, started; None where it did not start (``row`` then says so)."""
    srv = Server(db, extra)
    if srv.start() is None:
        row.achieved, row.restart = "the server did not start", None
        return None
    return srv


def started_postgres(row: Row) -> Postgres | None:
    """A throwaway PostgreSQL cluster, started; None where none can be had (``row`` then says why)."""
    try:
        pg = Postgres()
    except SystemExit as err:
        row.achieved = f"not run: {err}"
        return None
    pg.start()
    return pg


def attack_tournament_pg(tmp: str) -> Row:
    row = Row("6 tournaments after a PostgreSQL restart")
    pg = started_postgres(row)
    if pg is None:
        return row
    try:
        srv = Server(pg.url)
        if srv.start() is None:
            row.achieved = "the server did not start"
            return row
        rss0 = srv.rss()
        vic = Victims(srv.base).start()
        t = httpx.post(srv.base + "/api/tournaments", json={"name": "pg", "rounds": 1, "time_control": "600",
                                                            "players": [{"name": "A"}, {"name": "B"}]}, timeout=10)
        row.requests += 1
        tid = t.json()["id"]
        pg.stop()
        time.sleep(3)
        during = httpx.get(f"{srv.base}/api/tournaments/{tid}", timeout=10).status_code
        row.requests += 1
        pg.start()
        time.sleep(5)  # the pools reconnect
        failures = 0
        for _ in range(20):
            row.requests += 1
            if httpx.get(f"{srv.base}/api/tournaments/{tid}", timeout=10).status_code != 200:
                failures += 1
        refused, lost = vic.stop()
        row.refused, row.lost = refused, lost
        row.notes.append(f"during the outage: {during}; after it: {failures}/20 failed")
        if failures:
            row.achieved = f"{failures}/20 tournament requests failed after the database came back"
        elif during == 500:
            row.achieved = "500 (not 503) during the outage"
        row.rss = srv.rss() - rss0
        srv.stop()
        again = Server(pg.url)
        row.restart = again.start()
        again.stop()
    finally:
        pg.remove()
    return row


BAD_SQL = [
    ("event body not JSON", "INSERT INTO events VALUES (?, 1, '{not json')"),
    ("5,000 digits", "INSERT INTO events VALUES (?, 1, '{\"type\":\"set_clocks\",\"t\":1,\"by\":\"arbiter\","
                     "\"white_ms\":" + "7" * 5000 + ",\"black_ms\":1}')"),
    ("200,000 deep", "INSERT INTO events VALUES (?, 1, '" + "[" * 200_000 + "]" * 200_000 + "')"),
    ("created_at not a time", "UPDATE games SET created_at = 'yesterday' WHERE id = ?"),
    ("rule not an object", "INSERT INTO game_starts VALUES (?, '[1]')"),
    ("bad heartbeat", "UPDATE heartbeat SET t = 'soon' WHERE ? IS NOT NULL"),
]


def attack_bad_rows(tmp: str) -> Row:
    row = Row("7 bad stored rows")
    db = os.path.join(tmp, "bad.sqlite3")
    srv = Server(db)
    srv.start()
    ids = [httpx.post(srv.base + "/api/games", json={"white": "A", "black": "B", "time_control": "600",
                                                    "when_ready": False}, timeout=10).json()["id"]
           for _ in BAD_SQL]
    finished = httpx.post(srv.base + "/api/games", json={"white": "A", "black": "B", "when_ready": False},
                          timeout=10).json()
    httpx.post(f"{srv.base}/api/games/{finished['id']}/events", json={"type": "resign"}, timeout=10,
               headers={"authorization": f"Bearer {finished['tokens']['black']}"})
    row.requests = len(ids) + 2
    srv.stop()
    db_ = sqlite3.connect(db)
    for (_, sql), gid in zip(BAD_SQL, ids):
        db_.execute(sql, (gid,))
    db_.execute("UPDATE games SET status = 'finished', final = '{broken' WHERE id = ?", (finished["id"],))
    db_.commit()
    db_.close()
    again = Server(db)
    row.restart = again.start(timeout=60)
    if row.restart is None:
        row.achieved = f"the server does not start (exit {again.proc.poll() if again.proc else '?'})"
        return row
    kinds = []
    for (kind, _), gid in zip(BAD_SQL, ids):
        code = httpx.get(f"{again.base}/api/games/{gid}", timeout=10).status_code
        kinds.append(f"{kind}: {code}")
    lobby = httpx.get(again.base + "/api/games", timeout=10).status_code
    again.stop()
    row.notes.append("; ".join(kinds) + f"; lobby with a broken final: {lobby}")
    if lobby != 200:
        row.achieved = f"the lobby answers {lobby}"
    return row


def attack_lock(tmp: str) -> Row:
    row = Row("8 SQLite lock through a symlink")
    db = os.path.join(tmp, "lock.sqlite3")
    first = Server(db)
    first.start()
    alias = os.path.join(tmp, "alias.sqlite3")
    os.symlink(db, alias)
    second = Server(alias)
    started = second.start(timeout=20)
    row.requests = 2
    if started is not None:
        row.achieved = "two servers run on one SQLite file"
    second.stop()
    first.stop()
    again = Server(db)
    row.restart = again.start()
    again.stop()
    return row


def attack_slowloris(half_open: int, sockets: int) -> Callable[[Server, Row], None]:
    def body(srv: Server, row: Row) -> None:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, half_open + sockets + 512)), hard))
        held: list[socket.socket] = []
        for _ in range(half_open):
            try:
                s = socket.create_connection((HOST, srv.port), timeout=5, source_address=(OTHER, 0))
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                held.append(s)
            except OSError:
                pass
            row.requests += 1
        t0 = time.monotonic()
        try:
            ok = httpx.get(srv.base + "/api/games", timeout=15).status_code == 200
        except httpx.HTTPError:
            ok = False
        answered = time.monotonic() - t0
        alive = 0
        for s in held:  # still open after the header timeout (10 s by default)?
            s.settimeout(0.01)
            try:
                alive += s.recv(1) != b""
            except (TimeoutError, BlockingIOError):
                alive += 1
            except OSError:
                pass
        time.sleep(11)
        still = 0
        for s in held:
            s.settimeout(0.01)
            try:
                still += s.recv(1) != b""
            except (TimeoutError, BlockingIOError):
                still += 1
            except OSError:
                pass
            s.close()
        row.notes.append(f"{half_open} half-open from {OTHER}: {alive} held at first, {still} still after 11 s; "
                         f"another address answered: {ok} in {answered:.2f} s")
        problems = []
        if not ok:
            problems.append("no legitimate request answered")
        if still > 0:
            problems.append(f"{still} half-open connections held for good")
        gid = _current_victim(srv)

        async def idle() -> tuple[int, float]:
            opened: list[Any] = []
            for _ in range(sockets):
                try:
                    opened.append(await websockets.connect(f"ws://{HOST}:{srv.port}/api/games/{gid}/ws",
                                                           open_timeout=5))
                except Exception:  # noqa: BLE001 - refused: the limit
                    pass
                row.requests += 1
            # a move's acknowledgement time while they are open (the victim game's players)
            t = time.monotonic()
            httpx.get(f"{srv.base}/api/games/{gid}", timeout=10)
            lat = time.monotonic() - t
            for w in opened:
                await w.close()
            return len(opened), lat

        accepted, lat = asyncio.run(idle())
        row.notes.append(f"{accepted} of {sockets} idle WebSockets from one address accepted; a state read "
                         f"meanwhile in {lat * 1000:.0f} ms")
        if accepted >= sockets:
            problems.append(f"all {sockets} idle sockets from one address accepted")
        created = 0
        for i in range(40):  # the per-address creation limit is 20 a minute
            r = httpx.post(srv.base + "/api/games", json={"white": "A", "black": "B", "when_ready": False},
                           headers={"x-forwarded-for": f"10.1.{i // 250}.{i % 250 + 1}"}, timeout=10)
            row.requests += 1
            created += r.status_code == 201
        row.notes.append(f"X-Forwarded-For from a local peer: {created} of 40 games created")
        if created > 20:
            problems.append("X-Forwarded-For believed from any local peer")
        if problems:
            row.achieved = "; ".join(problems)
    return body


_ROUND_TWO = ("attacks_loop", "attacks_rules", "attacks_pairing", "attacks_cli")


def _round_two_modules() -> list[Any]:
    import importlib

    out = []
    for name in _ROUND_TWO:
        if (Path(__file__).parent / f"{name}.py").exists():
            out.append(importlib.import_module(name))
    return out


def round_two(args: argparse.Namespace, tmp: str) -> list[tuple[int, Callable[[], Row]]]:
    """The attacks of the modules of this folder, bound to this run's options and folder."""
    out: list[tuple[int, Callable[[], Row]]] = []
    for module in _round_two_modules():
        for number, run in module.PLAN:
            out.append((number, (lambda r=run: r(args, tmp))))
    return sorted(out, key=lambda pair: pair[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="all", help="which attacks, e.g. 1,4,9 or 10,11 (default: all)")
    ap.add_argument("--seconds", type=float, default=20, help="length of the flooding attacks (1, 2)")
    ap.add_argument("--half-open", type=int, default=1100, help="half-open connections (attack 9)")
    ap.add_argument("--sockets", type=int, default=1000, help="idle WebSockets from one address (attack 9)")
    ap.add_argument("--langs", type=int, default=5000, help="distinct ?lang= values (attack 4)")
    ap.add_argument("--tournaments", type=int, default=40, help="tournaments of 20 players created (attack 5)")
    for module in _round_two_modules():
        adder = getattr(module, "add_arguments", None)
        if adder is not None:
            adder(ap)
    args = ap.parse_args()
    only = {int(x) for x in args.only.split(",") if x.strip()} if args.only != "all" else set(range(1, 100))
    tmp = tempfile.mkdtemp(prefix="chesslaws-attack-")
    db = os.path.join(tmp, "games.sqlite3")
    rows: list[Row] = []
    t_start = time.monotonic()
    plan: list[tuple[int, Callable[[], Row]]] = [
        (1, lambda: run_attack("1 spectator budget", db, attack_spectator(args.seconds))),
        (2, lambda: run_attack("2 claim flood", db, attack_claims(args.seconds))),
        (3, lambda: run_attack("3 quickplay freeze", db, attack_quickplay(25))),
        (4, lambda: run_attack("4 ?lang= memory", db, attack_lang(args.langs))),
        (5, lambda: run_attack("5 games through tournaments", db, attack_tournaments(args.tournaments))),
        (6, lambda: attack_tournament_pg(tmp)),
        (7, lambda: attack_bad_rows(tmp)),
        (8, lambda: attack_lock(tmp)),
        (9, lambda: run_attack("9 slowloris, idle sockets, XFF", db, attack_slowloris(args.half_open, args.sockets))),
    ]
    # Attacks 10-46, each area's in its own module of this folder: attacks_loop.py (the
    # event loop), attacks_rules.py (the logs and results), attacks_pairing.py (two processes, a kill while
    # pairing), attacks_cli.py (the files the command line writes). Each module's PLAN lists
    # (number, run(args, tmp) -> Row); its extra options are added by its add_arguments(ap).
    for number, run2 in round_two(args, tmp):
        plan.append((number, run2))
    for number, run in plan:
        if number in only:
            row = run()
            rows.append(row)
            print(f"[{time.monotonic() - t_start:5.0f} s] {row.attack}: {row.achieved}", file=sys.stderr)
    print(f"chesslaws serve under attack: default limits, loopback, SQLite (attack 6: PostgreSQL); "
          f"{os.cpu_count()} cores; {time.monotonic() - t_start:.0f} s in all")
    head = f"{'attack':36} {'requests':>8} {'refused':>7} {'lost':>4} {'RSS MB':>7} {'restart s':>9}  achieved"
    print(head)
    print("-" * len(head))
    for r in rows:
        restart = "no start" if r.restart is None else f"{r.restart:.2f}"
        print(f"{r.attack:36} {r.requests:8d} {r.refused:7d} {r.lost:4d} {r.rss:+7.1f} {restart:>9}  {r.achieved}")
        for note in r.notes:
            print(f"{'':36}   {note}")
    held = sum(r.achieved == "held" for r in rows)
    print(f"held: {held} of {len(rows)} attacks (refused: the real players' moves refused; lost: victim games "
          "lost on time)")


if __name__ == "__main__":
    main()

"""Attacks on the event loop and the server's smaller holes (attacks 10-16 of bench_attack.py).

10. QR flood: 8 connections ask ``POST /api/qr`` for codes of long texts (1,000 characters, or the longest
    the server takes) while two players play: a player's clock lost per move answered at once, and the
    round trip of a cheap request (``GET /api/languages``), quiet and under attack;
11. large-event reads: an event of 1,000 players x 11 rounds written into the store, then 4 connections
    reading it anonymously (``GET /api/tournaments/ID``, ``/trf``) while two players play: the time of a
    read, the clock lost per move, the round trips;
12. slow bodies: 100 connections from one address each send a request's headers, then its body one byte
    every 3 s: how many are still open after ``--slow-seconds``?
13. NUL ids on PostgreSQL: every tournament and game route with ``%00`` (and a zero-width space) as the
    id, with and without a token: the statuses, and the tracebacks the server logged;
14. invisible names: game players, event names and event players of zero-width spaces, word joiners, a
    BOM, soft hyphens, Hangul fillers, spaces, 60 combining marks, through the API and the CLI's
    ``tournament add``: how many were accepted (and whether real names such as Zoë still are);
15. the SQLite lock under other names: a server on ``file:PATH``, then a second on ``file:PATH?mode=rwc``,
    ``sqlite:///PATH``, the plain path and a relative one: does any start?
16. attack 10 from 8 addresses (one connection each): the per-address limit does not bound it, what
    is left is where the codes are made.

Run from the repository: ``python bench/bench_attack.py --only 10,11,12,13,14,15`` (the installed package),
or with ``PYTHONPATH=python`` (the checkout).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import httpx

from bench_attack import HOST, OTHER, Row, Server, started_postgres, started_server

INVISIBLE = {
    "zero-width space": "\u200b", "word joiner": "\u2060\u2060", "BOM": "\ufeff", "soft hyphen": "\u00ad",
    "Hangul filler": "\u3164", "Hangul choseong+jungseong fillers": "\u115f\u1160",
    "halfwidth Hangul filler": "\uffa0", "spaces": "   ", "60 combining marks": "Z" + "\u0336" * 60,
}
REAL = ["Zoë", "李", "Ærø", "O'Neil", "Zoe\u0308"]


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--loop-seconds", type=float, default=12, help="length of attacks 10 and 11 (loaded part)")
    ap.add_argument("--event-players", type=int, default=1000, help="players of attack 11's event")
    ap.add_argument("--event-rounds", type=int, default=11, help="rounds of attack 11's event")
    ap.add_argument("--slow-seconds", type=float, default=35, help="how long attack 12 drips its bodies")
    ap.add_argument("--slow-connections", type=int, default=100, help="connections of attack 12")


# --- what a player feels: clock lost per move, round trips ----------------------------------------


class Feel:
    """Two players answering each other's move at once (a pair every 0.3 s), and a cheap request every
    0.1 s: the clock each move costs its player (the server's stamps: t of a move minus t of the move it
    answers) and the round trips."""

    def __init__(self, base: str) -> None:
        self.base = base
        r = httpx.post(base + "/api/games", json={"white": "Real White", "black": "Real Black",
                                                   "time_control": "300+0", "edition": "1997",
                                                   "when_ready": False}, timeout=30)
        r.raise_for_status()
        self.game = r.json()
        self.lost: list[float] = []
        self.pings: list[float] = []
        self.refused = 0
        self.reasons: dict[str, int] = {}
        self.mark = 0  # index in lost/pings where the attack began
        self.pmark = 0
        self._stop = threading.Event()
        self.threads = [threading.Thread(target=self._moves, daemon=True),
                        threading.Thread(target=self._ping, daemon=True)]

    def start(self) -> "Feel":
        for t in self.threads:
            t.start()
        return self

    def attack_begins(self) -> None:
        self.mark = len(self.lost)
        self.pmark = len(self.pings)

    def _moves(self) -> None:
        dance = ["g1f3", "g8f6", "f3g1", "f6g8"]
        i = 0
        gid = self.game["id"]
        with httpx.Client(timeout=120) as c:
            while not self._stop.is_set():
                stamps = []
                for _ in range(2):
                    side = "white" if i % 2 == 0 else "black"
                    try:
                        r = c.post(f"{self.base}/api/games/{gid}/events", json={"type": "move", "move": dance[i % 4]},
                                   headers={"authorization": f"Bearer {self.game['tokens'][side]}"})
                    except httpx.HTTPError as err:
                        self.refused += 1
                        self.reasons[type(err).__name__] = self.reasons.get(type(err).__name__, 0) + 1
                        break
                    if r.status_code != 200:
                        self.refused += 1
                        why = f"{r.status_code} {r.text[:60]}"
                        self.reasons[why] = self.reasons.get(why, 0) + 1
                        break
                    stamps.append(float(r.json()["event"]["t"]))  # the server's stamp, in seconds
                    i += 1
                if len(stamps) == 2:
                    self.lost.append((stamps[1] - stamps[0]) * 1000)
                self._stop.wait(0.3)

    def _ping(self) -> None:
        with httpx.Client(timeout=120) as c:
            while not self._stop.is_set():
                t0 = time.perf_counter()
                try:
                    c.get(self.base + "/api/languages")
                    self.pings.append((time.perf_counter() - t0) * 1000)
                except httpx.HTTPError:
                    self.pings.append(120_000)
                self._stop.wait(0.1)

    def stop(self) -> None:
        self._stop.set()
        for t in self.threads:
            t.join(130)

    @staticmethod
    def _fmt(xs: list[float]) -> str:
        if not xs:
            return "none"
        xs = sorted(xs)
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        return f"median {statistics.median(xs):.0f} ms, p99 {p99:.0f} ms, max {xs[-1]:.0f} ms (n={len(xs)})"

    def report(self, row: Row) -> None:
        quiet, loaded = self.lost[:self.mark], self.lost[self.mark:]
        row.notes.append(f"clock lost per move answered at once: quiet {self._fmt(quiet)}; attacked {self._fmt(loaded)}")
        row.notes.append(f"round trip GET /api/languages: quiet {self._fmt(self.pings[:self.pmark])}; "
                         f"attacked {self._fmt(self.pings[self.pmark:])}")
        row.refused += self.refused
        if self.reasons:
            row.notes.append("the players' moves refused: " + "; ".join(f"{k} x{v}" for k, v in self.reasons.items()))
        if loaded and (statistics.median(loaded) > 100 or max(loaded) > 1000):
            row.achieved = (f"a player loses {statistics.median(loaded):.0f} ms of clock per move (median), "
                            f"{max(loaded):.0f} ms at most")


def _with_feel(name: str, db: str, attack: Callable[[Server, Row, Feel], None], quiet: float = 4.0) -> Row:
    row = Row(name)
    srv = started_server(row, db)
    if srv is None:
        return row
    rss0 = srv.rss()
    feel = Feel(srv.base).start()
    try:
        time.sleep(quiet)
        feel.attack_begins()
        attack(srv, row, feel)
    finally:
        feel.stop()
        feel.report(row)
        row.rss = srv.rss() - rss0
        srv.stop()
    again = Server(db)
    row.restart = again.start()
    again.stop()
    return row


def _flood(seconds: float, conns: int, one: Callable[[httpx.AsyncClient], Any], spread: bool = False) -> dict[int, int]:
    """``conns`` connections from one address (``OTHER``), or each from its own (``spread``)."""
    statuses: dict[int, int] = {}

    async def worker(k: int) -> None:
        source = f"127.0.0.{100 + k}" if spread else OTHER
        async with httpx.AsyncClient(timeout=120, transport=httpx.AsyncHTTPTransport(local_address=source)) as c:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    r = await one(c)
                    statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                    if r.status_code in (429, 503):  # as told, but not past the attack's end
                        wait = float(r.headers.get("retry-after", "1"))
                        await asyncio.sleep(max(0.0, min(wait, end - time.monotonic())))
                except httpx.HTTPError:
                    statuses[0] = statuses.get(0, 0) + 1

    async def main() -> None:
        await asyncio.gather(*(worker(k) for k in range(conns)))

    asyncio.run(main())
    return statuses


# --- 10: QR flood -----------------------------------------------------------------------------------


def attack_qr(args: argparse.Namespace, tmp: str, spread: bool = False) -> Row:
    def body(srv: Server, row: Row, feel: Feel) -> None:
        length = 1000
        if httpx.post(srv.base + "/api/qr", json={"text": "x" * 1000}, timeout=60).status_code == 422:
            length = 300  # the longest the server takes
        n = [0]

        def one(c: httpx.AsyncClient) -> Any:
            n[0] += 1
            return c.post(srv.base + "/api/qr", json={"text": f"{n[0]:06d}" + "x" * (length - 6)})

        statuses = _flood(args.loop_seconds, 8, one, spread)
        row.requests = sum(statuses.values())
        row.notes.append(f"QR texts of {length} characters from 8 connections ({'8 addresses' if spread else 'one address'}): "
                         + ", ".join(f"{k}x{v}" for k, v in sorted(statuses.items())))

    name = "16 QR flood from 8 addresses" if spread else "10 QR flood"
    return _with_feel(name, os.path.join(tmp, f"qr{int(spread)}.sqlite3"), body)


# --- 11: large-event reads --------------------------------------------------------------------------


def big_event(players: int, rounds: int) -> Any:
    from chesslaws.tournament.model import Board, Regulations, Round, Tournament

    t = Tournament("Big imported event", Regulations(rounds=rounds))
    for i in range(players):
        t = t.add_player(f"Player {i:04d}", 2700 - i % 1500)
    out = []
    results = ("1-0", "0-1", "1/2-1/2")
    for r in range(1, rounds + 1):
        shift = (r * 37) % players
        order = [(i + shift) % players + 1 for i in range(players)]
        boards = tuple(Board(k + 1, order[2 * k], order[2 * k + 1], results[(k + r) % 3])  # type: ignore[arg-type]
                       for k in range(players // 2))
        out.append(Round(r, boards))
    return t.__class__(t.name, t.regulations, t.players, tuple(out))


def attack_reads(args: argparse.Namespace, tmp: str) -> Row:
    from chesslaws.store.tournaments import TournamentStore

    db = os.path.join(tmp, "big.sqlite3")
    with TournamentStore(db) as store:
        tid = store.save(big_event(args.event_players, args.event_rounds)).id

    def body(srv: Server, row: Row, feel: Feel) -> None:
        times: list[float] = []
        n = [0]

        async def one(c: httpx.AsyncClient) -> Any:
            n[0] += 1
            t0 = time.perf_counter()
            r = await c.get(f"{srv.base}/api/tournaments/{tid}" + ("/trf" if n[0] % 4 == 0 else ""))
            times.append((time.perf_counter() - t0) * 1000)
            return r

        statuses = _flood(args.loop_seconds, 4, one)
        row.requests = sum(statuses.values())
        row.notes.append(f"event of {args.event_players} players x {args.event_rounds} rounds, 4 readers: "
                         + ", ".join(f"{k}x{v}" for k, v in sorted(statuses.items()))
                         + f"; a read: {Feel._fmt(times)}")

    return _with_feel("11 large-event reads", db, body)


# --- 12: slow bodies --------------------------------------------------------------------------------


def attack_slow_body(args: argparse.Namespace, tmp: str) -> Row:
    row = Row("12 slow request bodies")
    db = os.path.join(tmp, "slow.sqlite3")
    srv = started_server(row, db)
    if srv is None:
        return row
    held: list[socket.socket] = []
    for _ in range(args.slow_connections):
        try:
            s = socket.create_connection((HOST, srv.port), timeout=5, source_address=(OTHER, 0))
            s.sendall(b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                      b"content-length: 1000\r\n\r\n{")
            s.setblocking(False)
            held.append(s)
        except OSError:
            pass
        row.requests += 1
    open_ = set(range(len(held)))
    answers: dict[str, int] = {}
    t0 = time.monotonic()
    while time.monotonic() - t0 < args.slow_seconds and open_:
        time.sleep(3)
        for i in list(open_):
            s = held[i]
            try:
                data = s.recv(4096)
                if not data:
                    open_.discard(i)
                    continue
                answers[data.split(b"\r\n", 1)[0].decode(errors="replace")] = answers.get(
                    data.split(b"\r\n", 1)[0].decode(errors="replace"), 0) + 1
            except BlockingIOError:
                pass
            except OSError:
                open_.discard(i)
                continue
            try:
                s.send(b" ")
            except OSError:
                open_.discard(i)
    try:
        ok = httpx.get(srv.base + "/api/games", timeout=15).status_code == 200
    except httpx.HTTPError:
        ok = False
    for s in held:
        s.close()
    row.notes.append(f"{len(held)} connections dripping a body (1 byte / 3 s): {len(open_)} still open after "
                     f"{time.monotonic() - t0:.0f} s; answers: {answers or 'none'}; another client answered: {ok}")
    if open_:
        row.achieved = f"{len(open_)} of {len(held)} slow bodies still held after {args.slow_seconds:.0f} s"
    srv.stop()
    again = Server(db)
    row.restart = again.start()
    again.stop()
    return row


# --- 13: NUL ids on PostgreSQL ----------------------------------------------------------------------

ROUTES = [
    ("GET", "/api/tournaments/{tid}"), ("GET", "/api/tournaments/{tid}/trf"), ("GET", "/api/tournaments/{tid}/console"),
    ("POST", "/api/tournaments/{tid}/players"), ("POST", "/api/tournaments/{tid}/players/1/withdraw"),
    ("POST", "/api/tournaments/{tid}/players/1/bye"), ("GET", "/api/tournaments/{tid}/players/1"),
    ("POST", "/api/tournaments/{tid}/rounds/1/boards/1/result"), ("POST", "/api/tournaments/{tid}/rounds/1/start"),
    ("POST", "/api/tournaments/{tid}/rounds"), ("GET", "/api/games/{tid}"), ("POST", "/api/games/{tid}/join"),
    ("GET", "/api/games/{tid}/seat"), ("POST", "/api/games/{tid}/events"), ("GET", "/api/games/{tid}/log"),
    ("GET", "/api/games/{tid}/pgn"), ("GET", "/api/games/{tid}/tournament"), ("GET", "/api/games/{tid}/rematch"),
]


def attack_nul_ids(args: argparse.Namespace, tmp: str) -> Row:
    row = Row("13 NUL ids on PostgreSQL")
    pg = started_postgres(row)
    if pg is None:
        return row
    log = Path(srv_log_path())
    size0 = log.stat().st_size if log.exists() else 0
    try:
        srv = started_server(row, pg.url)
        if srv is None:
            return row
        t = httpx.post(srv.base + "/api/tournaments", json={"name": "pg", "players": [{"name": "A"}, {"name": "B"}]},
                       timeout=10).json()
        statuses: dict[str, int] = {}
        for bad in ("%00", "ab%00cd", "%E2%80%8B"):
            for method, route in ROUTES:
                for headers in ({}, {"authorization": f"Bearer {t['arbiter_token']}"}):
                    try:
                        r = httpx.request(method, srv.base + route.replace("{tid}", bad), headers=headers,
                                          json={} if method == "POST" else None, timeout=10)
                        key = str(r.status_code)
                    except httpx.HTTPError as err:
                        key = type(err).__name__
                    statuses[key] = statuses.get(key, 0) + 1
                    row.requests += 1
        alive = httpx.get(f"{srv.base}/api/tournaments/{t['id']}", timeout=10).status_code
        srv.stop()
        text = log.read_bytes()[size0:].decode(errors="replace")
        tracebacks = text.count("Traceback") + text.count("fault on")
        row.notes.append("statuses: " + ", ".join(f"{k}x{v}" for k, v in sorted(statuses.items()))
                         + f"; tracebacks logged: {tracebacks}; the event read after: {alive}")
        bad = {k: v for k, v in statuses.items() if not k.startswith("4") or k in ("401", "403")}
        if bad or tracebacks:
            row.achieved = (f"{sum(bad.values())} answers other than 404/422 ({', '.join(sorted(bad))}), "
                            f"{tracebacks} tracebacks")
        again = Server(pg.url)
        row.restart = again.start()
        again.stop()
    finally:
        pg.remove()
    return row


def srv_log_path() -> str:
    import tempfile

    return os.path.join(tempfile.gettempdir(), "chesslaws-attack-server.log")


# --- 14: invisible names ----------------------------------------------------------------------------


def attack_names(args: argparse.Namespace, tmp: str) -> Row:
    row = Row("14 invisible names")
    db = os.path.join(tmp, "names.sqlite3")
    srv = started_server(row, db)
    if srv is None:
        return row
    accepted: dict[str, int] = {"game player": 0, "seat taken": 0, "event name": 0, "event player": 0,
                                "player added": 0}
    t = httpx.post(srv.base + "/api/tournaments", json={"name": "Open"}, timeout=10).json()
    arb = {"authorization": f"Bearer {t['arbiter_token']}"}
    for k, name in enumerate(INVISIBLE.values()):
        # each name from its own loopback address: the per-address limits (20 games a minute) stay out of it
        with httpx.Client(timeout=10, transport=httpx.HTTPTransport(local_address=f"127.0.0.{20 + k}")) as c:
            accepted["game player"] += c.post(srv.base + "/api/games",
                                              json={"white": name, "black": "B"}).status_code == 201
            g = c.post(srv.base + "/api/games", json={"white": "A"}).json()
            accepted["seat taken"] += c.post(f"{srv.base}/api/games/{g['id']}/join",
                                             json={"seat": "black", "name": name}).status_code == 200
            accepted["event name"] += c.post(srv.base + "/api/tournaments", json={"name": name}).status_code == 201
            accepted["event player"] += c.post(srv.base + "/api/tournaments", json={
                "name": "X", "players": [{"name": name}]}).status_code == 201
            accepted["player added"] += c.post(f"{srv.base}/api/tournaments/{t['id']}/players", json={"name": name},
                                               headers=arb).status_code == 201
            row.requests += 5
    with httpx.Client(timeout=10, transport=httpx.HTTPTransport(local_address="127.0.0.60")) as c:
        real = sum(c.post(srv.base + "/api/games", json={"white": n, "black": "B"}).status_code == 201 for n in REAL)
    srv.stop()
    cdb = os.path.join(tmp, "names-cli.sqlite3")
    env = dict(os.environ)
    subprocess.run([sys.executable, "-m", "chesslaws.cli", "tournament", "create", "Open", "--db", cdb],
                   capture_output=True, env=env, timeout=60)
    cli = 0
    for name in INVISIBLE.values():
        p = subprocess.run([sys.executable, "-m", "chesslaws.cli", "tournament", "add", "Open", name, "--db", cdb],
                           capture_output=True, env=env, timeout=60)
        cli += p.returncode == 0
    n = len(INVISIBLE)
    row.notes.append("accepted of " + str(n) + ": " + ", ".join(f"{k} {v}" for k, v in accepted.items())
                     + f", CLI tournament add {cli}; real names (Zoë, 李, Ærø, O'Neil, Zoë with a combining "
                       f"accent) accepted: {real}/{len(REAL)}")
    total = sum(accepted.values()) + cli
    if total or real != len(REAL):
        row.achieved = f"{total} invisible names accepted" + ("" if real == len(REAL) else "; real names refused")
    again = Server(db)
    row.restart = again.start()
    again.stop()
    return row


# --- 15: the SQLite lock under other names ----------------------------------------------------------


def attack_uri_lock(args: argparse.Namespace, tmp: str) -> Row:
    row = Row("15 SQLite lock under a file: URI")
    path = os.path.join(tmp, "uri.sqlite3")
    first = Server(f"file:{path}")
    if first.start() is None:
        row.achieved, row.restart = "the first server did not start", None
        return row
    started = []
    rel = os.path.relpath(path)
    for name in (f"file:{path}?mode=rwc", f"file://{path}", f"sqlite:///{path}", path, rel):
        second = Server(name)
        t0 = time.monotonic()
        if second.start(timeout=20) is not None:
            started.append(name)
        else:
            row.notes.append(f"{name}: refused in {time.monotonic() - t0:.1f} s")
        second.stop()
        row.requests += 1
    first.stop()
    if started:
        row.achieved = f"a second server started on {', '.join(started)}"
    again = Server(f"file:{path}")
    row.restart = again.start()
    again.stop()
    return row


PLAN: list[tuple[int, Callable[[argparse.Namespace, str], Row]]] = [
    (10, attack_qr), (11, attack_reads), (12, attack_slow_body), (13, attack_nul_ids), (14, attack_names),
    (15, attack_uri_lock), (16, lambda args, tmp: attack_qr(args, tmp, spread=True)),
]

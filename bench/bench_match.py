"""Engine matches: the harness's cost per move, its time losses, its game rate against python-chess.

    python bench/bench_match.py overhead [--games N] [--tc 10+0.1]
    python bench/bench_match.py losses   [--games 200] [--tc 10+0.1] [--concurrency 2]
    python bench/bench_match.py rate     [--games N] [--tc 1+0.01]

Stockfish (``--engine``, default /usr/games/stockfish, Threads 1, Hash 16)
plays itself in every part.

- ``overhead``: for every move, the time from reading an engine's
  ``bestmove`` to sending the next ``go`` (``Game.apply`` of the move, the
  claims and adjudication checks, the clock the next engine is told, the
  position command), and the part of the engine's clock the harness
  consumes (the same interval, plus the rounding of the move's instant up
  to the log's millisecond). p50/p99/max; goal: p99 under 1 ms.
- ``losses``: a match through :func:`chesslaws.match.run_match` (as
  ``chesslaws match`` runs it) with ``--concurrency`` games at once; counts
  the games lost on time and the lowest clock any engine had left after a
  move. Goal: 0 time losses at 10+0.1, 2 games at once, 200 games.
- ``rate``: games per minute at 1+0.01, one game at a time, alternating a
  chesslaws game and a game of a minimal python-chess match loop
  (``chess.engine.SimpleEngine.play`` with the clocks kept by
  ``time.monotonic``, ending on ``board.is_game_over()``, a threefold
  repetition or fifty moves as soon as they occur -- the claims the harness
  makes -- or a flag). Goal: chesslaws at least 1.0x python-chess.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from chesslaws.engines import EngineSpec, Go, UciEngine  # noqa: E402
from chesslaws.match import Adjudication, GameResult, MatchConfig, play_game, run_match  # noqa: E402
from chesslaws.timecontrol import TimeControl  # noqa: E402

OPTIONS = {"Threads": "1", "Hash": "16"}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def load() -> str:
    return open("/proc/loadavg").read().split(" ")[:3].__str__()


class Recording(UciEngine):
    """Records how long each ``go`` took to write (the harness stamps "go sent" just before the write)."""

    writes: list[int]

    def go(self, fen: str | None, moves: Sequence[str], limits: Go) -> int:
        sent = super().go(fen, moves, limits)
        self.writes.append(self.last_write_ns)
        return sent


def engines(cmd: str) -> tuple[Recording, Recording]:
    a, b = Recording([cmd], name="sf-a"), Recording([cmd], name="sf-b")
    a.writes, b.writes = [], []
    a.configure(OPTIONS)
    b.configure(OPTIONS)
    return a, b


def cmd_overhead(args: argparse.Namespace) -> None:
    a, b = engines(args.engine)
    tc = TimeControl.parse(args.tc)
    before = load()
    over: list[float] = []
    cpu: list[float] = []
    moves = 0
    try:
        for i in range(args.games):
            w, k = (a, b) if i % 2 == 0 else (b, a)
            r = play_game({"white": w, "black": k}, time_control=tc, round_no=i + 1)
            over.extend(x / 1e6 for x in r.overhead_ns[1:])  # the first go follows new_game, not a bestmove
            cpu.extend(x / 1e6 for x in r.overhead_cpu_ns[1:])
            moves += len(r.game.state.moves)
    finally:
        a.close()
        b.close()
    writes = [x / 1e6 for x in a.writes + b.writes]
    print(f"harness overhead per move, {len(over)} moves in {args.games} games at {args.tc} (load before "
          f"{before}, after {load()}):")
    print(f"  bestmove readable -> next go written:  p50 {statistics.median(over):.3f} ms  "
          f"p99 {pct(over, 99):.3f} ms  max {max(over):.3f} ms")
    print(f"  of which CPU time:     p50 {statistics.median(cpu):.3f} ms  p99 {pct(cpu, 99):.3f} ms  "
          f"max {max(cpu):.3f} ms (the rest is waiting for a core on a busy machine)")
    print(f"  the write of go itself (after the stamp; the engine may already run): p50 "
          f"{statistics.median(writes):.3f} ms  p99 {pct(writes, 99):.3f} ms")
    print(f"  charged to the next engine's clock: the interval plus under 1 ms (the move's instant rounded "
          f"down to the log's millisecond), all of it subtracted from the time it is told")
    print(f"  goal p99 < 1 ms (bestmove -> go): {'met' if pct(over, 99) < 1.0 else 'NOT met'}")


def cmd_losses(args: argparse.Namespace) -> None:
    spec = EngineSpec("stockfish", (args.engine,), OPTIONS)
    cfg = MatchConfig((EngineSpec("sf-a", spec.command, OPTIONS), EngineSpec("sf-b", spec.command, OPTIONS)),
                      TimeControl.parse(args.tc), games=args.games, concurrency=args.concurrency,
                      adjudication=Adjudication())
    t0 = time.monotonic()
    lowest = [10**12]
    done = [0]

    running: dict[str, int] = {}

    def progress(r: GameResult, tally: object) -> None:
        done[0] += 1
        if r.time_loss is not None:
            running[r.time_loss.cause] = running.get(r.time_loss.cause, 0) + 1
            print(f"  game {done[0]} (round {r.round}) lost on time: {r.time_loss.describe()}", file=sys.stderr,
                  flush=True)
        if done[0] % 10 == 0:
            print(f"  {done[0]}/{args.games} games, {time.monotonic() - t0:.0f} s, load {load()}, "
                  f"time losses so far by cause: {running or 'none'}", file=sys.stderr, flush=True)

    before = load()
    report = run_match(cfg, on_result=progress)
    causes: dict[str, int] = {}
    forfeits = 0
    for r in report.results:
        if r.game.state.termination in ("time_forfeit", "both_flags_fallen"):
            forfeits += 1
            if r.time_loss is None:
                print(f"  round {r.round}: lost on time without a timed go (an engine that was not ready)")
                causes["unclassified"] = causes.get("unclassified", 0) + 1
                continue
            causes[r.time_loss.cause] = causes.get(r.time_loss.cause, 0) + 1
            print(f"  round {r.round}: {r.time_loss.describe()}")
        for m in r.game.state.moves:
            if m.clock_ms is not None:
                lowest[0] = min(lowest[0], m.clock_ms)
    harness = causes.get("harness", 0) + causes.get("latency", 0) + causes.get("unclassified", 0)
    print(f"time losses at {args.tc}, {args.concurrency} games at once, {len(report.results)} games "
          f"in {report.seconds:.0f} s (load before {before}, after {load()}):")
    print(f"  games lost on time: {forfeits}: the engine overran the time it was told {causes.get('engine', 0)}, "
          f"its process began its search late {causes.get('start', 0)}, its answer reached the harness late "
          f"{causes.get('latency', 0)}, caused by the harness {causes.get('harness', 0)}, unclassified "
          f"{causes.get('unclassified', 0)}")
    print(f"  lowest clock after a move: {lowest[0]} ms")
    over = [x / 1e6 for r in report.results for x in r.overhead_ns[1:]]
    cpu = [x / 1e6 for r in report.results for x in r.overhead_cpu_ns[1:]]
    if over:
        print(f"  harness overhead, bestmove readable -> next go written, {len(over)} moves: p50 "
              f"{statistics.median(over):.3f} ms  p99 {pct(over, 99):.3f} ms  max {max(over):.3f} ms; CPU p50 "
              f"{statistics.median(cpu):.3f} ms  p99 {pct(cpu, 99):.3f} ms")
    print(f"  terminations: {dict(sorted(report.tally.terminations.items()))}")
    print(f"  goal 0 time losses caused by the harness (latency and unclassified counted as the harness's): "
          f"{'met' if harness == 0 else 'NOT met'} ({harness})")


def python_chess_game(white: object, black: object, tc_ms: int, inc_ms: int) -> tuple[str, int, bool, str]:
    """A minimal python-chess match loop: clocks by time.monotonic, a flag ends the game."""
    import chess
    import chess.engine

    board = chess.Board()
    clocks = {chess.WHITE: tc_ms / 1000, chess.BLACK: tc_ms / 1000}
    players = {chess.WHITE: white, chess.BLACK: black}
    inc = inc_ms / 1000
    # The same ends as the chesslaws harness: the automatic ones, and a threefold repetition or fifty
    # moves claimed as soon as they have occurred (claim_draw=True would also end a game on a
    # repetition a move could make, earlier than any claim made here).
    while not (board.is_game_over() or board.is_repetition(3) or board.halfmove_clock >= 100):
        side = board.turn
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        t0 = time.monotonic()
        result = players[side].play(board, limit)  # type: ignore[attr-defined]
        used = time.monotonic() - t0
        clocks[side] -= used
        if clocks[side] <= 0:
            return ("0-1" if side == chess.WHITE else "1-0"), len(board.move_stack), True, "time_forfeit"
        clocks[side] += inc
        board.push(result.move)
    outcome = board.outcome()
    if outcome is not None:
        return board.result(), len(board.move_stack), False, outcome.termination.name.lower()
    return "1/2-1/2", len(board.move_stack), False, "threefold" if board.is_repetition(3) else "fifty"


def cmd_rate(args: argparse.Namespace) -> None:
    import chess.engine

    tc = TimeControl.parse(args.tc)
    period = tc.periods[0]
    a, b = engines(args.engine)
    pa = chess.engine.SimpleEngine.popen_uci(args.engine)
    pb = chess.engine.SimpleEngine.popen_uci(args.engine)
    for e in (pa, pb):
        e.configure({"Threads": 1, "Hash": 16})

    ends: dict[str, dict[str, int]] = {"ours": {}, "theirs": {}}
    causes: dict[str, int] = {}

    def ours(i: int) -> tuple[float, int, bool]:
        w, k = (a, b) if i % 2 == 0 else (b, a)
        t0 = time.monotonic()
        r = play_game({"white": w, "black": k}, time_control=tc, round_no=i + 1)
        took = time.monotonic() - t0
        end = r.game.state.termination or "?"
        ends["ours"][end] = ends["ours"].get(end, 0) + 1
        if r.time_loss is not None:
            causes[r.time_loss.cause] = causes.get(r.time_loss.cause, 0) + 1
        return took, len(r.game.state.moves), r.game.state.termination == "time_forfeit"

    def theirs(i: int) -> tuple[float, int, bool]:
        pw, pk = (pa, pb) if i % 2 == 0 else (pb, pa)
        pa.protocol.send_line("ucinewgame")
        pb.protocol.send_line("ucinewgame")
        t0 = time.monotonic()
        _, plies, flagged, end = python_chess_game(pw, pk, period.ms, period.increment_ms)
        took = time.monotonic() - t0
        ends["theirs"][end] = ends["theirs"].get(end, 0) + 1
        return took, plies, flagged

    before = load()
    runs: list[dict[str, list[tuple[float, int, bool]]]] = []
    try:
        for run in range(args.runs):
            got: dict[str, list[tuple[float, int, bool]]] = {"ours": [], "theirs": []}
            for i in range(args.games):
                # Interleaved, and in ABBA order: neither loop always plays first after the other.
                order = (("ours", ours), ("theirs", theirs)) if i % 2 == 0 else (("theirs", theirs), ("ours", ours))
                for name, play in order:
                    got[name].append(play(i))
            runs.append(got)
            r = summary(got)
            print(f"  run {run + 1}/{args.runs}: {r[0]:.1f} vs {r[1]:.1f} games/min: {r[0] / r[1]:.3f}x "
                  f"(plies/game {r[2]:.0f} vs {r[3]:.0f}; load {load()})", file=sys.stderr, flush=True)
    finally:
        a.close()
        b.close()
        pa.quit()
        pb.quit()
    pooled: dict[str, list[tuple[float, int, bool]]] = {"ours": [], "theirs": []}
    for got in runs:
        for k in pooled:
            pooled[k].extend(got[k])
    ratios = sorted(summary(got)[0] / summary(got)[1] for got in runs)
    per_ply = sorted(summary(got)[4] for got in runs)
    g_ours, g_theirs, p_ours, p_theirs, ply_ratio = summary(pooled)
    flags = {k: sum(f for _, _, f in v) for k, v in pooled.items()}
    print(f"games per minute at {args.tc}, one game at a time, {args.runs} runs of {args.games} games for each "
          f"loop, interleaved (load before {before}, after {load()}):")
    print(f"  chesslaws match:    {g_ours:.1f} games/min over all runs ({p_ours:.0f} plies/game, "
          f"{flags['ours']} time losses, by cause: {causes or 'none'})")
    print(f"  python-chess loop:  {g_theirs:.1f} games/min over all runs ({p_theirs:.0f} plies/game, "
          f"{flags['theirs']} time losses)")
    print(f"  ratio by games/min: median of the runs {statistics.median(ratios):.3f}x (runs: "
          f"{', '.join(f'{x:.3f}' for x in ratios)}), all games {g_ours / g_theirs:.3f}x")
    print(f"  ratio by plies/s:   median of the runs {statistics.median(per_ply):.3f}x, all games {ply_ratio:.3f}x")
    print(f"  how the games ended: chesslaws {dict(sorted(ends['ours'].items()))}, python-chess "
          f"{dict(sorted(ends['theirs'].items()))}")
    print(f"  goal >= 1.0x games/min (median of the runs): {'met' if statistics.median(ratios) >= 1.0 else 'NOT met'}")


def summary(got: dict[str, list[tuple[float, int, bool]]]) -> tuple[float, float, float, float, float]:
    """Games/min of each loop, plies/game of each, and the plies/s ratio (ours over theirs)."""
    o, t = got["ours"], got["theirs"]
    so, st = sum(x for x, _, _ in o), sum(x for x, _, _ in t)
    po, pt = sum(p for _, p, _ in o), sum(p for _, p, _ in t)
    return 60 * len(o) / so, 60 * len(t) / st, po / len(o), pt / len(t), (po / so) / (pt / st)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["overhead", "losses", "rate"])
    p.add_argument("--games", type=int, default=None)
    p.add_argument("--tc", default=None)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--runs", type=int, default=3, help="rate: runs (each --games games per loop); the median is reported")
    p.add_argument("--engine", default=os.environ.get("STOCKFISH", "/usr/games/stockfish"))
    args = p.parse_args()
    defaults = {"overhead": (10, "10+0.1"), "losses": (200, "10+0.1"), "rate": (16, "1+0.01")}[args.what]
    args.games = args.games or defaults[0]
    args.tc = args.tc or defaults[1]
    {"overhead": cmd_overhead, "losses": cmd_losses, "rate": cmd_rate}[args.what](args)


if __name__ == "__main__":
    main()

"""Benchmark: dead-position analysis.

1. Positions per second on "timeout positions" drawn from generated games:
   random games from a fixed seed, a position at a random ply of each, and
   the side that would win on time (the side *not* to move, whose opponent's
   flag falls) analysed with ``can_mate``. Compared with chasolver's own
   analyzer (``examples/analyzer.rs`` of the crate, built separately, see
   ``--analyzer``) on the same positions, same winners. Our verdicts are
   checked against the analyzer's.
2. What the dead-position check costs the replay of a whole game: replay
   each generated game with ``Position.play`` with and without ``is_dead``
   after every ply.

Prints medians over ``--repeat`` runs and the ratios.

Building the analyzer (outside the repository; not committed)::

    cp -r ~/.cargo/registry/src/*/chasolver-3.0.0 /tmp/chasolver-analyzer
    cd /tmp/chasolver-analyzer && rm rust-toolchain.toml
    # drop the rayon dev-dependency and the [[test]] if offline
    cargo build --release --example analyzer

It reads ``<FEN> [white|black]`` lines on stdin (the colour is the intended
winner) and reports its total analysis time on stderr.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from chesslaws.dead import can_mate, can_mate_many, is_dead
from chesslaws.position import Position

DEFAULT_ANALYZER = "/tmp/chasolver-analyzer/target/release/examples/analyzer"
UNITS = {"ns": 1e-9, "μs": 1e-6, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}


def random_game(rng: random.Random, max_plies: int) -> list[str]:
    """A game of uniformly random legal moves (UCI), until it ends."""
    pos = Position()
    moves: list[str] = []
    for _ in range(max_plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(sorted(legal))
        moves.append(m)
        pos = pos.play(m)
        if pos.is_insufficient_material():
            break
    return moves


def timeout_positions(games: list[list[str]], rng: random.Random) -> list[tuple[Position, str]]:
    out: list[tuple[Position, str]] = []
    for moves in games:
        ply = rng.randint(0, len(moves))
        pos = Position().play_many(moves[:ply])
        if pos.is_checkmate() or pos.is_stalemate():
            continue
        winner = "black" if pos.turn == "white" else "white"  # the side to move flags
        out.append((pos, winner))
    return out


def run_analyzer(analyzer: str, lines: list[str]) -> tuple[float, float, list[str]]:
    """(wall seconds, the analyzer's own total analysis seconds, verdicts)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    with open(path) as stdin:
        t = time.perf_counter()
        done = subprocess.run([analyzer], stdin=stdin, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
    Path(path).unlink()
    m = re.search(r"Analyzed (\d+) positions in ([\d.]+) (\S+)", done.stderr)
    if not m or int(m.group(1)) != len(lines):
        raise RuntimeError(f"unexpected analyzer output: {done.stderr!r}")
    own = float(m.group(2)) * UNITS[m.group(3)]
    verdicts = [line.split(" ", 1)[0] for line in done.stdout.splitlines()]
    return wall, own, verdicts


def median_time(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="generated games for timeout positions")
    ap.add_argument("--replay-games", type=int, default=20, help="games replayed with is_dead per ply")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20260701)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--analyzer", default=DEFAULT_ANALYZER)
    ap.add_argument("--replay-budget", type=int, default=2_000, help="also time is_dead(budget=...)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    t = time.perf_counter()
    games = [random_game(rng, args.max_plies) for _ in range(args.games)]
    sample = timeout_positions(games, rng)
    print(f"generated {len(games)} random games (seed {args.seed}) in {time.perf_counter() - t:.1f} s; "
          f"{len(sample)} timeout positions")
    positions = [p for p, _ in sample]
    colors = [c for _, c in sample]
    n = len(sample)

    # --- 1. positions per second -------------------------------------------
    # The machine may be shared: every run is timed by wall clock and by CPU
    # time (the analyzer's through RUSAGE_CHILDREN), ours and the analyzer's
    # runs alternate, and the medians are compared.
    ours = can_mate_many(positions, colors, threads=1)  # warm-up and verdicts
    counts = {v: sum(a.verdict == v for a in ours) for v in ("winnable", "unwinnable", "undetermined")}
    print(f"verdicts: {counts}")

    def single() -> None:
        for p, c in sample:
            can_mate(p, c)  # type: ignore[arg-type]

    timings: dict[str, list[tuple[float, float]]] = {}

    def timed(name: str, fn: object) -> None:
        w, c = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        timings.setdefault(name, []).append((time.perf_counter() - w, time.process_time() - c))

    analyzer = Path(args.analyzer)
    lines = [f"{p.fen()} {c}" for p, c in sample]
    own_times: list[float] = []
    verdicts: list[str] = []
    for _ in range(args.repeat):
        if analyzer.exists():
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall, own, verdicts = run_analyzer(str(analyzer), lines)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            timings.setdefault("chasolver analyzer (process)", []).append((wall, cpu))
            own_times.append(own)
        timed("chesslaws can_mate, one call each", single)
        timed("chesslaws can_mate_many, 1 thread", lambda: can_mate_many(positions, colors, threads=1))  # type: ignore[arg-type]
        timed("chesslaws can_mate_many, all cores", lambda: can_mate_many(positions, colors))  # type: ignore[arg-type]

    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in timings.items()}
    print(f"\n{'':38} {'wall s':>8} {'pos/s':>8} {'CPU s':>8} {'pos/CPU s':>9}")
    for name, (w, c) in med.items():
        print(f"{name:38} {w:8.3f} {n / w:8.0f} {c:8.3f} {n / c:9.0f}")
    if own_times:
        a_own = statistics.median(own_times)
        print(f"{'chasolver analyzer, its own timer':38} {a_own:8.3f} {n / a_own:8.0f}")
        mismatches = sum(a.verdict != v for a, v in zip(ours, verdicts, strict=True))
        print(f"\nverdict mismatches with the analyzer: {mismatches} of {n}")
        a_wall, a_cpu = med["chasolver analyzer (process)"]
        print("speed relative to the analyzer, positions/s over its positions/s (target >= 0.8):")
        print(f"  {'':36} {'CPU time':>9} {'wall':>7}")
        for name in list(med)[1:]:
            w, c = med[name]
            print(f"  {name:36} {a_cpu / c:8.2f}x {a_wall / w:6.2f}x")
        w1, c1 = med["chesslaws can_mate_many, 1 thread"]
        print(f"  target met (1 thread, CPU time): {'yes' if a_cpu / c1 >= 0.8 else 'NO'}")
        print("  (the analyzer's own timer sums wall time per position and excludes its I/O;")
        print("   on a loaded machine it is inflated by preemption, so it is shown, not compared)")
    else:
        print(f"\n(analyzer not found at {analyzer}; see the module docstring to build it)")

    # --- 2. the check after every move in a game replay --------------------
    replay = [g for g in games[: args.replay_games]]
    plies = [len(g) for g in replay]

    def plain(moves: list[str]) -> None:
        pos = Position()
        for m in moves:
            pos = pos.play(m)

    def checked(moves: list[str], budget: int | None = None) -> None:
        pos = Position()
        for m in moves:
            pos = pos.play(m)
            is_dead(pos, budget=budget)

    print(f"\nreplay of {len(replay)} games ({statistics.median(plies):.0f} plies median), "
          "per game, median of per-game medians:")
    per_plain, per_checked, per_budget = [], [], []
    for g in replay:
        per_plain.append(median_time(lambda g=g: plain(g), args.repeat))
        per_checked.append(median_time(lambda g=g: checked(g), max(1, args.repeat // 2)))
        per_budget.append(median_time(lambda g=g: checked(g, args.replay_budget), 1))
    mp, mc, mb = (statistics.median(x) for x in (per_plain, per_checked, per_budget))
    ratios = [c / p for c, p in zip(per_checked, per_plain, strict=True)]
    ratios_b = [c / p for c, p in zip(per_budget, per_plain, strict=True)]
    print(f"  replay only                        {mp * 1e3:9.2f} ms")
    print(f"  replay + is_dead each ply          {mc * 1e3:9.2f} ms   "
          f"(x{statistics.median(ratios):.1f} median per game; "
          f"{(mc - mp) / statistics.median(plies) * 1e6:.0f} us per ply)")
    print(f"  replay + is_dead(budget={args.replay_budget}) {mb * 1e3:9.2f} ms   "
          f"(x{statistics.median(ratios_b):.1f} median per game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

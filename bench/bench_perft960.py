"""Chess960 perft speed: chesslaws against python-chess's chess960 mode.

    python bench/bench_perft960.py [--runs N] [--quick]

On Chess960 positions (starting positions by number, a double-Chess960
start and middlegame positions from the published Chess960 perft list in
tests/data/chess960_perft.epd), chesslaws ``perft()`` (one call, wholly in
Rust; bulk counting at the last ply) against the usual python-chess push/pop
perft on ``chess.Board(fen, chess960=True)`` (also bulk counting:
``legal_moves.count()`` at the last ply). python-chess runs two plies less;
the ratio compares leaf nodes per second. Every count of python-chess is
checked against ours at its depth. Runs are interleaved so both see the same
load. Target: at least 200x (single thread and all cores both printed; the
verdict uses the single-thread figure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import chess

from bench_perft import python_chess_perft  # this folder: run as python bench/bench_perft960.py
from chesslaws import Position, perft

EPD = Path(__file__).resolve().parent.parent / "tests" / "data" / "chess960_perft.epd"


def published(index: int) -> str:
    rows = [ln.split(";")[0].strip() for ln in EPD.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return rows[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (median reported)")
    parser.add_argument("--quick", action="store_true", help="one depth less everywhere")
    args = parser.parse_args()
    cut = 1 if args.quick else 0
    positions = [
        ("start 0", Position.chess960_start(0).shredder_fen()),
        ("start 518", Position.chess960_start(518).shredder_fen()),
        ("start 959", Position.chess960_start(959).shredder_fen()),
        ("double 0/959", Position.chess960_start(0, black=959).shredder_fen()),
        ("published 0", published(0)),
        ("published 4", published(4)),
    ]
    depth, pc_depth = 6 - cut, 4 - cut
    print(f"Chess960 perft: median of {args.runs} runs; {os.cpu_count()} cores; "
          f"load average {open('/proc/loadavg').read().split()[:3]}")
    print(f"chesslaws depth {depth}, python-chess (chess960=True) depth {pc_depth}; leaf nodes per second")
    print(f"{'position':<14}{'chesslaws Mn/s':>16}{'1 thread Mn/s':>15}{'python-chess kn/s':>19}"
          f"{'ratio':>8}{'ratio 1t':>10}")
    ratios, ratios1 = [], []
    for name, fen in positions:
        pos = Position(fen, chess960=True)
        board = chess.Board(fen, chess960=True)
        expected_pc = perft(pos, pc_depth)
        t_all, t_one, t_pc = [], [], []
        n = 0
        for _ in range(args.runs):
            start = time.perf_counter()
            n = perft(pos, depth)
            t_all.append(time.perf_counter() - start)
            start = time.perf_counter()
            n1 = perft(pos, depth, threads=1)
            t_one.append(time.perf_counter() - start)
            start = time.perf_counter()
            npc = python_chess_perft(board, pc_depth)
            t_pc.append(time.perf_counter() - start)
            assert n == n1, name
            assert npc == expected_pc, (name, npc, expected_pc)
        rate = n / statistics.median(t_all)
        rate1 = n / statistics.median(t_one)
        rate_pc = expected_pc / statistics.median(t_pc)
        ratios.append(rate / rate_pc)
        ratios1.append(rate1 / rate_pc)
        print(f"{name:<14}{rate / 1e6:>16.1f}{rate1 / 1e6:>15.1f}{rate_pc / 1e3:>19.1f}"
              f"{rate / rate_pc:>7.0f}x{rate1 / rate_pc:>9.0f}x")
    r, r1 = statistics.median(ratios), statistics.median(ratios1)
    print(f"median ratio: {r:.0f}x (all cores), {r1:.0f}x (1 thread)   target >= 200x: "
          f"{'met' if r1 >= 200 else 'MISSED'}")
    print(f"load average after: {open('/proc/loadavg').read().split()[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

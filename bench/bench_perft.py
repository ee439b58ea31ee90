"""Perft speed: chesslaws against python-chess and against Stockfish.

    python bench/bench_perft.py [--runs N] [--quick]

1. chesslaws ``perft()`` against a python-chess push/pop perft on the same
   positions, in nodes per second (target: at least 300x). python-chess is
   run to a smaller depth, since it is several hundred times slower; the
   ratio compares rates.
2. chesslaws against Debian's ``stockfish`` (``go perft N`` over UCI), whole
   job against whole job on the same positions and depths (target: our speed
   at least 0.5x Stockfish's). Stockfish's perft runs on one thread; ours
   uses all cores by default (documented), so the single-thread figure
   (``threads=1``) is printed as well.

Every figure is the median of ``--runs`` runs, all measured in this run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import chess

from chesslaws import Position, perft

# (name, FEN, depth for chesslaws and Stockfish, depth for python-chess)
POSITIONS = [
    ("initial", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 3),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 3),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 4),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 3),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 3),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 3),
]


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """The usual push/pop perft, counting the leaves' parents' legal moves."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


def median_time(job: Callable[[], int], runs: int) -> tuple[float, int]:
    times = []
    result = 0
    for _ in range(runs):
        start = time.perf_counter()
        result = job()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


class Stockfish:
    """A Stockfish process spoken to over UCI."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line

    def perft(self, fen: str, depth: int) -> int:
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.wait_for("Nodes searched").split(":")[1])

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def find_stockfish() -> str | None:
    for candidate in (shutil.which("stockfish"), "/usr/games/stockfish"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (median reported)")
    parser.add_argument("--quick", action="store_true", help="one depth less everywhere")
    args = parser.parse_args()
    cut = 1 if args.quick else 0
    cores = os.cpu_count() or 1
    print(f"perft benchmark: median of {args.runs} runs; {cores} cores")

    # -- 1. against python-chess ------------------------------------------------
    print("\n1. chesslaws perft vs python-chess push/pop perft (nodes/s)")
    print(f"{'position':<12}{'depth':>6}{'chesslaws Mn/s':>16}{'1 thread Mn/s':>15}"
          f"{'pc depth':>9}{'python-chess kn/s':>19}{'ratio':>9}{'ratio 1t':>10}")
    ours_all, ours1_all, pc_all = [], [], []
    for name, fen, depth, pc_depth in POSITIONS:
        depth -= cut
        pos = Position(fen)
        board = chess.Board(fen)
        expected_pc = perft(pos, pc_depth)
        times: dict[str, list[float]] = {"ours": [], "ours1": [], "pc": []}
        n = 0
        # Runs interleaved, so that all three see the same load on the machine.
        for _ in range(args.runs):
            t, n = median_time(lambda: perft(pos, depth), 1)
            times["ours"].append(t)
            t1, n1 = median_time(lambda: perft(pos, depth, threads=1), 1)
            times["ours1"].append(t1)
            tp, npc = median_time(lambda: python_chess_perft(board, pc_depth), 1)
            times["pc"].append(tp)
            assert n == n1 and npc == expected_pc, name
        rate = n / statistics.median(times["ours"])
        rate1 = n / statistics.median(times["ours1"])
        rate_pc = expected_pc / statistics.median(times["pc"])
        ours_all.append(rate)
        ours1_all.append(rate1)
        pc_all.append(rate_pc)
        print(f"{name:<12}{depth:>6}{rate / 1e6:>16.1f}{rate1 / 1e6:>15.1f}"
              f"{pc_depth:>9}{rate_pc / 1e3:>19.1f}{rate / rate_pc:>8.0f}x{rate1 / rate_pc:>9.0f}x")
    ratio = statistics.median(o / p for o, p in zip(ours_all, pc_all, strict=True))
    ratio1 = statistics.median(o / p for o, p in zip(ours1_all, pc_all, strict=True))
    print(f"median ratio over the positions: {ratio:.0f}x (all cores), {ratio1:.0f}x (1 thread)   "
          f"target >= 300x: {'met' if ratio1 >= 300 else 'MISSED'}")

    # -- 2. against Stockfish --------------------------------------------------
    path = find_stockfish()
    if path is None:
        print("\n2. stockfish not found (apt-get install -y stockfish): skipped")
        return 0
    print(f"\n2. chesslaws perft vs {path} go perft (whole job, seconds)")
    print(f"{'position':<12}{'depth':>6}{'nodes':>12}{'stockfish s':>13}{'chesslaws s':>13}"
          f"{'1 thread s':>12}{'speed':>8}{'speed 1t':>10}")
    sf = Stockfish(path)
    total_sf = total_ours = total_ours1 = 0.0
    speeds, speeds1 = [], []
    try:
        for name, fen, depth, _ in POSITIONS:
            depth -= cut
            runs: dict[str, list[float]] = {"sf": [], "ours": [], "ours1": []}
            ns = n = 0
            for _ in range(args.runs):  # interleaved, as above
                t_sf, ns = median_time(lambda: sf.perft(fen, depth), 1)
                runs["sf"].append(t_sf)
                t_o, n = median_time(lambda: perft(Position(fen), depth), 1)
                runs["ours"].append(t_o)
                t_o1, _ = median_time(lambda: perft(Position(fen), depth, threads=1), 1)
                runs["ours1"].append(t_o1)
            ts, t, t1 = (statistics.median(runs[k]) for k in ("sf", "ours", "ours1"))
            assert n == ns, (name, n, ns)
            total_sf, total_ours, total_ours1 = total_sf + ts, total_ours + t, total_ours1 + t1
            speeds.append(ts / t)
            speeds1.append(ts / t1)
            print(f"{name:<12}{depth:>6}{n:>12}{ts:>13.3f}{t:>13.3f}{t1:>12.3f}"
                  f"{ts / t:>7.2f}x{ts / t1:>9.2f}x")
    finally:
        sf.close()
    print(f"total: stockfish {total_sf:.2f}s, chesslaws {total_ours:.2f}s ({cores} threads), "
          f"{total_ours1:.2f}s (1 thread)")
    print(f"speed vs stockfish (its time / ours): {total_sf / total_ours:.2f}x (all cores), "
          f"{total_sf / total_ours1:.2f}x (1 thread); median per position "
          f"{statistics.median(speeds):.2f}x / {statistics.median(speeds1):.2f}x   target >= 0.5x: "
          f"{'met' if total_sf / total_ours1 >= 0.5 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

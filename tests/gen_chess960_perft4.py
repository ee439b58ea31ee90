"""Writes tests/data/chess960_start_perft4.txt: python-chess's perft at depth 4
(chess960=True, bulk counting at the last ply) of 300 Chess960 starting
positions drawn with a fixed seed, one "NUMBER COUNT" a line. The test
(tests/test_chess960.py) compares our perft with these counts, so that the
comparison with python-chess on several hundred starting positions at depth 4
runs in a second instead of minutes.

    python tests/gen_chess960_perft4.py
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
from test_chess960 import python_chess_perft  # this folder: run as python tests/gen_chess960_perft4.py

OUT = Path(__file__).parent / "data" / "chess960_start_perft4.txt"


def main() -> None:
    numbers = sorted(random.Random(4).sample(range(960), 300))
    lines = ["# python-chess " + chess.__version__ + ": perft(Board.from_chess960_pos(N), 4) for 300 N (seed 4)"]
    for n in numbers:
        lines.append(f"{n} {python_chess_perft(chess.Board.from_chess960_pos(n), 4)}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} ({len(numbers)} positions)")


if __name__ == "__main__":
    main()

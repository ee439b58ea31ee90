"""Perft against published counts, perft_divide, and the `chesslaws perft` command.

Counts are the published ones: chessprogramming.org "Perft Results"
(initial position, Kiwipete, positions 3-6, position 4 mirrored) and the
"TalkChess PERFT Tests" suite by Martin Sedlak (en passant, castling,
promotion, pins, discovered and double checks, stalemate).
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from chesslaws import Position, perft, perft_divide
from chesslaws.cli import main

INITIAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

# (name, FEN, published counts for depth 1, 2, ...): every depth listed runs.
CHESSPROGRAMMING = [
    ("initial", INITIAL, [20, 400, 8902, 197281, 4865609]),
    ("kiwipete", KIWIPETE, [48, 2039, 97862, 4085603]),
    ("position 3", POSITION_3, [14, 191, 2812, 43238, 674624, 11030083]),
    ("position 4", POSITION_4, [6, 264, 9467, 422333, 15833292]),
    ("position 4 mirrored", POSITION_4_MIRRORED, [6, 264, 9467, 422333, 15833292]),
    ("position 5", POSITION_5, [44, 1486, 62379, 2103487]),
    ("position 6", POSITION_6, [46, 2079, 89890, 3894594]),
]

# (what it tests, FEN, depth, published count)
SEDLAK = [
    ("illegal en passant: discovered check along the rank", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888),
    ("illegal en passant: pinned on the diagonal", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133),
    ("en passant capture gives check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467),
    ("en passant capture gives check (white)", "8/5k2/8/2Pp4/2B5/1K6/8/8 w - d6 0 1", 6, 1440467),
    ("en passant capture exposes own king", "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1", 6, 824064),
    ("short castling gives check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072),
    ("long castling gives check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803711),
    ("castling rights lost by rook capture", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206),
    ("castling prevented by attacked squares", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476),
    ("promote out of check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001),
    ("discovered check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658),
    ("promote to give check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342),
    ("underpromote to give check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683),
    ("self stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217),
    ("stalemate and checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584),
    ("double check", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527),
]


def _depth_cases() -> list[tuple[str, str, int, int]]:
    return [
        (name, fen, depth, count)
        for name, fen, counts in CHESSPROGRAMMING
        for depth, count in enumerate(counts, start=1)
    ]


@pytest.mark.parametrize(("name", "fen", "depth", "count"), _depth_cases(), ids=lambda v: str(v))
def test_chessprogramming_positions(name: str, fen: str, depth: int, count: int) -> None:
    assert perft(Position(fen), depth) == count, name


@pytest.mark.parametrize(("name", "fen", "depth", "count"), SEDLAK, ids=[c[0] for c in SEDLAK])
def test_special_rules_suite(name: str, fen: str, depth: int, count: int) -> None:
    assert perft(Position(fen), depth) == count, name


@pytest.mark.parametrize("threads", [1, 2, 3, 64])
def test_thread_count_does_not_change_the_count(threads: int) -> None:
    assert perft(Position(KIWIPETE), 3, threads=threads) == 97862
    assert perft(Position(POSITION_4), 4, threads=threads) == 422333
    assert sum(n for _, n in perft_divide(Position(POSITION_3), 4, threads=threads)) == 43238


def test_depth_zero_and_one() -> None:
    for _name, fen, counts in CHESSPROGRAMMING:
        position = Position(fen)
        assert perft(position, 0) == 1
        assert perft(position, 1) == counts[0] == len(position.legal_moves())
        assert perft_divide(position, 0) == []
        assert perft_divide(position, 1) == [(uci, 1) for uci in position.legal_moves()]


def test_terminal_positions() -> None:
    mate = Position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    stalemate = Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    for position in (mate, stalemate):
        assert perft(position, 0) == 1
        for depth in (1, 2, 3, 5):
            assert perft(position, depth) == 0
            assert perft_divide(position, depth) == []


@pytest.mark.parametrize(("fen", "depth"), [(INITIAL, 4), (KIWIPETE, 3), (POSITION_5, 3), (POSITION_3, 5)])
def test_divide_rows_are_the_children(fen: str, depth: int) -> None:
    position = Position(fen)
    rows = perft_divide(position, depth)
    assert [uci for uci, _ in rows] == position.legal_moves()
    assert sum(n for _, n in rows) == perft(position, depth)
    for uci, n in rows:
        assert n == perft(position.play(uci), depth - 1), uci


def test_kiwipete_divide_published() -> None:
    # Kiwipete divide at depth 2 (sum 2039): rows as Stockfish's `go perft 2` prints them.
    rows = dict(perft_divide(Position(KIWIPETE), 2))
    assert rows["e1g1"] == 43  # castling short
    assert rows["e1c1"] == 43  # castling long
    assert rows["d5e6"] == 46
    assert rows["e2a6"] == 36
    assert sum(rows.values()) == 2039


def test_perft_leaves_the_position_alone() -> None:
    position = Position(KIWIPETE)
    perft(position, 3)
    perft_divide(position, 3)
    assert position.fen() == KIWIPETE


# -- the command ------------------------------------------------------------


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["perft", *args])
    return result.exit_code, result.stdout, result.stderr


def test_command_prints_the_count_last() -> None:
    code, out, _ = _run(KIWIPETE, "3")
    assert code == 0
    assert out.strip().splitlines()[-1] == "97862"


def test_command_startpos_and_threads() -> None:
    code, out, _ = _run("startpos", "4", "--threads", "1")
    assert code == 0
    assert out.strip().splitlines()[-1] == "197281"


def test_command_divide() -> None:
    code, out, _ = _run(POSITION_4, "3", "--divide")
    assert code == 0
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[-1] == "9467"
    rows = lines[:-1]
    position = Position(POSITION_4)
    assert len(rows) == 6
    parsed = [(row.split(": ")[0], int(row.split(": ")[1])) for row in rows]
    assert parsed == perft_divide(position, 3)
    assert sum(n for _, n in parsed) == 9467


def test_command_depth_zero() -> None:
    code, out, _ = _run(INITIAL, "0")
    assert code == 0 and out.strip().splitlines()[-1] == "1"
    code, out, _ = _run(INITIAL, "0", "--divide")
    assert code == 0 and out.strip().splitlines() == ["1"]


@pytest.mark.parametrize(
    ("fen", "field"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "board"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove number"),
    ],
)
def test_command_bad_fen_exits_2_naming_the_field(fen: str, field: str) -> None:
    code, out, err = _run(fen, "2")
    assert code == 2
    assert out == ""
    assert f": {field}:" in err
    assert "FEN" in err


def test_command_bad_depth() -> None:
    assert _run(INITIAL, "-1")[0] == 2
    assert _run(INITIAL, "two")[0] == 2


def test_command_help() -> None:
    result = CliRunner().invoke(main, ["perft", "--help"])
    assert result.exit_code == 0
    assert "DEPTH" in result.stdout and "--divide" in result.stdout


def test_installed_command_runs() -> None:
    # The real entry point, in a separate process, as a user would run it.
    script = shutil.which("chesslaws")
    command = [script] if script else [sys.executable, "-m", "chesslaws.cli"]
    done = subprocess.run(
        [*command, "perft", POSITION_5, "3", "--divide"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "62379"
    assert "d7c8q: " in done.stdout
    bad = subprocess.run(
        [*command, "perft", "8/8/8/8/8/8/8/8 w - - 0 1", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert "board" in bad.stderr

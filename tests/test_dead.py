"""Dead positions and "can this side still mate?".

Agreement with the chasolver crate's own published test positions (copied
under tests/data/, source noted in each file) and with constructed
positions. Every helpmate line is replayed with ``Position.play`` so the
proof is checked independently of the solver.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chesslaws.errors import InvalidInput

from chesslaws.dead import (
    CHASOLVER_NODE_BOUND,
    MateAnalysis,
    can_mate,
    can_mate_many,
    dead_analysis,
    is_dead,
    is_dead_many,
)
from chesslaws.position import Position

DATA = Path(__file__).parent / "data"
OTHER = {"white": "black", "black": "white"}


def read_published(name: str) -> list[tuple[str, str]]:
    rows = []
    for line in (DATA / name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        expected, fen = line.split(" ", 1)
        rows.append((expected, fen))
    return rows


def assert_proof(position: Position, analysis: MateAnalysis) -> None:
    """The analysis is consistent, and a winnable line really mates."""
    if analysis.verdict != "winnable":
        assert analysis.line == ()
        assert analysis.can_mate is (False if analysis.verdict == "unwinnable" else None)
        return
    assert analysis.can_mate is True
    pos = position
    for san in analysis.line:
        assert pos.is_legal(san), (position.fen(), analysis.line, san)
        pos = pos.play(san)
    assert pos.is_checkmate(), (position.fen(), analysis.line)
    assert pos.turn == OTHER[analysis.color], "the intended winner must be the one who mated"
    assert analysis.line == () or analysis.line[-1].endswith("#")


def test_published_positions_file_is_present_and_mixed() -> None:
    rows = read_published("chasolver_positions_sample.txt") + read_published(
        "chasolver_lichess_sample.txt"
    )
    classes = {e for e, _ in rows}
    assert classes == {"WB", "W-", "-B", "--"}
    assert len(rows) > 1000


@pytest.mark.parametrize(
    "name", ["chasolver_positions_sample.txt", "chasolver_lichess_sample.txt"]
)
def test_agrees_with_chasolver_published_positions(name: str) -> None:
    rows = read_published(name)
    positions = [Position(fen) for _, fen in rows]
    white = can_mate_many(positions, "white")
    black = can_mate_many(positions, "black")
    wrong = []
    for (expected, fen), pos, w, b in zip(rows, positions, white, black, strict=True):
        assert w.color == "white" and b.color == "black"
        if w.can_mate is not (expected[0] == "W") or b.can_mate is not (expected[1] == "B"):
            wrong.append((expected, fen, w.verdict, b.verdict))
        assert_proof(pos, w)
        assert_proof(pos, b)
    assert wrong == []


def test_is_dead_agrees_with_published_dead_draws() -> None:
    rows = read_published("chasolver_positions_sample.txt")[:300]
    rows += read_published("chasolver_lichess_sample.txt")
    positions = [Position(fen) for _, fen in rows]
    got = is_dead_many(positions)
    assert got == [expected == "--" for expected, _ in rows]
    # and one at a time, for a slice
    for (expected, _), pos in list(zip(rows, positions, strict=True))[:60]:
        assert is_dead(pos) is (expected == "--")


# --- constructed positions -------------------------------------------------

# (fen, White can mate, Black can mate, why)
CONSTRUCTED = [
    # locked pawn wall across the board, nothing else: no king gets through
    ("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", False, False, "locked chain"),
    ("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 b - - 0 1", False, False, "locked chain"),
    # the same wall, each bishop on the colour of its own pawns (opposite
    # colours): neither bishop can ever attack an enemy pawn
    ("3bk3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 w - - 0 1", False, False, "opposite bishops"),
    # bishops swapped: each attacks the enemy pawns, the wall can be broken
    ("2b1k3/8/8/p1p1p1p1/P1P1P1P1/8/8/2B1K3 w - - 0 1", True, True, "bishops bite"),
    # a gap in the wall: the kings can reach the pawns
    ("4k3/8/8/p1p1p3/P1P1P3/8/8/4K3 w - - 0 1", True, True, "open wall"),
    # lone king v king and knight: nobody can mate
    ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", False, False, "K+N v K"),
    # king and knight v king and pawn: the pawn can block its own king
    ("8/8/8/4k3/4p3/8/8/4KN2 w - - 0 1", True, True, "K+N v K+P"),
    # lone king v king, knight and pawn: only the knight side can mate
    ("8/8/8/4k3/4p3/8/8/4K1n1 w - - 0 1", False, True, "K v K+N+P"),
    # king and two knights v lone king: a helpmate exists
    ("8/8/8/8/8/2k5/8/KNN5 b - - 0 1", True, False, "K+2N v K"),
    ("8/8/8/8/8/4k3/8/KNN5 w - - 0 1", True, False, "K+2N v K"),
    # king and bishops on one colour v king and bishop on that colour
    ("8/8/8/4k3/8/2b5/8/B3K3 w - - 0 1", False, False, "same-colour bishops"),
    # ... but with the bishops on different colours a mate can be set up
    ("8/8/8/4k3/8/B2b4/8/4K3 w - - 0 1", True, True, "opposite-colour bishops"),
    # K+N v K+Q: the queen cannot usefully block its own king
    ("q7/8/8/4k3/8/8/8/4KN2 w - - 0 1", False, True, "K+N v K+Q"),
    # Black to move is in check; its only legal move Rxf7 mates White
    ("5rnk/5Npp/8/8/8/8/4P1P1/4RKR1 b - - 0 1", False, True, "the other side mates first"),
]


@pytest.mark.parametrize(("fen", "white", "black", "why"), CONSTRUCTED)
def test_constructed(fen: str, white: bool, black: bool, why: str) -> None:
    pos = Position(fen)
    w, b = dead_analysis(pos)
    assert (w.color, b.color) == ("white", "black")
    assert (w.can_mate, b.can_mate) == (white, black), (why, w.reason, b.reason)
    assert_proof(pos, w)
    assert_proof(pos, b)
    assert is_dead(pos) is (not white and not black)
    assert can_mate(pos, "white") == w
    assert can_mate(pos, "black") == b
    for a in (w, b):
        assert a.reason
        assert ("White" if a.color == "white" else "Black") in a.reason


def test_other_sides_mate_ends_the_game() -> None:
    # White has two rooks and a knight, but Black's only move mates White.
    pos = Position("5rnk/5Npp/8/8/8/8/4P1P1/4RKR1 b - - 0 1")
    assert pos.legal_moves() == ["f8f7"]
    assert pos.play("Rxf7").is_checkmate()
    b = can_mate(pos, "black")
    assert b.line == ("Rxf7#",)
    assert b.reason == "Black can checkmate: 1... Rxf7# (a helpmate line)."
    assert can_mate(pos, "white").verdict == "unwinnable"
    # one move earlier, with White to move and the knight not yet on f7,
    # White can mate (e.g. by Nf7 and help from Black)
    before = Position("5rnk/6pp/8/6N1/8/8/4P1P1/4RKR1 w - - 0 1")
    assert can_mate(before, "white").verdict == "winnable"


def test_material_reasons() -> None:
    assert can_mate(Position("8/8/8/4k3/8/8/8/4KN2 w - - 0 1"), "black").reason == (
        "Black has a lone king."
    )
    knight = can_mate(Position("8/8/8/4k3/8/8/8/4KN2 w - - 0 1"), "white").reason
    assert knight.startswith("White has only a king and a knight")
    bishops = can_mate(Position("8/8/8/4k3/8/2b5/8/B3K3 w - - 0 1"), "white").reason
    assert "dark squares" in bishops and "no pawns or knights" in bishops


def test_locked_chain_reason_names_the_structure() -> None:
    w = can_mate(Position("3bk3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 w - - 0 1"), "white")
    assert w.reason.startswith("No series of legal moves lets White checkmate")
    assert "a, c, e and g files" in w.reason
    assert "opposite colours" in w.reason


def test_only_a_promotion_can_mate() -> None:
    # King and pawn v king: the pawn alone never mates, it must promote.
    for fen, color in [
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "white"),
        ("8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", "white"),
        ("4k3/4p3/8/8/8/8/8/3K4 w - - 0 1", "black"),
    ]:
        pos = Position(fen)
        a = can_mate(pos, color)  # type: ignore[arg-type]
        assert a.verdict == "winnable"
        assert_proof(pos, a)
        assert any("=" in san for san in a.line), a.line


def test_mate_on_the_board() -> None:
    fools = Position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert fools.is_checkmate()
    w, b = dead_analysis(fools)
    assert b.verdict == "winnable" and b.line == ()
    assert b.reason == "Black has already checkmated White."
    assert w.verdict == "unwinnable"
    assert is_dead(fools) is False


def test_stalemate() -> None:
    pos = Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert pos.is_stalemate()
    w, b = dead_analysis(pos)
    assert w.verdict == b.verdict == "unwinnable"
    assert "stalemate" in w.reason
    assert is_dead(pos) is True


def test_starting_position_and_numbered_line() -> None:
    pos = Position()
    for color in ("white", "black"):
        a = can_mate(pos, color)  # type: ignore[arg-type]
        assert a.verdict == "winnable"
        assert_proof(pos, a)
    a = can_mate(pos, "white")
    assert a.reason.startswith("White can checkmate: 1. " + a.line[0] + " " + a.line[1] + " 2. ")
    assert is_dead(pos) is False
    # from a Black-to-move position the numbering starts with "n..."
    after = Position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    b = can_mate(after, "black")
    assert re.match(r"Black can checkmate: 1\.\.\. \S+ 2\. ", b.reason), b.reason


def test_en_passant_and_castling_cross_over() -> None:
    # the en passant right crosses over to chasolver's board (FEN with the
    # square only when the capture is legal); castling rights too
    pos = Position("8/8/8/3pP3/8/8/8/k1K4R w - d6 0 2")
    pos2 = Position("8/8/8/3pP3/8/8/8/k1K4R w - - 0 2")
    assert pos.ep_square == "d6" and pos2.ep_square is None
    for p in (pos, pos2):
        a = can_mate(p, "white")
        assert a.verdict == "winnable"
        assert_proof(p, a)
    castle = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for color in ("white", "black"):
        a = can_mate(castle, color)  # type: ignore[arg-type]
        assert_proof(castle, a)
        assert a.verdict == "winnable"


# --- budget ---------------------------------------------------------------


def test_budget_bounded_search() -> None:
    scholar = Position("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    a = can_mate(scholar, "white", budget=1_000)
    assert a.verdict == "winnable"
    assert a.line == ("Qxf7#",)
    assert a.reason == "White can checkmate: 3. Qxf7# (a helpmate line)."
    # no budget at all: nothing beyond the quick checks can be decided
    z = can_mate(scholar, "white", budget=0)
    assert z.verdict == "undetermined" and z.can_mate is None and z.line == ()
    assert "budget of 0 nodes" in z.reason
    # the quick checks do not need the budget
    assert can_mate(Position("8/8/8/4k3/8/8/8/4KN2 w - - 0 1"), "white", budget=0).verdict == (
        "unwinnable"
    )
    assert is_dead(Position("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"), budget=0) is True
    # a long helpmate is out of reach of a small budget, within reach of none
    knights = Position("8/8/8/8/8/2k5/8/KNN5 b - - 0 1")
    assert can_mate(knights, "white", budget=500).verdict == "undetermined"
    assert is_dead(knights, budget=500) is None
    assert can_mate(knights, "white", budget=CHASOLVER_NODE_BOUND).verdict == "winnable"


def test_budget_search_proves_unwinnable_when_every_line_ends() -> None:
    # Black's only move mates White: the bounded search sees every line end.
    pos = Position("5rnk/5Npp/8/8/8/8/4P1P1/4RKR1 b - - 0 1")
    assert can_mate(pos, "white", budget=10).verdict == "unwinnable"
    found = can_mate(pos, "black", budget=10)
    assert found.line == ("Rxf7#",)


def test_bounded_search_lines_are_real_helpmates() -> None:
    for fen, color in [
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "white"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "black"),
        ("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3", "black"),
    ]:
        pos = Position(fen)
        a = can_mate(pos, color, budget=3_000_000)  # type: ignore[arg-type]
        assert a.verdict == "winnable", (fen, color, a.reason)
        assert_proof(pos, a)


def test_bad_arguments() -> None:
    pos = Position()
    with pytest.raises(InvalidInput):
        can_mate(pos, "red")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        can_mate(pos, "white", budget=-1)
    with pytest.raises(TypeError):
        can_mate(pos, "white", budget=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        can_mate_many([pos, pos], ["white"])
    with pytest.raises(ValueError):
        can_mate_many([pos], "white", threads=0)


# --- batch = single ----------------------------------------------------------


def test_batch_equals_single() -> None:
    fens = [fen for fen, *_ in CONSTRUCTED] + [
        fen for _, fen in read_published("chasolver_lichess_sample.txt")[::25]
    ]
    positions = [Position(f) for f in fens]
    colors = ["white" if i % 3 else "black" for i in range(len(positions))]
    single = [can_mate(p, c) for p, c in zip(positions, colors, strict=True)]  # type: ignore[arg-type]
    for threads in (None, 1, 2, 5):
        many = can_mate_many(positions, colors, threads=threads)  # type: ignore[arg-type]
        assert many == single
    both = can_mate_many(positions, "white", budget=2_000)
    assert both == [can_mate(p, "white", budget=2_000) for p in positions]
    assert is_dead_many(positions) == [is_dead(p) for p in positions]
    assert is_dead_many(positions, threads=1) == is_dead_many(positions, threads=2)
    assert can_mate_many([], "white") == []
    assert dead_analysis(positions[0]) == (
        can_mate(positions[0], "white"),
        can_mate(positions[0], "black"),
    )

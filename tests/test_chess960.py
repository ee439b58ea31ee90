"""Chess960 in the core (2023 Guidelines II): starting positions by number,
X-FEN and Shredder-FEN, castling in SAN and UCI, perft, and a differential
test against python-chess's chess960 mode.

Perft counts are the published ones (chessprogramming.org "Chess960 Perft
Results", also Ethereal's fischer.epd), a copy in tests/data/chess960_perft.epd.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from chesslaws import Position, perft, perft_divide
from chesslaws.cli import main
from chesslaws.errors import IllegalMove, InvalidFen, InvalidInput

from parallel import in_parallel

DATA = Path(__file__).parent / "data" / "chess960_perft.epd"


def _published() -> list[tuple[str, list[int]]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *counts = line.split(";")
        rows.append((fen.strip(), [int(c.split()[1]) for c in counts]))
    return rows


PUBLISHED = _published()


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += python_chess_perft(board, depth - 1)
        board.pop()
    return n


# -- starting positions --------------------------------------------------------


def test_every_start_number_matches_python_chess() -> None:
    for n in range(960):
        ours = Position.chess960_start(n)
        theirs = chess.Board.from_chess960_pos(n)
        assert ours.fen() == theirs.fen(), n
        assert ours.shredder_fen() == theirs.fen(shredder=True), n
        assert ours.chess960
        back_rank = ours.fen().split("/")[-1].split()[0]
        assert Position.chess960_number(back_rank) == n


def test_well_known_numbers() -> None:
    assert Position.chess960_start(518).fen() == chess.STARTING_FEN
    assert Position.chess960_start(0).fen().startswith("bbqnnrkr/")
    assert Position.chess960_start(959).fen().startswith("rkrnnqbb/")
    assert Position.chess960_number("RNBQKBNR") == 518
    assert Position.chess960_number("RRBNQBNK") is None  # king not between the rooks
    assert Position.chess960_number("RNBKBQNR") is None  # bishops on squares of one colour
    assert Position.chess960_number("RNB") is None


def test_double_chess960_start() -> None:
    p = Position.chess960_start(0, black=959)
    assert p.fen() == "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert p.shredder_fen().split()[2] == "HFca"


@pytest.mark.parametrize("bad", [-1, 960, 10**12])
def test_start_number_out_of_range(bad: int) -> None:
    with pytest.raises(InvalidInput, match="0 to 959"):
        Position.chess960_start(bad)
    with pytest.raises(InvalidInput, match="black"):
        Position.chess960_start(1, black=bad)


# -- FEN in and out ----------------------------------------------------------------


def test_xfen_and_shredder_fen_read_the_same() -> None:
    shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    a, b = Position(shredder, chess960=True), Position(xfen, chess960=True)
    assert a == b
    assert a.fen() == xfen
    assert a.shredder_fen() == shredder
    assert a.castling_rights == "KQkq"


def test_xfen_uses_a_file_letter_for_an_inner_rook() -> None:
    # Two white rooks on the king side: the right is the inner one's (g-file).
    fen = "4k3/8/8/8/8/8/8/4K1RR w G - 0 1"
    p = Position(fen, chess960=True)
    assert p.fen() == fen
    assert p.shredder_fen() == fen
    assert chess.Board(fen, chess960=True).fen() == fen
    assert "e1g1" in p.legal_moves()  # castling with the g-rook: the king takes it


def test_chess960_castling_rights_need_chess960_mode() -> None:
    with pytest.raises(InvalidFen) as err:
        Position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    assert err.value.field == "castling"


# -- castling moves ----------------------------------------------------------------


def test_castling_in_san_and_uci() -> None:
    # King b1, rooks a1 and h1: O-O puts the king on g1 and the rook on f1.
    p = Position("6k1/8/8/8/8/8/8/RK5R w KQ - 0 1", chess960=True)
    assert p.uci("O-O") == "b1h1"
    assert p.uci("0-0") == "b1h1"
    assert p.san("b1h1") == "O-O"
    after = p.play("O-O")
    assert after.piece_at("g1") == "K" and after.piece_at("f1") == "R" and after.piece_at("h1") is None
    assert after.castling_rights == "-"
    # Position 0 (BBQNNRKR) after the knights leave: king g1, rooks f1 and h1.
    # O-O would put the h-rook on f1, where the other rook stands: not legal.
    blocked = Position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQ2RKR w KQkq - 0 1", chess960=True)
    assert "O-O" not in [san for _, san in blocked.legal_moves_san()]
    assert "O-O-O" not in [san for _, san in blocked.legal_moves_san()]  # the queen stands on c1
    q = Position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/4RK1R w KQkq - 0 1", chess960=True)
    assert q.uci("O-O-O") == "f1e1"
    done = q.play("f1e1")
    assert done.piece_at("c1") == "K" and done.piece_at("d1") == "R" and done.piece_at("e1") is None


def test_king_destination_accepted_where_unambiguous() -> None:
    # King b1, rook a1 (long) and rook h1 (short): g1 is only reachable by castling.
    p = Position("6k1/8/8/8/8/8/8/RK5R w KQ - 0 1", chess960=True)
    assert p.uci("b1g1") == "b1h1"
    # c1 is a plain king move (one square right): it stays a king move.
    assert p.uci("b1c1") == "b1c1"
    assert p.play("b1c1").castling_rights == "-"
    # And the long castling written as the king onto its rook.
    assert p.san("b1a1") == "O-O-O"


def test_castling_blocked_and_through_check() -> None:
    # Rook a1, king b1; O-O-O puts the king on c1 and the rook on d1: c1 attacked.
    p = Position("2r3k1/8/8/8/8/8/8/RK6 w Q - 0 1", chess960=True)
    with pytest.raises(IllegalMove):
        p.play("O-O-O")
    with pytest.raises(IllegalMove):
        p.play("b1a1")


def test_no_castling_out_of_check_even_when_the_king_stays() -> None:
    # King g1, rook h1: O-O moves only the rook; with the king in check it is still not allowed.
    p = Position("6k1/8/8/8/8/8/8/q5KR w K - 0 1", chess960=True)
    assert p.is_check()
    assert "O-O" not in [san for _, san in p.legal_moves_san()]
    with pytest.raises(IllegalMove):
        p.play("g1h1")
    # The rook's destination attacked does not matter (only the king's squares do).
    q = Position("5rk1/8/8/8/8/8/8/6KR w K - 0 1", chess960=True)
    assert q.san("g1h1") == "O-O"


def test_castling_where_king_does_not_move() -> None:
    # King already on g1 with the rook on h1: O-O moves the rook only (Guidelines II.3).
    p = Position("6k1/8/8/8/8/8/8/6KR w K - 0 1", chess960=True)
    after = p.play("O-O")
    assert after.piece_at("g1") == "K" and after.piece_at("f1") == "R"
    assert p.uci("O-O") == "g1h1"


# -- perft -------------------------------------------------------------------------


@pytest.mark.parametrize(("fen", "counts"), PUBLISHED, ids=[str(i) for i in range(len(PUBLISHED))])
def test_published_perft(fen: str, counts: list[int]) -> None:
    shredder = Position(fen, chess960=True)
    xfen = Position(shredder.fen(), chess960=True)
    assert xfen.shredder_fen() == fen
    for depth, count in enumerate(counts[:4], start=1):
        assert perft(shredder, depth) == count, (fen, depth)
        assert perft(xfen, depth) == count, (fen, depth)


def test_published_perft_depth_5() -> None:
    for fen, counts in PUBLISHED[:4]:
        assert perft(Position(fen, chess960=True), 5) == counts[4], fen


def test_divide_writes_castling_as_king_takes_rook() -> None:
    p = Position("6k1/8/8/8/8/8/8/RK5R w KQ - 0 1", chess960=True)
    rows = dict(perft_divide(p, 2))
    assert "b1h1" in rows and "b1a1" in rows
    assert list(rows) == p.legal_moves()


def test_random_start_positions_against_python_chess() -> None:
    rng = random.Random(960)
    for _ in range(200):
        n = rng.randrange(960)
        assert perft(Position.chess960_start(n), 3) == python_chess_perft(chess.Board.from_chess960_pos(n), 3), n
    for _ in range(3):
        n = rng.randrange(960)
        assert perft(Position.chess960_start(n), 4) == python_chess_perft(chess.Board.from_chess960_pos(n), 4), n


def test_300_start_positions_at_depth_4_against_python_chess_counts() -> None:
    """python-chess's depth-4 counts of 300 starting positions, computed once by
    tests/gen_chess960_perft4.py (minutes of python-chess) and kept in tests/data."""
    rows = [line.split() for line in (DATA.parent / "chess960_start_perft4.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    assert len(rows) == 300
    for number, count in rows:
        assert perft(Position.chess960_start(int(number)), 4) == int(count), number


def test_double_chess960_perft_against_python_chess() -> None:
    rng = random.Random(2)
    for _ in range(20):
        w, b = rng.randrange(960), rng.randrange(960)
        ours = Position.chess960_start(w, black=b)
        board = chess.Board(ours.shredder_fen(), chess960=True)
        assert perft(ours, 3) == python_chess_perft(board, 3), (w, b)
        # A little way in, where castling paths open up.
        for _ in range(6):
            move = rng.choice(list(board.legal_moves))
            ours = ours.play(board.uci(move))
            board.push(move)
        assert perft(ours, 3) == python_chess_perft(board, 3), board.fen()


# -- differential: 1,000 random games against python-chess ---------------------------


def _pick(board: chess.Board, rng: random.Random, history: list[chess.Move]) -> chess.Move:
    moves = list(board.legal_moves)
    castles = [m for m in moves if board.is_castling(m)]
    if castles and rng.random() < 0.5:
        return rng.choice(castles)
    # Step back where the side's own last move came from: repetitions, some
    # of them with castling rights lost in between.
    if len(history) >= 2 and rng.random() < 0.35:
        back = chess.Move(history[-2].to_square, history[-2].from_square)
        if back in moves and not board.is_castling(history[-2]):
            return back
    return rng.choice(moves)


def _play_960_games(bounds: tuple[int, int]) -> tuple[int, int]:
    """Games number first..last-1, each from its own seed: (castlings, repeated positions)."""
    castlings = repeats = 0
    for game in range(*bounds):
        rng = random.Random(f"18-{game}")
        n = rng.randrange(960)
        position = Position.chess960_start(n)
        board = chess.Board.from_chess960_pos(n)
        ours_keys: dict[str, set[int]] = defaultdict(set)
        theirs_keys: dict[object, set[int]] = defaultdict(set)
        history: list[chess.Move] = []
        for ply in range(60):
            where = f"game {game} (start {n}) ply {ply}: {board.fen()}"
            assert position.fen() == board.fen(), where
            assert position.shredder_fen() == board.fen(shredder=True), where
            ours_keys[position.repetition_key()].add(ply)
            theirs_keys[board._transposition_key()].add(ply)
            pairs = position.legal_moves_san()
            legal = sorted(pairs)
            expected = sorted((board.uci(m), board.san(m)) for m in board.legal_moves)
            assert legal == expected, where
            assert json.loads(position.legal_moves_json()) == [{"uci": u, "san": s} for u, s in pairs], where
            if board.is_game_over():
                break
            move = _pick(board, rng, history)
            uci = board.uci(move)
            if board.is_castling(move):
                castlings += 1
                # The same castling through SAN and through the king's destination.
                assert position.uci(board.san(move)) == uci, where
                king_to = chess.square(
                    chess.FILE_NAMES.index("g" if board.is_kingside_castling(move) else "c"),
                    chess.square_rank(move.from_square),
                )
                dest = chess.square_name(king_to)
                text = chess.square_name(move.from_square) + dest
                if king_to != move.from_square and chess.Move.from_uci(text) not in board.legal_moves:
                    assert position.uci(text) == uci, (where, text)
            position = position.play(uci)
            board.push(move)
            history.append(move)
        ours_classes = sorted(sorted(s) for s in ours_keys.values())
        theirs_classes = sorted(sorted(s) for s in theirs_keys.values())
        assert ours_classes == theirs_classes, f"game {game} (start {n}): repetition identity differs"
        repeats += sum(1 for s in ours_keys.values() if len(s) > 1)
    return castlings, repeats


def test_thousand_random_games_against_python_chess() -> None:
    # Two halves on two processes; the games are the same whatever the split.
    parts = in_parallel(_play_960_games, [(0, 500), (500, 1000)])
    castlings = sum(c for c, _ in parts)
    repeats = sum(r for _, r in parts)
    # The games did what they were meant to.
    assert castlings > 500, castlings
    assert repeats > 500, repeats


# -- the command -------------------------------------------------------------------------


def test_perft_command_chess960() -> None:
    fen, counts = PUBLISHED[0]
    for text in (fen, Position(fen, chess960=True).fen()):
        result = CliRunner().invoke(main, ["perft", "--chess960", text, "3"])
        assert result.exit_code == 0, result.output
        assert result.stdout.strip().splitlines()[-1] == str(counts[2])
    result = CliRunner().invoke(main, ["perft", "--chess960", "960:0", "4"])
    assert result.stdout.strip() == "201143"
    result = CliRunner().invoke(main, ["perft", "--chess960", "960:960", "1"])
    assert result.exit_code == 2 and "0 to 959" in result.stderr
    result = CliRunner().invoke(main, ["perft", fen, "1"])
    assert result.exit_code == 2 and "castling" in result.stderr and "add --chess960" in result.stderr


def test_dead_position_analysis_of_a_chess960_position_with_castling_rights() -> None:
    """The helpmate solver knows standard castling only: a Chess960 position is
    handed over without its castling rights, and a line it finds is checked
    move by move in the real (Chess960) position."""
    from chesslaws.dead import can_mate, dead_analysis

    start = can_mate(Position.chess960_start(0), "white")
    assert start.verdict == "winnable" and start.line[-1].endswith("#")
    replay = Position.chess960_start(0)
    for san in start.line:
        replay = replay.play(san)
    assert replay.is_checkmate()
    white, black = dead_analysis(Position("4k3/8/8/8/8/8/8/RK6 w Q - 0 1", chess960=True))
    assert white.verdict == "winnable" and black.verdict == "unwinnable"

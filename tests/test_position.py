"""The Position API: FEN in and out, properties, moves, repetition, errors.

Every expected value here was checked by hand on a board.
"""

from __future__ import annotations

import pytest

import chesslaws
from chesslaws import (
    STARTING_FEN,
    AmbiguousMove,
    ChessLawsError,
    IllegalMove,
    InvalidFen,
    InvalidInput,
    Position,
    UnreadableMove,
)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# 1. e4 d5 2. e5 f5: white may take en passant on f6.
EP_LEGAL = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
# Both sides can castle both ways; nothing else but kings and rooks.
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
# Knights on b1 and f1 both reach d2.
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"


# -- start position and FEN --------------------------------------------------


def test_start_position() -> None:
    p = Position()
    assert STARTING_FEN == START
    assert p.fen() == START
    assert Position(START) == p
    assert Position.from_fen(START) == p
    assert p.turn == "white"
    assert p.castling_rights == "KQkq"
    assert p.ep_square is None
    assert p.halfmove_clock == 0
    assert p.fullmove_number == 1
    assert p.ply == 0
    assert len(p.legal_moves()) == 20
    assert not p.is_check() and not p.is_checkmate() and not p.is_stalemate()


@pytest.mark.parametrize(
    "fen",
    [START, EP_LEGAL, CASTLES, FOOLS_MATE, STALEMATE, TWO_KNIGHTS,
     "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     "4k3/8/8/8/8/8/8/4K3 b - - 99 120"],
)
def test_fen_round_trip(fen: str) -> None:
    assert Position(fen).fen() == fen
    assert Position(Position(fen).fen()) == Position(fen)


def test_fen_whitespace_and_missing_counters() -> None:
    # Extra blanks are tolerated; missing trailing fields take their defaults
    # (as in python-chess): no castling, no en passant, clocks 0 and 1.
    assert Position("  " + START.replace(" ", "  \t") + "\n").fen() == START
    assert Position("4k3/8/8/8/8/8/8/4K3 b").fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 7").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 7 1"


def test_fen_writes_only_a_legal_en_passant_square() -> None:
    # After 1. e4 no black pawn can take on e3: the square is not written.
    assert Position(START).play("e4").fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert Position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").ep_square is None
    # A pawn could take but would expose its king: not written either.
    pinned = Position("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1")
    assert pinned.ep_square is None
    assert pinned.fen() == "8/8/8/8/k2Pp2Q/8/8/4K3 b - - 0 1"
    assert "e4d3" not in pinned.legal_moves()


def test_properties_after_moves() -> None:
    p = Position().play_many(["e4", "d5", "e5", "f5"])
    assert p.fen() == EP_LEGAL
    assert p.turn == "white"
    assert p.ep_square == "f6"
    assert "e5f6" in p.legal_moves()
    assert p.halfmove_clock == 0
    assert p.fullmove_number == 3
    assert p.ply == 4
    q = p.play("Nf3")
    assert q.turn == "black" and q.ply == 5 and q.fullmove_number == 3
    assert q.halfmove_clock == 1
    assert q.ep_square is None
    r = q.play("Nc6").play("Bb5")
    assert r.halfmove_clock == 3 and r.fullmove_number == 4 and r.ply == 7


def test_ply_counts_from_the_fen() -> None:
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 0 30").ply == 58
    assert Position("4k3/8/8/8/8/8/8/4K3 b - - 0 30").ply == 59
    # No overflow with the largest fullmove number a FEN may carry.
    assert Position("4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295").ply == 2 * 4294967294 + 1


def test_castling_rights_follow_the_moves() -> None:
    p = Position(CASTLES)
    assert p.castling_rights == "KQkq"
    assert p.play("Rh2").castling_rights == "Qkq"
    assert p.play("Ra2").castling_rights == "Kkq"
    assert p.play("Kf1").castling_rights == "kq"
    assert p.play("O-O").castling_rights == "kq"
    assert p.play("Rxa8+").castling_rights == "Kk"  # the a8 rook is gone
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").castling_rights == "-"


def test_castling_moves() -> None:
    p = Position(CASTLES)
    short = p.play("O-O")
    assert short.piece_at("g1") == "K" and short.piece_at("f1") == "R"
    assert short.piece_at("e1") is None and short.piece_at("h1") is None
    long = p.play("e1c1")
    assert long.piece_at("c1") == "K" and long.piece_at("d1") == "R" and long.piece_at("a1") is None
    # No castling through an attacked square.
    blocked = Position("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")
    assert "e1g1" not in blocked.legal_moves()
    assert "e1c1" in blocked.legal_moves()


def test_piece_at_and_pieces() -> None:
    p = Position()
    assert p.piece_at("e1") == "K"
    assert p.piece_at("d8") == "q"
    assert p.piece_at("g8") == "n"
    assert p.piece_at("a2") == "P"
    assert p.piece_at("e4") is None
    pieces = dict(p.pieces())
    assert len(pieces) == 32
    assert pieces["a1"] == "R" and pieces["h8"] == "r"
    assert p.material() == {"K": 1, "Q": 1, "R": 2, "B": 2, "N": 2, "P": 8,
                            "k": 1, "q": 1, "r": 2, "b": 2, "n": 2, "p": 8}
    with pytest.raises(InvalidInput):
        p.piece_at("z9")


# -- moves --------------------------------------------------------------------


def test_play_returns_a_new_position_and_leaves_the_old_one() -> None:
    p = Position()
    q = p.play("e2e4")
    assert q is not p
    assert p.fen() == START
    assert q.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert p.play("e4") == q  # SAN and UCI give the same move
    with pytest.raises(IllegalMove):
        q.play("e4")  # black to move now
    assert q.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_play_annotated() -> None:
    san, uci, after = Position().play_annotated("g1f3")
    assert (san, uci) == ("Nf3", "g1f3")
    assert after.piece_at("f3") == "N"
    pos = Position().play_many(["f3", "e5", "g4"])
    san, uci, mate = pos.play_annotated("Qh4")
    assert (san, uci) == ("Qh4#", "d8h4")
    assert mate.fen() == FOOLS_MATE
    assert mate.is_checkmate() and mate.is_check() and not mate.is_stalemate()
    assert mate.legal_moves() == []
    san, _, _ = Position().play_many(["e4", "f6"]).play_annotated("Qh5")
    assert san == "Qh5+"


def test_play_many_reports_the_index_of_the_bad_move() -> None:
    p = Position()
    assert p.play_many([]) == p
    with pytest.raises(IllegalMove) as err:
        p.play_many(["e4", "e5", "Ke3"])
    assert err.value.index == 2  # type: ignore[attr-defined]
    assert err.value.move == "Ke3"
    assert err.value.fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    with pytest.raises(UnreadableMove) as unreadable:
        p.play_many(["e4", "??"])
    assert unreadable.value.index == 1  # type: ignore[attr-defined]
    assert p.fen() == START


def test_fens_after_gives_each_positions_fen_in_one_call() -> None:
    """The FEN after each move, as play() then fen() give it; None from a move that cannot be played on
    (the server's view replays a game's moves in one call)."""
    p = Position()
    line = ["e2e4", "c7c5", "Nf3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"]
    fens, pos = [], p
    for m in line:
        pos = pos.play(m)
        fens.append(pos.fen())
    assert p.fens_after(line) == fens and p.fens_after([]) == [] and p.fen() == START
    assert p.fens_after(["e4", "e5", "Ke3", "Nf3"]) == [p.play("e4").fen(), p.play_many(["e4", "e5"]).fen(), None, None]
    assert p.fens_after(["??", "e4"]) == [None, None]
    chess960 = Position.chess960_start(0)
    assert chess960.fens_after(["b2b3"]) == [chess960.play("b2b3").fen()]


def test_check_checkmate_stalemate() -> None:
    stalemate = Position(STALEMATE)
    assert stalemate.is_stalemate() and not stalemate.is_check() and not stalemate.is_checkmate()
    assert stalemate.legal_moves() == []
    check = Position("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").play("Kd7").play("Ra7+")
    assert check.is_check() and not check.is_checkmate()


def test_san_and_uci_both_ways() -> None:
    p = Position(CASTLES)
    assert p.san("e1g1") == "O-O"
    assert p.san("O-O-O") == "O-O-O"
    assert p.uci("O-O") == "e1g1"
    assert p.parse_san("O-O-O") == "e1c1"
    assert p.san("a1a8") == "Rxa8+"
    start = Position()
    assert start.parse_move("Nf3") == "g1f3"
    assert start.parse_move(" e4 ") == "e2e4"
    assert start.parse_move("e4+") == "e2e4"  # a wrong suffix does not matter
    assert start.is_legal("Nc3") and start.is_legal("b1c3")
    assert not start.is_legal("e5") and not start.is_legal("junk")
    promo = Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert promo.san("a7a8q") == "a8=Q+"
    assert promo.san("a7a8n") == "a8=N"
    assert promo.parse_move("a8=R") == "a7a8r"
    assert [san for _, san in promo.legal_moves_san()].count("a8=Q+") == 1


def test_fide_notation_forms_are_read() -> None:
    # Laws of Chess, Appendix C: castling with zeros, promotion without '='
    # and the long algebraic form with a hyphen.
    p = Position(CASTLES)
    assert p.parse_move("0-0") == "e1g1"
    assert p.parse_move("0-0-0") == "e1c1"
    assert p.parse_move("Ra1-a7") == "a1a7"
    promo = Position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert promo.parse_move("a8Q") == "a7a8q"
    assert promo.parse_move("a8N") == "a7a8n"
    assert promo.parse_move("a7-a8R") == "a7a8r"
    assert Position().parse_move("e2-e4") == "e2e4"
    assert Position().parse_move("Ng1-f3") == "g1f3"
    with pytest.raises(IllegalMove):
        Position().parse_move("0-0")


def test_ambiguous_move() -> None:
    p = Position(TWO_KNIGHTS)
    with pytest.raises(AmbiguousMove) as err:
        p.parse_move("Nd2")
    assert err.value.move == "Nd2"
    assert err.value.fen == TWO_KNIGHTS
    assert sorted(err.value.candidates) == ["b1d2", "f1d2"]
    assert "Nd2" in str(err.value) and TWO_KNIGHTS in str(err.value)
    assert p.parse_move("Nbd2") == "b1d2"
    assert p.parse_move("Nfd2") == "f1d2"
    assert p.san("b1d2") == "Nbd2"
    with pytest.raises(AmbiguousMove):
        p.play("Nd2")
    assert p.fen() == TWO_KNIGHTS


def test_illegal_and_unreadable_moves_name_the_move_and_position() -> None:
    p = Position()
    with pytest.raises(IllegalMove) as illegal:
        p.play("e2e5")
    assert illegal.value.move == "e2e5" and illegal.value.fen == START
    assert "e2e5" in str(illegal.value) and START in str(illegal.value)
    with pytest.raises(IllegalMove) as illegal_san:
        p.parse_move("Qh5")
    assert illegal_san.value.move == "Qh5"
    with pytest.raises(UnreadableMove) as unreadable:
        p.play("hello")
    assert unreadable.value.move == "hello" and unreadable.value.fen == START


# -- repetition ----------------------------------------------------------------


def test_repetition_key_ignores_the_counters() -> None:
    start = Position()
    back = start.play_many(["Nf3", "Nf6", "Ng1", "Ng8"])
    assert back.fen() != start.fen()
    assert back.repetition_key() == start.repetition_key()
    assert back.zobrist() == start.zobrist()
    assert back != start  # equality is on the full FEN
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").repetition_key() == Position(
        "4k3/8/8/8/8/8/8/4K3 w - - 57 80"
    ).repetition_key()


def test_repetition_key_distinguishes_side_to_move() -> None:
    a = Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    b = Position("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert a.repetition_key() != b.repetition_key()
    assert a.zobrist() != b.zobrist()


def test_repetition_key_ignores_an_en_passant_square_without_a_legal_capture() -> None:
    written = Position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    unwritten = Position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert written.repetition_key() == unwritten.repetition_key()
    assert written.zobrist() == unwritten.zobrist()
    # With a legal capture the square counts: the positions differ.
    with_ep = Position(EP_LEGAL)
    without = Position(EP_LEGAL.replace(" f6 ", " - "))
    assert with_ep.repetition_key() != without.repetition_key()
    assert with_ep.zobrist() != without.zobrist()
    # A capture that would expose the king does not count.
    pinned = Position("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1")
    assert pinned.repetition_key() == Position("8/8/8/8/k2Pp2Q/8/8/4K3 b - - 0 1").repetition_key()


def test_repetition_key_distinguishes_castling_rights() -> None:
    # The same pieces on the same squares, but the white king has moved.
    p = Position(CASTLES)
    walked = p.play_many(["Kf1", "Kf8", "Ke1", "Ke8"])
    assert walked.piece_at("e1") == "K" and walked.fen().split()[0] == p.fen().split()[0]
    assert walked.repetition_key() != p.repetition_key()
    assert walked.zobrist() != p.zobrist()
    # Losing only one right also makes a different position.
    assert Position(CASTLES).repetition_key() != Position(CASTLES.replace("KQkq", "Kkq")).repetition_key()
    # Once the rights are gone, walking again repeats.
    again = walked.play_many(["Kf1", "Kf8", "Ke1", "Ke8"])
    assert again.repetition_key() == walked.repetition_key()


def test_hash_and_equality() -> None:
    a = Position().play("e4")
    b = Position().play("e2e4")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Position()}) == 2
    assert a != "not a position"


# -- errors --------------------------------------------------------------------


def test_error_hierarchy() -> None:
    for error in (InvalidFen, UnreadableMove, IllegalMove, AmbiguousMove, InvalidInput):
        assert issubclass(error, ChessLawsError)
    assert issubclass(InvalidFen, InvalidInput)
    assert issubclass(UnreadableMove, InvalidInput)
    assert not issubclass(IllegalMove, InvalidInput)
    assert not issubclass(AmbiguousMove, InvalidInput)
    assert issubclass(ChessLawsError, Exception)
    assert chesslaws.errors.InvalidFen is InvalidFen


@pytest.mark.parametrize(
    ("fen", "field"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "board"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - KQkq - 0 1", "turn"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "castling"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - half 1", "halfmove clock"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", "fullmove number"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "fen"),
        ("", "fen"),
        # Castling rights without the king or rook at home.
        ("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling"),
        # An en passant square with no pawn that just made a double step.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en passant"),
        # The side not to move is in check.
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "turn"),
    ],
)
def test_invalid_fen_names_the_field(fen: str, field: str) -> None:
    with pytest.raises(InvalidFen) as err:
        Position(fen)
    assert err.value.field == field
    assert err.value.fen == fen
    assert f": {field}: " in str(err.value)
    with pytest.raises(InvalidFen):
        Position.from_fen(fen)

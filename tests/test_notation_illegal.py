"""An illegal move as the arbiter records it over the board (``read_illegal_move``): written as a player writes
moves (``Ke6``, German ``Sc5``, ``e8-e6``) and read by the notation's one grammar into the coordinates an
illegal move is logged in; a legal move read as :func:`read_move` reads it."""

from __future__ import annotations

import pytest

from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.notation import read_illegal_move
from chesslaws.position import Position

#: 1. e4 e5 2. Nf3, Black to move.
POS = Position().play("e2e4").play("e7e5").play("g1f3")


@pytest.mark.parametrize(("text", "language", "uci", "legal"), [
    ("Ke6", None, "e8e6", False),      # the king two squares forward: one king, so e8
    ("Ke6", "de", "e8e6", False),
    ("Kd6", None, "e8d6", False),
    ("e8-e6", None, "e8e6", False),    # long algebraic, as a drag writes it
    ("e8e6", None, "e8e6", False),
    ("e4", None, "e5e4", False),       # a pawn blocked
    ("Qe6", None, "d8e6", False),
    ("Lc5", "de", "f8c5", True),       # legal: read as read_move reads it
    ("Bc5", "de", "f8c5", True),       # English letters under a German page
    ("Nf6", None, "g8f6", True),
])
def test_a_move_played_is_read_in_coordinates(text: str, language: str | None, uci: str, legal: bool) -> None:
    assert read_illegal_move(POS, text, language) == (uci, legal)


def test_two_pieces_the_text_may_name_are_ambiguous() -> None:
    with pytest.raises(AmbiguousMove, match="b8-c5 and g8-c5"):
        read_illegal_move(POS, "Sc5", "de")


def test_a_knight_that_moves_that_way_is_the_one_named() -> None:
    """Two knights: only the one a knight's move away is meant."""
    pos = Position("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")
    assert read_illegal_move(pos, "Nd2", None) == ("b1d2", True)
    pos = Position("4k3/8/8/8/8/8/3P4/1N2K1N1 w - - 0 1")  # d2 taken by its own pawn: illegal, still b1
    assert read_illegal_move(pos, "Nd2", None) == ("b1d2", False)


def test_text_that_is_no_move_and_a_piece_that_is_not_there() -> None:
    with pytest.raises(UnreadableMove):
        read_illegal_move(POS, "xyz", "de")
    with pytest.raises(UnreadableMove, match="king's move"):
        read_illegal_move(POS, "O-O", None)
    with pytest.raises(IllegalMove, match="no piece"):
        read_illegal_move(Position("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "Nf3", None)

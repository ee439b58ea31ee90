"""A game begun from a wrong set-up: the position actually on the board (the start field ``setup``)
beside the position the game should have begun from (``fen``, the initial position by default).

The game is played from what stands on the board. Castling needs the king and the rook on the squares
the correct set-up gives them: a right of the correct position is kept only where both stand there, so
that a misplaced king cannot castle at all and a misplaced rook cannot castle (2023 A.5.1.2: "In case of
incorrect king placement, castling is not allowed. In case of incorrect rook placement, castling with
this rook is not allowed"; the standard castling of 1989 Article 5, 1997 3.5 and 2023 3.8.2 moves the
king and the rook from their original squares). Whether the game is annulled when the set-up is found
(1989 8.5, 1997 7.1(a), 2023 7.2.1) or a claim is too late (1997 B.4, 2023 A.5.1.2) is
:func:`chesslaws.game.irregularities._on_claim_setup`'s.
"""

from __future__ import annotations

from chesslaws.errors import InvalidFen
from chesslaws.events import Event, EventError
from chesslaws.position import Position

#: A castling right (FEN letter) and the squares of its king and its rook in the correct set-up.
_HOMES = {"K": ("e1", "h1"), "Q": ("e1", "a1"), "k": ("e8", "h8"), "q": ("e8", "a8")}


def board_setup(ev: Event, fen: str, chess960: bool) -> str | None:
    """The FEN of the position on the board when the start event's ``setup`` says the pieces were set up
    otherwise than ``fen``; None without ``setup``. The castling rights are those of ``fen`` whose king
    and rook stand on their squares on the board; the other fields (who moves, en passant, the counters)
    are ``fen``'s."""
    setup = ev.get("setup")
    if setup is None:
        return None
    if chess960:
        raise EventError("field 'setup' is for regular chess: a Chess960 game's starting position is the one "
                         "set up (Guidelines II.1)", field="setup")
    placement = str(setup).split()[0] if str(setup).split() else ""
    correct = Position(fen)
    fields = fen.split()
    rights = "".join(c for c in fields[2] if c in _HOMES and _stands(placement, c, correct))
    board = " ".join([placement, fields[1], rights or "-", fields[3], fields[4], fields[5]])
    try:
        Position(board)
    except InvalidFen as err:
        raise EventError(f"field 'setup': {err}", field="setup") from None
    return board


def _stands(placement: str, right: str, correct: Position) -> bool:
    """Do the king and the rook of castling ``right`` stand on the board where the correct set-up has them?"""
    king_sq, rook_sq = _HOMES[right]
    board = _squares(placement)
    return all(board.get(sq) == correct.piece_at(sq) and board.get(sq) is not None for sq in (king_sq, rook_sq))


def _squares(placement: str) -> dict[str, str]:
    """The pieces of a FEN piece placement, by square."""
    out: dict[str, str] = {}
    for i, row in enumerate(placement.split("/")[:8]):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                if file < 8:
                    out[f"{'abcdefgh'[file]}{8 - i}"] = ch
                file += 1
    return out


def misplaced(correct_fen: str, board_fen: str) -> list[str]:
    """The squares on which the board differs from the correct set-up, in order (a1, b1, ... h8)."""
    correct, board = Position(correct_fen), Position(board_fen)
    return [f"{f}{r}" for r in "12345678" for f in "abcdefgh"
            if correct.piece_at(f"{f}{r}") != board.piece_at(f"{f}{r}")]


def castling_lost(correct_fen: str, board_fen: str) -> list[str]:
    """The castlings of the correct set-up that the board's does not allow (a king or a rook misplaced)."""
    had = correct_fen.split()[2]
    has = board_fen.split()[2]
    names = {"K": "White's on the king's side", "Q": "White's on the queen's side",
             "k": "Black's on the king's side", "q": "Black's on the queen's side"}
    return [names[c] for c in had if c in names and c not in has]


__all__ = ["board_setup", "castling_lost", "misplaced"]

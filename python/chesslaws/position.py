"""Positions, legal moves and perft, from the native core.

:class:`Position` is immutable: :meth:`Position.play` returns a new position
and leaves the old one as it was. Moves are read in UCI (``e2e4``) or in SAN
with English letters (``Nf3``, ``O-O``, ``e8=Q``) and written in both.
"""

from chesslaws._core import STARTING_FEN, Position, perft, perft_divide

__all__ = ["STARTING_FEN", "Position", "chess960_start_number", "perft", "perft_divide"]


def chess960_start_number(position: Position) -> int | None:
    """The number (0-959) of a Chess960 starting position (2023 Guidelines
    II.2: pawns on their second ranks, the pieces on the first, Black's
    opposite White's, all castling rights, White to move before move 1), or
    None when ``position`` is not one."""
    ranks = position.fen().split()[0].split("/")
    number = Position.chess960_number(ranks[7])
    if (number is None or ranks[0] != ranks[7].lower() or ranks[1] != "pppppppp" or ranks[6] != "PPPPPPPP"
            or any(r != "8" for r in ranks[2:6]) or position.castling_rights != "KQkq" or position.ply != 0):
        return None
    return number

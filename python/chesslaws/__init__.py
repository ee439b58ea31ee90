"""chesslaws: the Laws of Chess, executable.

The board, the clock, the scoresheet and the arbiter, under the 1989, 1997
and 2023 editions of the FIDE Laws of Chess.
"""

from __future__ import annotations

from chesslaws.errors import (
    AmbiguousMove,
    ChessLawsError,
    IllegalMove,
    InvalidFen,
    InvalidInput,
    UnreadableMove,
    WrongState,
)
from chesslaws.position import STARTING_FEN, Position, perft, perft_divide

__version__ = "0.1.0"

__all__ = [
    "STARTING_FEN",
    "AmbiguousMove",
    "ChessLawsError",
    "IllegalMove",
    "InvalidFen",
    "InvalidInput",
    "Position",
    "UnreadableMove",
    "WrongState",
    "__version__",
    "perft",
    "perft_divide",
]

"""The error hierarchy of chesslaws.

Every error is a :class:`ChessLawsError`:

- :class:`InvalidInput`: input that cannot be read at all
  (:class:`InvalidFen` names the FEN ``field`` that is wrong;
  :class:`UnreadableMove` names the ``move``).
- :class:`IllegalMove`: a readable move that is not legal in the position.
- :class:`AmbiguousMove`: a move that fits several legal moves
  (``candidates`` lists them in UCI).
- :class:`WrongState`: an action that is not allowed now (a move out of
  turn, an event after the game ended).

Errors about moves carry ``move`` and ``fen`` attributes.
"""

from chesslaws._core import (
    AmbiguousMove,
    ChessLawsError,
    IllegalMove,
    InvalidFen,
    InvalidInput,
    UnreadableMove,
    WrongState,
)

__all__ = [
    "AmbiguousMove",
    "ChessLawsError",
    "IllegalMove",
    "InvalidFen",
    "InvalidInput",
    "UnreadableMove",
    "WrongState",
]

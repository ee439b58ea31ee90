"""Positions, legal moves and perft, from the native core.

:class:`Position` is immutable: :meth:`Position.play` returns a new position
and leaves the old one as it was. Moves are read in UCI (``e2e4``) or in SAN
with English letters (``Nf3``, ``O-O``, ``e8=Q``) and written in both.
"""

from chesslaws._core import STARTING_FEN, Position, perft, perft_divide

__all__ = ["STARTING_FEN", "Position", "perft", "perft_divide"]

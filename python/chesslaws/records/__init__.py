"""Records of games: PGN export of a :class:`~chesslaws.game.Game` and game
logs from PGN (the conversion behind ``chesslaws convert``).

The PGN follows the standard's export form (seven-tag roster, English SAN,
80-column lines) and adds what the Laws need: ``[%clk]`` after every move
(``[%emt]``, the time the move took, in games without a clock),
``{(=)}`` for draw offers, every ruling as a comment citing its article, the
``Termination`` tag, and ``TimeControl`` in the extended form of the game-log
spec where the PGN form cannot say it (delays, per-period increments).

:func:`pgn_to_log` goes the other way: it plays a recorded game through the
arbiter and writes the log the Laws would have written (clocks rebuilt from
the record, the ending as the event the Laws need, every inference and
correction in :attr:`Conversion.notes`, every contradiction in
:attr:`Conversion.problems`). A PGN written here and converted back gives
the same log.

The package: :mod:`~chesslaws.records.export` (PGN export),
:mod:`~chesslaws.records.convert` (PGN to game logs),
:mod:`~chesslaws.records.terminations` (how a record says it ended) and
:mod:`~chesslaws.records.times` (the times in move comments).
"""

from chesslaws.records.convert import Conversion, convertible, iter_conversions, pgn_to_log
from chesslaws.records.export import IN_PGN, NOT_IN_PGN, PGN_TERMINATION, game_tags, game_to_pgn
from chesslaws.records.terminations import TERMINATION_KINDS, TerminationRule, termination_kind, termination_rules

__all__ = ["IN_PGN", "NOT_IN_PGN", "PGN_TERMINATION", "TERMINATION_KINDS", "Conversion", "TerminationRule",
           "convertible", "game_tags", "game_to_pgn", "iter_conversions", "pgn_to_log", "termination_kind",
           "termination_rules"]

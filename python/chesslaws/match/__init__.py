"""Engine matches under the Laws: ``chesslaws match ENGINE1 ENGINE2``.

Every game is a :class:`~chesslaws.game.Game`: each engine move goes through
``Game.apply`` at the instant its ``bestmove`` arrived (the time it really
used, the harness's own time included), and each engine is told the clock
the Laws give it (:func:`chesslaws.engines.go_for`). What an engine does
wrong is ruled as the edition says: an illegal move is reinstated with the
edition's penalty (2023: the opponent gets time, the second loses), a
``bestmove`` that is not a move is a clock pressed without a move (2023
7.5.4, as an illegal move), an engine that crashes or hangs is a player who
does not move (its flag falls: it loses, unless the opponent cannot mate).

What the Laws leave to a claim or to the organisers comes from the
adjudication rules (:class:`Adjudication`), written in the log as the
claim a player would make (``claim_draw`` on the engine's behalf for a
threefold repetition or fifty moves) or as the arbiter's decision
(``decision`` with ``on: "adjudication"``: a score threshold, a move limit).

The statistics are the usual ones of engine testing: score, Elo with a 95 %
interval from the trinomial variance, and the GSPRT log-likelihood ratio
(logistic Elo, trinomial) with Wald's bounds.

The modules: :mod:`~chesslaws.match.openings` (the starting positions),
:mod:`~chesslaws.match.play` (one game), :mod:`~chesslaws.match.adjudication`
(claims on the engines' behalf and the arbiter's adjudications),
:mod:`~chesslaws.match.runner` (the games of a match on worker threads),
:mod:`~chesslaws.match.statistics` (tally, Elo, SPRT) and
:mod:`~chesslaws.match.report` (the progress line and the final table); the
command is :mod:`chesslaws.commands.match`.
"""

from chesslaws.match.adjudication import Adjudication
from chesslaws.match.openings import Opening, read_openings
from chesslaws.match.play import GameResult, Side, TimeLoss, play_game
from chesslaws.match.report import elo_text, final_table, progress_line, run_cli
from chesslaws.match.runner import MatchConfig, MatchReport, PgnSink, run_match, unique_names
from chesslaws.match.statistics import Sprt, Tally, elo_of

__all__ = [
    "Adjudication",
    "GameResult",
    "MatchConfig",
    "MatchReport",
    "Opening",
    "PgnSink",
    "Side",
    "Sprt",
    "Tally",
    "TimeLoss",
    "elo_of",
    "elo_text",
    "final_table",
    "play_game",
    "progress_line",
    "read_openings",
    "run_cli",
    "run_match",
    "unique_names",
]

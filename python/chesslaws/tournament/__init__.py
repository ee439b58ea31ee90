"""Tournaments: the competition around the games.

Players, regulations, rounds and results (:mod:`.model`), pairings by the
FIDE Berger tables and the Dutch system (:mod:`.pairing`), standings and
tie-breaks by FIDE C.07 (:mod:`.tiebreaks`), TRF-16 (:mod:`.trf`), PGN of
a round or the event (:mod:`.pgn`) and the ``chesslaws tournament`` command
(:mod:`.cli`); they are stored by :mod:`chesslaws.store.tournaments`.
"""

from chesslaws.tournament.model import (
    Board, Bye, Player, Regulations, Round, Scoring, Tournament, TournamentError, result_from_game_state,
)
from chesslaws.tournament.pairing import berger_table, pair_next_round
from chesslaws.tournament.tiebreaks import Standing, standings
from chesslaws.tournament.trf import read_trf, write_trf

__all__ = [
    "Board", "Bye", "Player", "Regulations", "Round", "Scoring", "Standing", "Tournament", "TournamentError",
    "berger_table", "pair_next_round", "read_trf", "result_from_game_state", "standings", "write_trf",
]

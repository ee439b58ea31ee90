"""The numbers a tournament may hold: one rule for every way into the database.

The API's models (``webapp/tournaments.py``: ``NewTournament.rounds`` 1..99, ``NewPlayer.rating``
0..3500; ``Scoring.parse``, whose ``WIN-DRAW-LOSS`` text cannot even write a negative number), the
command line (``tournament create``/``import``/``add``) and the TRF reader (``tournament import``,
``add --from-trf``, ``standings FILE.trf``) apply these. Each function returns what is wrong, or None,
for the caller to name its field (the TRF reader: the line and the columns).
"""

from __future__ import annotations

import math

from chesslaws.names import name_problem as visible_name_problem

#: Rounds of an event: at least one, at most 99 (a TRF round column is 10 characters from column 92).
MAX_ROUNDS = 99
#: Ratings: 0 (unrated) to 3500.
MAX_RATING = 3500
#: Points of one game or bye under a scoring (football scoring gives 3 for a win).
MAX_GAME_POINTS = 100.0
#: The lengths of a name (an event's, a player's), a title, a federation, a FIDE ID.
MAX_NAME = 100
MAX_TITLE = 3
MAX_FEDERATION = 3
MAX_FIDE_ID = 11
#: A player's total (the TRF's points column, columns 81-84, is four characters wide).
MAX_TOTAL_POINTS = 999.9


def rounds_problem(n: int) -> str | None:
    if not 1 <= n <= MAX_ROUNDS:
        return f"{n} rounds: an event has 1 to {MAX_ROUNDS}"
    return None


def rating_problem(rating: int) -> str | None:
    if not 0 <= rating <= MAX_RATING:
        return f"{rating} is out of 0..{MAX_RATING} (0: unrated)"
    return None


def points_problem(points: float, most: float = MAX_TOTAL_POINTS) -> str | None:
    if not math.isfinite(points):
        return f"{points} is not a number of points"
    if not 0 <= points <= most:
        return f"{points:g} points: out of 0..{most:g}"
    return None


def scoring_problem(win: float, draw: float, loss: float, pab: float | None = None) -> str | None:
    """A scoring as ``Scoring.parse`` takes it: each value 0..100 and finite, a win more than a draw, a
    draw at least a loss."""
    for name, value in (("win", win), ("draw", draw), ("loss", loss), ("pairing-allocated bye", pab)):
        if value is None:
            continue
        wrong = points_problem(value, MAX_GAME_POINTS)
        if wrong:
            return f"a {name}: {wrong}"
    if not win > draw >= loss:
        return f"a win ({win:g}) must give more than a draw ({draw:g}), a draw at least a loss ({loss:g})"
    return None


def name_problem(name: str) -> str | None:
    """An event's or a player's name: not empty, at most :data:`MAX_NAME` characters, and one a person can
    see (:func:`chesslaws.names.name_problem`)."""
    if not name.strip():
        return "the name is empty"
    if len(name) > MAX_NAME:
        return f"the name has {len(name):,} characters, at most {MAX_NAME}"
    return visible_name_problem(name)


def player_problem(name: str, title: str = "", federation: str = "", fide_id: str = "") -> str | None:
    """A player's name and details, as the API's ``NewPlayer`` bounds them."""
    wrong = name_problem(name)
    if wrong:
        return wrong
    for field, value, most in (("title", title, MAX_TITLE), ("federation", federation, MAX_FEDERATION),
                               ("fide_id", fide_id, MAX_FIDE_ID)):
        if len(value) > most:
            return f"field '{field}' {value[:20]!r}: at most {most} characters"
    return None

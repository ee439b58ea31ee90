"""Short real game logs for the tournament tests: each result comes from a Game that the Laws ended."""

from __future__ import annotations

import random
from typing import Any

from chesslaws.game import Game
from chesslaws.tournament import Regulations

_MATE_BY_WHITE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
_MATE_BY_BLACK = ["f3", "e5", "g4", "Qh4#"]


def play(reg: Regulations, white: str, black: str, round_number: int, outcome: str, *,
         rng: random.Random | None = None) -> Game:
    """A game of the event ending as ``outcome``: 'white' / 'black' (a mate or a resignation), 'draw'
    (agreed), 'white-late' / 'black-late' (the player never arrives: a forfeit, Article 6.7)."""
    rng = rng or random.Random(0)
    start: dict[str, Any] = reg.start_event(white=white, black=black, round_number=round_number)
    if outcome.endswith("-late"):
        absent = outcome.split("-")[0]
        start["absent"] = [absent]
        game = Game.from_start(start)
        return game.at((reg.default_time or 0) + 1)
    game = Game.from_start(start)
    t = 0.0

    def move(g: Game, by: str, san: str) -> Game:
        nonlocal t
        t += 3
        return g.apply({"type": "move", "t": t, "by": by, "move": san})

    if outcome in ("white", "black") and rng.random() < 0.5:
        line = _MATE_BY_WHITE if outcome == "white" else _MATE_BY_BLACK
        for i, san in enumerate(line):
            game = move(game, "white" if i % 2 == 0 else "black", san)
        return game
    for i, san in enumerate(["e4", "e5", "Nf3", "Nc6"]):
        game = move(game, "white" if i % 2 == 0 else "black", san)
    if outcome == "draw":
        game = game.apply({"type": "offer_draw", "t": t + 1, "by": "white"})
        return game.apply({"type": "accept_draw", "t": t + 2, "by": "black"})
    loser = "black" if outcome == "white" else "white"
    return game.apply({"type": "resign", "t": t + 1, "by": loser})

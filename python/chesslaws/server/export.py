"""PGN export of a live game: :func:`chesslaws.records.game_to_pgn` with the
names and date the server knows."""

from __future__ import annotations

import datetime as _dt

from chesslaws.game import Game
from chesslaws.records import game_to_pgn


def export_pgn(game: Game, white: str, black: str, created_at: float) -> str:
    """The game in PGN: clocks, draw offers, rulings citing their articles."""
    cfg = game.state.config
    date = _dt.datetime.fromtimestamp(created_at, _dt.timezone.utc).strftime("%Y.%m.%d")
    return game_to_pgn(game, tags={
        "Event": cfg.tags.get("event", "chesslaws live game"),
        "Site": cfg.tags.get("site", "chesslaws serve"),
        "Date": cfg.tags.get("date", date),
        "White": white,
        "Black": black,
    })


__all__ = ["export_pgn"]

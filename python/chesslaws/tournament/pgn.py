"""PGN of a round or of the whole event, from the games' logs (:func:`chesslaws.records.game_to_pgn`)."""

from __future__ import annotations

import json
from typing import Iterable

from chesslaws.tournament.model import Tournament, TournamentError


def event_pgn(t: Tournament, logs: Iterable[tuple[int, int, str]]) -> str:
    """The games (round, board, JSON Lines log) in PGN, tagged with the event, the round and the players.

    A forfeited board (a player who never arrived) was no game: it is left out.
    """
    from chesslaws.game import Game
    from chesslaws.records import game_to_pgn

    out: list[str] = []
    for round_number, board_no, log in logs:
        board = next((b for b in t.round(round_number).boards if b.table == board_no), None)
        if board is None:
            raise TournamentError(f"round {round_number}: no board {board_no} for a stored game")
        if board.result in ("+-", "-+", "--"):
            continue
        events = [json.loads(line) for line in log.splitlines() if line.strip()]
        game = Game.from_events(events)
        white, black = t.player(board.white), t.player(board.black)
        tags = {"Event": t.name or "?", "Site": t.site or "?", "Round": f"{round_number}.{board_no}",
                "White": white.name, "Black": black.name}
        if t.date:
            tags["Date"] = t.date.replace("-", ".").replace("/", ".")
        for colour, p in (("White", white), ("Black", black)):
            if p.rating:
                tags[f"{colour}Elo"] = str(p.rating)
            if p.title:
                tags[f"{colour}Title"] = p.title
            if p.fide_id:
                tags[f"{colour}FideId"] = p.fide_id
        out.append(game_to_pgn(game, tags=tags).rstrip("\n") + "\n")
    return "\n".join(out)

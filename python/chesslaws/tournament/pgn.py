"""PGN of a round or of the whole event, from the games' logs (:func:`chesslaws.records.game_to_pgn`)."""

from __future__ import annotations

import json
from typing import Callable, Iterable, Mapping

from chesslaws.game import Game
from chesslaws.records import game_to_pgn
from chesslaws.tournament.model import Board, Tournament, TournamentError


def board_tags(t: Tournament, round_number: int, board: Board) -> dict[str, str]:
    """A board's tags: the event, site and date, ``Round "N.B"`` (round N, board B), the players, their ratings,
    titles and FIDE ids."""
    white, black = t.player(board.white), t.player(board.black)
    tags = {"Event": t.name or "?", "Site": t.site or "?", "Round": f"{round_number}.{board.table}",
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
    return tags


def _result_only(tags: dict[str, str], result: str) -> str:
    """A game known by its result alone (entered by the arbiter, no log): the tags and the result, no moves."""
    roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    tags = {**tags, "Date": tags.get("Date", "????.??.??"), "Result": result}
    lines = [f'[{k} "{tags[k]}"]' for k in roster] + [f'[{k} "{v}"]' for k, v in tags.items() if k not in roster]
    return "\n".join(lines) + f"\n\n{result}\n"


def event_pgn(t: Tournament, logs: Iterable[tuple[int, int, str]], *, round_number: int | None = None,
              results_only: bool = True) -> str:
    """The games (round, board, JSON Lines log) in PGN, tagged with the event, the round and the players.

    A forfeited board (a player who never arrived) was no game: it is left out. With
    ``results_only``, a board whose result was entered without a game log (in round
    ``round_number``, or in every round) is written too: its tags and result, no moves.
    """

    games: dict[tuple[int, int], Game] = {}
    for rnd, board_no, log in logs:
        events = [json.loads(line) for line in log.splitlines() if line.strip()]
        games[(rnd, board_no)] = Game.from_events(events)
    return games_pgn(t, games, round_number=round_number, results_only=results_only)


#: Writes one board's game in PGN with its tags: (round, board), the game, the tags.
Writer = Callable[[tuple[int, int], Game, dict[str, str]], str]


def write_game(key: tuple[int, int], game: Game, tags: dict[str, str]) -> str:
    return game_to_pgn(game, tags=tags)


def games_pgn(t: Tournament, games: Mapping[tuple[int, int], Game], *, round_number: int | None = None,
              results_only: bool = True, write: Writer = write_game) -> str:
    """The games by (round, board) in PGN, each tagged as :func:`board_tags` says, in the order of the rounds
    and boards (``round_number``: that round's only); a game still in play is written as it stands, with
    the result ``*``. Forfeits and ``results_only`` as in :func:`event_pgn`. ``write`` writes each game (one
    that keeps what it wrote writes again only the games that changed)."""
    texts: dict[tuple[int, int], str] = {}
    for (rnd, board_no), game in games.items():
        if round_number is not None and rnd != round_number:
            continue
        board = next((b for b in t.round(rnd).boards if b.table == board_no), None)
        if board is None:
            raise TournamentError(f"round {rnd}: no board {board_no} for a stored game")
        if board.result in ("+-", "-+", "--"):
            continue
        texts[(rnd, board_no)] = write((rnd, board_no), game, board_tags(t, rnd, board)).rstrip("\n") + "\n"
    if results_only:
        for r in t.rounds:
            if round_number is not None and r.number != round_number:
                continue
            for b in r.boards:
                if (r.number, b.table) not in texts and b.result in ("1-0", "0-1", "1/2-1/2", "0-0"):
                    result = "*" if b.result == "0-0" else b.result
                    texts[(r.number, b.table)] = _result_only(board_tags(t, r.number, b), result)
    return "\n".join(texts[k] for k in sorted(texts))

"""The two judgements of a PGN file side by side: what ``chesslaws
check`` (the native checker) and ``chesslaws convert`` (the arbiter replaying
the record) say about each game's consistency with the Laws.

A judgement of a game is ``None`` (consistent with the Laws) or a pair
(kind, article): the rule by which the Laws end the game otherwise than the
record says. For ``check`` it is its finding; for ``convert`` it is read from
the log the arbiter wrote, where the Laws ended the game (the last ruling) or
the result they give, when the record goes on after that end or gives
another result.
"""

from __future__ import annotations

from typing import Callable, Iterator

from chesslaws.check import check_file
from chesslaws.editions import get_edition
from chesslaws.game import Game
from chesslaws.pgn import read_pgn
from chesslaws.records import convertible, pgn_to_log

#: The kinds of finding that are judgements of the Laws (not of the PGN text).
LAW_KINDS = frozenset({"checkmate", "stalemate", "dead_position", "insufficient_material", "fivefold",
                       "seventyfive", "time_forfeit", "resignation", "agreement"})

#: The arbiter's terminations as kinds of finding.
_KIND_OF_TERMINATION = {
    "checkmate": "checkmate", "stalemate": "stalemate", "dead_position": "dead_position",
    "insufficient_material": "insufficient_material", "fivefold_repetition": "fivefold",
    "seventyfive_moves": "seventyfive", "time_forfeit": "time_forfeit", "resignation": "resignation",
    "both_flags_fallen": "time_forfeit",
    # An arbiter's decision (an adjudication, a rules infraction): check names its findings on one
    # "resignation", the ending convert wrote for it before.
    "arbiter_decision": "resignation",
}

Judgement = tuple[str, str | None] | None


def check_judgements(path: str, edition: str) -> Iterator[tuple[int, Judgement]]:
    """(game number, judgement) of ``chesslaws check`` for every game it could read to the end."""
    for r in check_file(path, edition=edition, jobs=1):
        if any(f.kind in ("illegal_move", "ambiguous_move", "unreadable_move") for f in r.findings):
            continue
        law = [f for f in r.findings if f.kind in LAW_KINDS]
        yield r.game, ((law[0].kind, law[0].article) if law else None)


def convert_judgements(path: str, edition: str,
                       games: Callable[[int], bool] | None = None) -> Iterator[tuple[int, Judgement]]:
    """(game number, judgement) of ``chesslaws convert`` for every game it converts (of those whose number
    `games` keeps, if given)."""
    ed = get_edition(edition)
    for g in read_pgn(path):
        if games is not None and not games(g.number):
            continue
        if not convertible(g) or (g.chess960 and edition != "2023"):
            continue
        conv = pgn_to_log(g, edition=edition)
        state = Game.from_events(conv.events).state
        played = sum(1 for e in conv.events if e["type"] == "move" or e.get("move"))
        cut = played < len(g.moves)
        differs = conv.recorded_result != "*" and state.result != conv.recorded_result
        if differs and state.termination is None and state.result == "*" and state.rulings \
                and state.rulings[-1].article == ed.articles.get("agreement"):
            yield g.number, ("agreement", ed.articles.get("agreement"))  # a void agreement (2023 5.2.3)
            continue
        if not (cut or differs) or state.termination not in _KIND_OF_TERMINATION:
            yield g.number, None
            continue
        kind = _KIND_OF_TERMINATION[state.termination]
        if state.termination == "both_flags_fallen":
            # Both flags down (1989 12.8, 1997 6.11, 10.4 and B.8, 2023 III.3.1): check judges only the
            # record's loser's flag, so this is a disagreement wherever the record gives a result.
            yield g.number, (kind, state.rulings[-1].article if state.rulings else None)
            continue
        # Rules that undo any win but checkmate: 1997 C.4 (no mating potential, no win in blitz), 1989 10.5
        # (a player having a bare king cannot win the game), the last ruling of a game they drew.
        undo = {ed.articles.get(r) for r in ("mating_potential", "bare_king")} - {None}
        if state.rulings and state.rulings[-1].article in undo:
            yield g.number, (kind, state.rulings[-1].article)
            continue
        rule = {"time_forfeit": "flag_draw" if state.result == "1/2-1/2" else "flag"}.get(kind, kind)
        yield g.number, (kind, ed.articles.get(rule))


def disagreements(path: str, edition: str,
                  games: Callable[[int], bool] | None = None) -> list[tuple[int, Judgement, Judgement]]:
    """The games on which the two judgements differ: (number, check's, convert's), of those whose number
    `games` keeps, if given."""
    checked = dict(check_judgements(path, edition))
    out = []
    for number, conv in convert_judgements(path, edition, games):
        if number in checked and checked[number] != conv:
            out.append((number, checked[number], conv))
    return out

"""The two game scores of a game with a visually disabled player (``game_score``, 2023
D.2.9). The story of tests/arbiter/test_2023_appendix_d_and_guidelines_i.py's retracing, here with
what each player wrote: the scores are compared and the ruling names the point where they agree."""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from _arb import ev, game, moves, start

VD = {"edition": "2023", "time_control": "5400", "visually_disabled": ["black"]}


def test_the_scores_differ_the_moves_are_retraced_to_where_they_agree() -> None:
    """Played 1.e4 e5 2.Nf3; White wrote e4 e5 Nf3, Black (in his own notation) e4 d5: they agree
    after 1.e4; the arbiter then retraces there (reinstate ply 1)."""
    g = game(start(**VD), moves(["e4", "e5", "Nf3"]), ev("game_score", 35, "white", moves=["e4", "e5", "Nf3"]),
             ev("game_score", 36, "black", moves=["e2e4", "d7d5"]))
    r = g.state.rulings[-1]
    assert r.article == "D.2.9"
    assert "agree up to 1. e4" in r.text and "reinstate ply 1" in r.text
    g = g.apply(ev("reinstate", 40, "arbiter", ply=1, white_ms=5390_000, black_ms=5385_000, reason="boards_differ"))
    assert g.state.sans == ["e4"]


def test_the_scores_correspond_the_board_is_adjusted() -> None:
    """Both wrote 1.e4 e5 2.Nf3 but 2.Nc3 stands on the board: the player who made the move wrongly
    adjusts his board to the scores."""
    g = game(start(**VD), moves(["e4", "e5", "Nc3"]), ev("game_score", 35, "white", moves=["e4", "e5", "Nf3"]),
             ev("game_score", 36, "black", moves=["e4", "e5", "Nf3"]))
    assert "correspond with each other (3 moves)" in g.state.rulings[-1].text
    assert "agree with them up to 1... e5" in g.state.rulings[-1].text


def test_the_scores_and_the_board_agree() -> None:
    g = game(start(**VD), moves(["e4", "e5"]), ev("game_score", 25, "white", moves=["e4", "e5"]),
             ev("game_score", 26, "black", moves=["e4", "e5"]))
    assert "nothing to correct" in g.state.rulings[-1].text


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
def test_only_with_a_visually_disabled_player(edition: str) -> None:
    with pytest.raises(ChessLawsError, match="visually disabled"):
        game(start(edition=edition, time_control="5400"), moves(["e4"]), ev("game_score", 15, "white", moves=["e4"]))

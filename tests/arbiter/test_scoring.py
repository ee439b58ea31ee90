"""Scoring: 1 / ½ / 0 and both lose.

1989 Article 17 and 10.17; 1997 11.1 and 12.8; 2023 10.1 and 11.7.
"""

from __future__ import annotations

import pytest

from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_score_is_null_while_the_game_goes_on(edition: str) -> None:
    g = game(start(edition=edition), moves(["e4"]))
    st = g.state.to_json()
    assert (st["status"], st["result"], st["termination"], st["score"]) == ("ongoing", "*", None, None)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_win_for_white_scores_one_and_nothing(edition: str) -> None:
    g = game(start(edition=edition), moves(["e4"]), ev("resign", 15, "black"))
    assert g.state.to_json()["score"] == {"white": 1, "black": 0}
    assert g.state.to_json()["result"] == "1-0"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_win_for_black_scores_nothing_and_one(edition: str) -> None:
    g = game(start(edition=edition), ev("resign", 5, "white"))
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}
    assert g.state.to_json()["result"] == "0-1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_draw_scores_a_half_each(edition: str) -> None:
    g = game(start(edition=edition), moves(["e4", "e5"]), ev("move", 30, "white", move="Nf3", offer_draw=True),
             ev("accept_draw", 32, "black"))
    assert g.state.to_json()["score"] == {"white": 0.5, "black": 0.5}
    assert g.state.to_json()["result"] == "1/2-1/2"


@pytest.mark.parametrize(
    ("edition", "article"), [("1989", "10.17"), ("1997", "12.8"), ("2023", "11.8")]
)
def test_both_refusing_to_comply_both_lose(edition: str, article: str) -> None:
    """1989 10.17, 1997 12.8: if both players refuse to comply with the Laws, both lose: 0-0."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4"]),
             ev("refuse_to_comply", 30, "arbiter", against="both"))
    assert summary(g) == ("finished", "0-0", "refusal_to_comply")
    assert g.state.to_json()["score"] == {"white": 0, "black": 0}
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (30_000, article)
    assert g.state.to_json()["clocks"]["running"] is None


@pytest.mark.parametrize(
    ("edition", "article"), [("1989", "10.17"), ("1997", "12.7"), ("2023", "11.7")]
)
def test_one_player_refusing_to_comply_loses(edition: str, article: str) -> None:
    """1989 10.17, 1997 12.7: the player who persistently refuses to comply loses."""
    g = game(start(edition=edition), moves(["e4"]), ev("refuse_to_comply", 30, "arbiter", against="white"))
    assert summary(g) == ("finished", "0-1", "refusal_to_comply")
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}
    assert last_ruling(g).article == article


def test_1989_both_players_more_than_an_hour_late_both_lose() -> None:
    """1989 10.17: "if both players arrive at the chessboard more than one hour late, the game
    shall be declared lost by both players"."""
    g = game(start(edition="1989", time_control="7200", absent=["white", "black"])).at(3601)
    assert summary(g) == ("finished", "0-0", "late_arrival")
    assert g.state.to_json()["score"] == {"white": 0, "black": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_score_sum_is_one_for_every_decided_game(edition: str) -> None:
    """A mate, a stalemate and a resignation each share exactly one point."""
    mate = game(start(edition=edition), moves(["f3", "e5", "g4", "Qh4#"]))
    stale = game(start(edition=edition, fen="7k/8/4Q1K1/8/8/8/8/8 w - - 0 1"), moves(["Qf7"]))
    for g in (mate, stale):
        score = g.state.to_json()["score"]
        assert score["white"] + score["black"] == 1

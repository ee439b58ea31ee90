"""What the arbiter decides from the scoresheets and about them. The next move counted
as the first of the following period when the scoresheets cannot show the control passed (2023
8.6, 1997 8.6, 1989 11.9 / 12.8: ``decision`` on ``period``); a player's request to be shown the
scoresheet or given one (2023 A.2, A.4.3, B.2.3, 12.6; 1997 13.6; 1989 12.9:
``request_scoresheet``); the arbiter's decision on the result after the players signed (2023 8.7;
1997 13.1, 1989 16.1: ``decision`` on ``result``). Clock values are worked out by hand from ``t``."""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


def _flag_down(edition: str, tc: str = "40/5400:1800", **fields: object) -> Game:
    """1.e4 e5, then White thinks: his 90 minutes run out at t = 20 + 5390 = 5410, with 1 of his
    40 moves made; the arbiter watches the board only now and then."""
    return game(start(edition=edition, time_control=tc, arbiter="occasional", **fields), moves(["e4", "e5"]))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_scoresheets_cannot_show_the_control_passed(edition: str) -> None:
    """At t=5420 the arbiter finds White's flag down, but the scoresheets cannot be brought up to
    date showing that White overstepped the allotted time: the next move made is the first of the
    following period (2023 8.6, 1997 8.6, 1989 11.9). White's flag is raised with the 30 minutes of
    the second period, less the 10 s his clock ran since the flag fell at t=5410 (the move he is
    making is the period's first); Black, 5390 s left, receives them too."""
    g = _flag_down(edition).apply(ev("decision", 5420, on="period", ruling="next_period"))
    assert summary(g) == ("ongoing", "*", None)
    assert last_ruling(g).article == {"1989": "11.9", "1997": "8.6", "2023": "8.6"}[edition]
    assert g.state.remaining_ms("white") == 1_790_000
    assert g.state.remaining_ms("black") == 5_390_000 + 1_800_000
    g = g.apply(ev("move", 5430, "white", move="Nf3"))
    assert g.state.remaining_ms("white") == 1_780_000
    assert g.state.clock.control.moves_to_control(g.state.clock.moves("white")) is None, (
        "the move was the first of the last period, for all the remaining moves")


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_same_flag_observed_loses(edition: str) -> None:
    """The same log with the arbiter's observation instead: the moves are known, White loses on time."""
    g = _flag_down(edition).apply(ev("observe", 5420, what="flag"))
    assert summary(g) == ("finished", "0-1", "time_forfeit")


def test_no_period_follows_sudden_death_nor_a_flag_still_up() -> None:
    with pytest.raises(GameError, match="no period follows"):
        _flag_down("2023", "5400").apply(ev("decision", 5420, on="period", ruling="next_period"))
    with pytest.raises(GameError, match="no flag has fallen"):
        _flag_down("2023").apply(ev("decision", 100, on="period", ruling="next_period"))


def test_an_arbiter_present_saw_the_flag_fall_the_game_is_over() -> None:
    """An arbiter watching the board saw the flag at its instant and counted the moves himself."""
    g = game(start(edition="2023", time_control="40/5400:1800"), moves(["e4", "e5"]))
    with pytest.raises(GameError, match="over"):
        g.apply(ev("decision", 5420, on="period", ruling="next_period"))


# --- requests to see the scoresheet ------------------------------------------------------------------------


def _rapid(**fields: object) -> Game:
    return game(start(edition="2023", time_control="900+10", **fields), moves(["e4", "e5"]))


def test_a_4_3_five_requests_then_a_distraction() -> None:
    """2023 rapid with full supervision (A.4): White, having the move, asks five times to be shown the
    scoresheet; the sixth request is a distraction of the opponent (A.4.3)."""
    g = _rapid()
    for i in range(5):
        g = g.apply(ev("request_scoresheet", 21 + i, "white"))
        assert last_ruling(g).article == "A.4.3" and f"{i + 1} of the 5" in last_ruling(g).text
    g = g.apply(ev("request_scoresheet", 27, "white"))
    assert "distraction of the opponent" in last_ruling(g).text


def test_a_4_3_only_when_it_is_his_move() -> None:
    g = _rapid().apply(ev("request_scoresheet", 21, "black"))
    assert last_ruling(g).article == "A.4.3" and "declines" in last_ruling(g).text
    assert g.state.scoresheet_requests == {}


def test_b_2_3_in_blitz() -> None:
    g = game(start(edition="2023", time_control="180+2"), moves(["e4"]), ev("request_scoresheet", 12, "black"))
    assert last_ruling(g).article == "B.2.3" and "1 of the 5" in last_ruling(g).text


@pytest.mark.parametrize("edition", EDITIONS)
def test_elsewhere_the_arbiter_does_not_tell_the_moves(edition: str) -> None:
    """Standard play (and 2023 rapid under A.5): the arbiter shall not indicate the number of moves
    (2023 12.6, 1997 13.6, 1989 12.9); once a flag has fallen 2023 and 1997 let him, to bring the
    scoresheets up to date (8.5), 1989 12.9 never."""
    g = _flag_down(edition).apply(ev("request_scoresheet", 100, "white"))
    assert last_ruling(g).article == {"1989": "12.9", "1997": "13.6", "2023": "12.6"}[edition]
    assert "declines" in last_ruling(g).text
    g = _flag_down(edition).apply(ev("request_scoresheet", 5420, "black"))
    assert ("declines" in last_ruling(g).text) == (edition == "1989")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_scoresheet_to_write_on(edition: str) -> None:
    """2023 A.2: in rapid play the players need not record and may ask for a scoresheet. 1997 B.3
    only says they need not record; 1989 has no rapid play: 11.1, each player records."""
    g = game(start(edition=edition, time_control="1800"), ev("request_scoresheet", 5, "white", kind="blank"))
    assert last_ruling(g).article == {"1989": "11.1", "1997": "B.3", "2023": "A.2"}[edition]


# --- the result after the signatures ----------------------------------------------------------------------


def _signed_wrongly(edition: str) -> Game:
    """Black resigns; both players sign 1/2-1/2 by mistake."""
    return game(start(edition=edition, time_control="5400"), moves(["e4", "e5"]), ev("resign", 25, "black"),
                ev("sign", 30, "white", result="1/2-1/2"), ev("sign", 31, "black", result="1/2-1/2"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_arbiter_decides_otherwise(edition: str) -> None:
    """2023 8.7: the signed 1/2-1/2 stands "unless the arbiter decides otherwise": he decides 1-0.
    1997 and 1989 give the signature no force: the result was 1-0 all along, and the arbiter's
    decision confirms it (1997 13.1, 1989 16.1)."""
    g = _signed_wrongly(edition)
    assert g.state.result == ("1/2-1/2" if edition == "2023" else "1-0")
    g = g.apply(ev("decision", 40, on="result", ruling="white_wins"))
    assert summary(g) == ("finished", "1-0", "resignation")
    assert last_ruling(g).article == {"1989": "16.1", "1997": "13.1", "2023": "8.7"}[edition]
    assert g.state.outcome is not None and g.state.outcome.score == {"white": 1, "black": 0}


@pytest.mark.parametrize("edition", EDITIONS)
def test_without_a_signed_result_no_other_result_can_be_decided(edition: str) -> None:
    """Nothing signed (and under 1997 and 1989 ever): the arbiter cannot give another result than the
    game's; a penalty is the way to change points."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4", "e5"]), ev("resign", 25, "black"))
    with pytest.raises(GameError, match="the one the game gave"):
        g.apply(ev("decision", 40, on="result", ruling="draw"))
    if edition != "2023":
        with pytest.raises(GameError, match="the one the game gave"):
            _signed_wrongly(edition).apply(ev("decision", 40, on="result", ruling="draw"))


def test_the_result_is_decided_once_the_game_is_over() -> None:
    with pytest.raises(GameError, match="concluded"):
        _flag_down("2023").apply(ev("decision", 40, on="result", ruling="draw"))

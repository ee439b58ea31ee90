"""Displaced pieces (``displace``, ``restore``): 2023 7.4.1-7.4.3, 1997 7.3, 1989 8.3. The
player re-establishes the position on his own time; the editions differ on what the opponent may do
when the displacer's clock is not running. Clock values are worked out by hand from ``t``."""

from __future__ import annotations

import pytest

from chesslaws.events import EventError
from chesslaws.game import Game, GameError
from _arb import ev, game, start

EDITIONS = ["1989", "1997", "2023"]


def clocks(g: Game) -> tuple[int | None, int | None, str | None]:
    c = g.to_json()["clocks"]
    return c["white_ms"], c["black_ms"], c["running"]


def knocked_over(edition: str) -> Game:
    """White plays e4 and presses at t=10, knocking over the pawns of c2 and d2 as he does."""
    return game(start(edition=edition, time_control="40/5400"), ev("move", 10, "white", move="e4"),
                ev("displace", 10, "white", squares=["c2", "d2"]))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_displacer_must_restore_on_his_own_time(edition: str) -> None:
    g = knocked_over(edition)
    ruling = g.state.rulings[-1]
    assert ruling.article == {"1989": "8.3", "1997": "7.3", "2023": "7.4.1"}[edition]
    assert "on his own time" in ruling.text
    assert ("restart White's clock" in ruling.text) == (edition == "1997")
    assert ("arbiter's assistance" in ruling.text) == (edition == "2023")
    assert {"kind": "pieces_displaced", "by": "white", "squares": ["c2", "d2"]} in g.state.pending()


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_opponent_presses_the_clock(edition: str) -> None:
    """Black presses at t=12 to make White restore on his own time. 1997 7.3 gives him that right:
    White's clock runs; White restores at t=40 and presses at t=41 (39 s used in all). 1989 and 2023
    give no such right: 2023 7.5.3 penalises it as an illegal move (Black should pause the clock
    and call the arbiter, 7.4.2); 1989 12.5 has the arbiter restart Black's clock."""
    g = knocked_over(edition).apply(ev("press_clock", 12, "black"))
    if edition == "1997":
        assert g.state.rulings[-1].article == "7.3"
        assert clocks(g.at(40)) == (5_362_000, 5_398_000, "white")
        g = g.apply(ev("restore", 40, "white")).apply(ev("press_clock", 41, "white"))
        assert clocks(g.at(50)) == (5_361_000, 5_389_000, "black")
        assert g.state.pending() == [] and g.state.illegal_moves["black"] == 0
    else:
        assert {"1989": "12.5", "2023": "7.5.3"}[edition] in [r.article for r in g.state.rulings[-2:]]
        assert clocks(g.at(20))[2] == "black"
        assert g.state.illegal_moves["black"] == (1 if edition == "2023" else 0)


def test_2023_the_clock_paused_and_the_arbiter_called() -> None:
    """2023 7.4.2-7.4.3: Black pauses the clock and calls the arbiter; White restores, the arbiter
    gives White a warning and restarts the clocks."""
    g = knocked_over("2023").apply(ev("stop_clocks", 12, "black"))
    g = g.apply(ev("restore", 30, "white")).apply(ev("penalty", 31, against="white", kind="warning"))
    g = g.apply(ev("start_clocks", 32))
    assert g.state.pending() == []
    assert clocks(g.at(40))[2] == "black"


@pytest.mark.parametrize("edition", EDITIONS)
def test_displaced_on_his_own_time_before_moving(edition: str) -> None:
    """White knocks over his knight while thinking: his clock runs anyway; he restores and moves."""
    g = game(start(edition=edition, time_control="40/5400"), ev("displace", 5, "white", squares=["g1"]),
             ev("restore", 8, "white"), ev("move", 10, "white", move="Nf3"))
    assert "may restart" not in g.state.rulings[0].text
    assert clocks(g.at(10)) == (5_390_000, 5_400_000, "black")


def test_displace_and_restore_refusals() -> None:
    g = Game.from_start(start(edition="2023", time_control="40/5400"))
    with pytest.raises(GameError):
        g.apply(ev("restore", 1, "white"))
    with pytest.raises(GameError):
        g.apply(ev("displace", 1, "white", squares=["e4"]))  # no piece there
    with pytest.raises(EventError):
        g.apply(ev("displace", 1, "white", squares=[]))
    with pytest.raises(EventError):
        g.apply(ev("displace", 1, "white", squares=["z9"]))

"""The clock in use (start field ``clock``). Whether both flags having fallen is ruled by
1989 12.8, 1997 6.11 / 10.4 or 2023 III.3.1 depends on whether "it is impossible to establish which
flag fell first": a digital clock establishes it, analogue flags do not (the default).

The narrative: 2 minutes each, no arbiter at the board. White plays at t=10; Black, whose flag
falls at t=130, replies at t=140 anyway; White's flag falls at t=250. At t=300 a claim brings the
arbiter: both flags are down, Black's first.
"""

from __future__ import annotations

import pytest

from chesslaws.game import Game
from _arb import ev, game, start, summary

EDITIONS = ["1989", "1997", "2023"]


def both_down(edition: str, clock: str | None, claimant: str = "black", mode: str = "standard") -> Game:
    fields = {"edition": edition, "time_control": "120", "mode": mode, "arbiter": "absent"}
    if clock is not None:
        fields["clock"] = clock
    return game(start(**fields), ev("move", 10, "white", move="e4"), ev("move", 140, "black", move="e5"),
                ev("claim_flag", 300, claimant))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("claimant", ["white", "black"])
def test_a_digital_clock_shows_which_flag_fell_first(edition: str, claimant: str) -> None:
    g = both_down(edition, "digital", claimant)
    assert summary(g) == ("finished", "1-0", "time_forfeit")
    first = g.state.rulings[-2]
    assert first.article == {"1989": "12.8", "1997": "6.11", "2023": "III.3.1"}[edition]
    assert "Black's fell first (at t=130)" in first.text


@pytest.mark.parametrize("edition", EDITIONS)
def test_analogue_flags_leave_it_unknown(edition: str) -> None:
    """The default (and "analogue"): which fell first cannot be established; the editions' rule for
    it applies (in a sudden-death game: 1989 12.8 continues, 1997 10.4 and 2023
    III.3.1.2 draw). Nobody wins on time."""
    for clock in (None, "analogue"):
        g = both_down(edition, clock)
        assert g.state.result != "1-0"
        assert "cannot be established" in g.state.rulings[-1].text
    assert both_down(edition, None).to_json() == both_down(edition, "analogue").to_json()


def test_1997_rapid_both_flags_draw_whatever_the_clock() -> None:
    """1997 B.8: "If both flags have fallen, the game is drawn" -- no condition on the clock."""
    assert summary(both_down("1997", "digital", mode="rapid")) == ("finished", "1/2-1/2", "both_flags_fallen")

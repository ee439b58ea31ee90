"""Who is at the board when an adjourned game's session starts (``resume`` with ``present``): over the board
the arbiter says it, and the default time (0:00 under 2023 6.7.1 unless the regulations say otherwise) runs
only against the players not there."""

from __future__ import annotations

import pytest
from _arb import ev, game, moves, start

from chesslaws.errors import ChessLawsError

TC = "40/7200:1800"


def adjourned(edition: str, **start_fields: object) -> list[dict[str, object]]:
    """1. e4 e5, White seals move 2 (Nc3) at t=100."""
    return [start(edition=edition, time_control=TC, white="Ann", black="Bob", **start_fields), *moves(["e4", "e5"]),
            ev("seal", 100, "white", move="Nc3")]


@pytest.mark.parametrize("edition", ["2023", "1997", "1989"])
def test_both_present_the_envelope_opens_at_once_and_nobody_is_late(edition: str) -> None:
    g = game(*adjourned(edition), ev("resume", 1000, "arbiter", present=["white", "black"]))
    st = g.at(1005).state
    assert st.status == "ongoing" and st.absent == frozenset()
    assert st.sans == ["e4", "e5", "Nc3"] and st.envelope is None  # opened in Black's presence
    assert "White and Black are at the board" in g.state.rulings[-2].text
    g = g.apply(ev("move", 1005, "black", move="Nc6"))
    assert g.state.sans[-1] == "Nc6"


def test_under_2023_without_presence_both_lose_at_once() -> None:
    """The default time of 2023 is zero: a resumption that names nobody present ends 0-0 (I.10)."""
    st = game(*adjourned("2023"), ev("resume", 1000, "arbiter")).at(1000.5).state
    assert st.result == "0-0" and st.termination == "late_arrival"


def test_under_2023_the_sealer_absent_loses_the_replier_present_wins() -> None:
    st = game(*adjourned("2023"), ev("resume", 1000, "arbiter", present=["black"])).at(1000.5).state
    assert st.result == "0-1" and st.termination == "late_arrival"


def test_the_games_default_time_runs_for_the_absent_from_the_resumption() -> None:
    """A default time set when the game was created (15 minutes) is the resumption's too."""
    g = game(*adjourned("2023", default_time=900), ev("resume", 1000, "arbiter", present=["black"]))
    assert g.at(1000 + 899).state.status == "ongoing"
    g = g.apply(ev("arrive", 1899, "white"))
    assert g.at(1000 + 950).state.status == "ongoing" and g.state.absent == frozenset()


@pytest.mark.parametrize("edition", ["1997", "1989"])
def test_before_2023_the_hour_of_default_time_still_applies(edition: str) -> None:
    g = game(*adjourned(edition), ev("resume", 1000, "arbiter", present=["black"]))
    assert g.at(1000 + 3599).state.status == "ongoing"
    assert g.at(1000 + 3601).state.result == "0-1"


@pytest.mark.parametrize("present", [["green"], ["white", "white"], "white"])
def test_present_names_players(present: object) -> None:
    with pytest.raises(ChessLawsError, match="present"):
        game(*adjourned("1997"), ev("resume", 1000, "arbiter", present=present))

"""The grounds of a quickplay-finish claim and the final position written down
(``claim_draw`` with ``grounds`` and ``final_position``): 1997 10.2 and D.1, 2023 III.5 and III.6.1.
The arbiter's ``decision`` decides; the claim says what it rests on.

The story: 90 minutes for the game, 1.e4 e5, and at t=5300 White (under two minutes) claims."""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.game import Game
from _arb import ev, game, start

AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def claimed(edition: str, arbiter: str = "present", **claim: object) -> Game:
    fields: dict[str, object] = {"edition": edition, "time_control": "5400", "arbiter": arbiter}
    if edition == "2023":
        fields["quickplay_guidelines"] = True
    return game(start(**fields), ev("move", 10, "white", move="e4"), ev("move", 20, "black", move="e5"),
                ev("claim_draw", 5300, "white", reason="quickplay", **claim))


@pytest.mark.parametrize("edition", ["1997", "2023"])
def test_the_claim_states_its_grounds(edition: str) -> None:
    g = claimed(edition, grounds="no_effort")
    r = g.state.rulings[-1]
    assert r.article == {"1997": "10.2", "2023": "III.5"}[edition]
    assert "making no effort to win by normal means" in r.text
    assert {"kind": "claim", "reason": "quickplay", "by": "white"} in g.state.pending()


@pytest.mark.parametrize("edition", ["1997", "2023"])
def test_without_an_arbiter_the_final_position_is_written_and_verified(edition: str) -> None:
    """1997 D.1, 2023 III.6.1: no arbiter present: the claimant writes the final position down and
    the opponent verifies it; on the ground of no effort he also submits his scoresheet."""
    right = claimed(edition, "absent", grounds="cannot_win", final_position=AFTER_E4_E5)
    assert right.state.rulings[-1].article == {"1997": "D.1", "2023": "III.6.1"}[edition]
    assert "Black verifies it" in right.state.rulings[-1].text
    wrong = claimed(edition, "absent", grounds="no_effort", final_position="8/8/8/8/8/8/8/K6k")
    assert "cannot verify it" in wrong.state.rulings[-1].text
    assert "up-to-date scoresheet" in wrong.state.rulings[-1].text
    missing = claimed(edition, "absent", grounds="cannot_win")
    assert "must write down the final position" in missing.state.rulings[-1].text


def test_a_claim_without_grounds_is_as_before() -> None:
    g = claimed("1997")
    assert g.state.rulings == ()


def test_grounds_must_be_one_of_the_texts() -> None:
    with pytest.raises(ChessLawsError) as err:
        claimed("1997", grounds="tired")
    assert "'grounds'" in str(err.value)

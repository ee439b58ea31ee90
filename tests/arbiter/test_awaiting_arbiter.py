"""What stops play until the arbiter decides: a quickplay-finish claim (1997 10.2,
without an arbiter present D.1; 2023 Guidelines III.5, without one III.6.1) and a request for an
increment (2023 III.4). The live server takes such a claim only where an arbiter can decide it."""

from __future__ import annotations

import pytest

from chesslaws.game.draws import awaiting_arbiter
from _arb import ev, game, start


@pytest.mark.parametrize(("edition", "arbiter", "article", "concludes"), [
    ("1997", "present", "10.2", False), ("1997", "absent", "D.1", True),
    ("2023", "present", "III.5", False), ("2023", "absent", "III.6.1", True)])
def test_a_quickplay_claim_waits_for_the_arbiter(edition: str, arbiter: str, article: str, concludes: bool) -> None:
    fields = {"quickplay_guidelines": True} if edition == "2023" else {}
    g = game(start(edition=edition, time_control="60", mode="rapid", arbiter=arbiter, **fields),
             ev("move", 2, "white", move="e4"), ev("claim_draw", 3, "black", reason="quickplay"))
    wait = awaiting_arbiter(g.state)
    assert wait is not None and g.state.clock.running is None
    assert (wait.article, wait.concludes, wait.claim.by) == (article, concludes, "black")
    assert "quickplay" in wait.what
    # Only the arbiter's decision ends the wait: then play goes on, or the game is over.
    rejected = g.apply(ev("decision", 10, "arbiter", on="quickplay", ruling="reject"))
    assert awaiting_arbiter(rejected.state) is None and rejected.state.clock.running == "black"
    drawn = g.apply(ev("decision", 10, "arbiter", on="quickplay", ruling="draw"))
    assert awaiting_arbiter(drawn.state) is None and drawn.state.result == "1/2-1/2"


def test_a_request_for_an_increment_waits_for_the_arbiter() -> None:
    g = game(start(edition="2023", time_control="90", mode="standard", quickplay_guidelines=True),
             ev("request_increment", 40, "white"))
    wait = awaiting_arbiter(g.state)
    assert wait is not None and wait.article == "III.4" and not wait.concludes


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
def test_nothing_waits_for_the_arbiter_in_ordinary_play(edition: str) -> None:
    g = game(start(edition=edition, time_control="600"), ev("move", 2, "white", move="e4"),
             ev("claim_draw", 3, "black", reason="threefold"))
    assert awaiting_arbiter(g.state) is None

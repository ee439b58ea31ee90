"""The page's quickplay-finish offer and the arbiter's ruling cannot disagree.

Over every edition, mode and time-control kind, with and without Guidelines III announced, with an
arbiter present or absent, and for the player having the move and his opponent: a game is built from
its start event, a few moves are played, and the claimant is brought under two minutes. The page
offers the claim exactly as ``web/game.js`` enables its button (the ``quickplay`` block of
``controls``: present, ``needs_move``, ``below_ms``; and the state's ``quickplay_players``); the arbiter is then asked. Offered
must mean the arbiter takes the claim for a decision (pending for him, or concluded without him);
not offered must mean he refuses it (a ``WrongState``, or a ruling that the claim is not admitted).

The Laws: 1989 has no quickplay finish; 1997 10.1-10.2 (the last period, all the remaining moves in a
limited time), C.5 (not in blitz), D.1 (no arbiter present); 2023 Guidelines III.1, III.2.1 (only where
announced), III.2.2 (standard and rapid games without increment, not blitz), III.5 (the player having
the move), III.6.1 (no arbiter present)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from chesslaws.errors import WrongState
from chesslaws.game import Game
from chesslaws.server.controls import controls, quickplay_players

BASE = {"standard": 5400, "rapid": 1500, "blitz": 300}
SANS = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]


def kinds(mode: str) -> dict[str, str]:
    b = BASE[mode]
    return {
        "unlimited": "-",
        "sudden_death": f"{b}",
        "increment": f"{b}+10",
        "simple_delay": f"{b}d5",
        "bronstein_delay": f"{b}b5",
        "moves_then_sudden_death": f"2/{b}:{b // 2}",
        "moves_then_increment": f"2/{b}+10:{b // 2}+10",
        "moves_repeating": f"2/{b}",
    }


def page_offers(c: dict[str, Any], g: Game, by: str, t_ms: int) -> bool:
    """What the page's quickplay button says for ``by`` at ``t_ms`` (``web/game.js``)."""
    q = c["quickplay"]
    if q is None:
        return False
    s = g.state
    left = s.clock.remaining(t_ms, by)  # type: ignore[arg-type]
    if left is None or left >= q["below_ms"]:
        return False
    if q["needs_move"] and s.turn != by:
        return False
    return by in quickplay_players(s)


def arbiter_takes(g: Game, by: str, t_ms: int) -> bool:
    """Does the arbiter take ``by``'s quickplay claim at ``t_ms`` for a decision?"""
    before = len(g.state.rulings)
    try:
        after = g.apply({"type": "claim_draw", "t": t_ms / 1000, "by": by, "reason": "quickplay"})
    except WrongState:
        return False
    s = after.state
    if any(p.get("kind") == "claim" and p.get("reason") == "quickplay" for p in s.pending()):
        return True
    refused = [r for r in s.rulings[before:] if "is not admitted" in r.text]
    assert refused or s.result is not None, (s.rulings, s.pending())
    return not refused


CASES = [c for c in itertools.product(["1989", "1997", "2023"], ["standard", "rapid", "blitz"],
                                      list(kinds("standard")), [False, True], ["present", "absent"],
                                      [2, 4, 6], ["mover", "opponent"])
         if not (c[3] and c[0] != "2023")]  # only the 2023 Laws have Guidelines III to announce


@pytest.mark.parametrize("edition,mode,kind,announced,arbiter,plies,who", CASES)
def test_the_page_offers_the_claim_exactly_when_the_arbiter_takes_it(
        edition: str, mode: str, kind: str, announced: bool, arbiter: str, plies: int, who: str) -> None:
    start: dict[str, Any] = {"type": "start", "t": 0, "edition": edition, "mode": mode,
                             "time_control": kinds(mode)[kind], "arbiter": arbiter}
    if announced:
        start["quickplay_guidelines"] = True
    g = Game.from_start(start)
    t_ms = 0
    for i, san in enumerate(SANS[:plies]):
        side = "white" if i % 2 == 0 else "black"
        t_ms += 1000
        left = g.state.clock.remaining(t_ms, side)  # type: ignore[arg-type]
        if i == plies - 1 and left is not None:
            t_ms += left - 60_000  # the last move leaves its player a minute
        g = g.apply({"type": "move", "t": t_ms / 1000, "by": side, "move": san})
    mover = g.state.turn
    by = mover if who == "mover" else ("black" if mover == "white" else "white")
    left = g.state.clock.remaining(t_ms, by)  # type: ignore[arg-type]
    if by == mover and left is not None:
        t_ms += left - 60_000  # the claimant's running clock brought to a minute
    offered = page_offers(controls(g.state), g, by, t_ms)
    taken = arbiter_takes(g, by, t_ms)
    assert offered == taken, f"page offers: {offered}, arbiter takes: {taken}"


def test_after_an_increment_granted_neither_offers_the_claim() -> None:
    """2023 III.4 then III.2.2: once the arbiter has granted the increment the game has one, and neither the
    page nor the arbiter admits a quickplay-finish claim any longer (III.5: "If Article III.4 does not apply")."""
    g = Game.from_start({"type": "start", "t": 0, "edition": "2023", "mode": "standard", "time_control": "90",
                         "quickplay_guidelines": True, "arbiter": "present"})
    assert controls(g.state)["quickplay"] is not None and quickplay_players(g.state) == ["white", "black"]
    g = g.apply({"type": "request_increment", "t": 40, "by": "white"})
    g = g.apply({"type": "decline_draw", "t": 42, "by": "black"})
    g = g.apply({"type": "decision", "t": 45, "by": "arbiter", "on": "increment", "ruling": "grant"})
    assert quickplay_players(g.state) == []  # the page offers it to nobody
    assert not arbiter_takes(g, "white", 50_000)

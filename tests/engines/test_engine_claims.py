"""What an engine claims (chesslaws.engine_claims): one rule for an engine in a match and an engine on the
live server. Each claim where it arises, nothing where it does not, and the match's claim after a move is
exactly the rule's first (tests/server/test_engine_seats.py has the server's seat claim by it too)."""

from __future__ import annotations

from typing import Any

import pytest

from chesslaws.engine_claims import FIFTY, FLAG, ILLEGAL_MOVE, THREEFOLD, TOUCH_MOVE, Claim, engine_claims
from chesslaws.game import Game, other
from chesslaws.match.adjudication import Adjudication, after_move


def ev(kind: str, t: float, by: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "t": t, "by": by, **fields}


def moves(game: Game, sans: list[str], t0: float = 1.0) -> Game:
    for i, san in enumerate(sans):
        game = game.apply(ev("move", t0 + i, game.state.turn, move=san))
    return game


def threefold() -> Game:
    return moves(Game.start(edition="2023", time_control="600+0"), ["Nf3", "Nf6", "Ng1", "Ng8"] * 2)


def fifty() -> Game:
    fen = "4k3/8/8/8/8/8/8/R3K3 b - - 99 80"
    return moves(Game.start(edition="2023", time_control="600+0", fen=fen), ["Kd7"])


def illegal_1997_blitz() -> Game:
    return Game.start(edition="1997", time_control="300", arbiter="absent").apply(ev("move", 5, "white",
                                                                                     move="e2e5"))


def touch_violation() -> Game:
    g = Game.start(edition="2023", time_control="600+0")
    g = g.apply(ev("touch", 1, "white", square="g1"))
    return g.apply(ev("move", 2, "white", move="e4"))


def flag_1997_blitz() -> Game:
    """1997 blitz (flags count on a claim, C.7): White moves after its flag fell; nobody saw it."""
    g = moves(Game.start(edition="1997", time_control="10"), ["e4", "e5"])
    return g.apply(ev("move", 15, "white", move="Nf3"))


CASES = {
    "threefold": (threefold, (THREEFOLD,)),
    "fifty": (fifty, (FIFTY,)),
    "illegal move standing (1997 blitz)": (illegal_1997_blitz, (ILLEGAL_MOVE,)),
    "touch-move violation": (touch_violation, (TOUCH_MOVE,)),
    "flag fallen, unseen (1997 blitz)": (flag_1997_blitz, (FLAG,)),
    "nothing": (lambda: moves(Game.start(edition="2023", time_control="600+0"), ["e4"]), ()),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_engine_to_move_claims_what_arises_and_nothing_else(case: str) -> None:
    make, expected = CASES[case]
    s = make().state
    assert s.ongoing
    t_ms = s.t_ms
    assert engine_claims(s, s.turn, t_ms) == expected
    # The side that has just moved claims nothing of it: neither its own infraction nor the draws.
    assert engine_claims(s, other(s.turn), t_ms) == ()


def test_draw_claims_only_when_asked_for_and_the_flag_only_once_fallen() -> None:
    s = threefold().state
    assert engine_claims(s, s.turn, s.t_ms, draws=False) == ()
    g = moves(Game.start(edition="1997", time_control="10"), ["e4"])  # Black's clock runs from t=1
    s = g.state
    assert engine_claims(s, "white", 10_999) == ()
    assert engine_claims(s, "white", 11_000) == (FLAG,)  # while the opponent thinks: its flag
    # With flag falls seen by the arbiter there is nothing to claim: the game ends by itself.
    s = moves(Game.start(edition="2023", time_control="10"), ["e4"]).state
    assert s.config.flags_observed and engine_claims(s, "white", 20_000) == ()


@pytest.mark.parametrize("case", [c for c in CASES if CASES[c][1]])
def test_the_match_makes_the_claim_the_rule_gives(case: str) -> None:
    """The match's claim after a move is the rule's first claim, by the side to move, at the move's instant:
    if the match decided claims of its own this would part."""
    game = CASES[case][0]()
    s = game.state
    claims: tuple[Claim, ...] = engine_claims(s, s.turn, s.t_ms)
    after = after_move(game, other(s.turn), s.t_ms, Adjudication(), {"white": [], "black": []})
    last = after.events[-1].to_json()
    assert last == {**claims[0], "t": s.t_ms / 1000, "by": s.turn}

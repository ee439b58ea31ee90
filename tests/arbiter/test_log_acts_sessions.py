"""What the log says beyond the moves, continued: the times allotted in proportion when the position
reinstated lies before a time control (1989 12.6), a draw agreement the regulations leave to the arbiter's
consent when no arbiter is left to give it, and a touch-move claim made during an adjournment about the
session that ended, ruled under each edition."""

from __future__ import annotations

import pytest

from _arb import SHUFFLE, ev, game, last_ruling, moves, start, summary


def _two_controls_fifty_moves_each() -> list[dict[str, object]]:
    """50 moves each under 40 moves in 2 hours then 20 in 1 hour: White thinks 150 s a move, Black 90 s."""
    out = []
    for i, san in enumerate(SHUFFLE * 25):
        full, black = divmod(i, 2)
        out.append(ev("move", full * 240 + (240 if black else 150), "black" if black else "white", move=san))
    return out


def test_1989_12_6_across_a_time_control() -> None:
    """After Black's 50th move it is found that an irregularity took place at the 30th. White's clock shows
    125 minutes for 50 moves, Black's 75: White is allotted 125 x 30/50 = 75 minutes, Black 45, for the
    first 30 moves. Both are back in the first control (40 moves in 2 hours) with 10 moves to make: White
    has 2 hours less 75 minutes, Black 2 hours less 45 minutes; the hour the second control gave each after
    his 40th move is not theirs until they make their 40th move again."""
    g = game(start(edition="1989", time_control="40/7200:20/3600"), _two_controls_fifty_moves_each())
    assert g.state.remaining_ms("white") == 10_800_000 - 125 * 60_000
    g = g.apply(ev("reinstate", 12_000, ply=60, proportional=True))
    assert last_ruling(g).article == "12.6" and "less the 1:00:00" in last_ruling(g).text
    assert g.state.remaining_ms("white") == 7_200_000 - 75 * 60_000
    assert g.state.remaining_ms("black") == 7_200_000 - 45 * 60_000
    # The second control's hour comes again with the 40th move.
    g = game(start(edition="1989", time_control="40/7200:20/3600"), _two_controls_fifty_moves_each(),
             ev("reinstate", 12_000, ply=60, proportional=True), moves(SHUFFLE * 5, t0=12_000, step=10))
    assert g.state.remaining_ms("white") == 7_200_000 - 75 * 60_000 - 100_000 + 3_600_000


def test_1989_12_6_never_below_the_limit_of_the_reinstated_position() -> None:
    """Black thought 175 s a move up to his 40th move, then 300 s: 10,000 s for 50 moves, 800 s left of the
    two controls. Reinstated after 35 moves each, he is allotted 10,000 x 35/50 = 7,000 s of the first
    control's 7,200: 200 s for 5 moves. 12.6 "must not be used to leave a player with less than five
    minutes to the time control, or less than one minute for every move": he has five minutes. White (60 s
    a move, 3,000 s) is allotted 2,100 s and has 5,100 s."""
    events, t = [], 0
    for k in range(50):
        t += 60
        events.append(ev("move", t, "white", move=SHUFFLE[(2 * k) % 4]))
        t += 175 if k < 40 else 300
        events.append(ev("move", t, "black", move=SHUFFLE[(2 * k + 1) % 4]))
    g = game(start(edition="1989", time_control="40/7200:20/3600"), events,
             ev("reinstate", t, ply=70, proportional=True))
    assert g.state.remaining_ms("black") == 300_000
    assert g.state.remaining_ms("white") == 5_100_000
    assert "raised" in last_ruling(g).text and last_ruling(g).article == "12.6"
    # The 1997 Laws leave the times to the arbiter's best judgement (6.13): no such floor.
    g = game(start(edition="1997", time_control="40/7200:20/3600"), events,
             ev("reinstate", t, ply=70, proportional=True))
    assert g.state.remaining_ms("black") == 200_000


def test_the_agreement_waiting_for_the_arbiters_consent_lapses_without_him() -> None:
    """A live game's server enters the lapse when no arbiter watches any more: no agreement without his
    consent; the offer lapses and the clocks run again."""
    g = game(start(edition="2023", time_control="5400", no_draw_offers=True), moves(["e4", "e5"]),
             ev("offer_draw", 25, "white"), ev("accept_draw", 26, "black"),
             ev("decision", 40, on="agreement", ruling="lapse"))
    assert summary(g) == ("ongoing", "*", None) and g.state.offer is None and g.state.claims == ()
    assert g.state.clock.running == "white" and last_ruling(g).article == "9.1.1"
    assert "no agreement" in last_ruling(g).text

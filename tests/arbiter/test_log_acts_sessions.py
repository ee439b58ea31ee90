"""What the log says beyond the moves, continued: the times allotted in proportion when the position
reinstated lies before a time control (1989 12.6), a draw agreement the regulations leave to the arbiter's
consent when no arbiter is left to give it, and a touch-move claim made during an adjournment about the
session that ended, ruled under each edition."""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError

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


# --- a touch-move claim during the adjournment --------------------------------------------------------------
TOUCH = {"1989": "7", "1997": "4.3", "2023": "4.3"}
OPENED = {"1989": "14.2", "1997": "A.9", "2023": "I.7"}
RIGHT = {"1989": "7", "1997": "4.6", "2023": "4.8"}


def _white_broke_touch_move(edition: str) -> list[dict[str, object]]:
    """White touched his knight on g1 and played 2.Bc4; Black, instead of claiming, sealed 2...Nc6."""
    return [start(edition=edition, time_control="40/7200", arbiter="absent", default_time=3600), *moves(["e4", "e5"]),
            ev("touch", 25, "white", square="g1"), ev("move", 30, "white", move="Bc4"),
            ev("seal", 40, "black", move="Nc6")]


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
def test_the_sealer_claims_touch_move_during_the_adjournment(edition: str) -> None:
    """The sealer wrote his move and touched no piece: his right to claim stands (1997 4.6, 2023 4.8: it is
    lost by touching a piece). Upheld: 2.Bc4 is taken back, the envelope is set aside unopened (its move
    answered a position that no longer stands), and at the resumption White moves his knight."""
    log = _white_broke_touch_move(edition)
    g = game(log[0], *log[1:], ev("claim_touch_move", 100, "black"))
    assert g.state.status == "adjourned" and g.state.sans == ["e4", "e5"] and g.state.envelope is None
    assert g.state.clock.running is None and g.state.touched == ("g1",)
    assert TOUCH[edition] in [r.article for r in g.state.rulings[-2:]] and "upheld" in g.state.rulings[-2].text
    g = g.apply(ev("resume", 1000)).apply(ev("arrive", 1001, "white")).apply(ev("arrive", 1002, "black"))
    assert g.state.clock.running == "white"
    g = g.apply(ev("move", 1010, "white", move="Nf3"))
    assert g.state.sans == ["e4", "e5", "Nf3"] and g.state.touch_violation is None


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
def test_a_sealers_claim_against_a_move_that_kept_article_4_is_rejected(edition: str) -> None:
    g = game(start(edition=edition, time_control="40/7200", arbiter="absent", default_time=3600), moves(["e4", "e5", "Bc4"]),
             ev("seal", 40, "black", move="Nc6"), ev("claim_touch_move", 100, "black"))
    assert g.state.status == "adjourned" and g.state.envelope is not None and len(g.state.moves) == 3
    assert last_ruling(g).article == TOUCH[edition] and "rejected" in last_ruling(g).text


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
def test_the_repliers_claim_waits_for_the_envelope(edition: str) -> None:
    """White touched his knight and sealed 2.Bc4. Black's claim during the adjournment could only be
    against the sealed move, which stays in its envelope until he is present at the resumption: refused,
    with the article. Once it is opened and played, he claims, before touching a piece, and it is upheld."""
    base = [start(edition=edition, time_control="40/7200", arbiter="absent", default_time=3600), *moves(["e4", "e5"]),
            ev("touch", 25, "white", square="g1"), ev("seal", 30, "white", move="Bc4")]
    g = game(base[0], *base[1:])
    with pytest.raises(ChessLawsError, match=rf"Article {OPENED[edition]}\b.*Article {RIGHT[edition]}\b"):
        g.apply(ev("claim_touch_move", 100, "black"))
    g = g.apply(ev("resume", 1000)).apply(ev("arrive", 1001, "white")).apply(ev("arrive", 1002, "black"))
    assert g.state.sans == ["e4", "e5", "Bc4"]
    g = g.apply(ev("claim_touch_move", 1010, "black"))
    assert g.state.sans == ["e4", "e5"] and "upheld" in last_ruling(g).text
    assert g.state.clock.running == "white" and g.state.touched == ("g1",)
    # A sealed move that obeys the touched piece stands.
    kept = game(base[0], *base[1:-1], ev("seal", 30, "white", move="Nf3"), ev("resume", 1000),
                ev("arrive", 1001, "white"), ev("arrive", 1002, "black"), ev("claim_touch_move", 1010, "black"))
    assert kept.state.sans == ["e4", "e5", "Nf3"] and "rejected" in last_ruling(kept).text


def test_the_sealers_claim_at_the_resumption_before_the_envelope_is_opened() -> None:
    """Resumed, White (the replier, who broke touch-move) not yet there: Black's claim is upheld, the
    envelope set aside; White's clock runs and he moves his knight when he comes."""
    log = _white_broke_touch_move("2023")
    g = game(log[0], *log[1:], ev("resume", 1000), ev("arrive", 1001, "black"),
             ev("claim_touch_move", 1005, "black"))
    assert g.state.status == "ongoing" and g.state.envelope is None and g.state.sans == ["e4", "e5"]
    assert g.state.clock.running == "white"
    g = g.apply(ev("arrive", 1010, "white")).apply(ev("move", 1020, "white", move="Nf3"))
    assert g.state.sans == ["e4", "e5", "Nf3"]

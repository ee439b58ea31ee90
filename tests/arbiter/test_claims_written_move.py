"""Claims with a written move where the position on the board already decides."""

from __future__ import annotations

from _arb import SHUFFLE, ev, game, last_ruling, moves, start, summary


def test_threefold_has_just_appeared_even_if_the_written_move_would_not_repeat() -> None:
    """1997 9.2(b): the position has just appeared for the third time; the written move is not needed."""
    g = game(start(edition="1997", time_control="5400"), moves(SHUFFLE * 2),
             ev("claim_draw", 100, "white", reason="threefold", move="e4"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")
    assert g.state.sans == SHUFFLE * 2  # e4 was not played
    assert "just appeared for the third time" in last_ruling(g).text


def test_1989_fifty_claim_correct_on_moves_made_does_not_play_the_written_move() -> None:
    """1989 10.12: the 50 moves have been made; the written move stays off the board."""
    g = game(start(edition="1989", time_control="5400", fen="4k3/8/8/8/8/8/8/R3K3 w - - 100 80"),
             ev("claim_draw", 5, "white", reason="fifty", move="Ra2"))
    assert summary(g) == ("finished", "1/2-1/2", "fifty_moves")
    assert g.state.sans == []


def test_2023_both_flags_with_increment_in_the_last_period_is_a_draw_by_analogy_with_iii_3_1() -> None:
    """2023: Guidelines III are for games without increment (III.2.2) and the Laws have no
    other rule on both flags; the arbiter rules by analogy with III.3.1.2 (the Preface)."""
    g = game(start(edition="2023", time_control="60+1", arbiter="absent"), ev("move", 30, "white", move="e4"),
             ev("move", 120, "black", move="e5"), ev("claim_flag", 200, "white"))
    # Black: 60 s + nothing (flag fell at t=90, no increment after); White: 31 s left at 120, fell at 151.
    assert summary(g) == ("finished", "1/2-1/2", "both_flags_fallen")
    assert last_ruling(g).article == "III.3.1.2"

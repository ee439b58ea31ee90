"""What only the 2023 Laws have: Appendix D (play with visually disabled
players) and Guidelines I (adjourned games) under the 2023 numbering."""

from __future__ import annotations

import pytest

from _arb import ev, game, last_ruling, moves, start, summary

VD = {"edition": "2023", "time_control": "5400", "visually_disabled": ["black"]}


# --- Appendix D ---------------------------------------------------------------------------


def test_announced_move_agrees_with_the_board() -> None:
    """D.2.1: the move is announced clearly; when the announcement is the move executed,
    nothing more happens."""
    g = game(start(**VD), ev("move", 10, "white", move="e4", announced="e2-e4"),
             ev("move", 20, "black", move="e5", announced="e5"))
    assert g.state.sans == ["e4", "e5"] and g.state.rulings == ()


def test_slip_of_the_tongue_not_corrected_the_game_scores_decide() -> None:
    """White plays Nf3 on his board but announces "Nc3" and presses the clock (D.2.8: the slip
    had to be corrected before the opponent's clock started). The visually disabled player
    executed Nc3 on his own board; both game scores say Nc3 (D.2.9): Nc3 is the move made."""
    g = game(start(**VD), ev("move", 10, "white", move="Nf3", announced="Nc3"))
    assert g.state.sans == ["Nc3"]
    r = last_ruling(g)
    assert (r.article, r.t_ms) == ("D.2.9", 10_000)
    assert g.state.remaining_ms("white") == 5400_000 - 10_000


def test_announcing_without_a_visually_disabled_player_is_an_error() -> None:
    with pytest.raises(Exception, match="'announced'.*visually_disabled"):
        game(start(edition="2023"), ev("move", 10, "white", move="e4", announced="e4"))


def test_appendix_d_is_the_2023_laws() -> None:
    with pytest.raises(Exception, match="Appendix D is the 2023 Laws'"):
        game(start(edition="1997", visually_disabled=["white"]))


def test_touching_on_the_special_board() -> None:
    """D.2.2: on the visually disabled player's board a piece is touched when taken out of its
    securing aperture: the log's ``touch``; touch-move applies as usual (D.2.5 for the sighted)."""
    g = game(start(**VD), moves(["e4"]), ev("touch", 15, "black", square="g8"), ev("move", 20, "black", move="e5"))
    assert {"kind": "touch_move_claimable", "by": "white"} in g.state.pending()


def test_boards_differ_the_arbiter_retraces_to_where_the_scores_agree() -> None:
    """D.2.9: the positions on the two boards differ and the game scores differ too: the
    moves are retraced to the point where the two scores agree (after 1.e4) and the arbiter
    readjusts the clocks."""
    g = game(start(**VD), moves(["e4", "e5", "Nf3"]),
             ev("reinstate", 40, "arbiter", ply=1, white_ms=5390_000, black_ms=5385_000, reason="boards_differ"))
    assert g.state.sans == ["e4"] and g.state.turn == "black"
    assert last_ruling(g).article == "D.2.9"
    assert g.state.to_json()["clocks"] == {"white_ms": 5390_000, "black_ms": 5385_000, "running": "black"}


# --- Guidelines I: adjourned games under the 2023 Laws ----------------------------------------

TC = "40/7200:1800"
SEALED = [start(edition="2023", time_control=TC, default_time=1800), *moves(["e4", "e5"]),
          ev("seal", 100, "white", move="Nc3")]


def test_2023_adjournment_and_resumption() -> None:
    """I.1.1 the player having the move seals; I.5 the position and times are set up for the
    resumption; I.7 the envelope is opened when the replier is present; his clock runs from
    the start of the session."""
    g = game(*SEALED)
    assert g.state.status == "adjourned" and last_ruling(g).article == "I.1.1"
    g = g.apply(ev("resume", 10_000, "arbiter"))
    assert last_ruling(g).article == "I.5"
    g = g.apply(ev("arrive", 10_030, "black"))
    assert g.state.sans == ["e4", "e5", "Nc3"] and last_ruling(g).article == "I.7"
    assert g.state.remaining_ms("black") == 7200_000 - 10_000 - 30_000


def test_2023_draw_agreed_during_the_adjournment() -> None:
    """I.6: a draw agreed before the resumption concludes the game."""
    g = game(*SEALED, ev("offer_draw", 500, "black"), ev("accept_draw", 600, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


def test_2023_illegal_sealed_move_loses() -> None:
    """I.8: the game is lost by a player whose sealed move is illegal."""
    g = game(*SEALED[:-1], ev("seal", 100, "white", move="Nc4"), ev("resume", 10_000, "arbiter"),
             ev("arrive", 10_010, "black"))
    assert summary(g) == ("finished", "0-1", "sealed_move_invalid")
    assert last_ruling(g).article == "I.8"


def test_2023_replier_later_than_the_default_time_loses() -> None:
    """I.10 with 6.7.1: the replier arrives more than the default time (30 minutes, as the
    regulations announced) after the resumption, White being there: Black loses."""
    g = game(*SEALED, ev("resume", 10_000, "arbiter"), ev("arrive", 10_010, "white")).at(10_000 + 1801)
    assert summary(g) == ("finished", "1-0", "late_arrival")


def test_2023_lost_envelope() -> None:
    """I.12.1: the envelope has disappeared: the game goes on from the adjourned position with
    the recorded times, and the sealer makes his move on the board."""
    g = game(*SEALED, ev("resume", 10_000, "arbiter"), ev("arrive", 10_001, "white"),
             ev("envelope_lost", 10_002, "arbiter"))
    assert last_ruling(g).article == "I.12.1" and g.state.turn == "white"

"""Irregularities and the arbiter's hand: illegal moves, touch-move,
arbiter events, late arrival, rapid and blitz flags, quickplay finishes.

Every clock value is worked out by hand from the ``t`` of the events.
"""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.game import Game, LogError

from _arb import ev, game, last_ruling, moves, start, summary

LONE_KING_V_ROOK = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"


# --- illegal moves -------------------------------------------------------------------


def test_1997_quickplay_finish_three_illegal_moves_lose() -> None:
    """1997 Article 10.3: 2 minutes to the opponent for the first and second, the third loses."""
    g = game(
        start(edition="1997", time_control="5400"),
        ev("move", 10, "white", move="e2e5"),  # illegal: reinstated, Black +2:00
        ev("move", 20, "white", move="e2e4"),
        ev("move", 30, "black", move="e7e5"),
        ev("move", 40, "white", move="e1e3"),  # illegal: Black +2:00 again
    )
    st = g.state
    assert st.status == "ongoing" and st.turn == "white"
    assert st.position.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
    assert st.remaining_ms("black") == 5400_000 - 10_000 + 120_000 + 120_000
    assert [r.article for r in st.rulings] == ["7.4", "7.4"]
    g = g.apply(ev("move", 50, "white", move="d1d3"))  # third illegal move
    assert summary(g) == ("finished", "0-1", "illegal_moves")
    assert g.state.remaining_ms("white") == 5400_000 - 20_000 - 20_000
    assert "third illegal move" in last_ruling(g).text


def test_1997_quickplay_illegal_move_rulings_cite_article_7_4_and_give_time() -> None:
    g = game(start(edition="1997", time_control="5400"), ev("move", 10, "white", move="e2e5"))
    r = last_ruling(g)
    assert r.article == "7.4" and "10.3" in r.text and "2 minutes" in r.text
    assert g.state.remaining_ms("black") == 5400_000 + 120_000
    # White's clock ran on: the illegal move did not complete a move.
    assert g.state.clock.running == "white"
    assert g.at(20).state.remaining_ms("white") == 5400_000 - 20_000


def test_1997_standard_phase_illegal_move_is_only_reinstated() -> None:
    """Before the quickplay finish (a 40-move period), Article 7.4 alone: no time penalty."""
    g = game(start(edition="1997", time_control="40/7200:1800"), ev("move", 10, "white", move="e2e5"))
    assert g.state.remaining_ms("black") == 7200_000
    assert last_ruling(g).article == "7.4"


def test_2023_second_illegal_move_against_a_lone_king_is_a_draw() -> None:
    """2023 Article 7.5.5: the second illegal move loses, unless the opponent cannot mate: draw."""
    g = game(
        start(edition="2023", time_control="5400", fen=LONE_KING_V_ROOK),
        ev("move", 10, "white", move="a1b2"),
    )
    assert g.state.remaining_ms("black") == 5400_000 + 120_000
    assert last_ruling(g).article == "7.5.5"
    g = g.apply(ev("move", 20, "white", move="a1c3"))
    assert summary(g) == ("finished", "1/2-1/2", "illegal_moves")
    assert "lone king" in last_ruling(g).text


def test_2023_second_illegal_move_loses_when_the_opponent_can_mate() -> None:
    g = game(start(edition="2023", time_control="5400"), ev("move", 10, "white", move="e2e5"),
             ev("move", 20, "white", move="e2e6"))
    assert summary(g) == ("finished", "0-1", "illegal_moves")


def test_2023_rapid_illegal_move_gives_one_minute() -> None:
    g = game(start(edition="2023", time_control="900+10"), ev("move", 10, "white", move="e2e5"))
    assert g.state.config.mode == "rapid"
    assert g.state.remaining_ms("black") == 900_000 + 60_000


def test_illegal_move_binds_the_replacement_to_the_piece_moved() -> None:
    """1997 7.4 with 4.3: the illegally moved piece must be moved if it can."""
    g = game(start(edition="1997", time_control="-"), ev("move", 10, "white", move="g1g3"))
    g = g.apply(ev("move", 20, "white", move="e2e4"))  # not the knight: a touch-move breach
    assert {"kind": "touch_move_claimable", "by": "black"} in g.state.pending()
    g = g.apply(ev("claim_touch_move", 25, "black"))
    assert g.state.sans == [] and g.state.turn == "white"
    assert "g1" in last_ruling(g).text
    g = g.apply(ev("move", 30, "white", move="Nf3"))
    assert g.state.sans == ["Nf3"]


def test_1997_blitz_illegal_move_claimed_wins() -> None:
    """1997 C.3: the illegal move is completed; the opponent claims before moving, and has mating potential."""
    g = game(start(edition="1997", time_control="300"), ev("move", 5, "white", move="e2e5"))
    assert g.state.config.mode == "blitz"
    assert g.state.position.piece_at("e5") == "P"  # the illegal move stands for now
    assert {"kind": "illegal_move_claimable", "by": "black"} in g.state.pending()
    g = g.apply(ev("claim_win", 8, "black", reason="illegal_move"))
    assert summary(g) == ("finished", "0-1", "illegal_moves")
    assert last_ruling(g).article == "C.3"


def test_1997_blitz_illegal_move_not_claimed_stands() -> None:
    g = game(start(edition="1997", time_control="300"), ev("move", 5, "white", move="e2e5"),
             ev("move", 8, "black", move="d7d6"))
    assert g.state.position.piece_at("e5") == "P" and g.state.status == "ongoing"
    with pytest.raises(ChessLawsError, match="no illegal move"):
        g.apply(ev("claim_win", 9, "black", reason="illegal_move"))
    # The game goes on from the position as it stands.
    g = g.apply(ev("move", 12, "white", move="exd6"))
    assert g.state.position.piece_at("d6") == "P"


def test_1997_blitz_illegal_position_with_king_in_check_is_playable() -> None:
    """An illegal move exposing one's own king stands if not claimed; the king is never captured."""
    g = game(start(edition="1997", time_control="300", fen="4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"),
             ev("move", 5, "white", move="e2d3"))
    legal = g.state.position.legal_moves()
    assert "e7e1" not in legal and "e8d8" in legal
    with pytest.raises(ChessLawsError):
        g.apply(ev("move", 7, "black", move="e7e1"))
    g = g.apply(ev("move", 7, "black", move="e8d8"))
    assert g.state.position.is_check()  # White must now deal with the check
    assert set(g.state.position.legal_moves()) <= {"e1d1", "e1d2", "e1f1", "e1f2", "d3e2", "d3e4"}


def test_1997_blitz_claim_without_mating_potential_is_a_draw() -> None:
    """1997 C.4: to win, a player must have mating potential; a lone king has none."""
    g = game(start(edition="1997", time_control="300", fen=LONE_KING_V_ROOK), ev("move", 5, "white", move="a1b2"),
             ev("claim_win", 7, "black", reason="illegal_move"))
    assert summary(g) == ("finished", "1/2-1/2", "illegal_moves")
    assert last_ruling(g).article == "C.4"


def test_without_arbiter_2023_illegal_move_counts_when_claimed() -> None:
    """Arbiter absent: the illegal move stands until the opponent claims it before moving (2023 7.5.5)."""
    g = game(start(edition="2023", time_control="5400", arbiter="absent"), ev("move", 10, "white", move="e2e5"))
    assert g.state.position.piece_at("e5") == "P"
    g = g.apply(ev("claim_win", 15, "black", reason="illegal_move"))
    assert g.state.position.piece_at("e2") == "P" and g.state.turn == "white"
    assert g.state.remaining_ms("black") == 5400_000 - 5_000 + 120_000
    assert last_ruling(g).article == "7.5.5"


# --- touch-move -----------------------------------------------------------------------


def test_touched_piece_must_be_moved_and_claim_takes_the_move_back() -> None:
    g = game(start(edition="2023", time_control="-"), ev("touch", 1, "white", square="g1"),
             ev("move", 2, "white", move="e4"), ev("claim_touch_move", 3, "black"))
    assert g.state.sans == [] and last_ruling(g).article == "4.3"
    assert "move the touched piece on g1" in last_ruling(g).text
    with_nf3 = g.apply(ev("move", 4, "white", move="Nf3"))
    assert with_nf3.state.sans == ["Nf3"]


def test_touch_move_claim_lost_once_the_claimant_touches_a_piece() -> None:
    """Article 4.6 (1997) / 4.8 (2023): no claim after deliberately touching a piece."""
    g = game(start(edition="1997", time_control="-"), ev("touch", 1, "white", square="g1"),
             ev("move", 2, "white", move="e4"), ev("touch", 3, "black", square="e7"),
             ev("claim_touch_move", 4, "black"))
    assert g.state.sans == ["e4"]
    assert "rejected" in last_ruling(g).text


def test_touched_piece_that_cannot_move_leaves_the_player_free() -> None:
    """Article 4.5."""
    g = game(start(edition="1997", time_control="-"), ev("touch", 1, "white", square="c1"),
             ev("move", 2, "white", move="e4"))
    assert not any(p["kind"] == "touch_move_claimable" for p in g.state.pending())


def test_rook_then_king_forbids_castling_on_that_side() -> None:
    """Article 4.4(a)."""
    fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    g = game(start(edition="1997", time_control="-", fen=fen), ev("touch", 1, "white", square="h1"),
             ev("touch", 2, "white", square="e1"), ev("move", 3, "white", move="O-O"))
    assert any(p["kind"] == "touch_move_claimable" for p in g.state.pending())
    ok = game(start(edition="1997", time_control="-", fen=fen), ev("touch", 1, "white", square="e1"),
              ev("touch", 2, "white", square="h1"), ev("move", 3, "white", move="O-O"))
    assert not any(p["kind"] == "touch_move_claimable" for p in ok.state.pending())


def test_touching_one_piece_of_each_colour_obliges_the_capture() -> None:
    """Article 4.3(b): capture the touched opponent's piece with the touched piece."""
    fen = "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1"
    g = game(start(edition="1997", time_control="-", fen=fen), ev("touch", 1, "white", square="e3"),
             ev("touch", 2, "white", square="d5"), ev("move", 3, "white", move="Nc4"))
    g = g.apply(ev("claim_touch_move", 4, "black"))
    assert "capture the touched piece on d5" in last_ruling(g).text
    g = g.apply(ev("move", 5, "white", move="Nxd5"))
    assert g.state.sans == ["Nxd5"]


def test_2023_touching_a_piece_rejects_a_draw_offer() -> None:
    """2023 9.1.2.3: the offer is rejected by touching a piece with intent to move."""
    g = game(start(edition="2023", time_control="-"), ev("move", 1, "white", move="e4", offer_draw=True),
             ev("touch", 2, "black", square="e7"))
    with pytest.raises(ChessLawsError, match="no draw offer"):
        g.apply(ev("accept_draw", 3, "black"))
    g97 = game(start(edition="1997", time_control="-"), ev("move", 1, "white", move="e4", offer_draw=True),
               ev("touch", 2, "black", square="e7"), ev("accept_draw", 3, "black"))
    assert summary(g97) == ("finished", "1/2-1/2", "agreement")


def test_only_the_player_having_the_move_touches() -> None:
    g = game(start(edition="2023", time_control="-"))
    with pytest.raises(ChessLawsError, match="having the move"):
        g.apply(ev("touch", 1, "black", square="e7"))
    with pytest.raises(ChessLawsError, match="no piece on e4"):
        g.apply(ev("touch", 1, "white", square="e4"))


# --- arbiter events --------------------------------------------------------------------


def test_stop_set_and_start_clocks() -> None:
    g = game(start(edition="1997", time_control="5400"), ev("stop_clocks", 100, "arbiter"))
    assert g.at(500).state.remaining_ms("white") == 5300_000
    with pytest.raises(ChessLawsError, match="stopped"):
        g.apply(ev("move", 200, "white", move="e4"))
    g = g.apply(ev("set_clocks", 300, "arbiter", white_ms=1000_000, black_ms=2000_000))
    g = g.apply(ev("start_clocks", 400, "arbiter"))
    assert g.at(410).state.remaining_ms("white") == 990_000
    assert [r.article for r in g.state.rulings] == ["6.12", "6.13", "6.12"]


@pytest.mark.parametrize(
    ("kind", "seconds", "white_ms", "black_ms"),
    [("add_time", 60, 5390_000, 5460_000), ("reduce_time", 60, 5330_000, 5400_000)],
)
def test_time_penalties_show_in_the_clocks(kind: str, seconds: int, white_ms: int, black_ms: int) -> None:
    """1997 13.4(b), (c)."""
    g = game(start(edition="1997", time_control="5400"), ev("penalty", 10, "arbiter", against="white", kind=kind,
                                                             seconds=seconds))
    assert (g.state.remaining_ms("white"), g.state.remaining_ms("black")) == (white_ms, black_ms)
    assert last_ruling(g).article == {"add_time": "13.4(b)", "reduce_time": "13.4(c)"}[kind]


def test_warning_loss_and_expulsion() -> None:
    g = game(start(edition="2023", time_control="-"), ev("penalty", 1, "arbiter", against="black", kind="warning"))
    assert g.state.status == "ongoing" and "warns Black" in last_ruling(g).text
    lost = g.apply(ev("penalty", 2, "arbiter", against="black", kind="loss"))
    assert summary(lost) == ("finished", "1-0", "arbiter_decision")
    out = g.apply(ev("penalty", 2, "arbiter", against="white", kind="expulsion"))
    assert summary(out) == ("finished", "0-1", "arbiter_decision") and "expelled" in last_ruling(out).text


def test_penalty_needs_the_arbiter() -> None:
    g = game(start(edition="2023", time_control="-"))
    with pytest.raises(ChessLawsError, match="arbiter"):
        g.apply({"type": "penalty", "t": 1, "by": "white", "against": "black", "kind": "loss"})


@pytest.mark.parametrize(("edition", "article"), [("1989", "10.17"), ("1997", "12.8"), ("2023", "11.8")])
def test_both_refuse_to_comply_both_lose(edition: str, article: str) -> None:
    g = game(start(edition=edition, time_control="-"), ev("refuse_to_comply", 5, "arbiter", against="both"))
    assert summary(g) == ("finished", "0-0", "refusal_to_comply")
    assert g.to_json()["score"] == {"white": 0, "black": 0}
    assert last_ruling(g).article == article


def test_annulment() -> None:
    g = game(start(edition="1997", time_control="5400"), moves(["e4", "e5"]),
             ev("annul", 30, "arbiter", reason="wrong initial position"))
    js = g.to_json()
    assert js["status"] == "annulled" and js["result"] == "*" and js["clocks"]["running"] is None
    with pytest.raises(ChessLawsError, match="annulled"):
        g.apply(ev("move", 40, "white", move="Nf3"))


# --- late arrival ------------------------------------------------------------------------


def _late(arrive_t: float) -> Game:
    return game(start(edition="1997", time_control="40/7200:1800", absent=["black"]),
                ev("move", 10, "white", move="e4"), ev("arrive", arrive_t, "black"))


def test_late_arrival_at_3599_seconds_plays_on() -> None:
    """1997 6.6: the loss needs more than one hour; Black's clock ran from White's move."""
    g = _late(3599)
    assert g.state.status == "ongoing"
    assert g.state.remaining_ms("black") == 7200_000 - (3599_000 - 10_000)
    g = g.apply(ev("move", 3600, "black", move="e5"))
    assert g.state.sans == ["e4", "e5"]


def test_late_arrival_at_3601_seconds_loses() -> None:
    with pytest.raises(LogError, match="did not arrive"):
        _late(3601)
    g = game(start(edition="1997", time_control="40/7200:1800", absent=["black"]),
             ev("move", 10, "white", move="e4")).at(3601)
    assert summary(g) == ("finished", "1-0", "late_arrival")
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (3600_000, "6.6")


def test_2023_default_time_zero_unless_announced() -> None:
    g = game(start(edition="2023", time_control="5400", absent=["white"])).at(0.5)
    assert summary(g) == ("finished", "0-1", "late_arrival") and last_ruling(g).article == "6.7.1"
    ok = game(start(edition="2023", time_control="5400", absent=["white"], default_time=900),
              ev("arrive", 899, "white"), ev("move", 900, "white", move="e4"))
    assert ok.state.remaining_ms("white") == 5400_000 - 900_000


def test_1989_both_late_both_lose() -> None:
    g = game(start(edition="1989", time_control="40/9000", absent=["white", "black"])).at(3601)
    assert summary(g) == ("finished", "0-0", "late_arrival") and last_ruling(g).article == "10.15"


# --- rapid, blitz, quickplay finish ----------------------------------------------------------


def test_1997_rapid_flags_count_only_when_claimed() -> None:
    """1997 B.6: the arbiter refrains from signalling a flag fall."""
    g = game(start(edition="1997", time_control="900"), ev("move", 500, "white", move="e4")).at(2000)
    assert g.state.status == "ongoing" and g.state.clock.fallen(2000_000) == ("black",)


def test_1997_rapid_flag_claim_wins_when_the_claimants_flag_is_up() -> None:
    """1997 B.7."""
    g = game(start(edition="1997", time_control="900"), ev("move", 500, "white", move="e4"),
             ev("move", 1400, "black", move="e5"), ev("claim_flag", 1700, "white"))
    assert summary(g) == ("finished", "1-0", "time_forfeit")


def test_1997_rapid_both_flags_fallen_is_a_draw() -> None:
    """1997 B.8: Black's flag fell at 1400 (900 s used), White's at 1800."""
    g = game(start(edition="1997", time_control="900"), ev("move", 500, "white", move="e4"),
             ev("move", 1400, "black", move="e5"), ev("claim_flag", 1900, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "both_flags_fallen")
    assert last_ruling(g).article == "B.8"


def test_quickplay_claim_postponed_then_granted_after_a_flag_fall() -> None:
    """1997 10.2(b): postponed (opponent +2 min), then declared drawn even after the flag fell."""
    g = game(
        start(edition="1997", time_control="5400"),
        ev("move", 10, "white", move="e4"),
        ev("move", 20, "black", move="e5"),
        ev("claim_draw", 5300, "white", reason="quickplay"),
    )
    assert {"kind": "claim", "reason": "quickplay", "by": "white"} in g.state.pending()
    assert g.state.clock.running is None
    g = g.apply(ev("decision", 5310, "arbiter", on="quickplay", ruling="postpone"))
    assert g.state.remaining_ms("black") == 5400_000 - 10_000 + 120_000
    assert g.state.remaining_ms("white") == 5400_000 - 10_000 - 5280_000  # 110 s left
    flagged = g.at(5425)
    assert summary(flagged) == ("finished", "0-1", "time_forfeit")
    assert last_ruling(flagged).t_ms == 5420_000
    g = g.apply(ev("decision", 5430, "arbiter", on="quickplay", ruling="draw"))
    assert summary(g) == ("finished", "1/2-1/2", "arbiter_decision")
    assert last_ruling(g).article == "10.2(b)"


def test_quickplay_claim_needs_less_than_two_minutes() -> None:
    g = game(start(edition="1997", time_control="5400"), ev("move", 10, "white", move="e4"),
             ev("move", 20, "black", move="e5"))
    with pytest.raises(ChessLawsError, match="less than two minutes"):
        g.apply(ev("claim_draw", 100, "white", reason="quickplay"))


def test_2023_quickplay_only_where_announced_and_reject_gives_two_minutes() -> None:
    base = start(edition="2023", time_control="5400", mode="standard")
    with pytest.raises(LogError, match="announced"):
        game(base, ev("claim_draw", 5300, "white", reason="quickplay"))
    g = game(dict(base, quickplay_guidelines=True), ev("claim_draw", 5300, "white", reason="quickplay"),
             ev("decision", 5310, "arbiter", on="quickplay", ruling="reject"))
    assert g.state.remaining_ms("black") == 5400_000 + 120_000
    assert last_ruling(g).article == "III.5.3"


def test_1997_setup_claims_only_before_three_moves_each() -> None:
    """1997 B.4: after each player has made three moves, no set-up claim."""
    six = moves(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"], step=5)
    late = game(start(edition="1997", time_control="1800"), six, ev("claim_setup", 40, "white", what="initial_position"))
    assert late.state.status == "ongoing" and last_ruling(late).article == "B.4"
    early = game(start(edition="1997", time_control="1800"), six[:5],
                 ev("claim_setup", 40, "black", what="initial_position"))
    assert early.state.status == "annulled" and last_ruling(early).article == "7.1(a)"


@pytest.mark.parametrize("kind", ["touch", "adjust"])
def test_a_bad_square_is_a_log_error(kind: str) -> None:
    with pytest.raises(LogError, match="line 2: field 'square'"):
        game(start(edition="2023", time_control="600"), ev(kind, 1, "white", square="z9"))

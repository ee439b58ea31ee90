"""Rules the 2023 text words differently from what chesslaws did, read again from the text.

Each test is a short game as an arbiter meets it; the article in the ruling is the one the
2023 text gives (tests/data/laws2023-articles.tsv).
"""

from __future__ import annotations

import pytest

from _arb import ev, game, last_ruling, moves, start, summary
from chesslaws.errors import ChessLawsError

TEN_EACH = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "O-O", "Nf6",
            "c3", "O-O", "h3", "h6", "Re1", "Re8", "Nbd2", "Be6", "Bb3", "a6"]


# --- 7.3: colours reversed -------------------------------------------------------------------


def test_2023_colours_reversed_before_ten_moves_each_a_new_game() -> None:
    """Black notices after 9...Nf6 that the players sat at each other's colours. Fewer than ten
    moves have been made by both players: the game is discontinued and a new one played with
    the correct colours (7.3)."""
    g = game(start(edition="2023", time_control="5400"), moves(TEN_EACH[:18]),
             ev("claim_setup", 200, "black", what="colours"))
    assert g.state.status == "annulled" and g.state.clock.running is None
    r = last_ruling(g)
    assert (r.article, r.t_ms) == ("7.3", 200_000) and "new game" in r.text
    with pytest.raises(ChessLawsError, match="annulled"):
        g.apply(ev("move", 210, "white", move="Bb3"))


def test_2023_colours_reversed_after_ten_moves_each_the_game_goes_on() -> None:
    """The same discovery once each player has made ten moves: the game continues (7.3), and
    in rapid play without full supervision too -- colours are not the set-up of A.5.1.2."""
    for fields in ({"time_control": "5400"}, {"time_control": "1800", "supervision": "partial"}):
        g = game(start(edition="2023", **fields), moves(TEN_EACH), ev("claim_setup", 205, "white", what="colours"))
        assert g.state.status == "ongoing" and g.state.turn == "white"
        assert last_ruling(g).article == "7.3" and "continues" in last_ruling(g).text
        g = g.apply(ev("move", 210, "white", move="Nf1"))
        assert g.state.sans[-1] == "Nf1"


@pytest.mark.parametrize(("edition", "article", "words"), [
    ("1997", "7.2", "unless the arbiter rules otherwise"),
    ("1989", "8.6", "a quarter of both players' time"),
])
def test_earlier_editions_play_on_unless_the_arbiter_annuls(edition: str, article: str, words: str) -> None:
    """1997 7.2 and 1989 8.6 leave a new game to the arbiter: the claim alone does not end the
    game; the arbiter's ``annul`` does."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4", "e5"]),
             ev("claim_setup", 25, "white", what="colours"))
    assert g.state.status == "ongoing" and last_ruling(g).article == article and words in last_ruling(g).text
    assert g.apply(ev("annul", 30, "arbiter", reason="colours reversed")).state.status == "annulled"


# --- Guidelines III.5: the quickplay claim decided -------------------------------------------


QUICKPLAY = start(edition="2023", time_control="5400", mode="standard", quickplay_guidelines=True)


def test_2023_postponed_claim_without_the_two_minutes() -> None:
    """White claims with 100 s left (t=5300). The arbiter postpones his decision and, as III.5.2
    allows ("may be awarded"), gives Black no extra time; later he declares the game drawn."""
    g = game(QUICKPLAY, ev("claim_draw", 5300, "white", reason="quickplay"),
             ev("decision", 5310, "arbiter", on="quickplay", ruling="postpone", extra_time=False))
    assert g.state.remaining_ms("black") == 5400_000
    assert g.state.remaining_ms("white") == 100_000 and g.state.clock.running == "white"
    assert last_ruling(g).article == "III.5.2" and "without awarding" in last_ruling(g).text
    g = g.apply(ev("decision", 5350, "arbiter", on="quickplay", ruling="draw"))
    assert summary(g) == ("finished", "1/2-1/2", "arbiter_decision") and last_ruling(g).article == "III.5.2"


def test_2023_postponed_claim_with_the_two_minutes_and_a_claim_upheld() -> None:
    """By default a postponement awards the opponent two extra minutes (III.5.2); a claim the
    arbiter agrees with is drawn under III.5.1."""
    g = game(QUICKPLAY, ev("claim_draw", 5300, "white", reason="quickplay"),
             ev("decision", 5310, "arbiter", on="quickplay", ruling="postpone"))
    assert g.state.remaining_ms("black") == 5400_000 + 120_000 and last_ruling(g).article == "III.5.2"
    upheld = game(QUICKPLAY, ev("claim_draw", 5300, "white", reason="quickplay"),
                  ev("decision", 5310, "arbiter", on="quickplay", ruling="draw"))
    assert summary(upheld) == ("finished", "1/2-1/2", "arbiter_decision") and last_ruling(upheld).article == "III.5.1"


def test_2023_a_rejected_claim_always_gives_the_two_minutes() -> None:
    """III.5.3: "shall be awarded": a rejection without them is refused, naming the field."""
    claimed = game(QUICKPLAY, ev("claim_draw", 5300, "white", reason="quickplay"))
    with pytest.raises(ChessLawsError, match="extra_time"):
        claimed.apply(ev("decision", 5310, "arbiter", on="quickplay", ruling="reject", extra_time=False))
    g = claimed.apply(ev("decision", 5310, "arbiter", on="quickplay", ruling="reject"))
    assert g.state.remaining_ms("black") == 5400_000 + 120_000 and last_ruling(g).article == "III.5.3"


def test_1997_postponement_may_also_go_without_the_two_minutes() -> None:
    """1997 10.2(b) says the same "may be awarded"."""
    g = game(start(edition="1997", time_control="5400"), ev("claim_draw", 5300, "white", reason="quickplay"),
             ev("decision", 5310, "arbiter", on="quickplay", ruling="postpone", extra_time=False))
    assert g.state.remaining_ms("black") == 5400_000 and last_ruling(g).article == "10.2(b)"


# --- 6.10-6.11: interruptions and the clocks ------------------------------------------------


def test_2023_the_arbiter_pauses_sets_and_restarts_the_clocks() -> None:
    """The arbiter interrupts the game (6.11.1), corrects a wrong setting (6.10.2) and restarts
    the clocks; the time in between is nobody's."""
    g = game(start(edition="2023", time_control="5400"), moves(["e4", "e5"]),
             ev("stop_clocks", 100, "arbiter", reason="a spectator's phone rings"),
             ev("set_clocks", 300, "arbiter", white_ms=5000_000, black_ms=5300_000),
             ev("start_clocks", 400, "arbiter"))
    assert [r.article for r in g.state.rulings] == ["6.11.1", "6.10.2", "6.11.1"]
    assert g.at(410).state.remaining_ms("white") == 4990_000


# --- Guidelines I.10: late for the resumption, but the sealed move ended the game ------------


STALEMATE = "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1"  # 1.Qg6 stalemates Black


def _resumed_without_black(edition: str, fen: str, sealed: str) -> list[dict[str, object]]:
    """White seals ``sealed``; at the resumption (t=10000) White is there, Black never comes."""
    return [start(edition=edition, time_control="40/7200:3600", fen=fen), ev("seal", 50, "white", move=sealed),
            ev("resume", 10_000, "arbiter"), ev("arrive", 10_000, "white")]


def test_2023_late_replier_whose_opponent_sealed_stalemate_draws() -> None:
    """Black arrives after the default time (zero, 6.7.1), which loses (I.10) -- but White's sealed
    1.Qg6 stalemated Black: "that conclusion shall still apply". The arbiter opens the envelope."""
    g = game(*_resumed_without_black("2023", STALEMATE, "Qg6")).at(10_001)
    assert summary(g) == ("finished", "1/2-1/2", "stalemate")
    assert [r.article for r in g.state.rulings[-2:]] == ["I.10", "5.2.1"]
    assert g.state.sans == ["Qg6"]


def test_2023_late_replier_mated_by_the_sealed_move_is_mated() -> None:
    g = game(start(edition="2023", time_control="40/7200:3600"), moves(["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]),
             ev("seal", 100, "white", move="Qxf7"), ev("resume", 10_000, "arbiter"), ev("arrive", 10_000, "white"))
    g = g.at(10_001)
    assert summary(g) == ("finished", "1-0", "checkmate") and last_ruling(g).article == "5.1.1"


def test_2023_late_replier_loses_when_the_sealed_move_ends_nothing() -> None:
    """The sealed move 1.Qg2 ends nothing: Black, late, loses under I.10; the envelope stays shut."""
    g = game(*_resumed_without_black("2023", STALEMATE, "Qg2")).at(10_001)
    assert summary(g) == ("finished", "1-0", "late_arrival") and last_ruling(g).article == "I.10"
    assert g.state.sans == []


def test_1997_late_replier_loses_even_against_a_sealed_stalemate() -> None:
    """1997 A.10 excepts only the late sealer: Black, more than an hour late, loses."""
    g = game(*_resumed_without_black("1997", STALEMATE, "Qg6")).at(10_000 + 3601)
    assert summary(g) == ("finished", "1-0", "late_arrival")


# --- A.5.4: an illegal position still on the board after the next move --------------------------------------


PROMOTE = "1r5k/P7/8/8/8/8/2R5/K7 w - - 0 1"  # White's a-pawn one step from the last rank
BOTH_CHECK = "7k/8/4r3/8/8/8/8/3RK3 w - - 0 1"  # White in check from the e6 rook; Rd8+ checks h8


@pytest.mark.parametrize("control", ["900+10", "180+2"])
def test_2023_a_pawn_left_on_the_last_rank_is_a_draw_once_the_next_move_is_made(control: str) -> None:
    """Rapid (and blitz, through B.3) with an arbiter for several games: White pushes a7-a8 and
    presses the clock without replacing the pawn. The illegal move stands (A.5.2: Black may claim
    before moving), Black does not claim and plays Kg7. The arbiter, who saw a pawn on a8, waited
    for that move: the illegal position is still on the board, and the game is drawn (A.5.4)."""
    g = game(start(edition="2023", time_control=control, supervision="partial", fen=PROMOTE),
             ev("move", 5, "white", move="a7a8"))
    assert g.state.status == "ongoing", "the arbiter waits until the next move is completed"
    g = g.apply(ev("move", 9, "black", move="Kg7"))
    assert (g.state.status, g.state.result, g.state.termination) == ("finished", "1/2-1/2", "illegal_moves")
    r = last_ruling(g)
    assert r.article == "A.5.4" and "a8" in r.text and "drawn" in r.text


def test_2023_the_illegal_position_gone_after_the_next_move_means_play_on() -> None:
    """White answers a check with Rd8+, leaving his own king in check: both kings in check. The
    move stands; Black steps out with Kg7, and the position is legal again (White, to move, is in
    check): no draw under A.5.4, play goes on."""
    g = game(start(edition="2023", time_control="900+10", supervision="partial", fen=BOTH_CHECK),
             ev("move", 5, "white", move="d1d8"))
    assert g.state.status == "ongoing"
    g = g.apply(ev("move", 9, "black", move="Kg7"))
    assert g.state.status == "ongoing" and g.state.turn == "white"
    assert all(r.article != "A.5.4" for r in g.state.rulings)


def test_2023_black_may_still_claim_instead_of_moving() -> None:
    """A.5.4 does not take Black's claim away: claimed before his move, the pawn's move is corrected
    under 7.5 and the game goes on."""
    g = game(start(edition="2023", time_control="900+10", supervision="partial", fen=PROMOTE),
             ev("move", 5, "white", move="a7a8"), ev("claim_win", 8, "black", reason="illegal_move"))
    assert g.state.status == "ongoing"
    assert all(r.article != "A.5.4" for r in g.state.rulings)


@pytest.mark.parametrize("fields", [{"supervision": "full"}, {"arbiter": "absent"}, {"time_control": "5400"}])
def test_a_5_4_only_where_appendix_a_5_applies_and_an_arbiter_observes(fields: dict[str, str]) -> None:
    """Full supervision (A.4: the arbiter corrects at once), no arbiter to observe, or a standard game:
    A.5.4 does not apply."""
    base = {"edition": "2023", "time_control": "900+10", "supervision": "partial", "fen": PROMOTE, **fields}
    g = game(start(**base), ev("move", 5, "white", move="a7a8"))
    if g.state.status == "ongoing" and g.state.turn == "black":
        g = g.apply(ev("move", 9, "black", move="Kg7"))
    assert all(r.article != "A.5.4" for r in g.state.rulings)


# --- 6.7.1: an interruption in which nobody could reach the board does not count against the absent -----------

def test_2023_the_arbiter_extends_the_default_time_by_an_interruption_while_a_player_is_absent() -> None:
    """Black absent (default time 60 s); White at the board. The arbiter stops the clocks at t=10 for an
    interruption of 90 s and extends the default time by it (6.7.1 "unless the arbiter decides otherwise"):
    Black may still come until t=150; after that he loses, the ruling naming the extension."""
    base = (start(edition="2023", time_control="600", default_time=60, absent=["white", "black"]),
            ev("arrive", 1, "white"),
            ev("stop_clocks", 10, "arbiter", reason="the server was not running", default_time_extended_ms=90_000),
            ev("start_clocks", 100, "arbiter", reason="the server is back"))
    g = game(*base)
    assert "extended by 1:30" in g.state.rulings[-2].text
    assert summary(g.at(149)) == ("ongoing", "*", None)
    assert summary(game(*base, ev("arrive", 140, "black"))) == ("ongoing", "*", None)
    late = g.at(151)
    assert summary(late) == ("finished", "1-0", "late_arrival") and "the 1:30 of interruptions not counted" in last_ruling(late).text
    for wrong in (ev("stop_clocks", 10, "arbiter", default_time_extended_ms=-1),
                  ev("stop_clocks", 10, "white", default_time_extended_ms=1000)):
        with pytest.raises(ChessLawsError, match="default_time_extended_ms"):
            game(*base[:2], wrong)
    # Without the arbiter's extension the default time runs on through the interruption.
    plain = game(*base[:2], ev("stop_clocks", 10, "arbiter"), ev("start_clocks", 20, "arbiter"))
    assert summary(plain.at(61)) == ("finished", "1-0", "late_arrival")

"""Rulings read again from the texts of the Laws: who has the move under 1997, an end produced by a move
that broke Article 4, an irregularity nobody saw under partial supervision, the period that follows a
flag, the flag that falls while a move is sealed, and a rook touched before the king in Chess960.

Each narrative runs under every edition it concerns, and under the edition (or the arbiter) where the
other ruling is the right one, so that a rule applied to the wrong edition fails here. Clock values are
worked out by hand from the ``t`` of the events.
"""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError, LogError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


def articles(g: Game) -> list[str]:
    return [r.article for r in g.state.rulings]


# --- who has the move: 1997 1.1 and 6.7(a); 2023 1.3; 1989 6 -----------------------------------------------
# 1997 1.1: "A player is said to have the move, when his opponent's move has been completed", and 6.7(a)
# completes a move with the press of the clock; 4.3 binds "the player having the move". 2023 1.3: the
# opponent's move has been *made*; 1989 6: a move is completed when the hand has released the piece.


def touch_before_the_press(edition: str) -> Game:
    """White plays 1.e4 at t=10 without pressing; Black touches his e7 pawn at t=12; White presses at
    t=14; Black plays 1...d5 at t=20 and White claims touch-move at t=22."""
    return game(start(edition=edition, time_control="5400"),
                ev("move", 10, "white", move="e4", press=False), ev("touch", 12, "black", square="e7"),
                ev("press_clock", 14, "white"), ev("move", 20, "black", move="d5"),
                ev("claim_touch_move", 22, "white"))


def test_1997_a_touch_before_the_opponent_pressed_binds_nothing() -> None:
    """1997 1.1, 4.3: Black did not have the move when he touched e7 (White's move was not completed):
    the touch binds nothing, and White's claim is rejected; 1...d5 stands."""
    g = touch_before_the_press("1997")
    assert articles(g) == ["6.7(a)", "1.1", "4.3"]
    assert "does not have the move yet" in g.state.rulings[1].text
    assert "rejected" in last_ruling(g).text
    assert g.state.sans == ["e4", "d5"]


@pytest.mark.parametrize("edition, article", [("2023", "4.3"), ("1989", "7")])
def test_where_the_move_counts_once_made_the_touch_binds(edition: str, article: str) -> None:
    """2023 1.3 (1989 6): Black had the move once 1.e4 was made, so touching e7 bound him (4.3.1); White's
    claim is upheld: 1...d5 is taken back and Black must move the e7 pawn."""
    g = touch_before_the_press(edition)
    assert last_ruling(g).article == article and "upheld" in last_ruling(g).text
    assert "move the touched piece on e7" in last_ruling(g).text
    assert g.state.sans == ["e4"] and g.state.turn == "black"


def test_1997_a_touch_after_the_press_binds() -> None:
    """1997: once White pressed, Black has the move and a touch binds him (4.3)."""
    g = game(start(edition="1997", time_control="5400"),
             ev("move", 10, "white", move="e4", press=False), ev("press_clock", 12, "white"),
             ev("touch", 14, "black", square="e7"), ev("move", 20, "black", move="d5"),
             ev("claim_touch_move", 22, "white"))
    assert last_ruling(g).article == "4.3" and "upheld" in last_ruling(g).text


# --- an end produced by a move that broke Article 4: 2023 5.1.1, 5.2.1, 5.2.2, 4.8 -------------------------
# 2023 5.1.1: checkmate "immediately ends the game, provided that the move producing the checkmate position
# was in accordance with Article 3 and Articles 4.2 - 4.7"; the same proviso in 5.2.1 (stalemate) and 5.2.2
# (dead position). 1997 5.1(a), 5.2, 9.6 and 1989 10.1, 10.3, 10.4 have no such proviso: the end stands.

SCHOLAR = moves(["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"], step=1)


def mate_against_touch_move(edition: str) -> Game:
    """After 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 White touches his c4 bishop, then mates with 4.Qxf7#."""
    return game(start(edition=edition, time_control="5400"), SCHOLAR,
                ev("touch", 7, "white", square="c4"), ev("move", 8, "white", move="Qxf7#"))


def test_2023_a_mate_made_against_touch_move_is_claimed_and_taken_back() -> None:
    """2023 5.1.1: the checkmate does not end the game; Black's claim is heard and upheld (4.3.1): Qxf7
    is taken back and White must move the bishop he touched."""
    g = mate_against_touch_move("2023")
    assert summary(g) == ("ongoing", "*", None)
    assert last_ruling(g).article == "5.1.1" and "Black may claim" in last_ruling(g).text
    assert {"kind": "touch_move_claimable", "by": "black"} in g.state.pending()
    g = g.apply(ev("claim_touch_move", 10, "black"))
    assert summary(g) == ("ongoing", "*", None)
    assert last_ruling(g).article == "4.3" and "must move the touched piece on c4" in last_ruling(g).text
    assert g.state.sans == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]
    g = g.apply(ev("move", 12, "white", move="Bxf7+"))
    assert summary(g) == ("ongoing", "*", None) and not g.state.pending()


def test_2023_the_mate_stands_once_the_opponent_touches_a_piece() -> None:
    """4.8: Black touches his king instead of claiming: he has lost the right, and the checkmate the move
    produced ends the game (5.1.1)."""
    g = mate_against_touch_move("2023").apply(ev("touch", 10, "black", square="e8"))
    assert summary(g) == ("finished", "1-0", "checkmate")
    assert articles(g)[-2:] == ["4.8", "5.1.1"]
    with pytest.raises(GameError, match="over"):
        g.apply(ev("claim_touch_move", 11, "black"))


@pytest.mark.parametrize("edition, article", [("1997", "5.1(a)"), ("1989", "10.1")])
def test_before_2023_the_mate_ends_the_game_whatever_the_hand_did(edition: str, article: str) -> None:
    """1997 5.1(a) ("checkmated his opponent's king with a legal move. This immediately ends the game"),
    1989 10.1: the game is over, and the touch-move claim comes too late."""
    g = mate_against_touch_move(edition)
    assert summary(g) == ("finished", "1-0", "checkmate") and last_ruling(g).article == article
    with pytest.raises(GameError, match="over"):
        g.apply(ev("claim_touch_move", 10, "black"))


STALEMATE = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"  # Qf7 stalemates the h8 king
DEAD = "k7/8/8/8/8/4n3/8/K1B5 w - - 0 1"  # Bxe3 leaves king and bishop against king


@pytest.mark.parametrize("edition, fen, move, article, termination", [
    ("2023", STALEMATE, "Qf7", "5.2.1", "stalemate"),
    ("2023", DEAD, "Bxe3", "5.2.2", "dead_position"),
])
def test_2023_a_stalemate_or_dead_position_made_against_touch_move(
    edition: str, fen: str, move: str, article: str, termination: str,
) -> None:
    """White touches his king, which can move, then plays a move that stalemates Black or leaves a dead
    position: the same proviso holds the draw; Black's claim takes the move back and White must move the
    king. Unclaimed (Black touches his king), the draw stands."""
    held = game(start(edition=edition, time_control="5400", fen=fen),
                ev("touch", 1, "white", square="g6" if fen == STALEMATE else "a1"), ev("move", 2, "white", move=move))
    assert summary(held) == ("ongoing", "*", None) and last_ruling(held).article == article
    g = held.apply(ev("claim_touch_move", 3, "black"))
    assert g.state.sans == [] and "must move the touched piece" in last_ruling(g).text
    g = held.apply(ev("touch", 3, "black", square="h8" if fen == STALEMATE else "a8"))
    assert summary(g) == ("finished", "1/2-1/2", termination)


@pytest.mark.parametrize("edition, fen, move, article, termination", [
    ("1997", STALEMATE, "Qf7", "5.2", "stalemate"),
    ("1997", DEAD, "Bxe3", "9.6", "dead_position"),
    ("1989", STALEMATE, "Qf7", "10.3", "stalemate"),
    ("1989", DEAD, "Bxe3", "10.4", "insufficient_material"),
])
def test_before_2023_the_draw_ends_the_game_whatever_the_hand_did(
    edition: str, fen: str, move: str, article: str, termination: str,
) -> None:
    g = game(start(edition=edition, time_control="5400", fen=fen),
             ev("touch", 1, "white", square="g6" if fen == STALEMATE else "a1"), ev("move", 2, "white", move=move))
    assert summary(g) == ("finished", "1/2-1/2", termination) and last_ruling(g).article == article


# --- an irregularity nobody saw: 2023 7.5.3, 7.5.4 and A.5.2 --------------------------------------------------
# A.5.2: "If the arbiter observes an action taken under Article 7.5.1, 7.5.2, 7.5.3 or 7.5.4, he/she shall
# act according to Article 7.5.5, provided that the opponent has not made his/her next move. If the arbiter
# does not intervene, the opponent is entitled to claim, provided that the opponent has not made his/her next
# move." A game is under partial supervision with ``"supervision": "partial"``; an act nobody sees is one made
# with ``"arbiter": "absent"`` (or, with ``"occasional"``, one the arbiter has not observed).

RAPID = {"edition": "2023", "time_control": "900+10", "supervision": "partial"}


@pytest.mark.parametrize("act", ["two_hands", "press_without_move"])
def test_partial_supervision_the_act_nobody_saw_is_for_the_opponent_to_claim(act: str) -> None:
    """Rapid, partial supervision, no arbiter at the board. After 1.e4 e5 White plays 2.Nf3 with two
    hands (or presses the clock without moving) at t=15: nothing happens by itself. Black claims at t=20,
    before his own move: the act is penalised as an illegal move, Black receiving a minute (7.5.5, A.3)."""
    doing = (ev("move", 15, "white", move="Nf3", two_hands=True) if act == "two_hands"
             else ev("press_clock", 15, "white"))
    g = game(start(arbiter="absent", **RAPID), moves(["e4", "e5"], step=5), doing)
    assert g.state.rulings == () and g.state.illegal_moves["white"] == 0
    g = g.apply(ev("claim_win", 20, "black", reason="illegal_move"))
    assert articles(g) == [{"two_hands": "7.5.4", "press_without_move": "7.5.3"}[act], "7.5.5", "A.3"]
    assert g.state.illegal_moves["white"] == 1
    # Black's clock: 900 + 10 after 1...e5 at t=10, less 5 s (t=10-15) for two hands, Black's clock
    # running since White's press at t=15; a press without a move leaves White's clock running.
    black = 905_000 - 5_000 + 60_000 if act == "two_hands" else 905_000 + 60_000
    assert g.state.remaining_ms("black") == black


def test_partial_supervision_unclaimed_the_act_stands() -> None:
    """Black replies 2...Nc6 without claiming: the two-handed move stands, unpenalised, and a claim after
    it is refused."""
    g = game(start(arbiter="absent", **RAPID), moves(["e4", "e5"], step=5),
             ev("move", 15, "white", move="Nf3", two_hands=True), ev("move", 20, "black", move="Nc6"))
    assert g.state.rulings == () and g.state.illegal_moves["white"] == 0
    with pytest.raises(GameError, match="no illegal move"):
        g.apply(ev("claim_win", 22, "black", reason="illegal_move"))


def test_partial_supervision_the_arbiter_who_sees_it_acts() -> None:
    """With the arbiter at the board (``"arbiter": "present"``: he sees the act) A.5.2 has him act at
    once; a claim after that has nothing left to claim."""
    g = game(start(**RAPID), moves(["e4", "e5"], step=5), ev("move", 15, "white", move="Nf3", two_hands=True))
    assert articles(g) == ["7.5.4", "7.5.5", "A.3"]
    with pytest.raises(GameError, match="no illegal move"):
        g.apply(ev("claim_win", 20, "black", reason="illegal_move"))


# --- the next period after a flag: 2023 8.6, 1997 8.6, 1989 11.9 --------------------------------------------
# "the next move played shall be considered as the first of the following time period": that period began
# when the flag fell, so the time used on that move since then comes out of it.


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_next_period_begins_when_the_flag_fell(edition: str) -> None:
    """40/5400:1800, an arbiter who watches the board now and then. After 1.e4 e5 (Black moved at t=20)
    White's 5390 s left run out at t=5410. The arbiter stops the clocks at t=5415 and decides at t=5440
    that the next move is the first of the second period: White has used 5 s of it already (t=5410-5415;
    the clocks were stopped afterwards), so he has 1795 s; Black, 5390 s, receives the 1800 s as well."""
    g = game(start(edition=edition, time_control="40/5400:1800", arbiter="occasional"), moves(["e4", "e5"]),
             ev("stop_clocks", 5415, "white"), ev("decision", 5440, on="period", ruling="next_period"))
    assert last_ruling(g).article == {"1989": "11.9", "1997": "8.6", "2023": "8.6"}[edition]
    assert g.state.remaining_ms("white") == 1_795_000
    assert g.state.remaining_ms("black") == 5_390_000 + 1_800_000
    g = g.apply(ev("start_clocks", 5450)).apply(ev("move", 5460, "white", move="Nf3"))
    assert g.state.remaining_ms("white") == 1_785_000


def test_a_period_used_up_since_the_flag_fell_falls_again() -> None:
    """40/5400 then 20/600 (ten minutes): White's flag falls at t=5410 and nobody sees it for twenty
    minutes. The second period, begun at the fall, is used up by then: its flag has fallen too."""
    g = game(start(edition="2023", time_control="40/5400:20/600:1800", arbiter="occasional"), moves(["e4", "e5"]),
             ev("decision", 6610, on="period", ruling="next_period"))
    assert g.state.remaining_ms("white") == 0
    g = g.apply(ev("observe", 6620, what="flag"))
    assert summary(g) == ("finished", "0-1", "time_forfeit")


# --- the flag that falls while sealing: 1989 13.1(a), 12.2, 10.14 ---------------------------------------------
# 1989 13.1(a): the player having the move writes and seals his move "and only then" stops his clock; 12.2:
# without an arbiter, "the flag is considered to have fallen when a claim to that effect has been made by a
# player". 1997 A.1 and 2023 I.1.1 seal the same way, on the sealer's time.


def sealed_late(edition: str, **fields: object) -> Game:
    """40 moves in 120 s (a standard game, as declared): after 1.e4 e5 (Black moved at t=20) White's 110 s
    run out at t=130 while he is sealing; he stops his clock at t=140."""
    return game(start(edition=edition, time_control="40/120:60", mode="standard", **fields),
                moves(["e4", "e5"]), ev("seal", 140, "white", move="Nf3"))


@pytest.mark.parametrize("edition, flag, article", [
    ("1989", "10.14", "13.1"), ("1997", "6.9", "A.1"), ("2023", "6.9", "I.1.1"),
])
def test_a_flag_fallen_while_sealing_is_claimed_then_and_there(edition: str, flag: str, article: str) -> None:
    """No arbiter at the board: the game is adjourned, and Black claims White's flag at once: White loses
    on time; the envelope is never opened."""
    g = sealed_late(edition, arbiter="absent")
    assert g.state.status == "adjourned"
    g = g.apply(ev("claim_flag", 141, "black"))
    assert summary(g) == ("finished", "0-1", "time_forfeit")
    assert articles(g)[-2:] == [article, flag]
    assert not any(p["kind"] == "sealed_move" for p in g.state.pending())


def test_only_a_flag_fallen_before_the_seal_is_claimed_during_the_adjournment() -> None:
    """White seals in time (t=100): Black's claim during the adjournment is ruled incorrect and the game stays
    adjourned; so is White's own claim of Black's flag."""
    g = game(start(edition="1989", time_control="40/120:60", arbiter="absent"), moves(["e4", "e5"]),
             ev("seal", 100, "white", move="Nf3"))
    for by in ("black", "white"):
        after = g.apply(ev("claim_flag", 101, by))
        assert after.state.status == "adjourned" and "had not" in after.state.rulings[-1].text


def test_1989_an_arbiter_present_sees_the_flag_before_the_seal() -> None:
    """1989 12.2: the arbiter watching observes the flag as it falls at t=130: the game is over before
    the seal."""
    with pytest.raises(LogError, match="over at t=130"):
        sealed_late("1989")


# --- a rook then the king in Chess960: 2023 4.4.2 ----------------------------------------------------------
# 4.4.2: "If a player having the move deliberately touches a rook and then his/her king he/she is not allowed
# to castle on that side on that move and the situation shall be governed by Article 4.3.1".

SWAP = "4nkrn/pppppppp/8/8/8/8/PPPPPPPP/4NKRN w Gg - 0 1"  # O-O: the f1 king and the g1 rook change places


def test_chess960_rook_then_king_forbids_the_castling_in_which_they_change_places() -> None:
    """White touches the g1 rook, then the f1 king, and castles O-O (king to g1, rook to f1). Neither
    the rook nor the king has another move, so 4.3 leaves White free (4.5), but not to castle on that
    side: Black's claim takes O-O back, and O-O again is a breach; a knight move is not."""
    touched = [ev("touch", 1, "white", square="g1"), ev("touch", 2, "white", square="f1")]
    g = game(start(edition="2023", time_control="5400", variant="chess960", fen=SWAP), touched,
             ev("move", 3, "white", move="O-O"))
    assert g.state.sans == ["O-O"] and {"kind": "touch_move_claimable", "by": "black"} in g.state.pending()
    g = g.apply(ev("claim_touch_move", 4, "black"))
    assert g.state.sans == [] and last_ruling(g).article == "4.4.2"
    assert "but castle with the rook on g1" in last_ruling(g).text
    assert {"kind": "touch_move_claimable", "by": "black"} in g.apply(ev("move", 5, "white", move="O-O")).state.pending()
    assert g.apply(ev("move", 5, "white", move="Nf3")).state.pending() == []


def test_chess960_king_then_rook_castles_where_they_change_places() -> None:
    """The same position, the king touched first and then the rook: White must castle on that side
    (4.4.1), which is the move he makes."""
    g = game(start(edition="2023", time_control="5400", variant="chess960", fen=SWAP),
             ev("touch", 1, "white", square="f1"), ev("touch", 2, "white", square="g1"),
             ev("move", 3, "white", move="O-O"))
    assert g.state.sans == ["O-O"] and g.state.pending() == []

"""Rules the three editions' texts give that are easy to get wrong.

Each test tells a short game and cites the articles; where the editions
differ, it runs in all three and says what each text decides. The clock
values are worked out by hand from the ``t`` of the events.
"""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError
from _arb import SHUFFLE, ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]
CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def breach(g: Game) -> bool:
    """Did the last move break touch-move (a claim is open to the opponent)?"""
    return any(p["kind"] == "touch_move_claimable" for p in g.state.pending())


def touched_then(edition: str, fen: str, squares: list[str], move: str) -> Game:
    events = [ev("touch", i + 1, "white", square=sq) for i, sq in enumerate(squares)]
    return game(start(edition=edition, time_control="-", fen=fen), *events,
                ev("move", len(squares) + 1, "white", move=move))


# --- touch-move and castling: 1997 4.3/4.4 (1989 Article 7), 2023 4.4.1-4.4.3 ------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_king_then_rook_then_another_king_move(edition: str) -> None:
    """White touches the king, then the h1 rook, and plays Kf1. 1989/1997 4.3(a): the first
    piece touched, the king, was moved: no breach. 2023 4.4.1: king and rook touched oblige
    castling on that side when it is legal: O-O was legal, so Black's claim takes Kf1 back."""
    g = touched_then(edition, CASTLING, ["e1", "h1"], "Kf1")
    assert breach(g) == (edition == "2023")
    if edition == "2023":
        g = g.apply(ev("claim_touch_move", 5, "black"))
        assert g.state.position.fen() == CASTLING
        assert "castle with the rook on h1" in last_ruling(g).text
        assert last_ruling(g).article == "4.4.1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_king_then_rook_then_castling_on_the_other_side(edition: str) -> None:
    """King, then the h1 rook, then O-O-O: a king move (1997 4.3(a)); in 2023 4.4.1 the
    castling had to be with the touched rook."""
    assert breach(touched_then(edition, CASTLING, ["e1", "h1"], "O-O-O")) == (edition == "2023")


@pytest.mark.parametrize("edition", EDITIONS)
def test_king_then_rook_and_castling_with_it(edition: str) -> None:
    """King, then rook, then O-O with that rook: right in every edition."""
    assert not breach(touched_then(edition, CASTLING, ["e1", "h1"], "O-O"))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("move", "wrong"), [("O-O", True), ("Kf1", True), ("Rg1", False)])
def test_rook_then_king(edition: str, move: str, wrong: bool) -> None:
    """Rook h1 first, then the king: no castling on that side (1997 4.4(a), 2023 4.4.2) and
    Article 4.3 governs: the rook, touched first, must move."""
    assert breach(touched_then(edition, CASTLING, ["h1", "e1"], move)) == wrong


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("move", "wrong"), [("O-O-O", False), ("Kd2", False), ("Rh2", True)])
def test_king_then_rook_when_castling_with_it_is_illegal(edition: str, move: str, wrong: bool) -> None:
    """Black's bishop on c4 guards f1: castling with the h1 rook is illegal. 1997 4.4(b) and
    2023 4.4.3: the player must make another king move, castling with the other rook
    included; moving the rook instead breaks the rule in every edition."""
    fen = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    assert breach(touched_then(edition, fen, ["e1", "h1"], move)) == wrong


@pytest.mark.parametrize("edition", EDITIONS)
def test_king_then_rook_when_the_king_cannot_move_leaves_the_player_free(edition: str) -> None:
    """The king on e1 is hemmed in by its own pieces and castling is impossible; the h1 rook,
    touched second, cannot be required either (1997 4.4(b), 2023 4.4.3: "If the king has no
    legal move, the player is free to make any legal move")."""
    fen = "4k3/8/8/8/8/8/3PPP2/3QKB1R w K - 0 1"
    assert not breach(touched_then(edition, fen, ["e1", "h1"], "d4"))


# --- touch-move and en passant: 1997 4.3, 2023 4.3.2-4.3.3 --------------------------------

EP = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"  # Black has just played ...d7-d5


@pytest.mark.parametrize("edition", EDITIONS)
def test_touched_opponent_pawn_that_only_en_passant_can_take(edition: str) -> None:
    """White touches Black's d5 pawn. Only exd6 e.p. takes it, and the capturing pawn lands
    on d6, not on d5: the pawn can be captured, so White must capture it (1997 4.3(a),
    2023 4.3.2). Ke2 breaks the rule; Black's claim takes it back."""
    assert not breach(touched_then(edition, EP, ["d5"], "exd6"))
    g = touched_then(edition, EP, ["d5"], "Ke2")
    assert breach(g)
    g = g.apply(ev("claim_touch_move", 5, "black"))
    assert g.state.position.fen() == EP
    assert "capture the touched piece on d5" in last_ruling(g).text


@pytest.mark.parametrize("edition", EDITIONS)
def test_own_pawn_and_opponent_pawn_touched_oblige_en_passant(edition: str) -> None:
    """White touches his e5 pawn, then Black's d5 pawn: one piece of each colour (1997 4.3(b),
    2023 4.3.3): he must take d5 with e5, which only exd6 e.p. does. e5-e6 is a move of the
    first piece touched but not the capture the rule requires."""
    assert not breach(touched_then(edition, EP, ["e5", "d5"], "exd6"))
    g = touched_then(edition, EP, ["e5", "d5"], "e6")
    assert breach(g)
    g = g.apply(ev("claim_touch_move", 5, "black"))
    assert "capture the touched piece on d5 with the piece on e5" in last_ruling(g).text


@pytest.mark.parametrize("edition", EDITIONS)
def test_en_passant_no_longer_possible_leaves_the_player_free(edition: str) -> None:
    """The same pawns, but the e.p. right is gone (no d6 in the FEN): the touched d5 pawn cannot
    be captured, so any legal move is allowed (1997 4.5, 2023 4.5)."""
    assert not breach(touched_then(edition, EP.replace(" d6 ", " - "), ["d5"], "Ke2"))


# --- the right to claim: 1989 10.11, 1997 9.4 (a move), 2023 9.4 (a touch too) -----------


@pytest.mark.parametrize("edition", EDITIONS)
def test_touching_a_piece_then_claiming_threefold(edition: str) -> None:
    """The start position stands for the third time with White to move. White touches his g1
    knight, then claims. 1989 and 1997 lose the right only by moving: the claim is correct.
    2023 9.4: "If the player touches a piece as in Article 4.3, he loses the right to claim
    ... on that move": the claim is not admitted (no penalty), and the touched knight binds."""
    g = game(start(edition=edition, time_control="5400"), moves(SHUFFLE * 2),
             ev("touch", 82, "white", square="g1"), ev("claim_draw", 84, "white", reason="threefold"))
    if edition == "2023":
        assert summary(g) == ("ongoing", "*", None)
        r = last_ruling(g)
        assert (r.t_ms, r.article) == (84_000, "9.4")
        assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 44_000, "black_ms": 5400_000 - 40_000,
                                               "running": "white"}
        g = g.apply(ev("move", 90, "white", move="e4"))
        assert breach(g)
    else:
        assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")


# --- 2023 9.1.2.3: a claim is also an offer of a draw --------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_incorrect_claim_then_the_opponent_accepts(edition: str) -> None:
    """After 1.Nf3 Nf6 2.Ng1 Ng8 the start position has appeared twice: White's threefold claim
    is incorrect. In 2023 the claim "shall be considered to be an offer of a draw" (9.1.2.3):
    Black may accept it, a draw by agreement. 1989 and 1997 have no such rule: there is no
    offer to accept."""
    g = game(start(edition=edition, time_control="5400"), moves(SHUFFLE),
             ev("claim_draw", 45, "white", reason="threefold"))
    assert g.state.status == "ongoing"
    if edition == "2023":
        assert {"kind": "draw_offer", "by": "white"} in g.state.pending()
        assert [r.article for r in g.state.rulings][-2:] == ["9.1.2.3", "9.5.3"]
        g = g.apply(ev("accept_draw", 50, "black"))
        assert summary(g) == ("finished", "1/2-1/2", "agreement")
    else:
        assert g.state.pending() == []
        with pytest.raises(GameError, match="accept_draw at t=50"):
            g.apply(ev("accept_draw", 50, "black"))


def test_2023_the_claim_offer_is_rejected_by_the_opponents_move() -> None:
    """The offer a claim makes behaves as any offer: Black rejects it by playing on."""
    g = game(start(edition="2023", time_control="5400"), moves(SHUFFLE),
             ev("claim_draw", 45, "white", reason="threefold", move="e4"))
    assert {"kind": "draw_offer", "by": "white"} in g.state.pending()
    g = g.apply(ev("move", 60, "black", move="e5"))
    assert g.state.pending() == []


# --- an offer made with an illegal move outlives its reinstatement ------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_made_with_an_illegal_move_survives_the_reinstatement(edition: str) -> None:
    """After 1.e4 e5 White plays the illegal Ke1-e3 and offers a draw with it. The arbiter
    reinstates the position; the offer cannot be withdrawn and stays valid (1989 10.8-10.9,
    1997 9.1, 2023 9.1.2.1): after 2.Nf3 Black accepts."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4", "e5"]),
             ev("move", 30, "white", move="e1e3", offer_draw=True))
    assert g.state.position.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
    assert g.state.pending() == [{"kind": "draw_offer", "by": "white"}]
    g = g.apply(ev("move", 35, "white", move="Nf3")).apply(ev("accept_draw", 40, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_with_an_illegal_move_survives_the_claim_without_an_arbiter(edition: str) -> None:
    """No arbiter: White's illegal e1e3 with an offer stands until Black claims it; the
    position is reinstated on the claim, and White's offer is still there to accept."""
    g = game(start(edition=edition, time_control="5400", arbiter="absent"), moves(["e4", "e5"]),
             ev("move", 30, "white", move="e1e3", offer_draw=True), ev("claim_win", 40, "black", reason="illegal_move"))
    assert {"kind": "draw_offer", "by": "white"} in g.state.pending()
    g = g.apply(ev("move", 45, "white", move="Nf3")).apply(ev("accept_draw", 50, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


def test_2023_the_illegal_move_rejects_the_opponents_offer() -> None:
    """2023 9.1.2.1: an offer is rejected by touching a piece with the intention of moving it;
    White's illegal move needed such a touch, so Black's offer is gone after the reinstatement."""
    g = game(start(edition="2023", time_control="5400"), ev("move", 10, "white", move="e4"),
             ev("move", 20, "black", move="e5", offer_draw=True), ev("move", 30, "white", move="e1e3"))
    assert g.state.pending() == []


# --- when a quickplay-finish claim exists: 1997 10.1/10.2, C.5; 2023 Guidelines III ---------


def quickplay(edition: str, tc: str, t: float, **fields: object) -> Game:
    return game(start(edition=edition, time_control=tc, **fields), ev("claim_draw", t, "white", reason="quickplay"))


def test_1997_claim_in_the_first_period_is_not_admitted() -> None:
    """40 moves in 100 s, then 30 minutes: at t=90 White has 10 s left but is in the first
    period, not in the quickplay finish (10.1: "the last phase of a game when all the remaining
    moves must be made in a limited time"): the claim is not admitted."""
    g = quickplay("1997", "40/100:1800", 90)
    assert g.state.claims == () and g.state.status == "ongoing"
    r = last_ruling(g)
    assert (r.article, r.t_ms) == ("10.1", 90_000)
    assert g.state.to_json()["clocks"]["running"] == "white"


def test_1997_claim_in_the_quickplay_finish_awaits_the_arbiter() -> None:
    """100 s for the whole game: every move is in the quickplay finish; the claim stops the clocks."""
    g = quickplay("1997", "100", 90, mode="standard")
    assert {"kind": "claim", "reason": "quickplay", "by": "white"} in g.state.pending()


def test_1997_no_quickplay_claim_in_blitz() -> None:
    """1997 C.5: "Article 10.2 does not apply" in blitz."""
    g = quickplay("1997", "300", 250)
    assert g.state.config.mode == "blitz"
    assert last_ruling(g).article == "C.5" and g.state.claims == ()


def test_1997_rapid_claim_is_a_request_the_arbiter_answers() -> None:
    """1997 B.5: in rapidplay the arbiter rules under Article 10 when a player asks: the claim
    stands before him."""
    g = quickplay("1997", "1800", 1700)
    assert g.state.config.mode == "rapid"
    assert {"kind": "claim", "reason": "quickplay", "by": "white"} in g.state.pending()


@pytest.mark.parametrize(("tc", "article"), [("5400+30", "III.2.2"), ("180", "III.2.2"),
                                             ("40/100:1800", "III.1")])
def test_2023_guidelines_iii_scope(tc: str, article: str) -> None:
    """2023 Guidelines III, announced: not for games with increment, not for blitz (III.2.2),
    and only in the quickplay finish, the period in which all remaining moves are made (III.1)."""
    t = {"5400+30": 5300, "180": 120, "40/100:1800": 90}[tc]
    g = quickplay("2023", tc, t, quickplay_guidelines=True, mode="blitz" if tc == "180" else "standard")
    assert last_ruling(g).article == article and g.state.claims == ()


def test_2023_guidelines_iii_claim_without_increment_awaits_the_arbiter() -> None:
    g = quickplay("2023", "5400", 5300, quickplay_guidelines=True)
    assert {"kind": "claim", "reason": "quickplay", "by": "white"} in g.state.pending()


# --- "only on request": 1997 B.5 with 10.3; 2023 A.5.2 ------------------------------------


@pytest.mark.parametrize(("edition", "fields", "on_request"), [
    ("1997", {"time_control": "1800"}, True),
    ("1997", {"time_control": "5400"}, False),
    ("2023", {"time_control": "1800", "supervision": "partial", "arbiter": "absent"}, True),
    ("2023", {"time_control": "1800", "supervision": "partial"}, False),
    ("2023", {"time_control": "1800"}, False),
])
def test_illegal_move_in_rapid_is_corrected_only_on_request(edition: str, fields: dict[str, str],
                                                            on_request: bool) -> None:
    """1997 B.5: in rapidplay the arbiter rules under Articles 5 and 10 (10.3: illegal moves)
    only when a player asks; 2023 A.5.2 (an arbiter for several games): an arbiter who observes
    the illegal move acts under 7.5.5 before the opponent moves, and without one the opponent
    claims before his own next move. Otherwise (1997 standard play, 2023 A.4 supervision) the
    arbiter corrects the illegal move at once."""
    g = game(start(edition=edition, **fields), moves(["e4", "e5"]), ev("move", 30, "white", move="e1e3"))
    if not on_request:
        assert g.state.position.fen().split()[1] == "w" and g.state.moves[-1].san == "e5"
        return
    assert g.state.moves[-1].illegal and g.state.turn == "black"
    assert {"kind": "illegal_move_claimable", "by": "black"} in g.state.pending()
    claimed = g.apply(ev("claim_win", 40, "black", reason="illegal_move"))
    assert claimed.state.moves[-1].san == "e5" and claimed.state.turn == "white"
    # 1997 10.3: 2 minutes to Black (rapid is all quickplay finish); 2023 7.5.5 with A.3: 1 minute.
    bonus = 120_000 if edition == "1997" else 60_000
    assert claimed.state.remaining_ms("black") == 1800_000 - 10_000 - 10_000 + bonus
    # Not claimed before Black's own move: the illegal move stands.
    stood = g.apply(ev("move", 40, "black", move="Nc6"))
    assert stood.state.moves[-2].illegal and stood.state.pending() == []


def test_2023_partial_supervision_set_up_claims_close_after_ten_moves() -> None:
    """2023 A.5.1.2: once each player has made ten moves, no claim about the set-up of the board."""
    ten = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "O-O", "Nf6",
           "c3", "O-O", "h3", "h6", "Re1", "Re8", "Nbd2", "Be6", "Bb3", "a6"]
    early = game(start(edition="2023", time_control="1800", supervision="partial"), moves(ten[:-1]),
                 ev("claim_setup", 195, "black", what="board"))
    assert last_ruling(early).article == "7.2.2"
    g = game(start(edition="2023", time_control="1800", supervision="partial"), moves(ten),
             ev("claim_setup", 205, "white", what="board"))
    assert last_ruling(g).article == "A.5.1.2" and "too late" in last_ruling(g).text


# --- 2023 7.5.2: a promotion where the pawn is not replaced ----------------------------------

PROMOTE = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("written", ["a7a8", "a8"])
def test_pawn_to_the_last_rank_not_replaced(edition: str, written: str) -> None:
    """White moves the a-pawn to a8 and presses the clock without putting a new piece there.
    2023 7.5.2: the move is illegal and the pawn is replaced by a queen; 7.5.5: Black receives
    two minutes. 1989 8.1 / 1997 7.4: an illegal move like any other: the position before it
    is reinstated (1997: in the quickplay finish of a 90-minute game, 10.3's two minutes)."""
    g = game(start(edition=edition, time_control="5400", fen=PROMOTE), ev("move", 5, "white", move=written))
    if edition == "2023":
        assert g.state.position.fen().startswith("Q3k3/8/8/8/8/8/8/4K3 b")
        assert g.state.moves[-1].san == "a8=Q+"
        assert [r.article for r in g.state.rulings] == ["7.5.2", "7.5.5"]
        assert g.state.to_json()["clocks"] == {"white_ms": 5395_000, "black_ms": 5520_000, "running": "black"}
    else:
        assert g.state.position.fen() == PROMOTE
        assert last_ruling(g).article == {"1989": "8.1", "1997": "7.4"}[edition]


def test_2023_second_illegal_move_by_an_unreplaced_promotion_loses() -> None:
    """White's first illegal move (Ke1-e3) was reinstated; the unreplaced promotion is his
    second: he loses (7.5.5). (Black keeps a pawn: with a bare king he could not mate, and
    the game would be drawn.)"""
    g = game(start(edition="2023", time_control="5400", fen="4k3/P6p/8/8/8/8/8/4K3 w - - 0 1"),
             ev("move", 5, "white", move="e1e3"),
             ev("move", 10, "white", move="a7a8"))
    assert summary(g) == ("finished", "0-1", "illegal_moves")


# --- 1989 10.5: a bare king cannot win, however the game is won ------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_refusal_to_comply_against_a_bare_king(edition: str) -> None:
    """White (king and rook) persistently refuses to comply with the Laws; Black has only his
    king. 1989 10.17 would give Black the game, but 10.5: "A player having a bare king cannot
    win the game": drawn. 1997 12.7 and 2023 11.7 have no such exception."""
    g = game(start(edition=edition, fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), ev("refuse_to_comply", 5, against="white"))
    if edition == "1989":
        assert summary(g) == ("finished", "1/2-1/2", "refusal_to_comply")
        assert [r.article for r in g.state.rulings] == ["10.17", "10.5"]
    else:
        assert summary(g) == ("finished", "0-1", "refusal_to_comply")


# --- 2023 7.5.3 / 7.5.4: penalised as if an illegal move ------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_pressing_the_clock_without_a_move(edition: str) -> None:
    """White presses the clock without moving at t=10. 2023 7.5.3: penalised as an illegal
    move (Black +2 minutes; a second would lose); 1997 6.13 / 1989 12.5: the arbiter restarts
    White's clock, no penalty. Either way White still has the move."""
    g = game(start(edition=edition, time_control="5400"), ev("press_clock", 10, "white"))
    assert g.state.turn == "white" and g.state.clock.running == "white"
    black = 5400_000 + (120_000 if edition == "2023" else 0)
    assert g.state.to_json()["clocks"] == {"white_ms": 5390_000, "black_ms": black, "running": "white"}
    assert g.state.rulings[0].article == {"1989": "12.5", "1997": "6.13", "2023": "7.5.3"}[edition]
    if edition == "2023":
        g = g.apply(ev("press_clock", 12, "white"))
        assert summary(g) == ("finished", "0-1", "illegal_moves")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_move_made_with_two_hands(edition: str) -> None:
    """White castles with two hands and presses the clock. The move stands everywhere; 2023
    7.5.4 penalises it as an illegal move (Black +2 minutes); 1997 4.1 (one hand only) leaves
    any penalty to the arbiter; the 1989 text says nothing."""
    g = game(start(edition=edition, time_control="5400", fen=CASTLING), ev("move", 10, "white", move="O-O", two_hands=True))
    assert g.state.sans == ["O-O"]
    assert [r.article for r in g.state.rulings] == {"1989": [], "1997": ["4.1"], "2023": ["7.5.4", "7.5.5"]}[edition]
    assert g.state.remaining_ms("black") == 5400_000 + (120_000 if edition == "2023" else 0)


# --- 2023 Guidelines III.4 and III.6 ---------------------------------------------------------


def increment_asked() -> Game:
    """90 s for the game, Guidelines III announced; at t=40 White (50 s left) asks for 5 s a move."""
    return game(start(edition="2023", time_control="90", mode="standard", quickplay_guidelines=True),
                ev("request_increment", 40, "white"))


def test_2023_request_for_an_increment_is_a_draw_offer() -> None:
    """III.4: "This constitutes the offer of a draw": the clocks stop for the arbiter and the
    offer is pending; after 1.e4 e5 (both have moved, 5.2.3) Black's acceptance draws."""
    g = increment_asked()
    assert {"kind": "draw_offer", "by": "white"} in g.state.pending()
    assert g.state.clock.running is None and last_ruling(g).article == "III.4"
    moved = game(start(edition="2023", time_control="90", mode="standard", quickplay_guidelines=True),
                 moves(["e4", "e5"], step=20), ev("request_increment", 50, "white"), ev("accept_draw", 55, "black"))
    assert summary(moved) == ("finished", "1/2-1/2", "agreement")


def test_2023_increment_granted_after_the_offer_is_refused() -> None:
    """Black refuses; the arbiter agrees: 5 s a move for both from now on, and Black gets two
    extra minutes (III.4). White then plays 1.e4 at t=50 and receives 5 s."""
    g = increment_asked()
    with pytest.raises(GameError, match="not yet refused"):
        g.apply(ev("decision", 41, "arbiter", on="increment", ruling="grant"))
    g = g.apply(ev("decline_draw", 42, "black")).apply(ev("decision", 45, "arbiter", on="increment", ruling="grant"))
    assert g.state.remaining_ms("black") == 90_000 + 120_000
    assert g.state.clock.running == "white"
    g = g.apply(ev("move", 50, "white", move="e4"))
    # White: 90 - 40 (to the request) - 5 (t=45..50) + 5 = 50 s.
    assert g.state.remaining_ms("white") == 50_000


def test_2023_quickplay_claim_without_an_arbiter_concludes_the_game() -> None:
    """III.6 (1997 D.1): with no arbiter present the claim concludes the game; the arbiter's
    decision is final: a draw or a rejection, never a postponement."""
    g = quickplay("2023", "90", 80, quickplay_guidelines=True, arbiter="absent", mode="standard")
    with pytest.raises(GameError, match="III.6"):
        g.apply(ev("decision", 100, "arbiter", on="quickplay", ruling="postpone"))
    assert g.apply(ev("decision", 100, "arbiter", on="quickplay", ruling="draw")).state.termination == "arbiter_decision"


# --- the set-up of the game: 1989 8.5/8.7, 1997 7.1, 2023 7.2.1-7.2.2 ------------------------


@pytest.mark.parametrize(("edition", "initial", "board"), [
    ("1989", "8.5", "8.7"), ("1997", "7.1(a)", "7.1(b)"), ("2023", "7.2.1", "7.2.2")])
def test_wrong_set_up_found_during_the_game(edition: str, initial: str, board: str) -> None:
    """After 1.e4 e5 White finds the initial position was wrong: the game is annulled and a
    new one played. Had only the board been turned wrongly, the position is carried to a
    correctly placed board and the game goes on."""
    played = [start(edition=edition, time_control="5400"), moves(["e4", "e5"])]
    g = game(*played, ev("claim_setup", 25, "white", what="initial_position"))
    assert g.state.status == "annulled" and last_ruling(g).article == initial
    g = game(*played, ev("claim_setup", 25, "white", what="board"))
    assert g.state.status == "ongoing" and last_ruling(g).article == board and g.state.sans == ["e4", "e5"]

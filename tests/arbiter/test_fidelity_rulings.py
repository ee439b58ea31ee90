"""The ruled areas an independent arbiter's cases check.

Each test tells a short game as a log and cites the articles; where the
editions' texts differ, the same log runs under each edition and gets each
text's result. Clock values are worked out by hand from the ``t`` of the events.
"""

from __future__ import annotations

import pytest

from chesslaws.game import Game
from _arb import ev, game, last_ruling, start, summary

EDITIONS = ["1989", "1997", "2023"]


def breach(g: Game) -> bool:
    """Did the last move break touch-move (a claim is open to the opponent)?"""
    return any(p["kind"] == "touch_move_claimable" for p in g.state.pending())


# --- touch-move and the move replacing an illegal move --------------------------------------
# 1989 8.1 ("by applying the rules of Article 7 to the move replacing the illegal move"),
# 1997 7.4 (French text: Article 4.3 applies to the replacing move; 4.3(a): "the first piece
# touched that can be moved"), 2023 7.5.1 ("Articles 4.3 and 4.7 apply to the move replacing
# the illegal move").


def knight_touched_then_illegal_bishop(edition: str, replacing: str) -> Game:
    """White touches the g1 knight, then plays Bf1-c4 through his own e2 pawn (illegal): the
    position is reinstated, then White plays ``replacing``."""
    return game(start(edition=edition, time_control="5400"),
                ev("touch", 5, "white", square="g1"),
                ev("move", 8, "white", move="f1c4"),
                ev("move", 12, "white", move=replacing))


@pytest.mark.parametrize("edition", EDITIONS)
def test_replacing_move_is_made_with_the_piece_touched_first(edition: str) -> None:
    """The knight, touched first, can move: the move replacing the illegal move must be a
    knight move. Nf3 keeps the rule; e4 breaks it and Black's claim takes it back."""
    g = game(start(edition=edition, time_control="5400"),
             ev("touch", 5, "white", square="g1"), ev("move", 8, "white", move="f1c4"))
    r = last_ruling(g)
    assert "touched g1, then f1 and must move or capture the first piece touched" in r.text
    assert not breach(knight_touched_then_illegal_bishop(edition, "Nf3"))
    g = knight_touched_then_illegal_bishop(edition, "e4")
    assert breach(g)
    g = g.apply(ev("claim_touch_move", 15, "black"))
    assert g.state.position.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert "move the touched piece on g1" in last_ruling(g).text


@pytest.mark.parametrize("edition", EDITIONS)
def test_replacing_move_when_the_piece_touched_first_cannot_move(edition: str) -> None:
    """White touches the c1 bishop (hemmed in), then plays the illegal Bf1-c4: neither touched
    piece can move, so the replacing move is free (1997 4.5, 2023 4.5; 1989 Article 7)."""
    g = game(start(edition=edition, time_control="5400"),
             ev("touch", 5, "white", square="c1"), ev("move", 8, "white", move="f1c4"),
             ev("move", 12, "white", move="e4"))
    assert "touched c1, then f1" in g.state.rulings[-1].text
    assert not breach(g)
    assert summary(g) == ("ongoing", "*", None)


def test_replacing_move_after_a_claimed_illegal_move_without_an_arbiter() -> None:
    """Without an arbiter present the illegal move stands until the opponent claims it; the
    claim reinstates the position, and the knight touched first still binds the replacing move."""
    g = game(start(edition="2023", time_control="5400", arbiter="absent"),
             ev("touch", 5, "white", square="g1"), ev("move", 8, "white", move="f1c4"),
             ev("claim_win", 10, "black", reason="illegal_move"))
    assert "touched g1, then f1" in last_ruling(g).text
    g = g.apply(ev("move", 12, "white", move="e4"))
    assert breach(g)


# --- Chess960: a rook touched before the king (2023 4.4.2 with II.1) --------------------------
# II.1: "Chess960 ... is played in the same way as regular chess": 4.4.2 ("If a player touches a
# rook and then his king he is not allowed to castle on that side on that move") holds for the
# four castling methods, rook-move-only castling (II.3.2.4) included.

ROOK_ONLY = "6kr/pppppppp/8/8/8/8/PPPPPPPP/6KR w Kk - 0 1"  # O-O moves the h1 rook alone, to f1


def chess960_rook_then_king(fen: str, move: str) -> Game:
    return game(start(edition="2023", time_control="5400", variant="chess960", fen=fen),
                ev("touch", 1, "white", square="h1"), ev("touch", 2, "white", square="g1"),
                ev("move", 3, "white", move=move))


def test_chess960_rook_then_king_forbids_rook_move_only_castling() -> None:
    """White touches the h1 rook, then the king on g1, and castles O-O, which moves only that
    rook: no castling on that side on that move. The rook has no other move, so 4.3 passes to
    the king, touched second: Kf1 is due. Black's claim takes O-O back."""
    g = chess960_rook_then_king(ROOK_ONLY, "O-O")
    assert g.state.sans == ["O-O"] and breach(g)
    g = g.apply(ev("claim_touch_move", 4, "black"))
    assert g.state.sans == [] and g.state.position.fen() == ROOK_ONLY
    assert "move the touched piece on g1" in last_ruling(g).text
    g = g.apply(ev("move", 6, "white", move="Kf1"))
    assert not breach(g)


def test_chess960_rook_then_king_when_the_rook_has_another_move() -> None:
    """The h2 pawn gone, the h1 rook can move along the file: it was touched first and must
    move (4.4.2 sends to 4.3), but not by castling: O-O is a breach, Rh5 is not."""
    fen = ROOK_ONLY.replace("PPPPPPPP/", "PPPPPPP1/")
    assert breach(chess960_rook_then_king(fen, "O-O"))
    assert not breach(chess960_rook_then_king(fen, "Rh5"))


def test_rook_then_king_in_the_standard_array_and_chess960() -> None:
    """The same touches in the same position, played as standard chess from a FEN and as
    Chess960: the standard game cannot castle there at all (the king is not on e1), and the
    Chess960 game may not castle on that side after touching the rook first."""
    standard = game(start(edition="2023", time_control="5400", fen="6k1/pppppppp/8/8/8/8/PPPPPPPP/6KR w - - 0 1"),
                    ev("touch", 1, "white", square="h1"), ev("touch", 2, "white", square="g1"),
                    ev("move", 3, "white", move="Kf1"))
    assert not breach(standard)
    assert not breach(chess960_rook_then_king(ROOK_ONLY, "Kf1"))


# --- partial supervision: 2023 A.5.2 (rapid; blitz through B.3) -------------------------------
# "If the arbiter observes an action taken under Article 7.5.1, 7.5.2, 7.5.3 or 7.5.4, he/she shall
# act according to Article 7.5.5, provided the opponent has not made his/her next move."


@pytest.mark.parametrize("edition", EDITIONS)
def test_partial_supervision_arbiter_acts_on_the_illegal_move_he_observes(edition: str) -> None:
    """A 30-minute game, an arbiter present who supervises several games. After 1.e4 e5, White
    plays Qd1-d5 through his own d2 pawn and presses the clock at t=30. 2023 A.5.2: the arbiter
    observes it and acts under 7.5.5 before Black moves: the position is reinstated and Black
    gets one minute (A.3): his clock ran from t=10 to t=20, so 1800 - 10 + 60 = 1850 s. 1997 B.5: in rapidplay the arbiter
    rules on illegal moves only when a player asks: the move stands until Black claims.
    1989 has no rapidplay: 8.1 reinstates the position, with no penalty."""
    g = game(start(edition=edition, time_control="1800", supervision="partial"),
             ev("move", 10, "white", move="e4"), ev("move", 20, "black", move="e5"),
             ev("move", 30, "white", move="d1d5"))
    if edition == "1997":
        assert g.state.moves[-1].illegal and g.state.turn == "black"
        assert {"kind": "illegal_move_claimable", "by": "black"} in g.state.pending()
        return
    assert g.state.sans == ["e4", "e5"] and g.state.turn == "white"
    assert g.state.pending() == []
    if edition == "1989":
        assert g.state.remaining_ms("black") == 1790_000 and last_ruling(g).article == "8.1"
        return
    assert g.state.remaining_ms("black") == 1850_000
    assert [r.article for r in g.state.rulings] == ["A.5.2", "7.5.5", "A.3"]
    assert "one minute" in last_ruling(g).text


def test_partial_supervision_in_blitz_the_second_observed_illegal_move_loses() -> None:
    """2023 blitz with an arbiter for several games (B.3 sends to A.5): the arbiter acts on each
    illegal move he observes; White's second loses (7.5.5), Black being able to mate."""
    g = game(start(edition="2023", time_control="180+2", supervision="partial"),
             ev("move", 2, "white", move="e4"), ev("move", 4, "black", move="e5"),
             ev("move", 6, "white", move="d1d5"), ev("move", 8, "white", move="f1f3"))
    assert summary(g) == ("finished", "0-1", "illegal_moves")
    assert last_ruling(g).article == "7.5.5"


# --- 1997 10.2: the quickplay claim of a player whose opponent's clock runs ---------------------
# 1997 10.2: "If the player has less than two minutes left on his clock, he may claim a draw before
# his flag falls" (the French text: "si un joueur"): no "having the move". 2023 III.5: "If the player
# having the move has less than two minutes left ..."; 1989 has no such claim.


def claim_on_the_opponents_time(edition: str) -> list[dict[str, object]]:
    """Five minutes for the game (all of it a quickplay finish). White plays 1.e4 at t=190 (110 s
    left) and, while Black's clock runs, claims a draw at t=200."""
    return [start(edition=edition, time_control="300", mode="standard", quickplay_guidelines=edition == "2023"),
            ev("move", 190, "white", move="e4"), ev("claim_draw", 200, "white", reason="quickplay")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_quickplay_claim_on_the_opponents_time(edition: str) -> None:
    """1997: the claim stands before the arbiter and the clocks stop (White 110 s; Black's clock
    ran from t=190 to t=200: 290 s); the arbiter postpones, gives Black two minutes, and Black's clock runs on.
    2023 and 1989 refuse the claim: only the player having the move may make it (III.5), and
    1989 has no quickplay claim."""
    log = claim_on_the_opponents_time(edition)
    if edition != "1997":
        with pytest.raises(Exception, match="III.5" if edition == "2023" else "1989 Laws have no"):
            game(*log)
        return
    g = game(*log)
    assert {"kind": "claim", "reason": "quickplay", "by": "white"} in g.state.pending()
    assert g.state.to_json()["clocks"] == {"white_ms": 110_000, "black_ms": 290_000, "running": None}
    g = g.apply(ev("decision", 210, "arbiter", on="quickplay", ruling="postpone", extra_time=True))
    assert g.state.to_json()["clocks"] == {"white_ms": 110_000, "black_ms": 410_000, "running": "black"}
    assert last_ruling(g).article == "10.2(b)"


def test_1997_quickplay_claim_on_the_opponents_time_upheld() -> None:
    """The arbiter is satisfied that Black cannot win by normal means: the game is drawn (10.2(a))."""
    g = game(*claim_on_the_opponents_time("1997"),
             ev("decision", 210, "arbiter", on="quickplay", ruling="draw"))
    assert summary(g) == ("finished", "1/2-1/2", "arbiter_decision")


# --- 2023 10.2: the total score of a game never exceeds the maximum ---------------------------
# 10.2: "The total score of any game can never exceed the maximum score normally given for that
# game. Scores given to an individual player must be those normally associated with the game,
# for example a score of 3/4 - 1/4 is not allowed." 12.9.4 raises the opponent's points "to the
# maximum available for that game": beside the opponent's 1, the offender keeps nothing.


def drawn_then_penalised(edition: str) -> Game:
    return game(start(edition=edition), ev("move", 10, "white", move="e4"), ev("move", 20, "black", move="e5"),
                ev("offer_draw", 25, "white"), ev("accept_draw", 26, "black"),
                ev("penalty", 100, "arbiter", against="white", kind="opponent_points", reason="advice during the game"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_points_penalty_after_a_draw_keeps_the_total_at_one(edition: str) -> None:
    """A draw by agreement; afterwards the arbiter raises Black's points to the maximum (2023
    12.9.4) for White's offence. Black 1, White ½ would total 1½: White's half point goes, the
    score is 0-1 (the result on the board stays the agreed draw). 1989 and 1997 have no points
    penalty: the same log is refused."""
    if edition != "2023":
        with pytest.raises(Exception, match="do not include"):
            drawn_then_penalised(edition)
        return
    g = drawn_then_penalised(edition)
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}
    assert g.state.result == "1/2-1/2" and g.state.termination == "agreement"
    assert [r.article for r in g.state.rulings][-2:] == ["12.9.4", "10.2"]
    assert "0-1" in last_ruling(g).text


def test_points_penalty_against_the_winner() -> None:
    """White wins by resignation, then is found to have cheated: 12.9.4 gives Black 1, and by
    10.2 White's 1 is lost (1-1 exceeds the maximum)."""
    g = game(start(edition="2023"), ev("move", 10, "white", move="e4"), ev("resign", 20, "black"),
             ev("penalty", 100, "arbiter", against="white", kind="opponent_points"))
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}


# --- 1997 C.4: in blitz, no win without mating potential ------------------------------------
# C.4: "In order to win, a player must have mating potential ... Thus two knights and a king
# against a lone king is insufficient". Of every win, as 1989 10.5 ("A player having a bare king
# cannot win the game") is; 2023 5.1.2 draws a resignation when the opponent cannot mate by any
# series of legal moves.

LONE_KINGS = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"  # White K+P, Black a lone king
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1"  # White K+N+N, Black a lone king


@pytest.mark.parametrize(("edition", "control", "fen", "result"), [
    # White resigns against Black's lone king: no edition lets a lone king win.
    ("1989", "300", LONE_KINGS, "1/2-1/2"),  # 10.5
    ("1997", "300", LONE_KINGS, "1/2-1/2"),  # C.4 (blitz)
    ("1997", "5400", LONE_KINGS, "0-1"),  # standard play: C.4 is blitz only, 5.1(b)
    ("2023", "300", LONE_KINGS, "1/2-1/2"),  # 5.1.2
])
def test_resignation_against_a_lone_king(edition: str, control: str, fen: str, result: str) -> None:
    g = game(start(edition=edition, time_control=control, fen=fen), ev("resign", 5, "white"))
    assert summary(g) == ("finished", result, "resignation")
    if (edition, control) == ("1997", "300"):
        assert [r.article for r in g.state.rulings] == ["5.1(b)", "C.4"]
        assert "lone king" in last_ruling(g).text


@pytest.mark.parametrize(("edition", "result"), [("1989", "1-0"), ("1997", "1/2-1/2"), ("2023", "1-0")])
def test_blitz_resignation_against_two_knights(edition: str, result: str) -> None:
    """Black resigns against king and two knights in a five-minute game. 1997 C.4 names two
    knights against a lone king as insufficient: drawn. 1989 10.5 only draws a bare king, and
    under 2023 5.1.2 two knights can mate by some series of legal moves: White wins."""
    g = game(start(edition=edition, time_control="300", fen=TWO_KNIGHTS.replace(" w ", " b ")),
             ev("resign", 5, "black"))
    assert summary(g) == ("finished", result, "resignation")


def test_1997_blitz_penalty_loss_against_a_lone_king() -> None:
    """1997 13.4(d), the arbiter declares the game lost by White in a blitz game; Black has a
    lone king: C.4, drawn."""
    g = game(start(edition="1997", time_control="300", fen=LONE_KINGS),
             ev("penalty", 5, "arbiter", against="white", kind="loss"))
    assert summary(g) == ("finished", "1/2-1/2", "arbiter_decision")
    assert last_ruling(g).article == "C.4"


# --- citations: the annulment; the one minute of rapid and blitz ------------------------------


@pytest.mark.parametrize(("edition", "reason", "article"), [
    ("1989", "wrong initial position", "8.5"),
    ("1997", "wrong initial position", "7.1(a)"),
    ("2023", "wrong initial position", "7.2.1"),
    ("1989", "colours reversed", "8.6"),
    ("1997", "colours reversed", "7.2"),
    ("2023", "colours reversed", "7.3"),
    ("1989", "the position before the illegal move cannot be reinstated", "8.1"),
    ("1989", "the displaced pieces cannot be reinstated", "8.2"),
    ("1989", "the hall was evacuated", "16.4"),
    ("1997", "the hall was evacuated", "13.2"),
    ("2023", "the hall was evacuated", "12.2.2"),
])
def test_an_annulment_cites_the_article_that_annuls(edition: str, reason: str, article: str) -> None:
    """The arbiter annuls after 1.e4 e5: the ruling cites the article under which a game is
    annulled (a new game played), or, where no article names the case, the arbiter's duty to
    act in the best interest of the competition; never Article 3, the moves of the pieces."""
    g = game(start(edition=edition, time_control="5400"), ev("move", 10, "white", move="e4"),
             ev("move", 20, "black", move="e5"), ev("annul", 30, "arbiter", reason=reason))
    assert g.state.status == "annulled"
    assert last_ruling(g).article == article and reason in last_ruling(g).text


@pytest.mark.parametrize(("edition", "control", "articles", "bonus"), [
    ("2023", "1500", ["A.3", "9.5.3"], 60_000),  # rapid: one minute instead of two (A.3)
    ("2023", "300", ["A.3", "9.5.3"], 60_000),  # blitz
    ("2023", "5400", ["9.5.3"], 120_000),  # standard: two minutes (9.5.3)
    ("1997", "1500", ["9.5(b)"], 180_000),  # 1997: the same penalty in rapidplay
])
def test_the_one_minute_of_an_incorrect_claim_cites_a_3(edition: str, control: str, articles: list[str],
                                                        bonus: int) -> None:
    """1.e4 (t=10) e5 (t=20); at t=30 White claims a threefold repetition: incorrect. 2023 9.5.3
    gives Black two minutes; A.3 makes it one in rapid (and blitz): both are cited."""
    g = game(start(edition=edition, time_control=control), ev("move", 10, "white", move="e4"),
             ev("move", 20, "black", move="e5"), ev("claim_draw", 30, "white", reason="threefold"))
    cited = [r.article for r in g.state.rulings if r.article in ("A.3", "9.5.3", "9.5(b)")]
    assert cited == articles
    assert g.state.remaining_ms("black") == int(control) * 1000 - 10_000 + bonus


@pytest.mark.parametrize(("control", "articles", "bonus"), [
    ("1500", ["7.5.5", "A.3"], 60_000), ("5400", ["7.5.5"], 120_000)])
def test_the_one_minute_of_an_illegal_move_cites_a_3(control: str, articles: list[str], bonus: int) -> None:
    """1.e4 (t=10) e5 (t=20), then White's illegal Qd1-d5 at t=30, corrected at once (full
    supervision): 7.5.5 gives Black two minutes, A.3 one in rapid."""
    g = game(start(edition="2023", time_control=control), ev("move", 10, "white", move="e4"),
             ev("move", 20, "black", move="e5"), ev("move", 30, "white", move="d1d5"))
    assert [r.article for r in g.state.rulings] == articles
    assert g.state.remaining_ms("black") == int(control) * 1000 - 10_000 + bonus

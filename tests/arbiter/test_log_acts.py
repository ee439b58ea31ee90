"""What the log says beyond the moves, ruled under each edition: a claim that a legal move was illegal, a
claim made during an adjournment about the session that ended, a game begun from a wrong set-up, the
regulations the Laws defer to (start fields), and the arbiter's procedures (a reconstruction on a second
board, a claim relying on a display, the times allotted in proportion)."""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.events import EventError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


# --- an incorrect claim of an illegal move ------------------------------------------------------------------
@pytest.mark.parametrize("edition,article", [("1989", "15.1(d)"), ("1997", "12.5"), ("2023", "11.5")])
def test_a_legal_move_claimed_illegal_is_a_rejected_claim(edition: str, article: str) -> None:
    """No arbiter present: Black claims that White's 2.Bc4 was illegal. It was legal: the claim is rejected, the
    game continues, and the ruling says an unreasonable claim distracts the opponent (the arbiter's penalty)."""
    g = game(start(edition=edition, time_control="5400", arbiter="absent"), moves(["e4", "e5", "Bc4"]),
             ev("claim_win", 35, "black", reason="illegal_move", move="Bc4"))
    assert summary(g) == ("ongoing", "*", None) and len(g.state.moves) == 3
    assert last_ruling(g).article == article and "rejected" in last_ruling(g).text
    # The move named must be the opponent's last: a claim about another is no claim the log can hold.
    with pytest.raises(ChessLawsError, match="last move is Bc4"):
        game(start(edition=edition, arbiter="absent"), moves(["e4", "e5", "Bc4"]),
             ev("claim_win", 35, "black", reason="illegal_move", move="Nf3"))


def test_a_named_illegal_move_is_still_corrected() -> None:
    """The same claim naming a move that was illegal goes to the usual ruling: 2023 7.5.1."""
    g = game(start(edition="2023", time_control="5400", arbiter="absent"), moves(["e4", "e5"]),
             ev("move", 30, "white", move="e1e3"), ev("claim_win", 35, "black", reason="illegal_move", move="e1e3"))
    assert len(g.state.moves) == 2 and g.state.rulings[0].article == "7.5.5"


# --- a claim made during an adjournment -----------------------------------------------------------------------
def _adjourned(edition: str, *before: dict[str, object]) -> list[dict[str, object]]:
    return [start(edition=edition, time_control="40/7200", arbiter="absent", default_time=3600), *before]


@pytest.mark.parametrize("edition,article", [("1989", "8.1"), ("1997", "7.4"), ("2023", "7.5.5")])
def test_an_illegal_move_claimed_during_the_adjournment(edition: str, article: str) -> None:
    """Black's 2...Ke7?? was illegal? No: White's 3.Ke3 (e1e3) is, and stood (no arbiter); Black sealed
    instead of claiming. During the adjournment he claims: the position before 3.Ke3 is reinstated (1989 8.1:
    every session), the envelope is set aside, and at the resumption White makes his move on the board."""
    log = _adjourned(edition, *moves(["e4", "e5"]), ev("move", 30, "white", move="e1e3"),
                     ev("seal", 40, "black", move="Nc6"), ev("claim_win", 100, "black", reason="illegal_move"))
    g = game(log[0], *log[1:])
    assert g.state.status == "adjourned" and len(g.state.moves) == 2 and g.state.envelope is None
    assert article in [r.article for r in g.state.rulings]
    assert g.state.clock.running is None
    g = g.apply(ev("resume", 1000)).apply(ev("arrive", 1001, "white")).apply(ev("arrive", 1002, "black"))
    g = g.apply(ev("move", 1010, "white", move="Nf3"))
    assert g.state.sans == ["e4", "e5", "Nf3"] and g.state.status == "ongoing"


@pytest.mark.parametrize("edition,article", [("1989", "8.1"), ("1997", "7.4"), ("2023", "7.5.1")])
def test_an_illegal_move_claimed_at_the_resumption_before_the_envelope_is_opened(edition: str, article: str) -> None:
    """The same illegal 3.Ke3 stood when Black sealed; the session resumes with Black, the sealer, present and
    White, the replier, not yet there (his clock runs, the envelope waits for him). Black claims then: the
    position before 3.Ke3 is reinstated and the envelope set aside unopened, as during the adjournment. White
    arrives and makes his move on the board; the sealed 2...Nc6, which answered 3.Ke3, is never opened against
    a position it did not answer (it would be illegal there, and Black would lose for a correct claim)."""
    log = _adjourned(edition, *moves(["e4", "e5"]), ev("move", 30, "white", move="e1e3"),
                     ev("seal", 40, "black", move="Nc6"), ev("resume", 1000), ev("arrive", 1001, "black"),
                     ev("claim_win", 1005, "black", reason="illegal_move"))
    g = game(log[0], *log[1:])
    assert summary(g) == ("ongoing", "*", None) and g.state.envelope is None and g.state.sans == ["e4", "e5"]
    assert g.state.clock.running == "white" and last_ruling(g).article == article
    assert "before the envelope is opened" in last_ruling(g).text and "White makes his move" in last_ruling(g).text
    g = g.apply(ev("arrive", 1010, "white")).apply(ev("move", 1020, "white", move="Nf3"))
    assert summary(g) == ("ongoing", "*", None) and g.state.sans == ["e4", "e5", "Nf3"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_sealers_draw_claim_at_the_resumption_writes_no_move(edition: str) -> None:
    """Before the envelope is opened the sealer's move is the sealed one: a draw claim with a written move is
    refused; without one, the repetition on the position before the sealed move is ruled on the running clocks."""
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
    g = game(start(edition=edition, time_control="40/7200", default_time=3600), moves(shuffle),
             ev("seal", 100, "white", move="e4"), ev("resume", 1000), ev("arrive", 1001, "white"))
    with pytest.raises(EventError, match="before the envelope is opened"):
        g.apply(ev("claim_draw", 1005, "white", reason="threefold", move="Nf3"))
    assert summary(g.apply(ev("claim_draw", 1005, "white", reason="threefold")))[:2] == ("finished", "1/2-1/2")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_flag_claimed_during_the_adjournment(edition: str) -> None:
    """Black sealed with his flag already down (4 seconds a game); White claims before the resumption: the
    flag had fallen before the clocks were stopped, and White wins. A claim with no flag down leaves the game
    adjourned."""
    g = game(start(edition=edition, time_control="40/4", arbiter="absent"), moves(["e4"], step=1),
             ev("seal", 10, "black", move="e5"))
    won = g.apply(ev("claim_flag", 20, "white"))
    assert summary(won)[:2] == ("finished", "1-0")
    fine = game(start(edition=edition, time_control="40/7200", arbiter="absent"), moves(["e4"]),
                ev("seal", 20, "black", move="e5")).apply(ev("claim_flag", 30, "white"))
    assert fine.state.status == "adjourned" and "had not" in last_ruling(fine).text


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_repetition_claimed_by_the_sealer_during_the_adjournment(edition: str) -> None:
    """The position before the sealed move has appeared three times: the sealer, who has the move, claims
    during the adjournment and the game is drawn; with a written move the claim cannot be made (the sealed
    move stays in the envelope)."""
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
    g = game(start(edition=edition, time_control="40/7200"), moves(shuffle), ev("seal", 100, "white", move="e4"))
    drawn = g.apply(ev("claim_draw", 200, "white", reason="threefold"))
    assert summary(drawn) == ("finished", "1/2-1/2", "threefold_repetition")
    with pytest.raises(EventError, match="sealed"):
        g.apply(ev("claim_draw", 200, "white", reason="threefold", move="Nf3"))


# --- a game begun from a wrong set-up -------------------------------------------------------------------------
KQ_SWAPPED = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1"  # White's king on d1, queen on e1
TEN_EACH = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2 + ["Nc3", "Nc6", "Nb1", "Nb8"] + ["e3", "e6", "Bd3", "Bd6",
                                                                             "Nf3", "Nf6", "Nc3", "Nc6"]


def test_the_board_is_the_position_played_and_a_misplaced_king_never_castles() -> None:
    g = game(start(edition="2023", setup=KQ_SWAPPED))
    assert g.state.position.piece_at("d1") == "K" and g.state.config.intended_fen is not None
    assert g.state.position.fen().split()[2] == "kq"  # Black's castling stands; White's king is misplaced


@pytest.mark.parametrize("edition,article", [("1989", "8.5"), ("1997", "7.1(a)"), ("2023", "7.2.1")])
def test_a_wrong_set_up_found_during_a_standard_game_annuls_it(edition: str, article: str) -> None:
    g = game(start(edition=edition, time_control="40/7200", setup=KQ_SWAPPED), moves(TEN_EACH),
             ev("claim_setup", 300, "black", what="initial_position"))
    assert g.state.status == "annulled" and last_ruling(g).article == article


def test_2023_a_5_1_2_too_late_and_no_castling_with_the_misplaced_king() -> None:
    """Rapid with an arbiter for several games: after ten moves each, no claim; the game goes on from the
    board, and White, whose king stands on d1, has no castling (A.5.1.2); Black castles."""
    g = game(start(edition="2023", time_control="900+10", supervision="partial", setup=KQ_SWAPPED),
             moves(TEN_EACH), ev("claim_setup", 300, "black", what="initial_position"))
    assert g.state.status == "ongoing"
    assert [r.article for r in g.state.rulings[-2:]] == ["A.5.1.2", "A.5.1.2"]
    assert "White's on the king's side" in last_ruling(g).text
    assert "O-O" not in [san for _, san in g.state.position.legal_moves_san()]


def test_1997_rapid_b_4_after_three_moves() -> None:
    g = game(start(edition="1997", time_control="1800", setup=KQ_SWAPPED), moves(["e3", "e6", "Bd3", "Bd6", "Nf3", "Nf6"]),
             ev("claim_setup", 100, "white", what="initial_position"))
    assert g.state.status == "ongoing" and [r.article for r in g.state.rulings[-2:]] == ["B.4", "B.4"]


# --- the regulations --------------------------------------------------------------------------------------------
def test_2023_9_1_1_no_agreement_before_move_30_without_the_arbiters_consent() -> None:
    g = game(start(edition="2023", time_control="5400", no_draw_before_move=30), moves(["e4", "e5"]),
             ev("offer_draw", 25, "white"), ev("accept_draw", 26, "black"))
    assert g.state.status == "ongoing" and last_ruling(g).article == "9.1.1"
    assert {"kind": "claim", "reason": "agreement", "by": "black"} in g.state.pending()
    assert g.state.clock.running is None
    drawn = g.apply(ev("decision", 60, on="agreement", ruling="grant"))
    assert summary(drawn) == ("finished", "1/2-1/2", "agreement")
    refused = g.apply(ev("decision", 60, on="agreement", ruling="reject"))
    assert refused.state.status == "ongoing" and refused.state.offer is None and refused.state.clock.running == "white"
    free = game(start(edition="2023", time_control="5400", no_draw_before_move=2), moves(["e4", "e5", "Nf3", "Nc6"]),
                ev("offer_draw", 45, "white"), ev("accept_draw", 46, "black"))
    assert summary(free) == ("finished", "1/2-1/2", "agreement")


@pytest.mark.parametrize("edition,article", [("1989", "10.6"), ("1997", "5.3")])
def test_earlier_laws_let_the_agreement_end_the_game_whatever_the_regulations(edition: str, article: str) -> None:
    g = game(start(edition=edition, time_control="5400", no_draw_offers=True), moves(["e4", "e5"]),
             ev("offer_draw", 25, "white"), ev("accept_draw", 26, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")
    assert any("regulations" in r.text and r.article == article for r in g.state.rulings)


@pytest.mark.parametrize("edition,article,breach", [("1989", "16.4", False), ("1997", "12.4", False),
                                                     ("2023", "11.2.4", True)])
def test_11_2_4_the_opponent_reports_before_leaving(edition: str, article: str, breach: bool) -> None:
    base = start(edition=edition, time_control="5400", report_leaving=True)
    g = game(base, moves(["e4"]), ev("leave_area", 20, "white"))
    assert last_ruling(g).article == article and ("without reporting" in last_ruling(g).text) == breach
    reported = game(base, moves(["e4"]), ev("leave_area", 20, "white", reported=True))
    assert "without reporting" not in last_ruling(reported).text
    having_move = game(start(edition="2023"), moves(["e4"]), ev("leave_area", 20, "black"))
    assert last_ruling(having_move).article == "11.2.3.2" and "without the arbiter's permission" in last_ruling(having_move).text


def test_2023_a_5_1_1_no_change_to_the_clock_setting_after_ten_moves() -> None:
    base = start(edition="2023", time_control="900+10", supervision="partial")
    g = game(base, moves(TEN_EACH), ev("set_clocks", 300, white_ms=600_000, black_ms=600_000, setting=True))
    assert last_ruling(g).article == "A.5.1.1" and g.state.remaining_ms("white") != 600_000
    schedule = game(base, moves(TEN_EACH), ev("set_clocks", 300, white_ms=600_000, black_ms=600_000, setting=True,
                                               schedule=True))
    assert schedule.state.remaining_ms("white") == 600_000
    early = game(base, moves(["e4"]), ev("set_clocks", 20, white_ms=600_000, black_ms=600_000, setting=True))
    assert early.state.remaining_ms("white") == 600_000


def test_iii_4_if_possible_the_clocks_cannot_add_an_increment() -> None:
    g = game(start(edition="2023", time_control="100", mode="standard", quickplay_guidelines=True,
                   increment_possible=False), ev("request_increment", 10, "white"))
    assert last_ruling(g).article == "III.4" and "does not apply" in last_ruling(g).text
    assert g.state.claims == () and g.state.offer is None and g.state.clock.running == "white"


# --- procedures ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("edition,article", [("1989", "11.7"), ("1997", "8.5"), ("2023", "8.5.3")])
def test_the_game_reconstructed_on_a_second_board(edition: str, article: str) -> None:
    g = game(start(edition=edition, time_control="40/7200"), moves(["e4", "e5"]), ev("reconstruct", 30))
    assert last_ruling(g).article == article and g.state.clock.running is None
    assert "the 2 moves made" in last_ruling(g).text and "White's clock was running" in last_ruling(g).text
    g = g.apply(ev("start_clocks", 90))
    assert g.state.clock.running == "white"


@pytest.mark.parametrize("edition,admitted", [("1989", True), ("1997", False), ("2023", False)])
def test_a_claim_relying_only_on_a_display(edition: str, admitted: bool) -> None:
    """White claims Black's flag relying only on the clock's move counter: 1997 6.14 and 2023 6.12.2 do not
    admit it; the 1989 Laws have no such displays, and the claim is examined (Black's flag is down)."""
    g = game(start(edition=edition, time_control="40/10", arbiter="absent"), moves(["e4"], step=1),
             ev("claim_flag", 20, "white", relying_on="display"))
    assert (g.state.status == "finished") == admitted
    if not admitted:
        assert last_ruling(g).article in ("6.14", "6.12.2")


def test_1989_12_6_proportional_times() -> None:
    """1989 12.6's own example, scaled: the irregularity found after 30 moves each is at the 20th move; each
    player's used time is allotted in proportion (90 minutes x 20/30 = 60)."""
    plies = ["Nf3", "Nf6", "Ng1", "Ng8"] * 15
    events = []
    for i, san in enumerate(plies):
        t = (i // 2) * 300 + (180 if i % 2 == 0 else 300)  # White 3 minutes a move, Black 2
        events.append(ev("move", t, "white" if i % 2 == 0 else "black", move=san))
    g = game(start(edition="1989", time_control="40/9000"), events,
             ev("reinstate", 9000, ply=40, proportional=True))
    rulings = [r.article for r in g.state.rulings]
    assert "12.6" in rulings
    assert g.state.remaining_ms("white") == 9_000_000 - 60 * 60_000
    assert g.state.remaining_ms("black") == 9_000_000 - 40 * 60_000
    with pytest.raises(EventError, match="not both"):
        g.apply(ev("reinstate", 9001, ply=10, proportional=True, white_ms=1, black_ms=1))


def test_no_regulation_changes_nothing() -> None:
    with pytest.raises(ChessLawsError, match="no draw offer"):
        game(start(edition="2023", no_draw_offers=True), moves(["e4", "e5"]), ev("accept_draw", 30, "black"))

"""Draw claims: threefold repetition and fifty moves.

1989 10.10-10.13; 1997 9.2-9.5; 2023 9.2-9.5 (penalties: 9.5.3, rapid and
blitz A.3 / A.4). Clock values are worked out by hand from the events' ``t``.
"""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.game import Game, GameError
from _arb import SHUFFLE, ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]
THREEFOLD = {"1989": "10.10", "1997": "9.2", "2023": "9.2"}
FIFTY = {"1989": "10.12", "1997": "9.3", "2023": "9.3"}
INCORRECT = {"1989": "10.13(b)", "1997": "9.5(b)", "2023": "9.5.3"}


def claim(t: float, by: str, reason: str = "threefold", move: str | None = None) -> dict:
    return ev("claim_draw", t, by, reason=reason, **({"move": move} if move else {}))


# --- threefold: "has just appeared" and "is about to appear" --------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_has_just_appeared(edition: str) -> None:
    """1989 10.10(b), 1997 9.2(b), 2023 9.2.2: the initial position, White to move,
    appears for the third time after two knight shuffles; White claims."""
    g = game(start(edition=edition, time_control="5400"), moves(SHUFFLE * 2, step=10), claim(85, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (85_000, THREEFOLD[edition])
    # Each side made 4 moves of 10 s; White's clock ran 5 s more until the claim stopped it.
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 45_000, "black_ms": 5400_000 - 40_000, "running": None}
    assert g.state.to_json()["ply"] == 8


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_is_about_to_appear_with_the_move_written(edition: str) -> None:
    """1989 10.10(a), 1997 9.2(a), 2023 9.2.1: Black writes ...Ng8, which would make
    the initial position appear a third time, and claims. The move is on the record."""
    g = game(start(edition=edition, time_control="5400"), moves((SHUFFLE * 2)[:-1], step=10),
             claim(75, "black", move="Ng8"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")
    st = g.state.to_json()
    # The initial position, after 8 half-moves without capture or pawn move.
    assert st["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5"
    assert st["ply"] == 8
    assert g.state.sans[-1] == "Ng8"
    # Black's clock ran from 70 to 75 before the claim stopped it.
    assert st["clocks"] == {"white_ms": 5400_000 - 40_000, "black_ms": 5400_000 - 35_000, "running": None}


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_claim_with_the_move_in_uci(edition: str) -> None:
    g = game(start(edition=edition), moves((SHUFFLE * 2)[:-1]), claim(75, "black", move="f6g8"))
    assert g.state.termination == "threefold_repetition"


RIGHT_LOST = {"1989": "10.11", "1997": "9.4", "2023": "9.4"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_claim_by_the_player_not_to_move_is_refused(edition: str) -> None:
    """Only "the player having the move" may claim (1989 10.10, 1997 9.2, 2023 9.2.1). Black's
    ...Ng8 brought the start position back for the third time; he played it on the board
    instead of writing it and claiming, and so lost the right to claim on that move (1989
    10.11, 1997 9.4, 2023 9.4): his claim is not admitted, no penalty, the game goes on."""
    g = game(start(edition=edition, time_control="5400"), moves(SHUFFLE * 2)).apply(claim(85, "black"))
    assert summary(g) == ("ongoing", "*", None)
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (85_000, RIGHT_LOST[edition])
    assert "lost the right to claim" in r.text
    # No penalty: Black's clock shows 4 x 10 s used; White's clock runs on from t=80.
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 45_000, "black_ms": 5400_000 - 40_000,
                                           "running": "white"}
    # White, who now has the move, may claim: the position has just appeared for the third time.
    assert g.apply(claim(86, "white")).state.termination == "threefold_repetition"


def test_the_positions_need_not_be_consecutive() -> None:
    """1997 9.2: "(not necessarily consecutively)": the initial position comes back through
    different knights."""
    g = game(start(edition="1997"), moves(SHUFFLE + ["Nc3", "Nc6", "Nb1", "Nb8"]), claim(85, "white"))
    assert g.state.termination == "threefold_repetition"


# --- position identity -------------------------------------------------------------

EP_FIRST = ["e4", "Nf6", "e5", "d5"]  # after 2...d5 White could take exd6 e.p.
EP_CYCLE = ["Nf3", "Nc6", "Ng1", "Nb8"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_not_when_en_passant_was_possible_the_first_time(edition: str) -> None:
    """1989 10.10 ("the rights ... to capture a pawn en passant"), 1997 9.2 ("positions are
    not the same if a pawn could have been captured en passant"), 2023 9.2.3.1.
    After 2...d5 White could play exd6; after the two knight cycles the same pieces stand
    on the same squares, but that was only the second position without the capture."""
    g = game(start(edition=edition, time_control="5400"), moves(EP_FIRST + EP_CYCLE * 2, step=10),
             claim(125, "white"))
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == INCORRECT[edition]
    # One more cycle: now it is the third time.
    g = g.apply(ev("move", 130, "white", move="Nf3"))
    for i, san in enumerate(["Nc6", "Ng1", "Nb8"]):
        g = g.apply(ev("move", 140 + 10 * i, "black" if i % 2 == 0 else "white", move=san))
    g = g.apply(claim(175, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_when_a_double_step_allowed_no_capture(edition: str) -> None:
    """1.e4 leaves no black pawn that could take en passant: the position after 1.e4 is the
    same as after the later knight cycles (FEN's e3 square is no capture right). Black
    claims when it appears the third time."""
    cycle = ["Nf6", "Nf3", "Ng8", "Ng1"]
    g = game(start(edition=edition), moves(["e4"] + cycle * 2), claim(95, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_when_the_en_passant_capture_was_only_pseudo_legal(edition: str) -> None:
    """1997 9.2: not the same "if a pawn could have been captured en passant": after 1...d5 the
    e5 pawn is pinned against White's Ke1 by the Re8, so exd6 e.p. was never possible; the
    position after 1...d5 counts with the two that follow the king/knight shuffles."""
    fen = "4r1k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"
    shuffle = ["Nf3", "Kh8", "Ng1", "Kg8"]
    g = game(start(edition=edition, fen=fen), moves(["d5"] + shuffle * 2, first="black"), claim(95, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")


CASTLE_FEN = "4k1n1/8/8/8/8/8/8/4K1NR w K - 0 1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_not_when_castling_rights_were_lost_between(edition: str) -> None:
    """1989 10.10 (rights to castle "at some future time"), 1997 9.2 ("if the right to castle
    immediately or in the future has been changed"), 2023 9.2.3.2. White's Rh1 goes to
    h2 and back: the same squares, but the first position had the right to castle."""
    rook = ["Rh2", "Nf6", "Rh1", "Ng8"]
    knights = ["Nf3", "Nf6", "Ng1", "Ng8"]
    g = game(start(edition=edition, time_control="5400", fen=CASTLE_FEN), moves(rook + knights, step=10),
             claim(85, "white"))
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == INCORRECT[edition]
    g2 = game(start(edition=edition, time_control="5400", fen=CASTLE_FEN), moves(rook + knights * 2, step=10),
              claim(125, "white"))
    assert g2.state.termination == "threefold_repetition"


NO_RIGHTS_FEN = "4k1n1/8/8/8/8/8/8/4K1NR w - - 0 1"
TRIANGLE = ["Ke2", "Nf6", "Kd1", "Ng8", "Ke1",  # the same squares, but Black to move
            "Nf6", "Ke2", "Ng8", "Kd1", "Nf6", "Ke1", "Ng8"]  # the same squares, White to move


@pytest.mark.parametrize("edition", EDITIONS)
def test_threefold_needs_the_same_player_to_move(edition: str) -> None:
    """1989 10.10 ("the same player having the move each time"), 1997 9.2, 2023 9.2.2:
    White's king triangle e1-e2-d1-e1 brings the initial squares back with Black to move;
    that does not count. After 6...Ng8 the initial position (White to move) is there
    only for the second time."""
    g = game(start(edition=edition, fen=NO_RIGHTS_FEN), moves(TRIANGLE), claim(125, "white"))
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == INCORRECT[edition]


# --- the right to claim is lost by moving and regained when the position recurs ---


@pytest.mark.parametrize("edition", EDITIONS)
def test_right_lost_by_moving_and_regained_when_the_position_recurs(edition: str) -> None:
    """1989 10.11, 1997 9.4, 2023 9.4: White lets the third occurrence pass with 5.Nc3,
    so the claim after 5...Nc6 is wrong; the initial position comes back a fourth
    time after 6.Nb1 Nb8 and White may claim again."""
    g = game(start(edition=edition), moves(SHUFFLE * 2 + ["Nc3", "Nc6"]), claim(105, "white"))
    assert g.state.status == "ongoing"
    g = g.apply(ev("move", 110, "white", move="Nb1")).apply(ev("move", 120, "black", move="Nb8"))
    g = g.apply(claim(125, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")


# --- fifty moves --------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_fifty_moves_have_been_made(edition: str) -> None:
    """1989 10.12, 1997 9.3(a), 2023 9.3.2: Black's 50th move without capture or pawn move;
    White claims."""
    g = game(start(edition=edition, fen="4k3/8/8/8/8/8/8/R3K3 b - - 99 80"), moves(["Kd8"], first="black"),
             claim(15, "white", "fifty"))
    assert summary(g) == ("finished", "1/2-1/2", "fifty_moves")
    assert last_ruling(g).article == FIFTY[edition]


@pytest.mark.parametrize("edition", EDITIONS)
def test_fifty_moves_one_half_move_short_is_incorrect(edition: str) -> None:
    g = game(start(edition=edition, fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), claim(5, "white", "fifty"))
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == INCORRECT[edition]


@pytest.mark.parametrize("edition", ["1997", "2023"])
def test_fifty_moves_about_to_be_made(edition: str) -> None:
    """1997 9.3(b), 2023 9.3.1: White writes Ra2, his 50th move, and claims."""
    g = game(start(edition=edition, fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), claim(5, "white", "fifty", move="Ra2"))
    assert summary(g) == ("finished", "1/2-1/2", "fifty_moves")
    assert g.state.sans == ["Ra2"]
    assert g.state.to_json()["ply"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_fifty_claim_with_an_intended_capture_is_incorrect(edition: str) -> None:
    """The intended move Rxa7 is a capture: the count starts again."""
    g = game(start(edition=edition, time_control="5400", fen="4k3/r7/8/8/8/8/8/R3K3 w - - 99 80"),
             claim(5, "white", "fifty", move="Rxa7"))
    assert g.state.status == "ongoing"
    assert g.state.sans == ["Rxa7"]


def test_1989_announced_longer_limit() -> None:
    """1989 10.12: organisers may announce more than 50 moves; with 75 announced, 50 are not enough."""
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 100 80"
    g = game(start(edition="1989", fen=fen, fifty_move_limit=75), claim(5, "white", "fifty"))
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == "10.13(b)"
    g = game(start(edition="1989", fen="4k3/8/8/8/8/8/8/R3K3 w - - 150 80", fifty_move_limit=75),
             claim(5, "white", "fifty"))
    assert summary(g) == ("finished", "1/2-1/2", "fifty_moves")
    assert last_ruling(g).article == "10.12"


@pytest.mark.parametrize("edition", ["1997", "2023"])
def test_longer_limit_cannot_be_announced_after_1989(edition: str) -> None:
    """1997 9.3 / 2023 9.3 fix the number at 50: the start line is refused."""
    with pytest.raises(ChessLawsError, match="fifty_move_limit"):
        game(start(edition=edition, fifty_move_limit=75))


def test_1989_limit_below_fifty_is_refused() -> None:
    with pytest.raises(ChessLawsError, match="fifty_move_limit"):
        game(start(edition="1989", fifty_move_limit=40))


# --- incorrect claims: the penalty of each edition ----------------------------------


def early_claim(edition: str, tc: str, t: float, move: str | None = None, **extra: object) -> Game:
    """1.e4 (t=10) e5 (t=20); White claims a threefold repetition at ``t``: wrong."""
    return game(start(edition=edition, time_control=tc, **extra), moves(["e4", "e5"], step=10),
                claim(t, "white", move=move))


def test_1989_incorrect_claim_adds_five_minutes_used() -> None:
    """1989 10.13(b): five minutes added to the claimant's used time; the game continues."""
    g = early_claim("1989", "5400", 30)
    assert g.state.status == "ongoing"
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (30_000, "10.13(b)")
    # White used 10 + 10 s, then 300 s are added to the used time.
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 20_000 - 300_000,
                                           "black_ms": 5400_000 - 10_000, "running": "white"}


def test_1989_incorrect_claim_that_oversteps_the_limit_loses() -> None:
    """1989 10.13(b): "If this means that the claimant has overstepped the time limit, his
    game will be declared lost." White has 280 s left when claiming: 300 more used oversteps."""
    g = early_claim("1989", "300", 30)
    assert summary(g) == ("finished", "0-1", "time_forfeit")
    assert last_ruling(g).article == "10.13(b)"
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}


def test_1989_incorrect_claim_oversteps_but_opponent_has_a_bare_king() -> None:
    """1989 10.5: "A draw shall be declared if the opponent of a player with a bare king
    oversteps the time limit (Articles 10.13 and 10.14)"."""
    g = game(start(edition="1989", time_control="300", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
             claim(30, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "time_forfeit")


def test_1989_incorrect_claim_with_just_over_five_minutes_continues() -> None:
    """White has 301 s left: after 300 s more used, 1 s remains and the game goes on."""
    g = game(start(edition="1989", time_control="301"), claim(0, "white"))
    assert g.state.status == "ongoing"
    assert g.state.to_json()["clocks"]["white_ms"] == 1_000


def test_1997_incorrect_claim_halves_up_to_three_minutes_and_gives_three() -> None:
    """1997 9.5(b): half the remaining time, at most 3 minutes, off; 3 minutes to the opponent."""
    g = early_claim("1997", "5400", 30)
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == "9.5(b)"
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 20_000 - 180_000,
                                           "black_ms": 5400_000 - 10_000 + 180_000, "running": "white"}


def test_1997_incorrect_claim_with_little_time_takes_half() -> None:
    """White has 400 - 10 - 210 = 180 s at the claim: half (90 s) is deducted, not 3 minutes."""
    g = early_claim("1997", "400", 230, mode="standard")
    assert g.state.to_json()["clocks"] == {"white_ms": 90_000, "black_ms": 400_000 - 10_000 + 180_000,
                                           "running": "white"}


@pytest.mark.parametrize(("tc", "bonus"), [("5400", 120_000), ("1500", 60_000), ("300", 60_000)])
def test_2023_incorrect_claim_gives_the_opponent_two_minutes_one_in_rapid_and_blitz(tc: str, bonus: int) -> None:
    """2023 9.5.3: two minutes to the opponent; rapid and blitz (Appendix A): one minute.
    The claimant's own time is not touched."""
    g = early_claim("2023", tc, 30)
    base = int(tc) * 1000
    assert g.state.to_json()["clocks"] == {"white_ms": base - 20_000, "black_ms": base - 10_000 + bonus,
                                           "running": "white"}
    assert last_ruling(g).article == "9.5.3"


@pytest.mark.parametrize("edition", EDITIONS)
def test_intended_move_is_played_after_an_incorrect_claim(edition: str) -> None:
    """1989 10.13(b), 1997 9.5(b), 2023 9.5.3: the intended move must be played; then
    Black's clock runs."""
    g = early_claim(edition, "5400", 30, move="Nf3")
    st = g.state.to_json()
    assert st["status"] == "ongoing"
    assert g.state.sans == ["e4", "e5", "Nf3"]
    assert st["ply"] == 3 and st["turn"] == "black"
    assert st["clocks"]["running"] == "black"
    assert st["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    white_after = {"1989": 5400_000 - 20_000 - 300_000, "1997": 5400_000 - 20_000 - 180_000,
                   "2023": 5400_000 - 20_000}[edition]
    black_after = {"1989": 5400_000 - 10_000, "1997": 5400_000 - 10_000 + 180_000,
                   "2023": 5400_000 - 10_000 + 120_000}[edition]
    assert st["clocks"]["white_ms"] == white_after
    # Black's clock then runs: at t=40 it shows 10 s less.
    later = g.at(40).state.to_json()["clocks"]
    assert later["black_ms"] == black_after - 10_000


@pytest.mark.parametrize("edition", EDITIONS)
def test_claim_with_an_illegal_intended_move(edition: str) -> None:
    """The intended move g1g3 is illegal: the claim is incorrect and penalised, the illegal
    move is not played; White is still to move with his clock running."""
    g = early_claim(edition, "5400", 30, move="g1g3")
    st = g.state.to_json()
    assert st["status"] == "ongoing"
    assert st["ply"] == 2 and st["turn"] == "white"
    assert st["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert st["clocks"]["running"] == "white"
    assert last_ruling(g).article == INCORRECT[edition]
    g = g.apply(ev("move", 40, "white", move="Nf3"))
    assert g.state.sans == ["e4", "e5", "Nf3"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_claim_with_an_illegal_move_that_would_repeat_is_still_incorrect(edition: str) -> None:
    """White claims with the written move O-O (e1g1) while his bishop still stands on f1:
    the move is illegal, so the claim is incorrect and nothing is played."""
    g = game(start(edition=edition, time_control="5400"), moves(SHUFFLE + ["Nf3", "Nf6"]), claim(65, "white", move="e1g1"))
    assert g.state.status == "ongoing"
    assert g.state.to_json()["ply"] == 6


@pytest.mark.parametrize("edition", EDITIONS)
def test_claim_without_a_clock_has_no_time_penalty(edition: str) -> None:
    g = early_claim(edition, "-", 30)
    assert g.state.status == "ongoing"
    assert g.state.to_json()["clocks"] == {"white_ms": None, "black_ms": None, "running": "white"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_correct_claim_with_intended_move_that_mates_is_a_mate(edition: str) -> None:
    """Black claims with the written move ...Qh4#, whose position never appeared: the claim
    is incorrect, and the intended move, played as the Laws require, mates."""
    g = game(start(edition=edition), moves(["f3", "e5", "g4"]), claim(35, "black", move="Qh4#"))
    # The position after Qh4# never appeared: incorrect; then the intended move is played and mates.
    assert summary(g) == ("finished", "0-1", "checkmate")


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_claim_after_the_game_ended(edition: str) -> None:
    """Claims while the game is over are errors naming the event."""
    g = game(start(edition=edition), moves(SHUFFLE * 2), claim(85, "white"))
    with pytest.raises(GameError, match=r"claim_draw at t=90"):
        g.apply(claim(90, "black"))


def test_2023_intended_move_after_incorrect_claim_earns_the_increment() -> None:
    """5400+30: the intended move is a move like any other; its press adds 30 s."""
    g = early_claim("2023", "5400+30", 30, move="Nf3")
    # White: 5400 - 10 + 30 (e4) - 10 + 30 (Nf3); Black: 5400 - 10 + 30 (e5) + 120 (9.5.3).
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 10_000 + 30_000 - 10_000 + 30_000,
                                           "black_ms": 5400_000 - 10_000 + 30_000 + 120_000,
                                           "running": "black"}


def test_1989_fifty_move_claim_has_no_written_move_variant() -> None:
    """1989 10.12: the claimant must "demonstrate that at least 50 consecutive moves have been
    made by each side"; only the repetition claim (10.10(a)) may rest on a move written down.
    With 49½ moves made, the claim is incorrect (10.13(b)); the indicated move is then played."""
    g = game(start(edition="1989", time_control="5400", fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80"),
             claim(5, "white", "fifty", move="Ra2"))
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == "10.13(b)"
    assert g.state.to_json()["clocks"]["white_ms"] == 5400_000 - 5_000 - 300_000


# --- differential: "has just appeared" against python-chess's repetition count ----------

chess = pytest.importorskip("chess")

SHUFFLY_STARTS = [
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8",  # castling rights to lose
    "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",  # en passant after ...d5
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]


def _shuffly_game(rng: "random.Random", fen: str, plies: int) -> list[str]:
    """A random legal game that prefers going back and forth, so positions repeat."""
    board = chess.Board(fen)
    ucis: list[str] = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over(claim_draw=False):
            break
        undo = [m for m in legal if len(board.move_stack) >= 2 and
                m.from_square == board.move_stack[-2].to_square and m.to_square == board.move_stack[-2].from_square]
        move = rng.choice(undo) if undo and rng.random() < 0.7 else rng.choice(legal)
        ucis.append(move.uci())
        board.push(move)
    return ucis


@pytest.mark.parametrize("seed", range(9))
def test_threefold_claims_agree_with_python_chess(seed: int) -> None:
    """At every ply, a threefold claim (1997 9.2(b)) by the player to move is correct exactly
    when python-chess counts the position (with castling rights and legal en passant) three
    times. The random games go back and forth, so most of them reach repetitions."""
    import random

    rng = random.Random(seed)
    fen = SHUFFLY_STARTS[seed % len(SHUFFLY_STARTS)]
    ucis = _shuffly_game(rng, fen, 60)
    board = chess.Board(fen)
    g = Game.start(edition="1997", fen=fen)
    t = 0
    checked = 0
    for uci in ucis + [None]:
        side = "white" if board.turn else "black"
        if not board.is_game_over(claim_draw=False):
            claimed = g.apply(claim(t + 0.5, side))
            assert (claimed.state.termination == "threefold_repetition") == board.is_repetition(3), (
                f"seed {seed}, after {' '.join(ucis[:len(board.move_stack)])}")
            checked += 1
        if uci is None or g.state.status != "ongoing":
            break
        t += 1
        g = g.apply(ev("move", t, side, move=uci))
        board.push_uci(uci)
    assert checked > 10


def test_claim_after_the_claimant_stopped_the_clocks() -> None:
    """1997 9.5 / 6.12(b): the claimant stops the clocks (t=25), then the claim is examined (t=100).
    The 75 s of examination are nobody's time: White used 10 + 5 s, then loses 3 minutes (9.5(b));
    the intended Nf3 is played and Black's clock starts."""
    g = game(start(edition="1997", time_control="5400"), moves(["e4", "e5"], step=10),
             ev("stop_clocks", 25, "white"), claim(100, "white", move="Nf3"))
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 15_000 - 180_000,
                                           "black_ms": 5400_000 - 10_000 + 180_000, "running": "black"}
    assert g.state.sans == ["e4", "e5", "Nf3"]

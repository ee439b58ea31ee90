"""End of game: mate, stalemate, resignation, automatic draws.

1989 Articles 10.1-10.5; 1997 Articles 5.1, 5.2, 9.6; 2023 Articles 5.1.1,
5.1.2, 5.2.1, 5.2.2, 9.6.1, 9.6.2.
"""

from __future__ import annotations

import pytest

from _arb import SHUFFLE, ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]


@pytest.mark.parametrize(
    ("edition", "article"), [("1989", "10.1"), ("1997", "5.1(a)"), ("2023", "5.1.1")]
)
def test_fools_mate_ends_the_game_at_once(edition: str, article: str) -> None:
    """Checkmate wins and immediately ends the game (1989 10.1, 1997 5.1(a), 2023 5.1.1)."""
    g = game(start(edition=edition, time_control="5400"), moves(FOOLS_MATE, step=10))
    assert summary(g) == ("finished", "0-1", "checkmate")
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}
    r = last_ruling(g)
    assert (r.t_ms, r.edition, r.article) == (40_000, edition, article)
    # The clocks stop at the mate: White thought 10 + 10 s, Black 10 + 10 s.
    clocks = g.state.to_json()["clocks"]
    assert clocks == {"white_ms": 5400_000 - 20_000, "black_ms": 5400_000 - 20_000, "running": None}
    assert g.state.to_json()["ply"] == 4


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_move_after_checkmate(edition: str) -> None:
    """The mate immediately ends the game: a later move is an error naming it."""
    g = game(start(edition=edition), moves(FOOLS_MATE))
    with pytest.raises(Exception, match=r"move at t=50"):
        g.apply(ev("move", 50, "white", move="Kf2"))


@pytest.mark.parametrize(
    ("edition", "article"), [("1989", "10.3"), ("1997", "5.2"), ("2023", "5.2.1")]
)
def test_stalemate_is_an_immediate_draw(edition: str, article: str) -> None:
    """Qe6-f7 leaves Black's Kh8 without a move and not in check (1989 10.3, 1997 5.2, 2023 5.2.1)."""
    g = game(start(edition=edition, fen="7k/8/4Q1K1/8/8/8/8/8 w - - 0 1"), moves(["Qf7"]))
    assert summary(g) == ("finished", "1/2-1/2", "stalemate")
    assert last_ruling(g).article == article
    assert g.state.to_json()["score"] == {"white": 0.5, "black": 0.5}


def test_check_that_is_not_mate_does_not_end_the_game() -> None:
    """Qe6-e5+ is only check: Kh8-g8 escapes; nothing is ruled."""
    g = game(start(edition="2023", fen="7k/8/4Q1K1/8/8/8/8/8 w - - 0 1"), moves(["Qe5+"]))
    assert summary(g) == ("ongoing", "*", None)
    assert g.state.rulings == ()


@pytest.mark.parametrize(
    ("edition", "article"), [("1989", "10.2"), ("1997", "5.1(b)"), ("2023", "5.1.2")]
)
def test_resignation(edition: str, article: str) -> None:
    """Black resigns after 1.e4: White wins (1989 10.2, 1997 5.1(b), 2023 5.1.2)."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4"]), ev("resign", 25, "black"))
    assert summary(g) == ("finished", "1-0", "resignation")
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (25_000, article)
    # Black's clock stopped at 25 s: it ran from 10 to 25.
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 10_000, "black_ms": 5400_000 - 15_000, "running": None}


def test_resignation_by_the_player_not_to_move() -> None:
    """A player may resign at any moment, also on the opponent's time."""
    g = game(start(edition="1997"), moves(["e4"]), ev("resign", 25, "white"))
    assert summary(g) == ("finished", "0-1", "resignation")


@pytest.mark.parametrize(
    ("edition", "expected"),
    [("1989", ("finished", "1/2-1/2", "resignation")),
     ("1997", ("finished", "0-1", "resignation")),
     ("2023", ("finished", "1/2-1/2", "resignation"))],
)
def test_resigning_against_a_lone_king(edition: str, expected: tuple[str, str, str]) -> None:
    """2023 5.1.2: a player who resigns when the opponent (a lone king) cannot checkmate
    him by any series of legal moves draws; 1989 10.5: "A player having a bare king cannot
    win the game" -- of any win, a resignation included; 1997 5.1(b) knows no
    such exception: Black, with his lone king, wins."""
    g = game(start(edition=edition, fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), ev("resign", 5, "white"))
    assert summary(g) == expected
    articles = [r.article for r in g.state.rulings]
    assert articles == {"1989": ["10.2", "10.5"], "1997": ["5.1(b)"], "2023": ["5.1.2"]}[edition]


def test_resigning_in_2023_when_the_opponent_can_still_mate_loses() -> None:
    """2023 5.1.2: K+R against a king can mate, so resigning loses as usual."""
    g = game(start(edition="2023", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), ev("resign", 5, "black"))
    assert summary(g) == ("finished", "1-0", "resignation")


# --- 1989 Article 10.4: the list of drawn endings; 1997 / 2023 dead positions ---


KXR = "8/8/8/3k4/8/8/3r4/4K3 w - - 0 1"  # Kxd2 leaves king against king
KB_XR = "8/8/8/3k4/8/8/3r4/4K1B1 w - - 0 1"  # Kxd2 leaves K+B against K
KBB_SAME_XR = "8/8/8/3k4/8/8/3r4/B3K1B1 w - - 0 1"  # Kxd2 leaves K+B(a1)+B(g1), both dark, against K


@pytest.mark.parametrize(
    ("edition", "termination", "article"),
    [("1989", "insufficient_material", "10.4"), ("1997", "dead_position", "9.6"), ("2023", "dead_position", "5.2.2")],
)
def test_king_against_king_is_drawn_automatically(edition: str, termination: str, article: str) -> None:
    """Kxd2 leaves two bare kings: 1989 10.4(a) ends the game; 1997 9.6 and 2023 5.2.2 as a dead position."""
    g = game(start(edition=edition, time_control="5400", fen=KXR), moves(["Kxd2"]))
    assert summary(g) == ("finished", "1/2-1/2", termination)
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (10_000, article)
    assert g.state.to_json()["clocks"]["running"] is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_king_and_bishop_against_king_is_drawn_automatically(edition: str) -> None:
    """1989 10.4(b): king against king and bishop. (1997 9.6, 2023 5.2.2: dead.)"""
    g = game(start(edition=edition, fen=KB_XR), moves(["Kxd2"]))
    assert g.state.result == "1/2-1/2"
    assert g.state.termination == ("insufficient_material" if edition == "1989" else "dead_position")


def test_1989_same_coloured_bishops_are_drawn() -> None:
    """1989 10.4(c): K+B against K+B with both bishops on squares of one colour.
    White Kd1, Bg1 (dark), pawn e3; Black Kd5, Bc5 (dark): 1...Bxe3 leaves K+B v K+B, both dark."""
    g = game(start(edition="1989", fen="8/8/8/2bk4/8/4P3/8/3K2B1 b - - 0 1"), moves(["Bxe3"], first="black"))
    assert summary(g) == ("finished", "1/2-1/2", "insufficient_material")
    assert last_ruling(g).article == "10.4"


def test_1989_opposite_coloured_bishops_play_on() -> None:
    """1989 10.4(c) needs bishops on the same colour: with a light-squared bishop (f1)
    against a dark one, the game continues (a mate is possible)."""
    g = game(start(edition="1989", fen="8/8/8/2bk4/8/4P3/8/3K1B2 b - - 0 1"), moves(["Bxe3"], first="black"))
    assert summary(g) == ("ongoing", "*", None)


@pytest.mark.parametrize(
    ("edition", "expected"),
    [("1989", ("ongoing", "*", None)),
     ("1997", ("finished", "1/2-1/2", "dead_position")),
     ("2023", ("finished", "1/2-1/2", "dead_position"))],
)
def test_two_bishops_on_one_colour_not_in_the_1989_list(edition: str, expected: tuple) -> None:
    """K+B+B (both dark) against K: no mate is possible, but 1989 10.4's list does not
    contain it, so the 1989 game goes on; 1997 9.6 / 2023 5.2.2 end it as dead."""
    g = game(start(edition=edition, fen=KBB_SAME_XR), moves(["Kxd2"]))
    assert summary(g) == expected


@pytest.mark.parametrize("edition", EDITIONS)
def test_knight_against_knight_plays_on(edition: str) -> None:
    """K+N against K+N is in no edition's list and a helpmate exists: play on."""
    g = game(start(edition=edition, fen="8/8/8/3k4/8/8/3r4/4KN1n w - - 0 1"), moves(["Kxd2"]))
    assert summary(g) == ("ongoing", "*", None)


# --- 2023 9.6.1 fivefold and 9.6.2 seventy-five moves ---------------------------


def test_2023_fivefold_repetition_ends_the_game() -> None:
    """2023 9.6.1: the initial position appears for the fifth time after four knight shuffles."""
    g = game(start(edition="2023", time_control="5400"), moves(SHUFFLE * 4, step=5))
    assert summary(g) == ("finished", "1/2-1/2", "fivefold_repetition")
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (80_000, "9.6.1")
    # 16 plies of 5 s: each side used 40 s; the clocks stand still.
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 40_000, "black_ms": 5400_000 - 40_000, "running": None}


def test_2023_fourth_occurrence_is_not_yet_fivefold() -> None:
    g = game(start(edition="2023"), moves((SHUFFLE * 4)[:-1]))
    assert g.state.status == "ongoing"


@pytest.mark.parametrize("edition", ["1989", "1997"])
def test_fivefold_is_not_automatic_before_2023(edition: str) -> None:
    """1989 and 1997 know only the claim (10.10 / 9.2): five occurrences do not end the game."""
    g = game(start(edition=edition), moves(SHUFFLE * 5))
    assert summary(g) == ("ongoing", "*", None)


ROOK_148 = "4k3/8/8/8/8/8/8/R3K3 w - - 148 80"


def test_2023_seventyfive_moves_end_the_game() -> None:
    """2023 9.6.2: the 150th half-move without pawn move or capture ends the game."""
    g = game(start(edition="2023", time_control="5400", fen=ROOK_148), moves(["Ra2", "Kd8"]))
    assert summary(g) == ("finished", "1/2-1/2", "seventyfive_moves")
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (20_000, "9.6.2")


def test_2023_seventyfive_not_yet_after_149_half_moves() -> None:
    g = game(start(edition="2023", fen=ROOK_148), moves(["Ra2"]))
    assert g.state.status == "ongoing"


@pytest.mark.parametrize("edition", ["1989", "1997"])
def test_seventyfive_moves_not_automatic_before_2023(edition: str) -> None:
    g = game(start(edition=edition, fen=ROOK_148), moves(["Ra2", "Kd8", "Rb2"]))
    assert g.state.status == "ongoing"


def test_2023_mate_on_the_75th_move_stands() -> None:
    """2023 9.6.2: "If the last move resulted in checkmate, that shall take precedence."
    Rh8# is the 150th half-move without capture or pawn move."""
    g = game(start(edition="2023", fen="k7/8/1K6/8/8/8/8/7R w - - 149 80"), moves(["Rh8#"]))
    assert summary(g) == ("finished", "1-0", "checkmate")
    assert last_ruling(g).article == "5.1.1"
    assert len(g.state.rulings) == 1


def test_2023_capture_on_the_75th_move_resets_the_count() -> None:
    """A capture as the 150th half-move starts a new count: no draw."""
    g = game(start(edition="2023", fen="4k3/8/8/8/8/8/r7/R3K3 w - - 149 80"), moves(["Rxa2"]))
    assert summary(g) == ("ongoing", "*", None)


def test_2023_fivefold_counts_positions_not_routes() -> None:
    """2023 9.6.1 counts positions however they were reached: the initial position
    comes back by a g-knight shuffle and by a b-knight shuffle, twice each."""
    other = ["Nc3", "Nc6", "Nb1", "Nb8"]
    g = game(start(edition="2023"), moves(SHUFFLE + other + SHUFFLE + other[:3]))
    assert g.state.status == "ongoing"
    g = g.apply(ev("move", 200, "black", move="Nb8"))
    assert g.state.termination == "fivefold_repetition"
    assert g.state.to_json()["ply"] == 16


@pytest.mark.parametrize(
    ("edition", "termination"),
    [("1989", "insufficient_material"), ("1997", "dead_position"), ("2023", "dead_position")],
)
def test_game_set_up_in_a_drawn_ending_is_drawn_at_once(edition: str, termination: str) -> None:
    """1989 10.4 ("when one of the following endings arises ... This immediately ends the game"),
    1997 9.6, 2023 5.2.2: a game started from K+N against K is drawn from the start; it does
    not wait for a move (nor could a flag fall later decide it)."""
    g = game(start(edition=edition, time_control="5400", fen="4k3/8/8/8/8/8/8/4KN2 w - - 0 1"))
    assert summary(g) == ("finished", "1/2-1/2", termination)
    assert last_ruling(g).t_ms == 0


@pytest.mark.parametrize(
    ("fen", "result"),
    [("1n2k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1/2-1/2"),  # K+N cannot mate K+Q
     ("1n2k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "0-1")],  # K+N can mate K+P (helpmate)
    ids=["knight-v-queen", "knight-v-pawn"],
)
def test_2023_resignation_against_king_and_knight(fen: str, result: str) -> None:
    """2023 5.1.2: White resigns against K+N. A lone knight cannot mate a king whose only
    piece is a queen, so the resignation draws; with a white pawn a helpmate exists and White loses."""
    g = game(start(edition="2023", fen=fen), ev("resign", 5, "white"))
    assert summary(g) == ("finished", result, "resignation")


@pytest.mark.parametrize(
    ("edition", "fen", "expected"),
    [("1997", "8/8/8/2bk4/8/4P3/8/3K2B1 b - - 0 1", ("finished", "1/2-1/2", "dead_position")),
     ("2023", "8/8/8/2bk4/8/4P3/8/3K2B1 b - - 0 1", ("finished", "1/2-1/2", "dead_position")),
     ("1997", "8/8/8/2bk4/8/4P3/8/3K1B2 b - - 0 1", ("ongoing", "*", None)),
     ("2023", "8/8/8/2bk4/8/4P3/8/3K1B2 b - - 0 1", ("ongoing", "*", None))],
    ids=["1997-same-colour", "2023-same-colour", "1997-opposite", "2023-opposite"],
)
def test_bishops_after_1989_dead_only_on_one_colour(edition: str, fen: str, expected: tuple) -> None:
    """1997 9.6 / 2023 5.2.2: after ...Bxe3, K+B v K+B with both bishops on dark squares can
    never mate (dead); with opposite colours a mate in the corner is possible (play on)."""
    g = game(start(edition=edition, fen=fen), moves(["Bxe3"], first="black"))
    assert summary(g) == expected


@pytest.mark.parametrize("seed", range(6))
def test_2023_automatic_endings_agree_with_python_chess(seed: int) -> None:
    """2023 5.1.1, 5.2.1, 9.6.1, 9.6.2 on random back-and-forth games: the game ends after the
    very move where python-chess sees mate, stalemate, a fifth repetition or 75 moves, and not before
    (a dead position, 5.2.2, may legitimately end it earlier than python-chess's material test)."""
    import random

    chess = pytest.importorskip("chess")
    from test_claims import SHUFFLY_STARTS, _shuffly_game

    rng = random.Random(1000 + seed)
    fen = SHUFFLY_STARTS[seed % len(SHUFFLY_STARTS)]
    ucis = _shuffly_game(rng, fen, 400)
    board = chess.Board(fen)
    g = game(start(edition="2023", fen=fen))
    names = {chess.Termination.CHECKMATE: "checkmate", chess.Termination.STALEMATE: "stalemate",
             chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
             chess.Termination.SEVENTYFIVE_MOVES: "seventyfive_moves",
             chess.Termination.INSUFFICIENT_MATERIAL: "dead_position"}
    for i, uci in enumerate(ucis, start=1):
        side = "white" if board.turn else "black"
        g = g.apply(ev("move", i, side, move=uci))
        board.push_uci(uci)
        outcome = board.outcome(claim_draw=False)
        if g.state.termination == "dead_position":
            break
        if outcome is None:
            assert g.state.status == "ongoing", f"seed {seed}: ended after {' '.join(ucis[:i])}"
        else:
            assert g.state.termination == names[outcome.termination]
            break


@pytest.mark.parametrize(
    ("fen", "expected"),
    [("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", ("finished", "1-0", "checkmate")),
     ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ("finished", "1/2-1/2", "stalemate")),
     ("k7/8/1K6/8/8/8/8/7R w - - 0 1", ("ongoing", "*", None))],
    ids=["mated", "stalemated", "playable"],
)
def test_start_position_already_decided(fen: str, expected: tuple) -> None:
    """A game set up in a mated or stalemated position is over at t=0 (2023 5.1.1, 5.2.1);
    the clocks never run."""
    g = game(start(edition="2023", time_control="60", fen=fen))
    assert summary(g) == expected
    if expected[0] == "finished":
        assert g.state.to_json()["clocks"] == {"white_ms": 60_000, "black_ms": 60_000, "running": None}
        assert last_ruling(g).t_ms == 0

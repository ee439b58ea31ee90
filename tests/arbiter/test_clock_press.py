"""A move made without pressing the clock (``move`` with ``"press": false``) and the
``press_clock`` that completes it.

2023 6.2.1-6.2.2 (pressing completes the move; the time until then is the mover's; he may press
even after the opponent's reply; his next move completes it too, 6.2.1.2); 1997 6.7(a) (not
completed until pressed) and 1.1 (the opponent has the move only then); 1989 12.3 and Article 6
(the move completed when the piece is released, the clock stopped after it). An illegal move is
completed by the press in 2023 (7.5.1) and in 1997 blitz (C.3). Clock values are worked out by
hand from the ``t`` of the events.
"""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.events import EventError
from chesslaws.game import Game, GameError
from _arb import ev, game, start, summary

EDITIONS = ["1989", "1997", "2023"]


def clocks(g: Game) -> tuple[int | None, int | None, str | None]:
    c = g.to_json()["clocks"]
    return c["white_ms"], c["black_ms"], c["running"]


def articles(g: Game) -> list[str]:
    return [r.article for r in g.state.rulings]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_movers_clock_runs_until_he_presses(edition: str) -> None:
    """White plays 1.e4 at t=10 and forgets the clock until t=100: those 90 seconds are his
    (2023 6.2.2, 1997 6.7(a), 1989 12.3). Then he presses and Black's clock starts."""
    g = game(start(edition=edition, time_control="40/5400"), ev("move", 10, "white", move="e4", press=False))
    assert g.state.turn == "black"
    at = g.at(100)
    assert clocks(at) == (5_300_000, 5_400_000, "white")
    assert {"kind": "clock_not_pressed", "by": "white"} in at.state.pending()
    assert articles(g) == [{"1989": "12.3", "1997": "6.7(a)", "2023": "6.2.1"}[edition]]
    g = g.apply(ev("press_clock", 100, "white"))
    assert clocks(g.at(130)) == (5_300_000, 5_370_000, "black")
    assert g.state.pending() == []
    assert len(g.state.rulings) == 1  # completing the move is no irregularity: no penalty (not 2023 7.5.3)


def test_the_press_gives_the_increment() -> None:
    """300+5: the increment comes with the press that completes the move, not with the move."""
    g = game(start(edition="2023", time_control="300+5"), ev("move", 10, "white", move="e4", press=False))
    assert clocks(g.at(20))[0] == 280_000
    g = g.apply(ev("press_clock", 20, "white"))
    assert clocks(g)[0] == 285_000


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_opponent_lets_the_flag_fall(edition: str) -> None:
    """White, with a minute left, plays without pressing; Black says nothing (nobody may tell him:
    2023 12.6, 1997 13.6, 1989 12.9) and claims the flag when it has fallen: White loses on time."""
    g = game(start(edition=edition, time_control="60", arbiter="absent"),
             ev("move", 10, "white", move="e4", press=False))
    assert summary(g.at(59)) == ("ongoing", "*", None)
    g = g.apply(ev("claim_flag", 61, "black"))
    assert summary(g) == ("finished", "0-1", "time_forfeit")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_reply_before_the_press(edition: str) -> None:
    """White plays e4 at t=10 without pressing; Black replies e5 at t=30: Black's press starts
    nothing, White's clock runs on. The editions say differently whether Black had the move:
    2023 1.3 (once the move is made: yes), 1989 Article 6 (completed on release: yes), 1997 1.1
    (only once it is completed by the press: no, but the Laws attach no consequence). White's
    next move, pressed, completes everything (2023 6.2.1.2)."""
    g = game(start(edition=edition, time_control="40/5400"), ev("move", 10, "white", move="e4", press=False),
             ev("move", 30, "black", move="e5"))
    assert clocks(g.at(50)) == (5_350_000, 5_400_000, "white")
    assert articles(g)[-1] == {"1989": "6", "1997": "1.1", "2023": "1.3"}[edition]
    assert ("did not yet have the move" in g.state.rulings[-1].text) == (edition == "1997")
    g = g.apply(ev("move", 50, "white", move="Nf3"))
    assert clocks(g.at(60)) == (5_350_000, 5_390_000, "black")
    assert g.state.pending() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_pressing_after_the_opponents_reply(edition: str) -> None:
    """2023 6.2.2: a player may press "even after the opponent has made his next move" (1997
    6.7(a): "a player must always be allowed to stop his clock"). White presses at t=40 after
    Black's reply: Black's clock runs, though White has the move, until Black presses in turn;
    neither press is a press without a move (2023 7.5.3)."""
    g = game(start(edition=edition, time_control="40/5400"), ev("move", 10, "white", move="e4", press=False),
             ev("move", 30, "black", move="e5"), ev("press_clock", 40, "white"))
    assert articles(g)[-1] == {"1989": "12.3", "1997": "6.7(a)", "2023": "6.2.2"}[edition]
    assert clocks(g.at(45)) == (5_360_000, 5_395_000, "black")
    g = g.apply(ev("press_clock", 45, "black"))
    assert clocks(g.at(50)) == (5_355_000, 5_395_000, "white")
    assert g.state.turn == "white" and g.state.illegal_moves == {"white": 0, "black": 0}
    g = g.apply(ev("press_clock", 50, "white"))  # now a press without a move
    assert {"1989": "12.5", "1997": "6.13", "2023": "7.5.3"}[edition] in articles(g)[-2:]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_move_that_ends_the_game_needs_no_press(edition: str) -> None:
    """2023 6.2.1.1, 1997 6.7(a) ("unless the move ends the game"): the mate without the press."""
    g = game(start(edition=edition, time_control="40/5400"),
             [ev("move", t, side, move=m) for t, side, m in
              [(1, "white", "f3"), (2, "black", "e5"), (3, "white", "g4")]],
             ev("move", 4, "black", move="Qh4#", press=False))
    assert summary(g) == ("finished", "0-1", "checkmate")
    assert g.state.pending() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_illegal_move_replaced_before_the_press(edition: str) -> None:
    """White moves the e2 pawn to e5 and, before pressing, plays e4 instead. 2023 7.5.1: an illegal
    move is completed only once the clock is pressed: nothing to penalise, Black gets no two
    minutes. 1989 8.1 and 1997 7.4 know no such condition: the arbiter reinstates the position at
    once (no time penalty in standard play in either), and White then plays e4 all the same."""
    g = game(start(edition=edition, time_control="40/5400"), ev("move", 10, "white", move="e2e5", press=False))
    if edition == "2023":
        assert articles(g) == ["7.5.1"]
        assert {"kind": "illegal_move_not_completed", "by": "white"} in g.state.pending()
    else:
        assert articles(g)[0] == {"1989": "8.1", "1997": "7.4"}[edition]
    g = g.apply(ev("move", 20, "white", move="e4"))
    assert g.state.position.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/")
    assert clocks(g.at(20)) == (5_380_000, 5_400_000, "black")
    assert g.state.illegal_moves["white"] == (0 if edition == "2023" else 1)


def test_2023_the_replacement_must_be_made_with_the_piece_moved() -> None:
    """2023 7.5.1: Article 4.3 applies to the move replacing the illegal move: the knight moved
    illegally to g4 must move; Nc3 instead breaks touch-move and Black's claim takes it back."""
    g = game(start(edition="2023", time_control="40/5400"), ev("move", 10, "white", move="g1g4", press=False),
             ev("move", 20, "white", move="Nc3"))
    assert any(p["kind"] == "touch_move_claimable" for p in g.state.pending())
    g = g.apply(ev("claim_touch_move", 30, "black"))
    assert g.state.position.fen().startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")


def test_2023_the_press_completes_the_illegal_move() -> None:
    """2023 7.5.1 and 7.5.5: White presses at t=30 without replacing e1e3: the illegal move is
    completed then, the position is reinstated and Black receives two minutes."""
    g = game(start(edition="2023", time_control="40/5400"), ev("move", 10, "white", move="e1e3", press=False))
    assert clocks(g.at(30)) == (5_370_000, 5_400_000, "white")
    g = g.apply(ev("press_clock", 30, "white"))
    assert articles(g)[-1] == "7.5.5"
    assert clocks(g) == (5_370_000, 5_520_000, "white")
    assert g.state.illegal_moves["white"] == 1


def test_1997_blitz_no_claim_before_the_illegal_move_is_completed() -> None:
    """1997 C.3: "An illegal move is completed once the opponent's clock has been started. The
    opponent is then entitled to claim a win": before White presses, Black has nothing to claim;
    once White presses, Black's claim wins."""
    g = game(start(edition="1997", time_control="300"), ev("move", 10, "white", move="e1e3", press=False))
    assert articles(g) == ["C.3"]
    with pytest.raises(GameError):
        g.apply(ev("claim_win", 12, "black", reason="illegal_move"))
    g = g.apply(ev("press_clock", 15, "white")).apply(ev("claim_win", 20, "black", reason="illegal_move"))
    assert summary(g) == ("finished", "0-1", "illegal_moves")


def test_1997_standard_the_press_changes_nothing_for_an_illegal_move() -> None:
    """Outside blitz the 1997 Laws tie no completion to the illegal move (7.4: "found that an
    illegal move has been made"): the arbiter reinstates it at once, pressed or not."""
    pressed = game(start(edition="1997", time_control="40/5400"), ev("move", 10, "white", move="e1e3"))
    unpressed = game(start(edition="1997", time_control="40/5400"), ev("move", 10, "white", move="e1e3", press=False))
    assert unpressed.to_json() == pressed.to_json()


def test_no_press_without_a_clock() -> None:
    with pytest.raises(ChessLawsError) as err:
        Game.from_events([start(edition="2023", time_control="-"), ev("move", 1, "white", move="e4", press=False)])
    assert "no clock to press" in str(err.value)


def test_press_must_be_true_or_false() -> None:
    with pytest.raises(EventError) as err:
        Game.from_start(start()).apply(ev("move", 1, "white", move="e4", press="no"))
    assert err.value.field == "press"

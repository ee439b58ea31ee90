"""Pressing the clock apart from the move: a move made without pressing
(``move`` with ``"press": false``), the ``press_clock`` that completes it, a
reply made before the opponent pressed, and an illegal move not yet completed.

The clock does what a real clock does: the mover's clock runs until he
presses it, whatever happens on the board meanwhile (his flag may fall), and
nobody tells him he forgot (1989 12.9, 1997 13.6, 2023 12.6). What the
editions differ on is when the move counts as made and completed:

- 1989: 6 (a move is completed when the piece is released: the opponent has
  the move at once), 12.3 (having completed his move, the player stops his
  own clock and starts his opponent's), 12.9.
- 1997: 1.1 (a player has the move when his opponent's move has been
  completed), 6.7(a) (the move is not completed until the player has pressed,
  unless it ends the game; he must always be allowed to press; the time until
  he presses is his), 13.6, C.3 (blitz: an illegal move is completed once the
  opponent's clock has been started).
- 2023: 1.3 (a player has the move when his opponent's move has been *made*),
  6.2.1 (pressing completes the move), 6.2.1.1 (so does a move that ends the
  game), 6.2.1.2 (and the player's next move, when the previous one was not
  completed), 6.2.2 (he may press even after the opponent has made his next
  move; the time until he presses is his), 7.5.1 (an illegal move is
  completed once the player has pressed the clock: until then he replaces
  it, Article 4.3 binding the replacement), 7.5.3 (pressing without a move),
  12.6.

The clock's part of a move is :func:`chesslaws.game.played._press_after_move`.
"""

from __future__ import annotations

from chesslaws._values import replace
from chesslaws.clock import Clock
from chesslaws.events import Event, EventError
from chesslaws.game.displacement import _restart_for_displacer
from chesslaws.game.announcing import _slip_pressed
from chesslaws.game.irregularities import _on_illegal_move, _on_press_clock as _press_without_move, _squares_of
from chesslaws.game.state import NAME, UnpressedMove, _Builder, other
from chesslaws.timecontrol import Color


def _press_field(b: _Builder, ev: Event) -> bool:
    """The move event's ``press`` (default true); a game without a clock has nothing to press."""
    press = bool(ev.get("press", True))
    if not press and b.s.config.time_control.unlimited:
        raise EventError("field 'press': this game is played without a clock, so there is no clock to press",
                         field="press")
    return press


def _move_not_pressed(b: _Builder, t: int, mover: Color, san: str) -> None:
    """The ruling for a legal move left unpressed (the game not over): the mover's clock runs on."""
    if b.get("status") != "ongoing" or b.get("unpressed") != mover:
        return
    ed = b.s.edition
    if ed.has_move_once_made and ed.illegal_completed_by_press:  # 2023
        status = "made but not completed (it is completed when he presses, or by his next move)"
    elif ed.has_move_once_made:  # 1989
        status = "completed when he released the piece, but he has not stopped his clock"
    else:  # 1997
        status = "not completed until he presses the clock"
    b.rule(t, "move_not_pressed", f"{NAME[mover]} played {san} without pressing the clock: the move is {status}. "
           f"{NAME[mover]}'s clock runs on, the time until he presses being his own, and nobody may tell him.")


def _reply_before_press(b: _Builder, ev: Event, mover: Color) -> None:
    """``mover`` moves while the opponent's clock still runs after the opponent's unpressed move."""
    s = b.s
    opp = other(mover)
    if s.unpressed != opp or s.clock.running != opp:
        return
    ed = s.edition
    if ed.has_move_once_made:
        why = (f"{NAME[mover]} has the move once {NAME[opp]}'s move is made" if ed.illegal_completed_by_press
               else f"{NAME[opp]}'s move was completed when the piece was released, so {NAME[mover]} had the move")
        b.rule(ev.t_ms, "reply_before_press", f"{why}; {NAME[opp]}'s clock, never pressed, still runs and "
               f"{NAME[mover]}'s press starts nothing: {NAME[opp]}'s clock runs on for his next move.")
        return
    b.rule(ev.t_ms, "reply_before_press", f"{NAME[mover]} moved before {NAME[opp]}'s move was completed "
           f"({NAME[opp]} had not pressed the clock), so {NAME[mover]} did not yet have the move; the Laws attach "
           f"no consequence to it: {NAME[opp]}'s clock, still running, runs on for his next move.")


def _defer_illegal(b: _Builder, ev: Event, mover: Color, text: str, offer: bool) -> bool:
    """An illegal move made without pressing, where only the press completes it (2023 7.5.1 in every
    mode; 1997 C.3 in blitz): it is not yet an illegal move to act on. The player may replace it with
    a legal move, Article 4.3 binding him to the piece he moved; pressing the clock completes it.
    Returns whether the move was deferred."""
    s = b.s
    if s.config.mode not in s.edition.illegal_completed_by_press:
        return False
    squares = _squares_of(text)
    touched = s.touched
    if squares is not None:
        frm, to = squares
        for sq in (frm, to):
            if s.position.piece_at(sq) is not None and sq not in touched:
                touched = touched + (sq,)
    b.set(unpressed_illegal=UnpressedMove(text, offer, s.touched), touched=touched)
    b.rule(ev.t_ms, "illegal_not_completed", f"{NAME[mover]} made the illegal move {text} and has not pressed the "
           f"clock: the move is not completed, so nothing is corrected or penalised yet. {NAME[mover]}'s clock runs; "
           f"he may replace it with a legal move (the piece he touched must move if it can); pressing the clock "
           "completes the illegal move.")
    return True


def _on_press_clock(b: _Builder, ev: Event) -> None:
    """``press_clock``: the player completes a move made without pressing, completes an illegal
    move he has not replaced, or presses without having moved (2023 7.5.3; earlier: his clock is
    restarted)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    if s.slip is not None and s.slip.by == by and s.clock.running == by:
        _slip_pressed(b, ev)  # a slip of the tongue not corrected before the press (2023 D.2.8, D.2.9)
        return
    pending = s.unpressed_illegal
    if pending is not None and by == s.turn and s.clock.running == by:
        # The illegal move is completed now (2023 7.5.1, 1997 C.3), and ruled as if made with the press.
        b.s = replace(s, unpressed_illegal=None, touched=pending.touched_before)
        _on_illegal_move(b, ev, by, pending.move, pending.offer_draw)
        return
    if s.unpressed == by and s.clock.running == by:
        clock: Clock = s.clock.press(t, by)
        if s.turn == by:
            # 2023 6.2.2 ("even after the opponent has made his next move"); 1997 6.7(a) ("a player must
            # always be allowed to stop his clock"): the opponent's clock now runs although he has moved,
            # and he in turn may press it.
            b.set(clock=clock, unpressed=other(by))
            b.rule(t, "late_press", f"{NAME[by]} presses the clock for the move he made without pressing, after "
                   f"{NAME[other(by)]} has replied: {NAME[by]}'s clock stops and {NAME[other(by)]}'s runs until "
                   f"{NAME[other(by)]} presses it in turn.")
        else:
            b.set(clock=clock, unpressed=None)
        return
    if _restart_for_displacer(b, ev):  # 1997 7.3
        return
    _press_without_move(b, ev)

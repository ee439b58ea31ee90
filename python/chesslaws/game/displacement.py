"""Displaced pieces: a player knocks over or displaces pieces (``displace``)
and the position is re-established (``restore``); a position found wrong
later is the arbiter's ``reinstate`` (:mod:`chesslaws.game.irregularities`).

The player re-establishes the position on his own time. The editions differ
on what the opponent may do when the displacer's clock is not running (he
knocked the pieces over as he pressed): 1997 7.3 gives the opponent the right
to restart the player's clock without making a move (the displacer then
presses again once the position is right, as after a move made without
pressing: :mod:`chesslaws.game.pressing`); 2023 7.4.2 has either player
pause the clock and ask for the arbiter's assistance (``stop_clocks``), the
arbiter may penalise the displacer (7.4.3, a ``penalty``), and an opponent
who presses his clock instead presses it without a move (7.5.3); 1989 8.3
says only "in his own time".

Articles, by edition:

- 1989: 8.2 (pieces displaced and wrongly replaced: the arbiter reinstates),
  8.3 (pieces knocked over while moving: re-established in the player's own time).
- 1997: 7.3 (displaced pieces re-established on the player's own time; the
  opponent may restart his clock), 7.4 (pieces found displaced: reinstated).
- 2023: 7.4.1 (re-established in his own time), 7.4.2 (the clock paused, the
  arbiter called), 7.4.3 (the arbiter may penalise), 7.6 (found displaced:
  reinstated).
"""

from __future__ import annotations

from typing import Any

from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, Displacement, GameError, _Builder, other
from chesslaws.timecontrol import Color


def _squares(ev: Event) -> tuple[str, ...]:
    raw: Any = ev.get("squares")
    out: list[str] = []
    for item in raw:
        sq = str(item).strip().lower()
        if len(sq) != 2 or sq[0] not in "abcdefgh" or sq[1] not in "12345678":
            raise EventError(f"field 'squares' lists squares such as e2, not {item!r}", field="squares")
        if sq not in out:
            out.append(sq)
    if not out:
        raise EventError("field 'squares' names at least one square: where the displaced pieces stood",
                         field="squares")
    return tuple(out)


def _on_displace(b: _Builder, ev: Event) -> None:
    """``displace``: the player knocks over or displaces the pieces of ``squares``."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if s.status != "ongoing":
        raise GameError(ev, "the game is not in progress")
    squares = _squares(ev)
    empty = [sq for sq in squares if s.position.piece_at(sq) is None]
    if empty:
        raise GameError(ev, f"there is no piece on {', '.join(empty)} to displace")
    earlier = s.displaced.squares if s.displaced is not None and s.displaced.by == by else ()
    b.set(displaced=Displacement(by, earlier + tuple(sq for sq in squares if sq not in earlier)))
    running = s.clock.running
    where = ", ".join(squares)
    text = f"{NAME[by]} displaced the piece{'s' if len(squares) > 1 else ''} on {where}: he must re-establish " \
           "the position on his own time."
    if running is not None and running != by:
        if s.edition.opponent_restarts_for_displaced:
            text += (f" {NAME[running]} may restart {NAME[by]}'s clock without making a move, so that he does "
                     "(press_clock).")
        elif s.edition.displaced_pause_and_call:  # 2023 7.4.2, 7.4.3
            text += (f" {NAME[by]}'s clock is not running: either player pauses the clock and asks for the "
                     "arbiter's assistance (Article 7.4.2); the arbiter may penalise the displacer (7.4.3).")
    b.rule(ev.t_ms, "displaced", text)


def _on_restore(b: _Builder, ev: Event) -> None:
    """``restore``: the displaced pieces stand on their squares again."""
    s = b.s
    if s.displaced is None:
        raise GameError(ev, "no pieces are displaced")
    b.set(displaced=None)


def _restart_for_displacer(b: _Builder, ev: Event) -> bool:
    """1997 7.3: the opponent of a player who displaced pieces restarts that player's clock without
    making a move. Returns whether the press was this."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    d = s.displaced
    if d is None or d.by != other(by) or s.clock.running != by or not s.edition.opponent_restarts_for_displaced:
        return False
    b.set(clock=s.clock.press(ev.t_ms, by), unpressed=d.by)
    b.rule(ev.t_ms, "displaced_restart", f"{NAME[by]} restarts {NAME[d.by]}'s clock without making a move, so that "
           f"{NAME[d.by]} re-establishes the displaced pieces on his own time; {NAME[d.by]} presses it again "
           "once the position is right.")
    return True

"""A move made on the board: what follows it on the board, the clock and the
scoresheet -- the offers it answers, the clock press, the automatic ends it
brings (:mod:`chesslaws.game.completion`) and its record.

Every way a move reaches the board goes through :func:`_after_move`: a legal
move (:mod:`chesslaws.game.moving`), an illegal move that stands or a
promotion corrected by the arbiter (:mod:`chesslaws.game.irregularities`),
the move written with a correct draw claim (:mod:`chesslaws.game.draws`) and
the sealed move played when the envelope is opened
(:mod:`chesslaws.game.adjournment`).

Articles, by edition:

- 1989: 6 (the completed move), 10.7 and 10.9 (a move rejects the opponent's
  draw offer; the offer made with a move).
- 1997: 6.7 (having made his move, the player presses the clock), 8.1 (the
  record of the move), 9.1 (a move rejects the opponent's offer; the offer
  made with a move).
- 2023: Article 6.2 (the clock pressed after the move; 6.2.1.2, a move left
  unpressed is completed by the player's next move), Article 8 (the
  record), 9.1.2 (the offer made with a move, and its record).
"""

from __future__ import annotations

import sys

from chesslaws._values import replace
from chesslaws.clock import Clock
from chesslaws.events import Event
from chesslaws.game.completion import _end_checks_after_move, _illegal_position_stays
from chesslaws.history import Keys, Moves
from chesslaws.game.state import DrawOffer, _Builder, other
from chesslaws.position import Position
from chesslaws.timecontrol import Color


def _record(
    b: _Builder, t: int, mover: Color, san: str, uci: str, clock: Clock, *, offer: bool, ended: bool, illegal: bool
) -> None:
    # The move's letters are shared with every equal move of every live game (a game keeps its records);
    # the record itself is built when it is read (history.Moves).
    moves: Moves = b.get("moves")
    b.set(moves=moves.appended_move(mover, sys.intern(san), sys.intern(uci), t, clock.remaining(t, mover),
                                    offer and not ended, illegal))


def _play(b: _Builder, ev: Event, mover: Color, text: str, *, offer_draw: bool = False) -> None:
    """Plays a legal move written ``text`` for ``mover`` at the event's time."""
    t = ev.t_ms
    pos: Position = b.get("position")
    san, uci, nxt = pos.play_annotated(text)
    _after_move(b, t, mover, san, uci, nxt, offer_draw=offer_draw)


def _press_after_move(b: _Builder, clock: Clock, t: int, mover: Color, press: bool) -> Clock:
    """The clock after ``mover``'s move, pressed or not (2023 6.2.1-6.2.2; 1997 6.7(a); 1989 12.3).

    A press completes the move, and an earlier move the player left unpressed (2023 6.2.1.2). A move made
    without pressing leaves the mover's clock running: the time until he presses is his. A reply made
    while the opponent's clock still runs (he has not pressed) presses nothing: the replier's clock
    is not running, and the opponent's runs on."""
    unpressed: Color | None = b.get("unpressed")
    if clock.running != mover and unpressed is not None and unpressed == other(mover):
        return clock  # the opponent has not pressed: his clock runs on, whatever this player does
    if press:
        b.set(unpressed=None)
        return clock.press(t, mover)
    b.set(unpressed=mover if clock.running == mover else None)
    return clock


def _after_move(
    b: _Builder, t: int, mover: Color, san: str, uci: str, nxt: Position, *, offer_draw: bool = False,
    illegal: bool = False, press: bool = True, breach: bool = False,
) -> None:
    """The board shows ``nxt`` after ``mover``'s move: offers, clock, automatic ends (``breach``: the
    move broke Article 4, which may hold the end it produced: :func:`~chesslaws.game.completion._end_or_hold`)."""
    keys: Keys = b.get("keys").appended(nxt.zobrist())
    clock: Clock = b.get("clock")
    # A move rejects the opponent's offers (9.1; 1989 10.7); the mover's own stand.
    own = [o for o in (b.get("offer"), b.get("counter")) if o is not None and o.by == mover]
    offer: DrawOffer | None = own[0] if own else None
    b.set(position=nxt, keys=keys, offer=offer, counter=None, touched=(), touch_violation=None,
          illegal_pending=None, unpressed_illegal=None, released=(), promotion_piece=None, promotion_touched=False,
          observed=False, slip=None, held_end=None)
    if b.s.unseen and any(a.by != mover and not a.answered for a in b.s.unseen):
        # The opponent has made his next move: too late to claim the act; where A.5.2 applies, too late for
        # the arbiter to act on it as well. Elsewhere he still does when he finds it (2023 7.5.1).
        lapse = b.s.config.partially_supervised or not b.s.config.arbiter_present  # nobody left to find it
        b.set(unseen=tuple(a if a.by == mover else replace(a, answered=True) for a in b.s.unseen
                           if a.by == mover or not lapse))
    # An illegal move that stands ends nothing by itself: the claim decides (C.3).
    ended = not illegal and _end_checks_after_move(b, t, mover, san, uci, breach)
    if not ended and b.s.illegal_pending is not None:  # the move after one that stood (2023 A.5.4)
        ended = _illegal_position_stays(b, t, b.s.position, nxt, san)
    if not ended:
        clock = _press_after_move(b, clock, t, mover, press)
        if offer_draw:
            new_offer = DrawOffer(mover, t, len(b.get("moves")) + 1)
            b.set(offer=new_offer, offers=b.get("offers") + (new_offer,))
        b.set(clock=clock)
    else:
        clock = b.get("clock")
    _record(b, t, mover, san, uci, clock, offer=offer_draw, ended=ended, illegal=illegal)

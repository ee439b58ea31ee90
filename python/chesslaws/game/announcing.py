"""Games with a visually disabled player (2023 Appendix D) beyond the board: a
slip of the tongue corrected or not (``announce``; a ``move`` with
``announced`` made without pressing the clock) and the assistant's acts
(``start`` field ``assistant``, an event's ``assistant``: true).

A move is announced with the move (``move``'s ``announced``). When the
announcement differs from the move executed and the clock is not yet pressed
(``"press": false``), the slip may still be corrected: an ``announce`` of the
executed move before the press corrects it (D.2.8); the press without a
correction leaves the two boards different, and the game scores, which follow
the announcement, decide (D.2.9): the announced move is the move made. A
correction after the press comes too late.

The visually disabled player's assistant may make either player's move on the
opponent's board, announce the moves, keep the player's game score and start
the opponent's clock, claim on time and tell the arbiter of a touched piece,
and carry out the adjournment's formalities (D.2.10.1-D.2.10.6); the sighted
player may use one, for the moves and their announcement only, when the
visually disabled player does not (D.2.11). An act outside these duties is not
accepted: a ruling says so and nothing else happens.

The 1989 and 1997 Laws have no rules for visually disabled players: a game
under them cannot name one (``start``).

In a game without a visually disabled player, an assistant is the one a
player unable to keep score provides to record the moves (8.1.6): only his
``scoresheet`` is accepted; the arbiter adjusts the player's clock in an
equitable way with ``set_clocks``.

Articles (2023 only): 8.1.6, D.2.1, D.2.8, D.2.9, D.2.10, D.2.11.
"""

from __future__ import annotations

from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.events import Event, EventError
from chesslaws.game.played import _after_move
from chesslaws.game.state import NAME, GameError, Slip, _Builder
from chesslaws.timecontrol import Color

#: What the visually disabled player's assistant may do, by event type (2023 D.2.10.1-D.2.10.6).
DUTIES = {
    "move": "making the moves on the opponent's board (D.2.10.1)",
    "announce": "announcing the moves (D.2.10.2)",
    "press_clock": "starting the opponent's clock (D.2.10.3)",
    "scoresheet": "keeping the game score (D.2.10.3)",
    "game_score": "keeping the game score (D.2.10.3)",
    "claim_flag": "claiming when the time limit has been exceeded (D.2.10.5)",
    "claim_touch_move": "telling the arbiter that the sighted player touched a piece (D.2.10.5)",
    "seal": "the formalities of an adjournment (D.2.10.6)",
}
#: What the sighted player's assistant may do (2023 D.2.11: D.2.10.1 and D.2.10.2).
SIGHTED_DUTIES = ("move", "announce")


def _assistant_acts(b: _Builder, ev: Event) -> bool:
    """Is the event, done by ``by``'s assistant, one of his duties? A ruling says when it is not."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if by not in s.config.assistants:
        raise GameError(ev, f"{NAME[by]} has no assistant at the board (start field 'assistant', 2023 8.1.6, "
                        "D.2.10-D.2.11)")
    if not s.config.visually_disabled:
        if ev.type == "scoresheet":
            return True
        b.rule(ev.t_ms, "assistant_recording", f"{NAME[by]}'s assistant, provided because he is unable to keep "
               f"score, records the moves only: his {ev.type.replace('_', ' ')} is not accepted.")
        return False
    if by not in s.config.visually_disabled and ev.type not in SIGHTED_DUTIES:
        b.rule(ev.t_ms, "assistant_sighted", f"{NAME[by]}'s assistant, the sighted player's, may only make the moves "
               f"on the opponent's board and announce them: his {ev.type.replace('_', ' ')} is not accepted.")
        return False
    return True


def _read(b: _Builder, ev: Event, text: str) -> str:
    pos = b.s.slip.before.position if b.s.slip is not None else b.s.position
    try:
        return pos.parse_move(text)
    except (IllegalMove, UnreadableMove, AmbiguousMove) as err:
        raise EventError(f"field 'move': {err}", field="move") from None


def _on_announce(b: _Builder, ev: Event) -> None:
    """``announce``: the player (or his assistant) announces his move again, correcting a slip of the
    tongue in the announcement made with it (2023 D.2.8)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    if not s.config.visually_disabled:
        raise EventError("event 'announce' belongs to games with a visually disabled player (start field "
                         "'visually_disabled', 2023 Appendix D)", field="move")
    slip = s.slip
    if slip is None or slip.by != by:
        b.rule(t, "slip_corrected", f"{NAME[by]} announces {ev.get('move')} again, but a slip of the tongue must be "
               "corrected immediately and before the opponent's clock is started: it is too late, the move stands as "
               "announced and, if the two boards differ, the game scores decide.")
        return
    said = _read(b, ev, str(ev.get("move")))
    before = slip.before.position
    executed = s.moves[-1].uci
    if said == executed:
        b.set(slip=None)
        b.rule(t, "slip_corrected", f"{NAME[by]} corrects his announcement before the opponent's clock is started: "
               f"the move is {before.san(said)}, as executed on the board.")
        return
    b.set(slip=Slip(by, said, slip.before))


def _slip_pressed(b: _Builder, ev: Event) -> None:
    """The player presses the clock with a slip of the tongue not corrected: the boards differ and the
    game scores, which follow the announcement, decide (2023 D.2.8, D.2.9)."""
    s = b.s
    slip = s.slip
    assert slip is not None
    before = slip.before
    san, uci, nxt = before.position.play_annotated(slip.said)
    b.rule(ev.t_ms, "boards_differ", f"{NAME[slip.by]} executed {s.moves[-1].san} but announced {san} and did not "
           "correct the slip before pressing the clock: the two boards differ. The game scores follow the "
           f"announcement, so {san} is the move made and the board is adjusted to it.")
    b.set(position=before.position, keys=before.keys, moves=before.moves, slip=None)
    _after_move(b, ev.t_ms, slip.by, san, uci, nxt, press=True)

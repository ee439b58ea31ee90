"""What an arbiter who does not watch a board throughout observes there (``observe``).

With ``"arbiter": "occasional"`` in ``start`` the arbiter is present in the
venue (claims go to him, the clocks may be stopped to call him) but sees a
flag fall or an illegal move only when an ``observe`` event says he saw it, at
that event's instant. What he may then do depends on the edition and on the
kind of play; an arbiter ``"present"`` sees everything at once.

Articles, by edition:

- 1989: 12.2 (the flag is considered to have fallen when the arbiter observes
  the fact), 8.1 (an illegal move found during the game: the position before it
  reinstated, whenever it is found).
- 1997: 6.8 (the flag, observed by the arbiter), 7.4 (an illegal move found:
  reinstated; in the quickplay finish 10.3's penalty), B.5 (in rapid play the
  arbiter rules only when a player asks), B.6 (he refrains from signalling a
  flag fall), C.3 (in blitz the illegal move is completed once the clock is
  pressed: only the opponent's claim before his own move counts).
- 2023: 6.8 (the flag observed), 7.5.1 (an illegal move found: the position
  before it reinstated; 7.5.5 the penalty), A.5.2 (rapid, and blitz through B.3,
  where the arbiter does not supervise every game: he acts on an illegal move he
  observes only before the opponent has made his next move; after it, the move
  stands; the same for 7.5.3, the clock pressed without a move, and 7.5.4, a
  move made with two hands, which elsewhere are acted on whenever found during
  the game, as an illegal move is: 7.5.1), A.5.4 (both kings in check or a pawn on the
  furthest rank: he waits until the next move is completed), A.5.5 (he calls a
  flag fall he observes).
"""

from __future__ import annotations

from chesslaws._values import replace
from chesslaws.events import Event
from chesslaws.game.flags import _both_flags_down, _flag_outcome, _record_ending
from chesslaws.game.irregularities import _arbiter_waits, _correct_standing, _penalise_unseen, _position_after
from chesslaws.game.state import NAME, GameError, GameState, UnseenAct, _Builder, other
from chesslaws.timecontrol import Color


def _partial_supervision(s: GameState) -> bool:
    """2023 A.5 (rapid) and B.3 (blitz): one arbiter for several games."""
    return s.config.partially_supervised


def _on_observe(b: _Builder, ev: Event) -> None:
    """``observe``: the arbiter sees, at this instant, a flag down (``what``: ``flag``) or the last
    illegal move that stands on the board (``illegal_move``); or he writes down an ending that happened by
    itself by then (a flag fall he saw as it fell, ``flag``; the default time, ``default_time``): the
    game, in play before this instant, is over at it (:func:`~chesslaws.game.flags._record_ending`)."""
    if b.s.status == "finished":
        _record_ending(b, ev)
        return
    if ev.get("what") == "default_time":
        raise GameError(ev, "no player has missed the default time by then")
    if not b.s.config.arbiter_present:
        raise GameError(ev, "no arbiter is present (start field 'arbiter': \"absent\"): only the players' claims "
                        "bring up a flag or an illegal move")
    if ev.get("what") == "flag":
        _observe_flag(b, ev)
    else:
        _observe_illegal_move(b, ev)


def _observe_flag(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    fallen = s.clock.fallen(t)
    if not fallen:
        raise GameError(ev, "no flag has fallen: there is no flag fall to observe")
    down = " and ".join(f"{NAME[c]}'s" for c in fallen)
    flags = "flags" if len(fallen) == 2 else "flag"
    if s.edition.flags_only_on_claim_in_rapid and s.config.mode in ("rapid", "blitz"):
        b.rule(t, "observed_flag_rapid", f"The arbiter sees {down} {flags} down, but in rapid play and blitz he "
               "shall refrain from signalling a flag fall: a flag counts only on a player's valid claim. The game "
               "continues.")
        return
    key = "observed_flag_rapid" if _partial_supervision(s) else "observed_flag"
    b.rule(t, key, f"The arbiter observes that {down} {flags} {'have' if len(fallen) == 2 else 'has'} fallen: "
           f"the {flags} {'are' if len(fallen) == 2 else 'is'} considered to have fallen now.")
    if len(fallen) == 2:
        _both_flags_down(b, t, s.turn)
    else:
        _flag_outcome(b, fallen[0], t)


def _observe_illegal_move(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    index = next((i for i in range(len(s.moves) - 1, -1, -1) if s.moves[i].illegal), None)
    act = s.unseen[-1] if s.unseen else None
    if act is not None and (index is None or act.ply > index):  # 2023 7.5.3 / 7.5.4: the latest irregularity
        _observe_act(b, t, act)
        return
    if index is None:
        raise GameError(ev, "no illegal move stands on the board")
    record = s.moves[index]
    offender: Color = record.color
    opp = other(offender)
    text = record.uci
    what = f"{NAME[offender]}'s illegal move {text}"
    mode = s.config.mode
    if mode == "blitz" and s.edition.illegal_move_stands_in_blitz:
        b.rule(t, "observed_illegal_blitz", f"The arbiter sees {what}, but in blitz an illegal move is completed "
               f"once the clock is pressed: only {NAME[opp]}'s claim before making his own move counts, and once he "
               "has moved it cannot be corrected. The arbiter does not act.")
        return
    if mode == "rapid" and s.edition.rapid_rulings_on_request:
        b.rule(t, "observed_illegal_rapid", f"The arbiter sees {what}, but in rapid play he makes a ruling only "
               "when a player asks him to: the move stands until claimed.")
        return
    latest = index == len(s.moves) - 1 and s.illegal_pending is not None
    if _partial_supervision(s):
        if not latest:
            b.rule(t, "observed_illegal_rapid", f"The arbiter observes {what}, but {NAME[opp]} has made his next "
                   "move: the illegal move cannot be corrected (unless the players agree without the arbiter's "
                   "intervention), and it stands.")
            return
        before = s.illegal_pending
        assert before is not None
        if _arbiter_waits(before.position, text):
            b.set(observed=True)
            b.rule(t, "observed_illegal_position", f"The arbiter observes {what}, which leaves both kings in check "
                   "or a pawn on the rank furthest from its starting position: he waits until the next move is "
                   "completed; if an illegal position is still on the board then, the game is drawn.")
            return
        b.rule(t, "observed_illegal_rapid", f"The arbiter observes {what} before {NAME[opp]} has made his next "
               "move, and acts under Article 7.5.5.")
        _correct_standing(b, t, offender, text, before, record.draw_offer)
        return
    if latest:
        before = s.illegal_pending
        assert before is not None
        b.rule(t, "observed_illegal", f"The arbiter finds {what}, the last move made.")
        _correct_standing(b, t, offender, text, before, record.draw_offer)
        return
    after = len(s.moves) - index - 1
    b.rule(t, "observed_illegal", f"The arbiter finds {what} ({(index + 2) // 2}{'.' if index % 2 == 0 else '...'}), "
           f"{after} move{'s' if after > 1 else ''} later: the position before it is reinstated whenever it is "
           "found during the game, the later moves being taken back.")
    _correct_standing(b, t, offender, text, _state_before(s, index, t, offender), record.draw_offer)


def _observe_act(b: _Builder, t: int, act: UnseenAct) -> None:
    """The arbiter observes a press without a move (2023 7.5.3) or a move made with two hands (7.5.4),
    penalised as if an illegal move: under A.5.2 only before the opponent's next move (the act is
    forgotten once he has made it); elsewhere whenever it is found during the game (7.5.1)."""
    offender, opp = NAME[act.by], NAME[other(act.by)]
    if _partial_supervision(b.s):
        b.rule(t, "observed_illegal_rapid", f"The arbiter observes {offender}'s irregularity before {opp} has "
               "made his next move, and acts under Article 7.5.5.")
    elif act.answered:
        b.rule(t, "observed_illegal", f"The arbiter finds {offender}'s irregularity after {opp} has made his next "
               "move: an act penalised as an illegal move is acted on whenever it is found during the game.")
    _penalise_unseen(b, t, act)


def _state_before(s: GameState, index: int, t: int, offender: Color) -> GameState:
    """The game as it stood before its move ``index`` (0-based): the position, the moves and their
    repetition keys; the clocks keep the times they show at ``t``, the offender's running."""
    kept = s.moves.prefix(index)
    clock = s.clock.stop(t) if s.clock.running is not None else s.clock
    white = sum(1 for m in kept if m.color == "white")
    clock = clock.take_back(t, offender, min(white, clock.moves("white")), min(len(kept) - white, clock.moves("black")))
    return replace(s, position=_position_after(s, index), keys=s.keys.prefix(index + 1), moves=kept, clock=clock,
                   touched=(), offer=None, counter=None, illegal_pending=None, touch_violation=None)

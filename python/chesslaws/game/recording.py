"""The scoresheet: how far each player's record goes (``scoresheet``) and the
result the players sign at the end (``sign``).

A ``scoresheet`` event says how many moves (half-moves, plies) a player's
scoresheet shows at that instant, as the arbiter sees it. A player may be one
move behind when it is his move (he replies before recording the opponent's
move) and two when it is not (his own move just made, and the one he replied
to); his previous move must be recorded before he makes another. Further
behind, he breaks the duty to record, unless he is exempt (fewer than five
minutes on his clock, and under 1997 and 2023 no increment of 30 seconds or
more): then the ruling says so; once a flag has fallen he must update it
completely. The exemption is read from the clock at the instant of the event.

Articles, by edition:

- 1989: 11.1 (each player records the game move after move; "it is
  irrelevant whether the player first makes his move and then records it, or
  vice versa"), 11.2 (under five minutes to the time control: not obliged;
  when the flag falls, complete the record at once), 11.4 (refusing to record
  is a refusal to comply with the Laws: 10.17, the arbiter's
  ``refuse_to_comply``).
- 1997: 8.1 (record move after move; reply before recording the opponent's
  move, record one's previous move before making another), 8.4 (under five
  minutes without an increment of 30 s: not obliged; after a flag falls,
  update completely). The 1997 Laws have no signed result.
- 2023: 8.1.1, 8.1.2 (no moves written in advance), 8.1.3, 8.4 (the
  exemption), 8.5.2 (update after a flag falls, before moving a piece), 8.7
  (both players sign both scoresheets with the result: even if incorrect it
  stands, unless the arbiter decides otherwise).
"""

from __future__ import annotations

from typing import Any

from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, GameError, Outcome, _Builder, other
from chesslaws.timecontrol import Color

#: The editions' threshold for the exemption (1989 11.2, 1997 8.4, 2023 8.4).
EXEMPT_BELOW_MS = 5 * 60_000
#: An increment of this much or more removes the exemption (1997 8.4, 2023 8.4; not in 1989 11.2).
EXEMPTION_INCREMENT_MS = 30_000


def _exempt(b: _Builder, by: Color, t: int) -> bool:
    s = b.s
    remaining = s.clock.remaining(t, by)
    if remaining is None or remaining >= EXEMPT_BELOW_MS:
        return False
    if not s.edition.scoresheet_exemption_ignores_increment:
        period = s.clock.control.period_for_move(s.clock.moves(by))
        if period is not None and period.increment_ms >= EXEMPTION_INCREMENT_MS:
            return False
    return True


def _on_scoresheet(b: _Builder, ev: Event) -> None:
    """``scoresheet``: ``plies`` moves stand on ``by``'s scoresheet at this instant."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    plies = int(ev.get("plies"))
    if plies < 0:
        raise EventError("field 'plies' counts the moves on the scoresheet: 0 or more", field="plies")
    made = len(s.moves)
    ed = s.edition
    if plies > made:
        ahead = plies - made
        if ed.record_in_advance_allowed and ahead == 1 and by == s.turn:
            b.rule(t, "record_first", f"{NAME[by]} wrote his move before making it: it is irrelevant whether the "
                   "player first makes his move and then records it, or vice versa.")
        elif ed.record_in_advance_forbidden:
            b.rule(t, "record_in_advance", f"{NAME[by]} wrote {ahead} move{'s' if ahead > 1 else ''} in advance, "
                   "which is forbidden (outside a draw claim or the sealing of a move): the arbiter may penalise "
                   "him.")
        return
    allowed = 1 if by == s.turn else 2
    behind = made - plies
    if behind <= allowed:
        return
    fallen = s.clock.fallen(t)
    if _exempt(b, by, t) or (fallen and s.scoresheet_exempt.get(by, False)):
        changes: dict[str, Any] = {"scoresheet_exempt": {**s.scoresheet_exempt, by: True}}
        b.set(**changes)
        if fallen:
            b.rule(t, "scoresheet_update", f"A flag has fallen: {NAME[by]}, who was not obliged to record, must now "
                   f"update his scoresheet completely ({behind} moves are missing) before he moves a piece.")
        else:
            b.rule(t, "scoresheet_exempt", f"{NAME[by]}'s scoresheet is {behind} moves behind, but with less than "
                   "five minutes on his clock he is not obliged to record the moves.")
        return
    b.rule(t, "scoresheet_required", f"{NAME[by]}'s scoresheet is {behind} moves behind: each player must record "
           "the moves, move after move, and is not exempt; " + (
               "a player who refuses to record refuses to comply with the Laws." if ed.refusal_to_record_is_refusal
               else "the arbiter may penalise him."))


def _on_sign(b: _Builder, ev: Event) -> None:
    """``sign``: at the conclusion of the game the player signs the scoresheets with ``result``.
    2023 8.7: once both have signed the same result it stands, even if incorrect (unless the
    arbiter decides otherwise); the earlier Laws have no such rule and the board's result stays."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if s.status != "finished" or s.outcome is None:
        raise GameError(ev, "the scoresheets are signed at the conclusion of the game")
    result = str(ev.get("result"))
    signed = {**s.signed, by: result}
    b.set(signed=signed)
    theirs = signed.get(other(by))
    if theirs is None or theirs != result or result == s.outcome.result or not s.edition.signed_result_stands:
        return
    b.set(outcome=Outcome(result, s.outcome.termination))  # type: ignore[arg-type]
    b.rule(ev.t_ms, "signed_result", f"Both players signed the scoresheets with the result {result}, which is not "
           f"the result on the board ({s.outcome.result}): even if incorrect, the signed result stands, unless the "
           "arbiter decides otherwise.")

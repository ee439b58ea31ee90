"""The scoresheet: how far each player's record goes (``scoresheet``), the
result the players sign at the end (``sign``), a player's request to be shown
the record or given a scoresheet (``request_scoresheet``), and the arbiter's
decisions on the scoresheets: the next period when they cannot show that a
player overstepped the time (``decision`` on ``period``) and the result after a
signature (``decision`` on ``result``).

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
  ``refuse_to_comply``), 11.9 and 12.8 (the next move counted as the first
  of the following control), 12.9 and 11.3 (the arbiter does not tell a
  player how many moves were made), 16.1 (the result: the one the game gave).
- 1997: 8.6 (the next period), 13.6 (the number of moves not indicated,
  except under 8.5 once a flag has fallen), 13.1 (the result), 8.1 (record move after move; reply before recording the opponent's
  move, record one's previous move before making another), 8.4 (under five
  minutes without an increment of 30 s: not obliged; after a flag falls,
  update completely). The 1997 Laws have no signed result.
- 2023: 8.1.1, 8.1.2 (no moves written in advance), 8.1.3, 8.4 (the
  exemption), 8.5.2 (update after a flag falls, before moving a piece), 8.7
  (both players sign both scoresheets with the result: even if incorrect it
  stands, unless the arbiter decides otherwise), 8.6 (the next period), 11.10
  (an appeal even after signing), 12.6 (the number of moves not indicated,
  except under 8.5), A.2 (a scoresheet on request in rapid play), A.4.3 and
  B.2.3 (to be shown the scoresheet, five times a game, when it is his move),
  D.2.10.4 (a visually disabled player's assistant tells him, at his request,
  the number of moves completed and the time both players have used).
"""

from __future__ import annotations

from typing import Any

from chesslaws.clock import ClockError
from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, GameError, Outcome, _Builder, _ordinal, fmt_duration, other
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


#: How many times a player may ask to be shown the scoresheet (2023 A.4.3, B.2.3).
SCORESHEET_REQUESTS = 5


def _on_request_scoresheet(b: _Builder, ev: Event) -> None:
    """``request_scoresheet``: the player asks the arbiter to show him the game's record (``kind``
    ``show``, the default) or to give him a scoresheet to write the moves on (``blank``).

    The number of moves and the times (``moves_and_times``): 2023 D.2.10.4, a visually disabled player's
    assistant informs him, only at his request, of the number of moves completed and the time used up by
    both players; anyone else's request is ruled as one to be shown the record.

    Showing the record: 2023 A.4.3 (rapid) and B.2.3 (blitz) where the arbiter supervises fully (A.4,
    B.2) let the player ask when it is his move, at most five times; more requests are a distraction
    of the opponent (11.5: the arbiter's penalty). Elsewhere the arbiter shall not indicate the number
    of moves completed (2023 12.6, 1997 13.6: except in applying 8.5 once a flag has fallen; 1989 12.9
    and 11.3). A blank scoresheet: 2023 A.2, in rapid and blitz where the players need not record; in
    standard play each player records on the scoresheet prescribed (2023 8.1.1, 1997 8.1, 1989 11.1)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    fast = s.config.mode in ("rapid", "blitz")
    kind = ev.get("kind", "show")
    if kind == "moves_and_times" and by in s.config.visually_disabled and by in s.config.assistants:
        clock = s.clock
        b.rule(t, "assistant_informs", f"At {NAME[by]}'s request his assistant informs him of the number of moves "
               f"completed (White {clock.moves('white')}, Black {clock.moves('black')}) and the time used up by both "
               f"players (White {fmt_duration(clock.used(t, 'white'))}, Black "
               f"{fmt_duration(clock.used(t, 'black'))}).")
        return
    if kind == "blank":
        if fast and s.edition.scoresheet_on_request_in_fast_play:
            b.rule(t, "scoresheet_blank_fast", f"{NAME[by]} asks for a scoresheet: the arbiter provides one to write "
                   "the moves on. In rapid play the players need not record, but keep their rights to claims "
                   "normally based on a scoresheet.")
        elif fast and "scoresheet_blank_fast" in s.edition.articles:
            b.rule(t, "scoresheet_blank_fast", f"{NAME[by]} asks for a scoresheet: in rapid play the players need "
                   "not record the moves; the Laws say nothing more, and whether he is given one is the arbiter's "
                   "to decide.")
        else:
            b.rule(t, "scoresheet_blank", f"{NAME[by]} asks for a scoresheet: each player records the moves on the "
                   "scoresheet prescribed for the competition.")
        return
    key = {"rapid": "scoresheet_request_rapid", "blitz": "scoresheet_request_blitz"}.get(s.config.mode, "")
    if key in s.edition.articles and s.config.supervised and s.config.arbiter_present:
        if by != s.turn:
            b.rule(t, key, f"{NAME[by]} asks to be shown the scoresheet, but he may ask only when it is his move: "
                   "the arbiter declines.")
            return
        n = s.scoresheet_requests.get(by, 0) + 1
        b.set(scoresheet_requests={**s.scoresheet_requests, by: n})
        if n <= SCORESHEET_REQUESTS:
            b.rule(t, key, f"At {NAME[by]}'s request, his move, the arbiter shows him the scoresheet ({n} of the "
                   f"{SCORESHEET_REQUESTS} requests a game allows).")
        else:
            b.rule(t, key, f"{NAME[by]} asks to be shown the scoresheet for the {_ordinal(n)} time: more than "
                   f"{SCORESHEET_REQUESTS} requests are considered a distraction of the opponent, which the "
                   "arbiter may penalise.")
        return
    if s.clock.fallen(t) and s.edition.moves_told_after_flag:
        b.rule(t, "scoresheet_request", f"{NAME[by]} asks to be shown the scoresheet: a flag has fallen, so the "
               "arbiter may indicate the number of moves completed in bringing the scoresheets up to date.")
        return
    b.rule(t, "scoresheet_request", f"{NAME[by]} asks to be shown the scoresheet: the arbiter shall not indicate "
           "the number of moves made, and declines.")


def _decide_next_period(b: _Builder, ev: Event) -> None:
    """``decision`` on ``period`` (ruling ``next_period``): a flag has fallen and the scoresheets cannot
    be brought up to date showing that the player overstepped the allotted time: the next move made is
    the first of the following period, unless there is evidence that more moves were made (2023 8.6,
    1997 8.6; 1989 11.9, and 12.8 with both flags). The flags are raised and each player still in the
    period receives the following period's time, less the time his clock has run since his flag fell:
    that period began then (:meth:`chesslaws.clock.Clock.next_period`). The arbiter decides it instead of ruling on the flag:
    it comes before the flag is decided (with an arbiter who observes only some things, ``observe``,
    or none, before the claim is upheld)."""
    s = b.s
    t = ev.t_ms
    if str(ev.get("ruling")) != "next_period":
        raise GameError(ev, "the decision on the period is 'next_period'")
    if not s.ongoing:
        raise GameError(ev, "the game is over")
    fallen = s.clock.fallen(t)
    if not fallen:
        raise GameError(ev, "no flag has fallen: the time control has not been reached")
    try:
        clock = s.clock.next_period(t)
    except ClockError as err:
        raise GameError(ev, str(err)) from None
    b.set(clock=clock)
    down = " and ".join(f"{NAME[c]}'s" for c in fallen)
    b.rule(t, "next_period", f"{down} flag{'s' if len(fallen) > 1 else ''} fell, and the scoresheets cannot be "
           "brought up to date showing that the time control was passed: the next move made is considered the "
           "first of the following time period, which began when the flag fell: each player still in the period "
           "receives its time, less what his clock has run since his flag fell (White "
           f"{fmt_duration(clock.remaining(t, 'white') or 0)}, Black {fmt_duration(clock.remaining(t, 'black') or 0)}).")


#: A decision's ruling as a result.
RULED_RESULT = {"white_wins": "1-0", "black_wins": "0-1", "draw": "1/2-1/2"}


def _decide_result(b: _Builder, ev: Event) -> None:
    """``decision`` on ``result``: after the game the arbiter decides what its result is. 2023 8.7:
    the result both players signed stands even if incorrect, "unless the arbiter decides otherwise"
    (and 11.10: a player may appeal even after signing). The 1997 and 1989 Laws give the signature
    no force: the result is the one the game gave, which the arbiter sees observed (1997 13.1, 1989
    16.1); he cannot decide another (a penalty changes points: ``penalty``)."""
    s = b.s
    t = ev.t_ms
    ruling = str(ev.get("ruling"))
    if ruling not in RULED_RESULT:
        raise GameError(ev, "the decision on the result is 'white_wins', 'black_wins' or 'draw'")
    if s.status != "finished" or s.outcome is None:
        raise GameError(ev, "the arbiter decides the result once the game has concluded")
    result = RULED_RESULT[ruling]
    signed = s.edition.signed_result_stands and len(s.signed) == 2 and len(set(s.signed.values())) == 1
    if signed:
        b.set(outcome=Outcome(result, s.outcome.termination))  # type: ignore[arg-type]
        b.rule(t, "result_decided", f"Both players signed {s.outcome.result}; the arbiter decides otherwise: the "
               f"result is {result}.")
        return
    if result != s.outcome.result:
        why = ("no result signed by both players stands for him to decide otherwise" if s.edition.signed_result_stands
               else "a signature does not change it")
        raise GameError(ev, f"the result is the one the game gave ({s.outcome.result}): {why}, and the arbiter "
                        "cannot decide another (a penalty changes the points)")
    b.rule(t, "result_decided", f"The arbiter confirms the result the game gave, {result}: the scoresheets are "
           "corrected to it.")

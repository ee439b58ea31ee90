"""A player's recourse to the arbiter and beyond him: an explanation of the Laws asked for
(``request_explanation``), an appeal against one of the arbiter's decisions (``appeal``), and the
decision on that appeal (``appeal_decision``).

None of them changes the game by itself. The Laws give the player the right to ask and to appeal;
who decides an appeal (an appeals committee, the chief arbiter), by when, and what follows from it
are the regulations of the event's. What the log records is the decision: rejected, the arbiter's
decision stands; accepted, it is reversed, and where the appeal decision gives the game a result,
that result replaces the one the game had, in every edition (the appeal decides above the arbiter).
Anything else the appeal decision orders is written as the arbiter's events that carry it out
(``set_clocks``, ``reinstate``, ``annul``, ``penalty``).

Articles, by edition:

- 1989: 16.1 (the arbiter sees that the Laws are strictly observed: the Laws give no right to an
  explanation, which the arbiter may give), 16.3 (he enforces the decisions he makes in disputes: the
  Laws provide no appeal).
- 1997: 13.1 (the arbiter sees that the Laws are strictly observed), 13.3 (he enforces the decisions
  he makes: no appeal in the Laws).
- 2023: 11.9 (a player has the right to request from the arbiter an explanation of particular points
  in the Laws), 11.10 (unless the regulations of an event specify otherwise, a player may appeal against
  any decision of the arbiter, even after signing the scoresheet: 8.7).
"""

from __future__ import annotations

from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, Appeal, GameError, Outcome, _Builder
from chesslaws.timecontrol import Color


def _quoted(text: str | None) -> str:
    return f" (“{text}”)" if text else ""


def _on_request_explanation(b: _Builder, ev: Event) -> None:
    """``request_explanation``: the player asks the arbiter to explain a point of the Laws (``about``);
    ``answer``: the explanation the arbiter gave. Nothing in the game changes."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    about = _quoted(ev.get("about"))
    answer = f" The arbiter explains{_quoted(ev.get('answer'))}." if ev.get("answer") else ""
    if s.edition.explanation_on_request:
        b.rule(ev.t_ms, "explanation", f"{NAME[by]} asks the arbiter to explain a point of the Laws{about}: a player "
               f"has the right to request from the arbiter an explanation of particular points in the Laws of "
               f"Chess.{answer} Nothing in the game changes.")
        return
    b.rule(ev.t_ms, "explanation", f"{NAME[by]} asks the arbiter to explain a point of the Laws{about}: the "
           f"{s.edition.name} Laws give the player no such right, and the arbiter, who sees that the Laws are "
           f"observed, may answer.{answer} Nothing in the game changes.")


def _on_appeal(b: _Builder, ev: Event) -> None:
    """``appeal``: the player appeals against the arbiter's decision given as the state's ruling number
    ``ruling`` (1-based). 2023 11.10: allowed unless the regulations of the event specify otherwise, even
    after the scoresheet is signed; the earlier Laws have no appeal (the arbiter enforces his decisions:
    1997 13.3, 1989 16.3). The appeal waits for its ``appeal_decision``; the game goes on meanwhile."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    number = int(ev.get("ruling"))
    if not 1 <= number <= len(s.rulings):
        raise EventError(f"field 'ruling' numbers one of the rulings so far (1 to {len(s.rulings)}), not "
                         f"{number}" if s.rulings else
                         "field 'ruling': there is no decision of the arbiter yet to appeal against", field="ruling")
    if any(a.ruling == number for a in s.appeals):
        raise GameError(ev, f"ruling {number} is already under appeal")
    appealed = s.rulings[number - 1]
    what = f"the decision of ruling {number} (Article {appealed.article}: “{appealed.text}”)"
    why = _quoted(ev.get("reason"))
    b.set(appeals=s.appeals + (Appeal(by, number, ev.t_ms),))
    if s.edition.appeal:
        signed = " even though he has signed the scoresheet," if by in s.signed else ""
        b.rule(ev.t_ms, "appeal", f"{NAME[by]} appeals against {what}{why}:{signed} unless the regulations of the "
               "event specify otherwise, a player may appeal against any decision of the arbiter. The Laws say no "
               "more: the appeal is decided as the regulations provide, and the appeal itself changes nothing in "
               "the game.")
        return
    b.rule(ev.t_ms, "appeal", f"{NAME[by]} appeals against {what}{why}: the {s.edition.name} Laws provide no "
           "appeal, the arbiter enforcing the decisions he makes; an appeal is for the regulations of the event, "
           "and the appeal itself changes nothing in the game.")


def _on_appeal_decision(b: _Builder, ev: Event) -> None:
    """``appeal_decision``: the appeal against ruling ``appealed`` (needed only when several wait) is
    rejected (the decision stands) or accepted (it is reversed); an accepted appeal may give the
    finished game its ``result``."""
    s = b.s
    t = ev.t_ms
    if not s.appeals:
        raise GameError(ev, "no appeal waits for a decision")
    number = ev.get("appealed")
    if number is None:
        if len(s.appeals) > 1:
            raise EventError("several appeals wait: field 'appealed' names the ruling the one decided was "
                             f"against ({', '.join(str(a.ruling) for a in s.appeals)})", field="appealed")
        appeal = s.appeals[0]
    else:
        found = [a for a in s.appeals if a.ruling == int(number)]
        if not found:
            raise GameError(ev, f"no appeal against ruling {number} waits for a decision")
        appeal = found[0]
    ruling = str(ev.get("ruling"))
    result = ev.get("result")
    if result is not None and ruling != "accept":
        raise EventError("field 'result': only an accepted appeal gives the game another result", field="result")
    if result is not None and (s.status != "finished" or s.outcome is None):
        raise GameError(ev, "the appeal decision gives a result to a game that has concluded")
    b.set(appeals=tuple(a for a in s.appeals if a is not appeal))
    whose = f"{NAME[appeal.by]}'s appeal against ruling {appeal.ruling}"
    why = _quoted(ev.get("reason"))
    if ruling == "reject":
        b.rule(t, "appeal_decision", f"{whose} is rejected{why}: the arbiter's decision stands.")
        return
    if result is None:
        b.rule(t, "appeal_decision", f"{whose} is accepted{why}: the arbiter's decision is reversed. What replaces "
               "it is the appeal decision's, under the regulations of the event; the Laws fix nothing more.")
        return
    assert s.outcome is not None
    b.set(outcome=Outcome(str(result), s.outcome.termination))  # type: ignore[arg-type]
    b.rule(t, "appeal_decision", f"{whose} is accepted{why}: the arbiter's decision is reversed, and the appeal "
           f"decision gives the game the result {result} (it was {s.outcome.result}).")

"""Conduct of the players and the arbiter's penalties: breaches of conduct
(electronic devices, leaving the playing area, annoying the opponent,
sources of information, refused inspection), the penalties, and persistent
refusal to comply with the Laws.

Articles, by edition:

- 1989: 10.17 (refusal to comply), 15.1, 15.2 (conduct), 16.4, 16.5 (the
  arbiter's penalties).
- 1997: 12.2 (notes, sources of information, mobile phones), 12.4 (leaving the
  playing venue), 12.5 (annoying the opponent), 12.6, 12.7, 12.8 (refusal to
  comply), 13.4 (the penalties).
- 2023: 11.2.3.2 (leaving the playing area), 11.3.1 (sources of information),
  11.3.2, 11.3.2.1, 11.3.2.2 (electronic devices; the lighter penalty), 11.3.3
  (inspection), 11.5 (annoying the opponent), 11.6, 11.7, 11.8 (refusal to
  comply), 12.9.1, 12.9.2, 12.9.3, 12.9.4, 12.9.5, 12.9.6, 12.9.7, 12.9.8,
  12.9.9 (the penalties).
"""

from __future__ import annotations

from chesslaws._values import replace
from typing import Mapping

from chesslaws.clock import Clock
from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, GameError, Outcome, _Builder, _num, fmt_duration, other, win_for
from chesslaws.timecontrol import Color


#: The arbiter's penalties (1989 16.5, 1997 13.4, 2023 12.9): the kind -> the rule key of its article.
PENALTY_RULES: Mapping[str, str] = {
    "warning": "penalty_warning",
    "add_time": "penalty_add_time",
    "reduce_time": "penalty_reduce_time",
    "opponent_points": "penalty_opponent_points",
    "reduce_points": "penalty_reduce_points",
    "loss": "penalty_loss",
    "fine": "penalty_fine",
    "exclusion": "penalty_exclusion",
    "expulsion": "penalty_expulsion",
}


#: Penalties that concern the result or the player, not the play: also after the game.
_AFTER_THE_GAME = {"warning", "opponent_points", "reduce_points", "fine", "exclusion", "expulsion"}


def _on_penalty(b: _Builder, ev: Event) -> None:
    against: Color = ev.get("against")
    _apply_penalty(b, ev, against, str(ev.get("kind")), f" ({ev.get('reason')})" if ev.get("reason") else "")


def _apply_penalty(b: _Builder, ev: Event, against: Color, kind: str, why: str) -> None:
    """One of the arbiter's penalties against ``against``, with the fields of ``ev``."""
    s = b.s
    t = ev.t_ms
    ed = s.edition
    opp = other(against)
    rule = PENALTY_RULES[kind]
    if rule not in ed.articles:
        raise GameError(ev, f"the {ed.name} Laws' penalties (Article {ed.article('penalty')}) do not include "
                        f"{kind.replace('_', ' ')!r}; the 2023 Laws (12.9) do")
    if not s.ongoing and kind not in _AFTER_THE_GAME:
        raise GameError(ev, f"the game is over: a {kind.replace('_', ' ')} penalty can no longer apply")
    seconds = ev.get("seconds")
    if kind in ("add_time", "reduce_time"):
        if seconds is None or seconds <= 0:
            raise EventError(f"a {kind} penalty needs 'seconds' (a positive number)", field="seconds")
        if s.config.time_control.unlimited:
            raise GameError(ev, "no clock is in use: time penalties cannot apply")
        ms = round(float(seconds) * 1000)
        clock: Clock = b.get("clock")
        if kind == "add_time":
            b.set(clock=clock.add_time(t, opp, ms))
            b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {NAME[opp]} receives {fmt_duration(ms)}.")
        else:
            b.set(clock=clock.add_time(t, against, -ms))
            b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {fmt_duration(ms)} is taken off his clock.")
    elif kind == "warning":
        b.rule(t, rule, f"The arbiter warns {NAME[against]}{why}.")
    elif kind in ("opponent_points", "reduce_points"):
        out = s.outcome
        if out is None or s.status != "finished":
            raise GameError(ev, "points are changed once the game has a result")
        score = dict(out.score)
        total_rule = ""
        if kind == "opponent_points":
            score[opp] = 1
            text = f"{NAME[opp]}'s points in this game are raised to the maximum, 1"
            if score[against]:
                # 2023 10.2: "The total score of any game can never exceed the maximum score normally
                # given for that game" (a 3/4 - 1/4 score is not allowed): the offender keeps nothing.
                total_rule = (f"The total score of a game can never exceed the maximum, 1: {NAME[against]}'s "
                              f"{_num(float(score[against]))} is lost, and the score of the game is "
                              f"{_num(1.0 if opp == 'white' else 0.0)}-{_num(1.0 if opp == 'black' else 0.0)}.")
                score[against] = 0
        else:
            points = ev.get("points")
            if points is None or points < 0 or points > score[against]:
                raise EventError(f"a reduce_points penalty needs 'points': {NAME[against]}'s new score, "
                                 f"between 0 and {_num(score[against])}", field="points")
            score[against] = float(points)
            text = f"{NAME[against]}'s points in this game are reduced to {_num(float(points))}"
        b.set(outcome=replace(out, points=(float(score["white"]), float(score["black"]))))
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {text}.")
        if total_rule:
            b.rule(t, "score_maximum", total_rule)
    elif kind == "fine":
        amount = ev.get("amount")
        if not amount:
            raise EventError("a fine needs 'amount' (as announced in advance, e.g. \"50 EUR\")", field="amount")
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: a fine of {amount}, as announced in advance.")
    elif kind == "exclusion":
        rounds = ev.get("rounds")
        if rounds is None or rounds < 1:
            raise EventError("an exclusion needs 'rounds' (how many rounds, at least 1)", field="rounds")
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: excluded from {rounds} round"
               f"{'s' if rounds > 1 else ''}.")
    elif kind == "expulsion" and not s.ongoing:
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {NAME[against]} is expelled from the competition.")
    else:
        verb = "is expelled from the event and loses the game" if kind == "expulsion" else "loses the game"
        score_opp = ev.get("opponent_score")
        outcome = win_for(opp, "arbiter_decision")
        extra = ""
        if score_opp is not None:
            if not ed.loss_penalty_scores_opponent:
                raise EventError(f"'opponent_score' is the 2023 Laws' (12.9.6, 11.7); the {ed.name} opponent wins",
                                 field="opponent_score")
            if score_opp not in (0, 0.5, 1):
                raise EventError("'opponent_score' must be 0, 0.5 or 1", field="opponent_score")
            white, black = (0.0, float(score_opp)) if against == "white" else (float(score_opp), 0.0)
            outcome = replace(outcome, points=(white, black)) if score_opp != 1 else outcome
            extra = f" The arbiter gives {NAME[opp]} {_num(float(score_opp))}."
        b.end(t, outcome, rule, f"Penalty against {NAME[against]}{why}: {NAME[against]} {verb}.{extra}")


#: Article 11 conduct (2023; 1997 Article 12; 1989 Article 15): the kind -> the rule key.
CONDUCT_RULES: Mapping[str, str] = {
    "device": "conduct_device",
    "leave_area": "conduct_leave_area",
    "annoy": "conduct_annoy",
    "information": "conduct_information",
    "inspection_refused": "conduct_inspection",
}


def _on_conduct(b: _Builder, ev: Event) -> None:
    """The arbiter finds a breach of the players' conduct and rules on it."""
    s = b.s
    ed = s.edition
    t = ev.t_ms
    against: Color = ev.get("against")
    kind = str(ev.get("kind"))
    rule = CONDUCT_RULES[kind]
    if rule not in ed.articles:
        raise GameError(ev, f"the {ed.name} Laws have no rule on {kind.replace('_', ' ')}")
    penalty = ev.get("penalty")
    why = f" ({ev.get('reason')})" if ev.get("reason") else ""
    what = {
        "device": "had an electronic device not approved by the arbiter in the playing venue",
        "leave_area": "left the playing area without the arbiter's permission",
        "annoy": "distracted or annoyed the opponent",
        "information": "used notes, a source of information or advice, or analysed on another board",
        "inspection_refused": "refused to let the arbiter inspect his clothes, bags or other items",
    }[kind]
    opp = other(against)
    if kind == "device" and ed.device_loses:
        if penalty is None:
            if not s.ongoing:
                raise GameError(ev, "the game is over")
            b.end(t, win_for(opp, "arbiter_decision"), rule,
                  f"{NAME[against]} {what}{why}: {NAME[against]} loses the game and {NAME[opp]} wins.")
            return
        if not s.config.device_penalty_lighter:
            raise GameError(ev, "2023 11.3.2.2: the device loses the game; a less severe penalty needs regulations "
                            "that specify one (start field 'device_penalty': \"lighter\")")
        b.rule(t, rule, f"{NAME[against]} {what}{why}; the regulations of the event specify a less severe penalty.")
    else:
        b.rule(t, rule, f"{NAME[against]} {what}{why}.")
    _apply_penalty(b, ev, against, str(penalty or "warning"), why)


def _on_refuse(b: _Builder, ev: Event) -> None:
    against = str(ev.get("against"))
    t = ev.t_ms
    if against == "both":
        b.end(t, Outcome("0-0", "refusal_to_comply"), "refusal_both",
              "Both players persistently refuse to comply with the Laws: both lose.")
    else:
        c: Color = against  # type: ignore[assignment]
        b.end(t, win_for(other(c), "refusal_to_comply"), "refusal",
              f"{NAME[c]} persistently refuses to comply with the Laws: {NAME[other(c)]} wins.")

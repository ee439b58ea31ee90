"""What the regulations of an event (:mod:`chesslaws.regulations`) change at the board, and the
rules the Laws give in their place: draw offers and agreements that need the arbiter's consent, a player
leaving the playing area (``leave_area``), the request for an increment where the clocks cannot add
one, and the clock's setting once ten moves are made under 2023 A.5.

Articles, by edition:

- 1989: 10.6 (an agreement ends the game: the regulations cannot stop it), 16.4 (the arbiter keeps
  the players undisturbed: leaving the board).
- 1997: 5.3 (an agreement immediately ends the game: the regulations cannot stop it), 12.4 (the player
  having the move does not leave the playing area without permission; the opponent may).
- 2023: 9.1.1 (the regulations may forbid offers and agreements, before a number of moves or at all,
  without the arbiter's consent), 11.2.3.2, 11.2.4 (leaving the playing area; the regulations may
  make the opponent of the player having the move report to the arbiter), 11.6 and 12.9 (the penalty
  is the arbiter's), Guidelines III.4 (an increment introduced, where the clocks allow it: otherwise
  III.4 does not apply and III.5's claim remains), A.5.1.1 (no change to the clock's setting once
  each player has made ten moves, unless the schedule of the event would be adversely affected).
"""

from __future__ import annotations

from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, GameError, GameState, PendingClaim, _Builder, draw, other
from chesslaws.timecontrol import Color


def _moves_each(s: GameState) -> int:
    """The moves each player has made: the fewer of the two counts."""
    white = sum(1 for m in s.moves if m.color == "white")
    return min(white, len(s.moves) - white)


def _draw_rule(b: _Builder, ev: Event) -> bool:
    """A draw offer or agreement the regulations forbid without the arbiter's consent (2023 9.1.1). An offer
    is made all the same and stands; under 2023 an agreement then waits for the arbiter's consent (the
    clocks stop while he is summoned: the ``decision`` on ``"agreement"``, ``grant`` or ``reject``). The 1989
    and 1997 Laws have no such rule: an agreement ends the game (1989 10.6, 1997 5.3), the regulations'
    sanction being theirs. True when the event was ruled here."""
    s = b.s
    regs = s.config.regulations
    if not s.ongoing or not regs.draws_restricted(_moves_each(s)):
        return False
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    law = s.edition.articles.get("draw_regulations")
    if ev.type in ("offer_draw", "move"):
        if ev.type == "move" and not ev.get("offer_draw"):
            return False
        if law is None:
            b.rule(t, "agreement", f"The regulations of the event say that {regs.draw_rule_words()}. The "
                   f"{s.edition.name} Laws leave the players free to offer a draw: {NAME[by]}'s offer is valid; "
                   "any sanction is the regulations'.")
        else:
            b.rule(t, "draw_regulations", f"The regulations of the event say that {regs.draw_rule_words()}: "
                   f"{NAME[by]}'s offer stands, but an agreement needs the arbiter's consent.")
        return False
    if ev.type != "accept_draw":
        return False
    theirs = [o for o in (s.offer, s.counter) if o is not None and o.by != by]
    if not theirs:
        return False  # nothing to accept: the usual refusal
    if law is None:
        b.rule(t, "agreement", f"The regulations of the event say that {regs.draw_rule_words()}; under the "
               f"{s.edition.name} Laws an agreement ends the game all the same, any sanction being the "
               "regulations'.")
        return False
    if s.claims:
        raise GameError(ev, "a claim already awaits the arbiter's decision")
    clock = s.clock.stop(t) if s.clock.running is not None else s.clock
    b.set(clock=clock, claims=s.claims + (PendingClaim("claim", "agreement", by, t),))
    b.rule(t, "draw_regulations", f"{NAME[by]} accepts {NAME[theirs[0].by]}'s draw offer, but the regulations of "
           f"the event say that {regs.draw_rule_words()}: the clocks are stopped and the agreement waits for the "
           "arbiter's consent.")
    return True


def _decide_agreement(b: _Builder, ev: Event) -> None:
    """The arbiter consents to the agreement the regulations made his to allow (``grant``: a draw by
    agreement) or refuses it (``reject``: the offer ends, the clocks run again; 2023 9.1.1). ``lapse``: a
    live game's server enters it when no arbiter watches the game any more to decide
    (:mod:`chesslaws.server.lapse`): without his consent there is no agreement, so it ends as a refusal."""
    s = b.s
    t = ev.t_ms
    claim = next((c for c in s.claims if c.reason == "agreement"), None)
    ruling = str(ev.get("ruling"))
    if claim is None or not s.ongoing:
        raise GameError(ev, "no draw agreement awaits the arbiter's consent")
    if ruling not in ("grant", "reject", "lapse"):
        raise EventError("the arbiter's decision on an agreement is \"grant\" or \"reject\"", field="ruling")
    rest = tuple(c for c in s.claims if c is not claim)
    b.set(claims=rest)
    if ruling == "grant":
        b.end(t, draw("agreement"), "draw_regulations", "The arbiter consents to the agreement: the game is drawn "
              "by agreement.")
        return
    b.set(offer=None, counter=None, clock=s.clock.resume(t))
    if ruling == "lapse":
        b.rule(t, "draw_regulations", f"No arbiter watches the game any more to consent to the draw {NAME[claim.by]} "
               "accepted: without his consent there is no agreement; the offer lapses and the clocks run again.")
        return
    b.rule(t, "draw_regulations", f"The arbiter does not consent to the draw {NAME[claim.by]} accepted: the offer "
           "lapses and the game continues.")


def _on_leave_area(b: _Builder, ev: Event) -> None:
    """A player leaves the playing area. The player having the move needs the arbiter's permission
    (2023 11.2.3.2, 1997 12.4); his opponent may go, unless the regulations make him report to the arbiter
    first (2023 11.2.4, ``report_leaving``: without the report it is an infraction, penalised under 12.9 by
    11.6). The 1989 Laws have no rule on it (the arbiter keeps the players undisturbed, 16.4). The penalty
    is the arbiter's own event (``conduct``)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    ed = s.edition
    if "leave_area" not in ed.articles:
        b.rule(t, "conduct_leave_area", f"{NAME[by]} leaves the playing area; the 1989 Laws have no rule on leaving it, "
               "the arbiter keeping the players undisturbed.")
        return
    if by == s.turn:
        if ev.get("permission"):
            b.rule(t, "leave_area", f"{NAME[by]}, having the move, leaves the playing area with the arbiter's "
                   "permission.")
        else:
            b.rule(t, "leave_area", f"{NAME[by]}, having the move, leaves the playing area without the arbiter's "
                   "permission: an infraction the arbiter penalises.")
        return
    if not s.config.regulations.report_leaving:
        b.rule(t, "leave_area", f"{NAME[by]} leaves the playing area; only the player having the move needs the "
               f"arbiter's permission ({NAME[other(by)]} has the move).")
        return
    if "report_leaving" not in ed.articles:
        b.rule(t, "leave_area", f"{NAME[by]} leaves the playing area; the regulations of the event make the "
               f"opponent of the player having the move report to the arbiter, which the {ed.name} Laws leave "
               "to the regulations.")
        return
    if ev.get("reported") or ev.get("permission"):
        b.rule(t, "report_leaving", f"{NAME[by]}, the opponent of the player having the move, reports to the "
               "arbiter and leaves the playing area, as the regulations of the event require.")
        return
    b.rule(t, "report_leaving", f"{NAME[by]}, the opponent of the player having the move, leaves the playing area "
           "without reporting to the arbiter as the regulations of the event require: an infraction the arbiter "
           "penalises (Articles 11.6, 12.9).")


def _increment_impossible(b: _Builder, ev: Event) -> bool:
    """2023 Guidelines III.4 introduces the increment "if possible": where the clocks cannot add one (the
    start field ``increment_possible``: false) the request is not granted and III.4 does not apply, so the
    player may claim under III.5. True when ruled here."""
    s = b.s
    if s.config.regulations.increment_possible or not s.ongoing:
        return False
    if not s.edition.quickplay_increment_request or not s.config.quickplay_guidelines:
        return False  # no request at all: the usual refusal
    by: Color = ev.by  # type: ignore[assignment]
    b.rule(ev.t_ms, "increment_request", f"{NAME[by]} asks for an increment, but the clocks of the event cannot "
           "introduce one: Article III.4 does not apply, and a claim under III.5 remains open. The game "
           "continues.")
    return True


def _clock_setting_fixed(b: _Builder, ev: Event) -> bool:
    """2023 A.5.1.1 (rapid and blitz with an arbiter for several games): once each player has made ten moves,
    no change can be made to the clock's setting (``set_clocks`` with ``setting``: true), unless the
    schedule of the event would be adversely affected (``schedule``: true). True when refused here."""
    s = b.s
    if not ev.get("setting") or not s.config.partially_supervised or "clock_setting_fixed" not in s.edition.articles:
        return False
    if _moves_each(s) < 10:
        return False
    if ev.get("schedule"):
        b.rule(ev.t_ms, "clock_setting_fixed", "Each player has made ten moves, but the schedule of the event "
               "would be adversely affected: the arbiter changes the clock's setting.")
        return False
    b.rule(ev.t_ms, "clock_setting_fixed", "Each player has made ten moves: no change can be made to the clock's "
           "setting; the clocks stay as they are.")
    return True


__all__: list[str] = []

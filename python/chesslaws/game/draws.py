"""Draws: offers and agreements, claims of repetition and of the fifty-move
rule, the quickplay finish, and the arbiter's decisions on them.

Articles, by edition:

- 1989: 10.6 (agreement), 10.7, 10.8, 10.9 (offers), 10.10 (threefold
  repetition), 10.11 (the right to claim; lost by moving), 10.12 (fifty moves;
  the announced limit), 10.13 (correct and incorrect claims), 12.7.
- 1997: 5.3, 5.4, 5.5 (agreement), 9.1 (offers), 9.2 (threefold repetition),
  9.3 (fifty moves), 9.4 (the right to claim lost by a move), 9.5 (the claim
  and its penalty), 10.1, 10.2 (the quickplay finish claim: draw, postpone,
  reject), C.5 (not in blitz), D.1 (without an arbiter present).
- 2023: 5.2.3 (agreement: both players have moved), 9.1.1, 9.1.2.1, 9.1.2.2
  (offers), 9.1.2.3 (a claim counts as an offer), 9.2, 9.3 (repetition, fifty
  moves), 9.4 (the right to claim lost by a move or a touch), 9.5 (the claim
  and its penalty), Guidelines III.1, III.2, III.5, III.6 (the quickplay
  finish claim: draw, postpone, reject; not with increment, not in blitz),
  III.4 (the request for an increment; III.3, both flags, is in
  :mod:`chesslaws.game.flags`), 12.2.2 (adjudication in the competition's
  interest).
"""

from __future__ import annotations

from dataclasses import dataclass

from chesslaws.clock import Clock
from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.events import Event, EventError
from chesslaws.game.completion import _cannot_win
from chesslaws.game.played import _play, _record
from chesslaws.game.grounds import _note_grounds
from chesslaws.game.recording import _decide_next_period, _decide_result
from chesslaws.game.state import (
    NAME,
    DrawOffer,
    GameError,
    GameState,
    PendingClaim,
    Termination,
    _Builder,
    _ordinal,
    _times,
    draw,
    fmt_duration,
    other,
    win_for,
)
from chesslaws.position import Position
from chesslaws.timecontrol import Color


def _in_quickplay_finish(s: GameState, color: Color) -> bool:
    """1997 Article 10.1, 2023 III.1: all the remaining moves must be made in a limited time."""
    tc = s.config.time_control
    if tc.unlimited:
        return False
    period = tc.periods[tc.period_index(s.clock.moves(color))]
    return period.moves is None and period is tc.periods[-1]


def quickplay_unavailable(s: GameState) -> str | None:
    """Why this game has no quickplay-finish claim at all, or None: no clock, an edition without it
    (1989), or 2023 Guidelines III not announced (III.2.1). A claim made anyway is refused as a wrong
    action (``WrongState``), and the page offers none. From the configuration alone."""
    ed = s.config.edition
    if s.config.time_control.unlimited:
        return "a quickplay finish claim needs a clock"
    if not ed.quickplay_finish:
        return f"the {ed.name} Laws have no quickplay finish claim"
    if ed.quickplay_only_if_announced and not s.config.quickplay_guidelines:
        return "Guidelines III (quickplay finish) apply only where announced (start field 'quickplay_guidelines')"
    return None


def quickplay_out_of_scope(s: GameState) -> tuple[str, str] | None:
    """The rule and the reason a quickplay-finish claim in this game is not admitted whatever the moment
    (a ruling, no penalty), or None: not in blitz (1997 C.5, 2023 III.2.2), not with an increment (2023
    III.2.2; a delay, which does the increment's work of giving time on every move, is counted with it)."""
    ed = s.edition
    if s.config.mode == "blitz":
        rule = "quickplay_blitz" if "quickplay_blitz" in ed.articles else "quickplay_scope"
        if rule == "quickplay_blitz":
            return rule, f"in blitz Article 10.2 does not apply (Appendix {ed.article(rule)})"
        return rule, f"Guidelines III do not apply to blitz games ({ed.article(rule)})"
    if ed.quickplay_without_increment_only and any(
            p.increment_ms or p.delay_ms for p in s.clock.control.periods):
        return ("quickplay_scope",
                f"Guidelines III apply only to games without increment ({ed.article('quickplay_scope')})")
    return None


def quickplay_refusal(s: GameState, by: Color) -> tuple[str, str] | None:
    """The arbiter's own rule on whether ``by``'s quickplay-finish claim is admitted now, in a game that has
    the claim (:func:`quickplay_unavailable` is None): the rule and the reason it is not admitted, or None.
    Out of scope (:func:`quickplay_out_of_scope`), or not yet in the quickplay finish: the claimant's period
    is not the last one, in which all the remaining moves must be made (1997 10.1, 2023 III.1). The page's
    controls (:func:`chesslaws.server.controls.quickplay_players`) read the same rule."""
    scope = quickplay_out_of_scope(s)
    if scope is not None:
        return scope
    if not _in_quickplay_finish(s, by):
        art = s.edition.article("quickplay_phase")
        return ("quickplay_phase", f"the game is not in the quickplay finish ({'Article ' if art[0].isdigit() else ''}"
                f"{art}): not all the remaining moves must yet be made in a limited time")
    return None


def quickplay_can_arise(s: GameState) -> bool:
    """May a quickplay-finish claim be admitted at some moment of this game: it has the claim, it is in
    scope, and its last period is one for all the remaining moves (1997 10.1, 2023 III.1). From the
    configuration alone (the page's controls are kept per configuration): the same rules as
    :func:`quickplay_out_of_scope`, on the time control announced; what the game's course changes (an
    increment granted, III.4; the claimant's period) is :func:`quickplay_refusal`'s, read at every view."""
    cfg = s.config
    if quickplay_unavailable(s) is not None or cfg.mode == "blitz":
        return False
    periods = cfg.time_control.periods
    if cfg.edition.quickplay_without_increment_only and any(p.increment_ms or p.delay_ms for p in periods):
        return False
    return periods[-1].moves is None


def _add_offer(b: _Builder, by: Color, t: int) -> None:
    """``by``'s draw offer is pending from ``t`` (unless one of his already is)."""
    offer: DrawOffer | None = b.get("offer")
    counter: DrawOffer | None = b.get("counter")
    if any(o is not None and o.by == by for o in (offer, counter)):
        return
    new = DrawOffer(by, t, len(b.get("moves")))
    if offer is None:
        b.set(offer=new, offers=b.get("offers") + (new,))
    elif counter is None:
        b.set(counter=new, offers=b.get("offers") + (new,))


def _on_offer(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if s.offer is not None and s.offer.by == by:
        raise GameError(ev, f"{NAME[by]}'s draw offer is already pending")
    offer = DrawOffer(by, ev.t_ms, len(s.moves))
    if s.counter is not None:
        raise GameError(ev, f"{NAME[by]}'s draw offer is already pending")
    if s.offer is not None:
        # The opponent's offer stays valid until answered (9.1): a counter-offer
        # is pending beside it.
        b.set(counter=offer, offers=s.offers + (offer,))
        return
    b.set(offer=offer, offers=s.offers + (offer,))


def _on_accept(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    theirs = [o for o in (s.offer, s.counter) if o is not None and o.by != by]
    if not theirs:
        if s.offer is not None:
            raise GameError(ev, f"{NAME[by]} cannot accept his own draw offer")
        raise GameError(ev, "there is no draw offer to accept (an offer ends when it is declined or answered by a move)")
    if s.edition.agreement_needs_both_moved and not _both_have_moved(s):
        b.set(offer=None, counter=None)
        b.rule(ev.t_ms, "agreement",
               f"{NAME[by]} accepts {NAME[theirs[0].by]}'s draw offer, but a draw by agreement needs both players "
               "to have made at least one move: the agreement is void and the game continues.")
        return
    b.end(ev.t_ms, draw("agreement"), "agreement",
          f"{NAME[by]} accepts {NAME[theirs[0].by]}'s draw offer: the game is drawn by agreement.")


def _both_have_moved(s: GameState) -> bool:
    """Has each player made at least one move in this game (2023 5.2.3)?"""
    return len({m.color for m in s.moves}) == 2


def _on_decline(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    mine = [o for o in (s.offer, s.counter) if o is not None and o.by == by]
    if len(mine) == len([o for o in (s.offer, s.counter) if o is not None]):
        raise GameError(ev, f"there is no draw offer to {NAME[by]} to decline")
    b.set(offer=mine[0] if mine else None, counter=None)


def _cite_fast_penalty(b: _Builder, t: int, opp: Color, what: str) -> None:
    """2023 A.3 (blitz through B.3): "The penalties mentioned in Articles 7 and 9 ... shall be one
    minute instead of two minutes": cited beside the article that gives the penalty."""
    s = b.s
    if "penalty_fast" in s.edition.articles and s.config.mode in ("rapid", "blitz"):
        b.rule(t, "penalty_fast", f"In {s.config.mode} play the penalties of Articles 7 and 9 are one minute "
               f"instead of two: {NAME[opp]} receives one minute for {what}.")


def _claim_penalty(b: _Builder, t: int, claimant: Color) -> tuple[str, bool]:
    """Applies the edition's incorrect-claim penalty; returns (text, game_over)."""
    s = b.s
    ed = s.edition
    opp = other(claimant)
    clock: Clock = b.get("clock")
    if s.config.time_control.unlimited:
        return "No clock is in use, so no time penalty applies.", False
    if ed.claim_penalty == "add_used_time":
        left = clock.remaining(t, claimant) or 0
        clock = clock.add_time(t, claimant, -ed.claim_penalty_ms)
        b.set(clock=clock)
        if left <= ed.claim_penalty_ms:
            return f"Five minutes are added to {NAME[claimant]}'s used time, which oversteps the time limit.", True
        return f"Five minutes are added to {NAME[claimant]}'s used time.", False
    if ed.claim_penalty == "halve_and_give":
        left = clock.remaining(t, claimant) or 0
        deduct = min(left // 2, ed.claim_penalty_ms)
        clock = clock.add_time(t, claimant, -deduct).add_time(t, opp, ed.claim_penalty_ms)
        b.set(clock=clock)
        return (
            f"Half of {NAME[claimant]}'s remaining time, at most 3 minutes, is deducted ({fmt_duration(deduct)}); "
            f"{NAME[opp]} receives {ed.claim_penalty_ms // 60_000} minutes.",
            False,
        )
    fast = s.config.mode in ("rapid", "blitz")
    bonus = ed.claim_penalty_fast_ms if fast else ed.claim_penalty_ms
    clock = clock.add_time(t, opp, bonus)
    b.set(clock=clock)
    minutes = bonus // 60_000
    if fast:
        _cite_fast_penalty(b, t, opp, f"{NAME[claimant]}'s incorrect claim")
    return f"{NAME[opp]} receives {minutes} minute{'s' if minutes != 1 else ''}.", False


def _on_claim_draw(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    reason = str(ev.get("reason"))
    if reason == "quickplay":
        _on_quickplay_claim(b, ev)
        return
    what_claim = "repetition" if reason == "threefold" else "the fifty-move rule"
    if by != s.turn and s.moves and s.moves[-1].color == by and s.ongoing:
        # He moved instead of claiming: the right to claim is lost on that move
        # (1989 10.11, 1997 9.4, 2023 9.4).
        b.rule(t, "claim_right_lost",
               f"{NAME[by]}'s claim of a draw by {what_claim} is not admitted: he made his move "
               f"{s.moves[-1].san} without claiming, and so lost the right to claim on that move. "
               "No penalty; the game continues.")
        return
    if by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) may claim a draw by {what_claim}")
    if s.touched and s.edition.claim_right_lost_by_touch:
        b.rule(t, "claim_right_lost",
               f"{NAME[by]}'s claim of a draw by {what_claim} is not admitted: having touched the piece on "
               f"{s.touched[0]} with the intention of moving or capturing it, he lost the right to claim on "
               "that move. No penalty; the game continues and the touched piece binds him.")
        return
    if s.claims:
        raise GameError(ev, "a claim is already awaiting the arbiter's decision")
    clock: Clock = s.clock
    if clock.running is not None:
        clock = clock.stop(t)  # the claimant stops both clocks (9.5)
    b.set(clock=clock)
    intended = ev.get("move")
    after: Position | None = None
    intended_san = intended_uci = None
    illegal_intended = False
    if intended is not None:
        try:
            intended_san, intended_uci, after = s.position.play_annotated(str(intended))
        except IllegalMove:
            illegal_intended = True
        except (UnreadableMove, AmbiguousMove) as err:
            raise EventError(f"field 'move': {err}", field="move") from None
    # A claim is correct if the position has just appeared (the written move
    # is then not needed), or if the written move brings it about.
    uses_move = False
    termination: Termination
    if reason == "threefold":
        rule, kind, termination = "threefold", "threefold", "threefold_repetition"
        now = s.keys.count(s.keys[-1])
        correct = now >= 3
        if correct:
            what = f"the position has just appeared for the {_ordinal(now)} time"
        elif illegal_intended:
            what = f"the intended move {intended} is illegal"
        elif after is not None:
            count = s.keys.count(after.zobrist()) + 1
            correct = uses_move = count >= 3
            what = f"the position after {intended_san} would appear for the {_ordinal(count)} time"
        else:
            what = f"the position has appeared {_times(now)} only"
    else:
        limit = s.config.fifty_move_limit
        rule, kind, termination = "fifty", f"{limit}-move", "fifty_moves"
        made = s.position.halfmove_clock
        correct = made >= 2 * limit
        if correct:
            what = f"the last {made // 2} moves by each player have been made without a pawn move or a capture"
        elif illegal_intended:
            what = f"the intended move {intended} is illegal"
        elif after is not None and s.edition.fifty_claim_with_move:
            correct = uses_move = after.halfmove_clock >= 2 * limit
            what = (f"after {intended_san} the last {after.halfmove_clock // 2} moves by each player would have "
                    "been made without a pawn move or a capture")
        else:
            # 1989 10.12: the fifty moves must have been made; a written move does not count.
            what = f"only {made // 2} moves by each player have been made without a pawn move or a capture"
    if correct:
        if uses_move and after is not None and intended_san is not None and intended_uci is not None:
            # The move is written on the scoresheet: it belongs to the record.
            b.set(position=after, keys=s.keys.appended(after.zobrist()))
            _record(b, t, by, intended_san, intended_uci, clock, offer=False, ended=True, illegal=False)
        b.end(t, draw(termination), rule,
              f"Draw by {'threefold repetition' if kind == 'threefold' else 'the ' + kind + ' rule'}, claimed "
              f"correctly by {NAME[by]}: {what}.")
        return
    penalty, lost = _claim_penalty(b, t, by)
    text = f"{NAME[by]}'s {kind} claim is incorrect: {what}. {penalty}"
    if lost:
        opp = other(by)
        denied, why, _ = _cannot_win(s.edition, s.position, opp)
        if denied:
            b.end(t, draw("time_forfeit"), "claim_incorrect",
                  text + f" {NAME[opp]}{why}: the game is drawn (Article {s.edition.article('flag_draw')}).")
        else:
            b.end(t, win_for(opp, "time_forfeit"), "claim_incorrect", text + f" {NAME[by]} loses.")
        return
    clock = b.get("clock").resume(t)
    b.set(clock=clock)
    if s.edition.claim_is_draw_offer:
        _add_offer(b, by, t)
        b.rule(t, "claim_is_offer", f"{NAME[by]}'s claim counts as an offer of a draw: {NAME[other(by)]} may "
               "still accept it.")
    if after is not None:
        b.rule(t, "claim_incorrect", text + f" The intended move {intended_san} is played.")
        _play(b, ev, by, str(intended))
    else:
        if illegal_intended:
            text += f" {NAME[by]} must make a legal move."
        b.rule(t, "claim_incorrect", text + (" The game continues." if not illegal_intended else ""))


def _on_quickplay_claim(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    left = s.clock.remaining(t, by)
    unavailable = quickplay_unavailable(s)
    if unavailable is not None or left is None:
        raise GameError(ev, unavailable or "a quickplay finish claim needs a clock")
    if by != s.turn and s.edition.quickplay_claimant_has_move:
        # 2023 III.5: "the player having the move"; 1997 10.2 says only "the player" (English and
        # French texts): a claim on the opponent's time is his to make too.
        raise GameError(ev, f"the claimant must have the move ({NAME[s.turn]}'s clock runs; Guidelines III.5)")
    if left >= 120_000:
        raise GameError(ev, f"{NAME[by]} has {fmt_duration(left)} left: the claim needs less than two minutes (10.2)")
    # Whether the claim exists at all in this game and at this moment: not
    # admitted (no penalty, the game goes on) when it does not.
    refusal = quickplay_refusal(s, by)
    if refusal is not None:
        b.rule(t, refusal[0], f"{NAME[by]}'s quickplay-finish claim is not admitted: {refusal[1]}. "
               "No penalty; the game continues.")
        return
    clock = s.clock.stop(t)
    b.set(clock=clock, claims=s.claims + (PendingClaim("claim", "quickplay", by, t),))
    _note_grounds(b, ev, by)  # what the claim rests on (1997 10.2 / D.1, 2023 III.5 / III.6.1)


@dataclass(frozen=True, slots=True)
class ArbiterAwaited:
    """Play waits for the arbiter: the clocks stand stopped until he decides ``claim``."""

    claim: PendingClaim
    article: str  # the article that sends the matter to the arbiter
    what: str  # the matter, for people: "a quickplay-finish claim", "a request for an increment"
    concludes: bool  # the claim concluded the game (no arbiter present: 1997 D.1, 2023 III.6.1)


def awaiting_arbiter(s: GameState) -> ArbiterAwaited | None:
    """What stops play until the arbiter decides, or None. A quickplay-finish claim: the claimant stops
    the clocks and summons the arbiter (1997 10.2, 2023 III.5); where no arbiter is present the claim
    concludes the game and is referred to an (independent, designated) arbiter, whose decision is final
    (1997 D.1, 2023 III.6.1, III.6.2). A request for an increment: 2023 III.4. A draw agreed where the
    regulations forbid it without the arbiter's consent: 2023 9.1.1. Only an arbiter ends such a
    wait: a live game may take the claim only where one can decide it (:mod:`chesslaws.server.hub`)."""
    if not s.ongoing:
        return None
    ed = s.edition
    for claim in s.claims:
        if claim.reason == "quickplay":
            present = s.config.arbiter_present
            article = ed.article("quickplay" if present else "quickplay_no_arbiter")
            return ArbiterAwaited(claim, article, "a quickplay-finish claim", not present)
        if claim.reason == "increment":
            return ArbiterAwaited(claim, ed.article("increment_request"), "a request for an increment", False)
        if claim.reason == "agreement":  # the regulations' draw rule (2023 9.1.1: game/regulated.py)
            return ArbiterAwaited(claim, ed.article("draw_regulations"),
                                  "a draw agreement that the regulations make subject to the arbiter's consent", False)
    return None


def _on_request_increment(b: _Builder, ev: Event) -> None:
    """2023 Guidelines III.4: with under two minutes, the player having the move
    asks for an extra five seconds a move for both players. The request is an
    offer of a draw; the clocks stop while the arbiter is summoned (6.11.2)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    left = s.clock.remaining(t, by)
    ed = s.edition
    if not ed.quickplay_increment_request or (ed.quickplay_only_if_announced and not s.config.quickplay_guidelines):
        raise GameError(ev, "the request for an increment is the 2023 Guidelines III.4, where announced "
                        "(start field 'quickplay_guidelines')")
    if by != s.turn or s.clock.running != by:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}), whose clock runs, may ask")
    if s.claims:
        raise GameError(ev, "a claim already awaits the arbiter's decision")
    if left is None or left >= 120_000:
        raise GameError(ev, f"{NAME[by]} needs less than two minutes left to ask (III.4)")
    if any(p.increment_ms or p.delay_ms for p in s.clock.control.periods):
        raise GameError(ev, "the game already has an increment or a delay (III.2.2)")
    b.set(clock=s.clock.stop(t), claims=s.claims + (PendingClaim("claim", "increment", by, t),))
    _add_offer(b, by, t)
    b.rule(t, "increment_request", f"{NAME[by]} asks for an extra five seconds a move for both players; the request "
           f"is an offer of a draw, which {NAME[other(by)]} may accept.")


def _on_decision(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    on = str(ev.get("on"))
    ruling = str(ev.get("ruling"))
    if on == "adjudication":
        _on_adjudication(b, ev, ruling)
        return
    if ruling == "lapse":
        _lapse(b, ev, on)
        return
    if on == "increment":
        _decide_increment(b, ev, ruling)
        return
    if on == "period":
        _decide_next_period(b, ev)
        return
    if on == "result":
        _decide_result(b, ev)
        return
    if ruling == "next_period":
        raise GameError(ev, "'next_period' is the decision on the period (on: \"period\", 2023 and 1997 8.6)")
    if ruling in ("white_wins", "black_wins"):
        raise GameError(ev, f"the ruling {ruling!r} is only for an adjudication (on: \"adjudication\")")
    if ruling == "grant":
        raise GameError(ev, "'grant' answers a request for an increment (on: \"increment\")")
    if on != "quickplay":
        raise GameError(ev, f"there is no matter {on!r} for the arbiter to decide")
    claim = next((c for c in s.claims if c.reason == "quickplay"), None)
    if claim is None:
        # Having postponed, the arbiter may still declare a draw, even after a flag (1997 10.2(b)).
        if ruling == "draw" and s.postponed and (s.ongoing or s.termination == "time_forfeit"):
            b.set(status="ongoing", outcome=None)
            b.end(t, draw("arbiter_decision"), "quickplay_postpone" if "quickplay_postpone" in s.edition.articles
                  else "quickplay",
                  "Having postponed the decision on the quickplay claim, the arbiter declares the game drawn"
                  + (" (the flag fall does not stand against it)." if not s.ongoing else "."))
            return
        raise GameError(ev, "no quickplay claim awaits a decision")
    if not s.ongoing:
        raise GameError(ev, "the game is over")
    rest = tuple(c for c in s.claims if c is not claim)
    opp = other(claim.by)
    ed = s.edition
    extra = ev.get("extra_time")
    if extra is not None and ruling != "postpone":
        raise EventError("field 'extra_time' belongs to a postponement (the opponent may be awarded two extra "
                         "minutes: 1997 10.2(b), 2023 III.5.2); a rejection gives them under 2023 III.5.3 "
                         "and not under 1997", field="extra_time")
    key = {"draw": "quickplay_draw", "postpone": "quickplay_postpone", "reject": "quickplay_reject"}[ruling]
    key = key if key in ed.articles else "quickplay"
    if ruling == "draw":
        b.set(claims=rest)
        b.end(t, draw("arbiter_decision"), key,
              f"The arbiter upholds {NAME[claim.by]}'s quickplay claim: the game is drawn.")
        return
    clock = s.clock
    if ruling == "postpone" and not s.config.arbiter_present:
        article = ed.article("quickplay_no_arbiter")
        raise GameError(ev, f"without an arbiter present the claim concluded the game ({article}): the arbiter's "
                        "decision is final, a draw or a rejection, not a postponement")
    if ruling == "postpone":
        later = ("the game continues in the arbiter's presence (a draw may still be declared, even after a flag "
                 "has fallen).")
        if extra is False:
            text = (f"The arbiter postpones the decision on {NAME[claim.by]}'s quickplay claim without awarding "
                    f"{NAME[opp]} extra time; {later}")
        else:
            clock = clock.add_time(t, opp, 120_000)
            text = (f"The arbiter postpones the decision on {NAME[claim.by]}'s quickplay claim; {NAME[opp]} "
                    f"receives 2 minutes and {later}")
        b.set(postponed=True)
    else:
        # 2023 III.5.3: the opponent receives two minutes; 1997 10.2 gives a rejection nothing.
        gives = ed.quickplay_reject_gives_ms
        if gives:
            clock = clock.add_time(t, opp, gives)
        text = f"The arbiter rejects {NAME[claim.by]}'s quickplay claim; the game continues." + (
            f" {NAME[opp]} receives {gives // 60_000} minutes." if gives else "")
    b.set(claims=rest, clock=clock.resume(t))
    b.rule(t, key, text)


def _lapse(b: _Builder, ev: Event, on: str) -> None:
    """The claim (``on``: "quickplay", "increment") that waited for the arbiter lapses because no arbiter
    watches the game any more (a live game's server enters it when his console closed): as one made without
    him is not taken (:mod:`chesslaws.server.hub`), it is set aside, the clocks run again and nobody
    receives time; the player may claim again while an arbiter watches."""
    s = b.s
    wait = awaiting_arbiter(s)
    reason = "increment" if on == "increment" else "quickplay"
    if wait is None or wait.claim.reason != reason:
        raise GameError(ev, f"no {'request for an increment' if on == 'increment' else 'quickplay claim'} awaits "
                        "a decision")
    rest = tuple(c for c in s.claims if c is not wait.claim)
    b.set(claims=rest, clock=s.clock.resume(ev.t_ms))
    key = "increment_request" if reason == "increment" else (
        "quickplay" if s.config.arbiter_present else "quickplay_no_arbiter")
    b.rule(ev.t_ms, key, f"No arbiter watches the game any more to decide {NAME[wait.claim.by]}'s {wait.what[2:]} "
           f"(Article {wait.article}): it lapses, as one made without an arbiter is not taken, and the clocks run "
           "again; nobody receives time. It may be made again while the arbiter watches.")


def _on_adjudication(b: _Builder, ev: Event, ruling: str) -> None:
    """The arbiter ends a game by the competition's adjudication rules (engine
    matches: a score threshold, a move limit), acting in the best interest of
    the competition; ``reason`` says which rule."""
    s = b.s
    if not s.ongoing:
        raise GameError(ev, "the game is over")
    why = f" ({ev.get('reason')})" if ev.get("reason") else ""
    if ruling == "draw":
        b.end(ev.t_ms, draw("arbiter_decision"), "adjudication", f"The arbiter adjudicates the game drawn{why}.")
    elif ruling in ("white_wins", "black_wins"):
        winner: Color = "white" if ruling == "white_wins" else "black"
        b.end(ev.t_ms, win_for(winner, "arbiter_decision"), "adjudication",
              f"The arbiter adjudicates the game won by {NAME[winner]}{why}.")
    else:
        raise GameError(ev, f"an adjudication is \"draw\", \"white_wins\" or \"black_wins\", not {ruling!r}")


def _decide_increment(b: _Builder, ev: Event, ruling: str) -> None:
    """The arbiter's answer to a III.4 request, once the opponent refused the draw."""
    s = b.s
    t = ev.t_ms
    claim = next((c for c in s.claims if c.reason == "increment"), None)
    if claim is None or not s.ongoing:
        raise GameError(ev, "no request for an increment awaits a decision")
    if any(o is not None and o.by == claim.by for o in (s.offer, s.counter)):
        raise GameError(ev, f"{NAME[other(claim.by)]} has not yet refused the draw the request offers")
    if ruling not in ("grant", "reject"):
        raise GameError(ev, "a request for an increment is granted or rejected")
    rest = tuple(c for c in s.claims if c is not claim)
    clock = s.clock
    opp = other(claim.by)
    if ruling == "grant":
        clock = clock.with_increment(t, 5_000).add_time(t, opp, 120_000)
        text = (f"The arbiter grants {NAME[claim.by]}'s request: from now on five seconds are added after every move "
                f"of both players, {NAME[opp]} receives two extra minutes, and the game continues.")
    else:
        text = f"The arbiter rejects {NAME[claim.by]}'s request for an increment; the game continues."
    b.set(claims=rest, clock=clock.resume(t))
    b.rule(t, "increment_request", text)

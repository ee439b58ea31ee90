"""The one entry point of the arbiter: the handler table, which maps each event
type of the log to the function of the Laws' part that rules on it, and the
transition that applies it.

=====================  ============================================
event types            module
=====================  ============================================
move, touch, adjust,   :mod:`chesslaws.game.moving` (Article 4)
claim_touch_move
resign                 :mod:`chesslaws.game.completion` (Article 5)
offer_draw,            :mod:`chesslaws.game.draws` (Article 9,
accept_draw,           1997 Article 10, 2023 Guidelines III)
decline_draw,
claim_draw, decision,
request_increment
claim_flag, observed,  :mod:`chesslaws.game.flags` (Article 6)
stop_clocks,
start_clocks,
set_clocks
game_score             :mod:`chesslaws.game.gamescores` (2023 D.2.9)
announce               :mod:`chesslaws.game.announcing` (2023 D.2.8,
                       D.2.10-D.2.11: and the assistant's acts)
scoresheet, sign,      :mod:`chesslaws.game.recording` (2023 8,
request_scoresheet     1997 8, 1989 11; 2023 A.2, A.4.3, B.2.3)
observe                :mod:`chesslaws.game.observation` (1989 12.2,
                       1997 6.8, 2023 6.8, A.5.2, A.5.4, A.5.5)
displace, restore      :mod:`chesslaws.game.displacement` (2023 7.4,
                       1997 7.3, 1989 8.3)
release                :mod:`chesslaws.game.releasing` (2023 4.7,
                       1997 4.7, 1989 6)
press_clock            :mod:`chesslaws.game.pressing` (2023 6.2,
                       1997 6.7, 1989 12.3)
claim_win, reinstate,  :mod:`chesslaws.game.irregularities`
                       (Article 7)
claim_setup, annul
penalty, conduct,      :mod:`chesslaws.game.conduct` (Articles 11-12)
refuse_to_comply
seal, resume, arrive,  :mod:`chesslaws.game.adjournment` (1989 13-14,
envelope_lost          1997 Appendix A, 2023 Guidelines I)
request_explanation,   :mod:`chesslaws.game.appeals` (2023 11.9-11.10,
appeal,                1997 13.1, 13.3, 1989 16.1, 16.3)
appeal_decision
begin                  none: a live game's t=0 fixed (the server's)
=====================  ============================================

Articles, by edition: 1989 2 and 12.3, 1997 6.5 and A.4 / A.6, 2023 6.6
and I.4, I.5, I.6 (the start of the game and of a session: :func:`initial_state`,
a game set up in a finished position being over at once).
"""

from __future__ import annotations

from typing import Callable, Mapping

from chesslaws._values import replace
from chesslaws.clock import Clock
from chesslaws.events import Event, EventError, ms_to_t
from chesslaws.game.appeals import _on_appeal, _on_appeal_decision, _on_request_explanation
from chesslaws.game.adjournment import _on_arrive, _on_envelope_lost, _on_resume, _on_seal
from chesslaws.game.completion import _end_checks_after_move, _on_resign
from chesslaws.game.conduct import _on_conduct, _on_penalty, _on_refuse
from chesslaws.game.draws import _on_accept, _on_claim_draw, _on_decision, _on_decline, _on_offer, _on_request_increment
from chesslaws.game.flags import (
    _on_claim_flag, _on_set_clocks, _on_start_clocks, _on_stop_clocks, due, observe,
)
from chesslaws.game.irregularities import _on_annul, _on_claim_setup, _on_claim_win, _on_reinstate
from chesslaws.game.moving import _on_adjust, _on_claim_touch_move, _on_move, _on_touch
from chesslaws.game.pressing import _on_press_clock
from chesslaws.game.releasing import _on_release
from chesslaws.game.displacement import _on_displace, _on_restore
from chesslaws.game.recording import _on_request_scoresheet, _on_scoresheet, _on_sign
from chesslaws.game.gamescores import _on_game_score
from chesslaws.game.announcing import _assistant_acts, _on_announce
from chesslaws.game.observation import _on_observe
from chesslaws.game.claims import (
    ADJOURNED_CLAIMS, _legal_move_claimed, _on_adjourned_claim, _on_sealed_touch_claim, _on_unopened_claim,
    _relies_on_display, sealed_unopened,
)
from chesslaws.game.setup import board_setup
from chesslaws.game.procedures import _on_reconstruct, _proportional_times, _setup_castling
from chesslaws.game.regulated import (
    _clock_setting_fixed, _decide_agreement, _draw_rule, _increment_impossible, _on_leave_area,
)
from chesslaws.history import Keys, Moves
from chesslaws.game.state import GameError, GameState, _Builder, _config_from_start, other


def initial_state(ev: Event) -> GameState:
    if ev.type != "start":
        raise EventError(f"a log begins with a 'start' event, not {ev.type!r}", field="type")
    config = _config_from_start(ev)
    board = board_setup(ev, config.fen, config.chess960)
    if board is not None:  # a wrong set-up: the game is played from what stands on the board
        config = replace(config, fen=board, intended_fen=config.fen)
    position = config.initial_position()
    clock = Clock.new(config.time_control).start(ev.t_ms, position.turn)
    state = GameState(
        config=config,
        position=position,
        keys=Keys.of(position.zobrist()),
        moves=Moves.new(),
        clock=clock,
        t_ms=ev.t_ms,
        absent=config.absent,
        session_start_ms=ev.t_ms,
    )
    # A game set up in a finished position is over at once (5.1, 5.2, 9.6; 1989 10.4).
    b = _Builder(state)
    if _end_checks_after_move(b, ev.t_ms, other(position.turn), "the set-up"):
        return b.build()
    return state


Handler = Callable[[_Builder, Event], None]


def _on_begin(b: _Builder, ev: Event) -> None:
    """A live game that waited for its players or its arbiter begins at this t=0: nothing the Laws rule on."""


HANDLERS: Mapping[str, Handler] = {
    "move": _on_move,
    "offer_draw": _on_offer,
    "accept_draw": _on_accept,
    "decline_draw": _on_decline,
    "claim_draw": _on_claim_draw,
    "claim_flag": _on_claim_flag,
    "resign": _on_resign,
    "arrive": _on_arrive,
    "stop_clocks": _on_stop_clocks,
    "start_clocks": _on_start_clocks,
    "set_clocks": _on_set_clocks,
    "penalty": _on_penalty,
    "conduct": _on_conduct,
    "reinstate": _on_reinstate,
    "press_clock": _on_press_clock,
    "request_increment": _on_request_increment,
    "decision": _on_decision,
    "refuse_to_comply": _on_refuse,
    "annul": _on_annul,
    "claim_win": _on_claim_win,
    "touch": _on_touch,
    "adjust": _on_adjust,
    "claim_touch_move": _on_claim_touch_move,
    "release": _on_release,
    "displace": _on_displace,
    "restore": _on_restore,
    "scoresheet": _on_scoresheet,
    "sign": _on_sign,
    "game_score": _on_game_score,
    "request_scoresheet": _on_request_scoresheet,
    "announce": _on_announce,
    "observe": _on_observe,
    "seal": _on_seal,
    "resume": _on_resume,
    "envelope_lost": _on_envelope_lost,
    "claim_setup": _on_claim_setup,
    "request_explanation": _on_request_explanation,
    "appeal": _on_appeal,
    "appeal_decision": _on_appeal_decision,
    "begin": _on_begin,
    "leave_area": _on_leave_area,
    "reconstruct": _on_reconstruct,
}


#: The events a rule of :mod:`chesslaws.game.claims` or :mod:`chesslaws.game.regulated` may answer before
#: the handler (a claim relying on a display, a legal move claimed illegal, a draw the regulations restrict,
#: an increment the clocks cannot add, the clock's setting under 2023 A.5.1.1, a touch-move claim while a
#: sealed move waits in its envelope).
_BEFORE = frozenset({"claim_flag", "claim_draw", "claim_win", "offer_draw", "accept_draw", "decision",
                     "request_increment", "set_clocks", "claim_touch_move"})


def _ruled_before(b: _Builder, ev: Event) -> bool:
    """Whether ``ev`` was ruled on before its handler (which then does not run)."""
    kind = ev.type
    if kind in ("claim_flag", "claim_draw", "claim_win") and _relies_on_display(b, ev):
        return True
    if kind == "claim_win" and b.s.ongoing:
        return _legal_move_claimed(b, ev) or (sealed_unopened(b.s) and _on_unopened_claim(b, ev))
    if kind == "claim_draw" and b.s.ongoing and sealed_unopened(b.s):
        return _on_unopened_claim(b, ev)
    if kind in ("offer_draw", "accept_draw"):
        return _draw_rule(b, ev)
    if kind == "decision" and ev.get("on") == "agreement":
        _decide_agreement(b, ev)
        return True
    if kind == "request_increment":
        return _increment_impossible(b, ev)
    if kind == "set_clocks":
        return _clock_setting_fixed(b, ev)
    if kind == "claim_touch_move" and b.s.ongoing and sealed_unopened(b.s):
        _on_sealed_touch_claim(b, ev)  # resumed, the envelope not yet opened
        return True
    return False


#: Events allowed when the game is not in play, by status.
#: An explanation may be asked for and an appeal made and decided at any time (2023 11.9, 11.10).
_RECOURSE = {"request_explanation", "appeal", "appeal_decision"}
_ALLOWED_WHEN = {
    "finished": {"decision", "annul", "penalty", "conduct", "sign", "observe", "begin"} | _RECOURSE,
    "adjourned": {"offer_draw", "accept_draw", "decline_draw", "resign", "resume", "annul"} | _RECOURSE | ADJOURNED_CLAIMS,
    "annulled": _RECOURSE,
}


def transition(state: GameState, ev: Event) -> GameState:
    """The state after ``ev``; raises :class:`GameError` if it is not allowed now."""
    if ev.type == "start":
        raise GameError(ev, "the game has already started ('start' is only the first line)")
    if ev.t_ms < state.t_ms:
        raise GameError(ev, f"t goes back in time (the previous event was at t={ms_to_t(state.t_ms)})")
    if ev.type == "observe" and not state.ongoing:
        raise GameError(ev, "the game was not in play: there is nothing to observe")
    # When nothing happens by itself by the event's instant (no flag an arbiter sees, nobody absent), the
    # state then is this one at a later t_ms: the builder starts from this one with the new t_ms as its first
    # change (one copy of the state a move, not two). Its ``s`` is then the state as the last event left it:
    # the handlers take the event's instant from the event (``ev.t_ms``), never from ``b.s.t_ms``.
    quiet = not due(state, ev.t_ms)
    seen = state if quiet else observe(state, ev.t_ms)
    if seen.status != "ongoing" and ev.type not in _ALLOWED_WHEN[seen.status]:
        if seen.status == "annulled":
            raise GameError(ev, "the game has been annulled")
        if seen.status == "adjourned":
            raise GameError(ev, "the game is adjourned: only a draw agreement, a resignation, the claim of a flag "
                            "that fell while the move was sealed or the arbiter's resumption can come before the "
                            "envelope is opened")
        last = seen.rulings[-1].text if seen.rulings else ""
        when = f" at t={ms_to_t(seen.rulings[-1].t_ms)}" if seen.rulings else ""
        raise GameError(ev, f"the game is over{when}: {last}".rstrip(": "))
    b = _Builder(seen)
    if quiet:
        b.changes["t_ms"] = ev.t_ms
    if ev.get("assistant") and not _assistant_acts(b, ev):
        return b.build()  # an act outside the assistant's duties is not accepted (2023 D.2.11)
    kind = ev.type
    if kind in _BEFORE and _ruled_before(b, ev):
        return b.build()
    if kind == "move" and ev.get("offer_draw"):
        _draw_rule(b, ev)  # the regulations' word on the offer made with the move (the move is played all the same)
    if seen.status == "adjourned" and kind in ADJOURNED_CLAIMS:
        _on_adjourned_claim(b, ev)
        return b.build()
    HANDLERS[kind](b, ev)
    if kind == "reinstate":
        _proportional_times(b, ev, seen)
    elif kind == "claim_setup":
        _setup_castling(b, ev)
    return b.build()

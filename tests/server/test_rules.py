"""The session rules (chesslaws.server.rules) alone: functions of a live game and an instant, tested without a
server, a store or an event loop."""

from __future__ import annotations

from typing import Any

import pytest

from chesslaws.events import SCHEMAS
from chesslaws.server import rules
from chesslaws.server.errors import ApiError
from chesslaws.server.guard import Limits
from chesslaws.server.live import LiveGame
from chesslaws.server.newgame import make_game

T0 = 1_000_000.0
START = {"edition": "2023", "time_control": "600+0", "white": "W", "black": "B", "default_time": 2}


def live_game(start: dict[str, Any] | None = None, interface: str = "online",
              names: dict[str, str | None] | None = None, **how: Any) -> LiveGame:
    new = make_game(dict(start or START), names if names is not None else {"white": "W", "black": "B"}, interface,
                    T0, (), **how)
    r = new.record
    live = LiveGame(r.id, r.created_at, r.interface, dict(r.names), dict(r.token_hashes), new.game)
    live.follow(new.rule or {})
    return live


def play(live: LiveGame, *events: dict[str, Any]) -> None:
    for event in events:
        live.game = live.game.apply(event)


def test_a_games_time_waits_for_its_players_stops_during_an_outage_and_never_goes_back() -> None:
    waiting = live_game(when_ready=True)
    assert rules.server_t(waiting, T0 + 50, None) == -1.0
    live = live_game()
    assert rules.server_t(live, T0 - 5, None) == -5.0  # before the scheduled start
    assert rules.server_t(live, T0 + 12.3456, None) == 12.346
    assert rules.server_t(live, T0 + 30, T0 + 10) == 10.0  # the store away since t=10: time stands there
    play(live, {"type": "move", "t": 20, "by": "white", "move": "e4"})
    assert rules.server_t(live, T0 + 15, None) == 20.0  # never before the last event


def test_a_fair_start_waits_for_both_seats_a_held_game_for_the_arbiter_alone() -> None:
    fair = live_game(when_ready=True)
    assert rules.waiting_for(fair) == ["white", "black"]
    fair.present.add("white")
    assert rules.waiting_for(fair) == ["black"]
    fair.present.add("black")
    assert rules.waiting_for(fair) == []
    open_seat = live_game(names={"white": "W"}, when_ready=True)
    open_seat.present |= {"white", "black"}
    assert rules.waiting_for(open_seat) == ["black"]  # nobody holds the black seat yet
    held = live_game(held=True)
    assert held.waiting and held.held and rules.waiting_for(held) == []
    assert rules.start_rule(held) == {"waiting": True, "abort_after": None, "scheduled": False, "held": True}


def test_events_before_the_start_are_refused_except_the_arbiters_annulment_at_t0() -> None:
    held = live_game(held=True)
    with pytest.raises(ApiError, match="starts the round") as err:
        rules.stamp(held, -1.0, "move", "white")
    assert err.value.status == 409
    assert rules.stamp(held, -1.0, "annul", "arbiter") == (0.0, True)
    fair = live_game(when_ready=True)
    with pytest.raises(ApiError, match="both players"):
        rules.stamp(fair, -1.0, "resign", "black")
    later = live_game()
    with pytest.raises(ApiError, match="starts in 7 s"):
        rules.stamp(later, -7.0, "move", "white")
    assert rules.stamp(later, 3.5, "move", "white") == (3.5, False)


def test_an_online_game_without_a_first_move_is_aborted_never_forfeited() -> None:
    live = live_game(abort_after=30)
    assert rules.abort_deadline_ms(live) == 30_000
    assert not rules.abort_due(live, 29.9) and rules.abort_due(live, 30.0)
    assert rules.abort_reason(live) == "aborted: White made no first move within 30 s"
    play(live, {"type": "move", "t": 10, "by": "white", "move": "e4"})
    assert rules.abort_deadline_ms(live) == 40_000  # Black's first move, from White's
    play(live, {"type": "move", "t": 20, "by": "black", "move": "e5"})
    assert rules.abort_deadline_ms(live) is None  # both moved
    short = live_game({**START, "time_control": "20+0"}, abort_after=30)
    assert rules.abort_deadline_ms(short) == 20_000 - 50  # before the flag: an abort, not a loss on time
    assert rules.abort_deadline_ms(live_game(abort_after=30, interface="otb")) is None
    absent = live_game(abort_after=30, presence=True)
    assert rules.abort_deadline_ms(absent) is None  # the default time rules while a player is absent


def test_an_aborts_cause_is_read_back_from_the_annulment_the_server_wrote() -> None:
    live = live_game(abort_after=7.5)
    play(live, {"type": "move", "t": 1, "by": "white", "move": "e4"})
    assert rules.abort_cause(live.game) is None  # not aborted
    play(live, {"type": "annul", "t": 9, "by": "arbiter", "reason": rules.abort_reason(live)})
    assert rules.abort_cause(live.game) == {"side": "black", "after": 7.5}
    whole = live_game(abort_after=30)
    play(whole, {"type": "annul", "t": 30, "by": "arbiter", "reason": rules.abort_reason(whole)})
    assert rules.abort_cause(whole.game) == {"side": "white", "after": 30}
    annulled = live_game(abort_after=30)
    play(annulled, {"type": "annul", "t": 3, "by": "arbiter", "reason": "the initial position was incorrect"})
    assert rules.abort_cause(annulled.game) is None  # the arbiter's annulment: no abort


def test_the_next_wakeup_is_the_start_a_flag_an_arbiter_observes_or_the_default_time() -> None:
    live = live_game({**START, "arbiter": "present"})
    assert rules.next_wakeup_ms(live, T0 - 10, -10.0) == 0  # the start
    assert rules.next_wakeup_ms(live, T0 + 1, 1.0) == 600_000  # White's flag, which the arbiter observes
    absent = live_game(presence=True)
    assert rules.next_wakeup_ms(absent, T0 + 1, 1.0) == absent.game.state.default_deadline_ms + 1
    # A flag that fell while nobody wrote it (a restart): now, and the ending it writes.
    assert rules.ending_unwritten(live, 700.0) and rules.next_wakeup_ms(live, T0 + 700, 700.0) == 700_000
    assert rules.ending_to_write(live, 700.0) == "flag"
    assert rules.ending_to_write(live, 10.0) is None and not rules.ending_unwritten(live, 10.0)


def test_who_may_act_for_whom() -> None:
    limits = Limits()
    online = "online"
    body = {"type": "move", "move": "e4"}
    assert rules.event_kind(body)[0] == "move"
    assert rules.actor(online, "move", SCHEMAS["move"], "white", body, limits) == "white"
    with pytest.raises(ApiError, match="cannot act for 'black'") as err:
        rules.actor(online, "move", SCHEMAS["move"], "white", {**body, "by": "black"}, limits)
    assert err.value.status == 403
    with pytest.raises(ApiError, match="arbiter's event"):
        rules.actor(online, "penalty", SCHEMAS["penalty"], "black", {"type": "penalty"}, limits)
    with pytest.raises(ApiError, match="each player acts for himself"):
        rules.actor(online, "move", SCHEMAS["move"], "arbiter", {**body, "by": "white"}, limits)
    assert rules.actor("otb", "move", SCHEMAS["move"], "arbiter", {**body, "by": "black"}, limits) == "black"
    with pytest.raises(ApiError, match="must say for whom") as err:
        rules.actor("otb", "move", SCHEMAS["move"], "arbiter", body, limits)
    assert err.value.status == 422
    assert rules.actor(online, "stop_clocks", SCHEMAS["stop_clocks"], "arbiter", {}, limits) == "arbiter"
    with pytest.raises(ApiError, match="at most"):
        rules.actor(online, "appeal", SCHEMAS["appeal"], "white", {"reason": "x" * (limits.text_chars + 1)}, limits)
    for bad, status in (([], 422), ({"type": 3}, 422), ({"type": "fly"}, 422), ({"type": "start"}, 409),
                        ({"type": "move", "t": 1}, 422)):
        with pytest.raises(ApiError) as err:
            rules.event_kind(bad)
        assert err.value.status == status


def test_a_player_summons_only_an_arbiter_present_and_watching() -> None:
    present = live_game({**START, "arbiter": "present"}).game.state.config
    absent = live_game({**START, "arbiter": "absent"}).game.state.config
    rules.check_summons(present, True)
    with pytest.raises(ApiError, match="no arbiter is watching"):
        rules.check_summons(present, False)
    with pytest.raises(ApiError, match="no arbiter is present"):
        rules.check_summons(absent, True)
    assert rules.arbiter_watching(True, {}, 100.0)
    assert rules.arbiter_watching(False, {"p": 100.0 - 3 * rules.ARBITER_BEAT}, 100.0)
    assert not rules.arbiter_watching(False, {"p": 99.0 - 3 * rules.ARBITER_BEAT}, 100.0)  # its process died


def test_an_illegal_move_is_refused_online_before_the_arbiter() -> None:
    game = live_game().game
    rules.check_legal(game, {"type": "move", "by": "white", "move": "e4"})
    rules.check_legal(game, {"type": "move", "by": "black", "move": "e4"})  # out of turn: the arbiter answers
    for move, why in (("e5", "illegal move"), ("Zz9", "unreadable move")):
        with pytest.raises(ApiError, match=why) as err:
            rules.check_legal(game, {"type": "move", "by": "white", "move": move})
        assert err.value.status == 422


def test_the_full_log_and_unreasonable_claims() -> None:
    limits = Limits(max_events_per_game=10, incorrect_claims_alert=3)
    assert not rules.log_full(9, limits) and rules.log_full(10, limits)
    assert rules.log_full_error(limits).status == 409
    no_arbiter = live_game(arbiter_token=False)
    assert rules.full_log_ruling(no_arbiter, limits) == ("decision", {
        "on": "adjudication", "ruling": "draw", "reason": "the game's log is full (10 events) and the game has no "
        "arbiter to decide it; the players filled it together, and neither won"})
    with_arbiter = live_game()
    play(with_arbiter, {"type": "move", "t": 1, "by": "white", "move": "e4"})
    kind, fields = rules.full_log_ruling(with_arbiter, limits) or ("", {})
    assert kind == "stop_clocks" and "Article 6.11" in fields["reason"]  # the arbiter decides
    over = live_game()
    play(over, {"type": "resign", "t": 1, "by": "white"})
    assert rules.full_log_ruling(over, limits) is None
    st = with_arbiter.game.state
    assert rules.claim_left_going("claim_draw", "black", st) and not rules.claim_left_going("resign", "black", st)
    assert rules.annoyance_alert("black", 2, st, limits) is None
    alert = rules.annoyance_alert("black", 3, st, limits)
    assert alert is not None and alert["what"] == "annoyance" and "11.5" in alert["text"]
    assert rules.annoyance_alert("black", 3, st, Limits(incorrect_claims_alert=0)) is None  # never told


def test_an_outage_is_given_back_and_a_missed_scheduled_start_moves_after_it() -> None:
    live = live_game()
    play(live, {"type": "move", "t": 5, "by": "white", "move": "e4"})
    new = rules.interruption(live, T0 + 10, T0 + 40, "away", "back")
    assert new is not None
    stop, start = (e.to_json() for e in new.events[-2:])
    assert stop == {"type": "stop_clocks", "t": 10, "by": "arbiter",
                    "reason": "away; the time that passed is given back"}
    assert start == {"type": "start_clocks", "t": 40, "by": "arbiter", "reason": "back"}
    assert new.state.clock.remaining(40_000, "black") == live.game.state.clock.remaining(10_000, "black")
    live.game = new
    assert rules.given_back_since(live.game, live.created_at, T0 + 10)
    over = live_game()
    play(over, {"type": "resign", "t": 1, "by": "white"})
    assert rules.interruption(over, T0 + 10, T0 + 40, "away", "back") is None  # no clock ran
    unlimited = live_game({**START, "time_control": "-"})
    assert rules.interruption(unlimited, T0 + 10, T0 + 40, "away", "back") is None
    scheduled = live_game(presence=True)
    assert rules.postponed_start(scheduled, T0 - 5, T0 + 1, 10.0) == round(T0 + 1 + 10.0, 3)
    assert rules.postponed_start(scheduled, T0 + 1, T0 + 1.5, 10.0) == round(T0 + 1.5 + 10.0 - 1, 3)
    assert rules.postponed_start(scheduled, T0 - 20, T0 - 10, 10.0) is None  # its start still to come
    assert rules.postponed_start(live_game(), T0 - 5, T0 + 1, 10.0) is None  # not a scheduled start

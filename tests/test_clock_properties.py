"""Property tests for the clock and the time-control syntax (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesslaws.clock import Clock, ClockError
from chesslaws.timecontrol import Color, DelayKind, Period, TimeControl

SIDES: tuple[Color, Color] = ("white", "black")


def other(side: Color) -> Color:
    return "black" if side == "white" else "white"


# ----------------------------------------------------------------- strategies


@st.composite
def periods(draw: st.DrawFn, *, last: bool) -> Period:
    moves = draw(st.none() | st.integers(1, 60)) if last else draw(st.integers(1, 60))
    ms = draw(st.integers(0, 3) | st.integers(0, 10_800_000))
    increment = draw(st.sampled_from([0, 0, 1, 2_000, 30_000]) | st.integers(0, 60_000))
    delay: DelayKind = draw(st.sampled_from(["none", "simple", "bronstein"]))
    delay_ms = 0 if delay == "none" else draw(st.integers(0, 30_000))
    return Period(moves, ms, increment, delay_ms, delay)


@st.composite
def controls(draw: st.DrawFn) -> TimeControl:
    if draw(st.integers(0, 9)) == 0:
        return TimeControl(())
    head = draw(st.lists(periods(last=False), max_size=3))
    return TimeControl((*head, draw(periods(last=True))))


# one step of a game: what to try and how long after the previous step
STEP = st.tuples(
    st.sampled_from(["press", "press", "press", "stop", "resume", "start", "add", "set"]),
    st.integers(0, 400_000),
    st.sampled_from(SIDES),
    st.integers(-400_000, 400_000),
    st.integers(0, 400_000),
)


def run(control: TimeControl, steps: list[tuple[Any, ...]]) -> list[tuple[Clock, int]]:
    """Apply the steps that make sense; return every state with its time stamp."""
    c = Clock.new(control).start(0, "white")
    t = 0
    states = [(c, t)]
    for kind, dt, side, delta, ms in steps:
        t += dt
        if kind == "press" and c.running is not None:
            c = c.press(t, c.running)
        elif kind == "stop" and c.running is not None:
            c = c.stop(t)
        elif kind == "resume" and c.running is None and c.paused is not None:
            c = c.resume(t)
        elif kind == "start" and c.running is None:
            c = c.start(t, side)
        elif kind == "add":
            c = c.add_time(t, side, delta)
        elif kind == "set":
            c = c.set_times(t, ms, abs(delta))
        else:
            continue
        states.append((c, t))
    return states


# ------------------------------------------------------------------ the clock


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, max_size=40), st.integers(0, 2_000_000))
def test_remaining_never_negative(control: TimeControl, steps: list[tuple[Any, ...]], later: int) -> None:
    for c, t in run(control, steps):
        for side in SIDES:
            for at in (t, t + later // 3, t + later):
                left = c.remaining(at, side)
                if control.unlimited:
                    assert left is None
                else:
                    assert left is not None and left >= 0
                assert c.used(at, side) >= 0


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, max_size=40), st.integers(0, 2_000_000))
def test_remaining_is_what_the_clock_run_on_to_that_instant_shows(control: TimeControl, steps: list[tuple[Any, ...]],
                                                                 later: int) -> None:
    """``remaining`` computes a side's time at an instant without building the clock at that instant (a
    state's view asks for it at every move): it must equal that clock's, delays and flag falls included."""
    for c, t in run(control, steps):
        for side in SIDES:
            for at in (t, t + 1, t + later // 7, t + later // 3, t + later):
                expected = None if control.unlimited else c._advance(at)._remaining[0 if side == "white" else 1]
                assert c.remaining(at, side) == expected


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, max_size=40), st.integers(0, 2_000_000))
def test_time_runs_only_on_the_running_clock(control: TimeControl, steps: list[tuple[Any, ...]], later: int) -> None:
    for c, t in run(control, steps):
        for side in SIDES:
            now, then = c.remaining(t, side), c.remaining(t + later, side)
            if control.unlimited:
                continue
            assert now is not None and then is not None
            if c.running == side:
                assert then <= now
            else:
                assert then == now
            ran = c.used(t + later, side) - c.used(t, side)
            assert ran == (later if c.running == side else 0)


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, max_size=40))
def test_flag_time_is_the_exact_instant(control: TimeControl, steps: list[tuple[Any, ...]]) -> None:
    for c, t in run(control, steps):
        for side in SIDES:
            flag = c.flag_time(side)
            if flag is None:
                assert side not in c.fallen(t + 10_000_000)
                continue
            assert not control.unlimited
            if flag > t:
                assert c.running == side
                assert side not in c.fallen(flag - 1)
                # 1 ms left, or no main time at all while a simple delay runs
                left = c.remaining(flag - 1, side)
                period = control.periods[control.period_index(c.moves(side))]
                assert left == 1 or (left == 0 and period.delay == "simple")
            assert side in c.fallen(max(flag, t))
            assert c.remaining(max(flag, t), side) == 0
            order = c.fallen(max(flag, t) + 1)
            instants = [c.flag_time(s) for s in order]
            assert instants == sorted(instants)  # type: ignore[type-var]
            assert c.first_flag(max(flag, t) + 1) == (order[0], instants[0])


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(st.sampled_from(["press", "stop", "resume"]).flatmap(
    lambda k: st.tuples(st.just(k), st.integers(0, 900_000), st.just("white"), st.just(0), st.just(0))
), max_size=40))
def test_a_fallen_flag_stays_fallen(control: TimeControl, steps: list[tuple[Any, ...]]) -> None:
    seen: dict[Color, int] = {}
    for c, t in run(control, steps):
        for side in SIDES:
            if side in seen:
                assert side in c.fallen(t)
                assert c.flag_time(side) == seen[side]
                assert c.remaining(t, side) == 0
            elif side in c.fallen(t):
                flag = c.flag_time(side)
                assert flag is not None
                seen[side] = flag


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, max_size=30), st.integers(0, 100_000))
def test_pressing_twice_is_an_error(control: TimeControl, steps: list[tuple[Any, ...]], dt: int) -> None:
    for c, t in run(control, steps):
        if c.running is None:
            continue
        side = c.running
        pressed = c.press(t, side)
        with pytest.raises(ClockError):
            pressed.press(t + dt, side)
        with pytest.raises(ClockError):
            c.press(t + dt, other(side))


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, max_size=20), st.integers(0, 100_000), st.integers(-600_000, 600_000))
def test_zero_time_set_or_left_by_a_penalty_is_a_fallen_flag(
    control: TimeControl, steps: list[tuple[Any, ...]], w: int, delta: int
) -> None:
    c, t = run(control, steps)[-1]
    if control.unlimited:
        return
    s = c.set_times(t, w, 0)
    # (a flag that had fallen earlier keeps its instant, so the order may vary)
    assert set(s.fallen(t)) == ({"white", "black"} if w == 0 else {"black"})
    assert s.flag_time("black") is not None and s.flag_time("black") <= t
    a = c.add_time(t, "white", delta)
    left = a.remaining(t, "white")
    assert ("white" in a.fallen(t)) == (left == 0)
    if left == 0 and "white" not in c.fallen(t):
        assert a.flag_time("white") == t


@settings(max_examples=200, deadline=None)
@given(controls(), st.lists(STEP, min_size=1, max_size=20), st.integers(1, 100_000))
def test_time_stamps_never_go_back(control: TimeControl, steps: list[tuple[Any, ...]], back: int) -> None:
    c, t = run(control, steps)[-1]
    earlier = t - back
    calls = [
        lambda: c.remaining(earlier, "white"),
        lambda: c.used(earlier, "black"),
        lambda: c.fallen(earlier),
        lambda: c.add_time(earlier, "white", 1),
        lambda: c.set_times(earlier, 1, 1),
    ]
    if c.running is not None:
        calls += [lambda: c.press(earlier, c.running), lambda: c.stop(earlier)]  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(ClockError):
            call()


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 600_000),
    st.integers(0, 30_000),
    st.lists(st.integers(0, 120_000), min_size=1, max_size=30),
)
def test_simple_delay_never_creates_time(base: int, delay: int, thinks: list[int]) -> None:
    c = Clock.new(TimeControl((Period(None, base, 0, delay, "simple"),))).start(0, "white")
    t = 0
    for think in thinks:
        side = c.running
        assert side is not None
        before = c.remaining(t, side)
        assert before is not None
        t += think
        c = c.press(t, side)
        after = c.remaining(t, side)
        assert after is not None
        assert after <= before
        assert after == (0 if think >= before + delay else before - max(0, think - delay))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 600_000),
    st.integers(0, 30_000),
    st.lists(st.integers(0, 120_000), min_size=1, max_size=30),
)
def test_bronstein_gives_back_at_most_the_delay(base: int, delay: int, thinks: list[int]) -> None:
    c = Clock.new(TimeControl((Period(None, base, 0, delay, "bronstein"),))).start(0, "white")
    t = 0
    for think in thinks:
        side = c.running
        assert side is not None
        before = c.remaining(t, side)
        assert before is not None
        t += think
        c = c.press(t, side)
        after = c.remaining(t, side)
        assert after is not None
        assert after <= before
        assert after == (0 if think >= before else before - think + min(think, delay))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 600_000), st.integers(0, 60_000), st.lists(st.integers(0, 120_000), min_size=1, max_size=30))
def test_increment_after_each_move_unless_fallen(base: int, inc: int, thinks: list[int]) -> None:
    c = Clock.new(TimeControl((Period(None, base, inc),))).start(0, "white")
    t = 0
    for think in thinks:
        side = c.running
        assert side is not None
        before = c.remaining(t, side)
        assert before is not None
        t += think
        c = c.press(t, side)
        assert c.remaining(t, side) == (0 if think >= before else before - think + inc)


@st.composite
def plain_controls(draw: st.DrawFn) -> TimeControl:
    """Periods without increments or delays: the clock is pure bookkeeping."""
    head = draw(st.lists(st.builds(Period, st.integers(1, 8), st.integers(1, 100_000)), max_size=3))
    last = draw(st.builds(Period, st.none() | st.integers(1, 8), st.integers(1, 100_000)))
    return TimeControl((*head, last))


@settings(max_examples=200, deadline=None)
@given(plain_controls(), st.lists(st.integers(0, 30_000), min_size=1, max_size=80))
def test_carry_over_model(control: TimeControl, thinks: list[int]) -> None:
    """Remaining = every period's time received so far - time used, until the flag."""
    c = Clock.new(control).start(0, "white")
    t = 0
    for think in thinks:
        side = c.running
        assert side is not None
        t += think
        c = c.press(t, side)
    for side in SIDES:
        n = c.moves(side)
        received = control.periods[0].ms + sum(
            p.ms for k in range(1, n + 1) if (p := control.added_after(k)) is not None
        )
        if side in c.fallen(t):
            assert c.remaining(t, side) == 0
        else:
            assert c.remaining(t, side) == received - c.used(t, side)
    assert c.moves("white") + c.moves("black") == len(thinks)
    assert c.used(t, "white") + c.used(t, "black") == t


# ---------------------------------------------------------- the syntax


@settings(max_examples=200, deadline=None)
@given(controls())
def test_parse_str_round_trip(control: TimeControl) -> None:
    assert TimeControl.parse(str(control)) == control


@settings(max_examples=200, deadline=None)
@given(controls())
def test_pgn_round_trip_when_it_can_be_said(control: TimeControl) -> None:
    written = control.to_pgn()
    if written is not None:
        assert TimeControl.from_pgn(written) == control
        assert all(p.delay == "none" for p in control.periods)


@settings(max_examples=200, deadline=None)
@given(controls(), st.integers(0, 500))
def test_period_index_in_range(control: TimeControl, moves: int) -> None:
    index = control.period_index(moves)
    if control.unlimited:
        assert index == 0
    else:
        assert 0 <= index < len(control.periods)
        assert control.period_index(moves + 1) >= index

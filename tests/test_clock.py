"""The chess clock: exact milliseconds for every mode."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from chesslaws.clock import Clock, ClockError
from chesslaws.errors import WrongState
from chesslaws.timecontrol import Color, TimeControl

Op = tuple[Any, ...]


def clock(spec: str) -> Clock:
    return Clock.new(TimeControl.parse(spec))


def apply(c: Clock, ops: list[Op]) -> Clock:
    for name, *args in ops:
        c = getattr(c, name)(*args)
    return c


def play(spec: str, ops: list[Op]) -> Clock:
    return apply(clock(spec), ops)


def other(side: Color) -> Color:
    return "black" if side == "white" else "white"


def presses(t: int, first: Color, thinks: list[int]) -> list[Op]:
    """Alternate presses, ``first`` pressing first, each after its think time."""
    ops: list[Op] = []
    side = first
    for think in thinks:
        t += think
        ops.append(("press", t, side))
        side = other(side)
    return ops


# ------------------------------------------------- remaining after a sequence

# id, control, operations, instant asked, white ms, black ms, white moves, black moves
SCENARIOS: list[tuple[str, str, list[Op], int, int, int, int, int]] = [
    (
        "new-clock",
        "40/5400:1800",
        [],
        0,
        5_400_000,
        5_400_000,
        0,
        0,
    ),
    (
        "first-moves",
        "40/7200:1800",
        [("start", 0, "white"), *presses(0, "white", [5_000, 4_000, 11_000, 11_000, 9_000, 22_000, 8_000])],
        70_000,
        7_167_000,
        7_163_000,
        4,
        3,
    ),
    (
        "before-the-control-no-carry-over",
        "40/5400:1800",
        [("start", 0, "white"), *presses(0, "white", [100_000, 50_000] * 39)],
        39 * 150_000 + 99_000,
        1_401_000,
        5_400_000 - 39 * 50_000,
        39,
        39,
    ),
    (
        "carry-over-after-move-40",
        "40/5400:1800",
        [("start", 0, "white"), *presses(0, "white", [100_000, 50_000] * 40)],
        40 * 150_000,
        5_400_000 - 4_000_000 + 1_800_000,
        5_400_000 - 2_000_000 + 1_800_000,
        40,
        40,
    ),
    (
        "white-past-the-control-black-not-yet",
        "40/5400:1800",
        [("start", 0, "white"), *presses(0, "white", [100_000, 50_000] * 39 + [100_000])],
        39 * 150_000 + 100_000,
        3_200_000,
        3_450_000,
        40,
        39,
    ),
    (
        "repeating-moves-period-59",
        "40/7200:20/3600",
        [("start", 0, "white"), *presses(0, "white", [10_000] * 118)],
        1_180_000,
        7_200_000 - 590_000 + 3_600_000,
        7_200_000 - 590_000 + 3_600_000,
        59,
        59,
    ),
    (
        "repeating-moves-period-60",
        "40/7200:20/3600",
        [("start", 0, "white"), *presses(0, "white", [10_000] * 120)],
        1_200_000,
        7_200_000 - 600_000 + 2 * 3_600_000,
        7_200_000 - 600_000 + 2 * 3_600_000,
        60,
        60,
    ),
    (
        "repeating-moves-period-80",
        "40/7200:20/3600",
        [("start", 0, "white"), *presses(0, "white", [10_000] * 160)],
        1_600_000,
        17_200_000,
        17_200_000,
        80,
        80,
    ),
    (
        "three-periods-last-is-sudden-death",
        "40/7200:20/3600:1800",
        [("start", 0, "white"), *presses(0, "white", [10_000] * 200)],
        2_000_000,
        7_200_000 - 1_000_000 + 3_600_000 + 1_800_000,
        7_200_000 - 1_000_000 + 3_600_000 + 1_800_000,
        100,
        100,
    ),
    (
        "single-repeating-period",
        "2/60",
        [("start", 0, "white"), *presses(0, "white", [10_000] * 8)],
        80_000,
        60_000 - 40_000 + 2 * 60_000,
        60_000 - 40_000 + 2 * 60_000,
        4,
        4,
    ),
    (
        "increment-added-after-the-move",
        "300+2",
        [("start", 0, "white"), ("press", 10_000, "white"), ("press", 25_000, "black")],
        25_000,
        292_000,
        287_000,
        1,
        1,
    ),
    (
        "increment-not-while-thinking",
        "300+2",
        [("start", 0, "white"), ("press", 10_000, "white")],
        40_000,
        292_000,
        270_000,
        1,
        0,
    ),
    (
        "increment-per-period",
        "2/60+1:60+5",
        [("start", 0, "white"), *presses(0, "white", [10_000, 20_000] * 3)],
        90_000,
        97_000,
        67_000,
        3,
        3,
    ),
    (
        "increment-both-periods-40-5400+30-1800+30",
        "40/5400+30:1800+30",
        [("start", 0, "white"), *presses(0, "white", [60_000] * 82)],
        82 * 60_000,
        5_970_000,
        5_970_000,
        41,
        41,
    ),
    (
        "simple-delay-never-adds",
        "60d5",
        [("start", 0, "white"), *presses(0, "white", [3_000, 5_000, 8_000, 5_001])],
        21_001,
        57_000,
        59_999,
        2,
        2,
    ),
    (
        "simple-delay-and-increment",
        "60+2d5",
        [("start", 0, "white"), *presses(0, "white", [8_000, 1_000])],
        9_000,
        59_000,
        62_000,
        1,
        1,
    ),
    (
        "bronstein-gives-back-at-most-the-delay",
        "60b5",
        [("start", 0, "white"), *presses(0, "white", [3_000, 5_000, 8_000, 5_001])],
        21_001,
        57_000,
        59_999,
        2,
        2,
    ),
    (
        "bronstein-and-increment",
        "60+2b5",
        [("start", 0, "white"), *presses(0, "white", [8_000, 1_000])],
        9_000,
        59_000,
        62_000,
        1,
        1,
    ),
    (
        "bronstein-per-period",
        "1/60b5:60b1",
        [("start", 0, "white"), *presses(0, "white", [3_000, 3_000, 3_000, 3_000])],
        12_000,
        60_000 + 60_000 - 2_000,
        60_000 + 60_000 - 2_000,
        2,
        2,
    ),
    (
        "simple-delay-per-period",
        "1/60:60d5",
        [("start", 0, "white"), *presses(0, "white", [3_000, 3_000, 3_000, 3_000])],
        12_000,
        57_000 + 60_000,
        57_000 + 60_000,
        2,
        2,
    ),
]


@pytest.mark.parametrize(
    ("spec", "ops", "at", "white", "black", "white_moves", "black_moves"),
    [s[1:] for s in SCENARIOS],
    ids=[s[0] for s in SCENARIOS],
)
def test_scenario(
    spec: str, ops: list[Op], at: int, white: int, black: int, white_moves: int, black_moves: int
) -> None:
    c = play(spec, ops)
    assert (c.remaining(at, "white"), c.remaining(at, "black")) == (white, black)
    assert (c.moves("white"), c.moves("black")) == (white_moves, black_moves)
    assert c.fallen(at) == ()


def test_move_counter_and_period_across_controls() -> None:
    c = play("40/7200:20/3600:1800", [("start", 0, "white"), *presses(0, "white", [1_000] * 121)])
    assert c.moves("white") == 61
    assert c.moves("black") == 60
    assert c.control.period_index(c.moves("white")) == 2
    assert c.control.period_index(39) == 0
    assert c.running == "black"


# --------------------------------------------------- remaining during a turn

# id, control, operations, instant, side, remaining
DURING: list[tuple[str, str, list[Op], int, Color, int]] = [
    ("sudden-death", "300", [("start", 0, "white")], 12_345, "white", 287_655),
    ("not-running-side-frozen", "300", [("start", 0, "white")], 12_345, "black", 300_000),
    ("simple-delay-inside", "60d5", [("start", 0, "white")], 3_000, "white", 60_000),
    ("simple-delay-at-its-end", "60d5", [("start", 0, "white")], 5_000, "white", 60_000),
    ("simple-delay-after", "60d5", [("start", 0, "white")], 5_001, "white", 59_999),
    ("simple-delay-fresh-each-turn", "60d5", [("start", 0, "white"), ("press", 10_000, "white")], 14_000, "black", 60_000),
    ("bronstein-runs-during-the-turn", "60b5", [("start", 0, "white")], 3_000, "white", 57_000),
    ("simple-delay-at-start-after-start-at-1000", "60d5", [("start", 1_000, "white")], 7_000, "white", 59_000),
    ("simple-delay-survives-an-interruption", "60d5", [("start", 0, "white"), ("stop", 3_000), ("resume", 10_000)], 13_000, "white", 59_000),
    ("start-after-stop-is-a-fresh-turn", "60d5", [("start", 0, "white"), ("stop", 3_000), ("start", 10_000, "white")], 14_000, "white", 60_000),
    ("resume-is-not-a-fresh-turn", "60d5", [("start", 0, "white"), ("stop", 3_000), ("resume", 10_000)], 14_000, "white", 58_000),
    ("stopped-clock-does-not-run", "60", [("start", 0, "white"), ("stop", 10_000)], 50_000, "white", 50_000),
    ("resumed-clock-runs", "60", [("start", 0, "white"), ("stop", 10_000), ("resume", 50_000)], 60_000, "white", 40_000),
    ("later-start", "60", [("start", 5_000, "black")], 8_000, "black", 57_000),
]


@pytest.mark.parametrize(
    ("spec", "ops", "at", "side", "expected"), [d[1:] for d in DURING], ids=[d[0] for d in DURING]
)
def test_remaining_during_a_turn(spec: str, ops: list[Op], at: int, side: Color, expected: int) -> None:
    assert play(spec, ops).remaining(at, side) == expected


def test_bronstein_refund_counts_only_running_time() -> None:
    c = play("60b5", [("start", 0, "white"), ("stop", 2_000), ("resume", 100_000), ("press", 102_000, "white")])
    assert c.remaining(102_000, "white") == 60_000  # 4 s used, 4 s back
    c = play("60b5", [("start", 0, "white"), ("stop", 4_000), ("resume", 100_000), ("press", 103_000, "white")])
    assert c.remaining(103_000, "white") == 58_000  # 7 s used, 5 s back


# ------------------------------------------------------------ flag falls

# id, control, operations, side, flag instant
FLAG_TIMES: list[tuple[str, str, list[Op], Color, int]] = [
    ("sudden-death", "5400", [("start", 0, "white")], "white", 5_400_000),
    ("late-start", "300", [("start", 7_000, "white")], "white", 307_000),
    ("after-a-move-with-increment", "300+2", [("start", 0, "white"), ("press", 10_000, "white"), ("press", 20_000, "black")], "white", 20_000 + 292_000),
    ("black-running", "300+2", [("start", 0, "white"), ("press", 10_000, "white")], "black", 310_000),
    ("simple-delay-postpones", "60d5", [("start", 0, "white")], "white", 65_000),
    ("simple-delay-left-after-interruption", "60d5", [("start", 0, "white"), ("stop", 3_000), ("resume", 10_000)], "white", 72_000),
    ("bronstein-does-not", "60b5", [("start", 0, "white")], "white", 60_000),
    ("after-interruption", "60", [("start", 0, "white"), ("stop", 10_000), ("resume", 50_000)], "white", 100_000),
    ("penalty-brings-it-nearer", "300", [("start", 0, "white"), ("add_time", 20_000, "white", -100_000)], "white", 200_000),
    ("fallen-stays-at-its-instant", "60", [("start", 0, "white"), ("stop", 90_000)], "white", 60_000),
    ("zero-time", "0", [("start", 500, "white")], "white", 500),
]


@pytest.mark.parametrize(
    ("spec", "ops", "side", "instant"), [f[1:] for f in FLAG_TIMES], ids=[f[0] for f in FLAG_TIMES]
)
def test_flag_time_is_exact(spec: str, ops: list[Op], side: Color, instant: int) -> None:
    c = play(spec, ops)
    assert c.flag_time(side) == instant
    last = c.last_change
    assert last is not None
    if instant > last:
        assert c.remaining(instant - 1, side) == 1
        assert c.fallen(instant - 1) == ()
    assert c.fallen(max(instant, last)) == (side,)
    assert c.first_flag(max(instant, last)) == (side, instant)
    assert c.remaining(max(instant, last) + 1_000, side) == 0


def test_flag_time_none_when_it_cannot_fall() -> None:
    c = clock("300")
    assert c.flag_time("white") is None  # nobody running
    c = c.start(0, "white")
    assert c.flag_time("black") is None  # not running, time left
    c = c.stop(1_000)
    assert c.flag_time("white") is None  # stopped
    assert clock("-").start(0, "white").flag_time("white") is None  # no clock


def test_last_millisecond_belongs_to_the_player() -> None:
    c = clock("10+5").start(0, "white")
    assert c.remaining(9_999, "white") == 1
    assert c.press(9_999, "white").remaining(9_999, "white") == 5_001
    late = c.press(10_000, "white")  # a press at the flag instant is too late
    assert late.remaining(10_000, "white") == 0  # no increment after the fall
    assert late.moves("white") == 1  # the move is counted all the same
    assert late.running == "black"
    assert late.fallen(10_000) == ("white",)
    assert late.first_flag(10_000) == ("white", 10_000)
    assert late.remaining(99_000, "white") == 0  # and stays fallen


def test_no_carry_over_after_the_flag_fell() -> None:
    c = clock("1/10:60").start(0, "white")
    assert c.press(9_999, "white").remaining(9_999, "white") == 60_001
    late = c.press(10_000, "white")
    assert late.remaining(10_000, "white") == 0
    assert late.flag_time("white") == 10_000
    late = c.press(15_000, "white")
    assert late.remaining(15_000, "white") == 0
    assert late.flag_time("white") == 10_000


def test_no_bronstein_refund_after_the_flag_fell() -> None:
    c = clock("60b5").start(0, "white")
    assert c.press(59_999, "white").remaining(59_999, "white") == 5_001
    assert c.press(60_000, "white").remaining(60_000, "white") == 0


def test_simple_delay_flag() -> None:
    c = clock("60d5").start(0, "white")
    assert c.press(64_999, "white").remaining(64_999, "white") == 1
    late = c.press(65_000, "white")
    assert late.remaining(65_000, "white") == 0
    assert late.fallen(65_000) == ("white",)
    # the press at 60 s that would have lost under Bronstein is fine here
    assert c.press(60_000, "white").remaining(60_000, "white") == 5_000


def test_both_flags_black_first() -> None:
    c = clock("60").start(0, "white").press(10_000, "white")  # white 50 s left
    assert c.flag_time("black") == 70_000
    c = c.press(80_000, "black")  # after his flag fell
    assert c.remaining(80_000, "black") == 0
    assert c.flag_time("white") == 130_000
    assert c.fallen(129_999) == ("black",)
    assert c.fallen(130_000) == ("black", "white")
    assert c.first_flag(200_000) == ("black", 70_000)
    assert c.flag_time("black") == 70_000


def test_both_flags_white_first() -> None:
    c = clock("60").start(0, "white").press(60_000, "white")  # white fell at 60 s
    assert c.first_flag(60_000) == ("white", 60_000)
    assert c.fallen(119_999) == ("white",)
    assert c.fallen(120_000) == ("white", "black")
    assert c.first_flag(120_000) == ("white", 60_000)


def test_both_flags_set_to_zero_at_once() -> None:
    c = clock("60").start(0, "white").set_times(5_000, 0, 0)
    assert c.fallen(5_000) == ("white", "black")
    assert c.first_flag(5_000) == ("white", 5_000)


def test_fallen_and_first_flag_empty() -> None:
    c = clock("60").start(0, "white")
    assert c.fallen(59_999) == ()
    assert c.first_flag(59_999) is None


# --------------------------------------------------------- interruptions


def test_interruption() -> None:
    c = clock("60").start(0, "white").stop(10_000)
    assert c.running is None
    assert c.paused == "white"
    assert c.remaining(50_000, "white") == 50_000
    assert c.used(50_000, "white") == 10_000
    c = c.resume(50_000)
    assert c.running == "white"
    assert c.paused is None
    assert c.remaining(60_000, "white") == 40_000
    assert c.used(60_000, "white") == 20_000
    assert c.used(60_000, "black") == 0
    c = c.press(60_000, "white")
    assert c.remaining(70_000, "black") == 50_000


def test_stop_and_start_the_other_clock() -> None:
    c = clock("60").start(0, "white").stop(10_000).start(20_000, "black")
    assert c.running == "black"
    assert c.paused is None
    assert c.remaining(30_000, "white") == 50_000
    assert c.remaining(30_000, "black") == 50_000
    assert c.moves("white") == 0


def test_press_then_stop_like_a_sealed_move() -> None:
    c = clock("40/7200:1800").start(0, "white").press(100_000, "white").stop(100_000)
    assert c.moves("white") == 1
    assert c.paused == "black"
    c = c.resume(1_000_000)
    assert c.remaining(1_000_500, "black") == 7_199_500


# -------------------------------------------------------------- penalties


def test_add_time() -> None:
    c = clock("300").start(0, "white")
    c = c.add_time(10_000, "black", 120_000)
    assert c.remaining(10_000, "black") == 420_000
    assert c.remaining(10_000, "white") == 290_000
    c = c.add_time(20_000, "white", -100_000)
    assert c.remaining(20_000, "white") == 180_000
    assert c.flag_time("white") == 200_000
    c = c.add_time(30_000, "white", -1_000_000)  # never below 0
    assert c.remaining(30_000, "white") == 0
    assert c.fallen(30_000) == ("white",)
    assert c.flag_time("white") == 30_000
    c = c.add_time(40_000, "white", -5_000)  # already fallen: keeps its instant
    assert c.flag_time("white") == 30_000
    c = c.add_time(40_000, "white", 60_000)  # time given back: flag up again
    assert c.fallen(40_000) == ()
    assert c.remaining(40_000, "white") == 60_000
    assert c.flag_time("white") == 100_000


def test_add_time_to_exactly_zero_on_the_waiting_side() -> None:
    c = clock("300").start(0, "white").add_time(10_000, "black", -300_000)
    assert c.remaining(10_000, "black") == 0
    assert c.fallen(10_000) == ("black",)
    assert c.first_flag(20_000) == ("black", 10_000)
    assert c.flag_time("black") == 10_000


def test_add_time_while_running_with_simple_delay() -> None:
    c = clock("60d5").start(0, "white").add_time(2_000, "white", 10_000)
    assert c.remaining(4_000, "white") == 70_000  # still inside the delay
    assert c.flag_time("white") == 75_000


def test_penalty_1997_incorrect_claim_example() -> None:
    # 1997 9.5(b): half the claimant's time, at most 3 minutes; 3 minutes to the opponent
    c = play("5400", [("start", 0, "white"), ("press", 10_000, "white"), ("press", 20_000, "black")])
    c = c.stop(30_000).add_time(30_000, "white", -180_000).add_time(30_000, "black", 180_000)
    c = c.resume(30_000).press(30_000, "white")
    assert c.remaining(30_000, "white") == 5_200_000
    assert c.remaining(30_000, "black") == 5_570_000
    assert c.running == "black"


# --------------------------------------------------------------- set_times


def test_set_times() -> None:
    c = clock("300").start(0, "white").press(10_000, "white")
    c = c.set_times(20_000, 100_000, 200_000)
    assert c.running == "black"
    assert c.remaining(30_000, "black") == 190_000
    assert c.remaining(30_000, "white") == 100_000
    assert c.flag_time("black") == 220_000
    c = c.set_times(40_000, 0, 50_000)
    assert c.fallen(40_000) == ("white",)
    assert c.flag_time("white") == 40_000
    c = c.set_times(50_000, 10_000, 50_000)
    assert c.fallen(50_000) == ()
    assert c.flag_time("black") == 100_000
    assert c.moves("white") == 1


def test_set_times_to_zero_keeps_an_earlier_fall() -> None:
    c = clock("300").start(0, "white").set_times(400_000, 0, 300_000)
    assert c.first_flag(400_000) == ("white", 300_000)


# -------------------------------------------------------------- no clock


def test_unlimited() -> None:
    c = clock("-").start(0, "white").press(10_000, "white").press(30_000, "black")
    t = 10_000_000
    assert c.remaining(t, "white") is None
    assert c.remaining(t, "black") is None
    assert c.fallen(t) == ()
    assert c.first_flag(t) is None
    assert c.flag_time("white") is None
    assert (c.moves("white"), c.moves("black")) == (1, 1)
    assert c.used(t, "white") == 10_000 + (t - 30_000)
    assert c.used(t, "black") == 20_000
    c = c.add_time(t, "white", -999_999_999).set_times(t, 0, 0)
    assert c.remaining(t, "white") is None
    assert c.fallen(t + 1) == ()
    assert c.control.unlimited


# ------------------------------------------------------------------ errors

BAD: list[tuple[str, str, list[Op], Op]] = [
    ("press-before-start", "300", [], ("press", 0, "white")),
    ("press-out-of-turn", "300", [("start", 0, "white")], ("press", 10, "black")),
    ("press-twice", "300", [("start", 0, "white"), ("press", 10, "white")], ("press", 20, "white")),
    ("press-twice-same-instant", "300", [("start", 0, "white"), ("press", 10, "white")], ("press", 10, "white")),
    ("press-while-stopped", "300", [("start", 0, "white"), ("stop", 10)], ("press", 20, "white")),
    ("press-after-flag-twice", "60", [("start", 0, "white"), ("press", 90_000, "white")], ("press", 90_001, "white")),
    ("stop-nothing-running", "300", [], ("stop", 0)),
    ("stop-twice", "300", [("start", 0, "white"), ("stop", 10)], ("stop", 20)),
    ("resume-nothing-stopped", "300", [], ("resume", 0)),
    ("resume-while-running", "300", [("start", 0, "white")], ("resume", 10)),
    ("resume-twice", "300", [("start", 0, "white"), ("stop", 10), ("resume", 20)], ("resume", 30)),
    ("start-while-running", "300", [("start", 0, "white")], ("start", 10, "black")),
    ("earlier-press", "300", [("start", 100, "white")], ("press", 50, "white")),
    ("earlier-stop", "300", [("start", 100, "white")], ("stop", 99)),
    ("earlier-start", "300", [("start", 100, "white"), ("stop", 200)], ("start", 150, "black")),
    ("earlier-add-time", "300", [("start", 100, "white")], ("add_time", 99, "white", 1)),
    ("earlier-set-times", "300", [("start", 100, "white")], ("set_times", 99, 1, 1)),
    ("earlier-remaining", "300", [("start", 100, "white")], ("remaining", 99, "white")),
    ("earlier-used", "300", [("start", 100, "white")], ("used", 99, "white")),
    ("earlier-fallen", "300", [("start", 100, "white")], ("fallen", 99)),
    ("earlier-first-flag", "300", [("start", 100, "white")], ("first_flag", 99)),
    ("negative-set-times", "300", [("start", 0, "white")], ("set_times", 10, -1, 100)),
    ("bad-side", "300", [], ("start", 0, "red")),
    ("float-time", "300", [], ("start", 1.5, "white")),
    ("bool-time", "300", [], ("start", True, "white")),
    ("unlimited-press-twice", "-", [("start", 0, "white"), ("press", 10, "white")], ("press", 20, "white")),
    ("unlimited-earlier", "-", [("start", 100, "white")], ("press", 50, "white")),
]


@pytest.mark.parametrize(("spec", "ops", "bad"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_errors(spec: str, ops: list[Op], bad: Op) -> None:
    c = play(spec, ops)
    name, *args = bad
    with pytest.raises(ClockError):
        getattr(c, name)(*args)


def test_clock_error_is_wrong_state() -> None:
    assert issubclass(ClockError, WrongState)


def test_error_messages_say_what_is_wrong() -> None:
    c = clock("300").start(0, "white").press(10, "white")
    with pytest.raises(ClockError, match="black's clock is running"):
        c.press(20, "white")
    with pytest.raises(ClockError, match="earlier than the last change at 10"):
        c.press(5, "black")


# ------------------------------------------------------------- immutability


def test_immutable() -> None:
    c0 = clock("300").start(0, "white")
    c1 = c0.press(10_000, "white")
    assert c0.running == "white"
    assert c0.moves("white") == 0
    assert c0.remaining(10_000, "white") == 290_000
    assert c0.remaining(10_000, "black") == 300_000
    assert c1.running == "black"
    with pytest.raises(dataclasses.FrozenInstanceError):
        c1._running = "white"  # type: ignore[misc]


def test_queries_do_not_move_time_forward() -> None:
    c = clock("300").start(0, "white")
    assert c.remaining(200_000, "white") == 100_000
    assert c.remaining(1_000, "white") == 299_000
    assert c.fallen(400_000) == ("white",)
    assert c.fallen(1_000) == ()
    assert c.last_change == 0


def test_new_clock() -> None:
    c = clock("40/5400+30:1800")
    assert c.running is None
    assert c.paused is None
    assert c.last_change is None
    assert c.remaining(0, "white") == 5_400_000
    assert c.remaining(123_456, "black") == 5_400_000
    assert c.control == TimeControl.parse("40/5400+30:1800")
    assert c.used(0, "white") == 0

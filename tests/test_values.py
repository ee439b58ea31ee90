"""chesslaws._values.replace: the fast copy of the hot path's immutable values is the same value as
dataclasses.replace gives, refuses unknown fields, and leaves validating classes to dataclasses."""

from __future__ import annotations

import dataclasses

import pytest

from chesslaws._values import replace
from chesslaws.game import Game


def test_the_copy_equals_dataclasses_replace_for_a_game_state_and_a_clock() -> None:
    g = Game.from_start({"type": "start", "t": 0, "edition": "2023", "time_control": "5400+30"})
    g = g.apply({"type": "move", "t": 3, "by": "white", "move": "e4"})
    st = g.state
    fast = replace(st, t_ms=9000)
    slow = dataclasses.replace(st, t_ms=9000)
    assert fast == slow and fast is not st and st.t_ms != 9000
    assert all(getattr(fast, f.name) is getattr(slow, f.name) for f in dataclasses.fields(st) if f.name != "t_ms")
    clock = st.clock
    assert replace(clock) == clock and replace(clock) is not clock


def test_an_unknown_field_is_refused_as_dataclasses_does() -> None:
    st = Game.from_start({"type": "start", "t": 0}).state
    with pytest.raises(TypeError, match="no field 'colour'"):
        replace(st, colour="white")
    with pytest.raises(TypeError, match="no field 'white_ms'"):
        replace(st.clock, white_ms=1)


def test_a_class_that_validates_goes_through_its_init() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("n must be positive")

    with pytest.raises(ValueError, match="positive"):
        replace(Positive(1), n=-1)
    assert replace(Positive(1), n=2) == Positive(2)

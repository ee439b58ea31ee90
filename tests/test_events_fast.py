"""parse_event reads a plain move at once: the event is the one the general reader gives, and anything
else (other fields, wrong types, a bad t, a bad side) goes to the general reader and its errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from chesslaws.events import Event, EventError, _parse_any, parse_event


def _same(a: Event, b: Event) -> None:
    assert (a.type, a.t_ms, a.by, dict(a.fields)) == (b.type, b.t_ms, b.by, dict(b.fields))
    assert type(a.fields) is type(b.fields)
    assert a.fields._names is b.fields._names  # type: ignore[attr-defined]


def _outcome(fn: Any, obj: Any) -> Any:
    try:
        return fn(obj)
    except EventError as err:
        return ("error", str(err), err.field)


MOVES: list[Any] = ["e4", "g1f3", "O-O", "exd8=Q+", "", " e4 ", "x" * 40, 5, None, True, ["e4"]]
TS: list[Any] = [0, 1, 1.5, 2.0004, 12345.678, -1, float("nan"), float("inf"), True, "3", None, 10**20]
BYS: list[Any] = ["white", "black", "arbiter", None, "White", 1]


def test_a_plain_move_is_the_event_the_general_reader_gives() -> None:
    parse_event({"type": "move", "t": 0, "by": "white", "move": "e4"})  # the shared field names exist
    rng = random.Random(27)
    for _ in range(3000):
        obj: dict[str, Any] = {"type": "move", "t": rng.choice(TS), "by": rng.choice(BYS), "move": rng.choice(MOVES)}
        for key in ("t", "by", "move"):
            if rng.random() < 0.05:
                del obj[key]
        if rng.random() < 0.1:
            obj[rng.choice(["offer_draw", "press", "rid", "extra"])] = rng.choice([True, False, "x"])
        fast, slow = _outcome(parse_event, obj), _outcome(_parse_any, obj)
        if isinstance(slow, tuple):
            assert fast == slow, obj
        else:
            assert isinstance(fast, Event), obj
            _same(fast, slow)


def test_the_fast_path_keeps_the_general_readers_errors() -> None:
    for obj in ({"type": "move", "t": -1, "by": "white", "move": "e4"},
                {"type": "move", "t": 1, "by": "arbiter", "move": "e4"},
                {"type": "move", "t": 1, "by": "white", "move": 4}):
        with pytest.raises(EventError):
            parse_event(obj)

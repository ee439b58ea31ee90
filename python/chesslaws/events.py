"""Events of the game log (``docs/game-log.md``), read and checked.

:func:`parse_event` turns one JSON object into an :class:`Event`, or raises
:class:`EventError` naming the field that is wrong. Which fields each event
type takes is data (:data:`SCHEMAS`), not code.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Literal, Mapping, cast

from chesslaws._packed import NO_TEXT, Shared, View, text_id, text_of

from chesslaws.errors import InvalidInput

Actor = Literal["white", "black", "arbiter"]

#: t is at most this many seconds (about 31 years): far past any session, and past the longest
#: correspondence game (chess.com's "daily" games last months; ``start``'s ``days_per_move``).
MAX_T = 1_000_000_000.0

#: The largest clock value an event may set, in milliseconds (100 days): far past any time control,
#: and exactly representable everywhere a state is read (a browser's numbers stop at 2**53).
MAX_CLOCK_MS = 8_640_000_000

#: The largest time one penalty may add or take, in seconds (one day).
MAX_PENALTY_S = 86_400.0

#: The range of every numeric field, by name (inclusive): a value outside is refused before it is
#: stored, so that every log the server accepts can be replayed and its clock scheduled.
RANGES: Mapping[str, tuple[float, float]] = MappingProxyType({
    "white_ms": (0, MAX_CLOCK_MS),
    "black_ms": (0, MAX_CLOCK_MS),
    "seconds": (0, MAX_PENALTY_S),
    "session_end": (0, MAX_T),
    "default_time": (0, MAX_T),
    "abort_after": (0, MAX_T),
    "days_per_move": (0.001, 365),  # a correspondence game's time for each move
    "fifty_move_limit": (1, 1000),
    "start_position": (0, 959),  # Chess960 starting positions (2023 Guidelines II.2)
    "plies": (0, 100_000),
    "ruling": (1, 1_000_000),  # an appeal's: the number of a ruling of the state
    "appealed": (1, 1_000_000),
    "no_draw_before_move": (1, 1000),  # the regulations' number of moves before which no draw is agreed (2023 9.1.1)
})


class EventError(InvalidInput):
    """An event that cannot be read: a missing or wrong field, an unknown type."""

    def __init__(self, message: str, *, field: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.line = line


@dataclass(frozen=True, slots=True)
class Schema:
    """What one event type takes."""

    by: Literal["player", "arbiter", "none", "any"]
    required: Mapping[str, type | tuple[type, ...]] = field(default_factory=dict)
    optional: Mapping[str, type | tuple[type, ...]] = field(default_factory=dict)
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


_COLOR = ("white", "black")
#: The arbiter's penalties (1989 16.5, 1997 13.4 (a)-(e), 2023 12.9.1-12.9.9).
_PENALTIES = ("warning", "add_time", "reduce_time", "opponent_points", "reduce_points", "loss", "fine",
              "exclusion", "expulsion")
#: What a claim may rely on alone: ``"display"``, a screen, monitor, demonstration board or a clock's move
#: counter (2023 6.12.2, 1997 6.14: no claim may rely only on them).
_RELYING_ON = ("display",)
_PENALTY_FIELDS: Mapping[str, type | tuple[type, ...]] = {
    "seconds": (int, float),  # add_time, reduce_time
    "points": (int, float),  # reduce_points: the offender's new score
    "opponent_score": (int, float),  # loss (2023 12.9.6): the opponent's score, if not 1
    "amount": str,  # fine
    "rounds": int,  # exclusion
    "reason": str,
}

SCHEMAS: Mapping[str, Schema] = MappingProxyType(
    {
        "start": Schema(
            by="none",
            optional={
                "edition": (str, int),
                "time_control": str,
                "mode": str,
                "arbiter": str,
                "white": str,
                "black": str,
                "fen": str,
                "default_time": (int, float),
                "fifty_move_limit": int,
                "absent": list,
                "event": str,
                "site": str,
                "date": str,
                "round": str,
                "quickplay_guidelines": bool,
                "supervision": str,
                "device_penalty": str,
                "visually_disabled": list,
                "variant": str,
                "start_position": int,
                "clock": str,
                "assistant": list,
                "hearing_impaired": list,
                "arbiter_is_a_player": bool,
                "wait": str,
                "abort_after": (int, float),
                "scheduled": bool,
                "setup": str,
                "no_draw_offers": bool,
                "no_draw_before_move": int,
                "report_leaving": bool,
                "increment_possible": bool,
                "days_per_move": (int, float),
            },
            choices={
                "edition": ("1989", "1997", "2023"),
                "wait": ("players", "arbiter"),
                "variant": ("standard", "chess960"),
                "mode": ("standard", "rapid", "blitz"),
                "arbiter": ("present", "absent", "occasional"),
                "supervision": ("full", "partial"),
                "device_penalty": ("loss", "lighter"),
                "clock": ("analogue", "digital"),
            },
        ),
        "move": Schema(by="player", required={"move": str}, optional={"offer_draw": bool, "announced": str, "two_hands": bool,
                                                                      "press": bool, "assistant": bool}),
        "press_clock": Schema(by="player", optional={"assistant": bool}),
        "announce": Schema(by="player", required={"move": str}, optional={"assistant": bool}),
        "request_scoresheet": Schema(by="player", optional={"kind": str},
                                     choices={"kind": ("show", "blank", "moves_and_times")}),
        "observe": Schema(by="arbiter", required={"what": str},
                          choices={"what": ("flag", "illegal_move", "default_time")}),
        "request_increment": Schema(by="player"),
        "offer_draw": Schema(by="player"),
        "accept_draw": Schema(by="player"),
        "decline_draw": Schema(by="player"),
        "claim_draw": Schema(
            by="player",
            required={"reason": str},
            optional={"move": str, "grounds": str, "final_position": str, "relying_on": str},
            choices={"reason": ("threefold", "fifty", "quickplay"), "grounds": ("cannot_win", "no_effort", "both"),
                     "relying_on": _RELYING_ON},
        ),
        "claim_flag": Schema(by="player", optional={"assistant": bool, "relying_on": str},
                             choices={"relying_on": _RELYING_ON}),
        "claim_win": Schema(by="player", required={"reason": str}, optional={"move": str, "relying_on": str},
                            choices={"reason": ("illegal_move",), "relying_on": _RELYING_ON}),
        "resign": Schema(by="player"),
        "touch": Schema(by="player", required={"square": str}, optional={"piece": str},
                        choices={"piece": ("Q", "R", "B", "N")}),
        "release": Schema(by="player", required={"square": str}, optional={"from": str, "piece": str},
                          choices={"piece": ("Q", "R", "B", "N")}),
        "adjust": Schema(by="player", required={"square": str}),
        "displace": Schema(by="player", required={"squares": list}),
        "scoresheet": Schema(by="player", required={"plies": int}, optional={"assistant": bool}),
        "game_score": Schema(by="player", required={"moves": list}, optional={"assistant": bool}),
        "sign": Schema(by="player", required={"result": str}, choices={"result": ("1-0", "0-1", "1/2-1/2")}),
        "restore": Schema(by="any"),
        "claim_touch_move": Schema(by="player", optional={"assistant": bool}),
        "arrive": Schema(by="player"),
        "seal": Schema(
            by="player",
            required={"move": str},
            optional={"session_end": (int, float), "resumption": str, "language": str, "assistant": bool},
        ),
        "envelope_lost": Schema(by="arbiter", optional={"white_ms": int, "black_ms": int}),
        "claim_setup": Schema(
            by="player",
            required={"what": str},
            choices={"what": ("initial_position", "board", "clocks", "colours")},
        ),
        "resume": Schema(by="arbiter", optional={"white_ms": int, "black_ms": int, "present": list}),
        "stop_clocks": Schema(by="any", optional={"reason": str, "default_time_extended_ms": int}),
        "start_clocks": Schema(by="arbiter", optional={"reason": str}),
        "set_clocks": Schema(by="arbiter", required={"white_ms": int, "black_ms": int},
                             optional={"setting": bool, "schedule": bool}),
        "penalty": Schema(
            by="arbiter",
            required={"against": str, "kind": str},
            optional=_PENALTY_FIELDS,
            choices={"against": _COLOR, "kind": _PENALTIES},
        ),
        "conduct": Schema(
            by="arbiter",
            required={"against": str, "kind": str},
            optional={"penalty": str, **_PENALTY_FIELDS},
            choices={
                "against": _COLOR,
                "kind": ("device", "leave_area", "annoy", "information", "inspection_refused"),
                "penalty": _PENALTIES,
            },
        ),
        "reinstate": Schema(
            by="arbiter",
            required={"ply": int},
            optional={"white_ms": int, "black_ms": int, "reason": str, "proportional": bool},
        ),
        "decision": Schema(
            by="arbiter",
            required={"on": str, "ruling": str},
            optional={"reason": str, "extra_time": bool},
            choices={"ruling": ("draw", "postpone", "reject", "grant", "white_wins", "black_wins", "next_period",
                                "lapse")},
        ),
        "refuse_to_comply": Schema(
            by="arbiter", required={"against": str}, choices={"against": ("white", "black", "both")}
        ),
        "annul": Schema(by="arbiter", optional={"reason": str}),
        "begin": Schema(by="arbiter"),
        "leave_area": Schema(by="player", optional={"reported": bool, "permission": bool}),
        "reconstruct": Schema(by="arbiter", optional={"reason": str}),
        "request_explanation": Schema(by="player", optional={"about": str, "answer": str}),
        "appeal": Schema(by="player", required={"ruling": int}, optional={"reason": str}),
        "appeal_decision": Schema(
            by="arbiter",
            required={"ruling": str},
            optional={"appealed": int, "result": str, "reason": str},
            choices={"ruling": ("reject", "accept"), "result": ("1-0", "0-1", "1/2-1/2")},
        ),
    }
)


#: What :meth:`Fields.get` returns for a field left out, when asked by ``[]``.
_ABSENT = object()


class Fields(Mapping[str, Any]):
    """An event's fields: an immutable mapping, compact because a live game keeps every event of its
    log. The names are one tuple shared by every event with the same fields (``("move",)`` for a
    move); the values are the one value itself when there is one (a move's text), else a tuple:
    about a fifth of a dict behind a read-only proxy."""

    __slots__ = ("_names", "_values")

    _names: tuple[str, ...]
    _values: Any

    def __init__(self, fields: Mapping[str, Any] = MappingProxyType({})) -> None:
        names = tuple(fields)
        shared = _NAMES.get(names)
        if shared is None:
            shared = _NAMES[names] = tuple(sys.intern(n) for n in names) if len(_NAMES) < 4096 else names
        values = tuple(_compact(v) for v in fields.values())
        object.__setattr__(self, "_names", shared)
        object.__setattr__(self, "_values", values[0] if len(values) == 1 else values)

    @classmethod
    def _of(cls, names: tuple[str, ...], values: Any) -> Fields:
        """The fields of shared ``names`` (a tuple of :data:`_NAMES`) and their ``values`` as kept."""
        out = object.__new__(cls)
        object.__setattr__(out, "_names", names)
        object.__setattr__(out, "_values", values)
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("an event's fields cannot be changed")

    def _all(self) -> tuple[Any, ...]:
        return (self._values,) if len(self._names) == 1 else tuple(self._values)

    def __getitem__(self, name: str) -> Any:
        value = self.get(name, _ABSENT)
        if value is _ABSENT:
            raise KeyError(name)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        # (the lookup itself: a field left out, the common case, raises no KeyError)
        names = self._names
        if len(names) == 1:
            return self._values if names[0] == name else default
        for n, v in zip(names, self._values):
            if n == name:
                return v
        return default

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"Fields({dict(zip(self._names, self._all()))!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickled and copied as the mapping it is
        return (Fields, (dict(zip(self._names, self._all())),))


#: The tuples of field names, shared by the events that have the same fields (bounded: the schemas
#: allow few combinations; past the bound a new combination keeps its own tuple).
_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


def _compact(value: Any) -> Any:
    """A short string value (a move, a square, a reason's word) shared with every other equal one."""
    return sys.intern(value) if type(value) is str and len(value) <= 16 else value


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the log. ``t_ms`` is ``t`` in whole milliseconds."""

    type: str
    t_ms: int
    by: Actor | None
    fields: Mapping[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object, as it is written in a log."""
        out: dict[str, Any] = {"type": self.type, "t": ms_to_t(self.t_ms)}
        if self.by is not None:
            out["by"] = self.by
        fields = self.fields
        if type(fields) is Fields:  # its names and values at once (not key by key through the mapping)
            out.update(zip(fields._names, fields._all()))
        else:
            out.update(fields)
        return out


_MOVE = ("move",)
_MOVE_OFFER = ("move", "offer_draw")
_T_LIMIT = 1 << 45


class EventLog(View[Event]):
    """A game's log: a read-only sequence of :class:`Event`, shared by the successive games that
    extend it (:mod:`chesslaws._packed`). A move (its text, with or without a draw offer)
    is one word, read back as the event it was; any other event is kept as it is. The log keeps its
    last event as it came, the one a server reads after each (the acknowledgement, the store)."""

    __slots__ = ("_last",)

    _last: Event | None

    def __init__(self, buf: Shared, n: int, last: Event | None = None) -> None:
        super().__init__(buf, n)
        object.__setattr__(self, "_last", last)

    @classmethod
    def of(cls, events: Iterable[Event] = ()) -> EventLog:
        log = cls(Shared(1), 0)
        for ev in events:
            log = log.appended(ev)
        return log

    def appended(self, ev: Event) -> EventLog:
        """This log and ``ev`` after it."""
        n = self._n
        fields = ev.fields
        if ev.type == "move" and type(fields) is Fields and 0 <= ev.t_ms < _T_LIMIT:
            names = fields._names
            offer = names is _NAMES.get(_MOVE_OFFER) and fields._values[1] is True
            if names is _NAMES.get(_MOVE) or offer:
                text = text_id(fields["move"])
                if text != NO_TEXT:
                    word = 1 | (ev.by == "black") << 1 | offer << 2 | text << 3 | ev.t_ms << 19
                    return EventLog(self._buf.append_at(n, (word,)), n + 1, ev)
        return EventLog(self._buf.append_at(n, (0,), ev), n + 1, ev)

    def _entry(self, i: int) -> Event:
        if i == self._n - 1 and self._last is not None:
            return self._last
        word = self._buf.words[i]
        if not word & 1:
            return self._buf.object(i)  # type: ignore[no-any-return]
        text = text_of(word >> 3 & 0xFFFF)
        fields = (Fields._of(_NAMES[_MOVE_OFFER], (text, True)) if word & 4
                  else Fields._of(_NAMES[_MOVE], text))
        return Event("move", word >> 19, "black" if word & 2 else "white", fields)


def ms_to_t(ms: int) -> int | float:
    """Milliseconds back to the log's seconds (an int when whole)."""
    return ms // 1000 if ms % 1000 == 0 else ms / 1000


def t_to_ms(t: Any, *, field_name: str = "t") -> int:
    """The log's ``t`` (seconds, fractions allowed) in whole milliseconds."""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        raise EventError(f"{field_name!r} must be a number of seconds, not {t!r}", field=field_name)
    if not math.isfinite(t) or t < 0 or t > MAX_T:
        raise EventError(f"{field_name!r} must be between 0 and {MAX_T:g} seconds, not {t!r}", field=field_name)
    return round(t * 1000)


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false", list: "a list"}
    if isinstance(kind, tuple):
        if set(kind) == {int, float}:
            return "a number"
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def _check_type(name: str, value: Any, kind: type | tuple[type, ...]) -> None:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        raise EventError(f"field {name!r} must be {_type_name(kind)}, not {json.dumps(value)}", field=name)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = RANGES.get(name, (-math.inf, math.inf))
        if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
            shown = (repr(value) if isinstance(value, float) or abs(value) < 10**15
                     else f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits")
            raise EventError(f"field {name!r} must be between {low:.0f} and {high:.0f}, not {shown}", field=name)


def parse_event(obj: Any) -> Event:
    """Checks one log entry against its schema and returns it as an :class:`Event`."""
    # The commonest entry by far, a plain move ({"type": "move", "t": ..., "by": ..., "move": "..."}), read
    # at once; the same event as :func:`_parse_any` gives (``tests/test_events_fast.py`` holds the two equal).
    if type(obj) is dict and len(obj) == 4 and obj.get("type") == "move":
        move, by, names = obj.get("move"), obj.get("by"), _NAMES.get(_MOVE)
        if type(move) is str and (by == "white" or by == "black") and "t" in obj and names is not None:
            return Event("move", t_to_ms(obj["t"]), cast("Actor", sys.intern(by)), Fields._of(names, _compact(move)))
    return _parse_any(obj)


def _parse_any(obj: Any) -> Event:
    """:func:`parse_event` for any entry."""
    if not isinstance(obj, dict):
        raise EventError(f"an event must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise EventError("every event needs a 'type' (a string)", field="type")
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise EventError(f"unknown event type {kind!r}; known: {', '.join(sorted(SCHEMAS))}", field="type")
    if "t" not in obj:
        raise EventError(f"event {kind!r} has no 't' (seconds since the scheduled start)", field="t")
    t_ms = t_to_ms(obj["t"])
    by = obj.get("by")
    if schema.by == "player":
        if by not in _COLOR:
            raise EventError(f"event {kind!r} needs 'by': \"white\" or \"black\", not {json.dumps(by)}", field="by")
    elif schema.by == "arbiter":
        if by not in ("arbiter", None):
            raise EventError(f"event {kind!r} is the arbiter's: 'by' must be \"arbiter\", not {json.dumps(by)}", field="by")
        by = "arbiter"
    elif schema.by == "any":
        if by not in ("white", "black", "arbiter", None):
            raise EventError(f"'by' must be \"white\", \"black\" or \"arbiter\", not {json.dumps(by)}", field="by")
        by = by or "arbiter"
    elif by is not None:
        raise EventError(f"event {kind!r} takes no 'by'", field="by")
    fields: dict[str, Any] = {}
    for name, spec in schema.required.items():
        if name not in obj:
            raise EventError(f"event {kind!r} needs field {name!r}", field=name)
        _check_type(name, obj[name], spec)
        fields[name] = obj[name]
    for name, spec in schema.optional.items():
        if name in obj and obj[name] is not None:
            _check_type(name, obj[name], spec)
            fields[name] = obj[name]
    for name, allowed in schema.choices.items():
        if name in fields and str(fields[name]) not in allowed:
            raise EventError(
                f"field {name!r} of {kind!r} must be one of {', '.join(allowed)}, not {json.dumps(fields[name])}",
                field=name,
            )
    unknown = set(obj) - {"type", "t", "by"} - set(schema.required) - set(schema.optional)
    if unknown:
        raise EventError(f"event {kind!r} has unknown field(s): {', '.join(sorted(unknown))}", field=sorted(unknown)[0])
    actor = cast("Actor | None", by)
    return Event(type=sys.intern(kind), t_ms=t_ms, by=None if actor is None else cast("Actor", sys.intern(actor)),
                 fields=Fields(fields))


__all__ = ["MAX_CLOCK_MS", "EventLog", "Fields", "MAX_PENALTY_S", "RANGES", "SCHEMAS", "Actor", "Event", "EventError", "Schema", "ms_to_t", "parse_event", "t_to_ms"]

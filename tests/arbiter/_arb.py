"""Helpers for the arbiter tests: short narrative games written as logs.

Nothing here computes an expected value: clock values in the tests are
worked out by hand from the ``t`` of the events.
"""

from __future__ import annotations

from typing import Any, Iterable

from chesslaws.game import Game

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]  # back where we started after four plies


def start(**fields: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "start", "t": 0}
    ev.update(fields)
    return ev


def moves(sans: Iterable[str], *, t0: float = 0, step: float = 10, first: str = "white") -> list[dict[str, Any]]:
    """Alternating move events, the first at ``t0 + step``, one every ``step`` seconds."""
    out: list[dict[str, Any]] = []
    side = first
    t = t0
    for san in sans:
        t += step
        out.append({"type": "move", "t": t, "by": side, "move": san})
        side = "black" if side == "white" else "white"
    return out


def ev(type_: str, t: float, by: str | None = None, **fields: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": type_, "t": t}
    if by is not None:
        e["by"] = by
    e.update(fields)
    return e


def game(start_fields: dict[str, Any], *events: dict[str, Any] | list[dict[str, Any]]) -> Game:
    """Replays a start event then events (lists are flattened)."""
    flat: list[dict[str, Any]] = [start_fields]
    for e in events:
        if isinstance(e, list):
            flat.extend(e)
        else:
            flat.append(e)
    return Game.from_events(flat)


def last_ruling(g: Game) -> Any:
    assert g.state.rulings, "expected a ruling"
    return g.state.rulings[-1]


def summary(g: Game) -> tuple[str, str, str | None]:
    s = g.state
    return (s.status, s.result, s.termination)

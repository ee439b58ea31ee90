"""Stored rows as text and back: JSON written compactly (:func:`dumps`), and read so that no row stops the server.

A stored row that cannot be read (a body that is not JSON, or too deep, or with an integer beyond Python's
limit; a time that is not a time; a start rule that is not an object; a broken final state or heartbeat) is
never fatal: a log row is read as an :class:`UnreadableRow` (its game is set aside, named on standard error,
until the arbiter annuls it), a final state as none (the game is read from its log again), a time as none.
"""

from __future__ import annotations

import json
import logging
import math
import sys
from typing import Any

import orjson

from chesslaws.jsondepth import depth_ok

log = logging.getLogger("chesslaws.server")

#: How deep a stored row may nest before it is refused unread (an event is two levels deep).
MAX_ROW_DEPTH = 64


def dumps(value: Any) -> str:
    """Compact JSON, UTF-8 as it is: a stored row, and every message the server sends.
    orjson encodes a state several times faster than the standard library (and the store's thread holds
    the interpreter lock while it encodes); what orjson does not encode (an integer beyond 64 bits) the
    standard library does, in the same form."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class UnreadableRow(dict[str, Any]):
    """A stored row that cannot be read, in the place of what it should hold (an event, a start rule):
    empty, with the reason. A game's replay stops at such an event (the game is set aside)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def read_row(text: Any, what: str) -> Any:
    """A stored JSON text, or raises ValueError with the reason it cannot be read (``what`` names it)."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{what} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise ValueError(f"{what} is not text ({type(text).__name__})")
    if not depth_ok(text, MAX_ROW_DEPTH):  # (counts the brackets first: an exact scan only where needed)
        raise ValueError(f"{what} nests deeper than {MAX_ROW_DEPTH} levels")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} nests too deep") from None
    except ValueError as err:
        if "digits" in str(err) and not isinstance(err, json.JSONDecodeError):
            raise ValueError(f"{what} holds an integer of more than {sys.get_int_max_str_digits()} digits") from None
        raise ValueError(f"{what} is not JSON ({str(err)[:80]})") from None


def read_event(text: Any, seq: int) -> dict[str, Any]:
    """A stored log row: the event, or an :class:`UnreadableRow` naming why it cannot be read."""
    try:
        value = read_row(text, f"the stored row of event {seq}")
    except ValueError as err:
        return UnreadableRow(str(err))
    if not isinstance(value, dict):
        return UnreadableRow(f"the stored row of event {seq} is not a JSON object")
    return value


def read_rule(text: Any) -> dict[str, Any]:
    """A stored start rule (game_starts.rule), or an :class:`UnreadableRow` naming why it is unusable."""
    try:
        value = read_row(text, "its start rule (game_starts.rule)")
    except ValueError as err:
        return UnreadableRow(str(err))
    if not isinstance(value, dict):
        return UnreadableRow("its start rule (game_starts.rule) is not a JSON object")
    after = value.get("abort_after")
    if (not isinstance(value.get("waiting", False), bool) or not isinstance(value.get("scheduled", False), bool)
            or not (after is None or (isinstance(after, (int, float)) and not isinstance(after, bool)
                                      and math.isfinite(after) and after > 0))):
        return UnreadableRow("its start rule (game_starts.rule) has a field of the wrong kind")
    return value


def read_final(text: Any, game_id: str) -> dict[str, Any] | None:
    """A stored final state ({"view": ..., "summary": ...}), or None (noted in the server's log) if it
    cannot be read: the game is then read from its log again."""
    if text is None:
        return None
    try:
        value = read_row(text, f"the final state of game {game_id}")
    except ValueError as err:
        log.warning("%s; its log is read instead", err)
        return None
    if not (isinstance(value, dict) and isinstance(value.get("view"), dict)
            and isinstance(value.get("summary"), dict)):
        log.warning("the final state of game %s is not a view and a summary; its log is read instead", game_id)
        return None
    return value


def read_time(value: Any) -> float | None:
    """A stored instant (unix seconds), or None if it is not one (text, NaN, infinite, negative)."""
    if isinstance(value, bool):
        return None
    try:
        t = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return t if math.isfinite(t) and 0 <= t < 1e11 else None


__all__ = ["MAX_ROW_DEPTH", "UnreadableRow", "dumps", "read_event", "read_final", "read_row", "read_rule",
           "read_time"]

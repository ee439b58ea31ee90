"""The history a game state holds: its moves on the scoresheet and the repetition keys of its
positions, packed and shared between successive states (see :mod:`chesslaws._packed`).

:class:`Moves` is a read-only sequence of :class:`MoveRecord` (each built when read) and
:class:`Keys` one of the positions' 64-bit Zobrist keys, the identity of a position for repetition
(2023 9.2.3, 1997 9.2, 1989 10.10: the same player to move, the same pieces on the same squares, the
same possibilities of castling and en passant capture). Both are values: equal when their entries
are, whatever buffer holds them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterator

from chesslaws._packed import TEXTS, NO_TEXT, Shared, View, text_id
from chesslaws.timecontrol import Color


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move on the scoresheet."""

    ply: int
    color: Color
    san: str
    uci: str
    t_ms: int
    clock_ms: int | None  # the mover's remaining time after the move
    draw_offer: bool = False
    illegal: bool = False  # an illegal move that stood (1997 C.3, or not claimed without an arbiter)


# A new field of MoveRecord needs its place in the words of Moves (appended, _row): until it has one,
# importing this module fails rather than losing the field's value.
if [f.name for f in fields(MoveRecord)] != ["ply", "color", "san", "uci", "t_ms", "clock_ms", "draw_offer", "illegal"]:
    raise TypeError("MoveRecord changed: pack its new field in Moves (chesslaws/history.py)")

#: A move's fields, in :class:`MoveRecord`'s order.
Row = tuple[int, Color, str, str, int, "int | None", bool, bool]

_T_LIMIT = 1 << 44
_CLOCK_ZERO = 1 << 46  # a clock time is stored as clock_ms + _CLOCK_ZERO; 0 is no time


class Moves(View[MoveRecord]):
    """The moves on the scoresheet: a read-only sequence of :class:`MoveRecord`, two words a move."""

    __slots__ = ()

    @classmethod
    def new(cls) -> Moves:
        return cls(Shared(2), 0)

    def appended(self, record: MoveRecord) -> Moves:
        """These moves and ``record`` after them (kept as it is where it cannot be packed)."""
        n = self._n
        words = _words(n, record.ply, record.color, record.san, record.uci, record.t_ms, record.clock_ms,
                       record.draw_offer, record.illegal)
        return Moves(self._buf.append_at(n, (0, 0), record) if words is None else self._buf.append_at(n, words),
                     n + 1)

    def appended_move(self, color: Color, san: str, uci: str, t_ms: int, clock_ms: int | None,
                      draw_offer: bool = False, illegal: bool = False) -> Moves:
        """These moves and the next one, given by its :class:`MoveRecord`'s fields (its ply is the next):
        the record is built only where it cannot be packed; else when it is read."""
        n = self._n
        words = _words(n, n + 1, color, san, uci, t_ms, clock_ms, draw_offer, illegal)
        if words is None:
            record = MoveRecord(n + 1, color, san, uci, t_ms, clock_ms, draw_offer, illegal)
            return Moves(self._buf.append_at(n, (0, 0), record), n + 1)
        return Moves(self._buf.append_at(n, words), n + 1)

    def rows(self, start: int = 0, stop: int | None = None) -> list[Row]:
        """The fields of the moves from ``start`` to ``stop`` as tuples in :class:`MoveRecord`'s order:
        what a view of many moves reads, at a fraction of the cost of building their records."""
        start = max(0, start)
        stop = self._n if stop is None else min(stop, self._n)
        if stop == start + 1:  # one move: the view broadcast after a move, the usual case
            return [self._row(start)]
        row = self._row
        return [row(i) for i in range(start, stop)]

    def _row(self, i: int) -> Row:
        words = self._buf.words
        w0 = words[2 * i]
        if not w0 & 1:
            r: MoveRecord = self._buf.object(i)
            return (r.ply, r.color, r.san, r.uci, r.t_ms, r.clock_ms, r.draw_offer, r.illegal)
        w1 = words[2 * i + 1]
        clock = w1 >> 16
        return (i + 1, "black" if w0 & 2 else "white", TEXTS[w0 >> 4 & 0xFFFF], TEXTS[w1 & 0xFFFF], w0 >> 20,
                None if clock == 0 else clock - _CLOCK_ZERO, bool(w0 & 4), bool(w0 & 8))

    def _entry(self, i: int) -> MoveRecord:
        if not self._buf.words[2 * i] & 1:
            return self._buf.object(i)  # type: ignore[no-any-return]
        return MoveRecord(*self._row(i))


def _words(n: int, ply: int, color: Color, san: str, uci: str, t_ms: int, clock_ms: int | None,
           draw_offer: bool, illegal: bool) -> tuple[int, int] | None:
    """The two words of move ``n`` (0-based), or None when its fields do not fit them."""
    sid, uid = text_id(san), text_id(uci)
    if (sid == NO_TEXT or uid == NO_TEXT or ply != n + 1 or not 0 <= t_ms < _T_LIMIT
            or (clock_ms is not None and not -_CLOCK_ZERO < clock_ms < _CLOCK_ZERO)
            or color not in ("white", "black") or type(draw_offer) is not bool or type(illegal) is not bool):
        return None
    flags = (color == "black") | draw_offer << 1 | illegal << 2
    return 1 | flags << 1 | sid << 4 | t_ms << 20, uid | (0 if clock_ms is None else clock_ms + _CLOCK_ZERO) << 16


class Keys(View[int]):
    """The repetition keys of the positions so far (the start included): one word each."""

    __slots__ = ()

    @classmethod
    def of(cls, first: int) -> Keys:
        return cls(Shared(1), 0).appended(first)

    def appended(self, key: int) -> Keys:
        return Keys(self._buf.append_at(self._n, (key,)), self._n + 1)

    def count(self, key: Any) -> int:
        return self._buf.words[:self._n].count(key)

    def _entry(self, i: int) -> int:
        return self._buf.words[i]

    def __iter__(self) -> Iterator[int]:
        return iter(self._buf.words[:self._n])


__all__ = ["Keys", "MoveRecord", "Moves"]

"""Packed, shared history for the immutable values of a live game.

A game's history (its events, its moves, the repetition keys of its positions) grows by one entry an
event, and every state of the game holds all of it. Kept as tuples of objects, each entry costs
hundreds of bytes and each new state a new tuple. Here an entry is a few machine words in an
append-only :class:`Shared` buffer, and a state holds a *view*: the buffer and how many of its
entries are its own. The next state appends to the same buffer and holds one more; every earlier
state still sees only its own entries, because an entry below a published length is never changed.
A state that appends where another already did (a branch: a second event tried on the same state)
shares that entry when it is the same one, and otherwise copies its own entries into a new buffer.

Entries that do not fit the words (rare: an unusual event, an overlong text) are kept as objects,
by index, beside the words.

:func:`text_id` and :func:`text_of` give the short texts of moves (``e2e4``, ``Nf3``) a number in a
table shared by every game, so that a word can hold them.
"""

from __future__ import annotations

import sys
import threading
from array import array
from typing import Any, Iterator, Self, Sequence, TypeVar, overload

#: One lock for every buffer: the check that a view is at the end of its buffer and the append that
#: follows are one step, whatever thread appends (the same for the table of texts).
_LOCK = threading.Lock()

T = TypeVar("T")

#: No text: the id of a text not in the table (too long, or the table is full).
NO_TEXT = 0xFFFF

#: The shared table of short texts, by id (read directly on the hot path of a move list; written by text_id only).
TEXTS: list[str] = []
_TEXT_IDS: dict[str, int] = {}


def text_id(text: str) -> int:
    """The number of a short text (at most 16 characters) in the shared table, or :data:`NO_TEXT`.
    The table is bounded (65,535 texts: the moves of chess in both notations are far fewer)."""
    i = _TEXT_IDS.get(text)
    if i is not None:
        return i
    if len(text) > 16 or type(text) is not str:
        return NO_TEXT
    with _LOCK:
        i = _TEXT_IDS.get(text)
        if i is None:
            if len(TEXTS) >= NO_TEXT:
                return NO_TEXT
            i = len(TEXTS)
            TEXTS.append(sys.intern(text))
            _TEXT_IDS[TEXTS[i]] = i
        return i


def text_of(i: int) -> str:
    return TEXTS[i]


class Shared:
    """An append-only buffer of entries of ``stride`` unsigned 64-bit words each, with the objects of
    the entries that do not fit in words (by entry index)."""

    __slots__ = ("words", "objects", "stride")

    def __init__(self, stride: int, words: array[int] | None = None,
                 objects: dict[int, Any] | None = None) -> None:
        self.stride = stride
        self.words: array[int] = array("Q") if words is None else words
        self.objects: dict[int, Any] | None = objects

    def entries(self) -> int:
        return len(self.words) // self.stride

    def append_at(self, n: int, entry: tuple[int, ...], obj: Any = None) -> Shared:
        """The buffer that holds, as entry ``n``, ``entry`` (and ``obj``) after this buffer's first ``n``
        entries: this one when ``n`` is its end (the entry is appended) or when its entry ``n`` is that
        very entry; else a new buffer with a copy of the first ``n`` entries."""
        s = self.stride
        with _LOCK:
            words = self.words
            end = len(words)
            if end == n * s:
                words.extend(entry)
                if obj is not None:
                    if self.objects is None:
                        self.objects = {}
                    self.objects[n] = obj
                return self
            if end > n * s and tuple(words[n * s:(n + 1) * s]) == entry:
                held = None if self.objects is None else self.objects.get(n)
                if held is obj or (held is not None and obj is not None and held == obj):
                    return self
            objects = None if self.objects is None else {k: v for k, v in self.objects.items() if k < n}
            copy = Shared(s, words[:n * s], objects or None)
        return copy.append_at(n, entry, obj)

    def object(self, i: int) -> Any:
        assert self.objects is not None
        return self.objects[i]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shared, (self.stride, self.words, self.objects))


def prefix(buf: Shared, n: int) -> Shared:
    """A buffer of the first ``n`` entries only (what a view pickles or copies)."""
    if buf.entries() == n:
        return buf
    objects = None if buf.objects is None else {k: v for k, v in buf.objects.items() if k < n} or None
    return Shared(buf.stride, buf.words[:n * buf.stride], objects)


class View(Sequence[T]):
    """A prefix of a shared buffer: its first ``_n`` entries, a read-only sequence of the values a
    subclass reads from an entry (:meth:`_entry`). Views are values: equal when their entries are,
    whatever buffers hold them; a prefix of a view (a takeback) shares its buffer."""

    __slots__ = ("_buf", "_n")

    _buf: Shared
    _n: int

    def __init__(self, buf: Shared, n: int) -> None:
        _SET_BUF(self, buf)
        _SET_N(self, n)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _entry(self, i: int) -> T:
        raise NotImplementedError

    def prefix(self, n: int) -> Self:
        """The first ``n`` entries (sharing this buffer)."""
        return type(self)(self._buf, max(0, min(n, self._n)))

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        n = self._n
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if start == 0 and step == 1:
                return self.prefix(stop)
            return tuple(self._entry(k) for k in range(start, stop, step))
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._entry(i)

    def __iter__(self) -> Iterator[T]:
        entry = self._entry
        for i in range(self._n):
            yield entry(i)

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):  # (not isinstance: a Sequence's is slow)
            return self._n == other._n and self.common_prefix(other) == self._n
        if isinstance(other, (tuple, list)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (prefix(self._buf, self._n), self._n))

    def common_prefix(self, other: View[T]) -> int:
        """How many first entries this view and ``other`` have in common."""
        n = min(self._n, other._n)
        a, b = self._buf, other._buf
        if a is b:
            return n
        s = a.stride
        if a.words[:n * s] == b.words[:n * s] and not (a.objects or b.objects):
            return n
        k = 0
        while k < n and self._entry(k) == other._entry(k):
            k += 1
        return k

# The slots of a view, set once when it is made (its __setattr__ refuses any change).
_SET_BUF = View.__dict__["_buf"].__set__
_SET_N = View.__dict__["_n"].__set__


__all__ = ["NO_TEXT", "Shared", "View", "prefix", "text_id", "text_of"]

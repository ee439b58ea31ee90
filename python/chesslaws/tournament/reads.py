"""Anonymous reads of an event on the live server, made once per version of it.

``GET /api/tournaments/ID`` and ``.../trf`` answer the rounds, the standings and the crosstable (or the
TRF): for an event of 1,000 players and 11 rounds that is a third of a second of pure Python, for 3,000
and 40 rounds several seconds. Made on the event loop for every read, a few anonymous readers cost every
player of the server seconds of clock per move. :class:`EventReads` makes each body once per stored
version of the event (every change of it, made by this process or another, raises its version), on a
thread, once for all the reads that ask for it meanwhile (single flight), and keeps the last few bodies.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable

from chesslaws.tournament.model import Tournament
from chesslaws.tournament.trf import write_trf

#: A body made: the version it was made at, its bytes, and whether boards still wait for a game's result.
Made = tuple[int, bytes, bool]


def stored_version(store: Any, tid: str) -> int | None:
    """The event's stored version (None if no event has this id): one small query (call it on a thread)."""
    version: int | None = store.version(tid)
    return version


def render(t: Tournament, kind: str, view: Callable[[Tournament], dict[str, Any]]) -> Made:
    """The body a read answers (``kind``: "json", the event's ``view``, or "trf"); call it on a thread."""
    import orjson


    pending = any(b.result is None and b.game_id for r in t.rounds for b in r.boards)
    body = write_trf(t).encode() if kind == "trf" else orjson.dumps(view(t))
    return t.version, body, pending


class EventReads:
    """Bodies of reads by (event, kind), each made by ``make(tid, kind)`` once per version; ``look(tid)`` is
    asked, at most every ``look_every`` seconds, when the event still waits for games' results (a game
    that ended on another process or before a restart gives its result at that look)."""

    def __init__(self, make: Callable[[str, str], Awaitable[Made]], look: Callable[[str], None], *,
                 kept: int = 16, look_every: float = 5.0) -> None:
        self.make = make
        self.look = look
        self.kept = kept
        self.look_every = look_every
        # (event id, kind) -> (the version asked at, its body being made or made); least recently read first
        self._bodies: OrderedDict[tuple[str, str], tuple[int, asyncio.Future[Made]]] = OrderedDict()
        self._looked: dict[str, float] = {}

    async def read(self, tid: str, kind: str, version: int) -> bytes:
        """The body of the event ``tid`` at its stored ``version``."""
        key = (tid, kind)
        held = self._bodies.get(key)
        if held is not None:
            self._bodies.move_to_end(key)
            fut = held[1]
            if fut.done() and (fut.cancelled() or fut.exception() is not None):
                held = None  # a failed making (the database away): made again
        if held is None or held[0] != version:
            held = (version, asyncio.ensure_future(self.make(tid, kind)))
            self._bodies[key] = held
            while len(self._bodies) > self.kept:
                self._bodies.popitem(last=False)  # a read still waiting on it holds its own reference
        made_at, body, pending = await asyncio.shield(held[1])
        if made_at != version and self._bodies.get(key) is held:
            self._bodies[key] = (made_at, held[1])  # the making took results from games: a newer version
        last = self._looked.get(tid)
        if pending and (last is None or time.monotonic() - last > self.look_every):
            self._looked[tid] = time.monotonic()
            self.look(tid)
        return body


__all__ = ["EventReads", "Made", "render", "stored_version"]

"""What a game holds in memory, measured with tracemalloc: the one measure behind the ceilings of
tests/test_memory.py and tests/server/test_memory_live.py and the figures of bench/bench_server.py."""

from __future__ import annotations

import gc
import time
import tracemalloc
from typing import Any, Callable, TypeVar

T = TypeVar("T")

#: A block this large is no part of one game (its largest tuple, of 200 entries, is 1.6 KiB): it is a
#: table shared by every game (the interpreter's interned strings, the field names) that happened to grow
#: while the game was built, which happens or not depending on what ran before.
SHARED_BLOCK = 16 * 1024


def retained(build: Callable[[], T]) -> tuple[int, T]:
    """Bytes allocated by ``build()`` and still held once it returned (its result kept), in blocks of
    less than :data:`SHARED_BLOCK`; and the result."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = build()
        gc.collect()
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    return sum(t.size for t in snapshot.traces if t.size < SHARED_BLOCK), kept


def least_retained(build: Callable[[], T], tries: int = 3) -> tuple[int, T]:
    """:func:`retained` of ``tries`` builds, the least, with its result. tracemalloc counts what every thread
    allocates: a thread that an earlier test in the same process left running (a server's, an engine's)
    can add what it holds meanwhile to one measure, never take from it. ``build`` must be repeatable."""
    best: tuple[int, T] | None = None
    for _ in range(tries):
        got = retained(build)
        if best is None or got[0] < best[0]:
            best = got
    assert best is not None
    return best


def load_live(hub: Any, gid: str, events: list[dict[str, Any]]) -> Any:
    """Game ``gid`` of ``events`` (a log), created in the hub's store and loaded as on a restart or on
    demand, with what a live game keeps: a viewer asking for moves by difference, sent the whole state
    as on connecting, and the state as GET /api/games/{id} shows it. Returns the hub's LiveGame."""
    from chesslaws.server.hub import Subscriber
    from chesslaws.store.games import GameRecord

    rec = GameRecord(gid, time.time() - 10_000, "online", {"white": "W", "black": "B"},
                     {"white": None, "black": None, "arbiter": None}, events)
    hub.store.create_game(rec)
    hub.registry.load(rec)
    live = hub.games[gid]
    sub = Subscriber("en", seat="white", delta=True)
    live.subscribers.add(sub)
    hub.send_state(live, sub)  # the whole state, as on connecting
    sub.queue.get_nowait()
    hub.view(live, "en")  # and the state as GET /api/games/{id} shows it
    return live

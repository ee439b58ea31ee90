"""A submission runs to its end even when its caller goes away (the socket's task is cancelled while the
event waits for its commit): the event is then committed *and* applied, never one without the other, and
the next event is judged on it (Hub.submit runs the locked part as a task of its own, shielded from the
caller's cancellation)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from chesslaws.server.hub import ApiError, Hub, Subscriber
from chesslaws.store.games import SQLiteStore


class HeldStore(SQLiteStore):
    """A SQLite store whose commits wait until the test lets them go."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.go = threading.Event()
        self.go.set()
        self.waiting = threading.Event()

    def append_many(self, items: list[tuple[str, int, dict[str, Any]]]) -> None:
        self.waiting.set()
        assert self.go.wait(30)
        super().append_many(items)


async def _wait_for(flag: threading.Event) -> None:
    for _ in range(3000):
        if flag.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the commit never began")


def test_a_cancelled_caller_leaves_the_event_committed_and_applied(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = HeldStore(str(tmp_path / "held.sqlite3"))
        hub = Hub(store)
        await hub.start()
        live, _ = await hub.create({"edition": "1997", "time_control": "40/5400+30:1800+30"},
                                   {"white": "W", "black": "B"}, "online")
        seen: list[str] = []
        sub = Subscriber("en", "black", delta=True)
        live.subscribers.add(sub)
        hub.send_state(live, sub)

        async def write(text: str) -> None:
            seen.append(text)

        sub.queue.attach(write)
        store.go.clear()
        store.waiting.clear()
        caller = asyncio.ensure_future(hub.submit(live, {"type": "move", "move": "e4"}, "white"))
        await _wait_for(store.waiting)
        assert live.seq == 1  # not applied before its commit
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        store.go.set()
        for _ in range(3000):  # the submission goes on by itself: applied once committed
            if live.seq == 2:
                break
            await asyncio.sleep(0.01)
        assert live.seq == 2
        assert [m.san for m in live.game.state.moves] == ["e4"]
        assert '"san":"e4"' in seen[-1]  # and broadcast
        stored = await hub.link.db(lambda: store.load(live.id))
        assert stored is not None and [e.get("move") for e in stored.events[1:]] == ["e4"]
        # The next event is judged on the game with the move in it.
        ack = await hub.submit(live, {"type": "move", "move": "e5"}, "black")
        assert ack["seq"] == 2
        with pytest.raises(ApiError):
            await hub.submit(live, {"type": "move", "move": "e5"}, "white")  # illegal: refused, not logged
        assert live.seq == 3
        await hub.stop()

    asyncio.run(scenario())


def test_a_submission_answers_its_caller_its_result_or_its_error(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(SQLiteStore(str(tmp_path / "plain.sqlite3")))
        await hub.start()
        live, _ = await hub.create({"edition": "2023", "time_control": "300+2"}, {"white": "W", "black": "B"},
                                   "online")
        ack = await hub.submit(live, {"type": "move", "move": "Nf3"}, "white")
        assert ack["seq"] == 1 and ack["event"]["move"] == "Nf3"
        with pytest.raises(ApiError) as err:
            await hub.submit(live, {"type": "move", "move": "Nf3"}, "black")
        assert err.value.status == 422
        assert live.seq == 2
        await hub.stop()

    asyncio.run(scenario())

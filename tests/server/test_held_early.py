"""A held round's early arrivals (issue 29): a player who opened his game before the arbiter started the
round is at the board from the start, even when another event reaches the log first."""

from __future__ import annotations

import asyncio
from pathlib import Path

from chesslaws.server.guard import UNLIMITED
from chesslaws.server.hub import Hub
from chesslaws.server.store import open_store


def test_an_early_player_arrives_even_when_the_opponent_arrives_first(tmp_path: Path) -> None:
    async def run() -> tuple[list[str], list[tuple[str, str, float]]]:
        hub = Hub(open_store(str(tmp_path / "early.sqlite3")), UNLIMITED)
        await hub.start()
        try:
            start = {"edition": "2023", "time_control": "600+0", "white": "W", "black": "B", "default_time": 60}
            live, _ = await hub.create(start, {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")  # White opens the game while the round is held
            assert live.early == {"white"}
            assert await hub.start_held(live, hub.now() + 0.2)  # the round starts a moment later
            assert live.timer is not None
            live.timer.cancel()  # its wake-up at t=0 comes late (a loaded machine): the race, made certain
            while hub.t_of(live) < 0.05:
                await asyncio.sleep(0.01)
            # Black opens the game after t=0 and his arrival reaches the log before White's early one.
            live.early, early = set(), live.early
            await hub.present(live, "black")
            live.early = early
            await hub._arrive_early(live)
            arrivals = [(e.type, e.by, e.t_ms / 1000) for e in live.game.events if e.type == "arrive"]
            return sorted(live.game.state.absent), arrivals
        finally:
            await hub.stop()

    absent, arrivals = asyncio.run(run())
    assert absent == []
    assert [by for _, by, _ in arrivals] == ["black", "white"]
    assert arrivals[1][2] == arrivals[0][2]  # White's arrival at the first instant the log allows

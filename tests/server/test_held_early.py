"""A held round's early arrivals: a player who opened his game before the arbiter started the
round is at the board from the start, even when another event reaches the log first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

import pytest

from chesslaws.server import outages
from chesslaws.server.guard import UNLIMITED
from chesslaws.server.hub import Hub
from chesslaws.store.games import open_store


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
            await hub.starts.arrive_early(live)
            arrivals = [(e.type, e.by, e.t_ms / 1000) for e in live.game.events if e.type == "arrive"]
            return sorted(live.game.state.absent), arrivals
        finally:
            await hub.stop()

    absent, arrivals = asyncio.run(run())
    assert absent == []
    assert [by for _, by, _ in arrivals] == ["black", "white"]
    assert arrivals[1][2] == arrivals[0][2]  # White's arrival at the first instant the log allows


class Flaky:
    """The store, which can go away (every call raises an outage's OSError), e.g. right after a named call."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.down = False
        self.down_after: str | None = None

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.down and name != "close":
                raise OSError("the database is unreachable")
            out = attr(*args, **kwargs)
            if name == self.down_after:
                self.down, self.down_after = True, None
            return out
        return call


async def until(check: Callable[[], bool]) -> None:
    """Waits for a state of the hub (asked again at each turn of the loop)."""
    for _ in range(2000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the state never came")


START = {"edition": "2023", "time_control": "600+0", "white": "W", "black": "B", "default_time": 2}


def test_a_player_who_comes_during_an_outage_is_written_at_the_board_before_the_interruption(
        tmp_path: Path) -> None:
    async def run() -> tuple[str, list[tuple[str, str | None]]]:
        store = Flaky(open_store(str(tmp_path / "came.sqlite3")))
        hub = Hub(store, UNLIMITED)  # type: ignore[arg-type]
        await hub.start()
        assert hub.monitor is not None
        hub.monitor.cancel()
        try:
            live, _ = await hub.create(dict(START), {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")
            assert await hub.start_held(live, hub.now())  # White at the board from t=0; Black not yet
            await until(lambda: live.game.state.absent == {"black"})
            store.down = True
            hub.last_ok = hub.now()
            hub.link.mark_down()
            await hub.present(live, "black")  # Black opens the game while nothing can be written
            hub.clock.wall0 += 10  # and the database stays away longer than the default time
            store.down = False
            await hub.outages.recover()
            st = hub.game_now(live).state
            return st.status, [(e.type, e.by) for e in live.game.events]
        finally:
            await hub.stop()

    status, events = asyncio.run(run())
    assert status == "ongoing", events
    assert events == [("start", None), ("begin", "arbiter"), ("arrive", "white"), ("arrive", "black"),
                      ("stop_clocks", "arbiter"), ("start_clocks", "arbiter")]


def test_players_at_the_board_when_an_outage_begins_with_the_round_are_not_forfeited(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both players opened their game; the database goes away as the round starts, before their arrivals are
    written, and stays away longer than the default time: when it is back they are at the board from t=0, and
    nobody loses by default."""
    monkeypatch.setattr(outages, "RESUME_GRACE", 0.2)  # its start, which nobody could use, moves after it

    async def run() -> tuple[str, list[str], list[str]]:
        store = Flaky(open_store(str(tmp_path / "outage.sqlite3")))
        hub = Hub(store, UNLIMITED)  # type: ignore[arg-type]
        await hub.start()
        assert hub.monitor is not None
        hub.monitor.cancel()  # the database returns when this test says
        try:
            live, _ = await hub.create(dict(START), {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")
            await hub.present(live, "black")
            store.down_after = "begin"  # the round's start is stored (its begin); then the database is away
            assert await hub.start_held(live, hub.now())
            assert hub.down_since is not None and live.game.state.absent == {"white", "black"}
            hub.clock.wall0 += 10  # the outage lasts 10 s: longer than the default time (2 s)
            store.down = False
            await hub.outages.recover()
            await until(lambda: not live.game.state.absent)
            st = hub.game_now(live).state
            return st.status, [e.type for e in live.game.events], sorted(live.early)
        finally:
            await hub.stop()

    status, events, early = asyncio.run(run())
    assert status == "ongoing" and early == []
    assert events[:4] == ["start", "begin", "arrive", "arrive"]  # at the board before anything else


def test_a_round_start_that_falls_in_an_outage_moves_after_it_and_costs_no_clock_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The round is to start while the database is away: nothing can be written, nobody can move. When it is
    back, the start moves to a moment after the return (RESUME_GRACE): the players who had opened the game
    arrive then, the clocks and the default time count none of the outage."""
    monkeypatch.setattr(outages, "RESUME_GRACE", 0.2)

    async def run() -> tuple[float, float, str, list[str], int | None]:
        store = Flaky(open_store(str(tmp_path / "missed.sqlite3")))
        hub = Hub(store, UNLIMITED)  # type: ignore[arg-type]
        await hub.start()
        assert hub.monitor is not None
        hub.monitor.cancel()
        try:
            live, _ = await hub.create(dict(START), {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")
            await hub.present(live, "black")
            assert await hub.start_held(live, hub.now() + 1)  # the round starts in a second
            store.down = True  # the database goes away before it
            hub.last_ok = hub.now()
            hub.link.mark_down()
            hub.clock.wall0 += 10  # and comes back 10 s later: the start passed meanwhile
            store.down = False
            back = hub.now()
            await hub.outages.recover()
            moved_to = live.created_at
            await until(lambda: hub.t_of(live) >= 0 and not live.game.state.absent)
            st = hub.game_now(live).state
            return back, moved_to, st.status, [e.type for e in live.game.events], st.remaining_ms("white")
        finally:
            await hub.stop()

    back, moved_to, status, events, white_ms = asyncio.run(run())
    assert moved_to == pytest.approx(back + 0.2, abs=0.1)
    assert status == "ongoing" and events == ["start", "begin", "arrive", "arrive"]
    assert white_ms is not None and white_ms > 599_000  # White's clock lost nothing to the outage


def test_a_scheduled_start_missed_while_the_server_was_down_happens_soon_after_the_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The round was to start while the server was not running: after the restart it starts a few seconds
    later (RESUME_GRACE), nobody having lost by default meanwhile; the new start is stored."""
    monkeypatch.setattr(outages, "RESUME_GRACE", 0.5)
    path = str(tmp_path / "restart.sqlite3")

    async def first() -> tuple[str, float]:
        hub = Hub(open_store(path), UNLIMITED)
        await hub.start()
        try:
            live, _ = await hub.create(dict(START), {"white": "W", "black": "B"}, "online", held=True, presence=True)
            at = hub.now() + 1
            assert await hub.start_held(live, at)  # scheduled a second from now; the server stops before
            return live.id, at
        finally:
            await hub.stop()

    async def restart(gid: str, at: float) -> tuple[float, float, str, list[str], str, list[str]]:
        hub = Hub(open_store(path), UNLIMITED)
        hub.clock.wall0 += 30  # the server comes back 30 s later: the start, and the default time, passed meanwhile
        await hub.start()
        try:
            live = hub.games[gid]
            back = hub.now()
            moved_to = live.created_at
            before = hub.game_now(live).state.status
            await hub.present(live, "white")  # White's page connects again before the new start
            await until(lambda: hub.t_of(live) >= 0 and not live.early)
            st = hub.game_now(live).state
            return back, moved_to, before, sorted(st.absent), st.status, [e.type for e in live.game.events]
        finally:
            await hub.stop()

    gid, at = asyncio.run(first())
    back, moved_to, before, absent, status, events = asyncio.run(restart(gid, at))
    assert moved_to == pytest.approx(back + 0.5, abs=0.2)  # a few seconds after the restart
    assert before == "ongoing" and status == "ongoing" and absent == ["black"] and events == ["start", "begin", "arrive"]
    stored = open_store(path)
    try:
        rec = stored.load(gid)
        assert rec is not None and rec.created_at == moved_to
    finally:
        stored.close()


def test_the_default_time_of_a_player_absent_does_not_run_while_the_server_is_down(tmp_path: Path) -> None:
    """White is at the board, Black not yet (default time 2 s); the server stops and comes back 30 s later.
    Black could not reach the game meanwhile: the interruption extends his default time by its length, and he
    arrives after the restart without losing by default."""
    path = str(tmp_path / "absent.sqlite3")

    async def first() -> str:
        hub = Hub(open_store(path), UNLIMITED)
        await hub.start()
        try:
            live, _ = await hub.create(dict(START), {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")
            assert await hub.start_held(live, hub.now())
            await until(lambda: live.game.state.absent == {"black"})
            return live.id
        finally:
            await hub.stop()

    async def restart(gid: str) -> tuple[str, list[tuple[str, str | None]], str]:
        hub = Hub(open_store(path), UNLIMITED)
        hub.clock.wall0 += 30
        await hub.start()
        try:
            live = hub.games[gid]
            ruling = live.game.state.rulings[-2].text
            await hub.present(live, "black")  # Black's page connects after the restart
            await until(lambda: not live.game.state.absent)
            return hub.game_now(live).state.status, [(e.type, e.by) for e in live.game.events], ruling
        finally:
            await hub.stop()

    gid = asyncio.run(first())
    status, events, ruling = asyncio.run(restart(gid))
    assert status == "ongoing", events
    assert events == [("start", None), ("begin", "arbiter"), ("arrive", "white"), ("stop_clocks", "arbiter"),
                      ("start_clocks", "arbiter"), ("arrive", "black")]
    assert "The default time of Black, absent, is extended by" in ruling


def test_a_game_lost_by_default_before_the_server_stopped_is_not_started_again(tmp_path: Path) -> None:
    """Nobody came and the default time passed before the server stopped (the ending not yet written): the
    restart writes that ending; it does not move the start as it does for a start the players could not use."""
    path = str(tmp_path / "over.sqlite3")

    async def first() -> str:
        hub = Hub(open_store(path), UNLIMITED)
        await hub.start()
        try:
            start = dict(START, default_time=0.2)
            live, _ = await hub.create(start, {"white": "W", "black": "B"}, "online", held=True, presence=True)
            assert await hub.start_held(live, hub.now() - 5)  # started 5 s ago: the default time has passed
            return live.id
        finally:  # the server is killed: nothing written on the way out (no ending, no retirement)
            for each in hub.games.values():
                if each.timer is not None:
                    each.timer.cancel()
            assert hub.monitor is not None
            hub.monitor.cancel()
            await hub.link.db(hub.store.close)
            hub.link.executor.shutdown(wait=True)

    async def restart(gid: str) -> tuple[float, float, str | None]:
        hub = Hub(open_store(path), UNLIMITED)
        hub.clock.wall0 += 30
        await hub.start()
        try:
            live = hub.games.get(gid) or await hub.fetch(gid)
            return live.created_at, hub.now(), hub.game_now(live).state.termination
        finally:
            await hub.stop()

    gid = asyncio.run(first())
    created_at, now, termination = asyncio.run(restart(gid))
    assert created_at < now - 30 and termination == "late_arrival"


def test_a_player_who_comes_during_an_outage_after_his_default_time_still_loses(tmp_path: Path) -> None:
    async def run() -> tuple[str | None, list[str]]:
        store = Flaky(open_store(str(tmp_path / "toolate.sqlite3")))
        hub = Hub(store, UNLIMITED)  # type: ignore[arg-type]
        await hub.start()
        assert hub.monitor is not None
        hub.monitor.cancel()
        try:
            live, _ = await hub.create(dict(START), {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")
            assert await hub.start_held(live, hub.now())
            await until(lambda: live.game.state.absent == {"black"})
            if live.timer is not None:
                live.timer.cancel()  # Black's default time (2 s) passes with its ending not yet written
            hub.clock.wall0 += 5
            store.down = True
            hub.last_ok = hub.now()
            hub.link.mark_down()
            await hub.present(live, "black")  # too late, while nothing can be written
            assert live.early == set()
            store.down = False
            await hub.outages.recover()
            ended = await hub.settle(live)
            return (ended.state.termination if ended else None), [e.type for e in live.game.events]
        finally:
            await hub.stop()

    termination, events = asyncio.run(run())
    assert termination == "late_arrival" and "arrive" not in events[3:], events  # after the start, begin, White


def test_a_player_who_opened_a_held_game_is_still_there_after_a_restart_and_the_log_holds_nothing_before_t0(
        tmp_path: Path) -> None:
    """Who opened a held game before the round's start is kept in the store (game_presence), not in the log
    (the Laws write nothing before t=0): a server that restarts before the start still has him at the board
    from t=0, and the opponent who never came is the only one absent."""
    path = str(tmp_path / "presence.sqlite3")

    async def before() -> str:
        hub = Hub(open_store(path), UNLIMITED)
        await hub.start()
        try:
            start = {"edition": "2023", "time_control": "600+0", "white": "W", "black": "B", "default_time": 60}
            live, _ = await hub.create(start, {"white": "W", "black": "B"}, "online", held=True, presence=True)
            await hub.present(live, "white")
            assert [e.type for e in live.game.events] == ["start"]
            return live.id
        finally:
            await hub.stop()

    async def after(gid: str) -> tuple[set[str], list[tuple[str, str, float]], list[str]]:
        hub = Hub(open_store(path), UNLIMITED)
        await hub.start()
        try:
            live = hub.games[gid]
            early = set(live.early)
            assert await hub.start_held(live, hub.now())
            arrivals = [(e.type, e.by, e.t_ms / 1000) for e in live.game.events if e.type == "arrive"]
            return early, arrivals, sorted(live.game.state.absent)
        finally:
            await hub.stop()

    gid = asyncio.run(before())
    early, arrivals, absent = asyncio.run(after(gid))
    assert early == {"white"}
    assert arrivals == [("arrive", "white", 0.0)] and absent == ["black"]

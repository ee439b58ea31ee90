"""An online game's start rule lives in its log (the ``start`` event's ``wait``, ``abort_after`` and ``scheduled``,
and the ``begin`` that fixes a waiting game's t=0: docs/game-log.md): a restart rebuilds it from the log alone,
the table ``game_starts`` dropped; a database whose logs do not carry it still loads it from that table. The
hub's count of incorrect claims (2023 11.5) is recounted from the log too."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from chesslaws.game import Game
from chesslaws.server.guard import UNLIMITED
from chesslaws.server.hub import Hub
from chesslaws.server.live import LiveGame
from chesslaws.server.rules import logged_rule, start_rule
from chesslaws.store.games import open_store

START = {"edition": "2023", "time_control": "600+0", "white": "W", "black": "B", "default_time": 60}
NAMES: dict[str, str | None] = {"white": "W", "black": "B"}


def drop_starts(path: str) -> None:
    """The table of start rules emptied and dropped: only the log can say how a game starts."""
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM game_starts")
        db.execute("DROP TABLE game_starts")


def stored_log(path: str, gid: str) -> list[dict[str, Any]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
    return [json.loads(r[0]) for r in rows]


async def started(path: str) -> Hub:
    hub = Hub(open_store(path), UNLIMITED)
    await hub.start()
    return hub


def test_a_held_rounds_game_keeps_its_start_rule_across_restarts_from_the_log_alone(tmp_path: Path) -> None:
    path = str(tmp_path / "held.sqlite3")

    async def create() -> tuple[str, dict[str, Any]]:
        hub = await started(path)
        try:
            live, _ = await hub.create(START, NAMES, "online", held=True, presence=True, abort_after=30)
            return live.id, start_rule(live)
        finally:
            await hub.stop()

    async def held_then_started(gid: str) -> tuple[dict[str, Any], dict[str, Any], float]:
        hub = await started(path)
        try:
            live = hub.games[gid]
            before = start_rule(live)
            at = round(hub.now(), 3)
            assert await hub.start_held(live, at)
            return before, start_rule(live), at
        finally:
            await hub.stop()

    async def after(gid: str) -> tuple[dict[str, Any], float, float]:
        hub = await started(path)
        try:
            live = hub.games[gid]
            return start_rule(live), live.created_at, hub.t_of(live)
        finally:
            await hub.stop()

    gid, rule = asyncio.run(create())
    assert rule == {"waiting": True, "abort_after": 30, "scheduled": True, "held": True}
    log = stored_log(path, gid)
    assert len(log) == 1 and {k: log[0].get(k) for k in ("wait", "abort_after", "scheduled")} == {
        "wait": "arbiter", "abort_after": 30, "scheduled": True}
    with sqlite3.connect(path) as db:  # the store keeps no copy of it
        assert db.execute("SELECT count(*) FROM game_starts").fetchone()[0] == 0
    drop_starts(path)
    before, now, at = asyncio.run(held_then_started(gid))
    assert before == rule  # still held after the restart: the log said so
    assert now == {"waiting": False, "abort_after": 30, "scheduled": True, "held": False}
    assert [e["type"] for e in stored_log(path, gid)] == ["start", "begin"]
    assert stored_log(path, gid)[1] == {"type": "begin", "t": 0, "by": "arbiter"}
    drop_starts(path)
    again, t0, t = asyncio.run(after(gid))
    assert again == now and t0 == at and t >= 0  # begun, at the arbiter's instant


def test_a_fair_start_waits_after_a_restart_and_begins_once_from_the_log_alone(tmp_path: Path) -> None:
    path = str(tmp_path / "fair.sqlite3")

    async def create() -> str:
        hub = await started(path)
        try:
            live, _ = await hub.create(START, NAMES, "online", when_ready=True, abort_after=20)
            return live.id
        finally:
            await hub.stop()

    async def both_come(gid: str) -> tuple[bool, bool, float]:
        hub = await started(path)
        try:
            live = hub.games[gid]
            waited = live.waiting
            await hub.present(live, "white")
            await hub.present(live, "black")
            return waited, live.waiting, live.created_at
        finally:
            await hub.stop()

    async def after(gid: str) -> tuple[dict[str, Any], float]:
        hub = await started(path)
        try:
            live = hub.games[gid]
            return start_rule(live), live.created_at
        finally:
            await hub.stop()

    gid = asyncio.run(create())
    drop_starts(path)
    waited, waiting, t0 = asyncio.run(both_come(gid))
    assert waited and not waiting
    assert [e["type"] for e in stored_log(path, gid)] == ["start", "begin"]
    drop_starts(path)
    rule, t0_again = asyncio.run(after(gid))
    assert rule == {"waiting": False, "abort_after": 20, "scheduled": False, "held": False} and t0_again == t0


def test_an_annulment_before_the_start_ends_the_wait_in_the_log(tmp_path: Path) -> None:
    path = str(tmp_path / "annul.sqlite3")

    async def create_and_annul() -> str:
        hub = await started(path)
        try:
            live, tokens = await hub.create(START, NAMES, "online", held=True)
            await hub.submit(live, {"type": "annul", "reason": "the round is replayed"}, "arbiter")
            assert not live.waiting
            return live.id
        finally:
            await hub.stop()

    gid = asyncio.run(create_and_annul())
    game = Game.from_events(stored_log(path, gid))
    assert game.state.status == "annulled"
    assert logged_rule(game) == {"waiting": False, "abort_after": None, "scheduled": False, "held": False}


def test_a_database_whose_logs_do_not_carry_the_start_rule_loads_it_from_its_table(tmp_path: Path) -> None:
    """A game whose ``start`` has no ``wait``, ``abort_after`` nor ``scheduled``, its rule in ``game_starts``
    (as every database written before the log carried it): it is held after a restart, and its start by the
    arbiter is written in the table."""
    path = str(tmp_path / "before.sqlite3")

    async def create() -> str:
        hub = await started(path)
        try:
            live, _ = await hub.create(START, NAMES, "online", held=True, presence=True, abort_after=30)
            return live.id
        finally:
            await hub.stop()

    gid = asyncio.run(create())
    rule = {"waiting": True, "abort_after": 30, "scheduled": True, "held": True}
    with sqlite3.connect(path) as db:  # the game as a database written before had it
        first = json.loads(db.execute("SELECT body FROM events WHERE game_id = ? AND seq = 0", (gid,)).fetchone()[0])
        for f in ("wait", "abort_after", "scheduled"):
            first.pop(f)
        db.execute("UPDATE events SET body = ? WHERE game_id = ? AND seq = 0", (json.dumps(first), gid))
        db.execute("INSERT INTO game_starts VALUES (?, ?)", (gid, json.dumps(rule)))

    async def restart() -> tuple[dict[str, Any], bool, dict[str, Any], list[str]]:
        hub = await started(path)
        try:
            live = hub.games[gid]
            before, in_log = start_rule(live), live.rule_in_log
            assert await hub.start_held(live, hub.now())
            return before, in_log, start_rule(live), [e.type for e in live.game.events]
        finally:
            await hub.stop()

    before, in_log, now, events = asyncio.run(restart())
    assert before == rule and not in_log
    assert now == {"waiting": False, "abort_after": 30, "scheduled": True, "held": False}
    assert events == ["start"]  # its start is the table's
    with sqlite3.connect(path) as db:
        assert json.loads(db.execute("SELECT rule FROM game_starts WHERE game_id = ?", (gid,)).fetchone()[0]) == now


def test_incorrect_claims_are_recounted_from_the_log_after_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "claims.sqlite3")

    async def claim() -> tuple[str, dict[str, int]]:
        hub = await started(path)
        try:
            live, _ = await hub.create(START, NAMES, "online")
            for _ in range(2):  # White claims that Black's flag fell: it has not, the game goes on
                await hub.submit(live, {"type": "claim_flag"}, "white")
            await hub.submit(live, {"type": "move", "move": "e4"}, "white")
            await hub.submit(live, {"type": "claim_flag"}, "black")
            return live.id, dict(live.incorrect_claims)
        finally:
            await hub.stop()

    async def restart(gid: str) -> dict[str, int]:
        hub = await started(path)
        try:
            live: LiveGame = hub.games[gid]
            return dict(live.incorrect_claims)
        finally:
            await hub.stop()

    gid, counted = asyncio.run(claim())
    assert counted == {"white": 2, "black": 1}
    assert asyncio.run(restart(gid)) == counted

"""Engines in live games (chesslaws.server.engines): the engine's seat plays through the hub and the
server's clock; a crash or a hang is a player who does not move; the pool stays bounded; no engine
process outlives the server."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, AsyncIterator

import httpx
import pytest

from chesslaws.engines import EngineSpec
from chesslaws.game import Game
from chesslaws.webapp import create_app

ENGINE_TESTS = Path(__file__).resolve().parents[1] / "engines"
FAKE = str(ENGINE_TESTS / "fake_engine.py")
STOCKFISH = "/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None


def fake(name: str, mode: str, arg: str | None = None) -> EngineSpec:
    return EngineSpec(name, (sys.executable, FAKE, mode) + ((arg,) if arg else ()))


def children() -> set[int]:
    me = os.getpid()
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == me and stat[0] != "Z":
                out.add(int(entry))
    return out


class Server:
    def __init__(self, app: Any, client: httpx.AsyncClient) -> None:
        self.app = app
        self.c = client

    async def play(self, **body: Any) -> dict[str, Any]:
        body.setdefault("when_ready", False)  # an immediate start, asked for (the fair start is the default)
        r = await self.c.post("/api/engines/games", json=body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    async def state(self, gid: str) -> dict[str, Any]:
        return dict((await self.c.get(f"/api/games/{gid}")).json())

    async def wait(self, gid: str, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            s = await self.state(gid)
            if pred(s):
                return s
            if time.monotonic() > end:
                raise AssertionError(f"timed out; state: ply {s['ply']}, {s['status']}, {s['termination']}")
            await asyncio.sleep(0.05)

    async def move(self, gid: str, token: str, move: str) -> httpx.Response:
        return await self.c.post(f"/api/games/{gid}/events", json={"type": "move", "move": move},
                                 headers={"Authorization": f"Bearer {token}"})


async def serve(tmp_path: Path, specs: list[EngineSpec], pool: int = 1) -> AsyncIterator[Server]:
    before = children()
    app = create_app(str(tmp_path / "g.sqlite3"), engines=specs, engine_pool=pool)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
            yield Server(app, c)
    await asyncio.sleep(0.1)
    assert children() - before == set(), "engine processes left behind"


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_engine_list_offers_the_strengths_the_engine_declares(tmp_path: Path) -> None:
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("fake", "legal")]):
            engines = (await srv.c.get("/api/engines")).json()
            assert [e["name"] for e in engines] == ["fake"]
            kinds = [s["kind"] for s in engines[0]["strengths"]]
            assert kinds == ["skill", "nodes", "movetime", "full"]  # no UCI_Elo declared: not offered
            r = await srv.c.post("/api/engines/games", json={"engine": "nope"})
            assert r.status_code == 404 and "fake" in r.json()["error"]
            r = await srv.c.post("/api/engines/games", json={"engine": "fake", "strength": {"kind": "elo", "value": 1500}})
            assert r.status_code == 422 and "not offered" in r.json()["error"]
            r = await srv.c.post("/api/engines/games", json={"engine": "fake", "strength": {"kind": "skill", "value": 99}})
            assert r.status_code == 422 and "between 0 and 20" in r.json()["error"]
            r = await srv.c.post("/api/engines/games", json={"engine": "fake", "time_control": "5+x"})
            assert r.status_code == 422 and "time_control" in r.json()["error"]
    run(go())


def test_engine_seat_moves_through_the_hub_with_the_server_clock(tmp_path: Path) -> None:
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("fake", "legal")]):
            g = await srv.play(engine="fake", color="black", time_control="60+1", name="Ann")
            assert g["color"] == "black"
            s = await srv.wait(g["id"], lambda s: s["ply"] >= 1)  # the engine has White: it moves first
            assert s["moves"][0]["san"] == "a3" and s["white"] == "fake (full strength)" and s["black"] == "Ann"
            r = await srv.move(g["id"], g["token"], "e5")
            assert r.status_code == 200, r.text
            s = await srv.wait(g["id"], lambda s: s["ply"] >= 3)
            assert [m["san"] for m in s["moves"]][:3] == ["a3", "e5", "Ra2"]
            # The person's token cannot move for the engine; the log replays to the same game.
            r = await srv.move(g["id"], g["token"], "a5")
            assert r.status_code in (200, 409)
            log = (await srv.c.get(f"/api/games/{g['id']}/log")).text.splitlines()
            game = Game.from_events([json.loads(line) for line in log])
            assert game.state.sans[:3] == ["a3", "e5", "Ra2"]
            assert all(e.by in ("white", "black") for e in game.events[1:])
    run(go())


def test_crashing_engine_is_a_player_who_does_not_move(tmp_path: Path) -> None:
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("crashy", "crash", "1")]):
            g = await srv.play(engine="crashy", color="black", time_control="2")
            s = await srv.wait(g["id"], lambda s: s["status"] == "finished", timeout=15)
            assert (s["result"], s["termination"]) == ("0-1", "time_forfeit")
            assert s["ply"] == 0
            assert srv.app.state.engines.pool.processes == 0  # the crashed process is not kept
    run(go())


def test_hanging_engine_loses_on_time_and_is_killed(tmp_path: Path) -> None:
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("stuck", "hang")]):
            g = await srv.play(engine="stuck", color="black", time_control="2")
            s = await srv.wait(g["id"], lambda s: s["status"] == "finished", timeout=15)
            assert (s["result"], s["termination"]) == ("0-1", "time_forfeit")
            await asyncio.sleep(1.0)  # the pool thread sees the flag, stops and kills it
            assert srv.app.state.engines.pool.processes == 0
    run(go())


async def log_of(srv: Server, gid: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (await srv.c.get(f"/api/games/{gid}/log")).text.splitlines()]


def test_the_engine_seat_claims_a_threefold_repetition_as_in_a_match(tmp_path: Path) -> None:
    """The seat claims by the rule the match claims by (chesslaws.engine_claims), when its turn comes."""
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("knight", "repeat")]):
            g = await srv.play(engine="knight", color="black", time_control="600+5")
            for ply, san in enumerate(["Nf6", "Ng8", "Nf6", "Ng8"]):
                await srv.wait(g["id"], lambda s: s["ply"] >= 2 * ply + 1)
                assert (await srv.move(g["id"], g["token"], san)).status_code == 200
            s = await srv.wait(g["id"], lambda s: s["status"] == "finished")
            assert (s["result"], s["termination"]) == ("1/2-1/2", "threefold_repetition")
            last = (await log_of(srv, g["id"]))[-1]
            assert (last["type"], last["by"], last["reason"]) == ("claim_draw", "white", "threefold")
    run(go())


def test_the_engine_seat_claims_the_persons_touch_move_violation_as_in_a_match(tmp_path: Path) -> None:
    """The person touches a knight and moves a pawn: the engine to move claims it (Article 4.3), as an engine
    in a match does, before it thinks."""
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("fake", "legal")]):
            g = await srv.play(engine="fake", color="black", time_control="600+5")
            await srv.wait(g["id"], lambda s: s["ply"] >= 1)
            auth = {"Authorization": f"Bearer {g['token']}"}
            r = await srv.c.post(f"/api/games/{g['id']}/events", json={"type": "touch", "square": "g8"}, headers=auth)
            assert r.status_code == 200, r.text
            assert (await srv.move(g["id"], g["token"], "e5")).status_code == 200
            await srv.wait(g["id"], lambda s: s["ply"] != 2 or bool(s.get("rulings")))
            log = await log_of(srv, g["id"])
            claims = [e for e in log if e["type"].startswith("claim")]
            assert [(e["type"], e["by"]) for e in claims] == [("claim_touch_move", "white")]
            s = await srv.state(g["id"])
            assert [m["san"] for m in s["moves"]] == ["a3"] and s["turn"] == "black"  # e5 taken back
    run(go())


def test_the_engine_seat_claims_the_persons_flag_where_flags_count_on_a_claim(tmp_path: Path) -> None:
    """1997 blitz (C.7): nobody sees a flag fall; the engine claims the person's flag when it falls."""
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("fake", "legal")]):
            g = await srv.play(engine="fake", color="black", time_control="2", edition="1997")
            s = await srv.wait(g["id"], lambda s: s["status"] == "finished", timeout=15)
            assert (s["result"], s["termination"]) == ("1-0", "time_forfeit")
            last = (await log_of(srv, g["id"]))[-1]
            assert (last["type"], last["by"]) == ("claim_flag", "white")
    run(go())


def test_pool_is_bounded_across_games(tmp_path: Path) -> None:
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("slow", "slow", "150")], pool=1):
            games = [await srv.play(engine="slow", color="black", time_control="60") for _ in range(3)]
            most = 0
            end = time.monotonic() + 20
            while time.monotonic() < end:
                most = max(most, srv.app.state.engines.pool.processes)
                states = [await srv.state(g["id"]) for g in games]
                if all(s["ply"] >= 1 for s in states):
                    break
                await asyncio.sleep(0.02)
            assert all(s["ply"] >= 1 for s in states)  # every game got its move
            assert most == 1
    run(go())


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_stockfish_at_a_node_limit_answers_the_person(tmp_path: Path) -> None:
    async def go() -> None:
        assert STOCKFISH is not None
        async for srv in serve(tmp_path, [EngineSpec("sf", (STOCKFISH,))]):
            g = await srv.play(engine="sf", color="white", time_control="120+1",
                               strength={"kind": "nodes", "value": 500})
            assert (await srv.move(g["id"], g["token"], "e4")).status_code == 200
            s = await srv.wait(g["id"], lambda s: s["ply"] >= 2)
            assert s["moves"][1]["color"] == "black" and s["black"] == "sf (500 nodes)"
            assert s["clocks"]["black_ms"] > 100_000  # it was told its clock and a node limit: it did not dawdle
    run(go())


def test_engine_takes_its_seat_again_after_a_restart(tmp_path: Path) -> None:
    async def go() -> None:
        async for srv in serve(tmp_path, [fake("fake", "legal")]):
            g = await srv.play(engine="fake", color="white", time_control="600", strength={"kind": "skill", "value": 3})
            assert (await srv.move(g["id"], g["token"], "e4")).status_code == 200
            await srv.wait(g["id"], lambda s: s["ply"] >= 2)
        async for srv in serve(tmp_path, [fake("fake", "legal")]):  # the same database, a new server
            assert (await srv.move(g["id"], g["token"], "d4")).status_code == 200
            s = await srv.wait(g["id"], lambda s: s["ply"] >= 4)
            assert s["black"] == "fake (skill 3)" and s["moves"][3]["color"] == "black"
    run(go())


def test_an_engine_game_starts_when_the_person_opens_it(tmp_path: Path) -> None:
    """The fair start is the default against an engine too. The engine's seat is there from the
    start (after a restart as well); the clocks start, and the engine with White moves, only when the
    person has opened the game (its WebSocket with the token)."""
    from fastapi.testclient import TestClient

    def app() -> Any:
        return create_app(str(tmp_path / "g.sqlite3"), engines=[fake("fake", "legal")], engine_pool=1)

    def wait(client: Any, gid: str, pred: Any) -> dict[str, Any]:
        end = time.monotonic() + 20
        while True:
            s = dict(client.get(f"/api/games/{gid}").json())
            if pred(s) or time.monotonic() > end:
                return s
            time.sleep(0.05)

    with TestClient(app()) as client:
        r = client.post("/api/engines/games", json={"engine": "fake", "color": "black", "time_control": "60"})
        assert r.status_code == 201, r.text
        g = r.json()
        assert g["state"]["waiting_for"] == ["black"] and not g["state"]["started"]
        client.app.state.hub.clock.wall0 += 30  # the server's clock moves on: nobody's clock does
        s = client.get(f"/api/games/{g['id']}").json()
        assert s["ply"] == 0 and s["waiting_for"] == ["black"] and s["clocks"]["white_ms"] == 60_000
    with TestClient(app()) as client:  # a restart: the engine takes its seat again, the game still waits
        s = client.get(f"/api/games/{g['id']}").json()
        assert s["ply"] == 0 and s["waiting_for"] == ["black"] and s["clocks"]["white_ms"] == 60_000
        with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['token']}") as ws:
            ws.receive_json()  # hello
            s = wait(client, g["id"], lambda s: s["ply"] >= 1)
            assert s["started"] and s["waiting_for"] == [] and s["moves"][0]["san"] == "a3"
            assert client.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": "e5"},
                               headers={"Authorization": f"Bearer {g['token']}"}).status_code == 200
        # Asked for explicitly, an immediate start: the engine moves at once, with nobody there.
        r = client.post("/api/engines/games", json={"engine": "fake", "color": "black", "when_ready": False})
        s = wait(client, r.json()["id"], lambda s: s["ply"] >= 1)
        assert s["ply"] >= 1 and s["waiting_for"] == []


def test_an_engine_started_while_the_server_stops_is_closed_not_left_running() -> None:
    """The pool is closed (the server stopping) while one of its processes is still starting: that process is
    closed as soon as it has started, and the search that asked for it is told the server is stopping;
    nothing outlives the pool."""
    from chesslaws.engines import EngineError
    from chesslaws.server.engines import EnginePool

    pool = EnginePool(1)
    spec = fake("fake", "legal")
    started: list[Any] = []

    class Closing:
        """The spec, whose start lets the server stop before the process is handed over."""

        def __eq__(self, other: object) -> bool:
            return other is self

        __hash__ = object.__hash__
        options = spec.options

        def start(self, start_timeout: float = 10.0) -> Any:
            eng = spec.start(start_timeout)
            started.append(eng)
            pool.close()
            return eng

    with pytest.raises(EngineError, match="stopping"):
        pool.acquire(Closing(), timeout=5)  # type: ignore[arg-type]
    assert len(started) == 1 and not started[0].alive
    assert pool.processes == 0

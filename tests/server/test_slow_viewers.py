"""Viewers that read late (or not at all) delay nobody, hold a bounded amount, and still get
the latest state when they read (a real ``chesslaws serve`` on loopback, 200 sockets)."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

DANCE = ["g1f3", "g8f6", "f3g1", "f6g8"]  # 1997: a repetition ends nothing without a claim
MOVES = 240  # the late viewers' whole states add up to about 5 MB: beyond what the kernel holds
READERS = 194
LATE = 4
WAIT = 60.0  # a guard only: every wait below ends when the state it waits for comes


async def _connect(url: str, late: bool = False) -> ClientConnection:
    if not late:
        return await websockets.connect(url, ping_interval=None, compression=None, proxy=None, max_size=2**22)
    # A viewer that does not read: a small receive buffer, and one message kept before its client stops
    # reading the socket, so that what it is sent waits on the server's side.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", int(url.split(":")[2].split("/")[0])))
    return await websockets.connect(url, sock=sock, ping_interval=None, compression=None, proxy=None,
                                    max_size=2**22, max_queue=1)


def _last_ply(raw: str | bytes) -> int:
    state = json.loads(raw).get("state") or {}
    moves = state.get("moves") or []
    return int(moves[-1]["ply"]) if moves else 0


async def _session(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/games", json={"white": "W", "black": "B", "edition": "1997",
                                                "time_control": "40/5400+30:1800+30", "when_ready": False})
        assert r.status_code == 201, r.text
        g = r.json()
    ws = base.replace("http://", "ws://") + f"/api/games/{g['id']}/ws"
    players = {s: await _connect(f"{ws}?token={g['tokens'][s]}&moves=new") for s in ("white", "black")}
    # The late viewers ask for whole states: each is bigger than the last (the moves grow), so that what
    # they are sent is well over what the kernel and the server's transport hold for a socket.
    late = [await _connect(ws, late=True) for _ in range(LATE)]
    readers = await asyncio.gather(*(_connect(f"{ws}?moves=new") for _ in range(READERS)))
    last: list[str | bytes] = ["{}"] * READERS  # parsed only when looked at

    async def read(i: int, conn: ClientConnection) -> None:
        async for raw in conn:
            last[i] = raw

    reading = [asyncio.ensure_future(read(i, c)) for i, c in enumerate(readers)]
    inbox: dict[str, asyncio.Queue[dict[str, Any]]] = {s: asyncio.Queue() for s in players}

    async def player(side: str) -> None:
        async for raw in players[side]:
            await inbox[side].put(json.loads(raw))

    listening = [asyncio.ensure_future(player(s)) for s in players]

    async def until(side: str, done: Any) -> dict[str, Any]:
        while True:
            msg = await inbox[side].get()
            if done(msg):
                return msg

    for n in range(MOVES):
        side, other = ("white", "black") if n % 2 == 0 else ("black", "white")
        await players[side].send(json.dumps({"rid": n, "event": {"type": "move", "move": DANCE[n % 4]}}))
        ack = await asyncio.wait_for(until(side, lambda m, n=n: m.get("rid") == n), WAIT)
        assert ack["kind"] == "ack", ack
        # The opponent has the move, whatever the late viewers have not read.
        await asyncio.wait_for(until(other, lambda m, n=n: m.get("kind") == "state" and _last_ply(json.dumps(m))
                                     == n + 1), WAIT)

    async def all_read() -> None:
        while any(_last_ply(raw) < MOVES for raw in last):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(all_read(), WAIT)  # every viewer that reads has every move
    # The late viewers read at last: whatever was dropped for them meanwhile, they get the latest state,
    # with every move; and they were sent fewer states than there were moves (only the latest counts).
    for conn in late:
        got = 0

        async def catch_up(conn: ClientConnection = conn) -> int:
            nonlocal got
            async for raw in conn:
                got += 1
                state = json.loads(raw).get("state")
                if state is not None and len(state["moves"]) == MOVES:
                    return got
            raise AssertionError("closed before the latest state")

        assert await asyncio.wait_for(catch_up(), WAIT) <= MOVES
    for task in (*reading, *listening):
        task.cancel()
    for conn in (*players.values(), *late, *readers):
        conn.transport.abort()


def test_viewers_that_do_not_read_delay_no_move_and_get_the_latest_state(tmp_path: Path,
                                                                          server_factory: Any) -> None:
    srv = server_factory(str(tmp_path / "g.sqlite3"), extra=("--no-rate-limits",))
    asyncio.run(_session(srv.url))


def test_an_outbox_writes_at_once_keeps_the_order_behind_a_full_socket_and_is_bounded() -> None:
    """hub.Outbox: a message goes straight to a socket that takes it (no task); behind a socket that
    does not (its send waits), the rest waits, in order, up to its bound; closing drops what is left."""
    from chesslaws.server.hub import Outbox

    async def scenario() -> None:
        writable = asyncio.Event()
        writable.set()
        written: list[str] = []

        async def send(text: str) -> None:  # as uvicorn's: waits while the transport is full
            await writable.wait()
            written.append(text)

        box = Outbox(3)  # not yet attached to its socket (the hello waits for the seat's presence)
        box.put_nowait("a")
        assert written == [] and box.qsize() == 1
        box.attach(send)
        assert written == ["a"] and box.empty()  # written at once
        writable.clear()  # the socket is full
        for text in "bcd":
            box.put_nowait(text)
        assert written == ["a"] and box.qsize() == 2  # "b" waits in its send, "c" and "d" behind it
        box.put_nowait("e")
        try:
            box.put_nowait("f")
            raise AssertionError("an outbox over its bound")
        except asyncio.QueueFull:
            pass
        writable.set()
        while not box.empty():
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert written == list("abcde")
        box.put_nowait("g")
        assert written[-1] == "g"  # at once again
        writable.clear()
        box.put_nowait("h")
        box.put_nowait("i")
        box.close()
        writable.set()
        for _ in range(3):
            await asyncio.sleep(0)
        assert written == list("abcdeg")  # nothing written after the socket is gone

    asyncio.run(scenario())

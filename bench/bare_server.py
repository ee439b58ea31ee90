"""The physical limit for ``bench_server.py --bare`` (not a test, not part of the package).

The same framework (FastAPI on uvicorn, WebSockets) and the same store (chesslaws' SQLite store in WAL
mode with synchronous=FULL, written from one thread with the same group commit) as ``chesslaws serve``,
but nothing else: every WebSocket message is appended as one row and acknowledged. No arbiter, no
clock, no state, no broadcast. ``chesslaws serve``'s moves per second divided by this server's is the
share of the physical limit that the Laws cost.

With ``?game=N&side=white|black`` the two sockets of a game share its log and each row is also sent to
the other one (a move's limit, ``bench_server.py``); ``?game=N&side=viewer`` watches game N: every row
of N is sent to it too, unless its previous row is still being written (a viewer that reads late is
skipped, never waited for: the least a fan-out can do; ``bench_sockets.py``).

    python bench/bare_server.py PORT DB
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from chesslaws.store.games import GameRecord, SQLiteStore, Store


def group_commit(store: Store, executor: ThreadPoolExecutor) -> Callable[[tuple[str, int, dict[str, Any]]],
                                                                          Awaitable[None]]:
    """``commit(item)``: appends one event (game id, seq, event) on ``executor``'s thread and returns once it is
    committed; events that wait together are committed in one transaction, as ``chesslaws serve`` does."""
    pending: list[tuple[tuple[str, int, dict[str, Any]], asyncio.Future[None]]] = []
    flushing = False

    async def flush() -> None:
        nonlocal flushing, pending
        loop = asyncio.get_running_loop()
        try:
            while pending:
                batch, pending = pending, []
                await loop.run_in_executor(executor, store.append_many, [item for item, _ in batch])
                for _, fut in batch:
                    fut.set_result(None)
        finally:
            flushing = False

    async def commit(item: tuple[str, int, dict[str, Any]]) -> None:
        nonlocal flushing
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        pending.append((item, fut))
        if not flushing:
            flushing = True
            asyncio.ensure_future(flush())
        await fut

    return commit


async def take(sock: WebSocket, table: dict[str, Any], gid: str,
               commit: Callable[[tuple[str, int, dict[str, Any]]], Awaitable[None]]) -> tuple[dict[str, Any], int]:
    """The socket's next message, its event committed as the game's next event number (``table["seq"]``)."""
    msg = json.loads(await sock.receive_text())
    seq = table["seq"]
    table["seq"] = seq + 1
    await commit((gid, seq, msg["event"]))
    return msg, seq


def create(db: str) -> FastAPI:
    store = SQLiteStore(db)
    executor = ThreadPoolExecutor(max_workers=1)
    commit = group_commit(store, executor)
    counter = itertools.count()

    app = FastAPI()
    # --relay: the two sockets of a game (?game=N&side=white|black) share its log, and each row is also
    # sent to the other socket: the least a move needs (stored, acknowledged, told to the opponent).
    tables: dict[str, dict[str, Any]] = {}

    busy: set[WebSocket] = set()

    async def tell(viewer: WebSocket, row: str) -> None:
        try:
            await viewer.send_text(row)
        except Exception:  # noqa: BLE001 - the viewer left
            pass
        finally:
            busy.discard(viewer)

    async def watch(sock: WebSocket, table: dict[str, Any]) -> None:
        viewers = table.setdefault("viewers", set())
        viewers.add(sock)
        try:
            while True:
                await sock.receive_text()  # a viewer only watches; whatever it sends is ignored
        except WebSocketDisconnect:
            pass
        finally:
            viewers.discard(sock)

    @app.websocket("/ws")
    async def ws(sock: WebSocket) -> None:
        await sock.accept()
        pair, side = sock.query_params.get("game"), sock.query_params.get("side")
        if pair is not None and side == "viewer":
            await watch(sock, tables.setdefault(f"r{pair}", {"seq": 1}))
            return
        if pair is None or side not in ("white", "black"):
            gid = f"g{next(counter)}"
            table: dict[str, Any] = {"seq": 1}
        else:
            gid = f"r{pair}"
            table = tables.setdefault(gid, {"seq": 1})
            table[side] = sock
        if not table.get("created"):
            table["created"] = True
            await asyncio.get_running_loop().run_in_executor(
                executor, store.create_game, GameRecord(gid, 0.0, "online", {}, {}, [{"type": "start", "t": 0}]))
        other = {"white": "black", "black": "white"}.get(side or "")
        try:
            while True:
                msg, seq = await take(sock, table, gid, commit)
                await sock.send_text(json.dumps({"kind": "ack", "rid": msg["rid"], "seq": seq}))
                if other is not None and table.get(other) is not None:
                    row = json.dumps({"kind": "state", "seq": seq, "event": msg["event"]})
                    await table[other].send_text(row)
                    for viewer in table.get("viewers", ()):
                        if viewer not in busy:  # one row in flight at most: a late reader is skipped
                            busy.add(viewer)
                            asyncio.ensure_future(tell(viewer, row))
        except WebSocketDisconnect:
            pass

    return app


if __name__ == "__main__":
    # The transport as `chesslaws serve` runs it: no per-message deflate (uvicorn's default is on, and
    # compressing every row would charge the relay for work chesslaws does not do).
    uvicorn.run(create(sys.argv[2]), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                ws_max_size=16 * 1024, ws_per_message_deflate=False)

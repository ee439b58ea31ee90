"""The peer of ``bench_proxy.py`` (not a test, not part of the package): the least a game server behind the
proxy does, in the same framework and on the same store as ``chesslaws serve``.

FastAPI on uvicorn (no per-message deflate), chesslaws' PostgreSQL store written from one thread with the same
group commit (events of several games that wait together in one transaction), and the same routes the bench
uses: ``POST /api/games`` stores a game with its start event and hands out two tokens; both players connect to
``/api/games/ID/ws`` (the token in the subprotocol header); each move is appended as event number ``seq`` of
the game's log (written only after ``seq - 1``, as chesslaws writes it), acknowledged to its sender and sent to
the opponent as a state with the new move. No arbiter, no clock, no view, no holds, no announcement: what
one process costs per move when it only stores and relays, so that the proxy bench's ratio of 2 and 3
processes to one can be read against the ratio the machine gives a server that does almost nothing.

    python bench/bare_proxied.py PORT POSTGRESQL_URL
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from bare_server import group_commit, take  # this folder: run as python bench/bare_proxied.py
from chesslaws.store.games import GameRecord, open_store


def create(url: str) -> FastAPI:
    store = open_store(url)
    executor = ThreadPoolExecutor(max_workers=1)
    commit = group_commit(store, executor)
    app = FastAPI()
    tables: dict[str, dict[str, Any]] = {}  # the games this process serves: their next seq and sockets

    @app.get("/api/languages")
    async def languages() -> list[str]:
        return ["en"]

    @app.post("/api/games")
    async def new_game() -> dict[str, Any]:
        gid = secrets.token_urlsafe(9)
        record = GameRecord(gid, 0.0, "online", {}, {}, [{"type": "start", "t": 0}])
        await asyncio.get_running_loop().run_in_executor(executor, store.create_game, record)
        return {"id": gid, "tokens": {"white": secrets.token_urlsafe(16), "black": secrets.token_urlsafe(16)}}

    @app.websocket("/api/games/{gid}/ws")
    async def ws(sock: WebSocket, gid: str) -> None:
        await sock.accept(subprotocol="chesslaws")
        table = tables.setdefault(gid, {"seq": 1, "sockets": []})  # its first move is event 1
        table["sockets"].append(sock)
        await sock.send_text(json.dumps({"kind": "state", "state": {"moves_from": 0, "moves": []}}))
        try:
            while True:
                msg, seq = await take(sock, table, gid, commit)
                state = {"moves_from": seq - 1, "moves": [msg["event"]["move"]]}
                await sock.send_text(json.dumps({"kind": "ack", "rid": msg["rid"], "state": state}))
                for other in table["sockets"]:
                    if other is not sock:
                        await other.send_text(json.dumps({"kind": "state", "state": state}))
        except WebSocketDisconnect:
            pass
        finally:
            table["sockets"].remove(sock)

    return app


if __name__ == "__main__":
    uvicorn.run(create(sys.argv[2]), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                ws_max_size=16 * 1024, ws_per_message_deflate=False)

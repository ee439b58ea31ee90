"""The game's WebSocket as a page meets it: the seat's token in the subprotocol header (not in the URL, which
proxies log), the old ``?token=`` still taken, and a ping answered while the socket's move waits on the store."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from chesslaws.server.guard import UNLIMITED
from chesslaws.store.games import SQLiteStore
from chesslaws.webapp import create_app


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


def _game(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/games", json={"white": "W", "black": "B", "time_control": "600+5", "when_ready": False})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        msg = json.loads(ws.receive_text())
        if msg["kind"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind}")


def test_the_token_in_the_subprotocol_opens_the_seat_and_the_old_url_still_does(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), limits=UNLIMITED)) as client:
        g = _game(client)
        gid, tok = g["id"], g["tokens"]
        with client.websocket_connect(f"/api/games/{gid}/ws?moves=new",
                                      subprotocols=["chesslaws", f"chesslaws.token.{tok['white']}"]) as ws:
            assert ws.accepted_subprotocol == "chesslaws"
            assert _until(ws, "hello")["seat"] == "white"
            ws.send_text(json.dumps({"rid": 1, "event": {"type": "move", "move": "e4"}}))
            assert _until(ws, "ack")["seq"] == 1
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['black']}") as ws:  # a client of before
            assert _until(ws, "hello")["seat"] == "black"
        with client.websocket_connect(f"/api/games/{gid}/ws", subprotocols=["chesslaws"]) as ws:
            assert _until(ws, "hello")["seat"] == "spectator"
        with client.websocket_connect(f"/api/games/{gid}/ws",
                                      subprotocols=["chesslaws", "chesslaws.token.nothing"]) as ws:
            assert _until(ws, "error")["status"] == 401


def test_a_ping_is_answered_while_the_sockets_move_waits_on_the_store(tmp_path: Path) -> None:
    store = HeldStore(str(tmp_path / "held.sqlite3"))
    with TestClient(create_app(store, limits=UNLIMITED)) as client:
        g = _game(client)
        gid, tok = g["id"], g["tokens"]
        with client.websocket_connect(f"/api/games/{gid}/ws?moves=new",
                                      subprotocols=["chesslaws", f"chesslaws.token.{tok['white']}"]) as ws:
            _until(ws, "state")
            store.go.clear()
            store.waiting.clear()
            ws.send_text(json.dumps({"rid": 1, "event": {"type": "move", "move": "e4"}}))
            assert store.waiting.wait(10), "the move never reached the store"
            t0 = time.monotonic()
            ws.send_text(json.dumps({"type": "ping", "id": 7}))
            pong = json.loads(ws.receive_text())  # the first message after the ping: the move is still held
            assert pong["kind"] == "pong" and pong["id"] == 7, pong
            assert time.monotonic() - t0 < 2
            assert not store.go.is_set()
            store.go.set()
            ack = _until(ws, "ack")
            assert ack["rid"] == 1 and ack["seq"] == 1
            ws.send_text(json.dumps({"rid": 2, "event": {"type": "move", "move": "e5"}}))  # not White's: refused
            assert _until(ws, "error")["rid"] == 2

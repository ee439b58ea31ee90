"""A client that speaks HTTP alone (a bot) says it is there with its seat's ``arrive``, and that counts as
opening the game as a WebSocket does: a fairly started game begins, and a scheduled game's player who said so
before the start is at the board at t=0."""

from __future__ import annotations

import json
import time
from typing import Any, Callable


def create(client: Any, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"white": "Anna", "black": "Bot", "time_control": "600", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def post(client: Any, g: dict[str, Any], side: str, event: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{g['id']}/events", json=event,
                       headers={"Authorization": f"Bearer {g['tokens'][side]}"})


def wait_for(client: Any, gid: str, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while True:
        state = dict(client.get(f"/api/games/{gid}").json())
        if ok(state):
            return state
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {state}"
        time.sleep(0.05)


def log_of(client: Any, g: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in client.get(f"/api/games/{g['id']}/log").text.splitlines()]


def test_a_bot_on_http_alone_opens_a_fairly_started_game(client: Any) -> None:
    g = create(client, when_ready=True, abort_after=30)
    assert post(client, g, "black", {"type": "move", "move": "e5"}).status_code == 409  # not begun
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}") as ws:
        ws.receive_json()  # hello
        assert wait_for(client, g["id"], lambda s: s["waiting_for"] == ["black"], "White's opening")
        r = post(client, g, "black", {"type": "arrive"})
        assert r.status_code == 200, r.text
        assert r.json()["event"] == {"type": "arrive", "by": "black"}
        state = wait_for(client, g["id"], lambda s: s["started"], "the start")
        assert state["waiting_for"] == [] and state["abort_at"] == 30
        ws.send_json({"rid": 1, "event": {"type": "move", "move": "e4"}})
        assert post(client, g, "black", {"type": "move", "move": "e5"}).status_code == 200
    assert [e["type"] for e in log_of(client, g)] == ["start", "begin", "move", "move"]


def test_two_bots_on_http_alone_start_their_game(client: Any) -> None:
    g = create(client, when_ready=True)
    assert post(client, g, "white", {"type": "arrive"}).status_code == 200
    assert client.get(f"/api/games/{g['id']}").json()["waiting_for"] == ["black"]
    assert post(client, g, "white", {"type": "arrive", "by": "white"}).status_code == 200  # said twice: no harm
    assert post(client, g, "black", {"type": "arrive"}).status_code == 200
    wait_for(client, g["id"], lambda s: s["started"], "the start")
    assert post(client, g, "white", {"type": "move", "move": "e4"}).status_code == 200
    # Nobody opens a game for another, and an arrive with more in it is an event like any other.
    h = create(client, when_ready=True)
    assert post(client, h, "white", {"type": "arrive", "by": "black"}).status_code == 403
    assert client.get(f"/api/games/{h['id']}").json()["waiting_for"] == ["white", "black"]
    assert post(client, h, "arbiter", {"type": "arrive", "by": "white"}).status_code == 403  # online: players act


def test_a_bot_that_says_it_is_there_before_a_scheduled_start_arrives_at_t0(client: Any) -> None:
    g = create(client, start_in=1.5, default_time=60)
    r = post(client, g, "black", {"type": "arrive"})
    assert r.status_code == 200, r.text
    state = wait_for(client, g["id"], lambda s: s["started"] and "black" not in s["absent"], "Black at the board")
    assert state["absent"] == ["white"]
    arrivals = [e for e in log_of(client, g) if e["type"] == "arrive"]
    assert arrivals == [{"type": "arrive", "t": 0, "by": "black"}]
    # After the start the arrive is the Laws' own event, written when it comes.
    r = post(client, g, "white", {"type": "arrive"})
    assert r.status_code == 200 and r.json()["event"]["t"] > 0

"""Through the API, the clock in use (a start field) and a move made without the press reach the log as
sent."""

from __future__ import annotations

from typing import Any

from test_api import create, log_lines, post


def test_the_clock_in_use_is_written_into_the_start(client: Any) -> None:
    g = create(client, time_control="300", edition="1997", clock="digital")
    assert log_lines(client, g["id"])[0]["clock"] == "digital"
    plain = create(client, time_control="300", edition="1997")
    assert "clock" not in log_lines(client, plain["id"])[0]
    r = client.post("/api/games", json={"clock": "sundial"})
    assert r.status_code == 422


def test_over_the_board_a_move_without_the_press(client: Any) -> None:
    g = create(client, time_control="5400", edition="2023", interface="otb")
    gid, arbiter = g["id"], g["tokens"]["arbiter"]
    r = post(client, gid, arbiter, {"type": "move", "move": "e4", "by": "white", "press": False})
    assert r.status_code == 200, r.text
    state = client.get(f"/api/games/{gid}").json()
    assert state["clocks"]["running"] == "white" and state["turn"] == "black"
    assert post(client, gid, arbiter, {"type": "press_clock", "by": "white"}).status_code == 200
    assert client.get(f"/api/games/{gid}").json()["clocks"]["running"] == "black"

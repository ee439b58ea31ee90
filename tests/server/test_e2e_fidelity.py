"""Issue 25 on the page: what the arbiter enters over the board that the log could not say before."""

from __future__ import annotations

import json
from typing import Any

import httpx

from conftest import needs_chromium
from test_e2e import click_move, new_game, open_seat

pytestmark = needs_chromium


def log_of(server: Any, game_id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in httpx.get(f"{server.url}/api/games/{game_id}/log").text.splitlines()]


def test_the_arbiter_enters_a_move_made_without_pressing_and_the_press(server: Any, browser: Any) -> None:
    """2023 6.2.1-6.2.2: White plays e4 and does not press; the arbiter's note says so (to him only);
    White presses later and Black's clock starts."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.check("#move-unpressed")
    click_move(arbiter, "e2", "e4")
    arbiter.wait_for_selector("#status:has-text('White has not pressed the clock')")
    assert arbiter.is_visible(".clock.running") and not arbiter.is_checked("#move-unpressed")
    moved = log_of(server, g["id"])[-1]
    assert (moved["type"], moved["by"], moved["press"]) == ("move", "white", False)
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["clocks"]["running"] == "white"
    arbiter.select_option("#act-for", "white")
    arbiter.click("#btn-press")
    arbiter.wait_for_selector("#status:not(:has-text('has not pressed'))")
    pressed = log_of(server, g["id"])[-1]
    assert (pressed["type"], pressed["by"]) == ("press_clock", "white")
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["clocks"]["running"] == "black"
    arbiter.context.close()

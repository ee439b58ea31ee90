"""A round broadcast live in Chromium: the spectators' page shows every board of the round and follows the games
as they are played (a move, a result), in the reader's language, on a phone too; its PGN link is the feed."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from conftest import at_390, needs_chromium

pytestmark = needs_chromium
expect = pytest.importorskip("playwright.sync_api").expect


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(url: str, link: str, san: str) -> None:
    gid = urlparse(link).path.rsplit("/", 1)[1]
    token = urlparse(link).fragment.split("token=", 1)[1]
    r = httpx.post(f"{url}/api/games/{gid}/events", json={"type": "move", "move": san}, headers=bearer(token))
    assert r.status_code == 200, r.text


def test_spectators_follow_every_board_of_a_round(live_server: Any, browser: Any, shots: Path) -> None:
    url = live_server.url
    body = {"name": "Club Rapid", "system": "swiss", "rounds": 3, "time_control": "600+5",
            "players": [{"name": f"Player {c}", "rating": 2100 - 20 * i, "title": "FM" if i == 0 else ""}
                        for i, c in enumerate("ABCDEFG")]}
    r = httpx.post(f"{url}/api/tournaments", json=body)
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    boards = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=bearer(tok)).json()["boards"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = ctx.new_page()
    page.goto(f"{url}/tournament/{tid}/round/1")
    page.wait_for_selector(".live-board[data-table='3']")
    assert page.locator(".live-board").count() == 3
    assert "Runde 1" in page.locator("#live-name").inner_text()  # in the reader's language
    assert "pairing" not in page.inner_text("#live-byes")  # the bye, in German too
    # A move on board 1 reaches the page (the event's WebSocket says it changed), then a mate on board 2.
    play(url, boards[0]["white"]["link"], "e4")
    expect(page.locator(".live-board[data-table='1'] .state")).to_contain_text("1. e4")
    assert page.locator(".live-board[data-table='1'] .sq.last").count() == 2
    for i, san in enumerate(["f3", "e5", "g4", "Qh4#"]):
        play(url, boards[1]["white" if i % 2 == 0 else "black"]["link"], san)
    expect(page.locator(".live-board[data-table='2'] .state")).to_contain_text("0 – 1")
    href = page.get_attribute("#live-pgn", "href")
    pgn = httpx.get(f"{url}{href}").text
    assert pgn.count("[Round \"1.") == 3 and "Qh4#" in pgn
    page.screenshot(path=str(shots / "round-live-1280.png"), full_page=True)
    at_390(page, shots, "round-live")
    ctx.close()

"""The manual's screenshots, made by the browser on every run of the suite (so they cannot go stale): each
guide's key pages at 1280 and 390 px, written to docs/shots/ for the manual (mkdocs.yml) to show.
Every image the manual shows must be made here (tests/test_manual.py checks it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from conftest import needs_chromium
from test_e2e import new_game

pytestmark = needs_chromium
expect = pytest.importorskip("playwright.sync_api").expect

SHOTS = Path(__file__).resolve().parent.parent.parent / "docs" / "shots"


def shoot(page: Any, name: str) -> None:
    """``NAME-1280.png`` (the viewport) and ``NAME-390.png`` (a phone; no sideways scrolling)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(200)  # the layout settles after a resize (fonts, the board's size)
    page.screenshot(path=str(SHOTS / f"{name}-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name} scrolls sideways at 390 px"
    page.screenshot(path=str(SHOTS / f"{name}-390.png"))


def play(url: str, link: str, san: str) -> None:
    gid = urlparse(link).path.rsplit("/", 1)[1]
    token = urlparse(link).fragment.split("token=", 1)[1]
    r = httpx.post(f"{url}/api/games/{gid}/events", json={"type": "move", "move": san},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def test_the_players_pages(server: Any, browser: Any) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("form")
    shoot(page, "lobby")
    g = new_game(server, time_control="600+5", edition="2023")
    for san, side in (("e4", "white"), ("e5", "black"), ("Nf3", "white"), ("Nc6", "black")):
        r = httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "move", "move": san},
                       headers={"Authorization": f"Bearer {g['tokens'][side]}"})
        assert r.status_code == 200, r.text
    page.goto(g["links"]["white"])
    page.wait_for_selector("#status:has-text('White to move')")
    shoot(page, "game")
    page.context.close()


def test_the_arbiters_console(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400+30", edition="2023", interface="otb")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(g["links"]["arbiter"])
    page.wait_for_selector("#status[data-status]")
    shoot(page, "console")
    page.context.close()


def test_the_organisers_pages(server: Any, browser: Any) -> None:
    url = server.url
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(url + "/tournaments")
    page.wait_for_selector("form")
    shoot(page, "tournaments")
    body = {"name": "Club Rapid", "system": "swiss", "rounds": 5, "time_control": "900+10",
            "players": [{"name": n, "rating": 2100 - 37 * i} for i, n in enumerate(
                ["Ada Lind", "Bo Meyer", "Cyril Dupont", "Dana Ruiz", "Emil Novak", "Fay Okafor", "Gus Berg",
                 "Hana Sato"])]}
    r = httpx.post(f"{url}/api/tournaments", json=body)
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    auth = {"Authorization": f"Bearer {tok}"}
    boards = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=auth).json()["boards"]
    for b in boards[:3]:
        for i, san in enumerate(["f3", "e5", "g4", "Qh4#"]):
            play(url, b["white" if i % 2 == 0 else "black"]["link"], san)
    play(url, boards[3]["white"]["link"], "d4")
    page.goto(f"{url}/tournament/{tid}/arbiter#token={tok}")
    page.wait_for_selector("text=Ada Lind")
    shoot(page, "round-console")
    page.goto(f"{url}/tournament/{tid}/round/1")
    expect(page.locator(".live-board[data-table='4'] .state")).to_contain_text("1. d4")
    shoot(page, "round-live")
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("#standings tbody tr")
    shoot(page, "standings")
    page.context.close()

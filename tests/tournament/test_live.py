"""A 4-player round robin on the live server: games created from the pairings, played by the players'
clients, results flowing back into the standings page, watched in a real browser (Debian's chromium)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlparse

import httpx
import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")

MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def post(server: Any, game_id: str, token: str, event: dict[str, Any]) -> None:
    r = httpx.post(f"{server.url}/api/games/{game_id}/events", json=event,
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def play(server: Any, board: dict[str, Any], how: str) -> None:
    w, b = token_of(board["white"]["link"]), token_of(board["black"]["link"])
    gid = board["game_id"]
    if how == "mate":
        for i, san in enumerate(MATE):
            post(server, gid, w if i % 2 == 0 else b, {"type": "move", "move": san})
        return
    post(server, gid, w, {"type": "move", "move": "d4"})
    post(server, gid, b, {"type": "move", "move": "d5"})
    if how == "draw":
        post(server, gid, w, {"type": "offer_draw"})
        post(server, gid, b, {"type": "accept_draw"})
    else:  # black wins: White resigns
        post(server, gid, w, {"type": "resign"})


def test_round_robin_to_final_standings(live_server: Any, browser: Any, tmp_path: Path) -> None:
    server = live_server
    r = httpx.post(f"{server.url}/api/tournaments", json={
        "name": "Live Quad", "system": "round-robin", "time_control": "900+10", "edition": "2023",
        "players": [{"name": "Anna", "rating": 2100}, {"name": "Boris", "rating": 2000},
                    {"name": "Chen", "rating": 1900}, {"name": "Dana", "rating": 1800}]})
    assert r.status_code == 201, r.text
    created = r.json()
    tid, token = created["id"], created["arbiter_token"]
    auth = {"Authorization": f"Bearer {token}"}

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{server.url}/tournament/{tid}")
    page.wait_for_selector("text=Round 1 is not paired yet.")
    assert httpx.post(f"{server.url}/api/tournaments/{tid}/rounds").status_code == 403  # only the arbiter pairs

    plan = {1: ["mate", "draw"], 2: ["black", "mate"], 3: ["draw", "mate"]}
    for rnd in (1, 2, 3):
        paired = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", headers=auth)
        assert paired.status_code == 201, paired.text
        boards = paired.json()["boards"]
        assert [(b["white"]["start_number"], b["black"]["start_number"]) for b in boards] == \
            {1: [(1, 4), (2, 3)], 2: [(4, 3), (1, 2)], 3: [(2, 4), (3, 1)]}[rnd]  # the Berger table
        # A round cannot be paired before this one is over.
        assert httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", headers=auth).status_code == 409
        page.wait_for_selector(f"[data-round='{rnd}'] h3:has-text('in play')")
        for board, how in zip(boards, plan[rnd]):
            play(server, board, how)
        page.wait_for_selector(f"[data-round='{rnd}'] h3:text-is('Round {rnd}')", timeout=10000)

    page.wait_for_selector("#standings-title:text-is('Final standings')", timeout=10000)
    state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
    assert state["finished"]
    # R1: 1-4 1-0 (mate), 2-3 draw; R2: 4-3 0-1 (White resigns), 1-2 1-0; R3: 2-4 draw, 3-1 1-0 (mate).
    # Anna 2, Chen 2.5, Boris 1, Dana 0.5.
    got = [(s["start_number"], s["points"]) for s in state["standings"]]
    assert got == [(3, 2.5), (1, 2), (2, 1), (4, 0.5)]
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4
    assert rows.nth(0).locator("td.name").inner_text() == "Chen"
    assert rows.nth(0).locator("td.pts").inner_text() == "2½"
    # The crosstable: Chen (3) drew Boris (2) with Black, beat Dana (4) with Black and Anna (1) with White.
    chen = page.locator("#crosstable tbody tr").nth(2)
    assert [chen.locator("td.cell").nth(i).inner_text() for i in range(3)] == ["2b½", "4b1", "1w1"]
    page.screenshot(path=str(tmp_path / "standings-1280.png"), full_page=True)
    small = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    small.goto(f"{server.url}/tournament/{tid}")
    small.wait_for_selector("#standings-title:text-is('Final standings')")
    small.screenshot(path=str(tmp_path / "standings-390.png"), full_page=True)
    shots = os.environ.get("CHESSLAWS_SCREENSHOTS")
    if shots:
        for f in tmp_path.glob("standings-*.png"):
            shutil.copy(f, Path(shots) / f.name)
    # Every board got its result from its game.
    assert all(b["result"] for r in state["rounds"] for b in r["boards"])

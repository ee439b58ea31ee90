"""Issue 28 in the browser: what a newcomer trips over. Time controls typed the way players write them,
several seats in one browser, messages for people, no dead controls, rematch; screenshots at 1280 and 390 px
(to ``CHESSLAWS_SHOTS`` when set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import at_390, needs_chromium

pytestmark = needs_chromium


def new_game(server: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("white", "Anna")
    body.setdefault("black", "Boris")
    r = httpx.post(server.url + "/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def post(server: Any, g: dict[str, Any], side: str, event: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{server.url}/api/games/{g['id']}/events", json=event,
                      headers={"Authorization": f"Bearer {g['tokens'][side]}"})


def open_page(ctx: Any, link: str) -> Any:
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#status[data-status]")
    return page


# --- 1. time controls as players write them ----------------------------------------------------------------


def test_5_plus_3_typed_in_the_lobby_is_five_minutes_and_three_seconds(server: Any, browser: Any, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.fill("#white", "Typist")
    page.fill("#tc", "5+3")
    page.wait_for_selector("#tc-meaning:has-text('5 min each')")
    assert "3 s a move" in page.inner_text("#tc-meaning")
    assert "on" in (page.get_attribute("#presets button[data-tc='300+3']", "class") or "")
    page.click("#create-btn")
    page.wait_for_selector("#link-white")
    gid = page.input_value("#link-white").split("/game/")[1].split("#")[0]
    assert httpx.get(f"{server.url}/api/games/{gid}").json()["time_control"] == "300+3"
    # 90+30 and the classical 40/90+30:30+30 in minutes too; the games list writes them back the same way.
    for typed in ("90+30", "40/90+30:30+30"):
        page.fill("#tc", typed)
        page.click("#create-btn")
        page.wait_for_selector(f"#games td.tc:has-text('{typed.split(':')[0]}')")
    listed = {httpx.get(f"{server.url}/api/games/{g['id']}").json()["time_control"]
              for g in httpx.get(f"{server.url}/api/games").json()}
    assert {"5400+30", "40/5400+30:1800+30"} <= listed
    # What cannot be meant is refused with a hint, never sent.
    before = len(httpx.get(f"{server.url}/api/games").json())
    page.fill("#tc", "300+3")
    page.wait_for_selector("#tc-meaning.bad")
    assert "minutes" in page.inner_text("#tc-meaning")
    page.click("#create-btn")
    page.wait_for_selector("#toast.show:has-text('5+3')")
    page.fill("#tc", "five")
    page.wait_for_selector("#tc-meaning.bad:has-text('5+3')")
    assert len(httpx.get(f"{server.url}/api/games").json()) == before
    page.fill("#tc", "5+3")
    page.screenshot(path=str(shots / "lobby-1280.png"), full_page=True)
    at_390(page, shots, "lobby")
    ctx.close()


# --- 2. several seats in one browser -----------------------------------------------------------------------


def test_three_seats_in_one_browser_survive_reloads(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="600+5")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pages = {s: open_page(ctx, g["links"][s]) for s in ("white", "black", "arbiter")}
    badge = {"white": "playing White", "black": "playing Black", "arbiter": "arbiter"}
    for s, page in pages.items():
        page.wait_for_selector(f"#seat:has-text('{badge[s]}')")
        page.wait_for_url(f"**#seat={s}")
    for _ in range(2):  # reloads, in the order that used to leave every tab on the last seat opened
        for s in ("white", "black", "arbiter"):
            pages[s].reload()
            pages[s].wait_for_selector("#status[data-status]")
            pages[s].wait_for_selector(f"#seat:has-text('{badge[s]}')")
    assert pages["white"].inner_text("#seat") == "playing White"
    # The seat in the address opens that seat in a new tab too; the plain address, with three seats here, watches.
    fresh = open_page(ctx, f"{server.url}/game/{g['id']}#seat=black")
    fresh.wait_for_selector("#seat:has-text('playing Black')")
    plain = open_page(ctx, f"{server.url}/game/{g['id']}")
    plain.wait_for_selector("#seat:has-text('spectator')")
    # And White still plays as White after all this.
    pages["white"].reload()
    pages["white"].wait_for_selector("#seat:has-text('playing White')")
    ctx.close()

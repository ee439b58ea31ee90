"""A game page asks the server only for what exists: its console shows no failed request. A game of its own
asks for no tournament, a game without a rematch for no rematch (the state says whether there is one), and a
tournament's game finds its event. Each page is opened in Chromium and fails on any 4xx or 5xx response."""

from __future__ import annotations

from typing import Any

import httpx

from conftest import needs_chromium
from test_e2e import new_game

pytestmark = needs_chromium


def opened(browser: Any, link: str, ready: str) -> tuple[Any, list[str]]:
    """The page at ``link`` once ``ready`` (a selector) shows and the network is quiet, and every response
    of 400 or more it had, and every console error."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(link)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    return page, failed


def auth(g: dict[str, Any], side: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {g['tokens'][side]}"}


def test_a_game_of_its_own_asks_for_no_tournament_and_no_rematch(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="600")
    for seat in ("white", "arbiter"):
        page, failed = opened(browser, g["links"][seat], "#status[data-status]")
        assert failed == [], failed
        page.context.close()
    r = httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "resign"}, headers=auth(g, "white"))
    assert r.status_code == 200
    page, failed = opened(browser, g["links"]["black"], "#end-box:not([hidden])")
    assert page.is_visible("#btn-rematch") and page.is_hidden("#tournament-link")
    assert failed == [], failed
    page.context.close()


def test_a_finished_game_shows_its_rematch_from_its_state(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="600")
    httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "resign"}, headers=auth(g, "white"))
    r = httpx.post(f"{server.url}/api/games/{g['id']}/rematch", headers=auth(g, "white"))
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["rematch"] == new
    page, failed = opened(browser, f"{server.url}/game/{g['id']}", f"#watch-rematch[href='/game/{new}']:not([hidden])")
    assert failed == [], failed
    page.context.close()
    page, failed = opened(browser, g["links"]["black"], "#end-box:not([hidden])")
    page.wait_for_selector("#btn-rematch:has-text('Go to the rematch')")
    assert failed == [], failed
    page.context.close()


def test_a_tournament_game_finds_its_event(server: Any, browser: Any) -> None:
    body = {"name": "Club Blitz", "system": "swiss", "rounds": 2, "time_control": "300", "edition": "2023",
            "players": [{"name": f"P{i}", "rating": 2000 - 10 * i} for i in range(1, 3)]}
    r = httpx.post(f"{server.url}/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    r = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"start": "now"},
                   headers={"Authorization": f"Bearer {tok}"})
    assert r.status_code == 201, r.text
    board = r.json()["boards"][0]
    state = httpx.get(f"{server.url}/api/games/{board['game_id']}").json()
    assert state["competition"] == {"event": "Club Blitz", "round": "1"} and state["rematch"] is None
    page, failed = opened(browser, board["white"]["link"], "#tournament-link:not([hidden])")
    assert "Club Blitz" in page.inner_text("#tournament-link")
    assert failed == [], failed
    page.context.close()

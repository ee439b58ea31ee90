"""An organiser finds each round's live page and PGN feed where he works: the standings page links them under
every round (and the whole event's PGN in its header), the round console beside the pairing sheet."""

from __future__ import annotations

from typing import Any

import httpx

from conftest import needs_chromium

pytestmark = needs_chromium


def test_the_standings_and_the_round_console_link_each_rounds_live_page_and_feed(live_server: Any, browser: Any) -> None:
    url = live_server.url
    body = {"name": "Links Open", "system": "swiss", "rounds": 2, "time_control": "600+5",
            "players": [{"name": n, "rating": 2000 - 10 * i} for i, n in enumerate(["Anna", "Boris", "Chen", "Dana"])]}
    r = httpx.post(f"{url}/api/tournaments", json=body)
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    auth = {"Authorization": f"Bearer {tok}"}
    assert httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=auth).status_code == 201
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = ctx.new_page()
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector(".round[data-round='1'] a.live-link")
    assert page.inner_text(".round[data-round='1'] a.live-link") == "Échiquiers en direct"
    pgn = page.get_attribute(".round[data-round='1'] a.pgn-link", "href")
    assert pgn == f"/api/tournaments/{tid}/rounds/1/pgn"
    feed = httpx.get(url + pgn).text
    assert feed.count('[Round "1.') == 2 and "Anna" in feed
    assert page.get_attribute("#t-pgn", "href") == f"/api/tournaments/{tid}/pgn"
    assert httpx.get(url + f"/api/tournaments/{tid}/pgn").status_code == 200
    page.click(".round[data-round='1'] a.live-link")
    page.wait_for_selector(".live-board[data-table='2']")
    assert page.url == f"{url}/tournament/{tid}/round/1"
    page.goto(f"{url}/tournament/{tid}/arbiter#token={tok}")
    page.wait_for_selector("#c-live:not([hidden])")
    assert page.get_attribute("#c-live", "href") == f"/tournament/{tid}/round/1"
    assert page.get_attribute("#c-pgn", "href") == pgn
    assert page.inner_text("#c-pgn") == "PGN de la ronde"
    ctx.close()

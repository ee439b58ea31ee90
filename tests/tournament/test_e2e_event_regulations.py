"""The regulations the Laws leave to an event (2023 9.1.1, 11.2.4, III.4), set in the tournament creation form
in the organiser's language: the event stores them, its standings page says them, and a round's game shows them
in its info line."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import httpx

from conftest import needs_chromium

pytestmark = needs_chromium


def test_the_form_sets_the_regulations_a_rounds_game_then_shows(live_server: Any, browser: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = ctx.new_page()
    page.goto(f"{url}/tournaments")
    assert page.inner_text("#t-regs-set legend") == "Was die Regeln der Turnierordnung überlassen"
    page.fill("#t-name", "Remisregel Open")
    page.fill("#t-players", "Anna, 2000\nBoris, 1900")
    page.fill("#t-tc", "90+30")
    assert page.is_hidden("#t-draw-move-field")  # the move is asked for only when the offers wait for one
    page.select_option("#t-draws", "before")
    page.fill("#t-draw-move", "25")
    page.check("#t-report")
    page.click("#t-create-btn")
    page.wait_for_selector("#t-created:not([hidden])")
    console = page.locator("#t-links .link input").first.input_value()
    tid = urlparse(console).path.split("/tournament/")[1].split("/")[0]
    regs = httpx.get(f"{url}/api/tournaments/{tid}").json()["regulations"]
    assert regs["no_draw_before_move"] == 25 and regs["report_leaving"] is True
    assert "no_draw_offers" not in regs and "increment_possible" not in regs  # left as the Laws have them
    expected = ("Turnierordnung: keine Remisangebote vor dem 25. Zug ohne Zustimmung des Schiedsrichters; "
                "vor dem Verlassen des Spielbereichs beim Schiedsrichter melden")
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("body[data-ready]")
    assert expected in page.inner_text("#t-regs")
    token = urlparse(console).fragment.split("token=", 1)[1]
    r = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    page.goto(r.json()["boards"][0]["white"]["link"])
    page.wait_for_selector("#info:has-text('Turnierordnung')")
    assert expected in page.inner_text("#info")
    # Never without the arbiter's consent, and clocks without an increment: the other choices.
    page.goto(f"{url}/tournaments")
    page.fill("#t-name", "Ohne Remis Open")
    page.fill("#t-players", "Anna\nBoris")
    page.select_option("#t-draws", "never")
    page.check("#t-no-increment")
    page.click("#t-create-btn")
    page.wait_for_selector("#t-created:not([hidden])")
    tid = urlparse(page.locator("#t-links .link input").first.input_value()).path.split("/tournament/")[1].split("/")[0]
    regs = httpx.get(f"{url}/api/tournaments/{tid}").json()["regulations"]
    assert regs["no_draw_offers"] is True and regs["increment_possible"] is False and "report_leaving" not in regs
    ctx.close()

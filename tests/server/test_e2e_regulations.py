"""On the game page: the event's regulations the Laws defer to (2023 9.1.1, 11.2.4, III.4), as the start
event set them, in the info line, in the reader's language."""

from __future__ import annotations

from typing import Any

from conftest import needs_chromium
from test_e2e import new_game

pytestmark = needs_chromium


def info_line(browser: Any, link: str, locale: str) -> str:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, locale=locale)
    try:
        page = ctx.new_page()
        page.goto(link)
        page.wait_for_selector("#status[data-status]")
        page.wait_for_selector("#info:has-text('·')")
        return str(page.inner_text("#info"))
    finally:
        ctx.close()


def test_the_page_shows_the_regulations(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400", edition="2023", no_draw_before_move=30, report_leaving=True)
    link = f"{server.url}/game/{g['id']}"
    english = info_line(browser, link, "en-GB")
    assert ("Regulations: no draw offers before move 30 without the arbiter's consent; report to the arbiter "
            "before leaving the playing area") in english
    german = info_line(browser, link, "de-DE")
    assert "Turnierordnung: keine Remisangebote vor dem 30. Zug ohne Zustimmung des Schiedsrichters" in german
    plain = new_game(server, time_control="5400", edition="2023")
    assert "Regulations" not in info_line(browser, f"{server.url}/game/{plain['id']}", "en-GB")

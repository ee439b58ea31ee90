"""In the browser: a stranger who opens an open-seat game whose creator asked for the arbiter's link
is told, before the Take-the-seat button, that his opponent also holds it (in the page's language), and his
join says so; where the creator holds no such link, nothing is said."""

from __future__ import annotations

from typing import Any

import httpx

from conftest import needs_chromium
from test_e2e import new_game

pytestmark = needs_chromium


def _guest(browser: Any, link: str, locale: str = "en-GB") -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#btn-join")
    return page


def test_the_join_box_says_that_the_opponent_holds_the_arbiters_link(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="300", when_ready=True, black=None, arbiter_link=True)
    assert "arbiter" in g["tokens"] and g["state"]["arbiter_is_a_player"]
    guest = _guest(browser, g["links"]["spectator"])
    warning = guest.locator("#join-box #join-arbiter-warning")
    assert "also holds its arbiter's link" in warning.inner_text()
    # Before the button: read first.
    order = guest.evaluate("""() => { const w = document.getElementById('join-arbiter-warning');
        const b = document.getElementById('btn-join');
        return !!(w.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    assert order
    guest.fill("#join-name", "Gustav")
    guest.click("#btn-join")
    guest.wait_for_selector("#seat:has-text('playing Black')")
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["black"] == "Gustav"
    guest.context.close()
    # In German, and not at all where the creator holds no arbiter's link.
    g = new_game(server, time_control="300", when_ready=True, black=None, arbiter_link=True)
    de = _guest(browser, g["links"]["spectator"], "de-DE")
    assert "Link des Schiedsrichters" in de.locator("#join-arbiter-warning").inner_text()
    de.context.close()
    g = new_game(server, time_control="300", when_ready=True, black=None)
    assert "arbiter" not in g["tokens"]
    plain = _guest(browser, g["links"]["spectator"])
    assert plain.locator("#join-arbiter-warning").count() == 0
    plain.context.close()

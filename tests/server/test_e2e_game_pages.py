"""The game page and the arbiter's console, as a person meets them in his own language: the board, the clocks
and the moves as a screen reader says them; over the board the arbiter enters who arrives, by name; a draw
agreement that the event's regulations make the arbiter's to allow (2023 9.1.1) shown on his console with
Grant and Reject."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import needs_chromium
from test_e2e import confirm

pytestmark = needs_chromium


def new_game(server: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("white", "Anna")
    body.setdefault("black", "Boris")
    body.setdefault("when_ready", False)
    body.setdefault("presence", False)
    r = httpx.post(server.url + "/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def event(server: Any, g: dict[str, Any], seat: str, ev: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{server.url}/api/games/{g['id']}/events", json=ev,
                      headers={"Authorization": "Bearer " + g["tokens"][seat]})


def log(server: Any, g: dict[str, Any]) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.url}/api/games/{g['id']}/log", headers={"Authorization": "Bearer " + g["tokens"]["arbiter"]})
    return [json.loads(line) for line in r.text.splitlines()]


def open_page(browser: Any, link: str, locale: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, locale=locale)
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#status[data-status]")
    return page


def test_the_board_clocks_and_moves_are_said_in_the_readers_language(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="300+3", edition="2023")
    black = open_page(browser, g["links"]["black"], "de-DE")
    assert black.get_attribute('[data-sq="a1"]', "aria-label") == "a1, weißer Turm"
    assert black.get_attribute('[data-sq="d8"]', "aria-label") == "d8, schwarze Dame"
    assert black.get_attribute('[data-sq="e4"]', "aria-label") == "e4, leer"
    clocks = black.eval_on_selector_all(".clock", "cs => cs.map((c) => c.getAttribute('aria-label'))")
    assert "Uhr von Schwarz: 5 Minuten" in clocks  # White's runs: "Uhr von Weiß: 4 Minuten 59 Sekunden"
    assert any(re.fullmatch(r"Uhr von Weiß: (4 Minuten( \d+ Sekunden?)?|5 Minuten)", c) for c in clocks), clocks
    assert event(server, g, "white", {"type": "move", "move": "e4"}).status_code == 200
    black.wait_for_selector("#announce:has-text('Weiß: Bauer von e2 nach e4')")
    black.click("#nav-first")
    assert black.inner_text("#viewing") == "Sie sehen die Ausgangsstellung — Ende drücken, um zur Partie zurückzukehren"
    black.wait_for_selector("#announce:has-text('Die Ausgangsstellung')")
    black.press("body", "End")
    black.wait_for_selector("#viewing", state="hidden")
    assert black.get_attribute("#sheet button.mv[data-ply='1']", "aria-label") == "1. e4: diese Stellung zeigen"
    black.press("body", "c")  # the clocks read aloud
    black.wait_for_selector("#announce:has-text('Die Uhr von Schwarz läuft')")
    said = black.inner_text("#announce")
    assert re.fullmatch(r"Weiß \d Minuten?( \d+ Sekunden?)?, Schwarz \d Minuten?( \d+ Sekunden?)?; Die Uhr von Schwarz läuft", said), said
    # Picked up from the keyboard: the square and its legal moves.
    black.focus('[data-sq="e7"]')
    black.keyboard.press("Enter")
    black.wait_for_selector("#announce:has-text('e7 aufgenommen; 2 regelgemäße Züge')")
    assert black.get_attribute('[data-sq="e5"]', "aria-label") == "e5, leer, ein regelgemäßer Zug"
    black.context.close()


@pytest.mark.parametrize(("locale", "words"), [("en-GB", "Black arrives"), ("de-DE", "Schwarz ist da")])
def test_over_the_board_the_arbiter_enters_who_arrives(server: Any, browser: Any, locale: str, words: str) -> None:
    """1997: the game resumed with only the sealer at the board; the console says who arrives, not "I am here",
    and the arrival it enters is Black's: the envelope is opened in his presence."""
    g = new_game(server, time_control="40/7200:3600", edition="1997", interface="otb")
    for i, san in enumerate(["e4", "e5", "Nf3", "Nc6"]):
        assert event(server, g, "arbiter", {"type": "move", "move": san, "by": "white" if i % 2 == 0 else "black"}).status_code == 200
    assert event(server, g, "arbiter", {"type": "seal", "move": "Bb5", "by": "white"}).status_code == 200
    arb = open_page(browser, g["links"]["arbiter"], locale)
    arb.wait_for_selector('#status[data-status="adjourned"]')
    arb.click("#arb-resume")
    arb.wait_for_selector("#resume-dialog[open]")
    arb.uncheck("#present-black")
    arb.click("#resume-yes")
    arb.wait_for_selector("#btn-arrive-black:not([hidden])", state="attached")
    arb.click("#tab-clock")  # the arrival is entered in the clock's group
    arb.wait_for_selector("#btn-arrive-black:visible")
    assert arb.inner_text("#btn-arrive-black") == words
    assert not arb.is_visible("#btn-arrive") and not arb.is_visible("#btn-arrive-white")
    arb.click("#btn-arrive-black")
    arb.wait_for_selector("#sheet button.mv[data-ply='5']")  # the envelope opened in the replier's presence (Bb5)
    arrivals = [e for e in log(server, g) if e["type"] == "arrive"]
    assert [e["by"] for e in arrivals] == ["black"]
    arb.wait_for_selector("#arrive-box", state="hidden")
    arb.context.close()


#: The console's words, in English and in German: the agreement waiting, the alert, the confirmation of each ruling.
AGREEMENT = {
    "en-GB": ("Black (Boris) accepts White (Anna)'s draw offer: the regulations of the event need your consent to "
              "the agreement.", "the clocks are stopped until you decide it",
              {"grant": "draw by agreement", "reject": "the game continues"}),
    "de-DE": ("Schwarz (Boris) nimmt das Remisangebot von Weiß (Anna) an: Nach der Turnierordnung braucht die "
              "Vereinbarung Ihre Zustimmung.", "die Uhren stehen, bis Sie der Vereinbarung zustimmen oder sie ablehnen",
              {"grant": "remis durch Vereinbarung", "reject": "die Partie geht weiter"}),
}


@pytest.mark.parametrize(("ruling", "locale"), [("grant", "en-GB"), ("reject", "de-DE")])
def test_a_draw_agreement_waits_for_the_arbiters_consent(server: Any, browser: Any, ruling: str, locale: str,
                                                         shots: Path) -> None:
    """2023 9.1.1 with the regulations' no_draw_offers: Boris accepts Anna's offer, the clocks stop, and the
    arbiter's console shows the agreement with Grant and Reject; the players' page says it waits for him."""
    waiting, alert, confirmed = AGREEMENT[locale]
    g = new_game(server, time_control="5400+30", edition="2023", no_draw_offers=True)
    arb = open_page(browser, g["links"]["arbiter"], locale)
    white = open_page(browser, g["links"]["white"], "fr-FR")
    for seat, san in (("white", "e4"), ("black", "e5")):
        assert event(server, g, seat, {"type": "move", "move": san}).status_code == 200
    assert event(server, g, "white", {"type": "offer_draw"}).status_code == 200
    assert not arb.is_visible("#arb-agreement")
    assert event(server, g, "black", {"type": "accept_draw"}).status_code == 200
    arb.wait_for_selector("#arb-agreement:visible")
    assert arb.get_attribute("#tab-claims", "aria-selected") == "true"  # its group opens by itself
    assert arb.inner_text("#arb-agreement-text") == waiting
    arb.wait_for_selector(f"#arb-alerts li:has-text('{alert}')")
    # The player's page: no Accept any more, the agreement waits for the arbiter.
    white.wait_for_selector("#offer-banner:has-text(\"l'accord attend le consentement de l'arbitre\")")
    assert not white.is_visible("#btn-accept")
    status = white.inner_text("#status")  # the arbiter decides the agreement; he does not just restart the clocks
    assert "pendules arrêtées" in status and "redémarre" not in status, status
    arb.screenshot(path=str(shots / f"console-agreement-{locale}-1280.png"))
    arb.click(f"#arb-agreement-{ruling}")
    assert confirmed[ruling] in confirm(arb)
    if ruling == "grant":
        arb.wait_for_selector('#status[data-termination="agreement"]')
        assert arb.get_attribute("#status", "data-result") == "1/2-1/2"
    else:
        arb.wait_for_selector("#arb-agreement", state="hidden")
        white.wait_for_selector("#offer-banner", state="detached")
        state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
        assert state["status"] == "ongoing" and state["clocks"]["running"] == "white" and state["pending"] == []
    decision = [e for e in log(server, g) if e["type"] == "decision"]
    assert [(e["on"], e["ruling"]) for e in decision] == [("agreement", ruling)]
    arb.context.close()
    white.context.close()

"""The creation form shows the server's refusal in the organiser's language (Chromium): a German browser reads
why the event's scoring or tie-breaks were refused in German, and an English browser switched to Spanish in the
header reads it in Spanish; nothing is created."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from conftest import at_390, needs_chromium

pytestmark = needs_chromium


def fill_form(page: Any, scoring: str, tiebreaks: str = "") -> None:
    page.fill("#t-name", "Vereinspokal")
    page.fill("#t-players", "Anna, 2000\nBoris, 1900\nChiara, 1800")
    page.fill("#t-scoring", scoring)
    page.fill("#t-tiebreaks", tiebreaks)
    page.click("#t-create-btn")


def test_the_forms_refusal_in_german(live_server: Any, browser: Any, shots: Path) -> None:
    url = live_server.url
    before = len(httpx.get(f"{url}/api/tournaments").json())
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = ctx.new_page()
    page.goto(f"{url}/tournaments")
    page.wait_for_selector("main h1:text-is('Turniere')")
    fill_form(page, "1-1-0")
    error = page.locator("#t-error:not([hidden])")
    error.wait_for()
    assert error.inner_text() == ("Feld 'scoring': ein Sieg muss mehr Punkte geben als ein Remis, ein Remis "
                                  "mindestens so viele wie eine Niederlage ('1-1-0')")
    page.screenshot(path=str(shots / "tournaments-form-refusal-de-1280.png"), full_page=True)
    at_390(page, shots, "tournaments-form-refusal-de")
    page.set_viewport_size({"width": 1280, "height": 900})
    fill_form(page, "1-0.5-0", "BH, STD")
    page.wait_for_selector("#t-error:not([hidden]):has-text('Standardpunkte')")
    assert page.inner_text("#t-error").startswith("Feld 'tiebreaks': STD (Standardpunkte) ist eine Feinwertung der "
                                                  "C.07-Regeln von 2026, nicht der Regeln von 2023")
    assert page.locator("#t-created").is_hidden()
    ctx.close()
    assert len(httpx.get(f"{url}/api/tournaments").json()) == before  # nothing created


def test_the_forms_refusal_follows_the_language_switch(live_server: Any, browser: Any) -> None:
    url = live_server.url
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.goto(f"{url}/tournaments")
    page.wait_for_selector("main h1:text-is('Tournaments')")
    fill_form(page, "3-1")
    page.wait_for_selector("#t-error:not([hidden])")
    assert page.inner_text("#t-error") == "field 'scoring': '3-1' is not WIN-DRAW-LOSS points such as '1-0.5-0' or " \
                                          "'3-1-0'"  # English, word for word
    with page.expect_navigation():
        page.select_option("#ui-lang", "es")
    page.wait_for_selector("main h1:text-is('Torneos')")
    fill_form(page, "3-1")
    page.wait_for_selector("#t-error:not([hidden])")
    assert page.inner_text("#t-error") == "campo 'scoring': '3-1' no son puntos VICTORIA-TABLAS-DERROTA como " \
                                          "'1-0.5-0' o '3-1-0'"
    ctx.close()

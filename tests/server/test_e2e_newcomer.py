"""What a newcomer trips over, in the browser. Time controls typed the way players write them,
several seats in one browser, messages for people, no dead controls, rematch; screenshots at 1280 and 390 px
(to ``CHESSLAWS_SHOTS`` when set)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import at_390, needs_chromium
from test_e2e import new_game

pytestmark = needs_chromium


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
    # Reloads, in an order that would leave every tab on the last seat opened were the seat kept per browser.
    for _ in range(2):
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


# --- 3. messages for people, no dead controls ----------------------------------------------------------------


def test_no_t_in_messages_and_no_dead_controls(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="600+5")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    white = open_page(ctx, g["links"]["white"])
    black = open_page(ctx, g["links"]["black"])
    # No arbiter is watching: nobody to call.
    assert post(server, g, "white", {"type": "move", "move": "e4"}).status_code == 200
    black.wait_for_selector("#sheet:has-text('e4')")
    assert not black.is_visible("#summon-box")
    arbiter = open_page(ctx, g["links"]["arbiter"])
    black.wait_for_selector("#summon-box:not([hidden])")
    # The arbiter stops the clocks: Black's pieces stay where they are, the status says what to wait for.
    arbiter.click("#tab-clock")
    arbiter.click("#arb-stop")
    black.wait_for_selector("#status:has-text('arbiter restarts them')")
    assert black.locator(".pc.mine").count() == 0
    assert not black.is_visible("#move-entry") and not black.is_visible("#summon-box")
    r = post(server, g, "black", {"type": "move", "move": "e5"})
    assert r.status_code == 409
    said = r.json()["error"]
    assert said.startswith("Your move was not played: the clocks are stopped") and "t=" not in said, said
    # Annulled: the arbiter's console goes quiet, and what reaches a person has no t=.
    arbiter.click("#tab-penalties")
    arbiter.fill("#annul-reason", "wrong pairing")
    arbiter.click("#arb-annul")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#arb-quiet:not([hidden])")
    for dead in ("#arb-penalty", "#arb-annul", "#arb-stop", "#arb-set", "#arb-refuse"):
        assert not arbiter.is_visible(dead), dead
    r = post(server, g, "arbiter", {"type": "penalty", "against": "white", "kind": "warning"})
    assert r.status_code == 409 and r.json()["error"] == "The penalty was not given: the game has been annulled."
    for page in (white, black, arbiter):
        page.wait_for_selector('#status[data-status="annulled"]')
        body = page.inner_text("body")
        assert "t=" not in body and "t = " not in body, body  # rulings say when as a clock does: 0:07
    arbiter.screenshot(path=str(shots / "arbiter-annulled-1280.png"), full_page=True)
    # The arbiter leaves: nobody to call again.
    g2 = new_game(server, time_control="600+5")
    w2 = open_page(ctx, g2["links"]["white"])
    a2 = open_page(ctx, g2["links"]["arbiter"])
    w2.wait_for_selector("#summon-box:not([hidden])")
    a2.close()
    w2.wait_for_selector("#summon-box[hidden]", state="attached")
    ctx.close()


def test_the_page_shows_a_refused_move_without_t(server: Any, browser: Any) -> None:
    """A move refused by the arbiter reaches the player's toast as a sentence, not as the log's "move at t=..."."""
    g = new_game(server, time_control="600+5")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    white = open_page(ctx, g["links"]["white"])
    open_page(ctx, g["links"]["black"])
    arbiter = open_page(ctx, g["links"]["arbiter"])
    assert post(server, g, "white", {"type": "move", "move": "e4"}).status_code == 200
    assert post(server, g, "black", {"type": "move", "move": "e5"}).status_code == 200
    white.wait_for_selector("#sheet:has-text('e5')")
    # The clocks stop between the page's last state and its move: the server refuses, the page says why.
    white.evaluate("() => { window.__send = send; }")
    assert post(server, g, "arbiter", {"type": "stop_clocks"}).status_code == 200
    white.evaluate("() => window.__send({type: 'move', move: 'g1f3'})")
    white.wait_for_selector("#alert:has-text('Your move was not played')")
    assert "t=" not in white.inner_text("#alert-text")
    arbiter.close()
    ctx.close()


# --- 5. rematch and new game --------------------------------------------------------------------------------


def test_rematch_swaps_colours_and_both_players_land_in_the_new_game(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="180+2", white="Ann", black="Bob")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    white = open_page(ctx, g["links"]["white"])
    black = open_page(ctx, g["links"]["black"])
    assert not white.is_visible("#end-box")
    assert post(server, g, "white", {"type": "resign"}).status_code == 200
    for p in (white, black):
        p.wait_for_selector("#end-box:not([hidden]) #btn-rematch")
        assert p.get_attribute("#btn-newgame", "href") == "/"
    white.screenshot(path=str(shots / "game-over-1280.png"), full_page=True)
    at_390(white, shots, "game-over")
    white.click("#btn-rematch")
    white.wait_for_url("**/game/**#seat=black")
    new_id = white.url.split("/game/")[1].split("#")[0]
    assert new_id != g["id"]
    white.wait_for_selector("#seat:has-text('playing Black')")
    # Bob is told, and lands in the same new game as White.
    black.wait_for_selector("#rematch-note:has-text('White asks for a rematch')")
    black.click("#btn-rematch")
    black.wait_for_url(f"**/game/{new_id}#seat=white")
    black.wait_for_selector("#seat:has-text('playing White')")
    st = httpx.get(f"{server.url}/api/games/{new_id}").json()
    assert (st["white"], st["black"], st["time_control"], st["edition"]) == ("Bob", "Ann", "180+2", "2023")
    # A spectator of the old game is shown the way to the new one; a player cannot ask twice for two games.
    watcher = open_page(ctx, f"{server.url}/game/{g['id']}")
    watcher.wait_for_selector(f"#watch-rematch:not([hidden])[href='/game/{new_id}']")
    assert not watcher.is_visible("#btn-rematch")
    r = httpx.post(f"{server.url}/api/games/{g['id']}/rematch", headers={"Authorization": f"Bearer {g['tokens']['white']}"})
    assert r.json()["id"] == new_id
    ctx.close()


# --- 9. the whole page in the browser's language ----------------------------------------------------------------

WEB = Path(__file__).resolve().parents[2] / "python" / "chesslaws" / "web"
SAYS = {
    "de": {"lobby": "Neue Partie", "create": "Partie anlegen", "tc": "5 Min. je Spieler + 3 s pro Zug",
           "to_move": "Weiß am Zug", "offer": "Remis anbieten", "resign": "Aufgeben", "sheet": "Partieformular"},
    "fr": {"lobby": "Nouvelle partie", "create": "Créer la partie", "tc": "5 min chacun + 3 s par coup",
           "to_move": "Trait aux Blancs", "offer": "Proposer la nulle", "resign": "Abandonner", "sheet": "Feuille de partie"},
    "es": {"lobby": "Nueva partida", "create": "Crear partida", "tc": "5 min cada uno + 3 s por jugada",
           "to_move": "Juegan Blancas", "offer": "Ofrecer tablas", "resign": "Abandonar", "sheet": "Planilla"},
}


def dictionary(page: Any) -> dict[str, dict[str, str]]:
    return dict(page.evaluate("window.I18N"))


def untranslated(page: Any, lang: str) -> list[str]:
    """The marked texts of the page that the language's dictionary lacks."""
    return list(page.evaluate("""(lang) => {
      const keys = [];
      for (const el of document.querySelectorAll('[data-i18n]')) keys.push(el.dataset.i18nSrc);
      for (const el of document.querySelectorAll('[data-i18n-attr]'))
        for (const a of el.dataset.i18nAttr.split(',')) keys.push(el.dataset['i18n_' + a.replace(/-/g, '_')]);
      return keys.filter((k) => k && !(k in window.I18N[lang]));
    }""", lang))


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_the_whole_page_speaks_the_browsers_language(server: Any, browser: Any, shots: Path, lang: str) -> None:
    says = SAYS[lang]
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, locale=f"{lang}-{lang.upper()}")
    lobby = ctx.new_page()
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(f"#tc-meaning:has-text('{says['tc']}')")
    assert lobby.inner_text("main h2").strip().lower() == says["lobby"].lower()
    assert lobby.inner_text("#create-btn") == says["create"]
    assert lobby.evaluate("document.documentElement.lang") == lang
    assert untranslated(lobby, lang) == []
    if lang == "de":
        lobby.screenshot(path=str(shots / "lobby-de-1280.png"), full_page=True)
    g = new_game(server, time_control="600+5")
    page = open_page(ctx, g["links"]["white"])
    page.wait_for_selector(f"#status:has-text('{says['to_move']}')")
    assert page.inner_text("#btn-offer") == says["offer"] and page.inner_text("#btn-resign") == says["resign"]
    assert page.inner_text("#sheet-title").lower() == says["sheet"].lower()  # shown in capitals
    assert page.input_value("#lang") == lang  # the scoresheet's letters and the dialogs too
    assert untranslated(page, lang) == []
    page.click("#btn-resign")  # the dialog comes from the server in the same language
    page.wait_for_selector("#confirm[open]")
    assert "Resign the game" not in page.inner_text("#confirm-text")
    page.click("#confirm-no")
    if lang == "de":
        page.screenshot(path=str(shots / "game-de-1280.png"), full_page=True)
        at_390(page, shots, "game-de")
    ctx.close()


def test_an_english_browser_gets_english_and_every_text_has_its_translations(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#tc-meaning:has-text('5 min each')")
    assert page.inner_text("#create-btn") == "Create game"
    words = dictionary(page)
    assert set(words) == {"de", "fr", "es"} and set(words["de"]) == set(words["fr"]) == set(words["es"])
    # Every English text the scripts translate has its entry in the three languages.
    import re

    used: set[str] = set()
    for name in ("game.js", "lobby.js", "engines.js", "tc.js"):
        src = (WEB / name).read_text(encoding="utf-8")
        for m in re.finditer(r"\b(?:T|tr)\(\s*\"((?:[^\"\\]|\\.)*)\"", src):
            used.add(json.loads('"' + m.group(1) + '"'))  # the JavaScript string's escapes read as JSON's
    missing = sorted(k for k in used if k not in words["de"])
    assert missing == [], missing
    ctx.close()

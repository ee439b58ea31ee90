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
    arbiter.click("#arb-stop")
    black.wait_for_selector("#status:has-text('arbiter restarts them')")
    assert black.locator(".pc.mine").count() == 0
    assert not black.is_visible("#move-entry") and not black.is_visible("#summon-box")
    r = post(server, g, "black", {"type": "move", "move": "e5"})
    assert r.status_code == 409
    said = r.json()["error"]
    assert said.startswith("Your move was not played: the clocks are stopped") and "t=" not in said, said
    # Annulled: the arbiter's console goes quiet, and what reaches a person has no t=.
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
    white.wait_for_selector("#toast.show:has-text('Your move was not played')")
    assert "t=" not in white.inner_text("#toast")
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

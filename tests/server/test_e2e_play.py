"""In the browser: a fair start and abort, claims that explain themselves, links that are not lost,
browsing and keyboard play, the arbiter's console, and an accessible page checked with axe-core.

Screenshots at 1280 px and 390 px go to ``CHESSLAWS_SHOTS`` (a directory) when set, else to the test's tmp dir.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import at_390, needs_chromium
from test_e2e import new_game

pytestmark = needs_chromium


def post(server: Any, g: dict[str, Any], side: str, event: dict[str, Any]) -> None:
    r = httpx.post(f"{server.url}/api/games/{g['id']}/events", json=event,
                   headers={"Authorization": f"Bearer {g['tokens'][side]}"})
    assert r.status_code == 200, r.text


def open_page(browser: Any, link: str, width: int = 1280, height: int = 900, ctx: Any = None) -> Any:
    ctx = ctx or browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#status[data-status]")
    return page


def log_lines(server: Any, g: dict[str, Any]) -> list[dict[str, Any]]:
    text = httpx.get(f"{server.url}/api/games/{g['id']}/log").text
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def axe_check(page: Any) -> list[dict[str, Any]]:
    """axe-core (shipped by axe-playwright-python) run in the page: the serious and critical violations."""
    axe_py = pytest.importorskip("axe_playwright_python")
    source = (Path(axe_py.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
    page.evaluate(source)  # evaluated through the DevTools protocol: the page's CSP does not apply
    # The piece glyphs are pictures drawn with an outline (text-stroke) that axe cannot measure; they are
    # hidden from assistive technology, and each square's label names its piece.
    result = page.evaluate("async () => await axe.run({exclude: [['.pc']]}, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


# --- 1. a fair start and abort ------------------------------------------------------------------------------


def test_clocks_wait_for_both_players_then_a_missing_first_move_aborts(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="180", when_ready=True, abort_after=5)
    white = open_page(browser, g["links"]["white"])
    white.wait_for_selector("#status:has-text('Waiting for Black')")
    assert "clocks start when both players" in white.inner_text("#status")
    white.wait_for_timeout(1200)
    assert white.inner_text(".player[data-color='white'] .clock") == "3:00"  # nothing runs before both are here
    assert not white.is_visible("#actions")
    black = open_page(browser, g["links"]["black"])
    for page in (white, black):
        page.wait_for_selector("#status:has-text('White to move')")
    white.wait_for_selector(".player[data-color='white'] .clock.running")
    assert "must make a first move" in white.inner_text("#status")
    white.screenshot(path=str(shots / "abort-countdown-1280.png"))
    for page in (white, black):
        page.wait_for_selector('#status[data-status="annulled"]', timeout=9000)
        assert "nobody loses" in page.inner_text("#status")
        assert not page.is_visible("#actions")  # nothing live after the end
    assert log_lines(server, g)[-1]["type"] == "annul"
    assert log_lines(server, g)[-1]["reason"].startswith("aborted:")
    black.screenshot(path=str(shots / "aborted-1280.png"))
    white.context.close()
    black.context.close()


def test_an_aborted_games_reason_is_shown_in_the_readers_language(server: Any, browser: Any) -> None:
    """The reason of an abort in German for a browser that reads German, and word for word in English once the
    page's switch asks for English."""
    g = new_game(server, time_control="180", abort_after=5)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = ctx.new_page()
    page.goto(g["links"]["black"])
    page.wait_for_selector('#status[data-status="annulled"]')  # the server's own abort, five seconds after the start
    page.wait_for_selector("#status:has-text('niemand verliert')")
    assert "Weiß hat binnen 5 s keinen ersten Zug gemacht: kein Ergebnis, niemand verliert" \
        in page.inner_text("#status")
    page.select_option("#ui-lang", "en")  # the page is loaded again in English
    page.wait_for_selector("#status:has-text('nobody loses')")
    assert "White made no first move within 5 s: no result, nobody loses" in page.inner_text("#status")
    # The state says why as a code, which the page words.
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["abort"] == {"side": "white", "after": 5}
    ctx.close()


def test_an_open_seat_taken_in_the_page_starts_the_clocks(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="300", when_ready=True, black=None)
    white = open_page(browser, g["links"]["white"])
    white.wait_for_selector("#status:has-text('Waiting for Black')")
    assert "Open seat: Black" in white.inner_text("#status")
    guest = open_page(browser, g["links"]["spectator"])
    guest.fill("#join-name", "Gustav")
    guest.click("#btn-join")
    guest.wait_for_selector("#seat:has-text('playing Black')")
    for page in (white, guest):
        page.wait_for_selector("#status:has-text('White to move')")
    white.wait_for_selector(".player[data-color='white'] .clock.running")
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["black"] == "Gustav"
    white.context.close()
    guest.context.close()


# --- 2. claims that explain themselves ------------------------------------------------------------------------


def test_claims_ask_first_and_name_the_editions_penalty_in_two_languages(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="5400", edition="2023")
    white = open_page(browser, g["links"]["white"])
    white.click("#btn-threefold")
    white.wait_for_selector("#confirm[open]")
    text = white.inner_text("#confirm-text")
    assert "If the same position has not occurred three times" in text
    assert "your opponent receives 2 minutes on the clock (Article 9.5.3)" in text
    white.screenshot(path=str(shots / "claim-confirm-1280.png"))
    white.set_viewport_size({"width": 390, "height": 844})
    white.screenshot(path=str(shots / "claim-confirm-390.png"))
    white.set_viewport_size({"width": 1280, "height": 900})
    white.click("#confirm-no")
    white.wait_for_timeout(300)
    assert len(log_lines(server, g)) == 1  # cancelled: nothing was claimed
    white.select_option("#lang", "de")
    white.wait_for_function("() => document.querySelector('#sheet') && true")
    white.wait_for_timeout(500)
    white.click("#btn-fifty")
    white.wait_for_selector("#confirm[open]")
    assert "erhält Ihr Gegner 2 Minuten Bedenkzeit (Artikel 9.5.3)" in white.inner_text("#confirm-text")
    assert white.inner_text("#confirm-title") == "Weiß (Anna): Remis: 50-Züge-Regel"  # the player named
    assert white.inner_text("#confirm-yes") == "Beanspruchen" and white.inner_text("#confirm-no") == "Abbrechen"
    white.click("#confirm-yes")
    white.wait_for_selector("#rulings li:has-text('unbegründet')")  # the ruling in the page's language
    assert log_lines(server, g)[-1]["type"] == "claim_draw"
    white.select_option("#lang", "en")
    white.wait_for_selector("#rulings li:has-text('incorrect')")  # and in English again
    # The 1997 Laws: half the time, at most 3 minutes, and 3 minutes to the opponent.
    g2 = new_game(server, time_control="40/7200:3600", edition="1997")
    w2 = open_page(browser, g2["links"]["white"], ctx=white.context)
    w2.click("#btn-threefold")
    assert "at most 3 minutes" in w2.inner_text("#confirm-text") and "9.5(b)" in w2.inner_text("#confirm-text")
    w2.click("#confirm-no")
    white.context.close()


def test_controls_show_only_where_the_game_allows_them(server: Any, browser: Any) -> None:
    blitz = new_game(server, time_control="180+2", edition="2023")  # an arbiter sees the flags; no adjournment
    page = open_page(browser, blitz["links"]["white"])
    assert page.is_visible("#claims-box") and page.is_visible("#btn-resign")
    for hidden in ("#flag-box", "#adjourn-box", "#quickplay-box", "#arrive-box"):
        assert not page.is_visible(hidden), hidden
    assert page.is_disabled("#btn-threefold") is False
    black = open_page(browser, blitz["links"]["black"], ctx=page.context)
    assert black.is_disabled("#btn-threefold")  # not Black's move
    # Armed claims belong to their box and say so.
    page.check("#claim-with-move")
    assert "written down, not played" in page.inner_text("#claim-with-move-hint")
    page.click("#btn-threefold")
    page.click("#confirm-yes")
    page.wait_for_selector("#claims-box.armed")
    assert "Armed" in page.inner_text("#claim-with-move-hint")
    absent = new_game(server, time_control="180", arbiter="absent")
    p2 = open_page(browser, absent["links"]["white"], ctx=page.context)
    assert p2.is_visible("#flag-box")
    p2.click("#btn-flag")
    assert "If it has not, the game continues (Article 6.9)" in p2.inner_text("#confirm-text")
    p2.click("#confirm-no")
    classical = new_game(server, time_control="40/7200:3600", edition="1997")
    p3 = open_page(browser, classical["links"]["white"], ctx=page.context)
    assert p3.is_visible("#adjourn-box") and p3.is_visible("#quickplay-box")
    assert p3.is_disabled("#btn-quickplay")  # more than two minutes left
    # After the end: nothing live.
    p3.click("#btn-resign")
    assert "You lose it (Article 5.1(b))" in p3.inner_text("#confirm-text")
    p3.click("#confirm-yes")
    p3.wait_for_selector('#status[data-result="0-1"]')
    assert "0–1" in p3.inner_text("#status")
    assert not p3.is_visible("#actions") and not p3.is_visible("#seal-move") and not p3.is_visible("#move-entry")
    page.context.close()


# --- 3. links that are not lost ---------------------------------------------------------------------------------


def test_lobby_keeps_the_links_with_copy_and_qr(server: Any, browser: Any, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    lobby = ctx.new_page()
    lobby.goto(server.url + "/")
    lobby.fill("#white", "Clara")
    lobby.fill("#black", "Dmitri")
    lobby.click("#presets button[data-tc='600+5']")
    lobby.click("#create-btn")
    lobby.wait_for_selector("#link-white")
    white_link = lobby.input_value("#link-white")
    assert "#token=" in white_link
    lobby.click("#seatlinks .link:has(#link-white) button.copy")
    lobby.wait_for_selector("#toast:has-text('copied')")
    assert lobby.evaluate("navigator.clipboard.readText()") == white_link
    lobby.screenshot(path=str(shots / "lobby-created-1280.png"), full_page=True)
    lobby.reload()
    lobby.wait_for_selector(".mygame")
    mine = lobby.locator(".mygame").first
    assert "Clara v Dmitri" in mine.inner_text()
    assert [lobby.input_value(f"#my-{mine.get_attribute('data-id')}-{s}") for s in ("white",)] == [white_link]
    mine.locator(".link button.qr").first.click()
    lobby.wait_for_selector("#qr-dialog[open] #qr-img")
    src = lobby.get_attribute("#qr-img", "src") or ""
    assert src.startswith("data:image/svg+xml") and "svg" in src
    assert lobby.evaluate("document.getElementById('qr-img').naturalWidth") > 100  # the SVG loads as an image
    lobby.screenshot(path=str(shots / "lobby-qr-1280.png"))
    qr = httpx.post(server.url + "/api/qr", json={"text": white_link})
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    # A game opened from a link is listed too, with its seat.
    g = new_game(server, time_control="300")
    open_page(browser, g["links"]["arbiter"], ctx=ctx)
    post(server, g, "arbiter", {"type": "stop_clocks"})  # the arbiter's games show what waits for him
    lobby.reload()
    lobby.wait_for_selector(f".mygame[data-id='{g['id']}']")
    assert lobby.input_value(f"#my-{g['id']}-arbiter") == g["links"]["arbiter"]
    mine = lobby.locator(f".mygame[data-id='{g['id']}']")
    assert "attention" in (mine.get_attribute("class") or "") and "clocks stopped" in mine.inner_text()
    ctx.close()


def test_lobby_at_390_px(server: Any, browser: Any, shots: Path) -> None:
    new_game(server, time_control="40/5400+30:20/1800+30:10/900+30:5/600+30:300+30", white="Bartholomew Longname-Smythe")
    new_game(server, time_control="300", black=None)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#games tbody tr td")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    first = page.locator("#games tbody tr").first.inner_text()
    assert "open seat" in first  # open seats first
    page.screenshot(path=str(shots / "lobby-390.png"), full_page=True)
    ctx.close()


# --- 4. browsing, flip, keyboard entry, sounds ------------------------------------------------------------------


def test_step_through_moves_flip_and_type_moves(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="900+10")
    for i, mv in enumerate(["e4", "e5", "Nf3"]):
        post(server, g, "white" if i % 2 == 0 else "black", {"type": "move", "move": mv})
    black = open_page(browser, g["links"]["black"])
    black.wait_for_selector("#sheet button.mv[data-ply='3']")
    black.click("#sheet button.mv[data-ply='1']")  # the position after 1.e4
    assert black.get_attribute('[data-sq="e5"]', "aria-label") == "e5, empty"
    assert black.get_attribute('[data-sq="e4"]', "aria-label") == "e4, white pawn"
    assert black.is_visible("#viewing")
    black.keyboard.press("ArrowLeft")
    assert black.get_attribute('[data-sq="e2"]', "aria-label") == "e2, white pawn"
    black.keyboard.press("End")
    assert not black.is_visible("#viewing")
    assert black.get_attribute('[data-sq="f3"]', "aria-label") == "f3, white knight"
    # Black's board: h1 top-left; flipped, a8 is.
    first = black.locator("#board [data-sq]").first
    assert first.get_attribute("data-sq") == "h1"
    black.click("#btn-flip")
    assert black.locator("#board [data-sq]").first.get_attribute("data-sq") == "a8"
    black.click("#btn-flip")
    # Keyboard entry with the scoresheet's letters (German: S for the knight).
    pytest.importorskip("chesslaws.notation")
    black.select_option("#lang", "de")
    # Each language by its own name, as its players look for it (the English one where the browser has none).
    names = black.eval_on_selector_all("#lang option", "(os) => Object.fromEntries(os.map((o) => [o.value, o.textContent]))")
    assert (names["de"], names["fr"], names["ru"], names["en"], names["figurine"]) == \
        ("Deutsch", "Français", "Русский", "English", "Figurine")
    black.wait_for_selector("#sheet button.mv:has-text('Sf3')")
    black.fill("#move-input", "Sc6")
    black.press("#move-input", "Enter")
    black.wait_for_selector("#sheet button.mv[data-ply='4']")
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["moves"][3]["san"] == "Nc6"
    black.fill("#move-input", "Kxe9")
    post(server, g, "white", {"type": "move", "move": "Bb5"})
    black.wait_for_selector("#sheet button.mv[data-ply='5']")
    black.press("#move-input", "Enter")
    black.wait_for_selector("#toast:has-text('Kein legaler Zug „Kxe9“')")  # the page speaks German now
    black.fill("#move-input", "a7a6")  # coordinates
    black.press("#move-input", "Enter")
    black.wait_for_selector("#sheet button.mv[data-ply='6']")
    # Sounds: switchable, a beep on a new move when on.
    assert black.is_checked("#sound-on")
    post(server, g, "white", {"type": "move", "move": "Bxc6"})
    black.wait_for_function("() => document.body.dataset.lastSound === '330'")  # a capture
    black.uncheck("#sound-on")
    assert black.evaluate("localStorage.getItem('chesslaws:sound')") == "off"
    black.screenshot(path=str(shots / "game-black-1280.png"))
    at_390(black, shots, "game-black")
    black.context.close()


# --- 5. the arbiter's console -------------------------------------------------------------------------------------


def test_arbiter_console_is_safe_and_sees_the_sealed_move(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="40/7200:3600", edition="1997")  # 1997: an hour's default time at resumption
    arbiter = open_page(browser, g["links"]["arbiter"])
    arbiter.click("#tab-penalties")
    assert not arbiter.is_visible("#pen-sec")
    arbiter.select_option("#pen-kind", "add_time")
    assert arbiter.is_visible("#pen-sec") and arbiter.inner_text("label[for='pen-sec']") == "seconds"
    arbiter.select_option("#pen-kind", "loss")
    assert not arbiter.is_visible("#pen-sec")
    arbiter.click("#arb-penalty")
    arbiter.wait_for_selector("#confirm[open]")
    assert "White (Anna) loses the game (Article 13.4(d))" in arbiter.inner_text("#confirm-text")
    arbiter.click("#confirm-no")
    for button in ("#arb-annul", "#arb-refuse"):
        arbiter.click(button)
        arbiter.wait_for_selector("#confirm[open]")
        arbiter.click("#confirm-no")
    arbiter.wait_for_timeout(300)
    assert len(log_lines(server, g)) == 1  # nothing happened on a single click
    white = open_page(browser, g["links"]["white"], ctx=arbiter.context)
    black = open_page(browser, g["links"]["black"], ctx=arbiter.context)
    # A player calls the arbiter: the clocks stop and the console is told at once.
    black.click("#btn-summon")
    black.click("#confirm-yes")
    arbiter.wait_for_selector("#arb-alerts li:has-text('summon the arbiter')")
    black.wait_for_selector("#status:has-text('clocks stopped')")
    assert not black.is_visible("#summon-box")
    arbiter.click("#tab-clock")
    arbiter.click("#arb-start")
    white.wait_for_selector("#summon-box:not([hidden])")
    white.fill("#seal-move", "Nc3")
    white.click("#btn-seal")
    white.click("#confirm-yes")
    arbiter.wait_for_selector("#arb-sealed:has-text('Nc3')")
    assert "only you see it" in arbiter.inner_text("#arb-sealed")
    arbiter.click("#tab-adjourn")
    assert arbiter.is_visible("#arb-resume")
    black.wait_for_selector('#status[data-status="adjourned"]')
    assert "Nc3" not in black.content() and not black.is_visible("#arb-sealed")
    arbiter.screenshot(path=str(shots / "arbiter-1280.png"), full_page=True)
    at_390(arbiter, shots, "arbiter")
    arbiter.set_viewport_size({"width": 1280, "height": 900})
    # After resumption the replier's clock runs: the status says so (not "White to move").
    arbiter.click("#arb-resume")
    arbiter.click("#resume-yes")  # who is at the board: asked first
    black.wait_for_selector("#status:has-text(\"Black's clock runs\")")
    assert "White to move" not in black.inner_text("#status")
    arbiter.context.close()


# --- 6. accessible ----------------------------------------------------------------------------------------------------


def test_board_for_keyboard_and_screen_reader_and_axe(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="600")
    white = open_page(browser, g["links"]["white"])
    assert white.get_attribute("#board", "role") == "grid"
    assert white.get_attribute('[data-sq="e2"]', "aria-label") == "e2, white pawn"
    assert white.get_attribute('[data-sq="e8"]', "aria-label") == "e8, black king"
    # Play 1.e4 with the keyboard alone: focus a1, go to e2, pick up, go to e4, put down.
    white.focus('[data-sq="a1"]')
    for key in ["ArrowRight"] * 4 + ["ArrowUp", "Enter", "ArrowUp", "ArrowUp", "Enter"]:
        white.keyboard.press(key)
    white.wait_for_selector("#sheet button.mv[data-ply='1']")
    white.wait_for_selector("#announce:has-text('White: pawn e2 to e4')")
    white.keyboard.press("c")
    white.wait_for_selector("#announce:has-text('Black')")
    assert "minutes" in white.inner_text("#announce")
    assert "clock" in (white.get_attribute(".player[data-color='white'] .clock", "aria-label") or "")
    violations = axe_check(white)
    assert violations == [], violations
    lobby = white.context.new_page()
    lobby.goto(server.url + "/")
    lobby.wait_for_selector("#games tbody tr")
    violations = axe_check(lobby)
    assert violations == [], violations
    arbiter = open_page(browser, g["links"]["arbiter"], ctx=white.context)
    arbiter.click("#tab-penalties")
    arbiter.select_option("#pen-kind", "add_time")
    violations = axe_check(arbiter)
    assert violations == [], violations
    arbiter.click("#arb-annul")
    arbiter.wait_for_selector("#confirm[open]")
    violations = axe_check(arbiter)
    assert violations == [], violations
    white.context.close()


def test_lobby_schedules_a_start_with_the_default_time(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    lobby = ctx.new_page()
    lobby.goto(server.url + "/")
    assert not lobby.is_visible("#start-at") and not lobby.is_visible("#default-time")
    lobby.select_option("#start", "scheduled")
    assert lobby.is_visible("#start-at") and lobby.input_value("#start-at") != ""
    lobby.fill("#default-time", "15")
    lobby.fill("#white", "Erika")
    lobby.fill("#black", "Fritz")
    lobby.click("#create-btn")
    lobby.wait_for_selector("#link-white")
    gid = lobby.input_value("#link-spectator").rsplit("/", 1)[1]
    state = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert state["server_t"] < -60 and state["absent"] == ["black", "white"] and state["abort_at"] is None
    log = httpx.get(f"{server.url}/api/games/{gid}/log").text
    assert '"default_time": 900' in log
    lobby.select_option("#interface", "otb")  # over the board: the Laws' start, no start options
    assert not lobby.is_visible("#start") and not lobby.is_visible("#abort")
    ctx.close()


def test_pages_work_under_the_servers_content_security_policy(server: Any, browser: Any) -> None:
    """The server's strict policy (no inline script, style attribute or handler): nothing the pages do is refused."""
    url = server.url
    csp = httpx.get(url + "/").headers.get("content-security-policy", "")
    for directive in ("script-src 'self'", "style-src 'self'", "img-src 'self' data:"):
        assert directive in csp, csp
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    g = new_game(server, time_control="40/7200:3600", edition="1997")
    for link in (url + "/", g["links"]["white"], g["links"]["arbiter"]):
        page = ctx.new_page()
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        page.goto(link)
        if "/game/" in link:
            page.wait_for_selector("#status[data-status]")
            if link == g["links"]["arbiter"]:
                page.click("#tab-penalties")
            page.click("#btn-threefold" if link == g["links"]["white"] else "#arb-annul")
            page.wait_for_selector("#confirm[open]")
            page.click("#confirm-no")
            page.click("#btn-flip")
        else:
            page.fill("#white", "Hans")
            page.click("#create-btn")
            page.wait_for_selector(".mygame")
            page.locator(".mygame .link button.qr").first.click()
            page.wait_for_selector("#qr-dialog[open]")
            page.wait_for_function("() => document.getElementById('qr-img').naturalWidth > 100")
    ctx.close()
    assert errors == []


# --- the page's events go over its socket (one channel, only new moves) -----------------------------------------


def test_moves_and_refusals_go_over_the_socket_and_states_carry_only_new_moves(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="900+10")
    post(server, g, "white", {"type": "move", "move": "e4"})
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    sent: list[str] = []
    received: list[str] = []
    posts: list[str] = []
    page.on("websocket", lambda ws: (ws.on("framesent", lambda f: sent.append(str(f))),
                                     ws.on("framereceived", lambda f: received.append(str(f)))))
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(g["links"]["black"])
    page.wait_for_selector("#conn.up")
    page.wait_for_selector("#sheet button.mv[data-ply='1']")
    page.fill("#move-input", "e5")
    page.press("#move-input", "Enter")
    page.wait_for_selector("#sheet button.mv[data-ply='2']")
    # An event the server refuses (not Black's turn): the answer on the socket is shown.
    assert page.evaluate("send({type: 'resign', by: 'white'})") is False
    page.wait_for_selector("#alert:has-text(\"white\")")  # not recorded: kept until the player acts
    assert not [u for u in posts if u.endswith("/events") or "/events?" in u], "the page posted instead"
    events = [json.loads(f)["event"] for f in sent if '"rid"' in f]
    assert [e["type"] for e in events] == ["move", "resign"] and events[0]["move"] in ("e5", "e7e5")
    states = [m["state"] for m in map(json.loads, received) if m["kind"] == "state"]
    assert states[0]["moves_from"] == 0 and len(states[0]["moves"]) == 1
    acks = [m for m in map(json.loads, received) if m["kind"] == "ack"]
    # The page's own move is acknowledged with its new state in the same frame: the new move alone.
    assert len(acks) == 1 and acks[0]["state"]["moves_from"] == 1
    assert [m["san"] for m in acks[0]["state"]["moves"]] == ["e5"]
    post(server, g, "white", {"type": "move", "move": "Nf3"})
    page.wait_for_selector("#sheet button.mv[data-ply='3']")
    last = [m["state"] for m in map(json.loads, received) if m["kind"] == "state"][-1]
    assert last["moves_from"] == 2 and [m["san"] for m in last["moves"]] == ["Nf3"]
    texts = page.locator("#sheet button.mv").all_inner_texts()
    assert [t.strip() for t in texts] == ["e4", "e5", "Nf3"]
    ctx.close()

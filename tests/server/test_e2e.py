"""End to end: two players in two browser contexts of Debian's headless Chromium, driven by Playwright."""

from __future__ import annotations

import json

from pathlib import Path
from typing import Any

import httpx
import pytest

from chesslaws.game import Game

from conftest import needs_chromium

pytestmark = needs_chromium


def new_game(server: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("white", "Anna")
    body.setdefault("black", "Boris")
    body.setdefault("when_ready", False)  # an immediate start, asked for (the fair start is the default)
    body.setdefault("presence", False)
    r = httpx.post(server.url + "/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def open_seat(browser: Any, link: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#status[data-status]")
    return page


def center(page: Any, sq: str) -> tuple[float, float]:
    box = page.locator(f'[data-sq="{sq}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def my_piece(page: Any, sq: str) -> None:
    page.wait_for_selector(f'[data-sq="{sq}"] .pc.mine', timeout=5000)


def click_move(page: Any, a: str, b: str) -> None:
    my_piece(page, a)
    page.click(f'[data-sq="{a}"]')
    page.wait_for_selector(f'[data-sq="{b}"].hint')
    page.click(f'[data-sq="{b}"]')


def drag_move(page: Any, a: str, b: str) -> None:
    my_piece(page, a)
    x0, y0 = center(page, a)
    x1, y1 = center(page, b)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()


def confirm(page: Any) -> str:
    """Confirms the open dialog (once its yes is enabled); returns what it asked."""
    page.wait_for_selector("#confirm[open]")
    text = str(page.inner_text("#confirm-text"))
    page.wait_for_selector("#confirm-yes:not([disabled])")
    page.click("#confirm-yes")
    page.wait_for_selector("#confirm", state="hidden")
    return text


def wait_end(page: Any, termination: str, timeout: float = 8000) -> None:
    page.wait_for_selector(f'#status[data-termination="{termination}"]', timeout=timeout)


def test_scholars_mate_by_click_and_drag(server: Any, browser: Any, tmp_path: Path) -> None:
    g = new_game(server, time_control="600+5", edition="2023")
    white = open_seat(browser, g["links"]["white"])
    black = open_seat(browser, g["links"]["black"])
    assert white.inner_text("#seat") == "playing White" and black.inner_text("#seat") == "playing Black"
    for page in (white, black):
        assert not page.is_visible("#act-for-box")  # only the arbiter of an over-the-board game enters for a side
    for page in (white, black):  # Article 2.1: a light square in each player's right-hand corner
        assert "l" in page.get_attribute('[data-sq="h1"]', "class").split()
        assert "d" in page.get_attribute('[data-sq="a1"]', "class").split()
        assert "l" in page.get_attribute('[data-sq="a8"]', "class").split()
    click_move(white, "e2", "e4")
    drag_move(black, "e7", "e5")
    drag_move(white, "f1", "c4")
    click_move(black, "b8", "c6")
    click_move(white, "d1", "h5")
    drag_move(black, "g8", "f6")
    click_move(white, "h5", "f7")
    for page in (white, black):
        wait_end(page, "checkmate")
        assert page.get_attribute("#status", "data-result") == "1-0"
        assert "1–0" in page.inner_text("#status")
        cells = page.locator("#sheet td:not(.n)").all_inner_texts()
        assert cells == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
        assert "checkmates" in page.inner_text("#rulings")
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert [m["san"] for m in state["moves"]] == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    white.screenshot(path=str(tmp_path / "mate.png"))
    white.context.close()
    black.context.close()


def test_draw_by_agreement(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="600")
    white = open_seat(browser, g["links"]["white"])
    black = open_seat(browser, g["links"]["black"])
    click_move(white, "d2", "d4")
    click_move(black, "d7", "d5")
    my_piece(white, "c2")
    white.click("#btn-offer")
    assert "9.1.2.1" in white.inner_text("#confirm-text")
    white.click("#confirm-yes")
    black.wait_for_selector("#btn-accept")
    assert "offers a draw" in black.inner_text("#offer-banner")
    assert "pending" in white.inner_text("#offer-banner")
    black.click("#btn-accept")
    assert black.inner_text("#confirm-title") == "Black (Boris): Accept the draw"  # a click alone ends nothing
    black.click("#confirm-yes")
    for page in (white, black):
        wait_end(page, "agreement")
        assert page.get_attribute("#status", "data-result") == "1/2-1/2"
    log = httpx.get(f"{server.url}/api/games/{g['id']}/log").text
    assert '"offer_draw"' in log and '"accept_draw"' in log
    white.context.close()
    black.context.close()


def test_a_flag_falls_while_both_watch(server: Any, browser: Any, tmp_path: Path) -> None:
    g = new_game(server, time_control="5", edition="2023", start_in=3)
    white = open_seat(browser, g["links"]["white"])
    black = open_seat(browser, g["links"]["black"])
    click_move(white, "e2", "e4")
    black.wait_for_selector('#top-player .clock.running, #bottom-player .clock.running')
    for page in (white, black):
        wait_end(page, "time_forfeit", timeout=9000)
        assert page.get_attribute("#status", "data-result") == "1-0"
        clock = page.locator('.player[data-color="black"] .clock')
        assert clock.inner_text() == "0:00.0"
        assert "flagged" in (clock.get_attribute("class") or "")
        assert "flag fell" in page.inner_text("#rulings")
    black.screenshot(path=str(tmp_path / "flag.png"))
    # The flag fall is in the log: the arbiter's `observe`, written by the server when it saw it.
    log = [json.loads(line) for line in httpx.get(f"{server.url}/api/games/{g['id']}/log").text.splitlines()]
    assert [e["type"] for e in log] == ["start", "move", "observe"] and log[-1]["what"] == "flag"
    white.context.close()
    black.context.close()


def test_promotion_choice(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="-", fen="8/4P3/8/8/8/8/k7/7K w - - 0 1")
    white = open_seat(browser, g["links"]["white"])
    click_move(white, "e7", "e8")
    white.wait_for_selector("#promo button[data-piece='n']")
    white.click("#promo button[data-piece='n']")
    white.wait_for_selector("#sheet td.cur")
    assert white.inner_text("#sheet td.cur") == "e8=N"
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["moves"][0]["uci"] == "e7e8n"
    white.context.close()


def test_arbiter_console_and_spectator(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="300", edition="1997")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    watcher = open_seat(browser, g["links"]["spectator"])
    assert arbiter.is_visible("#console") and not watcher.is_visible("#console")
    assert watcher.inner_text("#seat") == "spectator"
    arbiter.click("#tab-clock")
    arbiter.click("#arb-stop")
    watcher.wait_for_selector("#rulings li:has-text('stops the clocks')")
    arbiter.fill("#arb-w", "2:00")
    arbiter.fill("#arb-b", "1:30")
    arbiter.click("#arb-set")
    arbiter.click("#confirm-yes")  # the times change: asked first
    watcher.wait_for_selector(".player[data-color='black'] .clock:has-text('1:30')")
    arbiter.click("#tab-penalties")
    arbiter.select_option("#pen-against", "black")
    arbiter.select_option("#pen-kind", "warning")
    arbiter.fill("#pen-reason", "noise")
    arbiter.click("#arb-penalty")
    arbiter.click("#confirm-yes")  # every penalty is asked first
    watcher.wait_for_selector("#rulings li:has-text('warns Black (noise)')")
    assert "Article 13.4(a) (1997)" in watcher.inner_text("#rulings")
    arbiter.context.close()
    watcher.context.close()
    _ = Game  # the arbiter module the server builds on


def test_threefold_claim_with_the_intended_move_on_a_french_scoresheet(server: Any, browser: Any) -> None:
    pytest.importorskip("chesslaws.notation")
    g = new_game(server, time_control="900+10", edition="1997")
    for i, move in enumerate(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]):
        side = "white" if i % 2 == 0 else "black"
        r = httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "move", "move": move},
                       headers={"Authorization": f"Bearer {g['tokens'][side]}"})
        assert r.status_code == 200
    black = open_seat(browser, g["links"]["black"])
    black.select_option("#lang", "fr")
    black.wait_for_selector("#sheet td:has-text('Cf3')")
    black.check("#claim-with-move")
    black.click("#btn-threefold")
    assert "9.5(b)" in black.inner_text("#confirm-text")
    black.click("#confirm-yes")
    # the dialog's close event arrives after the click returns: wait for the armed state, do not race it
    black.wait_for_selector("#btn-threefold.on", timeout=5000)
    drag_move(black, "f6", "g8")
    wait_end(black, "threefold_repetition")
    assert black.get_attribute("#status", "data-result") == "1/2-1/2"
    cells = black.locator("#sheet td:not(.n)").all_inner_texts()
    assert cells == ["Cf3", "Cf6", "Cg1", "Cg8", "Cf3", "Cf6", "Cg1", "Cg8"]
    log = httpx.get(f"{server.url}/api/games/{g['id']}/log").text.splitlines()
    assert '"claim_draw"' in log[-1] and '"reason": "threefold"' in log[-1] and '"move": "f6g8"' in log[-1]
    black.context.close()


def test_over_the_board_the_arbiter_enters_moves_and_events_for_both(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400", edition="2023", interface="otb")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    assert arbiter.is_visible("#act-for")
    click_move(arbiter, "e2", "e4")
    drag_move(arbiter, "e7", "e5")
    my_piece(arbiter, "g1")
    arbiter.select_option("#act-for", "black")
    arbiter.click("#tab-claims")
    arbiter.click("#btn-resign")
    assert "5.1.2" in arbiter.inner_text("#confirm-text")  # the edition's article, from the server
    arbiter.click("#confirm-yes")
    wait_end(arbiter, "resignation")
    assert arbiter.get_attribute("#status", "data-result") == "1-0"
    log = [line for line in httpx.get(f"{server.url}/api/games/{g['id']}/log").text.splitlines()]
    assert '"by": "white"' in log[1] and '"by": "black"' in log[2]
    assert '"resign"' in log[3] and '"by": "black"' in log[3]
    arbiter.context.close()


def test_adjournment_seal_resume_and_open_on_arrival(server: Any, browser: Any) -> None:
    """Adjournment on the page: White seals, nobody sees the move, the arbiter resumes, Black arrives, the
    envelope opens."""
    g = new_game(server, time_control="40/7200:3600", edition="1997")  # standard play: adjournment allowed
    white = open_seat(browser, g["links"]["white"])
    black = open_seat(browser, g["links"]["black"])
    arbiter = open_seat(browser, g["links"]["arbiter"])
    white.fill("#seal-move", "Sf3")  # German letters
    white.click("#btn-seal")
    assert "A.1" in white.inner_text("#confirm-text")  # 1997 A.1: the player having the move seals it
    white.click("#confirm-yes")
    for page in (white, black, arbiter):
        page.wait_for_selector('#status[data-status="adjourned"]')
    assert "Sf3" not in black.content() and "Nf3" not in black.inner_text("#sheet")
    arbiter.click("#tab-adjourn")
    arbiter.click("#arb-resume")
    arbiter.click("#resume-yes")  # who is at the board: asked first
    black.wait_for_selector("#btn-arrive:not([disabled])")
    assert "not at the board" in black.inner_text("#status")
    black.click("#btn-arrive")
    white.wait_for_selector("#sheet td:has-text('Nf3')")
    assert "envelope is opened" in black.inner_text("#rulings")
    for page in (white, black, arbiter):
        page.context.close()

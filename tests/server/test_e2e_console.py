"""The arbiter's console over the board, in the browser: a move sealed from the console, the resumption with the
players at the board and the session's default time (under each edition), an illegal move recorded as the player
wrote it and by dragging the piece where it went, "enters for" following the player having the move, and the
console's groups reached from the keyboard. Screenshots of the console in German at 1280 and 390 px go to
$CHESSLAWS_SHOTS (look at them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import at_390, needs_chromium
from test_e2e import confirm

pytestmark = needs_chromium


def new_game(server: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("white", "Anna")
    body.setdefault("black", "Boris")
    body.setdefault("interface", "otb")
    r = httpx.post(server.url + "/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def open_arbiter(browser: Any, link: str, locale: str = "en-GB", width: int = 1280) -> Any:
    ctx = browser.new_context(viewport={"width": width, "height": 1000}, locale=locale)
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#status[data-status]")
    page.wait_for_selector("#tab-move[aria-selected]")
    return page


def log(server: Any, g: dict[str, Any]) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.url}/api/games/{g['id']}/log", headers={"Authorization": "Bearer " + g["tokens"]["arbiter"]})
    return [json.loads(line) for line in r.text.splitlines()]


def center(page: Any, sq: str) -> tuple[float, float]:
    box = page.locator(f'[data-sq="{sq}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, a: str, b: str) -> None:
    page.wait_for_selector(f'[data-sq="{a}"] .pc')
    x0, y0 = center(page, a)
    x1, y1 = center(page, b)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()


def play(page: Any, moves: list[str]) -> None:
    """Moves typed in the move box, each waited for on the scoresheet."""
    for n, m in enumerate(moves, 1):
        page.fill("#move-input", m)
        page.press("#move-input", "Enter")
        page.wait_for_selector(f"#sheet button.mv[data-ply='{n}']")


@pytest.mark.parametrize("edition", ["2023", "1997", "1989"])
def test_seal_from_the_console_and_resume_with_the_players_present(server: Any, browser: Any, edition: str) -> None:
    g = new_game(server, time_control="40/7200:3600", edition=edition)
    arb = open_arbiter(browser, g["links"]["arbiter"])
    play(arb, ["e4", "e5", "Nf3", "Nc6"])
    arb.click("#tab-adjourn")
    assert arb.inner_text("#btn-seal .for") == "White"  # the seal says for whom: the player having the move
    arb.fill("#seal-move", "Bb5")
    arb.click("#btn-seal")
    confirm(arb)
    arb.wait_for_selector('#status[data-status="adjourned"]')
    seal = [e for e in log(server, g) if e["type"] == "seal"]
    assert seal and seal[0]["by"] == "white" and seal[0]["move"] == "Bb5"
    # The adjournment's group is open by itself; the session's default time is said before resuming.
    assert arb.get_attribute("#tab-adjourn", "aria-selected") == "true"
    arb.click("#arb-resume")
    arb.wait_for_selector("#resume-dialog[open]")
    default = "0:00" if edition == "2023" else "1:00:00"
    assert default in arb.inner_text("#resume-default")
    assert arb.is_checked("#present-white") and arb.is_checked("#present-black")
    if edition == "2023":  # nobody unmarked is late without a word
        arb.uncheck("#present-white")
        assert "White (Anna)" in arb.inner_text("#resume-warn") and "0:00" in arb.inner_text("#resume-warn")
        arb.check("#present-white")
        assert not arb.is_visible("#resume-warn")
    arb.click("#resume-yes")
    # Both at the board: the envelope is opened at once in Black's presence, and the game goes on.
    arb.wait_for_selector("#sheet button.mv:has-text('Bb5')")
    assert arb.get_attribute("#status", "data-status") == "ongoing"
    resume = [e for e in log(server, g) if e["type"] == "resume"]
    assert resume[0]["present"] == ["white", "black"]
    assert arb.input_value("#act-for") == "black"  # "enters for" follows the player having the move
    play(arb, ["a6"])
    arb.context.close()


def test_the_absent_sealer_loses_by_the_default_time_set_in_the_lobby(server: Any, browser: Any) -> None:
    """2023: the lobby's over-the-board game takes its default time (Article 6.7.1); the resumption with only the
    replier at the board ends when it passes for the sealer."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-GB")
    lobby = ctx.new_page()
    lobby.goto(server.url + "/")
    lobby.fill("#white", "Anna")
    lobby.fill("#black", "Boris")
    lobby.fill("#tc", "40/120+30")
    lobby.select_option("#interface", "otb")
    assert lobby.is_visible("#default-time")
    lobby.fill("#default-time", "1")
    lobby.click("#create-btn")
    lobby.wait_for_selector("#seatlinks:not([hidden])")
    link = lobby.locator("#seatlinks input").nth(2).input_value()
    assert "token=" in link
    arb = ctx.new_page()
    arb.goto(link)
    arb.wait_for_selector("#tab-move[aria-selected]")
    assert "default time 1:00" in arb.inner_text("#info")
    play(arb, ["d4", "d5"])
    arb.click("#tab-adjourn")
    arb.fill("#seal-move", "c4")
    arb.click("#btn-seal")
    confirm(arb)
    arb.wait_for_selector('#status[data-status="adjourned"]')
    arb.click("#arb-resume")
    assert "1:00" in arb.inner_text("#resume-default")
    arb.uncheck("#present-white")
    arb.click("#resume-yes")
    arb.wait_for_selector("#sheet button.mv:has-text('c4')")  # Black, the replier, is there: opened
    assert "White is not at the board" in arb.inner_text("#status")
    arb.wait_for_selector('#status[data-termination="late_arrival"]', timeout=75_000)
    assert arb.get_attribute("#status", "data-result") == "0-1"
    ctx.close()


def test_an_illegal_move_by_notation_and_by_dragging(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400", edition="2023")
    arb = open_arbiter(browser, g["links"]["arbiter"])
    assert "drag the piece" in arb.inner_text("#illegal-hint-board")  # the page says how
    play(arb, ["e4", "e5"])
    arb.fill("#move-input", "Ke3")  # as the player would write it: the king two squares forward
    arb.press("#move-input", "Enter")
    text = confirm(arb)
    assert "Ke3 (e1-e3)" in text and "White (Anna)" in text
    arb.wait_for_selector("#rulings li:has-text('illegal')")
    moves = [e for e in log(server, g) if e["type"] == "move"]
    assert moves[-1]["move"] == "e1e3" and moves[-1]["by"] == "white"
    # The position before it is reinstated (2023 7.5.1): White moves again, and drags the queen through his pawn.
    drag(arb, "d1", "d3")
    text = confirm(arb)
    assert "d1-d3" in text
    arb.wait_for_selector('#status[data-termination="illegal_moves"]')  # the second illegal move loses (7.5.5)
    moves = [e for e in log(server, g) if e["type"] == "move"]
    assert moves[-1]["move"] == "d1d3"
    assert arb.get_attribute("#status", "data-result") == "0-1"
    arb.context.close()


def test_an_illegal_move_in_german_letters_and_one_that_names_two_pieces(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400", edition="1997")
    arb = open_arbiter(browser, g["links"]["arbiter"], locale="de-DE")
    play(arb, ["e4"])
    arb.fill("#move-input", "Sd5")  # two knights, neither a knight's move from d5: which one is not said
    arb.press("#move-input", "Enter")
    arb.wait_for_selector("#toast.show")
    assert "b8-d5" in arb.inner_text("#toast") and not arb.is_visible("#confirm[open]")
    arb.fill("#move-input", "Sf6")  # legal, in German letters
    arb.press("#move-input", "Enter")
    arb.wait_for_selector("#sheet button.mv[data-ply='2']")
    arb.fill("#move-input", "Lg2")  # the bishop onto its own pawn: illegal, read in German letters
    arb.press("#move-input", "Enter")
    assert "Lg2 (f1-g2)" in confirm(arb)
    arb.wait_for_selector("#rulings li:has-text('f1g2')")
    assert [e for e in log(server, g) if e["type"] == "move"][-1]["move"] == "f1g2"
    arb.context.close()


def test_enters_for_follows_the_move_and_every_action_says_for_whom(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400", edition="2023")
    arb = open_arbiter(browser, g["links"]["arbiter"])
    assert arb.input_value("#act-for") == "white"
    play(arb, ["e4"])
    assert arb.input_value("#act-for") == "black"
    arb.click("#tab-claims")
    assert arb.inner_text("#btn-resign .for") == "Black" and arb.inner_text("#btn-offer .for") == "Black"
    arb.select_option("#act-for", "white")  # White offers a draw after his move: chosen for this one action
    assert arb.inner_text("#btn-offer .for") == "White"
    arb.click("#btn-offer")
    assert "White (Anna)" in arb.inner_text("#confirm-title")
    confirm(arb)
    arb.wait_for_selector("#offer-banner")
    offer = [e for e in log(server, g) if e["type"] == "offer_draw"]
    assert offer[0]["by"] == "white"
    assert arb.get_attribute("#tab-claims", "aria-selected") == "true" and "attn" in arb.get_attribute("#tab-claims", "class")
    play(arb, ["e5"])  # the next move: "enters for" follows the player having it again
    assert arb.input_value("#act-for") == "white"
    arb.context.close()


def test_the_console_groups_by_keyboard(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400", edition="2023")
    arb = open_arbiter(browser, g["links"]["arbiter"])
    tabs = arb.locator("#arb-tabs [role=tab]")
    assert tabs.count() == 7
    assert arb.get_attribute("#tab-move", "aria-selected") == "true" and arb.is_visible("#hand-box")
    assert not arb.is_visible("#arb-penalty-row") and not arb.is_visible("#btn-resign")
    arb.locator("body").press("4")  # a key opens a group, its tab focused
    assert arb.get_attribute("#tab-penalties", "aria-selected") == "true"
    assert arb.is_visible("#arb-penalty-row") and not arb.is_visible("#hand-box")
    assert arb.evaluate("document.activeElement.id") == "tab-penalties"
    arb.keyboard.press("ArrowRight")  # the arrows move between the groups
    assert arb.get_attribute("#tab-sheet", "aria-selected") == "true" and arb.is_visible("#arb-sheet")
    arb.keyboard.press("ArrowLeft")
    arb.keyboard.press("ArrowLeft")
    assert arb.get_attribute("#tab-clock", "aria-selected") == "true" and arb.is_visible("#arb-set-row")
    # Into the group with Tab, and a control used from the keyboard: the clocks stopped.
    for _ in range(6):
        arb.keyboard.press("Tab")
        if arb.evaluate("document.activeElement.id") == "arb-stop":
            break
    assert arb.evaluate("document.activeElement.id") == "arb-stop"
    arb.keyboard.press("Enter")
    arb.wait_for_selector("#status:has-text('stopped')")
    arb.locator("body").press("2")
    assert arb.is_visible("#btn-resign") and arb.is_visible("#claims-box")
    arb.locator("body").press("7")
    assert arb.is_visible("#arb-recourse")
    arb.context.close()


def test_the_console_in_german_at_1280_and_390(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="40/7200:3600", edition="2023", white="Anna", black="Boris")
    arb = open_arbiter(browser, g["links"]["arbiter"], locale="de-DE")
    play(arb, ["e4", "e5"])
    assert arb.inner_text("#tab-claims") == "2 Reklamationen und Angebote"
    head = arb.inner_text("#info")
    assert "am Brett" in head and "over the board" not in head
    english = ["The hand", "Touch", "Release", "Displaced", "Restored", "Explanations and appeals", "Scoresheet of",
               "The move", "Penalties"]
    for group in ("move", "claims", "clock", "penalties", "sheet", "adjourn", "appeals"):
        arb.click(f"#tab-{group}")
        seen = arb.inner_text("#console")
        assert [w for w in english if w in seen] == [], group
    arb.click("#tab-move")
    arb.screenshot(path=str(shots / "console-de-1280.png"), full_page=True)
    at_390(arb, shots, "console-de")
    arb.context.close()

"""Chess960 in the browser: the lobby creates a Chess960
game (a chosen number, or one the server draws and writes into the log), the
page shows the start number, and both players play a game to mate by
clicking, White castling by putting the king onto its own rook.

Screenshots at 1280 px and 390 px go to ``CHESSLAWS_SHOTS`` (a directory) when
set, else to the test's tmp dir.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import at_390, needs_chromium

pytestmark = needs_chromium


def open_seat(browser: Any, link: str, width: int = 1280) -> Any:
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector("#status[data-status]")
    return page


def click_move(page: Any, a: str, b: str, ply: int) -> None:
    page.wait_for_selector(f'[data-sq="{a}"] .pc.mine', timeout=5000)
    page.click(f'[data-sq="{a}"]')
    page.wait_for_selector(f'[data-sq="{b}"].hint')
    page.click(f'[data-sq="{b}"]')
    page.wait_for_selector(f"#sheet button.mv[data-ply='{ply}']")


def log_lines(server: Any, gid: str) -> list[dict[str, Any]]:
    text = httpx.get(f"{server.url}/api/games/{gid}/log").text
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_lobby_creates_chess960_and_a_game_is_played_to_mate(server: Any, browser: Any, shots: Path) -> None:
    lobby_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    lobby = lobby_ctx.new_page()
    lobby.goto(server.url + "/")
    lobby.fill("#white", "Fischer")
    lobby.fill("#black", "Spassky")
    lobby.select_option("#edition", "1997")
    lobby.select_option("#variant", "chess960")
    assert lobby.input_value("#edition") == "2023"  # Chess960 is in the 2023 Laws only
    assert lobby.is_visible("#c960")
    lobby.fill("#c960", "199")
    lobby.screenshot(path=str(shots / "lobby-chess960-1280.png"), full_page=True)
    at_390(lobby, shots, "lobby-chess960")
    lobby.set_viewport_size({"width": 1280, "height": 1000})
    lobby.click("#create-btn")
    lobby.wait_for_selector("#link-white")
    white_link, black_link = lobby.input_value("#link-white"), lobby.input_value("#link-black")
    lobby.reload()
    lobby.wait_for_selector("td.wide .pill:has-text('960 No. 199')")  # the games list names it
    lobby_ctx.close()
    gid = white_link.split("#")[0].rstrip("/").split("/")[-1]

    white = open_seat(browser, white_link)
    black = open_seat(browser, black_link)
    for page in (white, black):
        page.wait_for_function("() => document.getElementById('info').textContent.includes('Chess960 No. 199')")
    # Position 199: QNBRKNRB, king e1 between the rooks d1 and g1.
    assert white.get_attribute('[data-sq="a1"]', "aria-label") == "a1, white queen"
    assert white.get_attribute('[data-sq="g1"]', "aria-label") == "g1, white rook"
    assert black.get_attribute('[data-sq="e8"]', "aria-label") == "e8, black king"
    plies = [("white", "b1", "a3"), ("black", "f8", "e6"), ("white", "h2", "h3"), ("black", "a7", "a6"),
             ("white", "f1", "h2"), ("black", "e6", "d4")]
    for n, (side, a, b) in enumerate(plies, start=1):
        click_move(white if side == "white" else black, a, b, n)
    # O-O: the king onto its own rook on g1 (II.3.2; the king ends on g1, the rook on f1).
    white.click('[data-sq="e1"]')
    white.wait_for_selector('[data-sq="g1"].hint')
    white.screenshot(path=str(shots / "game-chess960-castle-1280.png"))
    white.click('[data-sq="g1"]')
    white.wait_for_selector("#sheet button.mv[data-ply='7']")
    assert white.get_attribute('[data-sq="g1"]', "aria-label") == "g1, white king"
    assert white.get_attribute('[data-sq="f1"]', "aria-label") == "f1, white rook"
    click_move(black, "d4", "e2", 8)  # Nxe2#: the king on g1 cannot escape
    for page in (white, black):
        page.wait_for_selector('#status[data-termination="checkmate"]', timeout=8000)
        assert page.get_attribute("#status", "data-result") == "0-1"
        cells = page.locator("#sheet td:not(.n)").all_inner_texts()
        assert cells == ["Na3", "Ne6", "h3", "a6", "Nh2", "Nd4", "O-O", "Nxe2#"]
    log = log_lines(server, gid)
    assert log[0]["variant"] == "chess960" and log[0]["start_position"] == 199 and log[0]["edition"] == "2023"
    assert [e["move"] for e in log if e["type"] == "move"][6] == "e1g1"
    state = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert state["chess960"] and state["start_position"] == 199
    assert state["initial_fen"] == "qnbrknrb/pppppppp/8/8/8/8/PPPPPPPP/QNBRKNRB w KQkq - 0 1"
    pgn = httpx.get(f"{server.url}/api/games/{gid}/pgn").text
    assert '[Variant "Chess960"]' in pgn and "4. O-O " in pgn and "4... Nxe2#" in pgn
    black.screenshot(path=str(shots / "game-chess960-mate-1280.png"))
    at_390(white, shots, "game-chess960-mate")
    white.context.close()
    black.context.close()


def test_king_two_squares_castles_where_unambiguous(server: Any, browser: Any) -> None:
    r = httpx.post(server.url + "/api/games", json={"white": "A", "black": "B", "variant": "chess960",
                                                    "start_position": 518, "time_control": "600+5",
                                                    "when_ready": False})
    assert r.status_code == 201, r.text
    g = r.json()
    for i, mv in enumerate(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]):
        side = "white" if i % 2 == 0 else "black"
        resp = httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "move", "move": mv},
                          headers={"Authorization": f"Bearer {g['tokens'][side]}"})
        assert resp.status_code == 200, resp.text
    white = open_seat(browser, g["links"]["white"])
    white.wait_for_selector("#sheet button.mv[data-ply='6']")
    white.wait_for_function("() => document.getElementById('info').textContent.includes('Chess960 No. 518')")
    white.click('[data-sq="e1"]')
    # Both the rook (king onto rook) and g1 (the king's castled square) are offered.
    white.wait_for_selector('[data-sq="h1"].hint')
    white.wait_for_selector('[data-sq="g1"].hint')
    white.click('[data-sq="g1"]')
    white.wait_for_selector("#sheet button.mv[data-ply='7']")
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["moves"][-1]["san"] == "O-O" and state["moves"][-1]["uci"] == "e1h1"
    white.context.close()


def test_a_random_chess960_position_is_drawn_by_the_server_and_logged(server: Any) -> None:
    numbers = set()
    for _ in range(6):
        r = httpx.post(server.url + "/api/games", json={"white": "A", "black": "B", "variant": "chess960"})
        assert r.status_code == 201, r.text
        state = r.json()["state"]
        n = state["start_position"]
        assert isinstance(n, int) and 0 <= n <= 959
        log = log_lines(server, r.json()["id"])
        assert log[0]["start_position"] == n and log[0]["variant"] == "chess960"
        numbers.add(n)
    assert len(numbers) > 1  # drawn, not fixed
    listed = httpx.get(server.url + "/api/games").json()
    assert listed[0]["chess960"] and listed[0]["start_position"] == n
    bad = httpx.post(server.url + "/api/games", json={"variant": "chess960", "edition": "1997"})
    assert bad.status_code == 422 and "2023 Laws only" in bad.text
    bad = httpx.post(server.url + "/api/games", json={"variant": "chess960", "start_position": 960})
    assert bad.status_code == 422

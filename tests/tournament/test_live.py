"""A 4-player round robin on the live server: games created from the pairings, played by the players'
clients, results flowing back into the standings page, watched in a real browser (Debian's chromium)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from conftest import needs_chromium

pytestmark = needs_chromium

MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def post(server: Any, game_id: str, token: str, event: dict[str, Any]) -> None:
    r = httpx.post(f"{server.url}/api/games/{game_id}/events", json=event,
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def play(server: Any, board: dict[str, Any], how: str) -> None:
    w, b = token_of(board["white"]["link"]), token_of(board["black"]["link"])
    gid = board["game_id"]
    if how == "mate":
        for i, san in enumerate(MATE):
            post(server, gid, w if i % 2 == 0 else b, {"type": "move", "move": san})
        return
    post(server, gid, w, {"type": "move", "move": "d4"})
    post(server, gid, b, {"type": "move", "move": "d5"})
    if how == "draw":
        post(server, gid, w, {"type": "offer_draw"})
        post(server, gid, b, {"type": "accept_draw"})
    else:  # black wins: White resigns
        post(server, gid, w, {"type": "resign"})


def test_round_robin_to_final_standings(live_server: Any, browser: Any, tmp_path: Path) -> None:
    server = live_server
    r = httpx.post(f"{server.url}/api/tournaments", json={
        "name": "Live Quad", "system": "round-robin", "time_control": "900+10", "edition": "2023",
        "players": [{"name": "Anna", "rating": 2100}, {"name": "Boris", "rating": 2000},
                    {"name": "Chen", "rating": 1900}, {"name": "Dana", "rating": 1800}]})
    assert r.status_code == 201, r.text
    created = r.json()
    tid, token = created["id"], created["arbiter_token"]
    auth = {"Authorization": f"Bearer {token}"}

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{server.url}/tournament/{tid}")
    page.wait_for_selector("text=Round 1 is not paired yet.")
    assert httpx.post(f"{server.url}/api/tournaments/{tid}/rounds").status_code == 403  # only the arbiter pairs

    plan = {1: ["mate", "draw"], 2: ["black", "mate"], 3: ["draw", "mate"]}
    for rnd in (1, 2, 3):
        paired = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=auth)
        assert paired.status_code == 201, paired.text
        boards = paired.json()["boards"]
        assert [(b["white"]["start_number"], b["black"]["start_number"]) for b in boards] == \
            {1: [(1, 4), (2, 3)], 2: [(4, 3), (1, 2)], 3: [(2, 4), (3, 1)]}[rnd]  # the Berger table
        # A round cannot be paired before this one is over.
        assert httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", headers=auth).status_code == 409
        page.wait_for_selector(f"[data-round='{rnd}'] h3:has-text('in play')")
        for board, how in zip(boards, plan[rnd]):
            play(server, board, how)
        page.wait_for_selector(f"[data-round='{rnd}'] h3:text-is('Round {rnd}')", timeout=10000)

    page.wait_for_selector("#standings-title:text-is('Final standings')", timeout=10000)
    state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
    assert state["finished"]
    # R1: 1-4 1-0 (mate), 2-3 draw; R2: 4-3 0-1 (White resigns), 1-2 1-0; R3: 2-4 draw, 3-1 1-0 (mate).
    # Anna 2, Chen 2.5, Boris 1, Dana 0.5.
    got = [(s["start_number"], s["points"]) for s in state["standings"]]
    assert got == [(3, 2.5), (1, 2), (2, 1), (4, 0.5)]
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4
    assert rows.nth(0).locator("td.name").inner_text() == "Chen"
    assert rows.nth(0).locator("td.pts").inner_text() == "2½"
    # The crosstable: Chen (3) drew Boris (2) with Black, beat Dana (4) with Black and Anna (1) with White.
    chen = page.locator("#crosstable tbody tr").nth(2)
    assert [chen.locator("td.cell").nth(i).inner_text() for i in range(3)] == ["2b½", "4b1", "1w1"]
    page.screenshot(path=str(tmp_path / "standings-1280.png"), full_page=True)
    small = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    small.goto(f"{server.url}/tournament/{tid}")
    small.wait_for_selector("#standings-title:text-is('Final standings')")
    small.screenshot(path=str(tmp_path / "standings-390.png"), full_page=True)
    shots = os.environ.get("CHESSLAWS_SCREENSHOTS")
    if shots:
        for f in tmp_path.glob("standings-*.png"):
            shutil.copy(f, Path(shots) / f.name)
    # Every board got its result from its game.
    assert all(b["result"] for r in state["rounds"] for b in r["boards"])


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core (shipped by axe-playwright-python) run in the page: its serious and critical violations."""
    axe_py = pytest.importorskip("axe_playwright_python")
    page.evaluate((Path(axe_py.__file__).parent / "axe.min.js").read_text(encoding="utf-8"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_round_console_shows_the_whole_round_live(live_server: Any, browser: Any, tmp_path: Path) -> None:
    """The tournament arbiter's round console: every board as its game stands, updated live (moves, clocks,
    a draw offer, clocks stopped by the arbiter, a result), what waits for the arbiter, each game's arbiter
    console one click away, and the next round paired from the page."""
    server = live_server
    names = ["Anna", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana"]
    r = httpx.post(f"{server.url}/api/tournaments", json={
        "name": "Console Open", "system": "swiss", "rounds": 3, "time_control": "900+10", "edition": "2023",
        "players": [{"name": n, "rating": 2200 - 50 * i} for i, n in enumerate(names)]})
    assert r.status_code == 201, r.text
    created = r.json()
    tid, token = created["id"], created["arbiter_token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert created["console"].endswith(f"/tournament/{tid}/arbiter#token={token}")
    api = f"{server.url}/api/tournaments/{tid}/console"
    assert httpx.get(api).status_code == 403
    assert httpx.get(api, headers={"Authorization": "Bearer wrong"}).status_code == 403

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{server.url}/tournament/{tid}/arbiter")  # no token: the page asks for it
    page.wait_for_selector("#c-login:not([hidden])")
    page.fill("#c-token", token)
    page.click("#c-login button")
    page.wait_for_selector("text=Round 1 is not paired yet.")
    assert page.locator("#c-pair").inner_text() == "Pair round 1"

    paired = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=auth)
    assert paired.status_code == 201, paired.text
    assert paired.json()["console"] == created["console"]
    boards = paired.json()["boards"]
    assert len(boards) == 4
    page.wait_for_selector("#c-boards tbody tr[data-table='4']")
    assert page.locator("#c-pair").is_hidden()  # round 1 is in play

    b1, b2, b3, b4 = boards
    w1, k1 = token_of(b1["white"]["link"]), token_of(b1["black"]["link"])
    for i, san in enumerate(["e4", "e5", "Nf3"]):
        post(server, b1["game_id"], w1 if i % 2 == 0 else k1, {"type": "move", "move": san})
    post(server, b2["game_id"], token_of(b2["white"]["link"]), {"type": "move", "move": "d4"})
    post(server, b2["game_id"], token_of(b2["black"]["link"]), {"type": "move", "move": "d5"})
    post(server, b2["game_id"], token_of(b2["white"]["link"]), {"type": "offer_draw"})
    # The console gives the tournament arbiter each game's own arbiter token: stop board 3's clocks with it.
    state = httpx.get(api, headers=auth).json()
    links = {b["table"]: b["arbiter"] for b in state["boards"]}
    assert httpx.get(f"{server.url}/api/games/{b3['game_id']}/seat",
                     headers={"Authorization": f"Bearer {token_of(links[3])}"}).json()["seat"] == "arbiter"
    post(server, b3["game_id"], token_of(b3["white"]["link"]), {"type": "move", "move": "c4"})
    post(server, b3["game_id"], token_of(links[3]), {"type": "stop_clocks"})
    play(server, b4, "mate")

    row = lambda n: page.locator(f"#c-boards tbody tr[data-table='{n}']")  # noqa: E731
    page.wait_for_selector("#c-boards tbody tr[data-table='1'] td.moves:has-text('1. e4 e5 2. Nf3')")
    assert "black to move" in row(1).inner_text()
    assert row(1).locator(".ck.black.running").count() == 1  # Black's clock runs
    page.wait_for_selector("#c-boards tbody tr[data-table='2'] .badge:has-text('draw offer by white')")
    page.wait_for_selector("#c-boards tbody tr[data-table='3'].decide .badge:has-text('clocks stopped')")
    page.wait_for_selector("#c-boards tbody tr[data-table='4'] td.res:has-text('1 – 0')")
    assert page.locator("#c-decide li").count() == 1
    assert "Board 3" in page.locator("#c-decide li").inner_text() and "clocks stopped" in page.locator("#c-decide li").inner_text()
    page.wait_for_selector("[data-count='finished'] b:text-is('1')")  # the count follows the board's result
    assert page.locator("[data-count='to decide']").get_attribute("class") == "count hot"
    assert row(2).locator(".decide").count() == 0 and "decide" not in (row(2).get_attribute("class") or "")
    # Black's clock on board 1 ticks between two refreshes of the console.
    first = row(1).locator(".ck.black").inner_text()
    page.wait_for_timeout(2300)
    assert row(1).locator(".ck.black").inner_text() != first
    page.screenshot(path=str(tmp_path / "round-console-1280.png"), full_page=True)
    assert axe_violations(page) == []
    small = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    small.goto(created["console"])
    small.wait_for_selector("#c-boards tbody tr[data-table='3'].decide")
    small.screenshot(path=str(tmp_path / "round-console-390.png"), full_page=True)
    shots = os.environ.get("CHESSLAWS_SCREENSHOTS")
    if shots:
        for f in tmp_path.glob("round-console-*.png"):
            shutil.copy(f, Path(shots) / f.name)

    # One click opens board 3's own arbiter console (the game page with the arbiter's token).
    with page.context.expect_page() as opened:
        row(3).locator("a.arbiter-link").click()
    game_page = opened.value
    game_page.wait_for_selector("#seat:text-is('arbiter')")
    assert game_page.url.split("#")[0].endswith(f"/game/{b3['game_id']}")

    # The arbiter restarts the clocks, the round ends; from the console the next round is paired.
    post(server, b3["game_id"], token_of(links[3]), {"type": "start_clocks"})
    page.wait_for_selector("#c-attention", state="hidden")
    post(server, b1["game_id"], k1, {"type": "resign"})
    post(server, b2["game_id"], token_of(b2["black"]["link"]), {"type": "accept_draw"})
    post(server, b3["game_id"], token_of(b3["black"]["link"]), {"type": "resign"})
    page.wait_for_selector("[data-count='finished'] b:text-is('4')")
    page.wait_for_selector("#c-pair:not([hidden]):text-is('Pair round 2')")
    page.click("#c-pair")
    page.wait_for_selector("#c-round:text-is('Round 2')")
    page.wait_for_selector("#c-boards tbody tr[data-table='4']")
    assert page.locator("#c-prev").is_enabled() and page.locator("#c-next").is_disabled()

    # Round 2: the arbiter annuls board 1's game in its own console; the round console then waits for the
    # board's result and takes it (a game in play or over gives its own result: the API refuses there).
    second = httpx.get(api, headers=auth).json()
    assert second["round"] == 2
    g1 = second["boards"][0]
    post(server, g1["game_id"], token_of(g1["arbiter"]), {"type": "annul", "reason": "wrong players seated"})
    page.wait_for_selector("#c-boards tbody tr[data-table='1'].decide .badge:has-text('annulled')")
    assert "annulled" in page.locator("#c-decide li").inner_text()
    page.screenshot(path=str(tmp_path / "round-console-annulled-1280.png"), full_page=True)
    if shots:
        shutil.copy(tmp_path / "round-console-annulled-1280.png", Path(shots) / "round-console-annulled-1280.png")
    refused = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds/2/boards/2/result", json={"result": "1-0"},
                         headers=auth)
    assert refused.status_code == 409 and "in play" in refused.json()["error"]
    assert httpx.post(f"{server.url}/api/tournaments/{tid}/rounds/2/boards/1/result",
                      json={"result": "1-0"}).status_code == 403
    page.once("dialog", lambda dialog: dialog.accept())
    row(1).locator("button[data-result='1/2-1/2']").click()
    page.wait_for_selector("#c-boards tbody tr[data-table='1'] td.res:has-text('½ – ½')")
    assert row(1).locator("button[data-result]").count() == 0
    entered = httpx.get(f"{server.url}/api/tournaments/{tid}").json()["rounds"][1]["boards"][0]
    assert entered["result"] == "1/2-1/2"
    page.click("#c-prev")
    page.wait_for_selector("#c-round:text-is('Round 1')")
    assert row(4).locator("td.res").inner_text() == "1 – 0"


def test_a_result_flows_back_after_its_game_left_memory(live_server: Any) -> None:
    """A finished game that nobody watched leaves the server's memory after a while; its result still
    reaches the tournament (the game is loaded back from its log)."""
    server = live_server
    r = httpx.post(f"{server.url}/api/tournaments", json={
        "name": "Pair", "system": "round-robin", "time_control": "900+10",
        "players": [{"name": "Ida"}, {"name": "Jon"}]})
    tid, token = r.json()["id"], r.json()["arbiter_token"]
    board, = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"start": "now"},
                        headers={"Authorization": f"Bearer {token}"}).json()["boards"]
    hub = server.server.config.app.state.hub
    hub.retire_after = 0.05

    def wait_retired() -> None:
        for _ in range(100):
            if board["game_id"] not in hub.games:
                break
            time.sleep(0.05)
        assert board["game_id"] not in hub.games  # retired

    try:
        play(server, board, "mate")
        wait_retired()
        state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
        assert state["rounds"][0]["boards"][0]["result"] == "1-0"
        # The round console shows it from its stored final state, without loading it back into memory.
        wait_retired()  # the look above loaded it back to take its result: it leaves again
        console = httpx.get(f"{server.url}/api/tournaments/{tid}/console",
                            headers={"Authorization": f"Bearer {token}"}).json()
        game = console["boards"][0]["game"]
        assert game["ply"] == 7 and game["last_moves"].endswith("4. Qxf7#") and game["termination"] == "checkmate"
        assert board["game_id"] not in hub.games
    finally:
        hub.retire_after = 60.0


def test_a_tournament_made_with_the_cli_is_run_live_from_its_round_console(live_server: Any, tmp_path: Path) -> None:
    """`chesslaws tournament arbiter` gives a CLI-made event its live arbiter token and the console link."""
    from click.testing import CliRunner

    from chesslaws.cli import main

    db = str(tmp_path / "club.sqlite3")

    def cli(*args: str) -> str:
        out = CliRunner().invoke(main, ["tournament", *args, "--db", db])
        assert out.exit_code == 0, out.output
        return out.output

    cli("create", "Club", "--system", "round-robin", "--time-control", "900+10")
    cli("add", "Club", "Ann", "Bob", "Cleo", "Dan")
    with type(live_server)(db) as server:  # a server of its own over the CLI's database
        out = cli("arbiter", "Club", "--url", server.url + "/")
        link = next(line.split(": ", 1)[1].strip() for line in out.splitlines() if line.startswith("round console"))
        assert link.startswith(f"{server.url}/tournament/") and "/arbiter#token=" in link
        tid = link.split("/tournament/")[1].split("/")[0]
        auth = {"Authorization": f"Bearer {token_of(link)}"}
        assert httpx.get(f"{server.url}/api/tournaments/{tid}/console", headers=auth).json()["can_pair"]
        assert httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", headers=auth).status_code == 201
        console = httpx.get(f"{server.url}/api/tournaments/{tid}/console", headers=auth).json()
        assert console["round"] == 1 and len(console["boards"]) == 2 and all(b["arbiter"] for b in console["boards"])
        # A new token replaces the earlier one.
        cli("arbiter", "Club", "--url", server.url)
        assert httpx.get(f"{server.url}/api/tournaments/{tid}/console", headers=auth).status_code == 403

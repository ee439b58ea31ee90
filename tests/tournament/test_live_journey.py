"""In Chromium: a 6-player Swiss of 3 rounds run only from the pages (the event
created from the tournaments page, the players' own pages, pairing and starting each round in the round
console, every player opening their game from their page, moves on the boards, a game lost on time with the
arbiter present, a no-show forfeited by the default time, a withdrawal and the byes it brings), whose final
standings equal FIDE TEC's tie-break checker (gacrux) on the event's TRF exported by the server; the organiser's
pages and the pairing sheet at 1280 and 390 px."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import at_390, needs_chromium

pytestmark = needs_chromium

try:
    import gacrux.tiebreakchecker  # noqa: F401

    GACRUX = True
except ImportError:
    GACRUX = False

NAMES = [("Anna", 2150), ("Boris", 2100), ("Chen", 2050), ("Dana", 2000), ("Emil", 1950), ("Fay", 1900)]
# Our tie-break names -> the checker's: the event is created with the 2026 C.07 rules (the checker's rules
# version 2) and Standard Points after the Swiss defaults, chosen in the form.
TEC = {"BH-C1": "BH/C1/V2", "BH": "BH/V2", "SB": "SB/V2", "DE": "DE", "WIN": "WIN", "BPG": "BPG", "STD": "STD"}
MATE = [("e2", "e4"), ("e7", "e5"), ("f1", "c4"), ("b8", "c6"), ("d1", "h5"), ("g8", "f6"), ("h5", "f7")]


def my_piece(page: Any, sq: str) -> None:
    page.wait_for_selector(f'[data-sq="{sq}"] .pc.mine', timeout=10000)


def click_move(page: Any, a: str, b: str) -> None:
    """Clicks a move on the board (again if a new state redrew the board between the two clicks)."""
    from playwright.sync_api import TimeoutError as Timeout

    my_piece(page, a)
    for _ in range(5):
        page.click(f'[data-sq="{a}"]')
        try:
            page.wait_for_selector(f'[data-sq="{b}"].hint', timeout=3000)
            break
        except Timeout:
            continue
    page.click(f'[data-sq="{b}"]')
    page.wait_for_selector(f'[data-sq="{b}"] .pc')


def resign(page: Any) -> None:
    page.wait_for_selector("#btn-resign:enabled")
    page.click("#btn-resign")
    page.click("#confirm-yes")


def seats(console: Any) -> dict[str, tuple[int, str]]:
    """Who plays where this round, as the console's seat links say: name -> (board, colour)."""
    out: dict[str, tuple[int, str]] = {}
    for row in console.locator("#c-seats .link").all():
        out[row.locator(".who").inner_text()] = (int(row.get_attribute("data-table")), row.get_attribute("data-seat"))
    return out


@pytest.mark.skipif(not GACRUX, reason="FIDE TEC's tie-break checker (gacrux) is not installed")
def test_a_swiss_run_from_the_pages_to_the_checked_final_standings(live_server: Any, browser: Any, shots: Path,
                                                                   tmp_path: Path) -> None:
    from playwright.sync_api import expect

    server = live_server
    org = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    org.goto(f"{server.url}/")
    org.click("#lobby-tournaments")
    org.wait_for_selector("#t-create")
    org.fill("#t-name", "Club Swiss")
    org.select_option("#t-system", "swiss")
    org.fill("#t-rounds", "3")
    org.fill("#t-tc", "30s+5")  # 30 seconds (the lobby's reading: "30+5" is 30 minutes)
    org.fill("#t-default", "3")
    org.select_option("#t-tbrules", "2026")
    org.fill("#t-tiebreaks", ", ".join(TEC))
    org.fill("#t-players", "\n".join(f"{n}, {r}" for n, r in NAMES))
    org.screenshot(path=str(shots / "tournaments-form-1280.png"), full_page=True)
    org.click("#t-create-btn")
    org.wait_for_selector("#t-created:not([hidden])")
    console_link = org.locator("#t-links .link input").first.input_value()
    org.wait_for_selector("#mine li a:text-is('Club Swiss')")  # kept in this browser
    org.wait_for_selector("#t-list tbody tr a:text-is('Club Swiss')")
    org.screenshot(path=str(shots / "tournaments-created-1280.png"), full_page=True)
    at_390(org, shots, "tournaments-created")
    tid = console_link.split("/tournament/")[1].split("/")[0]

    con = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    con.goto(console_link)
    con.wait_for_selector("#c-pair:not([hidden]):text-is('Pair round 1')")
    players: dict[str, Any] = {}  # each player's own browser

    def pair_and_open(rnd: int, absent: set[str] = set()) -> dict[str, tuple[int, str]]:
        con.click("#c-pair")
        con.wait_for_selector(f"#c-round:text-is('Round {rnd}')")
        con.wait_for_selector("#c-start-box:not([hidden])")
        con.wait_for_selector("#c-seats .link")
        where = seats(con)
        pages = {n: con.locator(f"#c-players tr:has(td.name:text-is('{n}')) .link input").input_value() for n in where}
        for name, (table, colour) in where.items():
            if name in absent:
                continue
            page = players.get(name)
            if page is None:
                page = players[name] = browser.new_context(viewport={"width": 900, "height": 900}).new_page()
            page.goto(pages[name])
            page.wait_for_selector(f"#p-current .pairing:has-text('Round {rnd}, board {table}')")
            page.click("#p-play")
            page.wait_for_selector("#status:has-text('The round has not started yet')")
        return where

    def start(no_show: str | None = None) -> None:
        """Starts the round: in one click when everyone has opened the game; with a no-show, the console
        names him first and the arbiter confirms."""
        asked: list[str] = []
        if no_show is None:
            con.wait_for_selector("#c-absent:has-text('Every player has opened the game')")
        else:
            con.wait_for_selector(f"#c-absent:has-text('{no_show}')")
            con.once("dialog", lambda d: (asked.append(d.message), d.accept()))
        con.click("#c-start")
        if no_show is not None:
            assert len(asked) == 1 and no_show in asked[0], asked
        con.wait_for_selector("#c-start-box", state="hidden")

    def board(where: dict[str, tuple[int, str]], table: int) -> tuple[str, str]:
        w = next(n for n, (t, c) in where.items() if t == table and c == "white")
        b = next(n for n, (t, c) in where.items() if t == table and c == "black")
        return w, b

    # Round 1: a mate, a resignation, and a game lost on time (Black never moves; the arbiter is present).
    where = pair_and_open(1)
    sheet = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sheet.goto(server.url + con.locator("#c-sheet").get_attribute("href"))
    sheet.wait_for_selector("body[data-ready='1']")
    assert sheet.locator(".sheet-board img.qr").count() == 6
    sheet.screenshot(path=str(shots / "pairing-sheet-1280.png"), full_page=True)
    at_390(sheet, shots, "pairing-sheet")
    con.screenshot(path=str(shots / "round-console-held-1280.png"), full_page=True)
    start()
    w, b = board(where, 3)
    click_move(players[w], "e2", "e4")  # Black's flag falls 30 s later
    w2, b2 = board(where, 2)
    click_move(players[w2], "d2", "d4")
    w, b = board(where, 1)
    click_move(players[w], *MATE[0])
    resign(players[b2])
    for i, (a, z) in enumerate(MATE[1:], start=1):
        click_move(players[w if i % 2 == 0 else b], a, z)
    con.wait_for_selector("[data-count='finished'] b:text-is('3')", timeout=60000)
    # expect() names what the row shows instead, should it show another ending.
    expect(con.locator("#c-boards tbody tr[data-table='3'] td.state")).to_contain_text("over: time forfeit", timeout=30000)

    # Before round 2: the lowest-rated player withdraws (from the console): five are paired, one has a bye.
    con.once("dialog", lambda d: d.accept())
    con.click("#c-players tr:has(td.name:text-is('Fay')) button:has-text('Withdraw')")
    con.wait_for_selector("#c-players tr:has(td.name:text-is('Fay')) .badge:has-text('withdrawn')")
    # Round 2: one player never comes; the default time (3 s) decides.
    con.wait_for_selector("#c-pair:not([hidden]):text-is('Pair round 2')")
    con.click("#c-pair")
    con.wait_for_selector("#c-round:text-is('Round 2')")
    con.wait_for_selector("#c-seats .link")
    where = seats(con)
    no_show = board(where, 1)[1]
    con.click("#c-prev")  # the console can go back; round 1 is whole
    con.wait_for_selector("#c-round:text-is('Round 1')")
    con.click("#c-next")
    con.wait_for_selector("#c-round:text-is('Round 2')")
    for name, (table, colour) in seats(con).items():
        if name == no_show:
            continue
        page = players.setdefault(name, browser.new_context(viewport={"width": 900, "height": 900}).new_page())
        page.goto(con.locator(f"#c-players tr:has(td.name:text-is('{name}')) .link input").input_value())
        page.wait_for_selector(f"#p-current .pairing:has-text('Round 2, board {table}')")
        page.click("#p-play")
        page.wait_for_selector("#status:has-text('The round has not started yet')")
    assert con.locator("#c-byes .bye:has-text('pairing-allocated bye')").count() == 1
    start(no_show)  # board 1's Black never opens the game: he loses when the default time has passed
    w, b = board(where, 2)
    click_move(players[w], "g1", "f3")
    resign(players[b])
    con.wait_for_selector("[data-count='finished'] b:text-is('2')", timeout=30000)
    expect(con.locator("#c-boards tbody tr[data-table='1'] td.state")).to_contain_text("over: late arrival", timeout=30000)

    # Round 3: five again (another bye); White wins both games by resignation.
    where = pair_and_open(3)
    start()
    for table in (1, 2):  # every White moves first: no clock waits for the other board
        click_move(players[board(where, table)[0]], "e2", "e4")
    for table in (1, 2):
        resign(players[board(where, table)[1]])
    con.wait_for_selector("[data-count='finished'] b:text-is('2')", timeout=30000)
    con.screenshot(path=str(shots / "round-console-1280.png"), full_page=True)
    at_390(con, shots, "round-console")

    # The standings page: final, with every tie-break; compared with FIDE TEC's checker on the TRF.
    st = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    st.goto(f"{server.url}/tournament/{tid}")
    st.wait_for_selector("#standings-title:text-is('Final standings')")
    st.wait_for_selector("[data-round='1'] table.pairings thead th:has-text('White')")
    st.screenshot(path=str(shots / "standings-1280.png"), full_page=True)
    at_390(st, shots, "standings")
    heads = [h.get_attribute("data-code") for h in st.locator("#standings thead th.tb").all()]
    assert heads == list(TEC)
    shown: dict[int, dict[str, str]] = {}
    for row in st.locator("#standings tbody tr").all():
        cells = [c.inner_text() for c in row.locator("td").all()]
        shown[int(row.get_attribute("data-sn"))] = {"PTS": cells[4], **dict(zip(TEC, cells[5:]))}
    trf = httpx.get(f"{server.url}/api/tournaments/{tid}/trf").text
    path = tmp_path / "event.trf"
    path.write_text(trf)
    out = subprocess.run([sys.executable, "-m", "gacrux.tiebreakchecker", "-i", str(path), "-f", "TRF", "-dT",
                          "-t", "PTS", *TEC.values()], capture_output=True, text=True, timeout=120)
    lines = out.stdout.splitlines()
    assert lines and lines[0].startswith("StartNo"), out.stdout + out.stderr
    head = lines[0].split("\t")
    back = {v: k for k, v in TEC.items()}

    def fmt(x: str) -> str:  # the page's numbers, one formatting: 1½, 1¾, 2, ½, else two decimals at most
        v = float(x)
        whole, part = int(v), round(abs(v - int(v)), 2)
        if part == 0:
            return str(round(v))
        if part in (0.25, 0.5, 0.75):
            return (str(abs(whole)) if whole else "") + {0.25: "¼", 0.5: "½", 0.75: "¾"}[part]
        return f"{v:.2f}".rstrip("0").rstrip(".")

    for line in lines[1:]:
        cells = dict(zip(head, line.split("\t")))
        sn = int(cells["StartNo"])
        theirs = {"PTS": fmt(cells["PTS"]), **{back[k]: fmt(v) for k, v in cells.items() if k in back}}
        assert shown[sn] == theirs, (sn, shown[sn], theirs)
    # The ending of each special game is in the record: a forfeit is not a played game.
    t = httpx.get(f"{server.url}/api/tournaments/{tid}").json()
    assert t["regulations"]["tiebreak_rules"] == "2026" and t["regulations"]["tiebreaks"] == list(TEC)
    r1 = {b["table"]: b for b in t["rounds"][0]["boards"]}
    assert (r1[3]["result"], r1[3]["termination"]) == ("1-0", "time_forfeit")
    assert t["rounds"][1]["boards"][0]["result"] == "+-" and t["rounds"][1]["boards"][0]["termination"] == "late_arrival"
    assert [y["kind"] for r in t["rounds"][1:] for y in r["byes"] if y["kind"] == "pab"] == ["pab", "pab"]
    # Round 3: everyone opened his game before the start, so nobody is counted absent: two wins by resignation.
    assert [(b["result"], b["termination"]) for b in t["rounds"][2]["boards"]] == [("1-0", "resignation")] * 2


def test_the_standings_page_has_headed_rounds_and_every_tiebreak_at_390_px(live_server: Any, browser: Any,
                                                                             shots: Path) -> None:
    r = httpx.post(f"{live_server.url}/api/tournaments", json={
        "name": "Narrow Open", "rounds": 3, "time_control": "900+10",
        "players": [{"name": n, "rating": 2000 - i} for i, n in enumerate(["Anna Karenina-Smith", "Boris", "Chen", "Dana", "Emil"])]})
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    assert httpx.post(f"{live_server.url}/api/tournaments/{tid}/rounds", json={"start": "held"},
                      headers={"Authorization": f"Bearer {tok}"}).status_code == 201
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server.url}/tournament/{tid}")
    page.wait_for_selector("[data-round='1'] table.pairings thead th:text-is('White')")
    heads = [h.inner_text() for h in page.locator("[data-round='1'] table.pairings thead th").all()]
    assert heads[:6] == ["BD", "NO.", "WHITE", "RESULT", "BLACK", "NO."] or heads[:6] == ["Bd", "No.", "White", "Result", "Black", "No."]
    at_390(page, shots, "standings-narrow")
    tbs = page.locator("#standings thead th.tb")
    assert tbs.count() == 6 and all(tbs.nth(i).is_visible() for i in range(6))  # every tie-break in view

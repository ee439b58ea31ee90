"""The organiser's and the players' tournament pages in Chromium: what they show is never older than the last
change (a change that comes while a page reads makes it read again), the creation form, and the round's start."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from conftest import at_390, needs_chromium

pytestmark = needs_chromium


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(url: str, names: list[str], **regs: Any) -> tuple[str, str]:
    body = {"name": "Club Rapid", "system": "swiss", "rounds": 2, "time_control": "600+0",
            "players": [{"name": n, "rating": 2000 - 10 * i} for i, n in enumerate(names)], **regs}
    r = httpx.post(f"{url}/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["arbiter_token"]


def pair(url: str, tid: str, tok: str, start: str = "now") -> dict[str, Any]:
    r = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": start}, headers=bearer(tok))
    assert r.status_code == 201, r.text
    return dict(r.json())


def resign(url: str, link: str) -> None:
    gid = urlparse(link).path.rsplit("/", 1)[1]
    r = httpx.post(f"{url}/api/games/{gid}/events", json={"type": "resign"}, headers=bearer(token_of(link)))
    assert r.status_code == 200, r.text


class Stale:
    """Holds the first read of ``pattern`` the page makes once armed: the answer is fetched at once (the event
    as it is then) and handed to the page only on :meth:`release`, after the event has changed."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.page = page
        self.armed = False
        self.held: list[tuple[Any, Any]] = []
        page.route(pattern, self._route)

    def _route(self, route: Any) -> None:
        if self.armed and not self.held:
            self.held.append((route, route.fetch()))
        else:
            route.continue_()

    def wait_held(self) -> None:
        while not self.held:  # the state waited for: the page's read is in hand
            self.page.wait_for_timeout(20)

    def release(self) -> None:
        route, answer = self.held[0]
        route.fulfill(response=answer)


def test_the_player_page_reads_again_when_the_event_changes_during_its_read(live_server: Any, browser: Any,
                                                                            shots: Path) -> None:
    url = live_server.url
    tid, tok = create(url, ["Anna", "Boris"], rounds=1)
    paired = pair(url, tid, tok)
    (board,) = paired["boards"]
    page_of = {p["start_number"]: p["page"] for p in paired["players"]}
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    stale = Stale(page, f"**/api/tournaments/{tid}/players/*")
    stale.armed = True
    with page.expect_websocket() as got:
        page.goto(page_of[board["white"]["start_number"]])
    ws = got.value
    stale.wait_held()  # the page reads the event as it is: the game in play
    with ws.expect_event("framereceived", predicate=lambda f: "changed" in str(f)):
        resign(url, board["black"]["link"])  # meanwhile the game ends
    stale.release()
    page.wait_for_selector("#p-wait:has-text('is over')")
    page.wait_for_selector("#p-games tbody tr[data-round='1'] td.res:text-is('1 – 0')")
    page.wait_for_selector("#p-score:text-is('1 point · rank 1')")  # one point, not "1 points"
    page.screenshot(path=str(shots / "player-page-1280.png"), full_page=True)
    at_390(page, shots, "player-page")


def test_the_console_reads_again_when_the_event_changes_during_a_read_it_was_asked_for(
        live_server: Any, browser: Any) -> None:
    url = live_server.url
    tid, tok = create(url, ["Anna", "Boris", "Chen", "Dana"], rounds=2)
    for b in pair(url, tid, tok)["boards"]:
        resign(url, b["black"]["link"])
    httpx.get(f"{url}/api/tournaments/{tid}")  # the results taken
    boards = pair(url, tid, tok)["boards"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    stale = Stale(page, f"**/api/tournaments/{tid}/console*")
    with page.expect_websocket() as got:
        page.goto(f"{url}/tournament/{tid}/arbiter#token={tok}")
    ws = got.value
    page.wait_for_selector("#c-round:text-is('Round 2')")
    page.click("#c-prev")
    page.wait_for_selector("#c-round:text-is('Round 1')")
    stale.armed = True
    page.click("#c-next")  # the arbiter goes back to the round in play: the read is the round as it is
    stale.wait_held()
    with ws.expect_event("framereceived", predicate=lambda f: "changed" in str(f)):
        resign(url, boards[0]["black"]["link"])  # meanwhile board 1 ends
    stale.release()
    page.wait_for_selector("#c-round:text-is('Round 2')")
    page.wait_for_selector("[data-count='finished'] b:text-is('1')")
    page.wait_for_selector("#c-boards tbody tr[data-table='1'] td.res:text-is('1 – 0')")


def test_the_form_reads_the_time_control_as_the_lobby_does(live_server: Any, browser: Any, shots: Path) -> None:
    url = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{url}/tournaments")
    page.fill("#t-name", "Minutes Open")
    page.fill("#t-players", "Anna, 2000\nBoris, 1900")
    page.fill("#t-tc", "900+10")  # seconds, as the API writes it: refused, with the players' way named
    page.wait_for_selector("#t-tc-meaning.bad:has-text('minutes')")
    page.click("#t-create-btn")
    page.wait_for_selector("#t-error:not([hidden]):has-text('Time control')")
    assert page.locator("#t-created").is_hidden()
    page.fill("#t-tc", "90+30")  # 90 minutes + 30 s a move, as in the lobby
    page.wait_for_selector("#t-tc-meaning:not(.bad):has-text('90 min')")
    assert page.locator("#t-error").is_hidden()  # the error went as the field was fixed
    page.screenshot(path=str(shots / "tournaments-form-tc-1280.png"), full_page=True)
    page.click("#t-create-btn")
    page.wait_for_selector("#t-created:not([hidden])")
    tid = page.locator("#t-links .link input").first.input_value().split("/tournament/")[1].split("/")[0]
    assert httpx.get(f"{url}/api/tournaments/{tid}").json()["regulations"]["time_control"] == "5400+30"
    page.wait_for_selector(f"#t-list tr[data-id='{tid}'] td.wide:text-is('90+30')")  # the list shows it the same way


def test_a_bad_player_line_is_named_by_its_line_and_field(live_server: Any, browser: Any, shots: Path) -> None:
    url = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{url}/tournaments")
    page.fill("#t-name", "Lines Open")
    before = len(httpx.get(f"{url}/api/tournaments").json())
    # Line 3 of the box (line 2 is blank): a rating no list has.
    page.fill("#t-players", "Berg, Anna, 2010\n\nBoris Chen, 5000\nDana")
    page.click("#t-create-btn")
    error = page.locator("#t-error:not([hidden])")
    error.wait_for()
    text = error.inner_text()
    assert "line 3" in text and "Boris Chen" in text and "rating" in text, text
    page.screenshot(path=str(shots / "tournaments-form-error-1280.png"), full_page=True)
    at_390(page, shots, "tournaments-form-error")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert len(httpx.get(f"{url}/api/tournaments").json()) == before  # nothing created
    # A name longer than the server takes: the line, and the field.
    page.fill("#t-players", "Anna\n" + "X" * 101 + ", 1800")
    page.click("#t-create-btn")
    page.wait_for_selector("#t-error:has-text('line 2')")
    assert "name" in page.locator("#t-error").inner_text()
    # Fixed: created, a name with a comma kept whole, its rating read.
    page.fill("#t-players", "Berg, Anna, 2010\n\nBoris Chen, 1950\nDana")
    page.click("#t-create-btn")
    page.wait_for_selector("#t-created:not([hidden])")
    tid = page.locator("#t-links .link input").first.input_value().split("/tournament/")[1].split("/")[0]
    got = [(p["name"], p["rating"]) for p in httpx.get(f"{url}/api/tournaments/{tid}").json()["players"]]
    assert got == [("Berg, Anna", 2010), ("Boris Chen", 1950), ("Dana", 0)]


def held_round_with_one_player_here(url: str, browser: Any, default_time: float) -> tuple[Any, str, str, dict[str, Any]]:
    """A held round of one board whose White has opened his game; the console open on it."""
    tid, tok = create(url, ["Anna", "Boris"], rounds=1, default_time=default_time)
    (board,) = pair(url, tid, tok, start="held")["boards"]
    con = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    con.goto(f"{url}/tournament/{tid}/arbiter#token={tok}")
    con.wait_for_selector("#c-start-box:not([hidden])")
    con.wait_for_selector("#c-absent:not([hidden]):has-text('2 of 2')")
    here = browser.new_context(viewport={"width": 900, "height": 900}).new_page()
    here.goto(board["white"]["link"])
    here.wait_for_selector("#status:has-text('The round has not started yet')")
    return con, tid, tok, board


def test_the_console_shows_who_has_not_opened_the_game_before_the_start(live_server: Any, browser: Any,
                                                                       shots: Path) -> None:
    con, tid, tok, board = held_round_with_one_player_here(live_server.url, browser, 30)
    white, black = board["white"]["name"], board["black"]["name"]
    row = con.locator("#c-boards tbody tr[data-table='1'] td.state")
    # The console reads the round again when he opens it (not at some later change).
    row.locator(f".badge:text-is('{white} is here')").wait_for(timeout=10000)
    row.locator(f".badge:text-is('{black} has not opened the game')").wait_for()
    assert con.locator("#c-boards-title").text_content() == "Round 1: 1 board"
    assert con.locator("[data-count='boards']").text_content() == "1 board"
    text = con.locator("#c-absent").inner_text()
    assert "1 of 2" in text and f"{black} (board 1, black)" in text and white not in text, text
    con.screenshot(path=str(shots / "round-console-absent-1280.png"), full_page=True)
    at_390(con, shots, "round-console-absent")


def test_start_round_asks_before_the_absent_lose_by_default(live_server: Any, browser: Any, shots: Path) -> None:
    url = live_server.url
    con, tid, tok, board = held_round_with_one_player_here(url, browser, 0)  # default time 0: lost at once
    white, black = board["white"]["name"], board["black"]["name"]
    con.wait_for_selector(f"#c-absent:has-text('{black}'):has-text('1 of 2')")
    asked: list[str] = []

    def answer(accept: bool) -> None:
        def on(d: Any) -> None:
            asked.append(d.message)
            d.accept() if accept else d.dismiss()
        con.once("dialog", on)

    answer(False)
    con.click("#c-start")  # asked first; the arbiter says no: nothing starts
    assert len(asked) == 1
    question = asked[0]
    assert "1 player has not opened the game" in question and f"{black} (board 1, black)" in question, question
    assert white not in question and "loses by default at once" in question, question
    gid = board["game_id"]
    assert httpx.get(f"{url}/api/games/{gid}").json()["held"]
    assert con.locator("#c-start-box").is_visible()
    answer(True)
    con.click("#c-start")
    con.wait_for_selector("#c-start-box", state="hidden")
    assert len(asked) == 2
    t = httpx.get(f"{url}/api/tournaments/{tid}").json()
    assert (t["rounds"][0]["boards"][0]["result"], t["rounds"][0]["boards"][0]["termination"]) == ("+-", "late_arrival")


def test_start_round_is_one_click_when_everyone_is_there(live_server: Any, browser: Any) -> None:
    url = live_server.url
    con, tid, tok, board = held_round_with_one_player_here(url, browser, 30)
    other = browser.new_context(viewport={"width": 900, "height": 900}).new_page()
    other.goto(board["black"]["link"])
    other.wait_for_selector("#status:has-text('The round has not started yet')")
    con.wait_for_selector("#c-absent:has-text('Every player has opened the game')")
    asked: list[str] = []
    con.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    con.click("#c-start")
    con.wait_for_selector("#c-start-box", state="hidden")
    assert asked == []
    assert httpx.get(f"{url}/api/games/{board['game_id']}").json()["absent"] == []


def test_a_tournament_game_links_back_to_its_event_and_offers_no_rematch(live_server: Any, browser: Any,
                                                                         shots: Path) -> None:
    url = live_server.url
    tid, tok = create(url, ["Anna", "Boris"], rounds=1, time_control="3600+0")
    (board,) = pair(url, tid, tok)["boards"]
    for width in (1280, 390):
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.goto(board["white"]["link"])
        link = page.locator("#tournament-link")
        link.wait_for()
        assert link.inner_text() == "← Club Rapid, round 1" and link.get_attribute("href") == f"/tournament/{tid}"
        if width == 1280:
            resign(url, board["black"]["link"])
        page.wait_for_selector("#end-box:not([hidden])")
        assert page.locator("#btn-tournament").is_visible()
        assert page.locator("#btn-tournament").get_attribute("href") == f"/tournament/{tid}"
        assert page.locator("#btn-rematch").is_hidden() and page.locator("#btn-newgame").is_hidden()
        page.screenshot(path=str(shots / f"tournament-game-{width}.png"), full_page=True)
    assert httpx.get(f"{url}/api/games/{board['game_id']}/tournament").json()["table"] == 1
    casual = httpx.post(f"{url}/api/games", json={"white": "A", "black": "B"}).json()
    assert httpx.get(f"{url}/api/games/{casual['id']}/tournament").status_code == 404


def test_a_control_without_increment_reads_as_minutes_plus_increment(live_server: Any, browser: Any) -> None:
    url = live_server.url
    tid, tok = create(url, ["Anna", "Boris"], rounds=1, time_control="3600")
    (board,) = pair(url, tid, tok)["boards"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(board["white"]["link"])
    page.wait_for_selector("#info:has-text('Laws of')")
    assert " · 60+0 · " in page.inner_text("#info")  # an hour, no increment: not a bare "60"
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("#t-regs:has-text('time control 60+0 ·')")
    page.goto(f"{url}/")
    page.click("#presets button[data-tc='60']")  # the lobby's one-minute preset
    assert page.input_value("#tc") == "1+0"
    assert "on" in (page.get_attribute("#presets button[data-tc='60']", "class") or "")
    page.wait_for_selector("#tc-meaning:has-text('1 min each')")

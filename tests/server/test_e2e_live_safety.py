"""A live game in the browser that no mis-click, failed request or bad connection may cost a player:
game-ending steps asked first, naming the player, with the focus on Cancel; over the board, what has
consequences under the Laws asked first; the connection watched, and failures said.

Screenshots at 1280 px and 390 px go to ``CHESSLAWS_SHOTS`` (a directory) when set, else to the test's tmp dir.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from conftest import FIRST_SOCKET_STUCK, needs_chromium
from test_e2e import click_move, new_game, open_seat, wait_end

pytestmark = needs_chromium


def log_of(server: Any, game_id: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in httpx.get(f"{server.url}/api/games/{game_id}/log").text.splitlines()]


def shoot(page: Any, shots: Path, name: str) -> None:
    """The page at 1280 px and at 390 px (a phone), then back to 1280 px."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(shots / f"{name}-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / f"{name}-390.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def focused(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement && document.activeElement.id"))


# --- 1. game-ending steps: asked first, the player named, Cancel focused ----------------------------------------


def test_resigning_asks_naming_the_player_and_enter_or_space_cancels(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="600", edition="2023", white="Alice")
    white = open_seat(browser, g["links"]["white"])
    white.wait_for_selector("#btn-resign:not([disabled])")
    before = len(log_of(server, g["id"]))
    for key in ("Enter", " "):  # pressed by habit, on the focus the dialog opens with: it cancels
        white.click("#btn-resign")
        white.wait_for_selector("#confirm[open]")
        assert white.inner_text("#confirm-title") == "White (Alice): Resign"
        assert focused(white) == "confirm-no"
        if key == "Enter":
            shoot(white, shots, "resign-confirm")
        white.keyboard.press(key)
        white.wait_for_selector("#confirm:not([open])", state="attached")
    # A double click, or a tap landing on the dialog as it opens, does not confirm it.
    state = white.evaluate("""() => {
      document.getElementById('btn-resign').click();
      const yes = document.getElementById('confirm-yes');
      yes.click();
      return {open: document.getElementById('confirm').open, disabled: yes.disabled};
    }""")
    assert state == {"open": True, "disabled": True}
    white.click("#confirm-no")
    white.wait_for_timeout(300)  # what a mistaken click would have sent has had time to arrive
    assert len(log_of(server, g["id"])) == before
    assert white.get_attribute("#status", "data-status") == "ongoing"
    white.click("#btn-resign")
    white.click("#confirm-yes")  # once armed, a deliberate click resigns
    wait_end(white, "resignation")
    white.context.close()


def test_accepting_a_draw_offer_asks_first(server: Any, browser: Any, shots: Path) -> None:
    g = new_game(server, time_control="600", edition="2023", white="Alice", black="Bruno")
    white = open_seat(browser, g["links"]["white"])
    black = open_seat(browser, g["links"]["black"])
    click_move(white, "e2", "e4")  # 2023 5.2.3: a draw by agreement once both players have moved
    click_move(black, "e7", "e5")
    white.wait_for_selector("[data-sq='g1'] .pc.mine")
    white.click("#btn-offer")
    assert white.inner_text("#confirm-title") == "White (Alice): Offer a draw"
    white.click("#confirm-yes")
    black.click("#btn-accept")
    black.wait_for_selector("#confirm[open]")
    assert black.inner_text("#confirm-title") == "Black (Bruno): Accept the draw"
    assert "Accept White's draw offer? The game ends in a draw (Article 5.2.3)." == black.inner_text("#confirm-text")
    assert focused(black) == "confirm-no"
    shoot(black, shots, "accept-confirm")
    black.keyboard.press("Enter")
    black.wait_for_timeout(300)
    assert [e["type"] for e in log_of(server, g["id"])][-1] == "offer_draw"  # nothing accepted
    black.click("#btn-accept")
    black.click("#confirm-yes")
    for page in (white, black):
        wait_end(page, "agreement")
    white.context.close()
    black.context.close()


def test_claims_name_the_player_the_arbiter_enters_them_for(server: Any, browser: Any) -> None:
    """Over the board the arbiter enters a claim for the player chosen: the dialog names that player."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb", white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    click_move(arbiter, "e2", "e4")
    arbiter.wait_for_selector("#sheet td:has-text('e4')")
    arbiter.select_option("#act-for", "black")
    arbiter.click("#tab-claims")
    arbiter.click("#btn-threefold")
    assert arbiter.inner_text("#confirm-title") == "Black (Bruno): Claim a draw by repetition"
    arbiter.click("#confirm-no")
    arbiter.click("#btn-resign")
    assert arbiter.inner_text("#confirm-title") == "Black (Bruno): Resign"
    arbiter.click("#confirm-no")
    assert log_of(server, g["id"])[-1]["type"] == "move"
    arbiter.context.close()


# --- 2. over the board: what has consequences under the Laws is asked first, naming the player -----------------


def test_an_illegal_move_entered_over_the_board_is_asked_first(server: Any, browser: Any, shots: Path) -> None:
    """2023 7.5.1: the arbiter types e1e3 for White (not a legal move): the page asks, naming White, before
    the illegal move is logged; Enter on the dialog cancels and nothing is logged."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb", white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    click_move(arbiter, "e2", "e4")
    click_move(arbiter, "e7", "e5")
    arbiter.wait_for_selector("#sheet td:has-text('e5')")
    arbiter.fill("#move-input", "e1e3")
    arbiter.press("#move-input", "Enter")
    arbiter.wait_for_selector("#confirm[open]")
    assert arbiter.inner_text("#confirm-title") == "White (Alice): An illegal move"
    assert "Record it as an illegal move made by White (Alice)?" in arbiter.inner_text("#confirm-text")
    assert "(Article 7.5.1)" in arbiter.inner_text("#confirm-text")
    assert focused(arbiter) == "confirm-no"
    shoot(arbiter, shots, "illegal-confirm")
    arbiter.keyboard.press("Enter")
    arbiter.wait_for_selector("#confirm:not([open])", state="attached")
    arbiter.wait_for_timeout(300)
    assert [e.get("move") for e in log_of(server, g["id"])][-1] == "e7e5"  # nothing recorded
    assert arbiter.input_value("#move-input") == "e1e3"  # still there, to send once confirmed
    arbiter.press("#move-input", "Enter")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings:has-text('illegal')")  # taken back at once: the arbiter saw it
    assert log_of(server, g["id"])[-1]["move"] == "e1e3"
    arbiter.context.close()


def test_a_touch_and_a_touch_move_claim_are_asked_first(server: Any, browser: Any) -> None:
    """2023 4.3: a touch entered for White binds him to move the piece; Black's claim that a move broke the
    rule is recorded only once confirmed, each dialog naming its player."""
    g = new_game(server, time_control="5400", edition="2023", interface="otb", white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-move")
    arbiter.fill("#hand-square", "g1")
    arbiter.click("#btn-touch")
    assert arbiter.inner_text("#confirm-title") == "White (Alice): A touched piece"
    assert "touched g1? The touched piece must be moved" in arbiter.inner_text("#confirm-text")
    assert "(Article 4.3)" in arbiter.inner_text("#confirm-text")
    arbiter.keyboard.press(" ")
    arbiter.wait_for_selector("#confirm:not([open])", state="attached")
    arbiter.wait_for_timeout(300)
    assert log_of(server, g["id"])[-1]["type"] == "start"
    arbiter.click("#btn-touch")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_function("() => document.getElementById('hand-square').value === ''")
    touched = log_of(server, g["id"])[-1]
    assert (touched["type"], touched["by"], touched["square"]) == ("touch", "white", "g1")
    click_move(arbiter, "b1", "c3")  # the touched knight not moved: the claim's matter
    arbiter.wait_for_selector("#sheet td:has-text('Nc3')")
    arbiter.select_option("#act-for", "black")
    arbiter.click("#tab-claims")
    arbiter.click("#btn-claim-touch")
    assert arbiter.inner_text("#confirm-title") == "Black (Bruno): Claim touch-move"
    arbiter.click("#confirm-no")
    arbiter.wait_for_timeout(300)
    assert log_of(server, g["id"])[-1]["type"] == "move"
    arbiter.click("#btn-claim-touch")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings:has-text('touched')")
    assert log_of(server, g["id"])[-1]["type"] == "claim_touch_move"
    arbiter.context.close()


# --- 3. the connection: an offline bar, a reconnection by itself, a heartbeat -----------------------------------


class Link:
    """The page's WebSocket through Playwright's route: it may be cut (every message dropped both ways, as on
    a connection that died without a close) or closed; it counts the connections the page opened."""

    def __init__(self, page: Any) -> None:
        self.opened = 0
        self.dead = False
        self.routes: list[Any] = []
        self.hold_states = False  # states from the server held back (a slow link, a queue), pongs not
        self.held: list[tuple[Any, str]] = []
        page.route_web_socket("**/api/games/*/ws*", self._route)

        self.refuse = False  # every connection closed at once (a network that blocks WebSockets)
        self.error: dict[str, Any] | None = None  # the server's answer to every event sent on the socket
        self.store_down = False  # every state says the server cannot store moves

    def _route(self, ws: Any) -> None:
        self.opened += 1
        self.routes.append(ws)
        if self.refuse:
            ws.close()
            return
        server = ws.connect_to_server()
        ws.on_message(lambda m: self._to_server(ws, server, m))
        server.on_message(lambda m: self._to_page(ws, m))

    def _to_server(self, ws: Any, server: Any, m: Any) -> None:
        if self.dead:
            return
        msg = json.loads(m)
        if self.error is not None and "event" in msg:
            ws.send(json.dumps({"kind": "error", "rid": msg["rid"], **self.error}))
            return
        server.send(m)

    def _to_page(self, ws: Any, m: Any) -> None:
        if self.dead:
            return
        msg = json.loads(m)
        if self.store_down and msg.get("kind") == "state":
            msg["state"]["store_down"] = True
            m = json.dumps(msg)
        if self.hold_states and msg.get("kind") == "state":
            self.held.append((ws, m))
            return
        ws.send(m)

    def release(self) -> None:
        self.hold_states = False
        for ws, m in self.held:
            ws.send(m)
        self.held.clear()

    def close(self) -> None:
        self.routes[-1].close()


HEARTBEAT = "window.CHESSLAWS_HEARTBEAT = {every: 600, within: 400};"


def test_a_dead_connection_is_found_by_the_heartbeat_and_the_page_reconnects(server: Any, browser: Any,
                                                                             shots: Path) -> None:
    """Messages stop both ways with no close (a phone that changed networks): the page finds it by the pong
    that does not come, says it is offline, reads the state (with the move made meanwhile) and connects again.
    A healthy connection is never dropped by the heartbeat."""
    g = new_game(server, time_control="600", white="Alice", black="Bruno")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(HEARTBEAT)
    page = ctx.new_page()
    link = Link(page)
    page.goto(g["links"]["black"])
    page.wait_for_selector("#status[data-status]")
    page.wait_for_selector("#conn.up")
    # Several heartbeats on a healthy connection: answered, no reconnection.
    page.wait_for_function("() => Number(document.body.dataset.pongs || 0) >= 5")
    assert link.opened == 1 and page.is_hidden("#offline")
    link.dead = True
    httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "move", "move": "e4"},
               headers={"Authorization": f"Bearer {g['tokens']['white']}"}).raise_for_status()
    page.wait_for_selector("#offline:has-text('Offline: reconnecting')")
    assert page.is_visible("#offline") and not page.is_visible("#conn.up")
    shoot(page, shots, "offline-bar")
    page.wait_for_selector("#sheet td:has-text('e4')")  # meanwhile the state is read again over HTTP
    link.dead = False
    page.wait_for_selector("#offline", state="hidden")
    assert link.opened >= 2
    page.wait_for_selector("#conn.up")
    ctx.close()


def test_a_closed_connection_shows_the_bar_and_reconnects_by_itself(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="600")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    link = Link(page)
    page.goto(g["links"]["white"])
    page.wait_for_selector("#conn.up")
    link.close()
    page.wait_for_selector("#offline:visible")
    page.wait_for_selector("#offline", state="hidden")
    assert link.opened == 2
    click_move(page, "e2", "e4")  # the new socket carries the move
    page.wait_for_selector("#sheet td:has-text('e4')")
    assert log_of(server, g["id"])[-1]["move"] == "e2e4"
    ctx.close()


def test_a_socket_that_never_opens_is_given_up_and_the_page_connects_again(server: Any, browser: Any) -> None:
    """The first socket stays connecting for ever: after HEARTBEAT.open ms the page gives it up, shows the state
    read over HTTP (not "Connecting…" for ever), and connects again; the new socket carries a move."""
    g = new_game(server, time_control="600", white="Alice", black="Bruno")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("window.CHESSLAWS_HEARTBEAT = {open: 800};" + FIRST_SOCKET_STUCK)
    page = ctx.new_page()
    page.goto(g["links"]["white"])
    page.wait_for_selector("#status[data-status='ongoing']", timeout=15000)
    page.wait_for_function("() => document.documentElement.dataset.sockets === '2'", timeout=15000)
    page.wait_for_selector("#conn.up")
    click_move(page, "e2", "e4")
    page.wait_for_selector("#sheet td:has-text('e4')")
    assert log_of(server, g["id"])[-1]["move"] == "e2e4"
    ctx.close()


# --- 4. an event that is not recorded is said so, the piece goes back; the clocks held while the store is away ---

UNREACHABLE = ("the game store is unreachable: nothing was recorded; the clocks are held until it returns "
               "(try again in a moment)")


def piece_back_on_e2(page: Any) -> None:
    page.wait_for_selector("[data-sq='e2'] .pc.mine")
    assert page.locator("[data-sq='e4'] .pc").count() == 0


def test_a_move_sent_over_http_that_fails_says_nothing_was_recorded(server: Any, browser: Any, shots: Path) -> None:
    """No WebSocket gets through (the page reads the state over HTTP and sends its events so): a move whose
    request gets no answer, a 502 of a proxy and the database's 503 each say that nothing was recorded and
    to try again; the pawn goes back. Then the move goes through."""
    g = new_game(server, time_control="600", white="Alice")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    link = Link(page)
    link.refuse = True
    page.goto(g["links"]["white"])
    page.wait_for_selector("#status[data-status='ongoing']")  # read over HTTP
    page.wait_for_selector("#offline:visible")
    page.route("**/api/games/*/events*", lambda route: route.abort())
    click_move(page, "e2", "e4")
    page.wait_for_selector("#alert:has-text('Nothing was recorded: The server cannot be reached. Try again.')")
    piece_back_on_e2(page)
    shoot(page, shots, "not-recorded")
    page.unroute("**/api/games/*/events*")
    page.route("**/api/games/*/events*", lambda route: route.fulfill(status=502, body="<html>Bad Gateway</html>"))
    click_move(page, "e2", "e4")
    page.wait_for_selector("#alert:has-text('Nothing was recorded: 502')")
    piece_back_on_e2(page)
    page.unroute("**/api/games/*/events*")
    page.route("**/api/games/*/events*", lambda route: route.fulfill(
        status=503, headers={"retry-after": "2", "content-type": "application/json"},
        body=json.dumps({"error": UNREACHABLE})))
    click_move(page, "e2", "e4")
    page.wait_for_selector("#alert:has-text('Try again in 2 s.')")
    assert page.inner_text("#alert-text").startswith("The game store is unreachable: nothing was recorded;")
    piece_back_on_e2(page)
    assert log_of(server, g["id"])[-1]["type"] == "start"
    page.unroute("**/api/games/*/events*")
    click_move(page, "e2", "e4")
    page.wait_for_selector("#sheet td:has-text('e4')")
    assert log_of(server, g["id"])[-1]["move"] == "e2e4"
    ctx.close()


def test_a_move_refused_on_the_socket_while_the_store_is_away_says_so_and_the_clocks_are_held(
        server: Any, browser: Any, shots: Path) -> None:
    """The server says store_down: the running clock is shown held (not counting down: no flag falls for
    a player who cannot move), and a move answered 503 on the socket says nothing was recorded."""
    g = new_game(server, time_control="600", white="Alice")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    link = Link(page)
    link.store_down = True
    link.error = {"status": 503, "error": UNREACHABLE, "retry_after": 2}
    page.goto(g["links"]["white"])
    page.wait_for_selector("#status:has-text('the clocks are held')")
    clock = page.locator(".player[data-color='white'] .clock.held")
    clock.wait_for()
    assert "running" not in (clock.get_attribute("class") or "")
    # Two frames later the clock shows exactly the server's held time, not a time counted down from it.
    page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    held = page.evaluate("() => S.clocks.white_ms")
    assert int(clock.get_attribute("data-ms") or "-1") == round(held)
    click_move(page, "e2", "e4")
    page.wait_for_selector("#alert:has-text('Try again in 2 s.')")
    assert "nothing was recorded" in page.inner_text("#alert-text")
    piece_back_on_e2(page)
    shoot(page, shots, "store-down")
    assert log_of(server, g["id"])[-1]["type"] == "start"
    ctx.close()


# --- 5. a slow link: the running clock shown is the server's, not the late state's ----------------------------


def server_state(server: Any, g: dict[str, Any]) -> dict[str, Any]:
    return dict(httpx.get(f"{server.url}/api/games/{g['id']}").json())


def test_a_state_that_arrives_late_does_not_show_the_running_clock_fuller_than_the_servers(
        server: Any, browser: Any) -> None:
    """White's move reaches Black's page 1.5 s late (the link slow, or messages queued): Black's clock, running
    since the move, must not show those 1.5 s as still his. The pongs of the heartbeat (and the states that
    came fast) tell the page the server's game time."""
    g = new_game(server, time_control="600", white="Alice", black="Bruno")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(HEARTBEAT)
    page = ctx.new_page()
    link = Link(page)
    page.goto(g["links"]["black"])
    page.wait_for_selector("#status[data-status='ongoing']")
    page.wait_for_function("() => Number(document.body.dataset.pongs || 0) >= 2")
    link.hold_states = True
    httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "move", "move": "e4"},
               headers={"Authorization": f"Bearer {g['tokens']['white']}"}).raise_for_status()
    moved = server_state(server, g)["clocks"]["black_ms"]
    while not link.held or server_state(server, g)["clocks"]["black_ms"] > moved - 1500:
        page.wait_for_timeout(100)  # the state waits on the link while Black's clock runs on the server
    link.release()
    clock = page.locator(".player[data-color='black'] .clock.running")
    clock.wait_for()
    on_server = server_state(server, g)["clocks"]["black_ms"]
    shown = int(clock.get_attribute("data-ms") or "0")
    assert shown <= on_server + 400, f"the page shows {shown} ms, the server {on_server} ms"
    assert shown >= on_server - 1000  # and not much emptier either
    ctx.close()


# --- 1 (the arbiter): his steps that end the game or change its result are asked first too ----------------------


def test_the_arbiters_flag_seen_down_and_result_decided_are_asked_first(server: Any, browser: Any) -> None:
    """An occasional arbiter (2023 6.8) sees White's flag down: the dialog names White; Enter cancels. Then
    he decides the result (8.7): asked, naming the result."""
    g = new_game(server, time_control="40/5400", edition="2023", interface="otb", arbiter="occasional",
                 white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-clock")
    arbiter.fill("#arb-w", "0:00")
    arbiter.fill("#arb-b", "80:00")
    arbiter.click("#arb-set")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#arb-period:not([hidden])")
    arbiter.click("#arb-observe-flag")
    assert arbiter.inner_text("#confirm-title") == "White (Alice): A flag down"
    assert "(Article 6.9)" in arbiter.inner_text("#confirm-text")
    assert focused(arbiter) == "confirm-no"
    arbiter.keyboard.press("Enter")
    arbiter.wait_for_selector("#confirm:not([open])", state="attached")
    arbiter.wait_for_timeout(300)
    assert log_of(server, g["id"])[-1]["type"] == "set_clocks"
    arbiter.click("#arb-observe-flag")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector('#status[data-result="0-1"]')
    arbiter.click("#tab-sheet")
    arbiter.select_option("#result-decided", "draw")
    arbiter.click("#arb-decide-result")
    assert arbiter.inner_text("#confirm-title") == "Result decided"
    assert "Decide that the result is ½-½?" in arbiter.inner_text("#confirm-text")
    assert "(Article 8.7)" in arbiter.inner_text("#confirm-text")
    arbiter.click("#confirm-no")
    arbiter.wait_for_timeout(300)
    assert log_of(server, g["id"])[-1]["type"] == "observe"
    arbiter.context.close()


# --- 1 (the arbiter): what changes a game without ending it is asked first, naming the player -------------------


def confirm_open(page: Any) -> dict[str, str]:
    """The dialog once open, as the arbiter reads it: title, text, the confirm button's label, the focus."""
    page.wait_for_selector("#confirm[open]")
    return {"title": page.inner_text("#confirm-title"), "text": page.inner_text("#confirm-text"),
            "ok": page.inner_text("#confirm-yes"), "focus": focused(page)}


def cancel_with_enter(page: Any) -> None:
    page.keyboard.press("Enter")  # the focus is on Cancel: Enter pressed by habit cancels
    page.wait_for_selector("#confirm:not([open])", state="attached")


def test_a_time_penalty_is_asked_first_naming_the_player_and_the_editions_article(
        server: Any, browser: Any, shots: Path) -> None:
    """2023 12.9.3 and 12.9.2: "2 minutes" off White's clock, 1 minute more on White's clock for Black's offence:
    each asked first, naming the player, with the edition's article; Enter cancels; only the penalty confirmed is
    logged. A warning (12.9.1) is asked too."""
    g = new_game(server, time_control="5400", edition="2023", white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-penalties")
    arbiter.select_option("#pen-kind", "reduce_time")
    arbiter.fill("#pen-sec", "120")
    arbiter.click("#arb-penalty")
    shown = confirm_open(arbiter)
    assert shown == {"title": "White (Alice): Penalty", "focus": "confirm-no", "ok": "Give penalty",
                     "text": "The time on White (Alice)'s clock is reduced by 2 minutes (Article 12.9.3)."}
    shoot(arbiter, shots, "penalty-confirm")
    cancel_with_enter(arbiter)
    arbiter.select_option("#pen-against", "black")
    arbiter.select_option("#pen-kind", "add_time")
    arbiter.fill("#pen-sec", "60")
    arbiter.fill("#pen-reason", "phone rang")
    arbiter.click("#arb-penalty")
    shown = confirm_open(arbiter)
    assert shown["title"] == "Black (Bruno): Penalty"
    assert shown["text"] == ("The time on White (Alice)'s clock is increased by 1 minute (Article 12.9.2).\n"
                             "Reason: phone rang")
    arbiter.click("#confirm-no")
    arbiter.select_option("#pen-kind", "warning")
    arbiter.click("#arb-penalty")
    assert confirm_open(arbiter)["text"] == "Black (Bruno) is warned (Article 12.9.1).\nReason: phone rang"
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings li:has-text('warns Black (phone rang)')")
    penalties = [e for e in log_of(server, g["id"]) if e["type"] == "penalty"]
    assert [(e["against"], e["kind"]) for e in penalties] == [("black", "warning")]  # nothing cancelled was sent
    arbiter.context.close()


def test_a_1989_time_penalty_cites_16_5(server: Any, browser: Any) -> None:
    """1989 16.5: "a time penalty (by adding to the player's used time or to his opponent's unused time)": the
    1989 article, never the 2023 one, from the state's controls."""
    g = new_game(server, time_control="40/9000:3600", edition="1989", white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-penalties")
    arbiter.select_option("#pen-kind", "reduce_time")
    arbiter.fill("#pen-sec", "300")
    arbiter.click("#arb-penalty")
    assert confirm_open(arbiter)["text"] == "The time on White (Alice)'s clock is reduced by 5 minutes (Article 16.5)."
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings li:has-text('is taken off his clock')")
    white_ms = httpx.get(f"{server.url}/api/games/{g['id']}").json()["clocks"]["white_ms"]
    assert 8_690_000 < white_ms <= 8_700_000
    arbiter.context.close()


def test_setting_the_clocks_is_asked_and_a_flag_at_once_or_a_time_far_over_is_said(
        server: Any, browser: Any, shots: Path) -> None:
    """2023 6.10.2: the arbiter sets the clocks: the dialog shows each player's time before and after. 0:00 (the flag
    falls at once) and a time far over the whole time control are said explicitly, the confirm button saying
    "anyway"; Enter cancels. Then 8.6, the next period, is asked naming the flagged player."""
    g = new_game(server, time_control="40/5400:1800", edition="2023", interface="otb", arbiter="occasional",
                 white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    arbiter.click("#tab-clock")
    arbiter.fill("#arb-w", "0:00")
    arbiter.fill("#arb-b", "80:00")
    arbiter.click("#arb-set")
    shown = confirm_open(arbiter)
    assert shown["title"] == "Set the clocks" and shown["focus"] == "confirm-no"
    assert shown["ok"] == "Set the clocks anyway"
    assert shown["text"].startswith("⚠ White (Alice)'s clock is set to 0:00: the flag falls at once.\n")
    assert re.search(r"\nWhite \(Alice\): 1:(30:00|29:5\d) → 0:00\nBlack \(Bruno\): 1:30:00 → 1:20:00\n", shown["text"])
    assert shown["text"].endswith("The clocks show these times from now (Article 6.10.2).")
    shoot(arbiter, shots, "set-clocks-zero-confirm")
    cancel_with_enter(arbiter)
    arbiter.click("#arb-stop")  # White's clock stands still: only Black's time changes below
    arbiter.wait_for_selector("#rulings li:has-text('stops the clocks')")
    white_left = arbiter.evaluate("() => fmtTime(S.clocks.white_ms)")
    arbiter.fill("#arb-w", white_left)
    arbiter.fill("#arb-b", "300:00")  # the whole control gives two hours
    arbiter.click("#arb-set")
    shown = confirm_open(arbiter)
    assert shown["title"] == "Black (Bruno): Set the clocks"  # only Black's time changes
    assert shown["text"].startswith("⚠ Black (Bruno)'s clock is set to 5:00:00, far more than the whole time "
                                    "control (40/90:30+0) gives.")
    arbiter.click("#confirm-no")
    arbiter.fill("#arb-b", "85:00")
    arbiter.click("#arb-set")
    shown = confirm_open(arbiter)
    assert shown["ok"] == "Set clocks" and "⚠" not in shown["text"]
    assert shown["title"] == "Black (Bruno): Set the clocks"
    arbiter.click("#confirm-no")
    assert [e["type"] for e in log_of(server, g["id"])] == ["start", "stop_clocks"]  # three dialogs cancelled
    arbiter.fill("#arb-w", "0:00")
    arbiter.fill("#arb-b", "80:00")
    arbiter.click("#arb-set")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#arb-period:not([hidden])")
    arbiter.click("#arb-next-period")
    shown = confirm_open(arbiter)
    assert shown["title"] == "White (Alice): Next move: first of the next period"
    assert shown["text"].startswith("The flag of White (Alice) is down")
    assert shown["text"].endswith("receives its time (Article 8.6).") and shown["ok"] == "Next period"
    shoot(arbiter, shots, "next-period-confirm")
    cancel_with_enter(arbiter)
    assert log_of(server, g["id"])[-1]["type"] == "set_clocks"
    arbiter.click("#arb-next-period")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings:has-text('first of the following time period')")
    assert [e["type"] for e in log_of(server, g["id"])] == ["start", "stop_clocks", "set_clocks", "decision"]
    arbiter.context.close()


def test_an_illegal_move_the_arbiter_observes_is_asked_first_naming_the_offender(server: Any, browser: Any,
                                                                               shots: Path) -> None:
    """2023 7.5.1 and 7.5.5: the occasional arbiter sees White's illegal move standing: the position before it is
    reinstated and White penalised; asked first, naming White and both articles."""
    g = new_game(server, time_control="40/5400", edition="2023", interface="otb", arbiter="occasional",
                 white="Alice", black="Bruno")
    arbiter = open_seat(browser, g["links"]["arbiter"])
    click_move(arbiter, "e2", "e4")
    click_move(arbiter, "e7", "e5")
    arbiter.wait_for_selector("#sheet td:has-text('e5')")
    arbiter.fill("#move-input", "e1e3")
    arbiter.press("#move-input", "Enter")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#sheet td:has-text('e1-e3')")
    arbiter.click("#tab-move")
    arbiter.click("#arb-observe-illegal")
    shown = confirm_open(arbiter)
    assert shown["title"] == "White (Alice): An illegal move observed" and shown["focus"] == "confirm-no"
    assert shown["text"].startswith("Record that you see White (Alice)'s illegal move ")
    assert shown["text"].endswith("is penalised as for an illegal move (Article 7.5.1). The penalty: Article 7.5.5.")
    shoot(arbiter, shots, "observe-illegal-confirm")
    cancel_with_enter(arbiter)
    assert log_of(server, g["id"])[-1]["move"] == "e1e3"
    arbiter.click("#arb-observe-illegal")
    arbiter.click("#confirm-yes")
    arbiter.wait_for_selector("#rulings:has-text('The arbiter finds White')")
    assert (log_of(server, g["id"])[-1]["type"], log_of(server, g["id"])[-1]["what"]) == ("observe", "illegal_move")
    arbiter.context.close()


def test_a_quickplay_claim_postponed_or_rejected_is_asked_naming_who_receives_time(server: Any, browser: Any,
                                                                                  shots: Path) -> None:
    """2023 III.5.2 and III.5.3: postponing or rejecting White's quickplay claim gives Black two minutes: asked
    first, naming Black; under 1997 10.2 a rejection gives nothing, and the dialog says so."""
    for edition, reject_text in (
            ("2023", "Reject White (Alice)'s claim? Black (Bruno) receives 2 minutes more on the clock, and the game "
                     "continues (Article III.5.3)."),
            ("1997", "Reject White (Alice)'s claim? The game continues (Article 10.2).")):
        g = new_game(server, time_control="5400", edition=edition, white="Alice", black="Bruno",
                     quickplay_guidelines=True)
        arbiter = open_seat(browser, g["links"]["arbiter"])
        headers = {"Authorization": f"Bearer {g['tokens']['arbiter']}"}
        url = f"{server.url}/api/games/{g['id']}/events"
        r = httpx.post(url, json={"type": "set_clocks", "white_ms": 90_000, "black_ms": 3_000_000}, headers=headers)
        assert r.status_code == 200, r.text
        r = httpx.post(url, json={"type": "claim_draw", "reason": "quickplay"},
                       headers={"Authorization": f"Bearer {g['tokens']['white']}"})
        assert r.status_code == 200, r.text
        arbiter.click("#tab-claims")
        arbiter.wait_for_selector("#arb-quickplay:not([hidden])")
        arbiter.click("#arb-quickplay [data-ruling='postpone']")
        shown = confirm_open(arbiter)
        assert shown["title"] == "Black (Bruno): Quickplay claim" and shown["ok"] == "Postpone"
        assert shown["text"].startswith("Postpone the decision on White (Alice)'s claim? Black (Bruno) receives "
                                        "2 minutes more on the clock")
        assert shown["text"].endswith("(Article III.5.2)." if edition == "2023" else "(Article 10.2(b)).")
        shoot(arbiter, shots, f"quickplay-postpone-confirm-{edition}")
        cancel_with_enter(arbiter)
        arbiter.click("#arb-quickplay [data-ruling='reject']")
        shown = confirm_open(arbiter)
        assert shown["text"] == reject_text
        arbiter.click("#confirm-yes")
        arbiter.wait_for_selector("#rulings:has-text('rejects White')")
        decisions = [e for e in log_of(server, g["id"]) if e["type"] == "decision"]
        assert [e["ruling"] for e in decisions] == ["reject"]
        arbiter.context.close()


# --- 2. a failure that says nothing was recorded stays until the player acts ----------------------------------


def test_a_move_not_recorded_stays_said_until_the_player_acts_or_closes_it(
        server: Any, browser: Any, shots: Path) -> None:
    """The server refuses White's move (503: nothing was recorded): the message is an alert, still there long
    after a toast would have gone (the page's timers run 8 s on), closed from the keyboard; said again on a
    second failure, it goes by itself when the player's next move is recorded. A success toast still vanishes."""
    g = new_game(server, time_control="600", white="Alice")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.clock.install()
    link = Link(page)
    link.error = {"status": 503, "error": UNREACHABLE, "retry_after": 2}  # the store away: nothing recorded
    page.goto(g["links"]["white"])
    page.wait_for_selector("#conn.up")
    page.wait_for_selector("[data-sq='e2'] .pc.mine")
    click_move(page, "e2", "e4")
    alert = page.locator("#alert")
    alert.wait_for(state="visible")
    assert alert.get_attribute("role") == "alert"
    assert page.inner_text("#alert-text").startswith("The game store is unreachable: nothing was recorded;")
    page.clock.run_for(8_000)  # past the 5 s a passing notice lasts (and before the next heartbeat, at 10 s)
    assert alert.is_visible()
    shoot(page, shots, "not-recorded-sticky")
    page.focus("#alert-close")
    assert page.get_attribute("#alert-close", "aria-label") == "Close this message"
    page.keyboard.press("Enter")
    alert.wait_for(state="hidden")
    click_move(page, "e2", "e4")  # fails again: said again
    alert.wait_for(state="visible")
    link.error = None
    click_move(page, "e2", "e4")  # the player acts: the message goes, and the move is recorded
    page.wait_for_selector("#sheet td:has-text('e4')")
    assert alert.is_hidden()
    page.keyboard.press("c")  # a success toast (the clocks read aloud) still vanishes by itself
    page.wait_for_selector("#toast.show")
    page.clock.run_for(3_000)
    page.wait_for_selector("#toast.show", state="detached")
    ctx.close()


def test_the_consoles_dialogs_and_the_alert_speak_the_pages_language(server: Any, browser: Any, shots: Path) -> None:
    """A German page: the penalty's dialog is German, with the edition's article (2023 12.9.3), and the alert's
    close button is named in German."""
    g = new_game(server, time_control="5400", edition="2023", white="Alice", black="Bruno")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('chesslaws:lang', 'de')")
    page = ctx.new_page()
    page.goto(g["links"]["arbiter"])
    page.wait_for_selector("#status[data-status='ongoing']")
    page.click("#tab-penalties")
    page.select_option("#pen-kind", "reduce_time")
    page.fill("#pen-sec", "120")
    page.click("#arb-penalty")
    shown = confirm_open(page)
    assert shown["title"] == "Weiß (Alice): Strafe" and shown["ok"] == "Strafe verhängen"
    assert shown["text"] == "Die Restzeit auf der Uhr von Weiß (Alice) wird um 2 Minuten verringert (Artikel 12.9.3)."
    shoot(page, shots, "penalty-confirm-de")
    page.click("#confirm-no")
    assert page.get_attribute("#alert-close", "aria-label") == "Diese Meldung schließen"
    ctx.close()

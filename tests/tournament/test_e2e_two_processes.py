"""A club's live tournament on two ``chesslaws serve`` processes sharing one PostgreSQL database, in Chromium
(README, "More than one process"): the organiser creates the event and pairs on process A, the arbiter's round
console is on A, the players open their games through B (and some through A). Nothing anyone sees depends on
which process serves whom: the console on A shows present the players whose sockets are on B, and the "Start
round" question names only the player who never came; moves are made through both processes; a game is lost
on time, one by default (Article 6.7); the standings and the player pages read the same on both processes, and
a standings page open on B before the round was paired on A shows the pairing."""

from __future__ import annotations

from typing import Any, Callable

import httpx

from conftest import needs_chromium
from test_live_journey import MATE, click_move, seats

pytestmark = needs_chromium

NAMES = [("Anna", 2150), ("Boris", 2100), ("Chen", 2050), ("Dana", 2000), ("Emil", 1950), ("Fay", 1900)]


def test_a_round_on_two_processes_reads_the_same_on_both(pg_url: str, server_factory: Callable[..., Any],
                                                         browser: Any) -> None:
    from playwright.sync_api import expect

    a = server_factory(pg_url, extra=("--no-rate-limits",))
    b = server_factory(pg_url, extra=("--no-rate-limits",))

    def page(width: int = 1280) -> Any:
        return browser.new_context(viewport={"width": width, "height": 900}).new_page()

    # The organiser creates the event on A.
    org = page()
    org.goto(f"{a.url}/tournaments")
    org.fill("#t-name", "Two Rooms Open")
    org.select_option("#t-system", "swiss")
    org.fill("#t-rounds", "1")
    org.fill("#t-tc", "10s+2")
    org.fill("#t-default", "3")
    org.fill("#t-players", "\n".join(f"{n}, {r}" for n, r in NAMES))
    org.click("#t-create-btn")
    org.wait_for_selector("#t-created:not([hidden])")
    console_link = org.locator("#t-links .link input").first.input_value()
    tid = console_link.split("/tournament/")[1].split("/")[0]

    # A spectator reads the standings through B before anything is paired.
    watch_b = page()
    watch_b.goto(f"{b.url}/tournament/{tid}")
    watch_b.wait_for_selector("#t-regs:has-text('10')")

    # The arbiter pairs on A.
    con = page()
    con.goto(console_link)  # served by A
    con.wait_for_selector("#c-pair:not([hidden]):text-is('Pair round 1')")
    con.click("#c-pair")
    con.wait_for_selector("#c-round:text-is('Round 1')")
    con.wait_for_selector("#c-start-box:not([hidden])")
    con.wait_for_selector("#c-seats .link")
    where = seats(con)
    by_seat = {(t, c): n for n, (t, c) in where.items()}
    # The page open on B learns of the pairing made on A (no game of it was ever loaded on B).
    watch_b.wait_for_selector("[data-round='1'] table.pairings tbody tr", timeout=10000)

    # The players open their games from their own pages: every White through B, the Blacks of boards 1 and 2
    # through A; board 3's Black never comes.
    no_show = by_seat[(3, "black")]
    players: dict[str, Any] = {}
    for (table, colour), name in sorted(by_seat.items()):
        if name == no_show:
            continue
        link = con.locator(f"#c-players tr:has(td.name:text-is('{name}')) .link input").input_value()
        assert link.startswith(a.url + "/"), link  # the console (on A) gives A's address: the player goes to B
        base = b.url if colour == "white" else a.url
        p = players[name] = page(900)
        p.goto(base + link[len(a.url):])
        p.wait_for_selector(f"#p-current .pairing:has-text('Round 1, board {table}')")
        p.click("#p-play")
        p.wait_for_selector("#status:has-text('The round has not started yet')")
        assert p.url.startswith(base), (name, p.url)

    # The console on A sees the players whose sockets are on B: one player has not opened his game.
    absent = con.locator("#c-absent")
    expect(absent).to_contain_text("1 of 6", timeout=10000)
    text = absent.inner_text()
    assert no_show in text and all(n not in text for n in players), text
    asked: list[str] = []
    con.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    con.click("#c-start")
    con.wait_for_selector("#c-start-box", state="hidden")
    assert len(asked) == 1 and no_show in asked[0], asked
    assert all(n not in asked[0] for n in players), asked[0]  # nobody who came is told he loses by default

    # Moves through both processes: board 2's White moves on B, his opponent (on A) never answers.
    click_move(players[by_seat[(2, "white")]], "e2", "e4")
    w, k = players[by_seat[(1, "white")]], players[by_seat[(1, "black")]]
    for i, (x, y) in enumerate(MATE):
        click_move(w if i % 2 == 0 else k, x, y)
    for p in (w, k):
        p.wait_for_selector("#end-box:not([hidden])")

    # The console on A: a mate, a time forfeit, a late arrival.
    con.wait_for_selector("[data-count='finished'] b:text-is('3')", timeout=30000)
    rows = "#c-boards tbody tr[data-table='{}'] td.state"
    expect(con.locator(rows.format(2))).to_contain_text("over: time forfeit")
    expect(con.locator(rows.format(3))).to_contain_text("over: late arrival")

    # The standings read the same through both processes (and the page open on B since before the pairing).
    tables = []
    for base, st in ((a.url, page()), (b.url, watch_b)):
        if st is not watch_b:
            st.goto(f"{base}/tournament/{tid}")
        st.wait_for_selector("#standings-title:text-is('Final standings')", timeout=10000)
        tables.append(st.locator("#standings tbody").inner_text())
    assert tables[0] == tables[1], tables
    got = {(r["table"]): (r["result"], r["termination"])
           for r in httpx.get(f"{b.url}/api/tournaments/{tid}").json()["rounds"][0]["boards"]}
    assert got == {1: ("1-0", "checkmate"), 2: ("1-0", "time_forfeit"), 3: ("+-", "late_arrival")}, got

    # The player pages: the winner by default reads his point through B, and through A.
    winner = by_seat[(3, "white")]
    link = con.locator(f"#c-players tr:has(td.name:text-is('{winner}')) .link input").input_value()
    for base in (b.url, a.url):
        p = page(900)
        p.goto(base + link[len(a.url):])
        p.wait_for_selector("#p-score:has-text('1 point')")
        p.wait_for_selector("#p-games tbody tr[data-round='1'] td.res")

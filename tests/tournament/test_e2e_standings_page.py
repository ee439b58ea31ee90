"""The standings and the players' pages as a German club reads them in Chromium: a bye counted once its round
is played, a round held for the arbiter's start said to be held, a withdrawn player told he has no game,
every score in one formatting (1½, 1¾), the tie-break codes explained (a title on each head and a legend),
the TRF link a download. With screenshots of every tournament page at 1280 and 390 px (``langs-*.png``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from conftest import FIRST_SOCKET_STUCK, at_390, needs_chromium

pytestmark = needs_chromium

NAMES = ["Anna Berg", "Boris Chen", "Clara Diaz", "Dana Eck", "Emil Fry"]


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(url: str, rounds: int = 3) -> tuple[str, str]:
    r = httpx.post(f"{url}/api/tournaments", json={
        "name": "Herbstturnier", "system": "swiss", "rounds": rounds, "time_control": "900+10", "default_time": 900,
        "players": [{"name": n, "rating": 2000 - 20 * i} for i, n in enumerate(NAMES)]})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["arbiter_token"]


def pair(url: str, tid: str, tok: str, start: str) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": start}, headers=bearer(tok))
    assert r.status_code == 201, r.text
    return dict(r.json())


def resign(url: str, link: str) -> None:
    gid = urlparse(link).path.rsplit("/", 1)[1]
    r = httpx.post(f"{url}/api/games/{gid}/events", json={"type": "resign"}, headers=bearer(token_of(link)))
    assert r.status_code == 200, r.text


def german(browser: Any, width: int = 1280) -> Any:
    return browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE").new_page()


def text(page: Any, selector: str) -> str:
    """An element's text as written (the headings are shown in capitals by the style)."""
    return " ".join(str(page.text_content(selector)).split())


def row_points(page: Any, sn: int) -> str:
    return str(page.inner_text(f"#standings tbody tr[data-sn='{sn}'] td.pts"))


def test_a_bye_counts_on_the_page_once_its_round_is_played(live_server: Any, browser: Any) -> None:
    url = live_server.url
    tid, tok = create(url)
    r1 = pair(url, tid, tok, "now")
    (bye,) = r1["byes"]
    page = german(browser)
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("#standings tbody tr")
    assert text(page, "#standings-title") == "Stand nach Runde 0 von 3"
    assert row_points(page, bye["player"]) == "0"
    assert page.inner_text("#standings tbody tr:first-child td.rank") == "1"
    first, second = r1["boards"]
    resign(url, first["black"]["link"])
    page.wait_for_function("() => document.getElementById('standings-title').textContent.includes('bisherigen')")
    assert text(page, "#standings-title") == "Stand nach Runde 0 von 3, mit den bisherigen Ergebnissen der Runde 1"
    assert row_points(page, first["white"]["start_number"]) == "1" and row_points(page, bye["player"]) == "0"
    resign(url, second["white"]["link"])
    page.wait_for_function("() => document.getElementById('standings-title').textContent === 'Stand nach Runde 1 von 3'")
    assert row_points(page, bye["player"]) == "1"
    assert text(page, "#rounds .round[data-round='1'] h3") == "Runde 1"
    assert "spielfrei (durch die Auslosung)" in page.inner_text("#rounds .round[data-round='1'] .bye")
    page.context.close()


def test_the_standings_follow_the_event_when_the_first_socket_never_opens(live_server: Any,
                                                                           browser: Any) -> None:
    """The page's first socket to the event stays connecting for ever: it is given up and made again, and a
    round paired afterwards reaches the page without a reload."""
    url = live_server.url
    tid, tok = create(url)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    ctx.add_init_script("window.CHESSLAWS_HEARTBEAT = {open: 800};" + FIRST_SOCKET_STUCK)
    page = ctx.new_page()
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("#standings tbody tr")
    page.wait_for_function("() => document.documentElement.dataset.sockets === '2'", timeout=15000)
    pair(url, tid, tok, "held")
    page.wait_for_selector("#rounds .round[data-round='1']", timeout=15000)
    ctx.close()


def test_a_held_round_says_it_waits_for_the_arbiter(live_server: Any, browser: Any) -> None:
    url = live_server.url
    tid, tok = create(url)
    pair(url, tid, tok, "held")
    page = german(browser)
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("#rounds .round[data-round='1']")
    assert page.get_attribute("#rounds .round[data-round='1']", "data-state") == "held"
    assert text(page, "#rounds .round[data-round='1'] h3") == \
        "Runde 1 (ausgelost: wartet auf den Start durch den Schiedsrichter)"
    r = httpx.post(f"{url}/api/tournaments/{tid}/rounds/1/start", json={"in": 0}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    page.wait_for_function("() => document.querySelector(\"#rounds .round[data-round='1']\").dataset.state === 'play'")
    assert text(page, "#rounds .round[data-round='1'] h3") == "Runde 1 (läuft)"
    page.context.close()


def test_a_withdrawn_player_is_told_he_has_no_game(live_server: Any, browser: Any) -> None:
    url = live_server.url
    tid, tok = create(url)
    r1 = pair(url, tid, tok, "now")
    for b in r1["boards"]:
        resign(url, b["black"]["link"])
    gone = r1["boards"][0]["black"]["start_number"]
    pages = {p["start_number"]: p["page"] for p in r1["players"]}
    page = german(browser)
    page.goto(pages[gone])
    page.wait_for_selector("#p-wait")
    assert text(page, "#p-wait") == "Ihre Partie der Runde 1 ist beendet: warten Sie auf die nächste Auslosung."
    r = httpx.post(f"{url}/api/tournaments/{tid}/players/{gone}/withdraw", json={}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    pair(url, tid, tok, "now")
    page.wait_for_function("() => document.getElementById('p-event').textContent.includes('2 von 3')")
    assert text(page, "#p-wait") == "Sie sind ab Runde 2 zurückgezogen: Sie haben in Runde 2 keine Partie."
    page.context.close()


def test_scores_print_one_way_and_tie_breaks_are_explained(live_server: Any, browser: Any) -> None:
    url = live_server.url
    tid, tok = create(url)
    r1 = pair(url, tid, tok, "now")
    first, second = r1["boards"]
    resign(url, first["black"]["link"])
    gid = second["game_id"]
    for side, ev in (("white", {"type": "move", "move": "e4"}), ("black", {"type": "move", "move": "e5"}),
                     ("white", {"type": "offer_draw"}), ("black", {"type": "accept_draw"})):
        r = httpx.post(f"{url}/api/games/{gid}/events", json=ev, headers=bearer(token_of(second[side]["link"])))
        assert r.status_code == 200, r.text
    page = german(browser)
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_function("() => document.getElementById('standings-title').textContent === 'Stand nach Runde 1 von 3'")
    assert page.evaluate("[1.75, 0.5, 2, 0.25, 2.333, 11.5].map(TL.score)") == ["1¾", "½", "2", "¼", "2,33", "11½"]
    cells = page.eval_on_selector_all("#standings tbody td.pts, #standings tbody td.tb, #crosstable td.pts",
                                      "tds => tds.map((td) => td.textContent)")
    assert cells and all(re.fullmatch(r"\d*[¼½¾]?|\d+,\d{1,2}", c) for c in cells), cells
    assert "½" in cells
    heads = page.eval_on_selector_all("#standings thead th.tb abbr", "as => as.map((a) => [a.textContent, a.title])")
    assert heads[0] == ["BH-C1", "Buchholz mit Streichwertung 1 (ohne den schwächsten Gegner)"]
    assert ["BPG", "Mit Schwarz gespielte Partien"] in heads
    legend = page.eval_on_selector_all("#tb-legend dd", "ds => ds.map((d) => d.textContent)")
    assert legend[0] == "BH-C1 Buchholz mit Streichwertung 1 (ohne den schwächsten Gegner)"
    assert len(legend) == len(heads)
    assert page.get_attribute("#standings thead th:nth-child(5) abbr", "title") == "Punkte"
    with page.expect_download() as got:
        page.click("#t-trf")
    assert got.value.suggested_filename == f"{tid}.trf"
    page.context.close()


def test_screenshots_of_the_tournament_pages_in_german(live_server: Any, browser: Any, shots: Path) -> None:
    """Every tournament page in German at 1280 and 390 px: none scrolls sideways on a phone."""
    url = live_server.url
    tid, tok = create(url)
    r1 = pair(url, tid, tok, "now")
    resign(url, r1["boards"][0]["black"]["link"])
    player = r1["boards"][1]["white"]["start_number"]
    pages = {p["start_number"]: p["page"] for p in r1["players"]}
    views = [("list", f"{url}/tournaments", "#t-list tbody tr"),
             ("standings", f"{url}/tournament/{tid}", "body[data-ready]"),
             ("round-console", f"{url}/tournament/{tid}/arbiter#token={tok}", "#c-boards tbody tr"),
             ("player", pages[player], "#p-play"),
             ("sheet", f"{url}/tournament/{tid}/sheet?round=1#token={tok}", "body[data-ready]")]
    for name, link, ready in views:
        page = german(browser)
        page.goto(link)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(200)  # the QR codes and the web fonts drawn
        page.screenshot(path=str(shots / f"langs-{name}-1280.png"), full_page=True)
        at_390(page, shots, f"langs-{name}")
        page.context.close()

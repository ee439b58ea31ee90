"""Every page a club sees, in German, French and Spanish (Chromium with the browser's language set to each):
the lobby with its engines, a game and its arbiter console (online and over the board, every group of it), the
events and their creation form, the standings, the round console, a player's page (playing, and withdrawn),
the pairing sheet and a round's live page. Each page's
visible text and the attributes a person reads (placeholder, title, aria-label, alt, a button's value, the
tab's title) are collected and compared with the English texts of data/texts.json and a list of English
words: any one left is a failure, named with its page and place. Names, notation, numbers and the
tie-break codes FIDE writes alike in every language are what may stay. And the switch in every page's
header: a player on a borrowed computer changes the language, and the pages (and the server) follow it; and
beside it each page's help, its part of the manual the server serves."""

from __future__ import annotations

import json
import re
import sys
import threading
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlparse

import httpx
import pytest

from chesslaws.engines import EngineSpec
from chesslaws.server.guard import UNLIMITED
from chesslaws.server.texts import page_texts, server_texts

from conftest import free_port, needs_chromium, wait_port

pytestmark = needs_chromium

ROOT = Path(__file__).resolve().parents[2]
FAKE_ENGINE = ROOT / "tests" / "engines" / "fake_engine.py"
LANGS = ("de", "fr", "es")
PLAYERS = ["Ånund Kowalczyk", "Bożena Oyelaran", "Chiara Nakamura", "Dmitri Quispe", "Eszter Haugland"]
EVENT = "Vereinspokal Ost 2025"

#: Words that are English and no word of German, French or Spanish (so "minutes", "page", "console", "absent",
#: "points", "color", "error", "control", "has", "he", "was", "fallen", "server", "link", "position",
#: "material", "illegal", "browser", and what German takes from English, "live", "online", "digital",
#: "standard", "blitz", "computer", "engine", "lobby", are not).
ENGLISH_WORDS = frozenset("""
the of and with your you yours round rounds player players game games board boards waiting standings watch copy
tournament tournaments paired pairing pairings sheet scoring result results move moves clock clocks over draw
win wins won loss bye byes withdraw withdrawn print seconds more new create created open opens not yet next is
are have this that from for by at to his who what which when here there event events arbiter token seat seats
white black rating tie break breaks laws scan phone first last previous finished held play plays playing aborted
annulled adjourned strength skill level nodes full random rank crosstable opponent opponents colour own enter
entered claim claims offer offers stopped flag flags sideways scroll column every each only once shown keep kept
none paste until after before again trying cannot reached one two three several choose chosen starts started
starting analogue present occasional edition empty sealed seal pending decide decision decided back forward flip
sound sounds resign resigns resignation agreement checkmate stalemate threefold fifty repetition dead
insufficient late arrival annulment refusal comply
""".split())

#: What every language writes alike: the product, formats and codes, the languages' own names.
ALIKE = ["chesslaws", "Chess960", "OpenAPI", "HTTP", "API", "FIDE", "TRF-16", "TRF", "QR", "PGN", "FEN", "UCI_Elo",
         "Elo", "English", "Deutsch", "Français", "Español", "Buchholz", "Sonneborn-Berger", "BH-C1", "BH-C2",
         "BH-M1", "SB-C1", "BH", "SB", "DE", "WIN", "WON", "BPG", "BWG", "PS", "ARO", "TPR", "STD", "C.07"]


def english_texts(lang: str) -> set[str]:
    """The English texts whose translation into ``lang`` differs: shown whole, they are untranslated."""
    out = {en for en, by in page_texts().items() if by[lang].strip() != en.strip()}
    out |= {by["en"] for by in server_texts().values() if by[lang].strip() != by["en"].strip()}
    return {t for t in out if re.search(r"[A-Za-z]{3}", t)}


#: The page's visible text nodes and the attributes a person reads, each with where it is.
COLLECT = """() => {
  const out = [];
  const where = (el) => el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "");
  const seen = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const el = n.parentElement;
    if (!text || !el || el.closest("script,style,noscript")) continue;
    const option = el.closest("option");
    if (option) { const sel = option.closest("select"); if (sel && seen(sel)) out.push([where(sel) + " option", text]); continue; }
    if (seen(el)) out.push([where(el), text]);
  }
  for (const el of document.querySelectorAll("[placeholder],[title],[aria-label],[alt],input[type=button],input[type=submit]")) {
    if (!seen(el)) continue;
    for (const a of ["placeholder", "title", "aria-label", "alt"]) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push([where(el) + "@" + a, v.replace(/\\s+/g, " ").trim()]);
    }
    if ((el.type === "button" || el.type === "submit") && el.value) out.push([where(el) + "@value", el.value]);
  }
  out.push(["document.title", document.title]);
  return out;
}"""


def untranslated(found: list[list[str]], lang: str, names: list[str]) -> list[str]:
    """The strings of ``found`` that are English: whole English texts, or text with an English word once the
    names, the notation and what every language writes alike are taken out."""
    english = english_texts(lang)
    bad: list[str] = []
    for place, text in found:
        if text in ALIKE:  # written alike everywhere (a language's own name in the switch, a code)
            continue
        if text in english:
            bad.append(f"{place}: {text!r}")
            continue
        rest = text
        for name in sorted(names + ALIKE, key=len, reverse=True):
            rest = rest.replace(name, " ")
        words = {w.lower() for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", rest)}
        hits = sorted(w for w in words if w in ENGLISH_WORDS or w.split("'")[0] in ENGLISH_WORDS)
        if hits:
            bad.append(f"{place}: {text!r} ({', '.join(hits)})")
    return bad


class Server:
    """The app in a thread, with a (fake) engine to play, so that the lobby shows its engine strengths."""

    def __init__(self, db: str) -> None:
        import uvicorn

        from chesslaws.webapp import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(db, limits=UNLIMITED, engines=[EngineSpec("sparring", (sys.executable, str(FAKE_ENGINE), "legal"))],
                         engine_pool=1)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        wait_port(self.port)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(15)


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def event(url: str, gid: str, link: str, ev: dict[str, Any]) -> None:
    r = httpx.post(f"{url}/api/games/{gid}/events", json=ev, headers=bearer(token_of(link)))
    assert r.status_code == 200, r.text


def finish(url: str, board: dict[str, Any], how: str) -> None:
    w, b, gid = board["white"]["link"], board["black"]["link"], board["game_id"]
    for i, san in enumerate(["e4", "e5", "Nf3", "Nc6"]):
        event(url, gid, w if i % 2 == 0 else b, {"type": "move", "move": san})
    if how == "draw":
        event(url, gid, w, {"type": "offer_draw"})
        event(url, gid, b, {"type": "accept_draw"})
    else:
        event(url, gid, b, {"type": "resign"})


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A Swiss of five (a bye each round): round 1 played (a win, a draw, the bye), a player withdrawn, round
    2 paired and started with a draw offered on one board and the clocks stopped on the other; a lobby game
    over by resignation, one in play (1.e4 e5), and one over the board."""
    with Server(str(tmp_path_factory.mktemp("langs") / "games.sqlite3")) as s:
        url = s.url
        r = httpx.post(f"{url}/api/tournaments", json={
            "name": EVENT, "system": "swiss", "rounds": 3, "time_control": "900+10",
            "players": [{"name": n, "rating": 2100 - 50 * i} for i, n in enumerate(PLAYERS)]})
        assert r.status_code == 201, r.text
        tid, tok = r.json()["id"], r.json()["arbiter_token"]
        r1 = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=bearer(tok)).json()
        for board, how in zip(r1["boards"], ["win", "draw"]):
            finish(url, board, how)
        pages = {p["start_number"]: p["page"] for p in r1["players"]}
        playing = [b["white"]["start_number"] for b in r1["boards"]] + [b["black"]["start_number"] for b in r1["boards"]]
        gone = playing[-1]
        r = httpx.post(f"{url}/api/tournaments/{tid}/players/{gone}/withdraw", json={}, headers=bearer(tok))
        assert r.status_code == 200, r.text
        r2 = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=bearer(tok))
        assert r2.status_code == 201, r2.text
        b2 = r2.json()["boards"][0]
        event(url, b2["game_id"], b2["white"]["link"], {"type": "move", "move": "d4"})
        event(url, b2["game_id"], b2["black"]["link"], {"type": "move", "move": "d5"})
        event(url, b2["game_id"], b2["white"]["link"], {"type": "offer_draw"})
        b3 = r2.json()["boards"][1]  # the other board waits for the arbiter: he has stopped its clocks
        event(url, b3["game_id"], b3["white"]["link"], {"type": "move", "move": "c4"})
        seen = httpx.get(f"{url}/api/tournaments/{tid}/console", headers=bearer(tok)).json()
        event(url, b3["game_id"], seen["boards"][1]["arbiter"], {"type": "stop_clocks"})
        here = b2["white"]["start_number"]
        games = []
        for white, black in (("Ilse Brandvold", "Jovana Petrović"), ("Kemal Aydın", "Lucía Ferreyra")):
            g = httpx.post(f"{url}/api/games", json={"white": white, "black": black, "time_control": "300+3",
                                                            "when_ready": False, "presence": False}).json()
            games.append(g)
        otb = httpx.post(f"{url}/api/games", json={"white": "Mirela Sørensen", "black": "Nkechi Vásquez",
                                                   "time_control": "5400+30", "interface": "otb"}).json()
        finish(url, {"white": {"link": games[0]["links"]["white"]}, "black": {"link": games[0]["links"]["black"]},
                     "game_id": games[0]["id"]}, "win")
        for i, san in enumerate(["e4", "e5"]):  # the game in play has moves to step back through
            event(url, games[1]["id"], games[1]["links"]["white" if i % 2 == 0 else "black"], {"type": "move", "move": san})
        console = f"{url}/tournament/{tid}/arbiter#token={tok}"
        yield {
            "url": url, "tid": tid, "token": tok,
            "names": PLAYERS + [EVENT, "Ilse Brandvold", "Jovana Petrović", "Kemal Aydın", "Lucía Ferreyra",
                                "Mirela Sørensen", "Nkechi Vásquez", "sparring", "Fake legal"],
            "pages": {
                "lobby": (f"{url}/", "#games tbody tr"),
                "events": (f"{url}/tournaments", "#t-list tbody tr"),
                "standings": (f"{url}/tournament/{tid}", "body[data-ready]"),
                "round console": (console, "#c-boards tbody tr"),
                "player page": (pages[here], "#p-games tbody tr"),
                "withdrawn player's page": (pages[gone], "#p-wait"),
                "pairing sheet": (f"{url}/tournament/{tid}/sheet?round=2#token={tok}", "body[data-ready]"),
                "round live": (f"{url}/tournament/{tid}/round/2", ".live-board"),
                "game": (games[1]["links"]["white"], "#status[data-status]"),
                "game's arbiter console": (games[1]["links"]["arbiter"], "#status[data-status]"),
                "over-the-board arbiter console": (otb["links"]["arbiter"], "#status[data-status]"),
            },
        }


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["lobby", "events", "standings", "round console", "player page",
                                  "withdrawn player's page", "pairing sheet", "round live", "game",
                                  "game's arbiter console", "over-the-board arbiter console"])
def test_no_page_shows_english_to_a_club_that_does_not_read_it(scene: dict[str, Any], browser: Any, name: str,
                                                               lang: str) -> None:
    link, ready = scene["pages"][name]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale=lang)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"script error: {err}"))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(link)
    page.wait_for_selector(ready, state="attached")
    if name == "lobby":
        page.wait_for_selector("#vs-engine:not([hidden]) #vs-form")
    if name == "round console":
        page.wait_for_selector("#c-decide li")
    if name == "pairing sheet":
        page.wait_for_function("() => [...document.querySelectorAll('img.qr')].every((i) => i.naturalWidth > 0)")
    assert page.evaluate("document.documentElement.lang") == lang
    found = page.evaluate(COLLECT)
    if name.endswith("console") and page.is_visible("#arb-tabs"):  # every group of the arbiter's console
        for tab in page.eval_on_selector_all("#arb-tabs [role=tab]:not([hidden])", "ts => ts.map((t) => t.id)"):
            page.click(f"#{tab}")
            page.wait_for_selector(f"#{tab}[aria-selected=true]")
            found += page.evaluate(COLLECT)
    if name == "game":  # a past position viewed, as the line under the board says it
        page.click("#nav-first")
        page.wait_for_selector("#viewing:not([hidden])")
        found += page.evaluate(COLLECT)
    bad = untranslated(found, lang, scene["names"])
    ctx.close()
    assert problems == []
    assert bad == [], f"the {name} in {lang} shows English:\n" + "\n".join(bad)


def test_the_crawl_sees_english_where_it_is(scene: dict[str, Any], browser: Any) -> None:
    """The crawl's own check: the same pages in English are found English (it can fail)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    link, ready = scene["pages"]["standings"]
    page.goto(link)
    page.wait_for_selector(ready, state="attached")
    bad = untranslated(page.evaluate(COLLECT), "de", scene["names"])
    ctx.close()
    assert any("Crosstable" in b for b in bad) and any("Standings after round" in b for b in bad)


def test_the_language_switch_is_on_every_page_and_remembered(scene: dict[str, Any], browser: Any) -> None:
    """A German browser, a French reader: he picks Français in the header of one page, and every page (and
    what the server says) is in French from then on in that browser."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = ctx.new_page()
    link, ready = scene["pages"]["events"]
    page.goto(link)
    page.wait_for_selector(ready, state="attached")
    assert page.inner_text("main h1") == "Turniere"
    assert page.is_visible("header.top #ui-lang")
    with page.expect_navigation():
        page.select_option("#ui-lang", "fr")
    page.wait_for_selector(ready, state="attached")
    assert page.inner_text("main h1") == "Tournois"
    for name in ("lobby", "standings", "round console", "player page", "pairing sheet", "round live", "game"):
        link, ready = scene["pages"][name]
        page.goto("about:blank")
        page.goto(link)
        page.wait_for_selector(ready, state="attached")
        assert page.is_visible("header.top #ui-lang"), name
        assert page.input_value("#ui-lang") == "fr", name
        assert page.evaluate("document.documentElement.lang") == "fr", name
    cookie = {c["name"]: c["value"] for c in ctx.cookies()}
    assert cookie.get("chesslaws_lang") == "fr"
    with page.expect_request(lambda r: "/api/" in r.url) as sent:
        page.goto(scene["pages"]["standings"][0])
    assert sent.value.headers.get("accept-language") == "fr"
    ctx.close()


def test_the_lobby_names_engine_strengths_and_endings_in_the_readers_language(scene: dict[str, Any],
                                                                             browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    page = ctx.new_page()
    page.goto(scene["url"] + "/")
    page.wait_for_selector("#vs-engine:not([hidden]) #vs-form")
    options = page.eval_on_selector_all("#vs-strength-kind option", "os => os.map((o) => o.textContent)")
    assert options == ["Nivel de juego", "nodos por jugada", "milisegundos por jugada", "fuerza máxima"]
    page.wait_for_selector("#games .term")
    assert "abandono" in page.inner_text("#games tbody"), page.inner_text("#games tbody")
    ctx.close()


def test_the_pages_text_table_is_json_the_server_serves(scene: dict[str, Any]) -> None:
    """The texts the crawl compares with are those the pages receive."""
    body = httpx.get(scene["url"] + "/i18n/texts.js").text
    served = json.loads(body.removeprefix("window.I18N = ").rstrip().rstrip(";"))
    assert served["de"]["Crosstable"] == "Kreuztabelle"


#: Each page's help: its part of the manual (/manual), at the section about it where the guide has one.
HELP = {
    "lobby": "/manual/guides/player/#the-lobby",
    "events": "/manual/guides/organiser/#create-the-event",
    "standings": "/manual/guides/organiser/#standings-and-tie-breaks",
    "round console": "/manual/guides/organiser/#the-round-console",
    "player page": "/manual/guides/player/#in-a-tournament",
    "withdrawn player's page": "/manual/guides/player/#in-a-tournament",
    "pairing sheet": "/manual/guides/organiser/#the-round-console",
    "round live": "/manual/guides/organiser/#broadcast-the-rounds",
    "game": "/manual/guides/player/#the-game-page",
    "game's arbiter console": "/manual/guides/arbiter/",
    "over-the-board arbiter console": "/manual/guides/arbiter/",
}


def test_every_page_links_its_help_in_the_manual(scene: dict[str, Any], browser: Any) -> None:
    """The help link in every page's header, in the reader's language, to the guide's section about the page;
    the manual (when it is built into the package) answers it, and the section is there."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    page = ctx.new_page()
    assert set(HELP) == set(scene["pages"])
    for name, href in HELP.items():
        link, ready = scene["pages"][name]
        page.goto("about:blank")
        page.goto(link)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_selector(f"header.top #ui-help[href='{href}']")
        assert page.is_visible("header.top #ui-help"), name
        assert page.inner_text("header.top #ui-help") == "Ayuda", name
        assert page.get_attribute("header.top #ui-help", "target") == "_blank", name  # a game in play stays open
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"the {name}'s header at 390 px"
    ctx.close()
    manual = ROOT / "python" / "chesslaws" / "manual"
    if not (manual / "index.html").is_file():
        pytest.skip("the manual is not built (mkdocs build): the links were checked, not what they open")
    for href in sorted(set(HELP.values())):
        path, _, anchor = href.partition("#")
        r = httpx.get(scene["url"] + path)
        assert r.status_code == 200, href
        assert not anchor or f'id="{anchor}"' in r.text, f"{href}: no section {anchor!r} in the guide"

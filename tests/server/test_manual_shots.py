"""The manual's screenshots, made by the browser on every run of the suite (so they cannot go stale): each
guide's key pages at 1280 and 390 px, written to docs/shots/ for the manual (mkdocs.yml) to show.
Every image the manual shows must be made here (tests/test_manual.py checks it)."""

from __future__ import annotations

import html
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from conftest import free_port, needs_chromium, wait_port
from test_e2e import new_game

pytestmark = needs_chromium
expect = pytest.importorskip("playwright.sync_api").expect

ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = ROOT / "docs" / "shots"
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"

#: How a terminal looks in the manual's pictures of the command line.
TERMINAL = ("<!doctype html><meta charset=utf-8><style>body{margin:0;background:#1e1f24;color:#e8e6e3;"
            "font:14px/1.45 'DejaVu Sans Mono',monospace;padding:18px 22px}pre{margin:0;white-space:pre-wrap;"
            "word-break:break-word}.cmd{color:#d8a657}</style><pre>{body}</pre>")


def chesslaws(*args: str, timeout: float = 120) -> str:
    """What ``chesslaws ARGS`` prints (standard output and error as a terminal shows them), run from the root."""
    env = {**os.environ, "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}  # the chesslaws this test imports
    out = subprocess.run([sys.executable, "-m", "chesslaws.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=timeout, env=env)
    return out.stdout  # both streams, in the order a terminal shows them


def terminal(page: Any, name: str, runs: list[tuple[str, str]]) -> None:
    """A picture of commands and what they printed, as a terminal shows them."""
    body = "\n".join(f'<span class="cmd">$ {html.escape(cmd)}</span>\n{html.escape(out.rstrip())}\n'
                     for cmd, out in runs)
    page.set_content(TERMINAL.replace("{body}", body))
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):  # as tall as what was printed
        page.set_viewport_size({"width": width, "height": 120})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def shoot(page: Any, name: str) -> None:
    """``NAME-1280.png`` (the viewport) and ``NAME-390.png`` (a phone; no sideways scrolling)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(200)  # the layout settles after a resize (fonts, the board's size)
    page.screenshot(path=str(SHOTS / f"{name}-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name} scrolls sideways at 390 px"
    page.screenshot(path=str(SHOTS / f"{name}-390.png"))


def play(url: str, link: str, san: str) -> None:
    gid = urlparse(link).path.rsplit("/", 1)[1]
    token = urlparse(link).fragment.split("token=", 1)[1]
    r = httpx.post(f"{url}/api/games/{gid}/events", json={"type": "move", "move": san},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def test_the_players_pages(server: Any, browser: Any) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("form")
    shoot(page, "lobby")
    g = new_game(server, time_control="600+5", edition="2023")
    for san, side in (("e4", "white"), ("e5", "black"), ("Nf3", "white"), ("Nc6", "black")):
        r = httpx.post(f"{server.url}/api/games/{g['id']}/events", json={"type": "move", "move": san},
                       headers={"Authorization": f"Bearer {g['tokens'][side]}"})
        assert r.status_code == 200, r.text
    page.goto(g["links"]["white"])
    page.wait_for_selector("#status:has-text('White to move')")
    shoot(page, "game")
    page.context.close()


def test_the_arbiters_console(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="5400+30", edition="2023", interface="otb")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(g["links"]["arbiter"])
    page.wait_for_selector("#status[data-status]")
    shoot(page, "console")
    page.context.close()


def test_the_organisers_pages(server: Any, browser: Any) -> None:
    url = server.url
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(url + "/tournaments")
    page.wait_for_selector("form")
    shoot(page, "tournaments")
    body = {"name": "Club Rapid", "system": "swiss", "rounds": 5, "time_control": "900+10",
            "players": [{"name": n, "rating": 2100 - 37 * i} for i, n in enumerate(
                ["Ada Lind", "Bo Meyer", "Cyril Dupont", "Dana Ruiz", "Emil Novak", "Fay Okafor", "Gus Berg",
                 "Hana Sato"])]}
    r = httpx.post(f"{url}/api/tournaments", json=body)
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    auth = {"Authorization": f"Bearer {tok}"}
    boards = httpx.post(f"{url}/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=auth).json()["boards"]
    for b in boards[:3]:
        for i, san in enumerate(["f3", "e5", "g4", "Qh4#"]):
            play(url, b["white" if i % 2 == 0 else "black"]["link"], san)
    play(url, boards[3]["white"]["link"], "d4")
    page.goto(f"{url}/tournament/{tid}/arbiter#token={tok}")
    page.wait_for_selector("text=Ada Lind")
    shoot(page, "round-console")
    page.goto(f"{url}/tournament/{tid}/round/1")
    expect(page.locator(".live-board[data-table='4'] .state")).to_contain_text("1. d4")
    shoot(page, "round-live")
    page.goto(f"{url}/tournament/{tid}")
    page.wait_for_selector("#standings tbody tr")
    shoot(page, "standings")
    page.context.close()


def test_the_command_lines_pictures(browser: Any, tmp_path: Path) -> None:
    """The curator's, the engine tester's and the operator's guides show what the commands print."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    fixed = tmp_path / "fixed.pgn"
    terminal(page, "check", [
        ("chesslaws check docs/examples/wrong-result.pgn", chesslaws("check", "docs/examples/wrong-result.pgn")),
        (f"chesslaws check docs/examples/wrong-result.pgn --fix fixed.pgn",
         chesslaws("check", "docs/examples/wrong-result.pgn", "--fix", str(fixed)).replace(str(fixed), "fixed.pgn")),
    ])
    if not os.path.exists(STOCKFISH):
        pytest.skip("Debian's stockfish is not installed (.ci/run installs it)")
    pgn = tmp_path / "match.pgn"
    out = chesslaws("match", f"sf={STOCKFISH}", f"weak={STOCKFISH}", "--option2", "Skill Level=0", "--games", "4",
                    "--tc", "2+0.05", "--pgnout", str(pgn), timeout=300)
    terminal(page, "match", [('chesslaws match sf=stockfish weak=stockfish --option2 "Skill Level=0" --games 4 '
                              '--tc 2+0.05 --pgnout match.pgn', out.replace(str(pgn), "match.pgn"))])
    db = tmp_path / "club.sqlite3"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chesslaws.cli", "serve", "--port", str(port), "--db", str(db)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        wait_port(port, 60)  # the server answers: what it printed on the way is its start
    finally:
        proc.terminate()
        printed, _ = proc.communicate(timeout=30)
    lines = [line.replace(str(db), "/var/lib/chesslaws/games.sqlite3").replace(str(port), "8000")
             for line in printed.splitlines(keepends=True)]
    assert lines, "chesslaws serve printed nothing"
    terminal(page, "serve", [("chesslaws serve --db /var/lib/chesslaws/games.sqlite3", "".join(lines))])
    page.context.close()

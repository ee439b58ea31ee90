"""In the browser: a whole game against Stockfish, started from the lobby's "Play against the computer"
(Debian's headless Chromium driven by Playwright)."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from chesslaws.engines import EngineSpec

from conftest import free_port, needs_chromium, wait_port

STOCKFISH = "/usr/games/stockfish"
pytestmark = [
    needs_chromium,
    pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="Debian's stockfish is not installed"),
]


class EngineServer:
    def __init__(self, db: str) -> None:
        import uvicorn

        from chesslaws.server import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(db, engines=[EngineSpec("stockfish", (STOCKFISH,))], engine_pool=1)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "EngineServer":
        self.thread.start()
        wait_port(self.port)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(15)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineServer]:
    with EngineServer(str(tmp_path_factory.mktemp("engine") / "games.sqlite3")) as s:
        yield s


def test_a_whole_game_against_stockfish_in_the_browser(server: EngineServer, browser: Any, tmp_path: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#vs-engine:not([hidden]) #vs-form")
    assert page.inner_text("#vs-engine h2").lower() == "play against the computer"
    page.select_option("#vs-strength-kind", "nodes")
    page.fill("#vs-strength", "300")
    page.select_option("#vs-color", "white")
    page.fill("#vs-tc", "300+2")
    page.fill("#vs-name", "Tester")
    page.screenshot(path=str(tmp_path / "lobby.png"))
    page.click("#vs-play")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#status[data-status]")
    assert page.inner_text("#seat") == "playing White"
    gid = page.url.split("/game/")[1].split("#")[0]
    rng = random.Random(19)
    for _ in range(400):
        st = httpx.get(f"{server.url}/api/games/{gid}").json()
        if st["status"] != "ongoing":
            break
        if st["turn"] != "white":
            page.wait_for_timeout(50)
            continue
        moves = [m["uci"] for m in st["legal_moves"] if len(m["uci"]) == 4]
        if not moves:  # only promotions left: take the queen through the API (rare)
            httpx.post(f"{server.url}/api/games/{gid}/events", json={"type": "move", "move": st["legal_moves"][0]["uci"][:4] + "q"},
                       headers={"Authorization": "Bearer " + page.url.split("#token=")[1]})
            continue
        ply = st["ply"]
        uci = rng.choice(moves)
        a, b = uci[:2], uci[2:]
        page.wait_for_selector(f'[data-sq="{a}"] .pc.mine', timeout=5000)
        page.click(f'[data-sq="{a}"]')
        page.wait_for_selector(f'[data-sq="{b}"].hint', timeout=5000)
        page.click(f'[data-sq="{b}"]')
        # wait until the server has the move (and maybe the engine's answer)
        for _ in range(200):
            if httpx.get(f"{server.url}/api/games/{gid}").json()["ply"] > ply:
                break
            page.wait_for_timeout(25)
    page.wait_for_selector("#status[data-termination]", timeout=20000)
    st = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert st["status"] == "finished", st["status"]
    assert st["black"] == "stockfish (300 nodes)" and st["white"] == "Tester"
    assert page.get_attribute("#status", "data-result") == st["result"]
    blacks = [m for m in st["moves"] if m["color"] == "black"]
    assert len(blacks) >= 2 and all(m["clock_ms"] is not None for m in blacks)
    page.screenshot(path=str(tmp_path / "end.png"))
    ctx.close()

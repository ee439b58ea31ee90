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

        from chesslaws.webapp import create_app

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
    page.fill("#vs-tc", "5+2")  # minutes, as players write it
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
                       headers={"Authorization": "Bearer " + page.evaluate(f"sessionStorage.getItem('chesslaws:token:{gid}')")})
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


def test_the_engine_at_its_lowest_strength_answers_within_its_cap(server: EngineServer, browser: Any, shots: Path) -> None:
    """At 5+3 against the lowest Elo, Stockfish is capped (uncapped, it thinks as if for a world title: 10
    to 28 s a move); the lobby says how long it may think, and it answers within that."""
    import json

    from conftest import at_390

    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#vs-engine:not([hidden]) #vs-form")
    page.select_option("#vs-strength-kind", "elo")
    lowest = page.get_attribute("#vs-strength", "min") or ""
    page.fill("#vs-strength", lowest)
    page.wait_for_selector("#vs-cap:has-text('within 1 s a move')")
    cap_s = int(page.get_attribute("#vs-cap", "data-cap-ms") or "0") / 1000
    assert cap_s == 1.0
    page.fill("#vs-strength", "3000")
    page.wait_for_selector("#vs-cap:not(:has-text('within 1 s a move'))")
    page.fill("#vs-strength", lowest)
    page.click("#vs-presets button[data-tc='5+3']")
    page.wait_for_selector("#vs-tc-meaning:has-text('5 min each')")
    page.select_option("#vs-color", "black")
    page.screenshot(path=str(shots / "lobby-engine-1280.png"), full_page=True)
    page.click("#vs-play")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#status[data-status]")
    gid = page.url.split("/game/")[1].split("#")[0]
    page.wait_for_url("**#seat=black")
    token = page.evaluate(f"localStorage.getItem('chesslaws:token:{gid}:black')")
    rng = random.Random(28)
    for _ in range(4):  # four answers of the engine (White), a random move of ours between them
        for _ in range(600):
            st = httpx.get(f"{server.url}/api/games/{gid}").json()
            if st["turn"] == "black" or st["status"] != "ongoing":
                break
            page.wait_for_timeout(20)
        assert st["turn"] == "black" and st["status"] == "ongoing", st["status"]
        uci = rng.choice([m["uci"] for m in st["legal_moves"]])
        r = httpx.post(f"{server.url}/api/games/{gid}/events", json={"type": "move", "move": uci},
                       headers={"Authorization": "Bearer " + token})
        assert r.status_code == 200, r.text
    log = [json.loads(line) for line in httpx.get(f"{server.url}/api/games/{gid}/log").text.splitlines() if line.strip()]
    thought = []
    before = None
    for ev in log:
        if ev.get("type") == "move" and ev.get("color", ev.get("by")) == "white" and before is not None:
            thought.append(ev["t"] - before)
        if "t" in ev:
            before = ev["t"]
    assert len(thought) >= 3, log[:6]
    # Within the cap, and a second for the pool and a loaded machine (uncapped: 5 to 30 s a move); the first
    # move also waits for the engine's process to start.
    assert max(thought[1:]) <= cap_s + 1.0 and thought[0] <= cap_s + 5.0, thought
    # The end: a rematch against the same engine at the same strength, the person now White.
    r = httpx.post(f"{server.url}/api/games/{gid}/events", json={"type": "resign"}, headers={"Authorization": "Bearer " + token})
    assert r.status_code == 200, r.text
    page.wait_for_selector("#end-box:not([hidden]) #btn-rematch")
    page.click("#btn-rematch")
    page.wait_for_url("**#seat=white")
    new_id = page.url.split("/game/")[1].split("#")[0]
    st = httpx.get(f"{server.url}/api/games/{new_id}").json()
    assert st["white"] == "You" and st["black"] == f"stockfish (Elo {lowest})", (st["white"], st["black"])
    assert st["time_control"] == "300+3"
    page.wait_for_selector("#seat:has-text('playing White')")
    assert not page.is_visible("#summon-box")  # nobody at the arbiter's console in a game against the computer
    ctx.close()

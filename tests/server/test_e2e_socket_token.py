"""In the browser: the game page's WebSocket never carries the seat's token in its URL (proxies log URLs); the
token goes in the subprotocol header, and a move made on the page through that socket is the seat's."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from conftest import needs_chromium
from test_e2e import click_move, new_game

pytestmark = needs_chromium


def test_the_game_pages_socket_has_no_token_in_its_url_and_plays_for_its_seat(server: Any, browser: Any) -> None:
    g = new_game(server, time_control="600+5")
    token = g["tokens"]["white"]
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    sockets: list[Any] = []
    sent: list[tuple[str, str]] = []  # (the socket's URL, a frame the page sent on it)

    def opened(ws: Any) -> None:
        sockets.append(ws)
        ws.on("framesent", lambda payload: sent.append((ws.url, payload if isinstance(payload, str) else "")))

    page.on("websocket", opened)
    page.goto(g["links"]["white"])
    page.wait_for_selector("#status[data-status]")
    click_move(page, "e2", "e4")
    deadline = time.monotonic() + 10
    while True:  # the move reaches the log (through the socket: the page sends its events there)
        log = [json.loads(x) for x in httpx.get(f"{server.url}/api/games/{g['id']}/log").text.splitlines()]
        moves = [e.get("move") for e in log if e.get("type") == "move"]
        if moves or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert moves == ["e2e4"]
    game_sockets = [ws.url for ws in sockets if f"/api/games/{g['id']}/ws" in ws.url]
    assert game_sockets, f"the page opened no socket of its game: {[ws.url for ws in sockets]}"
    for url in game_sockets:
        assert "token" not in url.lower() and token not in url, f"the seat's token is in the socket's URL: {url}"
    moves_sent = [url for url, payload in sent if '"move"' in payload and "e4" in payload]
    assert moves_sent and all(url in game_sockets for url in moves_sent), \
        "the move did not go through the game's socket (the token in its subprotocol opened the seat)"
    ctx.close()

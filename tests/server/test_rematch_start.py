"""A rematch starts as the game it repeats did, over the HTTP API: a fair start waits for both players again,
a game that is aborted without a first move is aborted again (it never ends on time minutes later), a
scheduled start is scheduled again, and an immediate start stays immediate."""

from __future__ import annotations

import json
import time
from typing import Any, Callable

from chesslaws.server.rematch import SCHEDULED_IN


def auth(g: dict[str, Any], side: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {g['tokens'][side]}"}


def finished(client: Any, **body: Any) -> dict[str, Any]:
    """A game created with ``body``, begun if it waits for its players, and resigned by White."""
    body = {"white": "Anna", "black": "Boris", "time_control": "600", **body}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    g = dict(r.json())
    if g["state"]["waiting_for"]:
        with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}"), \
                client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['black']}"):
            wait_for(client, g["id"], lambda s: s["waiting_for"] == [], "both players")
    if body.get("start_in"):  # a scheduled game: its arbiter ends it before its start
        r = client.post(f"/api/games/{g['id']}/events", json={"type": "annul", "reason": "called off"},
                        headers=auth(g, "arbiter"))
    else:
        r = client.post(f"/api/games/{g['id']}/events", json={"type": "resign"}, headers=auth(g, "white"))
    assert r.status_code == 200, r.text
    return g


def rematch(client: Any, g: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The rematch White asks for: its id, its start line and its state."""
    r = client.post(f"/api/games/{g['id']}/rematch", headers=auth(g, "white"))
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    start = json.loads(client.get(f"/api/games/{new}/log").text.splitlines()[0])
    return new, start, dict(client.get(f"/api/games/{new}").json())


def wait_for(client: Any, gid: str, ok: Callable[[dict[str, Any]], bool], what: str, within: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        state = dict(client.get(f"/api/games/{gid}").json())
        if ok(state):
            return state
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {state}"
        time.sleep(0.1)


def test_an_unplayed_rematch_of_a_fair_start_is_aborted_not_lost_on_time(client: Any) -> None:
    g = finished(client, when_ready=True, abort_after=5, edition="1997", default_time=120)
    new, start, state = rematch(client, g)
    assert (start["wait"], start["abort_after"], start["edition"], start["default_time"]) == ("players", 5, "1997", 120)
    assert (start["white"], start["black"]) == ("Boris", "Anna")
    assert state["waiting_for"] == ["white", "black"] and not state["started"]
    r = client.get(f"/api/games/{g['id']}/rematch")
    assert r.status_code == 200 and r.json()["id"] == new
    # Both open it (the clocks start), and White, now Boris, never moves: aborted 5 s after the start.
    link = client.post(f"/api/games/{g['id']}/rematch", headers=auth(g, "black")).json()["link"]
    tokens = {"black": client.post(f"/api/games/{g['id']}/rematch", headers=auth(g, "white")).json()["link"],
              "white": link}
    tokens = {seat: url.split("#token=")[1] for seat, url in tokens.items()}
    with client.websocket_connect(f"/api/games/{new}/ws?token={tokens['white']}"), \
            client.websocket_connect(f"/api/games/{new}/ws?token={tokens['black']}"):
        begun = wait_for(client, new, lambda s: s["started"], "the rematch's start")
        assert begun["abort_at"] == 5

    state = wait_for(client, new, lambda s: s["status"] != "ongoing", "the abort")
    assert (state["status"], state["result"], state["aborted"]) == ("annulled", "*", True)
    last = json.loads(client.get(f"/api/games/{new}/log").text.splitlines()[-1])
    assert last["type"] == "annul" and last["reason"] == "aborted: White made no first move within 5 s"


def test_a_scheduled_game_has_a_scheduled_rematch(client: Any) -> None:
    g = finished(client, start_in=600, abort_after=30)
    _, start, state = rematch(client, g)
    assert start["scheduled"] is True and start["abort_after"] == 30 and "wait" not in start
    assert start["absent"] == ["white", "black"]
    assert SCHEDULED_IN - 5 < -state["server_t"] <= SCHEDULED_IN and state["absent"] == ["black", "white"]


def test_an_immediate_game_has_an_immediate_rematch(client: Any) -> None:
    g = finished(client, when_ready=False, presence=False)
    _, start, state = rematch(client, g)
    assert not {"wait", "abort_after", "scheduled", "absent"} & set(start)
    assert state["started"] and state["waiting_for"] == []


def test_what_the_start_says_of_each_player_stays_with_the_player(client: Any) -> None:
    g = finished(client, when_ready=False, edition="2023", visually_disabled=["white"], assistant=["white"],
                 clock="digital")
    _, start, _ = rematch(client, g)
    assert start["visually_disabled"] == ["black"] and start["assistant"] == ["black"]
    assert start["clock"] == "digital"

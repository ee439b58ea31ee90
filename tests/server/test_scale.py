"""Memory follows live games, not history.

A game that is over leaves memory (its final state written to the store), is read without a replay,
and comes back on demand; a restart loads only the games that are not over; the lobby is served from
the store's index, page by page."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any, Callable

import pytest

from chesslaws.game import Game

from test_api import SCHOLAR, auth, create, log_lines, post


def _mate(client: Any) -> dict[str, Any]:
    g = create(client, time_control="600")
    for i, san in enumerate(SCHOLAR):
        side = "white" if i % 2 == 0 else "black"
        assert post(client, g["id"], g["tokens"][side], {"type": "move", "move": san}).status_code == 200
    return g


def _wait_retired(client: Any, gid: str) -> None:
    hub = client.app.state.hub
    deadline = time.monotonic() + 5
    while gid in hub.games and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gid not in hub.games, "the finished game stayed in memory"


def test_a_finished_game_leaves_memory_and_is_read_without_a_replay(client: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    hub = client.app.state.hub
    hub.retire_after = 0.05
    live = create(client, time_control="600")
    g = _mate(client)
    before = client.get(f"/api/games/{g['id']}").json()
    _wait_retired(client, g["id"])
    assert live["id"] in hub.games
    # Reading the state of a retired game replays nothing.
    import chesslaws.server.registry as registry

    def no_replay(*args: Any) -> Any:
        raise AssertionError("a retired game was replayed to be read")

    monkeypatch.setattr(registry, "replay_lenient", no_replay)
    st = client.get(f"/api/games/{g['id']}").json()
    assert st["status"] == "finished" and st["result"] == "1-0" and st["moves"] == before["moves"]
    assert st["fen"] == before["fen"]
    fr = client.get(f"/api/games/{g['id']}?lang=de").json()
    assert fr["moves"][-1]["san_local"] == "Dxf7#"
    lobby = {x["id"]: x for x in client.get("/api/games").json()}
    assert lobby[g["id"]]["status"] == "finished" and lobby[live["id"]]["status"] == "ongoing"
    monkeypatch.undo()
    # The log and the PGN load it on demand.
    assert [ln.get("move") for ln in log_lines(client, g["id"])][1:] == SCHOLAR
    assert "Qxf7#" in client.get(f"/api/games/{g['id']}/pgn").text
    # An event loads it too; the arbiter is still answered as the Laws say (the game is over).
    r = post(client, g["id"], g["tokens"]["black"], {"type": "resign"})
    assert r.status_code == 409
    _wait_retired(client, g["id"])
    r = post(client, g["id"], g["tokens"]["arbiter"], {"type": "annul", "reason": "a test"})
    assert r.status_code == 200 and r.json()["state"]["status"] == "annulled"
    _wait_retired(client, g["id"])
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "annulled"


def test_a_restart_loads_only_the_games_that_are_not_over(make_client: Callable[[], Any],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    first = make_client()
    first.app.state.hub.retire_after = 0.01
    over = [_mate(first)["id"] for _ in range(4)]
    ongoing = [create(first, time_control="600")["id"] for _ in range(2)]
    for gid in over:
        _wait_retired(first, gid)
    first.__exit__(None, None, None)

    from chesslaws.store.games import PostgresStore, SQLiteStore

    loaded: list[str] = []
    for cls in (SQLiteStore, PostgresStore):
        original = cls.load

        def counting(self: Any, game_id: str, original: Any = original, **how: Any) -> Any:
            loaded.append(game_id)
            return original(self, game_id, **how)

        monkeypatch.setattr(cls, "load", counting)
    second = make_client()
    assert sorted(second.app.state.hub.games) == sorted(ongoing)
    assert sorted(loaded) == sorted(ongoing)  # the games that are over were not even read
    pages = second.get("/api/games?limit=4").json(), None
    ids = [x["id"] for x in pages[0]]
    ids += [x["id"] for x in second.get(f"/api/games?limit=4&before={ids[-1]}").json()]
    assert ids == (over + ongoing)[::-1]


def test_a_viewer_keeps_a_finished_game_in_memory_until_it_leaves(client: Any) -> None:
    hub = client.app.state.hub
    hub.retire_after = 0.05
    g = create(client, time_control="600")
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        ws.receive_json()
        for i, san in enumerate(SCHOLAR):
            side = "white" if i % 2 == 0 else "black"
            post(client, g["id"], g["tokens"][side], {"type": "move", "move": san})
        time.sleep(0.3)
        assert g["id"] in hub.games
    _wait_retired(client, g["id"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}") as ws:
        assert ws.receive_json()["kind"] == "hello"
        assert ws.receive_json()["state"]["result"] == "1-0"
    r = client.get(f"/api/games/{g['id']}/seat", headers=auth(g["tokens"]["black"]))
    assert r.json()["seat"] == "black"


# --- the smaller broadcast: moves by difference -----------------------------------------------------

def _states(ws: Any, n: int) -> list[dict[str, Any]]:
    out = []
    while len(out) < n:
        msg = ws.receive_json()
        if msg["kind"] == "state":
            out.append(msg["state"])
    return out


def test_a_viewer_that_asks_for_new_moves_gets_only_those_and_rebuilds_the_whole_list(client: Any) -> None:
    g = create(client, time_control="5400", edition="2023")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?moves=new") as delta, \
            client.websocket_connect(f"/api/games/{gid}/ws") as whole:
        assert delta.receive_json()["kind"] == "hello"
        first = _states(delta, 1)[0]
        assert first["moves_from"] == 0 and first["moves"] == []
        moves: list[dict[str, Any]] = []
        plies = ["e4", "e5", "Nf3", "Nc6", "Bb5"]
        for i, san in enumerate(plies):
            assert post(client, gid, tok["white" if i % 2 == 0 else "black"],
                        {"type": "move", "move": san}).status_code == 200
            st = _states(delta, 1)[0]
            assert st["moves_from"] == i, "a viewer that has i moves gets the list from move i"
            assert [m["san"] for m in st["moves"]] == [san]  # the new move alone, not the whole game
            moves = moves[:st["moves_from"]] + st["moves"]
        full = client.get(f"/api/games/{gid}").json()
        assert moves == full["moves"]
        # The arbiter goes back to the position after two moves (2023 7.4.1): the list shrinks.
        r = post(client, gid, tok["arbiter"], {"type": "reinstate", "ply": 2})
        assert r.status_code == 200, r.text
        st = _states(delta, 1)[0]
        assert st["moves_from"] == 2 and st["moves"] == []
        assert post(client, gid, tok["white"], {"type": "move", "move": "d4"}).status_code == 200
        st = _states(delta, 1)[0]
        assert st["moves_from"] == 2 and [m["san"] for m in st["moves"]] == ["d4"]
        # A viewer that did not ask gets every move in every state.
        last = _states(whole, len(plies) + 3)[-1]
        assert "moves_from" not in last and [m["san"] for m in last["moves"]] == ["e4", "e5", "d4"]


def test_a_viewer_that_missed_states_gets_the_whole_list_again(client: Any) -> None:
    """A viewer that does not read loses queued states; the one it gets next carries every move."""
    hub = client.app.state.hub
    g = create(client, time_control="5400", edition="2023")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?moves=new") as ws:
        ws.receive_json()
        _states(ws, 1)
        live = hub.games[gid]
        (sub,) = [s for s in live.subscribers if s.delta]
        for i, san in enumerate(["e4", "e5"]):
            assert post(client, gid, tok["white" if i % 2 == 0 else "black"],
                        {"type": "move", "move": san}).status_code == 200
        _states(ws, 2)
        real = sub.queue
        sub.queue = type(real)(maxsize=1)  # a full queue, as a viewer that stopped reading has
        sub.queue.put_nowait("stale")
        assert post(client, gid, tok["white"], {"type": "move", "move": "Nf3"}).status_code == 200
        msg = sub.queue.get_nowait()
        sub.queue = real
        state = json.loads(msg)["state"]
        assert state["moves_from"] == 0 and [m["san"] for m in state["moves"]] == ["e4", "e5", "Nf3"]


def test_the_controls_are_sent_again_only_when_they_change(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Half of a state is the controls block (the confirmations' texts); a socket with moves=new gets it
    in the first state and again only when it changes."""
    import chesslaws.server.views as views

    g = create(client, time_control="5400", edition="2023")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?moves=new") as ws:
        ws.receive_json()
        first = _states(ws, 1)[0]
        assert first["controls"]["resign"]["article"] == "5.1.2"
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
        assert "controls" not in _states(ws, 1)[0]
        real = views.controls
        monkeypatch.setattr(views, "controls", lambda st, lang="en": {**real(st, lang), "changed": True})
        # The controls follow the game's configuration (Hub.view keeps them per configuration object):
        # an equal configuration that is another object is read again, and here reads differently.
        live = client.app.state.hub.games[gid]
        st = live.game.state
        live.game = Game(live.game.events, dataclasses.replace(st, config=dataclasses.replace(st.config)))
        assert post(client, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200
        assert _states(ws, 1)[0]["controls"]["changed"] is True
        assert post(client, gid, tok["white"], {"type": "move", "move": "Nf3"}).status_code == 200
        assert "controls" not in _states(ws, 1)[0]
    with client.websocket_connect(f"/api/games/{gid}/ws") as whole:  # without moves=new: always there
        whole.receive_json()
        assert "controls" in _states(whole, 1)[0]


def test_an_event_sent_on_a_new_moves_socket_is_acknowledged_with_the_state_in_one_frame(client: Any) -> None:
    g = create(client, time_control="5400", edition="2023")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['white']}&moves=new") as white, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tok['black']}&moves=new") as black:
        for ws in (white, black):
            assert ws.receive_json()["kind"] == "hello"
            _states(ws, 1)
        white.send_json({"rid": 7, "event": {"type": "move", "move": "e4"}})
        msg = white.receive_json()
        assert (msg["kind"], msg["rid"], msg["seq"]) == ("ack", 7, 1)
        assert msg["state"]["moves_from"] == 0 and [m["san"] for m in msg["state"]["moves"]] == ["e4"]
        assert msg["state"]["turn"] == "black" and "controls" not in msg["state"]
        other = _states(black, 1)[0]  # the opponent gets the state alone
        assert other["moves_from"] == 0 and [m["san"] for m in other["moves"]] == ["e4"]
        black.send_json({"rid": "x", "event": {"type": "move", "move": "e4"}})  # illegal: an error, no state
        err = black.receive_json()
        assert (err["kind"], err["rid"], err["status"]) == ("error", "x", 422) and "state" not in err
        black.send_json({"rid": 8, "event": {"type": "move", "move": "e5"}})
        msg = black.receive_json()
        assert msg["kind"] == "ack" and msg["state"]["moves_from"] == 1
        assert [m["san"] for m in msg["state"]["moves"]] == ["e5"]
        assert _states(white, 1)[0]["moves_from"] == 1

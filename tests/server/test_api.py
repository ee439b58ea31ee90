"""The HTTP and WebSocket API, against SQLite and against a real PostgreSQL server."""

from __future__ import annotations

import json
import time
from typing import Any, Callable

import pytest

SCHOLAR = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


def create(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("white", "Anna")
    body.setdefault("black", "Boris")
    body.setdefault("when_ready", False)  # an immediate start, asked for (the fair start is the default)
    body.setdefault("presence", False)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post(client: Any, gid: str, token: str | None, event: Any) -> Any:
    headers = auth(token) if token else {}
    return client.post(f"/api/games/{gid}/events", json=event, headers=headers)


def log_lines(client: Any, gid: str, token: str | None = None) -> list[dict[str, Any]]:
    r = client.get(f"/api/games/{gid}/log", headers=auth(token) if token else {})
    assert r.status_code == 200
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


def test_create_returns_tokens_once_and_the_state(client: Any) -> None:
    g = create(client, time_control="300+2", edition="1997")
    assert set(g["tokens"]) == {"white", "black", "arbiter"}
    assert len(set(g["tokens"].values())) == 3
    st = g["state"]
    assert st["status"] == "ongoing" and st["turn"] == "white" and st["ply"] == 0
    assert st["clocks"]["running"] == "white" and st["clocks"]["black_ms"] == 300_000
    assert len(st["legal_moves"]) == 20 and {"uci": "g1f3", "san": "Nf3"} in st["legal_moves"]
    assert st["white"] == "Anna" and st["edition"] == "1997" and st["time_control"] == "300+2"
    assert g["links"]["white"].endswith("#token=" + g["tokens"]["white"])
    got = client.get(f"/api/games/{g['id']}").json()
    assert got["fen"] == st["fen"] and got["server_t"] >= 0
    # Tokens are not in the listing, nor in the state.
    assert g["tokens"]["white"] not in json.dumps(client.get("/api/games").json())
    assert g["tokens"]["white"] not in json.dumps(got)


def test_scholars_mate_and_exports(client: Any) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    for i, move in enumerate(SCHOLAR):
        side = "white" if i % 2 == 0 else "black"
        r = post(client, gid, tok[side], {"type": "move", "move": move})
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == i + 1
        assert r.json()["event"]["by"] == side
    st = client.get(f"/api/games/{gid}").json()
    assert (st["status"], st["result"], st["termination"]) == ("finished", "1-0", "checkmate")
    assert [m["san"] for m in st["moves"]] == SCHOLAR
    assert st["legal_moves"] == []
    assert st["rulings"][-1]["article"] and "checkmates" in st["rulings"][-1]["text"]
    lines = log_lines(client, gid)
    assert [line["type"] for line in lines] == ["start"] + ["move"] * 7
    assert all(a["t"] <= b["t"] for a, b in zip(lines, lines[1:]))
    pgn = client.get(f"/api/games/{gid}/pgn")
    assert pgn.status_code == 200
    assert '[White "Anna"]' in pgn.text and '[Result "1-0"]' in pgn.text
    assert "Qxf7#" in pgn.text and pgn.text.rstrip().endswith("1-0")
    assert "{Article 5.1" in " ".join(pgn.text.split())  # the ruling, citing its article
    # After the end, nothing more.
    r = post(client, gid, tok["black"], {"type": "resign"})
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_bad_input_gets_clear_errors_and_leaves_the_game_untouched(client: Any) -> None:
    g = create(client)
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    before = log_lines(client, gid, tok["arbiter"])
    state_before = client.get(f"/api/games/{gid}").json()

    def err(r: Any, status: int, words: str = "") -> None:
        assert r.status_code == status, r.text
        body = r.json()
        assert body["status"] == status and isinstance(body["error"], str) and body["error"]
        assert words.lower() in body["error"].lower()

    url = f"/api/games/{gid}/events"
    err(client.post(url, content=b"{not json", headers=auth(tok["black"])), 400, "json")
    err(client.post(url, content=b"\xff\xfe", headers=auth(tok["black"])), 400)
    err(client.post("/api/games/nosuchgame/events", json={"type": "resign"}, headers=auth(tok["black"])), 404)
    err(client.get("/api/games/nosuchgame"), 404)
    err(client.get("/api/games/nosuchgame/pgn"), 404)
    err(post(client, gid, None, {"type": "move", "move": "e5"}), 401, "token")
    err(post(client, gid, "forged-token", {"type": "move", "move": "e5"}), 401)
    err(post(client, gid, tok["white"], {"type": "move", "move": "e5", "by": "black"}), 403)
    err(post(client, gid, tok["black"], {"type": "set_clocks", "white_ms": 1, "black_ms": 1}), 403, "arbiter")
    err(post(client, gid, tok["arbiter"], {"type": "move", "move": "e5", "by": "black"}), 403)
    err(post(client, gid, tok["white"], {"type": "move", "move": "d4"}), 409, "black's move")
    err(post(client, gid, tok["black"], {"type": "move", "move": "e4"}), 422, "illegal")
    err(post(client, gid, tok["black"], {"type": "move", "move": "xyz"}), 422, "unreadable")
    err(post(client, gid, tok["black"], {"type": "move"}), 422, "move")
    err(post(client, gid, tok["black"], {"type": "move", "move": 5}), 422)
    err(post(client, gid, tok["black"], {"type": "move", "move": "e5", "t": 0}), 422, "'t'")
    err(post(client, gid, tok["black"], {"type": "teleport"}), 422, "unknown")
    err(post(client, gid, tok["black"], ["move"]), 422)
    err(post(client, gid, tok["black"], {"type": "start"}), 409)
    err(post(client, gid, tok["black"], {"type": "accept_draw"}), 409, "no draw offer")
    err(post(client, gid, tok["black"], {"type": "move", "move": "e5", "colour": "x"}), 422, "unknown field")
    big = {"type": "move", "move": "e5", "reason": "x" * 20_000}
    err(client.post(url, json=big, headers=auth(tok["black"])), 413)
    err(client.post("/api/games", json={"time_control": "banana"}), 422, "time_control")
    err(client.post("/api/games", json={"fen": "not a fen"}), 422, "fen")
    err(client.post("/api/games", json={"edition": "2001"}), 422)
    err(client.post("/api/games", content=b"[", headers={"content-type": "application/json"}), 400)
    assert log_lines(client, gid, tok["arbiter"]) == before
    after = client.get(f"/api/games/{gid}").json()
    assert (after["seq"], after["fen"], after["moves"]) == (state_before["seq"], state_before["fen"], state_before["moves"])
    # And the game goes on.
    assert post(client, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200


def test_join_an_open_seat(client: Any) -> None:
    r = client.post("/api/games", json={"white": "Anna", "time_control": "-", "when_ready": False})
    g = r.json()
    assert set(g["tokens"]) == {"white"}  # no arbiter's link with a seat open unless asked
    gid = g["id"]
    assert g["state"]["seats_open"] == ["black"]
    r = client.post(f"/api/games/{gid}/join", json={"seat": "black", "name": "Boris"})
    assert r.status_code == 200, r.text
    black = r.json()["token"]
    again = client.post(f"/api/games/{gid}/join", json={"seat": "black", "name": "Eve"})
    assert again.status_code == 409
    assert client.post(f"/api/games/{gid}/join", json={"seat": "white", "name": "Eve"}).status_code == 409
    assert client.post(f"/api/games/{gid}/join", json={"seat": "arbiter", "name": "Eve"}).status_code == 422
    assert client.get(f"/api/games/{gid}/seat", headers=auth(black)).json() == {"seat": "black"}
    assert client.get(f"/api/games/{gid}/seat").json() == {"seat": "spectator"}
    assert client.get(f"/api/games/{gid}/seat", headers=auth("nope")).status_code == 401
    st = client.get(f"/api/games/{gid}").json()
    assert st["black"] == "Boris" and st["seats_open"] == []
    assert post(client, gid, g["tokens"]["white"], {"type": "move", "move": "d4"}).status_code == 200
    assert post(client, gid, black, {"type": "move", "move": "d5"}).status_code == 200
    assert '[Black "Boris"]' in client.get(f"/api/games/{gid}/pgn").text


def test_draw_offer_with_a_move_and_acceptance(client: Any) -> None:
    # 1997: an agreement after White's first move draws (2023 5.2.3 needs both players to have moved).
    g = create(client, time_control="600", edition="1997")
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4", "offer_draw": True}).status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["pending"] == [{"kind": "draw_offer", "by": "white"}]
    assert st["moves"][0]["draw_offer"] is True
    assert post(client, gid, tok["white"], {"type": "accept_draw"}).status_code == 409
    r = post(client, gid, tok["black"], {"type": "accept_draw"})
    assert r.status_code == 200
    st = r.json()["state"]
    assert (st["result"], st["termination"]) == ("1/2-1/2", "agreement")
    assert "{(=)}" in client.get(f"/api/games/{gid}/pgn").text or "(=)" in client.get(f"/api/games/{gid}/pgn").text


def test_arbiter_events(client: Any) -> None:
    g = create(client, time_control="300", edition="1997")
    gid, tok = g["id"], g["tokens"]
    arb = tok["arbiter"]
    assert post(client, gid, arb, {"type": "stop_clocks"}).status_code == 200
    r = post(client, gid, tok["white"], {"type": "move", "move": "e4"})
    assert r.status_code == 409 and "stopped" in r.json()["error"]
    r = post(client, gid, arb, {"type": "set_clocks", "white_ms": 120_000, "black_ms": 90_000})
    assert r.status_code == 200
    st = r.json()["state"]
    assert st["clocks"] == {"white_ms": 120_000, "black_ms": 90_000, "running": None}
    assert post(client, gid, arb, {"type": "start_clocks"}).status_code == 200
    r = post(client, gid, arb, {"type": "penalty", "against": "black", "kind": "add_time", "seconds": 60})
    assert r.status_code == 200
    rulings = r.json()["state"]["rulings"]
    assert [x["article"] for x in rulings][-1] == "13.4(b)" and rulings[-1]["edition"] == "1997"
    assert r.json()["state"]["clocks"]["white_ms"] > 170_000
    r = post(client, gid, arb, {"type": "penalty", "against": "black", "kind": "add_time"})
    assert r.status_code == 422 and "seconds" in r.json()["error"]
    r = post(client, gid, arb, {"type": "refuse_to_comply", "against": "black"})
    assert r.status_code == 200 and r.json()["state"]["result"] == "1-0"
    types = [e["type"] for e in log_lines(client, gid)]
    assert types == ["start", "stop_clocks", "set_clocks", "start_clocks", "penalty", "refuse_to_comply"]
    assert all(e.get("by") == "arbiter" for e in log_lines(client, gid)[1:])


def test_over_the_board_mode_logs_illegal_moves(client: Any) -> None:
    g = create(client, time_control="5400", edition="2023", interface="otb")
    gid, arb = g["id"], g["tokens"]["arbiter"]
    assert post(client, gid, arb, {"type": "move", "move": "e4"}).status_code == 422  # whose move?
    assert post(client, gid, arb, {"type": "move", "move": "e4", "by": "white"}).status_code == 200
    r = post(client, gid, arb, {"type": "move", "move": "e7e4", "by": "black"})
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    assert st["ply"] == 1 and "illegal" in st["rulings"][-1]["text"]
    assert log_lines(client, gid)[-1]["move"] == "e7e4"


def test_flag_falls_on_time_with_nobody_sending_anything(client: Any) -> None:
    g = create(client, time_control="2", edition="2023")
    gid, tok = g["id"], g["tokens"]
    t0 = time.monotonic()
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['black']}") as ws:
        assert ws.receive_json() == {"kind": "hello", "seat": "black"}
        first = ws.receive_json()["state"]
        assert first["status"] == "ongoing"
        final = None
        while final is None:
            msg = ws.receive_json()
            if msg["kind"] == "state" and msg["state"]["status"] == "finished":
                final = msg["state"]
        took = time.monotonic() - t0
    assert 1.5 < took < 4.0, took
    assert (final["result"], final["termination"]) == ("0-1", "time_forfeit")
    assert final["clocks"]["white_ms"] == 0 and final["rulings"][0]["t"] == 2
    # No one sent anything: the server wrote the arbiter's `observe` when it saw the flag fall, so
    # that the log alone says the game is over; the ruling keeps the instant the flag fell.
    start, seen = log_lines(client, gid)
    assert (start["type"], seen["type"], seen["by"], seen["what"]) == ("start", "observe", "arbiter", "flag")
    assert seen["t"] >= 2
    r = post(client, gid, tok["white"], {"type": "move", "move": "e4"})
    assert r.status_code == 409 and "flag" in r.json()["error"]


def test_websocket_stream_and_events(client: Any) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tok['white']}") as white:
        assert spectator.receive_json()["seat"] == "spectator"
        assert spectator.receive_json()["state"]["seq"] == 1
        white.receive_json(), white.receive_json()
        white.send_text(json.dumps({"rid": 7, "event": {"type": "move", "move": "Nf3"}}))
        got = [white.receive_json(), white.receive_json()]
        kinds = {m["kind"]: m for m in got}
        assert kinds["ack"]["rid"] == 7 and kinds["ack"]["seq"] == 1
        assert kinds["state"]["state"]["moves"][0]["san"] == "Nf3"
        assert spectator.receive_json()["state"]["moves"][0]["uci"] == "g1f3"
        spectator.send_text(json.dumps({"rid": 1, "event": {"type": "resign"}}))
        assert spectator.receive_json() == {"kind": "error", "rid": 1, "status": 401,
                                            "error": "a seat token is needed to act in a game (spectators only watch)"}
        white.send_text("{oops")
        assert white.receive_json()["status"] == 400
        white.send_text(json.dumps({"rid": 2, "event": {"type": "move", "move": "e4"}}))
        assert white.receive_json()["status"] == 409
    with client.websocket_connect(f"/api/games/{gid}/ws?token=forged") as ws:
        assert ws.receive_json()["status"] == 401
    with client.websocket_connect("/api/games/nope/ws") as ws:
        assert ws.receive_json()["status"] == 404


def test_websocket_heartbeat_ping_is_answered_by_a_pong_with_the_game_time(client: Any) -> None:
    """The page's heartbeat: {"type": "ping"} is answered by a pong carrying its id and the game's time t
    (as a state's server_t), to a spectator too; nothing is counted and nothing enters the log."""
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tok['white']}") as white:
        spectator.receive_json(), spectator.receive_json()
        white.receive_json()
        t0 = white.receive_json()["state"]["server_t"]
        for i in range(3):
            white.send_text(json.dumps({"type": "ping", "id": i}))
            pong = white.receive_json()
            assert (pong["kind"], pong["id"]) == ("pong", i)
            assert pong["t"] >= t0
        spectator.send_text(json.dumps({"type": "ping", "id": "s1"}))
        assert spectator.receive_json()["kind"] == "pong"
        white.send_text(json.dumps({"type": "ping", "id": {"nested": 1}}))  # an id is a string or an integer
        assert white.receive_json()["id"] is None
        white.send_text(json.dumps({"rid": 1, "event": {"type": "move", "move": "e4"}}))  # the socket still works
        assert {white.receive_json()["kind"], white.receive_json()["kind"]} == {"ack", "state"}
    assert [e["type"] for e in log_lines(client, gid)] == ["start", "move"]


def test_restart_rebuilds_games_and_clocks_from_the_log(make_client: Callable[[], Any]) -> None:
    first = make_client()
    g = create(first, time_control="3", edition="2023")
    other = create(first, time_control="600")
    gid, tok = g["id"], g["tokens"]
    assert post(first, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    assert post(first, other["id"], other["tokens"]["white"], {"type": "move", "move": "c4"}).status_code == 200
    before = first.get(f"/api/games/{gid}").json()
    first.__exit__(None, None, None)
    second = make_client()
    st = second.get(f"/api/games/{gid}").json()
    assert st["moves"] == before["moves"] and st["fen"] == before["fen"]
    assert st["clocks"]["running"] == "black"
    assert st["clocks"]["black_ms"] <= before["clocks"]["black_ms"]
    assert second.get(f"/api/games/{other['id']}").json()["moves"][0]["san"] == "c4"
    # The tokens still work, and the flag falls on time after the restart too.
    with second.websocket_connect(f"/api/games/{gid}/ws") as ws:
        deadline = time.monotonic() + 6
        state = None
        while time.monotonic() < deadline:
            msg = ws.receive_json()
            if msg["kind"] == "state" and msg["state"]["status"] == "finished":
                state = msg["state"]
                break
    assert state is not None and state["result"] == "1-0" and state["termination"] == "time_forfeit"
    r = post(second, other["id"], other["tokens"]["black"], {"type": "move", "move": "e5"})
    assert r.status_code == 200 and r.json()["seq"] == 2


def test_seal_moves_are_hidden_from_all_but_the_arbiter() -> None:
    from chesslaws.server.hub import public_event

    sealed = {"type": "seal", "t": 10.0, "by": "white", "move": "Nf3"}
    assert public_event(sealed, arbiter=False) == {"type": "seal", "t": 10.0, "by": "white", "move": None}
    assert public_event(sealed, arbiter=True)["move"] == "Nf3"
    assert sealed["move"] == "Nf3"  # not changed in place
    move = {"type": "move", "t": 1, "by": "white", "move": "e4"}
    assert public_event(move, arbiter=False) == move


def test_a_sealed_move_stays_hidden_in_the_log_export_and_the_state(client: Any) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    r = post(client, gid, tok["black"], {"type": "seal", "move": "Nc6"})
    assert r.status_code == 200, r.text
    assert r.json()["event"]["move"] is None  # even the sealer's acknowledgement does not echo it
    assert r.json()["state"]["status"] == "adjourned"
    for viewer in (None, tok["white"], tok["black"]):
        seal = log_lines(client, gid, viewer)[-1]
        assert seal["type"] == "seal" and seal["move"] is None
    assert log_lines(client, gid, tok["arbiter"])[-1]["move"] == "Nc6"
    assert "Nc6" not in json.dumps(client.get(f"/api/games/{gid}").json())
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['white']}") as ws:
        ws.receive_json()
        assert "Nc6" not in json.dumps(ws.receive_json())


def test_restart_between_sealing_and_resumption(make_client: Callable[[], Any]) -> None:
    """The adjournment's envelope survives a restart, stays sealed, and opens when the replier arrives."""
    first = make_client()
    g = create(first, time_control="600", edition="1997")
    gid, tok = g["id"], g["tokens"]
    assert post(first, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    r = post(first, gid, tok["black"], {"type": "seal", "move": "Sc6"})  # German letters
    assert r.status_code == 200, r.text
    first.__exit__(None, None, None)
    second = make_client()
    st = second.get(f"/api/games/{gid}").json()
    assert st["status"] == "adjourned" and st["clocks"]["running"] is None
    assert "Sc6" not in json.dumps(st) and "Nc6" not in json.dumps(st)
    assert log_lines(second, gid, tok["arbiter"])[-1]["move"] == "Sc6"
    assert post(second, gid, tok["arbiter"], {"type": "resume"}).status_code == 200
    r = post(second, gid, tok["white"], {"type": "arrive"})
    assert r.status_code == 200, r.text
    assert [m["san"] for m in r.json()["state"]["moves"]] == ["e4", "Nc6"]
    assert r.json()["state"]["clocks"]["running"] == "white"


def test_quickplay_claim_and_arbiter_decision(client: Any) -> None:
    g = create(client, time_control="60", edition="1997", mode="standard")
    gid, tok = g["id"], g["tokens"]
    # The claim summons the arbiter (10.2): it is taken while his console is open (with none open, nobody
    # could decide it).
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['arbiter']}"):
        r = post(client, gid, tok["white"], {"type": "claim_draw", "reason": "quickplay"})
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    assert st["pending"] == [{"kind": "claim", "reason": "quickplay", "by": "white"}]
    assert st["clocks"]["running"] is None
    r = post(client, gid, tok["arbiter"], {"type": "decision", "on": "quickplay", "ruling": "draw"})
    assert r.status_code == 200 and r.json()["state"]["termination"] == "arbiter_decision"


def test_scoresheet_in_another_language(client: Any) -> None:
    pytest.importorskip("chesslaws.notation")
    g = create(client, time_control="-")
    gid, tok = g["id"], g["tokens"]
    post(client, gid, tok["white"], {"type": "move", "move": "Nf3"})
    langs = {d["code"] for d in client.get("/api/languages").json()}
    assert {"en", "fr", "de"} <= langs
    st = client.get(f"/api/games/{gid}", params={"lang": "fr"}).json()
    assert st["moves"][0]["san"] == "Nf3" and st["moves"][0]["san_local"] == "Cf3"
    st = client.get(f"/api/games/{gid}", params={"lang": "de"}).json()
    assert st["moves"][0]["san_local"] == "Sf3"


def test_pages_are_served(client: Any) -> None:
    assert "chesslaws" in client.get("/").text
    g = create(client)
    page = client.get(f"/game/{g['id']}")
    assert page.status_code == 200 and "game.js" in page.text
    for name in ("game.js", "lobby.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    texts = client.get("/i18n/texts.js")  # the pages' texts, which index.html and game.html load first
    assert texts.status_code == 200 and texts.text.startswith("window.I18N = {")
    assert client.get("/openapi.json").json()["paths"]["/api/games/{game_id}/events"]["post"]


def test_websocket_binary_and_oversized_frames(client: Any) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['white']}") as ws:
        ws.receive_json(), ws.receive_json()
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["status"] == 400
        ws.send_bytes(json.dumps({"rid": 3, "event": {"type": "move", "move": "e4"}}).encode())
        replies = [ws.receive_json(), ws.receive_json()]
        assert any(m["kind"] == "ack" and m["rid"] == 3 for m in replies)
        ws.send_text(json.dumps({"rid": 4, "event": {"type": "offer_draw", "reason": "x" * 20_000}}))
        assert ws.receive_json()["status"] == 413
        ws.send_text(json.dumps([1, 2]))
        assert ws.receive_json()["status"] == 400
    assert client.get(f"/api/games/{gid}").json()["seq"] == 2


def test_an_arbiter_failure_is_no_server_error_and_leaves_the_game_untouched(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from chesslaws.game import Game

    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]

    def broken(self: Any, event: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(Game, "apply", broken)
    r = post(client, gid, tok["white"], {"type": "move", "move": "e4"})
    assert r.status_code == 422 and "nothing was recorded" in r.json()["error"]
    assert "boom" not in r.text and "RuntimeError" not in r.text  # no exception reaches a client
    monkeypatch.undo()
    assert client.get(f"/api/games/{gid}").json()["seq"] == 1
    assert len(log_lines(client, gid)) == 1
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).json()["seq"] == 1


def test_a_store_failure_is_answered_503_and_leaves_the_game_untouched(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    store = client.app.state.hub.store

    def down(*args: Any) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(store, "append_many", down)
    monkeypatch.setattr(store, "append", down)
    monkeypatch.setattr(store, "ping", down)
    r = post(client, gid, tok["white"], {"type": "move", "move": "e4"})
    assert r.status_code == 503 and "unreachable" in r.json()["error"]
    assert "disk on fire" not in r.text and int(r.headers["retry-after"]) >= 1
    st = client.get(f"/api/games/{gid}").json()
    assert st["store_down"] is True and st["seq"] == 1 and st["ply"] == 0
    held = st["clocks"]["white_ms"]
    time.sleep(1.2)
    assert client.get(f"/api/games/{gid}").json()["clocks"]["white_ms"] == held  # time stands still
    monkeypatch.undo()
    deadline = time.monotonic() + 5
    while client.get(f"/api/games/{gid}").json()["store_down"] and time.monotonic() < deadline:
        time.sleep(0.1)
    st = client.get(f"/api/games/{gid}").json()
    # The outage is in the log as the arbiter's interruption, and the time is given back.
    assert st["store_down"] is False and st["seq"] == 3
    lines = log_lines(client, gid, tok["arbiter"])
    assert [ln["type"] for ln in lines[1:]] == ["stop_clocks", "start_clocks"]
    assert "database was unreachable" in lines[1]["reason"]
    assert any(r["article"] == "6.11.1" and "given back" in r["text"] for r in st["rulings"])
    # White's clock ran again from the start_clocks alone: what it shows is what it held less the time since
    # (measured on the server's own clock, so that a loaded machine's slow requests cost nothing here).
    since = round((st["server_t"] - lines[2]["t"]) * 1000)
    assert held - since - 5 <= st["clocks"]["white_ms"] <= held
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).json()["seq"] == 3


def test_the_first_move_after_the_store_returns_is_served_without_waiting_for_the_ping(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A request that finds the store marked away asks it again before refusing: the player who moves
    the moment the database is back is served (the interruption written first), not told 503 until the
    server's next ping notices."""
    from chesslaws.server import outages, storelink

    monkeypatch.setattr(outages, "PING_EVERY", 3600.0)  # the ping never comes to the rescue
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    store = client.app.state.hub.store

    def down(*args: Any) -> None:
        raise OSError("gone")

    with monkeypatch.context() as away:
        for name in ("append", "append_many", "ping"):
            away.setattr(store, name, down)
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 503
        assert client.get(f"/api/games/{gid}").json()["store_down"] is True
    time.sleep(storelink.ASK_EVERY)  # the request above asked last; the next one may ask again
    r = post(client, gid, tok["white"], {"type": "move", "move": "e4"})
    assert r.status_code == 200, r.text
    assert [ln["type"] for ln in log_lines(client, gid)][1:] == ["stop_clocks", "start_clocks", "move"]
    assert client.get(f"/api/games/{gid}").json()["store_down"] is False


def test_serve_command_options_and_a_database_that_cannot_be_opened(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from chesslaws.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["serve", "--help"])
    assert out.exit_code == 0
    for opt in ("--host", "--port", "--db", "127.0.0.1", "8000", "chesslaws.sqlite3"):
        assert opt in out.output
    bad = runner.invoke(main, ["serve", "--db", str(tmp_path / "no" / "such" / "dir" / "x.sqlite3")])
    assert bad.exit_code == 2 and "cannot open the database" in bad.output
    assert "serving on" not in bad.output

"""Nothing a client sends can break ``chesslaws serve``, on SQLite and on PostgreSQL.

Each bad input gets a clear 4xx and changes nothing, over HTTP and over the WebSocket (an error frame,
the socket stays open); a poisoned log row does not stop the server; the limits hold.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any, Callable

import pytest

from chesslaws.server.guard import Limits

from test_api import auth, create, log_lines, post


def seq_of(client: Any, gid: str) -> int:
    return int(client.get(f"/api/games/{gid}").json()["seq"])


# Raw bodies, each refused before it reaches the arbiter: (body, status, words in the message).
BAD_BODIES: list[tuple[bytes, int, str]] = [
    (b'{"type": "move", "move": "\\ud800"}', 400, "lone surrogate"),
    (b'{"type": "move", "move": "e4\\u0000"}', 422, "control character"),
    (b"[" * 5000 + b"]" * 5000, 400, "nests deeper"),
    (b'{"type": "penalty", "against": "black", "kind": "add_time", "seconds": NaN}', 400, "NaN"),
    (b'{"type": "penalty", "against": "black", "kind": "add_time", "seconds": Infinity}', 400, "Infinity"),
    (b'{"type": "penalty", "against": "black", "kind": "add_time", "seconds": 1e999}', 422, "too large"),
    (b'{"type": "move", "type": "resign"}', 400, "appears twice"),
    (b'{"type": "set_clocks", "white_ms": 1' + b"0" * 4000 + b', "black_ms": 1}', 422, "digits"),
    (b'{"type": "move", "move": "e4", "colour": "white"}', 422, "unknown field"),
    (b'\xff\xfe{}', 400, "not UTF-8"),
    (b'{"type": "move", "move": "e4"', 400, "not valid JSON"),
]

# Well-formed events with absurd values, refused by the arbiter's ranges: (event, words).
ABSURD_EVENTS: list[tuple[dict[str, Any], str]] = [
    ({"type": "set_clocks", "white_ms": 10**19, "black_ms": 1000}, "between 0 and"),
    ({"type": "set_clocks", "white_ms": 2**53 + 1, "black_ms": 1000}, "between 0 and"),
    ({"type": "set_clocks", "white_ms": -5, "black_ms": 1000}, "between 0 and"),
    ({"type": "penalty", "against": "white", "kind": "reduce_time", "seconds": 1e12}, "between 0 and"),
    ({"type": "penalty", "against": "white", "kind": "add_time", "seconds": 1e308}, "between 0 and"),
]


@pytest.mark.parametrize("body,status,words", BAD_BODIES, ids=[w for _, _, w in BAD_BODIES])
def test_bad_bodies_over_http_get_a_clear_4xx_and_change_nothing(client: Any, body: bytes, status: int,
                                                                 words: str) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    r = client.post(f"/api/games/{gid}/events", content=body,
                    headers={**auth(tok["white"]), "content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert "Error" not in r.json()["error"] and "Traceback" not in r.text
    assert seq_of(client, gid) == 1


@pytest.mark.parametrize("event,words", ABSURD_EVENTS, ids=[json.dumps(e)[:40] for e, _ in ABSURD_EVENTS])
def test_absurd_numbers_are_refused_before_they_are_stored(client: Any, event: dict[str, Any], words: str) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    r = post(client, gid, tok["arbiter"], event)
    assert r.status_code == 422 and words in r.json()["error"], r.text
    assert seq_of(client, gid) == 1


@pytest.mark.parametrize("tc", ["0", "0.5", "99999999999999999999999", "60+99999999999", "60d99999999999",
                                ":".join(["40/60"] * 30)])
def test_absurd_time_controls_are_refused(client: Any, tc: str) -> None:
    r = client.post("/api/games", json={"white": "A", "black": "B", "time_control": tc})
    assert r.status_code == 422, r.text
    assert "time_control" in r.json()["error"] or "time control" in r.json()["error"]


@pytest.mark.parametrize("name", ["Anna\u0000", "\u202eannA", "A\u2066B", "B\x1b[31m"])
def test_control_and_bidi_characters_in_names_are_refused_the_same_on_both_stores(client: Any, name: str) -> None:
    r = client.post("/api/games", json={"white": name, "black": "B"})
    assert r.status_code == 422 and "not allowed" in r.json()["error"], r.text
    g = create(client, white=None)
    r = client.post(f"/api/games/{g['id']}/join", json={"seat": "white", "name": name})
    assert r.status_code == 422, r.text
    assert client.get(f"/api/games/{g['id']}").json()["seats_open"] == ["white"]


def test_bad_messages_over_the_websocket_get_error_frames_and_the_socket_stays_open(client: Any) -> None:
    g = create(client, time_control="600")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['white']}") as ws:
        assert ws.receive_json()["kind"] == "hello"
        assert ws.receive_json()["kind"] == "state"
        for body, _, words in BAD_BODIES:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                ws.send_bytes(body)
            else:
                ws.send_text('{"rid": 7, "event": ' + text + "}" if text.startswith("{\"type\"") else text)
            msg = ws.receive_json()
            assert msg["kind"] == "error" and 400 <= msg["status"] < 500, (words, msg)
        ws.send_text('{"rid": 8, "event": {"type": "move", "move": "e4"}}')
        ack = ws.receive_json()
        while ack["kind"] != "ack":
            ack = ws.receive_json()
        assert ack["rid"] == 8 and ack["seq"] == 1


def test_a_poisoned_row_sets_the_game_aside_and_the_server_starts(make_client: Callable[[], Any],
                                                                  db_url: str) -> None:
    from chesslaws.store.games import open_store

    first = make_client()
    bad = create(first, time_control="600")
    good = create(first, time_control="600")
    assert post(first, good["id"], good["tokens"]["white"], {"type": "move", "move": "e4"}).status_code == 200
    first.__exit__(None, None, None)
    # A line the server would never write, straight into the store: 4,001 digits of clock.
    store = open_store(db_url)
    store.append(bad["id"], 1, {"type": "set_clocks", "t": 1, "by": "arbiter",
                                "white_ms": 10**4000, "black_ms": 1})
    store.close()
    second = make_client()
    r = second.get(f"/api/games/{bad['id']}")
    assert r.status_code == 409 and "set aside" in r.json()["error"] and "white_ms" in r.json()["error"]
    assert second.get(f"/api/games/{good['id']}").json()["moves"][0]["san"] == "e4"
    # Only the arbiter may annul it, and 'annul' is the only event it takes.
    assert post(second, bad["id"], bad["tokens"]["white"], {"type": "annul"}).status_code == 403
    assert post(second, bad["id"], bad["tokens"]["arbiter"], {"type": "resign"}).status_code == 409
    r = post(second, bad["id"], bad["tokens"]["arbiter"], {"type": "annul", "reason": "poisoned log"})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["status"] == "annulled"
    second.__exit__(None, None, None)
    third = make_client()
    st = third.get(f"/api/games/{bad['id']}").json()
    assert st["status"] == "annulled" and "poisoned log" in json.dumps(st["rulings"])


def test_players_stop_the_clocks_only_to_summon_an_arbiter_who_is_present(client: Any) -> None:
    absent = create(client, time_control="600", arbiter="absent")
    r = post(client, absent["id"], absent["tokens"]["white"], {"type": "stop_clocks"})
    assert r.status_code == 409 and "no arbiter is present" in r.json()["error"] and "6.11.2" in r.json()["error"]
    g = create(client, time_control="600", edition="1997")
    gid, tok = g["id"], g["tokens"]
    r = post(client, gid, tok["black"], {"type": "stop_clocks"})
    assert r.status_code == 409 and "no arbiter is watching" in r.json()["error"] and "6.12(b)" in r.json()["error"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['arbiter']}") as ws:
        ws.receive_json()
        ws.receive_json()
        r = post(client, gid, tok["black"], {"type": "stop_clocks"})
        assert r.status_code == 200 and r.json()["state"]["clocks"]["running"] is None
        for _ in range(5):
            msg = ws.receive_json()
            if msg["kind"] == "alert":
                break
        assert msg["kind"] == "alert" and msg["what"] == "summons" and msg["by"] == "black"
        assert "6.12(b)" in msg["text"]
    assert post(client, gid, tok["arbiter"], {"type": "start_clocks"}).status_code == 200


def test_repeated_incorrect_claims_are_reported_to_the_arbiter(client: Any) -> None:
    g = create(client, time_control="600", edition="2023")
    gid, tok = g["id"], g["tokens"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['arbiter']}") as ws:
        for _ in range(3):
            r = post(client, gid, tok["white"], {"type": "claim_flag"})
            assert r.status_code == 200 and r.json()["state"]["status"] == "ongoing"
        alert = None
        for _ in range(10):
            msg = ws.receive_json()
            if msg["kind"] == "alert":
                alert = msg
                break
        assert alert is not None and alert["what"] == "annoyance" and alert["count"] == 3
        assert "11.5" in alert["text"]


def test_rate_limits(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    limits = Limits(create_per_address="3/minute", join_per_address="2/minute", events_per_token="4/minute",
                    events_per_game="6/minute", max_events_per_game=50)
    with TestClient(create_app(db_url, limits=limits)) as client:
        games = [create(client, time_control="600") for _ in range(3)]
        r = client.post("/api/games", json={"white": "A", "black": "B"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and "try again" in r.json()["error"]
        gid, tok = games[0]["id"], games[0]["tokens"]
        for i in range(4):  # refused events count too: a flood of bad requests is a flood
            assert post(client, gid, tok["white"], {"type": "claim_flag"}).status_code == 200
        r = post(client, gid, tok["white"], {"type": "claim_flag"})
        assert r.status_code == 429
        # The game's budget is per seat: White's flood spent none of Black's.
        for _ in range(4):
            assert post(client, gid, tok["black"], {"type": "claim_flag"}).status_code == 200
        assert post(client, gid, tok["black"], {"type": "claim_flag"}).status_code == 429
        assert seq_of(client, gid) == 9


def test_a_full_log_is_refused(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    with TestClient(create_app(db_url, limits=Limits(None, None, None, None, max_events_per_game=5))) as client:
        g = create(client, time_control="600")
        for _ in range(4):
            assert post(client, g["id"], g["tokens"]["white"], {"type": "claim_flag"}).status_code == 200
        r = post(client, g["id"], g["tokens"]["white"], {"type": "claim_flag"})
        assert r.status_code == 409 and "full" in r.json()["error"]


def test_the_lobby_is_paginated(client: Any) -> None:
    ids = [create(client, time_control="600")["id"] for _ in range(7)]
    first = client.get("/api/games?limit=3").json()
    assert [g["id"] for g in first] == ids[::-1][:3]
    second = client.get(f"/api/games?limit=3&before={first[-1]['id']}").json()
    assert [g["id"] for g in second] == ids[::-1][3:6]
    assert client.get("/api/games?limit=0").status_code == 422
    assert client.get("/api/games?before=nosuchgame").status_code == 404
    assert len(client.get("/api/games").json()) == 7


def test_security_headers_favicon_and_no_framing(client: Any) -> None:
    for path in ("/", "/game/x", "/api/games", "/static/game.js", "/i18n/texts.js", "/favicon.ico", "/api/games/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    r = client.post("/api/games", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "frame-ancestors" in r.headers["content-security-policy"]
    for page in ("/", "/game/x"):
        html = client.get(page).text
        assert "<script>" not in html and " onclick=" not in html and 'style="' not in html


def test_openapi_describes_every_event_type_field_and_status(client: Any) -> None:
    from chesslaws.events import SCHEMAS

    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/api/games/{game_id}/events"]["post"]["requestBody"]["content"]["application/json"]
    event = body["schema"]
    assert event["properties"]["white_ms"]["anyOf"][0]["maximum"] == 8_640_000_000
    assert set(event["properties"]["type"]["enum"]) == set(SCHEMAS) - {"start"}
    fields = {name for sc in SCHEMAS.values() for name in (*sc.required, *sc.optional)}
    assert fields - {"t"} - {"edition", "time_control", "mode", "arbiter", "white", "black", "fen", "default_time",
                             "fifty_move_limit", "absent", "event", "site", "date", "round",
                             "quickplay_guidelines"} <= set(event["properties"])
    for name in ("envelope_lost", "claim_setup"):
        assert name in event["properties"]["type"]["enum"]
    for name in ("what", "session_end", "resumption", "language"):
        assert name in event["properties"]
    responses = spec["paths"]["/api/games/{game_id}/events"]["post"]["responses"]
    assert {"400", "401", "403", "404", "409", "413", "422", "429", "503"} <= set(responses)


def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Any,
                                                             server_factory: Callable[..., Any]) -> None:
    db = str(tmp_path / "one.sqlite3")
    server_factory(db)
    out = subprocess.run([sys.executable, "-m", "chesslaws.cli", "serve", "--port", "0", "--db", db],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert "in use by another chesslaws serve" in out.stderr and "PostgreSQL" in out.stderr


def test_refusals_are_logged_one_line_each_without_tracebacks(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    g = create(client, time_control="600")
    with caplog.at_level(logging.INFO, logger="chesslaws"):
        post(client, g["id"], g["tokens"]["white"], {"type": "move", "move": "e9"})
        client.post(f"/api/games/{g['id']}/events", content=b"[[[[[[[[[[[[[[[[[[[[", headers=auth(g["tokens"]["white"]))
    refusals = [r for r in caplog.records if r.getMessage().startswith("refused")]
    assert len(refusals) == 2 and not any(r.exc_info for r in caplog.records)


def test_time_stands_still_while_the_store_is_down_and_no_flag_falls(client: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2-second game whose store goes away for longer than White's clock: no flag falls."""
    g = create(client, time_control="2", edition="2023")
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    store = client.app.state.hub.store

    def down(*args: Any) -> None:
        raise OSError("gone")

    for name in ("append", "append_many", "ping", "create_game"):
        monkeypatch.setattr(store, name, down)
    deadline = time.monotonic() + 5
    while not client.get(f"/api/games/{gid}").json()["store_down"] and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(2.5)  # longer than Black's whole clock
    st = client.get(f"/api/games/{gid}").json()
    assert st["status"] == "ongoing" and st["clocks"]["black_ms"] > 500
    assert client.post("/api/games", json={"white": "A", "black": "B"}).status_code == 503
    monkeypatch.undo()
    deadline = time.monotonic() + 5
    while client.get(f"/api/games/{gid}").json()["store_down"] and time.monotonic() < deadline:
        time.sleep(0.05)
    r = post(client, gid, tok["black"], {"type": "move", "move": "e5"})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["status"] == "ongoing"
    assert [ln["type"] for ln in log_lines(client, gid)][-3:] == ["stop_clocks", "start_clocks", "move"]


def test_a_postgresql_outage_costs_no_one_a_game(pg_cluster: Any) -> None:
    """PostgreSQL stops in the middle of 50 live games and starts again: every game goes on, no flag
    fell because of the outage, no acknowledged event is lost, and each log holds the interruption."""
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED

    with TestClient(create_app(pg_cluster.url, limits=UNLIMITED)) as client:
        games = [create(client, time_control="15", edition="2023") for _ in range(50)]
        acked: dict[str, list[dict[str, Any]]] = {g["id"]: [] for g in games}
        for g in games:
            r = post(client, g["id"], g["tokens"]["white"], {"type": "move", "move": "e4"})
            assert r.status_code == 200
            acked[g["id"]].append(r.json()["event"])
        pg_cluster.stop()
        r = post(client, games[0]["id"], games[0]["tokens"]["black"], {"type": "move", "move": "e5"})
        assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
        deadline = time.monotonic() + 10
        while not client.get(f"/api/games/{games[0]['id']}").json()["store_down"] and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(16)  # longer than any player's whole clock
        for g in games[:5]:
            st = client.get(f"/api/games/{g['id']}").json()
            assert st["status"] == "ongoing" and st["store_down"] is True
        pg_cluster.start()
        deadline = time.monotonic() + 20
        while client.get(f"/api/games/{games[0]['id']}").json()["store_down"] and time.monotonic() < deadline:
            time.sleep(0.2)
        from concurrent.futures import ThreadPoolExecutor

        def reply(g: dict[str, Any]) -> Any:
            return post(client, g["id"], g["tokens"]["black"], {"type": "move", "move": "e5"})

        with ThreadPoolExecutor(8) as pool:  # every player answers at once, as they would
            replies = list(pool.map(reply, games))
        for g, r in zip(games, replies):
            assert r.status_code == 200, r.text
            assert r.json()["state"]["status"] == "ongoing"
            acked[g["id"]].append(r.json()["event"])
    with TestClient(create_app(pg_cluster.url, limits=UNLIMITED)) as again:
        for g in games:
            lines = log_lines(again, g["id"], g["tokens"]["arbiter"])
            moves = [ln for ln in lines if ln["type"] == "move"]
            assert moves == acked[g["id"]]
            assert [ln["type"] for ln in lines] == ["start", "move", "stop_clocks", "start_clocks", "move"]
            st = again.get(f"/api/games/{g['id']}").json()
            assert st["status"] == "ongoing" and st["clocks"]["black_ms"] > 0


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_time_a_crashed_server_was_down_is_given_back(backend: str, tmp_path: Any,
                                                          request: pytest.FixtureRequest,
                                                          server_factory: Callable[..., Any]) -> None:
    """SIGKILL with a 4-second clock running, 5 seconds down: after the restart the game goes on, and
    the log says why (the arbiter's interruption from the last heartbeat to the restart)."""
    import httpx

    db = str(tmp_path / "crash.sqlite3") if backend == "sqlite" else str(request.getfixturevalue("pg_url"))
    server = server_factory(db)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        g = http.post("/api/games", json={"white": "W", "black": "B", "time_control": "4",
                                             "when_ready": False}).json()
        r = http.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": "e4"},
                      headers=auth(g["tokens"]["white"]))
        assert r.status_code == 200
    server.kill()
    time.sleep(5)
    again = server_factory(db)
    with httpx.Client(base_url=again.url, timeout=10) as http:
        st = http.get(f"/api/games/{g['id']}").json()
        assert st["status"] == "ongoing" and st["clocks"]["running"] == "black"
        assert st["clocks"]["black_ms"] > 1500
        lines = [json.loads(x) for x in http.get(f"/api/games/{g['id']}/log").text.splitlines()]
        assert [ln["type"] for ln in lines] == ["start", "move", "stop_clocks", "start_clocks"]
        assert "the server was not running" in lines[2]["reason"]
        r = http.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": "e5"},
                      headers=auth(g["tokens"]["black"]))
        assert r.status_code == 200 and r.json()["state"]["status"] == "ongoing"


def test_ids_that_name_no_game_never_reach_the_store(client: Any) -> None:
    """A NUL or a stray character in a game id or a cursor is a 404 on both stores (PostgreSQL refuses
    NUL in text: it must never see one)."""
    for path in ("/api/games/a%00b", "/api/games/%C3%94%C3%98%09", "/api/games?before=x%00y",
                 "/api/games/a%00b/log", "/api/games/a%00b/pgn", "/api/tournaments?before=x%00y",
                 "/api/tournaments/a%00b"):
        r = client.get(path)
        assert r.status_code == 404, (path, r.text)
    assert client.get("/api/games").status_code == 200
    assert client.app.state.hub.down_since is None

"""The server's infrastructure under attack: the SQLite lock on the file's identity, names without line
separators, bad stored rows set aside (never fatal), the socket limits, the fair start by default and a
graceful stop that retires finished games."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from chesslaws.store.db import StoreLocked
from chesslaws.store.games import SQLiteStore, open_store


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_the_sqlite_lock_holds_through_another_name_for_the_same_file(tmp_path: Path, link: str) -> None:
    db = tmp_path / "games.sqlite3"
    first = open_store(str(db))
    other = tmp_path / "elsewhere" / "alias.sqlite3"
    other.parent.mkdir()
    (os.symlink if link == "symlink" else os.link)(db, other)
    with pytest.raises(StoreLocked) as err:
        open_store(str(other))
    assert "in use by another chesslaws serve" in str(err.value) and "inode" in str(err.value)
    first.close()
    second = SQLiteStore(str(other))  # released with the first store: the other name opens it now
    with pytest.raises(StoreLocked):
        open_store(str(db))
    second.close()


@pytest.mark.parametrize("name", ["Anna\u2028Smith", "Bob\u2029"])
def test_line_and_paragraph_separators_in_names_are_refused(client: Any, name: str) -> None:
    r = client.post("/api/games", json={"white": name, "black": "B"})
    assert r.status_code == 422 and "separator" in r.json()["error"], r.text
    g = client.post("/api/games", json={"white": "A"}).json()
    r = client.post(f"/api/games/{g['id']}/join", json={"seat": "black", "name": name})
    assert r.status_code == 422 and "separator" in r.json()["error"], r.text
    assert client.get(f"/api/games/{g['id']}").json()["seats_open"] == ["black"]


# --- a bad stored row is set aside, never fatal --------------------------------------------------------

def _sql(db_url: str, sql: str, params: tuple[Any, ...] = ()) -> None:
    store = open_store(db_url)
    try:
        store.database.session().query(sql, params)
    finally:
        store.close()


_DEEP = "[" * 200_000 + "]" * 200_000
_HUGE = '{"type":"set_clocks","t":1,"by":"arbiter","white_ms":' + "7" * 5000 + ',"black_ms":1}'
_EVENT = "INSERT INTO events VALUES (?, 1, ?)"
# (kind, SQL on the bad game (SQLite, PostgreSQL), its value, words of the 409, whether the arbiter may annul it)
BAD_ROWS: list[tuple[str, tuple[str, str], str | None, str, bool]] = [
    ("body not JSON", (_EVENT,) * 2, "{not json", "is not JSON", True),
    ("5,000 digits", (_EVENT,) * 2, _HUGE, "more than 4300 digits", True),
    ("200,000 deep", (_EVENT,) * 2, _DEEP, "nests deeper", True),
    ("body not an object", (_EVENT,) * 2, "[1, 2]", "not a JSON object", True),
    ("created_at not a time", ("UPDATE games SET created_at = 'yesterday' WHERE id = ?",
                               "UPDATE games SET created_at = 'NaN' WHERE id = ?"), None, "is not a time", False),
    ("rule not an object", ("INSERT INTO game_starts VALUES (?, ?)",) * 2, '["waiting"]',
     "start rule (game_starts.rule) is not a JSON object", True),
]


@pytest.mark.parametrize("kind,sql,value,words,annul", BAD_ROWS, ids=[k for k, *_ in BAD_ROWS])
def test_a_bad_stored_row_sets_its_game_aside_and_the_server_starts(
        make_client: Any, db_url: str, capsys: pytest.CaptureFixture[str], kind: str, sql: tuple[str, str],
        value: str | None, words: str, annul: bool) -> None:
    first = make_client()
    bad = first.post("/api/games", json={"white": "A", "black": "B", "time_control": "600", "when_ready": False}).json()
    good = first.post("/api/games", json={"white": "C", "black": "D", "time_control": "600", "when_ready": False}).json()
    r = first.post(f"/api/games/{good['id']}/events", json={"type": "move", "move": "e4"},
                   headers={"authorization": f"Bearer {good['tokens']['white']}"})
    assert r.status_code == 200, r.text
    first.__exit__(None, None, None)
    _sql(db_url, sql[0 if "postgres" not in db_url else 1], (bad["id"],) if value is None else (bad["id"], value))
    capsys.readouterr()
    second = make_client()  # starts (a bad row does not make the server exit, status 3)
    assert bad["id"] in capsys.readouterr().err
    r = second.get(f"/api/games/{bad['id']}")
    assert r.status_code == 409 and "set aside" in r.json()["error"] and words in r.json()["error"], r.text
    assert second.get(f"/api/games/{good['id']}").json()["moves"][0]["san"] == "e4"
    lobby = second.get("/api/games")
    assert lobby.status_code == 200
    assert {g["id"]: g["status"] for g in lobby.json()}[bad["id"]] == "set_aside"
    r = second.post(f"/api/games/{bad['id']}/events", json={"type": "annul", "reason": "bad row"},
                    headers={"authorization": f"Bearer {bad['tokens']['arbiter']}"})
    if annul:  # the replayable part, annulled: served again, and after a restart too
        assert r.status_code == 200 and r.json()["state"]["status"] == "annulled", r.text
        second.__exit__(None, None, None)
        assert make_client().get(f"/api/games/{bad['id']}").json()["status"] == "annulled"
    else:  # nothing to annul: the operator repairs the row
        assert r.status_code == 409 and words in r.json()["error"], r.text


def test_a_bad_heartbeat_is_ignored_and_the_server_starts(make_client: Any, db_url: str) -> None:
    first = make_client()
    g = first.post("/api/games", json={"white": "A", "black": "B", "time_control": "600"}).json()
    first.__exit__(None, None, None)
    _sql(db_url, "UPDATE heartbeat SET t = 'NaN'" if "postgres" in db_url else "UPDATE heartbeat SET t = 'soon'")
    second = make_client()
    assert second.get(f"/api/games/{g['id']}").json()["status"] == "ongoing"


def test_a_broken_final_state_is_read_from_the_log_and_the_lobby_answers(make_client: Any, db_url: str) -> None:
    first = make_client()
    g = first.post("/api/games", json={"white": "A", "black": "B", "time_control": "600", "when_ready": False}).json()
    r = first.post(f"/api/games/{g['id']}/events", json={"type": "resign"},
                   headers={"authorization": f"Bearer {g['tokens']['black']}"})
    assert r.status_code == 200, r.text
    first.__exit__(None, None, None)
    # Retired with a final state that is not JSON, and one that is JSON but not a view and a summary.
    for final in ("{broken", "[1]"):
        _sql(db_url, "UPDATE games SET status = 'finished', final = ? WHERE id = ?", (final, g["id"]))
        second = make_client()
        lobby = second.get("/api/games")
        assert lobby.status_code == 200, lobby.text  # before: 503 "database unreachable"
        assert [x["result"] for x in lobby.json() if x["id"] == g["id"]] == ["1-0"]
        assert second.get(f"/api/games/{g['id']}").json()["result"] == "1-0"
        second.__exit__(None, None, None)


# --- slow headers, sockets per address, forwarded addresses (a real server on loopback) ----------------

def _half_open(port: int, source: str) -> Any:
    import socket

    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never finished
    return s


def _closed(s: Any) -> bool:
    """Whether the server closed the connection (blocks until it does, or for the socket's timeout)."""
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True
    except OSError:
        return False


def test_half_open_connections_are_closed_after_the_header_timeout_and_others_are_answered(
        tmp_path: Path, server_factory: Any) -> None:
    import time

    import httpx

    srv = server_factory(str(tmp_path / "g.sqlite3"),
                         extra=("--header-timeout", "1.5", "--max-connections-per-address", "30"))
    opened = time.monotonic()
    slow = [_half_open(srv.port, "127.0.0.2") for _ in range(30)]
    extra = _half_open(srv.port, "127.0.0.2")  # the 31st from that address: closed at once
    assert _closed(extra)
    assert time.monotonic() - opened < 1.4
    # Meanwhile another address is answered.
    assert httpx.get(srv.url + "/api/games", timeout=5).status_code == 200
    assert all(_closed(s) for s in slow)  # each blocks until the server closes it
    assert time.monotonic() - opened >= 1.4
    for s in (*slow, extra):
        s.close()
    # The address may connect again, and a request that finishes its headers is answered.
    assert httpx.get(srv.url + "/api/games", timeout=5).status_code == 200


def _ws(url: str, headers: dict[str, str] | None = None) -> Any:
    from websockets.sync.client import connect

    return connect(url, additional_headers=headers or {}, open_timeout=5)


def test_the_sockets_of_one_address_are_limited(tmp_path: Path, server_factory: Any) -> None:
    import httpx
    from websockets.exceptions import InvalidStatus

    srv = server_factory(str(tmp_path / "g.sqlite3"), extra=("--max-sockets-per-address", "3"))
    g = httpx.post(srv.url + "/api/games", json={"white": "A", "black": "B"}, timeout=5).json()
    url = f"ws://127.0.0.1:{srv.port}/api/games/{g['id']}/ws"
    socks = [_ws(url) for _ in range(3)]
    for s in socks:
        assert '"hello"' in s.recv(5)
    with pytest.raises(InvalidStatus) as err:
        _ws(url)
    assert err.value.response.status_code == 403
    socks.pop().close()
    again = _ws(url + "?lang=en")  # a place is free again (the count follows the closed socket)
    assert '"hello"' in again.recv(5)
    for s in (*socks, again):
        s.close()


@pytest.mark.parametrize("proxy", [False, True])
def test_x_forwarded_for_is_believed_only_from_a_configured_proxy(tmp_path: Path, server_factory: Any,
                                                                  proxy: bool) -> None:
    import httpx
    from websockets.exceptions import InvalidStatus

    extra = ("--max-sockets-per-address", "1") + (("--forwarded-allow-ips", "127.0.0.1") if proxy else ())
    srv = server_factory(str(tmp_path / "g.sqlite3"), extra=extra)
    g = httpx.post(srv.url + "/api/games", json={"white": "A", "black": "B"}, timeout=5).json()
    url = f"ws://127.0.0.1:{srv.port}/api/games/{g['id']}/ws"
    first = _ws(url, {"X-Forwarded-For": "10.0.0.1"})
    if proxy:  # two clients behind the proxy: one socket each
        second = _ws(url, {"X-Forwarded-For": "10.0.0.2"})
        assert '"hello"' in second.recv(5)
        second.close()
    else:  # the header is ignored: both are 127.0.0.1, which has its one socket
        with pytest.raises(InvalidStatus):
            _ws(url, {"X-Forwarded-For": "10.0.0.2"})
    first.close()


# --- a graceful stop retires the games that are over -----------------------------------------------------

def test_a_graceful_stop_retires_the_games_that_are_over(make_client: Any, db_url: str) -> None:
    client = make_client()
    over = client.post("/api/games", json={"white": "A", "black": "B", "when_ready": False}).json()
    going = client.post("/api/games", json={"white": "C", "black": "D", "when_ready": False}).json()
    r = client.post(f"/api/games/{over['id']}/events", json={"type": "resign"},
                    headers={"authorization": f"Bearer {over['tokens']['black']}"})
    assert r.status_code == 200 and r.json()["state"]["result"] == "1-0"
    assert over["id"] in client.app.state.hub.games  # over a moment ago: still in memory (a minute)
    client.__exit__(None, None, None)  # a graceful stop
    store = open_store(db_url)
    try:
        assert store.live_ids() == [going["id"]]  # the next start loads only the game still going
        final = store.final(over["id"])
        assert final is not None and final[0] == "finished" and final[1]["summary"]["result"] == "1-0"
    finally:
        store.close()
    again = make_client()
    assert over["id"] not in again.app.state.hub.games
    assert again.get(f"/api/games/{over['id']}").json()["result"] == "1-0"


# --- two processes on PostgreSQL that both lived through an outage interrupt a game once -----------------

def test_two_processes_that_survive_an_outage_give_the_time_back_once(make_client: Any, db_url: str) -> None:
    import time

    if "postgres" not in db_url:
        pytest.skip("several processes share only a PostgreSQL store")
    a, b = make_client(), make_client()
    g = a.post("/api/games", json={"white": "A", "black": "B", "time_control": "600", "when_ready": False}).json()
    r = a.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": "e4"},
               headers={"authorization": f"Bearer {g['tokens']['white']}"})
    assert r.status_code == 200
    assert b.get(f"/api/games/{g['id']}").json()["ply"] == 1  # B holds the game too
    hub_a, hub_b = a.app.state.hub, b.app.state.hub
    down = hub_a.now() - 3
    for hub, client in ((hub_a, a), (hub_b, b)):  # both lost the database at the same moment
        client.portal.call(hub.monitor.cancel)  # each recovers when this test says (no race with its pings)
        hub.down_since = down
    a.portal.call(hub_a.outages.recover)
    deadline = time.monotonic() + 10  # B hears of A's interruption (LISTEN), then recovers itself
    while hub_b.games[g["id"]].seq < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    b.portal.call(hub_b.outages.recover)
    lines = [json.loads(x) for x in a.get(f"/api/games/{g['id']}/log").text.splitlines()]
    assert [e["type"] for e in lines].count("stop_clocks") == 1, lines
    assert [e["type"] for e in lines].count("start_clocks") == 1


# --- a full SQLite disk is an outage (503), not a fault with a traceback ---------------------------------

def test_a_full_sqlite_disk_is_an_outage_without_a_fault(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED

    with TestClient(create_app(str(tmp_path / "full.sqlite3"), limits=UNLIMITED)) as client:
        g = client.post("/api/games", json={"white": "A", "black": "B", "when_ready": False,
                                            "edition": "1997"}).json()
        db = client.app.state.hub.store.database.connection
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
        dance = ["g1f3", "g8f6", "f3g1", "f6g8"]
        statuses = []
        with caplog.at_level(logging.INFO, logger="chesslaws"):
            for i in range(400):
                side = "white" if i % 2 == 0 else "black"
                r = client.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": dance[i % 4]},
                                headers={"authorization": f"Bearer {g['tokens'][side]}"})
                statuses.append(r.status_code)
                if r.status_code != 200:
                    break
        assert statuses[-1] == 503 and "unreachable" in r.json()["error"], statuses[-3:]
        assert not any(rec.exc_info for rec in caplog.records)
        assert not any("cannot rollback" in rec.getMessage() or "failed on one request" in rec.getMessage()
                       for rec in caplog.records)

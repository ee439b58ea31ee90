"""The event loop and the server's smaller holes under attack: the SQLite lock under
every name of a file, path parameters validated before tokens and stores, invisible names refused, a slow
request body closed, the QR code off the loop and limited, large events read once per change."""

from __future__ import annotations

import dataclasses
import os
import socket
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from conftest import ThreadServer, needs_chromium

from chesslaws.store.db import StoreLocked
from chesslaws.store.games import open_store


def _run_async(coro: Any) -> None:
    """``asyncio.run(coro)`` on a thread of its own (the module's browser keeps a loop in this one)."""
    import asyncio

    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coro)
        except BaseException as err:  # noqa: BLE001 - raised again in the test's thread
            failed.append(err)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if failed:
        raise failed[0]


def _names(tmp_path: Path, db: Path) -> list[str]:
    rel = os.path.relpath(db, os.getcwd())
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db)
    hard = tmp_path / "hard.sqlite3"
    os.link(db, hard)
    return [f"file:{db}", f"file:{db}?mode=rwc&cache=private", f"file://{db}", f"file://localhost{db}",
            f"file:{quote(str(db))}#x", f"sqlite:///{db}", rel, f"./{rel}", f"file:{rel}?mode=rw", str(link),
            f"file:{link}?cache=shared", str(hard), f"file:{hard}"]


def test_every_name_of_a_sqlite_file_meets_its_lock(tmp_path: Path) -> None:
    db = tmp_path / "games db.sqlite3"
    first = open_store(str(db))
    for name in _names(tmp_path, db):
        with pytest.raises(StoreLocked, match="in use by another chesslaws serve"):
            open_store(name)
    first.close()
    uri = open_store(f"file:{db}?mode=rwc")  # held through a URI, the plain path finds it taken too
    with pytest.raises(StoreLocked):
        open_store(str(db))
    uri.close()


def test_a_body_sent_a_byte_at_a_time_is_answered_408_and_its_connection_closed(tmp_path: Path) -> None:
    from chesslaws.server.guard import ConnectionLimits

    with ThreadServer(str(tmp_path / "g.sqlite3"), connections=ConnectionLimits(body_timeout=1.0)) as srv:
        body = b'{"white": "A", "black": "B"}'
        slow = socket.create_connection(("127.0.0.1", srv.port))
        slow.sendall(b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                     b"content-length: %d\r\n\r\n" % len(body))
        answer = b""
        closed = False
        for i in range(len(body) - 1):  # never the last byte: the body is never complete
            slow.settimeout(0.4)  # the pace of the drip (the server answers 408 after 1 s)
            try:
                slow.sendall(body[i:i + 1])
                data = slow.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                closed = True
                break
            if not data:
                closed = True
                break
            answer += data
        if not closed:
            slow.settimeout(5)
            try:
                while data := slow.recv(4096):
                    answer += data
            except OSError:
                pass
        slow.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b"did not arrive within 1 s" in answer
        # a body sent whole, and one sent in two parts within the limit, are answered as usual
        assert httpx.post(srv.url + "/api/games", json={"white": "A"}).status_code == 201
        quick = socket.create_connection(("127.0.0.1", srv.port))
        quick.sendall(b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                      b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body) + body[:5])
        quick.sendall(body[5:])
        quick.settimeout(10)
        got = b""
        while data := quick.recv(4096):
            got += data
        quick.close()
        assert got.startswith(b"HTTP/1.1 201"), got


def test_serve_takes_the_body_timeout_from_its_flag(tmp_path: Path, server_factory: Any) -> None:
    """``chesslaws serve --body-timeout 1``: a body still incomplete a second after its headers is answered 408
    by the real server (the flag reaches the connection guard; the default is 20 s)."""
    srv = server_factory(str(tmp_path / "g.sqlite3"), extra=("--body-timeout", "1"))
    slow = socket.create_connection(("127.0.0.1", srv.port))
    slow.sendall(b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                 b"content-length: 40\r\n\r\n{")  # 39 bytes owed, never sent
    slow.settimeout(15)  # the answer comes after 1 s; 15 s is only the test's own bound
    answer = b""
    try:
        while data := slow.recv(4096):
            answer += data
    except OSError:
        pass
    slow.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"within 1 s" in answer, answer


_TOURNAMENT_ROUTES = [
    ("GET", "/api/tournaments/{tid}"), ("GET", "/api/tournaments/{tid}/trf"),
    ("GET", "/api/tournaments/{tid}/console"), ("POST", "/api/tournaments/{tid}/players"),
    ("POST", "/api/tournaments/{tid}/players/1/withdraw"), ("POST", "/api/tournaments/{tid}/players/1/bye"),
    ("GET", "/api/tournaments/{tid}/players/1"), ("POST", "/api/tournaments/{tid}/rounds/1/boards/1/result"),
    ("POST", "/api/tournaments/{tid}/rounds/1/start"), ("POST", "/api/tournaments/{tid}/rounds"),
    ("GET", "/tournament/{tid}"), ("GET", "/tournament/{tid}/arbiter"), ("GET", "/tournament/{tid}/player/1"),
    ("GET", "/tournament/{tid}/sheet"),
]
_GAME_ROUTES = [
    ("GET", "/api/games/{gid}"), ("POST", "/api/games/{gid}/join"), ("GET", "/api/games/{gid}/seat"),
    ("POST", "/api/games/{gid}/events"), ("GET", "/api/games/{gid}/log"), ("GET", "/api/games/{gid}/pgn"),
    ("GET", "/api/games/{gid}/tournament"), ("GET", "/api/games/{gid}/rematch"),
    ("POST", "/api/games/{gid}/rematch"), ("GET", "/game/{gid}"),
]
_BAD_IDS = ["%00", "ab%00cd", "%E2%80%8B", "x" * 65, "a%20b"]


def test_malformed_ids_in_paths_are_refused_before_tokens_and_stores(client: Any) -> None:
    """On both stores: a NUL (PostgreSQL refuses it in text: 500 or a reset connection), an invisible or
    stray character, an overlong id: 404 naming the field, for every route, with a token or without,
    before the token is checked (a 403 would say the token was looked at first)."""
    for bad in _BAD_IDS:
        for method, route in _TOURNAMENT_ROUTES + _GAME_ROUTES:
            path = route.replace("{tid}", bad).replace("{gid}", bad)
            field = "tid" if "{tid}" in route else "game_id"
            for headers in ({}, {"authorization": "Bearer abc"}):
                r = client.request(method, path, headers=headers, json={} if method == "POST" else None)
                assert r.status_code == 404, (path, r.status_code, r.text)
                assert r.json()["error"].startswith(f"{field}: no "), r.text
    with pytest.raises(Exception):  # noqa: B017 - the socket is refused before it is accepted
        with client.websocket_connect("/api/games/%00/ws"):
            pass
    with pytest.raises(Exception):  # noqa: B017
        with client.websocket_connect("/api/tournaments/%00/ws"):
            pass


def test_malformed_numbers_in_tournament_paths_are_refused_naming_the_field(client: Any) -> None:
    t = client.post("/api/tournaments", json={"name": "Open", "players": [{"name": "A"}, {"name": "B"}]}).json()
    tid = t["id"]
    for path, field in [(f"/api/tournaments/{tid}/players/%00/withdraw", "number"),
                        (f"/api/tournaments/{tid}/players/{'9' * 30}/bye", "number"),
                        (f"/api/tournaments/{tid}/rounds/-1/start", "number"),
                        (f"/api/tournaments/{tid}/rounds/1/boards/%00/result", "table")]:
        r = client.post(path, json={}, headers={"authorization": "Bearer abc"})
        assert r.status_code == 422 and r.json()["error"].startswith(f"{field}: "), (path, r.text)
    r = client.get(f"/api/tournaments/{tid}/players/1{'0' * 25}", headers={"authorization": "Bearer abc"})
    assert r.status_code == 422 and r.json()["error"].startswith("number: "), r.text
    assert client.get(f"/api/tournaments/{tid}").status_code == 200  # a good id still reads


INVISIBLE = {
    "zero-width space": "\u200b", "word joiner": "\u2060\u2060", "byte order mark": "\ufeff",
    "soft hyphen": "\u00ad", "Hangul filler": "\u3164", "Hangul choseong filler": "\u115f\u1160",
    "halfwidth Hangul filler": "\uffa0", "spaces": "   ", "ideographic space": "\u3000",
    "combining marks only": "\u0301" * 3, "60 combining marks": "Z" + "\u0336" * 60,
}
REAL = ["Zoë", "李", "Ærø", "O'Neil", "Zoe\u0308", "Nguyễn Thị Ngọc", "Nguye\u0302\u0303n", "Ağaoğlu", "Đặng"]


def test_the_name_rule_refuses_invisible_names_and_keeps_real_ones() -> None:
    from chesslaws.names import name_problem

    for what, name in INVISIBLE.items():
        assert name_problem(name) is not None, what
        assert name_problem(name + "\u200bx") is None or what == "60 combining marks", what
    for name in REAL:
        assert name_problem(name) is None, name


def test_invisible_names_are_refused_by_the_api_and_real_ones_kept(client: Any) -> None:
    """On both stores: game players (create, join), an event's name, its players (at creation and added)."""
    t = client.post("/api/tournaments", json={"name": "Open"}).json()
    arbiter = {"authorization": f"Bearer {t['arbiter_token']}"}
    for what, name in INVISIBLE.items():
        for body in ({"white": name, "black": "B"}, {"white": "A", "black": name}):
            r = client.post("/api/games", json=body)
            assert r.status_code == 422 and ("white" in r.text or "black" in r.text), (what, r.text)
        g = client.post("/api/games", json={"white": "A"}).json()
        r = client.post(f"/api/games/{g['id']}/join", json={"seat": "black", "name": name})
        assert r.status_code == 422 and "name" in r.json()["error"], (what, r.text)
        r = client.post("/api/tournaments", json={"name": name})
        assert r.status_code == 422 and r.json()["error"].startswith("name"), (what, r.text)
        r = client.post("/api/tournaments", json={"name": "Open", "players": [{"name": "Ann"}, {"name": name}]})
        assert r.status_code == 422 and "players.1.name" in r.json()["error"], (what, r.text)
        r = client.post(f"/api/tournaments/{t['id']}/players", json={"name": name}, headers=arbiter)
        assert r.status_code == 422 and "name" in r.json()["error"], (what, r.text)
        r = client.post("/api/engines/games", json={"engine": "stockfish", "name": name})
        assert r.status_code == 422 and r.json()["error"].startswith("name"), (what, r.text)
    for name in REAL:
        g = client.post("/api/games", json={"white": name, "black": "B"})
        assert g.status_code == 201 and g.json()["state"]["white"] == name, g.text
        j = client.post("/api/games", json={"white": "A"}).json()
        assert client.post(f"/api/games/{j['id']}/join", json={"seat": "black", "name": name}).status_code == 200
        assert client.post("/api/tournaments", json={"name": name, "players": [{"name": name}]}).status_code == 201
        r = client.post(f"/api/tournaments/{t['id']}/players", json={"name": name}, headers=arbiter)
        assert r.status_code == 201, r.text


def test_invisible_names_are_refused_by_the_cli_add_and_import(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chesslaws.cli import main

    db = str(tmp_path / "t.sqlite3")
    assert CliRunner().invoke(main, ["tournament", "create", "Open", "--db", db]).exit_code == 0
    for what, name in INVISIBLE.items():
        out = CliRunner().invoke(main, ["tournament", "add", "Open", "Ann", name, "--db", db])
        assert out.exit_code == 2 and ("no visible character" in out.output or "combining marks" in out.output
                                       or "the name is empty" in out.output), (what, out.output)
        trf = tmp_path / "bad.trf"
        line = "001    2      " + name.ljust(33)[:33] + " " * 40
        trf.write_text("012 Bad\n001    1      Ann" + " " * 80 + "\n" + line + "\n")
        out = CliRunner().invoke(main, ["tournament", "import", str(trf), "--db", str(tmp_path / f"{len(what)}.sqlite3")])
        assert out.exit_code != 0 and "line 3" in out.output and "name" in out.output, (what, out.output)
    out = CliRunner().invoke(main, ["tournament", "add", "Open", *REAL, "--db", db])
    assert out.exit_code == 0, out.output


def test_qr_codes_are_made_off_the_event_loop_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """segno never runs on the server's event loop (a code of 300 characters holds the interpreter for
    40 ms: eight connections asking for them cost each player seconds of clock per move); the same text
    asked again is answered from the last codes made; an address has qr_per_address codes; a text over
    300 characters is refused before any work, naming the field."""
    import asyncio

    import segno
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED, Limits

    on_loop: list[str] = []
    real = segno.make

    def watched(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(str(args[0])[:20])
        except RuntimeError:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(segno, "make", watched)
    link = "http://127.0.0.1:8000/game/abcdefgh#token=" + "x" * 32
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), limits=UNLIMITED)) as client:
        first = client.post("/api/qr", json={"text": link})
        assert first.status_code == 200 and b"<svg" in first.content
        assert on_loop == []  # made elsewhere than on the loop
        again = client.post("/api/qr", json={"text": link})
        assert again.status_code == 200 and again.content == first.content
        qr = client.app.state.qr
        assert qr.made == 1  # the second was the kept code
    assert on_loop == []


def test_qr_codes_are_limited_per_address_and_in_length(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED, Limits

    limits = dataclasses.replace(UNLIMITED, qr_per_address="5/minute")
    assert Limits().qr_per_address  # limited by default
    link = "http://127.0.0.1:8000/game/abcdefgh#token=" + "x" * 32
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), limits=limits)) as client:
        assert client.post("/api/qr", json={"text": link}).status_code == 200
        assert client.post("/api/qr", json={"text": link}).status_code == 200
        r = client.post("/api/qr", json={"text": "x" * 301})
        assert r.status_code == 422 and r.json()["error"].startswith("text: ") and "too long" in r.text, r.text
        assert client.post("/api/qr", json={"text": "\u20ac" * 300}).status_code == 200
        statuses = [client.post("/api/qr", json={"text": f"{link}{i}"}).status_code for i in range(4)]
        assert statuses == [200, 200, 429, 429], statuses  # 5 a minute (the 422 was refused before counting)


def _played_event(players: int, rounds: int) -> Any:
    from chesslaws.tournament import Regulations, Tournament, pair_next_round

    t = Tournament("Big", Regulations(rounds=rounds))
    for i in range(players):
        t = t.add_player(f"Player {i}", 2400 - i)
    for r in range(1, rounds + 1):
        t = pair_next_round(t)
        for b in t.round(r).boards:
            t = t.set_result(r, b.table, ("1-0", "0-1", "1/2-1/2")[(b.table + r) % 3])
    return t


def test_reads_of_an_event_are_made_once_per_version_off_the_loop(db_url: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On both stores: twenty concurrent anonymous reads of an event (JSON and TRF) make its standings
    once, on a thread (not on the event loop: 0.4 s for 1,000 players and 11 rounds), again once after a
    change made by another process (another connection to the database), and never per read."""
    import asyncio

    import chesslaws.tournament.live as live
    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED
    from chesslaws.store.tournaments import TournamentStore

    with TournamentStore(db_url) as other:
        tid = other.save(_played_event(24, 3)).id
    made: list[bool] = []
    real = live.standings

    def counted(t: Any) -> Any:
        try:
            asyncio.get_running_loop()
            made.append(True)  # on the event loop
        except RuntimeError:
            made.append(False)
        return real(t)

    monkeypatch.setattr(live, "standings", counted)

    async def main() -> None:
        app = create_app(db_url, limits=UNLIMITED)
        transport = httpx.ASGITransport(app=app)
        async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport,
                                                                     base_url="http://t") as c:
            async def batch(path: str) -> list[bytes]:
                rs = await asyncio.gather(*(c.get(path) for _ in range(20)))
                assert all(r.status_code == 200 for r in rs), [r.text for r in rs if r.status_code != 200]
                return [r.content for r in rs]

            first = await batch(f"/api/tournaments/{tid}")
            assert len(set(first)) == 1 and len(made) == 1, made
            assert len(set(await batch(f"/api/tournaments/{tid}"))) == 1 and len(made) == 1
            trf = await batch(f"/api/tournaments/{tid}/trf")
            assert len(set(trf)) == 1 and trf[0].startswith(b"012 Big")
            with TournamentStore(db_url) as other:  # another process renames the event
                other.update(tid, lambda t: dataclasses.replace(t, name="Big Two"))
            again = await batch(f"/api/tournaments/{tid}")
            assert len(set(again)) == 1 and b'"name":"Big Two"' in again[0] and len(made) == 2, made
            assert (await batch(f"/api/tournaments/{tid}/trf"))[0].startswith(b"012 Big Two")
            assert (await c.get("/api/tournaments/abcdef")).status_code == 404

    _run_async(main())
    assert made == [False, False], made  # never on the loop


def test_reads_of_an_event_are_limited_per_address(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED, Limits

    assert Limits().tournament_reads_per_address  # limited by default
    limits = dataclasses.replace(UNLIMITED, tournament_reads_per_address="3/minute")
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), limits=limits)) as client:
        tid = client.post("/api/tournaments", json={"name": "Open"}).json()["id"]
        got = [client.get(f"/api/tournaments/{tid}" + ("/trf" if i % 2 else "")).status_code for i in range(5)]
        assert got == [200, 200, 200, 429, 429], got


def test_a_players_own_view_makes_the_standings_off_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from urllib.parse import urlparse

    from fastapi.testclient import TestClient

    import chesslaws.tournament.live as live
    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED
    from chesslaws.store.games import hash_token
    from chesslaws.store.tournaments import TournamentStore

    db = str(tmp_path / "g.sqlite3")
    with TournamentStore(db) as store:
        tid = store.save(_played_event(12, 2)).id
        store.set_arbiter_token_hash(tid, hash_token("the-arbiter"))
    on_loop: list[bool] = []
    real = live.standings

    def counted(t: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return real(t)

    import asyncio

    monkeypatch.setattr(live, "standings", counted)
    with TestClient(create_app(db, limits=UNLIMITED)) as c:
        console = c.get(f"/api/tournaments/{tid}/console", headers={"authorization": "Bearer the-arbiter"}).json()
        page = console["players"][0]["page"]
        token = urlparse(page).fragment.split("token=", 1)[1]
        on_loop.clear()
        mine = c.get(f"/api/tournaments/{tid}/players/1", headers={"authorization": f"Bearer {token}"})
        assert mine.status_code == 200 and mine.json()["standing"]["start_number"] == 1, mine.text
    assert on_loop == [False], on_loop


@needs_chromium
def test_the_pages_ask_again_for_a_qr_code_when_told_to_wait(tmp_path: Path, browser: Any) -> None:
    """A pairing sheet of more than 150 boards asks for more QR codes than an address has a minute: the
    pages' TL.qrSvg waits as the 429 says (Retry-After) and asks again, rather than failing the sheet."""
    from chesslaws.server.guard import UNLIMITED, ConnectionLimits

    limits = dataclasses.replace(UNLIMITED, qr_per_address="2/second")
    with ThreadServer(str(tmp_path / "g.sqlite3"), limits, ConnectionLimits()) as srv:
        page = browser.new_page()
        page.goto(srv.url + "/")
        page.wait_for_function("typeof TL !== 'undefined'")
        got = page.evaluate("Promise.all([0, 1, 2, 3, 4].map((i) => TL.qrSvg('http://x/game/abc#token=' + i)))")
        assert len(got) == 5 and all(src.startswith("data:image/svg+xml") for src in got), got
        page.close()


def test_event_reads_keep_few_bodies_and_make_a_failed_one_again() -> None:
    import asyncio

    from chesslaws.tournament.reads import EventReads

    made: list[str] = []
    fail = {"c"}
    looked: list[str] = []

    async def make(tid: str, kind: str) -> tuple[int, bytes, bool]:
        made.append(tid)
        await asyncio.sleep(0)
        if tid in fail:
            fail.discard(tid)
            raise OSError("the database is away")
        return 1, tid.encode(), tid == "b"

    async def main() -> None:
        reads = EventReads(make, looked.append, kept=2, look_every=3600)
        assert await asyncio.gather(*(reads.read("a", "json", 1) for _ in range(5))) == [b"a"] * 5
        assert await reads.read("b", "json", 1) == b"b" and await reads.read("b", "json", 1) == b"b"
        assert made == ["a", "b"] and looked == ["b"]  # b waits for results: one look, not one per read
        with pytest.raises(OSError):
            await reads.read("c", "json", 1)
        assert await reads.read("c", "json", 1) == b"c"  # the failed making is not kept
        assert await reads.read("a", "json", 1) == b"a"  # a was dropped (two kept: b, c): made again
        assert made == ["a", "b", "c", "c", "a"]

    _run_async(main())

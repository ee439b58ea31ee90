"""A round broadcast live: its PGN feed, polled while the games are played, always parses (python-chess) and is
what lichess Broadcast reads (one game per board, ``[Round "N.B"]``, ``[%clk]`` after every move, each finished
game's result); it is cheap to poll (ETag, 304); the spectators' boards follow the games."""

from __future__ import annotations

import io
import re
import time
from typing import Any, Callable

import chess
import chess.pgn
import pytest

from test_live_api import NOW, bearer, create, mate, move


def games_of(text: str) -> list[chess.pgn.Game]:
    stream, games = io.StringIO(text), []
    while (g := chess.pgn.read_game(stream)) is not None:
        assert not g.errors, (g.errors, text)
        games.append(g)
    return games


def feed(c: Any, tid: str, rnd: int | None = None) -> list[chess.pgn.Game]:
    url = f"/api/tournaments/{tid}/pgn" if rnd is None else f"/api/tournaments/{tid}/rounds/{rnd}/pgn"
    r = c.get(url)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-chess-pgn")
    return games_of(r.text)


def test_the_feed_polled_while_games_are_played(make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=6)
    r = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok))
    assert r.status_code == 201, r.text
    boards = r.json()["boards"]
    games = feed(c, tid, 1)
    assert [g.headers["Round"] for g in games] == ["1.1", "1.2", "1.3"]  # one game per board, in board order
    assert all(g.headers["Result"] == "*" and g.end().ply() == 0 for g in games)
    names = {(g.headers["White"], g.headers["Black"]) for g in games}
    assert names == {(b["white"]["name"], b["black"]["name"]) for b in boards}
    # Board 2 plays a mate, polled after every move: each poll parses, has the moves made so far and a clock
    # after every move, and the game is "*" until its last move gives it its result.
    sans = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    b2 = boards[1]
    for i, san in enumerate(sans):
        move(c, b2["white" if i % 2 == 0 else "black"]["link"], san)
        g = next(g for g in feed(c, tid, 1) if g.headers["Round"] == "1.2")
        played = [n.san() for n in g.mainline()]
        assert played == sans[: i + 1]
        assert all(n.clock() is not None for n in g.mainline())  # [%clk] after every move
        assert g.headers["Result"] == ("1-0" if i == len(sans) - 1 else "*")
    # Board 1 is still being played: its moves and "*"; board 2 ends with its result in the movetext too.
    move(c, boards[0]["white"]["link"], "d4")
    text = c.get(f"/api/tournaments/{tid}/rounds/1/pgn").text
    g1, g2, _ = games_of(text)
    assert [n.san() for n in g1.mainline()] == ["d4"] and g1.headers["Result"] == "*"
    assert re.search(r"Qxf7#.*\s1-0\s*(\n|$)", text.split('[Round "1.3"]')[0], re.S)


def test_lichess_reads_the_event_feed(make_client: Callable[[], Any]) -> None:
    """Every round of the event in one feed; each finished game with its result and its tags."""
    c = make_client()
    tid, tok = create(c, n=4)
    boards = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    for b in boards:
        mate(c, b)
    end = time.monotonic() + 20
    while c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).status_code != 201:
        assert time.monotonic() < end, "round 2 not paired"
        time.sleep(0.05)
    games = feed(c, tid)
    assert [g.headers["Round"] for g in games] == ["1.1", "1.2", "2.1", "2.2"]
    for g in games:
        assert g.headers["Event"] == "Club Blitz"
        for tag in ("Site", "Date", "White", "Black", "Result", "WhiteElo", "BlackElo"):
            assert tag in g.headers, tag
    assert [g.headers["Result"] for g in games] == ["1-0", "1-0", "*", "*"]
    assert all(g.end().board().is_checkmate() for g in games[:2])
    assert [g.headers["Round"] for g in feed(c, tid, 2)] == ["2.1", "2.2"]


def test_polls_are_answered_304_until_a_move(make_client: Callable[[], Any], db_url: str) -> None:
    c = make_client()
    tid, tok = create(c, n=4)
    boards = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    url = f"/api/tournaments/{tid}/rounds/1/pgn"
    first = c.get(url)
    etag = first.headers["etag"]
    again = c.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    move(c, boards[0]["white"]["link"], "e4")
    after = c.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["etag"] != etag and "1. e4" in after.text
    if not db_url.startswith("postgresql"):
        return  # one SQLite file serves one process
    # The ETag is the body's: another process of the same database answers the same one.
    other = make_client()
    assert other.get(url).headers["etag"] == after.headers["etag"]
    assert other.get(url, headers={"If-None-Match": after.headers["etag"]}).status_code == 304


def test_spectators_boards(make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=4)
    boards = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    move(c, boards[0]["white"]["link"], "e4")
    view = c.get(f"/api/tournaments/{tid}/rounds/1/boards").json()
    b1 = view["boards"][0]
    assert b1["fen"].startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
    assert b1["last_move"] == "e2e4" and b1["last_san"] == "e4" and b1["turn"] == "black"
    assert b1["clocks"]["running"] == "black" and b1["clocks"]["white_ms"] <= 120_000
    assert "link" not in str(view) and "token" not in str(view)  # nothing that opens a seat
    assert c.get(f"/api/tournaments/{tid}/rounds/2/boards").status_code == 404
    assert c.get(f"/api/tournaments/{tid}/rounds/2/pgn").status_code == 404
    assert c.get("/api/tournaments/nosuch/rounds/1/pgn").status_code == 404


def test_feed_reads_count_against_the_limit(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.server.guard import Limits
    from chesslaws.webapp import create_app

    with TestClient(create_app(str(tmp_path / "g.sqlite3"), limits=Limits(tournament_reads_per_address="5/minute"))) as c:
        tid, tok = create(c, n=4)
        assert c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).status_code == 201
        codes = [c.get(f"/api/tournaments/{tid}/rounds/1/pgn").status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_an_unknown_event_names_no_file(make_client: Callable[[], Any], db_url: str) -> None:
    """A client asking for an event that is not there is told so by its id, never where the database is."""
    c = make_client()
    for url in ("/api/tournaments/nosuch", "/api/tournaments/nosuch/pgn", "/api/tournaments/nosuch/rounds/1/pgn"):
        r = c.get(url)
        assert r.status_code == 404 and "nosuch" in r.text, url
        assert db_url not in r.text and "sqlite3" not in r.text and "postgresql" not in r.text, (url, r.text)

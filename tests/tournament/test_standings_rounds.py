"""What the standings count while a round is in play, as the API answers it to the pages: a bye counts once
its round is played (before, the player with the bye of round 1 led the standings "after round 0"), the
finished games of the round in play count at once; the TRF comes as a file; and the language of the server's
texts follows the reader's choice on the pages."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlparse

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request

from chesslaws.server.guard import UNLIMITED
from chesslaws.webapp import create_app
from chesslaws.webapp.language import LANG_COOKIE, client_language as request_lang


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "games.sqlite3"), limits=UNLIMITED)) as c:
        yield c


def mate(c: TestClient, board: dict[str, Any]) -> None:
    gid = board["game_id"]
    for i, san in enumerate(["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]):
        link = board["white" if i % 2 == 0 else "black"]["link"]
        r = c.post(f"/api/games/{gid}/events", json={"type": "move", "move": san}, headers=bearer(token_of(link)))
        assert r.status_code == 200, r.text


def five(c: TestClient) -> tuple[str, str, dict[str, Any]]:
    """A Swiss of five players, round 1 paired (two boards and the pairing-allocated bye)."""
    r = c.post("/api/tournaments", json={
        "name": "Odd Club", "system": "swiss", "rounds": 3, "time_control": "600+5",
        "players": [{"name": n, "rating": 2000 - 10 * i} for i, n in enumerate("ABCDE")]})
    assert r.status_code == 201, r.text
    tid, tok = r.json()["id"], r.json()["arbiter_token"]
    paired = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "now"}, headers=bearer(tok))
    assert paired.status_code == 201, paired.text
    return tid, tok, paired.json()


def standing(t: dict[str, Any]) -> dict[int, float]:
    return {s["start_number"]: s["points"] for s in t["standings"]}


def until(c: TestClient, tid: str, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The event once ``ok`` holds of it (a game's result reaches its board a moment after the game ends)."""
    end = time.monotonic() + 20
    while True:
        t: dict[str, Any] = c.get(f"/api/tournaments/{tid}").json()
        if ok(t):
            return t
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_bye_counts_once_its_round_is_played(client: TestClient) -> None:
    tid, _, r1 = five(client)
    (bye,) = r1["byes"]
    assert bye["kind"] == "pab"
    t = client.get(f"/api/tournaments/{tid}").json()
    assert set(standing(t).values()) == {0}, "after round 0 nobody has a point, the bye's player neither"
    assert {s["rank"] for s in t["standings"]} == {1}
    row = next(x for x in t["crosstable"] if x["start_number"] == bye["player"])
    assert row["rounds"] == ["--U"] and row["points"] == "0"  # the bye is shown, not yet counted
    first, second = r1["boards"]
    mate(client, first)
    t = until(client, tid, lambda t: any(b["result"] for b in t["rounds"][0]["boards"]), "board 1's result")
    assert not t["rounds"][0]["complete"]
    winner = first["white"]["start_number"]
    assert standing(t)[winner] == 1 and standing(t)[bye["player"]] == 0, "a finished game counts at once"
    assert t["standings"][0]["start_number"] == winner
    mate(client, second)
    t = until(client, tid, lambda t: t["rounds"][0]["complete"], "round 1 complete")
    assert standing(t)[bye["player"]] == 1, "the round played, its bye counts"
    row = next(x for x in t["crosstable"] if x["start_number"] == bye["player"])
    assert row["points"] == "1"


def test_the_players_own_page_counts_as_the_standings_do(client: TestClient) -> None:
    tid, _, r1 = five(client)
    (bye,) = r1["byes"]
    page = next(p["page"] for p in r1["players"] if p["start_number"] == bye["player"])
    view = client.get(f"/api/tournaments/{tid}/players/{bye['player']}", headers=bearer(token_of(page))).json()
    assert view["games"] == [{"round": 1, "bye": "pab"}] and view["standing"]["points"] == 0


def test_the_trf_link_downloads_a_file(client: TestClient) -> None:
    tid, _, _ = five(client)
    r = client.get(f"/api/tournaments/{tid}/trf")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="{tid}.trf"'
    assert r.text.startswith("012 Odd Club")


def request(query: str = "", headers: dict[str, str] | None = None) -> Request:
    raw = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return Request({"type": "http", "method": "GET", "path": "/", "query_string": query.encode(), "headers": raw})


def test_the_server_reads_the_language_the_reader_chose() -> None:
    assert request_lang(request()) == "en"
    assert request_lang(request(headers={"Accept-Language": "fr-CH, de;q=0.8"})) == "fr"
    assert request_lang(request(headers={"Accept-Language": "it, es;q=0.5"})) == "es"
    chosen = {"Cookie": f"{LANG_COOKIE}=de", "Accept-Language": "fr"}
    assert request_lang(request(headers=chosen)) == "de", "the switch's choice wins over the browser's"
    assert request_lang(request("lang=es", chosen)) == "es", "and ?lang= over both"
    assert request_lang(request("lang=xx", {"Cookie": f"{LANG_COOKIE}=zz"})) == "en"

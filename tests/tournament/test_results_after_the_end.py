"""Whatever changes a tournament game's result after its end reaches the standings, through the
one function of the game's final state (tournament.live.board_of_game): the scoresheets both players sign
with another result (2023 8.7: it stands, even if incorrect), an annulment (the board has no result until
the arbiter enters one, and keeps the one he enters). Through the API, on both stores."""

from __future__ import annotations

from typing import Any, Callable

from test_live_api import NOW, bearer, create, token_of, until


def _board(c: Any, tid: str) -> dict[str, Any]:
    return dict(c.get(f"/api/tournaments/{tid}").json()["rounds"][0]["boards"][0])


def _points(c: Any, tid: str) -> dict[str, float]:
    t = c.get(f"/api/tournaments/{tid}").json()
    return {row["name"]: float(row["points"]) for row in t["crosstable"]}


def test_signatures_after_a_resignation_and_an_annulment_reach_the_standings(
        make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1, time_control="300+0")
    (b,) = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    gid = b["game_id"]

    def send(link: str, event: dict[str, Any]) -> Any:
        return c.post(f"/api/games/{gid}/events", json=event, headers=bearer(token_of(link)))

    white, black = b["white"]["name"], b["black"]["name"]
    assert send(b["white"]["link"], {"type": "resign"}).status_code == 200
    until(lambda: _board(c, tid)["result"] == "0-1", "the resignation in the standings")
    assert _points(c, tid) == {white: 0, black: 1}
    # Both sign 1-0: under the 2023 Laws (8.7) the signed result stands, even if incorrect.
    for side in ("white", "black"):
        r = send(b[side]["link"], {"type": "sign", "result": "1-0"})
        assert r.status_code == 200, r.text
    assert c.get(f"/api/games/{gid}").json()["result"] == "1-0"
    until(lambda: _board(c, tid)["result"] == "1-0", "the signed result in the standings")
    assert _points(c, tid) == {white: 1, black: 0}
    # The arbiter annuls the game: the board has no result, until he enters one, which it keeps.
    r = c.post(f"/api/games/{gid}/events", json={"type": "annul", "reason": "wrong players"},
               headers=bearer(token_of(b["arbiter"])))
    assert r.status_code == 200, r.text
    until(lambda: _board(c, tid)["result"] is None, "the annulment in the standings")
    assert _board(c, tid)["termination"] == "annulled" and _points(c, tid) == {white: 0, black: 0}
    r = c.post(f"/api/tournaments/{tid}/rounds/1/boards/1/result", json={"result": "1/2-1/2"}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    send(b["white"]["link"], {"type": "request_explanation", "about": "the annulment"})  # a change of the game
    assert _board(c, tid)["result"] == "1/2-1/2" and _points(c, tid) == {white: 0.5, black: 0.5}

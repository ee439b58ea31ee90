"""Issue 36, the game's rules under attack: every event type a player may send counts against a limit,
before and after the end; what changes a tournament game's result after its end reaches the standings;
a stranger who takes a lobby game's seat is warned of an opponent who is also its arbiter; a quickplay
claim left pending when the arbiter's console closes does not freeze the game. Each test that concerns
a store runs on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from chesslaws.events import SCHEMAS
from chesslaws.server.guard import Limits

from test_api import create, post


def _client(db_url: str, limits: Limits) -> Any:
    from fastapi.testclient import TestClient

    from chesslaws.server import create_app

    return TestClient(create_app(db_url, limits=limits))


# --- 1. every event type a player may send is limited ---------------------------------------------


def test_every_event_type_a_player_may_send_is_limited_but_a_move() -> None:
    """Read from the events' schemas: a kind added later is limited without being listed anywhere."""
    from chesslaws.server import budget

    player_kinds = {k for k, s in SCHEMAS.items() if s.by in ("player", "any") and k != "start"}
    unlimited = {k for k in player_kinds if k not in budget.LIMITED}
    assert unlimited == {"move", "press_clock"}  # free only when they move the game on (budget.progressed)
    for kind in ("request_explanation", "request_scoresheet", "displace", "scoresheet", "sign", "appeal",
                 "arrive", "restore", "release", "announce", "game_score", "seal", "resign", "accept_draw"):
        assert kind in budget.LIMITED, kind


FOUR = [("request_explanation", {"about": "touch-move"}), ("request_scoresheet", {}),
        ("displace", {"squares": ["e7"]}), ("scoresheet", {"plies": 0})]


@pytest.mark.parametrize(("kind", "fields"), FOUR, ids=[k for k, _ in FOUR])
def test_the_four_forgotten_kinds_are_limited_in_one_position_and_in_the_game(
        db_url: str, kind: str, fields: dict[str, Any]) -> None:
    """Issue 36 measured 40 of 40 accepted in one position, by the player not on move."""
    limits = Limits(None, None, None, None, events_aside_per_move=5, events_aside_per_game=7)
    with _client(db_url, limits) as client:
        g = create(client, time_control="600", edition="2023")
        gid, tok = g["id"], g["tokens"]
        codes = [post(client, gid, tok["black"], {"type": kind, **fields}).status_code for _ in range(7)]
        assert codes == [200] * 5 + [409] * 2
        r = post(client, gid, tok["black"], {"type": kind, **fields})
        assert "11.5" in r.json()["error"] and "this position" in r.json()["error"]
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
        codes = [post(client, gid, tok["black"], {"type": kind, **fields}).status_code for _ in range(3)]
        assert codes == [200, 200, 409]  # 7 in the game
        assert "in this game" in post(client, gid, tok["black"], {"type": kind, **fields}).json()["error"]
        assert post(client, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200
        assert client.get(f"/api/games/{gid}").json()["seq"] == 1 + 2 + 7


# --- 2. after the end, the log grows no more than a little ------------------------------------------


def test_after_a_resignation_signatures_and_requests_are_few_and_texts_short(db_url: str) -> None:
    with _client(db_url, Limits(None, None, None, None)) as client:
        g = create(client, time_control="600", edition="2023")
        gid, tok = g["id"], g["tokens"]
        assert post(client, gid, tok["white"], {"type": "resign"}).status_code == 200
        signs = [post(client, gid, tok["white"], {"type": "sign", "result": r}).status_code
                 for r in ("0-1", "1-0", "0-1", "1-0", "0-1")]
        assert signs == [200, 200, 200, 409, 409]
        r = post(client, gid, tok["white"], {"type": "sign", "result": "0-1"})
        assert "8.7" in r.json()["error"] and "signed the scoresheets 3 times" in r.json()["error"]
        asks = [post(client, gid, tok["black"], {"type": "request_explanation", "about": f"q{i}"}).status_code
                for i in range(10)]
        assert asks == [200] * 8 + [409] * 2
        # Black's budget was his own: White still signs nothing more, Black signs his three.
        assert post(client, gid, tok["black"], {"type": "sign", "result": "0-1"}).status_code == 200
        r = post(client, gid, tok["white"], {"type": "request_explanation", "about": "x" * 8000})
        assert r.status_code == 422 and "'about'" in r.json()["error"] and "500 characters" in r.json()["error"]
        assert client.get(f"/api/games/{gid}").json()["seq"] == 1 + 1 + 3 + 8 + 1

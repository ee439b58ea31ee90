"""Attacks on live games: no spectator can spend the players' budget, no player can
fill the log against the arbiter, no claim freezes the clocks where no arbiter can decide it, and no
request grows a game's caches with values of its own. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from chesslaws.server.guard import Limits

from test_api import create, post


def _client(db_url: str, limits: Limits) -> Any:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    return TestClient(create_app(db_url, limits=limits))


def _hub(client: Any) -> Any:
    return client.app.state.hub


# --- 1. a spectator cannot make the players lose on time ----------------------------------------


def test_a_flood_of_tokenless_posts_and_spectator_messages_leaves_the_players_moves_accepted(db_url: str) -> None:
    """The game's budget (here 20 events a minute) is counted per seat, after the seat is known: 60
    tokenless POSTs and 60 messages on a spectator's socket spend nothing, and every move is accepted."""
    limits = Limits(events_per_token="100/minute", events_per_game="20/minute")
    with _client(db_url, limits) as client:
        g = create(client, time_control="600")
        gid, tok = g["id"], g["tokens"]
        for _ in range(60):
            r = post(client, gid, None, {"type": "resign"})
            assert r.status_code == 401 and "seat token" in r.json()["error"]
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json()["kind"] == "hello"
            ws.receive_json()
            for i in range(60):
                ws.send_json({"rid": i, "event": {"type": "resign"}})
            errors = []
            while len(errors) < 60:
                msg = ws.receive_json()
                if msg["kind"] == "error":
                    errors.append(msg)
            assert {m["status"] for m in errors} == {401}
        for i, (side, move) in enumerate([("white", "e4"), ("black", "e5"), ("white", "Nf3"), ("black", "Nc6")]):
            r = post(client, gid, tok[side], {"type": "move", "move": move})
            assert r.status_code == 200, r.text
            assert r.json()["state"]["ply"] == i + 1
        assert r.json()["state"]["status"] == "ongoing"


def test_one_seat_cannot_spend_another_seats_budget(db_url: str) -> None:
    """White floods until refused (429); Black's moves still go through: each seat has its own budget."""
    limits = Limits(events_per_token="100/minute", events_per_game="5/minute")
    with _client(db_url, limits) as client:
        g = create(client, time_control="600", arbiter="absent")
        gid, tok = g["id"], g["tokens"]
        codes = [post(client, gid, tok["white"], {"type": "offer_draw"}).status_code for _ in range(8)]
        assert codes[-1] == 429
        assert post(client, gid, tok["black"], {"type": "decline_draw"}).status_code in (200, 409)
        # White's own budget is spent: his move waits; Black's is not.
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 429
        assert post(client, gid, tok["black"], {"type": "claim_flag"}).status_code == 200


def test_a_wrong_token_spends_no_budget_and_marks_no_game_live(db_url: str) -> None:
    limits = Limits(events_per_token="100/minute", events_per_game="3/minute")
    with _client(db_url, limits) as client:
        g = create(client, time_control="600")
        gid, tok = g["id"], g["tokens"]
        for _ in range(10):
            assert post(client, gid, "not-a-token", {"type": "resign"}).status_code == 401
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200


# --- 4. languages: only the supported ones key a game's caches ---------------------------------


def test_a_thousand_distinct_languages_do_not_grow_a_games_caches(db_url: str) -> None:
    from chesslaws.server.guard import UNLIMITED

    with _client(db_url, UNLIMITED) as client:
        g = create(client, time_control="600")
        gid, tok = g["id"], g["tokens"]
        live = _hub(client).games[gid]
        for i in range(1000):
            r = client.get(f"/api/games/{gid}?lang=x{i}")
            assert r.status_code == 200 and r.json()["lang"] == "en"
        r = client.post(f"/api/games/{gid}/events?lang=zz9", json={"type": "move", "move": "e4"},
                        headers={"Authorization": f"Bearer {tok['white']}"})
        assert r.status_code == 200 and r.json()["state"]["lang"] == "en"
        for i in range(20):
            with client.websocket_connect(f"/api/games/{gid}/ws?lang=w{i}") as ws:
                ws.receive_json()
                assert ws.receive_json()["state"]["lang"] == "en"
        assert set(live.config_cache) == {"en"}  # (a view keeps no letters per move)
        # A supported language is served (and cached) as itself.
        r = client.get(f"/api/games/{gid}?lang=de")
        assert r.json()["lang"] == "de" and r.json()["moves"][0]["san_local"] == "e4"
        assert set(live.config_cache) == {"en", "de"}


# --- 2. a player cannot fill the log against the arbiter ----------------------------------------


def _seq(client: Any, gid: str) -> int:
    return int(client.get(f"/api/games/{gid}").json()["seq"])


def test_repeated_claims_are_refused_unlogged_as_annoyance_and_a_move_opens_them_again(db_url: str) -> None:
    """Claims that leave the game going: 4 by one side in one position, then refused (409, nothing
    logged, 2023 11.5 named); flag, repetition, touch-move and set-up claims alike; after a move, again."""
    limits = Limits(None, None, None, None, max_events_per_game=3000)
    with _client(db_url, limits) as client:
        g = create(client, time_control="600", arbiter="absent", edition="2023")
        gid, tok = g["id"], g["tokens"]
        for event in ({"type": "claim_flag"}, {"type": "claim_draw", "reason": "threefold"},
                      {"type": "claim_touch_move"}, {"type": "claim_flag"}):
            r = post(client, gid, tok["white"], event)
            assert r.status_code == 200 and r.json()["state"]["status"] == "ongoing", r.text
        before = _seq(client, gid)
        for event in ({"type": "claim_flag"}, {"type": "claim_draw", "reason": "fifty"}):
            r = post(client, gid, tok["white"], event)
            assert r.status_code == 409 and "annoy" in r.json()["error"] and "11.5" in r.json()["error"]
        assert _seq(client, gid) == before
        # Black's claims are his own: White's spent none of them.
        assert post(client, gid, tok["black"], {"type": "claim_flag"}).status_code == 200
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
        assert post(client, gid, tok["white"], {"type": "claim_flag"}).status_code == 200


def test_a_correct_claim_is_accepted_after_the_limit(db_url: str) -> None:
    limits = Limits(None, None, None, None, claims_per_game=2)
    with _client(db_url, limits) as client:
        g = create(client, time_control="600", arbiter="absent", edition="1997")
        gid, tok = g["id"], g["tokens"]
        for _ in range(2):
            assert post(client, gid, tok["white"], {"type": "claim_flag"}).status_code == 200
        for i, m in enumerate(["Nf3", "Nf6", "Ng1", "Ng8"] * 2):
            assert post(client, gid, tok["white" if i % 2 == 0 else "black"], {"type": "move", "move": m}).status_code == 200
        r = post(client, gid, tok["white"], {"type": "claim_flag"})
        assert r.status_code == 409 and "12.5" in r.json()["error"] and "in this game" in r.json()["error"]
        r = post(client, gid, tok["white"], {"type": "claim_draw", "reason": "threefold"})
        assert r.status_code == 200 and r.json()["state"]["termination"] == "threefold_repetition"


def test_other_events_aside_are_limited_per_position(db_url: str) -> None:
    limits = Limits(None, None, None, None, events_aside_per_move=5)
    with _client(db_url, limits) as client:
        g = create(client, time_control="600", arbiter="absent", edition="1989")
        gid, tok = g["id"], g["tokens"]
        codes = [post(client, gid, tok["white"], {"type": "adjust", "square": "a2"}).status_code for _ in range(7)]
        assert codes == [200] * 5 + [409] * 2
        r = post(client, gid, tok["white"], {"type": "adjust", "square": "b2"})
        assert "15.1(d)" in r.json()["error"]
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200


def test_a_full_log_refuses_the_players_never_the_arbiter_who_decides_the_game(db_url: str) -> None:
    limits = Limits(None, None, None, None, max_events_per_game=6)
    with _client(db_url, limits) as client:
        g = create(client, time_control="600", edition="2023")
        gid, tok = g["id"], g["tokens"]
        for i, m in enumerate(["e4", "e5", "Nf3", "Nc6", "Bb5"]):
            assert post(client, gid, tok["white" if i % 2 == 0 else "black"], {"type": "move", "move": m}).status_code == 200
        r = post(client, gid, tok["black"], {"type": "move", "move": "a6"})
        assert r.status_code == 409 and "full" in r.json()["error"] and "arbiter" in r.json()["error"]
        assert post(client, gid, tok["black"], {"type": "offer_draw"}).status_code == 409
        # The move that filled the log was followed by the arbiter's stop_clocks; his events go on.
        for event in ({"type": "start_clocks"}, {"type": "stop_clocks"},
                      {"type": "penalty", "against": "white", "kind": "warning"}):
            r = post(client, gid, tok["arbiter"], event)
            assert r.status_code == 200, r.text
        r = post(client, gid, tok["arbiter"], {"type": "decision", "on": "adjudication", "ruling": "draw",
                                               "reason": "the log is full"})
        assert r.status_code == 200 and r.json()["state"]["status"] == "finished"
        assert r.json()["state"]["termination"] == "arbiter_decision"


def test_at_a_full_log_a_player_may_still_end_the_game(db_url: str) -> None:
    limits = Limits(None, None, None, None, max_events_per_game=3)
    with _client(db_url, limits) as client:
        g = create(client, time_control="600")
        gid, tok = g["id"], g["tokens"]
        for side, m in (("white", "e4"), ("black", "e5")):
            assert post(client, gid, tok[side], {"type": "move", "move": m}).status_code == 200
        assert post(client, gid, tok["white"], {"type": "move", "move": "Nf3"}).status_code == 409
        r = post(client, gid, tok["white"], {"type": "resign"})
        assert r.status_code == 200 and r.json()["state"]["result"] == "0-1"


# --- 3. no claim freezes the clocks where no arbiter can decide it --------------------------------


QUICKPLAY = [
    ("1997", "present", {}, "10.2"),
    ("1997", "absent", {}, "D.1"),
    ("2023", "present", {"quickplay_guidelines": True}, "III.5"),
    ("2023", "absent", {"quickplay_guidelines": True}, "III.6.1"),
]


@pytest.mark.parametrize(("edition", "arbiter", "extra", "article"), QUICKPLAY)
def test_a_quickplay_claim_no_arbiter_can_decide_is_refused_and_the_clocks_run_on(
        client: Any, edition: str, arbiter: str, extra: dict[str, Any], article: str) -> None:
    """1997 60+0 rapid, 2023 with Guidelines III: White e4, Black claims a quickplay-finish draw with
    nobody at the arbiter's console: refused, not logged, and Black's clock still runs."""
    g = create(client, edition=edition, time_control="60", mode="rapid", arbiter=arbiter, **extra)
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    r = post(client, gid, tok["black"], {"type": "claim_draw", "reason": "quickplay"})
    assert r.status_code == 409, r.text
    text = r.json()["error"]
    assert f"Article {article}" in text and "no arbiter is watching" in text and "Play on" in text
    assert ("concludes the game" in text) == (arbiter == "absent")
    st = client.get(f"/api/games/{gid}").json()
    assert st["seq"] == 2 and st["clocks"]["running"] == "black" and st["pending"] == []
    # Black's flag can still fall: White claims it, or the arbiter present sees it (not waited for here).
    assert post(client, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200


@pytest.mark.parametrize(("edition", "arbiter", "extra", "article"), QUICKPLAY)
def test_a_quickplay_claim_is_taken_while_the_arbiter_watches_and_he_decides_it(
        client: Any, edition: str, arbiter: str, extra: dict[str, Any], article: str) -> None:
    g = create(client, edition=edition, time_control="60", mode="rapid", arbiter=arbiter, **extra)
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['arbiter']}") as ws:
        ws.receive_json()
        ws.receive_json()
        r = post(client, gid, tok["black"], {"type": "claim_draw", "reason": "quickplay"})
        assert r.status_code == 200 and r.json()["state"]["clocks"]["running"] is None
        msg = ws.receive_json()
        while msg["kind"] != "alert":
            msg = ws.receive_json()
        assert msg["what"] == "decide" and msg["by"] == "black" and f"Article {article}" in msg["text"]
        r = post(client, gid, tok["arbiter"], {"type": "decision", "on": "quickplay", "ruling": "draw"})
        assert r.status_code == 200 and r.json()["state"]["result"] == "1/2-1/2"


def test_a_request_for_an_increment_no_arbiter_can_decide_is_refused(client: Any) -> None:
    g = create(client, edition="2023", time_control="90", mode="standard", quickplay_guidelines=True)
    gid, tok = g["id"], g["tokens"]
    r = post(client, gid, tok["white"], {"type": "request_increment"})
    assert r.status_code == 409 and "III.4" in r.json()["error"] and "no arbiter is watching" in r.json()["error"]


def test_a_full_log_stops_the_clocks_so_that_nobody_loses_on_time_for_it(db_url: str) -> None:
    """The move that fills the log is followed by the arbiter's stop_clocks (in his reserved room):
    Black, who can no longer move, does not lose on time; the arbiter decides the game."""
    limits = Limits(None, None, None, None, max_events_per_game=3)
    with _client(db_url, limits) as client:
        g = create(client, time_control="2", edition="1997")
        gid, tok = g["id"], g["tokens"]
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
        r = post(client, gid, tok["black"], {"type": "move", "move": "e5"})
        assert r.status_code == 200 and r.json()["state"]["clocks"]["running"] is None
        from test_api import log_lines
        last = log_lines(client, gid, tok["arbiter"])[-1]
        assert last["type"] == "stop_clocks" and "log is full" in last["reason"]
        assert post(client, gid, tok["white"], {"type": "move", "move": "Nf3"}).status_code == 409
        import time
        time.sleep(2.2)  # longer than White's whole clock: the flag falls only on a running clock
        st = client.get(f"/api/games/{gid}").json()
        assert st["status"] == "ongoing" and st["clocks"]["running"] is None

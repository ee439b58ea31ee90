"""The game's rules under attack: every event type a player may send counts against a limit,
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

    from chesslaws.webapp import create_app

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
    """Each of these kinds, sent by the player not on move, counts against the budget of one position (5
    here) and of the game (7): unlimited, one player could fill the log with it alone."""
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


# --- 5. a claim waiting for the arbiter when his console closes -------------------------------------


def _until(what: str, check: Any, seconds: float = 30.0) -> Any:
    """Polls ``check`` until it returns something true (a state awaited, not a time): fails after ``seconds``."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never came: {what}")


@pytest.mark.parametrize(("edition", "arbiter", "extra"), [
    ("1997", "present", {}), ("2023", "present", {"quickplay_guidelines": True}),
    ("2023", "absent", {"quickplay_guidelines": True})])
def test_a_quickplay_claim_pending_when_the_console_closes_lapses_and_the_clocks_run(
        db_url: str, edition: str, arbiter: str, extra: dict[str, Any]) -> None:
    """Black claims (1997 10.2, 2023 III.5 / III.6.1) while the arbiter's console is open; it closes without a
    decision: after the grace (0 here) the claim lapses as one made without him would have been refused,
    Black's clock runs again, and nobody received time."""
    from test_api import log_lines

    with _client(db_url, Limits(None, None, None, None)) as client:
        client.app.state.hub.claim_grace = 0.0
        g = create(client, edition=edition, time_control="60", mode="rapid", arbiter=arbiter, **extra)
        gid, tok = g["id"], g["tokens"]
        assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['arbiter']}") as ws:
            ws.receive_json()
            r = post(client, gid, tok["black"], {"type": "claim_draw", "reason": "quickplay"})
            assert r.status_code == 200 and r.json()["state"]["clocks"]["running"] is None
            stopped = r.json()["state"]["clocks"]
        st = _until("the claim lapsed", lambda: (lambda s: s if s["clocks"]["running"] == "black" else None)(
            client.get(f"/api/games/{gid}").json()))
        assert st["status"] == "ongoing" and st["pending"] == []
        assert st["clocks"]["white_ms"] == stopped["white_ms"]  # nobody received time
        last = log_lines(client, gid, tok["arbiter"])[-1]
        assert last["type"] == "decision" and last["ruling"] == "lapse" and last["on"] == "quickplay"
        assert post(client, gid, tok["black"], {"type": "move", "move": "e5"}).status_code == 200


def test_a_claim_pending_when_the_consoles_process_dies_lapses_on_the_players_process(
        pg_url: str, server_factory: Any) -> None:
    """The arbiter's console on A, the players on B; Black claims through B; A dies (SIGKILL: no NOTIFY that
    the console closed). B, no longer reminded of the console (3 ARBITER_BEAT), lets the claim lapse after
    the grace: Black's clock runs again."""
    import contextlib
    import json
    import time

    import httpx
    import websockets.sync.client as wsc

    from test_api import auth

    a = server_factory(pg_url, extra=("--no-rate-limits",))
    b = server_factory(pg_url, extra=("--no-rate-limits",))
    g = httpx.post(f"{b.url}/api/games", json={"white": "W", "black": "B", "time_control": "60", "mode": "rapid",
                                                 "edition": "1997", "when_ready": False}).json()
    gid, tok = g["id"], g["tokens"]

    def send(base: str, seat: str, event: dict[str, Any]) -> httpx.Response:
        return httpx.post(f"{base}/api/games/{gid}/events", json=event, headers=auth(tok[seat]), timeout=10)

    assert send(b.url, "white", {"type": "move", "move": "e4"}).status_code == 200
    with contextlib.ExitStack() as stack:
        arbiter = stack.enter_context(
            wsc.connect(a.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={tok['arbiter']}"))
        stack.push(lambda *exc: True)  # (closing the socket of a killed server fails: nothing to say)
        assert json.loads(arbiter.recv(5))["kind"] == "hello"
        _until("B knows the arbiter watches",
               lambda: httpx.get(f"{b.url}/api/games/{gid}").json()["arbiter_watching"])
        r = send(b.url, "black", {"type": "claim_draw", "reason": "quickplay"})
        assert r.status_code == 200 and r.json()["state"]["clocks"]["running"] is None, r.text
        a.kill()
    started = time.monotonic()
    st = _until("the claim lapsed on B", lambda: (lambda s: s if s["clocks"]["running"] == "black" else None)(
        httpx.get(f"{b.url}/api/games/{gid}").json()), seconds=60)
    assert st["pending"] == [] and st["status"] == "ongoing", st
    assert time.monotonic() - started >= 5  # not before the grace
    assert send(b.url, "black", {"type": "move", "move": "e5"}).status_code == 200


# --- 4. the creator of an open-seat game is not secretly its arbiter ---------------------------------


def test_an_open_seat_games_creator_gets_no_arbiter_link_unless_he_asks_and_the_joiner_accepts(db_url: str) -> None:
    """The lobby's creator of an open-seat game holds no arbiter's link unless he asks (with it, once a
    stranger took Black, set_clocks black_ms=1 would win him the game on time); if he asks, the state says
    so and a join without the acknowledgement is refused."""
    from test_api import auth

    with _client(db_url, Limits(None, None, None, None)) as client:
        r = client.post("/api/games", json={"white": "Creator", "time_control": "600", "when_ready": False})
        assert r.status_code == 201, r.text
        g = r.json()
        assert set(g["tokens"]) == {"white"} and "arbiter" not in g["links"]
        assert g["state"]["arbiter_is_a_player"] is False
        joined = client.post(f"/api/games/{g['id']}/join", json={"seat": "black", "name": "Stranger"})
        assert joined.status_code == 200, joined.text
        r = post(client, g["id"], g["tokens"]["white"], {"type": "set_clocks", "white_ms": 600000, "black_ms": 1})
        assert r.status_code == 403
        # Named seats: the creator holds the arbiter's link.
        both = client.post("/api/games", json={"white": "A", "black": "B", "time_control": "600"}).json()
        assert set(both["tokens"]) == {"white", "black", "arbiter"} and not both["state"]["arbiter_is_a_player"]
        # Asked for explicitly: said in the state, and the join needs the acknowledgement.
        g = client.post("/api/games", json={"white": "Creator", "time_control": "600", "when_ready": False,
                                            "arbiter_link": True}).json()
        assert set(g["tokens"]) == {"white", "arbiter"}
        gid = g["id"]
        assert client.get(f"/api/games/{gid}").json()["arbiter_is_a_player"] is True
        r = client.post(f"/api/games/{gid}/join", json={"seat": "black", "name": "Stranger"})
        assert r.status_code == 409 and "arbiter_is_a_player" in r.json()["error"]
        assert client.get(f"/api/games/{gid}").json()["seats_open"] == ["black"]
        r = client.post(f"/api/games/{gid}/join", json={"seat": "black", "name": "Stranger",
                                                       "arbiter_is_a_player": True})
        assert r.status_code == 200, r.text
        r = client.post(f"/api/games/{gid}/events", json={"type": "set_clocks", "white_ms": 1, "black_ms": 1},
                        headers=auth(g["tokens"]["arbiter"]))
        assert r.status_code == 200  # he is the arbiter, as the joiner was told


def test_a_full_log_in_a_game_without_an_arbiter_ends_it_drawn_by_adjudication(db_url: str) -> None:
    """A lobby game with a seat open has no arbiter's token: when its players together fill the log, nobody
    could decide it; it is adjudicated drawn at once (the arbiter acting in the best interest of the
    competition, 2023 12.2.2) rather than frozen with its clocks stopped for good."""
    limits = Limits(None, None, None, None, max_events_per_game=5)
    with _client(db_url, limits) as client:
        g = client.post("/api/games", json={"white": "A", "time_control": "600", "when_ready": False}).json()
        gid = g["id"]
        black = client.post(f"/api/games/{gid}/join", json={"seat": "black", "name": "B"}).json()["token"]
        tok = {"white": g["tokens"]["white"], "black": black}
        for i, m in enumerate(["Nf3", "Nf6", "Ng1"]):
            r = post(client, gid, tok["white" if i % 2 == 0 else "black"], {"type": "move", "move": m})
            assert r.status_code == 200, r.text
        r = post(client, gid, tok["black"], {"type": "move", "move": "Ng8"})  # the fifth event: the log is full
        assert r.status_code == 200, r.text
        st = client.get(f"/api/games/{gid}").json()
        assert st["status"] == "finished" and st["result"] == "1/2-1/2" and st["termination"] == "arbiter_decision"
        assert "12.2.2" in st["rulings"][-1]["article"] and "log is full" in st["rulings"][-1]["text"]


def test_a_rematch_has_no_arbiters_token_that_nobody_holds(client: Any) -> None:
    """A rematch's online game has no arbiter's token (one made and given to nobody would leave a full log
    waiting for him for good): its full log ends it (test above)."""
    g = create(client, time_control="600")
    assert post(client, g["id"], g["tokens"]["white"], {"type": "resign"}).status_code == 200
    r = client.post(f"/api/games/{g['id']}/rematch", headers={"Authorization": f"Bearer {g['tokens']['white']}"})
    assert r.status_code in (200, 201), r.text
    new = client.app.state.hub.games[r.json()["id"]]
    assert new.token_hashes.get("arbiter") is None and new.token_hashes.get("white")

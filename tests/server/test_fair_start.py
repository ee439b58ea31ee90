"""The fair start of online games and the controls block of the state, over the API."""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest


def create(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("white", "Anna")
    body.setdefault("black", "Boris")
    body.setdefault("when_ready", False)  # an immediate start, asked for (the fair start is the default)
    body.setdefault("presence", False)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def state_when(client: Any, gid: str, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The game's state once ``ok`` holds for it, asked again until it does (10 s at most)."""
    deadline = time.monotonic() + 10
    while True:
        state = dict(client.get(f"/api/games/{gid}").json())
        if ok(state):
            return state
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {state}"
        time.sleep(0.05)


def move(client: Any, g: dict[str, Any], side: str, text: str) -> Any:
    return client.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": text},
                       headers={"Authorization": f"Bearer {g['tokens'][side]}"})


def test_clocks_start_when_both_players_have_opened_the_game(make_client: Callable[[], Any]) -> None:
    client = make_client()
    g = create(client, time_control="60", when_ready=True)
    assert g["state"]["waiting_for"] == ["white", "black"] and not g["state"]["started"]
    r = move(client, g, "white", "e4")
    assert r.status_code == 409 and "both players" in r.json()["error"]
    time.sleep(0.3)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}") as ws_w:
        ws_w.receive_json()  # hello
        ws_w.receive_json()  # state
        state = client.get(f"/api/games/{g['id']}").json()
        assert state["waiting_for"] == ["black"] and state["clocks"]["white_ms"] == 60_000
        with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['black']}"):
            state = state_when(client, g["id"], lambda s: s["waiting_for"] == [], "Black's arrival")
            assert state["started"]
            assert 59_000 < state["clocks"]["white_ms"] <= 60_000  # it runs from now, not from the creation
            assert move(client, g, "white", "e4").status_code == 200
    # A server restart keeps the start: t=0 was stored.
    client.__exit__(None, None, None)
    again = make_client()
    assert again.get(f"/api/games/{g['id']}").json()["moves"][0]["san"] == "e4"


def test_a_waiting_game_still_waits_after_a_restart(make_client: Callable[[], Any]) -> None:
    first = make_client()
    g = create(first, time_control="60", when_ready=True, black=None)
    first.__exit__(None, None, None)
    state = make_client().get(f"/api/games/{g['id']}").json()
    assert state["waiting_for"] == ["white", "black"] and state["clocks"]["white_ms"] == 60_000


def test_no_first_move_aborts_the_game_without_a_result(make_client: Callable[[], Any]) -> None:
    client = make_client()
    g = create(client, time_control="600", abort_after=5)
    assert g["state"]["abort_at"] == 5
    deadline = time.monotonic() + 9
    state = g["state"]
    while time.monotonic() < deadline and state["status"] == "ongoing":
        time.sleep(0.25)
        state = client.get(f"/api/games/{g['id']}").json()
    assert state["status"] == "annulled" and state["result"] == "*" and state["aborted"]
    assert state["abort"] == {"side": "white", "after": 5}  # why, for the page to say in its language
    log = client.get(f"/api/games/{g['id']}/log").text
    last = log.strip().splitlines()[-1]
    assert '"annul"' in last and '"aborted: White made no first move within 5 s"' in last
    assert move(client, g, "white", "e4").status_code == 409


def test_a_first_move_in_time_prevents_the_abort(make_client: Callable[[], Any]) -> None:
    client = make_client()
    g = create(client, time_control="600", abort_after=5)
    assert move(client, g, "white", "e4").status_code == 200
    state = client.get(f"/api/games/{g['id']}").json()
    assert state["abort_at"] is not None and state["abort_at"] > 5  # now Black's first move is awaited
    assert move(client, g, "black", "e5").status_code == 200
    assert client.get(f"/api/games/{g['id']}").json()["abort_at"] is None


def test_over_the_board_games_keep_the_laws_start(make_client: Callable[[], Any]) -> None:
    g = create(make_client(), time_control="60", interface="otb", when_ready=True, abort_after=5)
    assert g["state"]["waiting_for"] == [] and g["state"]["abort_at"] is None and g["state"]["started"]


@pytest.mark.parametrize(("edition", "tc", "expect"), [
    ("2023", "5400", "your opponent receives 2 minutes on the clock (Article 9.5.3)"),
    ("2023", "600", "your opponent receives 1 minute on the clock (Article 9.5.3)"),
    ("1997", "5400", "at most 3 minutes, is deducted from your clock and your opponent receives 3 minutes (Article 9.5(b))"),
    ("1989", "5400", "5 minutes are added to the time you have used"),
])
def test_the_claim_texts_come_from_the_edition(client: Any, edition: str, tc: str, expect: str) -> None:
    c = create(client, edition=edition, time_control=tc)["state"]["controls"]
    assert expect in c["threefold"]["confirm"] and expect in c["fifty"]["confirm"]


def test_controls_only_where_the_game_allows_them(client: Any) -> None:
    blitz = create(client, edition="2023", time_control="180+2")["state"]["controls"]
    assert blitz["flag"] is None and blitz["seal"] is None and blitz["quickplay"] is None
    no_arbiter = create(client, edition="2023", time_control="180", arbiter="absent")["state"]["controls"]
    assert no_arbiter["flag"] is not None and "6.9" in no_arbiter["flag"]["confirm"]
    classical = create(client, edition="1997", time_control="40/7200:3600")["state"]["controls"]
    assert classical["seal"] is not None and classical["quickplay"] is not None
    assert classical["quickplay"]["article"] == "10.2"
    g = create(client, edition="2023", time_control="5400", quickplay_guidelines=True)
    de = client.get(f"/api/games/{g['id']}?lang=de").json()["controls"]
    assert de["lang"] == "de" and "erhält Ihr Gegner 2 Minuten" in de["threefold"]["confirm"]
    assert de["quickplay"]["article"] == "III.5"
    # Sealing is the player having the move writing it down: 1997 A.1, 2023 Guidelines I.1.1.
    assert classical["seal"]["article"] == "A.1" and de["seal"]["article"] == "I.1.1"


def test_a_scheduled_start_counts_who_is_there_and_applies_the_default_time(make_client: Callable[[], Any]) -> None:
    """Article 6.7: White opens the game before the scheduled start and arrives at t=0; Black never comes and
    loses when the announced default time (3 s here) has passed."""
    client = make_client()
    g = create(client, time_control="600", edition="2023", start_in=1.5, presence=True, default_time=3)
    assert g["state"]["absent"] == ["black", "white"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}") as ws:
        ws.receive_json()
        ws.receive_json()
        deadline = time.monotonic() + 10
        state = g["state"]
        while time.monotonic() < deadline and state["status"] == "ongoing":
            time.sleep(0.25)
            state = client.get(f"/api/games/{g['id']}").json()
    log = [line for line in client.get(f"/api/games/{g['id']}/log").text.splitlines() if line]
    assert '"arrive"' in log[1] and '"t":0' in log[1].replace(" ", "") and '"by":"white"' in log[1].replace(" ", "")
    assert (state["result"], state["termination"]) == ("1-0", "late_arrival")
    assert "6.7.1" in state["rulings"][-1]["article"]


def test_a_player_who_comes_after_the_start_arrives_then(make_client: Callable[[], Any]) -> None:
    client = make_client()
    g = create(client, time_control="600", edition="1997", start_in=0.5, presence=True)  # 1997: one hour
    time.sleep(1.0)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['black']}") as ws:
        ws.receive_json()
        ws.receive_json()
        state = state_when(client, g["id"], lambda s: "black" not in s["absent"], "Black's arrival")
    assert state["absent"] == ["white"] and state["status"] == "ongoing"
    log = client.get(f"/api/games/{g['id']}/log").text.splitlines()
    assert '"arrive"' in log[-1] and '"black"' in log[-1]


def test_qr_code_of_a_link_and_a_clear_error_for_too_much_text(client: Any) -> None:
    r = client.post("/api/qr", json={"text": "http://127.0.0.1:8000/game/abc#token=xyz"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
    r = client.post("/api/qr", json={"text": "\u20ac" * 1000})
    assert r.status_code == 422 and "too long" in r.json()["error"]


def test_an_interruption_restarts_the_time_for_the_first_move(client: Any) -> None:
    g = create(client, time_control="600", abort_after=5)
    for kind in ("stop_clocks", "start_clocks"):
        r = client.post(f"/api/games/{g['id']}/events", json={"type": kind},
                        headers={"Authorization": f"Bearer {g['tokens']['arbiter']}"})
        assert r.status_code == 200, r.text
    state = client.get(f"/api/games/{g['id']}").json()
    assert state["abort_at"] == pytest.approx(state["server_t"] + 5, abs=0.5)


@pytest.mark.parametrize("start", [{"when_ready": True}, {"start_in": 600}])
def test_the_arbiter_annuls_a_game_that_has_not_begun(make_client: Callable[[], Any], start: dict[str, Any]) -> None:
    """A game waiting for its players (or for its scheduled start) can be called off by the arbiter:
    the annulment is recorded at t=0, no player may move, and it stays so after a restart."""
    client = make_client()
    g = create(client, time_control="600", **start)
    r = client.post(f"/api/games/{g['id']}/events", json={"type": "annul", "reason": "pairing error"},
                    headers={"Authorization": f"Bearer {g['tokens']['arbiter']}"})
    assert r.status_code == 200, r.text
    state = client.get(f"/api/games/{g['id']}").json()
    assert state["status"] == "annulled" and state["waiting_for"] == []
    assert move(client, g, "white", "e4").status_code == 409
    log = client.get(f"/api/games/{g['id']}/log").text.splitlines()
    assert '"annul"' in log[-1] and '"t": 0' in log[-1]
    # A player cannot call the game off.
    h = create(client, time_control="600", **start)
    r = client.post(f"/api/games/{h['id']}/events", json={"type": "annul"},
                    headers={"Authorization": f"Bearer {h['tokens']['white']}"})
    assert r.status_code == 403
    client.__exit__(None, None, None)
    again = make_client().get(f"/api/games/{g['id']}").json()
    assert again["status"] == "annulled" and again["waiting_for"] == []


def test_the_quickplay_claim_needs_the_move_only_in_2023(client: Any) -> None:
    """1997 10.2 lets "the player" claim on either clock; 2023 III.5 only "the player having the
    move": the page enables the button accordingly."""
    old = create(client, edition="1997", time_control="40/7200:3600")["state"]["controls"]
    new = create(client, edition="2023", time_control="5400", quickplay_guidelines=True)["state"]["controls"]
    assert old["quickplay"]["needs_move"] is False and new["quickplay"]["needs_move"] is True


@pytest.mark.parametrize("edition, tc, mode, expect, absent", [
    ("2023", "5400", None, {"observed_illegal": "7.5.1", "illegal_move_penalty": "7.5.5", "next_period": "8.6",
                            "set_clocks": "6.10.2", "penalty_warning": "12.9.1", "penalty_add_time": "12.9.2",
                            "penalty_reduce_time": "12.9.3", "quickplay_postpone": "III.5.2",
                            "quickplay_reject": "III.5.3", "signed_result": "8.7"}, ["set_clocks_limit"]),
    ("1997", "1800", "rapid", {"observed_illegal": "B.5"}, []),
    ("1997", "40/7200:3600", None, {"observed_illegal": "7.4", "next_period": "8.6", "set_clocks": "6.13",
                                    "penalty_add_time": "13.4(b)", "penalty_reduce_time": "13.4(c)",
                                    "quickplay_postpone": "10.2(b)", "quickplay": "10.2"},
     ["illegal_move_penalty", "quickplay_reject", "set_clocks_limit", "signed_result"]),
    ("1997", "300", "blitz", {"observed_illegal": "C.3"}, []),
    ("1989", "40/9000:3600", None, {"observed_illegal": "8.1", "next_period": "11.9", "set_clocks": "12.4",
                                    "set_clocks_limit": "12.4", "penalty_add_time": "16.5",
                                    "penalty_reduce_time": "16.5"}, ["quickplay", "illegal_move_penalty", "signed_result"]),
])
def test_the_articles_the_arbiters_console_cites_come_from_the_edition(
        client: Any, edition: str, tc: str, mode: str | None, expect: dict[str, str], absent: list[str]) -> None:
    """The console asks before an illegal move observed, the next period, the clocks set, a penalty, a quickplay
    claim postponed or rejected, citing these (2023 12.9.2 and 12.9.3, 1997 13.4(b) and (c), 1989 16.5; an
    edition without the rule has no entry, never another edition's)."""
    body: dict[str, Any] = {"edition": edition, "time_control": tc}
    if mode:
        body["mode"] = mode
    c = create(client, **body)["state"]["controls"]
    arts = c["articles"]
    assert {k: arts.get(k) for k in expect} == expect
    assert [k for k in absent if k in arts] == []
    assert c["observe_illegal_acts"] is (expect["observed_illegal"] not in ("B.5", "C.3"))
    if c["quickplay"] is not None:
        assert c["quickplay"]["postpone_gives_ms"] == 120_000
        assert c["quickplay"]["reject_gives_ms"] == (120_000 if edition == "2023" else 0)


# --- the fair start is the default of every online game created over the API -----------------------------


def plain(client: Any, **body: Any) -> dict[str, Any]:
    """A game created over the API with only what a bot or a club front-end would send: no start flags."""
    r = client.post("/api/games", json={"white": "Anna", "black": "Boris", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def later(client: Any, seconds: float) -> None:
    """The server's clock moves on by ``seconds`` (the hub's time, not a sleep)."""
    client.app.state.hub.clock.wall0 += seconds


def state_of(client: Any, g: dict[str, Any]) -> dict[str, Any]:
    return dict(client.get(f"/api/games/{g['id']}").json())


def test_an_api_game_waits_for_both_players_by_default(make_client: Callable[[], Any]) -> None:
    """Without when_ready, an online game's clocks do not run until both players have opened it (before:
    they ran from creation, 4 s later with nobody there White had 56 s of 60); then they start."""
    client = make_client()
    g = plain(client, time_control="60")
    assert g["state"]["waiting_for"] == ["white", "black"] and not g["state"]["started"]
    later(client, 30)
    state = state_of(client, g)
    assert state["waiting_for"] == ["white", "black"] and state["clocks"]["white_ms"] == 60_000
    assert move(client, g, "white", "e4").status_code == 409
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}") as ws_w:
        ws_w.receive_json()  # hello
        ws_w.receive_json()  # state
        later(client, 30)
        state = state_of(client, g)
        assert state["waiting_for"] == ["black"] and state["clocks"]["white_ms"] == 60_000
        with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['black']}") as ws_b:
            ws_b.receive_json()  # hello
            state = state_of(client, g)
            assert state["waiting_for"] == [] and state["started"]
            later(client, 4)
            state = state_of(client, g)
            assert 55_000 < state["clocks"]["white_ms"] <= 56_000  # it runs now, from both players' arrival
            assert move(client, g, "white", "e4").status_code == 200
    # The rule was stored: a game created the same way still waits after a restart.
    h = plain(client, time_control="60")
    client.__exit__(None, None, None)
    again = make_client()
    later(again, 30)
    state = state_of(again, h)
    assert state["waiting_for"] == ["white", "black"] and state["clocks"]["white_ms"] == 60_000
    assert state_of(again, g)["moves"][0]["san"] == "e4"


def test_an_open_seat_game_waits_until_the_seat_is_taken_and_opened(client: Any) -> None:
    g = plain(client, time_control="60", black=None)
    assert g["state"]["waiting_for"] == ["white", "black"]
    joined = client.post(f"/api/games/{g['id']}/join", json={"seat": "black", "name": "Boris"}).json()
    later(client, 10)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['white']}") as ws_w:
        ws_w.receive_json()
        assert state_of(client, g)["waiting_for"] == ["black"]
        with client.websocket_connect(f"/api/games/{g['id']}/ws?token={joined['token']}") as ws_b:
            ws_b.receive_json()
            state = state_of(client, g)
            assert state["started"] and 59_000 < state["clocks"]["white_ms"] <= 60_000  # not the 10 s before


def test_a_scheduled_api_game_counts_presence_by_default(make_client: Callable[[], Any]) -> None:
    """With start_in and no flags, the players are absent until they open the game and the edition's
    default time decides (1997: one hour): Black, who opens it after the start, arrives then."""
    client = make_client()
    g = plain(client, time_control="600", edition="1997", start_in=600)
    assert g["state"]["absent"] == ["black", "white"] and g["state"]["waiting_for"] == []
    assert '"absent"' in client.get(f"/api/games/{g['id']}/log").text.splitlines()[0]
    later(client, 605)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['black']}") as ws:
        ws.receive_json()  # hello
        ws.receive_json()  # state
        state = state_of(client, g)
    assert state["started"] and state["absent"] == ["white"] and state["status"] == "ongoing"
    last = client.get(f"/api/games/{g['id']}/log").text.splitlines()[-1].replace(" ", "")
    assert '"arrive"' in last and '"by":"black"' in last
    # Asked for explicitly, a scheduled start without presence: nobody counts as absent.
    old = plain(client, time_control="600", edition="1997", start_in=600, presence=False, when_ready=False)
    assert old["state"]["absent"] == [] and old["state"]["waiting_for"] == []


def test_when_ready_false_asks_for_the_old_start(make_client: Callable[[], Any]) -> None:
    """The clocks run from creation, with nobody there, only when the client asks for it."""
    client = make_client()
    g = plain(client, time_control="60", when_ready=False)
    assert g["state"]["waiting_for"] == [] and g["state"]["started"] and g["state"]["absent"] == []
    later(client, 4)
    assert 55_000 < state_of(client, g)["clocks"]["white_ms"] <= 56_000
    assert move(client, g, "white", "e4").status_code == 200


def test_over_the_board_games_keep_the_laws_start_by_default(make_client: Callable[[], Any]) -> None:
    """No fair start over the board: the game starts at creation (or its start_in) and the arbiter enters
    its events at once; nobody is waited for or counted absent."""
    client = make_client()
    g = plain(client, time_control="60", interface="otb")
    assert g["state"]["waiting_for"] == [] and g["state"]["started"] and g["state"]["absent"] == []
    r = client.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": "e4", "by": "white"},
                    headers={"Authorization": f"Bearer {g['tokens']['arbiter']}"})
    assert r.status_code == 200, r.text
    scheduled = plain(client, time_control="60", interface="otb", start_in=600)
    assert scheduled["state"]["absent"] == [] and scheduled["state"]["waiting_for"] == []
    assert '"absent"' not in client.get(f"/api/games/{scheduled['id']}/log").text

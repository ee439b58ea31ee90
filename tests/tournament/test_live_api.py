"""Live tournaments through the API, on both stores: every ending reaches the standings by itself (a flag
fall the arbiter observes, the default time, an annulment then an entered result), rounds whose clocks
start when the arbiter starts them, the players' own links, the limits, a SIGKILL of the server and a
database outage."""

from __future__ import annotations

import time
from typing import Any, Callable
from urllib.parse import urlparse

import httpx
import pytest

from chesslaws.server.guard import Limits


def token_of(link: str) -> str:
    return urlparse(link).fragment.split("token=", 1)[1]


def until(fn: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Waits for a state (``fn`` returns something true), asking again as soon as it answered."""
    end = time.monotonic() + timeout
    while True:
        got = fn()
        if got:
            return got
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


#: An immediate start, asked for explicitly (the clocks run from pairing): these tests play at once.
NOW = {"start": "now"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(c: Any, n: int = 4, **regs: Any) -> tuple[str, str]:
    body = {"name": "Club Blitz", "system": "swiss", "rounds": 2, "time_control": "2+0", "edition": "2023",
            "players": [{"name": f"P{i}", "rating": 2000 - 10 * i} for i in range(1, n + 1)], **regs}
    r = c.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["arbiter_token"]


def move(c: Any, link: str, san: str) -> None:
    gid = urlparse(link).path.rsplit("/", 1)[1]
    r = c.post(f"/api/games/{gid}/events", json={"type": "move", "move": san}, headers=bearer(token_of(link)))
    assert r.status_code == 200, r.text


def mate(c: Any, board: dict[str, Any]) -> None:
    for i, san in enumerate(["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]):
        move(c, board["white" if i % 2 == 0 else "black"]["link"], san)


def board_result(c: Any, tid: str, rnd: int, table: int) -> Any:
    t = c.get(f"/api/tournaments/{tid}").json()
    return next(b for b in t["rounds"][rnd - 1]["boards"] if b["table"] == table)["result"]


def test_a_flag_fall_reaches_the_standings_and_the_next_round_pairs(make_client: Callable[[], Any]) -> None:
    """A game lost on time (the arbiter present observes it, no event is written) gives its board a result,
    so the next round is paired (a board left without one would refuse it: 409)."""
    c = make_client()
    tid, tok = create(c)
    r = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok))
    assert r.status_code == 201, r.text
    b1, b2 = r.json()["boards"]
    mate(c, b2)
    move(c, b1["white"]["link"], "e4")  # Black never moves: Black's flag falls after 2 s
    gid = b1["game_id"]
    until(lambda: c.get(f"/api/games/{gid}").json()["status"] == "finished", "the flag fall")
    # The tournament has its result without anyone entering it (the watcher), and the next round pairs.
    until(lambda: board_result(c, tid, 1, 1) == "1-0", "the result in the standings")
    t = c.get(f"/api/tournaments/{tid}").json()
    b = t["rounds"][0]["boards"][0]
    assert (b["result"], b["termination"]) == ("1-0", "time_forfeit")
    assert c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).status_code == 201
    # Entering a result over a game that ended on the server is refused: the game gives its own.
    r = c.post(f"/api/tournaments/{tid}/rounds/1/boards/1/result", json={"result": "0-1"}, headers=bearer(tok))
    assert r.status_code == 409, r.text


def test_a_held_round_starts_when_the_arbiter_starts_it_and_the_default_time_forfeits(
        make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1, time_control="30+0", default_time=1)
    r = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok))
    assert r.status_code == 201, r.text
    (b,) = r.json()["boards"]
    gid = b["game_id"]
    state = c.get(f"/api/games/{gid}").json()
    assert state["held"] and not state["started"] and state["clocks"]["white_ms"] == 30000
    # Nothing runs before the arbiter starts the round: a move is refused, whatever the time.
    r = c.post(f"/api/games/{gid}/events", json={"type": "move", "move": "e4"}, headers=bearer(token_of(b["white"]["link"])))
    assert r.status_code == 409 and "arbiter starts the round" in r.json()["error"]
    console = c.get(f"/api/tournaments/{tid}/console", headers=bearer(tok)).json()
    assert console["counts"]["held"] == 1
    assert console["boards"][0]["white"]["link"] == b["white"]["link"]  # the console shows every seat link
    # White opens the game before the start (present at t=0); Black never comes.
    with c.websocket_connect(f"/api/games/{gid}/ws?token={token_of(b['white']['link'])}") as ws:
        assert ws.receive_json()["kind"] == "hello"
        r = c.post(f"/api/tournaments/{tid}/rounds/1/start", json={}, headers=bearer(tok))
        assert r.status_code == 200 and r.json()["started"] == 1, r.text
        until(lambda: c.get(f"/api/games/{gid}").json()["started"], "the start")
        assert c.get(f"/api/games/{gid}").json()["absent"] == ["black"]
        move(c, b["white"]["link"], "e4")
        # Black's default time (1 s) passes: Black loses by default, a forfeit in the event's record.
        until(lambda: board_result(c, tid, 1, 1) == "+-", "the default-time forfeit")
    t = c.get(f"/api/tournaments/{tid}").json()
    assert t["rounds"][0]["boards"][0]["termination"] == "late_arrival"
    assert t["finished"]
    # The player's own page: the game's link, and the result.
    pages = {p["start_number"]: p["page"] for p in console["players"]}
    white_sn = b["white"]["start_number"]
    mine = c.get(f"/api/tournaments/{tid}/players/{white_sn}", headers=bearer(token_of(pages[white_sn]))).json()
    assert mine["games"][0]["link"] == b["white"]["link"] and mine["games"][0]["result"] == "+-"
    other = 3 - white_sn
    assert c.get(f"/api/tournaments/{tid}/players/{other}",
                 headers=bearer(token_of(pages[white_sn]))).status_code == 403


def test_a_round_paired_without_asking_starts_fairly_and_the_old_start_only_when_asked(
        make_client: Callable[[], Any]) -> None:
    """POST .../rounds defaults to a fair start like the API's games: the clocks wait for the arbiter's
    start (or a scheduled one), not the pairing; {"start": "now"} starts them at pairing."""
    c = make_client()
    pair_round = c.get("/openapi.json").json()["components"]["schemas"]["PairRound"]["properties"]
    assert pair_round["start"]["default"] == "held" and "only when asked for" in pair_round["start"]["description"]
    tid, tok = create(c, n=4, system="round-robin", time_control="30+0")

    def finish(rnd: int, boards: list[dict[str, Any]]) -> None:
        for b in boards:  # annulled by each game's arbiter, the board's result entered
            r = c.post(f"/api/games/{b['game_id']}/events", json={"type": "annul"}, headers=bearer(token_of(b["arbiter"])))
            assert r.status_code == 200, r.text
            assert c.post(f"/api/tournaments/{tid}/rounds/{rnd}/boards/{b['table']}/result",
                          json={"result": "1/2-1/2"}, headers=bearer(tok)).status_code == 200

    r = c.post(f"/api/tournaments/{tid}/rounds", headers=bearer(tok))  # no body at all
    assert r.status_code == 201 and r.json()["held"], r.text
    b = r.json()["boards"][0]
    state = c.get(f"/api/games/{b['game_id']}").json()
    assert state["held"] and not state["started"] and sorted(state["absent"]) == ["black", "white"]
    r2 = c.post(f"/api/games/{b['game_id']}/events", json={"type": "move", "move": "e4"},
                headers=bearer(token_of(b["white"]["link"])))
    assert r2.status_code == 409 and "arbiter starts the round" in r2.json()["error"]
    finish(1, r.json()["boards"])
    # A scheduled start: held until start_in passes, then running by itself, nobody starting it.
    assert c.post(f"/api/tournaments/{tid}/rounds", json={"start": "now", "start_in": 5},
                  headers=bearer(tok)).status_code == 422
    r = c.post(f"/api/tournaments/{tid}/rounds", json={"start_in": 0.5}, headers=bearer(tok))
    assert r.status_code == 201 and not r.json()["held"] and r.json()["starts_at"] is not None, r.text
    gid = r.json()["boards"][0]["game_id"]
    state = c.get(f"/api/games/{gid}").json()
    assert not state["held"] and not state["started"] and sorted(state["absent"]) == ["black", "white"]
    until(lambda: c.get(f"/api/games/{gid}").json()["started"], "the scheduled start")
    finish(2, r.json()["boards"])
    # An immediate start, asked for: the clocks run from pairing, nobody waited for.
    r = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok))
    assert r.status_code == 201 and not r.json()["held"], r.text
    state = c.get(f"/api/games/{r.json()['boards'][0]['game_id']}").json()
    assert state["started"] and not state["held"] and state["absent"] == []


def test_an_annulled_game_takes_the_result_the_arbiter_enters(make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1, time_control="300+0")
    (b,) = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    gid = b["game_id"]
    r = c.post(f"/api/tournaments/{tid}/rounds/1/boards/1/result", json={"result": "1-0"}, headers=bearer(tok))
    assert r.status_code == 409  # in play
    r = c.post(f"/api/games/{gid}/events", json={"type": "annul", "reason": "wrong colours"},
               headers=bearer(token_of(b["arbiter"])))
    assert r.status_code == 200, r.text
    r = c.post(f"/api/tournaments/{tid}/rounds/1/boards/1/result", json={"result": "1/2-1/2"}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    assert board_result(c, tid, 1, 1) == "1/2-1/2"


def test_events_are_listed_a_page_at_a_time_and_players_register_and_withdraw(
        make_client: Callable[[], Any]) -> None:
    c = make_client()
    ids = [create(c, n=2)[0] for _ in range(3)]
    first = c.get("/api/tournaments?limit=2").json()
    assert [t["id"] for t in first] == ids[::-1][:2]
    rest = c.get(f"/api/tournaments?limit=2&before={first[-1]['id']}").json()
    assert [t["id"] for t in rest] == [ids[0]]
    assert c.get("/api/tournaments?before=nosuch").status_code == 404
    tid, tok = create(c, n=2)
    assert c.post(f"/api/tournaments/{tid}/players", json={"name": "Late"}).status_code == 403
    r = c.post(f"/api/tournaments/{tid}/players", json={"name": "Late", "rating": 1500}, headers=bearer(tok))
    assert r.status_code == 201 and r.json()["start_number"] == 3
    r = c.post(f"/api/tournaments/{tid}/players/3/withdraw", json={}, headers=bearer(tok))
    assert r.status_code == 200 and r.json()["players"][2]["withdrawn_from"] == 1
    r = c.post(f"/api/tournaments/{tid}/rounds", headers=bearer(tok)).json()
    assert len(r["boards"]) == 1 and not r["byes"]  # the withdrawn player is not paired


def test_numbers_of_the_regulations_are_bounded() -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    with TestClient(create_app(":memory:")) as c:
        for bad in ({"default_time": 1e308}, {"default_time": 86401}, {"rounds": 100}):
            r = c.post("/api/tournaments", json={"name": "X", **bad})
            assert r.status_code == 422, (bad, r.text)


def test_standard_points_are_chosen_with_the_2026_rules() -> None:
    """An event created through the API with STD among its tie-breaks: refused under the 2023 rules (422 naming
    the rules that have it), taken with tiebreak_rules 2026; a 3-1-0 round's win counts 1 and loss 0 in STD."""
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tournaments", json={"name": "X", "tiebreaks": ["STD", "BH"]})
        assert r.status_code == 422 and "STD (Standard points) is a tie-break of the 2026 C.07 rules" in r.text
        tid, tok = create(c, n=2, rounds=1, scoring="3-1-0", tiebreaks=["STD", "BH"], tiebreak_rules="2026")
        assert c.get(f"/api/tournaments/{tid}").json()["regulations"]["tiebreak_rules"] == "2026"
        r = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok))
        assert r.status_code == 201, r.text
        mate(c, r.json()["boards"][0])  # White mates: 1-0

        def decided() -> Any:
            rows = c.get(f"/api/tournaments/{tid}").json()["standings"]
            return rows if rows[0]["points"] else None

        rows = until(decided, "the result in the standings")
        assert [(s["points"], s["tiebreaks"]["STD"]) for s in rows] == [(3, 1), (0, 0)]


def test_creating_events_and_rounds_is_rate_limited(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app

    limits = Limits(tournaments_per_address="3/minute", rounds_per_address="2/minute",
                    round_games_per_address="3/minute")
    with TestClient(create_app(str(tmp_path / "g.sqlite3"), limits=limits)) as c:
        made = [create(c, n=2, rounds=5) for _ in range(3)]
        r = c.post("/api/tournaments", json={"name": "One too many"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert c.post(f"/api/tournaments/{made[0][0]}/rounds", headers=bearer(made[0][1])).status_code == 201
        assert c.post(f"/api/tournaments/{made[1][0]}/rounds", headers=bearer(made[1][1])).status_code == 201
        r = c.post(f"/api/tournaments/{made[2][0]}/rounds", headers=bearer(made[2][1]))
        assert r.status_code == 429, r.text
        assert c.get(f"/api/tournaments/{made[2][0]}").json()["rounds"] == []  # no game made


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_between_a_flag_fall_and_the_next_pairing(backend: str, tmp_path: Any, request: Any,
                                                         server_factory: Any) -> None:
    db = str(tmp_path / "g.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    s = server_factory(db, extra=("--no-rate-limits",))
    c = httpx.Client(base_url=s.url, timeout=10)
    tid, tok = create(c)
    b1, b2 = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    mate(c, b2)
    move(c, b1["white"]["link"], "e4")
    gid = b1["game_id"]
    until(lambda: c.get(f"/api/games/{gid}").json()["status"] == "finished", "the flag fall")
    s.kill()  # SIGKILL
    s2 = server_factory(db, extra=("--no-rate-limits",))
    c = httpx.Client(base_url=s2.url, timeout=10)
    r = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok))
    assert r.status_code == 201, r.text
    t = c.get(f"/api/tournaments/{tid}").json()
    assert [(b["result"], b["termination"]) for b in t["rounds"][0]["boards"]] == \
        [("1-0", "time_forfeit"), ("1-0", "checkmate")]


def test_tournaments_answer_503_while_postgresql_is_down_and_work_when_it_is_back(pg_cluster: Any) -> None:
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED

    with TestClient(create_app(pg_cluster.url, limits=UNLIMITED)) as c:
        tid, tok = create(c, n=2, rounds=1, time_control="300+0")
        pg_cluster.stop()
        for _ in range(3):
            r = c.get(f"/api/tournaments/{tid}")
            assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1, r.text
        assert c.post("/api/tournaments", json={"name": "Down"}).status_code == 503
        pg_cluster.start()
        until(lambda: c.get(f"/api/tournaments/{tid}").status_code == 200, "the tournament store back")
        assert c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).status_code == 201
        assert c.get("/api/tournaments").status_code == 200


def test_a_flag_fall_reaches_the_standings_on_another_process_of_the_same_postgresql(pg_url: str) -> None:
    """Two server processes on one database: the games are played on the one, the event is read and paired
    on the other, which never had them in memory."""
    from fastapi.testclient import TestClient

    from chesslaws.webapp import create_app
    from chesslaws.server.guard import UNLIMITED

    with TestClient(create_app(pg_url, limits=UNLIMITED)) as one, TestClient(create_app(pg_url, limits=UNLIMITED)) as two:
        tid, tok = create(one)
        b1, b2 = one.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
        mate(one, b2)
        move(one, b1["white"]["link"], "e4")  # Black's flag falls 2 s later, on no process's event
        until(lambda: board_result(two, tid, 1, 1) == "1-0", "the flag fall seen on the other process")
        assert two.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).status_code == 201
        t = one.get(f"/api/tournaments/{tid}").json()
        assert [b["termination"] for b in t["rounds"][0]["boards"]] == ["time_forfeit", "checkmate"]
        assert len(t["rounds"]) == 2


def test_an_ending_is_written_into_the_event_with_nobody_reading_it(make_client: Callable[[], Any], db_url: str) -> None:
    """The hub tells the tournament of each change of its games: the result of a flag fall (no event) and
    of a resignation (an event) are in the stored event before anyone asks for it."""
    from chesslaws.store.tournaments import TournamentStore

    c = make_client()
    tid, tok = create(c)
    b1, b2 = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    move(c, b1["white"]["link"], "e4")  # Black's flag falls 2 s later
    r = c.post(f"/api/games/{b2['game_id']}/events", json={"type": "resign"}, headers=bearer(token_of(b2["white"]["link"])))
    assert r.status_code == 200, r.text
    with TournamentStore(db_url) as store:
        def stored() -> Any:
            return [(b.result, b.termination) for b in store.load(tid).rounds[0].boards]

        until(lambda: stored() == [("1-0", "time_forfeit"), ("0-1", "resignation")], "the results written")


def test_a_round_started_for_a_later_instant_waits_for_it(make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1, time_control="60+0", default_time=30)
    (b,) = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok)).json()["boards"]
    gid = b["game_id"]
    with c.websocket_connect(f"/api/games/{gid}/ws?token={token_of(b['white']['link'])}") as ws, \
            c.websocket_connect(f"/api/games/{gid}/ws?token={token_of(b['black']['link'])}") as ws2:
        assert ws.receive_json()["kind"] == "hello" and ws2.receive_json()["kind"] == "hello"
        r = c.post(f"/api/tournaments/{tid}/rounds/1/start", json={"in": 1.5}, headers=bearer(tok))
        assert r.status_code == 200 and r.json()["started"] == 1
        state = c.get(f"/api/games/{gid}").json()
        assert not state["started"] and not state["held"] and state["server_t"] < 0  # counting down
        until(lambda: c.get(f"/api/games/{gid}").json()["started"], "the scheduled start")
        # Both opened the game before the start: both are at the board from t=0.
        until(lambda: c.get(f"/api/games/{gid}").json()["absent"] == [], "both players at the board")
        move(c, b["white"]["link"], "e4")
        assert c.post(f"/api/tournaments/{tid}/rounds/1/start", json={}, headers=bearer(tok)).json()["started"] == 0


def test_an_arbiters_decision_reaches_the_standings(make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1, time_control="300+0")
    (b,) = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    move(c, b["white"]["link"], "e4")
    r = c.post(f"/api/games/{b['game_id']}/events", json={"type": "refuse_to_comply", "against": "black"},
               headers=bearer(token_of(b["arbiter"])))
    assert r.status_code == 200, r.text
    until(lambda: board_result(c, tid, 1, 1) == "1-0", "the arbiter's decision in the standings")
    t = c.get(f"/api/tournaments/{tid}").json()
    assert t["finished"] and t["rounds"][0]["boards"][0]["termination"] == "refusal_to_comply"


def test_a_requested_bye_is_granted_at_the_next_pairing_and_errors_are_named(make_client: Callable[[], Any]) -> None:
    """POST .../players/N/bye: the arbiter grants a half-point bye for round 1; the pairing leaves the player
    out; an unknown start number is a 404, a round already paired a 409 or 422, a stranger a 401/403."""
    c = make_client()
    tid, tok = create(c, n=5)
    assert c.post(f"/api/tournaments/{tid}/players/2/bye", json={"round": 1}).status_code in (401, 403)
    r = c.post(f"/api/tournaments/{tid}/players/9/bye", json={"round": 1}, headers=bearer(tok))
    assert r.status_code == 404, r.text
    r = c.post(f"/api/tournaments/{tid}/players/2/bye", json={"round": 1, "kind": "half"}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    r = c.post(f"/api/tournaments/{tid}/rounds", headers=bearer(tok))
    assert r.status_code == 201, r.text
    rnd = c.get(f"/api/tournaments/{tid}").json()["rounds"][0]
    assert {"player": 2, "kind": "half"}.items() <= next(y for y in rnd["byes"] if y["player"] == 2).items()
    assert len(rnd["boards"]) == 2 and all(2 not in (b["white"], b["black"]) for b in rnd["boards"])
    r = c.post(f"/api/tournaments/{tid}/players/3/bye", json={"round": 1}, headers=bearer(tok))
    assert r.status_code in (409, 422), r.text


def test_a_round_paired_while_another_process_changed_the_event_is_refused_and_keeps_its_change(
        make_client: Callable[[], Any], db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The event is saved whole, but never over a change it has not seen. Another process (here a
    store of its own on the same database) grants a bye while round 1 is being paired: the pairing is refused
    (409), none of its games is written (the round and its games are one transaction), the other's
    change stays, and pairing again makes the round."""
    import chesslaws.tournament.rounds as live_module
    from chesslaws.store.tournaments import TournamentStore

    c = make_client()
    tid, tok = create(c, n=4, system="round-robin", time_control="300+0")
    real = live_module.pair_next_round

    def pair_while_another_changes(t: Any, *args: Any) -> Any:
        with TournamentStore(db_url) as other:
            other.update(tid, lambda x: x.request_bye(2, 1, "half"))
        return real(t, *args)

    monkeypatch.setattr(live_module, "pair_next_round", pair_while_another_changes)
    r = c.post(f"/api/tournaments/{tid}/rounds", headers=bearer(tok))
    assert r.status_code == 409 and "changed while round 1" in r.json()["error"], r.text
    t = c.get(f"/api/tournaments/{tid}").json()
    assert t["rounds"] == []
    games = c.get("/api/games").json()
    assert games == []  # the refused round wrote no game (the round and its games commit together)
    monkeypatch.setattr(live_module, "pair_next_round", real)
    assert c.post(f"/api/tournaments/{tid}/rounds", headers=bearer(tok)).status_code == 201
    with TournamentStore(db_url) as store:
        assert store.load(tid).requested_byes == ((2, 1, "half"),) and len(store.load(tid).rounds) == 1


def test_the_console_shows_who_has_not_opened_the_game_before_the_round_starts(
        make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1, time_control="60+0", default_time=30)
    (b,) = c.post(f"/api/tournaments/{tid}/rounds", json={"start": "held"}, headers=bearer(tok)).json()["boards"]

    def game() -> Any:
        return c.get(f"/api/tournaments/{tid}/console", headers=bearer(tok)).json()["boards"][0]["game"]

    assert (game()["absent"], game()["present_early"]) == (["black", "white"], [])
    with c.websocket_connect(f"/api/games/{b['game_id']}/ws?token={token_of(b['white']['link'])}") as ws:
        assert ws.receive_json()["kind"] == "hello"
        # White has opened the game: only Black is absent, before the arbiter starts the round.
        until(lambda: game()["absent"] == ["black"], "White at the board before the start")
        console = c.get(f"/api/tournaments/{tid}/console", headers=bearer(tok)).json()
        assert console["boards"][0]["game"]["present_early"] == ["white"]
        assert console["counts"]["absent"] == 1 and console["boards"][0]["game"]["default_time_ms"] == 30000
        assert c.post(f"/api/tournaments/{tid}/rounds/1/start", json={}, headers=bearer(tok)).json()["started"] == 1
        until(lambda: game()["started"], "the start")
        assert game()["absent"] == ["black"]  # after t=0 the log says it: White arrived at t=0


def test_a_tournament_game_has_no_rematch(make_client: Callable[[], Any]) -> None:
    c = make_client()
    tid, tok = create(c, n=2, rounds=1)
    (b,) = c.post(f"/api/tournaments/{tid}/rounds", json=NOW, headers=bearer(tok)).json()["boards"]
    r = c.post(f"/api/games/{b['game_id']}/events", json={"type": "resign"}, headers=bearer(token_of(b["black"]["link"])))
    assert r.status_code == 200
    r = c.post(f"/api/games/{b['game_id']}/rematch", headers=bearer(token_of(b["white"]["link"])))
    assert r.status_code == 409 and "round 1 of Club Blitz" in r.json()["error"] and "pairings" in r.json()["error"]
    assert c.get(f"/api/games/{b['game_id']}/tournament").json() == {
        "id": tid, "name": "Club Blitz", "round": 1, "table": 1, "page": f"/tournament/{tid}"}

"""Crash safety: SIGKILL the server while moves stream in; after a restart every
acknowledged event is in the log, in order, and nothing else is there but, at
most, the one event per game whose request was in flight at the kill (committed,
not yet acknowledged: exactly as it was sent)."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any, Callable

import httpx
import pytest


GAMES = 4


def _player(base: str, game: dict[str, Any], acked: list[dict[str, Any]], inflight: list[dict[str, Any] | None],
            stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    tokens = game["tokens"]
    with httpx.Client(base_url=base, timeout=5) as http:
        state = game["state"]
        while not stop.is_set() and state["status"] == "ongoing" and state["legal_moves"]:
            move = rng.choice(state["legal_moves"])["uci"]
            side = state["turn"]
            event = {"type": "move", "move": move}
            inflight[0] = {**event, "by": side}
            try:
                r = http.post(f"/api/games/{game['id']}/events", json=event,
                              headers={"Authorization": f"Bearer {tokens[side]}"})
            except httpx.HTTPError:
                return  # the server died under this request: it stays "in flight"
            assert r.status_code == 200, r.text
            ack = r.json()
            acked.append(ack["event"])
            inflight[0] = None
            state = ack["state"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_sigkill_mid_stream_loses_no_acknowledged_event(backend: str, tmp_path: Any,
                                                        request: pytest.FixtureRequest,
                                                        server_factory: Callable[..., Any]) -> None:
    db = str(tmp_path / "crash.sqlite3") if backend == "sqlite" else str(request.getfixturevalue("pg_url"))
    server = server_factory(db, extra=("--no-rate-limits",))  # moves as fast as HTTP goes
    games = []
    with httpx.Client(base_url=server.url, timeout=5) as http:
        for i in range(GAMES):
            r = http.post("/api/games", json={"white": f"W{i}", "black": f"B{i}", "time_control": "-",
                                                  "when_ready": False})
            assert r.status_code == 201
            games.append(r.json())
    acked: list[list[dict[str, Any]]] = [[] for _ in games]
    inflight: list[list[dict[str, Any] | None]] = [[None] for _ in games]
    stop = threading.Event()
    threads = [threading.Thread(target=_player, args=(server.url, g, acked[i], inflight[i], stop, i), daemon=True)
               for i, g in enumerate(games)]
    for t in threads:
        t.start()
    # Kill it while the moves stream in.
    deadline = time.monotonic() + 10
    while sum(len(a) for a in acked) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()
    stop.set()
    for t in threads:
        t.join(10)
    assert sum(len(a) for a in acked) >= 20, "the stream did not get going"
    restarted = server_factory(db, port=None, extra=("--no-rate-limits",))
    with httpx.Client(base_url=restarted.url, timeout=5) as http:
        for g, got, pending in zip(games, acked, inflight):
            lines = http.get(f"/api/games/{g['id']}/log").text.splitlines()
            events = [json.loads(x) for x in lines[1:]]
            assert events[: len(got)] == got, "an acknowledged event is missing or changed"
            extra = events[len(got):]
            assert len(extra) <= 1, f"events that were never sent: {extra}"
            if extra:
                assert pending[0] is not None
                assert {k: extra[0][k] for k in ("type", "move", "by")} == pending[0]
            # The rebuilt game goes on from where the log ends.
            state = http.get(f"/api/games/{g['id']}").json()
            assert state["seq"] == len(lines) and state["ply"] == len(events)
            if state["status"] == "ongoing":
                side = state["turn"]
                r = http.post(f"/api/games/{g['id']}/events", json={"type": "move", "move": state["legal_moves"][0]["uci"]},
                              headers={"Authorization": f"Bearer {g['tokens'][side]}"})
                assert r.status_code == 200 and r.json()["seq"] == len(lines)


def _freeze_heartbeat(db: str, frozen: bool) -> None:
    """Makes the store keep its heartbeat as it is (every later write of it skipped), or lets it move again:
    the server then dies, as far as its heartbeat tells, before anything that follows."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            if frozen:
                conn.execute("CREATE FUNCTION keep_row() RETURNS trigger AS $$ BEGIN RETURN NULL; END $$ "
                             "LANGUAGE plpgsql")
                conn.execute("CREATE TRIGGER frozen BEFORE UPDATE ON heartbeat FOR EACH ROW EXECUTE FUNCTION keep_row()")
            else:
                conn.execute("DROP TRIGGER frozen ON heartbeat")
        return
    import sqlite3

    conn = sqlite3.connect(db)
    with conn:
        conn.execute("CREATE TRIGGER frozen BEFORE UPDATE ON heartbeat BEGIN SELECT RAISE(IGNORE); END" if frozen
                     else "DROP TRIGGER frozen")
    conn.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_loss_on_time_shown_survives_a_sigkill_whatever_the_heartbeat(
        backend: str, tmp_path: Any, request: pytest.FixtureRequest, server_factory: Callable[..., Any]) -> None:
    """A flag fall the arbiter present saw is written into the game's log (the arbiter's `observe`)
    before the result is shown. The server's last heartbeat is from before the game began (frozen: the
    worst case of a SIGKILL right after the result was shown), so the restart gives back every second since:
    only the log can keep the loss on time, and it does."""
    db = str(tmp_path / "flag.sqlite3") if backend == "sqlite" else str(request.getfixturevalue("pg_url"))
    server = server_factory(db, extra=("--no-rate-limits",))
    _freeze_heartbeat(db, True)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        g = http.post("/api/games", json={"white": "W", "black": "B", "time_control": "2",
                                         "when_ready": False}).json()  # White's 2 s run from creation
        deadline = time.monotonic() + 20
        while (st := http.get(f"/api/games/{g['id']}").json())["status"] != "finished":
            assert time.monotonic() < deadline, "the flag fall was not seen"
            time.sleep(0.02)
        assert (st["result"], st["termination"]) == ("0-1", "time_forfeit")
    server.kill()  # SIGKILL, right after the result was shown
    _freeze_heartbeat(db, False)
    again = server_factory(db, extra=("--no-rate-limits",))
    with httpx.Client(base_url=again.url, timeout=10) as http:
        st = http.get(f"/api/games/{g['id']}").json()
        assert (st["status"], st["result"], st["termination"]) == ("finished", "0-1", "time_forfeit")
        assert st["clocks"]["white_ms"] == 0 and st["rulings"][-1]["t"] == 2
        lines = [json.loads(x) for x in http.get(f"/api/games/{g['id']}/log").text.splitlines()]
        assert [(ln["type"], ln.get("what")) for ln in lines] == [("start", None), ("observe", "flag")]

"""What the cheaper path of a move must not change."""

from __future__ import annotations

import time
from typing import Any

from test_api import create, post


def test_a_move_after_an_observed_flag_fall_meets_the_fallen_flag_not_the_legality_check(client: Any) -> None:
    """The server checks a move's legality on the game as it stands at the move's instant only when
    something can have happened by itself by then (flags.due); here the flag has fallen, with no event
    written, so an illegal move is answered by the game's end (409), not as an illegal move (422)."""
    g = create(client, time_control="2", edition="2023")
    gid, tok = g["id"], g["tokens"]
    assert post(client, gid, tok["white"], {"type": "move", "move": "e4"}).status_code == 200
    assert post(client, gid, tok["black"], {"type": "move", "move": "Qh4"}).status_code == 422  # illegal in time
    time.sleep(2.3)  # Black's two seconds run out
    r = post(client, gid, tok["black"], {"type": "move", "move": "Qh4"})
    assert r.status_code == 409, r.text
    state = client.get(f"/api/games/{gid}").json()
    assert state["status"] == "finished" and state["termination"] == "time_forfeit" and state["result"] == "1-0"


def test_messages_are_compact_json_whatever_they_hold() -> None:
    """orjson encodes the messages; what it cannot (an integer beyond 64 bits) the standard library does,
    in the same compact form, so that an acknowledgement can still carry its state (views.with_state)."""
    import json

    from chesslaws.server.views import STATE_HEAD, state_text, with_state
    from chesslaws.store.rows import dumps

    for state in ({"ply": 3, "name": "Ä"}, {"ply": 10**30}):
        msg = dumps({"kind": "state", "state": state})
        assert msg.startswith(STATE_HEAD) and json.loads(msg)["state"] == state
        both = json.loads(with_state({"kind": "ack", "rid": 1, "seq": 2}, msg))
        assert both == {"kind": "ack", "rid": 1, "seq": 2, "state": state}
        # The legal moves, written as JSON by the core, are spliced in as the state's last key.
        legal = '[{"uci":"e2e4","san":"e4"},{"uci":"e1g1","san":"O-O+"}]'
        spliced = state_text(state, legal)
        assert spliced.startswith(STATE_HEAD)
        assert json.loads(spliced) == {"kind": "state", "state": {**state, "legal_moves": json.loads(legal)}}
        assert json.loads(state_text(state, "[]"))["state"]["legal_moves"] == []


def test_the_clocks_at_an_instant_without_the_state_at_that_instant_are_the_states() -> None:
    """A view shows the clocks at the server's instant. When nothing happens by itself by then
    (flags.due is false), the hub runs the running side's time on from the state's own clocks
    (views.clocks_at) instead of building the state at that instant; both must agree, in every kind of
    time control (increments, simple and Bronstein delays, moves per period), whoever runs, before and
    after a flag falls that nobody observes (no arbiter), and with the clocks stopped."""
    import random

    from chesslaws.game import Game
    from chesslaws.game.flags import due
    from chesslaws.server.views import clocks_at

    rng = random.Random(27)
    checked = stopped = fallen = 0
    for tc in ("40/5400+30:1800+30", "60d5", "60b5", "30+2d3", "3/20:10", "-", "5"):
        for arbiter in ("present", "absent"):
            game = Game.start(edition="2023", time_control=tc, arbiter=arbiter)
            t_ms = 0
            for _ in range(60):
                st = game.state
                if not st.ongoing:
                    break
                for _ in range(4):  # instants after the last event, some beyond a flag
                    ms = st.t_ms + rng.choice((1, 7, 999, 2_500, 5_000, 61_000, 4_000_000))
                    if due(st, ms):
                        continue
                    clocks = st.to_json()["clocks"]
                    clocks_at(clocks, st, ms)
                    assert clocks == game.at(ms / 1000).to_json()["clocks"], (tc, arbiter, ms)
                    checked += 1
                    stopped += st.clock.running is None
                    fallen += 0 in (clocks["white_ms"], clocks["black_ms"])
                t_ms = st.t_ms + rng.choice((0, 3, 1_200, 4_900, 5_100, 9_000))
                moves = st.position.legal_moves()
                if not moves:
                    break
                event = {"type": "move", "t": t_ms / 1000, "by": st.turn, "move": rng.choice(moves)}
                if rng.random() < 0.05:
                    event = {"type": "stop_clocks", "t": t_ms / 1000, "by": "arbiter"}
                elif st.clock.running is None and st.clock.paused is not None:
                    event = {"type": "start_clocks", "t": t_ms / 1000, "by": "arbiter"}
                try:
                    game = game.apply(event)
                except Exception:  # noqa: BLE001 - an event this game refuses (a flag fell): the next one
                    break
    assert checked > 500 and stopped > 10 and fallen > 20, (checked, stopped, fallen)

"""What the cheaper path of a move (issue 15) must not change."""

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
    in the same compact form, so that an acknowledgement can still carry its state (hub._with_state)."""
    import json

    from chesslaws.server.hub import _STATE_HEAD, _with_state
    from chesslaws.server.store import dumps

    for state in ({"ply": 3, "name": "Ä"}, {"ply": 10**30}):
        msg = dumps({"kind": "state", "state": state})
        assert msg.startswith(_STATE_HEAD) and json.loads(msg)["state"] == state
        both = json.loads(_with_state({"kind": "ack", "rid": 1, "seq": 2}, msg))
        assert both == {"kind": "ack", "rid": 1, "seq": 2, "state": state}

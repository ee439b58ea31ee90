"""Through the API, what the log says beyond the moves: the regulations and the set-up a game is created
with (start fields), and the acts at the board each sent by the seat that may send it (a claim that a legal
move was illegal, a wrong set-up claimed, a claim during an adjournment, leaving the playing area, the
arbiter's reconstruction, clock setting and proportional times, a claim relying on a display)."""

from __future__ import annotations

import json
from typing import Any

from chesslaws.game import Game
from test_api import auth, create, log_lines, post

KQ_SWAPPED = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1"  # White's king on d1, queen on e1


def play(client: Any, gid: str, tok: dict[str, str], sans: list[str]) -> None:
    for i, san in enumerate(sans):
        r = post(client, gid, tok["white" if i % 2 == 0 else "black"], {"type": "move", "move": san})
        assert r.status_code == 200, r.text


def rulings(client: Any, gid: str, tok: str) -> list[dict[str, Any]]:
    """The rulings of the game, as its arbiter reads them (the last event's ruling last)."""
    r = client.get(f"/api/games/{gid}/log", headers=auth(tok))
    assert r.status_code == 200
    game = Game.from_events(json.loads(line) for line in r.text.splitlines() if line.strip())
    return [ru.to_json() for ru in game.state.rulings]


def state(client: Any, gid: str) -> dict[str, Any]:
    return dict(client.get(f"/api/games/{gid}").json())


def test_a_regulation_refusing_a_draw_before_move_30(client: Any) -> None:
    """The event's regulations (2023 9.1.1): no draw before move 30 without the arbiter's consent. The
    start carries the field and the state shows it; an offer stands; its acceptance is refused while no
    arbiter watches (nobody could consent, the clocks would stand still), and with his console open it
    waits for his decision."""
    g = create(client, time_control="5400", edition="2023", no_draw_before_move=30)
    gid, tok = g["id"], g["tokens"]
    assert log_lines(client, gid)[0]["no_draw_before_move"] == 30
    assert g["state"]["regulations"] == {"no_draw_before_move": 30}
    play(client, gid, tok, ["e4", "e5"])
    assert post(client, gid, tok["white"], {"type": "offer_draw"}).status_code == 200
    assert rulings(client, gid, tok["arbiter"])[-1]["article"] == "9.1.1"
    refused = post(client, gid, tok["black"], {"type": "accept_draw"})
    assert refused.status_code == 409 and "9.1.1" in refused.json()["error"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok['arbiter']}"):
        assert post(client, gid, tok["black"], {"type": "accept_draw"}).status_code == 200
        st = state(client, gid)
        assert st["status"] == "ongoing" and st["clocks"]["running"] is None
        r = post(client, gid, tok["arbiter"], {"type": "decision", "on": "agreement", "ruling": "reject"})
        assert r.status_code == 200, r.text
    st = state(client, gid)
    assert st["status"] == "ongoing" and st["clocks"]["running"] == "white"
    # No regulation: the same acceptance ends the game.
    free = create(client, time_control="5400", edition="2023")
    play(client, free["id"], free["tokens"], ["e4", "e5"])
    post(client, free["id"], free["tokens"]["white"], {"type": "offer_draw"})
    assert post(client, free["id"], free["tokens"]["black"], {"type": "accept_draw"}).status_code == 200
    assert state(client, free["id"])["result"] == "1/2-1/2"


def test_the_regulation_fields_are_checked(client: Any) -> None:
    for bad in ({"no_draw_before_move": 0}, {"no_draw_offers": "perhaps"}, {"setup": "not a position"}):
        r = client.post("/api/games", json={"white": "A", "black": "B", **bad})
        assert r.status_code == 422, (bad, r.text)
    g = create(client, time_control="600", report_leaving=True, increment_possible=False, no_draw_offers=True)
    assert g["state"]["regulations"] == {"no_draw_offers": True, "report_leaving": True, "increment_possible": False}


def test_an_incorrect_illegal_move_claim_is_rejected(client: Any) -> None:
    """Black claims that White's legal 2.Bc4 was illegal: the claim is recorded and rejected (2023 11.5), the
    game goes on; a claim naming another move than the last one is refused, not recorded."""
    g = create(client, time_control="5400", edition="2023", arbiter="absent")
    gid, tok = g["id"], g["tokens"]
    play(client, gid, tok, ["e4", "e5", "Bc4"])
    r = post(client, gid, tok["black"], {"type": "claim_win", "reason": "illegal_move", "move": "Bc4"})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["status"] == "ongoing" and r.json()["state"]["ply"] == 3
    last = rulings(client, gid, tok["arbiter"])[-1]
    assert last["article"] == "11.5" and "rejected" in last["text"]
    wrong = post(client, gid, tok["black"], {"type": "claim_win", "reason": "illegal_move", "move": "Nf3"})
    assert wrong.status_code == 422 and "last move is Bc4" in wrong.json()["error"]


def test_a_wrong_set_up_claimed(client: Any) -> None:
    """Created with the position actually on the board (White's king and queen swapped): the game is played
    from it, White without castling; Black's claim after ten moves each in a standard game annuls it (7.2.1)."""
    g = create(client, time_control="5400", edition="2023", setup=KQ_SWAPPED)
    gid, tok = g["id"], g["tokens"]
    assert log_lines(client, gid)[0]["setup"] == KQ_SWAPPED
    assert g["state"]["fen"].split()[:3] == ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR", "w", "kq"]
    play(client, gid, tok, ["Nf3", "Nf6", "Ng1", "Ng8"])
    r = post(client, gid, tok["black"], {"type": "claim_setup", "what": "initial_position"})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["status"] == "annulled"
    assert rulings(client, gid, tok["arbiter"])[-1]["article"] == "7.2.1"


def test_a_claim_during_the_adjournment(client: Any) -> None:
    """Black seals; White claims Black's flag before the resumption: the clocks show it had not fallen, the
    game stays adjourned (and the sealed move stays hidden from the players)."""
    g = create(client, time_control="40/7200", edition="1997", arbiter="absent")
    gid, tok = g["id"], g["tokens"]
    play(client, gid, tok, ["e4"])
    assert post(client, gid, tok["black"], {"type": "seal", "move": "e5"}).status_code == 200
    r = post(client, gid, tok["white"], {"type": "claim_flag"})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["status"] == "adjourned"
    assert "had not" in rulings(client, gid, tok["arbiter"])[-1]["text"]
    assert "e5" not in client.get(f"/api/games/{gid}/log", headers=auth(tok["white"])).text


def test_each_act_from_the_seat_that_may_send_it(client: Any) -> None:
    g = create(client, time_control="5400", edition="2023", report_leaving=True)
    gid, tok = g["id"], g["tokens"]
    play(client, gid, tok, ["e4"])
    # A player leaves the playing area: his own act; the arbiter may not send it online.
    assert post(client, gid, tok["arbiter"], {"type": "leave_area", "by": "white"}).status_code == 403
    assert post(client, gid, tok["white"], {"type": "leave_area"}).status_code == 200
    assert rulings(client, gid, tok["arbiter"])[-1]["article"] == "11.2.4"
    # A claim relying only on a display: not admitted (6.12.2).
    r = post(client, gid, tok["black"], {"type": "claim_flag", "relying_on": "display"})
    assert r.status_code == 200 and rulings(client, gid, tok["arbiter"])[-1]["article"] == "6.12.2"
    # The arbiter's procedures: a player's token may not send them.
    assert post(client, gid, tok["white"], {"type": "reconstruct"}).status_code == 403
    r = post(client, gid, tok["arbiter"], {"type": "reconstruct", "reason": "scoresheets incomplete"})
    assert r.status_code == 200 and r.json()["state"]["clocks"]["running"] is None
    assert post(client, gid, tok["arbiter"], {"type": "start_clocks"}).status_code == 200
    r = post(client, gid, tok["arbiter"], {"type": "set_clocks", "white_ms": 3_000_000, "black_ms": 3_000_000,
                                           "setting": True})
    assert r.status_code == 200, r.text
    r = post(client, gid, tok["arbiter"], {"type": "reinstate", "ply": 0, "proportional": True})
    assert r.status_code == 200, r.text
    assert rulings(client, gid, tok["arbiter"])[-1]["article"] == "7.1"
    both = post(client, gid, tok["arbiter"], {"type": "reinstate", "ply": 0, "proportional": True, "white_ms": 1})
    assert both.status_code == 422


def test_the_openapi_description_has_every_new_field(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    body = spec["paths"]["/api/games/{game_id}/events"]["post"]["requestBody"]["content"]["application/json"]
    event = body["schema"]["properties"]
    for name in ("move", "relying_on", "setting", "schedule", "proportional", "reported", "permission"):
        assert name in event, name
    kinds = event["type"]["enum"]
    assert {"leave_area", "reconstruct", "claim_setup", "claim_win", "set_clocks", "reinstate"} <= set(kinds)
    created = schemas["CreateGame"]["properties"]
    for name in ("setup", "no_draw_offers", "no_draw_before_move", "report_leaving", "increment_possible"):
        assert name in created, name
    assert "no_draw_before_move" in schemas["NewTournament"]["properties"]

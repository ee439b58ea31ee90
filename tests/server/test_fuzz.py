"""Fuzzing both transports on both stores (hypothesis): events built from the arbiter's own schemas
with values of every kind, and raw bytes. Whatever arrives: never a server error, the WebSocket stays
open and answers every message, and every log the server stored can still be replayed on restart."""

from __future__ import annotations

import json
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesslaws.events import SCHEMAS

from test_api import create

FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Text with what breaks servers: lone surrogates, controls, bidi and format characters, beside letters.
_bad_chars = st.sampled_from(["\ud800", "\udfff", "\udc80", "\u0000", "\u001b", "\u202e", "\u2066", "\u200f",
                              "\u0085", "\ufeff", "\uffff"])
_nasty = st.one_of(st.text(alphabet=st.characters(categories=("Cc", "Cf", "Lu", "Ll", "Nd", "Po")), max_size=8),
                   _bad_chars, st.tuples(_bad_chars, st.text(max_size=3)).map("".join))
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**25), max_value=10**25),
    st.floats(allow_nan=False, allow_infinity=False), _nasty, _nasty.map(lambda t: "e4" + t),
    st.sampled_from(["e4", "e2e4", "Nf3", "O-O", "a8Q", "e1g1", "white", "black", "both", "arbiter", "draw",
                     "reject", "threefold", "fifty", "quickplay", "loss", "add_time", "e4", "h9", "\u202e",
                     "\u0000", "\ud800", "Sc6", "Kxe8"]),
)
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=6), inner, max_size=3), max_leaves=6)
_field_names = sorted({name for sc in SCHEMAS.values() for name in (*sc.required, *sc.optional)}
                      | {"by", "t", "rid", "zzz"})


_chess = st.sampled_from(["e4", "e2e4", "Nf3", "O-O", "a8Q", "e1g1", "e5", "d5", "h9", "Sc6", "Kxe8", "white",
                          "black", "both", "draw", "reject", "threefold", "fifty", "quickplay", "loss",
                          "add_time", "warning", "clocks", "board", "e2", "g1"])
_strings = st.one_of(_chess, _nasty, st.tuples(_chess, _nasty).map("".join))
# Moves and claims first: they reach the arbiter deepest.
_kinds = ["move"] * 6 + ["claim_draw"] * 2 + sorted(SCHEMAS)


@st.composite
def events(draw: Callable[..., Any]) -> dict[str, Any]:
    kind = draw(st.sampled_from(_kinds))
    schema = SCHEMAS[kind]
    out: dict[str, Any] = {"type": kind}
    for name, spec in (*schema.required.items(), *schema.optional.items()):
        if not draw(st.integers(0, 4)):
            continue  # mostly present
        kinds = spec if isinstance(spec, tuple) else (spec,)
        if draw(st.integers(0, 5)) == 0:
            out[name] = draw(_values)  # anything at all
        elif str in kinds:
            out[name] = draw(_strings)
        else:
            out[name] = draw(_scalars)
    for name in draw(st.lists(st.sampled_from(_field_names), max_size=1)):
        out[name] = draw(_values)
    return out


def _restart_replays_everything(make_client: Callable[[], Any], first: Any) -> None:
    first.__exit__(None, None, None)
    again = make_client()
    assert not again.app.state.hub.set_aside, "a log the server accepted cannot be replayed"


def test_fuzzed_events_over_http(make_client: Callable[[], Any]) -> None:
    client = make_client()
    games = [create(client, time_control="600", interface=i) for i in ("online", "otb")]
    seats = ["white", "black", "arbiter", None]

    @FUZZ
    @given(event=events(), game=st.sampled_from(games), seat=st.sampled_from(seats), to_move=st.booleans())
    def run(event: dict[str, Any], game: dict[str, Any], seat: str | None, to_move: bool) -> None:
        if to_move:  # half the time, the player whose turn it is: the events that go deepest
            seat = client.get(f"/api/games/{game['id']}").json()["turn"]
        headers = {"Authorization": f"Bearer {game['tokens'][seat]}"} if seat else {}
        headers["content-type"] = "application/json"
        # json.dumps escapes everything to ASCII: a lone surrogate travels as "\ud800", as a client sends it.
        r = client.post(f"/api/games/{game['id']}/events", content=json.dumps(event), headers=headers)
        assert r.status_code < 500, r.text
        if r.status_code >= 400:
            assert set(r.json()) == {"error", "status"}

    run()
    _restart_replays_everything(make_client, client)


def test_fuzzed_bytes_over_http(make_client: Callable[[], Any]) -> None:
    client = make_client()
    g = create(client, time_control="600")

    @FUZZ
    @given(body=st.binary(max_size=300) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
           path=st.sampled_from(["/api/games", f"/api/games/{g['id']}/events", f"/api/games/{g['id']}/join"]))
    def run(body: bytes, path: str) -> None:
        r = client.post(path, content=body, headers={"Authorization": f"Bearer {g['tokens']['white']}",
                                                      "content-type": "application/json"})
        assert r.status_code < 500, r.text

    run()
    _restart_replays_everything(make_client, client)


def test_fuzzed_messages_over_the_websocket(make_client: Callable[[], Any]) -> None:
    client = make_client()
    g = create(client, time_control="600")
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['arbiter']}") as ws:
        assert ws.receive_json()["kind"] == "hello"

        @FUZZ
        @given(msg=st.one_of(
            events().map(lambda e: json.dumps({"rid": 1, "event": e})),
            st.text(max_size=200),
            st.binary(max_size=200),
        ))
        def run(msg: str | bytes) -> None:
            if isinstance(msg, bytes):
                ws.send_bytes(msg)
            else:
                ws.send_text(msg)
            while True:  # states may come first; then the answer to this message
                reply = ws.receive_json()
                if reply["kind"] in ("ack", "error"):
                    break
            assert reply["kind"] == "ack" or 400 <= reply["status"] < 500, reply

        run()
        ws.send_text('{"rid": "last", "event": {"type": "set_clocks", "white_ms": 1000, "black_ms": 1000}}')
        while (reply := ws.receive_json())["kind"] not in ("ack", "error"):
            pass
        assert reply["rid"] == "last"  # the socket is still open and answering
    _restart_replays_everything(make_client, client)

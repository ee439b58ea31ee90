"""The move message's fast path in ``strict_json`` reads exactly what the general parser reads,
and refuses nothing less: every text it accepts is a move message the general path accepts too."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesslaws.server import guard
from chesslaws.server.guard import Refused, strict_json

SPACE = st.text(alphabet=" \t\n\r", max_size=3)
MOVE = st.text(alphabet="abcdefghKQRBNOx12345678=+#-", min_size=1, max_size=12)


def general(text: str) -> object:
    """The general path alone (the fast path switched off)."""
    saved = guard._MOVE_MESSAGE
    guard._MOVE_MESSAGE = re.compile(r"(?!)")  # matches nothing
    try:
        return strict_json(text)
    finally:
        guard._MOVE_MESSAGE = saved


@settings(max_examples=300, deadline=None)
@given(st.lists(SPACE, min_size=17, max_size=17), st.integers(0, 10**15 - 1), MOVE)
def test_a_move_message_reads_the_same_on_both_paths(ws: list[str], rid: int, move: str) -> None:
    parts = ["{", '"rid"', ":", str(rid), ",", '"event"', ":", "{", '"type"', ":", '"move"', ",", '"move"', ":",
             json.dumps(move), "}", "}"]
    text = "".join(w + p for w, p in zip(["", *ws[1:]], parts))  # (space before the first brace: general path)
    assert guard._MOVE_MESSAGE.fullmatch(text)  # the fast path takes it
    assert strict_json(text) == general(text) == {"rid": rid, "event": {"type": "move", "move": move}}


@pytest.mark.parametrize("text", [
    '{"rid": 1, "event": {"type": "move", "move": "e2e4", "move": "e7e5"}}',  # a repeated key
    '{"rid": 1, "rid": 2, "event": {"type": "move", "move": "e2e4"}}',
    '{"rid": 1, "event": {"type": "move", "move": "e2\\u0000e4"}}',  # an escape: a control character
    '{"rid": 1, "event": {"type": "move", "move": "e2e4\u202e"}}',  # a bidirectional control
    '{"rid": 01, "event": {"type": "move", "move": "e2e4"}}',  # not JSON
    '{"rid": 1, "event": {"type": "move", "move": "e2e4"}',  # cut short
])
def test_what_the_fast_path_does_not_take_is_judged_by_the_general_parser(text: str) -> None:
    assert guard._MOVE_MESSAGE.fullmatch(text) is None
    with pytest.raises(Refused):
        strict_json(text)


def test_other_messages_take_the_general_path() -> None:
    text = '{"rid": "a", "event": {"type": "move", "move": "e4", "draw_offer": true}}'
    assert guard._MOVE_MESSAGE.fullmatch(text) is None
    assert strict_json(text) == json.loads(text)


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_controls_depend_on_the_configuration_alone(edition: str, lang: str) -> None:
    """A view keeps the controls block per configuration (Hub.view's config_cache): that is right only
    while ``controls`` reads nothing of the state but its configuration. A stand-in that has nothing
    else fails the moment it reads more."""
    from types import SimpleNamespace

    from chesslaws.game import Game
    from chesslaws.server.controls import controls

    for tc, extra in (("40/5400+30:1800+30", {}), ("300+2", {}), ("-", {}),
                      ("40/7200:1800", {"arbiter": "present"})):
        game = Game.from_start({"type": "start", "t": 0, "edition": edition, "time_control": tc, **extra})
        for mv in ("e4", "e5", "Nf3"):
            game = game.apply({"type": "move", "t": 1, "by": game.state.turn, "move": mv})
        assert controls(SimpleNamespace(config=game.state.config), lang) == controls(game.state, lang)  # type: ignore[arg-type]

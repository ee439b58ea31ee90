"""The Python API: Game.start / from_start / apply / at / state / to_json / from_events / replay.

An applied event returns a new game; the old one is untouched, also after a
failed apply; errors name the event and why it is not allowed now.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.events import EventError
from chesslaws.game import Game, GameError, LogError
from _arb import SHUFFLE, ev, game, moves, start

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_start_defaults() -> None:
    """Spec defaults: edition 2023, no clock, arbiter present, standard mode, initial position."""
    g = Game.start()
    st = g.state
    assert st.config.edition.name == "2023"
    assert st.config.arbiter_present is True
    assert st.config.mode == "standard"
    assert st.config.time_control.unlimited
    assert st.config.fifty_move_limit == 50
    assert st.config.default_time_ms == 0  # 2023 6.7.1: zero unless announced
    assert g.to_json() == {
        "status": "ongoing", "result": "*", "termination": None, "score": None, "fen": STARTPOS,
        "ply": 0, "turn": "white", "clocks": {"white_ms": None, "black_ms": None, "running": "white"},
        "pending": [], "rulings": [],
    }


def test_from_start_dict_defaults_match() -> None:
    assert Game.from_start({"type": "start", "t": 0}).to_json() == Game.start().to_json()


@pytest.mark.parametrize(("edition", "ms"), [("1989", 3600_000), ("1997", 3600_000), ("2023", 0)])
def test_default_time_per_edition(edition: str, ms: int) -> None:
    """1989 10.15 and 1997 6.6: one hour; 2023 6.7.1: zero unless the regulations say otherwise."""
    assert Game.start(edition=edition).state.config.default_time_ms == ms


def test_start_with_time_control_reads_well() -> None:
    g = Game.start(edition="1997", time_control="40/5400:1800+30")
    assert g.to_json()["clocks"] == {"white_ms": 5400_000, "black_ms": 5400_000, "running": "white"}
    assert g.state.config.mode == "standard"


def test_apply_returns_a_new_game_and_leaves_the_old_one() -> None:
    g0 = Game.start(edition="1997", time_control="5400")
    before = g0.to_json()
    g1 = g0.apply({"type": "move", "t": 10, "by": "white", "move": "e4"})
    assert g0.to_json() == before
    assert len(g0.events) == 1 and len(g1.events) == 2
    assert g1.to_json()["ply"] == 1
    assert g1.state.sans == ["e4"]
    assert g0.state.sans == []


def test_failed_apply_leaves_the_game_as_it_was() -> None:
    g = Game.start(edition="1997", time_control="5400").apply(ev("move", 10, "white", move="e4"))
    before = (g.to_json(), g.events, g.state)
    with pytest.raises(GameError):
        g.apply(ev("move", 20, "white", move="d4"))
    with pytest.raises(EventError):
        g.apply(ev("move", 20, "black"))
    assert (g.to_json(), g.events, g.state) == before
    # ...and it can go on from there.
    assert g.apply(ev("move", 20, "black", move="e5")).to_json()["ply"] == 2


def test_state_is_immutable() -> None:
    g = Game.start()
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.state.status = "finished"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.state = g.state  # type: ignore[misc]


def test_error_names_the_event_and_the_reason() -> None:
    g = Game.start().apply(ev("move", 10, "white", move="e4"))
    with pytest.raises(GameError) as err:
        g.apply(ev("move", 20, "white", move="d4"))
    assert "move at t=20" in str(err.value)
    assert "Black" in str(err.value)
    assert err.value.event is not None and err.value.event.t_ms == 20_000


def test_event_after_the_end_is_an_error_naming_it() -> None:
    g = game(start(), moves(["f3", "e5", "g4", "Qh4#"]))
    with pytest.raises(GameError, match=r"resign at t=50.*over"):
        g.apply(ev("resign", 50, "white"))


def test_event_with_t_going_back_is_an_error() -> None:
    g = Game.start().apply(ev("move", 10, "white", move="e4"))
    with pytest.raises(GameError, match=r"t=5"):
        g.apply(ev("move", 5, "black", move="e5"))


def test_second_start_is_an_error() -> None:
    with pytest.raises(GameError):
        Game.start().apply({"type": "start", "t": 1})


def test_at_shows_a_later_instant_without_changing_the_game() -> None:
    g = Game.start(edition="2023", time_control="5400")
    later = g.at(100)
    assert later.to_json()["clocks"]["white_ms"] == 5400_000 - 100_000
    assert g.to_json()["clocks"]["white_ms"] == 5400_000
    assert later.events == g.events


def test_at_before_the_last_event_is_an_error() -> None:
    g = Game.start().apply(ev("move", 10, "white", move="e4"))
    with pytest.raises(ChessLawsError):
        g.at(5)


def test_from_events_reports_the_line_of_the_bad_event() -> None:
    with pytest.raises(LogError) as err:
        Game.from_events([start(), ev("move", 10, "white", move="e4"), ev("move", 20, "white", move="d4")])
    assert err.value.line == 3


def test_from_events_of_nothing() -> None:
    with pytest.raises(LogError) as err:
        Game.from_events([])
    assert err.value.line == 1


def test_replay_reads_a_file_and_log_lines_round_trip(tmp_path: Path) -> None:
    g = game(start(edition="1997", time_control="5400"), moves(SHUFFLE, step=7.5))
    p = tmp_path / "g.jsonl"
    p.write_text("\n".join(g.log_lines()) + "\n")
    again = Game.replay(p)
    assert again.to_json() == g.to_json()
    assert [json.loads(x) for x in again.log_lines()] == [json.loads(x) for x in g.log_lines()]


def test_fractional_seconds_are_exact_milliseconds() -> None:
    g = game(start(edition="2023", time_control="300"), ev("move", 1.25, "white", move="e4"))
    assert g.to_json()["clocks"]["white_ms"] == 300_000 - 1_250


def test_moves_in_uci_are_recorded_in_san() -> None:
    g = game(start(), ev("move", 1, "white", move="g1f3"), ev("move", 2, "black", move="e7e5"))
    assert g.state.sans == ["Nf3", "e5"]


@pytest.mark.parametrize("edition", ["1989", "1997", "2023"])
def test_illegal_move_reinstated(edition: str) -> None:
    """1989 8.1, 1997 7.4, 2023 7.5.1: the position before the illegal move is reinstated;
    the player still has the move."""
    g = game(start(edition=edition, time_control="5400"), ev("move", 10, "white", move="e2e5"))
    st = g.to_json()
    assert st["fen"] == STARTPOS and st["turn"] == "white" and st["ply"] == 0
    assert st["status"] == "ongoing"
    assert st["rulings"][-1]["article"] == {"1989": "8.1", "1997": "7.4", "2023": "7.5.5"}[edition]


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=100, deadline=None)
@given(
    edition=st.sampled_from(["1989", "1997", "2023"]),
    tc=st.sampled_from(["60", "300", "1800", "5400", "40/1800:900", "60+5", "300d5"]),
    mode=st.sampled_from([None, "standard"]),
    arbiter=st.sampled_from(["present", "absent"]),
    absent=st.sampled_from([[], ["white"], ["black"], ["white", "black"]]),
    default_time=st.sampled_from([None, 0, 30, 1800, 3600]),
    first_move=st.booleans(),
    t1=st.integers(0, 8000),
    t2=st.integers(0, 8000),
)
def test_looking_twice_is_looking_once(edition: str, tc: str, mode: str | None, arbiter: str, absent: list[str],
                                       default_time: int | None, first_move: bool, t1: int, t2: int) -> None:
    """What an arbiter present observes by t2 does not depend on whether one looked at t1 first:
    game.at(t1).at(t2) is game.at(t2) (flag falls, late arrivals: the earlier one decides)."""
    t1, t2 = sorted((t1, t2))
    fields: dict = {"edition": edition, "time_control": tc, "arbiter": arbiter, "absent": absent}
    if mode:
        fields["mode"] = mode
    if default_time is not None:
        fields["default_time"] = default_time
    g = Game.from_start(start(**fields))
    if first_move and "white" not in absent:
        try:
            g = g.apply(ev("move", 1, "white", move="e4"))
        except ChessLawsError:
            pass
        t1, t2 = max(t1, g.state.t_ms // 1000), max(t2, g.state.t_ms // 1000)
    assert g.at(t1).at(t2).to_json() == g.at(t2).to_json()

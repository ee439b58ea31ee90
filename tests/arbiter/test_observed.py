"""The arbiter's ``observe`` event: an ending that happened by itself (a flag fall the arbiter
present sees, the default time for a player still absent) written into the log, replaying to the state the
instant alone gives, and refused where nothing ended the game by itself then.

1989 10.14, 10.15, 12.2; 1997 6.6, 6.8, 6.9; 2023 6.7.1, 6.8, 6.9.
"""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError
from _arb import ev, game, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_flag_fall_written_down_replays_to_the_state_the_instant_gives(edition: str) -> None:
    """Black's 90 minutes run from White's first move at t=10: his flag falls at t=5410, seen by the arbiter
    present."""
    g = game(start(edition=edition, time_control="5400"), *moves(["e4"]))
    seen = g.at(5410.002)
    written = g.apply(ev("observe", 5410.002, "arbiter", what="flag"))
    assert summary(written) == summary(seen) == ("finished", "1-0", "time_forfeit")
    assert written.state.to_json() == seen.state.to_json()
    assert written.state.rulings[-1].t_ms == 5_410_000  # the instant the flag fell, not the instant written
    # Replayed from its log alone (a restart), the game is over: no later instant and no event changes it.
    again = Game.from_events([e.to_json() for e in written.events])
    assert summary(again) == ("finished", "1-0", "time_forfeit")
    with pytest.raises(GameError, match="over"):
        again.apply(ev("move", 5420, "black", move="e5"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_default_time_written_down(edition: str) -> None:
    """Black never arrives; the default time (here 30 s) passes: White wins (1989 10.15, 1997 6.6, 2023 6.7.1)."""
    g = game(start(edition=edition, time_control="600", absent=["black"], default_time=30),
             *moves(["e4"]))
    written = g.apply(ev("observe", 31, "arbiter", what="default_time"))
    assert summary(written) == summary(g.at(31)) == ("finished", "1-0", "late_arrival")
    with pytest.raises(GameError, match="did not end by a flag fall"):
        g.apply(ev("observe", 31, "arbiter", what="flag"))


def test_nothing_happened_by_itself_yet() -> None:
    g = game(start(edition="2023", time_control="60"), *moves(["e4"]))
    with pytest.raises(GameError, match="no flag has fallen"):
        g.apply(ev("observe", 69.9, "arbiter", what="flag"))
    with pytest.raises(GameError, match="no player has missed the default time"):
        g.apply(ev("observe", 69.9, "arbiter", what="default_time"))


def test_an_arbiter_absent_sees_no_flag() -> None:
    """With the arbiter absent only the opponent's claim brings a flag up: nothing to record."""
    g = game(start(edition="2023", time_control="60", arbiter="absent"), *moves(["e4"]))
    with pytest.raises(GameError, match="no arbiter is present"):
        g.apply(ev("observe", 80, "arbiter", what="flag"))


def test_a_game_already_over_takes_no_observed_ending() -> None:
    g = game(start(edition="2023", time_control="60"), *moves(["e4"]), ev("resign", 20, "black"))
    with pytest.raises(GameError, match="not in play"):
        g.apply(ev("observe", 90, "arbiter", what="flag"))
    assert summary(g) == ("finished", "1-0", "resignation")


def test_only_the_arbiter_writes_it() -> None:
    g = game(start(edition="2023", time_control="60"), *moves(["e4"]))
    with pytest.raises(Exception, match="arbiter"):
        g.apply(ev("observe", 80, "white", what="flag"))

"""1989 12.4 and 12.6 limit how the arbiter may set the clocks: adding time used, he
"shall under no circumstances" leave a player with less than five minutes to the time control, or
less than one minute for every move to it. The setting stands as the arbiter made it (it is his
act, and the log records it); the ruling says that it breaks the limit. The 1997 and 2023 Laws have
no such limit (1997 6.13, 2023 6.10.2: his best judgement)."""

from __future__ import annotations

import pytest

from chesslaws.game import Game
from _arb import ev, game, moves, start

EDITIONS = ["1989", "1997", "2023"]


def set_after_two_moves(edition: str, white_ms: int, black_ms: int) -> Game:
    """12/9000: two moves each played one second apart (ten to go to the time control), then the
    arbiter sets the clocks."""
    return game(start(edition=edition, time_control="12/9000"), moves(["e4", "e5", "Nf3", "Nc6"], step=1),
                ev("stop_clocks", 5, "arbiter"), ev("set_clocks", 6, "arbiter", white_ms=white_ms, black_ms=black_ms))


@pytest.mark.parametrize("edition", EDITIONS)
def test_less_than_a_minute_a_move(edition: str) -> None:
    """White is left 8 minutes for his last 10 moves: under 1989 12.4(b)'s ten minutes."""
    g = set_after_two_moves(edition, 480_000, 8_000_000)
    articles = [r.article for r in g.state.rulings]
    limit = articles[-1] == "12.4" and "leaves White 8:00 for 10 moves" in g.state.rulings[-1].text
    assert limit == (edition == "1989")
    assert g.to_json()["clocks"]["white_ms"] == 480_000  # the setting stands


@pytest.mark.parametrize("edition", EDITIONS)
def test_within_the_limits_and_adding_time(edition: str) -> None:
    """Ten minutes for ten moves is within the limit; giving Black time back is no "time used added"."""
    g = set_after_two_moves(edition, 600_000, 8_999_000)
    assert g.state.rulings[-1].text.startswith("The arbiter sets the clocks")


def test_five_minutes_in_a_period_for_all_moves() -> None:
    """Sudden death (1989): only the five minutes of 12.4(a) apply."""
    g = game(start(edition="1989", time_control="3600"), moves(["e4", "e5"]), ev("stop_clocks", 30, "arbiter"),
             ev("set_clocks", 31, "arbiter", white_ms=240_000, black_ms=3_000_000))
    assert g.state.rulings[-1].article == "12.4"
    assert "4:00 to the time control" in g.state.rulings[-1].text

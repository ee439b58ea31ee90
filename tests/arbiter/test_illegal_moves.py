"""Illegal moves made and completed over the board (what test_irregularities.py, the author's,
does not already cover: 1989, exact clocks, per-player counting).

1989 8.1 (reinstated); 1997 7.4 (reinstated) and, in a quickplay finish, 10.3
(two minutes, two minutes, then loss); 2023 7.5.1 / 7.5.5 (two minutes, one in
rapid and blitz; the second loses unless the opponent cannot mate).
"""

from __future__ import annotations

import pytest

from _arb import ev, game, last_ruling, start, summary

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def illegal(t: float, by: str = "white", move: str = "e2e5") -> dict:
    return ev("move", t, by, move=move)


def test_1989_illegal_move_is_reinstated_without_penalty() -> None:
    """1989 8.1: the position before the illegal move is reinstated; "the act of playing an
    illegal move ... does not IN ITSELF forfeit the game" -- not even the third."""
    g = game(start(edition="1989", time_control="5400"), illegal(10), illegal(20), illegal(30))
    st = g.to_json()
    assert (st["status"], st["fen"], st["turn"]) == ("ongoing", STARTPOS, "white")
    assert st["clocks"] == {"white_ms": 5400_000 - 30_000, "black_ms": 5400_000, "running": "white"}
    assert [r["article"] for r in st["rulings"]] == ["8.1", "8.1", "8.1"]


def test_2023_first_illegal_move_gives_two_minutes() -> None:
    """2023 7.5.5: two minutes extra to the opponent; the player must then move legally."""
    g = game(start(edition="2023", time_control="5400"), illegal(10))
    st = g.to_json()
    assert (st["status"], st["fen"], st["turn"]) == ("ongoing", STARTPOS, "white")
    assert st["clocks"] == {"white_ms": 5400_000 - 10_000, "black_ms": 5400_000 + 120_000, "running": "white"}
    assert last_ruling(g).article == "7.5.5"
    g = g.apply(ev("move", 15, "white", move="e4"))
    assert g.state.sans == ["e4"]


@pytest.mark.parametrize("tc", ["300"])
def test_2023_first_illegal_move_in_rapid_and_blitz_gives_one_minute(tc: str) -> None:
    """2023 Appendix A (rapid, and blitz through B): one minute instead of two."""
    g = game(start(edition="2023", time_control=tc), illegal(10))
    assert g.to_json()["clocks"]["black_ms"] == int(tc) * 1000 + 60_000


def test_2023_illegal_moves_are_counted_per_player() -> None:
    """One illegal move by each side: nobody has made a second, the game goes on."""
    g = game(start(edition="2023", time_control="5400"), illegal(10), ev("move", 15, "white", move="e4"),
             illegal(20, "black", "e7e4"))
    assert g.state.status == "ongoing"
    # White got 2 minutes for Black's illegal move; Black got 2 for White's.
    st = g.to_json()
    assert st["clocks"]["white_ms"] == 5400_000 - 15_000 + 120_000
    assert st["clocks"]["black_ms"] == 5400_000 + 120_000 - 5_000

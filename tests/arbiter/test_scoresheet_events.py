"""The scoresheet in the log. ``scoresheet``: how many moves (plies) a player's
scoresheet shows at an instant (2023 8.1.1-8.5.2, 1997 8.1-8.4, 1989 11.1-11.4); ``sign``: the
result both players sign (2023 8.7). Clock values are worked out by hand from ``t``."""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError
from _arb import ev, game, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


def four_moves(edition: str, tc: str = "40/5400", **fields: object) -> Game:
    """1.e4 e5 2.Nf3 Nc6, one move every 10 s: White to move at t=40."""
    return game(start(edition=edition, time_control=tc, **fields), moves(["e4", "e5", "Nf3", "Nc6"]))


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_scoresheet_kept_move_after_move_is_ruled_on_by_nobody(edition: str) -> None:
    """White has the move and has not yet written Black's 2...Nc6: he may reply first (2023 8.1.3,
    1997 8.1). Black, having just moved, may be two moves behind (his reply and White's move)."""
    g = four_moves(edition).apply(ev("scoresheet", 41, "white", plies=3)).apply(ev("scoresheet", 42, "black", plies=2))
    assert g.state.rulings == ()


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_player_who_does_not_record(edition: str) -> None:
    """White, with 89 minutes left, has written nothing: he must record (2023 8.1.1, 1997 8.1);
    1989 11.4 makes a refusal to record a refusal to comply with the Laws (10.17)."""
    g = four_moves(edition).apply(ev("scoresheet", 41, "white", plies=0))
    r = g.state.rulings[-1]
    assert r.article == {"1989": "11.4", "1997": "8.1", "2023": "8.1.1"}[edition]
    assert ("refuses to comply" in r.text) == (edition == "1989")


@pytest.mark.parametrize("edition", EDITIONS)
def test_under_five_minutes_no_obligation(edition: str) -> None:
    """Sudden death in 300 s: White has 4:40 at t=41 and may stop recording (2023 8.4, 1997 8.4,
    1989 11.2)."""
    g = four_moves(edition, "300").apply(ev("scoresheet", 41, "white", plies=0))
    assert g.state.rulings[-1].article == {"1989": "11.2", "1997": "8.4", "2023": "8.4"}[edition]
    assert "not obliged" in g.state.rulings[-1].text


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_increment_of_30_seconds_keeps_the_duty(edition: str) -> None:
    """240+30: under five minutes, but with 30 s a move 1997 8.4 and 2023 8.4 keep the duty;
    1989 11.2 knows no such condition."""
    g = four_moves(edition, "240+30").apply(ev("scoresheet", 41, "white", plies=0))
    assert ("not obliged" in g.state.rulings[-1].text) == (edition == "1989")


@pytest.mark.parametrize("edition", EDITIONS)
def test_after_the_flag_the_exempt_player_updates(edition: str) -> None:
    """60 s sudden death, no arbiter at the board: White stopped recording; after Black's flag has
    fallen (t=61; no claim) White must update his scoresheet completely (2023 8.5.2, 1997 8.4,
    1989 11.2)."""
    g = game(start(edition=edition, time_control="60", arbiter="absent", mode="standard"),
             moves(["e4", "e5", "Nf3", "Nc6"], step=1), ev("scoresheet", 5, "white", plies=0),
             ev("move", 6, "white", move="Bc4"), ev("scoresheet", 70, "white", plies=1))
    assert g.state.rulings[-1].article == {"1989": "11.2", "1997": "8.4", "2023": "8.5.2"}[edition]
    assert "update his scoresheet completely" in g.state.rulings[-1].text


@pytest.mark.parametrize("edition", EDITIONS)
def test_writing_the_move_before_making_it(edition: str) -> None:
    """White writes 3.Bc4 before playing it. 1989 11.1: "irrelevant whether the player first makes
    his move and then records it, or vice versa"; 2023 8.1.2 forbids writing moves in advance; the
    1997 text says neither (no ruling)."""
    g = four_moves(edition).apply(ev("scoresheet", 41, "white", plies=5))
    articles = [r.article for r in g.state.rulings]
    assert articles == {"1989": ["11.1"], "1997": [], "2023": ["8.1.2"]}[edition]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_signed_result_stands(edition: str) -> None:
    """Black resigns; both players sign 1/2-1/2 by mistake. 2023 8.7: even if incorrect, the signed
    result stands (unless the arbiter decides otherwise); 1997 and 1989 have no such rule: 1-0."""
    g = four_moves(edition).apply(ev("resign", 45, "black"))
    g = g.apply(ev("sign", 50, "white", result="1/2-1/2"))
    assert g.state.result == "1-0"  # one signature is not both
    g = g.apply(ev("sign", 51, "black", result="1/2-1/2"))
    assert g.state.result == ("1/2-1/2" if edition == "2023" else "1-0")
    assert g.state.termination == "resignation"
    if edition == "2023":
        assert g.state.rulings[-1].article == "8.7"


def test_sign_only_at_the_end() -> None:
    with pytest.raises(GameError):
        four_moves("2023").apply(ev("sign", 41, "white", result="1-0"))
    assert summary(four_moves("2023").apply(ev("resign", 45, "black")).apply(
        ev("sign", 50, "white", result="1-0")).apply(ev("sign", 51, "black", result="1-0"))) == (
        "finished", "1-0", "resignation")

"""The players' conduct and the arbiter's penalties: 2023 Articles 11 and 12.9
(1997 Articles 12 and 13.4; 1989 Articles 15 and 16.5). Clock values by hand."""

from __future__ import annotations

import pytest

from chesslaws.events import EventError
from chesslaws.game import GameError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


def conduct(t: float, **fields: object) -> dict[str, object]:
    return ev("conduct", t, "arbiter", **fields)


def test_2023_a_device_loses_the_game() -> None:
    """2023 11.3.2.2: a player evidently with a phone in the playing venue loses, and the
    opponent wins -- even a lone king: the text says "The opponent shall win"."""
    g = game(start(edition="2023", time_control="5400", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
             conduct(30, against="white", kind="device", reason="phone rang in the jacket"))
    assert summary(g) == ("finished", "0-1", "arbiter_decision")
    r = last_ruling(g)
    assert (r.article, r.t_ms) == ("11.3.2.2", 30_000) and "phone rang" in r.text


def test_2023_a_lighter_device_penalty_needs_the_regulations() -> None:
    """The regulations of an event may specify a less severe penalty (11.3.2.2): with
    ``device_penalty: "lighter"`` announced, the arbiter's 12.9.3 deduction of 5 minutes
    applies; without it, a lighter penalty is refused."""
    tc = {"edition": "2023", "time_control": "5400"}
    g = game(start(**tc, device_penalty="lighter"), moves(["e4"]),
             conduct(30, against="black", kind="device", penalty="reduce_time", seconds=300))
    assert g.state.status == "ongoing"
    assert [r.article for r in g.state.rulings] == ["11.3.2.2", "12.9.3"]
    # Black's clock ran from t=10 to 30 (20 s), then lost 300 s.
    assert g.state.remaining_ms("black") == 5400_000 - 20_000 - 300_000
    with pytest.raises(Exception, match="less severe penalty needs regulations"):
        game(start(**tc), moves(["e4"]), conduct(30, against="black", kind="device", penalty="warning"))


@pytest.mark.parametrize(("edition", "articles"), [
    ("1989", ["15.1(a)", "16.5"]), ("1997", ["12.2", "13.4(a)"]), ("2023", ["11.3.1", "12.9.1"])])
def test_sources_of_information_are_penalised_at_the_arbiters_choice(edition: str, articles: list[str]) -> None:
    """Notes, advice or analysis on another board (1989 15.1(a), 1997 12.2, 2023 11.3.1): the
    arbiter chooses the penalty; without one named, a warning."""
    g = game(start(edition=edition), moves(["e4"]), conduct(15, against="black", kind="information"))
    assert [r.article for r in g.state.rulings] == articles
    assert "warns Black" in last_ruling(g).text


@pytest.mark.parametrize(("edition", "article", "penalty_article"), [
    ("1989", "16.4", "16.5"), ("1997", "12.4", "13.4(b)"), ("2023", "11.2.3.2", "12.9.2")])
def test_leaving_the_playing_area_having_the_move(edition: str, article: str, penalty_article: str) -> None:
    """White, having the move, leaves the playing area without permission (1997 12.4, 2023
    11.2.3.2; 1989 has no such rule: the arbiter's care for the playing environment, 16.4).
    The arbiter gives Black two minutes."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4", "e5"]),
             conduct(40, against="white", kind="leave_area", penalty="add_time", seconds=120))
    assert [r.article for r in g.state.rulings] == [article, penalty_article]
    assert g.state.remaining_ms("black") == 5400_000 - 10_000 + 120_000


@pytest.mark.parametrize(("edition", "article"), [("1989", "15.1(d)"), ("1997", "12.5"), ("2023", "11.5")])
def test_annoying_the_opponent_can_cost_the_game(edition: str, article: str) -> None:
    """Persistent draw offers annoy the opponent (1989 15.1(d), 1997 12.5, 2023 11.5); the
    arbiter may declare the game lost (1989 15.2/16.5, 1997 13.4(d), 2023 12.9.6)."""
    g = game(start(edition=edition), moves(["e4", "e5"]),
             conduct(40, against="white", kind="annoy", penalty="loss", reason="seventh draw offer"))
    assert summary(g) == ("finished", "0-1", "arbiter_decision")
    assert g.state.rulings[0].article == article


def test_inspection_refused_is_2023_only() -> None:
    """2023 11.3.3: refusing an inspection is met with 12.9; the earlier Laws know no inspection."""
    g = game(start(edition="2023"), conduct(5, against="white", kind="inspection_refused", penalty="loss",
                                            opponent_score=1))
    assert summary(g) == ("finished", "0-1", "arbiter_decision")
    with pytest.raises(Exception, match="no rule on inspection refused"):
        game(start(edition="1997"), conduct(5, against="white", kind="inspection_refused"))


# --- 2023 12.9: every penalty ---------------------------------------------------------------


def test_2023_points_penalties_after_the_game() -> None:
    """After a draw by agreement the arbiter learns that White used advice: 12.9.5 reduces
    White's points to 0; 12.9.4 raises Black's to 1. The result stays 1/2-1/2, the score
    shows the penalty."""
    g = game(start(edition="2023"), moves(["e4", "e5"]), ev("offer_draw", 25, "white"), ev("accept_draw", 26, "black"),
             ev("penalty", 100, "arbiter", against="white", kind="reduce_points", points=0))
    assert g.state.to_json()["score"] == {"white": 0, "black": 0.5}
    g = g.apply(ev("penalty", 101, "arbiter", against="white", kind="opponent_points"))
    assert g.state.to_json()["score"] == {"white": 0, "black": 1}
    assert g.state.result == "1/2-1/2"
    assert [r.article for r in g.state.rulings][-2:] == ["12.9.5", "12.9.4"]
    with pytest.raises(Exception, match="'points'"):
        g.apply(ev("penalty", 102, "arbiter", against="white", kind="reduce_points", points=1))


def test_2023_loss_with_the_opponents_score_decided() -> None:
    """12.9.6: the game lost by the offender; "the arbiter shall also decide the opponent's
    score": here 0.5."""
    g = game(start(edition="2023"), moves(["e4"]),
             ev("penalty", 20, "arbiter", against="black", kind="loss", opponent_score=0.5))
    assert g.state.to_json()["score"] == {"white": 0.5, "black": 0}
    assert last_ruling(g).article == "12.9.6"
    with pytest.raises(Exception, match="opponent_score"):
        game(start(edition="1997"), ev("penalty", 20, "arbiter", against="black", kind="loss", opponent_score=0.5))


@pytest.mark.parametrize(("kind", "fields", "article", "words"), [
    ("fine", {"amount": "50 EUR"}, "12.9.7", "a fine of 50 EUR"),
    ("exclusion", {"rounds": 2}, "12.9.8", "excluded from 2 rounds"),
    ("expulsion", {}, "12.9.9", "expelled"),
])
def test_2023_penalties_beyond_the_game(kind: str, fields: dict[str, object], article: str, words: str) -> None:
    """12.9.7-12.9.9 concern the player rather than the game: given after the game, the
    result stands."""
    g = game(start(edition="2023"), moves(["f3", "e5", "g4", "Qh4#"]),
             ev("penalty", 50, "arbiter", against="white", kind=kind, **fields))
    assert summary(g) == ("finished", "0-1", "checkmate")
    assert last_ruling(g).article == article and words in last_ruling(g).text


@pytest.mark.parametrize("kind", ["opponent_points", "fine", "exclusion"])
def test_the_earlier_laws_have_no_such_penalties(kind: str) -> None:
    """1997 13.4 (a)-(e) and 1989 16.5 list warnings, time, loss and expulsion only."""
    for edition in ("1989", "1997"):
        with pytest.raises(Exception, match="do not include"):
            game(start(edition=edition), moves(["e4"]),
                 ev("penalty", 20, "arbiter", against="white", kind=kind, amount="5", rounds=1))


def test_a_time_penalty_after_the_game_is_refused() -> None:
    g = game(start(edition="2023", time_control="5400"), ev("resign", 5, "white"))
    with pytest.raises(GameError, match="the game is over"):
        g.apply(ev("penalty", 6, "arbiter", against="white", kind="add_time", seconds=60))


# --- reinstating an earlier position: 1989 8.2, 1997 7.4, 2023 7.6 ---------------------------


@pytest.mark.parametrize(("edition", "article"), [("1989", "8.2"), ("1997", "7.4"), ("2023", "7.6")])
def test_arbiter_reinstates_the_last_identifiable_position(edition: str, article: str) -> None:
    """After 1.e4 e5 2.Nf3 Nc6 it is found that pieces were displaced after 1...e5: the
    arbiter goes back there and sets the clocks by his judgement (1997 6.13). White moves on."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4", "e5", "Nf3", "Nc6"]),
             ev("reinstate", 50, "arbiter", ply=2, white_ms=5385_000, black_ms=5385_000, reason="displaced pieces"))
    assert g.state.sans == ["e4", "e5"] and g.state.turn == "white"
    r = last_ruling(g)
    assert (r.article, r.t_ms) == (article, 50_000) and "2 moves are taken back" in r.text
    assert g.state.to_json()["clocks"] == {"white_ms": 5385_000, "black_ms": 5385_000, "running": "white"}
    g = g.apply(ev("move", 60, "white", move="Nc3"))
    assert g.state.sans == ["e4", "e5", "Nc3"] and g.state.remaining_ms("white") == 5375_000
    with pytest.raises(EventError, match="'ply'"):
        g.apply(ev("reinstate", 70, "arbiter", ply=3))

"""2023 Appendix D beyond the board. A slip of the tongue in announcing a move, corrected
before the opponent's clock is started or not (D.2.8, D.2.9: ``announce``, a ``move`` with
``announced`` and ``"press": false``); the assistant of the visually disabled player and of the
sighted one (D.2.10, D.2.11: start field ``assistant``, an event's ``"assistant": true``). The 1989
and 1997 Laws have no rules for visually disabled players (their games cannot name one)."""

from __future__ import annotations

import pytest

from chesslaws.events import EventError
from chesslaws.game import Game, GameError
from chesslaws.game.state import LogError
from _arb import ev, game, last_ruling, start, summary

VD = {"edition": "2023", "time_control": "5400", "visually_disabled": ["white"]}


def _slip() -> Game:
    """White puts his knight on f3 but announces "Nc3", and has not yet pressed the clock."""
    return game(start(**VD), ev("move", 10, "white", move="Nf3", announced="Nc3", press=False))


def test_a_slip_corrected_before_the_press() -> None:
    """D.2.8: corrected immediately and before the opponent's clock is started: the move is Nf3."""
    g = _slip()
    assert g.state.position.piece_at("f3") == "N"
    assert {"kind": "announcement_differs", "by": "white"} in g.state.pending()
    g = g.apply(ev("announce", 12, "white", move="Nf3")).apply(ev("press_clock", 13, "white"))
    assert g.state.position.piece_at("f3") == "N" and g.state.position.piece_at("c3") is None
    assert any(r.article == "D.2.8" and "corrects" in r.text for r in g.state.rulings)
    assert not any(p["kind"] == "announcement_differs" for p in g.state.pending())
    assert g.state.clock.running == "black" and g.state.remaining_ms("white") == 5_400_000 - 13_000


def test_a_slip_not_corrected_before_the_press() -> None:
    """The press without a correction: the boards differ, and the game scores, which follow the
    announcement, decide (D.2.9): Nc3 is the move made."""
    g = _slip().apply(ev("press_clock", 13, "white"))
    assert g.state.position.piece_at("c3") == "N" and g.state.position.piece_at("f3") is None
    assert last_ruling(g).article == "D.2.9" and [m.san for m in g.state.moves] == ["Nc3"]
    assert g.state.clock.running == "black"


def test_a_correction_after_the_press_is_too_late() -> None:
    g = game(start(**VD), ev("move", 10, "white", move="Nf3", announced="Nc3"),
             ev("announce", 12, "white", move="Nf3"))
    assert last_ruling(g).article == "D.2.8" and "too late" in last_ruling(g).text
    assert g.state.position.piece_at("c3") == "N"


def test_the_opponent_waits_for_the_slip_to_be_settled() -> None:
    with pytest.raises(GameError, match="D.2.8"):
        _slip().apply(ev("move", 12, "black", move="e5"))


@pytest.mark.parametrize("edition", ["1989", "1997"])
def test_the_earlier_laws_have_no_appendix_for_visually_disabled_players(edition: str) -> None:
    with pytest.raises(LogError, match="visually"):
        game(start(edition=edition, visually_disabled=["white"], assistant=["white"]))
    with pytest.raises(LogError, match="no assistant"):
        game(start(edition=edition, assistant=["white"]))


def test_the_visually_disabled_players_assistant_claims_on_time() -> None:
    """D.2.10.5: the assistant claims the game when the time limit has been exceeded."""
    g = game(start(**VD, arbiter="absent", assistant=["white"]), ev("move", 10, "white", move="e4"),
             ev("claim_flag", 5500, "white", assistant=True))
    assert summary(g) == ("finished", "1-0", "time_forfeit")


def test_the_sighted_players_assistant_only_moves_and_announces() -> None:
    """D.2.11: White, visually disabled, has no assistant; Black's may make and announce the moves, but
    his claim of White's flag is not accepted: the flag stands down until a valid claim."""
    g = game(start(**VD, arbiter="absent", assistant=["black"]), ev("move", 10, "white", move="e4"),
             ev("move", 20, "black", move="e5", assistant=True))
    assert len(g.state.moves) == 2
    g = game(start(**VD, arbiter="absent", assistant=["black"]), ev("claim_flag", 5500, "black", assistant=True))
    assert summary(g) == ("ongoing", "*", None) and last_ruling(g).article == "D.2.11"
    assert summary(g.apply(ev("claim_flag", 5501, "black"))) == ("finished", "0-1", "time_forfeit")


def test_assistants_as_the_appendix_allows() -> None:
    with pytest.raises(LogError, match="D.2.11"):
        game(start(**VD, assistant=["white", "black"]))
    with pytest.raises(LogError, match="hearing-impaired"):
        game(start(**VD, hearing_impaired=["black"]))
    assert game(start(**VD, hearing_impaired=["black"], assistant=["white"])).state.config.assistants == {"white"}
    g = game(start(**VD))
    with pytest.raises(GameError, match="no assistant"):
        g.apply(ev("move", 10, "white", move="e4", assistant=True))
    with pytest.raises(EventError):
        g.apply(ev("observe", 10, what="flag", assistant=True))


def test_an_assistant_who_records_the_moves() -> None:
    """2023 8.1.6: White, unable to keep score, provides an assistant who records the moves: his
    scoresheet counts; his claim of Black's flag is not accepted (he only records)."""
    g = game(start(edition="2023", time_control="5400", arbiter="absent", assistant=["white"]),
             ev("move", 10, "white", move="e4"), ev("scoresheet", 12, "white", plies=1, assistant=True))
    assert g.state.rulings == ()
    g = g.apply(ev("claim_flag", 5500, "white", assistant=True))
    assert summary(g) == ("ongoing", "*", None) and last_ruling(g).article == "8.1.6"

"""What a player asks of the arbiter and beyond him: an explanation of the Laws
(``request_explanation``: 2023 11.9), an appeal against a decision of the arbiter (``appeal``: 2023
11.10) and the decision on it (``appeal_decision``); the earlier Laws have neither (1997 13.1 and 13.3,
1989 16.1 and 16.3: the arbiter sees the Laws observed and enforces his decisions). And 2023 D.2.10.4:
the visually disabled player's assistant tells him, at his request, the moves and the times."""

from __future__ import annotations

import pytest

from chesslaws.events import EventError
from chesslaws.game import Game, GameError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_explanation_asked_for_changes_nothing(edition: str) -> None:
    """Black asks the arbiter what touch-move obliges him to do. 2023 11.9 gives him the right to an
    explanation; the 1997 and 1989 Laws do not (the arbiter, who sees that the Laws are observed, 13.1
    and 16.1, may answer). The position, the clocks and the pending matters stay what they were."""
    base = game(start(edition=edition, time_control="40/5400"), moves(["e4", "e5", "Nf3"]))
    asked = base.apply(ev("request_explanation", 35, "black", about="touch-move",
                          answer="the piece touched must be moved if it can"))
    r = last_ruling(asked)
    assert r.article == {"1989": "16.1", "1997": "13.1", "2023": "11.9"}[edition]
    assert "touch-move" in r.text and "must be moved" in r.text and "Nothing in the game changes" in r.text
    assert ("has the right" in r.text) == (edition == "2023")
    later = base.at(35).state
    assert asked.state.to_json() | {"rulings": []} == later.to_json() | {"rulings": []}


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_appeal_after_the_game_reverses_the_result(edition: str) -> None:
    """White's flag fell at t=60 and he lost (ruling 1). At t=70 he appeals: the clock was defective.
    2023 11.10: he may, unless the regulations specify otherwise; 1997 and 1989 provide no appeal (the
    arbiter enforces his decisions, 13.3, 16.3), which is then the regulations' matter. The appeal
    changes nothing by itself; the appeals committee's decision, accepted with a draw, gives the game
    its result in every edition; rejected, the loss stands."""
    over = game(start(edition=edition, time_control="60", mode="standard"), ev("appeal", 70, "white", ruling=1,
                                                                               reason="the clock was defective"))
    assert summary(over) == ("finished", "0-1", "time_forfeit")
    r = last_ruling(over)
    assert r.article == {"1989": "16.3", "1997": "13.3", "2023": "11.10"}[edition]
    assert "ruling 1" in r.text and "the clock was defective" in r.text
    assert ("may appeal" in r.text) == (edition == "2023")
    assert {"kind": "appeal", "by": "white", "ruling": 1} in over.state.pending()
    accepted = over.apply(ev("appeal_decision", 900, ruling="accept", result="1/2-1/2"))
    assert summary(accepted) == ("finished", "1/2-1/2", "time_forfeit")
    assert accepted.state.outcome is not None and accepted.state.outcome.score == {"white": 0.5, "black": 0.5}
    assert last_ruling(accepted).article == r.article and accepted.state.pending() == []
    rejected = over.apply(ev("appeal_decision", 900, ruling="reject"))
    assert summary(rejected) == ("finished", "0-1", "time_forfeit") and "stands" in last_ruling(rejected).text


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_appeal_during_the_game_leaves_the_game_as_it_is(edition: str) -> None:
    """2.Ke1-e3 is illegal: the arbiter reinstates the position (ruling 1: 1989 8.1, 1997 7.4; 2023
    7.5.5, Black receiving two minutes). White appeals; play goes on; the appeal accepted without a
    result only says the decision is reversed: what replaces it is written as the arbiter's own events
    (a ``set_clocks``, say), none of which the appeal makes by itself."""
    g = game(start(edition=edition, time_control="40/5400"), moves(["e4", "e5", "e1e3"]),
             ev("appeal", 31, "white", ruling=1), ev("move", 40, "white", move="Nf3"))
    assert g.state.ongoing and g.state.sans == ["e4", "e5", "Nf3"]
    assert g.state.rulings[0].article == {"1989": "8.1", "1997": "7.4", "2023": "7.5.5"}[edition]
    decided = g.apply(ev("appeal_decision", 45, ruling="accept"))
    assert "reversed" in last_ruling(decided).text and decided.state.ongoing and decided.state.sans == g.state.sans
    with pytest.raises(GameError, match="concluded"):
        g.apply(ev("appeal_decision", 45, ruling="accept", result="1-0"))


def test_the_signed_scoresheet_does_not_bar_an_appeal() -> None:
    """2023 8.7 and 11.10: both players signed ½-½ after White resigned; the signed result stands
    (ruling 2). Black appeals against it "even if he has signed"; the appeal accepted with 0-1 gives the
    game the result on the board."""
    g = game(start(edition="2023", time_control="40/5400"), moves(["e4", "e5"]), ev("resign", 30, "white"),
             ev("sign", 31, "white", result="1/2-1/2"), ev("sign", 32, "black", result="1/2-1/2"))
    assert g.state.result == "1/2-1/2" and last_ruling(g).article == "8.7"
    appealed = g.apply(ev("appeal", 40, "black", ruling=2))
    assert "even though he has signed" in last_ruling(appealed).text
    assert appealed.apply(ev("appeal_decision", 50, ruling="accept", result="0-1")).state.result == "0-1"


def test_what_an_appeal_must_name() -> None:
    g = game(start(edition="2023", time_control="40/5400"), moves(["e4", "e5", "e1e3"]),
             ev("request_explanation", 30, "white"))  # rulings 1 (7.5.5) and 2 (11.9)
    with pytest.raises(EventError, match="1 to 2"):
        g.apply(ev("appeal", 31, "white", ruling=3))
    with pytest.raises(EventError, match="no decision"):
        game(start(edition="2023")).apply(ev("appeal", 1, "white", ruling=1))
    with pytest.raises(GameError, match="no appeal waits"):
        g.apply(ev("appeal_decision", 31, ruling="reject"))
    two = g.apply(ev("appeal", 31, "white", ruling=1)).apply(ev("appeal", 32, "black", ruling=2))
    with pytest.raises(GameError, match="already under appeal"):
        two.apply(ev("appeal", 33, "black", ruling=2))
    with pytest.raises(EventError, match="several appeals"):
        two.apply(ev("appeal_decision", 33, ruling="reject"))
    with pytest.raises(EventError, match="only an accepted appeal"):
        two.apply(ev("appeal_decision", 33, ruling="reject", appealed=1, result="1-0"))
    one = two.apply(ev("appeal_decision", 33, ruling="reject", appealed=2))
    assert one.state.pending() == [{"kind": "appeal", "by": "white", "ruling": 1}]


def test_an_annulled_game_can_be_appealed() -> None:
    """The arbiter annuls the game; White appeals against the annulment; it is rejected."""
    g = game(start(edition="2023", time_control="40/5400"), moves(["e4"]), ev("annul", 20, reason="x"),
             ev("appeal", 30, "white", ruling=1), ev("appeal_decision", 40, ruling="reject"))
    assert g.state.status == "annulled" and "stands" in last_ruling(g).text


def test_the_assistant_tells_the_moves_and_times_on_request() -> None:
    """2023 D.2.10.4: White, visually disabled, with an assistant, asks at t=35 after 1.e4 e5 2.Nf3: two
    moves completed by White, one by Black; White has used 10 + 10 s, Black 10 s (the moves every 10 s,
    Black's clock running from 30). Black, sighted and without an assistant, asks the same: the arbiter
    shall not indicate the number of moves (12.6)."""
    g = game(start(edition="2023", time_control="40/5400", visually_disabled=["white"], assistant=["white"]),
             moves(["e4", "e5", "Nf3"]))
    r = last_ruling(g.apply(ev("request_scoresheet", 35, "white", kind="moves_and_times")))
    assert r.article == "D.2.10.4"
    assert "White 2, Black 1" in r.text and "White 0:20, Black 0:15" in r.text
    other = last_ruling(g.apply(ev("request_scoresheet", 35, "black", kind="moves_and_times")))
    assert other.article == "12.6" and "declines" in other.text


def test_the_players_assist_the_reconstruction_and_check_the_claim() -> None:
    """2023 11.11-11.12: both players must assist the arbiter in reconstructing the game, draw claims
    included, and checking a repetition or fifty-move claim is their duty under his supervision. The
    log holds the moves the claim is checked against; a player who persistently will not help refuses
    to comply with the Laws (11.7): he loses. Here White claims a threefold repetition that the moves
    of the log do not show (9.5.3: Black receives two minutes), then refuses to help check it."""
    g = game(start(edition="2023", time_control="40/5400"), moves(["Nf3", "Nf6"]),
             ev("claim_draw", 25, "white", reason="threefold"))
    assert last_ruling(g).article == "9.5.3" and g.state.ongoing
    refused = g.apply(ev("refuse_to_comply", 30, against="white"))
    assert summary(refused) == ("finished", "0-1", "refusal_to_comply") and last_ruling(refused).article == "11.7"


def test_the_log_format_pages_example_of_an_appeal() -> None:
    """docs/game-log.md's example replays as the page says: four rulings, the result a draw."""
    import json
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "game-log.md").read_text(encoding="utf-8")
    block = doc.split("### Explanations and appeals", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    g = Game.from_events([json.loads(line) for line in block.splitlines() if line.strip()])
    assert [r.article for r in g.state.rulings] == ["6.9", "11.9", "11.10", "11.10"]
    assert summary(g) == ("finished", "1/2-1/2", "time_forfeit") and g.state.pending() == []

"""Draw offers and agreement.

1989 10.6-10.9; 1997 5.3 and 9.1 (offer after the move, before pressing,
recorded (=), valid until accepted, rejected orally or by a move, or the game
ends); 2023 5.2.3 and 9.1.2 (also rejected by touching a piece).
"""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.game import Game, GameError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]
AGREEMENT = {"1989": "10.6", "1997": "5.3", "2023": "5.2.3"}


def offered(edition: str) -> Game:
    """1.e4 e5 2.Nf3 with a draw offer made between the move and pressing the clock (both
    players have moved, which a 2023 agreement needs: 5.2.3)."""
    return game(start(edition=edition, time_control="5400"),
                ev("move", 4, "white", move="e4"), ev("move", 7, "black", move="e5"),
                ev("move", 10, "white", move="Nf3", offer_draw=True))


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_with_a_move_is_pending_and_recorded(edition: str) -> None:
    """1997 9.1 / E.12: the offer made with the move is noted (=) and awaits an answer."""
    g = offered(edition)
    assert g.state.pending() == [{"kind": "draw_offer", "by": "white"}]
    assert g.state.to_json()["pending"] == [{"kind": "draw_offer", "by": "white"}]
    assert g.state.moves[-1].draw_offer is True
    # The offer does not stop the clock: Black's runs.
    assert g.state.to_json()["clocks"]["running"] == "black"


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_accepted_is_a_draw_by_agreement(edition: str) -> None:
    g = offered(edition).apply(ev("accept_draw", 30, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")
    r = last_ruling(g)
    assert (r.t_ms, r.edition, r.article) == (30_000, edition, AGREEMENT[edition])
    assert g.state.to_json()["score"] == {"white": 0.5, "black": 0.5}
    assert g.state.to_json()["pending"] == []
    # White used 4 + 3 s; Black 3 s, then his clock ran from 10 to 30 and stopped.
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 7_000, "black_ms": 5400_000 - 23_000, "running": None}


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_declined_cannot_then_be_accepted(edition: str) -> None:
    """Rejected orally (1989 10.7, 1997 9.1, 2023 9.1.2.1): the offer is gone."""
    g = offered(edition).apply(ev("decline_draw", 20, "black"))
    assert g.state.pending() == []
    assert g.state.status == "ongoing"
    with pytest.raises(GameError, match=r"accept_draw at t=30"):
        g.apply(ev("accept_draw", 30, "black"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_answered_by_a_move_then_accepted_is_an_error(edition: str) -> None:
    """Rejected by making a move (1989 10.7 "by completing a move", 1997 9.1; 2023 9.1.2.1:
    by touching a piece with intent to move, which a move implies)."""
    g = offered(edition).apply(ev("move", 20, "black", move="Nc6"))
    assert g.state.pending() == []
    with pytest.raises(GameError, match=r"accept_draw at t=30") as err:
        g.apply(ev("accept_draw", 30, "black"))
    assert "offer" in str(err.value)


@pytest.mark.parametrize("edition", EDITIONS)
def test_accepting_ones_own_offer_is_an_error(edition: str) -> None:
    with pytest.raises(GameError, match=r"accept_draw at t=20"):
        offered(edition).apply(ev("accept_draw", 20, "white"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_accept_without_any_offer_is_an_error(edition: str) -> None:
    g = game(start(edition=edition), moves(["e4"]))
    with pytest.raises(GameError, match=r"accept_draw at t=20"):
        g.apply(ev("accept_draw", 20, "black"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_decline_without_any_offer_is_an_error(edition: str) -> None:
    g = game(start(edition=edition), moves(["e4"]))
    with pytest.raises(GameError, match=r"decline_draw at t=20"):
        g.apply(ev("decline_draw", 20, "black"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_before_ones_own_move_stays_valid_through_that_move(edition: str) -> None:
    """1989 10.9: an offer made while one's own clock runs lets the opponent decide after
    seeing the move; 1997 9.1 / 2023 9.1.2.1: the offer is valid (though frowned upon)
    until the opponent answers. White offers, then plays 2.Nf3; Black accepts."""
    g = game(start(edition=edition, time_control="5400"), moves(["e4", "e5"]),
             ev("offer_draw", 25, "white"), ev("move", 30, "white", move="Nf3"))
    assert g.state.pending() == [{"kind": "draw_offer", "by": "white"}]
    g = g.apply(ev("accept_draw", 40, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_on_the_opponents_time_is_valid(edition: str) -> None:
    """1989 10.8, 1997 9.1, 2023 9.1.2.1: an offer while the opponent thinks is valid."""
    g = game(start(edition=edition), moves(["e4", "e5", "Nf3"], step=4), ev("offer_draw", 13, "white"),
             ev("accept_draw", 15, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_ends_with_the_game(edition: str) -> None:
    """1997 9.1: the offer is valid until ... the game is concluded in some other way.
    White offers with 2.g4 and is mated by 2...Qh4#; nothing is pending and nobody can accept."""
    g = game(start(edition=edition), moves(["f3", "e5"]),
             ev("move", 30, "white", move="g4", offer_draw=True), ev("move", 40, "black", move="Qh4#"))
    assert summary(g) == ("finished", "0-1", "checkmate")
    assert g.state.to_json()["pending"] == []
    with pytest.raises(ChessLawsError):
        g.apply(ev("accept_draw", 45, "black"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_offer_survives_the_opponents_thinking_until_answered(edition: str) -> None:
    """The offer stays valid while Black thinks, however long: accepting it at t=3000 works."""
    g = offered(edition).apply(ev("accept_draw", 3000, "black"))
    assert g.state.termination == "agreement"


def test_the_offer_mark_appears_in_the_summary() -> None:
    """1997 9.1: the offer is noted with the symbol (=) on the scoresheet."""
    from click.testing import CliRunner
    import json
    import os
    import tempfile

    from chesslaws.cli import main

    lines = [start(edition="1997", time_control="5400"),
             ev("move", 10, "white", move="e4", offer_draw=True),
             ev("move", 20, "black", move="e5")]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "offer.jsonl")
        with open(path, "w") as fh:
            fh.write("\n".join(json.dumps(x) for x in lines) + "\n")
        out = CliRunner().invoke(main, ["replay", path])
    assert out.exit_code == 0, out.output
    assert "1. e4 (=) e5" in out.output


@pytest.mark.parametrize("edition", EDITIONS)
def test_black_may_offer_after_his_move_and_white_accept(edition: str) -> None:
    g = game(start(edition=edition), ev("move", 10, "white", move="d4"),
             ev("move", 20, "black", move="d5", offer_draw=True), ev("accept_draw", 21, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")
    assert "White" in last_ruling(g).text or "white" in last_ruling(g).text.lower()


@pytest.mark.parametrize("edition", EDITIONS)
def test_counter_offer_does_not_withdraw_the_first_offer(edition: str) -> None:
    """1997 9.1: the offer "cannot be withdrawn and remains valid until the opponent accepts it,
    rejects it orally, rejects it by making a move, or the game is concluded"; 1989 10.7 "valid
    until the opponent has accepted or rejected it". Black's own offer rejects nothing: he may
    still accept White's."""
    g = offered(edition).apply(ev("offer_draw", 12, "black")).apply(ev("accept_draw", 15, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


@pytest.mark.parametrize("edition", EDITIONS)
def test_agreement_stands_though_a_flag_had_fallen_unclaimed(edition: str) -> None:
    """No arbiter: Black's flag fell at t=62 but nobody claimed it; the agreement at t=100
    stands (1989 12.7; 1997 6.9: 5.3 takes precedence)."""
    g = game(start(edition=edition, time_control="60", mode="standard", arbiter="absent"),
             moves(["e4", "e5"], step=1), ev("move", 3, "white", move="Nf3", offer_draw=True),
             ev("accept_draw", 100, "black"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")
    with pytest.raises(GameError):
        g.apply(ev("claim_flag", 101, "white"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_accepting_after_an_observed_flag_fall_is_too_late(edition: str) -> None:
    """An arbiter present saw Black's flag fall at t=61: the game was over before the acceptance."""
    g = game(start(edition=edition, time_control="60", mode="standard"),
             ev("move", 1, "white", move="e4", offer_draw=True))
    with pytest.raises(GameError, match=r"accept_draw at t=100.*t=61"):
        g.apply(ev("accept_draw", 100, "black"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_counter_offer_then_a_move_leaves_only_the_counter_offer(edition: str) -> None:
    """White offers with 2.Nf3; Black offers too, then plays 2...Nc6: White's offer is rejected by
    the move, Black's own offer (made before his move) remains valid (1989 10.9: White "may
    postpone his decision until after he has seen" Black's move; 1997 9.1 "still valid"), and
    White may accept it."""
    g = offered(edition).apply(ev("offer_draw", 12, "black")).apply(ev("move", 15, "black", move="Nc6"))
    assert g.state.pending() == [{"kind": "draw_offer", "by": "black"}]
    with pytest.raises(GameError):
        g.apply(ev("accept_draw", 20, "black"))
    g = g.apply(ev("accept_draw", 20, "white"))
    assert summary(g) == ("finished", "1/2-1/2", "agreement")


# --- 2023 5.2.3: an agreement needs both players to have moved ----------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_agreement_after_whites_first_move_only(edition: str) -> None:
    """White offers with 1.e4 and Black accepts before replying. 1989 10.6 and 1997 5.3 draw
    "upon agreement between the two players during the game": drawn. 2023 5.2.3 adds
    "provided both players have made at least one move": the agreement is void, nothing is
    pending (the offer was answered), and the game goes on with Black to move."""
    g = game(start(edition=edition, time_control="5400"), ev("move", 10, "white", move="e4", offer_draw=True),
             ev("accept_draw", 30, "black"))
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (30_000, AGREEMENT[edition])
    if edition == "2023":
        assert summary(g) == ("ongoing", "*", None)
        assert "at least one move" in r.text
        assert g.state.pending() == []
        assert g.state.to_json()["clocks"]["running"] == "black"
        # Once both have moved, the same players may agree.
        g = g.apply(ev("move", 40, "black", move="e5", offer_draw=True)).apply(ev("accept_draw", 45, "white"))
        assert summary(g) == ("finished", "1/2-1/2", "agreement")
    else:
        assert summary(g) == ("finished", "1/2-1/2", "agreement")


@pytest.mark.parametrize("edition", EDITIONS)
def test_agreement_before_any_move(edition: str) -> None:
    """An offer before the first move, accepted at once: a draw in 1989 and 1997, void in 2023
    (5.2.3), where White must still make his first move."""
    g = game(start(edition=edition), ev("offer_draw", 1, "black"), ev("accept_draw", 2, "white"))
    assert summary(g) == (("ongoing", "*", None) if edition == "2023" else ("finished", "1/2-1/2", "agreement"))

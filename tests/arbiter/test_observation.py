"""An arbiter present who observes some things and not others (``"arbiter":
"occasional"`` and the arbiter's ``observe``): 1989 12.2 and 8.1; 1997 6.8, 7.4, B.5, B.6 and C.3;
2023 6.8, 7.5.1, A.5.2, A.5.4 and A.5.5. Clock values are worked out by hand from ``t``."""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]
PROMOTE = "1r5k/P7/8/8/8/8/2R5/K7 w - - 0 1"  # White's a-pawn one step from the last rank


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_flag_nobody_sees_decides_nothing_until_the_arbiter_observes_it(edition: str) -> None:
    """60 s sudden death, standard play (as the log says): White never moves and his flag falls at
    t=60. An arbiter present would end the game then; one who watches the board only now and then
    sees it at t=75, and the flag counts from then (1989 12.2, 1997 6.8, 2023 6.8): Black wins."""
    g = game(start(edition=edition, time_control="60", mode="standard", arbiter="occasional"))
    assert summary(g.at(74)) == ("ongoing", "*", None)
    assert summary(game(start(edition=edition, time_control="60", mode="standard")).at(74)) == (
        "finished", "0-1", "time_forfeit")
    g = g.apply(ev("observe", 75, what="flag"))
    assert summary(g) == ("finished", "0-1", "time_forfeit")
    assert g.state.rulings[0].article == {"1989": "12.2", "1997": "6.8", "2023": "6.8"}[edition]
    assert g.state.rulings[0].t_ms == 75_000


@pytest.mark.parametrize("edition", EDITIONS)
def test_in_rapid_play_the_arbiter_calls_the_flag_he_sees_except_in_1997(edition: str) -> None:
    """A 15-minute game, an arbiter for several games (2023 A.5), White's flag down at t=900 and
    seen at t=905. 2023 A.5.5: the arbiter calls it, Black wins. 1997 B.6: in rapid play he
    refrains from signalling a flag fall, and the game goes on until a player claims. The 1989
    Laws have no rapid play: 12.2, Black wins."""
    g = game(start(edition=edition, time_control="900", arbiter="occasional", supervision="partial")
             if edition == "2023" else start(edition=edition, time_control="900", arbiter="occasional"),
             ev("observe", 905, what="flag"))
    r = last_ruling(g)
    if edition == "1997":
        assert summary(g) == ("ongoing", "*", None) and r.article == "B.6"
        assert summary(g.apply(ev("claim_flag", 906, "black"))) == ("finished", "0-1", "time_forfeit")
    else:
        assert summary(g) == ("finished", "0-1", "time_forfeit")
        assert g.state.rulings[0].article == {"1989": "12.2", "2023": "A.5.5"}[edition]


def test_observing_a_flag_that_has_not_fallen_is_refused() -> None:
    g = game(start(edition="2023", time_control="60", arbiter="occasional"))
    with pytest.raises(GameError, match="no flag has fallen"):
        g.apply(ev("observe", 30, what="flag"))
    with pytest.raises(GameError, match="no arbiter is present"):
        game(start(edition="2023", time_control="60", arbiter="absent")).apply(ev("observe", 70, what="flag"))


def _illegal_then_reply(edition: str, **fields: object) -> Game:
    """1.e4 e5 2.Ke1-e3 (illegal, nobody sees it) 2...Nc6, then the arbiter looks at t=45."""
    return game(start(edition=edition, arbiter="occasional", **fields), moves(["e4", "e5", "e1e3", "Nc6"]),
                ev("observe", 45, what="illegal_move"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_illegal_move_found_after_the_reply_is_taken_back_in_standard_play(edition: str) -> None:
    """Standard play (40 moves in 90 minutes): the illegal 2.Ke3 is found after Black's reply. 1989
    8.1, 1997 7.4, 2023 7.5.1: the position before it is reinstated whenever it is found during the
    game, 2...Nc6 going with it; 2023 7.5.5 gives Black two minutes. White used 10 + 10 + 5 s,
    Black 10 + 10 s."""
    g = _illegal_then_reply(edition, time_control="40/5400")
    assert len(g.state.moves) == 2 and g.state.turn == "white" and g.state.status == "ongoing"
    assert g.state.position.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
    articles = [r.article for r in g.state.rulings]
    assert articles[0] == {"1989": "8.1", "1997": "7.4", "2023": "7.5.1"}[edition]
    assert g.state.remaining_ms("white") == 5_375_000
    assert g.state.remaining_ms("black") == 5_380_000 + (120_000 if edition == "2023" else 0)


def test_under_a_5_2_the_move_found_after_the_reply_stands() -> None:
    """2023 rapid with an arbiter for several games: the same log, but A.5.2 lets the arbiter act
    only before the opponent has made his next move: the illegal move stands, and so does 2...Nc6."""
    g = _illegal_then_reply("2023", time_control="900+10", supervision="partial")
    assert len(g.state.moves) == 4 and g.state.status == "ongoing"
    assert last_ruling(g).article == "A.5.2" and "stands" in last_ruling(g).text


def test_in_1997_blitz_the_arbiter_does_not_act() -> None:
    """1997 blitz (C.3): the illegal move is completed by the press; only the opponent's claim before
    his own move counts. 1997 rapid (B.5): the arbiter rules only when a player asks."""
    g = _illegal_then_reply("1997", time_control="300")
    assert len(g.state.moves) == 4 and last_ruling(g).article == "C.3"
    g = _illegal_then_reply("1997", time_control="1800")
    assert len(g.state.moves) == 4 and last_ruling(g).article == "B.5"


@pytest.mark.parametrize("supervision", ["partial", "full"])
def test_seen_before_the_reply_the_illegal_move_is_corrected(supervision: str) -> None:
    """2023 rapid: 2.Ke3, seen at t=35 before Black moves: the position before it is reinstated and
    Black receives a minute (A.5.2 with 7.5.5 and A.3 under partial supervision; 7.5.1 under full)."""
    g = game(start(edition="2023", time_control="900+10", arbiter="occasional", supervision=supervision),
             moves(["e4", "e5", "e1e3"]))
    assert len(g.state.moves) == 3, "nobody saw it: it stands"
    g = g.apply(ev("observe", 35, what="illegal_move"))
    assert len(g.state.moves) == 2 and g.state.turn == "white"
    assert g.state.rulings[0].article == ("A.5.2" if supervision == "partial" else "7.5.1")
    # Black: 10 s for e5 (+10 increment), 5 s from White's press of 2.Ke3 to t=35, then the minute.
    assert g.state.remaining_ms("black") == 900_000 - 10_000 + 10_000 - 5_000 + 60_000


def test_a_pawn_on_the_last_rank_seen_by_the_arbiter_draws_after_the_next_move() -> None:
    """2023 A.5.4: an arbiter who watches only now and then sees the unreplaced pawn on a8 and waits
    until the next move is completed: the pawn is still there, the game is drawn. Not seen, the same
    moves let the game go on."""
    base = start(edition="2023", time_control="900+10", supervision="partial", arbiter="occasional", fen=PROMOTE)
    seen = game(base, ev("move", 5, "white", move="a7a8"), ev("observe", 7, what="illegal_move"))
    assert last_ruling(seen).article == "A.5.4" and seen.state.status == "ongoing"
    seen = seen.apply(ev("move", 9, "black", move="Kg7"))
    assert summary(seen) == ("finished", "1/2-1/2", "illegal_moves")
    unseen = game(base, ev("move", 5, "white", move="a7a8"), ev("move", 9, "black", move="Kg7"))
    assert summary(unseen) == ("ongoing", "*", None)


def test_no_illegal_move_to_observe_is_refused() -> None:
    g = game(start(edition="2023", arbiter="occasional"), moves(["e4"]))
    with pytest.raises(GameError, match="no illegal move"):
        g.apply(ev("observe", 15, what="illegal_move"))


def test_an_arbiter_present_sees_everything_as_before() -> None:
    """The default arbiter corrects the illegal move at once: nothing stands for him to observe."""
    g = game(start(edition="2023", time_control="5400"), moves(["e4", "e5", "e1e3"]))
    assert len(g.state.moves) == 2
    with pytest.raises(GameError, match="no illegal move"):
        g.apply(ev("observe", 35, what="illegal_move"))


def test_the_example_of_the_log_format_page() -> None:
    """docs/game-log.md's example: 2.Ke3 seen before Black moves is taken back and Black receives a
    minute (A.5.2, 7.5.5, A.3); had Black replied first, the move would stand."""
    import json
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "game-log.md").read_text(encoding="utf-8")
    block = doc.split("### An arbiter who observes some things", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    events = [json.loads(line) for line in block.splitlines() if line.strip()]
    g = Game.from_events(events)
    assert len(g.state.moves) == 2 and [r.article for r in g.state.rulings][:2] == ["A.5.2", "7.5.5"]
    assert g.state.remaining_ms("black") == 900_000 + 60_000 - 5_000  # e5 took 10 s, +10; 5 s after Ke3; +1 min
    replied = Game.from_events(events[:-1] + [{"type": "move", "t": 35, "by": "black", "move": "Nc6"}, events[-1]])
    assert len(replied.state.moves) == 4 and "stands" in replied.state.rulings[-1].text


def _two_hands(**fields: object) -> Game:
    """2023 rapid, 1.e4 e5 2.Nf3, the knight moved with two hands."""
    return game(start(edition="2023", time_control="900+10", **fields), moves(["e4", "e5"]),
                ev("move", 30, "white", move="Nf3", two_hands=True))


def test_two_hands_unseen_by_an_occasional_arbiter_is_not_penalised_until_seen_or_claimed() -> None:
    """2023 A.5.2 names 7.5.4: the arbiter acts on what he observes, the opponent claims what he does
    not, before his own next move. Black: 10 s for e5 (+10), then the minute of 7.5.5 and A.3."""
    assert last_ruling(_two_hands()).article == "A.3"  # an arbiter who sees everything: at once
    g = _two_hands(arbiter="occasional", supervision="partial")
    assert g.state.rulings == ()
    seen = g.apply(ev("observe", 33, what="illegal_move"))
    assert [r.article for r in seen.state.rulings][:2] == ["A.5.2", "7.5.4"]
    assert seen.state.remaining_ms("black") == 900_000 - 3_000 + 60_000
    claimed = g.apply(ev("claim_win", 33, "black", reason="illegal_move"))
    assert claimed.state.rulings[0].article == "7.5.4" and claimed.state.remaining_ms("black") == 957_000
    later = g.apply(ev("move", 40, "black", move="Nc6"))
    with pytest.raises(GameError, match="no illegal move"):
        later.apply(ev("observe", 45, what="illegal_move"))


def _two_hands_answered(edition: str, **fields: object) -> Game:
    """1.e4 e5 2.Nf3, the knight moved with two hands while the arbiter looked elsewhere, 2...Nc6; the
    arbiter looks at the board at t=45."""
    return game(start(edition=edition, arbiter="occasional", **fields), moves(["e4", "e5"]),
                ev("move", 30, "white", move="Nf3", two_hands=True), ev("move", 40, "black", move="Nc6"))


def test_an_act_penalised_as_an_illegal_move_is_found_later_in_standard_play() -> None:
    """2023 7.5.4: a move made with two hands is "considered and penalised as if an illegal move", and
    7.5.1 acts on an illegal move whenever "during a game it is found". Only A.5.2 (rapid and blitz with
    an arbiter for several games) ends that once the opponent has made his next move. Standard play
    (40/5400): the arbiter who finds it after 2...Nc6 penalises it: Black receives two minutes (7.5.5),
    the move stands. Black: 10 s for e5 and 10 s for Nc6, then 5 s of White's turn pass at t=45."""
    g = _two_hands_answered("2023", time_control="40/5400")
    assert g.state.rulings == ()
    with pytest.raises(GameError, match="no illegal move"):  # Black's claim comes too late: he has moved
        g.apply(ev("claim_win", 45, "black", reason="illegal_move"))
    seen = g.apply(ev("observe", 45, what="illegal_move"))
    assert [r.article for r in seen.state.rulings] == ["7.5.1", "7.5.4", "7.5.5"]
    assert seen.state.remaining_ms("black") == 5_400_000 - 20_000 + 120_000
    assert len(seen.state.moves) == 4 and seen.state.illegal_moves["white"] == 1
    with pytest.raises(GameError, match="no illegal move"):  # once penalised, it is not penalised again
        seen.apply(ev("observe", 50, what="illegal_move"))
    # Rapid with full supervision (A.4: the Competition Rules apply): found later, one minute (A.3).
    full = _two_hands_answered("2023", time_control="900+10", supervision="full")
    assert [r.article for r in full.apply(ev("observe", 45, what="illegal_move")).state.rulings][:3] == [
        "7.5.1", "7.5.4", "7.5.5"]
    # Rapid with an arbiter for several games (A.5.2): too late, the move stands.
    partial = _two_hands_answered("2023", time_control="900+10", supervision="partial")
    with pytest.raises(GameError, match="no illegal move"):
        partial.apply(ev("observe", 45, what="illegal_move"))


@pytest.mark.parametrize("edition", ["1989", "1997"])
def test_the_earlier_laws_do_not_penalise_two_hands_as_an_illegal_move(edition: str) -> None:
    """The same log under 1997 (4.1: one hand only; the arbiter's penalty, 13.4, is his to choose) and
    1989 (nothing): the move is no illegal move, and there is nothing for the arbiter to find."""
    g = _two_hands_answered(edition, time_control="40/5400")
    assert [r.article for r in g.state.rulings] == (["4.1"] if edition == "1997" else [])
    with pytest.raises(GameError, match="no illegal move"):
        g.apply(ev("observe", 45, what="illegal_move"))


def test_a_press_without_a_move_found_later_in_standard_play() -> None:
    """2023 7.5.3: White presses the clock without making a move at t=25 (his clock restarted), then
    plays 2.Nf3 and Black 2...Nc6; the arbiter finds it at t=50: Black receives two minutes (7.5.5).
    Two acts are found one at a time, the latest first: 3.Bc4 with two hands is penalised first, and
    the earlier press, White's second illegal move, then loses the game (7.5.5)."""
    g = game(start(edition="2023", time_control="40/5400", arbiter="occasional"), moves(["e4", "e5"]),
             ev("press_clock", 25, "white"), moves(["Nf3", "Nc6"], t0=25), ev("move", 50, "white", move="Bc4",
                                                                                 two_hands=True))
    assert g.state.rulings == ()
    first = g.apply(ev("observe", 55, what="illegal_move"))
    assert [r.article for r in first.state.rulings] == ["7.5.4", "7.5.5"]
    second = first.apply(ev("observe", 56, what="illegal_move"))
    assert [r.article for r in second.state.rulings][2:] == ["7.5.1", "7.5.3", "7.5.5"]
    assert summary(second) == ("finished", "0-1", "illegal_moves")

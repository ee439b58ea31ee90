"""Flag falls: who loses, the exceptions, both flags, observing and claiming.

1989 10.14, 10.5, 12.2, 12.8; 1997 6.8, 6.9, 6.11, 10.4, B.6-B.8, C.2;
2023 6.8, 6.9, Guidelines III.3.1.
"""

from __future__ import annotations

import pytest

from chesslaws.game import Game, GameError
from _arb import ev, game, last_ruling, moves, start, summary

EDITIONS = ["1989", "1997", "2023"]
LONE_KING = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"  # White K+R, Black a lone king; White to move
KNIGHT_V_QUEEN = "1n2k3/8/8/8/8/8/8/3QK3 w - - 0 1"  # Black K+N, White K+Q
KNIGHT_V_PAWN = "1n2k3/8/8/8/8/8/4P3/4K3 w - - 0 1"  # Black K+N, White K+P


def flagged_white(edition: str, fen: str) -> Game:
    """White, to move, lets 90 minutes run out; the arbiter (present) sees it at t=5400."""
    return game(start(edition=edition, time_control="5400", fen=fen)).at(5401)


@pytest.mark.parametrize("edition", EDITIONS)
def test_flag_against_a_lone_king_is_a_draw(edition: str) -> None:
    """1989 10.14 / 10.5: the opponent "has only the king remaining"; 1997 and 2023 6.9: a lone
    king cannot checkmate by any series of legal moves. The game is drawn."""
    g = flagged_white(edition, LONE_KING)
    assert summary(g) == ("finished", "1/2-1/2", "time_forfeit")
    r = last_ruling(g)
    assert r.t_ms == 5400_000
    assert r.article in ({"10.14", "10.5"} if edition == "1989" else {"6.9"})
    assert g.state.to_json()["clocks"] == {"white_ms": 0, "black_ms": 5400_000, "running": None}
    assert g.state.to_json()["score"] == {"white": 0.5, "black": 0.5}


@pytest.mark.parametrize(
    ("edition", "result"), [("1989", "0-1"), ("1997", "1/2-1/2"), ("2023", "1/2-1/2")]
)
def test_flag_against_king_and_knight(edition: str, result: str) -> None:
    """White (K+Q) oversteps against Black's K+N. 1989 10.14: Black has more than the king,
    so White loses. 1997 / 2023 6.9: a lone knight cannot mate a king whose only piece is a
    queen (the queen cannot block without also guarding the knight's checking square): draw."""
    g = flagged_white(edition, KNIGHT_V_QUEEN)
    assert summary(g) == ("finished", result, "time_forfeit")
    assert last_ruling(g).article == {"1989": "10.14", "1997": "6.9", "2023": "6.9"}[edition]


@pytest.mark.parametrize("edition", EDITIONS)
def test_flag_against_king_and_knight_when_a_pawn_can_block(edition: str) -> None:
    """K+N against K+P: a helpmate exists (the pawn can help hem in its king), so the
    knight's side wins on time in every edition (1997 6.9: "even by the most unskilled counterplay")."""
    g = flagged_white(edition, KNIGHT_V_PAWN)
    assert summary(g) == ("finished", "0-1", "time_forfeit")


@pytest.mark.parametrize(("edition", "article"), [("1989", "10.14"), ("1997", "6.9"), ("2023", "6.9")])
def test_flag_with_full_material_loses(edition: str, article: str) -> None:
    g = game(start(edition=edition, time_control="5400"), moves(["e4"], step=100)).at(6000)
    # Black's clock started at t=100 with 5400 s: it falls at t=5500.
    assert summary(g) == ("finished", "1-0", "time_forfeit")
    r = last_ruling(g)
    assert (r.t_ms, r.article) == (5500_000, article)
    assert g.state.to_json()["clocks"] == {"white_ms": 5400_000 - 100_000, "black_ms": 0, "running": None}


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_game_is_still_on_a_millisecond_before_the_flag(edition: str) -> None:
    g = game(start(edition=edition, time_control="5400"), moves(["e4"], step=100)).at(5499.999)
    assert g.state.status == "ongoing"
    assert g.state.to_json()["clocks"]["black_ms"] == 1


def test_flag_instant_with_increments() -> None:
    """2023, 60+5 (blitz; the arbiter present calls flags): 1.e4 at 10 s leaves White
    60 - 10 + 5 = 55 s; 1...e5 at 20 s leaves Black 55 s; White's clock, restarted at 20 s,
    shows 0 at t=75."""
    g = game(start(edition="2023", time_control="60+5"), moves(["e4", "e5"], step=10)).at(100)
    assert summary(g) == ("finished", "0-1", "time_forfeit")
    assert last_ruling(g).t_ms == 75_000
    assert g.state.to_json()["clocks"] == {"white_ms": 0, "black_ms": 55_000, "running": None}


def test_flag_instant_with_increments_1997_standard() -> None:
    """1997, 5400+30: 1.e4 at 100 s -> White 5330 s; 1...e5 at 200 s -> Black 5330 s;
    White's clock falls at 200 + 5330 = 5530 s."""
    g = game(start(edition="1997", time_control="5400+30"), moves(["e4", "e5"], step=100)).at(6000)
    assert last_ruling(g).t_ms == 5530_000
    assert g.state.result == "0-1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_event_after_an_observed_flag_fall_is_an_error_naming_it(edition: str) -> None:
    """An arbiter present observes the flag at the exact instant (1989 12.2, 1997 / 2023 6.8):
    White's move at t=5450 comes after the game ended at t=5400."""
    g = game(start(edition=edition, time_control="5400", mode="standard"))
    with pytest.raises(GameError, match=r"move at t=5450") as err:
        g.apply(ev("move", 5450, "white", move="e4"))
    assert "5400" in str(err.value)
    assert err.value.event is not None and err.value.event.type == "move"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_move_pressed_at_the_flag_instant_is_too_late(edition: str) -> None:
    g = game(start(edition=edition, time_control="5400", mode="standard"))
    with pytest.raises(GameError):
        g.apply(ev("move", 5400, "white", move="e4"))
    assert g.apply(ev("move", 5399.999, "white", move="e4")).state.status == "ongoing"


@pytest.mark.parametrize("edition", EDITIONS)
def test_claim_after_observed_flag_is_an_error(edition: str) -> None:
    g = game(start(edition=edition, time_control="5400", mode="standard"), moves(["e4"], step=100))
    with pytest.raises(GameError, match=r"claim_flag at t=5600"):
        g.apply(ev("claim_flag", 5600, "white"))


# --- arbiter absent: flags count only on a claim ------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_without_arbiter_the_flag_counts_only_when_claimed(edition: str) -> None:
    """1989 12.2 ("where no arbiter is present ... when a claim ... has been made"), 1997 / 2023 6.8."""
    g = game(start(edition=edition, time_control="60", arbiter="absent"), moves(["e4"], step=10))
    g = g.at(200)
    assert g.state.status == "ongoing"
    g = g.apply(ev("claim_flag", 200, "white"))
    assert summary(g) == ("finished", "1-0", "time_forfeit")
    assert last_ruling(g).t_ms == 200_000


@pytest.mark.parametrize("edition", EDITIONS)
def test_claim_flag_before_it_has_fallen_changes_nothing(edition: str) -> None:
    g = game(start(edition=edition, time_control="60", arbiter="absent"), moves(["e4"], step=10),
             ev("claim_flag", 30, "white"))
    assert summary(g) == ("ongoing", "*", None)
    assert g.state.to_json()["clocks"]["black_ms"] == 60_000 - 20_000


@pytest.mark.parametrize("edition", EDITIONS)
def test_without_arbiter_a_mate_after_an_unclaimed_flag_stands(edition: str) -> None:
    """1997 6.9: "Articles 5.1, 5.2 and 5.3 take precedence". Black's flag fell at t=62
    (1 s used, then 59 s from t=3), nobody claimed, and ...Qh4# at t=100 wins."""
    g = game(start(edition=edition, time_control="60", arbiter="absent"),
             ev("move", 1, "white", move="f3"), ev("move", 2, "black", move="e5"),
             ev("move", 3, "white", move="g4"), ev("move", 100, "black", move="Qh4#"))
    assert summary(g) == ("finished", "0-1", "checkmate")
    with pytest.raises(GameError):
        g.apply(ev("claim_flag", 101, "white"))


def test_1997_rapid_flags_are_not_called_by_the_arbiter() -> None:
    """1997 B.6: in rapidplay (and blitz, C.2) "the arbiter shall refrain from signalling a
    flag fall": the flag counts only when a player claims it (B.7)."""
    g = game(start(edition="1997", time_control="1800"), moves(["e4"], step=10))
    assert g.at(3000).state.status == "ongoing"
    g = g.apply(ev("claim_flag", 3000, "white"))
    assert summary(g) == ("finished", "1-0", "time_forfeit")


def test_2023_rapid_flags_are_called_by_the_arbiter() -> None:
    g = game(start(edition="2023", time_control="1800"), moves(["e4"], step=10)).at(3000)
    assert summary(g) == ("finished", "1-0", "time_forfeit")
    assert last_ruling(g).t_ms == 1810_000


# --- both flags ----------------------------------------------------------------------


def both_fallen(edition: str, tc: str, mode: str | None = None) -> Game:
    """No arbiter. White 1.e4 at t=50 (10 s left); Black's flag falls at 110, he moves at 115;
    White's flag falls at 125; at 130 White claims Black's flag."""
    fields = {"edition": edition, "time_control": tc, "arbiter": "absent"}
    if mode:
        fields["mode"] = mode
    return game(start(**fields), ev("move", 50, "white", move="e4"), ev("move", 115, "black", move="e5"),
                ev("claim_flag", 130, "white"))


def test_both_flags_1989_the_game_continues() -> None:
    """1989 12.8: both flags fallen and no telling which fell first: the game shall continue."""
    g = both_fallen("1989", "60")
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == "12.8"


def test_both_flags_1997_standard_before_the_last_period_continue() -> None:
    """1997 6.11: both flags fallen in the 40-move period: the game continues."""
    g = both_fallen("1997", "40/60:60", mode="standard")
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == "6.11"


def test_both_flags_1997_quickplay_finish_is_a_draw() -> None:
    """1997 10.4: in a quickplay finish, both flags fallen: drawn."""
    g = both_fallen("1997", "60", mode="standard")
    assert summary(g) == ("finished", "1/2-1/2", "both_flags_fallen")
    assert last_ruling(g).article == "10.4"


def test_both_flags_1997_blitz_is_a_draw() -> None:
    """1997 C.2 / B.8: "If both flags have fallen, the game is drawn"."""
    g = both_fallen("1997", "60")
    assert summary(g) == ("finished", "1/2-1/2", "both_flags_fallen")
    assert last_ruling(g).article == "B.8"


def test_both_flags_2023_last_period_without_increment_is_a_draw() -> None:
    """2023 Guidelines III.3.1.2: drawn when it happens in the period where all remaining moves
    must be completed."""
    g = both_fallen("2023", "60")
    assert summary(g) == ("finished", "1/2-1/2", "both_flags_fallen")
    assert last_ruling(g).article == "III.3.1.2"


def test_both_flags_2023_earlier_period_continues() -> None:
    """2023 III.3.1.1: "the game shall continue if it occurs in any period of the game except the last"."""
    g = both_fallen("2023", "40/60:60", mode="standard")
    assert g.state.status == "ongoing"
    assert last_ruling(g).article == "III.3.1.1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_both_flags_claimed_by_black_too(edition: str) -> None:
    """The same fall of both flags, claimed by Black instead: the same verdict as White's claim."""
    fields = {"edition": edition, "time_control": "60", "arbiter": "absent"}
    g = game(start(**fields), ev("move", 50, "white", move="e4"), ev("move", 115, "black", move="e5"),
             ev("claim_flag", 130, "black"))
    assert g.state.result == both_fallen(edition, "60").state.result
    assert g.state.result != "0-1"


def test_flag_of_an_absent_player_falls_before_the_default_time() -> None:
    """1997, 30 minutes, White absent: his clock runs from the scheduled start (6.5) and his
    flag falls at t=1800, long before the hour of 6.6 is up. The arbiter observes the flag
    (6.8): White loses on time at 1800, whenever one looks at the game afterwards."""
    g = game(start(edition="1997", time_control="1800", mode="standard", absent=["white"]))
    looked_once = g.at(4000)
    looked_twice = g.at(2000).at(4000)
    assert summary(looked_twice) == ("finished", "0-1", "time_forfeit")
    assert last_ruling(looked_twice).t_ms == 1800_000
    assert looked_once.state.to_json() == looked_twice.state.to_json()


TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N2K1N1 b - - 0 1"  # White K+N+N, Black a lone king to move


@pytest.mark.parametrize(
    ("edition", "tc", "result"),
    [
        ("1997", "300", "1/2-1/2"),
        ("1997", "1800", "1-0"),
        ("1997", "5400", "1-0"),
        ("2023", "300", "1-0"),
        ("2023", "5400", "1-0"),
    ],
)
def test_flag_against_two_knights(edition: str, tc: str, result: str) -> None:
    """Black's flag falls against K+N+N (claimed, no arbiter). 1997 6.9 and 2023 6.9: two knights
    can mate by a series of legal moves (a helpmate), so White wins. But 1997 blitz, C.4: "In
    order to win, a player must have mating potential ... Thus two knights and a king against a
    lone king is insufficient": a draw. (Rapidplay, Appendix B, has no such rule.)"""
    t = int(tc) + 1
    g = game(start(edition=edition, time_control=tc, fen=TWO_KNIGHTS, arbiter="absent"),
             ev("claim_flag", t, "white"))
    assert g.state.result == result
    assert g.state.status == "finished"
    assert last_ruling(g).article == ("C.4" if result == "1/2-1/2" else "6.9")


@pytest.mark.parametrize("edition", EDITIONS)
def test_flag_in_the_second_period_with_time_carried_over(edition: str) -> None:
    """1989 12.1 / 1997 6.2: "the time saved by a player during one period is added to his time
    available for the next period". 2/60:30 -- each side makes two moves in 20 s, so enters the
    second period with 40 + 30 = 70 s; White's clock, restarted at t=40, falls at t=110."""
    g = game(start(edition=edition, time_control="2/60:30", mode="standard"),
             moves(["e4", "e5", "Nf3", "Nc6"], step=10))
    assert g.state.to_json()["clocks"] == {"white_ms": 70_000, "black_ms": 70_000, "running": "white"}
    g = g.at(200)
    assert summary(g) == ("finished", "0-1", "time_forfeit")
    assert last_ruling(g).t_ms == 110_000

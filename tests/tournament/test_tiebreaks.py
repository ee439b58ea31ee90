"""Tie-breaks (FIDE C.07, 2023) on worked examples computed by hand (the working is in the comments)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chesslaws.tournament import (
    Board, Bye, Player, Regulations, Round, Scoring, Tournament, TournamentError, standings,
)
from chesslaws.tournament.records import player_entries
from chesslaws.tournament.tiebreaks import rating_difference, tiebreak_values
from chesslaws.tournament.trf import write_trf

ALL = ("BH", "BH-C1", "BH-M1", "SB", "SB-C1", "WIN", "WON", "BPG", "BWG", "PS", "ARO", "TPR")


def players(*ratings: int) -> tuple[Player, ...]:
    return tuple(Player(i, f"P{i}", r) for i, r in enumerate(ratings, 1))


def example_a(scoring: Scoring | None = None) -> Tournament:
    """A four-player round robin, every game played.

    R1: 1-4 1-0, 2-3 1/2   R2: 4-3 0-1, 1-2 1/2   R3: 2-4 1-0, 3-1 0-1
    Scores: P1 2.5, P2 2, P3 1.5, P4 0.
    """
    rounds = (
        Round(1, (Board(1, 1, 4, "1-0"), Board(2, 2, 3, "1/2-1/2"))),
        Round(2, (Board(1, 4, 3, "0-1"), Board(2, 1, 2, "1/2-1/2"))),
        Round(3, (Board(1, 2, 4, "1-0"), Board(2, 3, 1, "0-1"))),
    )
    reg = Regulations(system="round-robin", scoring=scoring or Scoring())
    return Tournament("A", reg, players(2000, 1900, 1800, 1700), rounds)


def test_example_a_every_game_played() -> None:
    v = tiebreak_values(example_a(), ALL)
    # Buchholz: sum of the opponents' scores. P1 meets 4, 2, 3: 0 + 2 + 1.5.
    assert [v[i]["BH"] for i in (1, 2, 3, 4)] == [3.5, 4.0, 4.5, 6.0]
    # Cut 1 drops the lowest (P4's 0 for P1-P3; P3's 1.5 for P4); median 1 also drops the highest.
    assert [v[i]["BH-C1"] for i in (1, 2, 3, 4)] == [3.5, 4.0, 4.5, 4.5]
    assert v[1]["BH-M1"] == 1.5
    # Sonneborn-Berger: P1 beat P4 (0) and P3 (1.5), drew P2 (2 x 1/2) = 2.5; P2: 1.5/2 + 2.5/2 + 0 = 2.
    assert [v[i]["SB"] for i in (1, 2, 3, 4)] == [2.5, 2.0, 1.0, 0.0]
    assert [v[i]["WIN"] for i in (1, 2, 3, 4)] == [2, 1, 1, 0]
    assert [v[i]["BPG"] for i in (1, 2, 3, 4)] == [1, 1, 2, 2]
    assert [v[i]["BWG"] for i in (1, 2, 3, 4)] == [1, 0, 1, 0]
    # Progressive: P1 1 + 1.5 + 2.5; P2 0.5 + 1 + 2.
    assert [v[i]["PS"] for i in (1, 2, 3, 4)] == [5.0, 3.5, 3.5, 0.0]
    # ARO: (1700 + 1900 + 1800) / 3 = 1800; P2 5500 / 3 = 1833.3; P3 5600 / 3 = 1866.7 rounds up.
    assert [v[i]["ARO"] for i in (1, 2, 3, 4)] == [1800, 1833, 1867, 1900]
    # TPR = ARO + dp(p): P1 p = 0.83 -> 273; P2 0.67 -> 125; P3 0.50 -> 0; P4 0 -> -800.
    assert [v[i]["TPR"] for i in (1, 2, 3, 4)] == [2073, 1958, 1867, 1100]


def test_rating_difference_table() -> None:
    assert rating_difference(1.0) == 800 and rating_difference(0.0) == -800
    assert rating_difference(0.5) == 0 and rating_difference(0.75) == 193 and rating_difference(0.25) == -193
    assert rating_difference(2 / 3) == 125


def test_football_scoring() -> None:
    # 3-1-0: P1 3 + 1 + 3 = 7, P2 1 + 1 + 3 = 5, P3 1 + 3 + 0 = 4, P4 0.
    t = example_a(Scoring.parse("3-1-0"))
    rows = standings(t, ("BH",))
    assert [(s.start_number, s.points) for s in rows] == [(1, 7), (2, 5), (3, 4), (4, 0)]
    assert dict(rows[0].tiebreaks)["BH"] == 0 + 5 + 4
    # Sonneborn-Berger weighs each opponent's score by the points the round gave, 3 or 1 (FIDE TEC's checker):
    # P1 beat P4 (0 x 3), drew P2 (5 x 1), beat P3 (4 x 3) = 17; P2 drew P3 (4) and P1 (7), beat P4 (0) = 11.
    assert [tiebreak_values(t, ("SB",))[i]["SB"] for i in (1, 2, 3, 4)] == [17, 11, 5, 0]


def example_b() -> Tournament:
    """Six players, three rounds, with every kind of unplayed round.

    R1: 1-4 1-0; 2-5 +- (5 never arrives: a forfeit); 3 half-point bye (requested); 6 pairing-allocated bye
    R2: 6-1 0-1; 4-2 1/2; 3-5 1-0
    R3: 1-3 1/2; 2-6 1-0; 4 half-point bye (requested); 5 withdrawn
    Scores: P1 2.5, P2 2.5, P3 2, P4 1, P5 0, P6 1.
    """
    rounds = (
        Round(1, (Board(1, 1, 4, "1-0"), Board(2, 2, 5, "+-")), (Bye(3, "half"), Bye(6, "pab"))),
        Round(2, (Board(1, 6, 1, "0-1"), Board(2, 4, 2, "1/2-1/2"), Board(3, 3, 5, "1-0"))),
        Round(3, (Board(1, 1, 3, "1/2-1/2"), Board(2, 2, 6, "1-0")), (Bye(4, "half"),)),
    )
    ps = list(players(2200, 2100, 2000, 1900, 1800, 1700))
    return Tournament("B", Regulations(rounds=3), tuple(ps), rounds)


def test_example_b_unplayed_rounds() -> None:
    v = tiebreak_values(example_b(), ALL)
    # Opponents' scores as adjusted by 16.3: P5's last round (sat out after withdrawing) counts as a draw: 0.5;
    # P3's half-point bye is followed by played games, so it counts as given; P4's bye is the last round: a draw.
    # Own unplayed rounds: a dummy opponent with the player's own score (16.4).
    # P1: 1 (P4) + 1 (P6) + 2 (P3) = 4.   P2: 2.5 (dummy, forfeit win) + 1 (P4) + 1 (P6) = 4.5.
    # P3: 2 (dummy, half bye) + 0.5 (P5) + 2.5 (P1) = 5.   P4: 2.5 + 2.5 + 1 (dummy) = 6.
    # P5: 0 (dummy, forfeit loss) + 2 (P3) + 0 (dummy, absent) = 2.   P6: 1 (dummy, PAB) + 2.5 + 2.5 = 6.
    assert [v[i]["BH"] for i in range(1, 7)] == [4, 4.5, 5, 6, 2, 6]
    # Cut 1 takes the voluntary unplayed rounds first (16.5): P3 loses its bye's 2, not P5's 0.5.
    assert [v[i]["BH-C1"] for i in range(1, 7)] == [3, 3.5, 3, 5, 2, 5]
    # SB: P2 2.5 x 1 (forfeit win against the dummy) + 1 x 1/2 + 1 x 1 = 4; P3 2 x 1/2 + 0.5 x 1 + 2.5 x 1/2.
    assert [v[i]["SB"] for i in range(1, 7)] == [3, 4, 2.75, 1.75, 0, 1]
    # Wins with or without playing (a forfeit win and a PAB count) and wins over the board.
    assert [v[i]["WIN"] for i in range(1, 7)] == [2, 2, 1, 0, 0, 1]
    assert [v[i]["WON"] for i in range(1, 7)] == [2, 1, 1, 0, 0, 0]
    # Only games played count for ARO: P2 met P4 and P6 over the board: (1900 + 1700) / 2.
    assert v[2]["ARO"] == 1800


def test_a_full_point_bye_is_not_a_voluntary_unplayed_round() -> None:
    """Example B with full-point byes for P3 in round 1 and P4 in round 3 (not voluntary: FIDE TEC's checker;
    C.07 16.2.1 with the PAB in a third-party reading): P3's cut removes the least value, P5's 0.5, not the bye's dummy (P3's own 2.5): 2.5 + 0.5 + 2.5
    less 0.5 = 5; P4's last-round bye counts as the win it gave in P1's Buchholz, not as a draw: P4 1.5, P6 1,
    P3 2.5 = 5."""
    from dataclasses import replace

    t = example_b()
    r1, r2, r3 = t.rounds
    t = replace(t, rounds=(replace(r1, byes=(Bye(3, "full"), Bye(6, "pab"))), r2, replace(r3, byes=(Bye(4, "full"),))))
    v = tiebreak_values(t, ("BH", "BH-C1"))
    assert (v[3]["BH"], v[3]["BH-C1"]) == (5.5, 5.0)
    assert v[1]["BH"] == 5.0


def test_example_b_ranking() -> None:
    rows = standings(example_b(), ("BH-C1", "BH", "SB"))
    # P1 and P2 tie on 2.5: BH-C1 3 against 3.5 puts P2 first; P4 and P6 tie on 1, BH-C1 and BH too; SB 1.75 > 1.
    assert [s.start_number for s in rows] == [2, 1, 3, 4, 6, 5]
    assert [s.rank for s in rows] == [1, 2, 3, 4, 5, 6]


def test_direct_encounter() -> None:
    # R1: 1-4 0-1, 2-3 1-0   R2: 4-3 1/2, 1-2 1-0   R3: 2-4 1/2, 3-1 0-1: P1 and P4 both 2, and P4 beat P1.
    rounds = (
        Round(1, (Board(1, 1, 4, "0-1"), Board(2, 2, 3, "1-0"))),
        Round(2, (Board(1, 4, 3, "1/2-1/2"), Board(2, 1, 2, "1-0"))),
        Round(3, (Board(1, 2, 4, "1/2-1/2"), Board(2, 3, 1, "0-1"))),
    )
    t = Tournament("DE", Regulations(system="round-robin"), players(2000, 1900, 1800, 1700), rounds)
    rows = standings(t, ("DE", "SB"))
    assert [s.start_number for s in rows[:2]] == [4, 1]
    assert dict(rows[0].tiebreaks)["DE"] == 1 and dict(rows[1].tiebreaks)["DE"] == 0
    # Without DE, SB decides the other way: P1 beat P2 (1.5) and P3 (0.5) = 2; P4 1 x 2 + 1/2 x 0.5 + 1/2 x 1.5 = 3.
    rows = standings(t, ("SB",))
    assert [s.start_number for s in rows[:2]] == [4, 1]
    assert dict(rows[0].tiebreaks)["SB"] == 3 and dict(rows[1].tiebreaks)["SB"] == 2


def test_direct_encounter_when_not_all_met() -> None:
    # R1: 1-2 1-0, 3-4 1-0, 5-6 1/2   R2: 1-3 1-0, 2-5 1-0, 4-6 1/2   R3: 1-4 0-1, 2-6 1-0, 3-5 1-0
    # P1, P2, P3 tie on 2 points. P1 beat both others (2); P2 and P3 never met: each scored 0 in the group and
    # could reach at most 1 by winning the missing game, less than P1's 2: P1 is ranked before them; between
    # P2 and P3 direct encounter cannot decide (they did not meet), so they stay tied.
    rounds = (
        Round(1, (Board(1, 1, 2, "1-0"), Board(2, 3, 4, "1-0"), Board(3, 5, 6, "1/2-1/2"))),
        Round(2, (Board(1, 1, 3, "1-0"), Board(2, 2, 5, "1-0"), Board(3, 4, 6, "1/2-1/2"))),
        Round(3, (Board(1, 1, 4, "0-1"), Board(2, 2, 6, "1-0"), Board(3, 3, 5, "1-0"))),
    )
    t = Tournament("DE2", Regulations(rounds=3), players(2000, 1950, 1900, 1850, 1800, 1750), rounds)
    rows = standings(t, ("DE",))
    assert [s.points for s in rows[:4]] == [2, 2, 2, 1.5]
    assert [(s.start_number, s.rank, dict(s.tiebreaks)["DE"]) for s in rows[:4]] == \
        [(1, 1, 2), (2, 2, 0), (3, 2, 0), (4, 4, 0)]


def test_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="XYZ"):
        standings(example_a(), ("XYZ",))


# --- against FIDE TEC's tie-break checker -------------------------------------------------------------

TBS = os.environ.get("CHESSLAWS_TIEBREAK_SERVER")  # a checkout of OttoMilvang/TieBreakServer (tiebreakchecker.py)
try:  # else the same checker as published on PyPI (gacrux, a test extra)
    import gacrux.tiebreakchecker  # noqa: F401

    GACRUX = True
except ImportError:
    GACRUX = False
# The checker's command and working directory.
TBS_RUN: tuple[list[str], str | None] | None = (
    ([sys.executable, "tiebreakchecker.py"], TBS) if TBS else
    ([sys.executable, "-m", "gacrux.tiebreakchecker"], None) if GACRUX else None)
NO_TBS = "FIDE TEC's tie-break checker is not installed (pip install gacrux, or CHESSLAWS_TIEBREAK_SERVER=checkout)"
# Our names -> the checker's, under the rules in force before the 2026 amendment (V1: the 2023 text, as of 2024).
TBS_NAMES = {"BH": "BH/V1", "BH-C1": "BH/C1/V1", "BH-C2": "BH/C2/V1", "BH-M1": "BH/M1/V1", "SB": "SB/V1",
             "SB-C1": "SB/C1/V1", "WIN": "WIN", "WON": "WON", "BPG": "BPG", "BWG": "BWG", "PS": "PS", "ARO": "ARO",
             "TPR": "TPR"}


def tbs_values(t: Tournament, tmp: Path, names: dict[str, str] | None = None,
               extra: tuple[str, ...] = ()) -> dict[int, dict[str, float]]:
    names = names or TBS_NAMES
    path = tmp / "event.trf"
    path.write_text(write_trf(t))
    assert TBS_RUN is not None
    cmd, cwd = TBS_RUN
    out = subprocess.run([*cmd, "-i", str(path), "-f", "TRF", "-dT", *extra, "-t", "PTS",
                          *names.values()], capture_output=True, text=True, cwd=cwd, timeout=120)
    lines = out.stdout.splitlines()
    assert lines and lines[0].startswith("StartNo"), out.stdout + out.stderr
    head = lines[0].split("\t")
    back = {v: k for k, v in names.items()}
    values: dict[int, dict[str, float]] = {}
    for line in lines[1:]:
        cells = dict(zip(head, line.split("\t")))
        values[int(cells["StartNo"])] = {back[k]: float(v) for k, v in cells.items() if k in back}
    return values


def tbs_de_ranks(t: Tournament, tmp: Path) -> dict[int, int]:
    """Each player's rank by points, then direct encounter, as the checker gives it."""
    path = tmp / "de.trf"
    path.write_text(write_trf(t))
    assert TBS_RUN is not None
    out = subprocess.run([*TBS_RUN[0], "-i", str(path), "-f", "TRF", "-dT", "-t", "PTS", "DE"],
                         capture_output=True, text=True, cwd=TBS_RUN[1], timeout=120).stdout.splitlines()
    return {int(line.split("\t")[0]): int(line.split("\t")[1]) for line in out[1:]}


@pytest.mark.skipif(TBS_RUN is None, reason=NO_TBS)
@pytest.mark.parametrize("make", [example_a, example_b], ids=["a", "b"])
def test_worked_examples_agree_with_the_fide_tec_checker(make: Any, tmp_path: Path) -> None:
    t = make()
    assert tbs_values(t, tmp_path) == tiebreak_values(t, tuple(TBS_NAMES))


@pytest.mark.skipif(TBS_RUN is None, reason=NO_TBS)
@pytest.mark.parametrize("system", ["swiss", "round-robin", "double-round-robin"])
def test_direct_encounter_ranks_as_the_fide_tec_checker(system: str, tmp_path: Path) -> None:
    import random

    from chesslaws.tournament import pair_next_round

    for seed in range(6):
        rng = random.Random(seed)
        t = Tournament("DE", Regulations(system=system, rounds=4))  # type: ignore[arg-type]
        for i in range(10 if system == "swiss" else 6 if system == "round-robin" else 5):
            t = t.add_player(f"P{i + 1}", rng.randint(1500, 2200))
        for r in range(1, t.total_rounds + 1):
            t = pair_next_round(t)
            for b in t.rounds[-1].boards:
                x = rng.random()
                t = t.set_result(r, b.table, "1/2-1/2" if x < 0.4 else "1-0" if x < 0.7 else "0-1")
        assert tbs_de_ranks(t, tmp_path) == {s.start_number: s.rank for s in standings(t, ("DE",))}, (system, seed)


@pytest.mark.skipif(TBS_RUN is None, reason=NO_TBS)
def test_a_simulated_swiss_agrees_with_the_fide_tec_checker(tmp_path: Path) -> None:
    from test_swiss_play import run_event

    t, _ = run_event(44, 7, seed=3)  # requested byes, forfeits by late arrival, a withdrawal, PABs
    theirs = tbs_values(t, tmp_path)
    ours = tiebreak_values(t, tuple(TBS_NAMES))
    diffs = [(sn, k, theirs[sn][k], ours[sn][k]) for sn in ours for k in TBS_NAMES
             if abs(theirs[sn][k] - ours[sn][k]) > 1e-9]
    assert diffs == []


# The 2026 amendment of Article 16.4: the checker's rules version 2.
TBS_NAMES_2026 = {k: v.replace("/V1", "/V2") for k, v in TBS_NAMES.items()}


@pytest.mark.skipif(TBS_RUN is None, reason=NO_TBS)
def test_the_2026_amendment_and_unrated_opponents_agree_with_the_fide_tec_checker(tmp_path: Path) -> None:
    """The simulated Swiss (byes, forfeits, a withdrawal) under the 2026 amendment of Art. 16.4, with a fifth
    of the players unrated and counted at 1400 in ARO and TPR: every value of every player equals the
    checker's (rules version 2, -u 1400), and the amendment does change some Buchholz values."""
    from dataclasses import replace

    from test_swiss_play import run_event

    t, _ = run_event(44, 7, seed=3)
    t = replace(t, players=tuple(replace(p, rating=0) if p.start_number % 5 == 0 else p for p in t.players))
    amended = replace(t, regulations=replace(t.regulations, tiebreak_rules="2026", unrated_rating=1400))
    theirs = tbs_values(amended, tmp_path, TBS_NAMES_2026, ("-u", "1400"))
    ours = tiebreak_values(amended, tuple(TBS_NAMES))
    diffs = [(sn, k, theirs[sn][k], ours[sn][k]) for sn in ours for k in TBS_NAMES
             if abs(theirs[sn][k] - ours[sn][k]) > 1e-9]
    assert diffs == []
    before = tiebreak_values(t, ("BH", "SB", "ARO"))
    assert any(before[sn]["BH"] != ours[sn]["BH"] for sn in ours)
    assert any(before[sn]["ARO"] != ours[sn]["ARO"] for sn in ours)


def test_regulations_name_their_tiebreak_rules_and_unrated_rating() -> None:
    """Unknown tie-break rules or an impossible rating are refused with the field named; JSON keeps both."""
    with pytest.raises(TournamentError, match="field 'tiebreak_rules'"):
        Regulations(tiebreak_rules="2025")
    with pytest.raises(TournamentError, match="field 'unrated_rating'"):
        Regulations(unrated_rating=0)
    reg = Regulations(tiebreak_rules="2026", unrated_rating=1000)
    assert Regulations.from_json(reg.to_json()) == reg


# --- Standard Points (STD), C.07 2026 ---------------------------------------------------------------


def _rules_2026(t: Tournament, scoring: str) -> Tournament:
    from dataclasses import replace

    return replace(t, regulations=replace(t.regulations, scoring=Scoring.parse(scoring), tiebreak_rules="2026"))


def test_standard_points_count_each_round_against_a_draw() -> None:
    """Example B scored 3-1-0 under the 2026 rules: per round 1, 1/2 or 0 as its points are above, equal to or
    below a draw's (1). P1 W W D = 2.5 (7 points); P2 forfeit win, D, W = 2.5 (7); P3 half bye (1 point = a
    draw), W, D = 2 (5); P4 L, D, half bye = 1 (2); P5 forfeit loss, L, round sat out after withdrawing = 0;
    P6 PAB, L, L: the PAB gives a win's 3 points by default (1), 1 point with pab=1 (a draw's: 1/2), 2 points
    with pab=2 (more than a draw: 1, where its game points would be 1/2)."""
    t = _rules_2026(example_b(), "3-1-0")
    assert [s.points for s in standings(t, ("STD",))][:2] == [7, 7]
    assert [tiebreak_values(t, ("STD",))[i]["STD"] for i in range(1, 7)] == [2.5, 2.5, 2, 1, 0, 1]
    assert tiebreak_values(_rules_2026(example_b(), "3-1-0/pab=1"), ("STD",))[6]["STD"] == 0.5
    assert tiebreak_values(_rules_2026(example_b(), "3-1-0/pab=2"), ("STD",))[6]["STD"] == 1
    # In 1-1/2-0 scoring every round's standard points are its points.
    t = _rules_2026(example_b(), "1-0.5-0")
    assert {sn: v["STD"] for sn, v in tiebreak_values(t, ("STD",)).items()} == \
        {s.start_number: s.points for s in standings(t, ())}


def test_standard_points_break_a_tie_of_football_points() -> None:
    """3-1-0: P1 wins once and loses twice (3 points, STD 1), P4 draws three times (3 points, STD 1.5): STD
    puts P4 first, where the number of wins puts P1 first.
    R1: 1-2 1-0, 3-4 1/2, 5-6 1-0   R2: 1-3 0-1, 4-5 1/2, 2-6 1-0   R3: 1-5 0-1, 4-6 1/2, 2-3 1/2
    Points: P5 W D W 7, P3 D W D 5, P2 L W D 4, P1 3, P4 3, P6 L L D 1."""
    rounds = (
        Round(1, (Board(1, 1, 2, "1-0"), Board(2, 3, 4, "1/2-1/2"), Board(3, 5, 6, "1-0"))),
        Round(2, (Board(1, 1, 3, "0-1"), Board(2, 4, 5, "1/2-1/2"), Board(3, 2, 6, "1-0"))),
        Round(3, (Board(1, 1, 5, "0-1"), Board(2, 4, 6, "1/2-1/2"), Board(3, 2, 3, "1/2-1/2"))),
    )
    reg = Regulations(rounds=3, scoring=Scoring.parse("3-1-0"), tiebreak_rules="2026", tiebreaks=("STD", "WIN"))
    rows = standings(Tournament("F", reg, players(2000, 1950, 1900, 1850, 1800, 1750), rounds))
    assert [(s.start_number, s.points, dict(s.tiebreaks)["STD"], s.rank) for s in rows] == \
        [(5, 7, 2.5, 1), (3, 5, 2, 2), (2, 4, 1.5, 3), (4, 3, 1.5, 4), (1, 3, 1, 5), (6, 1, 0.5, 6)]
    assert [s.start_number for s in standings(Tournament("F", reg, players(*[2000] * 6), rounds), ("WIN",))][3:5] \
        == [1, 4]


def test_standard_points_are_refused_under_the_2023_rules() -> None:
    """STD is a tie-break of the 2026 C.07 only: regulations of 2023 that list it are refused naming the rules
    that have it, and so are standings asked for it under 2023; JSON keeps it under 2026."""
    with pytest.raises(TournamentError, match=r"field 'tiebreaks': STD \(Standard points\) is a tie-break of "
                                              r"the 2026 C.07 rules, not of the 2023 rules"):
        Regulations(tiebreaks=("BH", "STD"))
    with pytest.raises(ValueError, match="STD .* 2026 C.07 rules"):
        standings(example_b(), ("STD",))
    with pytest.raises(ValueError, match="STD .* 2026 C.07 rules"):
        tiebreak_values(example_b(), ("STD",))
    assert "STD" not in tiebreak_values(example_b())[1]
    assert "STD" in tiebreak_values(_rules_2026(example_b(), "1-0.5-0"))[1]
    reg = Regulations(tiebreaks=("BH", "STD"), tiebreak_rules="2026")
    assert Regulations.from_json(reg.to_json()) == reg


def _football_swiss(scoring: str, rules: str) -> Tournament:
    """A 15-player Swiss of 6 rounds with half, full and zero byes, PABs, forfeit wins and losses, double
    forfeits and a withdrawal, in the given scoring and C.07 rules."""
    import random

    from chesslaws.tournament import pair_next_round

    rng = random.Random(1)
    t = Tournament("Football", Regulations(rounds=6, scoring=Scoring.parse(scoring), tiebreak_rules=rules))
    for i in range(15):
        t = t.add_player(f"P{i + 1:02}", rng.randint(1400, 2300))
    t = t.order_by_rating().request_bye(2, 3, "half").request_bye(3, 5, "full").request_bye(4, 7, "zero")
    t = t.request_bye(6, 9, "half")
    for r in range(1, 7):
        if r == 4:
            t = t.withdraw(11)
        t = pair_next_round(t)
        for b in t.rounds[-1].boards:
            x = rng.random()
            t = t.set_result(r, b.table, "+-" if x < 0.05 else "-+" if x < 0.1 else "--" if x < 0.13 else
                             "1/2-1/2" if x < 0.4 else "1-0" if x < 0.7 else "0-1")
    kinds = {e.kind for es in player_entries(t).values() for e in es}
    assert {"pab", "half", "full", "zero", "absent", "forfeit_win", "forfeit_loss"} <= kinds
    return t


@pytest.mark.skipif(TBS_RUN is None, reason=NO_TBS)
@pytest.mark.parametrize("rules", ["2023", "2026"])
@pytest.mark.parametrize("scoring", ["3-1-0", "3-1-0/pab=1", "3-1-0/pab=0", "2-1-0", "1-0.5-0"])
def test_every_tiebreak_agrees_with_the_fide_tec_checker_in_every_scoring(scoring: str, rules: str,
                                                                           tmp_path: Path) -> None:
    """The football Swiss under either C.07 rules: every tie-break of every player equals the checker's (which
    reads the scoring back from the file's points; rules version 1 or 2), and so does the ranking by direct
    encounter: Sonneborn-Berger weighted by the round's points (3 or 1 in 3-1-0), a full-point bye not a
    voluntary unplayed round. In 3-1-0 STD is not the points over 3 (the ties it breaks are real)."""
    t = _football_swiss(scoring, rules)
    names = dict(TBS_NAMES_2026, STD="STD") if rules == "2026" else TBS_NAMES
    theirs = tbs_values(t, tmp_path, names)
    ours = tiebreak_values(t, tuple(names))
    diffs = [(sn, k, theirs[sn][k], ours[sn][k]) for sn in ours for k in names
             if abs(theirs[sn][k] - ours[sn][k]) > 1e-9]
    assert diffs == []
    assert tbs_de_ranks(t, tmp_path) == {s.start_number: s.rank for s in standings(t, ("DE",))}
    if scoring in ("3-1-0", "3-1-0/pab=1") and rules == "2026":
        points = {s.start_number: s.points for s in standings(t, ())}
        assert any(ours[a]["STD"] != ours[b]["STD"] for a in points for b in points if points[a] == points[b])

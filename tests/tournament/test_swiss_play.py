"""A 9-round Swiss of 100 players played end to end: the Dutch system pairs, real game logs decide.

Every board's result comes from a :class:`chesslaws.game.Game` that the Laws ended (a mate, a
resignation, an agreed draw, or a player who never arrived: a forfeit under Article 6.7), with
requested byes and a withdrawal along the way. Each round is then checked against the rules
any Swiss pairing must keep (C.04.1), independently of the engine, and the whole event against
the engine's own checker reading our TRF.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chesslaws.tournament import Regulations, Tournament, pair_next_round, read_trf, standings, write_trf
from chesslaws.tournament.records import player_entries
from tgames import play

from chesslaws.tournament.matching import native_networkx
from chesslaws.tournament.pairing import BbpDutch, CaissifyDutch, default_engine, find_bbp

BBP = find_bbp()  # CHESSLAWS_BBP or the PATH
NO_BBP = "bbpPairings is not installed (set CHESSLAWS_BBP to its binary)"


def run_event(n: int, rounds: int, seed: int, engine: Any = None) -> tuple[Tournament, list[str]]:
    rng = random.Random(seed)
    reg = Regulations(rounds=rounds, time_control="5400+30", default_time=0)
    t = Tournament("Simulated Open", reg)
    for i in range(n):
        t = t.add_player(f"Player {i + 1:03}", rng.randint(1200, 2700), federation="FID")
    t = t.order_by_rating()
    t = t.request_bye(3, 7, "half").request_bye(rounds, 12, "zero")
    terminations: list[str] = []
    for r in range(1, rounds + 1):
        if r == 5:
            t = t.withdraw(40)
        t = pair_next_round(t, engine)
        for b in t.rounds[-1].boards:
            w, bl = t.player(b.white), t.player(b.black)
            expected = 1 / (1 + 10 ** ((bl.rating - w.rating) / 400))
            x = rng.random()
            outcome = ("black-late" if x < 0.01 else "white-late" if x < 0.02 else
                       "draw" if x < 0.3 else "white" if x < 0.3 + 0.7 * expected else "black")
            game = play(reg, w.name, bl.name, r, outcome, rng=rng)
            terminations.append(str(game.state.termination))
            t = t.result_from_game(r, b.table, game)
    return t, terminations


@pytest.fixture(scope="module")
def event() -> tuple[Tournament, list[str]]:
    """Paired by the default engine: bbpPairings when it is built (always in CI), else caissify-pairings."""
    return run_event(100, 9, seed=2024)


def test_every_round_keeps_the_absolute_rules(event: tuple[Tournament, list[str]]) -> None:
    t, terminations = event
    assert t.finished
    assert {"checkmate", "resignation", "agreement", "late_arrival"} <= set(terminations)
    entries = player_entries(t)
    for rnd in t.rounds:
        seated = [x for b in rnd.boards for x in (b.white, b.black)] + [y.player for y in rnd.byes]
        assert len(seated) == len(set(seated)), f"round {rnd.number}: a player seated twice"
        active = {p.start_number for p in t.players if p.active_in(rnd.number)}
        assert active <= set(seated), f"round {rnd.number}: an active player left out"
        assert sum(1 for y in rnd.byes if y.kind == "pab") <= 1
    for sn, es in entries.items():
        # C.04.1: no two players meet twice (over the board), nobody gets a second PAB.
        opponents = [e.opponent for e in es if e.played]
        assert len(opponents) == len(set(opponents)), f"player {sn} met someone twice"
        assert sum(1 for e in es if e.kind == "pab") <= 1
        # No one has three games running with the same colour, nor a colour difference over 2.
        colours = "".join(e.color or "" for e in es if e.played)
        assert "www" not in colours and "bbb" not in colours, (sn, colours)
        assert abs(colours.count("w") - colours.count("b")) <= 2
    assert entries[7][2].kind == "half" and entries[12][8].kind == "zero"
    assert all(e.kind == "absent" for e in entries[40][4:])
    # A late arrival is a forfeit in the tournament's record.
    forfeits = [b for r in t.rounds for b in r.boards if b.result in ("+-", "-+")]
    assert forfeits and all(b.termination == "late_arrival" for b in forfeits)


def test_standings_add_up(event: tuple[Tournament, list[str]]) -> None:
    t, _ = event
    rows = standings(t)
    assert len(rows) == 100 and rows[0].rank == 1
    games = sum(len(r.boards) for r in t.rounds)
    pabs = sum(1 for r in t.rounds for y in r.byes if y.kind == "pab")
    halves = sum(1 for r in t.rounds for y in r.byes if y.kind == "half")
    assert sum(s.points for s in rows) == games + pabs + 0.5 * halves
    assert [s.points for s in rows] == sorted((s.points for s in rows), reverse=True)


def test_the_engines_checker_agrees(event: tuple[Tournament, list[str]]) -> None:
    """caissify-pairings' free pairings checker re-pairs every round from our TRF: same pairs."""
    from caissify_pairings.fpc import check_trf

    t, _ = event
    with native_networkx():  # the checker re-pairs with caissify: its matchings in the Rust core
        report = check_trf(write_trf(t))
    assert report["summary"]["rounds_checked"] == 9
    # The checker does not carry over the rounds a withdrawn player sits out ("0000 - -"): not pairings.
    sat_out = {f"TRF only: Player {p.start_number} (bye)" for p in t.players if p.withdrawn_from}
    discrepancies = [d for r in report["rounds"] for d in r["discrepancies"] if d not in sat_out]
    assert discrepancies == []
    assert sum(1 for r in report["rounds"] for d in r["discrepancies"]) == 9 - 4  # player 40, rounds 5 to 9


def test_trf_round_trip(event: tuple[Tournament, list[str]]) -> None:
    t, _ = event
    text = write_trf(t)
    back = read_trf(text, regulations=t.regulations)
    assert write_trf(back) == text
    assert [p.name for p in back.players] == [p.name for p in t.players]
    # TRF carries no table numbers: the boards come back in the order of their lower start number.
    assert [sorted((b.white, b.black, b.result) for b in r.boards) for r in back.rounds] == \
        [sorted((b.white, b.black, b.result) for b in r.boards) for r in t.rounds]
    # Every player's record, round by round (byes, forfeits, rounds sat out after withdrawing), is the same.
    assert player_entries(back) == player_entries(t)
    assert [s.to_json() for s in standings(back)] == [s.to_json() for s in standings(t)]


def bbp_differences(stdout: str) -> list[tuple[int, set[frozenset[str]], set[frozenset[str]]]]:
    """(round, the checker's pairs, the file's pairs) for every round where bbpPairings' checker differs.

    Each pair is an unordered set of start numbers (a bye is the single number)."""
    out: list[tuple[int, set[frozenset[str]], set[frozenset[str]]]] = []
    rnd = 0
    for line in stdout.splitlines():
        m = re.search(r"Round #(\d+)", line)
        if m:
            rnd = int(m.group(1))
            continue
        cells = re.findall(r"(\d+)\s*-\s*(\d+|PAB|BYE)?", line)
        if len(cells) == 2 and line.strip()[0].isdigit():
            if not out or out[-1][0] != rnd:
                out.append((rnd, set(), set()))
            out[-1][1].add(frozenset(x for x in cells[0] if x))
            out[-1][2].add(frozenset(x for x in cells[1] if x))
    return out


def tec_check(t: Tournament, tmp_path: Path) -> tuple[bool, dict[int, set[str]]]:
    """FIDE TEC's pairing checker (gacrux, independent of bbpPairings and caissify) on our TRF of the event:
    whether every round is the pairing it would make, and per round the boards it would pair otherwise."""
    import sys

    path = tmp_path / "event.trf"
    path.write_text(write_trf(t))
    out = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", "-i", str(path), "-c", "-dT"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"Round #{len(t.rounds)} " in out.stdout, out.stdout[-500:]
    differ: dict[int, set[str]] = {}
    rnd = 0
    for line in out.stdout.splitlines():
        m = re.search(r"Round #(\d+)", line)
        if m:
            rnd = int(m.group(1))
        elif re.match(r"\s+\d+\s+-\s+\d+\s+\d+\s+-\s+\d+", line):
            a, b, c, d = (int(x) for x in re.findall(r"\d+", line)[:4])
            differ.setdefault(rnd, set()).add(f"{a}-{b}")
    return "Check: True" in out.stdout, differ


def test_fide_tec_checker_finds_nothing_to_change(event: tuple[Tournament, list[str]], tmp_path: Path) -> None:
    """FIDE TEC's own pairing checker re-pairs all 9 rounds of the 100-player Swiss (default engine:
    bbpPairings, else caissify with our colours) from our TRF and finds every board, colours included,
    as it would pair them."""
    t, _ = event
    ok, differ = tec_check(t, tmp_path)
    assert ok and differ == {}, differ


def bbp_check(t: Tournament, tmp_path: Path) -> str:
    """bbpPairings' checker (-c) on our TRF of the event: it re-pairs every round and prints where it differs."""
    path = tmp_path / "event.trf"
    path.write_text(write_trf(t))
    out = subprocess.run([str(BBP), "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"Round #{len(t.rounds)}" in out.stdout
    return out.stdout


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_bbp_checker_finds_nothing_to_change(event: tuple[Tournament, list[str]], tmp_path: Path) -> None:
    """The default engine is bbpPairings: its checker re-pairs all 9 rounds from our TRF (byes, a withdrawal,
    forfeits) and finds the same boards with the same colours."""
    t, _ = event
    out = bbp_check(t, tmp_path)
    assert bbp_differences(out) == [] and "Checker pairings" not in out, out


def test_caissify_pairs_with_our_colours_as_both_checkers_would(tmp_path: Path) -> None:
    """caissify-pairings (the engine without bbpPairings), its colours given by the colour allocation
    rules (allocate_colours): FIDE TEC's checker and bbpPairings' find every board of a 7-round Swiss with
    byes, forfeits and a withdrawal as they would pair it, colours included."""
    t, _ = run_event(44, 7, seed=5, engine=CaissifyDutch())
    ok, differ = tec_check(t, tmp_path)
    assert ok and differ == {}, differ
    if BBP is not None:
        out = bbp_check(t, tmp_path)
        assert bbp_differences(out) == [] and "Checker pairings" not in out, out


def test_colour_allocation_by_the_rules() -> None:
    from chesslaws.tournament.pairing import SwissPlayer, allocate_colours, colour_preference

    def p(sn: int, score: float, colours: str) -> SwissPlayer:
        cs = tuple("white" if c == "W" else "black" for c in colours)
        return SwissPlayer(sn, f"P{sn}", 2000, score, cs, (), 0, 0)

    assert colour_preference(()) == (None, 0)
    assert colour_preference(("white",)) == ("black", 2)
    assert colour_preference(("white", "black")) == ("white", 1)
    assert colour_preference(("white", "white")) == ("black", 3)
    assert colour_preference(("black", "white", "white", "black", "black")) == ("white", 3)
    # Both preferences granted; the stronger one; of two absolute ones the wider colour difference.
    assert allocate_colours(p(1, 2, "WB"), p(2, 2, "BW")) == (1, 2)
    assert allocate_colours(p(1, 2, "WBW"), p(2, 2, "BWW")) == (1, 2)  # 2 absolute (WW) over 1 strong
    assert allocate_colours(p(1, 3, "BBWBB"), p(2, 3, "WBWBB")) == (1, 2)  # both absolute, -3 over -1
    # The same preference of the same strength: alternate to the last round where the colours differed
    # (round 2: 5 had Black, 6 White; now 5 has White).
    assert allocate_colours(p(5, 2, "WBWB"), p(6, 2, "BWWB")) == (5, 6)
    # The hand-checked case of bench/README.md: W-B-W-B-W-B-W both; the rules give the preference (Black)
    # to the higher ranked player, the one with 4.5 points, though the other has the lower pairing number.
    same = "WBWBWBW"
    assert allocate_colours(p(3, 4, same), p(9, 4.5, same)) == (3, 9)
    assert allocate_colours(p(3, 4.5, same), p(9, 4, same)) == (9, 3)
    # No preference either: the higher ranked player has the initial colour (White) with an odd pairing
    # number, the other colour with an even one (here 2, ahead by a bye's point).
    assert allocate_colours(p(4, 0, ""), p(3, 0, "")) == (3, 4)
    assert allocate_colours(p(2, 1, ""), p(3, 0, "")) == (3, 2)


def test_two_independent_checkers_find_the_same_colour_errors_in_caissify(tmp_path: Path) -> None:
    """caissify-pairings with its own colours (100 players, 9 rounds: 5 boards in 3 rounds with colours
    reversed, see bench/README.md): FIDE TEC's checker and bbpPairings' name the same boards, only colours."""
    t = Tournament("Caissify 100", Regulations(rounds=9, time_control="5400+30"))
    rng = random.Random(20)
    for i in range(100):
        t = t.add_player(f"Player {i + 1:04}", rng.randint(1200, 2700))
    t = t.order_by_rating()
    results = random.Random(21)
    for _ in range(9):
        t = pair_next_round(t, CaissifyDutch(own_colours=False))
        for b in t.rounds[-1].boards:
            expected = 1 / (1 + 10 ** ((t.player(b.black).rating - t.player(b.white).rating) / 400))
            x = results.random()
            t = t.set_result(len(t.rounds), b.table, "1/2-1/2" if x < 0.3 else "1-0" if x < 0.3 + 0.7 * expected else "0-1")
    ok, tec = tec_check(t, tmp_path)
    assert not ok and sum(len(v) for v in tec.values()) == 5 and len(tec) == 3, tec
    for rnd, boards in tec.items():
        ours = {(b.white, b.black) for b in t.round(rnd).boards}
        for pair in boards:  # the checker's board is ours with the colours reversed
            white, black = (int(x) for x in pair.split("-"))
            assert (black, white) in ours
    if BBP is not None:
        bbp = {rnd: {f"{min(map(int, p))}-{max(map(int, p))}" for p in checker}
               for rnd, checker, _ in bbp_differences(bbp_check(t, tmp_path))}
        assert bbp == {rnd: {f"{min(map(int, p.split('-')))}-{max(map(int, p.split('-')))}" for p in v}
                       for rnd, v in tec.items()}


def test_the_default_engine_is_bbp_when_one_is_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CHESSLAWS_BBP", raising=False)
    assert find_bbp() is None and isinstance(default_engine(), CaissifyDutch)
    exe = tmp_path / "bbpPairings"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert find_bbp() == str(exe)
    monkeypatch.setenv("PATH", str(tmp_path / "absent"))
    assert find_bbp() is None
    monkeypatch.setenv("CHESSLAWS_BBP", "/opt/bbp/bbpPairings.exe")
    engine = default_engine()
    assert isinstance(engine, BbpDutch) and engine.executable == "/opt/bbp/bbpPairings.exe"


def test_bbp_output_reader() -> None:
    sample = ("ev: Round #3\n  Checker pairings        Tournament pairings \n"
              "      4 -  12                 12 -   4\n      7 -   9                  7 -  10\n\nev: Round #4\n")
    (rnd, checker, ours), = bbp_differences(sample)
    assert rnd == 3 and checker - ours == {frozenset({"7", "9"})} and ours - checker == {frozenset({"7", "10"})}


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_the_bbp_engine_behind_the_interface(tmp_path: Path) -> None:
    """With a bbpPairings binary as the engine (requested byes, a withdrawal, forfeits passed in our TRF),
    bbpPairings' own checker finds nothing to change, colours included; the other engine's checker agrees on pairs."""
    from caissify_pairings.fpc import check_trf

    t, _ = run_event(44, 7, seed=11, engine=BbpDutch(str(BBP)))
    path = tmp_path / "event.trf"
    path.write_text(write_trf(t))
    out = subprocess.run([str(BBP), "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and bbp_differences(out.stdout) == [], out.stdout
    assert "Checker pairings" not in out.stdout
    report = check_trf(write_trf(t))
    sat_out = {f"TRF only: Player {p.start_number} (bye)" for p in t.players if p.withdrawn_from}
    assert [d for r in report["rounds"] for d in r["discrepancies"] if d not in sat_out] == []

"""The pairing numbers a round is paired with: a TRF's own start numbers before round 1 (renumbered by rating
only when asked), and the initial colour given down the players actually paired when some are absent or on a
requested bye, as bbpPairings and FIDE TEC's checker give it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from chesslaws.tournament import Regulations, Tournament, read_trf, write_trf
from chesslaws.tournament.pairing import BbpDutch, CaissifyDutch, find_bbp, pair_swiss
from chesslaws.tournament.rounds import paired

BBP = find_bbp()
NO_BBP = "bbpPairings is not built here (set CHESSLAWS_BBP to its binary)"


def _player(sn: int, name: str, rating: int, points: str = "0.0", rounds: str = "") -> str:
    return f"001 {sn:>4} {'':1}{'':>3} {name:<33} {rating:>4} {'':<3} {'':>11} {'':<10} {points:>4} {sn:>4}{rounds}"


# Six players whose start numbers are not in rating order (a late registration got number 1, two unrated).
ROUND0 = "\n".join([
    "012 Numbers Open", "092 Individual: Swiss-System", "XXR 5", "XXC white1",
    _player(1, "Late, Lena", 1500),
    _player(2, "Strong, Sam", 2400),
    _player(3, "Unrated, Uma", 0),
    _player(4, "Middle, Max", 1900),
    _player(5, "Unrated, Udo", 0),
    _player(6, "Good, Gus", 2100),
]) + "\n"


def _boards(t: Tournament) -> list[tuple[int, int]]:
    return [(b.white, b.black) for b in t.rounds[-1].boards]


def _bbp_direct(text: str, tmp: Path) -> list[tuple[int, int]]:
    """bbpPairings' own pairing of the next round of the TRF ``text``: (white, black), (player, 0) for the PAB."""
    src, out = tmp / "in.trf", tmp / "bbp.out"
    src.write_text(text)
    assert subprocess.run([str(BBP), "--dutch", str(src), "-p", str(out)], timeout=300).returncode == 0
    numbers = [int(x) for x in out.read_text().split()]
    return [(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])]


def _pairs(t: Tournament) -> list[tuple[int, int]]:
    rnd = t.rounds[-1]
    return sorted([(b.white, b.black) for b in rnd.boards] + [(y.player, 0) for y in rnd.byes if y.kind == "pab"])


def test_a_round_zero_trf_is_paired_with_its_own_numbers() -> None:
    t = read_trf(ROUND0)
    assert t.numbered and not t.rounds
    first = paired(t, CaissifyDutch())
    # Top half 1-3 against bottom half 4-6 by the file's numbers; 1 (odd) has White, 2 Black, 3 White.
    assert _boards(first) == [(1, 4), (5, 2), (3, 6)]
    assert [p.name for p in first.players] == [p.name for p in t.players]
    # Asked for, the players are numbered by rating first (C.04.2): Sam 1, Gus 2, Max 3, Lena 4, the unrated 5-6.
    renumbered = paired(t.order_by_rating(), CaissifyDutch())
    assert [p.name for p in renumbered.players][:4] == ["Strong, Sam", "Good, Gus", "Middle, Max", "Late, Lena"]
    assert _boards(renumbered) == [(1, 4), (5, 2), (3, 6)]


def test_an_event_registered_here_is_still_numbered_by_rating() -> None:
    t = Tournament("Club", Regulations(rounds=5))
    for name, rating in (("Ann", 1500), ("Bob", 2400), ("Cleo", 1900), ("Dan", 2100)):
        t = t.add_player(name, rating)
    assert not t.numbered
    first = paired(t, CaissifyDutch())
    assert [p.name for p in first.players] == ["Bob", "Dan", "Cleo", "Ann"]


def test_the_numbered_mark_is_stored_and_only_written_when_set() -> None:
    t = read_trf(ROUND0)
    assert Tournament.from_json(t.to_json()).numbered
    assert "numbered" not in Tournament("Club").to_json()


def test_renumbering_carries_the_requested_byes_and_virtual_points_along() -> None:
    t = read_trf(ROUND0).request_bye(1, 2, "half")  # Sam, number 2 in the file, 1 by rating
    t = t.order_by_rating()
    assert t.requested_byes == ((1, 1, "half"),) and t.player(1).name == "Strong, Sam"


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chesslaws.cli", *args], capture_output=True, text=True,
                          check=False, timeout=300)


def test_import_then_pair_keeps_the_files_numbers_and_renumber_is_asked_for(tmp_path: Path) -> None:
    trf = tmp_path / "open.trf"
    trf.write_text(ROUND0)
    for renumber, top in ((False, "Late, Lena"), (True, "Strong, Sam")):
        db = tmp_path / f"t{renumber}.sqlite3"
        assert run(["tournament", "import", str(trf), "--db", str(db)]).returncode == 0
        proc = run(["tournament", "pair", "Numbers Open", "--engine", "caissify", "--db", str(db)]
                   + (["--renumber"] if renumber else []))
        assert proc.returncode == 0, proc.stderr
        exported = run(["tournament", "export", "Numbers Open", "--db", str(db)]).stdout
        back = read_trf(exported)
        assert back.player(1).name == top
        assert _boards(back) == [(1, 4), (5, 2), (3, 6)]
        first_board = proc.stdout.splitlines()
        assert any(top in line for line in first_board), proc.stdout
    # Once round 1 is paired the numbers are fixed: --renumber says so.
    proc = run(["tournament", "pair", "Numbers Open", "--renumber", "--engine", "caissify", "--db",
                str(tmp_path / "tFalse.sqlite3")])
    assert proc.returncode == 2 and "before round 1" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_a_round_zero_trf_pairs_as_bbp_pairs_it(tmp_path: Path) -> None:
    t = read_trf(ROUND0)
    assert sorted(_boards(paired(t, BbpDutch(str(BBP))))) == sorted(_bbp_direct(ROUND0, tmp_path))
    assert sorted(_boards(paired(t, CaissifyDutch()))) == sorted(_bbp_direct(ROUND0, tmp_path))


# --- the initial colour among the players present ------------------------------------------------------------


def _nine_with_byes() -> Tournament:
    t = Tournament("Byes", Regulations(rounds=5))
    for i in range(9):
        t = t.add_player(f"Player {i + 1}", 2400 - 50 * i)
    t = t.order_by_rating()
    return t.request_bye(1, 2, "half").request_bye(1, 6, "zero")


def test_round_one_colours_go_down_the_players_present() -> None:
    """9 players, 2 and 6 on requested byes: 1 3 4 5 7 8 are paired (9 takes the PAB). By the players present
    (1 3 4 | 5 7 8, ranks 1-6) 3 is second and has Black, 4 third and White: 1-5, 7-3, 4-8, as bbpPairings
    pairs it; by the raw pairing number 3 (odd) would have White and 4 Black."""
    rnd = pair_swiss(_nine_with_byes(), CaissifyDutch())
    assert [(b.white, b.black) for b in rnd.boards] == [(1, 5), (7, 3), (4, 8)]
    assert [(y.player, y.kind) for y in rnd.byes] == [(9, "pab"), (2, "half"), (6, "zero")]


def _random_event_with_byes(n: int, rounds: int, seed: int, engine: object) -> list[tuple[Tournament, str]]:
    """A Swiss of ``n`` players where about one in six asks for a half or zero bye each round (round 1
    included) and one in twenty games is a forfeit: each round's event before pairing (with its TRF), paired by
    ``engine`` and played."""
    rng = random.Random(seed)
    t = Tournament(f"Byes {seed}", Regulations(rounds=rounds))
    for i in range(n):
        t = t.add_player(f"Player {i + 1:02}", rng.randint(1400, 2500))
    t = t.order_by_rating()
    out: list[tuple[Tournament, str]] = []
    for r in range(1, rounds + 1):
        for sn in range(1, n + 1):
            if rng.random() < 1 / 6:
                t = t.request_bye(r, sn, rng.choice(["half", "zero"]))
        out.append((t, write_trf(t, absences=True)))
        t = paired(t, engine)  # type: ignore[arg-type]
        for b in t.rounds[-1].boards:
            x = rng.random()
            t = t.set_result(r, b.table, "+-" if x < 0.05 else "1/2-1/2" if x < 0.35 else
                             "1-0" if x < 0.7 else "0-1")
    return out


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_colours_after_byes_are_bbps(seed: int, tmp_path: Path) -> None:
    """Every round of events with requested byes from round 1 on, paired by bbpPairings: caissify pairs each
    of them as bbpPairings does, colours included (players without colour history meet in every round)."""
    assert BBP is not None
    for before, text in _random_event_with_byes(23, 5, seed, BbpDutch(BBP)):
        ours = paired(before, CaissifyDutch())
        assert _pairs(ours) == sorted(_bbp_direct(text, tmp_path)), f"round {before.next_round}"

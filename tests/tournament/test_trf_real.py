"""TRF lines that real events carry: ``XXC white1/black1``, ``XXZ``, ``XXA``, ``XXS`` and a last
column holding only the next round's absence marks, read, written and handed to the pairing engines.

The real event is tests/data/trf_gros2010_xxa_r5absences.trf (see tests/data/README-trf.md for its source
and licence): XX Open Internacional de Gros (Donostia, 2010), 52 players (10 unrated, so pairing numbers are
not in rating order), 9 rounds, Baku-accelerated (XXA lines), saved after round 4 with the absences of round 5
(``0000 - Z`` twice, ``0000 - H`` once) in a fifth column, as JaVaFo-style programs write before pairing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chesslaws.tournament import Regulations, Tournament, read_trf, standings, write_trf
from chesslaws.tournament.pairing import BbpDutch, CaissifyDutch, find_bbp, pair_swiss
from chesslaws.tournament.records import player_entries, points_for

DATA = Path(__file__).parent.parent / "data"
GROS = DATA / "trf_gros2010_xxa_r5absences.trf"
BBP = find_bbp()
NO_BBP = "bbpPairings is not installed (set CHESSLAWS_BBP to its binary)"
try:
    import gacrux  # noqa: F401

    GACRUX = True
except ImportError:
    GACRUX = False
NO_TEC = "FIDE TEC's pairing checker is not installed (pip install gacrux)"


def _bbp_direct(path: Path, tmp: Path) -> set[tuple[int, int]]:
    """bbpPairings' own pairing of the next round of ``path``: (white, black), (player, 0) for the bye."""
    out = tmp / "bbp.out"
    assert subprocess.run([str(BBP), "--dutch", str(path), "-p", str(out)], timeout=120).returncode == 0
    numbers = [int(x) for x in out.read_text().split()]
    return {(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])}


def _boards(t: Tournament, engine: object) -> set[tuple[int, int]]:
    rnd = pair_swiss(t, engine)  # type: ignore[arg-type]
    return {(b.white, b.black) for b in rnd.boards} | {(y.player, 0) for y in rnd.byes if y.kind == "pab"}


def _mirror(text: str) -> str:
    """The event with every colour reversed and ``XXC black1``: what a Black-first event of the same games is."""
    out = []
    for line in text.splitlines():
        if line.startswith("001"):
            chars = list(line)
            for col in range(92 + 5, len(line), 10):  # the colour of each round block (column 97, 107, ...)
                chars[col - 1] = {"w": "b", "b": "w"}.get(chars[col - 1], chars[col - 1])
            line = "".join(chars)
        out.append(line)
        if line.startswith("XXR"):
            out.append("XXC black1")
    return "\n".join(out) + "\n"


def test_the_next_round_absence_column_is_not_a_played_round() -> None:
    """The fifth column holds only round 5's absence marks: 4 rounds played, round 5 next, the marks kept as
    requested byes of round 5 (zero, zero, half), and nobody given an invented absence in round 5."""
    t = read_trf(GROS.read_text())
    assert len(t.rounds) == 4 and t.next_round == 5 and t.total_rounds == 9
    assert sorted(t.requested_byes) == [(5, 22, "zero"), (5, 28, "zero"), (5, 43, "half")]
    entries = player_entries(t)
    assert all(len(es) == 4 for es in entries.values())
    # The file's totals (columns 81-84) count the requested bye of round 5, as JaVaFo-style files do.
    file_points = {int(line[4:8]): float(line[80:84]) for line in GROS.read_text().splitlines()
                   if line.startswith("001")}
    for s in standings(t):
        kind = t.requested_bye(5, s.start_number)
        extra = points_for(kind, t.regulations.scoring)[0] if kind else 0.0
        assert s.points + extra == file_points[s.start_number], s.start_number


def test_xxa_lines_are_kept_and_written_back() -> None:
    """The 26 XXA lines (GA of the Baku method: 1, 1, 1, 0.5, 0.5 virtual points) survive import and export."""
    t = read_trf(GROS.read_text())
    assert len(t.accelerations) == 26 and dict(t.accelerations)[26] == (1.0, 1.0, 1.0, 0.5, 0.5)
    assert t.virtual_points(5) == {sn: 0.5 for sn in range(1, 27)} and t.virtual_points(6) == {}
    theirs = [line.split() for line in GROS.read_text().splitlines() if line.startswith("XXA")]
    ours = [line.split() for line in write_trf(t).splitlines() if line.startswith("XXA")]
    assert ours == theirs
    assert read_trf(write_trf(t)).accelerations == t.accelerations


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_an_accelerated_event_with_absences_pairs_as_bbp_on_the_same_file(tmp_path: Path) -> None:
    """Round 5 of the real file, paired through chesslaws with bbpPairings, is bbpPairings' pairing of the
    file itself, board for board and colour for colour (25 of 25; 13 of 25 before the XXA lines and the
    absence column were read)."""
    t = read_trf(GROS.read_text())
    assert _boards(t, BbpDutch(str(BBP))) == _bbp_direct(GROS, tmp_path)


# bbpPairings' pairing of round 5 of the real file (`bbpPairings --dutch FILE -p`, built at commit 16a000f):
# white, black per board; 47 has the pairing-allocated bye.
BBP_ROUND_5 = {(1, 2), (3, 4), (5, 6), (7, 13), (11, 21), (23, 12), (19, 16), (17, 18), (8, 24), (35, 10), (14, 52),
               (37, 9), (15, 26), (46, 29), (45, 20), (27, 38), (39, 30), (41, 31), (44, 32), (42, 33), (25, 34),
               (40, 50), (49, 48), (51, 36), (47, 0)}


def test_caissify_pairs_the_accelerated_event_by_its_pairing_numbers(tmp_path: Path) -> None:
    """caissify on the same round (pairing numbers not in rating order, virtual points): bbpPairings' 25 boards,
    colours included (10 before: it ranked by rating and ignored XXA and the absence column)."""
    t = read_trf(GROS.read_text())
    assert _boards(t, CaissifyDutch()) == BBP_ROUND_5
    if BBP is not None:
        assert _bbp_direct(GROS, tmp_path) == BBP_ROUND_5


def test_black_first_colours_are_read_and_written() -> None:
    """``XXC black1`` is read (and, without XXC, inferred from round 1), and written back on export."""
    mirrored = _mirror(GROS.read_text())
    t = read_trf(mirrored)
    assert t.regulations.initial_colour == "black" and "XXC black1" in write_trf(t)
    no_xxc = read_trf("\n".join(line for line in mirrored.splitlines() if not line.startswith("XXC")))
    assert no_xxc.regulations.initial_colour == "black"
    assert read_trf(GROS.read_text()).regulations.initial_colour == "white"
    trf2026 = mirrored.replace("XXC black1", "152 B").replace("XXR 9", "142 9")  # TRF-2026's records
    assert read_trf(trf2026).regulations.initial_colour == "black" and read_trf(trf2026).total_rounds == 9
    with pytest.raises(Exception, match="152: 'X' is not the initial colour W or B"):
        read_trf("152 X\n" + mirrored)
    assert "XXC white1" in write_trf(read_trf(GROS.read_text()))


@pytest.mark.parametrize("engine", ["bbp", "caissify"])
def test_a_black_first_event_is_paired_with_its_own_colours(engine: str, tmp_path: Path) -> None:
    """The same event with every colour reversed and XXC black1: every engine pairs round 5 as on the original
    file with the colours reversed (XXC black1 misread shows as every board's colours reversed), and
    bbpPairings on the mirrored file agrees."""
    if engine == "bbp" and BBP is None:
        pytest.skip(NO_BBP)
    path = tmp_path / "black1.trf"
    path.write_text(_mirror(GROS.read_text()))
    eng = BbpDutch(str(BBP)) if engine == "bbp" else CaissifyDutch()
    original = _boards(read_trf(GROS.read_text()), eng)
    mirrored = _boards(read_trf(path.read_text()), eng)
    assert mirrored == {(b, w) if b else (w, 0) for w, b in original}
    if engine == "bbp":
        assert mirrored == _bbp_direct(path, tmp_path)


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_players_announced_absent_by_xxz_are_not_paired(tmp_path: Path) -> None:
    """The file without its absence column but with ``XXZ 22 28 43``: the three are not paired (a zero-point
    bye each), as bbpPairings pairs the file that marks them ``0000 - Z``."""
    lines = GROS.read_text().splitlines()
    cut = [line[:129].rstrip() if line.startswith("001") else line for line in lines]
    cut = [line[:80] + " 0.5" + line[84:] if line.startswith("001   43") else line for line in cut]  # no H now
    xxz = [*cut[:13], "XXZ   22   28   43", *cut[13:]]
    t = read_trf("\n".join(xxz) + "\n")
    assert len(t.rounds) == 4 and sorted(t.requested_byes) == [(5, 22, "zero"), (5, 28, "zero"), (5, 43, "zero")]
    marked = [line.ljust(129) + "  0000 - Z" if line.startswith("001") and int(line[4:8]) in (22, 28, 43)
              else line for line in cut]
    path = tmp_path / "marked.trf"
    path.write_text("\n".join(marked) + "\n")
    ours = _boards(t, BbpDutch(str(BBP)))
    assert not {22, 28, 43} & {x for p in ours for x in p}
    assert ours == _bbp_direct(path, tmp_path)


def test_xxs_scoring_is_read() -> None:
    """JaVaFo's ``XXS`` gives the points of a win, a draw and a loss (here football scoring, 3-1-0), codes and
    shortcuts read in order; the pairing-allocated bye keeps JaVaFo's default (1 point) unless PAB says."""
    players = "\n".join(line for line in GROS.read_text().splitlines() if line.startswith("001"))
    t = read_trf("012 Football\nXXR 9\nXXS W=3\nXXS D=1\n" + players, regulations=Regulations())
    s = t.regulations.scoring
    assert (s.win, s.draw, s.loss, s.pab_points) == (3.0, 1.0, 0.0, 1.0)
    assert standings(t)[0].points == 12.0  # four wins
    assert read_trf("XXS PAB=3 D=1 W=3\n" + players).regulations.scoring.pab_points == 3.0
    with pytest.raises(Exception, match="line 2: XXS: 'W3' is not CODE=POINTS"):
        read_trf("012 X\nXXS W3\n" + players)
    with pytest.raises(Exception, match="line 1: XXS: WW=3, BW=3, FW=3, FPB=0 differ"):
        read_trf("XXS W=3 FPB=0\n" + players)


@pytest.mark.skipif(not GACRUX, reason=NO_TEC)
def test_tec_reads_our_export_of_the_real_event(tmp_path: Path) -> None:
    """FIDE TEC's checker reads our export (XXC, XXA) as an event of 4 rounds and 52 players."""
    path = tmp_path / "gros.trf"
    path.write_text(write_trf(read_trf(GROS.read_text())))
    out = tmp_path / "tec.json"
    run = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", "-p", "-i", str(path), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    result = json.loads(out.read_text())
    assert result["status"]["error"] == [] and result["pairingResult"]["round"] == 5


def _unordered_event(engine: object, rounds: int = 6, n: int = 30, seed: int = 5) -> Tournament:
    """A Swiss whose pairing numbers are registration order, not rating order (late entries, unrated players)."""
    import random

    from chesslaws.tournament import pair_next_round

    rng = random.Random(seed)
    t = Tournament("Unordered", Regulations(rounds=rounds))
    for i in range(n):
        t = t.add_player(f"P{i + 1:02}", 0 if i % 7 == 3 else rng.randint(1200, 2400))
    assert [p.rating for p in t.players] != sorted((p.rating for p in t.players), reverse=True)
    for r in range(1, rounds + 1):
        t = pair_next_round(t, engine)  # type: ignore[arg-type]
        for b in t.rounds[-1].boards:
            t = t.set_result(r, b.table, rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"]))
    return t


@pytest.mark.skipif(not GACRUX, reason=NO_TEC)
def test_caissify_pairs_by_pairing_numbers_as_tec_checks(tmp_path: Path) -> None:
    """caissify pairs an event whose pairing numbers are not in rating order by those numbers: FIDE TEC's
    checker re-pairs all 6 rounds from our TRF and finds nothing to change (numbering the players by rating
    instead, the pairings would differ from the checker's from round 1)."""
    from test_swiss_play import tec_check

    t = _unordered_event(CaissifyDutch())
    ok, differ = tec_check(t, tmp_path)
    assert ok and differ == {}, differ


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_caissify_pairs_by_pairing_numbers_as_bbp_does() -> None:
    """The same event paired round by round by caissify and by bbpPairings: the same boards every round."""
    assert [r.boards for r in _unordered_event(CaissifyDutch()).rounds] == \
        [r.boards for r in _unordered_event(BbpDutch(str(BBP))).rounds]


@pytest.mark.skipif(not GACRUX, reason=NO_TEC)
@pytest.mark.parametrize("rules", ["2023", "2026"])
def test_standings_of_the_real_event_agree_with_tec(rules: str, tmp_path: Path) -> None:
    """Every tie-break of the 52 players after round 4 (the absence column not counted as a round) equals FIDE
    TEC's tie-break checker on our export, under both C.07 texts (STD under 2026), unrated players counted at 1400 in ARO/TPR
    (the checker is told the round: -n 4; by itself it takes the XXR line's 9)."""
    from dataclasses import replace

    from test_tiebreaks import TBS_NAMES, TBS_NAMES_2026, tbs_values

    from chesslaws.tournament.tiebreaks import tiebreak_values

    t = read_trf(GROS.read_text())
    t = replace(t, regulations=replace(t.regulations, tiebreak_rules=rules, unrated_rating=1400))
    names = TBS_NAMES if rules == "2023" else {**TBS_NAMES_2026, "STD": "STD"}  # Standard Points: 2026 only
    theirs = tbs_values(t, tmp_path, names, ("-u", "1400", "-n", "4"))  # -n: the standings after round 4
    ours = tiebreak_values(t, tuple(names))
    assert len(ours) == 52
    assert [(sn, k, theirs[sn][k], ours[sn][k]) for sn in ours for k in names
            if abs(theirs[sn][k] - ours[sn][k]) > 1e-9] == []


@pytest.mark.skipif(not GACRUX, reason=NO_TEC)
def test_standard_points_of_the_real_event_scored_3_1_0_agree_with_tec(tmp_path: Path) -> None:
    """The real event's four rounds scored 3-1-0 (``XXS W=3 D=1`` added after its XXR line; the PAB keeps
    JaVaFo's 1 point, a draw's), under the 2026 rules: every player's Standard Points equal FIDE TEC's checker on
    our export (which reads 3-1-0 back from the totals), and they separate players the football points tie
    (one win, 3 points, STD 1, against three draws, STD 1.5)."""
    from dataclasses import replace

    from test_tiebreaks import tbs_values

    from chesslaws.tournament.tiebreaks import tiebreak_values

    lines = GROS.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("XXR")) + 1
    t = read_trf("\n".join(lines[:at] + ["XXS W=3 D=1"] + lines[at:]) + "\n")
    assert str(t.regulations.scoring) == "3-1-0/pab=1"
    t = replace(t, regulations=replace(t.regulations, tiebreak_rules="2026"))
    theirs = tbs_values(t, tmp_path, {"STD": "STD"}, ("-n", "4"))
    ours = tiebreak_values(t, ("STD",))
    assert len(ours) == 52 and {sn: v["STD"] for sn, v in theirs.items()} == {sn: v["STD"] for sn, v in ours.items()}
    rows = standings(t, ("STD",))
    assert {(s.points, dict(s.tiebreaks)["STD"]) for s in rows if s.points == 3} == {(3, 1), (3, 1.5)}


def test_bad_extension_lines_are_named() -> None:
    players = "\n".join(line for line in GROS.read_text().splitlines() if line.startswith("001"))
    with pytest.raises(Exception, match="line 2: XXZ: start number 53 has no player line"):
        read_trf("012 X\nXXZ 4 53\n" + players)
    with pytest.raises(Exception, match="line 1: XXZ: 'x4' is not a start number"):
        read_trf("XXZ x4\n" + players)
    with pytest.raises(Exception, match=r"line 1: XXA: round 2 \(columns 15-18\): 'a.b' is not a number"):
        read_trf("XXA    3  1.0  a.b\n" + players)
    twice = read_trf("XXZ 4 4\nXXZ 5 43\n" + players)  # 4 twice; 43 already marked H in the absence column
    assert sorted(twice.requested_byes) == [(5, 4, "zero"), (5, 5, "zero"), (5, 22, "zero"), (5, 28, "zero"),
                                            (5, 43, "half")]

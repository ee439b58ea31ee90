"""The command line: a TRF file's standings by its system's tie-breaks, ``berger`` naming the bye and
the rounds, new events with the Baku acceleration (C.04.5.1) paired as bbpPairings pairs them, and imports that
keep the event's colours."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.tournament import Regulations, Tournament, pair_next_round, standings, write_trf
from chesslaws.tournament.pairing import BbpDutch, CaissifyDutch, _request_trf, find_bbp, pair_swiss

BBP = find_bbp()
NO_BBP = "bbpPairings is not installed (set CHESSLAWS_BBP to its binary)"
GROS = Path(__file__).parent.parent / "data" / "trf_gros2010_xxa_r5absences.trf"


def _round_robin(n: int = 6) -> Tournament:
    rng = random.Random(2)
    t = Tournament("RR", Regulations(system="round-robin", tiebreaks=("DE", "SB", "WIN", "BPG")))
    for i in range(n):
        t = t.add_player(f"P{i + 1}", rng.randint(1500, 2200))
    for r in range(1, t.total_rounds + 1):
        t = pair_next_round(t)
        for b in t.rounds[-1].boards:
            t = t.set_result(r, b.table, rng.choice(["1-0", "0-1", "1/2-1/2"]))
    return t


def test_standings_of_a_round_robin_file_use_the_round_robin_tiebreaks(tmp_path: Path) -> None:
    """A TRF whose 092 line says round robin is ranked by DE, SB, WIN, BPG (as the live page ranks it), not by
    the Swiss BH-C1, BH; a Swiss file keeps BH-C1, BH, SB, DE, WIN, BPG."""
    t = _round_robin()
    path = tmp_path / "rr.trf"
    path.write_text(write_trf(t))
    out = CliRunner().invoke(main, ["tournament", "standings", str(path)])
    assert out.exit_code == 0, out.output
    head = out.output.splitlines()[1].split()
    assert head[5:] == ["DE", "SB", "WIN", "BPG"]
    rows = [line.split() for line in out.output.splitlines()[2:]]
    assert [int(r[1]) for r in rows] == [s.start_number for s in standings(t)]
    swiss = CliRunner().invoke(main, ["tournament", "standings", str(GROS)])
    assert swiss.output.splitlines()[1].split()[5:] == ["BH-C1", "BH", "SB", "DE", "WIN", "BPG"]
    assert "after round 4 of 9" in swiss.output


def test_standard_points_from_the_command_line(tmp_path: Path) -> None:
    """``--tiebreaks STD`` is refused under the 2023 rules (``standings``, ``create``, ``import``), naming the
    option that allows it; with ``--tiebreak-rules 2026`` a file's standings carry it, and an event created
    with it keeps it (``show``), and cannot be ranked under 2023."""
    refused = CliRunner().invoke(main, ["tournament", "standings", str(GROS), "--tiebreaks", "STD,BH"])
    assert refused.exit_code == 2 and "STD (Standard points) is a tie-break of the 2026 C.07 rules" in \
        refused.output and "--tiebreak-rules 2026" in refused.output
    out = CliRunner().invoke(main, ["tournament", "standings", str(GROS), "--tiebreaks", "STD,BH",
                                    "--tiebreak-rules", "2026", "--json"])
    assert out.exit_code == 0, out.output
    import json

    rows = [json.loads(line) for line in out.output.splitlines()]
    assert list(rows[0]["tiebreaks"]) == ["STD", "BH"] and all(r["tiebreaks"]["STD"] == r["points"] for r in rows)
    db = str(tmp_path / "t.sqlite3")
    for args in (["create", "X", "--tiebreaks", "STD"], ["import", str(GROS), "--tiebreaks", "STD"]):
        bad = CliRunner().invoke(main, ["tournament", *args, "--db", db])
        assert bad.exit_code == 2 and "2026 C.07 rules" in bad.output
    made = CliRunner().invoke(main, ["tournament", "create", "F", "--tiebreaks", "STD,BH", "--tiebreak-rules", "2026",
                                     "--scoring", "3-1-0", "--db", db])
    assert made.exit_code == 0, made.output
    assert "tie-breaks: STD, BH (C.07 2026)" in CliRunner().invoke(main, ["tournament", "show", "F", "--db", db]).output
    old = CliRunner().invoke(main, ["tournament", "standings", "F", "--tiebreak-rules", "2023", "--db", db])
    assert old.exit_code == 2 and "2026 C.07 rules" in old.output


def test_berger_names_the_bye_and_the_rounds() -> None:
    out = CliRunner().invoke(main, ["tournament", "berger", "5", "--labelled"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "Round 1:  2-5 3-4  bye: 1" and len(lines) == 5
    byes = [int(line.rsplit(" ", 1)[1]) for line in lines]
    assert sorted(byes) == [1, 2, 3, 4, 5]  # everybody sits out once
    double = CliRunner().invoke(main, ["tournament", "berger", "4", "--double", "--labelled"]).output.splitlines()
    assert double[0].startswith("Round 1 (cycle 1):") and double[5].startswith("Round 6 (cycle 2):")
    assert "bye" not in "".join(double)
    plain = CliRunner().invoke(main, ["tournament", "berger", "5", "--plain"]).output.splitlines()
    assert plain[0] == "2-5 3-4"


def test_baku_virtual_points_follow_c0451() -> None:
    """GA is the first half of the players rounded up to an even number (161 players: 82, C.04.5.1's example);
    nine rounds: five accelerated, 1 virtual point in the first three, 0.5 in the next two."""
    t = Tournament("Baku", Regulations(rounds=9, acceleration="baku"))
    for i in range(161):
        t = t.add_player(f"P{i + 1:03}", 2600 - i)
    assert [max(t.virtual_points(r).values(), default=0.0) for r in range(1, 10)] == [1, 1, 1, .5, .5, 0, 0, 0, 0]
    assert sorted(t.virtual_points(1)) == list(range(1, 83))
    assert "XXA   82  1.0  1.0  1.0  0.5  0.5" in write_trf(t) and "XXA   83" not in write_trf(t)
    with pytest.raises(Exception, match="field 'acceleration'"):
        Regulations(acceleration="baku", system="round-robin")


def _baku_event(engine: object, n: int = 24, rounds: int = 7, seed: int = 4) -> list[Tournament]:
    """Each state of a Baku-accelerated Swiss before a round is paired."""
    rng = random.Random(seed)
    t = Tournament("Baku", Regulations(rounds=rounds, acceleration="baku"))
    for i in range(n):
        t = t.add_player(f"P{i + 1:02}", rng.randint(1400, 2500))
    t = t.order_by_rating()
    states = []
    for r in range(1, rounds + 1):
        states.append(t)
        t = pair_next_round(t, engine)  # type: ignore[arg-type]
        for b in t.rounds[-1].boards:
            x = rng.random()
            t = t.set_result(r, b.table, "1/2-1/2" if x < 0.3 else "1-0" if x < 0.65 else "0-1")
    return states


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_a_baku_event_pairs_as_bbp_with_its_own_baku_method(tmp_path: Path) -> None:
    """A new event with the Baku acceleration: chesslaws writes the XXA lines and every round is the pairing
    bbpPairings makes of the same event with its own Baku method (192 FIDE_DUTCH_BAKU, no XXA line; with 24
    players its GA, half the players rounded up, is C.04.5.1's)."""
    for t in _baku_event(BbpDutch(str(BBP))):
        trf = _request_trf(t)
        assert "XXA" in trf or t.next_round > 4
        theirs = "\n".join(line for line in trf.splitlines() if not line.startswith("XXA"))
        path = tmp_path / "baku.trf"
        path.write_text(theirs.replace("XXR", "192 FIDE_DUTCH_BAKU\nXXR", 1) + "\n")
        out = tmp_path / "out"
        assert subprocess.run([str(BBP), "--dutch", str(path), "-p", str(out)], timeout=120).returncode == 0
        numbers = [int(x) for x in out.read_text().split()]
        direct = {(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])}
        rnd = pair_swiss(t, BbpDutch(str(BBP)))
        assert {(b.white, b.black) for b in rnd.boards} | {(y.player, 0) for y in rnd.byes if y.kind == "pab"} \
            == direct, t.next_round
    # Round 1: GA (1..12, one virtual point) and GB (none) are two score groups, paired apart.
    first = _baku_event(BbpDutch(str(BBP)))[1].rounds[0]
    assert all((b.white <= 12) == (b.black <= 12) for b in first.boards)


@pytest.mark.skipif(BBP is None, reason=NO_BBP)
def test_caissify_counts_the_virtual_points_of_a_baku_event() -> None:
    """caissify, given the same virtual points (and floats reckoned with them, as bbpPairings reckons them),
    pairs every round of the Baku event as bbpPairings does, colours included (before the floats counted the
    virtual points: 67 of 84 boards over the 7 rounds)."""
    for t in _baku_event(BbpDutch(str(BBP))):
        a, b = pair_swiss(t, BbpDutch(str(BBP))), pair_swiss(t, CaissifyDutch())
        assert {(x.white, x.black) for x in a.boards} == {(x.white, x.black) for x in b.boards}, t.next_round
        assert set(a.byes) == set(b.byes)


def test_create_and_import_keep_the_new_regulations(tmp_path: Path) -> None:
    """``create`` offers the acceleration, the C.07 rules, the unrated rating and the initial colour; ``import``
    keeps a Black-first file's colour and the file's XXA lines."""
    db = str(tmp_path / "t.sqlite3")
    made = CliRunner().invoke(main, ["tournament", "create", "Baku Open", "--acceleration", "baku",
                                     "--tiebreak-rules", "2026", "--unrated-rating", "1400",
                                     "--initial-colour", "black", "--db", db])
    assert made.exit_code == 0, made.output
    from chesslaws.store.tournaments import TournamentStore

    store = TournamentStore(db)
    reg = store.load(made.output.strip()).regulations
    assert (reg.acceleration, reg.tiebreak_rules, reg.unrated_rating, reg.initial_colour) == \
        ("baku", "2026", 1400, "black")
    mirrored = tmp_path / "black1.trf"
    from test_trf_real import _mirror

    mirrored.write_text(_mirror(GROS.read_text()))
    out = CliRunner().invoke(main, ["tournament", "import", str(mirrored), "--name", "Gros", "--db", db])
    assert out.exit_code == 0, out.output
    assert "4 of 9 rounds played" in out.output
    t = store.load("Gros")
    assert t.regulations.initial_colour == "black" and len(t.accelerations) == 26
    exported = CliRunner().invoke(main, ["tournament", "export", "Gros", "--db", db])
    assert "XXC black1" in exported.output and "XXA   26  1.0  1.0  1.0  0.5  0.5" in exported.output


@pytest.mark.parametrize("engine", ["bbp", "caissify"])
def test_a_new_black_first_event_gives_pairing_number_1_black(engine: str) -> None:
    """A new Swiss whose regulations say Black first: in round 1 the odd pairing numbers of the top half have
    Black, the even ones White (C.04.3 initial colour), whichever engine pairs."""
    if engine == "bbp" and BBP is None:
        pytest.skip(NO_BBP)
    eng = BbpDutch(str(BBP)) if engine == "bbp" else CaissifyDutch()
    t = Tournament("Black first", Regulations(rounds=5, initial_colour="black"))
    for i in range(10):
        t = t.add_player(f"P{i + 1:02}", 2400 - 10 * i)
    boards = {min(b.white, b.black): (b.white, b.black) for b in pair_next_round(t, eng).rounds[0].boards}
    assert boards == {1: (6, 1), 2: (2, 7), 3: (8, 3), 4: (4, 9), 5: (10, 5)}
    assert "XXC black1" in write_trf(t)


def _swiss_after(rounds: int, n: int = 9, *, finish_last: bool = True) -> Tournament:
    rng = random.Random(5)
    t = Tournament("Open", Regulations(rounds=5))
    for i in range(n):
        t = t.add_player(f"P{i + 1}", 2300 - 20 * i)
    for r in range(1, rounds + 1):
        t = pair_next_round(t, CaissifyDutch())
        if r < rounds or finish_last:
            for b in t.rounds[-1].boards:
                t = t.set_result(r, b.table, rng.choice(["1-0", "0-1", "1/2-1/2"]))
    return t


@pytest.mark.parametrize("finished", [True, False])
def test_the_next_rounds_requested_byes_are_exported_and_read_back(finished: bool) -> None:
    """The export writes the next round's requested byes as JaVaFo-style files do (``0000 - H``,
    ``0000 - F``, ``0000 - Z`` in the column of the round not paired yet); read back, they are the same
    requests, the round not counted as played (also while the last round is still being played)."""
    from chesslaws.tournament import read_trf

    t = _swiss_after(2, finish_last=finished)
    t = t.request_bye(3, 2, "half").request_bye(3, 5, "full").request_bye(3, 7, "zero")
    text = write_trf(t)
    lines = {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}
    assert lines[2][111:119] == "0000 - H" and lines[5][111:119] == "0000 - F" and lines[7][111:119] == "0000 - Z"
    assert len(lines[1].rstrip()) <= 110 or not finished  # nobody else gets the column
    back = read_trf(text)
    assert len(back.rounds) == 2
    assert sorted(back.requested_byes) == [(3, 2, "half"), (3, 5, "full"), (3, 7, "zero")]
    assert [b.result for r in back.rounds for b in r.boards] == [b.result for r in t.rounds for b in r.boards]


def test_xxc_rank_reads_the_players_ranking_from_the_order_of_their_lines() -> None:
    """``XXC rank`` (JaVaFo's TRF(x); bbpPairings reads it so): the numbers in the file are ids, the
    ranking is the order of the 001 lines. A file whose ids were shuffled, its lines kept in ranking order,
    reads back as the event itself."""
    from chesslaws.tournament import read_trf

    t = _swiss_after(2).request_bye(3, 4, "half")
    text = write_trf(t)
    ids = [0, 7, 3, 9, 1, 8, 2, 6, 5, 4]  # start number -> an id in the other program
    shuffled: list[str] = []
    for line in text.splitlines():
        if line.startswith("001"):
            head = line[:4] + f"{ids[int(line[4:8])]:>4}" + line[8:89]
            blocks = [line[i:i + 8] for i in range(91, len(line), 10)]
            moved = [f"{ids[int(b[:4])]:>4}{b[4:]}" if b[:4].strip("0 ") else b for b in blocks]
            shuffled.append(head + "".join("  " + b for b in moved))
        else:
            shuffled.append(line)
    shuffled.insert(1, "XXC rank white1")
    back, plain = read_trf("\n".join(shuffled) + "\n"), read_trf(text)
    assert back.players == plain.players and back.rounds == plain.rounds
    assert {(b.white, b.black, b.result) for b in back.rounds[1].boards} == \
        {(b.white, b.black, b.result) for b in t.rounds[1].boards}
    assert back.requested_byes == t.requested_byes
    without = read_trf("\n".join(x for x in shuffled if not x.startswith("XXC")) + "\n")
    assert without.rounds != plain.rounds  # read as pairing numbers, the ids give another event

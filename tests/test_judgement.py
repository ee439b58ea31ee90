"""One judgement: ``chesslaws check`` and ``chesslaws convert --report`` call the same records
inconsistent with the Laws, by the same article, under every edition; and every real file reads (a DOS
file, a broken tag line)."""

from __future__ import annotations

import builtins
import gzip
import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from chesslaws.check import check_file
from chesslaws.editions import get_edition
from chesslaws.cli import main
from chesslaws.game import Game
from chesslaws.pgn import read_pgn
from chesslaws.records import pgn_to_log

from check_gen import judgement_pgn
from corpus import CORPUS, FULL_CORPUS, sampled
from parallel import in_parallel
from judgement import check_judgements, convert_judgements, disagreements

chess_pgn = pytest.importorskip("chess.pgn")

DATA = Path(__file__).parent / "data"
CRUCIAL = DATA / "judgement_chesscom.pgn"
EDITIONS = ("1989", "1997", "2023")


# ---------------------------------------------------------------------------
# 1. One judgement


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_crucial_games_are_judged_alike(edition: str) -> None:
    """Two chess.com games that two judgements could rule apart: a draw on time the Laws give to Black
    (6.9; 1989: 10.14, Black keeps a knight, not a bare king), and two moves recorded after a dead position
    (1k6/Pp1K4/1P6 b; the 1989 Laws have no dead position, only the list of 10.4)."""
    checked = dict(check_judgements(str(CRUCIAL), edition))
    converted = dict(convert_judgements(str(CRUCIAL), edition))
    assert checked == converted
    expected_flag = {"1989": ("time_forfeit", "10.14"), "1997": ("time_forfeit", "6.9"),
                     "2023": ("time_forfeit", "6.9")}[edition]
    expected_dead = {"1989": None, "1997": ("dead_position", "9.6"), "2023": ("dead_position", "5.2.2")}[edition]
    assert checked == {1: expected_flag, 2: expected_dead}


def test_check_reports_what_convert_reports_on_the_crucial_games(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["check", str(CRUCIAL), "--only-problems"])
    assert res.exit_code == 1
    assert "time_forfeit [Article 6.9 (2023)] After 60... Nf2 White's flag fell and Black can checkmate" in res.output
    assert "dead_position [Article 5.2.2 (2023)] After 93. a7+ the position is dead" in res.output
    assert "record goes on with 2 more move(s)" in res.output
    conv = CliRunner().invoke(main, ["convert", str(CRUCIAL), "--out", str(tmp_path), "--report"])
    assert "the record gives 1/2-1/2 on time; the Laws give 0-1" in conv.output
    assert "the game ended after 93. a7+ (dead_position" in conv.output
    assert "2 inconsistent records" in conv.output


def _disagreements_of_part(part: tuple[str, str, int, int]) -> list[tuple[int, Any, Any]]:
    """The disagreements on the games of a file whose number is `index` modulo `parts` (of the corpus's
    files, those sampled in this run: ``corpus.sampled``), for `in_parallel`."""
    path, edition, index, parts = part
    name = Path(path).name
    return disagreements(path, edition, lambda n: n % parts == index and sampled(name, n))


@pytest.mark.parametrize("edition", EDITIONS)
def test_generated_games_are_judged_alike(edition: str, tmp_path: Path) -> None:
    """Random endings (captures favoured, so that the material runs out), flag falls against every
    material balance, draws on time, moves recorded after the end, claims and resignations."""
    p = tmp_path / "generated.pgn"
    p.write_text(judgement_pgn(300), encoding="utf-8")
    checked = dict(check_judgements(str(p), edition))
    judged = sum(1 for j in checked.values() if j is not None)
    assert judged >= 20  # the generator makes records the Laws contradict
    found = in_parallel(_disagreements_of_part, [(str(p), edition, i, 2) for i in range(2)])
    assert [d for part in found for d in part] == []


def test_a_draw_recorded_without_moves_is_fixed_to_no_result_and_then_checks_clean(tmp_path: Path) -> None:
    """2023 5.2.3: a record with tags and a 1/2-1/2 result but no movetext (as fastchess writes one) is a void
    agreement; ``--fix`` gives it the Laws' result (*), and the fixed file checks clean."""
    p = tmp_path / "no_moves.pgn"
    p.write_text('[Event "e"]\n[White "a"]\n[Black "b"]\n[Result "1/2-1/2"]\n'
                 '[FEN "rn1qk2r/pbpp2pp/4pn2/3P1p2/1bP5/2N2NP1/1P2PP1P/R1BQKB1R w KQkq - 0 1"]\n[SetUp "1"]\n\n',
                 encoding="utf-8")
    out = tmp_path / "fixed.pgn"
    res = CliRunner().invoke(main, ["check", str(p), "--edition", "2023", "--fix", str(out)])
    assert res.exit_code == 1 and "5.2.3" in res.output, res.output
    assert out.read_text(encoding="utf-8").rstrip().endswith(" *")
    again = CliRunner().invoke(main, ["check", str(out), "--edition", "2023"])
    assert again.exit_code == 0, again.output




@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", ["online_chesscom_Carlsen_clk", "online_lichess_DrDrunkenstein", "otb_twic0920"])
def test_the_shared_corpus_is_judged_alike(name: str, edition: str, tmp_path: Path) -> None:
    """The chess.com file (the one whose records the two judgements first disagreed on) whole under every
    edition, and a sample of the others under 2023 (``corpus.SAMPLE``); every file whole under every
    edition with CHESSLAWS_FULL_CORPUS=1."""
    if CORPUS is None or not (src := CORPUS / f"{name}.pgn.zst").exists():
        pytest.skip(f"the shared corpus is not here ({name}.pgn.zst is missing)")
    if not FULL_CORPUS and name != "online_chesscom_Carlsen_clk" and edition != "2023":
        pytest.skip("the rest of the corpus under this edition runs with CHESSLAWS_FULL_CORPUS=1 (suite time)")
    found = in_parallel(_disagreements_of_part, [(str(src), edition, i, 2) for i in range(2)])
    assert [d for part in found for d in part] == []


# ---------------------------------------------------------------------------
# 2. Every real file reads


def _python_chess(data: bytes, encoding: str) -> list[tuple[dict[str, str], list[str]]]:
    handle = io.StringIO(data.decode(encoding))
    out = []
    while (g := chess_pgn.read_game(handle)) is not None:
        out.append((dict(g.headers), [m.uci() for m in g.mainline_moves()]))
    return out


def test_a_dos_file_reads_as_python_chess_reads_it(tmp_path: Path) -> None:
    """A byte-order mark, CR LF line ends, a Latin-1 name and a Ctrl-Z (0x1A) ending the file."""
    data = (b'\xef\xbb\xbf[Event "a"]\r\n[White "M\xfcller"]\r\n[Black "b"]\r\n[Result "1-0"]\r\n\r\n'
            b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\n\r\n"
            b'[Event "b"]\r\n[Result "0-1"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n\x1a')
    p = tmp_path / "dos.pgn"
    p.write_bytes(data)
    theirs = _python_chess(data[3:], "latin-1")
    reports = list(check_file(p, jobs=1))
    assert [r.findings for r in reports] == [(), ()]
    assert [r.plies for r in reports] == [len(m) for _, m in theirs] == [7, 4]
    games = list(read_pgn(p))
    assert [g.errors for g in games] == [(), ()]
    assert [list(g.uci) for g in games] == [m for _, m in theirs]
    assert games[0].tags["White"] == theirs[0][0]["White"] == "Müller"
    res = CliRunner().invoke(main, ["check", str(p)])
    assert res.exit_code == 0, res.output


BROKEN_TAGS = {
    "quote": '[White "Smith "Jr" John"]',
    "quote_bracket": '[Event "he said "hi"]"]',
    "text_after": '[Event "a"b"]extra',
    "unclosed": '[Site "St. "Petersburg"',
}


def test_a_broken_tag_line_is_a_finding_and_the_moves_are_checked(tmp_path: Path) -> None:
    text = "".join(f'{line}\n[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n\n'
                   for line in BROKEN_TAGS.values())
    p = tmp_path / "tags.pgn"
    p.write_text(text, encoding="utf-8")
    theirs = _python_chess(text.encode(), "utf-8")
    reports = list(check_file(p, jobs=1))
    assert len(reports) == len(theirs) == len(BROKEN_TAGS)
    for r, (_, moves) in zip(reports, theirs):
        assert r.plies == len(moves) == 7
        kinds = [f.kind for f in r.findings]
        assert kinds[0] == "pgn_error" and "unreadable_move" not in kinds
        # The moves were checked: the mate is found against the recorded 0-1.
        assert kinds[-1] == "checkmate", r.findings
    assert reports[1].tags["Event"] == theirs[1][0]["Event"] == 'he said "hi"]'


# ---------------------------------------------------------------------------
# 3. convert reads .gz and .zst through the core


def test_convert_reads_gz_and_zst_without_the_zstandard_package(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_zstandard(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "zstandard" or name.startswith("zstandard."):
            raise ImportError("zstandard is not installed")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_zstandard)
    monkeypatch.delitem(__import__("sys").modules, "zstandard", raising=False)
    plain = CRUCIAL.read_bytes()
    gz = tmp_path / "games.pgn.gz"
    gz.write_bytes(gzip.compress(plain))
    paths = [gz]
    if shutil.which("zstd"):
        zst = tmp_path / "games.pgn.zst"
        subprocess.run(["zstd", "-q", "-o", str(zst), str(CRUCIAL)], check=True)
        paths.append(zst)
    for path in paths:
        out = tmp_path / path.name.replace(".", "_")
        res = CliRunner().invoke(main, ["convert", str(path), "--out", str(out)])
        assert "2 game logs written" in res.output, res.output
        assert sorted(f.name for f in out.iterdir()) == ["games-1.jsonl", "games-2.jsonl"]
    assert len(paths) == 2, "zstd is needed to write the .zst file of this test"


# ---------------------------------------------------------------------------
# Flag falls the records write in other ways

_ON_TIME = """[Event "On time {n}"]
[Site "lichess.org"]
[White "a"]
[Black "b"]
[Result "{result}"]
[TimeControl "60+0"]
[Termination "Time forfeit"]
[SetUp "1"]
[FEN "{fen}"]

{moves} {result}

"""


@pytest.mark.parametrize("edition", EDITIONS)
def test_draws_on_time_written_as_time_forfeits_are_judged_alike(edition: str, tmp_path: Path) -> None:
    """1. A lichess draw on time ("Time forfeit", 1/2-1/2: the flag of the player to move fell) where the
    opponent can mate: the Laws give him the game (Article 6.9; 1989: 10.14), in both tools. 2. The same
    where the opponent has a lone king: the draw stands. 3. A queen that must be taken at once is no mating
    material: after 1. Qg7+ only Kxg7 can follow, so the position is dead (1997 9.6, 2023 5.2.2) the moment
    the queen checks, though a material count sees a queen there (the 1989 Laws have no dead position, and
    their flag rule, 10.5, only asks for more than a bare king)."""
    games = [
        ("1/2-1/2", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "1. Ra2"),
        ("1/2-1/2", "4k3/8/8/8/8/8/q7/6K1 w - - 0 1", "1. Kf1"),
        ("1-0", "7k/8/8/8/8/8/8/K5Q1 w - - 0 1", "1. Qg7+"),
    ]
    p = tmp_path / "on_time.pgn"
    p.write_text("".join(_ON_TIME.format(n=i + 1, result=r, fen=f, moves=m) for i, (r, f, m) in enumerate(games)),
                 encoding="utf-8")
    checked = dict(check_judgements(str(p), edition))
    assert checked == dict(convert_judgements(str(p), edition))
    ed = get_edition(edition)
    assert checked[1] == ("time_forfeit", ed.articles.get("flag"))
    assert checked[2] is None
    assert checked[3] == (None if edition == "1989" else ("dead_position", ed.articles.get("dead_position")))


_RECORD = """[Event "{n}"]
[Site "lichess.org"]
[White "a"]
[Black "b"]
[Result "{result}"]
{tc}[Termination "{term}"]
[SetUp "1"]
[FEN "{fen}"]

{moves} {result}

"""


def _records(path: Path, games: list[tuple[str, str, str, str, str | None]]) -> str:
    """Writes the records (result, Termination, FEN, moves, TimeControl or None) to `path`."""
    path.write_text("".join(_RECORD.format(n=i + 1, result=r, term=t, fen=f, moves=m,
                                           tc=f'[TimeControl "{tc}"]\n' if tc else "")
                            for i, (r, t, f, m, tc) in enumerate(games)), encoding="utf-8")
    return str(path)


def _bare_king_resigned_to(edition: str) -> tuple[str, str] | None:
    """The judgement of a resignation to a player having a bare king: a draw by 2023 5.1.2 (as this project
    reads it: he cannot mate) and by 1989 10.5 (a bare king cannot win the game); under 1997 (standard play)
    the resignation stands."""
    return {"1989": ("resignation", "10.5"), "1997": None, "2023": ("resignation", "5.1.2")}[edition]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_win_on_time_recorded_for_the_player_to_move_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """The loser on time made the last recorded move: his flag fell after he made it and before he pressed
    the clock (a move not completed: 1997 6.7(a), 2023 6.2.1; 1989 12.3: he had not stopped his clock), so
    the flag rule judges the position on the board, after that move. 1. Black takes White's last rook: White
    has a bare king and cannot mate, the game is drawn (6.9; 1989 10.5). 2. White keeps the rook: the win
    stands. Both tools judge it so; convert writes the move as made without pressing, and the flag after.
    3. As 1, but the record's clock after Black's move shows time left: he pressed it, so his flag cannot have
    fallen, and both tools take the record's win as Black's resignation (2023 5.1.2 as this project reads
    it: White cannot mate, a draw; 1989 10.5: White has a bare king, a draw)."""
    p = _records(tmp_path / "mover_lost.pgn", [
        ("1-0", "Time forfeit", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1", "1... Rxa1+", "5400"),
        ("1-0", "Time forfeit", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1", "1... Ra3", "5400"),
        ("1-0", "Time forfeit", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1", "1... Rxa1+ {[%clk 1:29:59]}", "5400"),
    ])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    ed = get_edition(edition)
    resign = _bare_king_resigned_to(edition)
    assert checked == {1: ("time_forfeit", ed.articles.get("flag_draw")), 2: None, 3: resign}
    *on_time, pressed = read_pgn(p)
    conv = pgn_to_log(pressed, edition=edition)
    assert any("Black's flag cannot have fallen" in q for q in conv.problems), conv.problems
    for g, result in zip(on_time, ("1/2-1/2", "1-0")):
        conv = pgn_to_log(g, edition=edition)
        assert not any("cannot have fallen" in q for q in conv.problems), conv.problems
        move, flag = conv.events[-2:]
        assert (move["type"], move["by"], move.get("press")) == ("move", "black", False)
        assert (flag["type"], flag["by"]) == ("claim_flag", "white")
        assert Game.from_events(conv.events).state.result == result


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_1997_rule_of_mating_potential_in_blitz_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """1997 Appendix C.4: in blitz (C.1: the TimeControl gives all the moves in under 15 minutes) a player
    must have mating potential to win, whatever the way he won. Each record under blitz (180+2) and
    standard play (5400), and without a TimeControl (not blitz, for either tool; a flag judged by 6.9 all
    the same: test_a_flag_recorded_without_a_time_control_is_judged_alike). 1. A win on time with two
    knights against a lone king (6.9 lets them win: a mate exists). 2. A resignation by the side with a
    queen against a lone king (2023 5.1.2 as this project reads it: drawn too; 1989 10.5: a bare king
    cannot win the game). 3. A draw on time where the opponent has the two
    knights: his win by 6.9, except in 1997 blitz."""
    games = [("1-0", "Time forfeit", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2"),
             ("1-0", "a won by resignation", "4k3/8/8/8/8/8/q7/4K3 w - - 0 1", "1. Kf1"),
             ("1/2-1/2", "Time forfeit", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2")]
    p = _records(tmp_path / "blitz.pgn", [(*g, tc) for tc in ("180+2", "5400") for g in games]
                 + [(*g, None) for g in games])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    ed = get_edition(edition)
    resign = _bare_king_resigned_to(edition)
    flag = ("time_forfeit", ed.articles.get("flag"))
    standard = [None, resign, flag]
    blitz = [("time_forfeit", "C.4"), ("resignation", "C.4"), None] if edition == "1997" else standard
    assert [checked[n] for n in range(1, 10)] == blitz + standard + standard
    if edition == "1997":
        res = CliRunner().invoke(main, ["check", p, "--edition", "1997", "--only-problems"])
        assert ("time_forfeit [Article C.4 (1997)] After 1. Kf2 the record gives 1-0 (Black's flag fell), but "
                "White has only two knights against a lone king: in blitz a player must have mating potential to "
                "win, so the game is drawn") in res.output, res.output


def test_check_reads_blitz_from_the_time_control_as_the_arbiter_does(tmp_path: Path) -> None:
    """1997 C.1 in check (Rust) and in the arbiter (``timecontrol.classify``): the same TimeControl tags
    are blitz, seen through C.4 (a win on time with two knights against a lone king)."""
    from chesslaws.timecontrol import TimeControl, classify

    controls = ["180", "180+2", "5+3", "600", "840", "899+0", "900", "60+14", "10+1", "180+0.5", "40/300",
                "40/5400:1800+30", "60/600:300", "40/300:60", "5400", "-", "?", "", "1/259200", "3 min", "G/5"]
    p = _records(tmp_path / "controls.pgn", [("1-0", "Time forfeit", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2",
                                              tc or None) for tc in controls])
    checked = dict(check_judgements(p, "1997"))
    assert checked == dict(convert_judgements(p, "1997"))

    def blitz(text: str) -> bool:
        for read in (TimeControl.from_pgn, TimeControl.parse):
            try:
                tc = read(text)
            except Exception:
                continue
            per_move = len(tc.periods) == 1 and tc.periods[0].moves == 1  # correspondence: no clock
            return not tc.unlimited and not per_move and classify(tc, "1997") == "blitz"
        return False

    expected = {n + 1: ("time_forfeit", "C.4") if blitz(tc) else None for n, tc in enumerate(controls)}
    assert checked == expected
    assert sum(j is not None for j in checked.values()) == 9


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_win_by_a_bare_king_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """1989 Article 10.5: "A player having a bare king cannot win the game", whatever the way he won. 1. A
    resignation by Black, White having a bare king against a queen; 2. the same for Black (0-1, "Normal":
    written as White's resignation); 3. a win on time for White's bare king; 4. a resignation by Black against a
    king and rook (not a bare king; a mate exists, so 2023 5.1.2 lets it stand too). Under 1989 both tools
    draw 1-3 by 10.5; under 2023 the resignations are drawn by 5.1.2 as this project reads it; under 1997
    (standard play) only the flag is (6.9)."""
    p = _records(tmp_path / "bare_king.pgn", [
        ("1-0", "a won by resignation", "4k3/8/8/8/8/8/q7/4K3 w - - 0 1", "1. Kf1", "5400"),
        ("0-1", "Normal", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "1. Kf2", "5400"),
        ("1-0", "Time forfeit", "4k3/8/8/8/8/8/q7/4K3 w - - 0 1", "1. Kf1", "5400"),
        ("1-0", "a won by resignation", "4k3/8/8/8/8/8/q7/4KR2 w - - 0 1", "1. Rf2", "5400"),
    ])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    ed = get_edition(edition)
    flag = ("time_forfeit", ed.articles.get("flag_draw"))
    expected = {
        "1989": [("resignation", "10.5"), ("resignation", "10.5"), flag, None],
        "1997": [None, None, flag, None],
        "2023": [("resignation", "5.1.2"), ("resignation", "5.1.2"), flag, None],
    }[edition]
    assert [checked[n] for n in range(1, 5)] == expected
    if edition == "1989":
        res = CliRunner().invoke(main, ["check", p, "--edition", "1989", "--only-problems"])
        assert ("resignation [Article 10.5 (1989)] After 1. Kf2 the record gives 0-1 (a resignation by White), "
                "but Black has only the king left: a player having a bare king cannot win the game, so the game "
                "is drawn") in res.output, res.output
        # The summary names the article its resignation findings cite (10.5, not 10.2: no finding).
        assert re.search(r"\n  resignation +10\.5 +2\n", res.output), res.output


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_flag_recorded_without_a_time_control_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """A record that says a flag fell but has no TimeControl (as many real records, TWIC's among them), or
    one with a fixed time for each move (correspondence, which no clock of the Laws keeps). What a flag fall
    leads to asks only for the position (1989 10.14 and 10.5, 1997 6.9 and 6.10, 2023 6.9), not for the
    clock's numbers: check judges the flag, and convert writes it on a nominal clock of standard play (was:
    a resignation or an agreement, which judged the same record otherwise). 1. A win on time for a bare
    king: drawn. 2. A draw on time where the opponent has two knights: his win (a mate exists; 1989: not a
    bare king). 3. A win on time from the opening: it stands. 4. A draw on time against a lone king: it
    stands. 5. As 1, with [%clk] times. 6. The loser made the last move and his clock after it shows time
    left (he pressed it): no flag of his can have fallen, a resignation for both tools. 7. As 1 under a
    correspondence control."""
    bare = "4k3/8/8/8/8/8/q7/4K3 w - - 0 1"
    p = _records(tmp_path / "no_time_control.pgn", [
        ("1-0", "Time forfeit", bare, "1. Kf1", None),
        ("1/2-1/2", "Time forfeit", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2", None),
        ("1-0", "a won on time", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "1. e4 e5 2. Nf3",
         None),
        ("1/2-1/2", "Time forfeit", bare, "1. Kf1", None),
        ("1-0", "Time forfeit", bare,
         "1. Kf1 {[%clk 1:00:00]} Qb1+ {[%clk 0:59:00]} 2. Kf2 {[%clk 0:58:30]}", None),
        ("1-0", "Time forfeit", bare, "1. Kf1 {[%clk 1:00:00]} Qb1+ {[%clk 0:59:00]}", None),
        ("1-0", "Time forfeit", bare, "1. Kf1", "1/259200"),
    ])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    ed = get_edition(edition)
    drawn = ("time_forfeit", ed.articles.get("flag_draw"))
    won = ("time_forfeit", ed.articles.get("flag"))
    assert [checked[n] for n in range(1, 8)] == [drawn, won, None, None, drawn, _bare_king_resigned_to(edition),
                                                 drawn]
    from chesslaws.timecontrol import TimeControl, classify

    for n, g in enumerate(read_pgn(p), start=1):
        conv = pgn_to_log(g, edition=edition)
        flagged = conv.events[-1]["type"] == "claim_flag"
        assert flagged == (n != 6), (n, conv.events[-1])
        if flagged:
            assert any("a nominal 120 min (standard play)" in note for note in conv.notes), conv.notes
            control = TimeControl.from_pgn(conv.events[0]["time_control"])
            assert classify(control, edition) == "standard"
        else:
            assert conv.events[0]["time_control"] == "-"
            assert any("Black's flag cannot have fallen" in q for q in conv.problems), conv.problems


@pytest.mark.parametrize("edition", EDITIONS)
def test_clocks_that_start_at_zero_are_judged_alike(edition: str, tmp_path: Path) -> None:
    """TimeControl "0+1" (lichess's hyperbullet): read literally, each flag falls the moment its clock is
    started, so both are down after Black's first move and a recorded win on time became a draw (1997
    B.8, 2023 III.3.1.2) or a game going on (1989 12.8), or a log the arbiter refused, while check judged the
    loser's flag. The server gives each player a start the tag does not show (lichess: the increment, at
    least 3 s): convert writes that start, and both tools judge the loser's flag. 1. A win on time from
    the opening, no clock times: it stands. 2. A win on time with two knights against a lone king: a mate
    exists (6.9; 1989: not a bare king), but in 1997 blitz the winner has no mating potential (C.4). 3. As
    1, with lichess's [%clk] times, White's last clock at 0."""
    opening = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    p = _records(tmp_path / "zero_start.pgn", [
        ("0-1", "Time forfeit", opening, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6", "0+1"),
        ("1-0", "Time forfeit", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2", "0+1"),
        ("0-1", "Time forfeit", opening,
         "1. e4 {[%clk 0:00:03]} e5 {[%clk 0:00:03]} 2. Nf3 {[%clk 0:00:02]} Nc6 {[%clk 0:00:03]} "
         "3. Bc4 {[%clk 0:00:01]} Nf6 {[%clk 0:00:03]} 4. Ng5 {[%clk 0:00:00]}", "0+1"),
    ])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    assert [checked[n] for n in range(1, 4)] == [None, ("time_forfeit", "C.4") if edition == "1997" else None,
                                                 None]
    for g in read_pgn(p):
        conv = pgn_to_log(g, edition=edition)
        assert conv.events[0]["time_control"] == "3+1"
        assert any("TimeControl '0+1' starts the clocks at zero" in n for n in conv.notes), conv.notes
        state = Game.from_events(conv.events).state
        assert state.termination == "time_forfeit", state.rulings[-1]
        assert not any("Both flags" in r.text for r in state.rulings)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_win_by_the_arbiters_decision_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """A win the record gives by an arbiter's or a server's decision (Termination "adjudication", "rules
    infraction"): no resignation, so no rule of resignation judges it (2023 5.1.2 as this project reads
    it), only the rules that undo any win: 1989 10.5 (a bare king) and 1997 C.4 (blitz, mating potential).
    convert writes it as the arbiter's adjudication (was: the loser's resignation, which 2023 drew where
    the winner cannot mate, while check let it stand). 1-2. White, with a bare king against a queen, wins
    by adjudication, by a rules infraction; 3. White wins by adjudication with two knights in blitz; 4. the
    same in standard play."""
    p = _records(tmp_path / "decisions.pgn", [
        ("1-0", "adjudication", "4k3/8/8/8/8/8/q7/4K3 w - - 0 1", "1. Kf1", "5400"),
        ("1-0", "rules infraction", "4k3/8/8/8/8/8/q7/4K3 w - - 0 1", "1. Kf1", "5400"),
        ("1-0", "adjudication", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2", "180+2"),
        ("1-0", "adjudication", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", "1. Kf2", "5400"),
    ])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    expected = {"1989": [("resignation", "10.5")] * 2 + [None, None],
                "1997": [None, None, ("resignation", "C.4"), None],
                "2023": [None] * 4}[edition]
    assert [checked[n] for n in range(1, 5)] == expected
    for g in read_pgn(p):
        conv = pgn_to_log(g, edition=edition)
        last = conv.events[-1]
        assert (last["type"], last["on"], last["ruling"]) == ("decision", "adjudication", "white_wins")
        assert Game.from_events(conv.events).state.termination == "arbiter_decision"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_win_recorded_as_a_timeout_vs_insufficient_material_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """A win the record gives with chess.com's draw text "timeout vs insufficient material": a flag fell,
    for both tools (convert judged the flag, check nothing). 1. Black's flag fell, White has a bare king:
    drawn (6.9; 1989 10.5). 2. White has a rook: the win stands. 3. As 1, Black having made the last move
    and his clock after it showing time left (he pressed it): no flag of his can have fallen, a resignation
    for both tools."""
    bare = "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1"
    text = "Game drawn by timeout vs insufficient material"
    p = _records(tmp_path / "timeout_vs_insufficient.pgn", [
        ("1-0", text, bare, "1... Rxa1+", "5400"),
        ("1-0", text, bare, "1... Ra3", "5400"),
        ("1-0", text, bare, "1... Rxa1+ {[%clk 1:29:59]}", "5400"),
    ])
    checked = dict(check_judgements(p, edition))
    assert checked == dict(convert_judgements(p, edition))
    ed = get_edition(edition)
    assert checked == {1: ("time_forfeit", ed.articles.get("flag_draw")), 2: None, 3: _bare_king_resigned_to(edition)}

"""`chesslaws check`: bulk arbitration of PGN files.

Files with known problems planted, each finding checked exactly (kind, game
number, ply, article); clean games generated with python-chess from a fixed
seed; gzip, zstd and standard input; --jobs; malformed PGN; exit codes.
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.check import FileCheck, GameReport, Summary, check_file, check_files
from chesslaws.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from check_gen import clean_pgn  # noqa: E402

# ---------------------------------------------------------------------------
# Planted games. Each: (name, pgn text). Names go in the Event tag.

WALL = "7k/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/2Kn4/8 w - - 0 1"

PLANTED = {
    "illegal": '1. e4 e5 2. Ke3 Nc6 *',
    "mate_wrong_result": '1. f3 e5 2. g4 Qh4# 1-0',
    "mate_continues": '1. f3 e5 2. g4 Qh4# 3. Kf2 0-1',
    "mate_ok": '1. f3 e5 2. g4 Qh4# 0-1',
    "flag_lone_king": '[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]\n[Termination "Time forfeit"]\n\n'
                      '1. Ra2 { [%clk 0:00:05] } 1... Kg8 { [%clk 0:00:03] } 0-1',
    "flag_clk_zero": '[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]\n\n1. Ra2 { [%clk 0:00:00] } 0-1',
    "flag_ok": '[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]\n\n1. Ra2 { [%clk 0:00:04] } 1... Kg8 { [%clk 0:00:00] } 1-0',
    # A knight against a queen: the knight cannot mate, the queen can.
    "flag_knight": '[FEN "q6k/8/8/8/8/8/8/1N2K3 w - - 0 1"]\n[Termination "Time forfeit"]\n\n1. Nc3 Kg8 1-0',
    "dead_continues": '[FEN "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"]\n\n1. Kxe2 Kd7 2. Kd3 1/2-1/2',
    "dead_decisive": '[FEN "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"]\n\n1. Kxe2 1-0',
    "wall": f'[FEN "{WALL}"]\n\n1. Kxd2 Kg8 2. Ke2 Kh8 1/2-1/2',
    "fivefold": '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 '
                '7. Nf3 Nf6 8. Ng1 Ng8 9. e4 e5 1/2-1/2',
    "seventyfive": '[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 149 80"]\n\n80. Ra2 Kd7 81. Ra3 1/2-1/2',
    "mate_beats_75": '[FEN "k7/8/1K6/8/8/8/8/7R w - - 149 80"]\n\n80. Rh8# 1-0',
    "resign_lone_king": '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1. Kd2 Kd7 0-1',
    "resign_ok": '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1. Kd2 Kd7 1-0',
    "stalemate_decisive": '[FEN "k7/8/8/1Q6/8/8/8/4K3 w - - 0 1"]\n\n1. Kd2 Ka7 2. Kd3 Ka8 3. Qb6 1-0',
}


def planted_pgn(names: list[str] | None = None) -> str:
    parts = []
    for name in names or list(PLANTED):
        body = PLANTED[name]
        head = f'[Event "{name}"]\n'
        if body.startswith("["):
            tags, moves = body.split("\n\n", 1)
            parts.append(f"{head}{tags}\n\n{moves}\n\n")
        else:
            parts.append(f"{head}\n{body}\n\n")
    return "".join(parts)


def by_event(reports: list[GameReport]) -> dict[str, GameReport]:
    return {r.tags["Event"]: r for r in reports}


def kinds(r: GameReport) -> list[tuple[str, int, str | None]]:
    return [(f.kind, f.ply, f.article) for f in r.findings]


def only_no_result(path: Path | str, edition: str = "2023") -> int:
    """A file --fix wrote checks clean but for the games recorded without a result (`*`), which --fix
    cannot give one: their no_result findings are all there is. Returns how many there are."""
    found = [(r.game, f.kind, f.text) for r in check_file(path, edition=edition, jobs=1) for f in r.findings]
    assert all(kind == "no_result" for _, kind, _ in found), [x for x in found if x[1] != "no_result"][:5]
    return len(found)


@pytest.fixture(scope="module")
def planted_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("check") / "planted.pgn"
    p.write_text(planted_pgn())
    return p


@pytest.fixture(scope="module")
def clean_text() -> str:
    return clean_pgn(150, seed=2023)


@pytest.fixture(scope="module")
def clean_file(tmp_path_factory: pytest.TempPathFactory, clean_text: str) -> Path:
    p = tmp_path_factory.mktemp("check") / "clean.pgn"
    p.write_text(clean_text)
    return p


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory: pytest.TempPathFactory, clean_text: str) -> Path:
    """Clean games with the planted ones spread among them."""
    games = clean_text.split("\n\n\n")
    planted = planted_pgn().split("\n\n\n")
    mixed: list[str] = []
    for i, g in enumerate(games):
        mixed.append(g)
        if i % 9 == 0 and planted:
            mixed.append(planted.pop(0))
    mixed.extend(planted)
    p = tmp_path_factory.mktemp("check") / "mixed.pgn"
    p.write_text("\n\n\n".join(x.strip("\n") for x in mixed if x.strip()) + "\n")
    return p


def run(path: Path | str, edition: str = "2023", jobs: int = 1) -> dict[str, GameReport]:
    return by_event(list(check_file(path, edition=edition, jobs=jobs)))


# ---------------------------------------------------------------------------
# Planted problems, 2023.


def test_planted_2023_exact(planted_file: Path) -> None:
    r = run(planted_file)
    expected: dict[str, list[tuple[str, int, str | None]]] = {
        "illegal": [("illegal_move", 3, "7.5.1")],
        "mate_wrong_result": [("checkmate", 4, "5.1.1")],
        "mate_continues": [("checkmate", 4, "5.1.1")],
        "mate_ok": [],
        "flag_lone_king": [("time_forfeit", 2, "6.9")],
        "flag_clk_zero": [("time_forfeit", 1, "6.9")],
        "flag_ok": [],
        "flag_knight": [("time_forfeit", 2, "6.9")],
        "dead_continues": [("dead_position", 1, "5.2.2")],
        "dead_decisive": [("dead_position", 1, "5.2.2")],
        "wall": [("dead_position", 1, "5.2.2")],
        "fivefold": [("fivefold", 16, "9.6.1")],
        "seventyfive": [("seventyfive", 1, "9.6.2")],
        "mate_beats_75": [],
        "resign_lone_king": [("resignation", 2, "5.1.2")],
        "resign_ok": [],
        "stalemate_decisive": [("stalemate", 5, "5.2.1")],
    }
    assert {k: kinds(v) for k, v in r.items()} == expected
    # Game numbers are positions in the file.
    assert [g.game for g in r.values()] == list(range(1, len(PLANTED) + 1))


def test_planted_details(planted_file: Path) -> None:
    r = run(planted_file)
    f = r["illegal"].findings[0]
    assert (f.move, f.edition) == ("Ke3", "2023")
    assert "2. Ke3" in f.text and "White" in f.text
    f = r["mate_wrong_result"].findings[0]
    assert f.move == "Qh4#" and "0-1" in f.text and "gives 1-0" in f.text
    assert "1 more move" in r["mate_continues"].findings[0].text
    assert "2 more move" in r["dead_continues"].findings[0].text
    assert r["dead_continues"].findings[0].move == "Kxe2"
    assert "2 more move" in r["fivefold"].findings[0].text
    assert r["fivefold"].findings[0].move == "Ng8"
    assert "80. Ra2" in r["seventyfive"].findings[0].text
    assert r["resign_lone_king"].findings[0].move == "Kd7"
    assert r["illegal"].result == "*" and r["mate_ok"].result == "0-1"
    assert r["wall"].plies == 4


def test_planted_lines(planted_file: Path) -> None:
    lines = planted_file.read_text().splitlines()
    r = run(planted_file)
    for name, rep in r.items():
        assert lines[rep.line - 1] == f'[Event "{name}"]'


def test_planted_1997(planted_file: Path) -> None:
    r = run(planted_file, edition="1997")
    got = {k: kinds(v) for k, v in r.items() if v.findings}
    assert got == {
        "illegal": [("illegal_move", 3, "7.4")],
        "mate_wrong_result": [("checkmate", 4, "5.1(a)")],
        "mate_continues": [("checkmate", 4, "5.1(a)")],
        "flag_lone_king": [("time_forfeit", 2, "6.9")],
        "flag_clk_zero": [("time_forfeit", 1, "6.9")],
        "flag_knight": [("time_forfeit", 2, "6.9")],
        "dead_continues": [("dead_position", 1, "9.6")],
        "dead_decisive": [("dead_position", 1, "9.6")],
        "wall": [("dead_position", 1, "9.6")],
        "stalemate_decisive": [("stalemate", 5, "5.2")],
    }


def test_planted_1989(planted_file: Path) -> None:
    r = run(planted_file, edition="1989")
    got = {k: kinds(v) for k, v in r.items() if v.findings}
    assert got == {
        "illegal": [("illegal_move", 3, "8.1")],
        "mate_wrong_result": [("checkmate", 4, "10.1")],
        "mate_continues": [("checkmate", 4, "10.1")],
        "flag_lone_king": [("time_forfeit", 2, "10.5")],
        "flag_clk_zero": [("time_forfeit", 1, "10.5")],
        # 1989: a king and knight is no bare king; the wall is no listed ending.
        "dead_continues": [("insufficient_material", 1, "10.4")],
        "dead_decisive": [("insufficient_material", 1, "10.4")],
        "stalemate_decisive": [("stalemate", 5, "10.3")],
        # 1989 10.5: a player having a bare king cannot win the game, by resignation either.
        "resign_lone_king": [("resignation", 2, "10.5")],
    }
    assert "10.4(a)" in r["dead_continues"].findings[0].text


# ---------------------------------------------------------------------------
# Clean games.


def test_clean_games_have_no_findings(clean_file: Path) -> None:
    for edition in ("2023", "1997", "1989"):
        fc = FileCheck(clean_file, edition=edition, jobs=1)
        reports = list(fc)
        assert len(reports) == 150 == fc.games
        assert [r for r in reports if r.findings] == []
        assert fc.plies == sum(r.plies for r in reports) > 150 * 20
    # Every game played to its recorded end: python-chess agrees on the plies.
    import chess.pgn

    stream = io.StringIO(clean_file.read_text())
    counts = []
    while (g := chess.pgn.read_game(stream)) is not None:
        counts.append(len(list(g.mainline_moves())))
    assert [r.plies for r in check_file(clean_file, jobs=1)] == counts


def test_jobs_give_the_same_report(mixed_file: Path) -> None:
    one = [r.to_json() for r in check_file(mixed_file, jobs=1)]
    two = [r.to_json() for r in check_file(mixed_file, jobs=2)]
    assert one == two
    assert len(one) == 150 + len(PLANTED)
    assert sum(1 for g in one if g["findings"]) == 13
    assert [g["game"] for g in one] == list(range(1, len(one) + 1))


def test_compressed_and_stdin(tmp_path: Path, mixed_file: Path) -> None:
    zstandard = pytest.importorskip("zstandard")
    data = mixed_file.read_bytes()
    gz = tmp_path / "m.pgn.gz"
    gz.write_bytes(gzip.compress(data))
    zst = tmp_path / "m.pgn.zst"
    zst.write_bytes(zstandard.ZstdCompressor().compress(data))
    plain = [r.to_json() for r in check_file(mixed_file, jobs=2)]
    assert [r.to_json() for r in check_file(gz, jobs=2)] == plain
    assert [r.to_json() for r in check_file(zst, jobs=1)] == plain
    # Standard input, through the command.
    proc = subprocess.run(
        [sys.executable, "-m", "chesslaws.cli", "check", "-", "--json", "--jobs", "2"],
        input=gzip.compress(data), capture_output=True, check=False,
    )
    assert proc.returncode == 1, proc.stderr
    rows = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert rows[:-1] == plain
    assert rows[-1]["summary"]["games"] == len(plain)
    fc = FileCheck(gz, jobs=1)
    list(fc)
    assert fc.bytes_read == fc.total_bytes == gz.stat().st_size


# ---------------------------------------------------------------------------
# Malformed PGN: errors, and reading goes on.

MALFORMED = """[Event "junk"]

1. e4 e5 2. Zz9 Nc6 *

[Event "open comment"]

1. e4 { never closed 2. Nf3 *

[Event "good"]

1. d4 d5 2. c4 *

1. e4 e5 3. Nf3 (2. Nc3 ) Nc6 1-0

[Event "after"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4#
"""


def test_malformed_pgn(tmp_path: Path) -> None:
    p = tmp_path / "bad.pgn"
    p.write_text(MALFORMED)
    reports = list(check_file(p, jobs=1))
    assert [(r.game, r.line) for r in reports] == [(1, 1), (2, 5), (3, 9), (4, 13), (5, 15)]
    assert kinds(reports[0]) == [("unreadable_move", 3, "7.5.1")]
    assert reports[0].findings[0].move == "Zz9"
    assert [f.kind for f in reports[1].findings] == ["pgn_error"]
    assert reports[1].findings[0].article is None
    assert kinds(reports[2]) == [("no_result", 3, None)]  # 2. c4 *: unfinished
    # A tagless game; a decisive result not backed by anything is no finding.
    assert reports[3].findings == () and reports[3].plies == 4
    # The Result tag counts when the movetext gives none: and it is right.
    assert reports[4].result == "0-1" and reports[4].findings == ()
    assert [r.to_json() for r in check_file(p, jobs=2)] == [r.to_json() for r in reports]


# ---------------------------------------------------------------------------
# The command.


def test_cli_exit_codes(tmp_path: Path, clean_file: Path, planted_file: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["check", str(clean_file), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "games with findings" in res.output and "150" in res.output
    res = runner.invoke(main, ["check", str(planted_file)])
    assert res.exit_code == 1
    assert "game 1 (line 1)" in res.output and "illegal_move [Article 7.5.1 (2023)]" in res.output
    assert "game 4 " not in res.output  # mate_ok is clean
    assert runner.invoke(main, ["check", str(tmp_path / "missing.pgn")]).exit_code == 2
    assert runner.invoke(main, ["check", str(clean_file), "--jobs", "0"]).exit_code == 2
    assert runner.invoke(main, ["check", str(clean_file), "--edition", "2000"]).exit_code == 2
    assert runner.invoke(main, ["check"]).exit_code == 2


def test_cli_json(planted_file: Path, clean_file: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["check", str(planted_file), "--json", "--jobs", "2"])
    assert res.exit_code == 1
    rows = [json.loads(x) for x in res.output.splitlines()]
    assert len(rows) == len(PLANTED) + 1
    first = rows[0]
    assert set(first) == {"game", "line", "tags", "result", "plies", "findings"}
    assert first["findings"] == [{
        "kind": "illegal_move", "ply": 3, "move": "Ke3", "article": "7.5.1", "edition": "2023",
        "text": first["findings"][0]["text"],
    }]
    summary = Summary.from_json(rows[-1])
    assert summary.games == len(PLANTED) and summary.games_with_findings == 13
    assert summary.by_kind["time_forfeit"] == 3 and summary.articles["time_forfeit"] == "6.9"
    # --only-problems: only games with findings, same summary.
    res = runner.invoke(main, ["check", str(planted_file), "--json", "--only-problems"])
    rows2 = [json.loads(x) for x in res.output.splitlines()]
    assert [r for r in rows[:-1] if r["findings"]] == rows2[:-1]
    assert rows2[-1] == rows[-1]
    # Two files: every report names its file; the summary adds up.
    res = runner.invoke(main, ["check", str(planted_file), str(clean_file), "--json", "--only-problems"])
    rows3 = [json.loads(x) for x in res.output.splitlines()]
    assert {r["file"] for r in rows3[:-1]} == {str(planted_file)}
    assert rows3[-1]["summary"]["games"] == len(PLANTED) + 150
    assert rows3[-1]["summary"]["files"] == 2


def test_check_files_api(planted_file: Path, clean_file: Path) -> None:
    reports, summary = check_files([planted_file, clean_file], jobs=2, problems_only=True)
    assert len(reports) == 13 and all(r.file == str(planted_file) for r in reports)
    assert summary.games == len(PLANTED) + 150 and summary.files == 2 and not summary.clean


# ---------------------------------------------------------------------------
# Past one machine: Dask.


def test_dask_gives_the_same_report(planted_file: Path, clean_file: Path, mixed_file: Path) -> None:
    pytest.importorskip("distributed")
    from chesslaws.distributed import check_files_dask, local_client

    paths = [planted_file, clean_file, mixed_file]
    local, local_summary = check_files(paths, jobs=1)
    runner = CliRunner()
    args = ["check", str(planted_file), str(clean_file), "--json", "--only-problems"]
    here = runner.invoke(main, args + ["--jobs", "2"])
    one_file = ["check", str(mixed_file), "--json"]
    here_one = runner.invoke(main, one_file + ["--jobs", "2"])
    with local_client(n_workers=2) as client:
        remote, remote_summary = check_files_dask(paths, client=client)
        there = runner.invoke(main, args + ["--dask", client.scheduler.address])
        there_one = runner.invoke(main, one_file + ["--dask", client.scheduler.address])
    assert [r.to_json() for r in remote] == [r.to_json() for r in local]
    assert remote_summary.to_json() == local_summary.to_json()
    assert len(remote) == 2 * 150 + 2 * len(PLANTED)
    # The command on the cluster prints what it prints on one machine.
    assert (there.exit_code, there.output) == (here.exit_code, here.output) == (1, here.output)
    assert len(here.output.splitlines()) == 13 + 1
    # One file, every game: the same lines, byte for byte (one writer of a report's JSON).
    assert (there_one.exit_code, there_one.output) == (here_one.exit_code, here_one.output)
    assert len(here_one.output.splitlines()) == 150 + len(PLANTED) + 1


# ---------------------------------------------------------------------------
# Illegal moves planted at random plies of generated games.


def test_random_illegal_moves_found_at_their_ply(tmp_path: Path, clean_text: str) -> None:
    import random

    import chess
    import chess.pgn

    rng = random.Random(7)
    stream = io.StringIO(clean_text)
    texts: list[str] = []
    expected: list[tuple[int, str]] = []
    while (g := chess.pgn.read_game(stream)) is not None and len(texts) < 40:
        moves = list(g.mainline_moves())
        if len(moves) < 2:
            continue
        k = rng.randrange(1, len(moves) + 1)  # the ply to spoil
        board = chess.Board()
        sans: list[str] = []
        for m in moves[: k - 1]:
            sans.append(board.san(m))
            board.push(m)
        king = board.king(board.turn)
        assert king is not None
        far = [sq for sq in chess.SQUARES if chess.square_distance(sq, king) >= 2]
        bad = "K" + chess.square_name(rng.choice(far))  # a king never moves two squares
        sans.append(bad)
        movetext = " ".join(
            (f"{i // 2 + 1}. " if i % 2 == 0 else "") + s for i, s in enumerate(sans)
        )
        texts.append(f'[Event "spoilt {len(texts) + 1}"]\n\n{movetext} *\n\n')
        expected.append((k, bad))
    p = tmp_path / "spoilt.pgn"
    p.write_text("".join(texts))
    reports = list(check_file(p, jobs=2))
    assert [(r.game, kinds(r)) for r in reports] == [
        (i + 1, [("illegal_move", k, "7.5.1")]) for i, (k, _) in enumerate(expected)
    ]
    assert [r.findings[0].move for r in reports] == [bad for _, bad in expected]
    assert [r.plies for r in reports] == [k - 1 for k, _ in expected]


def test_truncated_gzip_is_an_error(tmp_path: Path, clean_text: str) -> None:
    p = tmp_path / "cut.pgn.gz"
    data = gzip.compress(clean_text.encode())
    p.write_bytes(data[: len(data) // 2])
    res = CliRunner().invoke(main, ["check", str(p), "--json", "--jobs", "2"])
    assert res.exit_code == 2
    summary = json.loads(res.output.splitlines()[-1])["summary"]
    assert 0 < summary["games"] < 150
    assert summary["errors"] and "cut.pgn.gz" in summary["errors"][0]
    with pytest.raises(OSError):
        list(check_file(p, jobs=1))


# ---------------------------------------------------------------------------
# The shared corpus (real games): every game python-chess reads is read.

_CORPUS = next((p for p in (Path(__file__).resolve().parents[1].parent / "shared" / "corpus",) if p.is_dir()), None)


def _corpus_files() -> list[Path]:
    if _CORPUS is None:
        return []
    return sorted(_CORPUS.glob("*.pgn.zst")) + sorted((_CORPUS / "peer-tests").glob("*.pgn.zst"))


def _decompressed(path: Path, tmp: Path) -> Path:
    zstandard = pytest.importorskip("zstandard")
    out = tmp / path.name.removesuffix(".zst")
    out.write_bytes(zstandard.ZstdDecompressor().stream_reader(path.open("rb")).read())
    return out



@pytest.mark.skipif(_CORPUS is None, reason="the shared corpus (../shared/corpus, beside the checkout) is missing")
def test_every_game_python_chess_reads_is_read(tmp_path: Path) -> None:
    """Game by game (the text from the line a report starts on to the next
    one's), every game python-chess reads without an error (and without
    null moves, which the Laws do not know) is read by the checker to the
    same number of plies, with no illegal move and no broken FEN or variant.
    (Game by game because python-chess, reading a whole file, folds the tag
    section that follows a movetext line without a blank line into the
    game before, then plays the next game from the standard position.)"""
    import io as _io
    import logging

    import chess
    import chess.pgn

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    refused = {"illegal_move", "ambiguous_move"}
    compared = 0
    for src in _corpus_files():
        path = _decompressed(src, tmp_path)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        reports = list(check_file(path, jobs=1))
        starts = [r.line for r in reports] + [len(lines) + 1]
        for r, end in zip(reports, starts[1:]):
            text = "".join(lines[r.line - 1:end - 1])
            game = chess.pgn.read_game(_io.StringIO(text))
            if game is None:
                continue
            moves = list(game.mainline_moves())
            if game.errors or not moves or any(m == chess.Move.null() for m in moves):
                continue
            where = f"{src.name}, game {r.game} (line {r.line})"
            assert not [f for f in r.findings if f.kind in refused], where
            assert not [f for f in r.findings if f.kind == "pgn_error" and f.text.startswith(("the FEN", "variant"))], where
            # A token python-chess skips stops our check (an unreadable
            # move): then python-chess has read more plies than we have.
            assert r.plies == len(moves), f"{where}: {r.plies} plies, python-chess {len(moves)}"
            compared += 1
    assert compared > 3000


# ---------------------------------------------------------------------------
# Reading every notation and every ending as its writers wrote it.

READING = """[Event "fide_promotion"]
[FEN "4k3/P7/8/8/8/8/1p6/4K3 w - - 0 1"]

1. a8Q+ Kd7 2. Qb7+ Ke6 3. Qxb2 *

[Event "fide_capture_promotion"]
[FEN "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"]

1. axb8Q+ Ke7 *

[Event "long_algebraic"]

1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. Bb5xc6 d7xc6 5. O-O Bc8-g4 *

[Event "uci"]

1. e2e4 e7e5 2. g1f3 b8c6 3. f1c4 g8f6 4. e1g1 f8c5 *

[Event "long_promotion"]
[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"]

1. a7-a8Q+ Ke7 *

[Event "normal"]
[Variant "normal"]

1. e4 e5 *

[Event "from_position"]
[Variant "From Position"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 *

[Event "chess960"]
[FEN "bnrkqnrb/pppppppp/8/8/8/8/PPPPPPPP/BNRKQNRB w KQkq - 0 1"]
[SetUp "1"]
[Variant "Chess960"]

1. O-O-O O-O-O 2. b4 c5 3. Na3 b6 4. d3 f6 5. h3 e6 6. Nb1 a6 *

[Event "figurines_and_glyphs"]

1. e4 e5 2. ♘f3 += ♞c6 ± 3. ♗b5 N a6 +- 4. ♗xc6 dxc6 5. O-O ♗g4 ∞ *

[Event "illegal_long"]

1. e2-e5 e7-e5 *

[Event "result_tag"]
[Result "1-0"]

1. e4 e5 0-1

[Event "chesscom_on_time"]
[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]
[Result "0-1"]
[Termination "Magnus won on time"]

1. Ra2 Kg8 0-1

[Event "lichess_abandoned"]
[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]
[Result "0-1"]
[Termination "Abandoned"]

1. Ra2 Kg8 0-1

[Event "cutechess_comment"]
[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]
[Result "0-1"]

1. Ra2 Kg8 {White loses on time} 0-1

[Event "adjudicated"]
[FEN "7k/8/8/8/8/8/8/R3K3 w - - 0 1"]
[Result "0-1"]
[Termination "adjudication"]

1. Ra2 Kg8 0-1
"""


def test_reading_notations_and_endings(tmp_path: Path) -> None:
    p = tmp_path / "reading.pgn"
    p.write_text(READING, encoding="utf-8")
    r = run(p)
    for name in ("fide_promotion", "fide_capture_promotion", "long_algebraic", "uci", "long_promotion",
                 "normal", "from_position", "chess960", "figurines_and_glyphs"):
        # Read whole, and clean but for a game recorded unfinished (*).
        expected = [("no_result", r[name].plies, None)] if r[name].result == "*" else []
        assert kinds(r[name]) == expected, (name, r[name].findings)
    assert r["fide_promotion"].plies == 5
    assert r["long_algebraic"].plies == 10
    assert r["uci"].plies == 8
    assert r["chess960"].plies == 12
    assert r["figurines_and_glyphs"].plies == 10
    assert kinds(r["illegal_long"]) == [("illegal_move", 1, "7.5.1")]
    assert kinds(r["result_tag"]) == [("result_tag", 2, None)]
    # A flag fall against a lone rook's owner who cannot lose: Article 6.9.
    for name in ("chesscom_on_time", "lichess_abandoned", "cutechess_comment"):
        assert kinds(r[name]) == [("time_forfeit", 2, "6.9")], name
    # An adjudication is not judged as a resignation.
    assert r["adjudicated"].findings == ()


def test_tag_syntax_and_header_only_blocks(tmp_path: Path) -> None:
    p = tmp_path / "syntax.pgn"
    p.write_text('[Event "Tournament "Championship" Finals"]\n[White "Smith, John "The King""]\n\n1. e4 e5 *\n\n'
                 '[Event "round 1"]\n[White "A"]\n\n[Event "round 2"]\n[White "B"]\n\n'
                 '[Event "round 3"]\n\n1. d4 d5 1/2-1/2\n')
    reports = list(check_file(p, jobs=1))
    assert [(x.game, x.line, x.tags["Event"]) for x in reports] == [
        (1, 1, 'Tournament "Championship" Finals'), (2, 6, "round 1"), (3, 9, "round 2"), (4, 12, "round 3")]
    first = reports[0]
    assert first.plies == 2 and first.tags["White"] == 'Smith, John "The King"'
    assert [(f.kind, f.text[:7]) for f in first.findings] == [("pgn_error", "line 1:"), ("pgn_error", "line 2:"),
                                                             ("no_result", "the rec")]
    assert kinds(reports[1]) == [("no_movetext", 0, None)]
    assert kinds(reports[2]) == [("no_movetext", 0, None)]
    assert reports[3].findings == () and reports[3].tags == {"Event": "round 3"}


# ---------------------------------------------------------------------------
# --fix


def test_fix_round_trip(tmp_path: Path, planted_file: Path) -> None:
    src = tmp_path / "in.pgn"
    src.write_text(planted_file.read_text() + READING + '[Event "quote "x" y"]\n\n1. e4 *\n\n[Event "hdr"]\n\n',
                   encoding="utf-8")
    out = tmp_path / "fixed.pgn"
    res = CliRunner().invoke(main, ["check", str(src), "--fix", str(out)])
    assert res.exit_code == 1, res.output
    assert "results changed by the Laws of 2023" in res.output
    assert "left out" in res.output
    fixed = out.read_text(encoding="utf-8")
    assert only_no_result(out) > 0  # the games recorded `*` stay `*`
    r = run(out)
    # Illegal games are left out; everything else is there.
    assert "illegal" not in r and "illegal_long" not in r
    assert "quote \"x\" y" in r and "hdr" in r
    # The results the Laws give, in the tag and the movetext, with the article cited.
    assert r["mate_wrong_result"].result == "0-1" and r["mate_wrong_result"].tags["Result"] == "0-1"
    assert r["flag_lone_king"].result == "1/2-1/2"
    assert r["chesscom_on_time"].result == "1/2-1/2"
    assert r["resign_lone_king"].result == "1/2-1/2"
    assert r["dead_decisive"].result == "1/2-1/2"
    assert r["result_tag"].result == "0-1" and r["result_tag"].tags["Result"] == "0-1"
    # The record that went on after mate is cut there.
    assert r["mate_continues"].plies == 4 and r["mate_continues"].result == "0-1"
    assert "Article 5.1.1 (Laws of 2023)" in fixed and "Article 6.9 (Laws of 2023)" in fixed
    assert "The result is 1/2-1/2, not 0-1" in fixed
    # Games that were right are written unchanged in their moves.
    assert r["mate_ok"].result == "0-1" and r["mate_ok"].plies == 4
    # --unreadable keep keeps the illegal games as they were.
    kept = tmp_path / "kept.pgn"
    res = CliRunner().invoke(main, ["check", str(src), "--fix", str(kept), "--unreadable", "keep"])
    assert "kept as they were" in res.output
    r2 = run(kept)
    assert kinds(r2["illegal"]) == kinds(run(src)["illegal"])


def test_fix_by_edition(tmp_path: Path, planted_file: Path) -> None:
    out = tmp_path / "fixed1989.pgn"
    res = CliRunner().invoke(main, ["check", str(planted_file), "--edition", "1989", "--fix", str(out)])
    assert res.exit_code == 1
    assert CliRunner().invoke(main, ["check", str(out), "--edition", "1989"]).exit_code == 0
    assert "(Laws of 1989)" in out.read_text()


def test_fix_file_api_and_json_summary(tmp_path: Path, planted_file: Path) -> None:
    from chesslaws.check import fix_file

    summary, changes = fix_file(planted_file, tmp_path / "f.pgn", edition="1997")
    assert summary.games == len(PLANTED) and changes["left_out"] == 1
    assert changes["result:checkmate"] == 1 and changes["cut"] >= 1
    assert list(check_file(tmp_path / "f.pgn", edition="1997")) and \
        all(r.ok for r in check_file(tmp_path / "f.pgn", edition="1997"))
    res = CliRunner().invoke(main, ["check", str(planted_file), "--json", "--fix", str(tmp_path / "g.pgn")])
    last = json.loads(res.output.splitlines()[-1])
    assert last["summary"]["fix"]["changes"] == dict(sorted(fix_file(planted_file, tmp_path / "h.pgn")[1].items()))


def test_fix_refuses_to_overwrite_its_input(planted_file: Path) -> None:
    res = CliRunner().invoke(main, ["check", str(planted_file), "--fix", str(planted_file)])
    assert res.exit_code == 2 and "overwrite" in res.output


def test_native_json_matches_reports(planted_file: Path, clean_file: Path) -> None:
    res = CliRunner().invoke(main, ["check", str(planted_file), "--json", "--jobs", "2"])
    rows = [json.loads(x) for x in res.output.splitlines()]
    native = [GameReport.from_json(x) for x in rows[:-1]]
    ours = list(check_file(planted_file, jobs=1))
    assert [x.to_json() for x in native] == [x.to_json() for x in ours]
    # A report made in Python writes the line the checker wrote for it.
    assert "".join(x.json_line() for x in ours) == "".join(res.output.splitlines(keepends=True)[:-1])
    assert rows[-1]["summary"]["games"] == len(ours)


@pytest.mark.skipif(_CORPUS is None, reason="the shared corpus (../shared/corpus, beside the checkout) is missing")
def test_fix_round_trip_on_the_shared_corpus(tmp_path: Path) -> None:
    """Every real file (and the peer tools' test inputs) fixed under each
    edition checks clean under that edition."""
    files = [str(_decompressed(p, tmp_path)) for p in _corpus_files()]
    for edition in ("1989", "2023"):
        out = tmp_path / f"fixed-{edition}.pgn"
        res = CliRunner().invoke(main, ["check", *files, "--edition", edition, "--fix", str(out), "--jobs", "2"])
        assert res.exit_code in (0, 1), res.output
        only_no_result(out, edition)
        assert sum(1 for _ in check_file(out, edition=edition, jobs=1)) > 3000

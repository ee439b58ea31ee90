"""The command line as a newcomer meets it: counts in words, optional arguments shown as such,
hints that say what to add, rulings that say each fact once, and no Elo bound made up."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.match import MatchReport, Tally, elo_text, final_table, progress_line
from chesslaws.mating import is_dead
from chesslaws.position import Position


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_tournament_add_counts_one_player_in_the_singular(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    assert run("tournament", "create", "Open", "--rounds", "3", "--db", db)[0] == 0
    code, out = run("tournament", "add", "Open", "Ann", "--db", db)
    assert code == 0 and out.strip() == "1 player"
    code, out = run("tournament", "add", "Open", "Bob", "Cleo", "--db", db)
    assert code == 0 and out.strip() == "3 players"
    code, out = run("tournament", "show", "Open", "--db", db)
    assert code == 0 and "3 players" in out
    assert "edition default" not in out and "default time: as the 2023 Laws set it" in out, out


def test_tournament_show_marks_round_optional() -> None:
    code, out = run("tournament", "show", "--help")
    assert code == 0 and "TOURNAMENT [ROUND]" in out, out


def test_perft_of_a_chess960_number_without_the_flag_says_to_add_it() -> None:
    code, out = run("perft", "960:518", "4")
    assert code == 2 and "add --chess960" in out and "invalid FEN" not in out, out
    code, out = run("perft", "--chess960", "960:518", "1")
    assert code == 0 and "20" in out


def test_a_dead_position_ruling_says_each_fact_once() -> None:
    for fen in ("8/8/8/4k3/8/8/8/3NK3 w - - 0 1", "8/8/8/4kn2/8/8/8/4K3 w - - 0 1"):
        reason = is_dead(Position(fen)).reason
        assert reason.count("has a lone king") == 1, reason
        assert "only a king and a knight" in reason
    assert is_dead(Position("8/8/8/4k3/8/8/8/4K3 w - - 0 1")).reason == "Both players have a lone king."


def test_the_elo_of_a_hundred_percent_score_is_not_made_up() -> None:
    sweep = Tally(wins=6)
    text = elo_text(sweep)
    assert "cannot be computed" in text and "2400" not in text and "± 0.0" not in text
    assert "2400" not in progress_line(sweep, 10, ["A", "B"], None)
    table = final_table(MatchReport(sweep, [], None, False, 1.0), ["A", "B"], None)
    assert "2400" not in table and "cannot be computed" in table and "n/a" in table
    assert "cannot be computed" in elo_text(Tally(losses=3))
    assert "bound cannot be computed" in elo_text(Tally(draws=4))
    mixed = elo_text(Tally(wins=5, draws=3, losses=2))
    assert mixed.startswith("Elo +") and "±" in mixed


# `convert` reads a record exactly as `check` does: the notations check reads (FIDE long algebraic, UCI with
# an upper-case promotion, figurines, FIDE promotion without '=', annotation glyphs) and tag values with
# quotes that are not escaped are moves and tags to both, never a game one accepts and the other skips.
ODD_RECORDS = """[Event "Tournament "Championship" Finals"]
[Site "Club "Victory""]
[White "Smith, John "The King""]
[Black "Jones"]
[Result "1-0"]

1. e2-e4 e7-e5 2. Ng1-f3 b8c6 3. \u2657c4 \u265ef6 += 4. d2d4 exd4 5. O-O Nxe4 6. Re1 d5 7. Bxd5 Qxd5
8. Nc3 Qa5 9. Nxe4 Be6 10. Neg5 O-O-O 11. Nxe6 fxe6 12. Rxe6 Bd6 13. Bg5 Rde8 14. Qe2 h6 15. Bxf6 gxf6
16. Rxf6 Rxe2 1-0

[FEN "7k/3P4/7K/8/8/8/8/8 w - - 6 55"]
[SetUp "1"]
[Result "1-0"]

d7d8R 1-0

[FEN "7k/3P4/7K/8/8/8/8/8 w - - 6 55"]
[SetUp "1"]
[Result "1-0"]

55. d8Q+ 1-0

[Event "en passant written out"]

1. e4 a6 2. e5 d5 3. exd6 e.p. c6 *
"""


def test_convert_reads_every_record_check_reads(tmp_path: Path) -> None:
    import json

    pgn = tmp_path / "odd.pgn"
    pgn.write_text(ODD_RECORDS, encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(pgn), "--json", "--jobs", "1"])
    games = [json.loads(line) for line in r.output.splitlines()][:-1]
    assert [g["plies"] for g in games] == [32, 1, 1, 6], r.output
    assert not any(f["kind"] in ("unreadable_move", "illegal_move") for g in games for f in g["findings"]), r.output
    assert games[0]["tags"]["Event"] == 'Tournament "Championship" Finals'
    out = tmp_path / "logs"
    r = CliRunner().invoke(main, ["convert", str(pgn), "--out", str(out)])
    assert "4 game logs written" in r.output and "skipped" not in r.output, r.output
    for number, g in enumerate(games, 1):
        events = [json.loads(line) for line in (out / f"odd-{number}.jsonl").read_text().splitlines()]
        assert sum(e["type"] == "move" for e in events) == g["plies"]
    start = json.loads((out / "odd-1.jsonl").read_text().splitlines()[0])
    assert start["event"] == 'Tournament "Championship" Finals' and start["white"] == 'Smith, John "The King"'


def test_check_reports_a_game_without_result(tmp_path: Path) -> None:
    pgn = tmp_path / "unfinished.pgn"
    pgn.write_text('[Event "a"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
                   '[Event "b"]\n\n1. d4 d5\n\n'
                   '[Event "c"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
                   '[Event "d"]\n[Result "*"]\n\n1. f3 e5 2. g4 Qh4# *\n', encoding="utf-8")
    code, out = run("check", str(pgn), "--jobs", "1")
    assert code == 1, out
    assert "game 1 (line 1)" in out and "game 2 (line 6)" in out and "game 3 " not in out, out
    assert "no_result [PGN] the record gives no result (*)" in out
    assert "no_result [PGN] the record has no result" in out
    assert "the game was over after 2... Qh4# by checkmate: 0-1" in out
    assert "no_result" in out.split("Laws of 2023")[1]  # counted in the summary
    # --fix writes the result the Laws gave on the board; an unfinished game stays unfinished.
    fixed = tmp_path / "fixed.pgn"
    code, out = run("check", str(pgn), "--fix", str(fixed), "--jobs", "1")
    assert "1 result changed by the Laws of 2023" in out and "Article 5.1.1 (checkmate): 1" in out, out
    text = fixed.read_text()
    assert '[Event "d"]\n[Result "0-1"]' in text and "The result is 0-1, not *." in text, text
    code, out = run("check", str(fixed), "--jobs", "1")
    assert "game 4 " not in out and "game 1 " in out and "game 2 " in out, out


def test_utf16_or_binary_input_is_named_not_read_as_garbage(tmp_path: Path) -> None:
    import gzip

    text = '[Event "x"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    files = {
        "bom.pgn": ("\ufeff" + text).encode("utf-16-le"),  # Windows Notepad's "Unicode"
        "le.pgn": text.encode("utf-16-le"),  # no byte-order mark
        "bom.pgn.gz": gzip.compress(text.encode("utf-16")),
        "prog.pgn": b"\x7fELF\x02\x01\x01\x00" + bytes(56) + bytes(range(256)) * 8,  # an executable's start
        "games.zip": b"PK\x03\x04" + bytes(200),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    for command in ("check", "convert", "replay"):
        for name, what in (("bom.pgn", "is UTF-16 text"), ("le.pgn", "is UTF-16LE text"),
                           ("bom.pgn.gz", "is UTF-16 text"), ("prog.pgn", "is a binary file"),
                           ("games.zip", "is a ZIP archive")):
            if command == "replay" and name.endswith(".gz"):
                continue
            args = [command, str(tmp_path / name)] + (["--out", str(tmp_path / "logs")] if command == "convert" else [])
            r = CliRunner().invoke(main, args)
            assert r.exit_code == 2, (command, name, r.output)
            assert f"{tmp_path / name} {what}" in r.output, (command, name, r.output)
            assert "Traceback" not in r.output and "unreadable_move" not in r.output and "not a move" not in r.output
    r = CliRunner().invoke(main, ["check", str(tmp_path / "le.pgn")])
    assert "save it as UTF-8 (iconv -f UTF-16LE -t UTF-8" in r.output
    assert not (tmp_path / "logs").exists()  # convert stopped before writing anything
    # Standard input, which only the native reader sees (a process of its own: it reads file descriptor 0).
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "chesslaws.cli", "check", "-"], input=files["le.pgn"],
                       capture_output=True, timeout=60)
    assert p.returncode == 2 and b"standard input is UTF-16LE text" in p.stderr, p
    # A stray control character does not make a PGN file binary: it is read, as the text it is in.
    (tmp_path / "stray.pgn").write_bytes(text.replace("2. g4", "2. g4 \x00").encode())
    code, out = run("check", str(tmp_path / "stray.pgn"))
    assert code == 1 and "unreadable_move" in out and "binary" not in out, out


def test_replay_of_a_pgn_file_says_to_convert_it(tmp_path: Path) -> None:
    import gzip

    text = '[Event "x"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    (tmp_path / "games.pgn").write_text(text)
    (tmp_path / "games.pgn.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "export.txt").write_text(text)
    for name in ("games.pgn", "games.pgn.gz", "export.txt"):
        code, out = run("replay", str(tmp_path / name))
        assert code == 2 and "is a PGN file, not a game log" in out, out
        assert f"chesslaws convert {tmp_path / name} --out logs/" in out and "not valid JSON" not in out, out
    code, out = run("replay", str(tmp_path / "games.pgn"))
    assert "chesslaws replay logs/games-1.jsonl" in out
    # convert's own log of it replays, as the hint says.
    assert run("convert", str(tmp_path / "games.pgn"), "--out", str(tmp_path / "logs"))[0] == 0
    code, out = run("replay", str(tmp_path / "logs" / "games-1.jsonl"))
    assert code == 0 and "checkmate" in out.lower(), out
    (tmp_path / "broken.jsonl").write_text('{"type": "start"\n')
    code, out = run("replay", str(tmp_path / "broken.jsonl"))
    assert code == 2 and "line 1: not valid JSON" in out and "PGN" not in out


def test_perft_with_a_depth_alone_counts_from_the_starting_position() -> None:
    assert run("perft", "3") == (0, "8902\n")
    assert run("perft", "startpos", "3") == (0, "8902\n")
    code, out = run("perft", "2", "--divide")
    assert code == 0 and out.splitlines()[-1] == "400" and "e2e4: 20" in out
    code, out = run("perft", "--help")
    assert "[FEN] DEPTH" in out and "chesslaws perft 5" in out
    code, out = run("perft")
    assert code == 2 and "missing DEPTH" in out
    code, out = run("perft", "8/8/8/4k3/8/8/8/4K3 w - - 0 1")
    assert code == 2 and "missing DEPTH after the position" in out
    code, out = run("perft", "21")
    assert code == 2 and "Invalid value for DEPTH" in out and "0 to 20" in out


def test_tournament_commands_do_not_create_a_database_that_does_not_exist(tmp_path: Path) -> None:
    db = tmp_path / "typo.sqlite3"
    for args in (["list"], ["standings", "Open"], ["export", "Open"], ["export", "Open", "--pgn"], ["show", "Open"],
                 ["add", "Open", "Ann"], ["pair", "Open"], ["result", "Open", "1", "1", "1-0"]):
        code, out = run("tournament", *args, "--db", str(db))
        assert code == 2 and f"the database {db} does not exist" in out, (args, out)
        assert not list(tmp_path.iterdir()), (args, list(tmp_path.iterdir()))
    assert run("tournament", "create", "Open", "--rounds", "3", "--db", str(db))[0] == 0
    code, out = run("tournament", "list", "--db", str(db))
    assert code == 0 and "Open" in out


def test_trf_import_errors_name_the_line_and_the_field(tmp_path: Path) -> None:
    source = (Path(__file__).parent / "data" / "trf_gros2010_xxa_r5absences.trf").read_text(encoding="utf-8")
    lines = source.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("001    1 "))
    number = first + 1  # the file's line number of start number 1

    def broken(line: str) -> str:
        return "\n".join(lines[:first] + [line] + lines[first + 1:])

    def cell(line: str, column: int, text: str) -> str:  # columns from 1, as TRF-16 numbers them
        return line[:column - 1] + text + line[column - 1 + len(text):]

    row = lines[first]
    cases = [
        (cell(row, 99, "x"), f"line {number}: round 1 result (column 99): 'x' is not one of"),
        (cell(row, 97, "q"), f"line {number}: round 1 colour (column 97): 'q' is not w, b or -"),
        (cell(row, 99, "="), f"line {number}: round 1 result (column 99): player 1 (White) scored '=' but the "
                             "opponent '0'"),
        (cell(row, 102, "  12"), f"line {number}: round 2 opponent (columns 102-105): player 1 meets 12, but 12 "
                                 "(line "),
        (cell(row, 102, "  99"), f"line {number}: round 2 opponent (columns 102-105): player 1 meets 99, who has no "
                                 "player line (001)"),
        (cell(row, 5, "   2"), f"line {number + 1}: 001: start number (columns 5-8) 2 is repeated (also on line "
                               f"{number})"),
        (cell(row, 5, " 999"), f"line {number}: 001: start number (columns 5-8) 999: the start numbers must run"),
    ]
    for i, (line, message) in enumerate(cases):
        trf = tmp_path / f"broken{i}.trf"
        trf.write_text(broken(line), encoding="utf-8")
        code, out = run("tournament", "import", str(trf), "--db", str(tmp_path / "t.sqlite3"))
        assert code != 0 and message in out, (message, out)
        assert "line 0" not in out


def test_options_that_would_be_ignored_are_usage_errors(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    code, out = run("check", str(pgn), "--unreadable", "keep")
    assert code == 2 and "add --fix OUT.pgn" in out, out
    assert run("check", str(pgn), "--unreadable", "keep", "--fix", str(tmp_path / "f.pgn"))[0] == 0
    assert run("convert", str(pgn), "--out", str(tmp_path / "logs"))[0] == 0
    log = str(tmp_path / "logs" / "g-1.jsonl")
    code, out = run("replay", log, "--json", "--pgn")
    assert code == 2 and "give one of them" in out, out
    code, out = run("serve", "--engine-pool", "4", "--port", "1")
    assert code == 2 and "give --engine NAME=COMMAND" in out, out
    db = str(tmp_path / "t.sqlite3")
    assert run("tournament", "create", "Open", "--rounds", "3", "--db", db)[0] == 0
    assert run("tournament", "add", "Open", "Ann", "Bob", "Cleo", "Dan", "--db", db)[0] == 0
    code, out = run("tournament", "pair", "Open", "--engine", "caissify", "--bbp", "/bin/true", "--db", db)
    assert code == 2 and "--engine caissify does not use" in out, out
    assert run("tournament", "pair", "Open", "--engine", "caissify", "--db", db)[0] == 0
    code, out = run("tournament", "result", "Open", "1", "1", "1-0", "--game", log, "--db", db)
    assert code == 2 and "not both" in out, out
    code, out = run("tournament", "result", "Open", "1", "1", "1-0", "--at", "60", "--db", db)
    assert code == 2 and "give --game" in out, out
    code, out = run("tournament", "export", "Open", "--round", "1", "--db", db)
    assert code == 2 and "add --pgn" in out, out
    code, out = run("tournament", "standings", "Open", "--json", "--crosstable", "--db", db)
    assert code == 2 and "give one of them" in out, out
    code, out = run("tournament", "add", "Open", "--db", db)
    assert code == 2 and "--from-trf" in out, out


def test_tournament_add_from_trf_registers_the_files_players(tmp_path: Path) -> None:
    trf = Path(__file__).parent / "data" / "trf_gros2010_xxa_r5absences.trf"
    db = str(tmp_path / "t.sqlite3")
    assert run("tournament", "create", "Gros", "--rounds", "9", "--db", db)[0] == 0
    code, out = run("tournament", "add", "Gros", "--from-trf", str(trf), "--db", db)
    players = sum(1 for line in trf.read_text(encoding="utf-8").splitlines() if line.startswith("001"))
    assert code == 0 and out.strip() == f"{players} players", out
    code, out = run("tournament", "standings", "Gros", "--json", "--db", db)
    assert "Mirzoev Azer" in out
    code, out = run("tournament", "add", "Gros", "Ann", "--from-trf", str(trf), "--db", db)
    assert code == 2 and "give no NAMES" in out
    code, out = run("tournament", "add", "Gros", "--from-trf", str(trf), "--rating", "2000", "--db", db)
    assert code == 2 and "no --rating" in out


def test_swiss_options_given_to_a_round_robin_are_usage_errors(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    code, out = run("tournament", "create", "RR", "--system", "round-robin", "--rounds", "5", "--db", db)
    assert code == 2 and "--rounds is for a Swiss" in out, out
    code, out = run("tournament", "create", "RR", "--system", "round-robin", "--initial-colour", "black", "--db", db)
    assert code == 2 and "--initial-colour is for a Swiss" in out, out
    assert run("tournament", "list", "--db", db)[0] == 2  # nothing was created
    assert run("tournament", "create", "RR", "--system", "round-robin", "--db", db)[0] == 0
    assert run("tournament", "add", "RR", "A", "B", "C", "D", "--db", db)[0] == 0
    trf = tmp_path / "rr.trf"
    assert run("tournament", "export", "RR", "-o", str(trf), "--db", db)[0] == 0
    code, out = run("tournament", "import", str(trf), "--rounds", "5", "--name", "RR2", "--db", db)
    assert code == 2 and "--rounds is for a Swiss" in out, out
    assert run("tournament", "import", str(trf), "--name", "RR2", "--db", db)[0] == 0


def test_help_texts_say_what_the_options_do() -> None:
    def run(*args: str) -> tuple[int, str]:  # the help as words, whatever the terminal's width
        code, out = globals()["run"](*args)
        return code, " ".join(out.split())

    code, out = run("check", "--help")
    assert "--only-problems" in out and "With --json: only the games with findings" in out
    assert "check games.pgn.zst --only-problems" not in out  # the text report lists only those anyway
    code, out = run("replay", "--help")
    assert "a PGN file is not a log: convert it first" in out
    code, out = run("convert", "--help")
    assert "Examples:" in out and "2 for a file that is not" in out


def test_replay_of_standard_input_is_checked_as_a_file_is_and_leaves_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    pgn = '[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    r = CliRunner().invoke(main, ["replay", "-"], input=pgn.encode("utf-16"))
    assert r.exit_code == 2 and "standard input is UTF-16 text" in r.output and "iconv" not in r.output, r.output
    r = CliRunner().invoke(main, ["replay", "-"], input=pgn)
    assert r.exit_code == 2 and "standard input is PGN, not a game log" in r.output, r.output
    (tmp_path / "g.pgn").write_text(pgn)
    assert run("convert", str(tmp_path / "g.pgn"), "--out", str(tmp_path))[0] == 0
    r = CliRunner().invoke(main, ["replay", "-"], input=(tmp_path / "g-1.jsonl").read_bytes())
    assert r.exit_code == 0 and "checkmate" in r.output, r.output
    assert list(temp.iterdir()) == []  # the copy of standard input is removed


def test_results_written_with_an_en_or_em_dash_are_results_to_check_as_to_convert(tmp_path: Path) -> None:
    import json

    pgn = tmp_path / "dashes.pgn"
    pgn.write_text('[Event "a"]\n\n1. f3 e5 2. g4 Qh4# 0\u20131\n\n'
                   '[Event "b"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0\u20130 Nf6 1/2\u20141/2\n', encoding="utf-8")
    code, out = run("check", str(pgn), "--json", "--jobs", "1")
    games = [json.loads(line) for line in out.splitlines()][:-1]
    assert code == 0 and [(g["result"], g["plies"], g["findings"]) for g in games] == [
        ("0-1", 4, []), ("1/2-1/2", 8, [])], out
    code, out = run("convert", str(pgn), "--out", str(tmp_path / "logs"))
    assert code == 0 and "2 game logs written" in out, out


def test_tournament_show_of_a_round_not_paired_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    assert run("tournament", "create", "Open", "--rounds", "3", "--db", db)[0] == 0
    assert run("tournament", "add", "Open", "A", "B", "C", "D", "--db", db)[0] == 0
    code, out = run("tournament", "show", "Open", "1", "--db", db)
    assert code == 1 and "round 1 is not paired (no round is paired, of 3)" in out, out
    assert run("tournament", "pair", "Open", "--engine", "caissify", "--db", db)[0] == 0
    code, out = run("tournament", "show", "Open", "7", "--db", db)
    assert code == 1 and "round 7 is not paired (rounds 1..1 are paired, of 3)" in out, out
    code, out = run("tournament", "show", "Open", "1", "--db", db)
    assert code == 0 and "Round 1" in out
    code, out = run("tournament", "standings", str(tmp_path / "missing.trf"))
    assert code == 2 and "cannot read" in out and "No such file or directory" in out and "Errno" not in out, out


def test_a_tag_value_ending_with_a_backslash_reads_the_same_to_check_and_convert(tmp_path: Path) -> None:
    import json

    pgn = tmp_path / "backslash.pgn"
    pgn.write_text('[Event "Tournament \\"]\n[Site "Madrid"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    code, out = run("check", str(pgn), "--json", "--jobs", "1")
    game = json.loads(out.splitlines()[0])
    assert game["tags"]["Event"] == "Tournament \\" and game["plies"] == 4, out  # as python-chess reads it
    assert [f["kind"] for f in game["findings"]] == ["pgn_error"] and "ends with a backslash" in out
    code, out = run("convert", str(pgn), "--out", str(tmp_path))
    start = json.loads((tmp_path / "backslash-1.jsonl").read_text().splitlines()[0])
    assert code == 0 and start["event"] == "Tournament \\" and start["site"] == "Madrid", start
    fixed = tmp_path / "fixed.pgn"
    run("check", str(pgn), "--fix", str(fixed))
    code, out = run("check", str(fixed))
    assert code == 0 and '[Event "Tournament \\\\"]' in fixed.read_text(), fixed.read_text()


def test_a_file_with_no_game_is_said_to_have_none(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_text("\n")
    code, out = run("check", str(empty))
    assert code == 0 and f"no game in {empty}" in out, out
    code, out = run("convert", str(empty), "--out", str(tmp_path / "logs"))
    assert code == 0 and f"no game in {empty}" in out and "0 game logs written" in out, out
    game = tmp_path / "one.pgn"
    game.write_text('[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    assert "no game" not in run("check", str(game))[1]

"""Real files read as their authors meant them, one judgement in ``chesslaws check`` and ``chesslaws convert``,
under every edition: a blank line inside the movetext, a dead position one move before a forced stalemate, a
stated reason for the ending that the moves do not support, an abandoned game with the winner to move, a
correspondence game lasting months, a Chess960 game under Laws that have no Chess960, and a game log handed to
convert."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.check import check_file
from chesslaws.cli import main
from chesslaws.game import Game
from chesslaws.pgn import read_pgn
from chesslaws.records import game_to_pgn, pgn_to_log

from judgement import check_judgements, convert_judgements

DATA = Path(__file__).parent / "data"
EDITIONS = ("1989", "1997", "2023")


def _json_lines(path: Path, edition: str) -> list[dict[str, object]]:
    res = CliRunner().invoke(main, ["check", str(path), "--json", "--edition", edition])
    return [json.loads(line) for line in res.output.splitlines()][:-1]


# ---------------------------------------------------------------------------
# A blank line inside the movetext


BLANK_LINES = {
    # tags, moves, a blank line, more moves: one game
    "between moves": '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6\n\n3. Bb5 a6 1-0\n',
    "a line of spaces": '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6\n   \n3. Bb5 a6 1-0\n',
    "before the result": '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n\n1-0\n',
    "after an opening comment": '[Event "a"]\n[Result "1-0"]\n\n{A comment}\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n',
    "in a variation, CR LF": '[Event "a"]\r\n[Result "1-0"]\r\n\r\n1. e4 e5 (1... c5 2. Nf3\r\n\r\n2... d6) '
                             '2. Nf3 Nc6 3. Bb5 a6 1-0\r\n',
}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", sorted(BLANK_LINES))
def test_a_blank_line_inside_the_movetext_leaves_one_game(name: str, edition: str, tmp_path: Path) -> None:
    """A blank line ends a game only after its result, or when a tag pair or the end of the file follows:
    check and convert read one game of 6 plies, with its tags."""
    p = tmp_path / "blank.pgn"
    p.write_bytes(BLANK_LINES[name].encode())
    reports = list(check_file(p, edition=edition, jobs=1))
    assert [(r.plies, r.result, r.findings) for r in reports] == [(6, "1-0", ())]
    games = list(read_pgn(p))
    assert [(len(g.moves), g.result, g.tags.get("Event")) for g in games] == [(6, "1-0", "a")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_games_without_tags_still_end_at_their_result(edition: str, tmp_path: Path) -> None:
    p = tmp_path / "tagless.pgn"
    p.write_text("1. d4 d5 *\n\n\n1. c4 e5 *\n\n[Event \"b\"]\n\n1. e4 *\n", encoding="utf-8")
    assert [r.plies for r in check_file(p, edition=edition, jobs=1)] == [2, 2, 1]
    assert [len(g.moves) for g in read_pgn(p)] == [2, 2, 1]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_barnes_horton_game_is_one_game(edition: str, tmp_path: Path) -> None:
    """Barnes v Horton, Margate 1994 (pgn-extract's test file): a comment between blank lines before the
    moves. pgn-extract reads one game; so do check (which read the tags as a game of no moves, then the moves
    as a game with no tags and a void draw) and convert."""
    p = DATA / "blank_line_barnes_horton.pgn"
    (r,) = _json_lines(p, edition)
    assert (r["plies"], r["result"], r["findings"]) == (72, "1/2-1/2", [])
    assert r["tags"]["White"] == "Barnes, David J."  # type: ignore[index]
    (g,) = read_pgn(p)
    assert (len(g.moves), g.tags["Black"]) == (72, "Horton, Mark")
    res = CliRunner().invoke(main, ["convert", str(p), "--out", str(tmp_path), "--edition", edition])
    assert res.exit_code == 0 and "1 game log written" in res.output, res.output
    fixed = tmp_path / "fixed.pgn"
    CliRunner().invoke(main, ["check", str(p), "--fix", str(fixed), "--edition", edition])
    assert [r.plies for r in check_file(fixed, edition=edition, jobs=1)] == [72]


# ---------------------------------------------------------------------------
# A dead position one move before a forced stalemate


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_dead_position_before_a_forced_stalemate(edition: str) -> None:
    """Fichtl-Blatny, Bratislava 1956: 1... Bc6+ 2. Qxc6 Rg1+ 3. Kxg1 1/2-1/2. After 2... Rg1+ White's only
    legal move stalemates Black, so no series of legal moves can lead to checkmate: the position is dead
    (1997 9.6, 2023 5.2.2) and 3. Kxg1 was played after the end, for both tools, in the words of the one
    analysis. The 1989 Laws have no dead position (only 10.4's list): the stalemate ends the game."""
    p = DATA / "records_as_meant.pgn"
    checked = dict(check_judgements(str(p), edition))
    assert checked == dict(convert_judgements(str(p), edition))
    (report,) = check_file(p, edition=edition, jobs=1)
    (g,) = read_pgn(p)
    conv = pgn_to_log(g, edition=edition)
    why = "White's only legal move, 3. Kxg1, stalemates Black"
    if edition == "1989":
        assert checked == {1: None} and report.findings == () and conv.problems == []
        return
    assert checked == {1: ("dead_position", {"1997": "9.6", "2023": "5.2.2"}[edition])}
    (f,) = report.findings
    assert (f.ply, f.move) == (3, "Rg1+")
    assert f"After 2... Rg1+ the position is dead: {why}: the game was over" in f.text
    (problem,) = conv.problems
    assert f"no series of legal moves can lead to checkmate ({why}.)" in problem
    assert "locked head to head" not in problem and "locked head to head" not in f.text


# ---------------------------------------------------------------------------
# A stated reason the moves do not support


_STATED = """[Event "{n}"]
[Site "{site}"]
[White "a"]
[Black "b"]
[Result "{result}"]
{extra}[SetUp "1"]
[FEN "{fen}"]

{moves} {result}

"""

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_false_stated_reason_is_the_same_note_in_both_tools(edition: str, tmp_path: Path) -> None:
    """1. chess.com "Game drawn by insufficient material" with K+Q+2P against a lone king, drawn (an
    agreement, for the Laws). 2. TCEC "3-Fold repetition" where no position stood three times, nor would after
    any move. 3. The same where the position did stand three times: the reason holds, no note. 4. A win by
    resignation the record calls "stalemate". The results stand (no finding, nothing inconsistent); each false
    reason is a note, the same words in check and convert."""
    games = [
        ("1/2-1/2", "Chess.com", '[Termination "Game drawn by insufficient material"]\n',
         "4k3/8/8/8/8/8/PP6/Q3K3 w - - 0 1", "1. Kf2 Kd7"),
        ("1/2-1/2", "TCEC", '[Termination "adjudication"]\n[TerminationDetails "3-Fold repetition"]\n', START,
         "1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8"),
        ("1/2-1/2", "TCEC", '[Termination "adjudication"]\n[TerminationDetails "3-Fold repetition"]\n', START,
         "1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Ng1 Nb8"),
        ("1-0", "Chess.com", '[Termination "Game drawn by stalemate"]\n', "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
         "1. Ra7 Kd8"),
    ]
    p = tmp_path / "stated.pgn"
    p.write_text("".join(_STATED.format(n=i + 1, site=s, result=r, extra=x, fen=f, moves=m)
                         for i, (r, s, x, f, m) in enumerate(games)), encoding="utf-8")
    checked = dict(check_judgements(str(p), edition))
    assert checked == dict(convert_judgements(str(p), edition)) == {1: None, 2: None, 3: None, 4: None}
    reports = list(check_file(p, edition=edition, jobs=1))
    assert [r.findings for r in reports] == [()] * 4
    expected = [
        ["Termination 'Game drawn by insufficient material' says dead position, but the final position is not "
         "one that ends the game"],
        ["Termination '3-Fold repetition' says repetition, but no claim by either player would be correct here"],
        [],
        ["Termination 'Game drawn by stalemate' says stalemate, but the final position is not one that ends the "
         "game"],
    ]
    assert [list(r.notes) for r in reports] == expected
    for g, notes in zip(read_pgn(p), expected):
        conv = pgn_to_log(g, edition=edition)
        assert conv.problems == []
        for note in notes:
            assert any(n.startswith(note) for n in conv.notes), (note, conv.notes)
    lines = _json_lines(p, edition)
    assert [line.get("notes", []) for line in lines] == expected
    res = CliRunner().invoke(main, ["check", str(p), "--edition", edition])
    assert res.exit_code == 0, res.output
    assert f"  note: {expected[1][0]}" in res.output
    conv_res = CliRunner().invoke(main, ["convert", str(p), "--out", str(tmp_path / "logs"), "--edition", edition])
    assert conv_res.exit_code == 0 and "inconsistent" not in conv_res.output, conv_res.output


# ---------------------------------------------------------------------------
# An abandoned game with the winner to move


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_abandoned_game_with_the_winner_to_move_is_a_resignation(edition: str, tmp_path: Path) -> None:
    """chess.com "X won - game abandoned" where the winner is to move and the loser's clock after his last
    move shows time left: he left the game, his clock not running. Both tools take it as his resignation;
    convert says so, and no longer also says that his flag cannot have fallen. With the loser to move, the
    flag rule judges it (a bare king cannot win on time: drawn)."""
    bare = "4k3/8/8/8/8/8/q7/4K3 b - - 0 1"
    p = tmp_path / "abandoned.pgn"
    p.write_text(
        _STATED.format(n=1, site="Chess.com", result="1-0", extra='[Termination "a won - game abandoned"]\n'
                       '[TimeControl "5400"]\n', fen=START, moves="1. e4 {[%clk 1:29:58]} e5 {[%clk 1:29:57]}")
        + _STATED.format(n=2, site="Chess.com", result="1-0", extra='[Termination "a won - game abandoned"]\n'
                         '[TimeControl "5400"]\n', fen=bare, moves="1... Qb1+ {[%clk 1:29:57]}")
        + _STATED.format(n=3, site="Chess.com", result="0-1", extra='[Termination "b won - game abandoned"]\n'
                         '[TimeControl "5400"]\n', fen=bare, moves="1... Qb1+ {[%clk 1:29:57]}"),
        encoding="utf-8")
    checked = dict(check_judgements(str(p), edition))
    assert checked == dict(convert_judgements(str(p), edition))
    games = list(read_pgn(p))
    conv = pgn_to_log(games[0], edition=edition)
    assert conv.problems == [], conv.problems
    assert conv.events[-1] == {"type": "resign", "t": conv.events[-1]["t"], "by": "black"}
    assert any("with White to move: Black, his clock not running, left the game: written as his resignation" in n
               for n in conv.notes), conv.notes
    # 2. As 1, White having a bare king: a resignation to a bare king (1989 10.5: it cannot win; 2023 5.1.2
    # as this project reads it: White cannot mate; 1997: it stands). 3. Black wins, White (to move) left on
    # his own turn: his flag fell, and Black, with a queen, can mate.
    resigned = {"1989": ("resignation", "10.5"), "1997": None, "2023": ("resignation", "5.1.2")}[edition]
    assert checked == {1: None, 2: resigned, 3: None}
    flagged = pgn_to_log(games[2], edition=edition)
    assert flagged.problems == [] and flagged.events[-1]["type"] == "claim_flag"


# ---------------------------------------------------------------------------
# Correspondence games


def _daily(tmp_path: Path) -> Path:
    """A game of 159 plies (from TWIC 920) as chess.com writes a daily game: TimeControl "1/86400", each
    move made 23 hours after the last: 152 days in all."""
    src = DATA / "convert_twic.pgn"
    longest = max(read_pgn(src), key=lambda g: len(g.moves))
    sans = [m.san for m in longest.moves]
    text = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + f"{san} {{[%clk 1:00:00]}}"
                    for i, san in enumerate(sans))
    p = tmp_path / "daily.pgn"
    p.write_text(f'[Event "Let\'s Play!"]\n[Site "Chess.com"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n'
                 f'[TimeControl "1/86400"]\n\n{text} *\n\n', encoding="utf-8")
    return p


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_correspondence_game_lasting_months_converts(edition: str, tmp_path: Path) -> None:
    p = _daily(tmp_path)
    (g,) = read_pgn(p)
    conv = pgn_to_log(g, edition=edition)
    assert conv.problems == [], conv.problems
    start = conv.events[0]
    assert (start["time_control"], start["days_per_move"]) == ("-", 1)
    assert any("correspondence: 1 day a move" in n for n in conv.notes), conv.notes
    game = Game.from_events(conv.events)
    assert len(game.state.moves) == len(g.moves)
    assert float(conv.events[-1]["t"]) > 100 * 86_400  # over 100 days
    assert '[TimeControl "1/86400"]' in game_to_pgn(game)
    res = CliRunner().invoke(main, ["convert", str(p), "--out", str(tmp_path / "logs"), "--edition", edition])
    assert res.exit_code == 0, res.output
    replayed = CliRunner().invoke(main, ["replay", str(tmp_path / "logs" / "daily-1.jsonl")])
    assert replayed.exit_code == 0, replayed.output


# ---------------------------------------------------------------------------
# Chess960 under Laws that have none


@pytest.mark.parametrize("edition", EDITIONS)
def test_chess960_is_judged_alike(edition: str, tmp_path: Path) -> None:
    """Real chess.com Chess960 games: under 2023 both tools read them; under 1997 and 1989 (no Chess960 in
    those Laws) convert refuses each and check reports each, in the same words."""
    p = DATA / "chess960_chesscom.pgn"
    reports = list(check_file(p, edition=edition, jobs=1))
    res = CliRunner().invoke(main, ["convert", str(p), "--out", str(tmp_path), "--edition", edition])
    if edition == "2023":
        assert all(not any(f.text.startswith("variant ") for f in r.findings) for r in reports)
        assert res.exit_code in (0, 1) and "is Chess960" not in res.output
        return
    why = f'variant "Chess960" is Chess960, which is in the 2023 Laws only (Guidelines II), not the {edition} Laws'
    for r in reports:
        (f,) = r.findings
        assert (f.kind, f.article) == ("pgn_error", None)
        assert f.text == why
    assert res.exit_code == 1
    assert res.output.count(why) == len(reports)
    assert f"{len(reports)} games with errors skipped" in res.output


# ---------------------------------------------------------------------------
# A game log handed to convert


def test_convert_of_a_game_log_says_what_the_file_is(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    shutil.copy(Path(__file__).parent.parent / "docs" / "examples" / "scholars-mate-1997.jsonl", log)
    res = CliRunner().invoke(main, ["convert", str(log), "--out", str(tmp_path / "out")])
    assert res.exit_code == 2, res.output
    assert f"{log} is a game log, not a PGN file; replay it instead" in res.output
    assert f"chesslaws replay {log}" in res.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())

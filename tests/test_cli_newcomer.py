"""Issue 28, the command line as a newcomer meets it: counts in words, optional arguments shown as such,
hints that say what to add, rulings that say each fact once, and no Elo bound made up."""

from __future__ import annotations

from pathlib import Path

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

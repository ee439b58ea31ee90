"""tournament import (and add --from-trf) refuse the numbers the API refuses, naming the file's line and
field; the rule is chesslaws.tournament.limits'."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chesslaws.cli", *args], capture_output=True, text=True,
                          check=False, timeout=300)


def _no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr


# --- tournament import: the API's numbers -------------------------------------------------------------


def _player(sn: int, name: str, rating: str, points: str) -> str:
    return f"001 {sn:>4} {'':1}{'':>3} {name:<33} {rating:>4} {'':<3} {'':>11} {'':<10} {points:>4} {sn:>4}"


@pytest.mark.parametrize(("change", "said"), [
    ({"xxr": "XXR 9999999999"}, "line 3: XXR: 9999999999 rounds: an event has 1 to 99"),
    ({"rating": "-500"}, "line 4: rating (columns 49-52): -500 is out of 0..3500"),
    ({"rating": "9999"}, "line 4: rating (columns 49-52): 9999 is out of 0..3500"),
    ({"points": "-3.0"}, "line 4: points (columns 81-84): -3 points: out of 0..999.9"),
    ({"extra": "BBL -3.0"}, "line 4: BBL: -3 points: out of 0..100"),
    ({"extra": "BBW  nan"}, "line 4: BBW: nan is not a number of points"),
])
def test_tournament_import_refuses_the_numbers_the_api_refuses(tmp_path: Path, change: dict[str, str],
                                                                said: str) -> None:
    lines = ["012 Bad Numbers", "092 Individual: Swiss-System", change.get("xxr", "XXR 5")]
    if "extra" in change:
        lines.append(change["extra"])
    lines += [_player(1, "Adams, Ann", change.get("rating", "1500"), change.get("points", "0.0")),
              _player(2, "Brown, Bob", "1980", "0.0")]
    trf = tmp_path / "bad.trf"
    trf.write_text("\n".join(lines) + "\n")
    db = tmp_path / "t.sqlite3"
    proc = run(["tournament", "import", str(trf), "--db", str(db)])
    assert proc.returncode == 1, proc.stderr
    _no_traceback(proc)
    assert f"{trf}: {said}" in proc.stderr
    # add --from-trf reads it by the same rule.
    assert run(["tournament", "create", "Open", "--db", str(db)]).returncode == 0
    proc = run(["tournament", "add", "Open", "--from-trf", str(trf), "--db", str(db)])
    assert proc.returncode == 1 and said in proc.stderr, proc.stderr


def test_names_are_held_to_the_api_lengths(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    trf = tmp_path / "long.trf"
    trf.write_text("012 " + "x" * 101 + "\n" + _player(1, "Adams, Ann", "1500", "0.0") + "\n")
    proc = run(["tournament", "import", str(trf), "--db", str(db)])
    assert proc.returncode == 1 and "line 1: 012 (the event's name): the name has 101 characters, at most 100" \
        in proc.stderr, proc.stderr
    proc = run(["tournament", "create", "y" * 101, "--db", str(db)])
    assert proc.returncode == 2 and "NAME: the name has 101 characters, at most 100" in proc.stderr, proc.stderr
    assert run(["tournament", "create", "Open", "--db", str(db)]).returncode == 0
    proc = run(["tournament", "add", "Open", "z" * 101, "--db", str(db)])
    assert proc.returncode == 2 and "the name has 101 characters, at most 100" in proc.stderr, proc.stderr
    proc = run(["tournament", "add", "Open", "Ann", "--title", "GMGM", "--db", str(db)])
    assert proc.returncode == 2 and "field 'title' 'GMGM': at most 3 characters" in proc.stderr, proc.stderr
    _no_traceback(proc)

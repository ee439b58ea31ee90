"""check --json of a game with very many tags: linear in them."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run


# --- check --json: many tags --------------------------------------------------------------------------


def test_check_json_of_a_game_with_many_tags_is_linear_in_them(tmp_path: Path) -> None:
    """400,000 tags of distinct names (6 MB): linear, about a second; quadratic (each name looked for among
    those before it), 80,000 took 13 s of CPU, so this would take over five minutes. The child is given 60 s
    of CPU (RLIMIT_CPU: the machine's load does not count), far from either. The dict's rules (a name at
    its first place, with its last value) are kept."""
    n = 400_000
    pgn = tmp_path / "tags.pgn"
    with pgn.open("w") as f:
        f.write('[Event "first"]\n[Site "x"]\n')
        f.writelines(f'[T{i} "v{i}"]\n' for i in range(n))
        f.write('[Event "last"]\n\n1. e4 e5 *\n')
    proc = run(["check", "--json", str(pgn)], cpu=60)
    assert proc.returncode == 1, proc.stderr[-2000:]  # no_result: a finding
    row = json.loads(proc.stdout.splitlines()[0])
    tags = list(row["tags"].items())
    assert len(tags) == n + 2
    assert tags[:3] == [("Event", "last"), ("Site", "x"), ("T0", "v0")]
    assert tags[-1] == (f"T{n - 1}", f"v{n - 1}")


def test_a_line_of_many_broken_tags_is_reported_in_linear_space(tmp_path: Path) -> None:
    """Each error of a tag line shows the line, cut at 200 bytes: 4,000 broken tags on one line (60 KB)
    made 200 MB of report when each showed the whole line."""
    pgn = tmp_path / "q.pgn"
    pgn.write_text("".join(f'[T{i} "a"b"]' for i in range(4000)) + "\n\n1. e4 e5 *\n")
    proc = run(["check", "--json", str(pgn)])
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert len(proc.stdout) < 2_000_000
    assert proc.stdout.count("has a quote that is not escaped") == 4000


def test_convert_of_a_game_with_many_tags_is_linear_in_them(tmp_path: Path) -> None:
    """The PGN reader of convert (and of chesslaws.pgn.read_pgn) looked each tag's name up among those before it
    in the section (to tell a game with no movetext): 80,000 tags took 10 s of CPU. 400,000, under 60 s of CPU."""
    n = 400_000
    pgn = tmp_path / "tags.pgn"
    with pgn.open("w") as f:
        f.write('[Event "many tags"]\n[White "A"]\n[Black "B"]\n')
        f.writelines(f'[T{i} "v{i}"]\n' for i in range(n))
        f.write('\n1. e4 e5 1-0\n')
    proc = run(["convert", str(pgn), "--out", str(tmp_path / "logs")], cpu=60)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "1 game log written" in proc.stdout, proc.stdout
    start = json.loads((tmp_path / "logs" / "tags-1.jsonl").read_text().splitlines()[0])
    assert start["white"] == "A" and start["black"] == "B"

"""A game log's line nested 100,000 deep: replay names the line, no traceback. The rule is
chesslaws.jsondepth's, the server's too."""

from __future__ import annotations

from pathlib import Path

from cli_run import no_traceback, run

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


# --- replay: a deep log line ------------------------------------------------------------------------


def test_replay_of_a_deeply_nested_log_line_names_the_line(tmp_path: Path) -> None:
    log = tmp_path / "deep.jsonl"
    head = (EXAMPLES / "scholars-mate-1997.jsonl").read_text().splitlines()[:3]
    log.write_text("\n".join(head) + "\n" + "[" * 100_000 + "\n")
    proc = run(["replay", str(log)])
    assert proc.returncode == 2, proc.stderr
    no_traceback(proc)
    assert f"{log}: line 4: not a game event: the JSON nests deeper than 8 levels" in proc.stderr

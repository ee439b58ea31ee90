"""`chesslaws replay LOG [--json] [--at T]`: the spec's worked examples, bad logs, the summary.

The contract is shared/spec/game-log.md: the state printed exactly as the spec
shows (ruling texts are free), exit status 2 with the line and the reason on a
log that cannot be replayed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# The spec's worked examples, as the project ships them (test_docs_examples keeps them equal to the spec's).
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


class Ran:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def replay(*args: str, stdin: str | None = None) -> Ran:
    """Runs `chesslaws replay ARGS` in-process (fast); see test_real_process_exit_status."""
    from click.testing import CliRunner

    from chesslaws.cli import main

    res = CliRunner().invoke(main, ["replay", *args], input=stdin)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return Ran(res.exit_code, res.stdout, res.stderr)


def without_texts(state: dict[str, Any]) -> str:
    """The state as canonical JSON text, ruling texts blanked (the spec leaves their wording free).
    json.dumps keeps key order and tells 1 from 1.0, so equal strings mean equivalent bytes."""
    state = json.loads(json.dumps(state))
    for r in state.get("rulings", []):
        assert isinstance(r.pop("text"), str) and r is not None
    return json.dumps(state)


@pytest.mark.parametrize(
    ("name", "extra"),
    [("scholars-mate-1997", []), ("incorrect-claim-1997", []), ("flag-vs-lone-king-2023", ["--at", "5401"])],
)
def test_spec_examples(name: str, extra: list[str]) -> None:
    out = replay(str(EXAMPLES / f"{name}.jsonl"), "--json", *extra)
    assert out.returncode == 0, out.stderr
    expected = json.loads((EXAMPLES / f"{name}.state.json").read_text())
    got = json.loads(out.stdout)
    assert without_texts(got) == without_texts(expected)
    assert list(got) == ["status", "result", "termination", "score", "fen", "ply", "turn", "clocks",
                         "pending", "rulings"]
    for r in got["rulings"]:
        assert r["text"].strip()


def test_flag_example_before_the_flag_is_still_running(tmp_path: Path) -> None:
    """Without --at the lone-king log is read at its last event (t=0): nothing has happened."""
    out = replay(str(EXAMPLES / "flag-vs-lone-king-2023.jsonl"), "--json")
    assert out.returncode == 0
    st = json.loads(out.stdout)
    assert st["status"] == "ongoing"
    assert st["clocks"] == {"white_ms": 5400_000, "black_ms": 5400_000, "running": "white"}


def test_at_an_instant_runs_the_clock_on(tmp_path: Path) -> None:
    out = replay(str(EXAMPLES / "flag-vs-lone-king-2023.jsonl"), "--json", "--at", "100.5")
    st = json.loads(out.stdout)
    assert st["clocks"]["white_ms"] == 5400_000 - 100_500


def write(tmp_path: Path, *lines: str) -> str:
    p = tmp_path / "game.jsonl"
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(p)


START = '{"type": "start", "t": 0, "edition": "1997", "time_control": "5400"}'
E4 = '{"type": "move", "t": 10, "by": "white", "move": "e4"}'


@pytest.mark.parametrize(
    ("lines", "line_no", "reason"),
    [
        ([START, '{"type": "move", "t": 10, "by": "white", "move": "e4"'], 2, "JSON"),
        ([START, E4, '{"type": "teleport", "t": 20, "by": "black"}'], 3, "teleport"),
        ([START, '{"type": "move", "t": 10, "by": "white"}'], 2, "'move'"),
        ([START, '{"type": "move", "t": 10, "move": "e4"}'], 2, "by"),
        ([START, '{"type": "move", "by": "white", "move": "e4"}'], 2, "'t'"),
        ([START, '{"type": "move", "t": 10, "by": "black", "move": "e5"}'], 2, "White's move"),
        ([START, E4, '{"type": "move", "t": 9, "by": "black", "move": "e5"}'], 3, "back"),
        ([E4], 1, "start"),
        ([START, E4, "[1, 2]"], 3, "object"),
        (['{"type": "start", "t": 0, "edition": "1996"}'], 1, "edition"),
        (['{"type": "start", "t": 0, "time_control": "forty moves"}'], 1, "time_control"),
        ([START, '{"type": "move", "t": 10, "by": "white", "move": "Nf9"}'], 2, "move"),
        ([START, E4, '{"type": "accept_draw", "t": 20, "by": "black"}'], 3, "accept_draw"),
    ],
    ids=["invalid-json", "unknown-type", "missing-field", "missing-by", "missing-t", "out-of-turn",
         "t-backwards", "no-start", "not-an-object", "bad-edition", "bad-time-control", "unreadable-move",
         "no-offer"],
)
def test_bad_log_exit_2_with_line_and_reason(tmp_path: Path, lines: list[str], line_no: int, reason: str) -> None:
    out = replay(write(tmp_path, *lines), "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    assert f"line {line_no}" in out.stderr
    assert reason in out.stderr


def test_line_numbers_count_blank_lines(tmp_path: Path) -> None:
    """The line number is the file's, blank lines included."""
    out = replay(write(tmp_path, START, "", E4, "", '{"type": "move", "t": 20, "by": "white", "move": "d4"}'))
    assert out.returncode == 2
    assert "line 5" in out.stderr


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "empty.jsonl"
    p.write_text("")
    out = replay(str(p), "--json")
    assert out.returncode == 2
    assert "line 1" in out.stderr and "empty" in out.stderr


def test_missing_file_exit_2(tmp_path: Path) -> None:
    out = replay(str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2
    assert "nope.jsonl" in out.stderr


def test_at_before_the_last_event_is_refused(tmp_path: Path) -> None:
    out = replay(write(tmp_path, START, E4), "--json", "--at", "5")
    assert out.returncode == 2
    assert out.stdout == ""


def test_log_from_stdin(tmp_path: Path) -> None:
    out = replay("-", "--json", stdin=START + "\n" + E4 + "\n")
    assert out.returncode == 0, out.stderr
    st = json.loads(out.stdout)
    assert st["ply"] == 1 and st["turn"] == "black"
    assert st["clocks"] == {"white_ms": 5400_000 - 10_000, "black_ms": 5400_000, "running": "black"}


def test_readable_summary(tmp_path: Path) -> None:
    """Without --json: the board, the clocks, the move list and the rulings with articles."""
    out = replay(str(EXAMPLES / "scholars-mate-1997.jsonl"))
    assert out.returncode == 0
    text = out.stdout
    assert "White Player" in text and "Black Player" in text
    # The board after 4.Qxf7#: Black's back rank and White's queen on f7.
    assert "r . b q k b . r" in text
    assert "p p p p . Q p p" in text
    # Clocks: 7200 - 5 - 11 - 9 - 8 = 7167 s = 1:59:27 for White; Black 7200 - 4 - 11 - 22 = 7163 s.
    assert "1:59:27" in text and "1:59:23" in text
    assert "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#" in text
    assert "1-0" in text
    assert "5.1(a)" in text


def test_summary_of_a_game_starting_with_black_to_move(tmp_path: Path) -> None:
    out = replay(write(tmp_path, '{"type": "start", "t": 0, "fen": "4k3/8/8/8/8/8/8/R3K3 b - - 0 30"}',
                       '{"type": "move", "t": 5, "by": "black", "move": "Kd7"}',
                       '{"type": "move", "t": 6, "by": "white", "move": "Ra7+"}'))
    assert out.returncode == 0
    assert "30... Kd7 31. Ra7+" in out.stdout


def test_json_output_is_the_api_state(tmp_path: Path) -> None:
    """`replay --json` prints exactly Game.replay(path).to_json()."""
    from chesslaws.game import Game

    path = str(EXAMPLES / "incorrect-claim-1997.jsonl")
    out = replay(path, "--json")
    assert json.loads(out.stdout) == Game.replay(path).to_json()


def test_real_process_exit_status(tmp_path: Path) -> None:
    """The installed command itself: exit status 2 and the reason on stderr, nothing on stdout."""
    path = write(tmp_path, START, '{"type": "move", "t": 10, "by": "black", "move": "e5"}')
    out = subprocess.run([sys.executable, "-m", "chesslaws.cli", "replay", path, "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stdout == ""
    assert "line 2" in out.stderr


def test_at_after_the_end_changes_nothing() -> None:
    """After the mate the clocks stand still: --at 9000 prints the same state (the spec's
    "clocks run on" is for a game still in progress)."""
    path = str(EXAMPLES / "scholars-mate-1997.jsonl")
    plain = json.loads(replay(path, "--json").stdout)
    later = json.loads(replay(path, "--json", "--at", "9000").stdout)
    assert later == plain


def test_at_without_arbiter_runs_the_clock_past_zero_flag_unclaimed(tmp_path: Path) -> None:
    """Arbiter absent: at t=6000 White's flag has fallen (clock 0) but nobody claimed it."""
    out = replay(write(tmp_path, '{"type": "start", "t": 0, "edition": "1997", "time_control": "5400", '
                                 '"arbiter": "absent"}'), "--json", "--at", "6000")
    st = json.loads(out.stdout)
    assert st["status"] == "ongoing"
    assert st["clocks"] == {"white_ms": 0, "black_ms": 5400_000, "running": "white"}

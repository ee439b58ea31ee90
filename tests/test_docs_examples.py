"""The examples the README names ship in ``docs/examples/`` and do what it says: each state file beside a log is
exactly what the command its README gives prints (the logs are the spec's own, the states differ from the
spec's in ruling texts alone), the TRF gives standings, the Python lines run, and the ``.gitignore`` covers
the SQLite server's side files."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.game import Game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
SPEC = ROOT.parent / "shared" / "spec" / "examples"  # shared/ beside the checkout
#: A row of the examples' README: the log and the command that prints its state.
ROW = re.compile(r"^\| `(?P<log>[\w.-]+\.jsonl)` \| `(?P<command>chesslaws [^`]+)` \|$", re.M)


def commands() -> dict[str, list[str]]:
    """Each example log's command (its arguments after ``chesslaws``), as docs/examples/README.md gives it."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    return {m["log"]: shlex.split(m["command"])[1:] for m in ROW.finditer(text)}


def without_texts(state: dict[str, object]) -> dict[str, object]:
    out = dict(state)
    out["rulings"] = [{k: v for k, v in r.items() if k != "text"} for r in state["rulings"]]  # type: ignore[attr-defined]
    return out


def test_the_readme_of_the_examples_gives_a_command_for_every_log() -> None:
    assert sorted(commands()) == sorted(p.name for p in EXAMPLES.glob("*.jsonl"))
    assert commands()["flag-vs-lone-king-2023.jsonl"][-2:] == ["--at", "5401"]


@pytest.mark.parametrize("log", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_state_file_is_what_its_command_prints(log: Path) -> None:
    args = [str(ROOT / a) if a.startswith("docs/") else a for a in commands()[log.name]]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    expected = log.with_suffix("").with_suffix(".state.json").read_text(encoding="utf-8")
    assert r.output == expected, f"{log.name}: the command prints another state than the file beside it"
    # The Python API gives the same state, texts and all.
    at = float(args[args.index("--at") + 1]) if "--at" in args else None
    game = Game.replay(str(log))
    assert (game.at(at) if at is not None else game).to_json() == json.loads(expected)


def test_the_logs_are_the_specs_own_and_the_states_its_but_for_ruling_texts() -> None:
    if not SPEC.is_dir():
        pytest.skip("the spec's examples are not beside this checkout (../shared/spec/examples)")
    for f in SPEC.glob("*.jsonl"):
        assert (EXAMPLES / f.name).read_bytes() == f.read_bytes(), f.name
    for f in SPEC.glob("*.state.json"):
        ours = json.loads((EXAMPLES / f.name).read_text(encoding="utf-8"))
        assert without_texts(ours) == without_texts(json.loads(f.read_text(encoding="utf-8"))), f.name


def test_the_readme_names_only_shipped_examples_and_its_python_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"docs/examples/[\w.-]+", readme))
    assert {"docs/examples/incorrect-claim-1997.jsonl", "docs/examples/scholars-mate-1997.jsonl",
            "docs/examples/club-quad.trf"} <= named
    for path in named:
        assert (ROOT / path).is_file(), path
    assert 'Game.replay("game.jsonl")' not in readme
    game = Game.replay(str(ROOT / "docs/examples/scholars-mate-1997.jsonl"))
    assert (game.state.result, game.state.termination) == ("1-0", "checkmate")


def test_the_example_trf_gives_standings() -> None:
    r = CliRunner().invoke(main, ["tournament", "standings", str(EXAMPLES / "club-quad.trf")])
    assert r.exit_code == 0, r.output
    lines = [line for line in r.output.splitlines() if re.match(r"\s+\d+\s+\d+ ", line)]
    assert [line.split()[2] for line in lines] == ["Adams,", "Clarke,", "Brown,", "Dunn,"], r.output


def test_gitignore_covers_the_sqlite_side_files() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    for pattern in ("*.sqlite3", "*.sqlite3-wal", "*.sqlite3-shm", "*.sqlite3.lock"):
        assert pattern in ignored


def test_laws_coverage_says_where_the_texts_are() -> None:
    page = (ROOT / "docs" / "laws-coverage.md").read_text(encoding="utf-8")
    assert "not in this repository" in page and "handbook.fide.com" in page

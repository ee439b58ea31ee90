"""The examples the README names ship in ``docs/examples/`` and do what it says: each log replays to
the state beside it (ruling texts aside, as the spec says), the TRF gives standings, the Python lines run, and
the ``.gitignore`` covers the SQLite server's side files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chesslaws.cli import main
from chesslaws.game import Game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
SPEC = ROOT.parent / "shared" / "spec" / "examples"  # shared/ beside the checkout
#: The instant each example's state is read at (the spec's README: the flag example with --at 5401).
AT = {"flag-vs-lone-king-2023": 5401.0}


def without_texts(state: dict[str, object]) -> dict[str, object]:
    out = dict(state)
    out["rulings"] = [{k: v for k, v in r.items() if k != "text"} for r in state["rulings"]]  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("log", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_example_log_replays_to_its_state(log: Path) -> None:
    game = Game.replay(str(log))
    at = AT.get(log.stem)
    state = (game.at(at) if at is not None else game).to_json()
    expected = json.loads(log.with_suffix(".state.json").read_text(encoding="utf-8"))
    assert without_texts(state) == without_texts(expected)
    # The command line says the same.
    args = ["replay", str(log), "--json"] + (["--at", str(at)] if at is not None else [])
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert without_texts(json.loads(r.output)) == without_texts(expected)


def test_the_examples_are_the_specs_own() -> None:
    if not SPEC.is_dir():
        pytest.skip("the spec's examples are not beside this checkout")
    for f in SPEC.glob("*.json*"):
        assert (EXAMPLES / f.name).read_bytes() == f.read_bytes(), f.name


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

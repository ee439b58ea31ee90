"""``chesslaws``'s commands load only what they use: ``check`` and ``perft`` start without the arbiter, the
engines, the matches, the tournaments or the server (their modules are loaded by name when a command runs),
and every command is listed by ``--help`` all the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from click.testing import CliRunner

from chesslaws.cli import COMMANDS, main

#: Modules a quick command must not load: the arbiter, records, engines, matches, tournaments, the server.
HEAVY = ("chesslaws.game", "chesslaws.records", "chesslaws.engines", "chesslaws.match", "chesslaws.tournament",
         "chesslaws.server", "chesslaws.distributed")

PROBE = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\\n"))
from chesslaws.cli import main
sys.argv[0] = "chesslaws"
main()
"""


def loaded(*args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


@pytest.mark.parametrize("args", [["check", "{pgn}"], ["check", "{pgn}", "--json"], ["perft", "3"]])
def test_a_quick_command_loads_no_arbiter_engine_tournament_or_server(tmp_path: Path, args: list[str]) -> None:
    pgn = tmp_path / "one.pgn"
    pgn.write_text('[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')
    modules = loaded(*(a.format(pgn=pgn) for a in args))
    assert f"chesslaws.commands.{args[0]}" in modules
    heavy = sorted(m for m in modules if m.startswith(HEAVY))
    assert heavy == [], heavy


def test_every_command_is_listed_and_found() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    for name in COMMANDS:
        assert f"\n  {name} " in out
        assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0

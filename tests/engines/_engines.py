"""Helpers of the engine tests: the fake engine's command, Stockfish, the processes we started."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
FAKE = str(HERE / "fake_engine.py")
STOCKFISH = shutil.which("stockfish") or ("/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None)


def fake(mode: str, arg: str | None = None) -> list[str]:
    """The command line of the broken engine in ``mode`` (see fake_engine.py)."""
    return [sys.executable, FAKE, mode] + ([arg] if arg is not None else [])


def fake_cmd(mode: str, arg: str | None = None) -> str:
    import shlex

    return " ".join(shlex.quote(w) for w in fake(mode, arg))


needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed (apt install stockfish)")


def _descendants() -> set[int]:
    """Processes started by this test process (engines run in their own sessions, but stay our children)."""
    me = os.getpid()
    found: set[int] = set()
    parents = {me}
    changed = True
    while changed:
        changed = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            if pid in found:
                continue
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    stat = fh.read()
            except OSError:
                continue
            # state and ppid come after the command name in parentheses
            fields = stat.rsplit(")", 1)[1].split()
            state, ppid = fields[0], int(fields[1])
            if ppid in parents and state != "Z":
                found.add(pid)
                parents.add(pid)
                changed = True
    return found

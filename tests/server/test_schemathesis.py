"""schemathesis against the OpenAPI description: no server error, whatever the input.

Runs the schemathesis CLI (fuzzing and stateful phases, bounded examples and
time: 9 s a run) against a live server twice: as a stranger, and with the arbiter's token
of an over-the-board game (where the arbiter may enter every event), so that
fuzzed events reach the arbiter itself. If the arbiter raised anything but a
chesslaws error on the way (the server answers those with 422, never 500, and
logs them), a warning names them.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("schemathesis")


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _schemathesis(url: str, tmp: Path, *, game: str | None, token: str | None, seed: int) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("schemathesis") or shutil.which("st")
    cmd = [exe] if exe else [sys.executable, "-m", "schemathesis.cli"]
    config = tmp / f"schemathesis-{seed}.toml"
    config.write_text(f'[parameters]\n"path.game_id" = "{game}"\n' if game else "")
    cmd = [*cmd, "--config-file", str(config), "run", f"{url}/openapi.json",
           "--checks", "not_a_server_error", "--phases", "fuzzing,stateful",
           "--max-examples", "30", "--max-time", "9", "--seed", str(seed), "--workers", "2",
           "--request-timeout", "10", "--warnings=off"]
    if token:
        cmd += ["-H", f"Authorization: Bearer {token}"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp)  # its caches stay out of the repo


@pytest.mark.parametrize("as_arbiter", [False, True], ids=["stranger", "arbiter"])
def test_no_server_errors(live_server_db: Any, tmp_path: Path, as_arbiter: bool) -> None:
    live_server = live_server_db
    errors = _Errors()
    logging.getLogger("chesslaws.server").addHandler(errors)
    try:
        body: dict[str, Any] = {"white": "W", "black": "B", "time_control": "600+5", "edition": "2023",
                                "when_ready": False}
        if as_arbiter:
            body["interface"] = "otb"
        g = httpx.post(live_server.url + "/api/games", json=body).json()
        out = _schemathesis(live_server.url, tmp_path, game=g["id"],
                            token=g["tokens"]["arbiter"] if as_arbiter else None, seed=20261129 + as_arbiter)
    finally:
        logging.getLogger("chesslaws.server").removeHandler(errors)
    report = out.stdout[-4000:] + out.stderr[-2000:]
    assert out.returncode == 0, report
    assert "passed" in out.stdout, report
    # A fault (an exception the arbiter or the server did not expect) is logged with its traceback:
    # there must be none, whatever schemathesis sent.
    assert not errors.records, "faults: " + "; ".join(
        f"{r.getMessage()}: {r.exc_info[1]!r}" if r.exc_info else r.getMessage() for r in errors.records[:5])
    # The game is still there and readable.
    assert httpx.get(f"{live_server.url}/api/games/{g['id']}").status_code == 200

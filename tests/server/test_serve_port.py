"""A second ``chesslaws serve`` on a busy port says so, names the port and --port, and exits 2
without claiming to serve."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from conftest import REPO, free_port


def test_a_second_serve_on_a_busy_port_names_it_and_suggests_port(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", port))
        holder.listen()
        r = subprocess.run([sys.executable, "-m", "chesslaws.cli", "serve", "--port", str(port),
                            "--db", str(tmp_path / "games.sqlite3")],
                           capture_output=True, text=True, timeout=60, cwd=REPO)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "serving on" not in r.stdout + r.stderr
    assert f"port {port} is already in use" in r.stderr and "--port" in r.stderr
    assert "Errno" not in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "games.sqlite3").exists()  # nothing was opened

"""match --pgnout onto a full disk: the file keeps its earlier games whole and gets no part of a
game; the match ends naming the file. A full disk: a file-size limit (RLIMIT_FSIZE) in the child process,
SIGXFSZ ignored, so that a write past it fails (EFBIG) as on a full disk (ENOSPC)."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

from _engines import fake_cmd

EARLIER = '[Event "an earlier match"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'


def test_pgnout_onto_a_full_disk_keeps_the_earlier_games_whole(tmp_path: Path) -> None:
    out = tmp_path / "m.pgn"
    out.write_text(EARLIER)
    size = len(EARLIER.encode())

    def full() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, size + 100))  # no room for a game

    cmd = [sys.executable, "-m", "chesslaws.cli", "match", "good=" + fake_cmd("legal"), "bad=" + fake_cmd("illegal"),
           "--games", "2", "--tc", "20+0.1", "--pgnout", str(out), "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, preexec_fn=full, check=False)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    assert f"chesslaws match: cannot write {out}: File too large" in p.stderr
    assert out.read_text() == EARLIER  # no part of a game appended

"""Running ``chesslaws`` in a child process under resource limits (tests/test_cli_*.py).

A full disk is simulated portably: the command runs in a child process whose file-size limit
(RLIMIT_FSIZE) is below what it writes, SIGXFSZ ignored, so that a write past the limit fails with
EFBIG ("File too large") as a full disk fails with ENOSPC. RLIMIT_CPU bounds the CPU time a command may
take (the machine's load does not count).
"""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from typing import Callable


def limits(fsize: int | None = None, cpu: int | None = None) -> Callable[[], None]:
    def apply() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if cpu is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    return apply


def run(args: list[str], *, fsize: int | None = None, cpu: int | None = None) -> subprocess.CompletedProcess[str]:
    """``chesslaws ARGS`` in a child process (this interpreter, the same chesslaws)."""
    return subprocess.run([sys.executable, "-m", "chesslaws.cli", *args], capture_output=True, text=True,
                          preexec_fn=limits(fsize, cpu), check=False, timeout=600)


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr

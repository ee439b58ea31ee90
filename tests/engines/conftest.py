"""The engine tests' guard: no engine process outlives its test."""

from __future__ import annotations

import os
from typing import Iterator

import pytest
from _engines import _descendants


@pytest.fixture(autouse=True)
def no_engine_left_behind() -> Iterator[None]:
    before = _descendants()
    yield
    left = _descendants() - before
    if left:
        names = []
        for pid in left:
            try:
                names.append(f"{pid}: " + open(f"/proc/{pid}/cmdline").read().replace("\0", " "))
            except OSError:
                pass
        for pid in left:  # do not let one failure spill into the next tests
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        pytest.fail("engine processes left behind: " + "; ".join(names))

"""Work of one test spread over the machine's cores (CI has two): for the tests that replay many games."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def in_parallel(work: Callable[[T], R], parts: Sequence[T]) -> list[R]:
    """`work` applied to each part, on as many processes as the machine has cores (at most 2, as CI's);
    the results in the order of the parts. Each part's result must not depend on the split."""
    workers = max(1, min(2, os.cpu_count() or 1, len(parts)))
    if workers == 1:
        return [work(p) for p in parts]
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(work, parts))

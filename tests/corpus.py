"""The shared corpus of real games, as the tests read it, and how much of it the suite reads by default.

``shared/corpus`` stands beside the checkout (``../shared/corpus``, as CI and the developers' machines lay
it); a clone alone has none, and the tests that need it skip.

The corpus tests are the slowest part of the suite (the arbiter replays every record in Python), so by
default they read every game of the chess.com file (the one whose records first showed the two
judgements disagreeing) and one game in ``SAMPLE`` of the two big files (``SAMPLED``), spread over the
machine's cores.
``CHESSLAWS_FULL_CORPUS=1`` reads every game of every file (and every edition where a test takes them).
"""

from __future__ import annotations

import os
from pathlib import Path

_BESIDE = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CORPUS: Path | None = _BESIDE if _BESIDE.is_dir() else None

FULL_CORPUS = os.environ.get("CHESSLAWS_FULL_CORPUS") == "1"

#: One game in SAMPLE of the big files by default (game numbers 1, 1 + SAMPLE, ...); every game in full.
SAMPLE = 1 if FULL_CORPUS else 3

#: The big files, of which one game in SAMPLE is read by default; every other file is read whole.
SAMPLED = ("online_lichess_DrDrunkenstein", "otb_twic0920")


def sampled(file_name: str, number: int) -> bool:
    """Whether game `number` (1-based) of the file is read in this run."""
    return FULL_CORPUS or not file_name.startswith(SAMPLED) or (number - 1) % SAMPLE == 0

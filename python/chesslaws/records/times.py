"""Times written in the comments of recorded moves besides ``[%clk]`` (which
the PGN reader reads natively): the time a move took (``[%emt]``, TCEC's
``mt=``, cutechess's ``2.1s``) and TCEC's clock after the move (``tl=``)."""

from __future__ import annotations

import re

def hms_ms(text: str) -> int | None:
    parts = text.strip().split(":")
    try:
        secs = float(parts[-1])
        whole = 0
        for p in parts[:-1]:
            whole = whole * 60 + int(p)
    except ValueError:
        return None
    if secs < 0 or len(parts) > 3:
        return None
    return whole * 60_000 + round(secs * 1000)


_EMT = re.compile(r"\[%emt\s+([0-9:.]+)\s*\]")
_TL = re.compile(r"(?:^|[\s,{])tl=(\d+)")
_MT = re.compile(r"(?:^|[\s,{])mt=(\d+)")
# cutechess / fastchess: "+0.33/20 2.1s" (evaluation/depth, then the time the move took)
_CUTECHESS_TIME = re.compile(r"^(?:[+-]?\d+(?:\.\d+)?|[+-]?M\d+)/\d+\s+(\d+(?:\.\d+)?)s(?:\s|,|$)")


def clock_after(comment: str | None) -> int | None:
    """TCEC's ``tl=`` (the time left after the move, ms)."""
    if comment:
        m = _TL.search(comment)
        if m:
            return int(m.group(1))
    return None


def time_taken(comment: str | None) -> int | None:
    """The time the move took: ``[%emt]``, TCEC ``mt=`` (ms), cutechess ``2.1s``."""
    if not comment:
        return None
    m = _EMT.search(comment)
    if m:
        return hms_ms(m.group(1))
    m = _MT.search(comment)
    if m:
        return int(m.group(1))
    m = _CUTECHESS_TIME.match(comment.strip())
    if m:
        return round(float(m.group(1)) * 1000)
    return None

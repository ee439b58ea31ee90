"""How deep a JSON document may nest: one rule for what the server is sent and what the command line
reads (a game log's lines).

Python's ``json`` parser recurses once per level: a line of 100,000 ``[`` exhausts the interpreter's
stack (``RecursionError``) before it can say what is wrong. The text is therefore scanned first, and
refused with the line it is on, before it reaches the parser. An event is two levels deep, a
WebSocket message three: :data:`MAX_DEPTH` leaves room.
"""

from __future__ import annotations

#: How deep a JSON document may nest.
MAX_DEPTH = 8


def depth_ok(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the brackets outside strings in ``text`` nest at most ``limit`` deep."""
    if text.count("[") + text.count("{") <= limit:  # most lines: no scan in Python
        return True
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True

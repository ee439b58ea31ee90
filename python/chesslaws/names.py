"""What a name a person sees must be: one rule for the server's API and the command line.

A player's or an event's name must show something: at least one visible character (a letter, a digit,
a punctuation mark or a symbol: Unicode categories L, N, P, S) once the invisible ones are set aside
(format characters such as the zero-width space, the word joiner and the byte order mark (Cf),
combining marks (Mn, Me), every kind of space (Z*) and the Hangul fillers, which are letters that
show nothing); and combining marks come at most :data:`MAX_MARKS` in a row (a name under sixty stacked
accents spills over the lines around it). Real names pass: Zoë, 李, Ærø, O'Neil, a name written with
one combining accent, Vietnamese names with two.
"""

from __future__ import annotations

import unicodedata

#: Combining marks in a row at most (Vietnamese stacks two on a letter; Zalgo text stacks dozens).
MAX_MARKS = 4
#: Letters (category Lo) that show nothing: the Hangul fillers, and the braille blank (a symbol).
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a name a person can see (a phrase), or None if it is one."""
    visible = False
    marks = 0
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                return f"more than {MAX_MARKS} combining marks in a row"
            continue
        marks = 0
        if ch in FILLERS or cat == "Cf" or cat[0] in "ZC":
            continue
        if cat[0] in "LNPS":
            visible = True
    if not visible:
        return "no visible character (only blanks or invisible characters)"
    return None


__all__ = ["FILLERS", "MAX_MARKS", "name_problem"]

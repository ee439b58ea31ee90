"""How a recorded game says it ended: the kinds of ending of the terminations
table (``chesslaws/data/terminations.tsv``, read by the native core for
``chesslaws check`` and here alike) and the arbiter's own terminations as
those kinds."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from chesslaws._core import termination_kind as native_termination_kind
from chesslaws._core import termination_rules as native_termination_rules

#: What the terminations table may say about how a game ended.
TERMINATION_KINDS = frozenset({
    "checkmate", "stalemate", "resignation", "time_forfeit", "timeout_vs_insufficient", "abandoned",
    "agreement", "repetition", "fifty_moves", "fivefold", "seventy_five_moves", "dead_position",
    "adjudication", "rules_infraction", "unterminated", "normal",
})

#: The arbiter's automatic terminations, as kinds of the terminations table.
ENDED_AS = {"checkmate": "checkmate", "stalemate": "stalemate", "dead_position": "dead_position",
             "insufficient_material": "dead_position", "fivefold_repetition": "fivefold",
             "seventyfive_moves": "seventy_five_moves"}

AUTOMATIC_ENDS = {"checkmate", "stalemate", "dead_position", "fivefold", "seventy_five_moves"}


@dataclass(frozen=True, slots=True)
class TerminationRule:
    """One line of ``data/terminations.tsv``: a text, what it means, who writes it."""

    text: str
    kind: str
    source: str


@lru_cache(maxsize=1)
def termination_rules() -> tuple[TerminationRule, ...]:
    """The rules of ``chesslaws/data/terminations.tsv``, in order (first match wins), as the native core reads
    them for ``chesslaws check`` (texts with their spaces collapsed, in lower case)."""
    rules = tuple(TerminationRule(text, kind, source) for text, kind, source in native_termination_rules())
    unknown = sorted({r.kind for r in rules} - TERMINATION_KINDS)
    if unknown:
        raise ValueError(f"terminations.tsv: unknown kind(s) {', '.join(map(repr, unknown))}")
    return rules


def termination_kind(text: str | None) -> str | None:
    """What a ``Termination`` text (or a result comment such as cutechess's
    ``White mates``) says about the ending: a kind of :data:`TERMINATION_KINDS`,
    or ``None`` when no rule of the table matches (the native core's reading,
    the one ``chesslaws check`` applies)."""
    if not text:
        return None
    return native_termination_kind(text)

"""Dead positions and "can this side still checkmate?".

The Laws draw a game when "a position is reached from which a checkmate
cannot occur by any possible series of legal moves" (1997 Article 9.6, 2023
Article 5.2.2), and draw a flag fall when "the opponent cannot checkmate the
player by any possible series of legal moves" (Article 6.9; also 2023
Articles 5.1.2 and 7.5.5). Both questions reduce to one: can ``color``
checkmate the other side by *some* series of legal moves from this position,
both sides cooperating (a helpmate), starting with whoever is to move?

The native core answers it with the ``chasolver`` crate (the helpmate solver
behind the Chess Unwinnability Analyzer):

1. the game is over on the board (checkmate or stalemate);
2. ``color`` has insufficient material in the strict sense (a lone king; a
   king and one knight against a king and queens only; kings and bishops all
   on squares of one colour with no pawns or knights on the board);
3. ``chasolver::is_unwinnable_fast``, a sound check that only proves "cannot
   mate";
4. the full helpmate search: ``chasolver::winnability`` when ``budget`` is
   ``None`` or at least :data:`CHASOLVER_NODE_BOUND` (the solver bounds its
   own work with internal node limits of about that many nodes), otherwise
   an iterative-deepening helpmate search of at most ``budget`` nodes.

Semantics, as in chasolver: a line in which the *other* side checkmates
first, or which reaches stalemate, ends there and proves nothing for
``color`` (checkmate and stalemate end the game, Articles 5.1 and 5.2). The
halfmove clock and repetitions are ignored: the 75-move rule and fivefold
repetition (2023 Article 9.6) never decide whether a mate is possible. This
is not the 1997 blitz "mating potential" of Appendix C.4 (a mate in one
against an opponent to move), which is a narrower test.

Every "winnable" verdict carries a helpmate line that the core has replayed
move by move and found to end in ``color`` checkmating the other side.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from chesslaws import _core
from chesslaws.errors import InvalidInput
from chesslaws.position import Position

__all__ = [
    "CHASOLVER_NODE_BOUND",
    "Color",
    "MateAnalysis",
    "Verdict",
    "can_mate",
    "can_mate_many",
    "dead_analysis",
    "is_dead",
    "is_dead_many",
    "returns_to",
]

Color = Literal["white", "black"]
Verdict = Literal["winnable", "unwinnable", "undetermined"]

#: A budget at least this large (or ``None``) runs chasolver's full search.
CHASOLVER_NODE_BOUND: int = _core.CHASOLVER_NODE_BOUND

_COLORS: tuple[Color, ...] = ("white", "black")
_VERDICTS: tuple[Verdict, ...] = ("winnable", "unwinnable", "undetermined")


@dataclass(frozen=True, slots=True)
class MateAnalysis:
    """Whether ``color`` can still checkmate, with the proof.

    ``line`` is, for ``"winnable"``, a helpmate in SAN from the position
    (empty when ``color`` has already checkmated the other side); empty
    otherwise. ``reason`` is a sentence fit for an arbiter's ruling.
    """

    color: Color
    verdict: Verdict
    line: tuple[str, ...]
    reason: str

    @property
    def can_mate(self) -> bool | None:
        """True if winnable, False if unwinnable, None if undetermined."""
        if self.verdict == "winnable":
            return True
        if self.verdict == "unwinnable":
            return False
        return None


def _check_color(color: str) -> Color:
    if color not in _COLORS:
        raise InvalidInput(f"color must be 'white' or 'black', not {color!r}")
    return color


def _check_budget(budget: int | None) -> int | None:
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"budget must be an int or None, not {type(budget).__name__}")
    if budget < 0:
        raise ValueError(f"budget must be a non-negative number of nodes, not {budget}")
    return min(budget, 2**63 - 1)


def _analysis(raw: tuple[str, str, list[str], str]) -> MateAnalysis:
    color, verdict, line, reason = raw
    if verdict not in _VERDICTS:  # pragma: no cover - the core only returns these
        raise RuntimeError(f"unexpected verdict from the native core: {verdict!r}")
    return MateAnalysis(
        color=_check_color(color),
        verdict=verdict,
        line=tuple(line),
        reason=reason,
    )


def can_mate(position: Position, color: Color, *, budget: int | None = None) -> MateAnalysis:
    """Can ``color`` checkmate by some series of legal moves from ``position``?

    ``budget`` bounds the helpmate search in nodes (moves tried); ``None``
    runs chasolver's complete search with its own limits.
    """
    raw = _core.can_mate(position, _check_color(color), _check_budget(budget))
    return _analysis(raw)


def dead_analysis(
    position: Position, *, budget: int | None = None
) -> tuple[MateAnalysis, MateAnalysis]:
    """(White's analysis, Black's analysis) of ``position``."""
    white, black = _core.dead_analysis(position, _check_budget(budget))
    return _analysis(white), _analysis(black)


def is_dead(position: Position, *, budget: int | None = None) -> bool | None:
    """True if neither side can checkmate (a dead position), False if one
    can, None if undecided within ``budget``.

    Stops as soon as one side is shown able to mate.
    """
    return _core.is_dead(position, _check_budget(budget))


def returns_to(before: Position, after: Position, uci: str, *, tries: int = 16) -> bool:
    """Can ``before`` arise again from ``after`` (``before`` after the move ``uci``) by legal moves?

    True when the move is quiet (no pawn, no capture, no castling, no en passant right lost) and
    one of the first ``tries`` quiet replies, the move taken back and the reply taken back give
    ``before`` again, castling rights included. Then ``after`` is not dead if ``before`` was not: any
    series of moves from ``before`` to a checkmate can follow. False means only "not shown".
    """
    return _core.returns_to(before, after, uci, tries)


def can_mate_many(
    positions: Sequence[Position],
    color: Color | Sequence[Color],
    *,
    budget: int | None = None,
    threads: int | None = None,
) -> list[MateAnalysis]:
    """:func:`can_mate` for many positions in one native call.

    ``color`` is one colour for every position or a sequence with one colour
    per position. The work is spread over ``threads`` threads (default: one
    per core for batches of four or more positions).
    """
    if isinstance(color, str):
        colors: Color | list[str] = _check_color(color)
    else:
        colors = [_check_color(c) for c in color]
        if len(colors) != len(positions):
            raise ValueError(f"got {len(positions)} positions but {len(colors)} colors")
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    # Building many small result objects would trigger the cyclic garbage
    # collector over and over; none of them can form a cycle.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        raw = _core.can_mate_many(list(positions), colors, _check_budget(budget), threads)
        return [_analysis(r) for r in raw]
    finally:
        if was_enabled:
            gc.enable()


def is_dead_many(
    positions: Sequence[Position],
    *,
    budget: int | None = None,
    threads: int | None = None,
) -> list[bool | None]:
    """:func:`is_dead` for many positions in one native call."""
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return _core.is_dead_many(list(positions), _check_budget(budget), threads)

"""Mating chances as the arbiter needs them: verdicts with words for rulings.

"Can this side still checkmate by any series of legal moves?" (1997 and 2023
Article 6.9, 9.6 / 5.2.2). The exact answer comes from the helpmate analysis
in :mod:`chesslaws.dead`; a position it cannot decide within its budget is
treated as winnable, so no game is ever drawn on a guess. A quick material
description names the simple cases the way an arbiter would.
"""

from __future__ import annotations

from dataclasses import dataclass

from chesslaws import dead
from chesslaws.position import Position
from chesslaws.timecontrol import Color


@dataclass(frozen=True, slots=True)
class MateVerdict:
    """Whether ``color`` can still checkmate, with the words for a ruling."""

    color: Color
    can_mate: bool | None  # None: undetermined within the analysis budget
    clause: str  # e.g. ", with a lone king," to follow the player's name
    reason: str  # the proof: why not, or a helpmate line
    line: tuple[str, ...] = ()
    thin: bool = False  # little material: the proof is worth quoting whatever its length

    #: Helpmate lines up to this many plies are quoted in rulings as proof.
    QUOTE_PLIES = 24

    @property
    def proof(self) -> str:
        """The proof as a parenthesis for a ruling, or "" when the clause says it all."""
        reason = self.reason.rstrip(".")
        if self.can_mate is False:
            return "" if self.clause else f" ({reason})"
        if self.can_mate and self.line and (self.thin or len(self.line) <= self.QUOTE_PLIES):
            return f" ({reason})"
        return ""


@dataclass(frozen=True, slots=True)
class DeadVerdict:
    """Whether no series of legal moves can lead to checkmate."""

    dead: bool
    reason: str


_NAMES = {"Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}


def material_clause(position: Position, color: Color) -> str:
    """``", with a lone king,"`` and the like, for the simple cases."""
    material = position.material()
    own = {k.upper(): v for k, v in material.items() if (k.isupper() == (color == "white")) and k.upper() != "K"}
    if not own:
        return ", with a lone king,"
    if sum(own.values()) == 1:
        (piece,) = own
        return f", with only king and {_NAMES[piece]},"
    if own == {"N": 2}:
        return ", with only king and two knights,"
    return ""


def can_mate(position: Position, color: Color) -> MateVerdict:
    """Can ``color`` checkmate by some series of legal moves from ``position``?"""
    clause = material_clause(position, color)
    result = dead.can_mate(position, color)
    verdict = {"winnable": True, "unwinnable": False}.get(result.verdict)
    return MateVerdict(color, verdict, clause if verdict is False else "", result.reason, tuple(result.line),
                       thin=bool(clause))


def _both_reasons(white: str, black: str) -> str:
    """Why neither side can mate, each fact said once: "White has a lone king." is left out when Black's
    reason already says it ("Black has only a king and a knight, and White has a lone king: ...")."""
    lone = {"White": "White has a lone king.", "Black": "Black has a lone king."}
    if white == lone["White"] and black == lone["Black"]:
        return "Both players have a lone king."
    if white == black:  # one reason for both (forced play into stalemate)
        return white
    if white == lone["White"] and "White has a lone king" in black:
        return black
    if black == lone["Black"] and "Black has a lone king" in white:
        return white
    return f"{white} {black}".strip()


def is_dead(position: Position) -> DeadVerdict:
    """Is the position dead: can neither side checkmate by any legal moves?"""
    if dead.is_dead(position) is not True:  # winnable for one side, or undetermined: play on
        return DeadVerdict(False, "")
    white, black = dead.dead_analysis(position)
    if white.verdict == "unwinnable" and black.verdict == "unwinnable":
        return DeadVerdict(True, _both_reasons(white.reason, black.reason))
    return DeadVerdict(False, "")


__all__ = ["DeadVerdict", "MateVerdict", "can_mate", "is_dead", "material_clause"]

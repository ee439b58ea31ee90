"""The regulations of an event that the Laws defer to, as the ``start`` event states them: draw offers
and agreements forbidden before a number of moves or at all without the arbiter's consent (2023 9.1.1),
the opponent of the player having the move reporting to the arbiter before leaving the playing area
(2023 11.2.4), and whether the clocks can introduce the increment of Guidelines III.4 ("if possible").

A value read from the start event alone; what the regulations change at the board is ruled in
:mod:`chesslaws.game.regulated`. An immutable value of the core, beside the
edition (:mod:`chesslaws.editions`), which the arbiter's configuration holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesslaws.events import Event


#: The start event's fields that state the regulations (each a field of :class:`Regulations`).
FIELDS = ("no_draw_offers", "no_draw_before_move", "report_leaving", "increment_possible")


@dataclass(frozen=True, slots=True)
class Regulations:
    """The start event's regulations (each field as its start field, defaults where left out)."""

    no_draw_offers: bool = False  # no draw offer or agreement at all without the arbiter's consent (9.1.1)
    no_draw_before_move: int | None = None  # none before each player has made this many moves (9.1.1)
    report_leaving: bool = False  # the opponent of the player having the move reports before leaving (11.2.4)
    increment_possible: bool = True  # the clocks can introduce the increment of Guidelines III.4

    def draws_restricted(self, moves_each: int) -> bool:
        """Does an offer or agreement need the arbiter's consent when each player has made ``moves_each``
        moves (the fewer of the two counts)?"""
        if self.no_draw_offers:
            return True
        return self.no_draw_before_move is not None and moves_each < self.no_draw_before_move

    def draw_rule_words(self) -> str:
        """The draw rule, in words: "no draw offer or agreement before move 30", "at all"."""
        if self.no_draw_offers:
            return "no draw may be offered or agreed without the arbiter's consent"
        return (f"no draw may be offered or agreed before each player has made {self.no_draw_before_move} moves, "
                "without the arbiter's consent")

    def to_json(self) -> dict[str, Any]:
        """The regulations set, as the game page shows them (only those set)."""
        out: dict[str, Any] = {}
        if self.no_draw_offers:
            out["no_draw_offers"] = True
        if self.no_draw_before_move is not None:
            out["no_draw_before_move"] = self.no_draw_before_move
        if self.report_leaving:
            out["report_leaving"] = True
        if not self.increment_possible:
            out["increment_possible"] = False
        return out


def regulations_from_start(ev: Event) -> Regulations:
    """The start event's regulation fields (``no_draw_offers``, ``no_draw_before_move``,
    ``report_leaving``, ``increment_possible``)."""
    before = ev.get("no_draw_before_move")
    return Regulations(
        no_draw_offers=bool(ev.get("no_draw_offers", False)),
        no_draw_before_move=None if before is None else int(before),
        report_leaving=bool(ev.get("report_leaving", False)),
        increment_possible=bool(ev.get("increment_possible", True)),
    )


__all__ = ["FIELDS", "Regulations", "regulations_from_start"]

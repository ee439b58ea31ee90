"""What ``chesslaws match`` prints for an even match: the Elo difference, each engine's Elo in the table and
the SPRT's log-likelihood ratio are 0.0, never "-0.0" (a negative zero) nor "+0.0"."""

from __future__ import annotations

import re

import pytest

from chesslaws.match import MatchReport, Sprt, Tally, elo_text, final_table, progress_line
from chesslaws.match.report import signed

#: A signed zero as a number prints: "-0.0", "+0.00".
SIGNED_ZERO = re.compile(r"[-+]0\.0+\b")


@pytest.mark.parametrize("tally", [Tally(draws=4), Tally(wins=2, draws=1, losses=2), Tally(wins=1, losses=1)],
                         ids=["all-drawn", "even", "one-each"])
def test_an_even_match_prints_no_signed_zero(tally: Tally) -> None:
    sprt = Sprt(0, 5, 0.05, 0.05)
    said = elo_text(tally)
    assert said.startswith("Elo 0.0"), said
    line = progress_line(tally, 10, ["A", "B"], sprt)
    table = final_table(MatchReport(tally, [], None, False, 1.0), ["A", "B"], sprt)
    for text in (said, line, table):
        assert not SIGNED_ZERO.search(text), text
    assert "Elo difference (A - B): 0.0" in table and "LLR 0.00" in table
    rows = {row.split()[0]: row.split() for row in table.splitlines()[1:3]}
    assert rows["A"][6] == rows["B"][6] == "0.0"


def test_signs_stay_where_the_number_has_one() -> None:
    assert signed(35.24) == "+35.2" and signed(-4.0) == "-4.0" and signed(-0.04) == "0.0"
    assert signed(-0.0) == "0.0" and signed(0.004, 2) == "0.00" and signed(-2.944, 2) == "-2.94"
    uneven = elo_text(Tally(wins=5, draws=3, losses=2))
    assert uneven.startswith("Elo +") and "±" in uneven

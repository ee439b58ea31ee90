"""The rules read an edition's differences from its fields (:class:`chesslaws.editions.Edition`, each with
the article that makes it), never from its name: a test of ``edition.name`` in the arbiter or the page's
controls would be a difference the Edition data does not state. Read from the source files themselves."""

from __future__ import annotations

import re
from pathlib import Path

from chesslaws.editions import EDITIONS

PKG = Path(__file__).resolve().parents[2] / "python" / "chesslaws"
#: ``x.name == …``, ``x.name != …``, ``x.name in …``, or a comparison with an edition's name.
NAME_TEST = re.compile(r"""\.name\s*(?:==|!=|\bin\b)"""
                       r"""|[!=]=\s*["'](?:1989|1997|2023)["']|["'](?:1989|1997|2023)["']\s*[!=]=""")


def test_the_rules_never_test_an_editions_name() -> None:
    files = sorted((PKG / "game").glob("*.py")) + [PKG / "server" / "controls.py"]
    found = [f"{p.relative_to(PKG)}:{n}: {line.strip()}" for p in files
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if NAME_TEST.search(line)]
    assert found == [], "give the difference a field of Edition (with its article) and test the field:\n" + \
        "\n".join(found)


def test_the_pattern_finds_a_name_test() -> None:
    assert NAME_TEST.search('if s.edition.name == "2023" and mode == "blitz":')
    assert NAME_TEST.search("if ed.name != '1989':")
    assert not NAME_TEST.search("raise GameError(ev, f\"the {ed.name} Laws have no such rule\")")


def test_the_editions_differ_where_their_fields_say() -> None:
    """A few of the fields, against the Laws' own numbers (1997 10.3, B.4; 2023 7.5.5, A.5.1.2, III.5.3)."""
    e89, e97, e23 = EDITIONS["1989"], EDITIONS["1997"], EDITIONS["2023"]
    assert (e89.illegal_move_penalty, e97.illegal_move_penalty, e23.illegal_move_penalty) == (
        "none", "quickplay_finish", "every_move")
    assert (e89.setup_claim_moves, e97.setup_claim_moves, e23.setup_claim_moves) == (0, 3, 10)
    assert (e97.quickplay_reject_gives_ms, e23.quickplay_reject_gives_ms) == (0, 120_000)
    assert (e89.colours_reversed, e97.colours_reversed, e23.colours_reversed) == (
        "quarter_time", "arbiter", "ten_moves")

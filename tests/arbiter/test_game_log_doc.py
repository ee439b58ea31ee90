"""docs/game-log.md documents every event type, field and choice the code accepts.

The log format is the project's contract with its users; a clone has no
shared/ folder, so the page in docs/ is where they read it. This test fails
when an event type, a field or a value of a choice is added to
chesslaws.events.SCHEMAS and not to the page, or when an event has no handler.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chesslaws.events import SCHEMAS
from chesslaws.game import HANDLERS

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-log.md"


def test_the_page_exists_and_the_readme_points_to_it() -> None:
    assert DOC.is_file()
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/game-log.md" in readme


def test_every_event_type_has_a_handler() -> None:
    assert set(SCHEMAS) - {"start"} == set(HANDLERS)


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_every_event_type_field_and_choice_is_documented(kind: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"`{kind}`" in text, f"event type {kind!r} is not in docs/game-log.md"
    schema = SCHEMAS[kind]
    for name in [*schema.required, *schema.optional]:
        assert f"`{name}`" in text, f"field {name!r} of {kind!r} is not in docs/game-log.md"
    for name, values in schema.choices.items():
        for value in values:
            assert f'"{value}"' in text or f"`{value}`" in text, (
                f"value {value!r} of {kind}.{name} is not in docs/game-log.md")

"""The arbiter's rulings in the reader's language: the English text of each ruling of a game's state
(:class:`~chesslaws.game.state.Ruling`), read against the ruling texts of ``chesslaws/data/texts.json`` (the
server texts named ``ruled_…``, and for what a ruling fills in the ``ruling_part_…`` texts, the refusals' parts
and the pages' texts) by the one reader of :mod:`chesslaws.server.refusals`, and written in German, French or
Spanish.

The arbiter (:mod:`chesslaws.game`) writes its rulings in English, as logs, ``replay`` and tests read them; only
a state sent to a reader of another language carries them in it (:func:`localise_rulings`). A ruling no text
reads stays English. Each text is translated once per language and kept (:data:`_KEPT`), so that a state
costs one look-up per ruling beside the English one it already writes.
"""

from __future__ import annotations

from typing import Any

from chesslaws.server.refusals import PART, PREFIX, Family, in_language, template_name

#: The prefix of the names of the ruling texts in ``texts.json``: a ruling whole.
RULED = "ruled_"
#: The prefix of the parts of rulings: English a ruling fills in (a penalty, a reason), translated only there.
RULING_PART = "ruling_part_"
#: The rulings: their texts, and for what they fill in their parts, the refusals' parts and the refusals, and
#: the rulings themselves (an appeal quotes the ruling it is against).
RULINGS = Family((RULED,), (RULING_PART, RULED, PART, PREFIX))
#: A ruling's text in a language, by (language, English text): shared by every game, bounded.
_KEPT: dict[tuple[str, str], str] = {}
#: How many translations are kept before they are all dropped (a text is read again when it comes again).
_KEEP = 1 << 15


def ruling_name(text: str) -> str | None:
    """The name of the ruling text that reads ``text`` (None: none does)."""
    return template_name(text, RULINGS)


def ruling_text(text: str, lang: str) -> str:
    """The English ruling ``text`` in ``lang`` (itself in English, in a language the texts lack, or when no
    ruling text reads it), made once per language and kept."""
    key = (lang, text)
    said = _KEPT.get(key)
    if said is None:
        said = in_language(text, lang, RULINGS)
        if len(_KEPT) >= _KEEP:
            _KEPT.clear()
        _KEPT[key] = said
    return said


def localise_rulings(rulings: list[dict[str, Any]], lang: str) -> None:
    """Each of ``rulings`` (as a state's JSON has them) with its ``text`` in ``lang``; left as they are in
    English."""
    if lang == "en":
        return
    for r in rulings:
        r["text"] = ruling_text(r["text"], lang)


__all__ = ["RULED", "RULING_PART", "RULINGS", "localise_rulings", "ruling_name", "ruling_text"]

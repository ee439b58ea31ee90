"""A refusal in the client's language: the English message a refusal carries, read against the refusal texts
of ``chesslaws/data/texts.json`` (the server texts named ``refused_…``) and written in German, French or
Spanish.

The services raise their refusals in English, as clients and logs read them; only the answer to a client
who asked for another language (:func:`translated`) changes. Each refusal text is a template: ``{name}``
stands for what the message fills in (a game id, a move, a number), taken over as it is, except a
``{reason}``, which is itself a refusal (what a ruling gives as the reason an event was not recorded) and is
translated in turn, and a player (``{player}``, ``{turn}``, ``{mover}``) named White or Black, whose name is
the pages' own text. A message no template reads stays English.
"""

from __future__ import annotations

import re
from functools import cache

from chesslaws.server.texts import LANGUAGES, server_texts, texts

#: The prefix of the names of the refusal texts in ``texts.json``.
PREFIX = "refused_"
#: What a refusal text fills in: ``{name}``.
_FILLED = re.compile(r"\{(\w+)\}")
#: Filled-in parts that are refusals themselves, translated in turn.
_NESTED = frozenset({"reason"})
#: Filled-in parts that name a player by his colour ("White", "Black": the pages' texts).
_COLOURS = frozenset({"player", "turn", "mover"})


@cache
def _templates() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(the English template as a pattern, the text's name), the most specific first (the most literal
    characters), so that a general template ("{what}: {reason}") never reads what a specific one names."""
    found = []
    for name, by_lang in server_texts().items():
        if not name.startswith(PREFIX):
            continue
        english = by_lang["en"]
        parts, last = [], 0
        for m in _FILLED.finditer(english):
            parts.append(re.escape(english[last:m.start()]))
            parts.append(f"(?P<{m.group(1)}>.+?)")
            last = m.end()
        parts.append(re.escape(english[last:]))
        literal = len(_FILLED.sub("", english))
        found.append((literal, re.compile("".join(parts), re.S), name))
    found.sort(key=lambda x: -x[0])
    return tuple((pattern, name) for _, pattern, name in found)


def refusal_name(message: str) -> str | None:
    """The name of the refusal text that reads ``message`` (None: none does)."""
    for pattern, name in _templates():
        if pattern.fullmatch(message):
            return name
    return None


def translated(message: str, lang: str) -> str:
    """``message`` (an English refusal) in ``lang``: itself in English, in a language the texts lack, or when
    no refusal text reads it."""
    if lang == "en" or lang not in LANGUAGES or not message:
        return message
    return _translated(message, lang, 0)


def _translated(message: str, lang: str, depth: int) -> str:
    for pattern, name in _templates():
        m = pattern.fullmatch(message)
        if m is None:
            continue
        values = {k: (_translated(v, lang, depth + 1) if k in _NESTED and depth < 3
                      else texts(lang)[v] if k in _COLOURS and v in ("White", "Black") else v)
                  for k, v in m.groupdict().items()}
        return _FILLED.sub(lambda f: values.get(f.group(1), f.group(0)), server_texts()[name][lang])
    return message


__all__ = ["PREFIX", "refusal_name", "translated"]

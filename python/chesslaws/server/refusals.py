"""A refusal in the client's language: the English message a refusal carries, read against the refusal texts
of ``chesslaws/data/texts.json`` (the server texts named ``refused_…``) and written in German, French or
Spanish.

The services and the arbiter raise their refusals in English, as clients, logs and tests read them; only the
answer to a client who asked for another language (:func:`translated`) changes. Each refusal text is a
template: ``{name}`` stands for what the message fills in (a game id, a move, a number), taken over as it is,
except

- a part that is itself English (:data:`_NESTED`: a ``{reason}`` a ruling gives, a ``{span}`` of time, a
  ``{penalty}``…), translated in turn by the refusal texts and the parts of refusals (the server texts named
  ``refusal_part_…``, which only ever fill in a refusal), else by the pages' texts (a piece, "{n} minutes"),
  and
- a player (:data:`_COLOURS`: ``{player}``, ``{turn}``…) named by his colour, whose name is the pages' own text
  ("White", "Weiß").

A name that comes twice in a template stands for the same value both times. A message no template reads stays
English.

Matching the English text, rather than carrying a text's name from where the refusal is raised, keeps the
arbiter (``chesslaws.game``) and the services free of any knowledge of languages and leaves every English
message word for word as it was; ``tests/server/test_i18n_keys.py`` reads every refusal written in the code and
fails on one that no template reads.

The same reading serves every English text the arbiter writes for a person (:class:`Family`): the rulings of
:mod:`chesslaws.server.rulingtexts` are read by their own texts the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from chesslaws.server.texts import LANGUAGES, page_texts, server_texts, texts

#: The prefix of the names of the refusal texts in ``texts.json``.
PREFIX = "refused_"
#: The prefix of the parts of refusals: English a refusal fills in, translated only there.
PART = "refusal_part_"
#: What a refusal text fills in: ``{name}``.
_FILLED = re.compile(r"\{(\w+)\}")
#: Filled-in parts that are English themselves (a refusal, or a part of one), translated in turn.
_NESTED = frozenset({"reason", "why", "span", "claim", "said", "penalty", "conduct", "what", "piece", "expected",
                     "language", "verdict", "ending", "since", "duty", "status", "extra", "mode", "nth", "tail",
                     "aside", "shade"})
#: Filled-in parts that may be empty (a sentence added or not, a remark in brackets or not): translated as parts.
_OPTIONAL = frozenset({"tail", "aside"})
#: Filled-in parts that are a colour's name and nothing else: read as the word itself, so that what follows one
#: at once ("{side}{why}") is read apart from it.
_SIDES = frozenset({"side", "winner", "loser", "claimant", "offender", "flagged", "absent", "replier", "against",
                    "mover2", "other_side"})
#: Filled-in parts that name a player by his colour ("White", "Black", "white", "black": the pages' texts).
_COLOURS = frozenset({"player", "turn", "mover", "opponent", "sealer", "colour"}) | _SIDES
#: What a part of :data:`_SIDES` reads: the colour's English name.
_SIDE = "White|Black|white|black"
#: The pages' texts with something filled in that fill in refusals too (a span of time), read as parts.
_PAGE_PARTS = ("{n} seconds", "{n} minutes", "{n} hours")
#: How deep parts are translated within parts.
_DEPTH = 4


@dataclass(frozen=True, slots=True)
class Family:
    """English texts one kind of code makes, read by the server texts whose names begin with ``whole`` (a whole
    message) and, for what a message fills in, by those beginning with ``parts`` (and the pages' texts of
    :data:`_PAGE_PARTS`)."""

    whole: tuple[str, ...]
    parts: tuple[str, ...]


#: The refusals: the refusal texts, and for what they fill in the refusals and their parts.
REFUSALS = Family((PREFIX,), (PREFIX, PART))


@cache
def _templates(prefixes: tuple[str, ...], parts: bool) -> tuple[tuple[re.Pattern[str], str], ...]:
    """(the English template as a pattern, the text's name: a server text's, or a page text's English), the
    most specific first (the most literal characters), so that a general template ("field {field}: {reason}")
    never reads what a specific one names.
    ``prefixes``: the names of the server texts read; ``parts``: the pages' texts that fill in parts too."""
    found = []
    named = [(name, by_lang["en"]) for name, by_lang in server_texts().items() if name.startswith(prefixes)]
    for name, english in named + ([(english, english) for english in _PAGE_PARTS] if parts else []):
        pieces, last, seen = [], 0, set()
        for m in _FILLED.finditer(english):
            pieces.append(re.escape(english[last:m.start()]))
            field = m.group(1)
            # A colour alone is a word: it ends where the word does.
            value = _SIDE if field in _SIDES else ".*?" if field in _OPTIONAL else ".+?"
            pieces.append(f"(?P={field})" if field in seen else f"(?P<{field}>{value})")
            seen.add(field)
            last = m.end()
        pieces.append(re.escape(english[last:]))
        literal = len(_FILLED.sub("", english))
        found.append((literal, re.compile("".join(pieces), re.S), name))
    found.sort(key=lambda x: -x[0])
    return tuple((pattern, name) for _, pattern, name in found)


def template_name(message: str, family: Family) -> str | None:
    """The name of the text of ``family`` that reads ``message`` whole (None: none does)."""
    for pattern, name in _templates(family.whole, False):
        if pattern.fullmatch(message):
            return name
    return None


def refusal_name(message: str) -> str | None:
    """The name of the refusal text that reads ``message`` (None: none does)."""
    return template_name(message, REFUSALS)


def in_language(message: str, lang: str, family: Family) -> str:
    """``message`` (English, as code of ``family`` makes it) in ``lang``: itself in English, in a language the
    texts lack, or when no text of ``family`` reads it."""
    if lang == "en" or lang not in LANGUAGES or not message:
        return message
    return _translated(message, lang, 0, family)


def translated(message: str, lang: str) -> str:
    """``message`` (an English refusal) in ``lang``: itself in English, in a language the texts lack, or when
    no refusal text reads it."""
    return in_language(message, lang, REFUSALS)


def _translated(message: str, lang: str, depth: int, family: Family) -> str:
    """``message`` in ``lang``: a whole message (``depth`` 0), or a part one fills in (deeper)."""
    for pattern, name in _templates(family.parts, True) if depth else _templates(family.whole, False):
        m = pattern.fullmatch(message)
        if m is None:
            continue
        values = {k: _filled(k, v, lang, depth, family) for k, v in m.groupdict().items()}
        text = server_texts()[name][lang] if name in server_texts() else page_texts()[name][lang]
        return _FILLED.sub(lambda f: values.get(f.group(1), f.group(0)), text)
    return message


def _filled(name: str, value: str, lang: str, depth: int, family: Family) -> str:
    """What a message fills in as ``name``, in ``lang``."""
    if not value:
        return value
    if name in _NESTED and depth < _DEPTH:
        said = _translated(value, lang, depth + 1, family)
        return said if said != value else page_texts().get(value, {}).get(lang, value)
    if name in _COLOURS and value in ("White", "Black", "white", "black"):
        return texts(lang)[value.capitalize()]
    return value


__all__ = ["PART", "PREFIX", "REFUSALS", "Family", "in_language", "refusal_name", "template_name", "translated"]

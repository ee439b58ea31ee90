"""The texts of the game server and of its pages in English, German, French and Spanish, read from the one
file that holds them all, ``chesslaws/data/texts.json``.

Its ``server`` texts are named (``"threefold"``, ``"title_fifty"``) and written in the four languages; its
``page`` texts are named by their English, as the pages' ``T()`` and ``data-i18n`` look them up, and written
in the three other languages. The server reads both (:func:`texts`: a page text by its English, so that a
label the page and the server's dialogs share is written once); the pages receive theirs as
``window.I18N`` (:func:`page_script`, served by :mod:`chesslaws.webapp.texts`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

#: The languages of the texts, English first: a language the texts lack falls back to it.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")


@cache
def _table() -> dict[str, Any]:
    data = resources.files("chesslaws").joinpath("data/texts.json").read_text(encoding="utf-8")
    table: dict[str, Any] = json.loads(data)
    if tuple(table["languages"]) != LANGUAGES:
        raise ValueError(f"texts.json: the languages are {LANGUAGES}, not {table['languages']}")
    return table


def server_texts() -> Mapping[str, Mapping[str, str]]:
    """The server's texts: name -> language -> text."""
    return MappingProxyType(_table()["server"])


def page_texts() -> Mapping[str, Mapping[str, str]]:
    """The pages' texts: English text -> language (other than English) -> text."""
    return MappingProxyType(_table()["page"])


@cache
def texts(lang: str) -> Mapping[str, str]:
    """Every text in ``lang`` (English when the texts lack it): the server's by name, the pages' by their
    English."""
    code = lang if lang in LANGUAGES else "en"
    out = {english: english if code == "en" else by_lang[code] for english, by_lang in page_texts().items()}
    out.update({name: by_lang[code] for name, by_lang in server_texts().items()})
    return MappingProxyType(out)


def page_dictionaries() -> dict[str, dict[str, str]]:
    """What the pages' ``T()`` reads as ``window.I18N``: language -> English text -> text, for every language
    but English."""
    return {code: {english: by_lang[code] for english, by_lang in page_texts().items()} for code in LANGUAGES[1:]}


@cache
def page_script() -> str:
    """The script that gives the pages their texts (``window.I18N``), loaded before ``i18n.js``."""
    body = json.dumps(page_dictionaries(), ensure_ascii=False, separators=(",", ":"))
    return f"window.I18N = {body};\n"


__all__ = ["LANGUAGES", "page_dictionaries", "page_script", "page_texts", "server_texts", "texts"]

"""The page's texts in every language it offers: each English text a script passes to T() (or to tc.js's
tr()) has its German, French and Spanish entry in i18n.js, and no toast shows a literal English text that
bypasses T(). Read from the files themselves, so a text added without its translations fails here, not in
front of a German player."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "python" / "chesslaws" / "web"
#: T("…") and tr("…") with a literal English text: its key in the dictionaries.
CALL = re.compile(r"""\b(?:T|tr)\(\s*"((?:[^"\\]|\\.)*)"|\b(?:T|tr)\(\s*'((?:[^'\\]|\\.)*)'""")
#: toast("…"), confirmAsk("…", …): a literal shown as it is, whatever the page's language.
LITERAL_TOAST = re.compile(r"""\b(?:toast|confirmAsk)\(\s*["'`]""")


def dictionaries() -> dict[str, dict[str, str]]:
    src = (WEB / "i18n.js").read_text(encoding="utf-8")
    start = src.index("window.I18N = ") + len("window.I18N = ")
    end = src.index("\n};", start) + 2
    return dict(json.loads(src[start:end]))


def keys() -> dict[str, list[str]]:
    """Each literal key and where it is used (file:line)."""
    out: dict[str, list[str]] = {}
    for path in sorted(WEB.glob("*.js")):
        if path.name == "i18n.js":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CALL.finditer(line):
                raw = m.group(1) if m.group(1) is not None else m.group(2)
                key = json.loads('"' + raw.replace("\\'", "'") + '"')
                out.setdefault(key, []).append(f"{path.name}:{n}")
    return out


def test_the_dictionaries_are_read_and_the_scripts_use_them() -> None:
    d = dictionaries()
    assert set(d) == {"de", "fr", "es"} and all(len(v) > 100 for v in d.values())
    assert len(keys()) > 50


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_every_text_a_script_translates_has_its_translation(lang: str) -> None:
    table = dictionaries()[lang]
    missing = {k: where for k, where in keys().items() if k not in table}
    assert missing == {}, f"{len(missing)} texts without their {lang} translation (add them to i18n.js)"


def test_no_toast_or_dialog_shows_an_english_literal() -> None:
    found = [f"{p.name}:{n}: {line.strip()}" for p in sorted(WEB.glob("*.js")) if p.name != "i18n.js"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if LITERAL_TOAST.search(line)]
    assert found == [], "toast(T(...)), confirmAsk(T(...)) so that the text follows the page's language:\n" + "\n".join(found)

"""The texts of the server and the pages in every language they offer, written once in
chesslaws/data/texts.json: every text in all four languages with the same {names} to fill in; each English
text a script passes to T() (or to tc.js's tr()) has its German, French and Spanish entry; no toast shows a
literal English text that bypasses T(); and the pages receive the texts as the server reads them. Read from
the files themselves, so a text added without its translations fails here, not in front of a German player."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from chesslaws.server.messages import NOT_DONE
from chesslaws.server.refusals import PREFIX, refusal_name, translated
from chesslaws.server.texts import LANGUAGES, page_dictionaries, page_script, page_texts, server_texts, texts
from chesslaws.webapp.acting import NO_SEAT, SPECTATOR
from chesslaws.webapp.texts import TEXTS_PATH, router

WEB = Path(__file__).resolve().parents[2] / "python" / "chesslaws" / "web"
#: T("…") and tr("…") with a literal English text: its key in the dictionaries.
CALL = re.compile(r"""\b(?:T|tr)\(\s*"((?:[^"\\]|\\.)*)"|\b(?:T|tr)\(\s*'((?:[^'\\]|\\.)*)'""")
#: toast("…"), confirmAsk("…", …): a literal shown as it is, whatever the page's language.
LITERAL_TOAST = re.compile(r"""\b(?:toast|confirmAsk)\(\s*["'`]""")


#: What a text fills in: "{name}".
FILLED = re.compile(r"\{(\w+)\}")


def dictionaries() -> dict[str, dict[str, str]]:
    return page_dictionaries()


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
    assert missing == {}, f"{len(missing)} texts without their {lang} translation (add them to data/texts.json)"


def test_no_toast_or_dialog_shows_an_english_literal() -> None:
    found = [f"{p.name}:{n}: {line.strip()}" for p in sorted(WEB.glob("*.js")) if p.name != "i18n.js"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if LITERAL_TOAST.search(line)]
    assert found == [], "toast(T(...)), confirmAsk(T(...)) so that the text follows the page's language:\n" + "\n".join(found)


def test_every_text_is_in_every_language_with_the_same_names_to_fill_in() -> None:
    assert LANGUAGES == ("en", "de", "fr", "es")
    wrong = [f"server {name}: {sorted(by_lang)}" for name, by_lang in server_texts().items()
             if tuple(by_lang) != LANGUAGES or not all(isinstance(t, str) and t.strip() for t in by_lang.values())]
    wrong += [f"page {english!r}: {sorted(by_lang)}" for english, by_lang in page_texts().items()
              if tuple(by_lang) != LANGUAGES[1:] or not all(isinstance(t, str) and t.strip() for t in by_lang.values())]
    assert wrong == [], "each server text in en, de, fr, es; each page text (by its English) in de, fr, es"
    english = {**{name: by_lang["en"] for name, by_lang in server_texts().items()}, **{e: e for e in page_texts()}}
    table = {**server_texts(), **page_texts()}
    unlike = [f"{key!r} {code}" for key, by_lang in table.items() for code, text in by_lang.items()
              if set(FILLED.findall(text)) != set(FILLED.findall(english[key]))]
    assert unlike == []


def test_a_text_is_written_once() -> None:
    """No server text is a page text again under a name (the server uses the page's, by its English), and no
    name of a server text is also a page text's English."""
    page = set(page_texts())
    assert [n for n, by_lang in server_texts().items() if by_lang["en"] in page] == []
    assert set(server_texts()) & page == set()


def test_the_server_reads_every_text_in_each_language() -> None:
    assert texts("de")["threefold"] == server_texts()["threefold"]["de"]
    assert texts("de")["Cancel"] == page_texts()["Cancel"]["de"] and texts("en")["Cancel"] == "Cancel"
    assert texts("xx") == texts("en")


def test_the_pages_receive_the_texts_as_the_server_reads_them() -> None:
    script = page_script()
    assert script.startswith("window.I18N = ") and script.endswith(";\n")
    assert json.loads(script[len("window.I18N = "):-2]) == dictionaries()
    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as client:
        first = client.get(TEXTS_PATH)
        assert first.status_code == 200 and first.text == script
        assert first.headers["content-type"].startswith("text/javascript")
        again = client.get(TEXTS_PATH, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304
    for page in ("index.html", "game.html"):  # the texts first, then the script that applies them
        html = (WEB / page).read_text(encoding="utf-8")
        assert f'<script src="{TEXTS_PATH}"></script>\n<script src="/static/i18n.js"></script>' in html, page


# --- the server's refusals ------------------------------------------------------------------------------

SERVER_CODE = [Path(__file__).resolve().parents[2] / "python" / "chesslaws" / d for d in ("server", "webapp")]


def raised_refusals() -> dict[str, str]:
    """Each refusal the server and the web layer raise with a message written in the code (a string or an
    f-string): where, and the message with every filled-in value written ``x`` (a prefix ``what`` empty)."""
    found: dict[str, str] = {}
    for folder in SERVER_CODE:
        for path in sorted(folder.glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or len(node.args) < 2:
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                status, text = node.args[0], node.args[1]
                if name not in ("ApiError", "Refused", "__init__") or not isinstance(status, ast.Constant) \
                        or not isinstance(status.value, int) or not 400 <= status.value < 600:
                    continue
                if isinstance(text, ast.Constant) and isinstance(text.value, str):
                    found[f"{path.name}:{node.lineno}"] = text.value
                elif isinstance(text, ast.JoinedStr):
                    found[f"{path.name}:{node.lineno}"] = "".join(
                        str(v.value) if isinstance(v, ast.Constant)
                        else "" if isinstance(v, ast.FormattedValue) and ast.unparse(v.value) == "what" else "x"
                        for v in text.values)
    return found


def test_every_refusal_the_server_raises_has_its_translations() -> None:
    """A refusal added in English alone fails here: each one the code raises, the web layer's own, and what the
    rulings' refusals begin with (what was not done) are read by a refusal text of texts.json."""
    found = raised_refusals()
    assert len(found) > 60
    found.update({f"messages.NOT_DONE[{k!r}]": f"{v}: x." for k, v in NOT_DONE.items()})
    found.update({"acting.NO_SEAT": NO_SEAT, "acting.SPECTATOR": SPECTATOR,
                  "app: a fault": "the server failed on this request; the fault is logged for its operator",
                  "socket: a fault": "the server failed on this message; the fault is logged for its operator"})
    missing = {where: text for where, text in found.items() if refusal_name(text) is None}
    assert missing == {}, "refusals without a text of their own in data/texts.json (refused_...)"
    for text in found.values():
        assert translated(text, "en") == text
        for lang in ("de", "fr", "es"):
            assert translated(text, lang) != text, (lang, text)


def test_a_rulings_refusal_is_translated_with_its_reason_and_the_players() -> None:
    said = "Your move was not played: it is White's move, not Black's."
    assert translated(said, "de") == "Ihr Zug wurde nicht ausgeführt: Weiß ist am Zug, nicht Schwarz."
    assert translated(said, "xx") == said and translated("anything else", "de") == "anything else"
    assert refusal_name(NO_SEAT) == "refused_no_seat" and PREFIX == "refused_"

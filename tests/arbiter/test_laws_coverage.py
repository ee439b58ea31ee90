"""The audit table (docs/laws_coverage.py -> docs/laws-coverage.md) cannot rot.

Every code reference must name a real function, class or attribute of the
chesslaws package; every test reference a real test; every row has code and
tests, or says why software has nothing to do; every numbered paragraph of
the 1989 and 1997 texts in shared/laws has a row (skipped in a clone without
shared/), and so has every paragraph of the 2023 text (its numbers are in
tests/data/laws2023-articles.tsv); and the page in docs/ is the one the table renders.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAWS = next((p for p in (ROOT.parent / "shared" / "laws",) if p.is_dir()), None)  # shared/ beside the checkout


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("laws_coverage", ROOT / "docs" / "laws_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    import sys

    sys.modules["laws_coverage"] = module
    spec.loader.exec_module(module)
    return module


COV = load()


def expand(article: str) -> list[str]:
    """ "11.1-11.9" -> 11.1 ... 11.9; "A.2-A.3" -> A.2, A.3; anything else as it is."""
    m = re.fullmatch(r"(.*?)(\d+)-\1(\d+)", article)
    if not m:
        return [article]
    return [f"{m.group(1)}{n}" for n in range(int(m.group(2)), int(m.group(3)) + 1)]


def covered(edition: str) -> set[str]:
    return {a for row in COV.ROWS + COV.GAPS if row.edition == edition for a in expand(row.article)}


def test_every_code_reference_exists() -> None:
    missing = []
    for row in COV.ROWS:
        for ref in row.code:
            module, _, name = ref.partition(":")
            obj: object = importlib.import_module(f"chesslaws.{module}")
            for part in name.split("."):
                if part in getattr(obj, "__dataclass_fields__", {}):
                    obj = None
                    break
                if not hasattr(obj, part):
                    missing.append(f"{row.edition} {row.article}: {ref}")
                    break
                obj = getattr(obj, part)
    assert not missing, missing


def test_every_test_reference_exists() -> None:
    missing = []
    for row in COV.ROWS:
        for ref in row.tests:
            path, _, name = ref.partition("::")
            file = ROOT / "tests" / path
            if not file.is_file() or not re.search(rf"^def {re.escape(name)}\(", file.read_text(encoding="utf-8"), re.M):
                missing.append(f"{row.edition} {row.article}: {ref}")
    assert not missing, missing


def test_every_row_has_code_and_tests_or_a_reason() -> None:
    for row in COV.ROWS:
        assert (row.code and row.tests and not row.why) or (not row.code and not row.tests and row.why), row
        assert "not yet" not in (row.subject + row.why).lower(), row


def test_the_page_is_up_to_date() -> None:
    page = (ROOT / "docs" / "laws-coverage.md").read_text(encoding="utf-8")
    assert page == COV.render(), "run: python docs/laws_coverage.py"


def test_2023_articles_and_appendices_are_all_there() -> None:
    """The 2023 text is not in shared/: its parts are listed here, each must have a row."""
    have = covered("2023")
    for article in range(1, 13):
        assert any(a.split(".")[0] == str(article) for a in have), f"2023 Article {article}"
    for part in ("A", "B", "C", "D", "I", "II", "III"):
        assert any(a.split(".")[0] == part for a in have), f"2023 {part}"


@pytest.mark.skipif(LAWS is None, reason="shared/laws is not beside this checkout")
def test_every_paragraph_of_the_1989_text_has_a_row() -> None:
    assert LAWS is not None
    text = (LAWS / "laws-1989.txt").read_text(encoding="utf-8")
    numbers = set(re.findall(r"^(\d+\.\d+)\s*$", text, re.M))
    numbers |= {m for m in re.findall(r"^Article (\d+):", text, re.M) if m == "17"}
    missing = sorted(numbers - covered("1989"))
    assert not missing, missing
    assert {str(n) for n in range(1, 8)} <= covered("1989")


@pytest.mark.skipif(LAWS is None, reason="shared/laws is not beside this checkout")
def test_every_paragraph_of_the_1997_text_has_a_row() -> None:
    assert LAWS is not None
    lines = (LAWS / "laws-1997.txt").read_text(encoding="utf-8").splitlines()
    numbers: set[str] = set()
    appendix = None
    for line in lines[50:]:
        head = re.match(r"^([A-E])\. ", line)
        if head:
            appendix = head.group(1)
        m = re.match(r"^ *• (\d+)\.(\d+)?\.? ", line)
        if not m:
            continue
        if m.group(2) and appendix is None:
            numbers.add(f"{m.group(1)}.{m.group(2)}")
        elif appendix is not None and not m.group(2):
            numbers.add(f"{appendix}.{m.group(1)}")
    assert len(numbers) > 100
    missing = sorted(numbers - covered("1997"))
    assert not missing, missing


def _laws2023() -> list[str]:
    """The paragraphs of the 2023 text, from tests/data/laws2023-articles.tsv (read from the text)."""
    lines = (ROOT / "tests" / "data" / "laws2023-articles.tsv").read_text(encoding="utf-8").splitlines()
    return [line.split("\t")[0] for line in lines if line and not line.startswith("#")]


def test_every_paragraph_of_the_2023_text_has_a_row() -> None:
    """A paragraph is covered by its own row or by a row of the paragraph that holds it (9.2 covers
    9.2.1); a paragraph that only holds others (9.1, A.5) is covered through them."""
    numbers = _laws2023()
    have = covered("2023")
    missing = [n for n in numbers
               if not any(n == a or n.startswith(a + ".") for a in have)
               and not any(m.startswith(n + ".") for m in numbers)]
    assert not missing, missing


def test_every_2023_row_names_paragraphs_of_the_2023_text() -> None:
    numbers = _laws2023()
    wrong = [f"{row.article}: {a}" for row in COV.ROWS + COV.GAPS if row.edition == "2023" for a in expand(row.article)
             if a not in numbers and not any(m.startswith(a + ".") for m in numbers)
             and not re.fullmatch(r"\d+", a)]
    assert not wrong, wrong


def test_the_log_column_names_real_rows_and_leaves_no_article_inexpressible() -> None:
    """Every row says whether its article can be written in the game log; the
    sentences and extra references are keyed by rows that exist; no row is left "no" (what is
    missing would be named in a "partly" sentence, never hidden)."""
    keys = {(row.edition, row.article) for row in COV.ROWS}
    assert set(COV.LOG) <= keys and set(COV.EXTEND) <= keys
    values = {(row.edition, row.article): COV.expressible(row) for row in COV.ROWS}
    left = {key: v for key, v in values.items() if not (v == "yes" or v.startswith(("yes: ", "— ")))}
    assert not left, f"rows not (or only partly) expressible in the log: {left}"
    assert "expressible in the log" in (ROOT / "docs" / "laws-coverage.md").read_text(encoding="utf-8")


def test_issue_25s_rows_are_expressible() -> None:
    """The arbiter who observes some things (2023 A.5), 8.6, A.4.3, the signed result (8.7), Appendix D's
    slip and assistant, explanations and appeals (2023 11.9-11.12) can all be written in the log: no row is
    "partly" or "no"."""
    rows = {(row.edition, row.article): COV.expressible(row) for row in COV.ROWS}
    assert [key for key, v in rows.items() if v.startswith("partly") or v == "no"] == []
    for key in [("2023", "A.5"), ("2023", "A.4"), ("2023", "8.1-8.7"), ("1997", "8.5-8.6"), ("1989", "11.1-11.9"),
                ("2023", "D.2.8"), ("2023", "D.2.10-D.2.11"), ("2023", "11.9-11.12"), ("1997", "13.1-13.3"),
                ("1989", "16.1-16.3")]:
        assert rows[key].startswith("yes"), (key, rows[key])

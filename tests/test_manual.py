"""The manual (docs/, built by mkdocs-material, served at /manual): its HTTP reference is the server's own
OpenAPI description, its screenshots are made by the browser tests, its examples run as written, and the
server serves it under a Content-Security-Policy that lets only the theme's own inline scripts run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)


def blocks(kind: str) -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for lang, body in FENCE.findall(page.read_text(encoding="utf-8")):
            if lang == kind:
                found.append((str(page.relative_to(ROOT)), body))
    return found


def test_the_http_reference_is_the_servers_description() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    from openapi import TARGET, spec_text

    assert TARGET.read_text(encoding="utf-8") == spec_text(), (
        "docs/reference/openapi.json is not the server's OpenAPI description: run "
        "PYTHONPATH=python python3 tools/openapi.py")


def test_every_picture_of_the_manual_is_made_by_the_browser_tests() -> None:
    made = set(re.findall(r'(?:shoot|terminal)\(page, "([\w-]+)"', (ROOT / "tests/server/test_manual_shots.py").read_text()))
    shown = set()
    for page in PAGES:
        for src in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            name = Path(src).name
            m = re.fullmatch(r"([\w-]+)-(1280|390)\.png", name)
            assert m, f"{page.name}: {src} is not a screenshot of tests/server/test_manual_shots.py"
            shown.add(m.group(1))
            assert (page.parent / src).resolve().is_file(), f"{page.name}: {src} is missing (run that test)"
    assert shown <= made, f"shown but made by no test: {shown - made}"
    assert made <= shown, f"made for the manual but shown nowhere: {made - shown}"


@pytest.mark.parametrize("where,code", blocks("python"), ids=lambda x: x if x.endswith(".md") else "")
def test_the_python_examples_run(where: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, where, "exec"), {"__name__": "__manual__"})


@pytest.mark.parametrize("where,session", blocks("console"), ids=lambda x: x if x.endswith(".md") else "")
def test_the_console_examples_print_what_the_manual_shows(where: str, session: str) -> None:
    """A ``console`` block: each ``$ chesslaws …`` line is run from the project's root, and the lines shown
    after it are the first lines it prints."""
    runs: list[tuple[str, list[str]]] = []
    for line in session.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        elif runs:
            runs[-1][1].append(line)
    assert runs, f"{where}: a console block with no command"
    for command, shown in runs:
        words = command.split()
        assert words[0] == "chesslaws", f"{where}: {command}"
        out = subprocess.run([sys.executable, "-m", "chesslaws.cli", *words[1:]], cwd=ROOT, capture_output=True,
                             text=True, env={**os.environ, "COLUMNS": "120"})
        assert out.returncode in (0, 1), out.stderr
        assert out.stdout.splitlines()[: len(shown)] == shown, f"{where}: {command}"

"""The manual served by the server itself (/manual): its pages under a Content-Security-Policy that names the
theme's inline scripts by their hashes (no other inline script runs), nothing outside its folder, a page that
says how to build it when the package has none, and in Chromium every guide readable at 1280 and 390 px with
no request leaving the server and no script refused."""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chesslaws.webapp import create_app, manual
from conftest import at_390, needs_chromium

GUIDES = ["player", "organiser", "arbiter", "curator", "engines", "operator"]


def test_a_page_names_its_inline_scripts_and_nothing_outside_is_served(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "manual"
    (site / "guides" / "player").mkdir(parents=True)
    script = b"var palette = 1;"
    (site / "index.html").write_bytes(b"<html><script>" + script + b"</script><script src=x.js></script></html>")
    (site / "guides" / "player" / "index.html").write_text("<html>the player</html>")
    (site / "404.html").write_text("<html>not here</html>")
    (tmp_path / "secret.txt").write_text("secret")
    monkeypatch.setattr(manual, "MANUAL_DIR", site)
    with TestClient(create_app(str(tmp_path / "g.sqlite3"))) as c:
        r = c.get("/manual/")
        assert r.status_code == 200 and "palette" in r.text
        digest = base64.b64encode(hashlib.sha256(script).digest()).decode()
        csp = r.headers["content-security-policy"]
        assert f"'sha256-{digest}'" in csp and "unsafe-inline" not in csp
        assert len(r.headers.get_list("content-security-policy")) == 1
        assert c.get("/manual/guides/player").text == "<html>the player</html>"
        assert c.get("/manual", follow_redirects=False).status_code == 308
        for sneaky in ("/manual/../secret.txt", "/manual/%2e%2e/secret.txt", "/manual/..%2fsecret.txt"):
            r = c.get(sneaky)
            assert "secret" not in r.text, sneaky
        assert c.get("/manual/no/such/page").status_code == 404
        # Every other page keeps the server's own policy, with no hash in it.
        assert "sha256" not in c.get("/").headers["content-security-policy"]


def test_without_a_built_manual_the_page_says_how_to_build_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(manual, "MANUAL_DIR", tmp_path / "none")
    with TestClient(create_app(str(tmp_path / "g.sqlite3"))) as c:
        r = c.get("/manual/", headers={"Accept-Language": "de-DE,de;q=0.9"})
        assert r.status_code == 404 and "pip install ." in r.text and "Handbuch" in r.text


@needs_chromium
def test_every_guide_reads_offline_in_the_browser(server: Any, browser: Any, shots: Path) -> None:
    if not (manual.MANUAL_DIR / "index.html").is_file():
        # CI installs the package as a user does (.ci/run: pip install .), whose build makes the manual: there
        # its absence is a defect of the package, not a reason to skip.
        assert not os.environ.get("CI"), f"the installed package has no manual ({manual.MANUAL_DIR})"
        pytest.skip("the manual is not built into this installation (pip install . builds it; or mkdocs build)")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    refused: list[str] = []
    outside: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server.url) else None)
    for guide in GUIDES:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{server.url}/manual/guides/{guide}/")
        page.wait_for_selector("article h1")
        page.screenshot(path=str(shots / f"manual-{guide}-1280.png"))
        at_390(page, shots, f"manual-{guide}")
    # The search runs (its worker and index are the server's own files).
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server.url}/manual/")
    page.keyboard.press("s")
    page.fill("input[data-md-component=search-query]", "adjournment")
    page.wait_for_selector(".md-search-result__item")
    assert refused == [] and outside == []
    ctx.close()

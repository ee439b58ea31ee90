"""``GET /manual/...``: the manual, served by the server itself (a club's server may have no Internet).

The manual is built by mkdocs-material from ``docs/`` into the package's ``manual`` folder when the package
is built (``tools/build_backend.py``). Its pages carry a few small inline scripts of the theme (the colour
scheme, the search's scope): each page's ``Content-Security-Policy`` names them by their hashes, so no other
inline script runs, as on every other page of the server. Without a built manual, ``/manual`` says how to
build it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from chesslaws.server.guard import CSP
from chesslaws.server.texts import texts
from chesslaws.webapp.context import WEB_DIR

MANUAL_DIR = WEB_DIR.parent / "manual"

router = APIRouter(include_in_schema=False)

_INLINE = re.compile(rb"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", re.S)


@lru_cache(maxsize=4)
def policy(root: Path) -> str:
    """The server's Content-Security-Policy with the hashes of the manual's inline scripts added."""
    hashes: set[str] = set()
    for page in root.rglob("*.html"):
        for attrs, body in _INLINE.findall(page.read_bytes()):
            if b"application/json" not in attrs:
                hashes.add("'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'")
    return CSP.replace("script-src 'self'", "script-src 'self' " + " ".join(sorted(hashes)), 1)


def file_of(path: str, root: Path) -> Path | None:
    """The file a path of the manual names (a folder: its index.html), or None; never outside the manual."""
    target = (root / path).resolve()
    if not target.is_relative_to(root.resolve()):
        return None
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


@router.get("/manual")
async def manual_root() -> Response:
    return RedirectResponse("/manual/", status_code=308)


@router.get("/manual/{path:path}")
async def manual_page(path: str, request: Request) -> Response:
    root = MANUAL_DIR
    if not (root / "index.html").is_file():
        lang = request.query_params.get("lang") or request.headers.get("accept-language", "en")[:2].lower()
        text = texts(lang)["manual_missing"]
        return HTMLResponse(f"<!doctype html><meta charset=utf-8><title>chesslaws</title><p>{text}</p>",
                            status_code=404)
    found = file_of(path, root)
    if found is None:
        found, status = root / "404.html", 404
    else:
        status = 200
    headers = {"Content-Security-Policy": policy(root), "Cache-Control": "public, max-age=300"}
    return FileResponse(found, status_code=status, headers=headers)


__all__ = ["MANUAL_DIR", "file_of", "policy", "router"]

"""``GET /i18n/texts.js``: the pages' texts in every language (``window.I18N``), from the one file of texts
(:mod:`chesslaws.server.texts`). The pages load it before ``/static/i18n.js``, which translates them; the
script is the same until the package changes, so it carries an ETag and is answered 304 when unchanged."""

from __future__ import annotations

import hashlib
from functools import cache

from fastapi import APIRouter, Request, Response

from chesslaws.server.texts import page_script

#: Where the pages find their texts (every page loads it before web/i18n.js).
TEXTS_PATH = "/i18n/texts.js"

router = APIRouter()


@cache
def _etag() -> str:
    return '"' + hashlib.sha256(page_script().encode("utf-8")).hexdigest()[:32] + '"'


@router.get(TEXTS_PATH, include_in_schema=False)
async def texts_script(request: Request) -> Response:
    """The script that sets ``window.I18N``."""
    headers = {"ETag": _etag(), "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == headers["ETag"]:
        return Response(status_code=304, headers=headers)
    return Response(page_script(), media_type="text/javascript; charset=utf-8", headers=headers)


__all__ = ["TEXTS_PATH", "router", "texts_script"]

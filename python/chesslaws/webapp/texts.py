"""``GET /i18n/texts.js``: the pages' texts in every language (``window.I18N``), from the one file of texts
(:mod:`chesslaws.server.texts`). The pages load it before ``/static/i18n.js``, which translates them; the
script is the same until the package changes, so it carries an ETag and is answered 304 when unchanged.
And the language a request is read in (:func:`request_lang`): the one its reader chose on the pages."""

from __future__ import annotations

import hashlib
from functools import cache

from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from chesslaws.server.texts import LANGUAGES, page_script

#: Where the pages find their texts (every page loads it before web/i18n.js).
TEXTS_PATH = "/i18n/texts.js"

#: The cookie the pages' language switch sets (``web/i18n.js``), for the requests a page does not make itself.
LANG_COOKIE = "chesslaws_lang"

router = APIRouter()


def request_lang(conn: HTTPConnection) -> str:
    """The language of the server's texts for this request: ``?lang=`` when it says one of the texts'
    languages, else the language chosen on the pages (their switch's cookie), else the first of the
    browser's languages (``Accept-Language``, which the pages set to the chosen one) that the texts have;
    English otherwise."""
    asked = conn.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    kept = conn.cookies.get(LANG_COOKIE, "")
    if kept in LANGUAGES:
        return kept
    for part in conn.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return "en"


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


__all__ = ["LANG_COOKIE", "TEXTS_PATH", "request_lang", "router", "texts_script"]

"""The language a client reads the server's texts and refusals in: the ``lang`` it asks for (a query
parameter, as the game page and its WebSocket send the page's language), else the language chosen with the
pages' switch (its cookie, :data:`LANG_COOKIE`, set by ``web/i18n.js``), else its ``Accept-Language`` (which
the pages set to the chosen language too), else English."""

from __future__ import annotations

from typing import Any, Mapping

from starlette.requests import HTTPConnection

from chesslaws.server.refusals import translated
from chesslaws.server.texts import LANGUAGES

#: The query parameter that names the language.
NAME = "lang"
#: The cookie the pages' language switch sets (``web/i18n.js``), for the requests a page does not make itself.
LANG_COOKIE = "chesslaws_lang"
#: Set in a request's state by a route whose ``lang`` parameter names something else (the piece letters a move
#: is written in): its refusals follow the cookie and ``Accept-Language`` alone.
LANG_NAMES_OTHER = "lang_names_other"


def client_language(conn: HTTPConnection) -> str:
    """One of :data:`~chesslaws.server.texts.LANGUAGES`: what ``conn`` asks for, English when it asks for none
    of them."""
    query = None if conn.scope.get("state", {}).get(LANG_NAMES_OTHER) else conn.query_params.get(NAME)
    for asked in (query, conn.cookies.get(LANG_COOKIE)):
        code = (asked or "").strip().lower()
        if code in LANGUAGES:
            return code
    return accepted(conn.headers.get("accept-language", ""))


def accepted(header: str) -> str:
    """The language of an ``Accept-Language`` header the texts have, by the weights it gives (the first of
    equal weights), English when it names none of them."""
    best, best_q = "en", 0.0
    for item in header.split(",")[:20]:
        tag, _, params = item.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


def refusal_for(scope: Mapping[str, Any], message: str) -> str:
    """A refusal (its English ``message``) in the language of the request or socket ``scope``: what the
    middleware that answers before any route (:class:`~chesslaws.server.paths.PathCheck`, the body's limit,
    the sockets per address) tells the client."""
    return translated(message, client_language(HTTPConnection(dict(scope))))


__all__ = ["LANG_COOKIE", "LANG_NAMES_OTHER", "NAME", "accepted", "client_language", "refusal_for"]

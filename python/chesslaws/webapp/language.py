"""The language a client reads the server's refusals in: the ``lang`` it asks for (a query parameter, as the
game page and its WebSocket send the page's language), else the ``lang`` cookie the pages' language switch
keeps, else its ``Accept-Language``, else English."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from chesslaws.server.texts import LANGUAGES

#: The query parameter and the cookie that name the language.
NAME = "lang"


def client_language(conn: HTTPConnection) -> str:
    """One of :data:`~chesslaws.server.texts.LANGUAGES`: what ``conn`` asks for, English when it asks for none
    of them."""
    for asked in (conn.query_params.get(NAME), conn.cookies.get(NAME)):
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


__all__ = ["NAME", "accepted", "client_language"]

"""A request refused: the one error the services answer to a client with, whatever the transport.

The live games (:mod:`chesslaws.server`) and the tournaments (:mod:`chesslaws.tournament`) both raise it; the web
layer (:mod:`chesslaws.webapp`) answers it as ``{"error": message, "status": status}`` with that HTTP status
(and ``Retry-After`` when it has one), or as an error message on a WebSocket.
"""

from __future__ import annotations


class Refused(Exception):
    """A request refused before it reaches a game: an HTTP status and a message for the client, and for 429
    and 503 the seconds after which to try again."""

    retry_after: int | None = None

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        if retry_after is not None:  # a subclass may have set it already
            self.retry_after = retry_after


__all__ = ["Refused"]

"""The limit on request bodies, before anything reads them, and the security headers of every response."""

from __future__ import annotations

import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chesslaws.server.guard import SECURITY_HEADERS, Refused, strict_json
from chesslaws.server.hub import MAX_BODY
from chesslaws.webapp.language import refusal_for

log = logging.getLogger("chesslaws.server")


class BodyLimit:
    """Before anything reads a request: 413 for a body over ``limit`` bytes (declared or streamed),
    400/422 for a body that is not strict JSON (:func:`guard.strict_json`), and the security headers
    (CSP without inline script, no framing, no referrer, nosniff) on every response. Refusals are in the
    client's language (:func:`~chesslaws.webapp.language.refusal_for`)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def _reject(self, scope: Scope, send: Send, status: int = 413, message: str | None = None) -> None:
        text = message or f"the request body is over {self.limit} bytes"
        log.info("refused: %d %s", status, text)
        body = json.dumps({"error": refusal_for(scope, text), "status": status}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        inner = send

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # A response that sets one of these headers itself keeps its own (the manual's pages name
                # their inline scripts in their Content-Security-Policy): two policies would both apply.
                own = {name.lower() for name, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                  *(h for h in SECURITY_HEADERS if h[0] not in own)]}
            await inner(message)

        send = send_with_headers
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > self.limit:
                        await self._reject(scope, send)
                        return
                except ValueError:
                    pass
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._reject(scope, send)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip():
            try:
                strict_json(body)
            except Refused as err:
                await self._reject(scope, inner, err.status, err.message)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


__all__ = ["BodyLimit"]

"""The game's WebSocket: ``WS /api/games/{id}/ws?lang=&moves=``, the seat's token in the subprotocol header.

A seat's socket offers the subprotocols ``chesslaws`` and ``chesslaws.token.TOKEN`` (``Sec-WebSocket-Protocol``,
a header proxies do not log, unlike the URL) and is answered ``chesslaws``; ``?token=TOKEN`` in the URL is still
read, for clients written before. States as they change; events may be sent on it too (``{"rid": ..., "event": {...}}``, taken by the same path
as ``POST .../events``: :mod:`chesslaws.webapp.acting`), and ``{"type": "ping", "id": ...}`` is answered with
the game's time. With ``moves=new`` a state's ``moves`` holds only the moves after the first ``moves_from`` of
the list this socket has (the first state has ``moves_from`` 0: the whole list), and ``controls`` is left out
while it is the one last sent; the acknowledgement of an event sent on such a socket carries the socket's new
state (``"state"``) in place of a separate state message. Without it, every state is whole.

A socket's events are taken one after another, in the order sent, by a task of their own; a ping is answered
by the socket's reader at once, even while an event waits on the store (a page that hears no pong for a few
seconds takes its socket for dead).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.routing import WebSocketRoute

from chesslaws.server.guard import Refused, strict_json
from chesslaws.server.hub import MAX_BODY, ApiError, Hub, LiveGame, Subscriber
from chesslaws.server.refusals import translated
from chesslaws.store.games import Seat
from chesslaws.store.rows import dumps
from chesslaws.webapp.acting import NO_SEAT, SPECTATOR, seat_for, take_event
from chesslaws.webapp.context import hub_of
from chesslaws.webapp.language import client_language

log = logging.getLogger("chesslaws.server")

#: The subprotocol the server answers, and the prefix of the one that carries a seat's token.
SUBPROTOCOL = "chesslaws"
TOKEN_PROTOCOL = "chesslaws.token."
#: Events of one socket that may wait to be taken (beyond them, its reader waits: a flood holds itself up).
PENDING_EVENTS = 32


def offered_token(protocols: list[str]) -> tuple[str | None, str | None]:
    """The seat's token among the subprotocols a socket offers, and the subprotocol to answer (None when it
    offers ours not)."""
    token = next((p[len(TOKEN_PROTOCOL):] for p in protocols if p.startswith(TOKEN_PROTOCOL)), None)
    return token or None, SUBPROTOCOL if SUBPROTOCOL in protocols or token else None


async def stream(ws: WebSocket) -> None:
    """One socket of a game: the seat its token opens (none: a spectator's), its states, and its events."""
    hub = hub_of(ws)
    game_id = str(ws.path_params["game_id"])
    tok, answer = offered_token(list(ws.scope.get("subprotocols") or ()))
    await ws.accept(subprotocol=answer)
    try:
        live = await hub.fetch(game_id)
    except ApiError as err:
        await ws.send_json({"kind": "error", "status": err.status, "error": translated(err.message, client_language(ws))})
        await ws.close(code=4000 + err.status)
        return
    tok = tok or ws.query_params.get("token") or None
    seat = await seat_for(hub, live, tok)
    if tok and seat is None:
        await ws.send_json({"kind": "error", "status": 401, "error": translated(NO_SEAT, client_language(ws))})
        await ws.close(code=4401)
        return
    lang = hub.language_of(ws.query_params.get("lang"))
    sub = Subscriber(lang, seat or "spectator", delta=ws.query_params.get("moves") == "new")
    live.subscribers.add(sub)
    sub.queue.put_nowait(dumps({"kind": "hello", "seat": seat or "spectator"}))
    hub.send_state(live, sub)
    # Shielded: a socket closed at the instant the game begins must not cut its begin short (written to the
    # store, not yet to the game in memory, whose next event would then be refused for the log's gap).
    await asyncio.shield(hub.present(live, seat))
    if seat == "arbiter":  # the players see that an arbiter watches ("Call the arbiter"), on every process
        hub.arbiter_console(live, True)
    # Only now is the socket written to (the hello first): when the hello arrives, the seat is present.
    # From here on, a message is written at once when the socket takes it (hub.Outbox).
    sub.queue.attach(ws.send_text)
    ui = client_language(ws)  # the language of the refusals it is answered
    pending: asyncio.Queue[str] = asyncio.Queue(PENDING_EVENTS)
    worker = asyncio.ensure_future(_take_events(ws, hub, live, sub, seat, tok, pending, ui))
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                try:
                    text = (frame.get("bytes") or b"").decode("utf-8")
                except UnicodeDecodeError:
                    text = "\u0000not utf-8"
            pong = _pong(hub, live, text)
            if pong is not None:
                await _reply(ws, sub, pong)
            else:
                await pending.put(text)
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket closed under us
        pass
    finally:
        worker.cancel()  # an event being taken is committed and applied, or neither (Hub.submit)
        live.subscribers.discard(sub)
        sub.queue.close()
        if seat == "arbiter" and not any(s.seat == "arbiter" for s in live.subscribers):
            hub.arbiter_console(live, False)
        hub.maybe_retire(live)


async def _take_events(ws: WebSocket, hub: Hub, live: LiveGame, sub: Subscriber, seat: Seat | None,
                       tok: str | None, pending: asyncio.Queue[str], ui: str) -> None:
    """The socket's events, one after another in the order they came (refusals in the language ``ui``)."""
    while True:
        text = await pending.get()
        reply = await _answer(hub, live, sub, seat, tok, text, ui)
        if reply is not None:
            try:
                await _reply(ws, sub, reply)
            except RuntimeError:  # the socket closed meanwhile
                return


async def _reply(ws: WebSocket, sub: Subscriber, reply: dict[str, Any]) -> None:
    """Queues a reply for the socket (written at once when its queue is full: it is what its client waits for)."""
    try:
        sub.queue.put_nowait(dumps(reply))
    except asyncio.QueueFull:
        await ws.send_text(dumps(reply))


def _pong(hub: Hub, live: LiveGame, text: str) -> dict[str, Any] | None:
    """The pong of a ping (``{"type": "ping", "id": ...}``), None for any other message. The page's heartbeat: a
    socket on which no pong comes back is dead even if no close arrived. Anyone may ping (nothing is counted);
    the pong carries the game's time t, by which the page sets its clocks against the server's."""
    if '"ping"' not in text:
        return None
    try:
        msg = strict_json(text)
    except Exception:  # noqa: BLE001 - not a ping: the event's path says what is wrong with it
        return None
    if not isinstance(msg, dict) or msg.get("type") != "ping" or "event" in msg:
        return None
    pid = msg.get("id")
    if not isinstance(pid, (str, int)) or isinstance(pid, bool):
        pid = None
    return {"kind": "pong", "id": pid, "t": hub.t_of(live)}


async def _answer(hub: Hub, live: LiveGame, sub: Subscriber, seat: Seat | None, tok: str | None,
                  text: str, ui: str = "en") -> dict[str, Any] | None:
    """The reply to one message of the socket (None: none beyond what the hub queued): an event's
    acknowledgement, or its refusal (in the language ``ui``). A fault is logged and answered; the socket stays
    open."""
    rid: Any = None
    try:
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BODY:
            raise ApiError(413, f"the message is over {MAX_BODY} bytes")
        msg = strict_json(text)
        if not isinstance(msg, dict):
            raise ApiError(400, "a message is a JSON object {\"rid\": ..., \"event\": {...}}")
        rid = msg.get("rid")
        if not isinstance(rid, (str, int, type(None))) or isinstance(rid, bool):
            rid = None
            raise ApiError(400, "'rid' is a string or an integer")
        if "event" not in msg:
            raise ApiError(400, "a message carries an 'event'")
        if seat is None or tok is None:  # a spectator's socket: nothing it sends is counted
            raise ApiError(401, SPECTATOR)
        _, ack = await take_event(hub, live, msg["event"], seat, tok, via=sub, rid=rid)
        if ack.get("queued"):  # already in this socket's queue, with its new state
            return None
        return {"kind": "ack", "rid": rid, "seq": ack["seq"], "event": ack["event"]}
    except Refused as err:
        log.info("refused on the socket of game %s: %d %s", live.id, err.status, err.message)
        reply: dict[str, Any] = {"kind": "error", "rid": rid, "status": err.status,
                                 "error": translated(err.message, ui)}
        retry = getattr(err, "retry_after", None)
        if retry:
            reply["retry_after"] = retry
        return reply
    except Exception:  # noqa: BLE001 - a fault: logged; the socket stays open
        log.exception("fault on the socket of game %s", live.id)
        return {"kind": "error", "rid": rid, "status": 500,
                "error": translated("the server failed on this message; the fault is logged for its operator", ui)}


#: A plain Starlette route: FastAPI's own wraps every socket in two exit stacks for dependencies this one does
#: not have (about 2 KiB a socket, held as long as it is open).
route = WebSocketRoute("/api/games/{game_id}/ws", stream)

__all__ = ["route", "stream"]

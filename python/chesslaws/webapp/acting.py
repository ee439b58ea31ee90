"""The one path of an event from a seat, whether it came as ``POST /api/games/{id}/events`` or on the game's
WebSocket: the seat a token opens, then the seat's own rate limits, then the hub's submit.

A spectator (no token, or a token that opens no seat) is refused before anything is counted: nobody spends
another's budget. The limits are counted per token and per game and seat, before the arbiter is asked.

A player's ``arrive`` before the game has begun (a fair start waiting for its players, a scheduled start still
to come) says he has opened it, as his seat's WebSocket does: a client that speaks HTTP alone (a bot) can
start a fairly started game. Nothing is written in the log for it (the Laws write nothing before t=0); its
acknowledgement carries the log's length and the unstamped ``arrive``, and the state says who is still
awaited.
"""

from __future__ import annotations

import asyncio
from typing import Any

from chesslaws.server.hub import ApiError, Hub, LiveGame, Subscriber
from chesslaws.store.games import Seat

#: The refusal of an event sent without a seat.
SPECTATOR = "a seat token is needed to act in a game (spectators only watch)"
#: The refusal of a token that opens no seat of the game.
NO_SEAT = "this token opens no seat of this game"


async def seat_for(hub: Hub, live: LiveGame, token: str | None) -> Seat | None:
    """The seat ``token`` opens in the game (None: a spectator's). A token another process of the same
    database gave just now is looked for in the store once before it is refused."""
    seat = live.seat_of(token)
    if token and seat is None and hub.store.shared:
        await hub.refresh_seats(live)
        seat = live.seat_of(token)
    return seat


async def take_event(hub: Hub, live: LiveGame, event: Any, seat: Seat | None, token: str | None, *,
                     via: Subscriber | None = None, rid: Any = None,
                     write: bool = False) -> tuple[LiveGame, dict[str, Any]]:
    """``event`` from ``seat`` (opened by ``token``) counted against the seat's budgets and submitted; returns
    the game and the hub's acknowledgement. ``write``: the game is fetched for writing first (a game over and
    retired is marked live again; a socket's game is held in memory by the socket). ``via``/``rid``: the socket
    that sent it and its request id (:meth:`Hub.submit`)."""
    if seat is None or token is None:
        raise ApiError(401, SPECTATOR)
    hub.rate.hit("events_per_token", token)
    hub.rate.hit("events_per_game", f"{live.id}/{seat}")
    if opens_the_game(hub, live, event, seat):
        # Shielded, as the hub's submit is: a client gone meanwhile does not cut a begin short.
        await asyncio.shield(hub.present(live, seat))
        return live, {"seq": live.seq, "event": {"type": "arrive", "by": seat}}
    if write:
        live = await hub.fetch(live.id, write=True)
    ack = await hub.submit(live, event, seat, via=via, rid=rid)
    return live, ack


def opens_the_game(hub: Hub, live: LiveGame, event: Any, seat: Seat) -> bool:
    """Is ``event`` a player's ``arrive`` (for himself, nothing else in it) in a game that has not begun, whose
    start waits for him (a fair start, not a round held for its arbiter) or is scheduled and still to come?"""
    if seat not in ("white", "black") or not isinstance(event, dict) or event.get("type") != "arrive":
        return False
    if set(event) - {"type", "by"} or event.get("by", seat) != seat:
        return False
    return (live.waiting and not live.held) or (live.scheduled and hub.t_of(live) < 0)


__all__ = ["NO_SEAT", "SPECTATOR", "opens_the_game", "seat_for", "take_event"]

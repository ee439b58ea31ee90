"""A claim that waits for the arbiter (a quickplay-finish claim, a request for an increment) when no arbiter
watches the game any more (issue 36).

Issue 30 refused such a claim, not recorded, when nobody watched the arbiter's console: nobody could decide
it, and the clocks would stand still for good (1997 10.2, 2023 III.4 and III.5 summon the arbiter; 1997 D.1
and 2023 III.6.1 refer the claim to one). A claim made while the console was open was left pending when it
closed, the clocks stopped for good. It now goes the same way as one made without him: ``CLAIM_GRACE``
seconds after the last console closed (time for a reload), on this process or on another one (its NOTIFY,
or its silence for 3 ``ARBITER_BEAT``: a process that died), if no console has opened again, the server
enters the arbiter's ``decision`` with the ruling ``lapse``: the claim is set aside, the clocks run again,
nobody receives time (:func:`chesslaws.game.draws._lapse`)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from chesslaws.game.draws import awaiting_arbiter

if TYPE_CHECKING:
    from chesslaws.server.hub import Hub, LiveGame

log = logging.getLogger("chesslaws.server")

#: Seconds a claim waits after the last arbiter's console of its game closed before it lapses (a reload of
#: the console keeps it).
CLAIM_GRACE = 5.0


def lapse_later(hub: Hub, live: LiveGame) -> None:
    """The last console of the game may have closed: look again in ``hub.claim_grace`` seconds."""
    loop = hub._loop
    if loop is None or live.interface == "otb" or awaiting_arbiter(live.game.state) is None:
        return  # (over the board, the arbiter enters the claims himself: he is there)
    loop.call_later(hub.claim_grace, lambda: asyncio.ensure_future(lapse_now(hub, live)))


async def lapse_now(hub: Hub, live: LiveGame) -> None:
    """Enters the lapse of the claim that waits for the arbiter, if one still waits and no arbiter watches
    (here or on another process); another process that entered it first wins (the log is fenced)."""
    from chesslaws.server.hub import ApiError

    if hub._arbiter_watching(live) or awaiting_arbiter(live.game.state) is None:
        return
    async with live.lock:
        wait = awaiting_arbiter(live.game.state)
        if wait is None or hub._arbiter_watching(live):
            return
        try:
            await hub._apply(live, "decision", "arbiter", {"on": wait.claim.reason, "ruling": "lapse"}, "arbiter")
        except ApiError as err:  # decided or lapsed meanwhile (through another process), or the store is down
            log.info("game %s: the claim waiting for the arbiter did not lapse: %s", live.id, err.message)
            return
    hub.broadcast(live)


def sweep(hub: Hub) -> None:
    """The games of this process whose claim waits for an arbiter nobody watches (his console's process
    died, or this server restarted): each lapses after the grace."""
    for live in list(hub.games.values()):
        if awaiting_arbiter(live.game.state) is not None and not hub._arbiter_watching(live):
            lapse_later(hub, live)

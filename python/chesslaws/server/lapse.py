"""A claim that waits for the arbiter (a quickplay-finish claim, a request for an increment) when no arbiter
watches the game any more.

Nobody could decide such a claim, and the clocks would stand still for good (1997 10.2, 2023 III.4 and III.5
summon the arbiter; 1997 D.1 and 2023 III.6.1 refer the claim to one). A claim made without an arbiter
watching is refused, not recorded (:func:`chesslaws.server.rules.check_awaited_arbiter`). One made while the
console was open goes the same way once it closes: ``CLAIM_GRACE`` seconds after the last console closed
(time for a reload), on this process or on another one (its NOTIFY, or its silence for 3 ``ARBITER_BEAT``: a
process that died), if no console has opened again, the server enters the arbiter's ``decision`` with the
ruling ``lapse``: the claim is set aside, the clocks run again, nobody receives time
(:func:`chesslaws.game.draws._lapse`)."""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Mapping, Protocol

from chesslaws.game import Game
from chesslaws.game.draws import awaiting_arbiter
from chesslaws.server.errors import ApiError
from chesslaws.server.live import LiveGame
from chesslaws.store.games import Seat

log = logging.getLogger("chesslaws.server")

#: Seconds a claim waits after the last arbiter's console of its game closed before it lapses (a reload of
#: the console keeps it).
CLAIM_GRACE = 5.0


class Desk(Protocol):
    """What the lapse needs of the server (:class:`chesslaws.server.hub.Hub` is one)."""

    @property
    def claim_grace(self) -> float: ...  # seconds after the last console closed

    @property
    def games(self) -> Mapping[str, LiveGame]: ...

    def later(self, delay: float, job: Callable[[], Awaitable[None]]) -> object: ...

    def arbiter_watching(self, live: LiveGame) -> bool: ...

    async def apply_locked(self, live: LiveGame, kind: str, by: str, body: dict[str, Any], seat: Seat, *,
                           at: float | None = None) -> tuple[dict[str, Any], Game, float]: ...

    def broadcast(self, live: LiveGame) -> None: ...


def lapse_later(desk: Desk, live: LiveGame) -> None:
    """The last console of the game may have closed: look again in ``desk.claim_grace`` seconds."""
    if live.interface == "otb" or awaiting_arbiter(live.game.state) is None:
        return  # (over the board, the arbiter enters the claims himself: he is there)
    desk.later(desk.claim_grace, lambda: lapse_now(desk, live))


async def lapse_now(desk: Desk, live: LiveGame) -> None:
    """Enters the lapse of the claim that waits for the arbiter, if one still waits and no arbiter watches
    (here or on another process); another process that entered it first wins (the log is fenced)."""
    if desk.arbiter_watching(live) or awaiting_arbiter(live.game.state) is None:
        return
    async with live.lock:
        wait = awaiting_arbiter(live.game.state)
        if wait is None or desk.arbiter_watching(live):
            return
        try:
            await desk.apply_locked(live, "decision", "arbiter", {"on": wait.claim.reason, "ruling": "lapse"},
                                    "arbiter")
        except ApiError as err:  # decided or lapsed meanwhile (through another process), or the store is down
            log.info("game %s: the claim waiting for the arbiter did not lapse: %s", live.id, err.message)
            return
    desk.broadcast(live)


def sweep(desk: Desk) -> None:
    """The games of this process whose claim waits for an arbiter nobody watches (his console's process
    died, or this server restarted): each lapses after the grace."""
    for live in list(desk.games.values()):
        if awaiting_arbiter(live.game.state) is not None and not desk.arbiter_watching(live):
            lapse_later(desk, live)

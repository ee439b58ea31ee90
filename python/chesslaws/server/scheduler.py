"""The server's clock and its timers: a game's time at the server's instant, and the one timer each live
game has for the next instant at which its state changes by itself (:func:`~chesslaws.server.rules.next_wakeup_ms`:
its start, a flag fall an arbiter present observes, the default time, an abort)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable

from chesslaws.game import Game
from chesslaws.server.errors import reason
from chesslaws.server.live import LiveGame
from chesslaws.server.rules import next_wakeup_ms, seen_at, server_t

log = logging.getLogger("chesslaws.server")


class Clock:
    """The server's clock: wall time anchored once (``wall0``), then advanced by the monotonic clock."""

    def __init__(self) -> None:
        self.wall0 = time.time()
        self.mono0 = time.monotonic()

    def now(self) -> float:
        return self.wall0 + (time.monotonic() - self.mono0)


class Scheduler:
    """Times the live games. ``down_since``: since when the store is unreachable (None: it answers), which
    stops every game's time; ``wake``: what is done when a game's timer fires."""

    def __init__(self, clock: Clock, down_since: Callable[[], float | None],
                 wake: Callable[[LiveGame], None]) -> None:
        self.clock = clock
        self.down_since = down_since
        self.wake = wake
        self.loop: asyncio.AbstractEventLoop | None = None
        # No game wakes up before the start has given back the time the server was not running: an ending
        # seen earlier would be written on the clock as it stood before the give-back.
        self.started = False

    def now(self) -> float:
        return self.clock.now()

    def t_of(self, live: LiveGame) -> float:
        """Seconds since the game's scheduled start (see :func:`~chesslaws.server.rules.server_t`)."""
        return server_t(live, self.clock.now(), self.down_since())

    def game_now(self, live: LiveGame) -> Game:
        """The game at the server's instant (see :func:`~chesslaws.server.rules.seen_at`)."""
        return seen_at(live.game, self.t_of(live))

    def next_wakeup_ms(self, live: LiveGame) -> int | None:
        return next_wakeup_ms(live, self.clock.now(), self.t_of(live))

    def schedule(self, live: LiveGame) -> None:
        """Sets the game's timer for its next wake-up (none while the store is away or before the start)."""
        self.cancel(live)
        loop = self.loop
        if loop is None or self.down_since() is not None or not self.started:
            return  # no flag falls while moves cannot be stored, nor before the start gave the time back
        try:
            ms = self.next_wakeup_ms(live)
            if ms is None:
                return
            # A far wake-up is re-scheduled on waking: call_later never sees an absurd delay.
            delay = min(max(0.0, live.created_at + ms / 1000 - self.clock.now()) + 0.002, 86_400.0)
            live.timer = loop.call_later(delay, self._fire, live)
        except (OverflowError, ValueError, ArithmeticError) as err:
            log.error("game %s: its next flag fall cannot be scheduled: %s", live.id, reason(err))

    def _fire(self, live: LiveGame) -> None:
        live.timer = None
        self.wake(live)

    @staticmethod
    def cancel(live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None

    def later(self, delay: float, job: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle | None:
        """Runs ``job`` as a task in ``delay`` seconds (nothing before the event loop is known)."""
        if self.loop is None:
            return None
        return self.loop.call_later(delay, lambda: asyncio.ensure_future(job()))


__all__ = ["Clock", "Scheduler"]

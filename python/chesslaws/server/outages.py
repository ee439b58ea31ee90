"""The store's outages, and the server's own: the store is pinged (an outage is noticed within a second
even if nobody writes), and when it is back (or the server restarts after a gap since its last heartbeat)
the time in which no move could be stored is given back to every game whose clock ran, as the arbiter's
interruption in its log; a scheduled game whose start fell meanwhile starts a little after the return."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from chesslaws.server.broadcast import Broadcaster
from chesslaws.server.errors import reason
from chesslaws.server.live import LiveGame
from chesslaws.server.registry import Registry
from chesslaws.server.rules import ARBITER_BEAT, given_back_since, interruption, postponed_start, start_rule
from chesslaws.server.scheduler import Scheduler
from chesslaws.server.starts import Starts
from chesslaws.store.db import StoreError
from chesslaws.store.games import StoreBehind
from chesslaws.server.storelink import StoreLink

log = logging.getLogger("chesslaws.server")

#: How often the store is pinged, in seconds (an outage is noticed within this time); each ping records
#: the server's heartbeat.
PING_EVERY = 1.0
#: A restart after a longer gap since the last heartbeat gives the time back to the running clocks.
RESTART_GAP = 1.0
#: Seconds after the server (or its database) is back at which a scheduled game that has not begun (no
#: player at the board yet, no move) starts, if its start fell while no player could reach it: the time for
#: the players' pages to connect again (see Outages.give_back).
RESUME_GRACE = 10.0


class Outages:
    """Watches the store of ``link`` and gives back the time of an outage to the games of ``registry``."""

    def __init__(self, link: StoreLink, scheduler: Scheduler, registry: Registry, starts: Starts,
                 broadcaster: Broadcaster) -> None:
        self.link = link
        self.scheduler = scheduler
        self.registry = registry
        self.starts = starts
        self.broadcaster = broadcaster
        self._recovering: asyncio.Lock | None = None  # one give-back at a time (the ping's or a request's)

    def went_down(self) -> None:
        """The store was found unreachable: no game wakes up, and every viewer sees it."""
        for live in self.registry.games.values():
            self.scheduler.cancel(live)
            self.broadcaster.broadcast(live)

    async def refuse_while_down(self) -> None:
        """Raises the outage's 503 while the store is unreachable (see :meth:`StoreLink.refuse_while_down`)."""
        await self.link.refuse_while_down(self.recover)

    async def watch(self, beat: Callable[[], None]) -> None:
        """Pings the store; notices an outage within a second even if nobody writes, and when it
        returns, writes the interruption into every game that was running. ``beat``: called every
        ``ARBITER_BEAT`` seconds while the store answers."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(PING_EVERY)
            try:
                await self.link.db(lambda: self.link.store.ping(self.link.now()))
            except Exception:  # noqa: BLE001 - an outage, already noted by StoreLink.db
                continue
            if time.monotonic() - last >= ARBITER_BEAT:
                last = time.monotonic()
                beat()
            if self.link.down_since is not None:
                try:
                    await self.recover()
                except Exception as err:  # noqa: BLE001 - still down: try again on the next ping
                    log.warning("the game store came back but the interruptions could not be written yet: %s",
                                reason(err))

    async def recover(self) -> None:
        """The store is back: the time that passed while no move could be stored is given back. Once:
        the ping and a request that both find the store back share one give-back."""
        if self._recovering is None:
            self._recovering = asyncio.Lock()
        async with self._recovering:
            if self.link.down_since is None:
                return  # given back by whoever held the lock
            down, up = self.link.down_since, self.link.now()
            if self.link.store.shared:  # the database may not be the one that went away (a failover)
                await self.registry.verify()
            await self.give_back(down, up, f"the server could not store moves for {up - down:.1f} s (its "
                                           "database was unreachable)", "the server's database is back")
            self.link.down_since = None
        log.warning("the game store is back after %.1f s; the interruptions are in the logs", up - down)
        for live in self.registry.games.values():
            self.scheduler.schedule(live)
            self.broadcaster.broadcast(live)

    async def give_back(self, down: float, up: float, why: str, back: str) -> None:
        """Every game whose clock ran between ``down`` and ``up`` (unix seconds) while no move could be
        stored gets the arbiter's interruption (:func:`~chesslaws.server.rules.interruption`); no flag falls
        because of it. Raises if the store fails meanwhile (the games done so far keep their interruption)."""
        shared = self.link.store.shared
        for live in list(self.registry.games.values()):
            if live.waiting:
                continue  # not started: its t=0 comes when both players are there
            async with live.lock:
                if shared:
                    # Another process that lived through the same outage may have given the time back
                    # already: read its log first, and give nothing back twice.
                    await self.registry.catch_up_locked(live)
                    if given_back_since(live.game, live.created_at, down):
                        continue
                if await self._postpone_unbegun_locked(live, down, up):
                    continue
                # Who was at the board while nothing could be written (opened the game before t=0, or came
                # during the outage) is written at the board first, before the interruption: the time the
                # server could not store moves never makes him absent.
                if live.early and round(down - live.created_at, 3) >= 0:
                    await self.starts.arrivals_locked(live)
                try:
                    new = interruption(live, down, up, why, back)
                except Exception as err:  # noqa: BLE001 - one game's interruption, never the server's start
                    log.warning("game %s: no interruption written: %s", live.id, err)
                    continue
                if new is None:
                    continue
                lines = [e.to_json() for e in new.events[-2:]]
                seq = live.seq
                try:
                    await self.link.db(lambda: self.link.store.append_many(
                        [(live.id, seq, lines[0]), (live.id, seq + 1, lines[1])]))
                except StoreBehind:  # the database lost this game's last events (a failover)
                    await self.registry.reload_locked(live)
                    continue
                except StoreError:  # another process wrote first (its own interruption): take its log
                    await self.registry.catch_up_locked(live)
                    continue
                live.game = new
                t_down, t_up = (e.t_ms / 1000 for e in new.events[-2:])
                log.info("game %s: clocks held from t=%.3f to t=%.3f (%s)", live.id, t_down, t_up, why)

    async def _postpone_unbegun_locked(self, live: LiveGame, down: float, up: float) -> bool:
        """A scheduled game whose t=0 fell while no player could reach it starts ``RESUME_GRACE`` seconds after
        ``up`` (:func:`~chesslaws.server.rules.postponed_start`): a round start missed while the server was
        down happens a few seconds after it is back. True if it was postponed."""
        new_t0 = postponed_start(live, down, up, RESUME_GRACE)
        if new_t0 is None:
            return False
        t0 = live.created_at
        store = self.link.store
        if store.shared:  # another process back from the same outage may have postponed it already
            rec = await self.link.db(lambda: store.load(live.id))
            if rec is not None and rec.created_at != t0:
                live.created_at = rec.created_at
                return True
        rule = None if live.rule_in_log else start_rule(live)  # only t=0 moves: the rule stays as it is
        await self.link.db(lambda: store.set_start(live.id, new_t0, rule))
        live.created_at = new_t0
        log.info("game %s: its start, at %.3f while the server could not record it, moves to %.3f", live.id, t0,
                 new_t0)
        return True


__all__ = ["Outages", "PING_EVERY", "RESTART_GAP", "RESUME_GRACE"]

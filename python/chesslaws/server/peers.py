"""Several server processes on one database: each hears of the others' changes (PostgreSQL's NOTIFY) and
brings its copy of a game up to date (or lets it go, when nobody here uses it: the game lives where it is
written, where the proxy sends its requests), tells them of its own (a tournament changed, an alert for the arbiter),
and knows on which process an arbiter's console of a game is open (each says so again every
``ARBITER_BEAT`` seconds; one not heard of for three times as long is gone)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Callable

from chesslaws.server import lapse
from chesslaws.server.broadcast import Broadcaster
from chesslaws.server.errors import reason
from chesslaws.server.live import LiveGame
from chesslaws.server.registry import Registry
from chesslaws.server.starts import Starts
from chesslaws.server.storelink import StoreLink
from chesslaws.store.games import HOLDER_TIMEOUT

log = logging.getLogger("chesslaws.server")


class Peers:
    """This process among the others of a shared store (on a store of one process, nothing is announced).
    ``desk``: the hub, for the lapse of a claim that waits for an arbiter nobody watches any more."""

    def __init__(self, link: StoreLink, registry: Registry, starts: Starts, broadcaster: Broadcaster,
                 desk: lapse.Desk) -> None:
        self.link = link
        self.registry = registry
        self.starts = starts
        self.broadcaster = broadcaster
        self.desk = desk
        self.games = registry.games
        # Told the id of every tournament another process changed (see :meth:`announce_tournament`).
        self.tournament_watchers: list[Callable[[str], None]] = []
        self.origin = secrets.token_hex(6)  # this process, in what it announces (its own notes are not news)
        link.store.origin = self.origin

    def news(self, game_id: str | None, what: str) -> bool:
        """Whether a note heard from the database is news here (asked on the listener's thread, before the note is
        handed to the event loop): a new event of a game not in memory here, or written by this process, is
        not (the same for every process: each hears every note)."""
        if game_id is None:
            return True
        kind, _, origin = what.partition(" ")
        return not kind.isdigit() or (origin != self.origin and game_id in self.games)

    def arbiter_watching(self, live: LiveGame) -> bool:
        return self.desk.arbiter_watching(live)

    def broadcast(self, live: LiveGame) -> None:
        self.broadcaster.broadcast(live)

    def alert(self, live: LiveGame, msg: str) -> None:
        """Shows the alert ``msg`` (a message of kind "alert") on the arbiter's consoles of the game open here
        and, told with NOTIFY, on the other processes."""
        Broadcaster.to_arbiter_consoles(live, msg)
        if live.arbiters_elsewhere and len(msg) < 7000:  # his console on another process (NOTIFY: 8000 bytes)
            self.announce(live.id, f"alert {self.origin} {msg}")

    def beat(self) -> None:
        """Every ARBITER_BEAT seconds: a claim waiting for an arbiter whose console is gone (its process died)
        lapses; the arbiter's consoles open here say again that they are open."""
        lapse.sweep(self.desk)
        for live in list(self.games.values()) if self.link.store.shared else ():
            if Broadcaster.arbiter_here(live):
                self.announce(live.id, f"arbiter {self.origin} 1")
        if self.link.store.holding:
            asyncio.ensure_future(self.still_here())

    async def still_here(self) -> None:
        """Tells the store that this process runs (its holds are kept); if they were deleted meanwhile (it was
        silent too long: paused, cut off), it takes them again and catches up with what it was not told."""
        store = self.link.store
        try:
            lost = await self.link.db(lambda: store.beat(self.link.now()))
        except Exception as err:  # noqa: BLE001 - an outage: said again on the next beat
            log.warning("this process's beat could not be written: %s", reason(err))
            return
        if lost:
            log.warning("this process was silent for %.0f s or more: its games are held again and caught up",
                        HOLDER_TIMEOUT)
            await self.registry.verify()

    def loaded(self, game_id: str) -> None:
        self.announce(game_id, f"arbiter? {self.origin}")  # his console may be open elsewhere

    def changed(self, game_id: str | None, what: str) -> None:
        """Another process (or this one) committed a change: bring the copy in memory up to date."""
        if game_id is None:  # (re)connected: whatever was missed meanwhile (or lost, after a failover)
            asyncio.ensure_future(self.registry.verify())
            self.announce("*", f"arbiter? {self.origin}")  # and whose arbiter's console is open elsewhere
            return
        kind, _, origin = what.partition(" ")
        if kind == "tournament":  # an event changed on another process: its pages here read it again
            if origin != self.origin:
                for told in self.tournament_watchers:
                    told(game_id)
            return
        if kind == "arbiter?" and origin != self.origin:  # a process asks who has an arbiter's console open
            for each in ([self.games[game_id]] if game_id in self.games else
                         list(self.games.values()) if game_id == "*" else []):
                if Broadcaster.arbiter_here(each):
                    self.announce(each.id, f"arbiter {self.origin} 1")
            return
        live = self.games.get(game_id)
        if live is None:
            return  # not in memory here: loaded from the store when asked for
        if kind in ("arbiter", "alert"):
            if origin.split(" ", 1)[0] != self.origin:
                self.heard_arbiter(live, kind, origin)
            return
        if what == "seat":
            asyncio.ensure_future(self.registry.refresh_seats(live))
        elif what == "presence":
            asyncio.ensure_future(self.starts.refresh_presence(live))
        elif kind.isdigit() and origin != self.origin and int(kind) >= live.seq:
            live.heard = max(live.heard, int(kind))
            if not self.registry.evict_unused(live):  # it lives on the process that wrote it
                asyncio.ensure_future(self.registry.catch_up(live))

    def announce_tournament(self, tid: str) -> None:
        """Tells the other processes of a shared store that the tournament ``tid`` changed (a round paired or
        started, a result, a player's entry): their standings, player and console pages read it again."""
        self.announce(tid, f"tournament {self.origin}")

    def announce(self, key: str, what: str) -> None:
        """NOTIFY ``key what`` to the other processes of a shared store (nothing on a store of one process)."""
        if not self.link.store.shared or self.link.down_since is not None:
            return

        async def run() -> None:
            try:
                await self.link.db(lambda: self.link.store.announce(key, what))
            except Exception as err:  # noqa: BLE001 - told again on the next change
                log.warning("%s: %s could not be announced: %s", key, what.split(" ", 1)[0], reason(err))

        asyncio.ensure_future(run())

    def arbiter_console(self, live: LiveGame, opened: bool) -> None:
        """An arbiter's console of the game opened here, or the last one here closed: the players (here and,
        told with NOTIFY, on the other processes) see whether an arbiter watches ("Call the arbiter"), and
        what waits for him (a summons, a claim he decides) is accepted on every process while he does."""
        self.broadcast(live)
        self.announce(live.id, f"arbiter {self.origin} {int(opened)}")
        if not opened:
            lapse.lapse_later(self.desk, live)

    def heard_arbiter(self, live: LiveGame, kind: str, rest: str) -> None:
        """Another process's news of the game's arbiter: his console opened or closed there ("arbiter ORIGIN
        1|0"), or an alert for him made there ("alert ORIGIN JSON"), shown by the consoles open here."""
        origin, _, tail = rest.partition(" ")
        if kind == "arbiter":
            was = self.arbiter_watching(live)
            if tail == "1":
                live.arbiters_elsewhere[origin] = time.monotonic()
            else:
                live.arbiters_elsewhere.pop(origin, None)
            if was != self.arbiter_watching(live):
                self.broadcast(live)
            if tail != "1":
                lapse.lapse_later(self.desk, live)
            return
        Broadcaster.to_arbiter_consoles(live, tail)



__all__ = ["Peers"]

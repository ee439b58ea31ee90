"""How a live game begins: a fair start (t=0 when both players have opened it), a tournament round's game
held until the arbiter starts the round, a scheduled start whose players are absent until they open it (an
early one is at the board from t=0), and the abort of an online game whose side to move makes no first
move. What is decided here is read from :mod:`chesslaws.server.rules`; what is written goes through the
hub's :class:`~chesslaws.server.live.Writer`."""

from __future__ import annotations

import logging

from chesslaws.server.broadcast import Broadcaster
from chesslaws.server.errors import ApiError, reason, unavailable
from chesslaws.server.live import LiveGame, Writer
from chesslaws.server.registry import Registry
from chesslaws.server.rules import BEGIN, abort_due, abort_reason, seen_at, start_rule, waiting_for
from chesslaws.server.scheduler import Scheduler
from chesslaws.server.storelink import StoreLink

log = logging.getLogger("chesslaws.server")


class Starts:
    """The starts of the live games of ``registry``."""

    def __init__(self, link: StoreLink, scheduler: Scheduler, registry: Registry, broadcaster: Broadcaster,
                 writer: Writer) -> None:
        self.link = link
        self.scheduler = scheduler
        self.registry = registry
        self.broadcaster = broadcaster
        self.writer = writer

    async def present(self, live: LiveGame, seat: str | None) -> None:
        """A player has opened the game (his seat's WebSocket): when both are there, t=0 is now."""
        if seat in ("white", "black") and live.scheduled:
            await self.arrive(live, seat)
            return
        if seat not in ("white", "black") or not live.waiting or live.held:
            return
        if seat not in live.present:
            live.present.add(seat)  # this process knows at once (a state read meanwhile shows him here),
            if not waiting_for(live):  # and when both are here t=0 is now, before the store is written
                await self.start_when_ready(live)
            # It is kept in the store: the other player's socket may be on another process of the database,
            # which must know that this one is here (told with NOTIFY, or read when it loads the game).
            at = self.scheduler.now()
            others: set[str] = set()
            try:
                await self.link.db(lambda: self.link.store.note_presence(live.id, seat, at))
                if self.link.store.shared:
                    others = await self.link.db(lambda: self.link.store.presence(live.id))
            except Exception as err:  # noqa: BLE001 - this process knows; the others when he opens it again
                log.warning("game %s: %s's opening could not be stored: %s", live.id, seat, reason(err))
            live.present |= others
        await self.start_when_ready(live)

    async def start_when_ready(self, live: LiveGame) -> None:
        """A game that waits for its players: t=0 is now if both are there (on whichever process). Another
        process that saw them first may have started it: its t=0 is taken (one t=0 for every process)."""
        if waiting_for(live):
            self.broadcaster.broadcast(live)
            return
        async with live.lock:
            if not live.waiting:
                return
            created_at = round(self.scheduler.now(), 3)
            before = live.created_at
            logged = live.rule_in_log
            live.waiting = False  # started now (as anyone who looks meanwhile sees it) ...
            live.created_at = created_at
            rule = start_rule(live)
            try:  # ... unless another process started it first: then its t=0
                if logged:  # its begin, written in its log with its t=0
                    live.created_at = await self.begin(live, created_at)
                else:
                    live.created_at = await self.link.db(
                        lambda: self.link.store.start_waiting(live.id, created_at, rule))
            except Exception as err:  # noqa: BLE001 - the start stays in memory; a restart waits for them again
                log.error("store failure: %r", err)
            if live.created_at != created_at:
                log.info("game %s: started by another process at %.3f (created %.3f)", live.id, live.created_at,
                         before)
            self.scheduler.schedule(live)
        self.broadcaster.broadcast(live)

    async def start_held(self, live: LiveGame, at: float) -> bool:
        """The arbiter starts a held game (a tournament round's): its t=0 is ``at`` (unix seconds, now or
        later). Returns False if it was not held (already started, or annulled meanwhile)."""
        async with live.lock:
            if not (live.held and live.waiting):
                return False
            live.waiting = False
            live.held = False
            created_at = round(at, 3)
            try:
                if live.rule_in_log:  # its begin, written in its log with its t=0
                    created_at = await self.begin(live, created_at)
                else:
                    await self.link.db(lambda: self.link.store.set_start(live.id, created_at, start_rule(live)))
            except Exception:
                live.waiting = live.held = True
                raise unavailable() from None
            live.created_at = created_at
            self.scheduler.schedule(live)
        if live.early and self.scheduler.t_of(live) >= 0:  # started now: who opened it before is at the board at t=0
            await self.arrive_early(live)
        self.broadcaster.broadcast(live)
        return True

    async def begin(self, live: LiveGame, created_at: float) -> float:
        """Writes the ``begin`` of a waiting game whose log carries its start rule, with its t=0 ``created_at``
        (the caller holds the game's lock). Returns the t=0 in effect: another process's, when it began the
        game first (its log is then caught up)."""
        new = live.game.apply(BEGIN)
        line = new.events[-1].to_json()
        t0, began = await self.link.db(lambda: self.link.store.begin(live.id, created_at, line))
        if began:
            live.game = new
        else:
            try:
                await self.registry.catch_up_locked(live)
            except Exception as err:  # noqa: BLE001 - caught up on the next change or write
                log.warning("game %s: could not catch up with the store: %s", live.id, reason(err))
        return t0

    async def arrive(self, live: LiveGame, seat: str) -> None:
        """A scheduled game: the player is at the board. Before t=0 he will arrive at t=0 exactly."""
        if self.scheduler.t_of(live) < 0:
            if seat not in live.early:
                live.early.add(seat)
                # Kept in the store, not in the log (the Laws write nothing before t=0): every process of the
                # database (the round's console may be served by another one) and a restart know he is here.
                at = self.scheduler.now()
                try:
                    await self.link.db(lambda: self.link.store.note_presence(live.id, seat, at))
                except Exception as err:  # noqa: BLE001 - this process still knows; he is written at t=0
                    log.warning("game %s: %s's opening before the start could not be stored: %s", live.id, seat,
                                reason(err))
                self.broadcaster.tell_watchers(live.id)  # the round's console shows who is there before the start
            return
        async with live.lock:
            st = live.game.state
            if st.ongoing and seat in st.absent:
                try:
                    await self.writer.apply_locked(live, "arrive", seat, {}, seat)  # type: ignore[arg-type]
                except ApiError as err:
                    log.warning("arrival in %s refused: %s", live.id, err.message)
                    # The store is away: he is at the board, written when it is back (if the game had not
                    # ended by itself by then: the server's time stands still at the outage's start).
                    if err.status == 503 and seen_at(live.game, self.scheduler.t_of(live)).state.ongoing:
                        live.early.add(seat)
                    return
            else:
                return
        self.broadcaster.broadcast(live)

    async def arrive_early(self, live: LiveGame) -> None:
        """At t=0: the players who opened the game before are at the board from the start. If another
        event came first (the opponent's arrival just after t=0, an arbiter's event), the early player's
        arrival is written at that event's instant, the earliest the log allows: never dropped, since
        dropping it would leave a player who was there absent until the default time forfeits him."""
        async with live.lock:
            await self.arrivals_locked(live)
        self.broadcaster.broadcast(live)

    async def arrivals_locked(self, live: LiveGame) -> None:
        """The arrivals of ``live.early``, each at the first instant the log allows (the caller holds the
        game's lock). One the store cannot take now (an outage) stays, to be written when it is back (before
        the interruption: :meth:`_give_back`): a player who was there is never dropped for it."""
        for seat in sorted(live.early):
            keep = False
            for _ in range(3):  # another process may write first (his arrival, or another event): read, again
                if self.link.store.shared:
                    try:
                        await self.registry.catch_up_locked(live)
                    except Exception:  # noqa: BLE001 - the store is away: written when it is back
                        keep = True
                        break
                st = live.game.state
                if not (st.ongoing and seat in st.absent):
                    break
                try:
                    await self.writer.apply_locked(live, "arrive", seat, {}, seat,  # type: ignore[arg-type]
                                      at=max(st.t_ms, 0) / 1000)
                    break
                except ApiError as err:
                    log.warning("arrival in %s refused: %s", live.id, err.message)
                    if err.status == 503:
                        keep = True
                        break
                    if err.status != 409:
                        break
            if not keep:
                live.early.discard(seat)

    async def abort(self, live: LiveGame) -> None:
        """Aborts the game (the arbiter's ``annul``) if its side to move made no first move in time."""
        async with live.lock:
            if not abort_due(live, self.scheduler.t_of(live)):
                return
            try:
                await self.writer.apply_locked(live, "annul", "arbiter", {"reason": abort_reason(live)}, "arbiter")
            except ApiError as err:
                log.warning("abort of %s refused: %s", live.id, err.message)
                return
        self.broadcaster.broadcast(live)

    async def refresh_presence(self, live: LiveGame) -> None:
        """Reads again who opened the game before its start (another process's player opened it): a held or
        scheduled game's early arrivals, or the players a fair start waits for."""
        try:
            seats = await self.link.db(lambda: self.link.store.presence(live.id))
        except Exception:  # noqa: BLE001 - read again on the next change
            return
        if live.waiting and not live.held:  # a fair start: both players there, on whichever process
            if seats - live.present:
                live.present |= seats
                await self.start_when_ready(live)
            return
        st = live.game.state
        new = {s for s in seats if s in st.absent} - live.early if st.ongoing and live.scheduled else set()
        if not new:
            return
        live.early |= new
        if self.scheduler.t_of(live) >= 0:  # started meanwhile: he is at the board from t=0 (whoever writes it first)
            await self.arrive_early(live)
        else:
            self.broadcaster.tell_watchers(live.id)
            self.broadcaster.broadcast(live)



__all__ = ["Starts"]

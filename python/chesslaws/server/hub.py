"""The live games: each one a :class:`~chesslaws.game.Game` in memory, its log in the store.

:class:`Hub` is the server's one entry to its games. An event is authorised (who may act for whom), then,
under the game's lock, stamped with ``t`` by the server, checked by the arbiter (``Game.apply``), committed
to the store, and only then applied in memory, acknowledged and published. A flag fall needs no event: the
hub wakes up at the instant the running side's flag falls (``clock.flag_time``), writes the arbiter's
``observe`` into the log (so that the ending is the log's, not only the clock's) and broadcasts the state,
in which an arbiter who is present has observed it.

The rest is done by single-purpose modules: the session rules (:mod:`~chesslaws.server.rules`, pure), the
games in memory (:mod:`~chesslaws.server.registry`), their starts (:mod:`~chesslaws.server.starts`), the
store's outages (:mod:`~chesslaws.server.outages`), the views (:mod:`~chesslaws.server.views`), the
broadcast (:mod:`~chesslaws.server.broadcast`), the clock and timers (:mod:`~chesslaws.server.scheduler`),
the store's thread (:mod:`~chesslaws.server.storelink`) and the errors answered
(:mod:`~chesslaws.server.errors`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any, Awaitable, Callable

from chesslaws.errors import ChessLawsError, InvalidInput, WrongState
from chesslaws.game import Game
from chesslaws.game.flags import due
from chesslaws.server import lapse, rules
from chesslaws.server.broadcast import Broadcaster
from chesslaws.server.errors import RETRY_AFTER_OUTAGE, ApiError, check_id, reason, unavailable
from chesslaws.server.guard import Limits, RateLimiter
from chesslaws.server.live import LiveGame, SetAside, replay_lenient
from chesslaws.server.messages import for_people
from chesslaws.server.newgame import NewGame, make_game
from chesslaws.server.outages import RESTART_GAP, Outages
from chesslaws.server.outbox import Outbox, Subscriber
from chesslaws.server.peers import Peers
from chesslaws.server.registry import Registry
from chesslaws.server.rules import seen_at
from chesslaws.server.scheduler import Clock, Scheduler
from chesslaws.server.starts import Starts
from chesslaws.store.db import StoreError, is_outage
from chesslaws.store.games import HOLDER_TIMEOUT, Seat, SeatTaken, Store, StoreBehind, hash_token
from chesslaws.store.rows import dumps
from chesslaws.server.storelink import StoreLink
from chesslaws.server.views import Views, public_event

log = logging.getLogger("chesslaws.server")

#: The largest request body or WebSocket message accepted, in bytes.
MAX_BODY = 16 * 1024


class _Fenced(Exception):
    """Another process wrote the event's number first (see :meth:`Hub.apply_locked`)."""


class Hub:
    """Every live game, the store and the server's clock."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.rate = RateLimiter(self.limits)
        self.clock = Clock()
        self.link = StoreLink(store, self.clock.now, is_outage, lambda: self.outages.went_down())
        self.scheduler = Scheduler(self.clock, lambda: self.link.down_since, self._wake)
        self.views = Views(self.scheduler.t_of, lambda: self.link.down_since is not None, self.arbiter_watching)
        self.broadcaster = Broadcaster(self.views)
        self.registry = Registry(self.link, self.scheduler, self.views, self.broadcaster,
                                 lambda gid: self.peers.loaded(gid))
        self.starts = Starts(self.link, self.scheduler, self.registry, self.broadcaster, self)
        self.outages = Outages(self.link, self.scheduler, self.registry, self.starts, self.broadcaster)
        self.claim_grace = lapse.CLAIM_GRACE  # a claim that waits for an arbiter nobody watches lapses then
        self.monitor: asyncio.Task[None] | None = None  # the store's pings
        self._listener: Any = None
        # The same objects as the modules': the games in memory and those set aside, the watchers told the id
        # of every game whose state changed (tournaments follow their boards), the scoresheet languages.
        self.games = self.registry.games
        self.set_aside = self.registry.set_aside
        self.watchers = self.broadcaster.watchers
        self.write_move = self.views.write_move
        self.languages = self.views.languages
        self.peers = Peers(self.link, self.registry, self.starts, self.broadcaster, self)
        # Told the id of every tournament another process changed (see :meth:`announce_tournament`).
        self.tournament_watchers = self.peers.tournament_watchers

    # --- the store's state, the clock, the views ------------------------------------------------------
    @property
    def down_since(self) -> float | None:
        """Since when the store is unreachable (unix seconds), or None."""
        return self.link.down_since

    @down_since.setter
    def down_since(self, value: float | None) -> None:
        self.link.down_since = value

    @property
    def last_ok(self) -> float:
        """The last instant the store answered."""
        return self.link.last_ok

    @last_ok.setter
    def last_ok(self, value: float) -> None:
        self.link.last_ok = value

    @property
    def retire_after(self) -> float:
        """Seconds a game that is over stays in memory."""
        return self.registry.retire_after

    @retire_after.setter
    def retire_after(self, value: float) -> None:
        self.registry.retire_after = value

    def now(self) -> float:
        return self.clock.now()

    def t_of(self, live: LiveGame) -> float:
        return self.scheduler.t_of(live)

    def game_now(self, live: LiveGame) -> Game:
        return self.scheduler.game_now(live)

    def later(self, delay: float, job: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle | None:
        return self.scheduler.later(delay, job)

    def schedule(self, live: LiveGame) -> None:
        self.scheduler.schedule(live)

    def next_wakeup_ms(self, live: LiveGame) -> int | None:
        return self.scheduler.next_wakeup_ms(live)

    def language_list(self) -> list[dict[str, str]]:
        return list(self.languages)

    def language_of(self, lang: str | None) -> str:
        return self.views.language_of(lang)

    def view(self, live: LiveGame, lang: str = "en", moves_from: int = 0) -> dict[str, Any]:
        return self.views.view(live, lang, moves_from)

    def state_message(self, live: LiveGame, lang: str) -> str:
        return self.views.state_message(live, lang)

    def summary(self, live: LiveGame) -> dict[str, Any]:
        return self.views.summary(live)

    def localise(self, moves: list[dict[str, Any]], fen: str, lang: str, chess960: bool = False) -> None:
        self.views.localise(moves, fen, lang, chess960)

    def broadcast(self, live: LiveGame, only: Subscriber | None = None,
                  ack: tuple[Subscriber, dict[str, Any]] | None = None) -> None:
        self.broadcaster.broadcast(live, only, ack)

    def send_state(self, live: LiveGame, sub: Subscriber) -> None:
        self.broadcaster.send_state(live, sub)

    def waiting_for(self, live: LiveGame) -> list[str]:
        return rules.waiting_for(live)

    def abort_deadline_ms(self, live: LiveGame) -> int | None:
        return rules.abort_deadline_ms(live)

    def arbiter_watching(self, live: LiveGame) -> bool:
        """Is an arbiter's console of this game open, here or on another process of the database?"""
        return rules.arbiter_watching(Broadcaster.arbiter_here(live), live.arbiters_elsewhere, time.monotonic())

    async def refuse_while_down(self) -> None:
        """Raises the outage's 503 while the store is unreachable (the first request after its return is
        served, the interruptions written first)."""
        await self.outages.refuse_while_down()


    # --- the games in memory ----------------------------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        return self.registry.get(game_id)

    async def fetch(self, game_id: str, *, write: bool = False) -> LiveGame:
        """The game in memory, loaded from its log on demand if it was retired, its ending (if it ended by
        itself) written. With ``write``, the store marks it live again first (an event may follow)."""
        live = await self.registry.loaded_on_demand(game_id)
        if live is None:
            return self.registry.get(game_id)  # 404, or the reason it is set aside
        live.used_at = time.monotonic()
        await self.settle(live)
        if write:
            await self.registry.reopen(live)
        return live

    async def final_view(self, game_id: str) -> dict[str, Any] | None:
        return await self.registry.final_view(game_id)

    def adopt(self, new: NewGame) -> LiveGame:
        """A game made and written by others (a tournament round's) in memory here, and held."""
        live = self.registry.adopt(new)
        self.registry.hold(live.id)
        return live

    def ended(self, live: LiveGame) -> Game | None:
        return self.registry.ended(live)

    def maybe_retire(self, live: LiveGame) -> None:
        self.registry.maybe_retire(live)

    async def refresh_seats(self, live: LiveGame) -> None:
        await self.registry.refresh_seats(live)

    async def settle(self, live: LiveGame) -> Game | None:
        """:meth:`ended`, with an ending that happened by itself first written into the game's log (the
        arbiter's ``observe``: a flag fall, the default time). Every path that shows or takes a result
        (a game's state, the lobby, a tournament's standings) goes through here, so that no result is shown
        that the log does not hold: a SIGKILL right after it, and the restart that gives back the time since
        the last heartbeat, can never undo it. If it cannot be written now (the database is away), the
        ending is still answered; it is written on the next look (:meth:`next_wakeup_ms`)."""
        if rules.ending_unwritten(live, self.t_of(live)):
            try:
                async with live.lock:
                    await self._write_ending_locked(live, self.t_of(live))
            except ApiError as err:
                log.warning("game %s: its ending could not be written into its log yet: %s", live.id, err.message)
        return self.registry.ended(live)

    async def _write_ending_locked(self, live: LiveGame, t: float) -> None:
        """If the game ended by itself by instant ``t`` and its log does not say so yet, the arbiter's
        ``observe`` event at ``t`` (the caller holds the game's lock)."""
        what = rules.ending_to_write(live, t)
        if what is None:
            return
        try:
            await self.apply_locked(live, "observe", "arbiter", {"what": what}, "arbiter", at=t)
        except ApiError as err:
            if err.status != 409:  # 409: another process wrote first; its log, now read, ends the game
                raise

    async def page(self, limit: int, before: str | None = None) -> list[dict[str, Any]]:
        """A page of the lobby, newest first, from the store's index: at most ``limit`` games created
        before the game ``before`` (the last id of the previous page). Games in memory are shown as they
        are now; retired ones by their stored summary; those another running process holds as their log in
        the database has them (not taken into memory here); any other live game is served from here."""
        if before is not None:
            check_id(before, "before: ")
        try:
            rows = await self.link.db(lambda: self.store.page(limit, before))
        except Exception:  # noqa: BLE001
            raise unavailable() from None
        if rows is None:
            raise ApiError(404, f"before: no game {before!r}")
        elsewhere = [gid for gid, _, final in rows if final is None and gid not in self.games
                     and gid not in self.set_aside]
        glanced: dict[str, dict[str, Any]] = {}
        if elsewhere and self.store.holding:  # a live game another process holds: its summary, not held here
            try:
                since = self.now() - HOLDER_TIMEOUT
                held = await self.link.db(lambda: self.store.holders(elsewhere, since))
                glanced = await self.registry.glance([gid for gid in elsewhere if held.get(gid)])
            except Exception:  # noqa: BLE001
                raise unavailable() from None
        out = []
        for gid, status, final in rows:
            live = self.games.get(gid)
            if gid in glanced:
                out.append(glanced[gid])
                continue
            if live is None and final is None and gid not in self.set_aside:
                try:  # a live game no running process holds (or a store of one process): served here
                    live = await self.fetch(gid)
                except ApiError:
                    pass
            if live is not None:
                await self.settle(live)
                out.append(self.summary(live))
            elif final is not None:
                out.append(final["summary"])
            elif gid in self.set_aside:
                out.append({"id": gid, "status": "set_aside", "reason": self.set_aside[gid].reason})
        return out

    async def annul_set_aside(self, game_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """The arbiter annuls a game that was set aside: the annulment is appended to its log, and the
        game (its replayable part, annulled) is served again."""
        aside, game = self.registry.annulment(game_id, token, body)
        await self.refuse_while_down()
        return await self.registry.annul(aside, game)

    # --- new games, seats, starts -----------------------------------------------------------------------
    async def create(self, start: dict[str, Any], names: dict[str, str | None], interface: str,
                     start_in: float = 0.0, *, when_ready: bool = False,
                     abort_after: float | None = None, presence: bool = False,
                     held: bool = False, arbiter_token: bool = True) -> tuple[LiveGame, dict[str, str]]:
        """A new game. ``held``: a tournament round's game, whose t=0 comes when the arbiter starts the
        round (:meth:`start_held`); with ``presence``, the players are absent until they open it.
        ``arbiter_token``: False, the game has no arbiter's token (nobody can act as its arbiter)."""
        try:
            new = make_game(start, names, interface, round(self.now() + start_in, 3), self.games,
                            when_ready=when_ready, abort_after=abort_after, presence=presence, held=held,
                            arbiter_token=arbiter_token)
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None
        await self.refuse_while_down()
        rec = new.record
        try:
            await self.link.db(lambda: self.store.create_game(rec))
        except Exception as err:  # the database is down or refuses: no game
            log.error("store failure: %s", reason(err))
            raise ApiError(503, "the game could not be stored: the database is unreachable; try again",
                           retry_after=RETRY_AFTER_OUTAGE) from None
        return self.registry.adopt(new), new.tokens  # held since its creation; its start rule in its first line

    async def join(self, live: LiveGame, seat: str, name: str) -> str:
        """A player takes a free seat; returns its token."""
        if seat not in ("white", "black"):
            raise ApiError(422, "seat must be \"white\" or \"black\"")
        if live.token_hashes.get(seat):
            raise ApiError(409, f"the {seat} seat is taken")
        token = secrets.token_urlsafe(24)
        h = hash_token(token)
        async with live.lock:
            try:
                await self.link.db(lambda: self.store.take_seat(live.id, seat, h, name))  # type: ignore[arg-type]
            except SeatTaken as err:
                raise ApiError(409, str(err)) from None
            except Exception as err:  # noqa: BLE001
                log.error("store failure: %s", reason(err))
                raise ApiError(503, "the seat could not be stored: the database is unreachable; try again",
                               retry_after=RETRY_AFTER_OUTAGE) from None
            live.token_hashes[seat] = h
            live.names[seat] = name
        self.broadcast(live)
        return token

    async def present(self, live: LiveGame, seat: str | None) -> None:
        """A player has opened the game (his seat's WebSocket): see :meth:`Starts.present`."""
        await self.starts.present(live, seat)

    async def start_held(self, live: LiveGame, at: float) -> bool:
        """The arbiter starts a held game (a tournament round's) at ``at``: see :meth:`Starts.start_held`."""
        return await self.starts.start_held(live, at)

    async def refresh_presence(self, live: LiveGame) -> None:
        await self.starts.refresh_presence(live)

    # --- events: authorise, lock, judge, commit, publish ----------------------------------------------
    async def submit(self, live: LiveGame, body: Any, seat: Seat | None, *,
                     via: Subscriber | None = None, rid: Any = None) -> dict[str, Any]:
        """Stamps, checks, commits, applies and broadcasts one event; returns the acknowledgement.
        ``via``: the socket (asking for new moves) that sent it, under ``rid``: its acknowledgement
        carries its new state and goes into its queue with the broadcast (``"queued"`` in the result)."""
        if seat is None:
            raise ApiError(401, "a seat token is needed to act in a game (spectators only watch)")
        kind, schema = rules.event_kind(body)
        if seat in ("white", "black") and kind == "stop_clocks":
            rules.check_summons(live.game.state.config, self.arbiter_watching(live))
        await self.refuse_while_down()
        by = rules.actor(live.interface, kind, schema, seat, body, self.limits)
        # The locked part runs as a task of its own: if the client goes away, the event is still either
        # committed and applied, or neither (the memory never drifts from the log).
        task = asyncio.ensure_future(self._submit_locked(live, kind, by, body, seat, via, rid))
        return await asyncio.shield(task)

    async def _submit_locked(self, live: LiveGame, kind: str, by: str, body: dict[str, Any],
                             seat: Seat, via: Subscriber | None = None, rid: Any = None) -> dict[str, Any]:
        async with live.lock:
            ack, new, t = await self.apply_locked(live, kind, by, body, seat)
        if via is not None and via.delta and via in live.subscribers:
            # One frame for the sender instead of two: its acknowledgement carries its state.
            self.broadcast(live, ack=(via, {"kind": "ack", "rid": rid, "seq": ack["seq"], "event": ack["event"]}))
            ack["queued"] = True
        else:
            self.broadcast(live)
        self.maybe_retire(live)
        if rules.claim_left_going(kind, by, new.state):  # an incorrect claim (2023 11.5)
            live.incorrect_claims[by] = n = live.incorrect_claims.get(by, 0) + 1
            annoyance = rules.annoyance_alert(by, n, new.state, self.limits)
            if annoyance is not None:
                self.alert(live, annoyance)
        for alert in rules.alerts_after(seat, kind, new, t):
            self.alert(live, alert)
        return ack

    async def apply_locked(self, live: LiveGame, kind: str, by: str, body: dict[str, Any],
                           seat: Seat, *, at: float | None = None) -> tuple[dict[str, Any], Game, float]:
        """Stamps, checks, commits and applies one event; the caller holds the game's lock.
        ``at``: the server's own events only, an instant already passed (arrivals at t=0).
        Returns the acknowledgement, the new game and the event's t.

        On a database other processes write to, the event is judged on the game as this process has it,
        caught up first only when another process announced events it lacks: the log's numbering fences the
        write (an event another process wrote meanwhile under the same number refuses it), and then the game is
        caught up and the event judged again on it, as if it had come a moment later."""
        for _ in range(3):
            if self.store.shared and live.heard >= live.seq:  # another process wrote: judge on the whole log
                try:
                    await self.registry.catch_up_locked(live)
                except Exception:  # noqa: BLE001
                    raise unavailable() from None
            try:
                return await self._apply_once(live, kind, by, body, seat, at)
            except _Fenced:
                live.heard = max(live.heard, live.seq)
        raise ApiError(409, "another event was recorded first (the game moved on): look at the new state and try again")

    async def _apply_once(self, live: LiveGame, kind: str, by: str, body: dict[str, Any], seat: Seat,
                          at: float | None) -> tuple[dict[str, Any], Game, float]:
        t, before_start = rules.stamp(live, self.t_of(live) if at is None else at, kind, by)
        ms = round(t * 1000)
        # Something happened by itself by t (a flag fall observed, the default time)? Asked once: usually not.
        by_itself = due(live.game.state, ms)
        if by_itself and kind != "observe":  # a game that ended by itself by then: the ending is written first
            await self._write_ending_locked(live, t)
            by_itself = due(live.game.state, ms)
        event: dict[str, Any] = {"type": kind, "t": t, "by": by}
        for k, v in body.items():  # (a loop: no dictionary built to be copied in)
            if k != "type" and k != "t" and k != "by":
                event[k] = v
        game = live.game
        if live.interface != "otb":  # judged on the game as it stands at t (a flag may have fallen)
            rules.check_legal(seen_at(game, t) if by_itself else game, event)
        try:
            new = game.apply(event)
        except WrongState as err:  # said for people: what was not done and why, without the log's t=
            if seat != "arbiter" and rules.log_full(live.seq, self.limits):
                raise self._log_full(live, by) from None  # the reason that matters: only the arbiter acts now
            raise ApiError(409, for_people(err)) from None
        except (InvalidInput, ChessLawsError) as err:
            raise ApiError(422, str(err)) from None
        except Exception:
            # The arbiter should have answered with a ChessLawsError: a real fault, logged with its
            # traceback; the client learns only that nothing was recorded.
            log.exception("arbiter failure in game %s on %s", live.id, event)
            raise ApiError(422, "the arbiter could not process this event; nothing was recorded "
                                "(the fault is logged for the server's operator)") from None
        if seat != "arbiter":
            rules.check_awaited_arbiter(game, new, lambda: self.arbiter_watching(live))
            self._may_log(live, kind, by, new)
        line = new.events[-1].to_json()
        seq = live.seq
        try:
            await self.link.commit(live.id, seq, line)
        except StoreBehind:  # the database lost the events before this one (a failover): no gap is written
            await self.registry.reload_locked(live)
            raise ApiError(409, "the game went back to its last event the database kept (it lost the ones after "
                                "it): look at the state and play again") from None
        except StoreError as err:
            if self.store.shared:  # another process appended event `seq` first: fenced off
                raise _Fenced() from None
            log.error("game %s: event %d refused by the store: %s", live.id, seq, reason(err))
            raise ApiError(409, f"the event could not be stored as event {seq} of the log (another server "
                                "process writing to this database, or a fault logged for the operator)") from None
        except Exception as err:  # the database is down: the game is untouched
            log.error("store failure: %s", reason(err))
            self.link.mark_down()
            raise unavailable() from None
        live.game = new
        live.used_at = time.monotonic()
        if before_start and live.waiting:  # annulled before both players came: it waits for nobody now
            live.waiting = live.held = False
            if not live.rule_in_log:  # (a log that carries its start rule says so by the annulment)
                try:
                    await self.link.db(lambda: self.store.set_start(live.id, live.created_at, rules.start_rule(live)))
                except Exception as err:  # noqa: BLE001 - the annulment is in the log; a restart shows it
                    log.error("store failure: %r", err)
        self.schedule(live)
        if seat != "arbiter" and rules.log_full(live.seq, self.limits):
            await self._stop_for_full_log(live, t)
        return {"seq": seq, "event": public_event(line, arbiter=seat == "arbiter")}, new, t

    def _may_log(self, live: LiveGame, kind: str, by: str, new: Game) -> None:
        """Whether a player's event, already judged (``new``), may go into the log; refused (409, nothing
        logged) when it leaves the game going and the log is full (``max_events_per_game``: the room beyond
        is the arbiter's, who decides the game; an event that ends the game is still taken), or when its
        side's budget is spent (:mod:`chesslaws.server.budget`: every kind a player may send counts, before
        and after the end, except a move and an event that ends the game)."""
        if rules.log_full(live.seq, self.limits) and new.state.ongoing:
            raise self._log_full(live, by)
        refused = rules.budget_refusal(self.limits, kind, by, live.game.events, live.game.state, new.state)
        if refused is not None:
            raise refused

    def _log_full(self, live: LiveGame, by: str) -> ApiError:
        if not live.full_alerted:
            live.full_alerted = True
            self.alert(live, rules.log_full_alert(by, live.seq, self.limits))
        return rules.log_full_error(self.limits)

    async def _stop_for_full_log(self, live: LiveGame, t: float) -> None:
        """A player's event filled the log: the arbiter's ruling of :func:`~chesslaws.server.rules.full_log_ruling`
        is entered (in the room kept for him). The caller holds the game's lock."""
        ruling = rules.full_log_ruling(live, self.limits)
        if ruling is None:
            return
        kind, fields = ruling
        try:
            await self.apply_locked(live, kind, "arbiter", fields, "arbiter", at=t)
        except ApiError as err:
            what = "the full log could not end the game" if kind == "decision" else \
                "the clocks could not be stopped at a full log"
            log.warning("game %s: %s: %s", live.id, what, err.message)
            return
        if kind == "stop_clocks":
            live.full_alerted = True
            self.alert(live, rules.full_log_alert(live.seq, self.limits))

    def alert(self, live: LiveGame, alert: dict[str, Any]) -> None:
        """Tells the arbiter's open consoles at once (a message of kind "alert")."""
        log.info("game %s: alert %s", live.id, alert.get("what"))
        self.peers.alert(live, dumps({"kind": "alert", **alert}))

    # --- what happens by itself -------------------------------------------------------------------------
    def _wake(self, live: LiveGame) -> None:
        """The game's timer fired: the early players arrive at t=0, an abort is due, or it ended by itself."""
        if live.early and self.t_of(live) >= 0:
            asyncio.ensure_future(self.starts.arrive_early(live))
        if rules.abort_due(live, self.t_of(live)):
            asyncio.ensure_future(self.starts.abort(live))
        if self.link.down_since is not None:
            return
        if rules.ending_unwritten(live, self.t_of(live)):
            # The game ended by itself (a flag fall observed, the default time): the arbiter's `observe`
            # is written into its log before anyone is told (a restart gives back the time after the last
            # heartbeat, but never to a game whose log says it is over).
            asyncio.ensure_future(self._ended_by_itself(live))
            return
        self.broadcast(live)
        self.maybe_retire(live)  # the state game.at(now): what happened by itself is in it
        self.schedule(live)

    async def _ended_by_itself(self, live: LiveGame) -> None:
        await self.settle(live)  # not written (the database away): the wake-up after its return writes it
        self.broadcast(live)
        self.maybe_retire(live)

    # --- the server's start and stop --------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuilds every stored game from its log. A log that cannot be replayed does not stop the
        server: its game is set aside (served as an error naming the reason) until the arbiter annuls it."""
        self.scheduler.loop = loop = asyncio.get_running_loop()
        await self.link.db(lambda: self.store.beat(self.now()))  # before its first hold (see Store.beat)
        await self.registry.load_live()
        # The time since the last heartbeat (a crash, a restart, an outage the last server did not live
        # through) is time in which no player could move: it is given back.
        beat = await self.link.db(self.store.last_heartbeat)
        now = self.now()
        if beat is not None and now - beat >= RESTART_GAP:
            await self.outages.give_back(beat, now, f"the server was not running for {now - beat:.1f} s",
                                         "the server is back")
        self.scheduler.started = True
        for live in self.games.values():
            self.schedule(live)
        await self.link.db(lambda: self.store.ping(now))
        self.link.last_ok = now
        self.monitor = asyncio.ensure_future(self.outages.watch(self.peers.beat))
        if self.store.shared:  # other processes write too: hear of their changes
            def heard(gid: str | None, what: str) -> None:
                if self.peers.news(gid, what):
                    loop.call_soon_threadsafe(self.peers.changed, gid, what)

            self._listener = self.store.listen(heard)

    async def stop(self) -> None:
        if self.monitor is not None:
            self.monitor.cancel()
        if self._listener is not None:
            await asyncio.to_thread(self._listener.close)
        for live in self.games.values():
            if live.timer is not None:
                live.timer.cancel()
        if self.down_since is None:  # the games that are over leave as they would have: the next start skips them
            await self.registry.retire_all()
            try:  # the last heartbeat: a restart soon after loses nobody any time, a late one gives it back
                await self.link.db(lambda: self.store.ping(self.now()))
                await self.link.db(self.store.stop_holding)
            except Exception:  # noqa: BLE001 - the store is going away: the next start sees the older beat
                pass
        await self.link.db(self.store.close)
        self.link.executor.shutdown(wait=True)

    # --- several processes on one database ----------------------------------------------------------------
    @property
    def origin(self) -> str:
        """This process, in what it announces to the others."""
        return self.peers.origin

    def announce_tournament(self, tid: str) -> None:
        """Tells the other processes of a shared store that the tournament ``tid`` changed (a round paired or
        started, a result, a player's entry): their standings, player and console pages read it again."""
        self.peers.announce(tid, f"tournament {self.peers.origin}")

    def arbiter_console(self, live: LiveGame, opened: bool) -> None:
        """An arbiter's console of the game opened here, or the last one here closed: the players (here and,
        told with NOTIFY, on the other processes) see whether an arbiter watches ("Call the arbiter"), and
        what waits for him (a summons, a claim he decides) is accepted on every process while he does."""
        self.broadcast(live)
        self.peers.announce(live.id, f"arbiter {self.peers.origin} {int(opened)}")
        if not opened:
            lapse.lapse_later(self, live)


__all__ = ["ApiError", "Hub", "LiveGame", "MAX_BODY", "Outbox", "RETRY_AFTER_OUTAGE", "SetAside", "Subscriber",
           "public_event", "replay_lenient", "seen_at"]

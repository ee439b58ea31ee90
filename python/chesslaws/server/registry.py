"""The live games of this process: loaded from their logs (at the start, or on demand once retired), set
aside when a log cannot be replayed, caught up with what other processes of one database appended, and
retired to the store as their final state once they are over."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from typing import Any, Callable

from chesslaws.game import Game
from chesslaws.server.broadcast import Broadcaster
from chesslaws.server.errors import RETRY_AFTER_OUTAGE, ApiError, check_id, reason, unavailable
from chesslaws.server.live import LiveGame, SetAside, replay_lenient
from chesslaws.server.newgame import NewGame
from chesslaws.server.rules import claim_left_going, logged_rule
from chesslaws.server.scheduler import Scheduler
from chesslaws.store.db import StoreError
from chesslaws.store.games import GameRecord
from chesslaws.store.rows import UnreadableRow
from chesslaws.server.storelink import StoreLink
from chesslaws.server.views import Views

log = logging.getLogger("chesslaws.server")

#: Seconds after its last use here after which a game leaves memory when another process writes to it.
UNUSED_AFTER = 5.0

#: The most copies of games held by other processes the lobby keeps (see :meth:`Registry.glance`).
GLANCES = 1000

#: Seconds a game that is over stays in memory (for its last viewers) before it is retired to the
#: store as its final state; it is loaded again on demand.
RETIRE_AFTER = 60.0


class Registry:
    """The games in memory (``games``) and those set aside (``set_aside``). ``loaded``: told the id of each
    game loaded on demand (the arbiter's console of it may be open on another process)."""

    def __init__(self, link: StoreLink, scheduler: Scheduler, views: Views, broadcaster: Broadcaster,
                 loaded: Callable[[str], None]) -> None:
        self.link = link
        self.scheduler = scheduler
        self.views = views
        self.broadcaster = broadcaster
        self.loaded = loaded
        self.games: dict[str, LiveGame] = {}
        self.set_aside: dict[str, SetAside] = {}
        self.retire_after = RETIRE_AFTER
        self.rules: dict[str, Any] = {}  # the online games' start rules, read at start
        self.presence: dict[str, set[str]] = {}  # who opened a scheduled game before its start, read at start
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self.glances: dict[str, LiveGame] = {}  # the lobby's copies of games held elsewhere (see glance)

    # --- loading ------------------------------------------------------------------------------------
    async def load_live(self) -> None:
        """Rebuilds every stored game that is not over from its log (the server's start)."""
        store = self.link.store
        records = await self.link.db(lambda: list(store.load_live(hold=True)))  # games that are over stay there
        self.rules = await self.link.db(store.start_rules)
        self.presence = await self.link.db(store.presences)
        for rec in records:
            self.load(rec)

    def load(self, rec: GameRecord) -> None:
        """Rebuilds a stored game; one that cannot be rebuilt is set aside (never fatal)."""
        try:
            self._load_record(rec)
        except Exception as err:  # noqa: BLE001 - whatever is in a stored row, the server starts
            why = f"it cannot be loaded ({reason(err)})"
            print(f"chesslaws serve: game {rec.id} is set aside: {why}", file=sys.stderr)
            self.games.pop(rec.id, None)
            self.set_aside[rec.id] = SetAside(rec, why, None, 0)

    def _load_record(self, rec: GameRecord) -> None:
        if rec.unreadable is not None:  # its own row: nothing to replay, nothing the arbiter can annul
            print(f"chesslaws serve: game {rec.id} is set aside: {rec.unreadable}; its row in the games table "
                  "must be repaired", file=sys.stderr)
            self.set_aside[rec.id] = SetAside(rec, rec.unreadable, None, 0)
            return
        claims = {"white": 0, "black": 0}  # the incorrect claims of the log (2023 11.5), whichever process took them
        game, good, why = replay_lenient(rec.events, claims)
        if why is not None:
            last = rec.events[-1] if rec.events else {}
            if game is not None and isinstance(last, dict) and last.get("type") == "annul":
                try:  # annulled after being set aside: the replayable part, then the annulment
                    game = game.apply(last)
                    why = None
                except Exception:  # noqa: BLE001
                    pass
            if why is not None:
                print(f"chesslaws serve: game {rec.id} is set aside: its log cannot be replayed ({why}); "
                      "the arbiter may annul it", file=sys.stderr)
                self.set_aside[rec.id] = SetAside(rec, why, game, good)
                return
        assert game is not None
        rule = logged_rule(game)  # in the log's first line; else in the store's table (game_starts)
        if rule is None:
            rule = self.rules.get(rec.id)
        if rule is None:
            rule = {}
        elif isinstance(rule, UnreadableRow):
            if game.state.ongoing:  # its start cannot be known: set aside until the arbiter annuls it
                print(f"chesslaws serve: game {rec.id} is set aside: {rule.reason}; the arbiter may annul it",
                      file=sys.stderr)
                self.set_aside[rec.id] = SetAside(rec, rule.reason, game, good)
                return
            rule = {}
        live = LiveGame(rec.id, rec.created_at, rec.interface, rec.names, rec.token_hashes, game)
        live.follow(rule)
        live.incorrect_claims = claims
        if live.scheduled and game.state.ongoing:  # who opened it before its start, not yet written at the board
            live.early = {s for s in self.presence.get(rec.id, ()) if s in game.state.absent}
        elif live.waiting and not live.held:  # who opened a game that waits for both players
            live.present = set(self.presence.get(rec.id, ()))
        self.games[rec.id] = live
        self.scheduler.schedule(live)
        self.maybe_retire(live)

    async def loaded_on_demand(self, game_id: str) -> LiveGame | None:
        """The game in memory, loaded from its log if it was retired; None if there is none to play (no
        such game, or set aside: :meth:`get` says which)."""
        check_id(game_id)
        live = self.games.get(game_id)
        if live is not None or game_id in self.set_aside:
            return live
        pending = self._loading.get(game_id)
        if pending is None:
            pending = self._loading[game_id] = asyncio.get_running_loop().create_future()
            store = self.link.store
            try:
                rec = await self.link.db(lambda: store.load(game_id, hold=True))
                rule = await self.link.db(lambda: store.start_rule(game_id))
                if rule is not None:
                    self.rules[game_id] = rule
                seats = await self.link.db(lambda: store.presence(game_id))
                if seats:
                    self.presence[game_id] = seats
                if rec is not None and game_id not in self.games:
                    self.load(rec)
                    self.loaded(game_id)
                pending.set_result(self.games.get(game_id))
            except Exception:  # noqa: BLE001
                api = ApiError(503, "the game could not be loaded: the database is unreachable",
                               retry_after=RETRY_AFTER_OUTAGE)
                pending.set_exception(api)
                pending.exception()  # retrieved: waiters get it through shield
                raise api from None
            finally:
                del self._loading[game_id]
        return await asyncio.shield(pending)

    async def glance(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The lobby's summaries of games another process holds, without holding them here (no timer, no
        announcements): each game's log is read from where the copy the lobby keeps of it stops
        (:meth:`Store.glance`), and only its new events are replayed. At most ``GLANCES`` copies are kept."""
        known = {g: self.glances[g].seq if g in self.glances else 0 for g in ids}
        got = await self.link.db(lambda: self.link.store.glance(known))
        out: dict[str, dict[str, Any]] = {}
        for gid, (rec, start) in got.items():
            copy = self.glances.pop(gid, None)
            game: Game | None = None
            if copy is not None and start > 0:
                game = copy.game
                try:
                    for row in rec.events:
                        game = game.apply(row)
                except Exception:  # noqa: BLE001 - read whole below
                    start, game = 0, None
            if game is None:
                events = rec.events if start == 0 else \
                    (await self.link.db(lambda: self.link.store.load(gid)) or rec).events
                game, _, _ = replay_lenient(events)
            if rec.unreadable is not None or game is None:
                continue
            live = LiveGame(rec.id, rec.created_at, rec.interface, rec.names, rec.token_hashes, game)
            live.follow(logged_rule(game) or {})
            self.glances[gid] = live
            out[gid] = self.views.summary(live)
        while len(self.glances) > GLANCES:
            self.glances.pop(next(iter(self.glances)))
        return out

    def get(self, game_id: str) -> LiveGame:
        """The game in memory; 404, or 409 naming why it is set aside."""
        live = self.games.get(game_id)
        if live is None:
            aside = self.set_aside.get(game_id)
            if aside is not None:
                if aside.record.unreadable is not None:
                    raise ApiError(409, f"game {game_id!r} is set aside: {aside.reason}; its operator must "
                                        "repair its row")
                raise ApiError(409, f"game {game_id!r} is set aside: its log cannot be replayed "
                                    f"({aside.reason}); the arbiter may annul it")
            raise ApiError(404, f"no game {game_id!r}")
        return live

    def adopt(self, new: NewGame) -> LiveGame:
        """A new game, once written (with its start rule), in memory and on the clock."""
        r = new.record
        live = LiveGame(r.id, r.created_at, r.interface, dict(r.names), dict(r.token_hashes), new.game)
        live.follow(new.rule or {})
        self.games[r.id] = live
        self.scheduler.schedule(live)
        return live

    async def final_view(self, game_id: str) -> dict[str, Any] | None:
        """The stored final state of a retired game (no replay), or None."""
        check_id(game_id)
        if game_id in self.games or game_id in self.set_aside:
            return None
        try:
            got = await self.link.db(lambda: self.link.store.final(game_id))
        except Exception:  # noqa: BLE001
            raise unavailable() from None
        return None if got is None else dict(got[1]["view"])

    # --- set aside ---------------------------------------------------------------------------------------
    def annulment(self, game_id: str, token: str | None, body: Any) -> tuple[SetAside, Game]:
        """The arbiter's annulment of a game that was set aside: the game (its replayable part) with it."""
        aside = self.set_aside.get(game_id)
        if aside is None:
            raise ApiError(404, f"no game {game_id!r}")
        if aside.seat_of(token) != "arbiter":
            raise ApiError(403, "only the arbiter may annul a game that was set aside")
        if not isinstance(body, dict) or body.get("type") != "annul":
            raise ApiError(409, f"game {game_id!r} is set aside ({aside.reason}): the only event it takes "
                                "is the arbiter's 'annul'")
        if aside.prefix is None:
            raise ApiError(409, f"game {game_id!r} cannot be annulled: even its start cannot be read "
                                f"({aside.reason})")
        why = body.get("reason") if isinstance(body.get("reason"), str) else None
        t = max(aside.prefix.events[-1].t_ms / 1000, 0)
        line = {"type": "annul", "t": t, "by": "arbiter",
                "reason": why or f"its log could not be replayed ({aside.reason})"}
        return aside, aside.prefix.apply(line)

    async def annul(self, aside: SetAside, game: Game) -> dict[str, Any]:
        """Appends the annulment of :meth:`annulment` to the log; the game (annulled) is served again."""
        rec = aside.record
        seq = len(rec.events)
        try:
            await self.link.db(lambda: self.link.store.append(rec.id, seq, game.events[-1].to_json()))
        except StoreError:
            raise ApiError(409, "the annulment could not be stored: the log has moved on") from None
        except Exception:  # noqa: BLE001
            raise unavailable() from None
        del self.set_aside[rec.id]
        self.games[rec.id] = LiveGame(rec.id, rec.created_at, rec.interface, rec.names, rec.token_hashes, game)
        log.warning("game %s: set aside, annulled by the arbiter", rec.id)
        return {"seq": seq, "event": game.events[-1].to_json()}

    # --- several processes on one database ------------------------------------------------------------
    def changed(self, live: LiveGame) -> None:
        """The game's log grew: its timer, its viewers and its retirement follow."""
        self.scheduler.schedule(live)
        self.broadcaster.broadcast(live)
        self.maybe_retire(live)

    def evict_unused(self, live: LiveGame) -> bool:
        """Another process wrote to the game: if nobody here watches it, writes to it or used it for
        ``UNUSED_AFTER`` seconds, it leaves memory (it lives on the process that wrote, where the proxy sends its
        requests; asked for here again, it is loaded from its log) rather than following every event. A tournament
        round's game (its tags name the event and the round) stays: its round's pages here follow its moves. True
        if it left."""
        tags = live.game.state.config.tags
        if live.subscribers or live.lock.locked() or time.monotonic() - live.used_at < UNUSED_AFTER \
                or self.games.get(live.id) is not live or ("round" in tags and "event" in tags):
            return False
        for handle in (live.timer, live.retire):
            if handle is not None:
                handle.cancel()
        live.timer = live.retire = None
        del self.games[live.id]
        self.release(live.id)
        return True

    def release(self, game_id: str) -> None:
        """The game left memory here: the other processes stop announcing its events to this one (unless it is
        back in memory meanwhile: the store's thread runs the calls in order)."""
        if not self.link.store.holding:
            return

        async def run() -> None:
            if game_id in self.games or game_id in self._loading:  # back (or coming back) meanwhile
                return
            try:
                await self.link.db(lambda: self.link.store.release([game_id]))
            except Exception as err:  # noqa: BLE001 - its events are announced here for nothing: no harm
                log.warning("game %s: could not be released: %s", game_id, reason(err))

        asyncio.ensure_future(run())

    def hold(self, game_id: str) -> None:
        """The game came into memory here by other means than a load (a tournament round's, made by the
        tournament store): the other processes announce its events to this one."""
        if not self.link.store.holding:
            return

        async def run() -> None:
            try:
                await self.link.db(lambda: self.link.store.hold([game_id]))
            except Exception as err:  # noqa: BLE001 - taken again on the next beat after an outage
                log.warning("game %s: could not be held: %s", game_id, reason(err))

        asyncio.ensure_future(run())

    async def verify(self) -> None:
        """After the connection to the database was lost: every game in memory against its log in the database. A
        log that grew is caught up with; one that lacks events this process had (a failover to a replica that had
        not received them) is reloaded from the database, and the server's log says so."""
        ids = list(self.games)
        store = self.link.store
        try:
            await self.link.db(lambda: store.hold(ids))  # (again: a failover, or this process's holds swept)
            lengths = await self.link.db(lambda: store.log_lengths(ids))
        except Exception as err:  # noqa: BLE001 - an outage: verified again when the database is back
            log.warning("the games could not be compared with the database: %s", reason(err))
            return
        for gid in ids:
            live = self.games.get(gid)
            if live is None:
                continue
            stored = lengths.get(gid, 0)
            if stored < live.seq:
                async with live.lock:
                    await self.reload_locked(live)
            elif stored > live.seq:
                await self.catch_up(live)

    async def reload_locked(self, live: LiveGame) -> None:
        """The database has fewer events of this game than memory: the game as the database has it replaces the
        one in memory (the events it lacks are lost with the database's past: never written again, never a gap
        after them), and its viewers are shown it; the server's log says so. A game the database no longer has at
        all leaves memory."""
        had = live.seq
        rec = await self.link.db(lambda: self.link.store.load(live.id, hold=True))
        claims = {"white": 0, "black": 0}
        game, _, why = replay_lenient(rec.events, claims) if rec is not None else (None, 0, "no such game")
        if rec is None or game is None or why is not None:
            log.error("game %s: the database went back in time (it has not the %d events this process had: %s); "
                      "the game leaves memory", live.id, had, why)
            if self.games.get(live.id) is live:
                del self.games[live.id]
                self.release(live.id)
            return
        log.error("game %s: the database went back in time: it has %d of the %d events this process had (a "
                  "failover to a replica that had not received them?); the game is reloaded from the database",
                  live.id, len(rec.events), had)
        live.game = game
        live.incorrect_claims = claims
        live.heard = -1
        live.created_at = rec.created_at
        live.token_hashes.update(rec.token_hashes)
        live.forget_views()
        for sub in live.subscribers:  # every viewer gets the whole state again
            sub.sent = None
            sub.sent_controls = None
        self.changed(live)

    async def catch_up(self, live: LiveGame) -> None:
        try:
            async with live.lock:
                await self.catch_up_locked(live)
        except Exception as err:  # noqa: BLE001 - an outage: caught up on the next change or write
            log.warning("game %s: could not catch up with the store: %s", live.id, reason(err))

    async def catch_up_locked(self, live: LiveGame) -> bool:
        """Applies the events another process appended to this game's log; True if there were any."""
        rows = await self.link.db(lambda: self.link.store.events_since(live.id, live.seq))
        if not rows:
            return False
        game = live.game
        for row in rows:
            try:
                game = game.apply(row)
            except Exception as err:  # noqa: BLE001 - another process stored it: it replays
                log.error("game %s: an event stored by another process does not apply here: %s",
                          live.id, reason(err))
                break
            by = str(row.get("by"))
            if claim_left_going(str(row.get("type")), by, game.state):
                # A claim that left the game going, made through another process: counted here too (the
                # arbiter is told by the process that takes the claim reaching the limit, wherever it is).
                live.incorrect_claims[by] = live.incorrect_claims.get(by, 0) + 1
        live.game = game
        if live.waiting and any(row.get("type") == "begin" for row in rows):
            # Another process began this waiting game: its t=0 (the store's created_at) comes with the begin,
            # before anything here judges the game at an instant counted from the old one.
            await self.refresh_seats(live)
        self.changed(live)
        return True

    async def refresh_seats(self, live: LiveGame) -> None:
        """Reads the seats again (another process gave one to a player)."""
        try:
            rec = await self.link.db(lambda: self.link.store.load(live.id))
        except Exception:  # noqa: BLE001
            return
        if rec is not None:
            live.token_hashes.update(rec.token_hashes)
            live.names.update(rec.names)
            if rec.created_at != live.created_at and live.waiting:  # another process started it
                live.created_at = rec.created_at
                live.waiting = False
                live.held = False
                self.scheduler.schedule(live)
            self.broadcaster.broadcast(live)

    # --- games that are over leave memory ------------------------------------------------------------
    def ended(self, live: LiveGame) -> Game | None:
        """The game as it ended, if it is over at the server's instant, else None: the one answer to "is
        this game over, and how" for every path (the lobby, retiring, tournaments). It includes what the
        Laws decided by themselves with no event in the log: a flag fall the arbiter present observes,
        the default time for a player who did not come (both read from the log and the clock, so they
        hold after a restart and on every process of one database)."""
        game = self.scheduler.game_now(live)
        return game if game.state.status in ("finished", "annulled") else None

    def over(self, live: LiveGame) -> bool:
        return self.ended(live) is not None

    def maybe_retire(self, live: LiveGame) -> None:
        """Once a game is over (and nobody watches it), it leaves memory after ``retire_after`` seconds,
        its final state written to the store so that reading it needs no replay."""
        if live.retire is not None:
            live.retire.cancel()
            live.retire = None
        if self.scheduler.loop is None or live.subscribers or not self.over(live):
            return
        live.retire = self.scheduler.later(self.retire_after, lambda: self.retire(live))

    async def retire(self, live: LiveGame, *, stopping: bool = False) -> None:
        """Writes a game that is over to the store as its final state and lets it leave memory (when
        ``stopping``, the server is going away: whoever still watches it)."""
        live.retire = None
        async with live.lock:
            if (live.subscribers and not stopping) or not self.over(live) or self.games.get(live.id) is not live:
                return
            final = {"view": self.views.view(live), "summary": self.views.summary(live)}
            try:
                await self.link.db(lambda: self.link.store.set_final(live.id, final["summary"]["status"], final))
            except Exception as err:  # noqa: BLE001 - stays in memory; tried again on its next change
                log.warning("game %s: could not be retired: %s", live.id, reason(err))
                return
            if live.timer is not None:
                live.timer.cancel()
            del self.games[live.id]
            if not stopping:  # (a server that stops lets go of all its games at once)
                self.release(live.id)

    async def reopen(self, live: LiveGame) -> None:
        """A game that is over but not yet retired takes an event: the store marks it live again first."""
        if live.retire is None and self.over(live):
            try:
                await self.link.db(lambda: self.link.store.set_final(live.id, "live", None))
            except Exception:  # noqa: BLE001
                raise unavailable() from None

    async def retire_all(self) -> None:
        """The server stops: the games that are over leave as they would have (the next start skips them)."""
        for live in list(self.games.values()):
            if live.retire is not None:
                live.retire.cancel()
                live.retire = None
            if self.over(live):
                await self.retire(live, stopping=True)


__all__ = ["GLANCES", "RETIRE_AFTER", "Registry", "UNUSED_AFTER"]

"""The live games: each one a :class:`~chesslaws.game.Game` in memory, its log in the store.

The :class:`Hub` owns the store (on a thread of its own), the server's clock
and every live game. An event is stamped with ``t`` by the server, checked by
the arbiter (``Game.apply``), committed to the store, and only then applied in
memory, acknowledged and broadcast. A flag fall needs no event: the hub wakes
up at the instant the running side's flag falls (``clock.flag_time``) and
broadcasts the state ``game.at(t)``, in which an arbiter who is present has
observed it.
"""

from __future__ import annotations

import asyncio
import hmac
import importlib
import json
import logging
import secrets
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypeVar

from chesslaws.errors import AmbiguousMove, ChessLawsError, IllegalMove, InvalidInput, UnreadableMove, WrongState
from chesslaws.events import SCHEMAS, ms_to_t
from chesslaws.game import Game
from chesslaws.position import STARTING_FEN, Position
from chesslaws.server.controls import controls
from chesslaws.server.store import GameRecord, Seat, SeatTaken, Store, StoreError, hash_token

log = logging.getLogger("chesslaws.server")

T = TypeVar("T")

#: The largest request body or WebSocket message accepted, in bytes.
MAX_BODY = 16 * 1024


class ApiError(Exception):
    """An error answered to the client: an HTTP status and a message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def public_event(event: Mapping[str, Any], *, arbiter: bool) -> dict[str, Any]:
    """A log line as a viewer may see it: a sealed move stays hidden from all but the arbiter."""
    out = dict(event)
    if out.get("type") == "seal" and not arbiter:
        out["move"] = None
    return out


def _notation() -> Callable[..., str] | None:
    try:
        mod = importlib.import_module("chesslaws.notation")
    except ImportError:
        return None
    fn = getattr(mod, "write_move", None)
    return fn if callable(fn) else None


def _languages() -> list[dict[str, str]]:
    """The scoresheet languages ``chesslaws.notation`` knows (code and name), English first."""
    english = [{"code": "en", "name": "English"}]
    try:
        mod = importlib.import_module("chesslaws.notation")
    except ImportError:
        return english
    table = getattr(mod, "LANGUAGES", None)
    if not isinstance(table, Mapping):
        return english
    out = []
    for code, lang in table.items():
        name = getattr(lang, "name", None) or str(code)
        out.append({"code": str(code), "name": str(name)})
    out.sort(key=lambda d: (d["code"] != "en", d["name"]))
    return out if out and out[0]["code"] == "en" else english + out


@dataclass(eq=False)
class Subscriber:
    """A WebSocket viewer: states are queued for its sender task."""

    lang: str
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=64))


@dataclass(eq=False)
class LiveGame:
    id: str
    created_at: float
    interface: str
    names: dict[str, str | None]
    token_hashes: dict[str, str | None]
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    # The fair start of an online game (see Hub.present): t=0 waits until both players have opened it;
    # a game whose side to move makes no first move within abort_after seconds is aborted.
    waiting: bool = False
    abort_after: float | None = None
    present: set[str] = field(default_factory=set)
    # A scheduled online start (Article 6.7): the players are absent until they open the game;
    # those who opened it before t=0 arrive at t=0.
    scheduled: bool = False
    early: set[str] = field(default_factory=set)

    @property
    def seq(self) -> int:
        return len(self.game.events)

    def seat_of(self, token: str | None) -> Seat | None:
        """Which seat this token opens, or None."""
        if not token:
            return None
        h = hash_token(token)
        for seat in ("arbiter", "white", "black"):
            stored = self.token_hashes.get(seat)
            if stored and hmac.compare_digest(stored, h):
                return seat
        return None


class Hub:
    """Every live game, the store and the server's clock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: dict[str, LiveGame] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chesslaws-store")
        # The server's clock: wall time anchored once, then advanced by the monotonic clock.
        self._wall0 = time.time()
        self._mono0 = time.monotonic()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[tuple[tuple[str, int, dict[str, Any]], asyncio.Future[None]]] = []
        self._flushing = False
        self.write_move = _notation()
        self.languages = _languages()
        self._codes = {d["code"] for d in self.languages}

    def language_list(self) -> list[dict[str, str]]:
        return list(self.languages)

    # --- time ------------------------------------------------------------------
    def now(self) -> float:
        return self._wall0 + (time.monotonic() - self._mono0)

    def t_of(self, live: LiveGame) -> float:
        """Seconds since the game's scheduled start, never before its last event."""
        if live.waiting:
            return -1.0  # not started: t=0 comes when both players are there
        t = round(self.now() - live.created_at, 3)
        last = live.game.events[-1].t_ms / 1000
        return max(t, last) if t >= 0 else t

    # --- store access, on the store's own thread ----------------------------------
    async def _commit(self, game_id: str, seq: int, line: dict[str, Any]) -> None:
        """Appends one event; returns once it is committed. Events of several games that wait
        together are committed in one transaction (group commit: one fsync for all)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(((game_id, seq, line), fut))
        if not self._flushing:
            self._flushing = True
            asyncio.ensure_future(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                items = [item for item, _ in batch]
                try:
                    await self._db(lambda: self.store.append_many(items))
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception:
                    # Something in the batch was refused: commit them one by one to tell which.
                    results = []
                    for item in items:
                        try:
                            await self._db(lambda item=item: self.store.append(*item))  # type: ignore[misc]
                            results.append(None)
                        except Exception as err:
                            results.append(err)
                for (_, fut), failure in zip(batch, results):
                    if fut.done():
                        continue
                    if failure is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(failure)
        finally:
            self._flushing = False

    async def _db(self, fn: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn)

    async def start(self) -> None:
        """Rebuilds every stored game from its log."""
        self._loop = asyncio.get_running_loop()
        records = await self._db(lambda: list(self.store.load_all()))
        rules = await self._db(self.store.start_rules)
        for rec in records:
            try:
                game = Game.from_events(rec.events)
            except ChessLawsError as err:
                print(f"chesslaws serve: game {rec.id} cannot be replayed from its log: {err}", file=sys.stderr)
                continue
            live = LiveGame(rec.id, rec.created_at, rec.interface, rec.names, rec.token_hashes, game)
            rule = rules.get(rec.id) or {}
            live.waiting = bool(rule.get("waiting"))
            live.abort_after = rule.get("abort_after")
            live.scheduled = bool(rule.get("scheduled"))
            self.games[rec.id] = live
            self.schedule(live)

    async def stop(self) -> None:
        for live in self.games.values():
            if live.timer is not None:
                live.timer.cancel()
        await self._db(self.store.close)
        self._executor.shutdown(wait=True)

    # --- games -------------------------------------------------------------------
    def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            raise ApiError(404, f"no game {game_id!r}")
        return live

    async def create(self, start: dict[str, Any], names: dict[str, str | None], interface: str,
                     start_in: float = 0.0, *, when_ready: bool = False,
                     abort_after: float | None = None, presence: bool = False) -> tuple[LiveGame, dict[str, str]]:
        start = {"type": "start", "t": 0, **start}
        presence = presence and interface == "online" and not when_ready
        if presence:
            start.setdefault("absent", ["white", "black"])  # present once they open the game (Hub.present)
        try:
            game = Game.from_start(start)
        except InvalidInput as err:
            raise ApiError(422, str(err)) from None
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None
        tokens: dict[str, str] = {"arbiter": secrets.token_urlsafe(24)}
        for seat in ("white", "black"):
            if names.get(seat):
                tokens[seat] = secrets.token_urlsafe(24)
        gid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while gid in self.games:
            gid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        hashes: dict[str, str | None] = {s: (hash_token(tokens[s]) if s in tokens else None) for s in
                                         ("white", "black", "arbiter")}
        created_at = round(self.now() + start_in, 3)
        line = game.events[0].to_json()
        rec = GameRecord(gid, created_at, interface, dict(names), hashes, [line])
        try:
            await self._db(lambda: self.store.create_game(rec))
        except Exception as err:  # the database is down or refuses: no game
            log.error("store failure: %r", err)
            raise ApiError(503, f"the game could not be stored: {err}") from None
        live = LiveGame(gid, created_at, interface, dict(names), hashes, game)
        if interface == "online" and (when_ready or abort_after is not None or presence):
            live.waiting = when_ready
            live.abort_after = abort_after
            live.scheduled = presence
            try:
                await self._db(lambda: self.store.set_start(gid, created_at, self._rule(live)))
            except Exception as err:
                log.error("store failure: %r", err)
                raise ApiError(503, f"the game's start could not be stored: {err}") from None
        self.games[gid] = live
        self.schedule(live)
        return live, tokens

    @staticmethod
    def _rule(live: LiveGame) -> dict[str, Any]:
        return {"waiting": live.waiting, "abort_after": live.abort_after, "scheduled": live.scheduled}

    def waiting_for(self, live: LiveGame) -> list[str]:
        """The seats a waiting game still waits for (not taken, or not yet opened)."""
        if not live.waiting:
            return []
        return [s for s in ("white", "black") if not live.token_hashes.get(s) or s not in live.present]

    async def present(self, live: LiveGame, seat: str | None) -> None:
        """A player has opened the game (his seat's WebSocket): when both are there, t=0 is now."""
        if seat in ("white", "black") and live.scheduled:
            await self._arrive(live, seat)
            return
        if seat not in ("white", "black") or not live.waiting:
            return
        live.present.add(seat)
        if self.waiting_for(live):
            self.broadcast(live)
            return
        async with live.lock:
            if not live.waiting:
                return
            created_at = round(self.now(), 3)
            live.waiting = False
            try:
                await self._db(lambda: self.store.set_start(live.id, created_at, self._rule(live)))
            except Exception as err:  # the start stays in memory; a restart waits for the players again
                log.error("store failure: %r", err)
            live.created_at = created_at
            self.schedule(live)
        self.broadcast(live)

    async def _arrive(self, live: LiveGame, seat: str) -> None:
        """A scheduled game: the player is at the board. Before t=0 he will arrive at t=0 exactly."""
        if self.t_of(live) < 0:
            live.early.add(seat)
            return
        async with live.lock:
            st = live.game.state
            if st.ongoing and seat in st.absent:
                try:
                    await self._apply(live, "arrive", seat, {}, seat)  # type: ignore[arg-type]
                except ApiError as err:
                    log.warning("arrival in %s refused: %s", live.id, err.message)
                    return
            else:
                return
        self.broadcast(live)

    async def _arrive_early(self, live: LiveGame) -> None:
        """At t=0: the players who opened the game before are at the board from the start."""
        async with live.lock:
            for seat in sorted(live.early):
                st = live.game.state
                if st.ongoing and seat in st.absent and st.t_ms == 0:
                    try:
                        await self._apply(live, "arrive", seat, {}, seat, at=0.0)  # type: ignore[arg-type]
                    except ApiError as err:
                        log.warning("arrival in %s refused: %s", live.id, err.message)
            live.early.clear()
        self.broadcast(live)

    def abort_deadline_ms(self, live: LiveGame) -> int | None:
        """When an online game without a first move by the side to move is aborted (ms since t=0), or None."""
        if live.abort_after is None or live.interface != "online" or live.waiting:
            return None
        st = live.game.state
        if not st.ongoing or len(st.moves) >= 2 or st.claims or st.clock.running is None:
            return None
        if st.absent:
            return None  # a player not yet at the board: the default time (Article 6.7) rules, not an abort
        since = st.moves[0].t_ms if st.moves else st.config.start_t_ms
        arrivals = [e.t_ms for e in live.game.events if e.type == "arrive"]
        if arrivals:
            since = max(since, arrivals[-1])  # from the moment both are at the board
        deadline = since + round(live.abort_after * 1000)
        flag = st.clock.flag_time(st.clock.running)
        if flag is not None and flag - 50 < deadline:
            deadline = max(since, flag - 50)  # an abort, never a forfeit without a move
        return deadline

    async def _abort(self, live: LiveGame) -> None:
        async with live.lock:
            deadline = self.abort_deadline_ms(live)
            if deadline is None or self.t_of(live) * 1000 < deadline:
                return
            st = live.game.state
            who = "White" if st.turn == "white" else "Black"
            reason = f"aborted: {who} made no first move within {live.abort_after:g} s"
            try:
                await self._apply(live, "annul", "arbiter", {"reason": reason}, "arbiter")
            except ApiError as err:
                log.warning("abort of %s refused: %s", live.id, err.message)
                return
        self.broadcast(live)

    async def join(self, live: LiveGame, seat: str, name: str) -> str:
        if seat not in ("white", "black"):
            raise ApiError(422, "seat must be \"white\" or \"black\"")
        if live.token_hashes.get(seat):
            raise ApiError(409, f"the {seat} seat is taken")
        token = secrets.token_urlsafe(24)
        h = hash_token(token)
        async with live.lock:
            try:
                await self._db(lambda: self.store.take_seat(live.id, seat, h, name))  # type: ignore[arg-type]
            except SeatTaken as err:
                raise ApiError(409, str(err)) from None
            except Exception as err:
                log.error("store failure: %r", err)
                raise ApiError(503, f"the seat could not be stored: {err}") from None
            live.token_hashes[seat] = h
            live.names[seat] = name
        self.broadcast(live)
        return token

    # --- events ----------------------------------------------------------------------
    async def submit(self, live: LiveGame, body: Any, seat: Seat | None) -> dict[str, Any]:
        """Stamps, checks, commits, applies and broadcasts one event; returns the acknowledgement."""
        if seat is None:
            raise ApiError(401, "a seat token is needed to act in a game (spectators only watch)")
        if not isinstance(body, dict):
            raise ApiError(422, "an event is a JSON object such as {\"type\": \"move\", \"move\": \"e4\"}")
        kind = body.get("type")
        if not isinstance(kind, str):
            raise ApiError(422, "every event needs a 'type' (a string)")
        schema = SCHEMAS.get(kind)
        if schema is None:
            raise ApiError(422, f"unknown event type {kind!r}; known: {', '.join(sorted(SCHEMAS))}")
        if kind == "start":
            raise ApiError(409, "the game has already started ('start' is only the log's first line)")
        if "t" in body:
            raise ApiError(422, "do not send 't': the server's clock stamps every event")
        claimed_by = body.get("by")
        if seat in ("white", "black"):
            if schema.by == "arbiter":
                raise ApiError(403, f"'{kind}' is an arbiter's event: it needs the arbiter's token")
            if claimed_by is not None and claimed_by != seat:
                raise ApiError(403, f"this token is {seat}'s: it cannot act for {claimed_by!r}")
            if live.interface == "otb" and schema.by == "player":
                pass  # players may still act themselves in over-the-board mode
            by: str = seat
        else:  # the arbiter
            if schema.by == "player":
                if live.interface != "otb":
                    raise ApiError(403, "in an online game each player acts for himself; the arbiter enters "
                                        "player events only in over-the-board mode (interface 'otb')")
                if claimed_by not in ("white", "black"):
                    raise ApiError(422, f"the arbiter entering '{kind}' must say for whom: 'by': \"white\" or \"black\"")
                by = str(claimed_by)
            elif schema.by == "any":
                if claimed_by not in (None, "arbiter", "white", "black"):
                    raise ApiError(422, "'by' must be \"white\", \"black\" or \"arbiter\"")
                by = str(claimed_by or "arbiter")
            else:
                if claimed_by not in (None, "arbiter"):
                    raise ApiError(422, "an arbiter's event has 'by': \"arbiter\"")
                by = "arbiter"
        # The locked part runs as a task of its own: if the client goes away, the event is still either
        # committed and applied, or neither (the memory never drifts from the log).
        task = asyncio.ensure_future(self._submit_locked(live, kind, by, body, seat))
        return await asyncio.shield(task)

    async def _submit_locked(self, live: LiveGame, kind: str, by: str, body: dict[str, Any],
                             seat: Seat) -> dict[str, Any]:
        async with live.lock:
            ack = await self._apply(live, kind, by, body, seat)
        self.broadcast(live)
        return ack

    async def _apply(self, live: LiveGame, kind: str, by: str, body: dict[str, Any],
                     seat: Seat, *, at: float | None = None) -> dict[str, Any]:
        """Stamps, checks, commits and applies one event; the caller holds the game's lock.
        ``at``: the server's own events only, an instant already passed (arrivals at t=0)."""
        if live.waiting:
            raise ApiError(409, "the game has not started: it starts when both players have opened it")
        t = self.t_of(live) if at is None else at
        if t < 0:
            raise ApiError(409, f"the game has not started yet: it starts in {-t:.0f} s")
        event: dict[str, Any] = {"type": kind, "t": t, "by": by}
        event.update({k: v for k, v in body.items() if k not in ("type", "t", "by")})
        game = live.game
        seen = game.at(t) if t * 1000 >= game.state.t_ms else game
        if live.interface != "otb":
            self._check_legal(seen, event)
        try:
            new = game.apply(event)
        except WrongState as err:
            raise ApiError(409, str(err)) from None
        except InvalidInput as err:
            raise ApiError(422, str(err)) from None
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None
        except Exception as err:
            # The arbiter should have answered with a ChessLawsError: report it, keep the game as it was.
            log.exception("arbiter failure on %s", event)
            raise ApiError(422, f"the arbiter cannot process this event ({type(err).__name__}: {err})") from None
        line = new.events[-1].to_json()
        seq = live.seq
        try:
            await self._commit(live.id, seq, line)
        except StoreError as err:
            raise ApiError(409, f"the event could not be stored: {err}") from None
        except Exception as err:  # the database is down: the game is untouched
            log.error("store failure: %r", err)
            raise ApiError(503, f"the game log could not be written: {err}") from None
        live.game = new
        self.schedule(live)
        return {"seq": seq, "event": public_event(line, arbiter=seat == "arbiter")}

    @staticmethod
    def _check_legal(seen: Game, event: dict[str, Any]) -> None:
        """A live interface rejects illegal moves before they reach the log."""
        st = seen.state
        if not st.ongoing or event.get("by") != st.turn:
            return  # the arbiter answers (game over, out of turn)
        kind = event["type"]
        text = event.get("move")
        if kind not in ("move", "claim_draw") or not isinstance(text, str):
            return
        try:
            st.position.parse_move(text)
        except IllegalMove:
            raise ApiError(422, f"illegal move {text!r} in this position") from None
        except AmbiguousMove as err:
            raise ApiError(422, f"ambiguous move {text!r}: it could be {', '.join(err.candidates)}") from None
        except UnreadableMove:
            raise ApiError(422, f"unreadable move {text!r}: write it in SAN (Nf3) or UCI (g1f3)") from None
        except ChessLawsError as err:
            raise ApiError(422, str(err)) from None

    # --- views ----------------------------------------------------------------------------
    def view(self, live: LiveGame, lang: str = "en") -> dict[str, Any]:
        """The state of the spec, plus what a board needs: moves, legal moves, names, server time."""
        t = self.t_of(live)
        game = live.game
        if t * 1000 >= game.state.t_ms:
            game = game.at(t)
        st = game.state
        cfg = st.config
        out = game.to_json()
        moves = [
            {"ply": m.ply, "color": m.color, "san": m.san, "uci": m.uci, "t": ms_to_t(m.t_ms),
             "clock_ms": m.clock_ms, "draw_offer": m.draw_offer}
            for m in st.moves
        ]
        self._fens(moves, cfg.fen)
        if lang != "en" and self.write_move is not None and lang in self._codes:
            self._localise(moves, cfg.fen, lang)
        legal: list[dict[str, str]] = []
        if st.ongoing:
            legal = [{"uci": u, "san": s} for u, s in st.position.legal_moves_san()]
            if lang != "en" and self.write_move is not None and lang in self._codes:
                self._localise_legal(legal, st.position, lang)
        out.update({
            "id": live.id,
            "seq": live.seq,
            "server_t": t,
            "started": t >= 0,
            "white": live.names.get("white") or cfg.white,
            "black": live.names.get("black") or cfg.black,
            "seats_open": [s for s in ("white", "black") if not live.token_hashes.get(s)],
            "edition": cfg.edition.name,
            "time_control": str(cfg.time_control) if not cfg.time_control.unlimited else "-",
            "mode": cfg.mode,
            "arbiter": "present" if cfg.arbiter_present else "absent",
            "flags_observed": cfg.flags_observed,
            "interface": live.interface,
            "initial_fen": cfg.fen,
            "moves": moves,
            "legal_moves": legal,
            "check": st.position.is_check(),
            "absent": sorted(st.absent),
            "lang": lang,
            "waiting_for": self.waiting_for(live),
            "abort_at": (lambda d: None if d is None else ms_to_t(d))(self.abort_deadline_ms(live)),
            "aborted": self._aborted(game),
            "controls": controls(st, lang),
        })
        return out

    @staticmethod
    def _aborted(game: Game) -> bool:
        """Was the game aborted by the server (an ``annul`` whose reason begins with 'aborted:')?"""
        last = game.events[-1]
        return (game.state.status == "annulled" and last.type == "annul"
                and str(last.get("reason") or "").startswith("aborted:"))

    @staticmethod
    def _fens(moves: list[dict[str, Any]], fen: str) -> None:
        """Each move's resulting position (the page steps through the game with them)."""
        pos = Position(fen)
        try:
            for m in moves:
                pos = pos.play(m["uci"])
                m["fen"] = pos.fen()
        except ChessLawsError as err:  # a move the record keeps but the board cannot replay
            log.warning("cannot replay %s: %r", m.get("uci"), err)

    def _localise_legal(self, legal: list[dict[str, str]], pos: Position, lang: str) -> None:
        """The legal moves in the scoresheet's letters too (keyboard entry in that language)."""
        assert self.write_move is not None
        try:
            for m in legal:
                m["san_local"] = str(self.write_move(pos, m["uci"], lang))
        except Exception as err:  # another engineer's module: never let it break a state
            log.warning("notation failed for %s: %r", lang, err)

    def _localise(self, moves: list[dict[str, Any]], fen: str, lang: str) -> None:
        assert self.write_move is not None
        pos = Position(fen)
        try:
            for m in moves:
                m["san_local"] = str(self.write_move(pos, m["uci"], lang))
                pos = pos.play(m["uci"])
        except Exception as err:  # another engineer's module: never let it break a state
            log.warning("notation failed for %s: %r", lang, err)
            for m in moves:
                m.pop("san_local", None)

    def state_message(self, live: LiveGame, lang: str) -> str:
        return json.dumps({"kind": "state", "state": self.view(live, lang)}, ensure_ascii=False)

    def broadcast(self, live: LiveGame) -> None:
        cache: dict[str, str] = {}
        for sub in list(live.subscribers):
            msg = cache.get(sub.lang)
            if msg is None:
                msg = cache[sub.lang] = self.state_message(live, sub.lang)
            try:
                sub.queue.put_nowait(msg)
            except asyncio.QueueFull:  # a viewer that does not read: only the latest state matters
                try:
                    sub.queue.get_nowait()
                except asyncio.QueueEmpty:
                    pass
                sub.queue.put_nowait(msg)

    # --- flag falls without events ----------------------------------------------------------
    def next_wakeup_ms(self, live: LiveGame) -> int | None:
        """The next instant (ms since the scheduled start) at which the state changes by itself:
        the scheduled start, a flag fall an arbiter present observes, the default time for an absent player."""
        st = live.game.state
        if not st.ongoing:
            return None
        cfg = st.config
        now_ms = round((self.now() - live.created_at) * 1000)
        when: list[int] = []
        if now_ms < 0:
            when.append(0)
        if cfg.flags_observed and st.clock.running is not None:
            ft = st.clock.flag_time(st.clock.running)
            if ft is not None:
                when.append(ft)
        if st.absent:
            when.append(cfg.start_t_ms + cfg.default_time_ms + 1)
        abort = self.abort_deadline_ms(live)
        if abort is not None:
            when.append(abort)
        future = [w for w in when if w >= now_ms]
        return min(future) if future else None

    def schedule(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        ms = self.next_wakeup_ms(live)
        loop = self._loop
        if ms is None or loop is None:
            return
        delay = max(0.0, live.created_at + ms / 1000 - self.now()) + 0.002
        live.timer = loop.call_later(delay, self._wake, live)

    def _wake(self, live: LiveGame) -> None:
        live.timer = None
        if live.early and self.t_of(live) >= 0:
            asyncio.ensure_future(self._arrive_early(live))
        abort = self.abort_deadline_ms(live)
        if abort is not None and self.t_of(live) * 1000 >= abort:
            asyncio.ensure_future(self._abort(live))
            return
        self.broadcast(live)  # the state game.at(now): what happened by itself is in it
        self.schedule(live)

    # --- listing --------------------------------------------------------------------------
    def summary(self, live: LiveGame) -> dict[str, Any]:
        t = self.t_of(live)
        game = live.game
        if t * 1000 >= game.state.t_ms:
            game = game.at(t)
        st = game.state
        cfg = st.config
        return {
            "id": live.id,
            "white": live.names.get("white") or cfg.white,
            "black": live.names.get("black") or cfg.black,
            "edition": cfg.edition.name,
            "time_control": str(cfg.time_control) if not cfg.time_control.unlimited else "-",
            "mode": cfg.mode,
            "status": st.status,
            "result": st.result,
            "termination": st.termination,
            "ply": len(st.moves),
            "created_at": live.created_at,
            "seats_open": [s for s in ("white", "black") if not live.token_hashes.get(s)],
            "starting_position": cfg.fen == STARTING_FEN,
            "waiting_for": self.waiting_for(live),
            "aborted": self._aborted(game),
            "pending": [p["kind"] for p in st.pending()],
            "clocks_stopped": st.ongoing and st.clock.running is None and not cfg.time_control.unlimited,
        }


__all__ = ["ApiError", "Hub", "LiveGame", "MAX_BODY", "Subscriber", "public_event"]

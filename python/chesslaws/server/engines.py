"""Engines in live games: ``chesslaws serve --engine NAME=COMMAND``.

An engine takes a seat like a person: it watches its game as a subscriber
of the hub, and when it has the move it is told the server's clock
(:func:`chesslaws.engines.go_for` at the server's ``t``) and its move goes
through :meth:`Hub.submit` with its seat, stamped by the same server clock
and ruled by the same arbiter. It claims what an engine claims in a match,
by the same rule (:func:`chesslaws.engine_claims.engine_claims`: a threefold
repetition or fifty moves when they occur, the opponent's touch-move
violation, the opponent's flag where flags count only on a claim) when its
turn comes, and the opponent's flag also as soon as it falls. An engine that
crashes or hangs is a player who does not move: its flag falls as the Laws
say.

Engine processes come from a bounded :class:`EnginePool` (``--engine-pool``
processes in all, default 2): a process thinks for one game at a time and
is reused; the strength (``UCI_Elo``, ``Skill Level``, a node or move-time
limit) is set for each move it makes.

Their routes are :mod:`chesslaws.webapp.engines`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field

from chesslaws.clock import Clock
from chesslaws.engine_claims import engine_claims
from chesslaws.engines import EngineCrashed, EngineError, EngineSpec, Go, UciEngine, go_for
from chesslaws.errors import InvalidInput
from chesslaws.server.guard import VisibleName
from chesslaws.server.hub import ApiError, Hub, LiveGame, Subscriber, seen_at

log = logging.getLogger("chesslaws.server.engines")

StrengthKind = Literal["elo", "skill", "nodes", "movetime", "full"]

#: The per-move cap of an Elo or skill setting: at the lowest, at the highest (milliseconds), straight between.
CAP_MS = (1000, 10000)

#: The ``event`` of every game against an engine: how a restarted server finds them again.
EVENT = "Play against the computer"
#: Seconds the server waits, on stopping, for an engine process being started to finish starting and close.
STOP_WAIT = 5.0


@dataclass(frozen=True, slots=True)
class Strength:
    """How strongly an engine plays: ``kind`` and ``value`` (Elo, skill level, nodes, milliseconds)."""

    kind: StrengthKind = "full"
    value: int = 0

    def label(self) -> str:
        return {"elo": f"Elo {self.value}", "skill": f"skill {self.value}", "nodes": f"{self.value} nodes",
                "movetime": f"{self.value} ms a move", "full": "full strength"}[self.kind]

    @classmethod
    def from_label(cls, text: str) -> Strength | None:
        """The strength a :meth:`label` names, or None."""
        if text == "full strength":
            return cls("full", 0)
        for kind, pattern in (("elo", r"Elo (\d+)"), ("skill", r"skill (\d+)"), ("nodes", r"(\d+) nodes"),
                              ("movetime", r"(\d+) ms a move")):
            m = re.fullmatch(pattern, text)
            if m:
                return cls(kind, int(m.group(1)))  # type: ignore[arg-type]
        return None

    def options(self, declared: dict[str, dict[str, str]]) -> dict[str, object]:
        """The UCI options that set this strength on an engine declaring ``declared``."""
        names = {k.lower(): k for k in declared}
        out: dict[str, object] = {}
        if "uci_limitstrength" in names:
            out[names["uci_limitstrength"]] = self.kind == "elo"
        if self.kind == "elo":
            out[names["uci_elo"]] = self.value
        if "skill level" in names:
            top = declared[names["skill level"]].get("max", "20")
            out[names["skill level"]] = self.value if self.kind == "skill" else top
        return out

    def cap_ms(self, low: int, high: int) -> int | None:
        """The longest the engine may think about one move at this strength (milliseconds), or None: a weak
        setting answers at once, a strong one may think longer (:data:`CAP_MS`, from the lowest to the highest
        value the engine offers, ``low`` to ``high``). Nodes and milliseconds a move bound themselves; full
        strength plays by its clock."""
        if self.kind not in ("elo", "skill"):
            return None
        lo, hi = CAP_MS
        if high <= low:
            return lo
        share = min(1.0, max(0.0, (self.value - low) / (high - low)))
        return int(round((lo + (hi - lo) * share) / 100) * 100)

    def limits(self, go: Go, remaining_ms: int | None) -> Go:
        if self.kind == "nodes":
            return replace(go, nodes=self.value)
        if self.kind == "movetime":
            # Never more than the clock allows: half of what is left, as a safety.
            cap = self.value if remaining_ms is None else max(1, min(self.value, remaining_ms // 2))
            return Go(movetime=cap)
        return go


@dataclass
class _Process:
    spec: EngineSpec
    engine: UciEngine
    strength: Strength | None = None
    game: str | None = None


@dataclass
class EngineInfo:
    spec: EngineSpec
    id_name: str | None
    declared: dict[str, dict[str, str]]

    def strengths(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        names = {k.lower(): k for k in self.declared}
        if "uci_elo" in names and "uci_limitstrength" in names:
            d = self.declared[names["uci_elo"]]
            out.append({"kind": "elo", "label": "Elo (UCI_Elo)", "min": int(d.get("min", 0)),
                        "max": int(d.get("max", 3000)), "default": int(d.get("min", 1350)),
                        "cap_ms": list(CAP_MS)})
        if "skill level" in names:
            d = self.declared[names["skill level"]]
            out.append({"kind": "skill", "label": "Skill Level", "min": int(d.get("min", 0)),
                        "max": int(d.get("max", 20)), "default": int(d.get("min", 0)), "cap_ms": list(CAP_MS)})
        if self.spec.protocol == "xboard":  # xboard says seconds a move ("st") and has no node limit
            out.append({"kind": "movetime", "label": "milliseconds a move (whole seconds)", "min": 1000,
                        "max": 600_000, "default": 1000})
        else:
            out.append({"kind": "nodes", "label": "nodes a move", "min": 1, "max": 100_000_000, "default": 1000})
            out.append({"kind": "movetime", "label": "milliseconds a move", "min": 1, "max": 600_000,
                        "default": 100})
        out.append({"kind": "full", "label": "full strength", "min": 0, "max": 0, "default": 0})
        return out


class EnginePool:
    """At most ``size`` engine processes in all; a process thinks for one move of one game at a time."""

    def __init__(self, size: int = 2) -> None:
        self.size = max(1, size)
        self._idle: list[_Process] = []
        self._all: set[UciEngine] = set()  # every process started and not yet closed, busy ones included
        self._busy = 0
        self._lock = threading.Lock()
        self._free = threading.Condition(self._lock)
        self.closed = False

    def acquire(self, spec: EngineSpec, timeout: float) -> _Process:
        """An idle process of ``spec``, or a new one (closing an idle one of another engine if full)."""
        end = time.monotonic() + timeout
        with self._free:
            while True:
                if self.closed:
                    raise EngineError("the server is stopping")
                for i, p in enumerate(self._idle):
                    if p.spec == spec:
                        self._busy += 1
                        return self._idle.pop(i)
                if self._busy + len(self._idle) < self.size or self._idle:
                    victim = None
                    if self._busy + len(self._idle) >= self.size:
                        victim = self._idle.pop(0)
                    self._busy += 1
                    break
                left = end - time.monotonic()
                if left <= 0:
                    raise EngineError(f"no engine process free within {timeout:g} s (pool of {self.size})")
                self._free.wait(left)
        if victim is not None:
            victim.engine.close()
            with self._free:
                self._all.discard(victim.engine)
        try:
            eng = spec.start()
            eng.configure(spec.options)
        except BaseException:
            with self._free:
                self._busy -= 1
                self._free.notify()
            raise
        with self._free:
            stopping = self.closed
            if not stopping:
                self._all.add(eng)
            else:
                self._busy -= 1
        if stopping:  # the server stopped while this process started: it would outlive the pool
            eng.close(timeout=0.2)
            raise EngineError("the server is stopping")
        return _Process(spec, eng)

    def release(self, proc: _Process, *, broken: bool = False) -> None:
        if broken or not proc.engine.alive or self.closed:
            proc.engine.close(timeout=0.2)
            with self._free:
                self._all.discard(proc.engine)
                self._busy -= 1
                self._free.notify()
            return
        with self._free:
            self._busy -= 1
            self._idle.append(proc)
            self._free.notify()

    def close(self) -> None:
        with self._free:
            self.closed = True
            self._idle = []
            every, self._all = list(self._all), set()
            self._free.notify_all()
        for eng in every:  # busy ones too: a search in a pool thread then ends at once (EngineCrashed)
            eng.close(timeout=0.2)

    @property
    def processes(self) -> int:
        with self._lock:
            return self._busy + len(self._idle)


def probe(spec: EngineSpec, timeout: float = 10.0) -> EngineInfo:
    """Starts the engine once to read its name and options (and to fail early if it cannot start)."""
    with spec.start(start_timeout=timeout) as eng:
        eng.configure(spec.options)
        return EngineInfo(spec, eng.id_name, dict(eng.options))


@dataclass(eq=False)
class _Seat:
    live: LiveGame
    color: Literal["white", "black"]
    info: EngineInfo
    strength: Strength
    task: asyncio.Task[None] | None = None
    sub: Subscriber = field(default_factory=lambda: Subscriber("en"))


class EnginePlayers:
    """The registered engines, their pool, and the seats they hold in live games."""

    def __init__(self, hub: Hub, specs: Sequence[EngineSpec], pool_size: int = 2) -> None:
        self.hub = hub
        self.specs = list(specs)
        self.pool = EnginePool(pool_size)
        self.info: dict[str, EngineInfo] = {}
        self.seats: list[_Seat] = []
        self._executor = ThreadPoolExecutor(max_workers=self.pool.size, thread_name_prefix="chesslaws-engine")

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        for spec in self.specs:
            try:
                self.info[spec.name] = await loop.run_in_executor(self._executor, probe, spec)
            except EngineError as err:
                log.error("engine %s cannot be used: %s", spec.name, err)
                print(f"chesslaws serve: engine {spec.name!r} cannot be used: {err}", flush=True)
        self._resume()

    def _resume(self) -> None:
        """After a restart: the engine takes its seat again in the games against it still in play
        (found by the event name and the seat's name, "NAME (strength)", that :meth:`new_game` wrote)."""
        for live in list(self.hub.games.values()):
            st = live.game.state
            if not st.ongoing or st.config.tags.get("event") != EVENT:
                continue
            for color in ("white", "black"):
                name = live.names.get(color) or ""
                for info in self.info.values():
                    strength = Strength.from_label(name[len(info.spec.name) + 2:-1]) \
                        if name.startswith(info.spec.name + " (") and name.endswith(")") else None
                    if strength is None:
                        continue
                    seat = _Seat(live, "white" if color == "white" else "black", info, strength)
                    self.seats.append(seat)
                    live.subscribers.add(seat.sub)
                    seat.task = asyncio.create_task(self._play(seat), name=f"engine-{live.id}")
                    log.info("engine %s resumes its seat in game %s", info.spec.name, live.id)

    async def stop(self) -> None:
        for seat in self.seats:
            if seat.task is not None:
                seat.task.cancel()
        self.pool.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        # A search ends at once on a closed pool, but a process being started finishes starting (and then
        # closes): wait for that, a few seconds at most, so that no child is still being forked when the
        # store closes after this (a forked child holds a copy of the store's file lock until it execs).
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.to_thread(self._executor.shutdown, True), STOP_WAIT)

    def listing(self) -> list[dict[str, Any]]:
        return [{"name": name, "id": info.id_name, "strengths": info.strengths()} for name, info in self.info.items()]

    async def new_game(self, body: dict[str, Any]) -> tuple[LiveGame, str, Literal["white", "black"]]:
        """A game against an engine: returns the game, the person's token and the person's colour."""
        name = body.get("engine")
        info = self.info.get(str(name))
        if info is None:
            known = ", ".join(self.info) or "none (start the server with --engine NAME=COMMAND)"
            raise ApiError(404, f"no engine {name!r}; engines: {known}")
        strength = self._strength(info, body.get("strength") or {})
        color = body.get("color", "white")
        if color == "random":
            color = random.choice(["white", "black"])
        if color not in ("white", "black"):
            raise ApiError(422, "color must be \"white\", \"black\" or \"random\"")
        person = str(body.get("name") or "You")[:100]
        engine_color: Literal["white", "black"] = "black" if color == "white" else "white"
        engine_name = f"{info.spec.name} ({strength.label()})"
        start: dict[str, Any] = {"edition": str(body.get("edition", "2023")),
                                 "time_control": str(body.get("time_control", "300+3")), "arbiter": "present",
                                 color: person, engine_color: engine_name, "event": EVENT}
        names: dict[str, str | None] = {color: person, engine_color: engine_name}
        # The fair start, unless asked for with false: the clocks start when the person opens the
        # game; the engine's seat is there from the start (see :meth:`_play`).
        when_ready = body.get("when_ready") is not False
        live, tokens = await self.hub.create(start, names, "online", when_ready=when_ready)
        if when_ready:
            live.present.add(engine_color)
        seat = _Seat(live, engine_color, info, strength)
        self.seats.append(seat)
        live.subscribers.add(seat.sub)
        seat.task = asyncio.create_task(self._play(seat), name=f"engine-{live.id}")
        self.hub.broadcast(live)  # wakes the engine if it has the first move
        return live, tokens[color], "white" if color == "white" else "black"

    def cap_ms(self, info: EngineInfo, strength: Strength) -> int | None:
        """The per-move cap of ``strength`` on this engine (:meth:`Strength.cap_ms` over the range it offers)."""
        offered = {s["kind"]: s for s in info.strengths()}.get(strength.kind)
        return None if offered is None else strength.cap_ms(int(offered["min"]), int(offered["max"]))

    def _strength(self, info: EngineInfo, raw: Any) -> Strength:
        if not isinstance(raw, dict):
            raise ApiError(422, "strength is an object such as {\"kind\": \"elo\", \"value\": 1500}")
        kind = raw.get("kind", "full")
        offered = {s["kind"]: s for s in info.strengths()}
        if kind not in offered:
            raise ApiError(422, f"strength kind {kind!r} is not offered by {info.spec.name}; "
                                f"offered: {', '.join(offered)}")
        value = raw.get("value", offered[kind]["default"])
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApiError(422, f"strength value must be a whole number, not {value!r}")
        lo, hi = offered[kind]["min"], offered[kind]["max"]
        if kind != "full" and not lo <= value <= hi:
            raise ApiError(422, f"strength {kind} must be between {lo} and {hi}, not {value}")
        return Strength(kind, value)

    # --- the engine's seat ------------------------------------------------------------
    async def _play(self, seat: _Seat) -> None:
        live = seat.live
        answered: tuple[int, int] = (-1, -1)  # the position (moves, events) the engine last answered
        try:
            # The engine has opened the game: a game waiting for its players (after a restart too) waits
            # for the person alone, and starts now if the person is already there.
            await self.hub.present(live, seat.color)
            while True:
                t = self.hub.t_of(live)
                s = seen_at(live.game, t).state
                if not s.ongoing:
                    return
                wait: float | None = None
                if s.turn == seat.color and s.clock.running == seat.color and not s.claims \
                        and (len(s.moves), len(live.game.events)) != answered:
                    answered = (len(s.moves), len(live.game.events))
                    await self._move(seat)
                    continue
                opp = "black" if seat.color == "white" else "white"
                if not s.config.flags_observed and s.clock.running == opp:
                    ft = s.clock.flag_time(opp)
                    if ft is not None:  # looked at again when the opponent's flag falls, to claim it
                        wait = max(0.0, ft / 1000 - t) + 0.01
                        claims = engine_claims(s, seat.color, math.floor(t * 1000))
                        if claims:
                            await self._submit(seat, dict(claims[0]))
                            continue
                try:
                    await asyncio.wait_for(seat.sub.queue.get(), timeout=wait)
                except asyncio.TimeoutError:
                    pass
                while not seat.sub.queue.empty():
                    seat.sub.queue.get_nowait()
        except asyncio.CancelledError:
            raise
        except Exception:  # never let the seat's task die silently
            log.exception("engine seat of game %s failed", live.id)
        finally:
            live.subscribers.discard(seat.sub)
            if seat in self.seats:
                self.seats.remove(seat)

    async def _submit(self, seat: _Seat, body: dict[str, Any]) -> bool:
        try:
            await self.hub.submit(seat.live, body, seat.color)
            return True
        except ApiError as err:
            log.info("engine seat of %s: %s refused: %s", seat.live.id, body, err.message)
            return False

    async def _move(self, seat: _Seat) -> None:
        live = seat.live
        s = live.game.state
        for claim in engine_claims(s, seat.color, math.floor(self.hub.t_of(live) * 1000)):
            if await self._submit(seat, dict(claim)):
                return
        loop = asyncio.get_running_loop()
        t = self.hub.t_of(live)
        flag = s.clock.flag_time(seat.color)
        # The instant (monotonic) its flag falls: waiting for a free process counts on its clock too.
        flag_ns = None if flag is None else time.monotonic_ns() + int(max(0.0, flag / 1000 - t) * 1e9)
        moves = [m.uci for m in s.moves]
        try:
            answer = await loop.run_in_executor(
                self._executor, self._think, seat, live, s.clock, s.t_ms, s.config.fen, moves, flag_ns)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            log.warning("engine %s in game %s: %s", seat.info.spec.name, live.id, err)
            return
        if answer is None:
            return  # crashed or hung: a player who does not move
        await self._submit(seat, {"type": "move", "move": answer})

    def _think(self, seat: _Seat, live: LiveGame, clock: Clock, last_t_ms: int, fen: str, moves: list[str],
               flag_ns: int | None) -> str | None:
        """In a pool thread: one move, or None if the engine crashed, hung or gave no move."""
        game_id = live.id
        wait = 60.0 if flag_ns is None else max(0.05, (flag_ns - time.monotonic_ns()) / 1e9)
        try:
            proc = self.pool.acquire(seat.info.spec, timeout=wait)
        except EngineError as err:
            log.warning("no engine for game %s: %s", game_id, err)
            return None
        broken = False
        try:
            eng = proc.engine
            if proc.strength != seat.strength:
                eng.configure(seat.strength.options(dict(eng.options)))
                proc.strength = seat.strength
            if proc.game != game_id:
                eng.new_game()
                proc.game = game_id
            # The clock as it stands now, at the server's t.
            now_ms = max(last_t_ms, round((self.hub.now() - live.created_at) * 1000))
            left = None if flag_ns is None else max(0, (flag_ns - time.monotonic_ns()) // 1_000_000)
            limits = seat.strength.limits(go_for(clock, now_ms), left)
            if limits.wtime is None and limits.nodes is None and limits.movetime is None and limits.depth is None:
                limits = Go(movetime=1000)  # no clock and no limit: a second a move, not "go infinite"
            go_ns = eng.go(fen, moves, limits)
            deadline = None if flag_ns is None else flag_ns + 50_000_000
            if deadline is None:
                deadline = time.monotonic_ns() + 600 * 10**9
            cap = self.cap_ms(seat.info, seat.strength)
            if cap is not None and go_ns + cap * 1_000_000 < deadline:
                # A weak setting answers at once: at its cap the engine is told to move now (UCI "stop",
                # xboard "?") and its best move so far is played.
                bm = eng.wait_bestmove(go_ns + cap * 1_000_000)
                if bm is None:
                    bm = eng.stop(max(0.5, min(2.0, (deadline - time.monotonic_ns()) / 1e9)))
                    if bm is None:
                        broken = True
                        log.warning("engine %s in game %s did not stop at its cap", seat.info.spec.name, game_id)
                        return None
                return bm.move or None
            bm = eng.wait_bestmove(deadline)
            if bm is None:  # past its flag: the Laws have ruled; the process is not trusted again
                broken = eng.stop(0.5) is None
                log.warning("engine %s in game %s did not move before its flag fell", seat.info.spec.name, game_id)
                return None
            return bm.move or None
        except EngineCrashed as err:
            broken = True
            log.warning("engine %s in game %s crashed: %s", seat.info.spec.name, game_id, err)
            return None
        except EngineError as err:
            broken = True
            log.warning("engine %s in game %s: %s", seat.info.spec.name, game_id, err)
            return None
        finally:
            self.pool.release(proc, broken=broken)


class StrengthIn(BaseModel):
    """How strongly the engine plays: Elo (UCI_Elo), skill (Skill Level), nodes or milliseconds a move."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["elo", "skill", "nodes", "movetime", "full"] = "full"
    value: int | None = None


class EngineGame(BaseModel):
    """A game against a registered engine."""

    model_config = ConfigDict(extra="forbid")
    engine: str = Field(max_length=100)
    color: Literal["white", "black", "random"] = Field("white", description="the person's colour")
    name: VisibleName = Field("You", min_length=1, max_length=100, description="the person's name")
    strength: StrengthIn = StrengthIn()
    time_control: str = Field("300+3", max_length=200, description="e.g. 300+3, 40/5400+30:1800+30, 300d5")
    edition: Literal["1989", "1997", "2023"] = "2023"
    when_ready: bool | None = Field(None, description=(
        "the clocks start when the person has opened the game (its WebSocket with the token): the default "
        "(left out, true); false starts the clocks at creation"))


def parse_engines(values: Sequence[str]) -> list[EngineSpec]:
    """``--engine NAME=COMMAND`` values; names must be unique."""
    specs = [EngineSpec.parse(v) for v in values]
    seen: set[str] = set()
    for s in specs:
        if s.name in seen:
            raise InvalidInput(f"--engine: the name {s.name!r} is given twice")
        seen.add(s.name)
    return specs


__all__ = ["EngineInfo", "EnginePlayers", "EnginePool", "Strength", "parse_engines", "probe"]

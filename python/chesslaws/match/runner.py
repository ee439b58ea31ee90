"""A match: its games played by worker threads, one engine pair each (:func:`run_match`), stopped early when
the SPRT decides."""

from __future__ import annotations

import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from chesslaws.engines import EngineSpec, UciEngine
from chesslaws.match.adjudication import Adjudication
from chesslaws.match.openings import Opening
from chesslaws.match.play import GameResult, Side, play_game
from chesslaws.match.statistics import Sprt, Tally
from chesslaws.timecontrol import TimeControl

__all__ = ["MatchConfig", "MatchReport", "PgnSink", "run_match", "unique_names"]


@dataclass(frozen=True, slots=True)
class MatchConfig:
    engines: tuple[EngineSpec, EngineSpec]
    time_control: TimeControl
    games: int = 2
    edition: str = "2023"
    concurrency: int = 1
    openings: tuple[Opening, ...] = (Opening(None),)
    adjudication: Adjudication = Adjudication()
    sprt: Sprt | None = None
    event: str = "chesslaws match"


@dataclass(slots=True)
class MatchReport:
    tally: Tally
    results: list[GameResult]
    sprt_decision: str | None
    stopped_early: bool
    seconds: float


def _start(spec: EngineSpec, registry: set[UciEngine], lock: threading.Lock) -> UciEngine:
    eng = spec.start()
    with lock:
        registry.add(eng)
    try:
        eng.configure(spec.options)
    except BaseException:
        eng.close()
        raise
    return eng


class PgnSink(Protocol):
    """Where the games go as they end (``--pgnout``: :class:`chesslaws.atomic.AppendOutput`)."""

    def write(self, text: str, /) -> int: ...
    def flush(self) -> None: ...


def run_match(cfg: MatchConfig, *, on_result: Callable[[GameResult, Tally], None] | None = None,
              pgn_out: PgnSink | None = None) -> MatchReport:
    """Plays the match; ``on_result`` is called after each game (from the main thread)."""
    jobs: queue.Queue[tuple[int, Opening, Side] | None] = queue.Queue()
    for i in range(cfg.games):
        opening = cfg.openings[(i // 2) % len(cfg.openings)]
        jobs.put((i + 1, opening, "A" if i % 2 == 0 else "B"))
    workers = max(1, min(cfg.concurrency, cfg.games))
    for _ in range(workers):
        jobs.put(None)
    done: queue.Queue[GameResult | BaseException] = queue.Queue()
    stop = threading.Event()
    registry: set[UciEngine] = set()
    lock = threading.Lock()

    def worker() -> None:
        mine: dict[Side, UciEngine | None] = {"A": None, "B": None}
        specs: dict[Side, EngineSpec] = {"A": cfg.engines[0], "B": cfg.engines[1]}
        try:
            while not stop.is_set():
                job = jobs.get()
                if job is None:
                    break
                round_no, opening, white_side = job
                for side in ("A", "B"):
                    if mine[side] is None:
                        mine[side] = _start(specs[side], registry, lock)
                black_side: Side = "B" if white_side == "A" else "A"
                white_eng, black_eng = mine[white_side], mine[black_side]
                assert white_eng is not None and black_eng is not None
                result = play_game(
                    {"white": white_eng, "black": black_eng}, time_control=cfg.time_control,
                    edition=cfg.edition, opening=opening, adjudication=cfg.adjudication,
                    names={"white": specs[white_side].name, "black": specs[black_side].name},
                    round_no=round_no, event=cfg.event, white_side=white_side,
                )
                for color in result.broken:
                    side = white_side if color == "white" else black_side
                    eng = mine[side]
                    if eng is not None:
                        eng.close()
                    mine[side] = None
                done.put(result)
        except BaseException as err:  # reported by the main thread
            done.put(err)
        finally:
            for eng in mine.values():
                if eng is not None:
                    eng.close()

    threads = [threading.Thread(target=worker, name=f"match-{i}", daemon=True) for i in range(workers)]
    # Games in threads share the interpreter lock: a game whose engine has just answered must not wait
    # the default 5 ms for another game's thread to let go of it (its opponent's clock is running).
    switch = sys.getswitchinterval()
    if workers > 1:
        sys.setswitchinterval(min(switch, 0.0005))
    t0 = time.monotonic()
    for th in threads:
        th.start()
    tally = Tally()
    results: list[GameResult] = []
    decision: str | None = None
    try:
        while len(results) < cfg.games:
            try:
                item = done.get(timeout=0.1)
            except queue.Empty:
                if all(not th.is_alive() for th in threads) and done.empty():
                    break  # every worker has ended (after an SPRT decision, or all jobs done)
                continue
            if isinstance(item, BaseException):
                stop.set()
                raise item
            results.append(item)
            tally.add(item)
            if pgn_out is not None:
                pgn_out.write(item.pgn)
                pgn_out.flush()
            if cfg.sprt is not None and decision is None:
                decision = cfg.sprt.decision(tally.wins, tally.draws, tally.losses)
                if decision is not None:
                    stop.set()  # games under way are finished and counted; no new ones start
                    _drain(jobs)
            if on_result is not None:
                on_result(item, tally)
    except BaseException:
        # Interrupted or failed: end the games under way now (their engines are killed).
        stop.set()
        with lock:
            for eng in registry:
                eng.close(timeout=0.2)
        raise
    finally:
        stop.set()
        _drain(jobs)
        for _ in threads:
            jobs.put(None)
        for th in threads:
            th.join(timeout=60)
        with lock:
            for eng in registry:
                eng.close()
        sys.setswitchinterval(switch)
    # Games still finishing when the SPRT decided are counted when they end.
    while not done.empty():
        item = done.get()
        if isinstance(item, GameResult):
            results.append(item)
            tally.add(item)
            if pgn_out is not None:
                pgn_out.write(item.pgn)
    return MatchReport(tally, results, decision, len(results) < cfg.games, time.monotonic() - t0)


def _drain(jobs: queue.Queue[tuple[int, Opening, Side] | None]) -> None:
    while True:
        try:
            jobs.get_nowait()
        except queue.Empty:
            return


def unique_names(specs: Iterable[EngineSpec]) -> tuple[EngineSpec, EngineSpec]:
    """The two engines, named apart (" (1)", " (2)") when they have the same name."""
    a, b = list(specs)
    if a.name == b.name:
        a = EngineSpec(a.name + " (1)", a.command, a.options)
        b = EngineSpec(b.name + " (2)", b.command, b.options)
    return a, b

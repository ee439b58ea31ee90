"""One game of an engine match under the Laws (:func:`play_game`), and what tells the harness's share of a
loss on time from the engine's own (:class:`TimeLoss`)."""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Literal, Mapping, Sequence

from chesslaws.clock import Clock
from chesslaws.engines import BestMove, EngineCrashed, EngineError, Go, UciEngine, go_for, thread_waited_ns
from chesslaws.errors import ChessLawsError, InvalidInput
from chesslaws.game import Game
from chesslaws.game.moving import allowed_by_touch
from chesslaws.match.adjudication import Adjudication, after_move, apply_event, engine_score
from chesslaws.match.openings import Opening
from chesslaws.records import game_to_pgn
from chesslaws.timecontrol import Color, TimeControl

__all__ = ["GameResult", "Side", "TimeLoss", "play_game"]

Side = Literal["A", "B"]  # engine 1 and engine 2


@dataclass(frozen=True, slots=True)
class TimeLoss:
    """A game lost on time, with what tells the harness's share from the engine's own overrun (ms).

    ``told_ms``: the time the engine was told it had left (``wtime``/``btime`` of its last ``go``);
    ``left_ms``: the time it really had when ``go`` was written (its flag minus that instant);
    ``go_late_ms``: from the start of its clock (the opponent's move) to ``go`` written, the harness's
    time on its clock; ``answered_ms``: from ``go`` to its ``bestmove`` (``None``: none before its
    flag fell); ``engine_ms``: the search time the engine itself reported (``info ... time``), also
    from the ``bestmove`` it gave when stopped after its flag fell; ``start_ms``: how long after
    ``go`` the engine's own clock started, as its ``info`` lines tell (an upper bound).
    """

    told_ms: int
    left_ms: float
    go_late_ms: float
    answered_ms: float | None
    engine_ms: int | None
    start_ms: float | None = None
    #: How long, between ``go`` and the loss, the harness's thread and the engine's threads waited for a
    #: core (Linux's run-queue delay; ``None`` where the system does not tell).
    harness_wait_ms: float | None = None
    engine_wait_ms: float | None = None

    @property
    def cause(self) -> Literal["harness", "latency", "start", "engine"]:
        """``harness``: the engine was told more time than it had (``go`` sent late and not counted),
        or it answered within what it was told; ``engine``: by its own clock it used more than it was
        told; ``start``: by its own clock it kept to it, but its process got a core too late (its
        clock started late after ``go``, or its answer came late) while the harness's thread waited
        less than the time the engine left unused; ``latency``: it kept to its time, and the harness's
        thread waited for a core at least as long as the time the engine left unused (or, where the
        system does not tell, nothing shows that the engine started late): the harness's."""
        if self.told_ms > self.left_ms + 1.0:
            return "harness"
        if self.answered_ms is not None and self.answered_ms <= self.told_ms:
            return "harness"
        if self.engine_ms is None or self.engine_ms > self.told_ms:
            return "engine"
        unused = self.left_ms - self.engine_ms
        if self.harness_wait_ms is not None:
            return "latency" if self.harness_wait_ms >= unused else "start"
        if self.start_ms is not None and self.start_ms > unused:
            return "start"
        return "latency"

    def describe(self) -> str:
        answer = ("no bestmove before its flag" if self.answered_ms is None
                  else f"bestmove {self.answered_ms:.1f} ms after go")
        own = "" if self.engine_ms is None else f" (its own clock: {self.engine_ms} ms"
        if own:
            own += ")" if self.start_ms is None else f", started {self.start_ms:.1f} ms after go)"
        waits = ""
        if self.harness_wait_ms is not None and self.engine_wait_ms is not None:
            waits = (f"; waiting for a core since go: the engine {self.engine_wait_ms:.1f} ms, the harness "
                     f"{self.harness_wait_ms:.1f} ms")
        why = {"harness": "caused by the harness",
               "latency": "its answer reached the harness late (counted against the harness)",
               "start": "the engine's answer came late while the harness's thread was free: not the harness",
               "engine": "the engine overran the time it was told"}[self.cause]
        return (f"told {self.told_ms} ms, had {self.left_ms:.1f} ms at go (sent {self.go_late_ms:.3f} ms after "
                f"its clock started), {answer}{own}{waits}: {why}")


@dataclass(frozen=True, slots=True)
class _Told:
    """The last ``go`` sent to an engine: the time told, when it was sent, its clock's start, its flag (ns)."""

    ms: int
    go_ns: int
    clock_ns: int
    flag_ns: int | None
    harness_wait_ns: int | None = None  # the run-queue delays so far, read just after go
    engine_wait_ns: int | None = None

    def loss(self, answer: BestMove | None, stopped: BestMove | None,
             waits: tuple[int | None, int | None] = (None, None)) -> TimeLoss:
        left = math.inf if self.flag_ns is None else (self.flag_ns - self.go_ns) / 1e6
        last = answer if answer is not None else stopped
        spent = None if last is None else last.engine_ms
        origin = None if last is None or last.origin_ns is None else (last.origin_ns - self.go_ns) / 1e6
        h0, e0 = self.harness_wait_ns, self.engine_wait_ns
        h1, e1 = waits
        return TimeLoss(self.ms, left, (self.go_ns - self.clock_ns) / 1e6,
                        None if answer is None else (answer.received_ns - self.go_ns) / 1e6, spent, origin,
                        None if h0 is None or h1 is None or e0 is None or e1 is None else (h1 - h0) / 1e6,
                        None if h0 is None or h1 is None or e0 is None or e1 is None else (e1 - e0) / 1e6)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: the record, the outcome, what each engine did wrong."""

    round: int
    white: Side
    game: Game
    pgn: str
    illegal: Mapping[str, int]  # by colour
    incidents: tuple[str, ...]  # crashes, hangs, in words
    overhead_ns: tuple[int, ...]  # per move: from bestmove read to the next go sent
    overhead_cpu_ns: tuple[int, ...]  # the CPU time the harness's thread spent in those intervals
    broken: frozenset[Color]  # engines to restart (crashed or hung)
    #: For a loss on time: what the engine was told, when, and when it answered (:class:`TimeLoss`).
    time_loss: TimeLoss | None = None

    @property
    def result(self) -> str:
        return self.game.state.result

    @property
    def termination(self) -> str:
        return self.game.state.termination or "unfinished"

    def score_of(self, side: Side) -> float:
        """Points of engine ``side`` (A or B)."""
        color = "white" if side == self.white else "black"
        return float(self.game.state.outcome.score[color]) if self.game.state.outcome else 0.0


def _ms_ceil(ns: int) -> int:
    return -(-ns // 1_000_000)


def play_game(
    engines: Mapping[Color, UciEngine],
    *,
    time_control: TimeControl,
    edition: str = "2023",
    opening: Opening = Opening(None),
    adjudication: Adjudication = Adjudication(),
    names: Mapping[Color, str] | None = None,
    round_no: int = 1,
    event: str = "chesslaws match",
    white_side: Side = "A",
    stop_grace: float = 1.0,
) -> GameResult:
    """Plays one game between two started engines; returns its record.

    The clock starts when the first ``go`` is about to be sent. A hung
    engine is waited for until its flag falls (the Laws' ruling), then told
    to ``stop``; if it does not answer within ``stop_grace`` seconds it is
    marked broken (the caller restarts it). A crashed engine's flag is let
    fall at once: nothing it can do will stop it.
    """
    if time_control.unlimited:
        raise InvalidInput("an engine match needs a clock: give --tc, e.g. 60+0.6 or 40/600:300d5")
    names = names or {c: engines[c].name for c in ("white", "black")}
    tags: dict[str, Any] = {"event": event, "round": str(round_no), "date": date.today().strftime("%Y.%m.%d"),
                            "site": os.uname().nodename}
    game = Game.start(edition=edition, time_control=str(time_control), white=names["white"],
                      black=names["black"], fen=opening.fen, **tags)
    fen = opening.fen
    incidents: list[str] = []
    broken: set[Color] = set()
    overhead: list[int] = []
    overhead_cpu: list[int] = []
    cpu0 = time.thread_time_ns()
    last: dict[Color, list[int | None]] = {"white": [], "black": []}
    ready: list[Color] = []
    for c in ("white", "black"):  # both clear their hash tables at once
        try:
            engines[c].begin_new_game()
            ready.append(c)
        except EngineError as err:
            incidents.append(f"{names[c]} ({c}) was not ready: {err}")
            broken.add(c)
    for c in ready:
        try:
            engines[c].wait_ready()
        except EngineError as err:
            incidents.append(f"{names[c]} ({c}) was not ready: {err}")
            broken.add(c)
    start_ns = time.monotonic_ns()
    prev_ns = start_ns
    # An engine that was not ready plays on regardless: dead, it loses at its first turn (its flag
    # falls); unresponsive, its flag falls in real time, like any player who does not move.
    sent_early = False  # the next engine's "go" was sent before the arbiter ruled on the last move
    told: dict[Color, _Told] = {}
    time_loss: TimeLoss | None = None

    def tell(color: Color, clock: Clock, since_ms: int, moves: list[str], searchmoves: Sequence[str] = ()) -> int:
        """``go`` to ``color``, whose clock runs from ``since_ms``, with the time it has left at this
        instant (rounded down: an engine is never told more than it has); returns the instant sent."""
        now_ms = max(since_ms, _ms_ceil(time.monotonic_ns() - start_ns))
        limits = go_for(clock, now_ms)
        if searchmoves:
            limits = _with_searchmoves(limits, searchmoves)
        go_ns = engines[color].go(fen, moves, limits)
        flag_ms = clock.flag_time(color)
        told[color] = _Told((limits.wtime if color == "white" else limits.btime) or 0, go_ns,
                            start_ns + since_ms * 1_000_000,
                            None if flag_ms is None else start_ns + flag_ms * 1_000_000)
        return go_ns

    def waits_from(color: Color) -> None:
        """The run-queue delays so far of this thread and of the engine just told to go (off the hot
        path: to tell, if it loses on time, which of them waited for a core)."""
        if color in told:
            told[color] = replace(told[color], harness_wait_ns=thread_waited_ns(),
                                  engine_wait_ns=engines[color].waited_ns())

    while game.state.ongoing:
        s = game.state
        side: Color = s.turn
        eng = engines[side]
        flag = s.clock.flag_time(side)
        deadline = None if flag is None else start_ns + flag * 1_000_000
        try:
            if not sent_early:
                allowed: Sequence[str] = ()
                if s.touched:  # after a reinstated illegal move: the touched piece must move (Article 4)
                    allowed = sorted(allowed_by_touch(s.position, side, s.touched, s.edition)[0] or ())
                go_ns = tell(side, s.clock, s.t_ms, [m.uci for m in s.moves], allowed)
                overhead_cpu.append(time.thread_time_ns() - cpu0)
                overhead.append(go_ns - prev_ns)
                waits_from(side)
            sent_early = False
            bm = eng.wait_bestmove(deadline)
        except EngineCrashed as err:
            incidents.append(f"{names[side]} ({side}) crashed: {err}")
            broken.add(side)
            game = _flag_falls(game, side)
            break
        if bm is None:
            waited = (thread_waited_ns(), eng.waited_ns())
            incidents.append(f"{names[side]} ({side}) did not move before its flag fell")
            late: BestMove | None = None
            try:
                late = eng.stop(stop_grace)
                if late is None:
                    broken.add(side)
                    incidents.append(f"{names[side]} ({side}) did not answer 'stop' within {stop_grace:g} s")
            except EngineCrashed:
                broken.add(side)
            if side in told:
                time_loss = told[side].loss(None, late, waited)
            game = _flag_falls(game, side)
            break
        prev_ns = bm.received_ns
        cpu0 = time.thread_time_ns()
        # The move's instant: when its bestmove became readable, rounded down to the log's millisecond
        # (the engine wrote it no later than that; the rounding is the mover's benefit).
        t_ms = max(s.t_ms, (bm.received_ns - start_ns) // 1_000_000)
        text = bm.move if _readable(bm.move) else "0000"
        opp: Color = "black" if side == "white" else "white"
        if not s.touched and text != "0000" and s.position.is_legal(text):
            # The common case, a legal move: the opponent's clock is the press of this one; tell the
            # opponent at once and let the arbiter rule (end of game, claims, adjudication) while it
            # thinks. Its time runs from this move's instant either way.
            try:
                go_ns = tell(opp, s.clock.press(t_ms, side), t_ms,
                             [m.uci for m in s.moves] + [s.position.uci(text)])
                overhead_cpu.append(time.thread_time_ns() - cpu0)
                overhead.append(go_ns - prev_ns)
                sent_early = True
                waits_from(opp)
            except EngineCrashed:
                pass  # found again when it is the opponent's turn
        if text == "0000" and bm.move not in ("0000",):
            incidents.append(f"{names[side]} ({side}) answered {bm.line!r}: no move (Article 7.5.4 in 2023)")
        last[side].append(engine_score(bm))
        try:
            game = apply_event(game, {"type": "move", "t": t_ms / 1000, "by": side, "move": text})
        except InvalidInput as err:
            # A move that cannot even stand on the board where illegal moves stand until claimed
            # (1997 blitz): no move was made; the engine's clock runs on and it is asked again.
            incidents.append(f"{names[side]} ({side}) answered {bm.line!r}, which cannot be played: {err}")
            continue
        if not game.state.ongoing and game.state.termination == "time_forfeit" and game.state.turn == side \
                and side in told:
            # Its bestmove came after its flag fell.
            time_loss = told[side].loss(bm, None, (thread_waited_ns(), eng.waited_ns()))
        if game.state.ongoing:
            game = after_move(game, side, t_ms, adjudication, last)
        if sent_early and not (game.state.ongoing and game.state.turn == opp and not game.state.claims):
            # The game ended (or the arbiter has more to say): the search already started is void.
            sent_early = False
            try:
                if engines[opp].stop(stop_grace) is None:
                    broken.add(opp)
                    incidents.append(f"{names[opp]} ({opp}) did not answer 'stop' within {stop_grace:g} s")
            except EngineCrashed:
                broken.add(opp)
    if game.state.ongoing:  # pragma: no cover - the loop ends only on a finished game
        raise ChessLawsError("the game loop ended with the game still in play")
    pgn_tags = {"Opening": opening.line} if opening.line else {}
    if incidents:
        pgn_tags["Annotator"] = "chesslaws match"
    pgn = game_to_pgn(game, tags=pgn_tags)
    if incidents:
        pgn = _with_incidents(pgn, incidents)
    return GameResult(round_no, white_side, game, pgn, dict(game.state.illegal_moves), tuple(incidents),
                      tuple(overhead), tuple(overhead_cpu), frozenset(broken), time_loss)


def _with_incidents(pgn: str, incidents: list[str]) -> str:
    """The incidents as a comment before the moves (after the tags)."""
    head, sep, body = pgn.partition("\n\n")
    text = " ".join(incidents).replace("}", ")").replace("{", "(")
    return head + sep + "{" + text + "} " + body


def _readable(move: str) -> bool:
    return 4 <= len(move) <= 5 and move[0] in "abcdefgh" and move[2] in "abcdefgh" and move[1] in "12345678" \
        and move[3] in "12345678" and (len(move) == 4 or move[4] in "qrbnQRBN")


def _with_searchmoves(limits: Go, moves: Sequence[str]) -> Go:
    return replace(limits, searchmoves=tuple(moves))


def _flag_falls(game: Game, side: Color) -> Game:
    """``side`` does not move: the game when its flag falls (claimed by the opponent where a claim is needed)."""
    s = game.state
    flag = s.clock.flag_time(side)
    if flag is None:  # its clock is not running (cannot happen in the loop); nothing to wait for
        flag = s.t_ms
    later = game.at(flag / 1000)
    if later.state.ongoing:  # flags count only when claimed (e.g. 2023 rapid and blitz without an arbiter)
        opp: Color = "black" if side == "white" else "white"
        return apply_event(game, {"type": "claim_flag", "t": flag / 1000, "by": opp})
    return later

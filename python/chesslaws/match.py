"""Engine matches under the Laws: ``chesslaws match ENGINE1 ENGINE2``.

Every game is a :class:`~chesslaws.game.Game`: each engine move goes through
``Game.apply`` at the instant its ``bestmove`` arrived (the time it really
used, the harness's own time included), and each engine is told the clock
the Laws give it (:func:`chesslaws.engines.go_for`). What an engine does
wrong is ruled as the edition says: an illegal move is reinstated with the
edition's penalty (2023: the opponent gets time, the second loses), a
``bestmove`` that is not a move is a clock pressed without a move (2023
7.5.4, as an illegal move), an engine that crashes or hangs is a player who
does not move (its flag falls: it loses, unless the opponent cannot mate).

What the Laws leave to a claim or to the organisers comes from the
adjudication rules (:class:`Adjudication`), written in the log as the
claim a player would make (``claim_draw`` on the engine's behalf for a
threefold repetition or fifty moves) or as the arbiter's decision
(``decision`` with ``on: "adjudication"``: a score threshold, a move limit).

The statistics are the usual ones of engine testing: score, Elo with a 95 %
interval from the trinomial variance, and the GSPRT log-likelihood ratio
(logistic Elo, trinomial) with Wald's bounds.
"""

from __future__ import annotations

import math
import os
import queue
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Callable, Iterable, Literal, Mapping, Protocol, Sequence, TextIO

from chesslaws.atomic import AppendOutput
from chesslaws.engines import (
    BestMove,
    EngineCrashed,
    EngineError,
    EngineSpec,
    Go,
    UciEngine,
    go_for,
    thread_waited_ns,
)
from chesslaws.errors import ChessLawsError, InvalidFen, InvalidInput
from chesslaws.game import Game, GameError
from chesslaws.game.moving import allowed_by_touch
from chesslaws.clock import Clock
from chesslaws.position import Position
from chesslaws.records import game_to_pgn
from chesslaws.timecontrol import Color, TimeControl

__all__ = [
    "Adjudication",
    "GameResult",
    "MatchConfig",
    "Opening",
    "Sprt",
    "Tally",
    "TimeLoss",
    "play_game",
    "read_openings",
    "run_match",
]

Side = Literal["A", "B"]  # engine 1 and engine 2


# --- openings ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opening:
    """A starting position for a pair of games; ``line`` names it (SAN moves or the EPD id)."""

    fen: str | None  # None: the standard initial position
    line: str = ""


def read_openings(path: str) -> list[Opening]:
    """Openings from a PGN file (each game's final position) or an EPD file (one position a line).

    Errors name the file, the line and what is wrong.
    """
    lower = path.lower()
    if lower.endswith((".epd", ".fen", ".txt")):
        return _read_epd(path)
    from chesslaws.pgn import read_pgn

    out: list[Opening] = []
    try:
        games = read_pgn(path)
        for g in games:
            if g.errors:
                raise InvalidInput(f"{path}: opening {g.number} (line {g.line}): {g.errors[0]}")
            fen = g.final_fen if g.moves else g.tags.get("FEN")
            line = " ".join(m.san for m in g.moves)
            out.append(Opening(fen, line or g.tags.get("Opening", f"game {g.number}")))
    except OSError as err:
        raise InvalidInput(f"{path}: cannot read the openings ({err.strerror or err})") from None
    if not out:
        raise InvalidInput(f"{path}: no openings found (a PGN file of games, or an EPD file with .epd)")
    return out


def _read_epd(path: str) -> list[Opening]:
    out: list[Opening] = []
    try:
        with open(path, encoding="utf-8-sig") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise InvalidInput(f"{path}: cannot read the openings ({err})") from None
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        words = text.split()
        if len(words) < 4:
            raise InvalidInput(f"{path}, line {n}: an EPD line starts with 4 FEN fields, not {text!r}")
        counters = words[4:6] if len(words) >= 6 and all(w.isdigit() for w in words[4:6]) else ["0", "1"]
        fen = " ".join(words[:4] + counters)
        try:
            Position(fen)
        except InvalidFen as err:
            raise InvalidInput(f"{path}, line {n}: {err}") from None
        name = ""
        if ' id "' in text:
            name = text.split(' id "', 1)[1].split('"', 1)[0]
        out.append(Opening(fen, name or f"line {n}"))
    if not out:
        raise InvalidInput(f"{path}: no positions found")
    return out


# --- adjudication ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Adjudication:
    """When the arbiter ends a game the Laws would let run on.

    ``claims``: claim a threefold repetition or the fifty moves on the
    engine's behalf as soon as it occurs (engines do not claim).
    ``resign_cp``/``resign_moves``: a side whose own score is at most
    ``-resign_cp`` for ``resign_moves`` of its moves in a row, while the
    opponent's is at least ``+resign_cp``, loses. ``draw_cp``/``draw_moves``/
    ``draw_after``: from move ``draw_after`` on, both scores within
    ``draw_cp`` for ``draw_moves`` moves each: a draw. ``max_moves``: a
    draw after that many moves.
    """

    claims: bool = True
    resign_cp: int | None = None
    resign_moves: int = 3
    draw_cp: int | None = None
    draw_moves: int = 8
    draw_after: int = 40
    max_moves: int | None = None


def _score(bm: BestMove | None) -> int | None:
    if bm is None:
        return None
    if bm.score_mate is not None:
        return 100_000 if bm.score_mate > 0 else -100_000
    return bm.score_cp


# --- one game --------------------------------------------------------------------


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
        last[side].append(_score(bm))
        try:
            game = _apply(game, {"type": "move", "t": t_ms / 1000, "by": side, "move": text})
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
            game = _after_move(game, side, t_ms, adjudication, last)
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


def _apply(game: Game, event: Mapping[str, object]) -> Game:
    """Applies an event; if the game ended before it (a flag that fell first), the game at that instant."""
    try:
        return game.apply(event)
    except GameError:
        t = float(event["t"])  # type: ignore[arg-type]
        later = game.at(t)
        if later.state.ongoing:
            raise
        return later


def _flag_falls(game: Game, side: Color) -> Game:
    """``side`` does not move: the game when its flag falls (claimed by the opponent where a claim is needed)."""
    s = game.state
    flag = s.clock.flag_time(side)
    if flag is None:  # its clock is not running (cannot happen in the loop); nothing to wait for
        flag = s.t_ms
    later = game.at(flag / 1000)
    if later.state.ongoing:  # flags count only when claimed (e.g. 2023 rapid and blitz without an arbiter)
        opp: Color = "black" if side == "white" else "white"
        return _apply(game, {"type": "claim_flag", "t": flag / 1000, "by": opp})
    return later


def _after_move(game: Game, mover: Color, t_ms: int, adj: Adjudication,
                last: Mapping[Color, list[int | None]]) -> Game:
    """Claims the opponent or the engine would make, and the arbiter's adjudication."""
    s = game.state
    t = t_ms / 1000
    opp: Color = s.turn
    pending = {p["kind"] for p in s.pending()}
    # An illegal move that stands until claimed (1997 blitz; no arbiter): the opponent claims at once.
    if "illegal_move_claimable" in pending:
        return _apply(game, {"type": "claim_win", "t": t, "by": opp, "reason": "illegal_move"})
    if "touch_move_claimable" in pending:
        return _apply(game, {"type": "claim_touch_move", "t": t, "by": opp})
    fallen = s.clock.fallen(t_ms)
    if mover in fallen:  # its flag fell and no arbiter saw it: the opponent claims
        return _apply(game, {"type": "claim_flag", "t": t, "by": opp})
    if adj.claims:
        if s.repetitions() >= 3:
            return _apply(game, {"type": "claim_draw", "t": t, "by": opp, "reason": "threefold"})
        if s.position.halfmove_clock >= 2 * s.config.fifty_move_limit:
            return _apply(game, {"type": "claim_draw", "t": t, "by": opp, "reason": "fifty"})
    moves_made = len(s.moves) // 2
    if adj.max_moves is not None and moves_made >= adj.max_moves and s.turn == "white":
        return _apply(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": "draw",
                             "reason": f"move limit: {adj.max_moves} moves played"})
    if adj.resign_cp is not None:
        mine = last[mover][-adj.resign_moves:]
        theirs = last[opp][-1:] if last[opp] else []
        if len(mine) == adj.resign_moves and theirs and all(v is not None for v in mine + theirs):
            if all(v <= -adj.resign_cp for v in mine) and theirs[0] >= adj.resign_cp:  # type: ignore[operator]
                ruling = "white_wins" if opp == "white" else "black_wins"
                return _apply(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": ruling,
                                     "reason": f"both engines agree: {adj.resign_cp} centipawns or more for "
                                               f"{adj.resign_moves} moves"})
            if all(v >= adj.resign_cp for v in mine) and theirs[0] <= -adj.resign_cp:  # type: ignore[operator]
                ruling = "white_wins" if mover == "white" else "black_wins"
                return _apply(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": ruling,
                                     "reason": f"both engines agree: {adj.resign_cp} centipawns or more for "
                                               f"{adj.resign_moves} moves"})
    if adj.draw_cp is not None and moves_made >= adj.draw_after:
        w = last["white"][-adj.draw_moves:]
        b = last["black"][-adj.draw_moves:]
        if len(w) == len(b) == adj.draw_moves and all(v is not None and abs(v) <= adj.draw_cp for v in w + b):
            return _apply(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": "draw",
                                 "reason": f"both scores within {adj.draw_cp} centipawns for {adj.draw_moves} "
                                           f"moves after move {adj.draw_after}"})
    return game


# --- statistics ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test between Elo ``elo0`` (H0) and ``elo1`` (H1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0=0 elo1=5 alpha=0.05 beta=0.05`` (spaces or commas between)."""
        values: dict[str, float] = {}
        for part in text.replace(",", " ").split():
            key, sep, value = part.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise InvalidInput(f"--sprt: {part!r} is not one of elo0=, elo1=, alpha=, beta=")
            try:
                values[key] = float(value)
            except ValueError:
                raise InvalidInput(f"--sprt: {key} must be a number, not {value!r}") from None
        for key in ("elo0", "elo1"):
            if key not in values:
                raise InvalidInput(f"--sprt needs {key}= (e.g. --sprt 'elo0=0 elo1=5 alpha=0.05 beta=0.05')")
        sprt = cls(values["elo0"], values["elo1"], values.get("alpha", 0.05), values.get("beta", 0.05))
        if not (0 < sprt.alpha < 0.5 and 0 < sprt.beta < 0.5):
            raise InvalidInput("--sprt: alpha and beta must be between 0 and 0.5")
        if sprt.elo1 <= sprt.elo0:
            raise InvalidInput("--sprt: elo1 must be greater than elo0")
        return sprt

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds: (accept H0 at or below, accept H1 at or above)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The generalised log-likelihood ratio (trinomial, logistic Elo), the usual approximation."""
        if wins + draws + losses == 0:
            return 0.0
        # With an outcome never seen the variance is degenerate (0 after one game): regularise the
        # counts by half a game each, as long as one is zero (it vanishes as the match grows).
        w, d, l = (float(x) for x in (wins, draws, losses))
        if 0 in (wins, draws, losses):
            w, d, l = w + 0.5, d + 0.5, l + 0.5
        n = w + d + l
        s = (w + d / 2) / n
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
        s0, s1 = _expected(self.elo0), _expected(self.elo1)
        return (s1 - s0) * (2 * s - s0 - s1) / (2 * var / n)

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        llr = self.llr(wins, draws, losses)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def _expected(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


@dataclass(slots=True)
class Tally:
    """Wins, draws and losses of engine A (engine 1) against engine B."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    other: int = 0  # both lost (0-0) or annulled
    terminations: dict[str, int] = field(default_factory=dict)
    illegal: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    time_losses: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    incidents: int = 0
    #: Games lost on time by what caused them (:attr:`TimeLoss.cause`: engine, latency, harness).
    time_loss_causes: dict[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses + self.other

    @property
    def score(self) -> float:
        n = self.wins + self.draws + self.losses
        return (self.wins + self.draws / 2) / n if n else 0.5

    def elo(self) -> tuple[float, float]:
        """Elo difference of A over B and the half-width of its 95 % interval."""
        n = self.wins + self.draws + self.losses
        if n == 0:
            return 0.0, float("inf")
        s = self.score
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s ** 2) / n
        half = 1.959964 * math.sqrt(var / n)
        lo, hi = elo_of(s - half), elo_of(s + half)
        return elo_of(s), (hi - lo) / 2

    def add(self, r: GameResult) -> None:
        state = r.game.state
        a_color = "white" if r.white == "A" else "black"
        if state.result == "1/2-1/2":
            self.draws += 1
        elif state.result in ("1-0", "0-1"):
            if (state.result == "1-0") == (a_color == "white"):
                self.wins += 1
            else:
                self.losses += 1
        else:
            self.other += 1
        self.terminations[r.termination] = self.terminations.get(r.termination, 0) + 1
        for color, n in r.illegal.items():
            self.illegal["A" if color == a_color else "B"] += n
        if state.termination in ("time_forfeit", "both_flags_fallen") and state.outcome is not None:
            loser = {"1-0": "black", "0-1": "white"}.get(state.result)
            if loser is not None:
                self.time_losses["A" if loser == a_color else "B"] += 1
        self.incidents += bool(r.incidents)
        if r.time_loss is not None:
            cause = r.time_loss.cause
            self.time_loss_causes[cause] = self.time_loss_causes.get(cause, 0) + 1


# --- the match -------------------------------------------------------------------


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


# --- text for the terminal ----------------------------------------------------------


def elo_text(tally: Tally) -> str:
    """"Elo +35.2 ± 20.1", or what stands in for it when every decided game had the same result: a 100 % or
    0 % score has no finite Elo difference, and a score with no spread has no error bound to compute."""
    n = tally.wins + tally.draws + tally.losses
    if n == 0:
        return "Elo: no game decided yet"
    if tally.wins == n or tally.losses == n:
        return (f"Elo: cannot be computed from a {100 * tally.score:.0f} % score (every game "
                f"{'won' if tally.wins == n else 'lost'}; play more games)")
    elo, err = tally.elo()
    if tally.draws == n:
        return f"Elo {elo:+.1f} (every game drawn: its bound cannot be computed)"
    return f"Elo {elo:+.1f} ± {'inf' if math.isinf(err) else f'{err:.1f}'}"


def progress_line(tally: Tally, total: int, names: Sequence[str], sprt: Sprt | None) -> str:
    line = (f"games {tally.games}/{total}  {names[0]} vs {names[1]}: +{tally.wins} ={tally.draws} -{tally.losses}  "
            f"score {100 * tally.score:.1f}%  {elo_text(tally)}")
    if sprt is not None:
        lower, upper = sprt.bounds
        line += f"  LLR {sprt.llr(tally.wins, tally.draws, tally.losses):+.2f} ({lower:+.2f}, {upper:+.2f})"
    return line


def final_table(report: MatchReport, names: Sequence[str], sprt: Sprt | None) -> str:
    t = report.tally
    elo, _ = t.elo()
    width = max(len(n) for n in names) + 2
    rows = [f"{'Engine':<{width}} {'Games':>5} {'Score':>7} {'W':>4} {'D':>4} {'L':>4} {'Elo':>8} "
            f"{'Illegal':>7} {'Flags':>5}"]
    for side, name in zip("AB", names):
        w, l = (t.wins, t.losses) if side == "A" else (t.losses, t.wins)
        pts = w + t.draws / 2
        e = elo if side == "A" else -elo
        decided = t.wins + t.draws + t.losses
        e_text = f"{e:>+8.1f}" if decided and t.wins != decided and t.losses != decided else f"{'n/a':>8}"
        rows.append(f"{name:<{width}} {t.games:>5} {pts:>7.1f} {w:>4} {t.draws:>4} {l:>4} {e_text} "
                    f"{t.illegal[side]:>7} {t.time_losses[side]:>5}")
    rows.append("")
    said = elo_text(t)
    rows.append(f"Elo difference ({names[0]} - {names[1]}): {said[4:]} (95 %)" if "±" in said
                else f"Elo difference ({names[0]} - {names[1]}): {said.removeprefix('Elo').lstrip(': ')}")
    rows.append("Terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(t.terminations.items(),
                                                                          key=lambda kv: -kv[1])))
    if t.other:
        rows.append(f"Games without a winner or a draw (both lost, annulled): {t.other}")
    if t.time_loss_causes:
        c = t.time_loss_causes
        rows.append(f"Losses on time: the engine overran the time it was told {c.get('engine', 0)}, "
                    f"its process began its search late {c.get('start', 0)}, its answer reached the harness "
                    f"late {c.get('latency', 0)}, caused by the harness {c.get('harness', 0)}")
    if t.incidents:
        rows.append(f"Games with an engine incident (crash, hang, no move): {t.incidents} (see the PGN comments)")
    if sprt is not None:
        lower, upper = sprt.bounds
        llr = sprt.llr(t.wins, t.draws, t.losses)
        verdict = {"H1": f"H1 accepted: {names[0]} is stronger by at least elo1={sprt.elo1:g}",
                   "H0": f"H0 accepted: {names[0]} is not stronger by elo1={sprt.elo1:g}"}.get(
            report.sprt_decision or "", "no decision yet (continue with more games)")
        rows.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
                    f"LLR {llr:+.2f} (bounds {lower:+.2f}, {upper:+.2f}): {verdict}")
    rows.append(f"{t.games} games in {report.seconds:.1f} s")
    return "\n".join(rows)


def run_cli(cfg: MatchConfig, pgnout: str | None, quiet: bool = False, err: TextIO = sys.stderr) -> MatchReport:
    names = [cfg.engines[0].name, cfg.engines[1].name]
    live = err.isatty()

    def show(result: GameResult, tally: Tally) -> None:
        if quiet:
            return
        line = progress_line(tally, cfg.games, names, cfg.sprt)
        if live:
            err.write("\r\x1b[K" + line)
        else:
            err.write(line + f"  [game {result.round}: {result.result} {result.termination}]\n")
        err.flush()

    # Appended game by game (the file may gather several matches): each game whole, on disk when it is
    # counted; a game that cannot be written (a full disk) is cut off again and ends the match.
    out = AppendOutput(pgnout) if pgnout else None
    try:
        report = run_match(cfg, on_result=show, pgn_out=out)
    finally:
        if out is not None:
            out.close()
        if live and not quiet:
            err.write("\n")
    return report


def unique_names(specs: Iterable[EngineSpec]) -> tuple[EngineSpec, EngineSpec]:
    a, b = list(specs)
    if a.name == b.name:
        a = EngineSpec(a.name + " (1)", a.command, a.options)
        b = EngineSpec(b.name + " (2)", b.command, b.options)
    return a, b



# --- the command ----------------------------------------------------------------------

import click  # noqa: E402  (the command line is the module's last part)


def _options(values: Sequence[str], flag: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        key, sep, value = v.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{v!r} is not NAME=VALUE (e.g. 'Skill Level=5')", param_hint=flag)
        out[key.strip()] = value.strip()
    return out


def _ints(text: str | None, flag: str, names: Sequence[str]) -> list[int] | None:
    if text is None:
        return None
    parts = text.split("/")
    if not 1 <= len(parts) <= len(names) or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(f"{text!r} is not {'/'.join(n.upper() for n in names)} "
                                 f"(whole numbers, e.g. {'/'.join(('1000', '3', '40')[:len(names)])})",
                                 param_hint=flag)
    return [int(p) for p in parts]


@click.command(name="match")
@click.argument("engine1", metavar="ENGINE1")
@click.argument("engine2", metavar="ENGINE2")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=2, show_default=True,
              help="Games to play (each opening twice, colours reversed).")
@click.option("--tc", "tc", default="10+0.1", show_default=True, metavar="CONTROL",
              help="Time control in the game-log syntax: periods MOVES/SECONDS+INC, dDELAY simple and "
                   "bDELAY Bronstein delay, ':' between periods.")
@click.option("--edition", type=click.Choice(["1989", "1997", "2023"]), default="2023", show_default=True,
              help="The Laws of Chess that rule every game.")
@click.option("--concurrency", "-c", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Games played at the same time (one engine pair each; keep it at most the cores).")
@click.option("--openings", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Starting positions: a PGN file (each game's last position) or an EPD file (.epd), "
                   "used in order, each with both colours.")
@click.option("--pgnout", type=click.Path(dir_okay=False), default=None,
              help="Append every game to this PGN file, with [%clk] after every move and the rulings; each game "
                   "whole, on disk as it ends (one that cannot be written ends the match; the file keeps the games "
                   "before it).")
@click.option("--sprt", default=None, metavar="'elo0=A elo1=B alpha=X beta=Y'",
              help="Stop when the sequential probability ratio test decides H0 (Elo <= elo0) or H1 (>= elo1).")
@click.option("--option1", multiple=True, metavar="NAME=VALUE", help="An option for ENGINE1 (UCI setoption, xboard option; repeatable).")
@click.option("--option2", multiple=True, metavar="NAME=VALUE", help="An option for ENGINE2 (UCI setoption, xboard option; repeatable).")
@click.option("--option", "option_both", multiple=True, metavar="NAME=VALUE",
              help="An option for both engines (repeatable).")
@click.option("--resign", default=None, metavar="CP/MOVES",
              help="Adjudicate a win when the loser's score is -CP or worse for MOVES moves and the winner "
                   "agrees (e.g. 1000/3).")
@click.option("--draw", "draw_adj", default=None, metavar="CP/MOVES/AFTER",
              help="Adjudicate a draw when both scores stay within CP for MOVES moves each, from move AFTER "
                   "(e.g. 10/8/40).")
@click.option("--max-moves", type=click.IntRange(1, 100000), default=None,
              help="Adjudicate a draw after this many moves.")
@click.option("--no-claims", is_flag=True,
              help="Do not claim threefold repetitions and fifty moves on the engines' behalf "
                   "(only the automatic fivefold/75 moves of 2023 then end such games).")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
def match_command(engine1: str, engine2: str, games: int, tc: str, edition: str, concurrency: int,
                  openings: str | None, pgnout: str | None, sprt: str | None, option1: tuple[str, ...],
                  option2: tuple[str, ...], option_both: tuple[str, ...], resign: str | None,
                  draw_adj: str | None, max_moves: int | None, no_claims: bool, quiet: bool) -> None:
    """Play a match between two engines (UCI or xboard), every game ruled by the Laws.

    ENGINE is NAME=COMMAND or COMMAND, a UCI engine; xboard:NAME=COMMAND
    for an engine that speaks the xboard protocol. Each engine is told the
    clock the Laws give it, at the instant its "go" is sent; an illegal move is reinstated with the edition's penalty (2023:
    the opponent gets time, the second one loses), an engine that crashes or
    hangs loses on time (a draw if the opponent cannot mate). Threefold
    repetitions and fifty moves are claimed on the engines' behalf; --resign,
    --draw and --max-moves are the arbiter's adjudications, written in the
    PGN as his decisions. The progress line shows games, score, Elo with its
    95 % interval and, with --sprt, the log-likelihood ratio and its bounds.

    \b
    Examples:
      chesslaws match sf=/usr/games/stockfish weak=/usr/games/stockfish \\
          --option2 "Skill Level=5" --games 20 --tc 10+0.1 --pgnout m.pgn
      chesslaws match ./new-engine ./old-engine --tc 40/60:30+0.5 -c 2 \\
          --openings book.epd --games 1000 --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05"
      chesslaws match a=./a b=./b --tc 60d2 --edition 1997 --resign 1000/3 --draw 10/8/40
      chesslaws match xboard:fm=/usr/games/fairymax sf=/usr/games/stockfish \\
          --option2 "UCI_LimitStrength=true" --option2 "UCI_Elo=1500" --games 10 --tc 60+1
    """
    try:
        control = TimeControl.parse(tc)
        if control.unlimited:
            raise click.BadParameter("an engine match needs a clock (e.g. 10+0.1, 40/60:30, 60d2)", param_hint="--tc")
        both = _options(option_both, "--option")
        specs = unique_names([
            EngineSpec.parse(engine1, {**both, **_options(option1, "--option1")}),
            EngineSpec.parse(engine2, {**both, **_options(option2, "--option2")}),
        ])
        r = _ints(resign, "--resign", ("cp", "moves"))
        d = _ints(draw_adj, "--draw", ("cp", "moves", "after"))
        adjudication = Adjudication(
            claims=not no_claims,
            resign_cp=r[0] if r else None, resign_moves=r[1] if r and len(r) > 1 else 3,
            draw_cp=d[0] if d else None, draw_moves=d[1] if d and len(d) > 1 else 8,
            draw_after=d[2] if d and len(d) > 2 else 40, max_moves=max_moves,
        )
        book = tuple(read_openings(openings)) if openings else (Opening(None),)
        test = Sprt.parse(sprt) if sprt else None
        cfg = MatchConfig(specs, control, games=games, edition=edition, concurrency=concurrency,
                          openings=book, adjudication=adjudication, sprt=test)
        report = run_cli(cfg, pgnout, quiet=quiet)
    except click.ClickException:
        raise
    except ChessLawsError as err:
        click.echo(f"chesslaws match: {err}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("\nchesslaws match: interrupted; the engines are stopped", err=True)
        sys.exit(130)
    click.echo(final_table(report, [s.name for s in specs], test))

"""UCI engines as players: a small, strict driver for one engine process.

:class:`UciEngine` starts an engine, does the ``uci`` / ``isready``
handshake, sets options, sends ``position ... moves ...`` and ``go`` with the
clock the Laws give the player (:func:`go_for`), and reads ``bestmove``
exactly as the engine wrote it -- an illegal or unreadable move is the
arbiter's business (:mod:`chesslaws.game`), not the driver's. Every wait has
a deadline: an engine that dies raises :class:`EngineCrashed`, one that does
not answer in time gives ``None`` (a hang: for the Laws, a player who does
not move). :meth:`UciEngine.close` always leaves no process behind (the
engine runs in its own process group, killed if it does not ``quit``).

Why not ``chess.engine``: python-chess rejects an illegal ``bestmove`` with
an exception (the Laws want the move itself, to reinstate the position and
apply the penalty), runs every call through an asyncio loop in another
thread, and keeps a board of its own; here the game already has one. The
protocol used is the small part a player needs; ``bench/bench_match.py``
measures the difference.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import signal
import subprocess
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Literal, Mapping, Sequence

from chesslaws.clock import Clock
from chesslaws.errors import ChessLawsError, InvalidInput
from chesslaws.timecontrol import Color, TimeControl

__all__ = [
    "BestMove",
    "EngineCrashed",
    "EngineError",
    "EngineSpec",
    "EngineTimeout",
    "Go",
    "UciEngine",
    "XboardEngine",
    "go_for",
]


class EngineError(ChessLawsError):
    """An engine that cannot be used: it does not start, does not speak UCI,
    rejects an option..."""


class EngineCrashed(EngineError):
    """The engine process ended (or closed its output) while it was needed."""


class EngineTimeout(EngineError):
    """The engine did not answer within the time allowed (``uciok``, ``readyok``)."""


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine to start: a name, the command line, options to set, the protocol it speaks."""

    name: str
    command: tuple[str, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    protocol: Literal["uci", "xboard"] = "uci"

    @classmethod
    def parse(cls, text: str, options: Mapping[str, str] | None = None) -> EngineSpec:
        """``[xboard:]NAME=COMMAND`` or ``[xboard:]COMMAND`` (the name is then the program's file name).

        The command is split as a shell would (``"sf=/usr/games/stockfish"``,
        ``"python3 my_engine.py --fast"``); ``xboard:`` before it starts an
        engine that speaks the xboard protocol (CECP, version 2), e.g.
        ``"xboard:fm=/usr/games/fairymax"``.
        """
        protocol: Literal["uci", "xboard"] = "uci"
        for prefix in ("xboard:", "uci:"):
            if text.startswith(prefix):
                protocol = "xboard" if prefix == "xboard:" else "uci"
                text = text[len(prefix):]
        name, sep, command = text.partition("=")
        if not sep or " " in name.strip() or "/" in name:
            name, command = "", text
        try:
            argv = tuple(shlex.split(command))
        except ValueError as err:
            raise InvalidInput(f"engine {text!r}: cannot split the command line ({err})") from None
        if not argv:
            raise InvalidInput(f"engine {text!r}: no command given (write NAME=COMMAND or COMMAND)")
        return cls(name.strip() or os.path.basename(argv[0]), argv, dict(options or {}), protocol)

    def start(self, start_timeout: float = 10.0) -> UciEngine:
        """Starts the engine (:class:`UciEngine` or :class:`XboardEngine`); options are not set yet."""
        kind = XboardEngine if self.protocol == "xboard" else UciEngine
        return kind(self.command, name=self.name, start_timeout=start_timeout)


@dataclass(frozen=True, slots=True)
class Go:
    """The limits of one ``go`` command (milliseconds; ``None`` is not sent)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    depth: int | None = None
    searchmoves: tuple[str, ...] = ()

    def command(self) -> str:
        parts = ["go"]
        for name in ("wtime", "btime", "winc", "binc", "movestogo", "nodes", "movetime", "depth"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name} {max(0, int(value))}")
        if len(parts) == 1:
            parts.append("infinite")
        if self.searchmoves:
            parts.append("searchmoves " + " ".join(self.searchmoves))
        return " ".join(parts)


def go_for(clock: Clock, t_ms: int) -> Go:
    """What the engine is told at ``t_ms`` about the clock the Laws give it.

    ``wtime``/``btime`` are the times left; with a simple delay the side to
    move may also use the delay that runs before its main time, so its
    delay is added to its time and sent as its increment (a simple delay
    of *d* is, for planning, an increment of *d* paid before the move); a
    Bronstein delay gives back at most *d*, sent as the increment.
    ``movestogo`` counts the moves left in the side's current period when
    the period has a move count. Without a clock: no limits (the caller
    decides, e.g. ``nodes`` or ``movetime``).
    """
    control = clock.control
    if control.unlimited:
        return Go()
    values: dict[str, int | None] = {}
    running = clock.running
    for side, key in (("white", "w"), ("black", "b")):
        color: Color = "white" if side == "white" else "black"
        moves = clock.moves(color)
        period = control.periods[control.period_index(moves)]
        left = clock.remaining(t_ms, color) or 0
        inc = period.increment_ms
        if running == color:
            flag = clock.flag_time(color)  # the delay still to run, then the time left
            if flag is not None:
                left = max(0, flag - t_ms)
        if period.delay == "simple":
            inc += period.delay_ms
        elif period.delay == "bronstein":
            inc += period.delay_ms
        values[f"{key}time"] = left
        values[f"{key}inc"] = inc
        if running == color and period.moves is not None:
            values["movestogo"] = _moves_to_go(control, moves)
    return Go(
        wtime=values["wtime"], btime=values["btime"], winc=values["winc"] or None, binc=values["binc"] or None,
        movestogo=values.get("movestogo"),
    )


def _moves_to_go(control: TimeControl, moves_made: int) -> int | None:
    """Moves left in the period of the next move (``None`` in sudden death)."""
    n = moves_made
    last = len(control.periods) - 1
    for i, p in enumerate(control.periods):
        if p.moves is None:
            return None
        if i == last:
            return p.moves - n % p.moves
        if n < p.moves:
            return p.moves - n
        n -= p.moves
    return None


@dataclass(frozen=True, slots=True)
class BestMove:
    """The engine's answer to ``go``, as written, with when it arrived.

    ``move`` is the first word after ``bestmove`` ("" when there is none);
    ``sent_ns`` is :func:`time.monotonic_ns` just before ``go`` was written
    to the engine's input, ``received_ns`` when the output holding the
    ``bestmove`` line became readable (before it was read and parsed);
    ``score_cp`` / ``score_mate`` come from the last ``info ... score`` line
    of the search (from the engine's side), ``engine_ms`` from the last
    ``info ... time`` (the search time by the engine's own clock), when it
    sent them. ``origin_ns`` tells how long after ``go`` the engine began
    to count its time (its process waiting for a core or its input).
    """

    move: str
    line: str
    sent_ns: int
    received_ns: int
    score_cp: int | None = None
    score_mate: int | None = None
    engine_ms: int | None = None
    #: When the engine's own clock started, as far as its ``info ... time`` lines tell (the earliest
    #: instant a line became readable less the time it reports): at or after the true start.
    origin_ns: int | None = None

    @property
    def elapsed_ms(self) -> float:
        return (self.received_ns - self.sent_ns) / 1e6


@dataclass(slots=True)
class _Search:
    """What a search has reported so far, while :meth:`UciEngine.wait_bestmove` reads it."""

    cp: int | None = None
    mate: int | None = None
    spent: int | None = None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
        pass


class UciEngine:
    """One UCI engine process.

    >>> with UciEngine(["/usr/games/stockfish"]) as sf:      # doctest: +SKIP
    ...     sf.configure({"Skill Level": 3})
    ...     sf.go(None, ["e2e4"], Go(movetime=50))
    ...     print(sf.wait_bestmove(time.monotonic_ns() + 10**9).move)

    Not thread-safe: one thread talks to one engine at a time.
    """

    def __init__(self, command: Sequence[str] | str, *, name: str | None = None, cwd: str | None = None,
                 start_timeout: float = 10.0) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise EngineError("no engine command given")
        self.argv = argv
        self.id_name: str | None = None
        self.options: dict[str, dict[str, str]] = {}  # name as the engine spells it -> its declaration
        self._buf = b""
        self._lines: deque[tuple[str, int]] = deque()  # lines read, each with the instant it became readable
        self._searching = False
        self._go_ns = 0
        self._origin_ns: int | None = None
        #: How long the last ``go`` took to write (ns): the engine can start once the bytes are in the pipe,
        #: within this call (a write that wakes the engine may be pre-empted by it on a busy machine).
        self.last_write_ns = 0
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
                bufsize=0, start_new_session=True,
            )
        except OSError as err:
            raise EngineError(f"cannot start engine {' '.join(argv)!r}: {err.strerror or err}") from None
        self._finalizer = weakref.finalize(self, _kill_group, self._proc)
        self._fd = self._proc.stdout.fileno()  # type: ignore[union-attr]
        self.name = name or os.path.basename(argv[0])
        try:
            self._handshake(start_timeout)
        except BaseException:
            self.close()
            raise

    # ----------------------------------------------------------------- state
    @property
    def pid(self) -> int:
        return self._proc.pid

    def waited_ns(self) -> int | None:
        """How long the engine's threads have waited for a core so far (Linux's run-queue delay,
        ``/proc/PID/task/*/schedstat``); ``None`` where the system does not tell."""
        return _run_delay(f"/proc/{self._proc.pid}/task")

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, pid={self._proc.pid}, alive={self.alive})"

    # ------------------------------------------------------------------ I/O
    def send(self, line: str) -> None:
        """Writes one command line; a dead engine raises :class:`EngineCrashed`."""
        try:
            self._proc.stdin.write((line + "\n").encode())  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError):
            raise EngineCrashed(f"engine {self.name!r} has stopped (exit status {self._proc.poll()})") from None

    def _readline(self, deadline_ns: int | None) -> str | None:
        """The next line, or ``None`` if ``deadline_ns`` passes first."""
        item = self._next(deadline_ns)
        return None if item is None else item[0]

    def _next(self, deadline_ns: int | None) -> tuple[str, int] | None:
        """The next line and the instant (monotonic ns) it became readable, or ``None`` past ``deadline_ns``."""
        while True:
            if self._lines:
                return self._lines.popleft()
            if deadline_ns is not None:
                wait = (deadline_ns - time.monotonic_ns()) / 1e9
                if wait <= 0:
                    return None
            else:
                wait = None
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                return None
            ready_ns = time.monotonic_ns()
            try:
                chunk = os.read(self._fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                try:  # output closed: it is ending (or has ended); give it a moment to exit
                    self._proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    pass
                raise EngineCrashed(f"engine {self.name!r} closed its output (exit status {self._proc.poll()})")
            data = self._buf + chunk
            *lines, self._buf = data.split(b"\n")
            self._lines.extend((raw.decode("utf-8", "replace").strip(), ready_ns) for raw in lines)

    def _expect(self, word: str, timeout: float) -> list[str]:
        deadline = time.monotonic_ns() + int(timeout * 1e9)
        seen: list[str] = []
        while True:
            line = self._readline(deadline)
            if line is None:
                raise EngineTimeout(f"engine {self.name!r} did not answer {word!r} within {timeout:g} s")
            if line.split(" ", 1)[0] == word:
                return seen
            seen.append(line)

    def _handshake(self, timeout: float) -> None:
        self.send("uci")
        for line in self._expect("uciok", timeout):
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.id_name = line.split(None, 2)[2] if len(words) > 2 else None
            elif words[:2] == ["option", "name"]:
                decl = _read_option(line)
                if decl is not None:
                    self.options[decl["name"]] = decl

    def isready(self, timeout: float = 10.0) -> None:
        """``isready``/``readyok``: :class:`EngineTimeout` if it does not answer."""
        self.send("isready")
        self._expect("readyok", timeout)

    def configure(self, options: Mapping[str, object], timeout: float = 10.0) -> None:
        """Sets options the engine declared; another name is an error naming it."""
        lower = {k.lower(): k for k in self.options}
        for key, value in options.items():
            real = lower.get(key.lower())
            if real is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise EngineError(f"engine {self.name!r} has no option {key!r} (it declares: {known})")
            self._set_option(real, self.options[real].get("type") == "button", value)
        if options:
            self.isready(timeout)

    def _set_option(self, name: str, button: bool, value: object) -> None:
        """One declared option, in UCI's words."""
        if isinstance(value, bool):
            value = "true" if value else "false"
        self.send(f"setoption name {name}" if button else f"setoption name {name} value {value}")

    def new_game(self, timeout: float = 10.0) -> None:
        self.send("ucinewgame")
        self.isready(timeout)

    def begin_new_game(self) -> None:
        """``ucinewgame`` and ``isready`` without waiting: :meth:`wait_ready` then waits for ``readyok``
        (two engines clear their hash tables at the same time)."""
        self.send("ucinewgame\nisready")

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Waits for the ``readyok`` of an ``isready`` already sent: :class:`EngineTimeout` if it does not come."""
        self._expect("readyok", timeout)

    def go(self, fen: str | None, moves: Sequence[str], limits: Go) -> int:
        """Sends the position and ``go``; returns the instant (monotonic ns) ``go`` was handed to the
        engine's input (just before the write: the engine may start as soon as the bytes are in the pipe)."""
        pos = "position startpos" if fen is None else f"position fen {fen}"
        if moves:
            pos += " moves " + " ".join(moves)
        data = (pos + "\n" + limits.command() + "\n").encode()
        self._go_ns = go_ns = time.monotonic_ns()
        try:
            self._proc.stdin.write(data)  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError):
            raise EngineCrashed(f"engine {self.name!r} has stopped (exit status {self._proc.poll()})") from None
        self.last_write_ns = time.monotonic_ns() - go_ns
        self._searching = True
        self._origin_ns = None
        return go_ns

    def _origin(self, ready_ns: int, spent_ms: int) -> None:
        at = ready_ns - spent_ms * 1_000_000
        if self._origin_ns is None or at < self._origin_ns:
            self._origin_ns = at

    #: What makes the engine answer at once with the move it has (xboard: ``?``).
    _STOP = "stop"

    def wait_bestmove(self, deadline_ns: int | None) -> BestMove | None:
        """Reads until the engine's move; ``None`` if ``deadline_ns`` passes first
        (the search goes on: :meth:`stop` it or :meth:`close` the engine).

        What the search reports on the way (score, time) goes into the answer;
        other lines are ignored, as UCI asks.
        """
        seen = _Search()
        while True:
            item = self._next(deadline_ns)
            if item is None:
                return None
            line, ready_ns = item
            best = self._read(line, ready_ns, seen)
            if best is not None:
                self._searching = False
                return best

    def _read(self, line: str, ready_ns: int, seen: _Search) -> BestMove | None:
        """One line of UCI: the answer (``bestmove``), or an ``info`` line's score and time, noted in ``seen``."""
        if line.startswith("bestmove"):
            words = line.split()
            move = words[1] if len(words) > 1 else ""
            return BestMove(move, line, self._go_ns, ready_ns, seen.cp, seen.mate, seen.spent, self._origin_ns)
        if line.startswith("info") and (" score " in line or " time " in line):
            words = line.split()
            try:
                if "time" in words:
                    seen.spent = int(words[words.index("time") + 1])
                    self._origin(ready_ns, seen.spent)
                if "score" in words and "lowerbound" not in words and "upperbound" not in words:
                    i = words.index("score")
                    kind, value = words[i + 1], int(words[i + 2])
                    if kind == "cp":
                        seen.cp, seen.mate = value, None
                    elif kind == "mate":
                        seen.cp, seen.mate = None, value
            except (ValueError, IndexError):
                pass
        return None

    def stop(self, timeout: float = 1.0) -> BestMove | None:
        """Stops a search (UCI ``stop``, xboard ``?``) and waits up to ``timeout`` for its move."""
        if not self._searching:
            return None
        self.send(self._STOP)
        return self.wait_bestmove(time.monotonic_ns() + int(timeout * 1e9))

    def close(self, timeout: float = 1.0) -> None:
        """``quit``, then kill the process group if it is still there: nothing is left behind."""
        proc = self._proc
        if proc.poll() is None:
            try:
                proc.stdin.write(b"quit\n")  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        _kill_group(proc)  # the group too: helpers an engine may have started
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._finalizer.detach()


def _run_delay(tasks: str) -> int | None:
    total = 0
    try:
        for tid in os.listdir(tasks):
            with open(f"{tasks}/{tid}/schedstat", "rb") as fh:
                total += int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return total


def thread_waited_ns() -> int | None:
    """How long the calling thread has waited for a core so far (``/proc/thread-self/schedstat``)."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as fh:
            return int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _read_option(line: str) -> dict[str, str] | None:
    """``option name Skill Level type spin default 20 min 0 max 20`` -> fields."""
    words = line.split()
    keys = {"type", "default", "min", "max", "var"}
    try:
        t = words.index("type")
    except ValueError:
        return None
    out: dict[str, str] = {"name": " ".join(words[2:t])}
    current: str | None = None
    for w in words[t:]:
        if w in keys:
            current = w
            if w in out and w == "var":
                out["var"] += "|"
            elif w not in out:
                out[w] = ""
            continue
        if current is not None:
            sep = " " if out[current] and not out[current].endswith("|") else ""
            out[current] += sep + w
    return out


_FEATURE = re.compile(r'(\w+)=("[^"]*"|\S+)')


class XboardEngine(UciEngine):
    """An engine that speaks the xboard protocol (CECP version 2), behind the same methods as
    :class:`UciEngine`: ``go`` sets up the position (``new``/``setboard`` and the moves in ``force``
    mode, only the new moves when the engine's board is the game's), sends ``level`` once a game,
    ``time``/``otim`` in centiseconds (rounded down) and ``go``; its ``move`` is the answer.

    What xboard cannot say: ``searchmoves`` (ignored), ``nodes`` (ignored); ``movetime`` is sent as
    ``st`` (whole seconds), ``depth`` as ``sd``; ``movestogo`` sets the ``level``'s moves per session
    at the first ``go`` of a game. A ``resign`` or a result claim is not a move: the engine's clock
    runs on and its flag falls, as for a player who stops moving.
    """

    def _handshake(self, timeout: float) -> None:
        self.features: dict[str, str] = {}
        self._board: tuple[str | None, list[str]] | None = None  # what the engine's board holds
        self._level_sent = False
        self._ping = 0
        self.send("xboard\nprotover 2")
        end = time.monotonic_ns() + int(timeout * 1e9)
        quiet = min(end, time.monotonic_ns() + 2_000_000_000)  # a protocol-1 engine says nothing
        waiting = False  # feature done=0: it asked for time to start
        while True:
            item = self._next(end if waiting else quiet)
            if item is None:
                if waiting:
                    raise EngineTimeout(f"engine {self.name!r} did not send 'feature done=1' within {timeout:g} s")
                break
            line = item[0]
            if not line.startswith("feature "):
                continue
            replies = []
            for key, raw in _FEATURE.findall(line[8:]):
                value = raw[1:-1] if raw.startswith('"') else raw
                if key == "option":
                    decl = _xboard_option(value)
                    if decl is not None:
                        self.options[decl["name"]] = decl
                else:
                    self.features[key] = value
                replies.append(f"accepted {key}")
            if replies:
                self.send("\n".join(replies))
            done = self.features.get("done")
            if done == "1":
                break
            waiting = done == "0"
        self.id_name = self.features.get("myname")

    def _pong(self, timeout: float) -> None:
        if self.features.get("ping") != "1":
            return
        want = f"pong {self._ping}"
        deadline = time.monotonic_ns() + int(timeout * 1e9)
        while True:
            line = self._readline(deadline)
            if line is None:
                raise EngineTimeout(f"engine {self.name!r} did not answer 'ping {self._ping}' within {timeout:g} s")
            if line == want:
                return

    def isready(self, timeout: float = 10.0) -> None:
        """``ping``/``pong`` (when the engine offers ``ping``)."""
        self._ping += 1
        if self.features.get("ping") == "1":
            self.send(f"ping {self._ping}")
        self._pong(timeout)

    def _set_option(self, name: str, button: bool, value: object) -> None:
        """One option the engine declared (``feature option=``), in xboard's words."""
        if isinstance(value, bool):
            value = 1 if value else 0
        self.send(f"option {name}" if button else f"option {name}={value}")

    def _new(self) -> str:
        self._board = None
        self._level_sent = False
        return "new\nforce\neasy\npost"

    def new_game(self, timeout: float = 10.0) -> None:
        self.send(self._new())
        self.isready(timeout)

    def begin_new_game(self) -> None:
        self._ping += 1
        ping = f"\nping {self._ping}" if self.features.get("ping") == "1" else ""
        self.send(self._new() + ping)

    def wait_ready(self, timeout: float = 10.0) -> None:
        self._pong(timeout)

    def go(self, fen: str | None, moves: Sequence[str], limits: Go) -> int:
        lines = ["force"]
        board = self._board
        usermove = "usermove " if self.features.get("usermove") == "1" else ""
        if board is not None and board[0] == fen and list(moves[:len(board[1])]) == board[1]:
            new = list(moves[len(board[1]):])
        else:
            lines += [self._new()]
            if fen is not None:
                if self.features.get("setboard") != "1":
                    raise EngineError(f"engine {self.name!r} cannot be given a position (it has no xboard "
                                      "'setboard' feature): play it from the initial position")
                lines.append(f"setboard {fen}")
            new = list(moves)
        lines += [usermove + m for m in new]
        white_to_move = (fen is None or fen.split()[1] == "w") == (len(moves) % 2 == 0)
        own, other = (limits.wtime, limits.btime) if white_to_move else (limits.btime, limits.wtime)
        inc = (limits.winc if white_to_move else limits.binc) or 0
        if own is not None:
            if not self._level_sent:
                base = max(1, -(-own // 1000))
                lines.append(f"level {limits.movestogo or 0} {base // 60}:{base % 60:02d} {inc / 1000:g}")
                self._level_sent = True
            lines.append(f"time {max(0, own) // 10}")
            if other is not None:
                lines.append(f"otim {max(0, other) // 10}")
        if limits.movetime is not None:
            lines.append(f"st {max(1, limits.movetime // 1000)}")
        if limits.depth is not None:
            lines.append(f"sd {limits.depth}")
        lines.append("go")
        data = ("\n".join(lines) + "\n").encode()
        self._go_ns = go_ns = time.monotonic_ns()
        try:
            self._proc.stdin.write(data)  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError):
            raise EngineCrashed(f"engine {self.name!r} has stopped (exit status {self._proc.poll()})") from None
        self.last_write_ns = time.monotonic_ns() - go_ns
        self._searching = True
        self._origin_ns = None
        self._board = (fen, list(moves))
        return go_ns

    _STOP = "?"  # move now

    def _read(self, line: str, ready_ns: int, seen: _Search) -> BestMove | None:
        """One line of xboard: the answer (``move X``), or a thinking line ``ply score time nodes pv`` (the
        time in centiseconds), its score and time noted in ``seen``."""
        if line.startswith("move "):
            move = line.split()[1].lower().replace("=", "") if len(line.split()) > 1 else ""
            if self._board is not None:
                self._board = (self._board[0], self._board[1] + [move])
            return BestMove(move, line, self._go_ns, ready_ns, seen.cp, None, seen.spent, self._origin_ns)
        words = line.split()
        if len(words) >= 4 and words[0].isdigit():
            try:
                seen.cp, seen.spent = int(words[1]), int(words[2]) * 10
            except ValueError:
                return None
            self._origin(ready_ns, seen.spent)
        return None


def _xboard_option(text: str) -> dict[str, str] | None:
    """``Resign Threshold -spin 800 200 1200`` -> fields like a UCI option's."""
    m = re.match(r"(.+?) -(spin|slider|check|combo|button|save|reset|string|file|path)(?:\s+(.*))?$", text)
    if m is None:
        return None
    name, kind, rest = m.group(1).strip(), m.group(2), (m.group(3) or "").strip()
    out = {"name": name, "type": {"slider": "spin", "save": "button", "reset": "button", "file": "string",
                                  "path": "string"}.get(kind, kind)}
    if kind in ("spin", "slider"):
        parts = rest.split()
        if len(parts) == 3:
            out.update(default=parts[0], min=parts[1], max=parts[2])
    elif kind == "combo":
        out["var"] = "|".join(v.strip().lstrip("*") for v in rest.split("///"))
    elif rest:
        out["default"] = rest
    return out

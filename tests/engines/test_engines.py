"""The UCI driver: handshake, options, go with the Laws' clock, deadlines, nothing left behind."""

from __future__ import annotations

import os
import time

import pytest

from chesslaws.clock import Clock
from chesslaws.engines import EngineCrashed, EngineError, EngineSpec, EngineTimeout, Go, UciEngine, go_for
from chesslaws.errors import InvalidInput
from chesslaws.timecontrol import TimeControl

from _engines import STOCKFISH, fake, needs_stockfish


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@needs_stockfish
def test_stockfish_handshake_options_and_a_move() -> None:
    assert STOCKFISH is not None
    with UciEngine([STOCKFISH]) as sf:
        assert sf.id_name and sf.id_name.startswith("Stockfish")
        assert sf.options["Skill Level"]["type"] == "spin"
        sf.configure({"skill level": 0, "UCI_LimitStrength": False})  # names are case-insensitive
        sf.new_game()
        sent = sf.go(None, ["e2e4"], Go(movetime=30))
        bm = sf.wait_bestmove(sent + 5 * 10**9)
        assert bm is not None and len(bm.move) in (4, 5)
        assert bm.score_cp is not None or bm.score_mate is not None
        assert bm.elapsed_ms >= 25
        assert bm.engine_ms is not None and bm.origin_ns is not None  # its clock started after go was sent
        # Stockfish reports whole milliseconds of a clock read in whole milliseconds, plus 1 (never 0):
        # up to 2 ms more than the true time, so its clock seems to start up to 2 ms "before" go.
        assert bm.sent_ns - 2_500_000 <= bm.origin_ns <= bm.received_ns
        pid = sf.pid
    assert gone(pid)


@needs_stockfish
def test_unknown_option_names_the_option() -> None:
    assert STOCKFISH is not None
    with UciEngine([STOCKFISH]) as sf:
        with pytest.raises(EngineError, match="no option 'Strength'.*Skill Level"):
            sf.configure({"Strength": 3})


def test_engine_that_never_finishes_the_handshake_times_out_and_is_killed() -> None:
    t0 = time.monotonic()
    with pytest.raises(EngineTimeout, match="uciok"):
        UciEngine(fake("no-uciok"), start_timeout=1.0)
    assert time.monotonic() - t0 < 5


def test_missing_program_is_a_clear_error() -> None:
    with pytest.raises(EngineError, match="cannot start engine.*no-such-engine"):
        UciEngine(["/nonexistent/no-such-engine"])


def test_crash_during_search_raises_engine_crashed() -> None:
    with UciEngine(fake("crash", "1")) as eng:
        sent = eng.go(None, [], Go(wtime=1000, btime=1000))
        with pytest.raises(EngineCrashed, match="closed its output"):
            eng.wait_bestmove(sent + 5 * 10**9)
        assert not eng.alive


def test_hang_returns_none_at_the_deadline_and_close_kills_it() -> None:
    eng = UciEngine(fake("hang"))
    pid = eng.pid
    sent = eng.go(None, [], Go(wtime=1000, btime=1000))
    t0 = time.monotonic()
    assert eng.wait_bestmove(sent + 300 * 10**6) is None
    assert 0.25 < time.monotonic() - t0 < 2
    assert eng.stop(timeout=0.2) is None  # it ignores stop too
    eng.close(timeout=0.2)  # ignores quit and SIGTERM: killed
    assert gone(pid)


def test_garbage_lines_are_ignored_and_bestmove_is_read_as_written() -> None:
    with UciEngine(fake("noisy")) as eng:
        sent = eng.go(None, [], Go(wtime=1000, btime=1000))
        bm = eng.wait_bestmove(sent + 5 * 10**9)
        assert bm is not None and bm.move == "a2a3"
    with UciEngine(fake("garbage")) as eng:
        sent = eng.go(None, [], Go(wtime=1000, btime=1000))
        bm = eng.wait_bestmove(sent + 5 * 10**9)
        assert bm is not None and bm.move == "xyz" and bm.line == "bestmove xyz"


def test_go_tells_the_clock_the_laws_give() -> None:
    tc = TimeControl.parse("40/5400+30:1800+30")
    clock = Clock.new(tc).start(0, "white")
    assert go_for(clock, 1000).command() == "go wtime 5399000 btime 5400000 winc 30000 binc 30000 movestogo 40"
    # After White's 39 moves, one move is left in the first period.
    for i in range(39):
        clock = clock.press(2 * i + 1, "white").press(2 * i + 2, "black")
    assert "movestogo 1" in go_for(clock, 78).command()
    # Simple delay: the side to move may use its delay before its main time; sent as an increment.
    delay = Clock.new(TimeControl.parse("300d5")).start(0, "white")
    assert go_for(delay, 2000).command() == "go wtime 303000 btime 300000 winc 5000 binc 5000"
    bronstein = Clock.new(TimeControl.parse("300b5")).start(0, "white")
    assert go_for(bronstein, 2000).command() == "go wtime 298000 btime 300000 winc 5000 binc 5000"
    assert go_for(Clock.new(TimeControl.parse("-")), 0).command() == "go infinite"
    assert Go(movetime=100, searchmoves=("e2e4", "d2d4")).command() == "go movetime 100 searchmoves e2e4 d2d4"


def test_engine_spec_parsing() -> None:
    spec = EngineSpec.parse("sf=/usr/games/stockfish --flag", {"Hash": "16"})
    assert spec.name == "sf" and spec.command == ("/usr/games/stockfish", "--flag") and spec.options == {"Hash": "16"}
    assert EngineSpec.parse("/usr/games/stockfish").name == "stockfish"
    with pytest.raises(InvalidInput, match="no command"):
        EngineSpec.parse("sf=")
    assert os.path.basename(EngineSpec.parse("python3 x.py").command[0]) == "python3"

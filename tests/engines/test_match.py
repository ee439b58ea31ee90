"""Engine games under the Laws: every misbehaviour ends with the edition's ruling, nothing hangs,
no engine process is left behind (the autouse fixture in conftest.py)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesslaws.engines import BestMove, EngineSpec, Go, UciEngine
from chesslaws.game import Game
from chesslaws.match import (
    Adjudication,
    GameResult,
    MatchConfig,
    MatchReport,
    Opening,
    Sprt,
    Tally,
    TimeLoss,
    final_table,
    play_game,
    read_openings,
    run_match,
)
from chesslaws.pgn import read_pgn
from chesslaws.timecontrol import TimeControl

from _engines import STOCKFISH, fake, fake_cmd, needs_stockfish


def duel(white: list[str], black: list[str], tc: str = "60+0", edition: str = "2023",
         adjudication: Adjudication = Adjudication(), opening: Opening = Opening(None)) -> GameResult:
    w = UciEngine(white, name="W")
    try:
        b = UciEngine(black, name="B")
        try:
            return play_game({"white": w, "black": b}, time_control=TimeControl.parse(tc), edition=edition,
                             adjudication=adjudication, opening=opening, stop_grace=0.3)
        finally:
            b.close(timeout=0.3)
    finally:
        w.close(timeout=0.3)


def rulings(r: GameResult) -> list[tuple[str, str]]:
    return [(x.article, x.text) for x in r.game.state.rulings]


def replayed(r: GameResult) -> Game:
    """The game rebuilt from its log alone, at the instant the match game ended."""
    g = Game.from_events([e.to_json() for e in r.game.events])
    return g.at(r.game.state.t_ms / 1000)


def test_2023_illegal_move_is_reinstated_with_time_and_the_second_loses() -> None:
    r = duel(fake("illegal"), fake("legal"), tc="60+0")
    s = r.game.state
    assert (s.result, s.termination) == ("0-1", "illegal_moves")
    texts = rulings(r)
    assert texts[0][0] == "7.5.5" and "Black receives 1 minute" in texts[0][1]
    assert "second illegal move: Black wins" in texts[-1][1]
    assert r.illegal == {"white": 2, "black": 0}
    assert replayed(r).state.result == "0-1"  # the log alone gives the same ruling


def test_2023_one_illegal_move_gives_the_opponent_time_and_play_goes_on() -> None:
    r = duel(fake("legal"), fake("illegal-once"), tc="60+0", adjudication=Adjudication(max_moves=6))
    s = r.game.state
    assert (s.result, s.termination) == ("1/2-1/2", "arbiter_decision")
    assert r.illegal == {"white": 0, "black": 1}
    # White got a minute: after 6 moves White has more than the 60 s it started with.
    assert s.moves[-1].color == "black"
    white_clock = [m.clock_ms for m in s.moves if m.color == "white"][-1]
    assert white_clock is not None and white_clock > 60_000
    assert rulings(r)[-1][0] == "12.2.2" and "move limit: 6 moves" in rulings(r)[-1][1]
    # The arbiter's decision is in the log, so the PGN says so.
    assert '[Termination "adjudication"]' in r.pgn and "[%clk " in r.pgn
    assert any(e.type == "decision" and e.get("on") == "adjudication" for e in r.game.events)


def test_1997_blitz_illegal_move_stands_and_the_opponent_claims_the_win() -> None:
    r = duel(fake("illegal"), fake("legal"), tc="300+0", edition="1997")
    s = r.game.state
    assert (s.result, s.termination) == ("0-1", "illegal_moves")
    assert rulings(r)[-1][0] == "C.3"
    assert [e.type for e in r.game.events][-2:] == ["move", "claim_win"]


def test_1989_illegal_moves_are_only_reinstated_until_the_flag_falls() -> None:
    r = duel(fake("illegal"), fake("legal"), tc="1+0", edition="1989")
    s = r.game.state
    assert (s.result, s.termination) == ("0-1", "time_forfeit")
    assert s.illegal_moves["white"] > 1  # no penalty in 1989: corrected each time (8.1)
    assert {a for a, _ in rulings(r)} == {"8.1", "10.14"}


def test_bestmove_that_is_no_move_counts_as_an_illegal_move_in_2023() -> None:
    r = duel(fake("legal"), fake("garbage"), tc="60+0")
    s = r.game.state
    assert (s.result, s.termination) == ("1-0", "illegal_moves")
    assert any("'bestmove xyz'" in i for i in r.incidents)
    assert "bestmove xyz" in r.pgn  # the incident is written in the PGN


def test_crash_is_a_player_who_does_not_move_and_loses_on_time_without_waiting() -> None:
    t0 = time.monotonic()
    r = duel(fake("legal"), fake("crash", "3"), tc="600+0")
    assert time.monotonic() - t0 < 20  # its 10 minutes are not waited for: nothing can stop its flag
    s = r.game.state
    assert (s.result, s.termination) == ("1-0", "time_forfeit")
    assert len(s.moves) == 5 and r.broken == frozenset({"black"})  # Black crashed at its third "go"
    assert any("crashed" in i for i in r.incidents)


def test_crash_against_a_lone_king_is_a_draw() -> None:
    # White has only the king: Black's flag falls, White cannot mate (6.9).
    opening = Opening("8/8/8/4k3/8/8/3q4/K7 b - - 0 1", "lone king")
    r = duel(fake("legal"), fake("crash", "1"), tc="600+0", opening=opening)
    assert (r.game.state.result, r.game.state.termination) == ("1/2-1/2", "time_forfeit")


def test_hang_loses_when_its_flag_falls_and_the_process_is_killed() -> None:
    t0 = time.monotonic()
    r = duel(fake("hang"), fake("legal"), tc="1+0")
    took = time.monotonic() - t0
    s = r.game.state
    assert (s.result, s.termination) == ("0-1", "time_forfeit")
    assert s.to_json()["clocks"]["white_ms"] == 0
    assert r.broken == frozenset({"white"})
    assert 0.9 < took < 10


def test_engine_that_answers_only_stop_loses_on_time_but_is_reused() -> None:
    r = duel(fake("legal"), fake("hang-stop"), tc="1+0")
    assert (r.game.state.result, r.game.state.termination) == ("1-0", "time_forfeit")
    assert r.broken == frozenset()  # it answered 'stop': it can play the next game


def test_an_engine_that_overruns_its_time_loses_by_its_own_fault() -> None:
    r = duel(fake("overrun", "60"), fake("legal"), tc="1+0")
    assert (r.game.state.result, r.game.state.termination) == ("0-1", "time_forfeit")
    loss = r.time_loss
    assert loss is not None and loss.answered_ms is None  # no bestmove before its flag
    assert loss.told_ms <= 1000 and loss.told_ms <= loss.left_ms
    assert loss.engine_ms is not None and loss.engine_ms > loss.told_ms  # read from the bestmove after "stop"
    assert loss.cause == "engine" and "overran" in loss.describe()
    tally = Tally()
    tally.add(r)
    assert tally.time_loss_causes == {"engine": 1}
    table = final_table(MatchReport(tally, [r], None, False, 1.0), ["A", "B"], None)
    assert "Losses on time: the engine overran the time it was told 1, its process began its search late 0, " \
        "its answer reached the harness late 0, caused by the harness 0" in table


def test_an_answer_in_time_by_the_engines_clock_but_late_here_is_not_the_harness_if_it_was_free() -> None:
    # The engine says it searched 5 ms less than it was told, but its answer comes 40 ms after its
    # flag; its clock started at once. The harness's thread never waited for a core meanwhile.
    r = duel(fake("late-report"), fake("legal"), tc="1+0")
    assert r.game.state.termination == "time_forfeit"
    loss = r.time_loss
    assert loss is not None and loss.start_ms is not None and loss.start_ms < 30, loss
    if loss.harness_wait_ms is None:  # no /proc/.../schedstat: nothing shows the engine was late
        assert loss.cause == "latency"
    else:
        assert loss.harness_wait_ms < 35 and loss.cause == "start", loss


def test_an_engine_whose_clock_started_late_is_not_the_harness() -> None:
    r = duel(fake("late-start"), fake("legal"), tc="1+0")
    assert r.game.state.termination == "time_forfeit"
    loss = r.time_loss
    assert loss is not None and loss.cause == "start", loss
    assert loss.start_ms is not None and loss.start_ms >= 55 and loss.engine_ms is not None
    assert "not the harness" in loss.describe()


def test_time_loss_causes() -> None:
    # Told more than it had (the harness's delay before "go" not counted), or answered within what it
    # was told: the harness's; by its own clock within the time told: latency; else the engine's.
    assert TimeLoss(300, 288.4, 11.6, None, 310).cause == "harness"
    assert TimeLoss(300, 300.0, 0.01, 299.0, None).cause == "harness"
    assert TimeLoss(300, 300.0, 0.01, None, 297).cause == "latency"
    assert TimeLoss(300, 300.0, 0.01, None, 297, 0.4).cause == "latency"
    assert TimeLoss(300, 300.0, 0.01, None, 297, 5.0).cause == "start"  # 5 + 297 > 300: it began late
    # Where the run-queue delays are known: the harness's thread waited at least the 3 ms the engine
    # left unused (latency, the harness's), or less (the engine's answer was late on its own).
    assert TimeLoss(300, 300.0, 0.01, None, 297, 0.4, 3.5, 0.0).cause == "latency"
    assert TimeLoss(300, 300.0, 0.01, None, 297, 0.4, 1.0, 40.0).cause == "start"
    assert "the engine 40.0 ms, the harness 1.0 ms" in TimeLoss(300, 300.0, 0.01, None, 297, 0.4, 1.0, 40.0).describe()
    assert TimeLoss(300, 300.2, 0.01, 300.9, 302).cause == "engine"
    assert TimeLoss(300, 300.2, 0.01, None, None).cause == "engine"


class _SlowHarness(UciEngine):
    """An engine whose harness thread waits 25 ms after each bestmove became readable (a busy machine)."""

    told: list[tuple[Go, int]]

    def go(self, fen: str | None, moves: list[str], limits: Go) -> int:  # type: ignore[override]
        self.told.append((limits, len(moves)))
        return super().go(fen, moves, limits)

    def wait_bestmove(self, deadline_ns: int | None) -> BestMove | None:
        bm = super().wait_bestmove(deadline_ns)
        time.sleep(0.025)
        return bm


def test_engines_are_told_the_time_left_when_go_is_sent_not_when_their_clock_started() -> None:
    engines = {}
    for color in ("white", "black"):
        e = _SlowHarness(fake("legal"), name=color)
        e.told = []
        engines[color] = e
    try:
        r = play_game(engines, time_control=TimeControl.parse("60+0"), adjudication=Adjudication(max_moves=6))
    finally:
        for e in engines.values():
            e.close(timeout=0.3)
    moves = r.game.state.moves
    black_told = [(lim.btime, n) for lim, n in engines["black"].told]
    assert len(black_told) >= 5
    for btime, n in black_told[1:]:
        # Black's clock when White moved (ply n-1) is its clock after its own last move (ply n-2);
        # "go" came at least 25 ms later, and Black is told what is left at that instant.
        clock_then = moves[n - 2].clock_ms
        assert btime is not None and clock_then is not None
        assert btime <= clock_then - 24, (btime, clock_then)


def test_threefold_repetition_is_claimed_on_the_engines_behalf() -> None:
    r = duel(fake("repeat"), fake("repeat"), tc="60+0")
    s = r.game.state
    assert (s.result, s.termination) == ("1/2-1/2", "threefold_repetition")
    assert r.game.events[-1].type == "claim_draw" and r.game.events[-1].get("reason") == "threefold"
    assert len(s.moves) == 8


def test_without_claims_2023_fivefold_ends_it() -> None:
    r = duel(fake("repeat"), fake("repeat"), tc="60+0", adjudication=Adjudication(claims=False))
    assert r.game.state.termination == "fivefold_repetition"


def test_score_adjudication_is_the_arbiters_decision() -> None:
    adj = Adjudication(resign_cp=900, resign_moves=3)
    r = duel(fake("score", "-1000"), fake("score", "1000"), tc="60+0", adjudication=adj)
    s = r.game.state
    assert (s.result, s.termination) == ("0-1", "arbiter_decision")
    assert len(s.moves) == 5  # White's third losing score, Black agreeing
    ev = r.game.events[-1]
    assert ev.type == "decision" and ev.get("ruling") == "black_wins"
    draw = duel(fake("score", "3"), fake("score", "-3"), tc="60+0",
                adjudication=Adjudication(draw_cp=5, draw_moves=2, draw_after=4))
    assert draw.game.state.termination == "arbiter_decision" and draw.game.state.result == "1/2-1/2"
    assert len(draw.game.state.moves) == 8


@needs_stockfish
def test_stockfish_game_at_a_fast_control_ends_by_the_laws_with_clocks() -> None:
    assert STOCKFISH is not None
    sf = [STOCKFISH]
    r = duel(sf, sf, tc="2+0.05", adjudication=Adjudication(max_moves=60))
    s = r.game.state
    assert not s.ongoing
    if s.termination == "time_forfeit":  # a machine loaded by other work can starve an engine: then a real
        clocks = r.game.to_json()["clocks"]  # flag fall, the clock of the side that lost on time empty
        empty = "white" if s.result == "0-1" else "black" if s.result == "1-0" else None
        assert (clocks["white_ms"] == 0 or clocks["black_ms"] == 0) if empty is None else clocks[f"{empty}_ms"] == 0, clocks
    assert r.incidents == () and r.illegal == {"white": 0, "black": 0}
    games = list(read_pgn(r.pgn))
    assert len(games) == 1 and games[0].ok
    assert all(m.clock_ms is not None for m in games[0].moves)
    # Each move's t is when its bestmove arrived; the clocks are what the Laws give.
    assert replayed(r).to_json()["clocks"] == r.game.to_json()["clocks"]


def test_openings_from_epd_and_pgn_each_with_both_colours(tmp_path: Path) -> None:
    epd = tmp_path / "book.epd"
    epd.write_text("# two positions\n"
                   "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open\";\n"
                   "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2\n")
    book = read_openings(str(epd))
    assert [o.line for o in book] == ["open", "line 3"]
    pgn = tmp_path / "book.pgn"
    pgn.write_text('[Event "x"]\n\n1. d4 d5 2. c4 *\n')
    (op,) = read_openings(str(pgn))
    assert op.line == "d4 d5 c4" and op.fen is not None and " b " in op.fen
    bad = tmp_path / "bad.epd"
    bad.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq\nnot a fen at all\n")
    with pytest.raises(Exception, match="bad.epd, line 1"):
        read_openings(str(bad))
    cfg = MatchConfig((EngineSpec("a", tuple(fake("score", "0"))), EngineSpec("b", tuple(fake("legal")))),
                      TimeControl.parse("30+0"), games=4, openings=tuple(book),
                      adjudication=Adjudication(max_moves=2), concurrency=2)
    report = run_match(cfg)
    by_round = sorted(report.results, key=lambda r: r.round)
    assert [r.white for r in by_round] == ["A", "B", "A", "B"]
    fens = [r.game.state.config.fen for r in by_round]
    assert fens[0] == fens[1] == book[0].fen and fens[2] == fens[3] == book[1].fen
    assert report.tally.games == 4


def test_sprt_llr_and_stopping_rule() -> None:
    sprt = Sprt.parse("elo0=0 elo1=10 alpha=0.05 beta=0.05")
    lower, upper = sprt.bounds
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    # A 60 % score over 600 games is far above 10 Elo: H1.
    assert sprt.llr(200, 300, 100) > upper and sprt.decision(200, 300, 100) == "H1"
    # An even score over 500 games: clearly not +10 (H0 needs LLR <= -2.94).
    assert sprt.decision(1000, 2000, 1000) == "H0"
    assert sprt.decision(10, 10, 10) is None
    # LLR grows with wins, falls with losses.
    assert sprt.llr(30, 40, 20) > sprt.llr(25, 40, 25) > sprt.llr(20, 40, 30)
    with pytest.raises(Exception, match="elo1 must be greater"):
        Sprt.parse("elo0=5 elo1=0")


def test_cli_match_with_pgnout_table_and_errors(tmp_path: Path) -> None:
    out = tmp_path / "m.pgn"
    cmd = [sys.executable, "-m", "chesslaws.cli", "match", "good=" + fake_cmd("legal"), "bad=" + fake_cmd("illegal"),
           "--games", "2", "--tc", "20+0.1", "--pgnout", str(out), "--sprt", "elo0=0 elo1=20"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert re.search(r"^good\s+2\s+2\.0\s+2\s+0\s+0", p.stdout, re.M), p.stdout
    assert re.search(r"^bad\s+2\s+0\.0\s+0\s+0\s+2\s+\S+\s+4\s+0", p.stdout, re.M), p.stdout
    assert "illegal_moves 2" in p.stdout and "LLR" in p.stdout
    assert p.stderr.count("games ") == 2 and "LLR" in p.stderr  # one progress line per game
    games = list(read_pgn(str(out)))
    assert [g.tags["Result"] for g in games] == ["1-0", "0-1"]  # good has White in game 1, Black in game 2
    assert all(g.tags["LawsTermination"] == "illegal_moves" for g in games)
    bad = subprocess.run([sys.executable, "-m", "chesslaws.cli", "match", "a", "b", "--tc", "10+x"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "10+x" in bad.stderr
    none = subprocess.run([sys.executable, "-m", "chesslaws.cli", "match", "/nonexistent/engine", fake_cmd("legal"),
                           "--games", "1"], capture_output=True, text=True, timeout=60)
    assert none.returncode == 2 and "cannot start engine" in none.stderr


def test_sprt_stops_the_match_early() -> None:
    cfg = MatchConfig((EngineSpec("good", tuple(fake("legal"))), EngineSpec("bad", tuple(fake("illegal")))),
                      TimeControl.parse("30+0"), games=200, sprt=Sprt(0, 200))
    seen: list[int] = []
    report = run_match(cfg, on_result=lambda r, t: seen.append(t.games))
    assert report.sprt_decision == "H1" and report.stopped_early
    assert report.tally.wins == report.tally.games < 200
    assert seen == list(range(1, report.tally.games + 1))


@pytest.mark.parametrize("tc", ["3/2:2d1", "2b1", "40/5+1:3"])
def test_periods_and_delays_are_the_laws_clock(tc: str) -> None:
    r = duel(fake("legal"), fake("slow", "20"), tc=tc, adjudication=Adjudication(max_moves=5))
    s = r.game.state
    assert (s.termination, s.result) == ("arbiter_decision", "1/2-1/2")
    assert str(s.config.time_control) == tc
    assert all(m.clock_ms is not None and m.clock_ms > 0 for m in s.moves)
    if tc == "3/2:2d1":  # after its third move each side gets the second period's 2 s (carry-over)
        third = [m for m in s.moves if m.color == "black"][2]
        assert third.clock_ms is not None and third.clock_ms > 2_000
    if tc == "2b1":  # Bronstein: a 20 ms move costs nothing, so the clock stays at 2 s
        assert all(m.clock_ms == 2_000 for m in s.moves if m.color == "black")
    assert replayed(r).to_json()["clocks"] == r.game.to_json()["clocks"]

"""xboard (CECP 2) engines behind the same driver methods: a fake one always, Debian's fairymax when installed.

Debian's ``polyglot`` adapts UCI engines for xboard interfaces only (it answers "Not a UCI engine" for
fairymax): xboard engines are driven natively, by :class:`chesslaws.engines.XboardEngine`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chesslaws.engines import EngineError, EngineSpec, Go, XboardEngine
from chesslaws.match import Adjudication, MatchConfig, Opening, play_game, run_match
from chesslaws.pgn import read_pgn
from chesslaws.timecontrol import TimeControl

from _engines import STOCKFISH, fake, fake_cmd

FAIRYMAX = shutil.which("fairymax") or ("/usr/games/fairymax" if os.path.exists("/usr/games/fairymax") else None)


class Recorded(XboardEngine):
    """Keeps what was written to the engine."""

    sent: list[str]

    def send(self, line: str) -> None:
        if not hasattr(self, "sent"):
            self.sent = []
        self.sent.append(line)
        super().send(line)

    def go(self, fen: str | None, moves: list[str], limits: Go) -> int:  # type: ignore[override]
        write = self._proc.stdin.write  # type: ignore[union-attr]

        def spy(data: bytes) -> int:
            self.sent.append(data.decode())
            return write(data)

        self._proc.stdin.write = spy  # type: ignore[union-attr, method-assign]
        try:
            return super().go(fen, moves, limits)
        finally:
            self._proc.stdin.write = write  # type: ignore[union-attr, method-assign]


def test_spec_prefix_selects_the_protocol() -> None:
    spec = EngineSpec.parse("xboard:fm=/usr/games/fairymax")
    assert (spec.name, spec.command, spec.protocol) == ("fm", ("/usr/games/fairymax",), "xboard")
    assert EngineSpec.parse("/usr/games/stockfish").protocol == "uci"


def test_features_options_and_a_game_under_the_laws() -> None:
    xb = XboardEngine(fake("xboard"), name="xb")
    try:
        assert xb.id_name == "Fake xboard" and xb.features["setboard"] == "1"
        assert xb.options["Skill"] == {"name": "Skill", "type": "spin", "default": "5", "min": "0", "max": "10"}
        xb.configure({"skill": 3})
        with pytest.raises(EngineError, match="no option 'Strength'.*Skill"):
            xb.configure({"Strength": 1})
        from chesslaws.engines import UciEngine

        uci = UciEngine(fake("legal"), name="uci")
        try:
            r = play_game({"white": xb, "black": uci}, time_control=TimeControl.parse("60+1"),
                          adjudication=Adjudication(max_moves=6))
            s = r.game.state
            assert (s.result, s.termination) == ("1/2-1/2", "arbiter_decision") and len(s.moves) == 12
            assert not r.incidents and not r.illegal.get("white")
            # The same engines again, Black to move in a position given by FEN (setboard).
            fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
            r2 = play_game({"white": uci, "black": xb}, time_control=TimeControl.parse("60+1"),
                           opening=Opening(fen, "pawn"), adjudication=Adjudication(max_moves=3))
            assert r2.game.state.termination == "arbiter_decision" and len(r2.game.state.moves) >= 5
        finally:
            uci.close(timeout=0.3)
    finally:
        xb.close(timeout=0.3)


def test_time_and_level_are_sent_in_centiseconds_rounded_down() -> None:
    xb = Recorded(fake("xboard"), name="xb")
    try:
        xb.new_game()
        xb.go(None, ["e2e4"], Go(wtime=61_234, btime=59_999, winc=1000, binc=1000))
        bm = xb.wait_bestmove(None)
        assert bm is not None and bm.move and bm.engine_ms == 0
        first = xb.sent[-1].splitlines()
        assert "usermove e2e4" in first and "level 0 1:00 1" in first
        assert "time 5999" in first and "otim 6123" in first and first[-1] == "go"
        # The engine's board already holds e2e4 and its answer: only the new move is sent, no new level.
        xb.go(None, ["e2e4", bm.move, "d2d4"], Go(wtime=60_000, btime=59_000, winc=1000, binc=1000))
        second = xb.sent[-1].splitlines()
        assert second == ["force", "usermove d2d4", "time 5900", "otim 6000", "go"]
        assert xb.wait_bestmove(None) is not None
        # A position the engine's board does not lead to: set up again.
        xb.go(None, ["d2d4"], Go(wtime=60_000, btime=60_000))
        assert "new" in xb.sent[-1].splitlines() and "usermove d2d4" in xb.sent[-1]
        assert xb.wait_bestmove(None) is not None
    finally:
        xb.close(timeout=0.3)


@pytest.mark.skipif(FAIRYMAX is None or STOCKFISH is None,
                    reason="fairymax or stockfish is not installed (apt install fairymax stockfish)")
def test_fairymax_against_stockfish_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "fm.pgn"
    cmd = [sys.executable, "-m", "chesslaws.cli", "match", f"xboard:fm={FAIRYMAX}", f"sf={STOCKFISH}",
           "--games", "2", "--tc", "6+0.1", "--max-moves", "12", "--option2", "Skill Level=0",
           "--pgnout", str(out)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    games = list(read_pgn(str(out)))
    assert len(games) == 2 and {g.tags["White"] for g in games} == {"fm", "sf"}
    for g in games:
        assert not g.errors and len(g.moves) >= 8  # both engines moved, each move legal
        if g.tags["LawsTermination"] == "time_forfeit":  # Stockfish at skill 0 may, on a busy machine
            loser = g.tags["White"] if g.tags["Result"] == "0-1" else g.tags["Black"]
            assert loser == "sf", p.stdout  # fairymax is told its time in centiseconds, not lost
    assert re.search(r"^fm\s+2\s", p.stdout, re.M), p.stdout


def test_fake_xboard_in_a_match() -> None:
    cfg = MatchConfig((EngineSpec.parse("xboard:xb=" + fake_cmd("xboard")), EngineSpec.parse("u=" + fake_cmd("legal"))),
                      TimeControl.parse("30+0.1"), games=2, adjudication=Adjudication(max_moves=4))
    report = run_match(cfg)
    assert report.tally.games == 2 and report.tally.terminations == {"arbiter_decision": 2}


def test_the_server_offers_xboard_engines_only_the_limits_xboard_can_say() -> None:
    from chesslaws.server.engines import EngineInfo, probe

    info = probe(EngineSpec.parse("xboard:xb=" + fake_cmd("xboard")))
    assert info.id_name == "Fake xboard"
    kinds = {s["kind"]: s for s in info.strengths()}
    assert set(kinds) == {"movetime", "full"} and kinds["movetime"]["min"] == 1000
    uci = EngineInfo(EngineSpec.parse("u=" + fake_cmd("legal")), "Fake", {})
    assert {s["kind"] for s in uci.strengths()} == {"nodes", "movetime", "full"}

"""The TRF chesslaws gives a pairing engine for the round to pair (``_request_trf``): the requested byes of
that round are written in its column and counted in the players' totals (columns 81-84)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from chesslaws.tournament import Regulations, Tournament, pair_next_round
from chesslaws.tournament.model import Scoring
from chesslaws.tournament.pairing import CaissifyDutch, _request_trf

try:
    import gacrux  # noqa: F401

    GACRUX = True
except ImportError:
    GACRUX = False


def _event(scoring: Scoring | None = None) -> Tournament:
    rng = random.Random(3)
    reg = Regulations(rounds=7) if scoring is None else Regulations(rounds=7, scoring=scoring)
    t = Tournament("Requests", reg)
    for i in range(21):
        t = t.add_player(f"P{i + 1:02}", rng.randint(1200, 2700))
    t = t.order_by_rating()
    for r in range(1, 4):
        t = pair_next_round(t, CaissifyDutch())
        for b in t.rounds[-1].boards:
            t = t.set_result(r, b.table, rng.choice(["1-0", "0-1", "1/2-1/2"]))
    return t.request_bye(4, 3, "half").request_bye(4, 5, "full").request_bye(4, 9, "zero").withdraw(11)


def _player_lines(trf: str) -> dict[int, str]:
    return {int(line[4:8]): line for line in trf.splitlines() if line.startswith("001")}


@pytest.mark.parametrize("scoring,full,half", [(None, 1.0, 0.5), (Scoring(win=3.0, draw=1.0, loss=0.0), 3.0, 1.0)])
def test_a_requested_bye_counts_in_the_total(scoring: Scoring | None, full: float, half: float) -> None:
    t = _event(scoring)
    before = _player_lines(_request_trf(t.request_bye(4, 3, "zero").request_bye(4, 5, "zero")))
    after = _player_lines(_request_trf(t))
    col = 92 + 10 * 3  # round 4's column
    assert after[3][col - 1:col + 7] == "0000 - H" and after[5][col - 1:col + 7] == "0000 - F"
    assert after[9][col - 1:col + 7] == "0000 - Z" and after[11][col - 1:col + 7] == "0000 - -"
    assert float(after[3][80:84]) == float(before[3][80:84]) + half
    assert float(after[5][80:84]) == float(before[5][80:84]) + full
    for sn in (9, 11, 1, 2):  # a zero bye, a withdrawal, players to pair: as the standings give them
        assert after[sn][80:84] == before[sn][80:84]
    # caissify's TRF reader takes the totals as written.
    from caissify_pairings.trf import parse_trf

    scores = {p["starting_number"]: p["score"] for p in parse_trf(_request_trf(t))["players"]}
    assert scores[5] == float(after[5][80:84]) and scores[3] == float(after[3][80:84])


@pytest.mark.skipif(not GACRUX, reason="FIDE TEC's pairing checker is not installed (pip install gacrux)")
def test_tec_pairs_the_request_as_we_do(tmp_path: Path) -> None:
    """FIDE TEC's checker, asked to pair round 4 from our request TRF (-p), pairs it as our engine does,
    colours included: it reads the byes' codes and totals as we mean them."""
    t = _event()
    path = tmp_path / "request.trf"
    path.write_text(_request_trf(t))
    out = tmp_path / "tec.json"
    run = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", "-p", "-i", str(path), "-o", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(out.read_text())
    assert result["status"]["error"] == [] and result["pairingResult"]["round"] == 4
    tec = {tuple(p) for p in result["pairingResult"]["pairs"]}
    ours = pair_next_round(t, CaissifyDutch()).rounds[-1]
    mine = {(b.white, b.black) for b in ours.boards} | {(y.player, 0) for y in ours.byes if y.kind == "pab"}
    assert tec == mine

"""A match on the terminal: the progress line after each game, the final table, and :func:`run_cli`, which
plays a match showing them and appending every game to ``--pgnout``."""

from __future__ import annotations

import math
import sys
from typing import Sequence, TextIO

from chesslaws.atomic import AppendOutput
from chesslaws.match.play import GameResult
from chesslaws.match.runner import MatchConfig, MatchReport, run_match
from chesslaws.match.statistics import Sprt, Tally

__all__ = ["elo_text", "final_table", "progress_line", "run_cli", "signed"]


def signed(x: float, places: int = 1) -> str:
    """``x`` with its sign and ``places`` decimals ("+35.2", "-4.0"), and a value that rounds to zero as
    "0.0": neither "-0.0" (a negative zero, or a small negative value rounded) nor "+0.0" says anything."""
    text = f"{x:+.{places}f}"
    return text[1:] if float(text) == 0 else text


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
        return f"Elo {signed(elo)} (every game drawn: its bound cannot be computed)"
    return f"Elo {signed(elo)} ± {'inf' if math.isinf(err) else f'{err:.1f}'}"


def progress_line(tally: Tally, total: int, names: Sequence[str], sprt: Sprt | None) -> str:
    line = (f"games {tally.games}/{total}  {names[0]} vs {names[1]}: +{tally.wins} ={tally.draws} -{tally.losses}  "
            f"score {100 * tally.score:.1f}%  {elo_text(tally)}")
    if sprt is not None:
        lower, upper = sprt.bounds
        line += (f"  LLR {signed(sprt.llr(tally.wins, tally.draws, tally.losses), 2)} ({signed(lower, 2)}, "
                 f"{signed(upper, 2)})")
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
        e_text = f"{signed(e):>8}" if decided and t.wins != decided and t.losses != decided else f"{'n/a':>8}"
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
                    f"LLR {signed(llr, 2)} (bounds {signed(lower, 2)}, {signed(upper, 2)}): {verdict}")
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

"""Benchmark of Swiss pairing. Not a test: it measures and prints.

A random Swiss (a fixed seed: ratings 1200-2700, results drawn from the Elo
expectation with 30 % draws) is paired round by round through chesslaws'
engine interface (`chesslaws.tournament.pairing.pair_next_round`, the FIDE
Dutch system of the default engine: bbpPairings when it is built, as
`chesslaws tournament pair` does; --engine caissify for caissify-pairings
with its matchings in chesslaws' Rust core, as chesslaws pairs without
bbpPairings; --engine caissify-networkx for caissify alone, with networkx).
Per round it prints:

1. the time our engine takes to pair the round (wall and CPU of this process);
2. the time bbpPairings (FIDE-endorsed, C++) takes to pair the same round
   from the same TRF (`bbpPairings --dutch in.trf -p out`), and the ratio;
3. the independent checks of every round as we paired it, from our TRF-16:
   FIDE TEC's pairing checker (the `gacrux` package, `pairingchecker -c`),
   bbpPairings' checker (`-c`: pairs that differ, colours that differ) and,
   up to 150 players, caissify's free pairings checker (FPC).

bbpPairings is not shipped with chesslaws: build it from github.com/BieremaBoyzProgramming/bbpPairings
(make, about 20 s) and give it with --bbp PATH or CHESSLAWS_BBP. Without it only our times are printed.
A round that takes longer than --round-limit seconds stops the run (it is
reported as not finished): caissify-pairings runs one maximum-weight matching
of the whole field per pair it fixes (with networkx: minutes per round past
150 players).

    export CHESSLAWS_BBP=/path/to/bbpPairings.exe
    python bench/bench_pairing.py --players 500 --rounds 11
    python bench/bench_pairing.py --players 500 --rounds 11 --engine caissify
    python bench/bench_pairing.py --players 100 --rounds 9 --engine caissify-networkx
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from chesslaws.tournament import Regulations, Tournament, pair_next_round, write_trf
from chesslaws.tournament.pairing import LARGE_FOR_CAISSIFY, BbpDutch, CaissifyDutch, find_bbp


def simulate(n: int, rounds: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(f"Random Swiss {n}p {rounds}r seed {seed}", Regulations(rounds=rounds))
    for i in range(n):
        t = t.add_player(f"Player {i + 1:04}", rng.randint(1200, 2700))
    return t.order_by_rating()


def play_round(t: Tournament, rng: random.Random) -> Tournament:
    r = len(t.rounds)
    for b in t.rounds[-1].boards:
        w, bl = t.player(b.white), t.player(b.black)
        expected = 1 / (1 + 10 ** ((bl.rating - w.rating) / 400))
        x = rng.random()
        t = t.set_result(r, b.table, "1/2-1/2" if x < 0.3 else "1-0" if x < 0.3 + 0.7 * expected else "0-1")
    return t


ENGINE: Any = None  # the engine behind the interface (set from --engine)


def _pair_worker(t: Tournament, out: Any) -> None:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    paired = pair_next_round(t, ENGINE)
    out.put((paired, time.perf_counter() - wall0, time.process_time() - cpu0))


def pair_with_limit(t: Tournament, limit: float) -> tuple[Tournament | None, float, float]:
    """Pairs in a child process so that a round over the limit can be stopped."""
    q: Any = mp.get_context("fork").Queue()
    p = mp.get_context("fork").Process(target=_pair_worker, args=(t, q))
    p.start()
    try:
        paired, wall, cpu = q.get(timeout=limit)
    except Exception:
        p.kill()
        p.join()
        return None, limit, float("nan")
    p.join()
    return paired, wall, cpu


def bbp_pair_time(bbp: str, t: Tournament, tmp: Path) -> float:
    src, dst = tmp / "state.trf", tmp / "next.txt"
    src.write_text(write_trf(t))
    t0 = time.perf_counter()
    out = subprocess.run([bbp, "--dutch", str(src), "-p", str(dst)], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"bbpPairings failed: {out.stderr.strip()[:300]}")
    return dt


def bbp_check(bbp: str, t: Tournament, tmp: Path) -> dict[int, tuple[int, int]]:
    """Per round where bbpPairings' checker differs: (pairs that differ, boards with colours only reversed)."""
    path = tmp / "event.trf"
    path.write_text(write_trf(t))
    out = subprocess.run([bbp, "--dutch", str(path), "-c"], capture_output=True, text=True).stdout
    result: dict[int, tuple[set[frozenset[str]], set[frozenset[str]], int]] = {}
    rnd = 0
    for line in out.splitlines():
        m = re.search(r"Round #(\d+)", line)
        if m:
            rnd = int(m.group(1))
            continue
        cells = re.findall(r"(\d+)\s*-\s*(\d+|PAB|BYE)?", line)
        if len(cells) == 2 and line.strip()[:1].isdigit():
            checker, ours, reversed_ = result.setdefault(rnd, (set(), set(), 0))
            a, b = frozenset(x for x in cells[0] if x), frozenset(x for x in cells[1] if x)
            checker.add(a)
            ours.add(b)
            result[rnd] = (checker, ours, reversed_ + (a == b))
    return {r: (len(c ^ o) // 2, rev) for r, (c, o, rev) in result.items()}


def tec_check(t: Tournament, tmp: Path) -> tuple[bool, dict[int, int], float] | None:
    """FIDE TEC's pairing checker (gacrux) on our TRF: (all rounds as it pairs them, boards it pairs
    otherwise per round, seconds); None when gacrux is not installed."""
    try:
        import gacrux  # noqa: F401
    except ImportError:
        return None
    path = tmp / "tec.trf"
    path.write_text(write_trf(t))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", "-i", str(path), "-c", "-dT"],
                         capture_output=True, text=True).stdout
    secs = time.perf_counter() - t0
    differ: dict[int, int] = {}
    rnd = 0
    for line in out.splitlines():
        m = re.search(r"Round #(\d+)", line)
        if m:
            rnd = int(m.group(1))
        elif re.match(r"\s+\d+\s+-\s+\d+\s+\d+\s+-\s+\d+", line):
            differ[rnd] = differ.get(rnd, 0) + 1
    return "Check: True" in out, differ, secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--bbp", default=find_bbp(), help="bbpPairings' executable (default: found as chesslaws "
                    "finds it: CHESSLAWS_BBP, the PATH).")
    ap.add_argument("--round-limit", type=float, default=240.0, help="Seconds allowed to pair one round.")
    ap.add_argument("--no-fpc", action="store_true",
                    help="Skip caissify's free pairings checker (it re-pairs every round with caissify, "
                         f"its matchings in the Rust core; skipped on its own past {LARGE_FOR_CAISSIFY} players).")
    ap.add_argument("--engine", choices=["auto", "caissify", "caissify-networkx", "bbp"], default="auto",
                    help="The engine behind chesslaws' interface (auto: bbpPairings when found, else caissify, "
                         "as chesslaws pairs by default; caissify: caissify-pairings with the Rust matching; "
                         "caissify-networkx: caissify with networkx' matching, as caissify alone pairs; "
                         "bbp: the --bbp binary, through our TRF).")
    args = ap.parse_args()
    global ENGINE
    if args.engine == "auto":
        args.engine = "bbp" if args.bbp else "caissify"
    if args.engine == "bbp":
        if not args.bbp:
            ap.error("--engine bbp needs --bbp PATH (or CHESSLAWS_BBP; build it from github.com/BieremaBoyzProgramming/bbpPairings)")
        ENGINE = BbpDutch(args.bbp)
    else:
        ENGINE = CaissifyDutch(native=args.engine == "caissify")
    if args.players > LARGE_FOR_CAISSIFY:
        args.no_fpc = True

    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"# {args.players} players, {args.rounds} rounds, seed {args.seed}; load average {' '.join(load)}")
    engine = ENGINE.name if args.engine != "bbp" else "bbpPairings through chesslaws' TRF"
    print(f"# engine: {engine}, peer: bbpPairings ({args.bbp or 'not given: --bbp PATH'})")
    rng = random.Random(args.seed + 1)
    t = simulate(args.players, args.rounds, args.seed)
    ours_wall: list[float] = []
    ratios: list[float] = []
    unfinished = None
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        print(f"{'round':>5} {'ours s':>9} {'ours CPU':>9} {'bbp s':>8} {'ratio':>8}")
        for r in range(1, args.rounds + 1):
            peer = bbp_pair_time(args.bbp, t, tmp) if args.bbp else float("nan")
            paired, wall, cpu = pair_with_limit(t, args.round_limit)
            if paired is None:
                unfinished = r
                print(f"{r:>5} {'> ' + format(args.round_limit, 'g'):>9} {'':>9} {peer:>8.3f}   not finished")
                break
            t = play_round(paired, rng)
            ours_wall.append(wall)
            ratio = wall / peer if args.bbp else float("nan")
            ratios.append(ratio)
            print(f"{r:>5} {wall:>9.3f} {cpu:>9.3f} {peer:>8.3f} {ratio:>8.2f}x", flush=True)
        paired_rounds = len(t.rounds)
        print(f"# paired {paired_rounds} of {args.rounds} rounds"
              + (f" (round {unfinished} exceeded {args.round_limit:g} s)" if unfinished else ""))
        if ours_wall:
            print(f"# median time per round: ours {statistics.median(ours_wall):.3f} s"
                  + (f", {statistics.median(ratios):.1f}x bbpPairings'" if args.bbp else ""))
        if paired_rounds and not args.no_fpc:
            from caissify_pairings.fpc import check_trf

            from chesslaws.tournament.matching import native_networkx

            with native_networkx():
                report = check_trf(write_trf(t))
            s = report["summary"]
            print(f"# engine's own checker (caissify FPC): {s['rounds_matched']}/{s['rounds_checked']} rounds agree")
        if paired_rounds:
            tec = tec_check(t, tmp)
            if tec is not None:
                ok, differ, secs = tec
                print(f"# FIDE TEC's pairing checker (gacrux): {paired_rounds - len(differ)}/{paired_rounds} rounds "
                      f"identical; {sum(differ.values())} board(s) paired otherwise; Check: {ok} ({secs:.0f} s)")
            if args.bbp:
                diffs = bbp_check(args.bbp, t, tmp)
                pairs = sum(p for p, _ in diffs.values())
                colours = sum(c for _, c in diffs.values())
                print(f"# bbpPairings' checker: {paired_rounds - len(diffs)}/{paired_rounds} rounds identical; "
                      f"{pairs} pairing(s) differ, {colours} board(s) with colours reversed "
                      f"in {len(diffs)} round(s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

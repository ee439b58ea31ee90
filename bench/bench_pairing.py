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
3. after the event, each round's CPU ratio and the worst round (the ratio over the run can hide a slow round);
4. the independent checks of every round as we paired it, from our TRF-16:
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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from chesslaws.tournament import Regulations, Tournament, pair_next_round, write_trf
from chesslaws.tournament.dutch import native_engine
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


def bbp_pair(bbp: str, t: Tournament, tmp: Path) -> tuple[float, float, set[tuple[int, int]]]:
    """bbpPairings' own pairing of the next round of ``t`` from its TRF: (wall seconds, CPU seconds, the boards
    as (white, black) and the pairing-allocated bye as (player, 0))."""
    src, dst = tmp / "state.trf", tmp / "next.txt"
    src.write_text(write_trf(t, absences=True))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run([bbp, "--dutch", str(src), "-p", str(dst)], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"bbpPairings failed: {out.stderr.strip()[:300]}")
    numbers = [int(x) for x in dst.read_text().split()]
    pairs = {(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])}
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return dt, cpu, pairs


def boards_of(t: Tournament) -> set[tuple[int, int]]:
    """The last round's boards as (white, black) and its pairing-allocated bye as (player, 0)."""
    rnd = t.rounds[-1]
    return {(b.white, b.black) for b in rnd.boards} | {(y.player, 0) for y in rnd.byes if y.kind == "pab"}


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


Summary = tuple[float, float, int, int, int, dict[int, float]]


def run_event(args: argparse.Namespace, players: int) -> Summary | None:
    """Pairs one event of ``players`` round by round, printing each round; returns (our CPU, bbpPairings' CPU,
    rounds paired, rounds identical to bbpPairings', rounds compared, each round's CPU ratio) over the rounds
    both paired."""
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"# {players} players, {args.rounds} rounds, seed {args.seed}; load average {' '.join(load)}")
    engine = ENGINE.name if args.engine != "bbp" else "bbpPairings through chesslaws' TRF"
    print(f"# engine: {engine}, peer: bbpPairings ({args.bbp or 'not given: --bbp PATH'})")
    rng = random.Random(args.seed + 1)
    t = simulate(players, args.rounds, args.seed)
    ours_wall: list[float] = []
    ours_cpu: list[float] = []
    peer_cpu: list[float] = []
    ratios: dict[int, float] = {}
    same = compared = 0
    unfinished = None
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        print(f"{'round':>5} {'ours s':>9} {'ours CPU':>9} {'bbp s':>8} {'bbp CPU':>8} {'CPU ratio':>9}  pairing")
        for r in range(1, args.rounds + 1):
            peer = bbp_pair(args.bbp, t, tmp) if args.bbp else None
            paired, wall, cpu = pair_with_limit(t, args.round_limit)
            if paired is None:
                unfinished = r
                print(f"{r:>5} {'> ' + format(args.round_limit, 'g'):>9}   not finished")
                break
            ours_wall.append(wall)
            ours_cpu.append(cpu)
            verdict = ""
            ratio = float("nan")
            if peer is not None:
                compared += 1
                mine = boards_of(paired)
                if mine == peer[2]:
                    same += 1
                    verdict = "identical to bbpPairings'"
                else:
                    reversed_ = sum(1 for w, b in mine if b and (b, w) in peer[2])
                    verdict = (f"differs: {len(mine - peer[2]) - reversed_} board(s) paired otherwise, "
                               f"{reversed_} with colours reversed")
                peer_cpu.append(peer[1])
                ratio = cpu / peer[1] if peer[1] else float("inf")
                ratios[r] = ratio
            t = play_round(paired, rng)
            bbp_cols = f"{peer[0]:>8.3f} {peer[1]:>8.3f}" if peer else f"{'':>8} {'':>8}"
            print(f"{r:>5} {wall:>9.3f} {cpu:>9.3f} {bbp_cols} {ratio:>8.2f}x  {verdict}", flush=True)
        paired_rounds = len(t.rounds)
        print(f"# paired {paired_rounds} of {args.rounds} rounds"
              + (f" (round {unfinished} exceeded {args.round_limit:g} s)" if unfinished else ""))
        if ours_wall:
            print(f"# median per round: ours {statistics.median(ours_wall):.3f} s wall, "
                  f"{statistics.median(ours_cpu):.3f} s CPU"
                  + (f"; CPU over bbpPairings' CPU: {sum(ours_cpu) / sum(peer_cpu):.2f}x over the run "
                     f"(median round {statistics.median(ratios.values()):.2f}x); {same}/{compared} rounds identical "
                     "to bbpPairings', colours included" if peer_cpu and sum(peer_cpu) else ""))
        if ratios:
            worst = max(ratios, key=lambda r: ratios[r])
            print("# CPU ratio per round: " + ", ".join(f"{r}: {x:.2f}x" for r, x in ratios.items())
                  + f"; worst round {worst}: {ratios[worst]:.2f}x")
        if paired_rounds and args.checks:
            final_checks(args, t, tmp, paired_rounds, players)
    sys.stdout.flush()
    if not peer_cpu:
        return None
    return sum(ours_cpu), sum(peer_cpu), paired_rounds, same, compared, ratios


def final_checks(args: argparse.Namespace, t: Tournament, tmp: Path, paired_rounds: int, players: int) -> None:
    """The independent checks of every round as we paired it: caissify's FPC (small events), FIDE TEC's
    checker, bbpPairings' checker."""
    if players <= LARGE_FOR_CAISSIFY and not args.no_fpc:
        from caissify_pairings.fpc import check_trf

        from chesslaws.tournament.matching import native_networkx

        with native_networkx():
            report = check_trf(write_trf(t))
        s = report["summary"]
        print(f"# engine's own checker (caissify FPC): {s['rounds_matched']}/{s['rounds_checked']} rounds agree")
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[500],
                    help="Players of the event; several sizes (e.g. 300 1000 2000): one event each, then a summary.")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--bbp", default=find_bbp(), help="bbpPairings' executable (default: found as chesslaws "
                    "finds it: CHESSLAWS_BBP, the PATH).")
    ap.add_argument("--round-limit", type=float, default=240.0, help="Seconds allowed to pair one round.")
    ap.add_argument("--no-fpc", action="store_true",
                    help="Skip caissify's free pairings checker (it re-pairs every round with caissify, "
                         f"its matchings in the Rust core; skipped on its own past {LARGE_FOR_CAISSIFY} players).")
    ap.add_argument("--checks", action=argparse.BooleanOptionalAction, default=True,
                    help="After the event, check every round with FIDE TEC's checker and bbpPairings' (each round "
                         "is compared with bbpPairings' own pairing of it as it is paired, in any case).")
    ap.add_argument("--engine", choices=["auto", "caissify", "caissify-networkx", "caissify-graph", "bbp"],
                    default="auto",
                    help="The engine behind chesslaws' interface (auto: bbpPairings when found, else caissify, "
                         "as chesslaws pairs by default; caissify: caissify-pairings with its round's weights and "
                         "matchings in the Rust core; caissify-graph: the same matchings, handed a networkx-like "
                         "graph per matching; caissify-networkx: caissify with networkx' matching, as caissify "
                         "alone pairs; bbp: the --bbp binary, through our TRF).")
    args = ap.parse_args()
    global ENGINE
    if args.engine == "auto":
        args.engine = "bbp" if args.bbp else "caissify"
    if args.engine == "bbp":
        if not args.bbp:
            ap.error("--engine bbp needs --bbp PATH (or CHESSLAWS_BBP; build it from github.com/BieremaBoyzProgramming/bbpPairings)")
        ENGINE = BbpDutch(args.bbp)
    else:
        ENGINE = CaissifyDutch(native=args.engine != "caissify-networkx", table=args.engine == "caissify")
    if isinstance(ENGINE, CaissifyDutch):
        # caissify imported, its search adapted and networkx imported (lent to it) once, as in a server, not in
        # every child: a first round paired here (about 0.1 s of CPU otherwise counted in every round)
        native_engine()
        warm = simulate(20, 3, 0)
        warm = play_round(pair_next_round(warm, ENGINE), random.Random(0))
        pair_next_round(warm, ENGINE)
    results = {n: run_event(args, n) for n in args.players}
    if len(results) > 1 and any(results.values()):
        print(f"# summary ({ENGINE.name} against bbpPairings, CPU seconds summed over the rounds both paired):")
        print(f"{'players':>8} {'ours CPU':>9} {'bbp CPU':>9} {'ratio':>7} {'worst round':>16}  identical rounds")
        for n, res in results.items():
            if res:
                ours, peer, _, same, compared, ratios = res
                worst = max(ratios, key=lambda r: ratios[r])
                print(f"{n:>8} {ours:>9.2f} {peer:>9.2f} {ours / peer:>6.2f}x "
                      f"{f'{ratios[worst]:.2f}x (round {worst})':>16}  {same}/{compared}")


if __name__ == "__main__":
    main()

"""How often the two Swiss engines pair the same boards. Not a test: it measures and prints.

A random Swiss (fixed seeds; ratings 1200-2500, a share of unrated players; pairing numbers in
registration order, not rating order, unless --by-rating) is paired round by round by bbpPairings
through chesslaws; before each round caissify-pairings (as chesslaws feeds it) pairs the same state,
and the boards (white, black) identical to bbpPairings' are counted. With --baku the event uses the
Baku acceleration (C.04.5.1). With --trf FILE only the next round of that file is compared, also
against bbpPairings run on the file itself.

    export CHESSLAWS_BBP=/path/to/bbpPairings.exe
    python bench/bench_engine_agreement.py --players 150 --rounds 9 --events 2
    python bench/bench_engine_agreement.py --players 40 --rounds 7 --events 4 --baku --by-rating
    python bench/bench_engine_agreement.py --trf tests/data/trf_gros2010_xxa_r5absences.trf
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from chesslaws.tournament import Regulations, Round, Tournament
from chesslaws.tournament.pairing import BbpDutch, CaissifyDutch, find_bbp, pair_swiss
from chesslaws.tournament.trf import read_trf


def boards(rnd: Round) -> set[tuple[int, int]]:
    return {(b.white, b.black) for b in rnd.boards} | {(y.player, 0) for y in rnd.byes if y.kind == "pab"}


def event(bbp: BbpDutch, players: int, rounds: int, seed: int, unrated: float, baku: bool,
          by_rating: bool) -> tuple[int, int]:
    rng = random.Random(seed)
    t = Tournament("Agreement", Regulations(rounds=rounds, acceleration="baku" if baku else "none"))
    for i in range(players):
        t = t.add_player(f"P{i + 1:03}", 0 if rng.random() < unrated else rng.randint(1200, 2500))
    if by_rating:
        t = t.order_by_rating()
    same = total = 0
    for r in range(1, rounds + 1):
        ours, theirs = pair_swiss(t, bbp), pair_swiss(t, CaissifyDutch())
        same += len(boards(ours) & boards(theirs))
        total += len(boards(ours))
        t = t.with_round(ours)
        for b in ours.boards:
            t = t.set_result(r, b.table, rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"]))
    return same, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--events", type=int, default=2)
    ap.add_argument("--unrated", type=float, default=0.15, help="Share of unrated players (default 0.15).")
    ap.add_argument("--baku", action="store_true", help="The Baku acceleration (C.04.5.1).")
    ap.add_argument("--by-rating", action="store_true", help="Pairing numbers in rating order (C.04.2).")
    ap.add_argument("--trf", default=None, help="Compare the next round of this TRF file only.")
    ap.add_argument("--bbp", default=find_bbp(), help="bbpPairings' executable (default: CHESSLAWS_BBP or PATH).")
    args = ap.parse_args()
    if not args.bbp:
        sys.exit("bbpPairings is needed: build it (make) and give --bbp PATH or CHESSLAWS_BBP")
    bbp = BbpDutch(args.bbp)
    print(f"load average {os.getloadavg()[0]:.2f}")
    if args.trf:
        t = read_trf(Path(args.trf).read_text(encoding="utf-8", errors="replace"))
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "out"
            subprocess.run([args.bbp, "--dutch", args.trf, "-p", str(out)], check=True)
            numbers = [int(x) for x in out.read_text().split()]
        direct = {(numbers[1 + 2 * i], numbers[2 + 2 * i]) for i in range(numbers[0])}
        engines = (("bbpPairings through chesslaws", bbp), ("caissify through chesslaws", CaissifyDutch()))
        for name, engine in engines:
            got = boards(pair_swiss(t, engine))
            print(f"{args.trf}, round {t.next_round}: {name}: {len(got & direct)} of {len(direct)} boards "
                  "identical to bbpPairings on the file itself (colours included)")
        return
    same = total = 0
    for seed in range(args.events):
        s, n = event(bbp, args.players, args.rounds, seed, args.unrated, args.baku, args.by_rating)
        same += s
        total += n
    print(f"{args.players} players x {args.rounds} rounds x {args.events} events"
          f"{' (Baku)' if args.baku else ''}, pairing numbers "
          f"{'by rating' if args.by_rating else 'in registration order'}, {args.unrated:.0%} unrated: "
          f"caissify's boards identical to bbpPairings' {same} of {total}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

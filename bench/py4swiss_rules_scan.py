"""Which C.04.3 text does py4swiss pair by? Not a test: it pairs and prints (bench/README.md, pairing section).

Small random Swisses (15, 21 or 25 players, 7 rounds) with requested byes and/or
forfeits are paired round by round by the py4swiss package (its Dutch engine, on
the TRF chesslaws gives a pairing engine), then every event is checked from our
TRF-16 by FIDE TEC's pairing checker (gacrux) and by bbpPairings' checker (-c),
as bench_pairing.py checks; --engine bbp pairs the same events by bbpPairings.

    pip install py4swiss gacrux
    export CHESSLAWS_BBP=/path/to/bbpPairings.exe
    python bench/py4swiss_rules_scan.py --mode both --seeds 0-7
    python bench/py4swiss_rules_scan.py --mode both --seeds 0-7 --engine bbp
    python bench/py4swiss_rules_scan.py --mode byes --seeds 0-5
    python bench/py4swiss_rules_scan.py --mode forfeits --seeds 0-5
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_pairing import bbp_check, tec_check  # noqa: E402

from chesslaws.tournament import Regulations, Tournament, pair_next_round  # noqa: E402
from chesslaws.tournament.model import Board, Bye, Round  # noqa: E402
from chesslaws.tournament.pairing import BbpDutch, SwissRequest, find_bbp, swiss_request  # noqa: E402


class Py4Swiss:
    """py4swiss' Dutch engine on our TRF: the requested bye's points added to the points column (py4swiss
    checks them; bbpPairings does not), a round sat out ("0000 - -") given as a zero-point bye."""

    name = "py4swiss dutch"

    def pair(self, request: SwissRequest) -> list[tuple[int, int | None]]:
        from py4swiss.engines import DutchEngine
        from py4swiss.trf import TrfParser

        lines = []
        col = 91 + 10 * (request.round_number - 1)
        for line in request.trf.splitlines():
            if line.startswith("001") and len(line) > col + 7:
                extra = {"F": 1.0, "H": 0.5}.get(line[col + 7], 0.0)
                if extra:
                    line = line[:80] + f"{float(line[80:84]) + extra:>4.1f}" + line[84:]
            lines.append(line.replace("0000 - -", "0000 - Z"))
        with tempfile.TemporaryDirectory() as d:
            src = Path(d) / "event.trf"
            src.write_text("\n".join(lines) + "\n")
            pairs = [(p.white, p.black or None) for p in DutchEngine.generate_pairings(TrfParser.parse(src))]
        return [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["both", "byes", "forfeits"], default="both",
                    help="byes: 2 requested byes (half, zero or full) per round; forfeits: 8 %% of games; both.")
    ap.add_argument("--seeds", default="0-7", help="A range of seeds, e.g. 0-7.")
    ap.add_argument("--engine", choices=["py4swiss", "bbp"], default="py4swiss",
                    help="Who pairs the events (bbp: bbpPairings through chesslaws, as a control).")
    ap.add_argument("--bbp", default=find_bbp(), help="bbpPairings' executable (default: CHESSLAWS_BBP, the PATH).")
    args = ap.parse_args()
    if not args.bbp:
        ap.error("bbpPairings' checker is needed: --bbp PATH or CHESSLAWS_BBP")
    lo, hi = (int(x) for x in args.seeds.split("-"))
    engine = Py4Swiss() if args.engine == "py4swiss" else BbpDutch(args.bbp)
    events_bad = rounds_bad = rounds_all = 0
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for seed in range(lo, hi + 1):
            rng = random.Random(seed)
            n = rng.choice([15, 21, 25])
            t = Tournament("scan", Regulations(rounds=7))
            for i in range(n):
                t = t.add_player(f"P{i + 1}", rng.randint(1200, 2700))
            t = t.order_by_rating()
            forfeits = 0.08 if args.mode in ("both", "forfeits") else 0.0
            for r in range(1, 8):
                if args.mode in ("both", "byes"):
                    for sn in rng.sample(range(1, n + 1), 2):
                        t = t.request_bye(r, sn, rng.choice(["half", "zero", "full"]))
                if isinstance(engine, Py4Swiss):  # pair_swiss passes the TRF only to BbpDutch: done here
                    req = swiss_request(t, with_trf=True)
                    boards, byes = [], []
                    for w, b in engine.pair(req):
                        if b is None:
                            byes.append(Bye(w, "pab"))
                        else:
                            boards.append(Board(len(boards) + 1, w, b))
                    byes += [Bye(sn, kind) for rnd, sn, kind in t.requested_byes if rnd == r]
                    t = t.with_round(Round(r, tuple(boards), tuple(byes)))
                else:
                    t = pair_next_round(t, engine)
                for bd in t.rounds[-1].boards:
                    x = rng.random()
                    t = t.set_result(r, bd.table, "+-" if x < forfeits else "1/2-1/2" if x < 0.35
                                     else "1-0" if x < 0.7 else "0-1")
            tec = tec_check(t, tmp)
            if tec is None:
                ap.error("FIDE TEC's checker is needed: pip install gacrux")
            ok, differ, _ = tec
            bbp = bbp_check(args.bbp, t, tmp)
            events_bad += not ok
            rounds_bad += len(differ)
            rounds_all += 7
            print(f"seed {seed} ({n} players): TEC's checker {'accepts' if ok else 'differs in rounds ' + str(sorted(differ))}"
                  f"; bbpPairings' checker {'accepts' if not bbp else 'differs in rounds ' + str(sorted(bbp))}",
                  flush=True)
    print(f"# {args.engine}, mode {args.mode}: TEC's checker rejects {events_bad} of {hi - lo + 1} events, "
          f"{rounds_bad} of {rounds_all} rounds")


if __name__ == "__main__":
    main()

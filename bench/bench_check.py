"""Benchmark of `chesslaws check` (issue 9). Not a test: it measures and prints.

On one generated PGN file (python-chess, fixed seed: clocks, comments,
NAGs, variations), in one run:

1. games/s of `chesslaws check FILE --jobs 1` (the whole command, Python
   start-up included) against `pgn-extract -s -r FILE` (Debian's
   pgn-extract checking every game's moves and reporting errors, writing no
   games). Target: >= 1.0x on one core.
2. games/s of the same check against python-chess's `chess.pgn.read_game`
   loop over the same file (which parses and plays every move, but applies
   no end-of-game rules). Target: >= 25x.
3. --jobs 2 (all cores here) for information.
4. Peak memory (max RSS) of `chesslaws check` on a file of at least 1 GB,
   made in /tmp by repeating the generated file (deleted afterwards).

Each timing is a median over --runs runs (wall clock and CPU time of the
child). On a shared machine compare the CPU-time ratios.

    apt-get install -y pgn-extract
    python bench/bench_check.py [--games 4000] [--runs 5] [--big-gb 1.0] [--no-big]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from check_gen import clean_pgn  # noqa: E402

PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"


TIME = "/usr/bin/time"


def child(cmd: list[str]) -> tuple[float, float, int, int]:
    """Runs `cmd` (output discarded); (wall s, CPU s, max RSS KiB, exit code).

    The peak RSS is GNU time's `%M` for the command itself when
    /usr/bin/time exists (the rusage of a forked child also counts the pages
    it shared with this process before exec)."""
    rss_file = None
    run = cmd
    if os.path.exists(TIME):
        fd, rss_file = tempfile.mkstemp(suffix=".rss")
        os.close(fd)
        run = [TIME, "-f", "%M", "-o", rss_file] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(run, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    rss = ru.ru_maxrss
    if rss_file is not None:
        text = Path(rss_file).read_text().split()
        os.unlink(rss_file)
        if text and text[-1].isdigit():
            rss = int(text[-1])
        if text and text[0].startswith("Command exited with non-zero status"):
            code = int(text[5])
    return wall, ru.ru_utime + ru.ru_stime, rss, code


def medians(cmd: list[str], runs: int) -> tuple[float, float, int]:
    walls, cpus, rss = [], [], 0
    for _ in range(runs):
        w, c, r, code = child(cmd)
        if code not in (0, 1):
            raise SystemExit(f"{cmd[0]} failed with exit code {code}")
        walls.append(w)
        cpus.append(c)
        rss = max(rss, r)
    return statistics.median(walls), statistics.median(cpus), rss


def python_chess_loop(path: Path, runs: int, limit: int) -> tuple[float, float, int]:
    import chess.pgn

    walls, cpus = [], []
    n = 0
    text = path.read_text()
    for _ in range(runs):
        stream = io.StringIO(text)
        w0, c0 = time.perf_counter(), time.process_time()
        n = 0
        while n < limit and chess.pgn.read_game(stream) is not None:
            n += 1
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--python-chess-games", type=int, default=1000,
                    help="games python-chess reads per run (it is slow); its rate is compared")
    ap.add_argument("--big-gb", type=float, default=1.0)
    ap.add_argument("--no-big", action="store_true")
    args = ap.parse_args()

    tmp = Path(tempfile.gettempdir())
    src = tmp / f"chesslaws-bench-check-{args.games}-{args.seed}.pgn"
    if not src.exists():
        print(f"generating {args.games} games (python-chess, seed {args.seed}) into {src} ...", flush=True)
        part = src.with_suffix(".part")
        part.write_text(clean_pgn(args.games, seed=args.seed))
        part.rename(src)
    size = src.stat().st_size
    games = args.games
    print(f"file: {src} ({size / 1e6:.1f} MB, {games} games)")

    exe = [sys.executable, "-m", "chesslaws.cli", "check"]
    ours1 = medians(exe + [str(src), "--jobs", "1"], args.runs)
    ours2 = medians(exe + [str(src), "--jobs", "2"], args.runs)
    have_pe = Path(PGN_EXTRACT).exists()
    pe = medians([PGN_EXTRACT, "-s", "-r", str(src)], args.runs) if have_pe else None
    pc_wall, pc_cpu, pc_n = python_chess_loop(src, max(1, args.runs // 2), args.python_chess_games)

    def rate(n: int, s: float) -> float:
        return n / s if s > 0 else float("inf")

    print()
    print(f"{'':34}{'wall s':>9}{'CPU s':>9}{'games/s wall':>14}{'games/s CPU':>13}")
    rows = [("chesslaws check --jobs 1", games, ours1[0], ours1[1]),
            ("chesslaws check --jobs 2", games, ours2[0], ours2[1])]
    if pe:
        rows.append(("pgn-extract -s -r", games, pe[0], pe[1]))
    rows.append((f"python-chess read_game ({pc_n} games)", pc_n, pc_wall, pc_cpu))
    for name, n, w, c in rows:
        print(f"{name:34}{w:9.3f}{c:9.3f}{rate(n, w):14,.0f}{rate(n, c):13,.0f}")
    print()
    ours_cpu = rate(games, ours1[1])
    ours_wall = rate(games, ours1[0])
    if pe:
        r_cpu = ours_cpu / rate(games, pe[1])
        r_wall = ours_wall / rate(games, pe[0])
        print(f"vs pgn-extract (one core): {r_cpu:.2f}x by CPU time, {r_wall:.2f}x by wall time "
              f"(target >= 1.0x): {'met' if min(r_cpu, r_wall) >= 1.0 else 'NOT met'}")
    else:
        print("pgn-extract not found: apt-get install -y pgn-extract")
    r_cpu = ours_cpu / rate(pc_n, pc_cpu)
    r_wall = ours_wall / rate(pc_n, pc_wall)
    print(f"vs python-chess read_game: {r_cpu:.1f}x by CPU time, {r_wall:.1f}x by wall time "
          f"(target >= 25x): {'met' if min(r_cpu, r_wall) >= 25 else 'NOT met'}")
    print(f"--jobs 2 vs --jobs 1 (wall): {ours1[0] / ours2[0]:.2f}x")

    if args.no_big:
        return
    big = tmp / "chesslaws-bench-check-big.pgn"
    target = int(args.big_gb * 1e9)
    data = src.read_bytes()
    copies = -(-target // len(data))
    try:
        with open(big, "wb") as f:
            for _ in range(copies):
                f.write(data)
        big_size = big.stat().st_size
        for jobs in ("1", "2"):
            w, c, rss, code = child(exe + [str(big), "--jobs", jobs, "--only-problems"])
            n = games * copies
            print(f"{big_size / 1e9:.2f} GB ({n:,} games), --jobs {jobs}: {w:.1f} s wall, {c:.1f} s CPU, "
                  f"{rate(n, w):,.0f} games/s, peak RSS {rss / 1024:.1f} MiB (exit {code})")
        small = child(exe + [str(src), "--jobs", "2", "--only-problems"])
        print(f"peak RSS on the {size / 1e6:.1f} MB file, --jobs 2: {small[2] / 1024:.1f} MiB")
    finally:
        big.unlink(missing_ok=True)


if __name__ == "__main__":
    main()

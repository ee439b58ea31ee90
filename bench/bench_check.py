"""Benchmark of `chesslaws check`. Not a test: it measures and prints.

Three inputs, built in /tmp once and reused:

- **real**: the real games of the shared corpus (`../shared/corpus/*.pgn.zst`
  beside the checkout: TWIC, chess.com with [%clk], lichess),
  decompressed and concatenated `--copies` times (default 10: about 38 MB,
  35,000 games), so that start-up costs weigh little;
- **random**: `--random-games` games (repeated `--random-copies` times) of random legal moves stopped at a
  random ply with a random result and Termination ("Time forfeit", "X won
  on time", "X won by resignation", "Abandoned", "Normal"), from
  `tests/check_gen.py` (fixed seed): many wins by a side with little
  material, where "could this side still mate?" must be decided;
- **big** (unless `--no-big`): the real file repeated to `--big-gb` GB, for
  the peak memory.

The runs are interleaved (each round runs every command once, in turn), so
that every contender sees the same load; each figure is the median over
`--runs` rounds of the CPU time (user + system) and the wall time of the
whole command (Python start-up included). Peers, in the same run:
`pgn-extract -r -s FILE` (Debian's pgn-extract checking every move of every
game and writing none) and python-chess's `chess.pgn.read_game` loop (on the
first `--python-chess-games` games; the rates are compared).

Targets: real games, one core, 2023 Laws >= 2.0x pgn-extract;
1989 Laws >= 3.0x; random endings >= 1.0x; `--jobs 2` >= 1.7x `--jobs 1`
(wall time, which only a quiet machine with two free cores can show: the
load average is printed before and after).

    apt-get install -y pgn-extract
    python bench/bench_check.py [--runs 5] [--copies 10] [--random-games 4000] [--random-copies 3]
                                [--big-gb 1.0] [--no-big]
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
from check_gen import random_ending_pgn  # noqa: E402

PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
TIME = "/usr/bin/time"
ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path | None:
    for p in (ROOT.parent / "shared" / "corpus",):
        if p.is_dir():
            return p
    return None


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


def interleaved(cmds: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) of each command, the commands taking turns."""
    walls: dict[str, list[float]] = {k: [] for k in cmds}
    cpus: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            w, c, _, code = child(cmd)
            if code not in (0, 1):
                raise SystemExit(f"{name} ({' '.join(cmd)}) failed with exit code {code}")
            walls[name].append(w)
            cpus[name].append(c)
    return {k: (statistics.median(walls[k]), statistics.median(cpus[k])) for k in cmds}


def python_chess_rate(path: Path, limit: int) -> tuple[float, int]:
    """Games per CPU second of python-chess's read_game over the first `limit` games."""
    import logging

    import chess.pgn

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    text = io.StringIO(path.read_text(encoding="utf-8", errors="replace"))
    c0 = time.process_time()
    n = 0
    while n < limit and chess.pgn.read_game(text) is not None:
        n += 1
    return n / max(1e-9, time.process_time() - c0), n


def count_games(path: Path) -> int:
    n = 0
    with path.open("rb") as f:
        for line in f:
            if line.startswith(b"[Event "):
                n += 1
    return n


def build_inputs(args: argparse.Namespace, tmp: Path) -> tuple[Path, Path]:
    corpus = corpus_dir()
    if corpus is None:
        raise SystemExit("the shared corpus (../shared/corpus, beside the checkout) is missing")
    import zstandard

    real = tmp / f"chesslaws-bench-check-real-x{args.copies}.pgn"
    if not real.exists():
        parts = []
        for p in sorted(corpus.glob("*.pgn.zst")):
            with p.open("rb") as f:
                parts.append(zstandard.ZstdDecompressor().stream_reader(f).read())
        one = b"\n\n".join(x.strip() for x in parts) + b"\n\n"
        part = real.with_suffix(".part")
        part.write_bytes(one * args.copies)
        part.rename(real)
    one_rand = tmp / f"chesslaws-bench-check-random-{args.random_games}-{args.seed}.pgn"
    if not one_rand.exists():
        print(f"generating {args.random_games} random-ending games (python-chess, seed {args.seed}) ...", flush=True)
        part = one_rand.with_suffix(".part")
        part.write_text(random_ending_pgn(args.random_games, seed=args.seed))
        part.rename(one_rand)
    rand = one_rand.with_name(one_rand.stem + f"-x{args.random_copies}.pgn")
    if not rand.exists():
        part = rand.with_suffix(".part")
        part.write_bytes(one_rand.read_bytes() * args.random_copies)
        part.rename(rand)
    return real, rand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--copies", type=int, default=10, help="copies of the real corpus in the real file")
    ap.add_argument("--random-games", type=int, default=4000)
    ap.add_argument("--random-copies", type=int, default=3, help="copies of the random games in the random file")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--python-chess-games", type=int, default=1000)
    ap.add_argument("--big-gb", type=float, default=1.0)
    ap.add_argument("--no-big", action="store_true")
    args = ap.parse_args()

    if not Path(PGN_EXTRACT).exists():
        raise SystemExit("pgn-extract not found: apt-get install -y pgn-extract")
    tmp = Path(tempfile.gettempdir())
    real, rand = build_inputs(args, tmp)
    n_real, n_rand = count_games(real), count_games(rand)
    print(f"real:   {real} ({real.stat().st_size / 1e6:.1f} MB, {n_real:,} games)")
    print(f"random: {rand} ({rand.stat().st_size / 1e6:.1f} MB, {n_rand:,} games)")
    load0 = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "?"
    print(f"load average before: {load0}  (cores: {os.cpu_count()})", flush=True)

    # The package as an installation has it: compiled to bytecode (pip compiles it on install; an editable
    # install under PYTHONDONTWRITEBYTECODE=1 would compile every module again at each start, about 20 ms).
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("chesslaws")
    for where in (spec.submodule_search_locations or []) if spec else []:
        compileall.compile_dir(where, quiet=1)
    exe = [sys.executable, "-m", "chesslaws.cli", "check"]
    cmds = {
        "check 2023 --jobs 1": exe + [str(real), "--jobs", "1"],
        "check 1989 --jobs 1": exe + [str(real), "--jobs", "1", "--edition", "1989"],
        "pgn-extract -r -s": [PGN_EXTRACT, "-r", "-s", str(real)],
        "check 2023 --jobs 2": exe + [str(real), "--jobs", "2"],
        "check 2023 --json --jobs 1": exe + [str(real), "--jobs", "1", "--json"],
        "check 2023 --json --jobs 2": exe + [str(real), "--jobs", "2", "--json"],
        "random: check --jobs 1": exe + [str(rand), "--jobs", "1"],
        "random: pgn-extract -r -s": [PGN_EXTRACT, "-r", "-s", str(rand)],
    }
    res = interleaved(cmds, args.runs)
    pc_rate, pc_n = python_chess_rate(real, args.python_chess_games)
    load1 = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "?"

    print()
    print(f"{'(medians of ' + str(args.runs) + ' interleaved runs)':36}{'wall s':>9}{'CPU s':>9}{'games/CPU s':>14}")
    for name, (w, c) in res.items():
        n = n_rand if name.startswith("random") else n_real
        print(f"{name:36}{w:9.3f}{c:9.3f}{n / c:14,.0f}")
    print(f"{'python-chess read_game (' + str(pc_n) + ' games)':36}{'':9}{'':9}{pc_rate:14,.0f}")
    print()

    def ratio(a: str, b: str, target: float, what: str) -> None:
        cpu = res[b][1] / res[a][1]
        wall = res[b][0] / res[a][0]
        print(f"{what}: {cpu:.2f}x by CPU time, {wall:.2f}x by wall time (target >= {target}x): "
              f"{'met' if cpu >= target else 'NOT met'} (by CPU time)")

    ratio("check 2023 --jobs 1", "pgn-extract -r -s", 2.0, "real games, 2023 Laws, one core vs pgn-extract")
    ratio("check 1989 --jobs 1", "pgn-extract -r -s", 3.0, "real games, 1989 Laws, one core vs pgn-extract")
    ratio("random: check --jobs 1", "random: pgn-extract -r -s", 1.0, "random endings, 2023 Laws vs pgn-extract")
    ours = n_real / res["check 2023 --jobs 1"][1]
    print(f"real games vs python-chess read_game: {ours / pc_rate:.1f}x by CPU time")
    j = res["check 2023 --jobs 1"][0] / res["check 2023 --jobs 2"][0]
    jj = res["check 2023 --json --jobs 1"][0] / res["check 2023 --json --jobs 2"][0]
    print(f"--jobs 2 vs --jobs 1 (wall): {j:.2f}x; with --json: {jj:.2f}x (target >= 1.7x on a quiet machine)")
    print(f"load average after: {load1}")

    if args.no_big:
        return
    big = tmp / "chesslaws-bench-check-big.pgn"
    target = int(args.big_gb * 1e9)
    data = real.read_bytes()
    copies = max(1, -(-target // len(data)))
    try:
        with open(big, "wb") as f:
            for _ in range(copies):
                f.write(data)
        big_size = big.stat().st_size
        for jobs in ("1", "2"):
            w, c, rss, code = child(exe + [str(big), "--jobs", jobs, "--only-problems"])
            n = n_real * copies
            print(f"{big_size / 1e9:.2f} GB ({n:,} games), --jobs {jobs}: {w:.1f} s wall, {c:.1f} s CPU, "
                  f"{n / w:,.0f} games/s, peak RSS {rss / 1024:.1f} MiB (exit {code})")
        small = child(exe + [str(rand), "--jobs", "2", "--only-problems"])
        print(f"peak RSS on the {rand.stat().st_size / 1e6:.1f} MB random file, --jobs 2: {small[2] / 1024:.1f} MiB")
    finally:
        big.unlink(missing_ok=True)


if __name__ == "__main__":
    main()

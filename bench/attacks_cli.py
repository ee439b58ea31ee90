"""Attacks on the command line (40-46): the files it writes, and what it reads. No server.

Each runs ``python -m chesslaws.cli`` in a child process (the installed package, or the checkout's with
PYTHONPATH), a full disk simulated by a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it
fails with EFBIG as a full disk fails with ENOSPC):

40. ``check IN --fix OUT`` onto a full disk, OUT a good file of before: is OUT intact, a temporary
    file left beside it, which file does the error name?
41. ``check IN --fix OUT``, OUT a hard link to IN (then a symbolic one): is IN intact?
42. ``convert`` onto a full disk: a traceback? a broken (partial) log left?
43. ``replay`` of a log whose 4th line nests 100,000 ``[``: a traceback, or the line named?
44. ``check --json`` and ``convert`` of one game with N and 4N tags of distinct names: the time ratio
    (4: linear, 16: quadratic).
45. ``tournament import`` of a TRF with ``XXR 9999999999``, a rating of -500, points of -3.0: accepted?
46. ``tournament export -o OUT`` onto a full disk: is the old OUT intact?

Usage: python bench/bench_attack.py --only 40,41,42,43,44,45,46 [--tags 20000]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from bench_attack import Row

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--tags", type=int, default=20000, help="tags of the smaller game of attack 44 (the larger: 4x)")


def _cli(args: list[str], fsize: int | None = None, timeout: float = 300) -> tuple[int, str, float]:
    def limit() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    t0 = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-m", "chesslaws.cli", *args], capture_output=True, text=True,
                           preexec_fn=limit, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout} s", time.monotonic() - t0
    return p.returncode, p.stderr, time.monotonic() - t0


def _tb(err: str) -> str:
    return "yes" if "Traceback" in err else "no"


def _first_error(err: str) -> str:
    lines = [x for x in err.strip().splitlines() if x.strip()]
    return (lines[-1] if lines else "")[:150]


def _big_pgn(path: Path, size: int = 1_000_000) -> None:
    games = (DATA / "convert_twic.pgn").read_bytes()
    with path.open("wb") as f:
        while f.tell() < size:
            f.write(games + b"\n")


def _folder(tmp: str, name: str) -> Path:
    d = Path(tmp) / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def attack_fix_full_disk(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a40")
    src, out = d / "in.pgn", d / "out.pgn"
    _big_pgn(src)
    _cli(["check", str(src), "--fix", str(out)])  # yesterday's good OUT
    good = out.read_bytes()
    rc, err, _ = _cli(["check", str(src), "--fix", str(out)], fsize=len(good) // 3)
    after = out.read_bytes()
    left = sorted(set(os.listdir(d)) - {"in.pgn", "out.pgn"})
    names = "OUT" if str(out) in err else "IN" if str(src) in err else "neither"
    row = Row("40 check --fix onto a full disk")
    row.notes = [f"OUT {len(good):,} -> {len(after):,} bytes, intact: {'yes' if after == good else 'NO'}; "
                 f"temporary files left: {len(left)}; exit {rc}; traceback {_tb(err)}; error names {names}",
                 f"stderr: {_first_error(err)}"]
    row.achieved = "held" if after == good and not left and rc != 0 and names == "OUT" else (
        f"OUT {'destroyed' if after != good else 'kept'}, error names {names}")
    return row


def attack_fix_hard_link(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a41")
    src, out = d / "in.pgn", d / "out.pgn"
    _big_pgn(src)
    size = src.stat().st_size
    os.link(src, out)
    rc, err, _ = _cli(["check", str(src), "--fix", str(out)])
    hard = src.stat().st_size
    out.unlink()
    _big_pgn(src)  # whole again, for the second try
    out.symlink_to(src)
    rc2, err2, _ = _cli(["check", str(src), "--fix", str(out)])
    soft = src.stat().st_size
    row = Row("41 check --fix OUT = IN (links)")
    row.notes = [f"hard link: IN {size:,} -> {hard:,} bytes, exit {rc}, traceback {_tb(err)}: {_first_error(err)}",
                 f"symbolic link: IN {size:,} -> {soft:,} bytes, exit {rc2}: {_first_error(err2)}"]
    row.achieved = "held" if hard == soft == size and rc == rc2 == 2 else f"IN {size:,} -> {min(hard, soft):,} bytes"
    return row


def attack_convert_full_disk(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a42")
    logs = d / "logs"
    rc, err, _ = _cli(["convert", str(DATA / "convert_chesscom.pgn"), "--out", str(logs)], fsize=3000)
    broken = []
    for p in sorted(logs.iterdir()) if logs.exists() else []:
        text = p.read_bytes()
        if p.name.startswith(".") or not text.endswith(b"\n"):
            broken.append(f"{p.name} ({len(text)} bytes)")
    row = Row("42 convert onto a full disk")
    row.notes = [f"exit {rc}; traceback {_tb(err)}; broken logs left: {', '.join(broken) or 'none'}",
                 f"stderr: {_first_error(err)}"]
    row.achieved = "held" if rc == 2 and _tb(err) == "no" and not broken else "traceback / broken log"
    return row


def attack_deep_log(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a43")
    log = d / "deep.jsonl"
    head = (ROOT / "docs" / "examples" / "scholars-mate-1997.jsonl").read_text().splitlines()[:3]
    log.write_text("\n".join(head) + "\n" + "[" * 100_000 + "\n")
    rc, err, secs = _cli(["replay", str(log)])
    row = Row("43 replay of a 100,000-deep log line")
    row.notes = [f"exit {rc}; traceback {_tb(err)}; {secs:.2f} s; stderr: {_first_error(err)}"]
    row.achieved = "held" if _tb(err) == "no" and "line 4" in err else "raw traceback"
    return row


def _tags_file(path: Path, n: int) -> None:
    with path.open("w") as f:
        f.writelines(f'[T{i} "v{i}"]\n' for i in range(n))
        f.write('\n1. e4 e5 *\n')


def _best(args: list[str]) -> tuple[int, str, float]:
    """The fastest of up to three runs (a run under 2 s is repeated: the start-up's noise is most of it)."""
    runs = [_cli(args, timeout=600)]
    while len(runs) < 3 and runs[-1][2] < 2:
        runs.append(_cli(args, timeout=600))
    return min(runs, key=lambda r: r[2])


def attack_many_tags(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a44")
    n = args.tags
    times = []
    converts = []
    for k in (n, 4 * n):
        p = d / f"tags{k}.pgn"
        _tags_file(p, k)
        rc, err, secs = _best(["check", "--json", str(p)])
        times.append((k, p.stat().st_size, secs, rc))
        converts.append(_best(["convert", str(p), "--out", str(d / "logs")])[2])
    # The interpreter's start (the same in both) is taken off: a run of an empty game.
    empty = d / "empty.pgn"
    _tags_file(empty, 0)
    base = _best(["check", "--json", str(empty)])[2]
    (k1, s1, t1, _), (k2, s2, t2, _) = times
    ratio = (t2 - base) / max(t1 - base, 1e-3)
    c1, c2 = converts
    cratio = (c2 - base) / max(c1 - base, 1e-3)
    row = Row("44 check --json, convert: many tags")
    row.notes = [f"check --json: {k1:,} tags ({s1 / 1e6:.2f} MB): {t1:.2f} s; {k2:,} tags ({s2 / 1e6:.2f} MB): "
                 f"{t2:.2f} s; start-up {base:.2f} s; ratio of the work {ratio:.1f} (4: linear, 16: quadratic)",
                 f"convert: {k1:,} tags {c1:.2f} s; {k2:,} tags {c2:.2f} s; ratio of the work {cratio:.1f}"]
    # Quadratic: the work grows about 16-fold for 4 times the tags; a ratio read off less than a second of work
    # is the start-up's noise.
    slow = [what for what, r, t in (("check --json", ratio, t2), ("convert", cratio, c2)) if r >= 12 and t - base > 1]
    row.achieved = "held" if not slow else f"quadratic ({', '.join(slow)}): x{max(ratio, cratio):.0f} for x4 tags"
    return row


def _player(sn: int, name: str, rating: str, points: str) -> str:
    return f"001 {sn:>4} {'':1}{'':>3} {name:<33} {rating:>4} {'':<3} {'':>11} {'':<10} {points:>4} {sn:>4}"


def attack_import_numbers(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a45")
    cases = {"XXR 9999999999": ("XXR 9999999999", "1500", "0.0"), "rating -500": ("XXR 5", "-500", "0.0"),
             "points -3.0": ("XXR 5", "1500", "-3.0")}
    accepted, notes = [], []
    for label, (xxr, rating, points) in cases.items():
        trf = d / f"{label.split()[0].lower()}.trf"
        trf.write_text("\n".join(["012 Bad Numbers", "092 Individual: Swiss-System", xxr,
                                  _player(1, "Adams, Ann", rating, points), _player(2, "Brown, Bob", "1980", "0.0")])
                       + "\n")
        rc, err, _ = _cli(["tournament", "import", str(trf), "--db", str(d / "t.sqlite3")])
        if rc == 0:
            accepted.append(label)
        notes.append(f"{label}: exit {rc}, traceback {_tb(err)}"
                     + (f": {_first_error(err)}" if rc else ": accepted"))
    row = Row("45 tournament import, bad numbers")
    row.notes = notes
    row.achieved = "held" if not accepted else "accepted: " + ", ".join(accepted)
    return row


def attack_export_full_disk(args: argparse.Namespace, tmp: str) -> Row:
    d = _folder(tmp, "a46")
    db, out = d / "t.sqlite3", d / "open.trf"
    # 600 players: a TRF of about 55 KB, past a file-size limit of 40 KB that SQLite's own files
    # (its 32 KB shared-memory index) stay under.
    _cli(["tournament", "create", "Big Open", "--db", str(db)])
    _cli(["tournament", "add", "Big Open", *[f"Player {i:03d}" for i in range(600)], "--db", str(db)])
    out.write_text("012 the export of yesterday\n" + "x" * 300 + "\n")
    good = out.read_bytes()
    rc, err, _ = _cli(["tournament", "export", "Big Open", "--db", str(db), "-o", str(out)], fsize=40960)
    after = out.read_bytes()
    row = Row("46 tournament export onto a full disk")
    row.notes = [f"OUT {len(good)} -> {len(after)} bytes, intact: {'yes' if after == good else 'NO'}; exit {rc}; "
                 f"traceback {_tb(err)}; stderr: {_first_error(err)}"]
    row.achieved = "held" if after == good and rc != 0 and _tb(err) == "no" else "OUT destroyed / traceback"
    return row


PLAN: list[tuple[int, Callable[[argparse.Namespace, str], Any]]] = [
    (40, attack_fix_full_disk),
    (41, attack_fix_hard_link),
    (42, attack_convert_full_disk),
    (43, attack_deep_log),
    (44, attack_many_tags),
    (45, attack_import_numbers),
    (46, attack_export_full_disk),
]

"""The files the command line writes are complete or not there, never one of its inputs:
``check --fix``, ``convert``'s logs, ``tournament export``, ``match --pgnout``, through
``chesslaws.atomic``. A full disk: see tests/cli_run.py.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import limits as _limits
from cli_run import no_traceback as _no_traceback
from cli_run import run

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


# --- check --fix ----------------------------------------------------------------------------------


def test_check_fix_onto_a_full_disk_leaves_the_old_output_and_names_it(tmp_path: Path) -> None:
    src = tmp_path / "in.pgn"
    shutil.copy(DATA / "convert_twic.pgn", src)
    out = tmp_path / "out.pgn"
    out.write_bytes(b'[Event "the good file of yesterday"]\n\n1. e4 e5 1-0\n')
    before = out.read_bytes()
    proc = run(["check", str(src), "--fix", str(out)], fsize=4096)  # the fixed file is about 8 KB
    assert proc.returncode == 2, proc.stderr
    _no_traceback(proc)
    assert out.read_bytes() == before  # not truncated: the old good file survives
    assert sorted(os.listdir(tmp_path)) == ["in.pgn", "out.pgn"]  # no temporary file left beside it
    assert f"cannot write {out}: File too large" in proc.stderr
    assert str(src) not in proc.stderr  # the output is named, not the input
    # With room, the same command writes it whole.
    proc = run(["check", str(src), "--fix", str(out)])
    assert proc.returncode in (0, 1), proc.stderr
    assert out.read_bytes().count(b"[Event ") == src.read_bytes().count(b"[Event ")


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_check_fix_refuses_an_output_that_is_its_input_by_another_name(tmp_path: Path, link: str) -> None:
    src = tmp_path / "in.pgn"
    shutil.copy(DATA / "convert_twic.pgn", src)
    data = src.read_bytes()
    out = tmp_path / "out.pgn"
    if link == "hard":
        os.link(src, out)
    else:
        out.symlink_to(src)
    proc = run(["check", str(src), "--fix", str(out)])
    assert proc.returncode == 2, proc.stderr
    _no_traceback(proc)
    assert src.read_bytes() == data  # the input never opened for writing (it was emptied: 1 MB -> 0)
    assert f"it is the input file {src} (a {link} link to it)" in proc.stderr


# --- convert --------------------------------------------------------------------------------------


def test_convert_onto_a_full_disk_says_which_log_and_leaves_no_broken_one(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    proc = run(["convert", str(DATA / "convert_chesscom.pgn"), "--out", str(logs)], fsize=3000)
    assert proc.returncode == 2, proc.stderr
    _no_traceback(proc)
    assert f"cannot write {logs / 'convert_chesscom-1.jsonl'}: File too large" in proc.stderr
    # Every log there is whole (here: none; a log is written whole or not at all).
    for path in logs.iterdir():
        assert not path.name.startswith("."), path
        text = path.read_text()
        assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())


# --- tournament export ----------------------------------------------------------------------------


def test_tournament_export_onto_a_full_disk_leaves_the_old_file(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process (a file-size limit would stop SQLite first): the disk is full when the export is
    flushed to it."""
    from click.testing import CliRunner

    from chesslaws import atomic
    from chesslaws.cli import main

    db = tmp_path / "t.sqlite3"
    res = CliRunner().invoke(main, ["tournament", "import", str(EXAMPLES / "club-quad.trf"), "--db", str(db)])
    assert res.exit_code == 0, res.output
    out = tmp_path / "club.trf"
    out.write_text("012 the export of yesterday\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        m.setattr(atomic.os, "fsync", full)
        res = CliRunner().invoke(main, ["tournament", "export", "Club Quad", "--db", str(db), "-o", str(out)])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert out.read_text() == "012 the export of yesterday\n"
    assert f"cannot write {out}: No space left on device ({out} is left as it was)" in res.output
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    res = CliRunner().invoke(main, ["tournament", "export", "Club Quad", "--db", str(db), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith("012 Club Quad\n")


# --- match --pgnout: appended game by game ---------------------------------------------------------

_APPEND = """
import sys
from chesslaws.atomic import AppendOutput, OutputError
out = AppendOutput(sys.argv[1])
out.write("[Event \\"game 2\\"]\\n\\n1. e4 e5 1-0\\n\\n")
try:
    out.write("[Event \\"game 3\\"]\\n\\n" + "1. e4 e5 " * 200 + "1-0\\n\\n")
except OutputError as err:
    print(err, file=sys.stderr)
    sys.exit(2)
"""


def test_pgnout_appends_whole_games_only_and_keeps_the_earlier_ones(tmp_path: Path) -> None:
    pgn = tmp_path / "m.pgn"
    pgn.write_text('[Event "game 1"]\n\n1. d4 d5 1/2-1/2\n\n')
    proc = subprocess.run([sys.executable, "-c", _APPEND, str(pgn)], capture_output=True, text=True,
                          preexec_fn=_limits(fsize=1024), check=False, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert f"cannot write {pgn}: File too large" in proc.stderr
    assert pgn.read_text() == '[Event "game 1"]\n\n1. d4 d5 1/2-1/2\n\n[Event "game 2"]\n\n1. e4 e5 1-0\n\n'


# --- the helper itself ------------------------------------------------------------------------------


def test_an_output_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    from chesslaws.atomic import OutputError, atomic_output

    target = tmp_path / "a.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_output(str(target), "w") as f:
            f.write("half of the new")
            raise RuntimeError("the command failed midway")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["a.txt"]
    with atomic_output(str(target), "w") as f:
        f.write("new")
    assert target.read_text() == "new"
    assert os.listdir(tmp_path) == ["a.txt"]
    with pytest.raises(OutputError, match="it is the input file"):
        with atomic_output(str(target), "w", inputs=[str(target)]):
            pass


def test_a_device_output_is_written_in_place_never_replaced() -> None:
    from chesslaws.atomic import AppendOutput, atomic_output

    before = os.stat("/dev/null")
    with atomic_output("/dev/null", "wb") as f:
        f.write(b"nothing")
    after = os.stat("/dev/null")
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    with AppendOutput("/dev/null") as out:
        out.write("nothing")

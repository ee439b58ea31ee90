"""Issue 36 (security, round two; the event loop and the server's smaller holes): the SQLite lock under
every name of a file, path parameters validated before tokens and stores, invisible names refused, a slow
request body closed, the QR code off the loop and limited, large events read once per change."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest

from chesslaws.server.store import StoreLocked, open_store


def _names(tmp_path: Path, db: Path) -> list[str]:
    rel = os.path.relpath(db, os.getcwd())
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db)
    hard = tmp_path / "hard.sqlite3"
    os.link(db, hard)
    return [f"file:{db}", f"file:{db}?mode=rwc&cache=private", f"file://{db}", f"file://localhost{db}",
            f"file:{quote(str(db))}#x", f"sqlite:///{db}", rel, f"./{rel}", f"file:{rel}?mode=rw", str(link),
            f"file:{link}?cache=shared", str(hard), f"file:{hard}"]


def test_every_name_of_a_sqlite_file_meets_its_lock(tmp_path: Path) -> None:
    db = tmp_path / "games db.sqlite3"
    first = open_store(str(db))
    for name in _names(tmp_path, db):
        with pytest.raises(StoreLocked, match="in use by another chesslaws serve"):
            open_store(name)
    first.close()
    uri = open_store(f"file:{db}?mode=rwc")  # held through a URI, the plain path finds it taken too
    with pytest.raises(StoreLocked):
        open_store(str(db))
    uri.close()

"""Issue 30 (server infrastructure): the SQLite lock on the file's identity, names without line
separators, bad stored rows set aside (never fatal), the socket limits, the fair start by default and a
graceful stop that retires finished games (issue 27)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from chesslaws.server.store import SQLiteStore, StoreLocked, open_store


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_the_sqlite_lock_holds_through_another_name_for_the_same_file(tmp_path: Path, link: str) -> None:
    db = tmp_path / "games.sqlite3"
    first = open_store(str(db))
    other = tmp_path / "elsewhere" / "alias.sqlite3"
    other.parent.mkdir()
    (os.symlink if link == "symlink" else os.link)(db, other)
    with pytest.raises(StoreLocked) as err:
        open_store(str(other))
    assert "in use by another chesslaws serve" in str(err.value) and "inode" in str(err.value)
    first.close()
    second = SQLiteStore(str(other))  # released with the first store: the other name opens it now
    with pytest.raises(StoreLocked):
        open_store(str(db))
    second.close()


@pytest.mark.parametrize("name", ["Anna\u2028Smith", "Bob\u2029"])
def test_line_and_paragraph_separators_in_names_are_refused(client: Any, name: str) -> None:
    r = client.post("/api/games", json={"white": name, "black": "B"})
    assert r.status_code == 422 and "separator" in r.json()["error"], r.text
    g = client.post("/api/games", json={"white": "A"}).json()
    r = client.post(f"/api/games/{g['id']}/join", json={"seat": "black", "name": name})
    assert r.status_code == 422 and "separator" in r.json()["error"], r.text
    assert client.get(f"/api/games/{g['id']}").json()["seats_open"] == ["black"]

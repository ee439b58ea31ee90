"""The live games of ``chesslaws serve``: the hub (:mod:`.hub`), their logs in SQLite or PostgreSQL
(:mod:`chesslaws.store`), the rate and size limits (:mod:`.guard`), engines as players (:mod:`.engines`).

The web app that serves them is :mod:`chesslaws.webapp`.
"""

from __future__ import annotations

from chesslaws.store.games import PostgresStore, SQLiteStore, Store, open_store

__all__ = ["PostgresStore", "SQLiteStore", "Store", "open_store"]

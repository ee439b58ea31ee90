"""``chesslaws serve``: the app served by uvicorn, with the logging, garbage collection and file limits a
long-running server wants."""

from __future__ import annotations

import gc
import logging
from typing import Sequence

import uvicorn

from chesslaws.engines import EngineSpec
from chesslaws.server.guard import ConnectionLimits, Limits, connection_guard
from chesslaws.store.games import Store
from chesslaws.webapp.app import create_app


def run(host: str = "127.0.0.1", port: int = 8000, db: str | Store = "./chesslaws.sqlite3", *,
        log_level: str = "warning", limits: Limits | None = None, compress: bool = False,
        engines: Sequence[EngineSpec] = (), engine_pool: int = 2,
        connections: ConnectionLimits = ConnectionLimits(), forwarded_allow_ips: Sequence[str] = ()) -> None:
    """Serves the app until interrupted (``db``: an open store, a SQLite path or a postgresql:// URL;
    ``engines``: engines one can play against, at most ``engine_pool`` processes; ``connections``: the
    header and idle timeouts and the connections per address; ``forwarded_allow_ips``: the proxies whose
    ``X-Forwarded-For`` is believed (none by default: the peer's address is the client's))."""
    # One line per refusal and per fault (with its traceback) on standard error.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("chesslaws serve: %(levelname)s %(message)s"))
    logger = logging.getLogger("chesslaws")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    app = create_app(db, limits, engines=engines, engine_pool=engine_pool)
    # The cyclic garbage collector: a move allocates a few hundred objects, almost none of them in a
    # cycle (a run of bench_server.py left none to collect), yet with the default thresholds the
    # collector ran about every third move and, as the games grew, swept the whole heap: a tenth of
    # the server's CPU. Collections of the young objects every 50,000 allocations (a few ms each) and
    # of the older ones rarely still free what cycles there are.
    gc.set_threshold(50_000, 20, 100)
    gc.freeze()  # what start-up built (the modules) is not swept again by every full collection
    # No per-message deflate: a state is a few KiB, and compressing every frame for every viewer cost
    # a quarter of the server's CPU under load (bench/bench_server.py); it pays only on slow links.
    _raise_open_files()
    trusted = tuple(forwarded_allow_ips)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=16 * 1024, lifespan="on",
                ws_per_message_deflate=compress, http=connection_guard(connections, frozenset(trusted)),
                timeout_keep_alive=max(1, round(connections.keep_alive_timeout)),
                proxy_headers=bool(trusted), forwarded_allow_ips=list(trusted) or None)


def _raise_open_files() -> None:
    """Raises the soft limit of open files to the hard one (every socket is one): the per-address
    limits bound what one client holds, this bounds what all of them may."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):  # not POSIX, or not allowed: the limit stays
        pass


__all__ = ["run"]

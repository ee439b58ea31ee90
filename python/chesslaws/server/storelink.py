"""The live games' store, on a thread of its own: each call runs there (:meth:`StoreLink.db`), events of
several games that wait together are committed in one transaction (:meth:`StoreLink.commit`), and a failure
that means the database cannot be reached marks the store down (``down_since``) until it answers again."""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, TypeVar

from chesslaws.server.errors import unavailable
from chesslaws.store.db import StoreError
from chesslaws.store.games import Store

log = logging.getLogger("chesslaws.server")

T = TypeVar("T")

#: Seconds between a request's own questions to an unreachable store (see StoreLink.refuse_while_down).
ASK_EVERY = 0.25


class StoreLink:
    """``store`` on its own thread. ``now``: the server's clock; ``is_outage``: whether an error means the
    database cannot be reached (rather than a fault of one request); ``on_down``: told once when it is
    found unreachable."""

    def __init__(self, store: Store, now: Callable[[], float], is_outage: Callable[[BaseException], bool],
                 on_down: Callable[[], None]) -> None:
        self.store = store
        self.now = now
        self.is_outage = is_outage
        self.on_down = on_down
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chesslaws-store")
        # The last instant the store answered, and since when it has not.
        self.last_ok = 0.0
        self.down_since: float | None = None
        self._asked_at = 0.0  # the last time a request asked the store whether it is back
        self._asking = False  # a request is asking it now
        self._pending: list[tuple[tuple[str, int, dict[str, Any]], asyncio.Future[None]]] = []
        self._flushing = False

    async def db(self, fn: Callable[[], T]) -> T:
        """``fn()`` on the store's thread. A failure that is no outage is logged and answered as a
        :class:`StoreError`; an outage marks the store down and is raised as it came."""
        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self.executor, fn)
        except StoreError:
            self.last_ok = self.now()  # the database answered (it refused)
            raise
        except Exception as err:
            if not self.is_outage(err):  # a fault of this request, not of the database: no outage
                log.exception("the store failed on one request")
                raise StoreError("the store could not write this event") from None
            self.mark_down()
            raise
        self.last_ok = self.now()
        return out

    def mark_down(self) -> None:
        """The store cannot be reached: moves are refused and the clocks held from the last instant it
        answered."""
        if self.down_since is None:
            self.down_since = self.last_ok or self.now()  # the last instant it was known to work
            log.error("the game store is unreachable: moves are refused (503) and the clocks held "
                      "since %.3f", self.down_since)
            self.on_down()

    async def commit(self, game_id: str, seq: int, line: dict[str, Any]) -> None:
        """Appends one event; returns once it is committed. Events of several games that wait
        together are committed in one transaction (group commit: one fsync for all)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(((game_id, seq, line), fut))
        if not self._flushing:
            self._flushing = True
            asyncio.ensure_future(self._flush())
        await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                items = [item for item, _ in batch]
                try:
                    await self.db(lambda: self.store.append_many(items))
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception as err:  # noqa: BLE001
                    if not isinstance(err, StoreError):  # the database is unreachable: all fail alike
                        for _, fut in batch:
                            if not fut.done():
                                fut.set_exception(err)
                        continue
                    # Something in the batch was refused: commit them one by one to tell which.
                    results = []
                    for item in items:
                        try:
                            await self.db(lambda item=item: self.store.append(*item))  # type: ignore[misc]
                            results.append(None)
                        except Exception as err:
                            results.append(err)
                for (_, fut), failure in zip(batch, results):
                    if fut.done():
                        continue
                    if failure is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(failure)
        finally:
            self._flushing = False

    async def refuse_while_down(self, recover: Callable[[], Awaitable[None]]) -> None:
        """Raises the outage's 503 while the store is unreachable. Before refusing, a request asks the
        store once more (at most every ``ASK_EVERY`` seconds): the first request after the database
        returned is served, ``recover`` (the interruptions written) first, rather than refused until the
        next ping."""
        if self.down_since is None:
            return
        now = time.monotonic()
        if not self._asking and now - self._asked_at >= ASK_EVERY:  # one question at a time: a database
            self._asking, self._asked_at = True, now  # that hangs (up to the pool's timeout) piles up nothing
            try:
                await self.db(lambda: self.store.ping(self.now()))
                await recover()
            except Exception:  # noqa: BLE001 - still away (or the give-back failed): refused below
                pass
            finally:
                self._asking = False
        if self.down_since is not None:
            raise unavailable()


__all__ = ["ASK_EVERY", "StoreLink"]

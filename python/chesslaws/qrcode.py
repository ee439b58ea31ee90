"""QR codes (SVG) of short texts, made in a child process, off the server's event loop.

segno is pure Python: a code of 300 characters costs it about 40 ms of CPU, of 1,000 about 120 ms, all of
it holding the interpreter lock. Made on the server's event loop, eight connections asking for codes of
1,000 characters cost each player 8 s of clock per move; made on a thread, they would still take the
lock from the loop. So :class:`QrMaker` makes them in one child process (its own interpreter, its own
lock), one at a time, keeps the last codes made (the same seat link asked again is answered at once),
and refuses at once (503) what would queue behind more than a few codes.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

#: The longest text (a seat link is under 200 characters).
MAX_TEXT = 300


class QrBusy(Exception):
    """Too many codes asked for at once: the client should try again in a moment."""


class QrTooLong(Exception):
    """The text does not fit in a QR code."""


def make_svg(text: str) -> bytes | None:
    """The SVG of ``text``'s QR code (None if it does not fit); runs in the child process."""
    import segno

    buf = io.BytesIO()
    try:
        code = segno.make(text, error="m", micro=False)
    except segno.DataOverflowError:
        return None
    code.save(buf, kind="svg", scale=6, border=2, dark="#111", light="#fff", xmldecl=False)
    return buf.getvalue()


class QrMaker:
    """Codes made one at a time in a child process (started on the first code asked for), at most
    ``queue`` waiting (503 beyond), the last ``cache`` codes kept."""

    def __init__(self, queue: int = 8, cache: int = 256) -> None:
        self.queue = queue
        self.cache_size = cache
        self._cache: OrderedDict[str, bytes | None] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None
        self._turn = asyncio.Semaphore(1)
        self._waiting = 0
        #: Codes made in the child (not answered from the cache): for tests and the bench.
        self.made = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing

            # spawn: a fresh interpreter, not a fork of the server (its threads, its open database file)
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def svg(self, text: str) -> bytes:
        """The code of ``text``; raises :class:`QrTooLong` or :class:`QrBusy`."""
        if text in self._cache:
            self._cache.move_to_end(text)
            found = self._cache[text]
        else:
            if self._waiting >= self.queue:
                raise QrBusy(f"{self._waiting} QR codes are being made")
            self._waiting += 1
            try:
                async with self._turn:
                    loop = asyncio.get_running_loop()
                    try:
                        found = await loop.run_in_executor(self._executor(), make_svg, text)
                    except BrokenProcessPool:  # the child died (killed): a new one for the next code
                        self._pool = None
                        raise QrBusy("the QR maker restarted") from None
                    self.made += 1
            finally:
                self._waiting -= 1
            self._cache[text] = found
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        if found is None:
            raise QrTooLong("too long for a QR code")
        return found

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["MAX_TEXT", "QrBusy", "QrMaker", "QrTooLong", "make_svg"]


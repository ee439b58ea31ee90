"""A socket's queue of messages (:class:`Outbox`) and its viewer (:class:`Subscriber`): what the broadcast
writes to, and what a game knows of each open socket."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Callable, Coroutine, Sequence


async def _resume(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Runs on, as a task, a coroutine that :meth:`Outbox.put_nowait` began and that stopped at
    ``waiting`` (what it yielded: a future, or None for a bare yield), until it returns."""
    try:
        while True:
            try:
                if waiting is None:
                    await asyncio.sleep(0)
                else:
                    waiting._asyncio_future_blocking = False  # taken, as a task takes what it is yielded
                    await waiting
            except asyncio.CancelledError:
                raise
            except BaseException:  # noqa: BLE001 - the coroutine meets it itself, below, as asyncio does
                pass
            try:
                waiting = coro.send(None)
            except StopIteration:
                return
    finally:
        coro.close()


class Outbox:
    """A socket's bounded queue of messages.

    What the hub needs of :class:`asyncio.Queue` (``put_nowait``, ``get``, ``get_nowait``, ``empty``,
    :class:`asyncio.QueueFull` when full), in about 150 bytes instead of about 2 KiB (three deques): a
    server holds one per socket, ten thousand of them. Full means the viewer does not read; the broadcast
    (:mod:`chesslaws.server.broadcast`) then keeps only the latest state, so a slow viewer never holds more
    than ``maxsize`` messages, and never delays anyone: nothing here waits for a socket.

    With a ``writer`` (the socket's send), a message is written at once when nothing is queued or
    being written: the send runs to its end here when the socket takes it (the usual case, no task and
    no switch), and only when the socket is full (a viewer that reads late) does the rest of that
    send, then what is queued meanwhile, go on in a task of its own, in order. Without one (an engine's
    seat), one reader takes the messages with :meth:`get`. A socket that is not written to holds no task.
    """

    __slots__ = ("maxsize", "writer", "_items", "_waiter", "_writing")

    def __init__(self, maxsize: int = 64, writer: Callable[[str], Coroutine[Any, Any, None]] | None = None) -> None:
        self.maxsize = maxsize
        self.writer = writer
        self._items: list[str] = []
        self._waiter: asyncio.Future[None] | None = None
        self._writing: asyncio.Task[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return len(self._items) >= self.maxsize

    def put_nowait(self, item: str) -> None:
        if self.writer is not None and self._writing is None and not self._items:
            self._write(self.writer, item)
            return
        if len(self._items) >= self.maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def attach(self, writer: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """From now on, messages go to ``writer``; what was queued before goes first, in order."""
        self.writer = writer
        while self._items and self._writing is None and self.writer is not None:
            self._write(self.writer, self._items.pop(0))

    def _write(self, writer: Callable[[str], Coroutine[Any, Any, None]], item: str) -> None:
        coro = writer(item)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # written
        except Exception:  # noqa: BLE001 - the socket is closing: its handler ends it (Outbox.close)
            coro.close()
            self.writer = None
            return
        self._writing = asyncio.ensure_future(self._drain(_resume(coro, waiting)))

    async def _drain(self, first: Coroutine[Any, Any, None]) -> None:
        """The send the socket could not take at once, then what was queued meanwhile, in order."""
        try:
            await first
            while self._items and self.writer is not None:
                await self.writer(self._items.pop(0))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the socket is closing: its handler ends it
            self.writer = None
        finally:
            self._writing = None

    def close(self) -> None:
        """The socket is gone: nothing more is written, what was queued is dropped."""
        self.writer = None
        self._items.clear()
        if self._writing is not None:
            self._writing.cancel()
            self._writing = None

    def get_nowait(self) -> str:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    def clear(self) -> None:
        self._items.clear()

    async def get(self) -> str:
        """The next message, once there is one (one reader at a time; an outbox without a writer)."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


@dataclass(eq=False)
class Subscriber:
    """A WebSocket viewer: states are queued for its sender task."""

    lang: str
    seat: str = "spectator"
    queue: Outbox = field(default_factory=Outbox)
    # Moves by difference (the page asks with ?moves=new): a state then carries only the moves this
    # viewer does not have yet, after the first ``moves_from`` of those it was sent (``sent``).
    delta: bool = False
    sent: Sequence[Any] | None = None
    sent_controls: dict[str, Any] | None = None  # the controls block last sent (left out while unchanged)



__all__ = ["Outbox", "Subscriber"]

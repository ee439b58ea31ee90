"""Publishing a game's state to its viewers: each open socket (:class:`~chesslaws.server.outbox.Subscriber`)
gets the state in its language, with only the moves it lacks when it asked for moves by difference; the
arbiter's consoles get alerts; watchers (tournaments) are told which game changed."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Sequence

from chesslaws.server.live import LiveGame
from chesslaws.server.outbox import Subscriber
from chesslaws.server.views import Views, common_prefix, state_text, with_state

log = logging.getLogger("chesslaws.server")


class Broadcaster:
    """Writes the views of :class:`~chesslaws.server.views.Views` to the games' viewers."""

    def __init__(self, views: Views) -> None:
        self.views = views
        # Told the id of every game whose state changed (its broadcast): tournaments follow their boards.
        self.watchers: list[Callable[[str], None]] = []

    def send_state(self, live: LiveGame, sub: Subscriber) -> None:
        """Queues the whole state for one viewer (on connecting, or after it missed messages)."""
        sub.sent = None
        sub.sent_controls = None
        self.broadcast(live, only=sub)

    def tell_watchers(self, game_id: str) -> None:
        for watch in self.watchers:
            try:
                watch(game_id)
            except Exception:  # noqa: BLE001 - a watcher's fault never stops a state
                log.exception("a watcher of game %s failed", game_id)

    def broadcast(self, live: LiveGame, only: Subscriber | None = None,
                  ack: tuple[Subscriber, dict[str, Any]] | None = None) -> None:
        """Queues the state for every viewer (or ``only`` one). The view is built once per language and
        serialised once per (language, moves the viewer already has): a viewer that asked for moves by
        difference gets the moves it lacks, so that a broadcast costs the same at move 200 as at move 2.
        ``ack``: (the sender's socket, its acknowledgement): that socket gets the acknowledgement with
        its state in it (``"state"``), in place of the state alone."""
        if only is None:
            self.tell_watchers(live.id)
        views: dict[str, tuple[dict[str, Any], str]] = {}
        cache: dict[tuple[str, int, bool], str] = {}
        records: Sequence[Any] | None = None
        subs = [only] if only is not None else list(live.subscribers)
        # The view of each language has the moves from the first one a viewer of that language lacks.
        now = live.game.state.moves
        first: dict[str, int] = {}
        has: list[int] = []  # how many of the moves each viewer has (asking for new moves only)
        for sub in subs:
            lacks = common_prefix(sub.sent, now) if sub.delta else 0
            has.append(lacks)
            first[sub.lang] = min(first.get(sub.lang, lacks), lacks)
        for k, sub in enumerate(subs):
            parts = views.get(sub.lang)
            if parts is None:
                parts = views[sub.lang] = self.views.parts(live, sub.lang, first[sub.lang])
                if live.view_records is not now:  # the moves seen at t are others: all of them
                    first[sub.lang] = 0
                    parts = views[sub.lang] = self.views.parts(live, sub.lang, 0)
                if records is None:
                    records = live.view_records
            assert records is not None
            view, legal = parts
            base = (has[k] if records is now else common_prefix(sub.sent, records)) if sub.delta else -1
            offset = first[sub.lang]
            same = bool(sub.delta and sub.sent is not None and (sub.sent_controls is view["controls"]
                                                                 or sub.sent_controls == view["controls"]))
            msg = cache.get((sub.lang, base, same))
            if msg is None:
                out = view
                if base >= 0:  # only the moves it lacks, and the controls only when they changed
                    out = {**view, "moves": view["moves"][base - offset:], "moves_from": base}
                    if same:
                        del out["controls"]
                msg = cache[(sub.lang, base, same)] = state_text(out, legal)
            if ack is not None and sub is ack[0]:
                msg = with_state(ack[1], msg)
            try:
                sub.queue.put_nowait(msg)
            except asyncio.QueueFull:  # a viewer that does not read: only the latest state matters
                sub.queue.clear()
                if base > 0 or same:  # what it missed may have changed anything: the whole state again
                    whole = view if offset == 0 else self.views.parts(live, sub.lang, 0)[0]
                    msg = state_text({**whole, "moves_from": 0}, legal)
                    if ack is not None and sub is ack[0]:
                        msg = with_state(ack[1], msg)
                sub.queue.put_nowait(msg)
            sub.sent = records
            sub.sent_controls = view["controls"]

    @staticmethod
    def arbiter_here(live: LiveGame) -> bool:
        """Is an arbiter's console of this game open on this process?"""
        return any(sub.seat == "arbiter" for sub in live.subscribers)

    @staticmethod
    def to_arbiter_consoles(live: LiveGame, msg: str) -> None:
        """Queues ``msg`` for the arbiter's consoles of the game open on this process (a full queue drops it)."""
        for sub in list(live.subscribers):
            if sub.seat == "arbiter":
                try:
                    sub.queue.put_nowait(msg)
                except asyncio.QueueFull:
                    pass


__all__ = ["Broadcaster"]

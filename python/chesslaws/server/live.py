"""A live game in memory (:class:`LiveGame`: its game, its start rule, its viewers and what its view keeps),
a stored game that cannot be played (:class:`SetAside`), and the replay of a stored log as far as it goes."""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

from chesslaws.game import Game
from chesslaws.position import Position
from chesslaws.server.errors import reason
from chesslaws.server.outbox import Subscriber
from chesslaws.server.rules import claim_left_going, logged_rule
from chesslaws.store.games import GameRecord, Seat, hash_token
from chesslaws.store.rows import UnreadableRow


def seat_of_token(token_hashes: Mapping[str, str | None], token: str | None) -> Seat | None:
    """Which seat ``token`` opens among the stored ``token_hashes``, or None."""
    if not token:
        return None
    h = hash_token(token)
    for seat in ("arbiter", "white", "black"):
        stored = token_hashes.get(seat)
        if stored and hmac.compare_digest(stored, h):
            return seat
    return None


def replay_lenient(events: list[dict[str, Any]], claims: dict[str, int] | None = None,
                   ) -> tuple[Game | None, int, str | None]:
    """Replays a stored log as far as it goes: the game of the longest replayable prefix, the number
    of events in it, and why the next one could not be applied (None when the whole log replays).
    ``claims``: counts, per side, the claims of that prefix that left the game going (incorrect claims,
    2023 11.5), each judged on the state it left."""
    if not events:
        return None, 0, "the log is empty"
    for i, line in enumerate(events):
        if isinstance(line, UnreadableRow):  # replay stops before it
            if i == 0:
                return None, 0, line.reason
            events = events[:i]
            game, good, why = replay_lenient(events, claims)
            return game, good, why if why is not None else line.reason
    try:
        game = Game.from_events(events[:1])
    except Exception as err:  # noqa: BLE001 - a stored line may be anything: say what, never crash
        return None, 0, reason(err)
    for i, line in enumerate(events[1:], start=1):
        try:
            game = game.apply(line)
        except Exception as err:  # noqa: BLE001
            return game, i, f"event {i}: {reason(err)}"
        if claims is not None:
            by = str(line.get("by"))
            if claim_left_going(str(line.get("type")), by, game.state):
                claims[by] = claims.get(by, 0) + 1
    return game, len(events), None


@dataclass(eq=False)
class SetAside:
    """A stored game whose log cannot be replayed: kept out of play, served as an error naming the
    reason, until the arbiter annuls it."""

    record: GameRecord
    reason: str
    prefix: Game | None
    good: int  # events of the log that replay

    def seat_of(self, token: str | None) -> Seat | None:
        return seat_of_token(self.record.token_hashes, token)


@dataclass(eq=False)
class LiveGame:
    """A game in play on this process: its game (the log replayed), its seats, its start rule, who watches it
    and what its view keeps between states."""

    id: str
    created_at: float
    interface: str
    names: dict[str, str | None]
    token_hashes: dict[str, str | None]
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    # The fair start of an online game (see :mod:`chesslaws.server.starts`): t=0 waits until both players
    # have opened it; a game whose side to move makes no first move within abort_after seconds is aborted.
    waiting: bool = False
    abort_after: float | None = None
    present: set[str] = field(default_factory=set)
    # A scheduled online start (Article 6.7): the players are absent until they open the game;
    # those who opened it before t=0 arrive at t=0.
    scheduled: bool = False
    early: set[str] = field(default_factory=set)
    # A tournament round's game (with ``waiting``): t=0 comes when the arbiter starts the round
    # (:meth:`chesslaws.server.hub.Hub.start_held`), not when the players come; until then nothing runs.
    held: bool = False
    incorrect_claims: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    full_alerted: bool = False  # the arbiter was told that the log is full
    # The other processes of a shared store with an arbiter's console of this game open: their origins, and
    # when each last said so (monotonic seconds; each says it again every ARBITER_BEAT s while it is open).
    arbiters_elsewhere: dict[str, float] = field(default_factory=dict)
    # The highest event number another process announced for this game (-1: none): the copy here is behind
    # the store, and caught up before anything is judged on it, while it is not below ``seq``.
    heard: int = -1
    # When a request of this process last used the game (monotonic seconds; 0: never, only created here): a
    # game nobody here uses or watches leaves memory when another process writes to it (it lives there).
    used_at: float = 0.0
    retire: asyncio.TimerHandle | None = None
    # What the view computed and keeps (see :meth:`chesslaws.server.views.Views.move_list`): the move records
    # it was computed for, the FEN after every FEN_STEP-th move (None from a move the board cannot replay on)
    # and after the last move viewed (the number of moves, the FEN): not one per move; and the legal moves.
    move_records: Sequence[Any] = ()
    move_fens: list[str | None] = field(default_factory=list)
    move_tail: tuple[int, str | None] | None = None
    # The legal moves of one position (the position itself, held, is the key: no FEN is written for it).
    legal_cache: tuple[Position, str, str] | None = None  # (position, language, their JSON)
    view_records: Sequence[Any] = ()  # the move records of the latest view (see chesslaws.server.broadcast)
    # What a view takes from the game's configuration alone (see chesslaws.server.views), per language: built
    # again only when an event changes the configuration (the object is then another one).
    config_cache: dict[str, tuple[Any, dict[str, Any]]] = field(default_factory=dict)

    def forget_views(self) -> None:
        """Drops what the view keeps between states (the game was replaced by another one, not followed by it)."""
        self.move_records = ()
        self.move_fens = []
        self.move_tail = None
        self.legal_cache = None
        self.view_records = ()
        self.config_cache = {}

    def follow(self, rule: Mapping[str, Any]) -> None:
        """Takes the game's start rule (:func:`chesslaws.server.rules.logged_rule` reads it from the log,
        :func:`chesslaws.server.rules.start_rule` writes it in the store's table; ``{}``: it starts as
        created)."""
        self.waiting = bool(rule.get("waiting"))
        self.abort_after = rule.get("abort_after")
        self.scheduled = bool(rule.get("scheduled"))
        self.held = self.waiting and bool(rule.get("held"))

    @property
    def seq(self) -> int:
        return len(self.game.events)

    @property
    def rule_in_log(self) -> bool:
        """Does the game's log carry its start rule (its changes then written as log events), rather than
        the store's ``game_starts`` table?"""
        return logged_rule(self.game) is not None

    def seat_of(self, token: str | None) -> Seat | None:
        """Which seat this token opens, or None."""
        return seat_of_token(self.token_hashes, token)


class Writer(Protocol):
    """What writes an event into a live game's log (:meth:`chesslaws.server.hub.Hub.apply_locked`): stamped,
    judged by the arbiter, committed, then applied in memory; the caller holds the game's lock. ``at``: the
    server's own events only, an instant already passed. Returns the acknowledgement, the new game and the
    event's t; refused with :class:`~chesslaws.server.errors.ApiError`."""

    async def apply_locked(self, live: LiveGame, kind: str, by: str, body: dict[str, Any], seat: Seat, *,
                           at: float | None = None) -> tuple[dict[str, Any], Game, float]: ...


__all__ = ["LiveGame", "SetAside", "Writer", "replay_lenient", "seat_of_token"]

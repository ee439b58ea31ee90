"""A new game, made without writing anything: its start, seats' tokens, stored record and start rule.

One rule for every way a game comes to be: a game created through the API (:meth:`Hub.create
<chesslaws.server.hub.Hub.create>`) and a tournament round's games, made together and written with their
round in one transaction (:mod:`chesslaws.tournament.rounds`, through
:class:`chesslaws.webapp.hubgames.HubGames`). Pure: no store, no clock, no event loop.
"""

from __future__ import annotations

import secrets
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from chesslaws.errors import InvalidInput
from chesslaws.game import Game
from chesslaws.server.rules import RULE_FIELDS, rule_fields
from chesslaws.store.games import GameRecord, hash_token


@dataclass(frozen=True, slots=True)
class NewGame:
    """One game, not yet written: its stored record, its start rule (``None``: it starts at once, as created;
    its log's ``start`` carries it), its game and its seats' tokens (given once, to whoever created it)."""

    record: GameRecord
    rule: dict[str, Any] | None
    game: Game
    tokens: dict[str, str]

    @property
    def id(self) -> str:
        return self.record.id


def new_game_id(taken: Container[str]) -> str:
    """A fresh game id (eight URL-safe characters, no '-' or '_'), not in ``taken``."""
    while True:
        gid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        if gid not in taken:
            return gid


def make_game(start: dict[str, Any], names: dict[str, str | None], interface: str, created_at: float,
              taken: Container[str], *, when_ready: bool = False, abort_after: float | None = None,
              presence: bool = False, held: bool = False, arbiter_token: bool = True) -> NewGame:
    """A new game from the fields of its start event.

    ``when_ready``: an online game whose t=0 comes when both players have opened it; ``abort_after``: it is
    aborted when the side to move makes no first move within that many seconds; ``presence``: the players are
    absent until they open it (a scheduled start, Article 6.7); ``held``: a tournament round's game, whose t=0
    comes when the arbiter starts the round; ``arbiter_token``: False, the game has no arbiter's token. A seat
    named in ``names`` gets a token; ``taken``: the ids the new one must not be.

    Raises :class:`InvalidInput` when the start makes no game, or gives less than one second for it."""
    start = {"type": "start", "t": 0, **start}
    online = interface == "online"
    held = held and online
    when_ready = when_ready and not held
    presence = presence and online and not when_ready
    if presence:
        start.setdefault("absent", ["white", "black"])  # present once they open the game (Hub.present)
    rule = ({"waiting": when_ready or held, "abort_after": abort_after, "scheduled": presence, "held": held}
            if online and (when_ready or abort_after is not None or presence or held) else None)
    for f in RULE_FIELDS:  # the start rule is the server's, written in the log's first line
        start.pop(f, None)
    start.update(rule_fields(rule))
    game = Game.from_start(start)
    tc = game.state.config.time_control
    if tc.periods and tc.periods[0].ms + tc.periods[0].increment_ms < 1000:
        raise InvalidInput(f"time_control: {tc} gives less than one second for the game")
    tokens: dict[str, str] = {"arbiter": secrets.token_urlsafe(24)} if arbiter_token else {}
    for seat in ("white", "black"):
        if names.get(seat):
            tokens[seat] = secrets.token_urlsafe(24)
    hashes: dict[str, str | None] = {s: (hash_token(tokens[s]) if s in tokens else None)
                                     for s in ("white", "black", "arbiter")}
    record = GameRecord(new_game_id(taken), created_at, interface, dict(names), hashes,
                        [game.events[0].to_json()])
    return NewGame(record, rule, game, tokens)

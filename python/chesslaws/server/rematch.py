"""A rematch at the end of a game: the same game again, colours swapped.

A player asks for it (``POST /api/games/{id}/rematch``, :mod:`chesslaws.webapp.games`): the first such call
creates the new game (the same edition, time control, arbiter, variant and position; against an engine, the
same engine at the same strength) and tells everyone watching the old game (a message of kind "rematch"); every player who calls it
gets his own seat's link in that one new game. ``GET /api/games/{id}/rematch`` says whether there is one.
A round of an event (a game whose start names its ``event`` and ``round``, as a tournament's do) has no
rematch: the pairings decide who plays whom. The state of a game names its rematch once there is one
(``"rematch"``) and its competition's event and round (``"competition"``).

The rematch keeps the start rule of the game it repeats (:func:`rematch_start`): a fair start waits for both
players again, ``abort_after`` aborts a rematch nobody begins (it does not end on time minutes later), and a
scheduled start is scheduled again, :data:`SCHEDULED_IN` seconds after the rematch is asked for, its players
absent until they open it.
The rematches are kept in the server's memory: after a restart a finished game offers a new one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from chesslaws.server.engines import EVENT, EnginePlayers, Strength
from chesslaws.server.hub import ApiError, Hub, LiveGame
from chesslaws.server.rules import competition, logged_rule
from chesslaws.store.rows import dumps

#: What a start line says about the game itself (kept in the rematch); names, the date, the round and the
#: start rule's fields are set anew.
_KEPT = ("edition", "time_control", "arbiter", "mode", "fen", "variant", "start_position", "quickplay_guidelines",
         "default_time", "event", "site", "fifty_move_limit", "supervision", "device_penalty", "clock")
#: What a start line says about each player by colour: the player keeps it when the colours swap.
_BY_COLOUR = ("visually_disabled", "assistant", "hearing_impaired")
#: Seconds from the request to the start of the rematch of a game that had a scheduled start.
SCHEDULED_IN = 60.0


@dataclass(frozen=True, slots=True)
class StartRule:
    """How a game starts, as :meth:`Hub.create` takes it."""

    when_ready: bool = False
    abort_after: float | None = None
    presence: bool = False
    start_in: float = 0.0


def rematch_start(live: LiveGame) -> tuple[dict[str, Any], StartRule]:
    """The start fields and the start rule of the rematch of ``live``: the same game, the players' colours
    swapped, started as it was (its log's ``wait``, ``abort_after`` and ``scheduled``; a game whose rule is
    kept in the store's table, as older servers kept it, starts fairly unless it was scheduled)."""
    first = live.game.events[0].to_json()
    start: dict[str, Any] = {k: first[k] for k in _KEPT if k in first}
    swap = {"white": "black", "black": "white"}
    for k in _BY_COLOUR:
        if isinstance(first.get(k), list):
            start[k] = sorted(swap.get(str(c), str(c)) for c in first[k])
    if live.interface != "online":
        return start, StartRule()
    if live.scheduled:
        return start, StartRule(abort_after=live.abort_after, presence=True, start_in=SCHEDULED_IN)
    if logged_rule(live.game) is not None:
        waited = first.get("wait") is not None
    else:  # no rule in the log: the store's table had the rule (a fair start), or the game had none
        waited = live.abort_after is not None
    return start, StartRule(when_ready=waited, abort_after=live.abort_after)


@dataclass(frozen=True, slots=True)
class Rematch:
    """The new game of a rematch and its players' tokens by seat."""

    game_id: str
    tokens: dict[str, str]


class Rematches:
    def __init__(self, hub: Hub, players: EnginePlayers) -> None:
        self.hub = hub
        self.players = players
        self.made: dict[str, Rematch] = {}
        self._lock = asyncio.Lock()

    async def ask(self, live: LiveGame, seat: str) -> Rematch:
        """The rematch of ``live`` (made on the first call)."""
        if live.game.state.status in ("ongoing", "adjourned"):
            raise ApiError(409, "the game is still in play: a rematch comes after its end")
        rnd = competition(live.game.state.config)
        if rnd is not None:
            raise ApiError(409, f"this game is round {rnd['round']} of {rnd['event']}: the pairings decide who "
                                "plays whom next, not a rematch")
        async with self._lock:
            done = self.made.get(live.id)
            if done is None:
                done = self.made[live.id] = await self._make(live)
                self.hub.views.rematches[live.id] = done.game_id  # the old game's state names it from now on
                msg = dumps({"kind": "rematch", "id": done.game_id, "by": seat})
                for sub in list(live.subscribers):
                    try:
                        sub.queue.put_nowait(msg)
                    except asyncio.QueueFull:
                        pass
        return done

    async def _make(self, live: LiveGame) -> Rematch:
        cfg = live.game.state.config
        first = live.game.events[0].to_json()
        start, rule = rematch_start(live)
        old = {"white": live.names.get("white") or cfg.white, "black": live.names.get("black") or cfg.black}
        if cfg.tags.get("event") == EVENT:  # against an engine: the same engine, the person takes the other colour
            for color, other in (("white", "black"), ("black", "white")):
                name = old[color] or ""
                for engine in self.players.info:
                    label = name[len(engine) + 2:-1] if name.startswith(engine + " (") and name.endswith(")") else ""
                    strength = Strength.from_label(label) if label else None
                    if strength is None:
                        continue
                    body: dict[str, Any] = {"engine": engine, "color": color, "name": old[other] or "You",
                                            "strength": {"kind": strength.kind, "value": strength.value},
                                            "time_control": str(first.get("time_control", "-")),
                                            "edition": str(first.get("edition", "2023")),
                                            "when_ready": rule.when_ready}
                    new, token, person = await self.players.new_game(body)
                    return Rematch(new.id, {person: token})
            raise ApiError(409, "the engine of this game is not on this server now: start a new game in the lobby")
        start.update({"white": old["black"] or "?", "black": old["white"] or "?"})
        names = {"white": live.names.get("black"), "black": live.names.get("white")}
        # Nobody is given the new game's arbiter's link (online): the game has none.
        new, tokens = await self.hub.create(start, names, live.interface, rule.start_in, when_ready=rule.when_ready,
                                            abort_after=rule.abort_after, presence=rule.presence,
                                            arbiter_token=live.interface != "online")
        return Rematch(new.id, tokens)


__all__ = ["SCHEDULED_IN", "Rematch", "Rematches", "StartRule", "rematch_start"]

"""A rematch at the end of a game: the same game again, colours swapped.

A player asks for it (``POST /api/games/{id}/rematch``, :mod:`chesslaws.webapp.games`): the first such call
creates the new game (the same edition, time control, arbiter, variant and position; against an engine, the
same engine at the same strength) and tells everyone watching the old game (a message of kind "rematch"); every player who calls it
gets his own seat's link in that one new game. ``GET /api/games/{id}/rematch`` says whether there is one.
A round of an event (a game whose start names its ``event`` and ``round``, as a tournament's do) has no
rematch: the pairings decide who plays whom.
The rematches are kept in the server's memory: after a restart a finished game offers a new one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from chesslaws.server.engines import EVENT, EnginePlayers, Strength
from chesslaws.server.hub import ApiError, Hub, LiveGame
from chesslaws.store.rows import dumps

#: What a start line says about the game itself (kept in the rematch); names and the rest are set anew.
_KEPT = ("edition", "time_control", "arbiter", "mode", "fen", "variant", "start_position", "quickplay_guidelines",
         "default_time", "event", "site")


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
        tags = live.game.state.config.tags
        if "round" in tags and "event" in tags and tags.get("event") != EVENT:  # a competition's game
            raise ApiError(409, f"this game is round {tags['round']} of {tags['event']}: the pairings decide who "
                                "plays whom next, not a rematch")
        async with self._lock:
            done = self.made.get(live.id)
            if done is None:
                done = self.made[live.id] = await self._make(live)
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
                                            "edition": str(first.get("edition", "2023"))}
                    new, token, person = await self.players.new_game(body)
                    return Rematch(new.id, {person: token})
            raise ApiError(409, "the engine of this game is not on this server now: start a new game in the lobby")
        start = {k: first[k] for k in _KEPT if k in first}
        start.update({"white": old["black"] or "?", "black": old["white"] or "?"})
        names = {"white": live.names.get("black"), "black": live.names.get("white")}
        # Nobody is given the new game's arbiter's link (online): the game has none.
        new, tokens = await self.hub.create(start, names, live.interface, when_ready=live.interface == "online",
                                            arbiter_token=live.interface != "online")
        return Rematch(new.id, tokens)


__all__ = ["Rematch", "Rematches"]

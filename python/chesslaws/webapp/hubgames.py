"""The hub as the tournaments see it (:class:`chesslaws.tournament.live.LiveGames`): the server's live games
handed to the tournament service by the layer that knows both, so that neither imports the other.

Also the start-up sweep of games that a pairing cut short left without their round (:func:`annul_orphans`).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

from chesslaws.game import Game
from chesslaws.server.hub import ApiError, Hub, LiveGame, replay_lenient
from chesslaws.store.db import is_outage
from chesslaws.server.newgame import NewGame, make_game
from chesslaws.tournament.boards import game_console
from chesslaws.store.tournaments import TournamentStore

log = logging.getLogger("chesslaws.server")


class HubGames:
    """:class:`~chesslaws.tournament.live.LiveGames` over a :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    @property
    def down_since(self) -> float | None:
        return self.hub.down_since

    def now(self) -> float:
        return self.hub.now()

    def ids(self) -> set[str]:
        return set(self.hub.games)

    def in_memory(self, game_id: str) -> LiveGame | None:
        return self.hub.games.get(game_id)

    def tags(self, game_id: str) -> Mapping[str, str]:
        live = self.hub.games.get(game_id)
        return live.game.state.config.tags if live is not None else {}

    async def game(self, game_id: str) -> LiveGame | None:
        live = self.hub.games.get(game_id)
        if live is None:
            try:
                live = await self.hub.fetch(game_id)
            except ApiError:  # set aside, or the database is down: the next look tries again
                return None
        return live

    async def settle(self, live: LiveGame) -> Game | None:
        return await self.hub.settle(live)

    async def final_view(self, game_id: str) -> dict[str, Any] | None:
        try:
            return await self.hub.final_view(game_id)
        except ApiError:
            return None

    async def start_held(self, live: LiveGame, at: float) -> bool:
        return await self.hub.start_held(live, at)

    def console(self, live: LiveGame) -> dict[str, Any]:
        return game_console(self.hub, live)

    async def refuse_while_down(self) -> None:
        # The hub's own check (it asks the store once more before refusing); it has no public name yet.
        await self.hub.refuse_while_down()

    def is_outage(self, err: BaseException) -> bool:
        return is_outage(err)

    def follow(self, on_game: Callable[[str], None], on_tournament: Callable[[str], None]) -> None:
        self.hub.watchers.append(on_game)
        self.hub.tournament_watchers.append(on_tournament)

    def announce_tournament(self, tid: str) -> None:
        self.hub.announce_tournament(tid)

    def make_game(self, start: dict[str, Any], names: dict[str, str | None], created_at: float, taken: set[str], *,
                  held: bool, presence: bool) -> NewGame:
        """A round's online game as ``Hub.create(start, names, "online", held=held, presence=presence)`` makes
        it (the one rule: :func:`chesslaws.server.newgame.make_game`), written nowhere."""
        return make_game(start, names, "online", created_at, taken, held=held, presence=presence)

    def adopt(self, game: NewGame) -> LiveGame:
        return self.hub.adopt(game)


def annul_orphans(store: TournamentStore) -> list[str]:
    """At the server's start: every game an older server's pairing left without its round
    (:meth:`TournamentStore.orphan_games`) that is still in play is annulled by the arbiter, with a line in
    the server's log, so that neither the lobby nor memory holds it as a game to play. Returns their ids."""
    done: list[str] = []
    try:
        orphans = store.orphan_games()
    except Exception as err:  # noqa: BLE001 - never fatal: looked for again at the next start
        log.warning("games left without their tournament round could not be looked for: %s", err)
        return done
    for gid, tid, rows in orphans:
        game, good, why = replay_lenient(rows)
        if game is None or why is not None or game.state.status not in ("ongoing", "adjourned"):
            continue  # over already, or set aside by the hub (its arbiter decides)
        line = {"type": "annul", "t": max(game.events[-1].t_ms / 1000, 0), "by": "arbiter",
                "reason": "its tournament round was never paired (the pairing that made it was cut short)"}
        try:
            event = game.apply(line).events[-1].to_json()
            store.append_event(gid, good, event)
        except Exception as err:  # noqa: BLE001 - never fatal: the game stays as it was, named
            log.warning("tournament %s: game %s belongs to no round of it; it could not be annulled: %s", tid, gid,
                        err)
            continue
        log.warning("tournament %s: game %s belongs to no round of it (a pairing cut short by an older server): "
                    "annulled", tid, gid)
        done.append(gid)
    return done


__all__ = ["HubGames", "annul_orphans"]

"""A tournament round's games, made in memory and written with the round in one transaction.

:meth:`Hub.create <chesslaws.server.hub.Hub.create>` writes one game at a time, each in its own transaction:
a round paired that way by two processes at once, or cut short by a kill or an outage, left games without
their round (issue 36). Here a round's games are made first without writing anything (:func:`make_game`, the
same start, seats and start rule as ``Hub.create`` gives a round's online game), then written together with
the round (:meth:`TournamentStore.pair_round <chesslaws.store.tournaments.TournamentStore.pair_round>`), and
only once that is committed put in the hub's memory and scheduled (:func:`adopt`): a pairing that loses, or
fails, leaves nothing anywhere.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from chesslaws.errors import ChessLawsError
from chesslaws.server.newgame import NewGame
from chesslaws.server.newgame import make_game as new_game
from chesslaws.tournament.model import TournamentError

log = logging.getLogger("chesslaws.server")

#: Games put in the hub's memory between two yields to the event loop (a 540-board round: 9 slices).
_SLICE = 64


def make_game(start: dict[str, Any], names: dict[str, str | None], created_at: float, taken: set[str], *,
              held: bool, presence: bool) -> NewGame:
    """A round's online game as ``Hub.create(start, names, "online", held=held, presence=presence)`` makes it
    (one rule: :func:`chesslaws.server.newgame.make_game`), written nowhere; its id joins ``taken``. Raises
    :class:`TournamentError` if the event's start cannot make a game."""
    try:
        game = new_game(start, names, "online", created_at, taken, held=held, presence=presence)
    except ChessLawsError as err:
        raise TournamentError(str(err)) from None
    taken.add(game.id)
    return game


async def adopt(hub: Any, games: list[NewGame]) -> list[Any]:
    """The round's games, committed with their round, in the hub's memory and on its clock (a slice at a time,
    the event loop served between slices). Returns them as the hub's live games."""
    out: list[Any] = []
    for i, g in enumerate(games):
        out.append(hub.adopt(g))
        if (i + 1) % _SLICE == 0:
            await asyncio.sleep(0)
    return out


def annul_orphans(store: Any) -> list[str]:
    """At the server's start: every game an older server's pairing left without its round
    (:meth:`TournamentStore.orphan_games`) that is still in play is annulled by the arbiter, with a line in
    the server's log, so that neither the lobby nor memory holds it as a game to play. Returns their ids."""
    from chesslaws.server.hub import replay_lenient

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

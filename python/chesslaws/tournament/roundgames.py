"""A tournament round's games, made in memory and written with the round in one transaction.

:meth:`Hub.create <chesslaws.server.hub.Hub.create>` writes one game at a time, each in its own transaction:
a round paired that way by two processes at once, or cut short by a kill or an outage, left games without
their round (issue 36). Here a round's games are made first without writing anything (:func:`make_game`, the
same start, seats and start rule as ``Hub.create`` gives a round's online game), then written together with
the round (:meth:`TournamentStore.pair_round <chesslaws.tournament.store.TournamentStore.pair_round>`), and
only once that is committed put in the hub's memory and scheduled (:func:`adopt`): a pairing that loses, or
fails, leaves nothing anywhere.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from chesslaws.game import Game
from chesslaws.server.store import GameRecord, hash_token
from chesslaws.tournament.model import TournamentError

log = logging.getLogger("chesslaws.server")

#: Games put in the hub's memory between two yields to the event loop (a 540-board round: 9 slices).
_SLICE = 64


@dataclass(frozen=True)
class RoundGame:
    """One board's game, not yet written: its stored record and start rule, its game and its seats' tokens."""

    record: GameRecord
    rule: dict[str, Any] | None
    game: Game
    tokens: dict[str, str]

    @property
    def id(self) -> str:
        return self.record.id


def new_game_id(taken: set[str]) -> str:
    """A fresh game id (as ``Hub.create`` makes them), not in ``taken`` (which it joins)."""
    while True:
        gid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        if gid not in taken:
            taken.add(gid)
            return gid


def make_game(start: dict[str, Any], names: dict[str, str | None], created_at: float, taken: set[str], *,
              held: bool, presence: bool) -> RoundGame:
    """A round's online game as ``Hub.create(start, names, "online", held=held, presence=presence)`` makes it,
    written nowhere. Raises :class:`TournamentError` if the event's start cannot make a game."""
    from chesslaws.errors import ChessLawsError

    start = {"type": "start", "t": 0, **start}
    if presence:
        start.setdefault("absent", ["white", "black"])  # present once they open the game (Hub.present)
    try:
        game = Game.from_start(start)
    except ChessLawsError as err:
        raise TournamentError(str(err)) from None
    tc = game.state.config.time_control
    if tc.periods and tc.periods[0].ms + tc.periods[0].increment_ms < 1000:
        raise TournamentError(f"time_control: {tc} gives less than one second for the game")
    tokens = {"arbiter": secrets.token_urlsafe(24)}
    for seat in ("white", "black"):
        if names.get(seat):
            tokens[seat] = secrets.token_urlsafe(24)
    hashes: dict[str, str | None] = {s: (hash_token(tokens[s]) if s in tokens else None)
                                     for s in ("white", "black", "arbiter")}
    gid = new_game_id(taken)
    rule = ({"waiting": held, "abort_after": None, "scheduled": presence, "held": held}
            if presence or held else None)  # Hub._rule of such a game
    record = GameRecord(gid, created_at, "online", dict(names), hashes, [game.events[0].to_json()])
    return RoundGame(record, rule, game, tokens)


async def adopt(hub: Any, games: list[RoundGame]) -> list[Any]:
    """The round's games, committed with their round, in the hub's memory and on its clock (a slice at a time,
    the event loop served between slices). Returns them as the hub's live games."""
    from chesslaws.server.hub import LiveGame

    out: list[Any] = []
    for i, g in enumerate(games):
        r = g.record
        live = LiveGame(r.id, r.created_at, r.interface, dict(r.names), dict(r.token_hashes), g.game)
        if g.rule is not None:
            live.waiting = bool(g.rule["waiting"])
            live.held = bool(g.rule["held"])
            live.abort_after = g.rule["abort_after"]
            live.scheduled = bool(g.rule["scheduled"])
        hub.games[r.id] = live
        hub.schedule(live)
        out.append(live)
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

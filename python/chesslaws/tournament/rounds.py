"""Pairing a round, the one way the ``chesslaws tournament pair`` command and the live server both do it:
order by rating (before round 1 of a Swiss, C.04.2; an imported file's numbers are kept), pair the next round, save.

On the live server a round also has its games: they are made first without writing anything (through
:class:`RoundGames`, which the server's hub provides: the same start, seats and start rule as any online game),
their tokens sealed for the arbiter and for each player, and written with the round in one transaction
(:func:`save_round`); only once that is committed are they taken into play (:func:`adopt`). A pairing that
loses to another process, or fails, leaves nothing anywhere.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Generic, Mapping, Protocol, Sequence, TypeVar

from chesslaws.errors import ChessLawsError
from chesslaws.tournament.boards import seal
from chesslaws.tournament.model import Tournament, TournamentError
from chesslaws.tournament.pairing import SwissEngine, pair_next_round
from chesslaws.store.tournaments import TournamentStore

#: Games taken into play between two yields to the event loop (a 540-board round: 9 slices).
SLICE = 64


class MadeGame(Protocol):
    """A game made for a board, not yet written: its id, its seats' tokens (given once), and what the store
    writes of it (its record, whose log's first line carries its start rule)."""

    @property
    def id(self) -> str: ...

    @property
    def tokens(self) -> Mapping[str, str]: ...

    @property
    def record(self) -> Any: ...


G = TypeVar("G", bound=MadeGame)


class RoundGames(Protocol[G]):
    """How a round's games come to be on the live server."""

    def make_game(self, start: dict[str, Any], names: dict[str, str | None], created_at: float,
                  taken: set[str], *, held: bool, presence: bool) -> G:
        """An online game from the fields of its start event, written nowhere, its id not in ``taken``.
        ``held``: its t=0 comes when the arbiter starts the round; ``presence``: the players are absent until
        they open it. Raises :class:`chesslaws.errors.ChessLawsError` if the start makes no game."""
        ...

    def adopt(self, game: G) -> Any:
        """The game, committed with its round, in play (in memory and on the clock)."""
        ...


def paired(t: Tournament, engine: SwissEngine | None = None) -> Tournament:
    """The event with its next round paired (``engine``: a Swiss's, by default bbpPairings when found); before
    round 1 of a Swiss the players are first numbered by rating (C.04.2), unless their numbers were given with
    them (an imported file's: :attr:`Tournament.numbered`)."""
    if not t.rounds and t.regulations.system == "swiss" and not t.numbered:
        t = t.order_by_rating()
    return pair_next_round(t, engine)


@dataclass(frozen=True)
class RoundMade(Generic[G]):
    """A paired round's games, made and not written: the event with each board's game id, whether the round is
    played on the server (``live``; False: at the boards, without games), the games in board order, each game's arbiter token sealed with the event arbiter's (game id, sealed), and each seat's token
    sealed for the arbiter and for the player (game id, seat, for the arbiter, for the player)."""

    tournament: Tournament
    live: bool = True
    games: list[G] = field(default_factory=list)
    game_keys: list[tuple[str, str]] = field(default_factory=list)
    seat_keys: list[tuple[str, str, str, str]] = field(default_factory=list)


def make_games(t: Tournament, maker: RoundGames[G], created_at: float, taken: set[str], *, held: bool,
               arbiter: str, players: Mapping[int, str]) -> RoundMade[G]:
    """The games of the last round of ``t`` (just paired), made by ``maker`` with the event's regulations in
    their start events, written nowhere; ``arbiter``: the event arbiter's token, ``players``: each player's own
    token by start number (the seats' tokens are sealed with both). Their ids join ``taken``. Raises
    :class:`TournamentError` if the event's start cannot make a game. Pure: call it on a thread (540 boards
    take a while)."""
    rnd = t.rounds[-1]
    games: list[G] = []
    game_keys: list[tuple[str, str]] = []
    seat_keys: list[tuple[str, str, str, str]] = []
    for b in rnd.boards:
        white, black = t.player(b.white), t.player(b.black)
        start = t.regulations.start_event(white=white.name, black=black.name, round_number=rnd.number, event=t.name)
        start.pop("type")
        start.pop("t")
        try:
            g = maker.make_game(start, {"white": white.name, "black": black.name}, created_at, taken, held=held,
                                presence=held)
        except ChessLawsError as err:
            raise TournamentError(str(err)) from None
        taken.add(g.id)
        games.append(g)
        t = t.set_game_id(rnd.number, b.table, g.id)
        game_keys.append((g.id, seal(g.tokens["arbiter"], arbiter, g.id)))
        for seat, sn in (("white", b.white), ("black", b.black)):
            salt = f"{g.id}:{seat}"
            seat_keys.append((g.id, seat, seal(g.tokens[seat], arbiter, salt), seal(g.tokens[seat], players[sn], salt)))
    return RoundMade(t, True, games, game_keys, seat_keys)


def save_round(store: TournamentStore, before: Tournament, made: RoundMade[Any]) -> Tournament:
    """The paired round written, on the condition that the event is still as it was read (``before``): else
    nothing is written and :class:`~chesslaws.tournament.model.StaleTournament` (or its
    :class:`~chesslaws.store.tournaments.RoundPairedMeanwhile`) says why. A round with games (the live server's)
    is written with them in one transaction; a round without (played at the boards: the ``pair`` command, on a
    database that may hold no games at all) is the event alone. Returns the event as stored."""
    if not made.live:
        return store.save(made.tournament)
    return store.pair_round(made.tournament, before.version, [(g.record, None) for g in made.games],
                            made.game_keys, made.seat_keys)


async def adopt(maker: RoundGames[G], games: Sequence[G]) -> list[Any]:
    """The round's games, committed with their round, in play, a slice at a time (the event loop served
    between slices). Returns what ``maker.adopt`` returns for each (the hub's live games)."""
    out: list[Any] = []
    for i, g in enumerate(games):
        out.append(maker.adopt(g))
        if (i + 1) % SLICE == 0:
            await asyncio.sleep(0)
    return out


__all__ = ["G", "MadeGame", "RoundGames", "RoundMade", "adopt", "make_games", "paired", "save_round"]

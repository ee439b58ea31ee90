"""Tournaments on the live server: a round's games created from its pairings, results flowing back.

:class:`LiveTournaments` is the service behind the tournament routes (:mod:`chesslaws.webapp.tournaments`),
over the event's store and the server's live games, which it sees only through :class:`LiveGames` (the hub
as the web layer hands it over). It refuses with :class:`~chesslaws.refused.Refused` (an HTTP status and a
message).

Every ending reaches the standings by itself: the hub tells the tournaments of every change of a game
(``watchers``), and a game that is over (which includes a flag fall observed and the default time, read from
the log and the clock) gives its board its result; every read of the event does the same (after a restart, on
another process of the same database).

A round is paired by :mod:`chesslaws.tournament.rounds` (the one way, the ``pair`` command's too): the round,
its games and their keys are one transaction, so that a second process pairing it at the same instant writes
nothing (409) and a kill or an outage leaves the whole round or nothing. It starts fairly by default (held):
its clocks start when the arbiter starts it or at ``start_in`` seconds after pairing, and a player who does
not come is decided by the default time.

Each seat's token is kept sealed twice: with the tournament arbiter's token (the console shows every seat
link) and with the player's own token (the player's page shows the current game's link). Each game's arbiter
token is kept only sealed with the tournament arbiter's token (XOR with an HMAC-SHA256 key stream of that
token and the game id): the server keeps the hash of the one and cannot open the other without it.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
from typing import Any, Callable, Mapping, Protocol, TypeVar

from chesslaws.errors import WrongState
from chesslaws.game import Game
from chesslaws.refused import Refused
from chesslaws.regulations import Regulations as GameRegulations
from chesslaws.store.games import hash_token
from chesslaws.tournament.boards import (ANNULLED, BoardOutcome, board_of_game, retired_console, seal, unseal,
                                         with_board_outcome)
from chesslaws.tournament.model import Regulations, Scoring, StaleTournament, Tournament, TournamentError
from chesslaws.tournament.reads import EventReads, Made, render, stored_version
from chesslaws.tournament.rounds import G, RoundGames, adopt, make_games, paired, save_round
from chesslaws.store.tournaments import RoundPairedMeanwhile, TournamentStore
from chesslaws.tournament.tiebreaks import crosstable, standings

log = logging.getLogger("chesslaws.server")

T = TypeVar("T")
#: Seconds between a game's change and the tournament's look at it (changes close together make one look).
SETTLE = 0.1
#: Seconds between two looks at an event's unfinished games asked for by reads of it.
READ_LOOK = 5.0
#: Bodies of events' reads kept (JSON and TRF count one each): an event of 3,000 players x 40 rounds is several MB.
READS_KEPT = 16
#: Seconds a client is told to wait (Retry-After) while the database is unreachable.
RETRY_AFTER_OUTAGE = 2

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class LiveGames(RoundGames[G], Protocol[G]):
    """The server's live games as the tournaments use them: made and taken into play a round at a time
    (:class:`~chesslaws.tournament.rounds.RoundGames`), followed as they change, read as they stand. A live
    game is the hub's own object, passed back to it as it came."""

    @property
    def down_since(self) -> float | None:
        """Since when the game store has been unreachable (None: it answers)."""
        ...

    def now(self) -> float:
        """The server's clock (unix seconds)."""
        ...

    def ids(self) -> set[str]:
        """The ids of the games in memory."""
        ...

    def in_memory(self, game_id: str) -> Any | None:
        """The game if it is in memory, else None."""
        ...

    def tags(self, game_id: str) -> Mapping[str, str]:
        """The tags of a game in memory (empty if it is not)."""
        ...

    async def game(self, game_id: str) -> Any | None:
        """The game, loaded back into memory if it ended and left it (None if it cannot be had now)."""
        ...

    async def settle(self, live: Any) -> Game | None:
        """The game as it ended, its ending written into its log first, or None while it is in play."""
        ...

    async def final_view(self, game_id: str) -> dict[str, Any] | None:
        """The stored final state of a game out of memory (None: none, or not to be had now)."""
        ...

    async def start_held(self, live: Any, at: float) -> bool:
        """A held game's t=0 set to ``at``; False if it was not held."""
        ...

    def console(self, live: Any) -> dict[str, Any]:
        """The game as the round's arbiter console shows it."""
        ...

    async def refuse_while_down(self) -> None:
        """Raises the outage's 503 while the game store is unreachable."""
        ...

    def is_outage(self, err: BaseException) -> bool:
        """Is ``err`` the database being unreachable?"""
        ...

    def follow(self, on_game: Callable[[str], None], on_tournament: Callable[[str], None]) -> None:
        """``on_game(game id)`` on every change of a game, ``on_tournament(id)`` on every change another process
        announced of a tournament."""
        ...

    def announce_tournament(self, tid: str) -> None:
        """Tells the other processes of the database that the tournament changed."""
        ...


def check_tid(tid: str, what: str = "") -> None:
    """Tournament ids are short hex tokens: anything else (a NUL, which PostgreSQL refuses in text, or a stray
    character) names no tournament and never reaches the store."""
    if not TOURNAMENT_ID.fullmatch(tid):
        shown = tid[:40].encode("unicode_escape").decode("ascii")
        raise Refused(404, f"{what}no tournament {shown!r}")


def view(t: Tournament) -> dict[str, Any]:
    """The event as its page and the API show it: regulations, players, rounds, standings, crosstable."""
    names = {p.start_number: p.name for p in t.players}
    return {
        "id": t.id, "name": t.name, "regulations": t.regulations.to_json(),
        "total_rounds": t.total_rounds, "finished": t.finished,
        "players": [p.to_json() for p in t.players],
        "rounds": [{"number": r.number, "complete": r.complete,
                    "boards": [{"table": b.table, "white": b.white, "black": b.black,
                                "white_name": names[b.white], "black_name": names[b.black],
                                "result": b.result, "termination": b.termination, "game_id": b.game_id,
                                "game": f"/game/{b.game_id}" if b.game_id else None} for b in r.boards],
                    "byes": [{"player": y.player, "name": names[y.player], "kind": y.kind} for y in r.byes]}
                   for r in t.rounds],
        "standings": [s.to_json() for s in standings(t)],
        "crosstable": [{"start_number": int(row[0]), "name": row[1], "rating": row[2], "rounds": row[3:-1],
                        "points": row[-1]} for row in crosstable(t)],
    }


class LiveTournaments:
    """The tournaments of one server process: their store, the games of their rounds, and the pages that
    follow them (``listen``)."""

    def __init__(self, store: TournamentStore, games: LiveGames[Any]) -> None:
        self.store = store
        self.games = games
        self.lock = asyncio.Lock()
        # Which tournament a game belongs to (None: none), learnt on the first change of each game.
        self.game_tid: dict[str, str | None] = {}
        self.listeners: dict[str, set[asyncio.Queue[str]]] = {}  # tournament id -> the open sockets' queues
        self.due: set[str] = set()  # tournaments with a look pending
        self.reads = EventReads(self._make, self.poke, kept=READS_KEPT, look_every=READ_LOOK)
        games.follow(self.watch, lambda tid: self.notify(tid, everywhere=False))

    # --- the store, off the event loop -----------------------------------------------------------------
    async def db(self, fn: Callable[[], T]) -> T:
        """A call of the tournament store on a thread; an unreachable database answers 503."""
        try:
            return await asyncio.to_thread(fn)
        except (TournamentError, Refused):
            raise
        except Exception as err:
            if self.games.is_outage(err):
                raise Refused(503, "the tournament store is unreachable: nothing was recorded; try again in a "
                                   "moment", retry_after=RETRY_AFTER_OUTAGE) from None
            raise

    async def load(self, tid: str) -> Tournament:
        check_tid(tid)
        try:
            return await self.db(lambda: self.store.load(tid))
        except TournamentError:
            # The store's message names the database (for the command line): a client is told the id alone.
            raise Refused(404, f"no tournament {tid!r}") from None

    async def synced(self, tid: str) -> Tournament:
        """The event with every board whose game ended given its result (under the lock)."""
        async with self.lock:
            return await self.sync(await self.load(tid))

    # --- results from the games ---------------------------------------------------------------------------
    def learn(self, t: Tournament) -> None:
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.game_id:
                    self.game_tid[b.game_id] = t.id

    async def sync(self, t: Tournament) -> Tournament:
        """The boards' results from their games, through one function of the game's final state
        (:func:`board_of_game`) whatever ended or changed it: mate, resignation, agreement, a flag fall
        observed, the default time, the arbiter's decision, and after the end the scoresheets both players
        signed with another result (2023 8.7: it stands, even if incorrect) or an annulment (the board has no
        result then: the arbiter enters it). A board whose result the arbiter entered for an annulled game
        keeps it; a game out of memory has not changed since its board was given its result."""
        self.learn(t)
        changed: list[tuple[int, int, str, Any, Any, BoardOutcome]] = []  # (round, table, id, seen, game, new)
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.game_id is None or (b.result is not None and (
                        b.termination == ANNULLED or self.games.in_memory(b.game_id) is None)):
                    continue
                live = await self.games.game(b.game_id)
                ended = await self.games.settle(live) if live is not None else None
                if live is None or ended is None:
                    continue
                outcome = board_of_game(ended)
                if outcome == (b.result, b.termination):
                    continue
                if outcome[0] is not None:
                    lines = live.game.log_lines()
                    number, table, tid = rnd.number, b.table, t.id
                    await self.db(lambda: self.store.save_game_log(tid, number, table, lines))
                changed.append((rnd.number, b.table, b.game_id, (b.result, b.termination), ended, outcome))
        if not changed:
            return t

        def take(fresh: Tournament) -> Tournament:
            """The results on the event as stored now (another process may have saved meanwhile: its own
            changes stay, and a board it changed since keeps its result)."""
            for number, table, gid, seen, ended, outcome in changed:
                board = next((b for b in fresh.round(number).boards if b.table == table), None)
                if board is not None and board.game_id == gid and (board.result, board.termination) == seen:
                    if outcome[0] is not None:
                        fresh.check_game_regulations(ended)
                    fresh = with_board_outcome(fresh, number, table, outcome)
            return fresh

        tid = t.id
        t = await self.db(lambda: self.store.update(tid, take))
        self.notify(t.id)
        return t

    def notify(self, tid: str, *, everywhere: bool = True) -> None:
        """The event changed: its open pages here read it again, and (``everywhere``) those of the other
        processes of the database (a page served by another process has no other way to learn of a round
        paired or started here, nor of a result taken from a game it never loaded)."""
        for q in list(self.listeners.get(tid, ())):
            if q.empty():
                q.put_nowait("changed")
        if everywhere:
            self.games.announce_tournament(tid)

    async def look(self, tid: str) -> None:
        await asyncio.sleep(SETTLE)
        self.due.discard(tid)
        try:
            await self.synced(tid)
        except Exception as err:  # noqa: BLE001 - the next change or read looks again
            if not isinstance(err, Refused):
                log.exception("tournament %s: results not taken", tid)
        self.notify(tid, everywhere=False)  # a game changed: other processes hear of it (sync announces results)

    async def find(self, game_id: str) -> None:
        try:
            tid = await self.db(lambda: self.store.tournament_of_game(game_id))
        except Exception:  # noqa: BLE001 - asked again on its next change
            self.game_tid.pop(game_id, None)
            return
        self.game_tid[game_id] = tid
        if tid is not None:
            self.poke(tid)

    def poke(self, tid: str) -> None:
        if tid not in self.due:
            self.due.add(tid)
            asyncio.ensure_future(self.look(tid))

    def watch(self, game_id: str) -> None:
        """A game changed (a move, an ending, a flag fall observed, an arrival): its tournament looks."""
        if game_id not in self.game_tid:
            if self.games.down_since is not None:  # the database is away: asked on its next change
                return
            self.game_tid[game_id] = None  # until known
            tags = self.games.tags(game_id)
            if "round" not in tags or "event" not in tags:  # a tournament's games name both: no need to ask
                return
            asyncio.ensure_future(self.find(game_id))
            return
        tid = self.game_tid[game_id]
        if tid is not None:
            self.poke(tid)

    # --- tokens ------------------------------------------------------------------------------------------
    async def arbiter_of(self, tid: str, token: str | None) -> str:
        """The event arbiter's token, if ``token`` is it (403 otherwise)."""
        stored = await self.db(lambda: self.store.arbiter_token_hash(tid))
        if token is None or stored is None or not hmac.compare_digest(stored, hash_token(token)):
            raise Refused(403, "the tournament arbiter's token is required (Authorization: Bearer TOKEN)")
        return token

    async def player_tokens(self, t: Tournament, arbiter: str) -> dict[int, str]:
        """Every player's own token (made for those who have none yet, in one write that never replaces a token
        given meanwhile by another request or process), opened with the arbiter's."""
        keys = await self.db(lambda: self.store.player_keys(t.id))
        missing = [p.start_number for p in t.players if p.start_number not in keys]
        if missing:
            rows = [(n, hash_token(tok), seal(tok, arbiter, f"{t.id}:player:{n}"))
                    for n, tok in ((n, secrets.token_urlsafe(18)) for n in missing)]
            keys = await self.db(lambda: self.store.add_player_keys(t.id, rows))
        return {n: unseal(keys[n][1], arbiter, f"{t.id}:player:{n}") for n in sorted(keys)}

    # --- reads ---------------------------------------------------------------------------------------------
    async def _make(self, tid: str, kind: str) -> Made:
        t = await self.synced(tid)
        return await asyncio.to_thread(render, t, kind, view)

    async def read(self, tid: str, kind: str) -> bytes:
        """The event's body for an anonymous read ("json" or "trf"): made once per stored version, off the
        event loop (:class:`reads.EventReads`)."""
        check_tid(tid)
        version = await self.db(lambda: stored_version(self.store, tid))
        if version is None:  # a name rather than an id, or no such event: made afresh, never kept (404 if none)
            return (await self._make(tid, kind))[1]
        return await self.reads.read(tid, kind, version)

    async def page(self, limit: int, before: str | None) -> list[dict[str, Any]]:
        """The events, the latest changed first, ``limit`` at a time after the event ``before``."""
        if before is not None:
            check_tid(before, "before: ")
        rows = await self.db(lambda: self.store.page(limit, before))
        if rows is None:
            raise Refused(404, f"before: no tournament {before!r}")
        return [{"id": tid, "name": t.name, "system": t.regulations.system, "edition": t.regulations.edition,
                 "time_control": t.regulations.time_control, "players": len(t.players),
                 "total_rounds": t.total_rounds, "paired_rounds": len(t.rounds), "finished": t.finished,
                 "updated_at": updated, "page": f"/tournament/{tid}"} for tid, updated, t in rows]

    async def of_game(self, game_id: str) -> dict[str, Any]:
        """The event, round and table of a tournament's game: its page links back to the event (and offers no
        rematch, the pairings deciding who plays whom)."""
        if not TOURNAMENT_ID.fullmatch(game_id):
            raise Refused(404, "no such game")
        tid = self.game_tid.get(game_id) if game_id in self.game_tid else \
            await self.db(lambda: self.store.tournament_of_game(game_id))
        if tid is None:
            raise Refused(404, f"game {game_id!r} is no tournament's")
        t = await self.load(tid)
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.game_id == game_id:
                    return {"id": t.id, "name": t.name, "round": rnd.number, "table": b.table,
                            "page": f"/tournament/{t.id}"}
        raise Refused(404, f"game {game_id!r} is no tournament's")

    async def listen(self, tid: str) -> asyncio.Queue[str]:
        """A queue that gets "changed" whenever a game of the event or the event changes (one pending message
        at most: never more than the reader reads); :meth:`unlisten` when done."""
        self.learn(await self.load(tid))
        q: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self.listeners.setdefault(tid, set()).add(q)
        return q

    def unlisten(self, tid: str, q: asyncio.Queue[str]) -> None:
        self.listeners.get(tid, set()).discard(q)

    async def player_view(self, tid: str, number: int, token: str | None, base: str) -> dict[str, Any]:
        """A player's own view (his token): the current game's link, his games and results, his standing."""
        keys = await self.db(lambda: self.store.player_keys(tid))
        key = keys.get(number)
        if token is None or key is None or not hmac.compare_digest(key[0], hash_token(token)):
            raise Refused(403, "this player's own link is required (Authorization: Bearer TOKEN from the link)")
        t = await self.synced(tid)
        seats = await self.db(lambda: self.store.seat_keys(tid))
        me = t.player(number)
        games: list[dict[str, Any]] = []
        for rnd in t.rounds:
            for b in rnd.boards:
                if number not in (b.white, b.black):
                    continue
                color = "white" if b.white == number else "black"
                other = t.player(b.black if color == "white" else b.white)
                got = seats.get((b.game_id, color)) if b.game_id else None
                link = None
                if got is not None and b.game_id:
                    link = f"{base}game/{b.game_id}#token=" + unseal(got[1], token, f"{b.game_id}:{color}")
                games.append({"round": rnd.number, "table": b.table, "color": color,
                              "opponent": {"start_number": other.start_number, "name": other.name,
                                           "rating": other.rating},
                              "result": b.result, "termination": b.termination, "link": link})
            for y in rnd.byes:
                if y.player == number:
                    games.append({"round": rnd.number, "bye": y.kind})
        current = next((g for g in games if g["round"] == len(t.rounds) and "bye" not in g
                        and g["result"] is None), None)
        table = await asyncio.to_thread(standings, t)  # not on the loop: 0.4 s for 1,000 players x 11 rounds
        row = next((s for s in table if s.start_number == number), None)
        return {"id": t.id, "name": t.name, "player": me.to_json(), "paired_rounds": len(t.rounds),
                "total_rounds": t.total_rounds, "finished": t.finished, "current": current, "games": games,
                "standing": row.to_json() if row else None, "page": f"{base}tournament/{t.id}"}

    async def console(self, tid: str, token: str | None, number: int | None, base: str) -> dict[str, Any]:
        """The round's arbiter console (round ``number``, by default the last paired): every board's game as it
        stands, with every seat's link and each game's arbiter link."""
        arbiter = await self.arbiter_of(tid, token)
        t = await self.synced(tid)
        number = number if number is not None else len(t.rounds)
        if t.rounds and not 1 <= number <= len(t.rounds):
            raise Refused(404, f"round {number}: not paired (rounds 1..{len(t.rounds)})")
        keys = await self.db(lambda: self.store.game_keys(t.id))
        seats = await self.db(lambda: self.store.seat_keys(t.id))
        mine = await self.player_tokens(t, arbiter) if t.rounds else {}
        boards: list[dict[str, Any]] = []
        count = {"boards": 0, "in_play": 0, "finished": 0, "to_decide": 0, "pending": 0, "clocks_stopped": 0,
                 "held": 0, "absent": 0}
        rnd = t.rounds[number - 1] if t.rounds else None

        def seat_link(gid: str, seat: str) -> str | None:
            got = seats.get((gid, seat))
            return f"{base}game/{gid}#token={unseal(got[0], arbiter, f'{gid}:{seat}')}" if got else None

        for b in rnd.boards if rnd else ():
            white, black = t.player(b.white), t.player(b.black)
            row: dict[str, Any] = {
                "table": b.table,
                "white": {"start_number": b.white, "name": white.name, "rating": white.rating,
                          "link": seat_link(b.game_id, "white") if b.game_id else None},
                "black": {"start_number": b.black, "name": black.name, "rating": black.rating,
                          "link": seat_link(b.game_id, "black") if b.game_id else None},
                "result": b.result, "termination": b.termination, "game_id": b.game_id, "game": None,
                "arbiter": None, "spectator": f"{base}game/{b.game_id}" if b.game_id else None,
            }
            if b.game_id:
                sealed = keys.get(b.game_id)
                if sealed:
                    row["arbiter"] = f"{base}game/{b.game_id}#token={unseal(sealed, arbiter, b.game_id)}"
                live = self.games.in_memory(b.game_id)
                if live is None and b.result is not None:  # over and out of memory: its stored final view
                    final = await self.games.final_view(b.game_id)
                    row["game"] = retired_console(final) if final else None
                else:
                    live = live or await self.games.game(b.game_id)
                    row["game"] = self.games.console(live) if live is not None else None
            g = row["game"]
            count["boards"] += 1
            if b.result is not None:
                count["finished"] += 1
            elif g is not None and g["status"] in ("ongoing", "adjourned"):
                count["in_play"] += 1
            if g is not None:
                count["to_decide"] += bool(g["to_decide"])
                count["pending"] += len(g["pending"])
                count["clocks_stopped"] += g["clocks_stopped"]
                count["held"] += bool(g.get("held")) and g["status"] == "ongoing"
                if g["status"] == "ongoing" and not g["started"]:
                    count["absent"] += len(g["absent"])
            boards.append(row)
        return {"id": t.id, "name": t.name, "regulations": t.regulations.to_json(), "total_rounds": t.total_rounds,
                "paired_rounds": len(t.rounds), "round": number if rnd else 0,
                "complete": bool(rnd and rnd.complete), "finished": t.finished, "server_t": self.games.now(),
                "can_pair": (not t.rounds or t.rounds[-1].complete) and len(t.rounds) < t.total_rounds,
                "page": f"{base}tournament/{t.id}", "sheet": f"{base}tournament/{t.id}/sheet",
                "counts": count, "boards": boards,
                "players": [{"start_number": p.start_number, "name": p.name, "rating": p.rating,
                             "withdrawn_from": p.withdrawn_from,
                             "page": (f"{base}tournament/{t.id}/player/{p.start_number}#token={mine[p.start_number]}"
                                      if p.start_number in mine else None)} for p in t.players],
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind}
                         for y in (rnd.byes if rnd else ())]}

    # --- changes ---------------------------------------------------------------------------------------------
    async def create(self, t: Tournament, base: str) -> dict[str, Any]:
        """A new event, and its arbiter's token (shown once)."""
        token = secrets.token_urlsafe(24)
        async with self.lock:
            t = await self.db(lambda: self.store.save(t))
            await self.db(lambda: self.store.set_arbiter_token_hash(t.id, hash_token(token)))
        return {"id": t.id, "arbiter_token": token, "page": f"{base}tournament/{t.id}",
                "console": f"{base}tournament/{t.id}/arbiter#token={token}", **view(t)}

    async def add_player(self, tid: str, token: str | None, name: str, rating: int, title: str, federation: str,
                         fide_id: str) -> dict[str, Any]:
        """A player registered by the event's arbiter (before round 1 is paired)."""
        await self.arbiter_of(tid, token)

        def register(t: Tournament) -> Tournament:
            if len(t.players) >= 2000:
                raise Refused(409, "the event has 2000 players: no more can be registered")
            return t.add_player(name, rating, title, federation, fide_id)

        async with self.lock:
            await self.load(tid)
            try:
                t = await self.db(lambda: self.store.update(tid, register))
            except (TournamentError, WrongState) as err:
                raise Refused(409 if isinstance(err, WrongState) else 422, str(err)) from None
        self.notify(t.id)
        return {"start_number": t.players[-1].start_number, **view(t)}

    async def change_player(self, tid: str, token: str | None,
                            change: Callable[[Tournament], Tournament]) -> dict[str, Any]:
        """One player's entry changed by the event's arbiter (a withdrawal, a bye request): stored and told."""
        await self.arbiter_of(tid, token)
        async with self.lock:
            await self.load(tid)
            try:
                t = await self.db(lambda: self.store.update(tid, change))
            except TournamentError as err:
                raise Refused(404 if "no such start number" in str(err) else 422, str(err)) from None
            except WrongState as err:
                raise Refused(409, str(err)) from None
        self.notify(t.id)
        return view(t)

    async def enter_result(self, tid: str, token: str | None, number: int, table: int, result: str) -> None:
        """The arbiter enters a board's result (its game annulled, or not played on the server)."""
        await self.arbiter_of(tid, token)
        async with self.lock:
            t = await self.sync(await self.load(tid))
            try:
                board = next((b for b in t.round(number).boards if b.table == table), None)
            except TournamentError as err:
                raise Refused(404, str(err)) from None
            if board is None:
                raise Refused(404, f"round {number}: no table {table}")
            if board.game_id is not None:
                live = await self.games.game(board.game_id)
                ended = await self.games.settle(live) if live is not None else None
                if live is not None and (ended is None or ended.state.status != "annulled"):
                    state = "in play" if ended is None else "over"
                    raise Refused(409, f"round {number} table {table}: its game is {state} on this server: "
                                       "its result comes from the game (decide there, in its arbiter console)")
            t = await self.db(lambda: self.store.update(t.id, lambda fresh: fresh.set_result(number, table,
                                                                                            result)))
        self.notify(t.id)

    async def start_round(self, tid: str, token: str | None, number: int, seconds: float) -> dict[str, Any]:
        """The round's held games start ``seconds`` from now."""
        await self.arbiter_of(tid, token)
        t = await self.load(tid)
        try:
            rnd = t.round(number)
        except TournamentError as err:
            raise Refused(404, str(err)) from None
        at, started = await self.start_boards(rnd.boards, seconds)
        self.notify(t.id)
        return {"round": number, "starts_at": at, "started": started}

    async def start_boards(self, boards: Any, seconds: float) -> tuple[float, int]:
        """The held games of these boards start ``seconds`` from now: their t=0, and how many were held."""
        at = round(self.games.now() + seconds, 3)
        started = 0
        for b in boards:
            live = await self.games.game(b.game_id) if b.game_id else None
            if live is not None and await self.games.start_held(live, at):
                started += 1
        return at, started

    async def pair_round(self, tid: str, arbiter: str, base: str, *, held: bool, start_in: float | None,
                         count_games: Callable[[int], None]) -> dict[str, Any]:
        """Pairs the next round and creates its games (``arbiter``: the event arbiter's token, checked by
        :meth:`arbiter_of`; ``held``: their clocks wait for the arbiter's start, or ``start_in`` seconds);
        ``count_games(n)`` counts the n games against the caller's limit before any is made. Answers every
        seat's link."""
        async with self.lock:
            t = before = await self.sync(await self.load(tid))
            try:
                t = await asyncio.to_thread(paired, t)  # bbpPairings runs as a child process
            except TournamentError as err:
                raise Refused(409, str(err)) from None
            except Exception as err:  # WrongState: the round before is not finished
                raise Refused(409, str(err)) from None
            rnd = t.rounds[-1]
            count_games(len(rnd.boards) or 1)
            await self.games.refuse_while_down()
            mine = await self.player_tokens(t, arbiter)
            created_at = round(self.games.now(), 3)
            taken = self.games.ids()
            paired_ = t
            try:
                made = await asyncio.to_thread(lambda: make_games(paired_, self.games, created_at, taken, held=held,
                                                                  arbiter=arbiter, players=mine))
            except TournamentError as err:
                raise Refused(422, str(err)) from None
            try:  # the round, its games and their keys: one transaction, all or nothing
                t = await self.db(lambda: save_round(self.store, before, made))
            except RoundPairedMeanwhile as err:
                raise Refused(409, f"{err} (GET /api/tournaments/{paired_.id} shows them)") from None
            except StaleTournament as err:
                raise Refused(409, str(err)) from None
            for live in await adopt(self.games, made.games):  # committed: now in memory, on the clock, known here
                self.game_tid[live.id] = t.id
            seats: list[dict[str, Any]] = []
            for b, g in zip(rnd.boards, made.games):
                seats.append({"table": b.table, "game_id": g.id,
                              "white": {"start_number": b.white, "name": t.player(b.white).name,
                                        "link": f"{base}game/{g.id}#token={g.tokens['white']}"},
                              "black": {"start_number": b.black, "name": t.player(b.black).name,
                                        "link": f"{base}game/{g.id}#token={g.tokens['black']}"},
                              "arbiter": f"{base}game/{g.id}#token={g.tokens['arbiter']}",
                              "spectator": f"{base}game/{g.id}"})
        starts_at = None
        if start_in is not None:  # a scheduled start: the arbiter's start, given now for later
            starts_at, _ = await self.start_boards(t.rounds[-1].boards, start_in)
        self.notify(t.id)
        return {"round": rnd.number, "boards": seats, "held": held and starts_at is None, "starts_at": starts_at,
                "console": f"{base}tournament/{t.id}/arbiter#token={arbiter}",
                "players": [{"start_number": n, "page": f"{base}tournament/{t.id}/player/{n}#token={tok}"}
                            for n, tok in sorted(mine.items())],
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind} for y in rnd.byes]}


def new_tournament(name: str, system: str, rounds: int, edition: str, time_control: str, default_time: float | None,
                   scoring: str, quickplay: bool, tiebreaks: list[str] | None, tiebreak_rules: str,
                   players: list[tuple[str, int, str, str, str]], *,
                   laws: GameRegulations = GameRegulations()) -> Tournament:
    """An event as the API creates it (the system's tie-breaks unless given; ``laws``: what the Laws leave to
    the event's regulations, carried into each game's start). Raises :class:`TournamentError`."""
    reg = Regulations(system=system, rounds=rounds, edition=edition,  # type: ignore[arg-type]
                      time_control=time_control, default_time=default_time,
                      scoring=Scoring.parse(scoring), quickplay=quickplay,
                      tiebreaks=tuple(tiebreaks) if tiebreaks else
                      (Regulations().tiebreaks if system == "swiss" else ("DE", "SB", "WIN", "BPG")),
                      tiebreak_rules=tiebreak_rules, no_draw_offers=laws.no_draw_offers,
                      no_draw_before_move=laws.no_draw_before_move, report_leaving=laws.report_leaving,
                      increment_possible=laws.increment_possible)
    t = Tournament(name, reg)
    for p in players:
        t = t.add_player(*p)
    return t


__all__ = ["LiveGames", "LiveTournaments", "RETRY_AFTER_OUTAGE", "SETTLE", "check_tid", "new_tournament", "view"]

"""A round broadcast live: the PGN feed of a round (or of the whole event) and the boards as spectators see them.

Viewers such as lichess Broadcast follow an event by polling a PGN URL every few seconds. The feed is always
current (every board's game as it stands: its moves with ``[%clk]``, its result or ``*`` while it is played,
the event's tags and ``[Round "N.B"]``) and cheap to poll:

- what it is made of is read without writing anything: the event's stored version (one small query, asked
  again only when the event announced a change, or a second after it was last asked: a hundred polls a
  second cost the database a few queries) and, per board, the number of events of its game in memory, or its
  stored final log;
- the body is made on the feeds' own thread (never on the event loop, and never crowding the threads the
  server's other reads use), once per such version (single flight: the polls that ask meanwhile wait for
  the same body), and the last few bodies are kept;
- its ETag is a hash of the body, the same on every process of the database, so a poller's
  ``If-None-Match`` is answered ``304 Not Modified`` by whichever process the proxy sends it to.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Hashable, TypeVar

from chesslaws.game import Game
from chesslaws.refused import Refused
from chesslaws.tournament.live import LiveTournaments, check_tid
from chesslaws.tournament.model import Board, Tournament
from chesslaws.tournament.pgn import Writer, games_pgn, write_game
from chesslaws.tournament.reads import stored_version

T = TypeVar("T")

#: Feeds kept (a round's and the event's count one each).
FEEDS_KEPT = 32
#: Seconds an event's stored version is taken as it was last read, unless the event announced a change: what
#: changes it unannounced (a command line on the same database) is seen this late at most.
VERSION_FRESH = 1.0
#: Games kept written in PGN (one per board of the events followed).
WRITTEN_KEPT = 8192
#: Finished games kept replayed from their stored logs (a game that left memory does not change any more).
STORED_KEPT = 4096


@dataclass(frozen=True, slots=True)
class Feed:
    """A feed's body and its ETag (a quoted hash of the body)."""

    etag: str
    body: bytes


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


class Written:
    """Each board's game as last written in PGN, by what it was written from (the game's id and number of
    events, and its tags): a feed polled while games are played writes again only the games that changed."""

    def __init__(self, kept: int = WRITTEN_KEPT) -> None:
        self.kept = kept
        self._texts: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._latest: dict[str, tuple[Any, ...]] = {}  # game id -> the key of its latest text

    def writer(self, ids: dict[tuple[int, int], str]) -> Writer:
        def write(key: tuple[int, int], game: Game, tags: dict[str, str]) -> str:
            gid = ids.get(key)
            if gid is None:
                return write_game(key, game, tags)
            made_of = (gid, len(game.events), tuple(sorted(tags.items())))
            text = self._texts.get(made_of)
            if text is None:
                text = write_game(key, game, tags)
                old = self._latest.get(gid)
                if old is not None:
                    self._texts.pop(old, None)
                self._texts[made_of] = text
                self._latest[gid] = made_of
                while len(self._texts) > self.kept:
                    gone, _ = self._texts.popitem(last=False)
                    if self._latest.get(gone[0]) == gone:
                        del self._latest[gone[0]]
            return text

        return write


def make_feed(t: Tournament, games: dict[tuple[int, int], Game], round_number: int | None,
              write: Writer = write_game) -> Feed:
    """The feed's body from the event and its boards' games (call it on a thread)."""
    body = games_pgn(t, games, round_number=round_number, write=write).encode()
    return Feed(etag_of(body), body)


class PgnFeeds:
    """The PGN feeds of the live server's events (:meth:`feed`) and their rounds' boards for the spectators'
    page (:meth:`boards`)."""

    def __init__(self, tournaments: LiveTournaments, *, kept: int = FEEDS_KEPT) -> None:
        self.tournaments = tournaments
        self.kept = kept
        self._feeds: OrderedDict[tuple[str, int | None], tuple[Hashable, asyncio.Future[Feed]]] = OrderedDict()
        # event id -> (stored version, the event, when the version was read (monotonic seconds))
        self._events: dict[str, tuple[int, Tournament, float]] = {}
        self._changes: dict[str, asyncio.Queue[str]] = {}  # event id -> its changes, as its pages hear them
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chesslaws-feed")
        self._stored: OrderedDict[str, Game] = OrderedDict()  # game id -> its final game, from its stored log
        self._written = Written()

    async def event(self, tid: str) -> Tournament:
        """The event as stored now (read again only when its stored version changed)."""
        check_tid(tid)
        tours = self.tournaments
        held = self._events.get(tid)
        changes = self._changes.get(tid)
        announced = changes is None or not changes.empty()
        if changes is not None:
            while not changes.empty():
                changes.get_nowait()
        if held is not None and not announced and time.monotonic() - held[2] < VERSION_FRESH:
            return held[1]
        read_at = time.monotonic()
        version = await tours.db(lambda: stored_version(tours.store, tid))
        if version is None:
            raise Refused(404, f"no tournament {tid!r}")
        if held is not None and held[0] == version:
            self._events[tid] = (version, held[1], read_at)
            return held[1]
        t = await tours.load(tid)
        if tid not in self._changes:
            self._changes[tid] = await tours.listen(tid)
        self._events[tid] = (version, t, read_at)
        while len(self._events) > self.kept:
            gone = next(iter(self._events))
            del self._events[gone]
            queue = self._changes.pop(gone, None)
            if queue is not None:
                tours.unlisten(gone, queue)
        return t

    async def on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def _games(self, t: Tournament, round_number: int | None) -> tuple[dict[tuple[int, int], Game], Hashable]:
        """Every board's game as it stands, and what they are made of (the key of the body made from them)."""
        games: dict[tuple[int, int], Game] = {}
        parts: list[Any] = [t.version]
        unstored: list[tuple[int, Board]] = []
        for rnd in t.rounds:
            if round_number is not None and rnd.number != round_number:
                continue
            for b in rnd.boards:
                if not b.game_id:
                    continue
                live = self.tournaments.games.in_memory(b.game_id)
                if live is not None:
                    game: Game = live.game
                    games[(rnd.number, b.table)] = game
                    parts.append((b.game_id, len(game.events)))
                elif b.game_id in self._stored:
                    games[(rnd.number, b.table)] = self._stored[b.game_id]
                    parts.append((b.game_id, "stored"))
                else:
                    unstored.append((rnd.number, b))
        if unstored:
            await self._load(t, unstored, games, parts)
        return games, tuple(parts)

    async def _load(self, t: Tournament, boards: list[tuple[int, Board]], games: dict[tuple[int, int], Game],
                    parts: list[Any]) -> None:
        """Boards whose game is not in memory: a finished game from its stored log (kept: it does not change), a
        game in play elsewhere (another process, or not looked at since a restart) taken into memory."""
        tours = self.tournaments
        rounds = {rnd for rnd, _ in boards}
        tid = t.id
        logs: list[tuple[int, int, str]] = []
        for rnd in sorted(rounds):
            logs += await tours.db(lambda r=rnd: tours.store.game_logs(tid, r))  # type: ignore[misc]
        stored = {(r, table): log for r, table, log in logs}
        for rnd, b in boards:
            log = stored.get((rnd, b.table))
            gid = b.game_id or ""
            if log is not None:
                game = await self.on_thread(
                    Game.from_events, [json.loads(line) for line in log.splitlines() if line.strip()])
                self._stored[gid] = game
                if len(self._stored) > STORED_KEPT:
                    self._stored.popitem(last=False)
                games[(rnd, b.table)] = game
                parts.append((gid, "stored"))
                continue
            live = await tours.games.game(gid)
            if live is not None:
                games[(rnd, b.table)] = live.game
                parts.append((gid, len(live.game.events)))
            else:
                parts.append((gid, None))  # not to be had now (the database away): the tags and result only

    async def feed(self, tid: str, round_number: int | None = None) -> Feed:
        """The PGN of the round ``round_number`` (None: of every round) as it stands now."""
        t = await self.event(tid)
        if round_number is not None and not any(r.number == round_number for r in t.rounds):
            raise Refused(404, f"round {round_number} of {t.name!r} is not paired")
        games, made_of = await self._games(t, round_number)
        key = (tid, round_number)
        held = self._feeds.get(key)
        if held is not None and held[0] == made_of:
            self._feeds.move_to_end(key)
            return await asyncio.shield(held[1])
        ids = {(rnd.number, b.table): b.game_id for rnd in t.rounds for b in rnd.boards if b.game_id}
        write = self._written.writer(ids)
        future = asyncio.ensure_future(self.on_thread(make_feed, t, games, round_number, write))
        self._feeds[key] = (made_of, future)
        self._feeds.move_to_end(key)
        while len(self._feeds) > self.kept:
            self._feeds.popitem(last=False)
        try:
            return await asyncio.shield(future)
        except BaseException:
            if self._feeds.get(key, (None, None))[1] is future:
                del self._feeds[key]
            raise

    async def boards(self, tid: str, round_number: int) -> dict[str, Any]:
        """The boards of a round as its spectators' page shows them: the players, the position, the last move,
        the clocks at the server's instant and the result (no seat link, nothing for the arbiter alone)."""
        t = await self.event(tid)
        rnd = next((r for r in t.rounds if r.number == round_number), None)
        if rnd is None:
            raise Refused(404, f"round {round_number} of {t.name!r} is not paired")
        games, _ = await self._games(t, round_number)
        lives = {b.table: live for b in rnd.boards
                 if b.game_id and (live := self.tournaments.games.in_memory(b.game_id)) is not None}
        console = self.tournaments.games.console

        def view() -> dict[str, Any]:
            # A game's console reads the game as it stands (an immutable value) and the server's clock: safe on a
            # thread, and a round of a thousand boards is not made on the event loop.
            return spectators_view(t, round_number, games, {table: console(live) for table, live in lives.items()})

        return await self.on_thread(view)


def spectators_view(t: Tournament, round_number: int, games: dict[tuple[int, int], Game],
                    consoles: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The round's boards for the spectators' page (call it on a thread)."""
    rnd = t.round(round_number)
    boards: list[dict[str, Any]] = []
    for b in rnd.boards:
        white, black = t.player(b.white), t.player(b.black)
        row: dict[str, Any] = {
            "table": b.table, "result": b.result, "game_id": b.game_id,
            "white": {"name": white.name, "rating": white.rating or None, "title": white.title or None},
            "black": {"name": black.name, "rating": black.rating or None, "title": black.title or None},
        }
        game = games.get((round_number, b.table))
        if game is not None:
            st = game.state
            last = st.moves[-1] if st.moves else None
            row.update({"fen": st.position.fen(), "last_move": last.uci if last else None,
                        "last_san": last.san if last else None, "ply": len(st.moves), "status": st.status,
                        "game_result": st.result, "termination": st.termination})
        console = consoles.get(b.table)
        if console is not None:
            row.update({"clocks": console["clocks"], "started": console["started"], "turn": console["turn"],
                        "status": console["status"], "game_result": console["result"]})
        boards.append(row)
    byes = [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind} for y in rnd.byes]
    return {"id": t.id, "name": t.name, "round": round_number, "rounds": t.regulations.rounds,
            "boards": boards, "byes": byes}


__all__ = ["Feed", "PgnFeeds", "etag_of", "make_feed", "spectators_view"]

"""Tournaments on the live server: a round's games created from its pairings, results flowing back.

:func:`install` adds to the server's app:

- ``POST /api/tournaments``: a tournament with its regulations and players;
  answers its id and the secret token of its arbiter (shown once);
- ``POST /api/tournaments/{id}/rounds`` (the arbiter's token as Bearer): pairs
  the next round and creates each board's game, with the event's regulations in
  its start event; answers the seat links per player. The round, its games and
  their keys are one transaction (:meth:`TournamentStore.pair_round`): a second
  process pairing it at the same instant writes nothing and answers 409, and a
  kill or an outage leaves the whole round or nothing.
  The round starts fairly by default (``"start": "held"``): its clocks start when the arbiter starts it
  (``.../rounds/N/start``) or at ``start_in`` seconds after pairing, and a player who does not come is
  decided by the default time; ``{"start": "now"}`` asks for the old start (the clocks run from pairing);
- ``GET /api/tournaments/{id}``: the rounds and the standings; every game that
  the Laws have ended meanwhile gives its board its result first (a late
  arrival is a forfeit), and its log is kept with the tournament;
- ``GET /api/tournaments/{id}/console?round=N`` (the arbiter's token as
  Bearer): the round's arbiter console, every board's game as it stands (moves,
  clocks, pending claims and offers, stopped clocks, flags down, absent
  players, what waits for the arbiter's decision, results) with the link to
  each game's own arbiter console;
- ``POST /api/tournaments/{id}/rounds/{n}/boards/{table}/result`` (Bearer): the
  arbiter enters the result of a board whose game was annulled or is not on
  the server (a game that is in play or over gives its own);
- ``GET /api/tournaments?limit=&before=``: the events, the latest changed first, a page at a time;
- ``POST /api/tournaments/{id}/players`` and ``.../players/{n}/withdraw`` (Bearer): registration;
- ``POST /api/tournaments/{id}/rounds/{n}/start`` (Bearer): the round's clocks start now, or
  ``in`` seconds (a held round, the default, waits for it; its players are absent until
  they open their game, and the event's default time decides who does not come: Article 6.7);
- ``GET /api/tournaments/{id}/players/{n}`` (the player's own token as Bearer): the player's current
  game's link and results; ``WS /api/tournaments/{id}/ws``: ``{"kind": "changed"}`` whenever a game or
  the event changes (the pages read the event again);
- ``GET /api/games/{id}/tournament``: the event, round and table of a tournament's game (its page links back);
- ``GET /tournament/{id}``: the standings page; ``GET /tournament/{id}/arbiter``: the round's arbiter
  console page (the arbiter's token in the URL fragment); ``GET /tournament/{id}/player/{n}``: a
  player's page (the player's token in the fragment); ``GET /tournaments``: the events and the form
  that creates one.

Every ending reaches the standings by itself: the hub tells the tournaments of every change of a game
(:attr:`Hub.watchers`), and a game that is over (:meth:`Hub.ended`, which includes a flag fall observed
and the default time, read from the log and the clock) gives its board its result; every read of the
event does the same (after a restart, on another process of the same database).

Each seat's token is kept sealed twice: with the tournament arbiter's token (the console shows every
seat link) and with the player's own token (the player's page shows the current game's link).

Each game's arbiter token is kept only sealed with the tournament arbiter's
token (XOR with an HMAC-SHA256 key stream of that token and the game id): the
server keeps the hash of the one and cannot open the other without it.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
from pathlib import Path
from typing import Any, Callable, Literal, TypeVar

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from chesslaws.errors import WrongState
from chesslaws.server.guard import VisibleName
from chesslaws.server.newgame import NewGame
from chesslaws.store.db import is_outage
from chesslaws.store.games import hash_token
from chesslaws.store.tournaments import RoundPairedMeanwhile, TournamentStore
from chesslaws.tournament.boards import (ANNULLED, BoardOutcome, board_of_game, game_console, retired_console, seal,
                                         unseal, with_board_outcome)
from chesslaws.tournament.model import Regulations, Scoring, StaleTournament, Tournament, TournamentError
from chesslaws.tournament import limits
from chesslaws.tournament.pairing import pair_next_round
from chesslaws.tournament.reads import EventReads, Made, render, stored_version
from chesslaws.tournament.roundgames import adopt, annul_orphans, make_game
from chesslaws.tournament.tiebreaks import crosstable, standings

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

T = TypeVar("T")
#: Seconds between a game's change and the tournament's look at it (changes close together make one look).
SETTLE = 0.1
#: Seconds between two looks at an event's unfinished games asked for by reads of it.
READ_LOOK = 5.0
#: Bodies of events' reads kept (JSON and TRF count one each): an event of 3,000 players x 40 rounds is several MB.
READS_KEPT = 16


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: VisibleName = Field(min_length=1, max_length=limits.MAX_NAME)
    rating: int = Field(0, ge=0, le=limits.MAX_RATING)
    title: str = Field("", max_length=limits.MAX_TITLE)
    federation: str = Field("", max_length=limits.MAX_FEDERATION)
    fide_id: str = Field("", max_length=limits.MAX_FIDE_ID)


class EnteredResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    result: Literal["1-0", "0-1", "1/2-1/2", "0-0", "+-", "-+", "--"]


class NewTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: VisibleName = Field(min_length=1, max_length=limits.MAX_NAME)
    system: Literal["swiss", "round-robin", "double-round-robin"] = "swiss"
    rounds: int = Field(9, ge=1, le=limits.MAX_ROUNDS)
    edition: Literal["1989", "1997", "2023"] = "2023"
    time_control: str = Field("5400+30", max_length=200)
    default_time: float | None = Field(None, ge=0, le=86400, description="seconds (Article 6.7): a player who "
                                                                        "comes later loses by default")
    scoring: str = Field("1-0.5-0", max_length=40)
    quickplay: bool = False
    tiebreaks: list[str] | None = Field(None, description=(
        "C.07 codes in order (default: the system's); STD (Standard Points) only with tiebreak_rules 2026"))
    tiebreak_rules: Literal["2023", "2026"] = Field("2023", description=(
        "the Tie-Break Regulations (C.07): as of 2023, or 2026 (in force from 1 March 2026: Art. 16.4 amended, "
        "Standard Points)"))
    players: list[NewPlayer] = Field(default_factory=list, max_length=2000)


class PairRound(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: Literal["held", "now"] = Field("held", description=(
        "held (the default, a fair start): the games' clocks wait until the arbiter starts the round "
        "(POST .../rounds/N/start) or until start_in, and the players are absent until they open their game "
        "(the event's default time decides who does not come: Article 6.7); now: the old start, the clocks "
        "run from pairing whoever is there (only when asked for)"))
    start_in: float | None = Field(None, ge=0, le=86400, description=(
        "held only: the round starts by itself this many seconds after pairing (a scheduled start), as if "
        "the arbiter started it with {\"in\": start_in}"))


class StartRound(BaseModel):
    model_config = ConfigDict(extra="forbid")
    in_: float = Field(0, ge=0, le=86400, alias="in", description="seconds from now until the clocks start")


class ByeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=limits.MAX_ROUNDS, description="the round (not paired yet)")
    kind: Literal["full", "half", "zero"] = Field("half", description="what the regulations give for it")


class Withdrawal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    from_round: int | None = Field(None, ge=1, le=limits.MAX_ROUNDS, description="the first round the player misses "
                                                                  "(default: the next round to pair)")


_TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def install(app: FastAPI, hub: Any, db_url: str) -> None:
    """Adds the tournament routes and pages to the server's app (``hub``: its games; ``db_url``: its
    database; on PostgreSQL the games' connection pool is shared)."""
    from chesslaws.server.hub import RETRY_AFTER_OUTAGE, ApiError

    def _check_tid(tid: str, what: str = "") -> None:
        """Tournament ids are short hex tokens: anything else (a NUL, which PostgreSQL refuses in text, or
        a stray character) names no tournament and never reaches the store."""
        if not _TOURNAMENT_ID.fullmatch(tid):
            shown = tid[:40].encode("unicode_escape").decode("ascii")
            raise ApiError(404, f"{what}no tournament {shown!r}")

    store = TournamentStore(db_url, hub.store)
    annul_orphans(store)  # games an older server's pairing left without their round: before the hub loads them
    lock = asyncio.Lock()
    bearer = HTTPBearer(auto_error=False)
    # Which tournament a game belongs to (None: none), learnt on the first change of each game.
    game_tid: dict[str, str | None] = {}
    listeners: dict[str, set[asyncio.Queue[str]]] = {}  # tournament id -> the open sockets' queues
    due: set[str] = set()  # tournaments with a look pending

    async def db(fn: Callable[[], T]) -> T:
        """A call of the tournament store on a thread; an unreachable database answers 503."""
        try:
            return await asyncio.to_thread(fn)
        except (TournamentError, ApiError):
            raise
        except Exception as err:
            if is_outage(err):
                raise ApiError(503, "the tournament store is unreachable: nothing was recorded; try again in a "
                                    "moment", retry_after=RETRY_AFTER_OUTAGE) from None
            raise

    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    async def load(tid: str) -> Tournament:
        _check_tid(tid)
        try:
            return await db(lambda: store.load(tid))
        except TournamentError as err:
            raise ApiError(404, str(err)) from None

    async def game_of(game_id: str) -> Any:
        """The game, loaded back into memory if it ended and left it (None if it cannot be had now)."""
        live = hub.games.get(game_id)
        if live is None:
            try:
                live = await hub.fetch(game_id)
            except ApiError:  # set aside, or the database is down: the next look tries again
                return None
        return live

    def learn(t: Tournament) -> None:
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.game_id:
                    game_tid[b.game_id] = t.id

    async def sync(t: Tournament) -> Tournament:
        """The boards' results from their games, through one function of the game's final state
        (:func:`board_of_game`) whatever ended or changed it: mate, resignation, agreement, a flag fall
        observed, the default time, the arbiter's decision, and after the end the scoresheets both players
        signed with another result (2023 8.7: it stands, even if incorrect) or an annulment (the board has no
        result then: the arbiter enters it). A board whose result the arbiter entered for an annulled game
        keeps it; a game out of memory has not changed since its board was given its result."""
        learn(t)
        changed: list[tuple[int, int, str, Any, Any, BoardOutcome]] = []  # (round, table, id, seen, game, new)
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.game_id is None or (b.result is not None and (
                        b.termination == ANNULLED or b.game_id not in hub.games)):
                    continue
                live = await game_of(b.game_id)
                ended = await hub.settle(live) if live is not None else None
                if ended is None:
                    continue
                outcome = board_of_game(ended)
                if outcome == (b.result, b.termination):
                    continue
                if outcome[0] is not None:
                    lines = live.game.log_lines()
                    number, table, tid = rnd.number, b.table, t.id
                    await db(lambda: store.save_game_log(tid, number, table, lines))
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
        t = await db(lambda: store.update(tid, take))
        notify(t.id)
        return t

    def notify(tid: str, *, everywhere: bool = True) -> None:
        """The event changed: its open pages here read it again, and (``everywhere``) those of the other
        processes of the database (a page served by another process has no other way to learn of a round
        paired or started here, nor of a result taken from a game it never loaded)."""
        for q in list(listeners.get(tid, ())):
            if q.empty():
                q.put_nowait("changed")
        if everywhere:
            hub.announce_tournament(tid)

    hub.tournament_watchers.append(lambda tid: notify(tid, everywhere=False))

    async def look(tid: str) -> None:
        await asyncio.sleep(SETTLE)
        due.discard(tid)
        try:
            async with lock:
                await sync(await load(tid))
        except Exception as err:  # noqa: BLE001 - the next change or read looks again
            if not isinstance(err, ApiError):
                import logging

                logging.getLogger("chesslaws.server").exception("tournament %s: results not taken", tid)
        notify(tid, everywhere=False)  # a game changed: other processes hear of it (sync announces results)

    async def find(game_id: str) -> None:
        def run() -> str | None:
            return store.tournament_of_game(game_id)

        try:
            tid = await db(run)
        except Exception:  # noqa: BLE001 - asked again on its next change
            game_tid.pop(game_id, None)
            return
        game_tid[game_id] = tid
        if tid is not None:
            poke(tid)

    def poke(tid: str) -> None:
        if tid not in due:
            due.add(tid)
            asyncio.ensure_future(look(tid))

    def watch(game_id: str) -> None:
        """A game changed (a move, an ending, a flag fall observed, an arrival): its tournament looks."""
        if game_id not in game_tid:
            if hub.down_since is not None:  # the database is away: asked on its next change
                return
            game_tid[game_id] = None  # until known
            live = hub.games.get(game_id)
            tags = live.game.state.config.tags if live is not None else {}
            if "round" not in tags or "event" not in tags:  # a tournament's games name both: no need to ask
                return
            asyncio.ensure_future(find(game_id))
            return
        tid = game_tid[game_id]
        if tid is not None:
            poke(tid)

    hub.watchers.append(watch)

    def view(t: Tournament) -> dict[str, Any]:
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

    async def arbiter_of(tid: str, cred: HTTPAuthorizationCredentials | None) -> str:
        stored = await db(lambda: store.arbiter_token_hash(tid))
        if cred is None or stored is None or not hmac.compare_digest(stored, hash_token(cred.credentials)):
            raise ApiError(403, "the tournament arbiter's token is required (Authorization: Bearer TOKEN)")
        return cred.credentials

    async def player_tokens(t: Tournament, arbiter: str) -> dict[int, str]:
        """Every player's own token (made for those who have none yet, in one write that never replaces a token
        given meanwhile by another request or process), opened with the arbiter's."""
        keys = await db(lambda: store.player_keys(t.id))
        missing = [p.start_number for p in t.players if p.start_number not in keys]
        if missing:
            rows = [(n, hash_token(tok), seal(tok, arbiter, f"{t.id}:player:{n}"))
                    for n, tok in ((n, secrets.token_urlsafe(18)) for n in missing)]
            keys = await db(lambda: store.add_player_keys(t.id, rows))
        return {n: unseal(keys[n][1], arbiter, f"{t.id}:player:{n}") for n in sorted(keys)}

    # --- pages -----------------------------------------------------------------------------------
    @app.get("/tournaments", include_in_schema=False)
    async def tournaments_page() -> FileResponse:
        return FileResponse(WEB_DIR / "tournaments.html")

    @app.get("/tournament/{tid}", include_in_schema=False)
    async def tournament_page(tid: str) -> FileResponse:
        return FileResponse(WEB_DIR / "tournament.html")

    @app.get("/tournament/{tid}/arbiter", include_in_schema=False)
    async def console_page(tid: str) -> FileResponse:
        return FileResponse(WEB_DIR / "round-console.html")

    @app.get("/tournament/{tid}/player/{number}", include_in_schema=False)
    async def player_page(tid: str, number: int) -> FileResponse:
        return FileResponse(WEB_DIR / "tournament-player.html")

    @app.get("/tournament/{tid}/sheet", include_in_schema=False)
    async def sheet_page(tid: str) -> FileResponse:
        return FileResponse(WEB_DIR / "pairing-sheet.html")

    # --- the API ------------------------------------------------------------------------------------
    @app.get("/api/tournaments", tags=["tournaments"], summary="The events, the latest changed first, a page at a time")
    async def list_tournaments(
            limit: int = Query(50, ge=1, le=200, description="events on this page"),
            before: str | None = Query(None, max_length=40,
                                       description="the id of the last event of the previous page")
    ) -> list[dict[str, Any]]:
        if before is not None:
            _check_tid(before, "before: ")
        rows = await db(lambda: store.page(limit, before))
        if rows is None:
            raise ApiError(404, f"before: no tournament {before!r}")
        return [{"id": tid, "name": t.name, "system": t.regulations.system, "edition": t.regulations.edition,
                 "time_control": t.regulations.time_control, "players": len(t.players),
                 "total_rounds": t.total_rounds, "paired_rounds": len(t.rounds), "finished": t.finished,
                 "updated_at": updated, "page": f"/tournament/{tid}"} for tid, updated, t in rows]

    @app.get("/api/games/{game_id}/tournament", tags=["tournaments"],
             summary="The tournament a game is a round's board of (404 if none)")
    async def tournament_of(game_id: str) -> dict[str, Any]:
        """The event, round and table of a tournament's game: its page links back to the event (and offers no
        rematch, the pairings deciding who plays whom)."""
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", game_id):
            raise ApiError(404, "no such game")
        tid = game_tid.get(game_id) if game_id in game_tid else await db(lambda: store.tournament_of_game(game_id))
        if tid is None:
            raise ApiError(404, f"game {game_id!r} is no tournament's")
        t = await load(tid)
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.game_id == game_id:
                    return {"id": t.id, "name": t.name, "round": rnd.number, "table": b.table,
                            "page": f"/tournament/{t.id}"}
        raise ApiError(404, f"game {game_id!r} is no tournament's")

    @app.websocket("/api/tournaments/{tid}/ws")
    async def changes(ws: WebSocket, tid: str) -> None:
        """``{"kind": "changed"}`` whenever a game of the event or the event changes (never more than the
        reader reads: one pending message at most)."""
        await ws.accept()
        try:
            t = await load(tid)
        except ApiError as err:
            await ws.send_json({"kind": "error", "status": err.status, "error": err.message})
            await ws.close(code=4000 + err.status)
            return
        learn(t)
        q: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        listeners.setdefault(tid, set()).add(q)
        await ws.send_json({"kind": "hello"})

        async def sender() -> None:
            while True:
                await ws.send_json({"kind": await q.get()})

        task = asyncio.create_task(sender())
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            task.cancel()
            listeners.get(tid, set()).discard(q)

    @app.get("/api/tournaments/{tid}/console", tags=["tournaments"],
             summary="The round's arbiter console: every board's game as it stands")
    async def console(tid: str, request: Request, round: int | None = None,
                      cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        arbiter = await arbiter_of(tid, cred)
        async with lock:
            t = await sync(await load(tid))
        number = round if round is not None else len(t.rounds)
        if t.rounds and not 1 <= number <= len(t.rounds):
            raise ApiError(404, f"round {number}: not paired (rounds 1..{len(t.rounds)})")
        keys = await db(lambda: store.game_keys(t.id))
        seats = await db(lambda: store.seat_keys(t.id))
        mine = await player_tokens(t, arbiter) if t.rounds else {}
        base = str(request.base_url)
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
                live = hub.games.get(b.game_id)
                if live is None and b.result is not None:  # over and out of memory: its stored final view
                    try:
                        final = await hub.final_view(b.game_id)
                    except ApiError:
                        final = None
                    row["game"] = retired_console(final) if final else None
                else:
                    live = live or await game_of(b.game_id)
                    row["game"] = game_console(hub, live) if live is not None else None
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
                "complete": bool(rnd and rnd.complete), "finished": t.finished, "server_t": hub.now(),
                "can_pair": (not t.rounds or t.rounds[-1].complete) and len(t.rounds) < t.total_rounds,
                "page": f"{base}tournament/{t.id}", "sheet": f"{base}tournament/{t.id}/sheet",
                "counts": count, "boards": boards,
                "players": [{"start_number": p.start_number, "name": p.name, "rating": p.rating,
                             "withdrawn_from": p.withdrawn_from,
                             "page": (f"{base}tournament/{t.id}/player/{p.start_number}#token={mine[p.start_number]}"
                                      if p.start_number in mine else None)} for p in t.players],
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind}
                         for y in (rnd.byes if rnd else ())]}

    @app.post("/api/tournaments", status_code=201, tags=["tournaments"], summary="Create a tournament")
    async def create_tournament(body: NewTournament, request: Request) -> dict[str, Any]:
        hub.rate.hit("tournaments_per_address", address(request))
        try:
            reg = Regulations(system=body.system, rounds=body.rounds, edition=body.edition,
                              time_control=body.time_control, default_time=body.default_time,
                              scoring=Scoring.parse(body.scoring), quickplay=body.quickplay,
                              tiebreaks=tuple(body.tiebreaks) if body.tiebreaks else
                              (Regulations().tiebreaks if body.system == "swiss" else ("DE", "SB", "WIN", "BPG")),
                              tiebreak_rules=body.tiebreak_rules)
            t = Tournament(body.name, reg)
            for p in body.players:
                t = t.add_player(p.name, p.rating, p.title, p.federation, p.fide_id)
        except TournamentError as err:
            raise ApiError(422, str(err)) from None
        token = secrets.token_urlsafe(24)
        async with lock:
            t = await db(lambda: store.save(t))
            await db(lambda: store.set_arbiter_token_hash(t.id, hash_token(token)))
        return {"id": t.id, "arbiter_token": token, "page": f"{request.base_url}tournament/{t.id}",
                "console": f"{request.base_url}tournament/{t.id}/arbiter#token={token}", **view(t)}

    # --- anonymous reads of an event: made once per version, off the loop (issue 36) ----------------
    async def make(tid: str, kind: str) -> Made:
        async with lock:
            t = await sync(await load(tid))
        return await asyncio.to_thread(render, t, kind, view)

    reads = EventReads(make, poke, kept=READS_KEPT, look_every=READ_LOOK)

    async def read(tid: str, kind: str, request: Request) -> bytes:
        """The event's body for an anonymous read (:class:`reads.EventReads`), limited per address."""
        _check_tid(tid)
        hub.rate.hit("tournament_reads_per_address", address(request))
        version = await db(lambda: stored_version(store, tid))
        if version is None:  # a name rather than an id, or no such event: read as before (404 if none)
            return (await make(tid, kind))[1]
        return await reads.read(tid, kind, version)

    @app.get("/api/tournaments/{tid}", tags=["tournaments"], summary="Rounds and standings of a tournament")
    async def get_tournament(tid: str, request: Request) -> Response:
        return Response(await read(tid, "json", request), media_type="application/json")

    @app.post("/api/tournaments/{tid}/players", status_code=201, tags=["tournaments"],
              summary="Register a player (before round 1 is paired)")
    async def add_player(tid: str, body: NewPlayer,
                         cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        await arbiter_of(tid, cred)

        def register(t: Tournament) -> Tournament:
            if len(t.players) >= 2000:
                raise ApiError(409, "the event has 2000 players: no more can be registered")
            return t.add_player(body.name, body.rating, body.title, body.federation, body.fide_id)

        async with lock:
            await load(tid)
            try:
                t = await db(lambda: store.update(tid, register))
            except (TournamentError, WrongState) as err:
                raise ApiError(409 if isinstance(err, WrongState) else 422, str(err)) from None
        notify(t.id)
        return {"start_number": t.players[-1].start_number, **view(t)}

    async def change_player(tid: str, cred: HTTPAuthorizationCredentials | None,
                            change: Callable[[Tournament], Tournament]) -> dict[str, Any]:
        """One player's entry changed by the event's arbiter (a withdrawal, a bye request): stored and told."""
        await arbiter_of(tid, cred)
        async with lock:
            await load(tid)
            try:
                t = await db(lambda: store.update(tid, change))
            except TournamentError as err:
                raise ApiError(404 if "no such start number" in str(err) else 422, str(err)) from None
            except WrongState as err:
                raise ApiError(409, str(err)) from None
        notify(t.id)
        return view(t)

    @app.post("/api/tournaments/{tid}/players/{number}/withdraw", tags=["tournaments"],
              summary="A player withdraws: no pairing from the given round on")
    async def withdraw(tid: str, number: int, body: Withdrawal,
                       cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        return await change_player(tid, cred, lambda t: t.withdraw(number, body.from_round))

    @app.post("/api/tournaments/{tid}/players/{number}/bye", tags=["tournaments"],
              summary="A player asks for a bye in a round not paired yet")
    async def request_bye(tid: str, number: int, body: ByeRequest,
                          cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        return await change_player(tid, cred, lambda t: t.request_bye(body.round, number, body.kind))

    @app.get("/api/tournaments/{tid}/trf", tags=["tournaments"], summary="The event in FIDE's TRF-16",
             response_class=PlainTextResponse)
    async def trf(tid: str, request: Request) -> PlainTextResponse:
        body = await read(tid, "trf", request)
        return PlainTextResponse(body, headers={"content-disposition": f'inline; filename="{tid}.trf"'})

    @app.get("/api/tournaments/{tid}/players/{number}", tags=["tournaments"],
             summary="A player's own view: the current game's link and the results (the player's token as Bearer)")
    async def player_view(tid: str, number: int, request: Request,
                          cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        keys = await db(lambda: store.player_keys(tid))
        key = keys.get(number)
        if cred is None or key is None or not hmac.compare_digest(key[0], hash_token(cred.credentials)):
            raise ApiError(403, "this player's own link is required (Authorization: Bearer TOKEN from the link)")
        async with lock:
            t = await sync(await load(tid))
        seats = await db(lambda: store.seat_keys(tid))
        base = str(request.base_url)
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
                    link = f"{base}game/{b.game_id}#token=" + unseal(got[1], cred.credentials, f"{b.game_id}:{color}")
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

    @app.post("/api/tournaments/{tid}/rounds/{number}/boards/{table}/result", tags=["tournaments"],
              summary="The arbiter enters a board's result (a game annulled, or not played on the server)")
    async def enter_result(tid: str, number: int, table: int, body: EnteredResult,
                           cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        await arbiter_of(tid, cred)
        async with lock:
            t = await sync(await load(tid))
            try:
                board = next((b for b in t.round(number).boards if b.table == table), None)
            except TournamentError as err:
                raise ApiError(404, str(err)) from None
            if board is None:
                raise ApiError(404, f"round {number}: no table {table}")
            if board.game_id is not None:
                live = await game_of(board.game_id)
                ended = await hub.settle(live) if live is not None else None
                if live is not None and (ended is None or ended.state.status != "annulled"):
                    state = "in play" if ended is None else "over"
                    raise ApiError(409, f"round {number} table {table}: its game is {state} on this server: "
                                        "its result comes from the game (decide there, in its arbiter console)")
            t = await db(lambda: store.update(t.id, lambda fresh: fresh.set_result(number, table, body.result)))
        notify(t.id)
        return {"round": number, "table": table, "result": body.result}

    @app.post("/api/tournaments/{tid}/rounds/{number}/start", tags=["tournaments"],
              summary="Start the round's clocks (now, or in a number of seconds)")
    async def start_round(tid: str, number: int, body: StartRound,
                          cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        await arbiter_of(tid, cred)
        t = await load(tid)
        try:
            rnd = t.round(number)
        except TournamentError as err:
            raise ApiError(404, str(err)) from None
        at, started = await start_boards(rnd.boards, body.in_)
        notify(t.id)
        return {"round": number, "starts_at": at, "started": started}

    async def start_boards(boards: Any, seconds: float) -> tuple[float, int]:
        """The held games of these boards start ``seconds`` from now: their t=0, and how many were held."""
        at = round(hub.now() + seconds, 3)
        started = 0
        for b in boards:
            live = await game_of(b.game_id) if b.game_id else None
            if live is not None and await hub.start_held(live, at):
                started += 1
        return at, started

    @app.post("/api/tournaments/{tid}/rounds", status_code=201, tags=["tournaments"],
              summary="Pair the next round and create its games")
    async def next_round(tid: str, request: Request, body: PairRound | None = None,
                         cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        arbiter = await arbiter_of(tid, cred)
        body = body or PairRound.model_validate({})
        held = body.start == "held"
        if body.start_in is not None and not held:
            raise ApiError(422, "start_in schedules a held round's start: it cannot go with \"start\": \"now\"")
        hub.rate.hit("rounds_per_address", address(request))
        async with lock:
            t = before = await sync(await load(tid))
            try:
                if not t.rounds and t.regulations.system == "swiss":
                    t = t.order_by_rating()
                t = await asyncio.to_thread(pair_next_round, t)  # bbpPairings runs as a child process
            except TournamentError as err:
                raise ApiError(409, str(err)) from None
            except Exception as err:  # WrongState: the round before is not finished
                raise ApiError(409, str(err)) from None
            rnd = t.rounds[-1]
            hub.rate.hit("round_games_per_address", address(request), len(rnd.boards) or 1)
            await hub._refuse_while_down()
            mine = await player_tokens(t, arbiter)
            base = str(request.base_url)
            created_at = round(hub.now(), 3)
            taken = set(hub.games)
            paired_ = t

            def make() -> tuple[Tournament, list[NewGame], list[tuple[str, str]], list[tuple[str, str, str, str]]]:
                """The round's games, their tokens sealed (on a thread: 540 boards take a while): nothing written."""
                out, made = paired_, []
                game_keys: list[tuple[str, str]] = []
                sealed_seats: list[tuple[str, str, str, str]] = []
                for b in rnd.boards:
                    white, black = out.player(b.white), out.player(b.black)
                    start = out.regulations.start_event(white=white.name, black=black.name, round_number=rnd.number,
                                                        event=out.name)
                    start.pop("type")
                    start.pop("t")
                    g = make_game(start, {"white": white.name, "black": black.name}, created_at, taken, held=held,
                                  presence=held)
                    made.append(g)
                    out = out.set_game_id(rnd.number, b.table, g.id)
                    game_keys.append((g.id, seal(g.tokens["arbiter"], arbiter, g.id)))
                    for seat, sn in (("white", b.white), ("black", b.black)):
                        salt = f"{g.id}:{seat}"
                        sealed_seats.append((g.id, seat, seal(g.tokens[seat], arbiter, salt),
                                             seal(g.tokens[seat], mine[sn], salt)))
                return out, made, game_keys, sealed_seats

            try:
                paired, made, game_keys, sealed_seats = await asyncio.to_thread(make)
            except TournamentError as err:
                raise ApiError(422, str(err)) from None
            seen = before.version
            try:  # the round, its games and their keys: one transaction, all or nothing
                t = await db(lambda: store.pair_round(paired, seen, [(g.record, g.rule) for g in made], game_keys,
                                                      sealed_seats))
            except RoundPairedMeanwhile as err:
                raise ApiError(409, f"{err} (GET /api/tournaments/{paired.id} shows them)") from None
            except StaleTournament as err:
                raise ApiError(409, str(err)) from None
            for live in await adopt(hub, made):  # committed: now in memory, on the clock, and known here
                game_tid[live.id] = t.id
            seats: list[dict[str, Any]] = []
            for b, g in zip(rnd.boards, made):
                seats.append({"table": b.table, "game_id": g.id,
                              "white": {"start_number": b.white, "name": t.player(b.white).name,
                                        "link": f"{base}game/{g.id}#token={g.tokens['white']}"},
                              "black": {"start_number": b.black, "name": t.player(b.black).name,
                                        "link": f"{base}game/{g.id}#token={g.tokens['black']}"},
                              "arbiter": f"{base}game/{g.id}#token={g.tokens['arbiter']}",
                              "spectator": f"{base}game/{g.id}"})
        starts_at = None
        if body.start_in is not None:  # a scheduled start: the arbiter's start, given now for later
            starts_at, _ = await start_boards(t.rounds[-1].boards, body.start_in)
        notify(t.id)
        return {"round": rnd.number, "boards": seats, "held": held and starts_at is None, "starts_at": starts_at,
                "console": f"{base}tournament/{t.id}/arbiter#token={arbiter}",
                "players": [{"start_number": n, "page": f"{base}tournament/{t.id}/player/{n}#token={tok}"}
                            for n, tok in sorted(mine.items())],
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind} for y in rnd.byes]}

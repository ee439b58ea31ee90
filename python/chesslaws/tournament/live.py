"""Tournaments on the live server: a round's games created from its pairings, results flowing back.

:func:`install` adds to the server's app:

- ``POST /api/tournaments``: a tournament with its regulations and players;
  answers its id and the secret token of its arbiter (shown once);
- ``POST /api/tournaments/{id}/rounds`` (the arbiter's token as Bearer): pairs
  the next round and creates each board's game through the hub, with the
  event's regulations in its start event; answers the seat links per player;
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
- ``GET /tournament/{id}``: the standings page; ``GET /tournament/{id}/arbiter``:
  the round's arbiter console page (the arbiter's token in the URL fragment).

Each game's arbiter token is kept only sealed with the tournament arbiter's
token (XOR with an HMAC-SHA256 key stream of that token and the game id): the
server keeps the hash of the one and cannot open the other without it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from pathlib import Path
from typing import Any, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from chesslaws.tournament.model import Regulations, Scoring, Tournament, TournamentError
from chesslaws.tournament.pairing import pair_next_round
from chesslaws.tournament.store import TournamentStore
from chesslaws.tournament.tiebreaks import crosstable, standings

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100)
    rating: int = Field(0, ge=0, le=3500)
    title: str = Field("", max_length=3)
    federation: str = Field("", max_length=3)
    fide_id: str = Field("", max_length=11)


class EnteredResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    result: Literal["1-0", "0-1", "1/2-1/2", "0-0", "+-", "-+", "--"]


class NewTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100)
    system: Literal["swiss", "round-robin", "double-round-robin"] = "swiss"
    rounds: int = Field(9, ge=1, le=99)
    edition: Literal["1989", "1997", "2023"] = "2023"
    time_control: str = Field("5400+30", max_length=200)
    default_time: float | None = Field(None, ge=0)
    scoring: str = Field("1-0.5-0", max_length=40)
    quickplay: bool = False
    tiebreaks: list[str] | None = None
    players: list[NewPlayer] = Field(default_factory=list, max_length=2000)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _stream(key: str, game_id: str, n: int) -> bytes:
    out = b""
    block = 0
    while len(out) < n:
        out += hmac.new(key.encode("utf-8"), f"{game_id}/{block}".encode(), hashlib.sha256).digest()
        block += 1
    return out[:n]


def seal(game_token: str, arbiter_token: str, game_id: str) -> str:
    """A game's arbiter token sealed with the tournament arbiter's token (hex)."""
    raw = game_token.encode("utf-8")
    return bytes(a ^ b for a, b in zip(raw, _stream(arbiter_token, game_id, len(raw)))).hex()


def unseal(sealed: str, arbiter_token: str, game_id: str) -> str:
    raw = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(raw, _stream(arbiter_token, game_id, len(raw)))).decode("utf-8")


def _san_list(moves: list[tuple[int, str, str]], last: int) -> str:
    """The last ``last`` moves (ply, colour, SAN) as a scoresheet reads them: ``23. Nf3 Nc6 24. e4``."""
    parts: list[str] = []
    for i, (ply, color, san) in enumerate(moves[-last:]):
        number = (ply + 1) // 2  # ply 1 is White's first move
        if color == "white":
            parts.append(f"{number}. {san}")
        elif i == 0:
            parts.append(f"{number}… {san}")
        else:
            parts.append(san)
    return " ".join(parts)


def retired_console(view: dict[str, Any]) -> dict[str, Any]:
    """A game that is over and out of memory, from its stored final view (no replay)."""
    moves = [(int(m["ply"]), str(m["color"]), str(m["san"])) for m in view.get("moves", [])]
    clocks = view.get("clocks") or {}
    return {
        "status": view.get("status"), "result": view.get("result"), "termination": view.get("termination"),
        "started": True, "ply": view.get("ply", len(moves)), "turn": view.get("turn"),
        "last_moves": _san_list(moves, 4),
        "clocks": {"white_ms": clocks.get("white_ms"), "black_ms": clocks.get("black_ms"), "running": None,
                   "timed": view.get("time_control", "-") != "-"},
        "clocks_stopped": False, "flags": [], "pending": [], "absent": [], "waiting_for": [], "to_decide": [],
    }


def game_console(hub: Any, live: Any) -> dict[str, Any]:
    """One game as the round's arbiter console shows it (the state at the server's instant)."""
    from chesslaws.server.hub import seen_at

    t = hub.t_of(live)
    st = seen_at(live.game, t).state
    cfg = st.config
    timed = not cfg.time_control.unlimited
    ongoing = st.status == "ongoing"
    clocks = {c: st.remaining_ms(c) for c in ("white", "black")}
    stopped = ongoing and timed and st.clock.running is None
    pending = st.pending()
    decide: list[str] = []
    for p in pending:
        if p["kind"] not in ("draw_offer", "illegal_move_claimable", "touch_move_claimable"):
            decide.append(f"{p['kind'].replace('_', ' ')} by {p.get('by')}" +
                          (f" ({p['reason']})" if p.get("reason") else ""))
    flags = [c for c in ("white", "black") if ongoing and timed and (ms := clocks[c]) is not None and ms <= 0]
    decide += [f"{c}'s flag has fallen" for c in flags]
    if stopped:
        decide.append("clocks stopped")
    if st.status == "adjourned":
        decide.append("adjourned: the sealed move waits")
    if st.status == "annulled":
        decide.append("annulled: enter the board's result in the Result column")
    return {
        "status": st.status, "result": st.result, "termination": st.termination,
        "started": t >= 0, "ply": len(st.moves), "turn": st.turn,
        "last_moves": _san_list([(m.ply, m.color, m.san) for m in st.moves[-4:]], 4),
        "clocks": {"white_ms": clocks["white"], "black_ms": clocks["black"],
                   "running": st.clock.running if ongoing else None, "timed": timed},
        "clocks_stopped": stopped, "flags": flags,
        "pending": pending, "absent": sorted(st.absent), "waiting_for": hub.waiting_for(live),
        "to_decide": decide,
    }


def install(app: FastAPI, hub: Any, db_url: str) -> None:
    """Adds the tournament routes and page to the server's app (``hub``: its games; ``db_url``: its database)."""
    from chesslaws.server.hub import ApiError

    store = TournamentStore(db_url)
    lock = asyncio.Lock()
    bearer = HTTPBearer(auto_error=False)

    def load(tid: str) -> Tournament:
        try:
            return store.load(tid)
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

    async def sync(t: Tournament) -> Tournament:
        """Results of the games the Laws have ended since the last look (also those already out of memory)."""
        changed = False
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.result is not None or b.game_id is None:
                    continue
                live = await game_of(b.game_id)
                if live is None or live.game.state.result == "*":
                    continue
                t = t.result_from_game(rnd.number, b.table, live.game)
                store.save_game_log(t.id, rnd.number, b.table, live.game.log_lines())
                changed = True
        return store.save(t) if changed else t

    def view(t: Tournament) -> dict[str, Any]:
        names = {p.start_number: p.name for p in t.players}
        return {
            "id": t.id, "name": t.name, "regulations": t.regulations.to_json(),
            "total_rounds": t.total_rounds, "finished": t.finished,
            "players": [p.to_json() for p in t.players],
            "rounds": [{"number": r.number, "complete": r.complete,
                        "boards": [{"table": b.table, "white": b.white, "black": b.black,
                                    "white_name": names[b.white], "black_name": names[b.black],
                                    "result": b.result, "game_id": b.game_id,
                                    "game": f"/game/{b.game_id}" if b.game_id else None} for b in r.boards],
                        "byes": [{"player": y.player, "name": names[y.player], "kind": y.kind} for y in r.byes]}
                       for r in t.rounds],
            "standings": [s.to_json() for s in standings(t)],
            "crosstable": [{"start_number": int(row[0]), "name": row[1], "rating": row[2], "rounds": row[3:-1],
                            "points": row[-1]} for row in crosstable(t)],
        }

    def arbiter_of(tid: str, cred: HTTPAuthorizationCredentials | None) -> None:
        ok = cred is not None and store.arbiter_token_hash(tid) == _hash(cred.credentials)
        if not ok:
            raise ApiError(403, "the tournament arbiter's token is required (Authorization: Bearer TOKEN)")

    @app.get("/tournament/{tid}", include_in_schema=False)
    async def tournament_page(tid: str) -> FileResponse:
        return FileResponse(WEB_DIR / "tournament.html")

    @app.get("/tournament/{tid}/arbiter", include_in_schema=False)
    async def console_page(tid: str) -> FileResponse:
        return FileResponse(WEB_DIR / "round-console.html")

    @app.get("/api/tournaments/{tid}/console", tags=["tournaments"],
             summary="The round's arbiter console: every board's game as it stands")
    async def console(tid: str, request: Request, round: int | None = None,
                      cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        arbiter_of(tid, cred)
        assert cred is not None
        async with lock:
            t = await sync(load(tid))
        number = round if round is not None else len(t.rounds)
        if t.rounds and not 1 <= number <= len(t.rounds):
            raise ApiError(404, f"round {number}: not paired (rounds 1..{len(t.rounds)})")
        keys = store.game_keys(t.id)
        base = str(request.base_url)
        boards: list[dict[str, Any]] = []
        count = {"boards": 0, "in_play": 0, "finished": 0, "to_decide": 0, "pending": 0, "clocks_stopped": 0}
        rnd = t.rounds[number - 1] if t.rounds else None
        for b in rnd.boards if rnd else ():
            white, black = t.player(b.white), t.player(b.black)
            row: dict[str, Any] = {
                "table": b.table,
                "white": {"start_number": b.white, "name": white.name, "rating": white.rating},
                "black": {"start_number": b.black, "name": black.name, "rating": black.rating},
                "result": b.result, "termination": b.termination, "game_id": b.game_id, "game": None,
                "arbiter": None, "spectator": f"{base}game/{b.game_id}" if b.game_id else None,
            }
            if b.game_id:
                sealed = keys.get(b.game_id)
                if sealed:
                    row["arbiter"] = f"{base}game/{b.game_id}#token={unseal(sealed, cred.credentials, b.game_id)}"
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
            boards.append(row)
        return {"id": t.id, "name": t.name, "regulations": t.regulations.to_json(), "total_rounds": t.total_rounds,
                "paired_rounds": len(t.rounds), "round": number if rnd else 0,
                "complete": bool(rnd and rnd.complete), "finished": t.finished, "server_t": hub.now(),
                "can_pair": (not t.rounds or t.rounds[-1].complete) and len(t.rounds) < t.total_rounds,
                "page": f"{base}tournament/{t.id}", "counts": count, "boards": boards,
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind}
                         for y in (rnd.byes if rnd else ())]}

    @app.post("/api/tournaments", status_code=201, tags=["tournaments"], summary="Create a tournament")
    async def create_tournament(body: NewTournament, request: Request) -> dict[str, Any]:
        try:
            reg = Regulations(system=body.system, rounds=body.rounds, edition=body.edition,
                              time_control=body.time_control, default_time=body.default_time,
                              scoring=Scoring.parse(body.scoring), quickplay=body.quickplay,
                              tiebreaks=tuple(body.tiebreaks) if body.tiebreaks else
                              (Regulations().tiebreaks if body.system == "swiss" else ("DE", "SB", "WIN", "BPG")))
            t = Tournament(body.name, reg)
            for p in body.players:
                t = t.add_player(p.name, p.rating, p.title, p.federation, p.fide_id)
        except TournamentError as err:
            raise ApiError(422, str(err)) from None
        token = secrets.token_urlsafe(24)
        async with lock:
            t = store.save(t)
            store.set_arbiter_token_hash(t.id, _hash(token))
        return {"id": t.id, "arbiter_token": token, "page": f"{request.base_url}tournament/{t.id}",
                "console": f"{request.base_url}tournament/{t.id}/arbiter#token={token}", **view(t)}

    @app.get("/api/tournaments/{tid}", tags=["tournaments"], summary="Rounds and standings of a tournament")
    async def get_tournament(tid: str) -> dict[str, Any]:
        async with lock:
            return view(await sync(load(tid)))

    @app.post("/api/tournaments/{tid}/rounds/{number}/boards/{table}/result", tags=["tournaments"],
              summary="The arbiter enters a board's result (a game annulled, or not played on the server)")
    async def enter_result(tid: str, number: int, table: int, body: EnteredResult,
                           cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        arbiter_of(tid, cred)
        async with lock:
            t = await sync(load(tid))
            try:
                board = next((b for b in t.round(number).boards if b.table == table), None)
            except TournamentError as err:
                raise ApiError(404, str(err)) from None
            if board is None:
                raise ApiError(404, f"round {number}: no table {table}")
            if board.game_id is not None:
                live = await game_of(board.game_id)
                if live is not None and live.game.state.status != "annulled":
                    state = "in play" if live.game.state.result == "*" else "over"
                    raise ApiError(409, f"round {number} table {table}: its game is {state} on this server: "
                                        "its result comes from the game (decide there, in its arbiter console)")
            t = store.save(t.set_result(number, table, body.result))
        return {"round": number, "table": table, "result": body.result}

    @app.post("/api/tournaments/{tid}/rounds", status_code=201, tags=["tournaments"],
              summary="Pair the next round and create its games")
    async def next_round(tid: str, request: Request,
                         cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        arbiter_of(tid, cred)
        assert cred is not None
        async with lock:
            t = await sync(load(tid))
            try:
                if not t.rounds and t.regulations.system == "swiss":
                    t = t.order_by_rating()
                t = await asyncio.to_thread(pair_next_round, t)  # bbpPairings runs as a child process
            except TournamentError as err:
                raise ApiError(409, str(err)) from None
            except Exception as err:  # WrongState: the round before is not finished
                raise ApiError(409, str(err)) from None
            rnd = t.rounds[-1]
            base = str(request.base_url)
            seats: list[dict[str, Any]] = []
            for b in rnd.boards:
                white, black = t.player(b.white), t.player(b.black)
                start = t.regulations.start_event(white=white.name, black=black.name, round_number=rnd.number,
                                                  event=t.name)
                start.pop("type")
                start.pop("t")
                live, tokens = await hub.create(start, {"white": white.name, "black": black.name}, "online")
                t = t.set_game_id(rnd.number, b.table, live.id)
                store.save_game_key(t.id, live.id, seal(tokens["arbiter"], cred.credentials, live.id))
                seats.append({"table": b.table, "game_id": live.id,
                              "white": {"start_number": b.white, "name": white.name,
                                        "link": f"{base}game/{live.id}#token={tokens['white']}"},
                              "black": {"start_number": b.black, "name": black.name,
                                        "link": f"{base}game/{live.id}#token={tokens['black']}"},
                              "arbiter": f"{base}game/{live.id}#token={tokens['arbiter']}",
                              "spectator": f"{base}game/{live.id}"})
            t = store.save(t)
        return {"round": rnd.number, "boards": seats,
                "console": f"{base}tournament/{t.id}/arbiter#token={cred.credentials}",
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind} for y in rnd.byes]}

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
- ``GET /tournament/{id}``: the standings page.
"""

from __future__ import annotations

import asyncio
import hashlib
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

    def sync(t: Tournament) -> Tournament:
        """Results of the games the Laws have ended since the last look."""
        changed = False
        for rnd in t.rounds:
            for b in rnd.boards:
                if b.result is not None or b.game_id is None:
                    continue
                live = hub.games.get(b.game_id)
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
        return {"id": t.id, "arbiter_token": token, "page": f"{request.base_url}tournament/{t.id}", **view(t)}

    @app.get("/api/tournaments/{tid}", tags=["tournaments"], summary="Rounds and standings of a tournament")
    async def get_tournament(tid: str) -> dict[str, Any]:
        async with lock:
            return view(sync(load(tid)))

    @app.post("/api/tournaments/{tid}/rounds", status_code=201, tags=["tournaments"],
              summary="Pair the next round and create its games")
    async def next_round(tid: str, request: Request,
                         cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, Any]:
        arbiter_of(tid, cred)
        async with lock:
            t = sync(load(tid))
            try:
                if not t.rounds and t.regulations.system == "swiss":
                    t = t.order_by_rating()
                t = pair_next_round(t)
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
                seats.append({"table": b.table, "game_id": live.id,
                              "white": {"start_number": b.white, "name": white.name,
                                        "link": f"{base}game/{live.id}#token={tokens['white']}"},
                              "black": {"start_number": b.black, "name": black.name,
                                        "link": f"{base}game/{live.id}#token={tokens['black']}"},
                              "arbiter": f"{base}game/{live.id}#token={tokens['arbiter']}",
                              "spectator": f"{base}game/{live.id}"})
            t = store.save(t)
        return {"round": rnd.number, "boards": seats,
                "byes": [{"player": y.player, "name": t.player(y.player).name, "kind": y.kind} for y in rnd.byes]}

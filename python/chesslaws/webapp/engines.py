"""Playing against an engine: ``GET /api/engines`` (the engines and the strength settings each offers) and
``POST /api/engines/games`` (a new game against one; the answer holds the person's seat link). The engines
themselves, as players of the hub, are :class:`chesslaws.server.engines.EnginePlayers`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from chesslaws.server.engines import EngineGame
from chesslaws.webapp.context import address, engines_of, hub_of

router = APIRouter()


@router.get("/api/engines", tags=["engines"], summary="The engines one can play against")
async def list_engines(request: Request) -> list[dict[str, Any]]:
    return engines_of(request).listing()


@router.post("/api/engines/games", status_code=201, tags=["engines"], summary="Play against an engine")
async def engine_game(body: EngineGame, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    hub.rate.hit("create_per_address", address(request))
    raw = body.model_dump()
    if raw["strength"].get("value") is None:
        raw["strength"].pop("value")
    live, token, color = await engines_of(request).new_game(raw)
    base = str(request.base_url)
    return {"id": live.id, "color": color, "token": token, "link": f"{base}game/{live.id}#token={token}",
            "state": hub.view(live)}


__all__ = ["router"]

"""The games' request and response models: what the routes validate and the OpenAPI description shows."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from chesslaws.events import RANGES, SCHEMAS
from chesslaws.qrcode import MAX_TEXT
from chesslaws.server.guard import VisibleName

class CreateGame(BaseModel):
    """A new game. Players left out (null) leave their seat open for ``join``."""

    model_config = ConfigDict(extra="forbid")
    edition: Literal["1989", "1997", "2023"] = "2023"
    time_control: str = Field("300+2", max_length=200, description="e.g. 300+2, 40/5400+30:1800+30, 300d5, - (no clock)")
    mode: Literal["standard", "rapid", "blitz"] | None = None
    arbiter: Literal["present", "absent", "occasional"] = Field("present", description=(
        "present: the arbiter sees flags and illegal moves at once; absent: only the players' claims; occasional: "
        "present in the venue, he sees them when his console says he observed them ('observe')"))
    white: VisibleName | None = Field(None, min_length=1, max_length=100)
    black: VisibleName | None = Field(None, min_length=1, max_length=100)
    fen: str | None = Field(None, max_length=200)
    variant: Literal["standard", "chess960"] = Field(
        "standard", description="chess960: 2023 Guidelines II (the 2023 Laws only)")
    start_position: int | None = Field(None, ge=0, le=959, description=(
        "Chess960 only: the starting position's number (518 is the standard array); left out (and no fen), "
        "the server draws one at random and writes it into the log"))
    interface: Literal["online", "otb"] = Field(
        "online", description="online: players act for themselves and illegal moves are refused; "
                              "otb: over-the-board, the arbiter enters every event and illegal moves are logged")
    start_in: float = Field(0, ge=0, le=86400, description="seconds until the scheduled start (t=0)")
    when_ready: bool | None = Field(None, description=(
        "online only: t=0 (the clocks start) when both seats are taken and both players have opened the game "
        "(its WebSocket with their token). Left out, it is true for an online game without start_in (the fair "
        "start, the default); false: the clocks start at creation"))
    abort_after: float | None = Field(None, ge=5, le=3600, description=(
        "online only: seconds after the start (for Black: after White's first move) within which the side to "
        "move must make its first move, else the game is aborted: logged as the arbiter's 'annul' with a "
        "reason beginning 'aborted:' (no result)"))
    presence: bool | None = Field(None, description=(
        "online only, with start_in: both players count as absent until they open the game (its WebSocket "
        "with their token); those there before t=0 arrive at t=0, later ones when they open it, and the "
        "edition's default time (Article 6.7; 'default_time' to set it) decides who came too late. Left out, "
        "it is true for an online game with start_in > 0 (unless when_ready is true); false: the clocks start "
        "at t=0 whoever is there"))
    default_time: float | None = Field(None, ge=0, le=86400, description="seconds: the default time announced "
                                                                         "for late arrival (Article 6.7)")
    quickplay_guidelines: bool | None = None
    clock: Literal["analogue", "digital"] | None = Field(None, description=(
        "the clock at the board: digital establishes which flag fell first when both have fallen (1989 12.8, "
        "1997 6.11, 2023 III.3.1); analogue (the default) does not"))
    visually_disabled: list[Literal["white", "black"]] | None = Field(None, max_length=2, description=(
        "2023 Appendix D: the players who are visually disabled (moves announced, two boards, game scores)"))
    assistant: list[Literal["white", "black"]] | None = Field(None, max_length=2, description=(
        "2023 8.1.6, D.2.10-D.2.11: the players with an assistant at the board (one who records the moves for a "
        "player unable to keep score; a visually disabled player's, or the sighted player's when he has none)"))
    hearing_impaired: list[Literal["white", "black"]] | None = Field(None, max_length=2, description=(
        "2023 D.2.11: hearing-impaired players (a visually disabled player paired with one needs an assistant)"))
    setup: str | None = Field(None, max_length=200, description=(
        "the position actually on the board when it differs from the one the game should begin from (fen, or "
        "the initial position): a FEN (its piece placement is read); the game is played from it, castling kept "
        "only for a king and rook on their squares (2023 7.2, A.5.1.2; 1997 7.1, B.4; 1989 8.5). Not Chess960"))
    no_draw_offers: bool | None = Field(None, description=(
        "the event's regulations: no draw offered or agreed without the arbiter's consent (2023 9.1.1; under "
        "the 1989 and 1997 Laws an agreement ends the game all the same and the regulations sanction it)"))
    no_draw_before_move: int | None = Field(None, ge=1, le=1000, description=(
        "the event's regulations: no draw offered or agreed before each player has made this many moves, without "
        "the arbiter's consent (2023 9.1.1)"))
    report_leaving: bool | None = Field(None, description=(
        "the event's regulations: the opponent of the player having the move reports to the arbiter before "
        "leaving the playing area (2023 11.2.4)"))
    increment_possible: bool | None = Field(None, description=(
        "false: the clocks cannot introduce the increment of 2023 Guidelines III.4 (\"if possible\"), so a "
        "request for one is not granted and III.5's claim remains"))
    event: str | None = Field(None, max_length=200)
    site: str | None = Field(None, max_length=200)
    round: str | None = Field(None, max_length=50)
    arbiter_link: bool | None = Field(None, description=(
        "online only: whether the creator receives the game's arbiter token. Left out, he does when both seats are "
        "named, and not when a seat is left open (whoever takes that seat must not face an opponent who "
        "is also the arbiter). true with a seat open: the game's state says arbiter_is_a_player, and a player "
        "joins only with 'arbiter_is_a_player': true in his request (he was told before he sat down)"))


def fair_start(body: CreateGame) -> tuple[bool, bool]:
    """``when_ready`` and ``presence`` as the request asks, with the fair start as the default of every
    online game: without start_in, the clocks start when both players have opened the game; with start_in,
    at the scheduled start, the players absent until they open it (the default time decides). The clocks
    run from creation (or from t=0 whoever is there) only when asked for with false. Over-the-board games
    keep the Laws' start: neither applies to them."""
    online = body.interface == "online"
    when_ready = body.when_ready if body.when_ready is not None else \
        online and body.start_in == 0 and not body.presence
    presence = body.presence if body.presence is not None else online and body.start_in > 0 and not when_ready
    return when_ready, presence


class QrText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, description=f"what the QR code holds, e.g. a seat link (at most {MAX_TEXT} "
                                                "characters)")

    @field_validator("text")
    @classmethod
    def _short(cls, text: str) -> str:
        if len(text) > MAX_TEXT:
            raise ValueError(f"too long for a QR code here: {len(text)} characters, at most {MAX_TEXT} (a seat "
                             "link has fewer than 200)")
        return text


class CreatedGame(BaseModel):
    id: str
    tokens: dict[str, str] = Field(description="seat -> secret token; shown once, only hashes are stored")
    links: dict[str, str]
    state: dict[str, Any]


class JoinSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Literal["white", "black"]
    name: VisibleName = Field(min_length=1, max_length=100)
    arbiter_is_a_player: bool = Field(False, description=(
        "true: the player knows that the game's creator, his opponent, holds its arbiter's link (the state's "
        "arbiter_is_a_player); such a game refuses a join without it"))


class Joined(BaseModel):
    seat: str
    token: str
    link: str


class SeatInfo(BaseModel):
    seat: Literal["white", "black", "arbiter", "spectator"]


class ReadMove(BaseModel):
    """A move as the arbiter records what was played: the text, its coordinates and whether it is legal; or, when
    the text fits several pieces' moves, those moves (``uci`` is then null)."""
    move: str
    uci: str | None
    legal: bool
    candidates: list[str] = []


class ErrorBody(BaseModel):
    error: str
    status: int


class Ack(BaseModel):
    seq: int
    event: dict[str, Any]
    state: dict[str, Any]


def _event_model() -> type[BaseModel]:
    """The OpenAPI description of an event, made from the arbiter's own schemas (``events.SCHEMAS``),
    so that every event type and every field the arbiter takes is in it, and nothing else."""
    pytypes: dict[str, Any] = {}
    for schema in SCHEMAS.values():
        for name, kind in {**schema.required, **schema.optional}.items():
            kinds = kind if isinstance(kind, tuple) else (kind,)
            t: Any = float if set(kinds) == {int, float} else (kinds[0] if len(kinds) == 1 else str)
            if kinds == (str, int):
                t = str | int
            pytypes[name] = t
    types = tuple(k for k in SCHEMAS if k != "start")
    fields: dict[str, Any] = {
        "type": (Literal[types], Field(description="the event type; see the game-log documentation")),
        "by": (Literal["white", "black", "arbiter"] | None, Field(
            None, description="a player's token acts for its own side; the arbiter names the side in "
                              "over-the-board games")),
    }
    for name, t in sorted(pytypes.items()):
        if name in ("type", "by", "t"):
            continue
        users = sorted(k for k, sc in SCHEMAS.items() if name in sc.required or name in sc.optional)
        low, high = RANGES.get(name, (None, None))
        fields[name] = (t | None, Field(None, ge=low, le=high, description="in: " + ", ".join(users)))
    model: type[BaseModel] = create_model(
        "EventIn", __config__=ConfigDict(extra="forbid"),
        __doc__="An event of the game log without ``t`` (the server stamps it): see docs/game-log.md.",
        **fields)
    return model


EventIn = _event_model()


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text} for code, text in (
        (400, "the body is not strict JSON (syntax, repeated key, NaN, nesting, a lone surrogate)"),
        (401, "the token opens no seat of this game"),
        (403, "this seat may not send this event"),
        (404, "no such game"),
        (409, "not allowed now (the game's state, a set-aside game, a full log)"),
        (413, "the body is too large"),
        (422, "a field is wrong (named in the message), or the arbiter refuses the event"),
        (429, "too many requests: see Retry-After"),
        (503, "the database is unreachable: nothing was recorded; see Retry-After"),
    )
}


__all__ = ["Ack", "CreateGame", "CreatedGame", "ERRORS", "ErrorBody", "EventIn", "JoinSeat", "Joined", "QrText",
           "ReadMove", "SeatInfo", "fair_start"]

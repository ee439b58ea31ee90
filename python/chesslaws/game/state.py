"""The arbiter's values and the shared machinery: the state of a game, the
``start`` event's configuration, the builder of one transition, and the
helpers every part of the Laws uses.

Articles, by edition (each ruling's article comes from the rule keys of
:mod:`chesslaws.editions`):

- 1989: 10.5 (a bare king cannot win, whatever ended the game:
  :meth:`_Builder.end`, :func:`_bare_king`), 13.2, 13.3 (what the sealed move's
  envelope shows: :class:`Envelope`), 17 (scoring: :class:`Outcome`).
- 1997: 11.1 (scoring), A.2, A.3 (the envelope), B.6, B.7 (flags seen only on a
  claim in rapid play: :attr:`Config.flags_observed`), C.4 (in blitz no win
  without mating potential, whatever ended the game: :meth:`_Builder.end`,
  :func:`mating_potential`).
- 2023: 5.1.1, 5.2.1, 5.2.2 (an end produced by a move that broke Article 4, held while
  the breach can be claimed: :class:`HeldEnd`), II.2 (the Chess960 starting position: :func:`_config_from_start`,
  :attr:`Config.start_number`), 9.1.2.2 (the offer noted on the scoresheet: :class:`MoveRecord`), 10.1,
  10.2 (points), 11.3.2 (the regulations' lighter device penalty:
  :attr:`Config.device_penalty_lighter`), 12.9.4, 12.9.5, 12.9.6 (points a
  penalty sets: :attr:`Outcome.points`), A.4, A.5, A.6 and B.2, B.3, B.4 (full or partial
  supervision: :attr:`Config.supervised`, :func:`_config_from_start`), D.1
  (visually disabled players: :attr:`Config.visually_disabled`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from chesslaws._core import mating_potential as native_mating_potential
from chesslaws._values import replace
from chesslaws.clock import Clock
from chesslaws.editions import Edition, Mode, get_edition
from chesslaws.errors import InvalidFen, InvalidInput, WrongState
from chesslaws.events import Event, EventError, ms_to_t
from chesslaws.history import Keys, MoveRecord as MoveRecord, Moves
from chesslaws.regulations import Regulations, regulations_from_start
from chesslaws.position import STARTING_FEN, Position, chess960_start_number
from chesslaws.timecontrol import Color, TimeControl, TimeControlError, classify


Status = Literal["ongoing", "finished", "adjourned", "annulled"]


Result = Literal["1-0", "0-1", "1/2-1/2", "0-0", "*"]


Termination = Literal[
    "checkmate",
    "resignation",
    "stalemate",
    "agreement",
    "threefold_repetition",
    "fifty_moves",
    "fivefold_repetition",
    "seventyfive_moves",
    "dead_position",
    "insufficient_material",
    "time_forfeit",
    "both_flags_fallen",
    "illegal_moves",
    "late_arrival",
    "sealed_move_invalid",
    "arbiter_decision",
    "refusal_to_comply",
    "annulled",
]


NAME: Mapping[str, str] = {"white": "White", "black": "Black"}


def other(color: Color) -> Color:
    return "black" if color == "white" else "white"


def fmt_duration(ms: int) -> str:
    """``3:00`` for 180000 ms, ``1:02:03`` for hours, ``0:00.5`` for fractions."""
    sign = "-" if ms < 0 else ""
    ms = abs(ms)
    s, frac = divmod(ms, 1000)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    text = f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
    if frac:
        text += f".{frac:03d}".rstrip("0")
    return sign + text


class GameError(WrongState):
    """An event that is well formed but not allowed now; names the event."""

    def __init__(self, event: Event | None, reason: str) -> None:
        where = f"{event.type} at t={ms_to_t(event.t_ms)}" if event is not None else "event"
        super().__init__(f"{where}: {reason}")
        self.event = event
        self.reason = reason


class LogError(InvalidInput):
    """A log that cannot be replayed; ``line`` is the 1-based line number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


@dataclass(frozen=True, slots=True)
class Ruling:
    """A decision the Laws forced, citing the edition's article."""

    t_ms: int
    edition: str
    article: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"t": ms_to_t(self.t_ms), "edition": self.edition, "article": self.article, "text": self.text}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the result and the reason."""

    result: Result
    termination: Termination
    points: tuple[float, float] | None = None  # (White, Black) when a penalty changed them (2023 12.9.4-12.9.6)

    @property
    def winner(self) -> Color | None:
        return {"1-0": "white", "0-1": "black"}.get(self.result)  # type: ignore[return-value]

    @property
    def score(self) -> dict[str, int | float]:
        """Points per Article 11.1 (1997): 1, 1/2, 0; both lose: 0 each; or
        the points an arbiter's penalty set (2023 12.9.4-12.9.6)."""
        if self.points is not None:
            return {"white": _num(self.points[0]), "black": _num(self.points[1])}
        scores: dict[str, dict[str, int | float]] = {
            "1-0": {"white": 1, "black": 0},
            "0-1": {"white": 0, "black": 1},
            "1/2-1/2": {"white": 0.5, "black": 0.5},
            "0-0": {"white": 0, "black": 0},
        }
        return scores[self.result]


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def win_for(color: Color, termination: Termination) -> Outcome:
    return Outcome("1-0" if color == "white" else "0-1", termination)


def draw(termination: Termination) -> Outcome:
    return Outcome("1/2-1/2", termination)


@dataclass(frozen=True, slots=True)
class UnpressedMove:
    """An illegal move made on the board and not yet completed by pressing the clock
    (2023 7.5.1, 1997 C.3): the player may still replace it; pressing completes it."""

    move: str  # as written in the log
    offer_draw: bool
    touched_before: tuple[str, ...]  # the squares touched before it (Article 4.3 binds the replacement)


@dataclass(frozen=True, slots=True)
class Displacement:
    """Pieces a player displaced and has not yet re-established (2023 7.4, 1997 7.3, 1989 8.3)."""

    by: Color
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Slip:
    """A move whose announcement differs from the move executed, made without pressing the clock: the
    slip of the tongue may still be corrected before the opponent's clock is started (2023 D.2.8)."""

    by: Color
    said: str  # the announced move (UCI)
    before: GameState  # the state before the move, to play the announcement instead


@dataclass(frozen=True, slots=True)
class DrawOffer:
    by: Color
    t_ms: int
    ply: int  # moves on the board when it was made


@dataclass(frozen=True, slots=True)
class Envelope:
    """A sealed move (1989 13.2, 1997 A.2, 2023 I.2). ``move`` stays secret
    until the envelope is opened: :meth:`public` is all anyone else sees."""

    sealer: Color
    move: str  # as written, in any notation or language
    language: str | None
    fen_before: str
    move_number: int
    white_used_ms: int | None
    black_used_ms: int | None
    draw_offer: Color | None
    t_ms: int
    resumption: str | None
    white: str
    black: str
    clock_before: Clock  # the clocks as at adjournment, for a lost envelope (A.11)
    reply: bool = False  # a reply sealed because the sealer was absent (A.9(c))

    def public(self) -> dict[str, Any]:
        return {
            "kind": "sealed_move",
            "by": self.sealer,
            "move_number": self.move_number,
            "reply": self.reply,
            "position_before": self.fen_before,
            "white_used_ms": self.white_used_ms,
            "black_used_ms": self.black_used_ms,
            "draw_offer": self.draw_offer,
            "sealed_at": ms_to_t(self.t_ms),
            "resumption": self.resumption,
            "white": self.white,
            "black": self.black,
        }


@dataclass(frozen=True, slots=True)
class Config:
    """What the ``start`` event fixed."""

    edition: Edition
    time_control: TimeControl
    mode: Mode
    arbiter_present: bool
    white: str
    black: str
    fen: str
    default_time_ms: int
    fifty_move_limit: int
    start_t_ms: int
    absent: frozenset[str]
    tags: Mapping[str, str]
    quickplay_guidelines: bool
    supervised: bool = True  # 2023 A.4 / B.2 (False: A.5 / B.3, an arbiter for several games)
    device_penalty_lighter: bool = False  # 2023 11.3.2.2: the regulations specify a less severe penalty
    visually_disabled: frozenset[str] = frozenset()  # 2023 Appendix D (1997: not in the Laws)
    chess960: bool = False  # 2023 Guidelines II: Chess960 castling
    start_number: int | None = None  # the Chess960 starting position's number (0-959), when known
    clock_shows_first_flag: bool = False  # a digital clock establishes which flag fell first (2023 III.3.1)
    observes_all: bool = True  # False: an arbiter present who sees only what ``observe`` events say (A.5.2)
    assistants: frozenset[str] = frozenset()  # the players with an assistant at the board (2023 D.2.10-D.2.11)
    hearing_impaired: frozenset[str] = frozenset()  # 2023 D.2.11 (an assistant is then required)
    #: A live game's creator who holds a seat holds its arbiter's link too, asked for with a seat left open: the
    #: player who takes that seat is told before he sits down. The Laws' arbiter is never a player.
    arbiter_is_a_player: bool = False
    regulations: Regulations = Regulations()  # the event's regulations the Laws defer to (2023 9.1.1, 11.2.4, III.4)
    intended_fen: str | None = None  # the position the game should have begun from, when ``fen`` was set up wrongly

    def initial_position(self) -> Position:
        """The position the game starts from, in its castling mode."""
        return Position(self.fen, chess960=self.chess960)

    @property
    def partially_supervised(self) -> bool:
        """2023 A.5 (rapid) and B.3 (blitz): one arbiter for several games. Under A.5.2, once the opponent has
        made his next move, an illegal move (and 7.5.3, 7.5.4) can no longer be acted on."""
        return self.edition.partial_supervision and self.mode in ("rapid", "blitz") and not self.supervised

    @property
    def flags_observed(self) -> bool:
        """Does the system (as arbiter) see flag falls without a claim?"""
        if not self.arbiter_present or not self.observes_all:
            return False
        return not (self.edition.flags_only_on_claim_in_rapid and self.mode in ("rapid", "blitz"))


@dataclass(frozen=True, slots=True)
class Appeal:
    """A player's appeal against a decision of the arbiter, not yet decided (2023 11.10)."""

    by: Color
    ruling: int  # the number (1-based) of the ruling appealed against, in the state's rulings
    t_ms: int


@dataclass(frozen=True, slots=True)
class UnseenAct:
    """An act 2023 7.5.3 or 7.5.4 penalises as an illegal move, made while the arbiter was not watching."""

    by: Color
    rule: str  # the rule key: "press_without_move" or "two_hands"
    words: str  # the ruling's words, for when it is observed or claimed
    ply: int  # the moves on the board once it was made
    answered: bool = False  # the opponent has made his next move since


@dataclass(frozen=True, slots=True)
class HeldEnd:
    """A checkmate, stalemate or dead position produced by a move that broke Article 4 (2023 5.1.1,
    5.2.1, 5.2.2): it ends the game only once the opponent can no longer claim the breach (4.8)."""

    outcome: Outcome
    rule: str  # the rule key of the end ("checkmate", "stalemate", "dead_position")
    text: str  # the ruling's words when it ends the game
    by: Color  # the player whose move produced it


@dataclass(frozen=True, slots=True)
class PendingClaim:
    kind: str
    reason: str
    by: Color
    t_ms: int


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the log says, at instant ``t_ms``."""

    config: Config
    position: Position
    keys: Keys  # repetition keys (Zobrist) of every position so far, the start included
    moves: Moves
    clock: Clock
    t_ms: int
    status: Status = "ongoing"
    outcome: Outcome | None = None
    offer: DrawOffer | None = None  # the pending draw offer
    counter: DrawOffer | None = None  # the other side's offer made while ``offer`` was pending
    offers: tuple[DrawOffer, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    claims: tuple[PendingClaim, ...] = ()
    absent: frozenset[str] = frozenset()
    illegal_moves: Mapping[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    postponed: bool = False  # a quickplay claim was postponed: a draw stays possible
    session_start_ms: int = 0  # start of the current session (resumption), for late arrival
    # Time the arbiter added to the default time of the players absent (6.7.1 "unless the arbiter decides
    # otherwise"): the interruptions in which nobody could reach the board (start_clocks'
    # ``default_time_extended_ms``).
    absence_excused_ms: int = 0
    touched: tuple[str, ...] = ()  # squares touched by the player having the move, in order (Article 4)
    touch_violation: GameState | None = None  # the state before a move that broke touch-move
    held_end: HeldEnd | None = None  # the end that move produced, held while the breach can be claimed (5.1.1)
    illegal_pending: GameState | None = None  # the state before an illegal move that may still be claimed
    envelope: Envelope | None = None  # a sealed move not yet opened
    unpressed: Color | None = None  # the player whose move was made without pressing the clock (6.2.1)
    unpressed_illegal: UnpressedMove | None = None  # an illegal move made and not yet completed (7.5.1)
    released: tuple[tuple[str, str], ...] = ()  # pieces released on a square in this move: (from, to) (4.7)
    promotion_piece: str | None = None  # the promotion piece chosen and final ("q", "r", "b", "n")
    scoresheet_exempt: Mapping[str, bool] = field(default_factory=dict)  # exempt from recording (8.4)
    signed: Mapping[str, str] = field(default_factory=dict)  # the result each player signed (2023 8.7)
    game_scores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # written scores (2023 D.2.9)
    scoresheet_requests: Mapping[str, int] = field(default_factory=dict)  # requests to be shown it (A.4.3)
    observed: bool = False  # the arbiter observed the illegal position the last move left (2023 A.5.4)
    slip: Slip | None = None  # a slip of the tongue not yet corrected nor pressed (2023 D.2.8)
    unseen: tuple[UnseenAct, ...] = ()  # 7.5.3 / 7.5.4 acts the arbiter has not seen yet (7.5.1, A.5.2)
    appeals: tuple[Appeal, ...] = ()  # appeals against the arbiter's decisions, not yet decided (2023 11.10)
    displaced: Displacement | None = None  # pieces displaced, not yet re-established (7.4.1)
    promotion_touched: bool = False  # ... by touching the square of promotion (2023 4.4.4), not by a release
    # The position (this very object) that the dead-position check last found alive: from the next
    # one, if the mover's quiet move can be undone, the check needs no search (completion.py).
    alive: Position | None = None

    @property
    def edition(self) -> Edition:
        return self.config.edition

    @property
    def turn(self) -> Color:
        return self.position.turn

    @property
    def ongoing(self) -> bool:
        return self.status == "ongoing"

    @property
    def default_deadline_ms(self) -> int:
        """The instant (ms) after which a player still absent loses by default (2023 6.7.1, 1997 6.6(a),
        1989 10.15): the session's start, the default time and what the arbiter added to it."""
        return self.session_start_ms + self.config.default_time_ms + self.absence_excused_ms

    @property
    def result(self) -> Result:
        return self.outcome.result if self.outcome else "*"

    @property
    def termination(self) -> Termination | None:
        return self.outcome.termination if self.outcome else None

    def remaining_ms(self, color: Color) -> int | None:
        return self.clock.remaining(self.t_ms, color)

    def repetitions(self) -> int:
        """How often the current position has appeared (this time included)."""
        return self.keys.count(self.keys[-1])

    @property
    def sans(self) -> list[str]:
        return [m.san for m in self.moves]

    def pending(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        live = self.status in ("ongoing", "adjourned")
        for o in (self.offer, self.counter):
            if o is not None and live:
                out.append({"kind": "draw_offer", "by": o.by})
        if self.envelope is not None and live:
            out.append(self.envelope.public())
        if self.illegal_pending is not None and self.ongoing:
            out.append({"kind": "illegal_move_claimable", "by": self.turn})
        if self.touch_violation is not None and self.ongoing:
            out.append({"kind": "touch_move_claimable", "by": self.turn})
        if self.unpressed is not None and self.ongoing and self.clock.running == self.unpressed:
            out.append({"kind": "clock_not_pressed", "by": self.unpressed})
        if self.displaced is not None and self.ongoing:
            out.append({"kind": "pieces_displaced", "by": self.displaced.by, "squares": list(self.displaced.squares)})
        if self.unpressed_illegal is not None and self.ongoing:
            out.append({"kind": "illegal_move_not_completed", "by": self.turn})
        if self.slip is not None and self.ongoing:
            out.append({"kind": "announcement_differs", "by": self.slip.by})
        for c in self.claims:
            out.append({"kind": c.kind, "reason": c.reason, "by": c.by})
        for a in self.appeals:
            out.append({"kind": "appeal", "by": a.by, "ruling": a.ruling})
        return out

    def to_json(self) -> dict[str, Any]:
        """The state exactly as ``chesslaws replay LOG --json`` prints it."""
        return {
            "status": self.status,
            "result": self.result,
            "termination": self.termination,
            "score": self.outcome.score if self.outcome else None,
            "fen": self.position.fen(),
            "ply": len(self.moves),
            "turn": self.turn,
            "clocks": {
                "white_ms": self.remaining_ms("white"),
                "black_ms": self.remaining_ms("black"),
                "running": self.clock.running if self.status == "ongoing" else None,
            },
            "pending": self.pending(),
            "rulings": [r.to_json() for r in self.rulings],
        }


def _config_from_start(ev: Event) -> Config:
    edition = get_edition(str(ev.get("edition", "2023")))
    try:
        tc = TimeControl.parse(str(ev.get("time_control", "-")))
    except TimeControlError as err:
        raise EventError(f"field 'time_control': {err}", field="time_control") from None
    mode: Mode = ev.get("mode") or ("standard" if tc.unlimited else classify(tc, edition.name))
    chess960, start_number, fen = _variant_from_start(ev, edition)
    default_time = ev.get("default_time")
    default_ms = edition.default_time_ms if default_time is None else round(float(default_time) * 1000)
    limit = int(ev.get("fifty_move_limit", 50))
    if limit != 50 and not edition.fifty_move_limit_announceable:
        raise EventError(
            f"field 'fifty_move_limit': only the 1989 Laws (Article 10.12) let organisers announce a "
            f"limit other than 50; the {edition.name} Laws fix it at 50",
            field="fifty_move_limit",
        )
    if limit < 50:
        raise EventError("field 'fifty_move_limit' may only increase the fifty moves (10.12)", field="fifty_move_limit")
    absent = ev.get("absent", [])
    if any(a not in ("white", "black") for a in absent):
        raise EventError("field 'absent' lists players: \"white\" and/or \"black\"", field="absent")
    tags = {k: str(ev.get(k)) for k in ("event", "site", "date", "round") if ev.get(k) is not None}
    visually_disabled = ev.get("visually_disabled", [])
    if any(c not in ("white", "black") for c in visually_disabled):
        raise EventError("field 'visually_disabled' lists players: \"white\" and/or \"black\"", field="visually_disabled")
    if visually_disabled and not edition.visually_disabled_rules:
        raise EventError(f"field 'visually_disabled': Appendix D is the 2023 Laws'; the {edition.name} Laws have "
                         "no rules for visually disabled players", field="visually_disabled")
    assistants = _assistants(ev, frozenset(visually_disabled), edition)
    return Config(
        edition=edition,
        time_control=tc,
        mode=mode,
        arbiter_present=ev.get("arbiter", "present") != "absent",
        observes_all=ev.get("arbiter", "present") != "occasional",
        assistants=assistants,
        hearing_impaired=frozenset(ev.get("hearing_impaired", [])),
        white=str(ev.get("white", "?")),
        black=str(ev.get("black", "?")),
        fen=fen,
        default_time_ms=default_ms,
        fifty_move_limit=limit,
        start_t_ms=ev.t_ms,
        absent=frozenset(absent),
        tags=tags,
        quickplay_guidelines=bool(ev.get("quickplay_guidelines", False)),
        supervised=ev.get("supervision", "full") == "full",
        device_penalty_lighter=ev.get("device_penalty", "loss") == "lighter",
        visually_disabled=frozenset(visually_disabled),
        arbiter_is_a_player=bool(ev.get("arbiter_is_a_player", False)),
        chess960=chess960,
        start_number=start_number,
        clock_shows_first_flag=ev.get("clock", "analogue") == "digital",
        regulations=regulations_from_start(ev),
    )


def _assistants(ev: Event, visually_disabled: frozenset[str], edition: Edition) -> frozenset[str]:
    """The start event's ``assistant`` (the players with an assistant at the board) checked against the
    2023 Laws: a player unable to keep score may provide an assistant who records the moves (8.1.6); in a
    game with a visually disabled player (D.2.10-D.2.11) that player has the right to one, the sighted
    player may use one only when the visually disabled player does not, and one must be used when a
    visually disabled player is paired with a hearing-impaired player (``hearing_impaired``). The 1989
    and 1997 Laws have no assistant."""
    assistants = ev.get("assistant", [])
    hearing = ev.get("hearing_impaired", [])
    for name, value in (("assistant", assistants), ("hearing_impaired", hearing)):
        if any(c not in ("white", "black") for c in value):
            raise EventError(f"field {name!r} lists players: \"white\" and/or \"black\"", field=name)
    if assistants and not edition.assistant_at_board:
        raise EventError(f"field 'assistant': the {edition.name} Laws have no assistant at the board (2023 8.1.6, "
                         "D.2.10-D.2.11)", field="assistant")
    if hearing and not visually_disabled:
        raise EventError("field 'hearing_impaired' belongs to games with a visually disabled player (2023 D.2.11; "
                         "start field 'visually_disabled')", field="hearing_impaired")
    sighted = [c for c in assistants if c not in visually_disabled]
    if sighted and any(c in assistants for c in visually_disabled):
        raise EventError("field 'assistant': the sighted player may use an assistant only when the visually "
                         "disabled player does not (2023 D.2.11)", field="assistant")
    if any(c not in visually_disabled for c in hearing) and not assistants:
        raise EventError("field 'assistant': an assistant must be used when a visually disabled player is paired "
                         "with a hearing-impaired player (2023 D.2.11)", field="assistant")
    return frozenset(assistants)


def _variant_from_start(ev: Event, edition: Edition) -> tuple[bool, int | None, str]:
    """The start event's ``variant``, ``start_position`` and ``fen``: whether
    the game is Chess960, the starting position's number and its FEN.

    Chess960 is in the 2023 Laws only (Guidelines II); a game under an earlier
    edition is refused rather than played under rules that edition does not
    have. A Chess960 game names its starting position by number
    (``start_position``, 0-959, 518 being the standard array) or gives the
    position as ``fen`` (X-FEN or Shredder-FEN castling letters), not both.
    """
    variant = ev.get("variant", "standard")
    number = ev.get("start_position")
    fen = ev.get("fen")
    if variant != "chess960":
        if number is not None:
            raise EventError("field 'start_position' numbers a Chess960 starting position: give it with "
                             "\"variant\": \"chess960\"", field="start_position")
        fen = str(fen) if fen is not None else STARTING_FEN
        try:
            Position(fen)
        except InvalidFen as err:
            hint = ""
            if err.field == "castling":
                try:
                    Position(fen, chess960=True)
                    hint = " (these castling rights are Chess960's: add \"variant\": \"chess960\")"
                except InvalidFen:
                    pass
            raise EventError(f"field 'fen': {err}{hint}", field="fen") from None
        return False, None, fen
    if not edition.chess960:
        raise EventError(f"field 'variant': Chess960 is part of the 2023 Laws only (Guidelines II); the "
                         f"{edition.name} Laws have no Chess960 rules. Use \"edition\": \"2023\"", field="variant")
    if number is not None and fen is not None:
        raise EventError("a Chess960 game gives its starting position as 'start_position' (a number) or as "
                         "'fen', not both", field="fen")
    if number is None and fen is None:
        raise EventError("a Chess960 game needs its starting position: 'start_position' (0-959, 518 is the "
                         "standard array) or 'fen'", field="start_position")
    if number is not None:
        return True, int(number), Position.chess960_start(int(number)).fen()
    try:
        position = Position(str(fen), chess960=True)
    except InvalidFen as err:
        raise EventError(f"field 'fen': {err}", field="fen") from None
    return True, chess960_start_number(position), position.fen()


class _Builder:
    """Accumulates one transition; the state is rebuilt once at the end."""

    def __init__(self, state: GameState) -> None:
        self.s = state
        self.changes: dict[str, Any] = {}
        self.new_rulings: list[Ruling] = []

    def get(self, name: str) -> Any:
        return self.changes.get(name, getattr(self.s, name))

    def set(self, **kw: Any) -> None:
        self.changes.update(kw)

    def rule(self, t_ms: int, rule: str, text: str) -> None:
        ed = self.s.config.edition
        self.new_rulings.append(Ruling(t_ms, ed.name, ed.article(rule), text))

    def end(self, t_ms: int, outcome: Outcome, rule: str, text: str) -> None:
        self.rule(t_ms, rule, text)
        winner = outcome.winner
        if winner is not None and self.s.config.edition.bare_king_cannot_win and _bare_king(self.get("position"), winner):
            # 1989 10.5: "A player having a bare king cannot win the game" -- whatever the way
            # the game was won (a resignation, a penalty, a refusal, a late arrival).
            outcome = Outcome("1/2-1/2", outcome.termination)
            self.rule(t_ms, "bare_king", f"But {NAME[winner]} has only the king left, and a player having a bare "
                      "king cannot win the game: the game is drawn.")
        elif (winner is not None and self.s.config.edition.mating_potential_in_blitz and self.s.config.mode == "blitz"
              and outcome.termination != "checkmate"):
            # 1997 C.4: "In order to win, a player must have mating potential" -- of any win in blitz
            # (a resignation, a flag, a claimed illegal move, a penalty), a checkmate proving it.
            ok, why = mating_potential(self.get("position"), winner)
            if not ok:
                outcome = Outcome("1/2-1/2", outcome.termination)
                self.rule(t_ms, "mating_potential", f"But {NAME[winner]} {why}: in blitz a player must have "
                          "mating potential to win, so the game is drawn.")
        clock: Clock = self.get("clock")
        if clock.running is not None:
            clock = clock.stop(t_ms)
        self.set(status="finished", outcome=outcome, clock=clock, offer=None, counter=None, claims=(), held_end=None)

    def build(self) -> GameState:
        if self.new_rulings:
            self.changes["rulings"] = self.s.rulings + tuple(self.new_rulings)
        return replace(self.s, **self.changes)


def mating_potential(position: Position, color: Color) -> tuple[bool, str]:
    """1997 Appendix C.4: forces that could produce, possibly by helpmate, a
    position where the opponent having the move cannot avoid mate in one;
    (has it, why). Read as material by the native core (``mating_potential``,
    the rule ``chesslaws check`` applies): a queen, rook or pawn suffices; so
    do two minor pieces other than two knights alone (bishop and knight, two
    bishops on both colours); a lone minor piece or two knights suffice only
    when the opponent has material of his own to block his king.
    """
    return native_mating_potential(position, color)


def _bare_king(position: Position, color: Color) -> bool:
    """``color`` has only the king left (1989 Article 10.5)."""
    upper = color == "white"
    return all(k.upper() == "K" for k in position.material() if k.isupper() == upper)


def _clock_times(ev: Event) -> tuple[int, int] | None:
    """The clock times an event sets (``white_ms`` and ``black_ms``, both or neither), or None."""
    w, k = ev.get("white_ms"), ev.get("black_ms")
    if (w is None) != (k is None):
        raise EventError("give both 'white_ms' and 'black_ms', or neither", field="white_ms" if w is None else "black_ms")
    return None if w is None or k is None else (int(w), int(k))


def _require_player_present(b: _Builder, ev: Event) -> None:
    if ev.by in b.s.absent:
        raise GameError(ev, f"{NAME[ev.by or 'white']} has not arrived at the board yet (no 'arrive' event)")


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")

"""The arbiter: a game is its log of events; the Laws turn it into a state.

:class:`Game` is an immutable value. ``game.apply(event)`` returns a new game
(or raises an error naming the event and why it is not allowed now, leaving
the old game as it was); ``game.at(t)`` shows the game at a later instant,
when clocks have run on and an arbiter who is present has observed what
happened by then. Replaying a log always rebuilds the same state: nothing
here reads the wall clock or does I/O, except :meth:`Game.replay`, which
reads a log file.

What differs between editions of the Laws is data in
:mod:`chesslaws.editions`; every ruling cites the edition's article.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Literal, Mapping

from chesslaws.clock import Clock
from chesslaws.editions import Edition, Mode, get_edition
from chesslaws.errors import (
    AmbiguousMove,
    ChessLawsError,
    IllegalMove,
    InvalidFen,
    InvalidInput,
    UnreadableMove,
    WrongState,
)
from chesslaws.events import Event, EventError, ms_to_t, parse_event
from chesslaws.mating import can_mate, is_dead
from chesslaws.position import STARTING_FEN, Position
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
class MoveRecord:
    """One move on the scoresheet."""

    ply: int
    color: Color
    san: str
    uci: str
    t_ms: int
    clock_ms: int | None  # the mover's remaining time after the move
    draw_offer: bool = False
    illegal: bool = False  # an illegal move that stood (1997 C.3, or not claimed without an arbiter)


@dataclass(frozen=True, slots=True)
class DrawOffer:
    by: Color
    t_ms: int
    ply: int  # moves on the board when it was made


@dataclass(frozen=True, slots=True)
class Envelope:
    """A sealed move (1989 13.2, 1997 A.2, 2023 I.1.2). ``move`` stays secret
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
    supervised: bool = True  # 2023 A.3 / B.3.1 (False: A.4 / B.3.2, an arbiter for several games)
    device_penalty_lighter: bool = False  # 2023 11.3.2.2: the regulations specify a less severe penalty
    visually_disabled: frozenset[str] = frozenset()  # 2023 Appendix D (1997: not in the Laws)

    @property
    def flags_observed(self) -> bool:
        """Does the system (as arbiter) see flag falls without a claim?"""
        if not self.arbiter_present:
            return False
        return not (self.edition.flags_only_on_claim_in_rapid and self.mode in ("rapid", "blitz"))


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
    keys: tuple[str, ...]  # repetition keys of every position so far, the start included
    moves: tuple[MoveRecord, ...]
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
    touched: tuple[str, ...] = ()  # squares touched by the player having the move, in order (Article 4)
    touch_violation: GameState | None = None  # the state before a move that broke touch-move
    illegal_pending: GameState | None = None  # the state before an illegal move that may still be claimed
    envelope: Envelope | None = None  # a sealed move not yet opened

    # --- reading the state -------------------------------------------------
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
        for c in self.claims:
            out.append({"kind": c.kind, "reason": c.reason, "by": c.by})
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


# --- building the state ------------------------------------------------------


def _config_from_start(ev: Event) -> Config:
    edition = get_edition(str(ev.get("edition", "2023")))
    try:
        tc = TimeControl.parse(str(ev.get("time_control", "-")))
    except TimeControlError as err:
        raise EventError(f"field 'time_control': {err}", field="time_control") from None
    mode: Mode = ev.get("mode") or ("standard" if tc.unlimited else classify(tc, edition.name))
    fen = str(ev.get("fen", STARTING_FEN))
    try:
        Position(fen)
    except InvalidFen as err:
        raise EventError(f"field 'fen': {err}", field="fen") from None
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
    if visually_disabled and edition.name != "2023":
        raise EventError(f"field 'visually_disabled': Appendix D is the 2023 Laws'; the {edition.name} Laws have "
                         "no rules for visually disabled players", field="visually_disabled")
    return Config(
        edition=edition,
        time_control=tc,
        mode=mode,
        arbiter_present=ev.get("arbiter", "present") == "present",
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
    )


def initial_state(ev: Event) -> GameState:
    if ev.type != "start":
        raise EventError(f"a log begins with a 'start' event, not {ev.type!r}", field="type")
    config = _config_from_start(ev)
    position = Position(config.fen)
    clock = Clock.new(config.time_control).start(ev.t_ms, position.turn)
    state = GameState(
        config=config,
        position=position,
        keys=(position.repetition_key(),),
        moves=(),
        clock=clock,
        t_ms=ev.t_ms,
        absent=config.absent,
        session_start_ms=ev.t_ms,
    )
    # A game set up in a finished position is over at once (5.1, 5.2, 9.6; 1989 10.4).
    b = _Builder(state)
    if _end_checks_after_move(b, ev.t_ms, other(position.turn), "the set-up"):
        return b.build()
    return state


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
        clock: Clock = self.get("clock")
        if clock.running is not None:
            clock = clock.stop(t_ms)
        self.set(status="finished", outcome=outcome, clock=clock, offer=None, counter=None, claims=())

    def build(self) -> GameState:
        if self.new_rulings:
            self.changes["rulings"] = self.s.rulings + tuple(self.new_rulings)
        return replace(self.s, **self.changes)


# --- mating chances ------------------------------------------------------------


def _bare_king(position: Position, color: Color) -> bool:
    """``color`` has only the king left (1989 Article 10.5)."""
    upper = color == "white"
    return all(k.upper() == "K" for k in position.material() if k.isupper() == upper)


def _cannot_win(edition: Edition, position: Position, winner: Color) -> tuple[bool, str, str]:
    """Would ``winner`` be denied the win because he cannot mate, by this
    edition's rule (1989 10.5: a bare king; 1997 and 2023 6.9: no series of
    legal moves mates)? Returns (denied, the words after his name for a
    drawn ruling, the proof to quote when he wins)."""
    if edition.flag_draw == "bare_king":
        return _bare_king(position, winner), " has only the king left", ""
    verdict = can_mate(position, winner)
    return (verdict.can_mate is False,
            f"{verdict.clause} cannot checkmate by any series of legal moves{verdict.proof}", verdict.proof)


def _flag_outcome(b: _Builder, flagged: Color, t_ms: int) -> None:
    """The game after ``flagged``'s flag fell at ``t_ms`` (Articles 6.9 / 10.14)."""
    s = b.s
    ed = s.edition
    opp = other(flagged)
    position: Position = b.get("position")
    if ed.name == "1997" and s.config.mode == "blitz":
        ok, why = _mating_potential(position, opp)
        if not ok:
            b.end(t_ms, draw("time_forfeit"), "mating_potential",
                  f"{NAME[flagged]}'s flag fell, but {NAME[opp]} {why}, without mating potential: the game is drawn.")
            return
    denied, why, proof = _cannot_win(ed, position, opp)
    if denied:
        b.end(t_ms, draw("time_forfeit"), "flag_draw",
              f"{NAME[flagged]}'s flag fell, but {NAME[opp]}{why}: the game is drawn.")
        return
    b.end(
        t_ms,
        win_for(opp, "time_forfeit"),
        "flag",
        f"{NAME[flagged]}'s flag fell before the prescribed moves were completed: {NAME[opp]} wins{proof}.",
    )


# --- observation: what happens by itself as time passes -------------------------


def observe(state: GameState, t_ms: int) -> GameState:
    """The state at ``t_ms``: clocks run on; what an arbiter present sees happens.

    Two things happen by themselves: a flag fall that an arbiter present
    observes at its exact instant, and the loss of a player still absent when
    the default time has passed. Whichever comes first decides.
    """
    if t_ms < state.t_ms:
        raise GameError(None, f"t={ms_to_t(t_ms)} is earlier than the last event (t={ms_to_t(state.t_ms)})")
    if not state.ongoing:
        return replace(state, t_ms=t_ms)
    cfg = state.config
    flag_at: int | None = None
    flagged: Color | None = None
    if cfg.flags_observed and state.clock.running is not None:
        flagged = state.clock.running
        flag_at = state.clock.flag_time(flagged)
        if flag_at is not None and flag_at > t_ms:
            flag_at = None
    late = sorted(a for a in state.absent if a in ("white", "black"))
    deadline = state.session_start_ms + cfg.default_time_ms
    late_due = bool(late) and t_ms > deadline
    if flag_at is not None and flagged is not None and (not late_due or flag_at <= deadline):
        b = _Builder(state)
        _flag_outcome(b, flagged, flag_at)
        return replace(b.build(), t_ms=t_ms)
    if late_due:
        b = _Builder(state)
        _late_arrival(b, late, deadline)
        return replace(b.build(), t_ms=t_ms)
    return replace(state, t_ms=t_ms)


def _late_arrival(b: _Builder, late: list[str], deadline: int) -> None:
    """A player absent when the default time has passed loses (1989 10.15, 1997 6.6, 2023 6.7.1)."""
    s = b.s
    limit = fmt_duration(s.config.default_time_ms)
    since = "the start of the session" if s.session_start_ms != s.config.start_t_ms else "the scheduled start"
    if len(late) == 2:
        b.end(deadline, Outcome("0-0", "late_arrival"), "late_arrival",
              f"Neither player arrived within the default time ({limit} after {since}): both lose.")
        return
    absent: Color = "white" if late[0] == "white" else "black"
    b.end(deadline, win_for(other(absent), "late_arrival"), "late_arrival",
          f"{NAME[absent]} did not arrive within the default time ({limit} after {since}): "
          f"{NAME[other(absent)]} wins.")


# --- transitions -------------------------------------------------------------------


Handler = Callable[[_Builder, Event], None]


def _require_player_present(b: _Builder, ev: Event) -> None:
    if ev.by in b.s.absent:
        raise GameError(ev, f"{NAME[ev.by or 'white']} has not arrived at the board yet (no 'arrive' event)")


def _end_checks_after_move(b: _Builder, t_ms: int, mover: Color, san: str) -> bool:
    """Automatic ends after a move; True when the game ended."""
    s = b.s
    ed = s.edition
    pos: Position = b.get("position")
    keys: tuple[str, ...] = b.get("keys")
    if pos.is_checkmate():
        b.end(t_ms, win_for(mover, "checkmate"), "checkmate", f"{NAME[mover]} checkmates with {san}; the game ends.")
        return True
    if pos.is_stalemate():
        b.end(
            t_ms,
            draw("stalemate"),
            "stalemate",
            f"{NAME[other(mover)]} has no legal move and is not in check: stalemate, the game is drawn.",
        )
        return True
    if ed.insufficient_material_list:
        ending = _article_10_4(pos)
        if ending is not None:
            b.end(t_ms, draw("insufficient_material"), "insufficient_material", f"{ending}: the game is drawn.")
            return True
    if ed.dead_position:
        dead = is_dead(pos)
        if dead.dead:
            b.end(
                t_ms,
                draw("dead_position"),
                "dead_position",
                f"After {san} no series of legal moves can lead to checkmate ({dead.reason}): the game is drawn.",
            )
            return True
    if ed.fivefold_repetition and keys.count(keys[-1]) >= 5:
        b.end(
            t_ms,
            draw("fivefold_repetition"),
            "fivefold",
            f"After {san} the same position has appeared for the fifth time: the game is drawn.",
        )
        return True
    if ed.seventyfive_moves and pos.halfmove_clock >= 150:
        b.end(
            t_ms,
            draw("seventyfive_moves"),
            "seventyfive",
            f"After {san} each player has made 75 moves without a pawn move or a capture: the game is drawn.",
        )
        return True
    return False


def _article_10_4(pos: Position) -> str | None:
    material = pos.material()
    others = {k: v for k, v in material.items() if k not in ("K", "k")}
    if not others:
        return "King against king (Article 10.4(a))"
    if sum(others.values()) == 1 and set(others) <= {"B", "b", "N", "n"}:
        piece = "bishop" if set(others) <= {"B", "b"} else "knight"
        return f"King against king and {piece} (Article 10.4(b))"
    if others == {"B": 1, "b": 1}:
        w = pos.bishop_square_colors("white")
        k = pos.bishop_square_colors("black")
        if w == k:
            return f"King and bishop against king and bishop, both bishops on {w[0]} squares (Article 10.4(c))"
    return None


def _record(
    b: _Builder, t: int, mover: Color, san: str, uci: str, clock: Clock, *, offer: bool, ended: bool, illegal: bool
) -> None:
    record = MoveRecord(
        ply=len(b.get("moves")) + 1,
        color=mover,
        san=san,
        uci=uci,
        t_ms=t,
        clock_ms=clock.remaining(t, mover),
        draw_offer=offer and not ended,
        illegal=illegal,
    )
    b.set(moves=b.get("moves") + (record,))


def _play(b: _Builder, ev: Event, mover: Color, text: str, *, offer_draw: bool = False) -> None:
    """Plays a legal move written ``text`` for ``mover`` at the event's time."""
    t = ev.t_ms
    pos: Position = b.get("position")
    san, uci, nxt = pos.play_annotated(text)
    _after_move(b, t, mover, san, uci, nxt, offer_draw=offer_draw)


def _after_move(
    b: _Builder, t: int, mover: Color, san: str, uci: str, nxt: Position, *, offer_draw: bool = False,
    illegal: bool = False, press: bool = True,
) -> None:
    """The board shows ``nxt`` after ``mover``'s move: offers, clock, automatic ends."""
    keys: tuple[str, ...] = b.get("keys") + (nxt.repetition_key(),)
    clock: Clock = b.get("clock")
    # A move rejects the opponent's offers (9.1; 1989 10.7); the mover's own stand.
    own = [o for o in (b.get("offer"), b.get("counter")) if o is not None and o.by == mover]
    offer: DrawOffer | None = own[0] if own else None
    b.set(position=nxt, keys=keys, offer=offer, counter=None, touched=(), touch_violation=None,
          illegal_pending=None)
    # An illegal move that stands ends nothing by itself: the claim decides (C.3).
    ended = not illegal and _end_checks_after_move(b, t, mover, san)
    if not ended:
        if press:
            clock = clock.press(t, mover)
        if offer_draw:
            new_offer = DrawOffer(mover, t, len(b.get("moves")) + 1)
            b.set(offer=new_offer, offers=b.get("offers") + (new_offer,))
        b.set(clock=clock)
    else:
        clock = b.get("clock")
    _record(b, t, mover, san, uci, clock, offer=offer_draw, ended=ended, illegal=illegal)


def _in_quickplay_finish(s: GameState, color: Color) -> bool:
    """1997 Article 10.1: all the remaining moves must be made in a limited time."""
    tc = s.config.time_control
    if tc.unlimited:
        return False
    period = tc.periods[tc.period_index(s.clock.moves(color))]
    return period.moves is None and period is tc.periods[-1]


def _illegal_moves_observed(s: GameState) -> bool:
    """Does an illegal move get corrected at once (True), or stand until claimed?

    1997 blitz (C.3): it stands unless the opponent claims before moving.
    Without an arbiter present, illegal moves count only when claimed.
    """
    if not s.config.arbiter_present:
        return False
    mode = s.config.mode
    if s.edition.name == "1997" and mode == "blitz":
        return False
    if s.edition.rapid_rulings_on_request and mode == "rapid":
        return False  # 1997 B.5: the arbiter rules under Article 10 (10.3) only when asked
    if s.edition.name == "2023" and mode in ("rapid", "blitz") and not s.config.supervised:
        return False  # 2023 A.4.2 / B.3.2: the opponent claims before his next move
    return True


def _mating_potential(position: Position, color: Color) -> tuple[bool, str]:
    """1997 Appendix C.4: forces that could produce, possibly by helpmate, a
    position where the opponent having the move cannot avoid mate in one.

    Read here as material: a queen, rook or pawn suffices; so do two minor
    pieces other than two knights alone (bishop and knight, two bishops on
    both colours); a lone minor piece or two knights suffice only when the
    opponent has material of his own to block his king.
    """
    material = position.material()
    upper = color == "white"
    own = {k.upper(): v for k, v in material.items() if k.isupper() == upper and k.upper() != "K"}
    theirs = sum(v for k, v in material.items() if k.isupper() != upper and k.upper() != "K")
    if any(own.get(p, 0) for p in "QRP"):
        return True, "has a queen, rook or pawn"
    minors = own.get("B", 0) + own.get("N", 0)
    if own.get("B", 0) and own.get("N", 0):
        return True, "has bishop and knight"
    if own.get("B", 0) >= 2 and len(set(position.bishop_square_colors(color))) == 2:
        return True, "has bishops on both colours"
    if minors == 0:
        return False, "has a lone king"
    if theirs:
        return True, "has a minor piece and the opponent has material that can block"
    if own.get("N", 0) == 2 and minors == 2:
        return False, "has only two knights against a lone king"
    return False, "has only one minor piece against a lone king"


def _squares_of(uci: str) -> tuple[str, str] | None:
    t = uci.strip()
    if len(t) in (4, 5) and t[0] in "abcdefgh" and t[2] in "abcdefgh" and t[1] in "12345678" and t[3] in "12345678":
        return t[0:2], t[2:4]
    return None


def _reinstate(b: _Builder, before: GameState, t: int, offender: Color, touched: tuple[str, ...]) -> None:
    """Back to the position before an irregular move; the offender's clock runs
    with the times the clocks show now (Article 6.13: the arbiter's judgement)."""
    clock: Clock = b.get("clock")
    w = clock.remaining(t, "white")
    k = clock.remaining(t, "black")
    restored = before.clock
    if w is not None and k is not None:
        restored = restored.set_times(t, w, k)
    else:
        restored = restored.set_times(t, 0, 0)
    if restored.running is None:
        restored = restored.resume(t) if restored.paused is not None else restored.start(t, offender)
    b.set(position=before.position, keys=before.keys, moves=before.moves, offer=before.offer,
          counter=before.counter, clock=restored, touched=touched, touch_violation=None, illegal_pending=None)


def _illegal_consequence(b: _Builder, t: int, mover: Color, text: str, before: GameState) -> None:
    """The edition's consequence of an illegal move that is corrected
    (1989 8.1; 1997 7.4 and 10.3; 2023 7.5.1-7.5.5)."""
    s = b.s
    ed = s.edition
    count = dict(s.illegal_moves)
    count[mover] = count.get(mover, 0) + 1
    n = count[mover]
    b.set(illegal_moves=count)
    opp = other(mover)
    squares = _squares_of(text)
    touched: tuple[str, ...] = ()
    if squares is not None:
        frm, to = squares
        touched = (frm,) + ((to,) if before.position.piece_at(to) is not None else ())
    _reinstate(b, before, t, mover, touched)
    if ed.draw_offer_rejected_by_touch:
        # Making the move meant touching a piece: that rejected the opponent's offer (2023 9.1.2.1).
        own = [o for o in (before.offer, before.counter) if o is not None and o.by == mover]
        b.set(offer=own[0] if own else None, counter=None)
    base = f"{NAME[mover]}'s move {text} is illegal; the position before it is reinstated"
    bound = (f" {NAME[mover]} must make a legal move with the piece he moved if it can move (Article "
             f"{ed.article('touch_move')}).") if touched else f" {NAME[mover]} must make a legal move."
    fast = s.config.mode in ("rapid", "blitz")
    clock: Clock = b.get("clock")
    if ed.name == "2023":
        if n >= 2:
            verdict = can_mate(before.position, opp)
            if verdict.can_mate is False:
                b.end(t, draw("illegal_moves"), "illegal_move_penalty",
                      f"{base}. It is {NAME[mover]}'s second illegal move, but {NAME[opp]}{verdict.clause} "
                      f"cannot checkmate by any series of legal moves{verdict.proof}: the game is drawn.")
            else:
                b.end(t, win_for(opp, "illegal_moves"), "illegal_move_penalty",
                      f"{base}. It is {NAME[mover]}'s second illegal move: {NAME[opp]} wins.")
            return
        bonus = 60_000 if fast else 120_000
        b.set(clock=clock.add_time(t, opp, bonus))
        b.rule(t, "illegal_move_penalty",
               f"{base} and {NAME[opp]} receives {bonus // 60_000} minute{'s' if bonus > 60_000 else ''}; "
               f"a second illegal move loses.{bound}")
        return
    if ed.name == "1997" and _in_quickplay_finish(before, mover):
        if n >= 3:
            b.end(t, win_for(opp, "illegal_moves"), "illegal_move",
                  f"{base}. It is {NAME[mover]}'s third illegal move in the quickplay finish: "
                  f"{NAME[opp]} wins (Article 10.3).")
            return
        b.set(clock=clock.add_time(t, opp, 120_000))
        b.rule(t, "illegal_move",
               f"{base}; in the quickplay finish {NAME[opp]} receives 2 minutes for {NAME[mover]}'s "
               f"{_ordinal(n)} illegal move, and a third loses (Article 10.3).{bound}")
        return
    b.rule(t, "illegal_move", f"{base}.{bound}")


def _captured_square(pos: Position, m: str) -> str | None:
    """The square of the piece that the legal move ``m`` (UCI) captures: its
    destination, or for an en passant capture the square of the pawn taken
    (which the capturing pawn does not land on)."""
    to = m[2:4]
    if pos.piece_at(to) is not None:
        return to
    mover = pos.piece_at(m[:2])
    if mover is not None and mover.upper() == "P" and m[0] != m[2]:
        return m[2] + m[1]
    return None


def _allowed_by_touch(
    pos: Position, mover: Color, touched: tuple[str, ...], edition: Edition
) -> tuple[set[str] | None, str]:
    """Articles 4.3-4.5 (1989 Article 7): the moves a player who touched ``touched`` may make.

    Returns (None, "") when any legal move is allowed, else the allowed UCI
    moves and a description of the obligation. A touched opponent's piece is
    "captured" by a move that takes it, en passant included (the capturing
    pawn then lands beside it). Castling is a king move; a rook touched before
    the king forbids castling with it (1997 4.4(a), 2023 4.4.2); the king and
    then a rook oblige castling with that rook where it is legal (2023 4.4.1),
    or else another king move (2023 4.4.3, 1997 4.4(b)), and the player is
    free when the king cannot move.
    """
    if not touched:  # nothing touched: no obligation (the common case, on every move)
        return None, ""
    legal = pos.legal_moves()
    upper = mover == "white"
    king_sq = next((sq for sq, p in pos.pieces() if p == ("K" if upper else "k")), None)
    rook_first: set[str] = set()  # rooks touched before the king: no castling on that side
    rook_after: list[str] = []  # rooks touched after the king (castling intended)
    seen_king = False
    own_touched: list[str] = []
    opp_touched: list[str] = []
    for sq in touched:
        piece = pos.piece_at(sq)
        if piece is None:
            continue
        own = piece.isupper() == upper
        (own_touched if own else opp_touched).append(sq)
        if own and piece.upper() == "K":
            seen_king = True
        if own and piece.upper() == "R":
            if seen_king:
                rook_after.append(sq)
            else:
                rook_first.add(sq)

    def is_castle(m: str) -> bool:
        if king_sq is None or m[:2] != king_sq:
            return False
        target = pos.piece_at(m[2:4])
        return abs(ord(m[2]) - ord(king_sq[0])) == 2 or (target is not None and target == ("R" if upper else "r"))

    def castles_with(m: str, rook: str) -> bool:
        return (king_sq is not None and is_castle(m) and rook[1] == king_sq[1]
                and ((m[2] > king_sq[0]) == (rook[0] > king_sq[0]) or m[2:4] == rook))

    def captures_of(sq: str, by: str | None = None) -> set[str]:
        return {m for m in legal if (by is None or m[:2] == by) and _captured_square(pos, m) == sq}

    # 4.3(b) (2023 4.3.3): one of each colour: capture the opponent's piece with one's own.
    if own_touched and opp_touched:
        mine, theirs = own_touched[0], opp_touched[0]
        caps = captures_of(theirs, mine)
        if caps:
            return caps, f"capture the touched piece on {theirs} with the piece on {mine}"
    for sq in touched:
        piece = pos.piece_at(sq)
        if piece is None:
            continue
        if piece.isupper() == upper:
            moves = {m for m in legal if m[:2] == sq}
            if piece.upper() == "K":
                moves = {m for m in moves if not any(castles_with(m, r) for r in rook_first)}
                if rook_after:
                    rook = rook_after[0]
                    castle = {m for m in moves if castles_with(m, rook)}
                    if castle and edition.castle_when_king_then_rook:
                        return castle, f"castle with the rook on {rook} (king and then rook touched)"
                    if not moves:
                        return None, ""  # the king cannot move: any legal move (4.4(b), 2023 4.4.3)
            if moves:
                return moves, f"move the touched piece on {sq}"
        else:
            caps = captures_of(sq)
            if caps:
                return caps, f"capture the touched piece on {sq}"
    return None, ""  # 4.5: none of the touched pieces can be moved or captured


def _on_move(b: _Builder, ev: Event) -> None:
    s = b.s
    mover: Color = ev.by  # type: ignore[assignment]
    _require_player_present(b, ev)
    if s.claims:
        raise GameError(ev, "the clocks are stopped while a claim awaits the arbiter's decision")
    if s.envelope is not None:
        raise GameError(ev, f"{NAME[s.envelope.sealer]}'s sealed move is played when the envelope is opened "
                        f"({NAME[other(s.envelope.sealer)]} must be present)")
    if s.clock.running is None:
        raise GameError(ev, "the clocks are stopped (interruption); the arbiter must restart them")
    if mover != s.turn:
        raise GameError(ev, f"it is {NAME[s.turn]}'s move, not {NAME[mover]}'s")
    text = str(ev.get("move"))
    offer = bool(ev.get("offer_draw", False))
    if "announced" in ev.fields:
        text = _announced_move(b, ev, mover, text, str(ev.get("announced")))
    try:
        san, uci, nxt = s.position.play_annotated(text)
    except IllegalMove:
        _on_illegal_move(b, ev, mover, text, offer)
        return
    except (UnreadableMove, AmbiguousMove) as err:
        raise EventError(f"field 'move': {err}", field="move") from None
    allowed, duty = _allowed_by_touch(s.position, mover, s.touched, s.edition)
    violation = allowed is not None and uci not in allowed
    _after_move(b, ev.t_ms, mover, san, uci, nxt, offer_draw=offer)
    if violation and b.get("status") == "ongoing":
        b.set(touch_violation=s)
    if ev.get("two_hands") and b.get("status") == "ongoing":
        _two_hands(b, ev.t_ms, mover, san)


def _two_hands(b: _Builder, t: int, mover: Color, san: str) -> None:
    """A move made with two hands and the clock pressed: 2023 7.5.4 penalises it
    as an illegal move (7.5.5); 1997 4.1 only says one hand, the arbiter's
    penalty (13.4) being his to choose."""
    ed = b.s.edition
    if ed.name == "2023":
        _penalise_as_illegal(b, t, mover, "two_hands", f"{NAME[mover]} made the move {san} with two hands and "
                             "pressed the clock: it is penalised as an illegal move, and the move stands")
    elif "one_hand" in ed.articles:
        b.rule(t, "one_hand", f"{NAME[mover]} made the move {san} with two hands: each move is made with one hand "
               "only; the move stands, and any penalty is the arbiter's to give.")


def _penalise_as_illegal(b: _Builder, t: int, mover: Color, rule: str, base: str) -> None:
    """2023 7.5.3-7.5.4: an irregularity "considered and penalised as if an illegal
    move": 7.5.5 -- the opponent gets two minutes (one in rapid and blitz), and the
    second illegal move loses unless the opponent cannot mate."""
    s = b.s
    count = dict(s.illegal_moves)
    count[mover] = count.get(mover, 0) + 1
    b.set(illegal_moves=count)
    opp = other(mover)
    b.rule(t, rule, base + ".")
    if count[mover] >= 2:
        verdict = can_mate(b.get("position"), opp)
        if verdict.can_mate is False:
            b.end(t, draw("illegal_moves"), "illegal_move_penalty",
                  f"It is {NAME[mover]}'s second illegal move, but {NAME[opp]}{verdict.clause} cannot checkmate by "
                  f"any series of legal moves{verdict.proof}: the game is drawn.")
        else:
            b.end(t, win_for(opp, "illegal_moves"), "illegal_move_penalty",
                  f"It is {NAME[mover]}'s second illegal move: {NAME[opp]} wins.")
        return
    bonus = 60_000 if s.config.mode in ("rapid", "blitz") else 120_000
    clock: Clock = b.get("clock")
    if not s.config.time_control.unlimited:
        b.set(clock=clock.add_time(t, opp, bonus))
    b.rule(t, "illegal_move_penalty", f"For this first illegal move {NAME[opp]} receives {bonus // 60_000} "
           f"minute{'s' if bonus > 60_000 else ''}; a second illegal move loses.")


def _on_press_clock(b: _Builder, ev: Event) -> None:
    """The player having the move presses the clock without making a move."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    if s.clock.running != by or by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}), whose clock runs, can press it")
    if s.edition.name == "2023":
        _penalise_as_illegal(b, t, by, "press_without_move", f"{NAME[by]} pressed the clock without making a move: "
                             f"his clock is restarted and it is penalised as an illegal move")
        return
    b.rule(t, "press_without_move", f"{NAME[by]} pressed the clock without making a move: the arbiter restarts "
           f"{NAME[by]}'s clock; the Laws set no penalty for it.")


def _announced_move(b: _Builder, ev: Event, mover: Color, executed: str, announced: str) -> str:
    """2023 Appendix D: in a game with a visually disabled player every move is
    announced and repeated (D.2.1). An announcement that differs from the move
    executed and is not corrected before the clock is pressed (D.2.9) leaves
    the two boards different; the game scores, which both follow the
    announcement, decide (D.2.10): the announced move is the move made, and the
    board is adjusted to it. Returns the move to play."""
    s = b.s
    if not s.config.visually_disabled:
        raise EventError("field 'announced' belongs to games with a visually disabled player "
                         "(start field 'visually_disabled', 2023 Appendix D)", field="announced")
    pos = s.position
    try:
        said = pos.parse_move(announced)
    except (IllegalMove, UnreadableMove, AmbiguousMove):
        b.rule(ev.t_ms, "announcement", f"{NAME[mover]} announced {announced!r}, which is no legal move here, and "
               f"did not correct it before pressing the clock: the move executed on the board, {executed}, stands.")
        return executed
    try:
        done = pos.parse_move(executed)
    except (IllegalMove, UnreadableMove, AmbiguousMove):
        done = None
    if done == said:
        return executed
    b.rule(ev.t_ms, "boards_differ", f"{NAME[mover]} executed {executed} but announced {pos.san(said)} and did not "
           "correct the slip before pressing the clock: the two boards differ. The game scores follow the "
           f"announcement, so {pos.san(said)} is the move made and the board is adjusted to it.")
    return said


def _on_illegal_move(b: _Builder, ev: Event, mover: Color, text: str, offer: bool) -> None:
    s = b.s
    t = ev.t_ms
    if _illegal_moves_observed(s):
        queen = _queen_for_unreplaced(s.position, text) if s.edition.unreplaced_promotion_is_queen else None
        if queen is not None:
            _unreplaced_promotion(b, t, mover, text, queen, offer)
            return
        # The move was made and the clock pressed; the arbiter corrects it at once.
        _illegal_consequence(b, t, mover, text, s)
        if offer:
            _offer_survives(b, mover, t)
        return
    # 1997 blitz (C.3), or no arbiter present: the move stands until claimed.
    try:
        nxt = s.position.play_illegal(text)
    except (IllegalMove, UnreadableMove) as err:
        raise EventError(f"field 'move': {err}", field="move") from None
    squares = _squares_of(text)
    label = f"{squares[0]}-{squares[1]}" if squares else text
    _after_move(b, t, mover, label, text.strip(), nxt, offer_draw=offer, illegal=True)
    b.set(illegal_pending=s)


def _on_claim_win(b: _Builder, ev: Event) -> None:
    """The claim after an illegal move that stands (1997 C.3; without an arbiter present)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    before = s.illegal_pending
    offender = other(by)
    if before is None or s.turn != by:
        raise GameError(ev, f"there is no illegal move by {NAME[offender]} for {NAME[by]} to claim "
                        "(the claim must come before the claimant's own move)")
    text = s.moves[-1].uci
    if s.edition.name == "1997" and s.config.mode == "blitz":
        ok, why = _mating_potential(before.position, by)
        if ok:
            b.end(t, win_for(by, "illegal_moves"), "illegal_move_blitz",
                  f"{NAME[by]} claims {NAME[offender]}'s illegal move {text} before moving, and {NAME[by]} "
                  f"{why}: {NAME[by]} wins.")
        else:
            b.end(t, draw("illegal_moves"), "mating_potential",
                  f"{NAME[by]} claims {NAME[offender]}'s illegal move {text}, but {NAME[by]} {why}, "
                  "without mating potential: the game is drawn.")
        return
    offered = s.moves[-1].draw_offer
    queen = _queen_for_unreplaced(before.position, text) if s.edition.unreplaced_promotion_is_queen else None
    if queen is not None:
        _reinstate(b, before, t, offender, ())
        _unreplaced_promotion(b, t, offender, text, queen, offered)
        return
    _illegal_consequence(b, t, offender, text, before)
    if offered:
        _offer_survives(b, offender, t)


def _queen_for_unreplaced(pos: Position, text: str) -> str | None:
    """The queen promotion (UCI) for a pawn's move to the last rank written
    without its new piece (``a7a8``, ``a8``, ``axb8``), if that promotion is
    legal; None for any other move."""
    t = text.strip()
    squares = _squares_of(t)
    if squares is not None and len(t) == 4:
        frm, to = squares
        piece = pos.piece_at(frm)
        if piece is None or piece.upper() != "P" or to[1] not in "18":
            return None
        candidate = t + "q"
    elif 2 <= len(t) <= 5 and t[0] in "abcdefgh" and t[-1] in "18" and "=" not in t:
        candidate = t + "=Q"
    else:
        return None
    try:
        return pos.parse_move(candidate)
    except ChessLawsError:
        return None


def _unreplaced_promotion(b: _Builder, t: int, mover: Color, text: str, queen: str, offer: bool) -> None:
    """2023 7.5.2: a pawn moved to the last rank, the clock pressed, the pawn not
    replaced: the move is illegal and the pawn is replaced by a queen; 7.5.5
    then applies (the opponent gets two minutes, one in rapid and blitz; a
    second illegal move loses, unless the opponent cannot mate)."""
    s = b.s
    count = dict(s.illegal_moves)
    count[mover] = count.get(mover, 0) + 1
    b.set(illegal_moves=count)
    opp = other(mover)
    pos: Position = b.get("position")
    base = (f"{NAME[mover]} moved a pawn to the last rank ({text}) and pressed the clock without replacing it: "
            "the move is illegal")
    if count[mover] >= 2:
        verdict = can_mate(pos, opp)
        if verdict.can_mate is False:
            b.end(t, draw("illegal_moves"), "illegal_move_penalty",
                  f"{base}, {NAME[mover]}'s second, but {NAME[opp]}{verdict.clause} cannot checkmate by any series "
                  f"of legal moves{verdict.proof}: the game is drawn.")
        else:
            b.end(t, win_for(opp, "illegal_moves"), "illegal_move_penalty",
                  f"{base}, {NAME[mover]}'s second illegal move: {NAME[opp]} wins.")
        return
    san, uci, nxt = pos.play_annotated(queen)
    b.rule(t, "unreplaced_promotion", f"{base}; the pawn is replaced by a queen of its colour ({san}).")
    _after_move(b, t, mover, san, uci, nxt, offer_draw=offer)
    if b.get("status") == "ongoing":
        bonus = 60_000 if s.config.mode in ("rapid", "blitz") else 120_000
        b.set(clock=b.get("clock").add_time(t, opp, bonus))
        b.rule(t, "illegal_move_penalty", f"For this first illegal move {NAME[opp]} receives {bonus // 60_000} "
               f"minute{'s' if bonus > 60_000 else ''}; a second illegal move loses.")


def _offer_survives(b: _Builder, by: Color, t: int) -> None:
    """A draw offer made with an illegal move outlives its reinstatement: an
    offer cannot be withdrawn and one made at any moment is valid (1989 10.8-10.9,
    1997 9.1, 2023 9.1.2.1)."""
    if b.get("status") != "ongoing":
        return
    _add_offer(b, by, t)
    b.rule(t, "draw_offer", f"{NAME[by]}'s draw offer, made with the illegal move, stands: an offer cannot be "
           f"withdrawn, and {NAME[other(by)]} may still accept it.")


def _square_field(ev: Event) -> str:
    sq = str(ev.get("square")).strip().lower()
    if len(sq) != 2 or sq[0] not in "abcdefgh" or sq[1] not in "12345678":
        raise EventError(f"field 'square' must be a square such as e2, not {ev.get('square')!r}", field="square")
    return sq


def _on_touch(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    sq = _square_field(ev)
    if s.clock.running is None or s.status != "ongoing":
        raise GameError(ev, "the clocks are stopped")
    if by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) is bound by touching pieces")
    if s.position.piece_at(sq) is None:
        raise GameError(ev, f"there is no piece on {sq}")
    changes: dict[str, Any] = {"touched": s.touched + (sq,) if sq not in s.touched else s.touched}
    # Touching a piece ends the right to claim the opponent's touch-move breach (4.6) ...
    changes["touch_violation"] = None
    # ... and, under 2023 9.1.2.3, rejects a pending draw offer.
    if s.edition.draw_offer_rejected_by_touch:
        own = [o for o in (s.offer, s.counter) if o is not None and o.by == by]
        changes["offer"] = own[0] if own else None
        changes["counter"] = None
    b.set(**changes)


def _on_adjust(b: _Builder, ev: Event) -> None:
    s = b.s
    sq = _square_field(ev)
    if ev.by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) may adjust pieces (Article 4.2)")
    if s.position.piece_at(sq) is None:
        raise GameError(ev, f"there is no piece on {sq} to adjust")


def _on_claim_touch_move(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    before = s.touch_violation
    offender = other(by)
    if before is None or s.turn != by:
        b.rule(t, "touch_move",
               f"{NAME[by]}'s touch-move claim is rejected: {NAME[offender]}'s last move kept Article 4 "
               "(or the right to claim was lost by touching a piece or moving).")
        return
    _, duty = _allowed_by_touch(before.position, offender, before.touched, s.edition)
    last = s.moves[-1].san
    _reinstate(b, before, t, offender, before.touched)
    b.rule(t, "castling_touch" if duty.startswith("castle") else "touch_move",
           f"{NAME[by]}'s claim is upheld: {NAME[offender]} touched a piece and played {last}; the move is "
           f"taken back and {NAME[offender]} must {duty}.")


def _add_offer(b: _Builder, by: Color, t: int) -> None:
    """``by``'s draw offer is pending from ``t`` (unless one of his already is)."""
    offer: DrawOffer | None = b.get("offer")
    counter: DrawOffer | None = b.get("counter")
    if any(o is not None and o.by == by for o in (offer, counter)):
        return
    new = DrawOffer(by, t, len(b.get("moves")))
    if offer is None:
        b.set(offer=new, offers=b.get("offers") + (new,))
    elif counter is None:
        b.set(counter=new, offers=b.get("offers") + (new,))


def _on_offer(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if s.offer is not None and s.offer.by == by:
        raise GameError(ev, f"{NAME[by]}'s draw offer is already pending")
    offer = DrawOffer(by, ev.t_ms, len(s.moves))
    if s.counter is not None:
        raise GameError(ev, f"{NAME[by]}'s draw offer is already pending")
    if s.offer is not None:
        # The opponent's offer stays valid until answered (9.1): a counter-offer
        # is pending beside it.
        b.set(counter=offer, offers=s.offers + (offer,))
        return
    b.set(offer=offer, offers=s.offers + (offer,))


def _on_accept(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    theirs = [o for o in (s.offer, s.counter) if o is not None and o.by != by]
    if not theirs:
        if s.offer is not None:
            raise GameError(ev, f"{NAME[by]} cannot accept his own draw offer")
        raise GameError(ev, "there is no draw offer to accept (an offer ends when it is declined or answered by a move)")
    if s.edition.agreement_needs_both_moved and not _both_have_moved(s):
        b.set(offer=None, counter=None)
        b.rule(ev.t_ms, "agreement",
               f"{NAME[by]} accepts {NAME[theirs[0].by]}'s draw offer, but a draw by agreement needs both players "
               "to have made at least one move: the agreement is void and the game continues.")
        return
    b.end(ev.t_ms, draw("agreement"), "agreement",
          f"{NAME[by]} accepts {NAME[theirs[0].by]}'s draw offer: the game is drawn by agreement.")


def _both_have_moved(s: GameState) -> bool:
    """Has each player made at least one move in this game (2023 5.2.3)?"""
    return len({m.color for m in s.moves}) == 2


def _on_decline(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    mine = [o for o in (s.offer, s.counter) if o is not None and o.by == by]
    if len(mine) == len([o for o in (s.offer, s.counter) if o is not None]):
        raise GameError(ev, f"there is no draw offer to {NAME[by]} to decline")
    b.set(offer=mine[0] if mine else None, counter=None)


def _on_resign(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    opp = other(by)
    if s.edition.resign_draw_when_opponent_cannot_mate:
        verdict = can_mate(s.position, opp)
        if verdict.can_mate is False:
            b.end(ev.t_ms, draw("resignation"), "resignation",
                  f"{NAME[by]} resigns, but {NAME[opp]}{verdict.clause} cannot checkmate by any series of "
                  f"legal moves{verdict.proof}: the game is drawn.")
            return
    b.end(ev.t_ms, win_for(opp, "resignation"), "resignation", f"{NAME[by]} resigns: {NAME[opp]} wins.")


def _claim_penalty(b: _Builder, t: int, claimant: Color) -> tuple[str, bool]:
    """Applies the edition's incorrect-claim penalty; returns (text, game_over)."""
    s = b.s
    ed = s.edition
    opp = other(claimant)
    clock: Clock = b.get("clock")
    if s.config.time_control.unlimited:
        return "No clock is in use, so no time penalty applies.", False
    if ed.claim_penalty == "add_used_time":
        left = clock.remaining(t, claimant) or 0
        clock = clock.add_time(t, claimant, -ed.claim_penalty_ms)
        b.set(clock=clock)
        if left <= ed.claim_penalty_ms:
            return f"Five minutes are added to {NAME[claimant]}'s used time, which oversteps the time limit.", True
        return f"Five minutes are added to {NAME[claimant]}'s used time.", False
    if ed.claim_penalty == "halve_and_give":
        left = clock.remaining(t, claimant) or 0
        deduct = min(left // 2, ed.claim_penalty_ms)
        clock = clock.add_time(t, claimant, -deduct).add_time(t, opp, ed.claim_penalty_ms)
        b.set(clock=clock)
        return (
            f"Half of {NAME[claimant]}'s remaining time, at most 3 minutes, is deducted ({fmt_duration(deduct)}); "
            f"{NAME[opp]} receives {ed.claim_penalty_ms // 60_000} minutes.",
            False,
        )
    bonus = ed.claim_penalty_fast_ms if s.config.mode in ("rapid", "blitz") else ed.claim_penalty_ms
    clock = clock.add_time(t, opp, bonus)
    b.set(clock=clock)
    minutes = bonus // 60_000
    return f"{NAME[opp]} receives {minutes} minute{'s' if minutes != 1 else ''}.", False


def _on_claim_draw(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    reason = str(ev.get("reason"))
    if reason == "quickplay":
        _on_quickplay_claim(b, ev)
        return
    what_claim = "repetition" if reason == "threefold" else "the fifty-move rule"
    if by != s.turn and s.moves and s.moves[-1].color == by and s.ongoing:
        # He moved instead of claiming: the right to claim is lost on that move
        # (1989 10.11, 1997 9.4, 2023 9.4).
        b.rule(t, "claim_right_lost",
               f"{NAME[by]}'s claim of a draw by {what_claim} is not admitted: he made his move "
               f"{s.moves[-1].san} without claiming, and so lost the right to claim on that move. "
               "No penalty; the game continues.")
        return
    if by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) may claim a draw by {what_claim}")
    if s.touched and s.edition.claim_right_lost_by_touch:
        b.rule(t, "claim_right_lost",
               f"{NAME[by]}'s claim of a draw by {what_claim} is not admitted: having touched the piece on "
               f"{s.touched[0]} with the intention of moving or capturing it, he lost the right to claim on "
               "that move. No penalty; the game continues and the touched piece binds him.")
        return
    if s.claims:
        raise GameError(ev, "a claim is already awaiting the arbiter's decision")
    clock: Clock = s.clock
    if clock.running is not None:
        clock = clock.stop(t)  # the claimant stops both clocks (9.5)
    b.set(clock=clock)
    intended = ev.get("move")
    after: Position | None = None
    intended_san = intended_uci = None
    illegal_intended = False
    if intended is not None:
        try:
            intended_san, intended_uci, after = s.position.play_annotated(str(intended))
        except IllegalMove:
            illegal_intended = True
        except (UnreadableMove, AmbiguousMove) as err:
            raise EventError(f"field 'move': {err}", field="move") from None
    # A claim is correct if the position has just appeared (the written move
    # is then not needed), or if the written move brings it about.
    uses_move = False
    termination: Termination
    if reason == "threefold":
        rule, kind, termination = "threefold", "threefold", "threefold_repetition"
        now = s.keys.count(s.keys[-1])
        correct = now >= 3
        if correct:
            what = f"the position has just appeared for the {_ordinal(now)} time"
        elif illegal_intended:
            what = f"the intended move {intended} is illegal"
        elif after is not None:
            count = s.keys.count(after.repetition_key()) + 1
            correct = uses_move = count >= 3
            what = f"the position after {intended_san} would appear for the {_ordinal(count)} time"
        else:
            what = f"the position has appeared {_times(now)} only"
    else:
        limit = s.config.fifty_move_limit
        rule, kind, termination = "fifty", f"{limit}-move", "fifty_moves"
        made = s.position.halfmove_clock
        correct = made >= 2 * limit
        if correct:
            what = f"the last {made // 2} moves by each player have been made without a pawn move or a capture"
        elif illegal_intended:
            what = f"the intended move {intended} is illegal"
        elif after is not None and s.edition.fifty_claim_with_move:
            correct = uses_move = after.halfmove_clock >= 2 * limit
            what = (f"after {intended_san} the last {after.halfmove_clock // 2} moves by each player would have "
                    "been made without a pawn move or a capture")
        else:
            # 1989 10.12: the fifty moves must have been made; a written move does not count.
            what = f"only {made // 2} moves by each player have been made without a pawn move or a capture"
    if correct:
        if uses_move and after is not None and intended_san is not None and intended_uci is not None:
            # The move is written on the scoresheet: it belongs to the record.
            b.set(position=after, keys=s.keys + (after.repetition_key(),))
            _record(b, t, by, intended_san, intended_uci, clock, offer=False, ended=True, illegal=False)
        b.end(t, draw(termination), rule,
              f"Draw by {'threefold repetition' if kind == 'threefold' else 'the ' + kind + ' rule'}, claimed "
              f"correctly by {NAME[by]}: {what}.")
        return
    penalty, lost = _claim_penalty(b, t, by)
    text = f"{NAME[by]}'s {kind} claim is incorrect: {what}. {penalty}"
    if lost:
        opp = other(by)
        denied, why, _ = _cannot_win(s.edition, s.position, opp)
        if denied:
            b.end(t, draw("time_forfeit"), "claim_incorrect",
                  text + f" {NAME[opp]}{why}: the game is drawn (Article {s.edition.article('flag_draw')}).")
        else:
            b.end(t, win_for(opp, "time_forfeit"), "claim_incorrect", text + f" {NAME[by]} loses.")
        return
    clock = b.get("clock").resume(t)
    b.set(clock=clock)
    if s.edition.claim_is_draw_offer:
        _add_offer(b, by, t)
        b.rule(t, "claim_is_offer", f"{NAME[by]}'s claim counts as an offer of a draw: {NAME[other(by)]} may "
               "still accept it.")
    if after is not None:
        b.rule(t, "claim_incorrect", text + f" The intended move {intended_san} is played.")
        _play(b, ev, by, str(intended))
    else:
        if illegal_intended:
            text += f" {NAME[by]} must make a legal move."
        b.rule(t, "claim_incorrect", text + (" The game continues." if not illegal_intended else ""))


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _on_quickplay_claim(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    left = s.clock.remaining(t, by)
    if s.config.time_control.unlimited or left is None:
        raise GameError(ev, "a quickplay finish claim needs a clock")
    if s.edition.name == "1989":
        raise GameError(ev, "the 1989 Laws have no quickplay finish claim")
    if s.edition.name == "2023" and not s.config.quickplay_guidelines:
        raise GameError(ev, "Guidelines III (quickplay finish) apply only where announced (start field 'quickplay_guidelines')")
    if by != s.turn:
        raise GameError(ev, f"the claimant must have the move ({NAME[s.turn]}'s clock runs)")
    if left >= 120_000:
        raise GameError(ev, f"{NAME[by]} has {fmt_duration(left)} left: the claim needs less than two minutes (10.2)")
    # Whether the claim exists at all in this game and at this moment: not
    # admitted (no penalty, the game goes on) when it does not.
    refusal: tuple[str, str] | None = None
    tc = s.clock.control
    if s.edition.name == "1997" and s.config.mode == "blitz":
        refusal = ("quickplay_blitz", "in blitz Article 10.2 does not apply (Appendix C.5)")
    elif s.edition.name == "2023" and s.config.mode == "blitz":
        refusal = ("quickplay_scope", "Guidelines III do not apply to blitz games (III.2.2)")
    elif s.edition.name == "2023" and any(p.increment_ms or p.delay_ms for p in tc.periods):
        refusal = ("quickplay_scope", "Guidelines III apply only to games without increment (III.2.2)")
    elif not _in_quickplay_finish(s, by):
        period = "the quickplay finish (Article 10.1)" if s.edition.name == "1997" else "the quickplay finish (III.1)"
        refusal = ("quickplay_phase", f"the game is not in {period}: not all the remaining moves must yet be "
                   "made in a limited time")
    if refusal is not None:
        b.rule(t, refusal[0], f"{NAME[by]}'s quickplay-finish claim is not admitted: {refusal[1]}. "
               "No penalty; the game continues.")
        return
    clock = s.clock.stop(t)
    b.set(clock=clock, claims=s.claims + (PendingClaim("claim", "quickplay", by, t),))


def _on_request_increment(b: _Builder, ev: Event) -> None:
    """2023 Guidelines III.4: with under two minutes, the player having the move
    asks for an extra five seconds a move for both players. The request is an
    offer of a draw; the clocks stop while the arbiter is summoned (6.12.2)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    left = s.clock.remaining(t, by)
    if s.edition.name != "2023" or not s.config.quickplay_guidelines:
        raise GameError(ev, "the request for an increment is the 2023 Guidelines III.4, where announced "
                        "(start field 'quickplay_guidelines')")
    if by != s.turn or s.clock.running != by:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}), whose clock runs, may ask")
    if s.claims:
        raise GameError(ev, "a claim already awaits the arbiter's decision")
    if left is None or left >= 120_000:
        raise GameError(ev, f"{NAME[by]} needs less than two minutes left to ask (III.4)")
    if any(p.increment_ms or p.delay_ms for p in s.clock.control.periods):
        raise GameError(ev, "the game already has an increment or a delay (III.2.2)")
    b.set(clock=s.clock.stop(t), claims=s.claims + (PendingClaim("claim", "increment", by, t),))
    _add_offer(b, by, t)
    b.rule(t, "increment_request", f"{NAME[by]} asks for an extra five seconds a move for both players; the request "
           f"is an offer of a draw, which {NAME[other(by)]} may accept.")


def _on_decision(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    on = str(ev.get("on"))
    ruling = str(ev.get("ruling"))
    if on == "adjudication":
        _on_adjudication(b, ev, ruling)
        return
    if on == "increment":
        _decide_increment(b, ev, ruling)
        return
    if ruling in ("white_wins", "black_wins"):
        raise GameError(ev, f"the ruling {ruling!r} is only for an adjudication (on: \"adjudication\")")
    if ruling == "grant":
        raise GameError(ev, "'grant' answers a request for an increment (on: \"increment\")")
    if on != "quickplay":
        raise GameError(ev, f"there is no matter {on!r} for the arbiter to decide")
    claim = next((c for c in s.claims if c.reason == "quickplay"), None)
    if claim is None:
        # Having postponed, the arbiter may still declare a draw, even after a flag (1997 10.2(b)).
        if ruling == "draw" and s.postponed and (s.ongoing or s.termination == "time_forfeit"):
            b.set(status="ongoing", outcome=None)
            b.end(t, draw("arbiter_decision"), "quickplay",
                  "Having postponed the decision on the quickplay claim, the arbiter declares the game drawn"
                  + (" (the flag fall does not stand against it)." if not s.ongoing else "."))
            return
        raise GameError(ev, "no quickplay claim awaits a decision")
    if not s.ongoing:
        raise GameError(ev, "the game is over")
    rest = tuple(c for c in s.claims if c is not claim)
    opp = other(claim.by)
    if ruling == "draw":
        b.set(claims=rest)
        b.end(t, draw("arbiter_decision"), "quickplay",
              f"The arbiter upholds {NAME[claim.by]}'s quickplay claim: the game is drawn.")
        return
    clock = s.clock
    if ruling == "postpone" and not s.config.arbiter_present:
        article = "D.1" if s.edition.name == "1997" else "III.6"
        raise GameError(ev, f"without an arbiter present the claim concluded the game ({article}): the arbiter's "
                        "decision is final, a draw or a rejection, not a postponement")
    if ruling == "postpone":
        clock = clock.add_time(t, opp, 120_000)
        text = (f"The arbiter postpones the decision on {NAME[claim.by]}'s quickplay claim; {NAME[opp]} receives "
                "2 minutes and the game continues in the arbiter's presence (a draw may still be declared, "
                "even after a flag has fallen).")
        b.set(postponed=True)
    else:
        if s.edition.name == "2023":
            clock = clock.add_time(t, opp, 120_000)
        text = f"The arbiter rejects {NAME[claim.by]}'s quickplay claim; the game continues." + (
            f" {NAME[opp]} receives 2 minutes." if s.edition.name == "2023" else "")
    b.set(claims=rest, clock=clock.resume(t))
    b.rule(t, "quickplay", text)


def _on_adjudication(b: _Builder, ev: Event, ruling: str) -> None:
    """The arbiter ends a game by the competition's adjudication rules (engine
    matches: a score threshold, a move limit), acting in the best interest of
    the competition; ``reason`` says which rule."""
    s = b.s
    if not s.ongoing:
        raise GameError(ev, "the game is over")
    why = f" ({ev.get('reason')})" if ev.get("reason") else ""
    if ruling == "draw":
        b.end(ev.t_ms, draw("arbiter_decision"), "adjudication", f"The arbiter adjudicates the game drawn{why}.")
    elif ruling in ("white_wins", "black_wins"):
        winner: Color = "white" if ruling == "white_wins" else "black"
        b.end(ev.t_ms, win_for(winner, "arbiter_decision"), "adjudication",
              f"The arbiter adjudicates the game won by {NAME[winner]}{why}.")
    else:
        raise GameError(ev, f"an adjudication is \"draw\", \"white_wins\" or \"black_wins\", not {ruling!r}")


def _decide_increment(b: _Builder, ev: Event, ruling: str) -> None:
    """The arbiter's answer to a III.4 request, once the opponent refused the draw."""
    s = b.s
    t = ev.t_ms
    claim = next((c for c in s.claims if c.reason == "increment"), None)
    if claim is None or not s.ongoing:
        raise GameError(ev, "no request for an increment awaits a decision")
    if any(o is not None and o.by == claim.by for o in (s.offer, s.counter)):
        raise GameError(ev, f"{NAME[other(claim.by)]} has not yet refused the draw the request offers")
    if ruling not in ("grant", "reject"):
        raise GameError(ev, "a request for an increment is granted or rejected")
    rest = tuple(c for c in s.claims if c is not claim)
    clock = s.clock
    opp = other(claim.by)
    if ruling == "grant":
        clock = clock.with_increment(t, 5_000).add_time(t, opp, 120_000)
        text = (f"The arbiter grants {NAME[claim.by]}'s request: from now on five seconds are added after every move "
                f"of both players, {NAME[opp]} receives two extra minutes, and the game continues.")
    else:
        text = f"The arbiter rejects {NAME[claim.by]}'s request for an increment; the game continues."
    b.set(claims=rest, clock=clock.resume(t))
    b.rule(t, "increment_request", text)


def _on_claim_flag(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    opp = other(by)
    fallen = s.clock.fallen(t)
    ed = s.edition
    if opp not in fallen:
        b.rule(t, "flag_observed", f"{NAME[by]} claims that {NAME[opp]}'s flag has fallen, but it has not: the game continues.")
        return
    if by in fallen:
        rapid = s.config.mode in ("rapid", "blitz") and ed.flags_only_on_claim_in_rapid
        if rapid:
            b.end(t, draw("both_flags_fallen"), "both_flags_rapid", "Both flags have fallen: the game is drawn.")
            return
        quick = _in_quickplay_finish(s, by) and _in_quickplay_finish(s, opp)
        draw_key, continue_key = "both_flags_quickplay", "both_flags"
        if ed.name == "2023" and any(p.increment_ms for p in s.clock.control.periods):
            # Guidelines III are for games without increment; Article 6.11 rules the rest.
            draw_key, continue_key = "both_flags_last_period", "both_flags_earlier_period"
        if ed.both_flags_quickplay == "draw" and quick:
            b.end(t, draw("both_flags_fallen"), draw_key,
                  "Both flags have fallen and it cannot be established which fell first, in the period in which "
                  "all remaining moves must be made: the game is drawn.")
        else:
            b.rule(t, continue_key,
                   "Both flags have fallen and it cannot be established which fell first: the game continues.")
        return
    _flag_outcome(b, opp, t)


def _on_stop_clocks(b: _Builder, ev: Event) -> None:
    s = b.s
    if s.clock.running is None:
        raise GameError(ev, "the clocks are already stopped")
    b.set(clock=s.clock.stop(ev.t_ms))
    if ev.by == "arbiter":
        why = ev.get("reason")
        b.rule(ev.t_ms, "interruption", f"The arbiter stops the clocks: {why}." if why else "The arbiter stops the clocks.")


def _on_start_clocks(b: _Builder, ev: Event) -> None:
    s = b.s
    if s.clock.running is not None:
        raise GameError(ev, "the clocks are already running")
    if s.claims:
        raise GameError(ev, "a claim awaits the arbiter's decision")
    b.set(clock=s.clock.resume(ev.t_ms))
    why = ev.get("reason")
    b.rule(ev.t_ms, "interruption",
           f"The arbiter restarts the clocks: {why}." if why else "The arbiter restarts the clocks.")


def _on_set_clocks(b: _Builder, ev: Event) -> None:
    s = b.s
    w, k = int(ev.get("white_ms")), int(ev.get("black_ms"))
    if w < 0 or k < 0:
        raise EventError("'white_ms' and 'black_ms' must not be negative", field="white_ms" if w < 0 else "black_ms")
    b.set(clock=s.clock.set_times(ev.t_ms, w, k))
    b.rule(ev.t_ms, "set_clocks", f"The arbiter sets the clocks: White {fmt_duration(w)}, Black {fmt_duration(k)}.")


#: The arbiter's penalties (1989 16.5, 1997 13.4, 2023 12.9): the kind -> the rule key of its article.
PENALTY_RULES: Mapping[str, str] = {
    "warning": "penalty_warning",
    "add_time": "penalty_add_time",
    "reduce_time": "penalty_reduce_time",
    "opponent_points": "penalty_opponent_points",
    "reduce_points": "penalty_reduce_points",
    "loss": "penalty_loss",
    "fine": "penalty_fine",
    "exclusion": "penalty_exclusion",
    "expulsion": "penalty_expulsion",
}
#: Penalties that concern the result or the player, not the play: also after the game.
_AFTER_THE_GAME = {"warning", "opponent_points", "reduce_points", "fine", "exclusion", "expulsion"}


def _on_penalty(b: _Builder, ev: Event) -> None:
    against: Color = ev.get("against")
    _apply_penalty(b, ev, against, str(ev.get("kind")), f" ({ev.get('reason')})" if ev.get("reason") else "")


def _apply_penalty(b: _Builder, ev: Event, against: Color, kind: str, why: str) -> None:
    """One of the arbiter's penalties against ``against``, with the fields of ``ev``."""
    s = b.s
    t = ev.t_ms
    ed = s.edition
    opp = other(against)
    rule = PENALTY_RULES[kind]
    if rule not in ed.articles:
        raise GameError(ev, f"the {ed.name} Laws' penalties (Article {ed.article('penalty')}) do not include "
                        f"{kind.replace('_', ' ')!r}; the 2023 Laws (12.9) do")
    if not s.ongoing and kind not in _AFTER_THE_GAME:
        raise GameError(ev, f"the game is over: a {kind.replace('_', ' ')} penalty can no longer apply")
    seconds = ev.get("seconds")
    if kind in ("add_time", "reduce_time"):
        if seconds is None or seconds <= 0:
            raise EventError(f"a {kind} penalty needs 'seconds' (a positive number)", field="seconds")
        if s.config.time_control.unlimited:
            raise GameError(ev, "no clock is in use: time penalties cannot apply")
        ms = round(float(seconds) * 1000)
        clock: Clock = b.get("clock")
        if kind == "add_time":
            b.set(clock=clock.add_time(t, opp, ms))
            b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {NAME[opp]} receives {fmt_duration(ms)}.")
        else:
            b.set(clock=clock.add_time(t, against, -ms))
            b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {fmt_duration(ms)} is taken off his clock.")
    elif kind == "warning":
        b.rule(t, rule, f"The arbiter warns {NAME[against]}{why}.")
    elif kind in ("opponent_points", "reduce_points"):
        out = s.outcome
        if out is None or s.status != "finished":
            raise GameError(ev, "points are changed once the game has a result")
        score = dict(out.score)
        if kind == "opponent_points":
            score[opp] = 1
            text = f"{NAME[opp]}'s points in this game are raised to the maximum, 1"
        else:
            points = ev.get("points")
            if points is None or points < 0 or points > score[against]:
                raise EventError(f"a reduce_points penalty needs 'points': {NAME[against]}'s new score, "
                                 f"between 0 and {_num(score[against])}", field="points")
            score[against] = float(points)
            text = f"{NAME[against]}'s points in this game are reduced to {_num(float(points))}"
        b.set(outcome=replace(out, points=(float(score["white"]), float(score["black"]))))
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {text}.")
    elif kind == "fine":
        amount = ev.get("amount")
        if not amount:
            raise EventError("a fine needs 'amount' (as announced in advance, e.g. \"50 EUR\")", field="amount")
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: a fine of {amount}, as announced in advance.")
    elif kind == "exclusion":
        rounds = ev.get("rounds")
        if rounds is None or rounds < 1:
            raise EventError("an exclusion needs 'rounds' (how many rounds, at least 1)", field="rounds")
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: excluded from {rounds} round"
               f"{'s' if rounds > 1 else ''}.")
    elif kind == "expulsion" and not s.ongoing:
        b.rule(t, rule, f"Penalty against {NAME[against]}{why}: {NAME[against]} is expelled from the competition.")
    else:
        verb = "is expelled from the event and loses the game" if kind == "expulsion" else "loses the game"
        score_opp = ev.get("opponent_score")
        outcome = win_for(opp, "arbiter_decision")
        extra = ""
        if score_opp is not None:
            if ed.name != "2023":
                raise EventError(f"'opponent_score' is the 2023 Laws' (12.9.6, 11.7); the {ed.name} opponent wins",
                                 field="opponent_score")
            if score_opp not in (0, 0.5, 1):
                raise EventError("'opponent_score' must be 0, 0.5 or 1", field="opponent_score")
            white, black = (0.0, float(score_opp)) if against == "white" else (float(score_opp), 0.0)
            outcome = replace(outcome, points=(white, black)) if score_opp != 1 else outcome
            extra = f" The arbiter gives {NAME[opp]} {_num(float(score_opp))}."
        b.end(t, outcome, rule, f"Penalty against {NAME[against]}{why}: {NAME[against]} {verb}.{extra}")


#: Article 11 conduct (2023; 1997 Article 12; 1989 Article 15): the kind -> the rule key.
CONDUCT_RULES: Mapping[str, str] = {
    "device": "conduct_device",
    "leave_area": "conduct_leave_area",
    "annoy": "conduct_annoy",
    "information": "conduct_information",
    "inspection_refused": "conduct_inspection",
}


def _on_conduct(b: _Builder, ev: Event) -> None:
    """The arbiter finds a breach of the players' conduct and rules on it."""
    s = b.s
    ed = s.edition
    t = ev.t_ms
    against: Color = ev.get("against")
    kind = str(ev.get("kind"))
    rule = CONDUCT_RULES[kind]
    if rule not in ed.articles:
        raise GameError(ev, f"the {ed.name} Laws have no rule on {kind.replace('_', ' ')}")
    penalty = ev.get("penalty")
    why = f" ({ev.get('reason')})" if ev.get("reason") else ""
    what = {
        "device": "had an electronic device not approved by the arbiter in the playing venue",
        "leave_area": "left the playing area without the arbiter's permission",
        "annoy": "distracted or annoyed the opponent",
        "information": "used notes, a source of information or advice, or analysed on another board",
        "inspection_refused": "refused to let the arbiter inspect his clothes, bags or other items",
    }[kind]
    opp = other(against)
    if kind == "device" and ed.name == "2023":
        if penalty is None:
            if not s.ongoing:
                raise GameError(ev, "the game is over")
            b.end(t, win_for(opp, "arbiter_decision"), rule,
                  f"{NAME[against]} {what}{why}: {NAME[against]} loses the game and {NAME[opp]} wins.")
            return
        if not s.config.device_penalty_lighter:
            raise GameError(ev, "2023 11.3.2.2: the device loses the game; a less severe penalty needs regulations "
                            "that specify one (start field 'device_penalty': \"lighter\")")
        b.rule(t, rule, f"{NAME[against]} {what}{why}; the regulations of the event specify a less severe penalty.")
    else:
        b.rule(t, rule, f"{NAME[against]} {what}{why}.")
    _apply_penalty(b, ev, against, str(penalty or "warning"), why)


def _on_reinstate(b: _Builder, ev: Event) -> None:
    """The arbiter goes back to the position after ``ply`` moves: the last
    identifiable position before an irregularity (1989 8.1-8.2, 1997 7.4,
    2023 7.4.1), or where the two game scores of a game with a visually
    disabled player agree (2023 D.2.10); the clocks as he sets them."""
    s = b.s
    t = ev.t_ms
    n = int(ev.get("ply"))
    if s.claims or s.envelope is not None:
        raise GameError(ev, "a claim or a sealed move is pending")
    if not 0 <= n < len(s.moves):
        raise EventError(f"field 'ply': keep between 0 and {len(s.moves) - 1} of the {len(s.moves)} moves made "
                         f"(not {n})", field="ply")
    kept = s.moves[:n]
    pos = Position(s.config.fen)
    for m in kept:
        pos = pos.play_illegal(m.uci) if m.illegal else pos.play(m.uci)
    w, k = ev.get("white_ms"), ev.get("black_ms")
    if (w is None) != (k is None):
        raise EventError("give both 'white_ms' and 'black_ms', or neither", field="white_ms" if w is None else "black_ms")
    clock = s.clock
    was = clock.running or clock.paused
    white_moves = sum(1 for m in kept if m.color == "white")
    black_moves = len(kept) - white_moves
    if clock.running is not None:
        clock = clock.stop(t)
    clock = clock.take_back(t, pos.turn, min(white_moves, clock.moves("white")), min(black_moves, clock.moves("black")))
    if was is None:
        clock = clock.stop(t)
    if w is not None and k is not None:
        clock = clock.set_times(t, int(w), int(k))
    b.set(position=pos, keys=s.keys[: n + 1], moves=kept, clock=clock, offer=None, counter=None, touched=(),
          touch_violation=None, illegal_pending=None)
    reason = ev.get("reason")
    rule = "boards_differ" if reason == "boards_differ" and s.config.visually_disabled else "reinstate"
    last = f"after {(n + 1) // 2}{'.' if n % 2 else '...'} {kept[-1].san}" if kept else "at the start"
    times = (f"; the clocks are set to White {fmt_duration(int(w))}, Black {fmt_duration(int(k))}"
             if w is not None and k is not None else "")
    why = f" ({reason.replace('_', ' ')})" if reason else ""
    b.rule(t, rule, f"The arbiter reinstates the position {last}{why}: {len(s.moves) - n} move"
           f"{'s are' if len(s.moves) - n > 1 else ' is'} taken back{times}; {NAME[pos.turn]} has the move.")


def _on_refuse(b: _Builder, ev: Event) -> None:
    against = str(ev.get("against"))
    t = ev.t_ms
    if against == "both":
        b.end(t, Outcome("0-0", "refusal_to_comply"), "refusal_both",
              "Both players persistently refuse to comply with the Laws: both lose.")
    else:
        c: Color = against  # type: ignore[assignment]
        b.end(t, win_for(other(c), "refusal_to_comply"), "refusal",
              f"{NAME[c]} persistently refuses to comply with the Laws: {NAME[other(c)]} wins.")


def _on_annul(b: _Builder, ev: Event) -> None:
    why = ev.get("reason") or "the arbiter's decision"
    b.rule(ev.t_ms, "rules_of_play", f"The game is annulled: {why}.")
    clock = b.s.clock.stop(ev.t_ms) if b.s.clock.running is not None else b.s.clock
    b.set(status="annulled", outcome=None, clock=clock, offer=None, claims=())


def _on_arrive(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if by not in s.absent:
        raise GameError(ev, f"{NAME[by]} is already at the board")
    b.set(absent=s.absent - {by})
    env = s.envelope
    if env is not None and by == other(env.sealer):
        _open_envelope(b, ev.t_ms, env)


def _read_written_move(position: Position, text: str, language: str | None) -> str:
    """A move as a player wrote it, in any notation or language, as UCI."""
    try:
        from chesslaws import notation
    except ImportError:  # pragma: no cover - notation ships with the package
        return position.parse_move(text)
    reader = getattr(notation, "read_move", None)
    if reader is None:  # pragma: no cover
        return position.parse_move(text)
    return str(reader(position, text, language))


def _open_envelope(b: _Builder, t: int, env: Envelope) -> None:
    """The envelope is opened and the sealed move played (1997 A.7-A.9; 1989 14.2-14.4)."""
    s = b.s
    sealer = env.sealer
    replier = other(sealer)
    pos: Position = b.get("position")
    what = "sealed reply" if env.reply else "sealed move"
    fault: str | None = None
    try:
        uci = _read_written_move(pos, env.move, env.language)
    except AmbiguousMove as err:
        fault = f"is ambiguous ({err})"
    except UnreadableMove:
        fault = "is false: its true significance cannot be established"
    except IllegalMove:
        fault = "is illegal"
    if fault is not None:
        b.set(envelope=None)
        lead = f"The envelope is opened: {NAME[sealer]}'s {what} {env.move_number}. {env.move!r} {fault}"
        denied, why, _ = _cannot_win(s.edition, pos, replier)
        if denied:
            # 1989 10.5 names the bare king; 1997 A.8 excepts 6.9.
            rule = "bare_king" if s.edition.flag_draw == "bare_king" else "sealed_move_invalid"
            b.end(t, draw("sealed_move_invalid"), rule, f"{lead}, but {NAME[replier]}{why}: the game is drawn.")
            return
        b.end(t, win_for(replier, "sealed_move_invalid"), "sealed_move_invalid",
              f"{lead}: {NAME[sealer]} loses.")
        return
    san, uci, nxt = pos.play_annotated(uci)
    b.set(envelope=None)
    b.rule(t, "envelope_opened", f"The envelope is opened in {NAME[replier]}'s presence: {NAME[sealer]}'s "
           f"{what} is {env.move_number}{'.' if sealer == 'white' else '...'} {san}; it is played on the board.")
    _after_move(b, t, sealer, san, uci, nxt, press=False)


def _on_seal(b: _Builder, ev: Event) -> None:
    """Sealing a move at adjournment (1989 13.1, 1997 A.1) or a reply while the
    sealer is absent at resumption (1997 A.9(c), 1989 14.4)."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    opp = other(by)
    if s.claims:
        raise GameError(ev, "a claim awaits the arbiter's decision")
    if by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) seals a move")
    if s.envelope is not None:
        raise GameError(ev, "a sealed move is already waiting to be opened")
    if s.clock.running != by:
        raise GameError(ev, "the clocks are stopped")
    _require_player_present(b, ev)
    reply = opp in s.absent
    clock = s.clock
    session_end = ev.get("session_end")
    extra = ""
    if session_end is not None and not reply:
        from chesslaws.events import t_to_ms

        end_ms = t_to_ms(session_end, field_name="session_end")
        if end_ms > t:
            clock = clock.add_time(t, by, -(end_ms - t))
            extra = (f" Adjourning before the end of the session adds the remaining {fmt_duration(end_ms - t)} "
                     f"to {NAME[by]}'s used time.")
    before = clock.stop(t)
    number = s.position.fullmove_number
    env = Envelope(
        sealer=by,
        move=str(ev.get("move")),
        language=ev.get("language"),
        fen_before=s.position.fen(),
        move_number=number,
        white_used_ms=before.used(t, "white"),
        black_used_ms=before.used(t, "black"),
        draw_offer=s.offer.by if s.offer is not None else None,
        t_ms=t,
        resumption=ev.get("resumption"),
        white=s.config.white,
        black=s.config.black,
        clock_before=before,
        reply=reply,
    )
    if reply:
        b.set(clock=clock.press(t, by), envelope=env, touched=(), touch_violation=None, illegal_pending=None)
        b.rule(t, "sealer_absent", f"{NAME[opp]}, who sealed the previous move, is absent: {NAME[by]} seals "
               f"his reply (move {number}) and starts {NAME[opp]}'s clock; the envelope is opened on "
               f"{NAME[opp]}'s arrival.")
        return
    b.set(clock=clock.press(t, by).stop(t), envelope=env, status="adjourned", touched=(),
          touch_violation=None, illegal_pending=None)
    where = f" Resumption: {env.resumption}." if env.resumption else ""
    b.rule(t, "adjournment", f"{NAME[by]} seals his move {number}; the clocks are stopped and the game is "
           f"adjourned.{extra}{where}")


def _on_resume(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    env = s.envelope
    if s.status != "adjourned" or env is None:
        raise GameError(ev, "there is no adjourned game to resume")
    clock = s.clock
    w, k = ev.get("white_ms"), ev.get("black_ms")
    if (w is None) != (k is None):
        raise EventError("give both 'white_ms' and 'black_ms', or neither", field="white_ms" if w is None else "black_ms")
    if w is not None and k is not None:
        clock = clock.set_times(t, int(w), int(k))
    replier = other(env.sealer)
    clock = clock.start(t, replier)
    b.set(status="ongoing", clock=clock, absent=frozenset({"white", "black"}), session_start_ms=t)
    b.rule(t, "resumption", f"The game is resumed from the position before the sealed move; {NAME[replier]}'s "
           f"clock runs, and the envelope is opened when {NAME[replier]} is present.")


def _on_envelope_lost(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    env = s.envelope
    if env is None or env.reply:
        raise GameError(ev, "no sealed move is waiting to be opened")
    clock = env.clock_before
    w, k = ev.get("white_ms"), ev.get("black_ms")
    if w is not None and k is not None:
        clock = clock.set_times(t, int(w), int(k))
    b.set(envelope=None, clock=clock.resume(t))
    b.rule(t, "envelope_lost", f"The envelope has disappeared: the game continues from the adjourned position "
           f"with the clock times recorded at adjournment, and {NAME[env.sealer]} makes the sealed move on the board.")


def _on_claim_setup(b: _Builder, ev: Event) -> None:
    """Claims about the set-up: wrong initial position, board, clock setting (1997 7.1, B.4)."""
    s = b.s
    t = ev.t_ms
    what = str(ev.get("what"))
    fast = s.config.mode in ("rapid", "blitz")
    limit = 3 if s.edition.name == "1997" else 10 if s.edition.name == "2023" and not s.config.supervised else 0
    made = min(sum(1 for m in s.moves if m.color == c) for c in ("white", "black"))
    if fast and limit and made >= limit:
        b.rule(t, "setup_claim", f"{NAME[ev.by or 'white']}'s claim about the {what.replace('_', ' ')} is too late: "
               f"once each player has made {'three' if limit == 3 else 'ten'} moves no such claim can be made.")
        return
    if what == "initial_position":
        b.rule(t, "wrong_initial_position", "The initial position was incorrect: the game is annulled and a new game is played.")
        clock = s.clock.stop(t) if s.clock.running is not None else s.clock
        b.set(status="annulled", outcome=None, clock=clock, offer=None, claims=())
    elif what == "board":
        b.rule(t, "board_placed_wrongly", "The board was placed wrongly: the position reached is transferred to a "
               "correctly placed board and the game continues.")
    else:
        b.rule(t, "set_clocks", "The clock setting is disputed in time: the arbiter corrects the clocks.")


HANDLERS: Mapping[str, Handler] = {
    "move": _on_move,
    "offer_draw": _on_offer,
    "accept_draw": _on_accept,
    "decline_draw": _on_decline,
    "claim_draw": _on_claim_draw,
    "claim_flag": _on_claim_flag,
    "resign": _on_resign,
    "arrive": _on_arrive,
    "stop_clocks": _on_stop_clocks,
    "start_clocks": _on_start_clocks,
    "set_clocks": _on_set_clocks,
    "penalty": _on_penalty,
    "conduct": _on_conduct,
    "reinstate": _on_reinstate,
    "press_clock": _on_press_clock,
    "request_increment": _on_request_increment,
    "decision": _on_decision,
    "refuse_to_comply": _on_refuse,
    "annul": _on_annul,
    "claim_win": _on_claim_win,
    "touch": _on_touch,
    "adjust": _on_adjust,
    "claim_touch_move": _on_claim_touch_move,
    "seal": _on_seal,
    "resume": _on_resume,
    "envelope_lost": _on_envelope_lost,
    "claim_setup": _on_claim_setup,
}

#: Events allowed when the game is not in play, by status.
_ALLOWED_WHEN = {
    "finished": {"decision", "annul", "penalty", "conduct"},
    "adjourned": {"offer_draw", "accept_draw", "decline_draw", "resign", "resume", "annul"},
    "annulled": set(),
}


def transition(state: GameState, ev: Event) -> GameState:
    """The state after ``ev``; raises :class:`GameError` if it is not allowed now."""
    if ev.type == "start":
        raise GameError(ev, "the game has already started ('start' is only the first line)")
    if ev.t_ms < state.t_ms:
        raise GameError(ev, f"t goes back in time (the previous event was at t={ms_to_t(state.t_ms)})")
    seen = observe(state, ev.t_ms)
    if seen.status != "ongoing" and ev.type not in _ALLOWED_WHEN[seen.status]:
        if seen.status == "annulled":
            raise GameError(ev, "the game has been annulled")
        if seen.status == "adjourned":
            raise GameError(ev, "the game is adjourned: only a draw agreement, a resignation or the arbiter's "
                            "resumption can come before the envelope is opened")
        last = seen.rulings[-1].text if seen.rulings else ""
        when = f" at t={ms_to_t(seen.rulings[-1].t_ms)}" if seen.rulings else ""
        raise GameError(ev, f"the game is over{when}: {last}".rstrip(": "))
    b = _Builder(seen)
    HANDLERS[ev.type](b, ev)
    return b.build()


# --- the public face --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Game:
    """A game: its log and the state the Laws give it."""

    events: tuple[Event, ...]
    state: GameState

    @classmethod
    def start(
        cls,
        *,
        edition: str = "2023",
        time_control: str = "-",
        mode: str | None = None,
        arbiter: str = "present",
        white: str = "?",
        black: str = "?",
        fen: str | None = None,
        t: float = 0,
        **extra: Any,
    ) -> Game:
        """A new game, e.g. ``Game.start(edition="1997", time_control="40/5400:1800+30")``."""
        obj: dict[str, Any] = {"type": "start", "t": t, "edition": str(edition), "time_control": time_control,
                               "arbiter": arbiter, "white": white, "black": black}
        if mode is not None:
            obj["mode"] = mode
        if fen is not None:
            obj["fen"] = fen
        obj.update(extra)
        return cls.from_start(obj)

    @classmethod
    def from_start(cls, start: Mapping[str, Any] | Event) -> Game:
        ev = start if isinstance(start, Event) else parse_event(dict(start))
        return cls((ev,), initial_state(ev))

    def apply(self, event: Mapping[str, Any] | Event) -> Game:
        """The game after ``event`` (a log entry as a dict, or an :class:`Event`)."""
        ev = event if isinstance(event, Event) else parse_event(dict(event))
        return Game(self.events + (ev,), transition(self.state, ev))

    def at(self, t: float) -> Game:
        """The game as it stands at instant ``t`` (seconds), with no new event."""
        from chesslaws.events import t_to_ms

        return Game(self.events, observe(self.state, t_to_ms(t, field_name="at")))

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any] | Event]) -> Game:
        """Replays events; a bad one raises :class:`LogError` with its 1-based index."""
        game: Game | None = None
        for i, raw in enumerate(events, start=1):
            try:
                game = cls.from_start(raw) if game is None else game.apply(raw)
            except ChessLawsError as err:
                raise LogError(getattr(raw, "line", i), str(err)) from err
        if game is None:
            raise LogError(1, "the log is empty: it must begin with a 'start' event")
        return game

    @classmethod
    def replay(cls, path: str | os.PathLike[str]) -> Game:
        """Reads a JSON Lines log file and replays it."""
        return cls.from_events(read_log(path))

    # conveniences
    @property
    def position(self) -> Position:
        return self.state.position

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    def log_lines(self) -> list[str]:
        return [json.dumps(e.to_json()) for e in self.events]


def read_log(path: str | os.PathLike[str]) -> Iterable[Mapping[str, Any]]:
    """Yields the events of a JSON Lines log; malformed lines raise :class:`LogError`."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            lines = fh.read().splitlines()
    except UnicodeDecodeError as err:
        raise LogError(1, f"the log is not UTF-8 text ({err.reason})") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise LogError(n, f"not valid JSON: {err.msg} (column {err.colno})") from None
        if not isinstance(obj, dict):
            raise LogError(n, "each line must be a JSON object")
        yield _Numbered(n, obj)


class _Numbered(dict[str, Any]):
    """A log entry that remembers its line number, for error messages."""

    def __init__(self, line: int, obj: Mapping[str, Any]) -> None:
        super().__init__(obj)
        self.line = line


__all__ = [
    "Config",
    "DrawOffer",
    "Game",
    "GameError",
    "GameState",
    "LogError",
    "MoveRecord",
    "Outcome",
    "Ruling",
    "Termination",
    "observe",
    "transition",
]

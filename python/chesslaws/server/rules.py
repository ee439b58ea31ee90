"""The rules of a live session, as pure functions of a live game and an instant: no event loop, no store.

The server's time of a game (``t``, seconds since its scheduled start), its start (a fair start that
waits for both players, a held round's game, a scheduled start whose players are absent until they come),
the instants at which it changes by itself (a flag fall an arbiter present observes, the default time, the
abort of an online game without a first move), who may send which event for whom, the online legality
check, the limits of 2023 11.5 (the log's room, unreasonable claims), and the interruption written when
the server could not store moves. :mod:`chesslaws.server.hub` does what these decide.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Protocol, Sequence

from chesslaws.errors import AmbiguousMove, ChessLawsError, IllegalMove, UnreadableMove
from chesslaws.events import SCHEMAS, Schema
from chesslaws.game import Game
from chesslaws.game.draws import awaiting_arbiter
from chesslaws.game.flags import due, ending_by_itself
from chesslaws.game.state import Config, GameState
from chesslaws.server import budget
from chesslaws.server.errors import ApiError
from chesslaws.server.guard import Limits

#: Seconds between the reminders a process sends while an arbiter's console of a game is open on it (several
#: processes on one database); one not reminded of for three times as long is gone (its process died).
ARBITER_BEAT = 5.0


class Session(Protocol):
    """What the rules read of a live game (:class:`chesslaws.server.live.LiveGame` is one)."""

    @property
    def created_at(self) -> float: ...  # unix seconds of t=0

    @property
    def interface(self) -> str: ...  # "online" or "otb"

    @property
    def game(self) -> Game: ...

    @property
    def waiting(self) -> bool: ...  # t=0 waits for both players (or, held, for the arbiter)

    @property
    def held(self) -> bool: ...

    @property
    def scheduled(self) -> bool: ...

    @property
    def abort_after(self) -> float | None: ...

    @property
    def present(self) -> set[str]: ...  # the seats a waiting game's players opened

    @property
    def token_hashes(self) -> Mapping[str, str | None]: ...


# --- time ----------------------------------------------------------------------------------------------
def seen_at(game: Game, t: float) -> Game:
    """The game as it stands at instant ``t`` (what happened by itself by then: a flag fall an arbiter
    present observes, the default time), or as its last event left it when ``t`` is before that event."""
    ms = round(t * 1000)
    return game.at(t) if ms > game.state.t_ms else game


def server_t(s: Session, now: float, down_since: float | None) -> float:
    """Seconds since the game's scheduled start at the server's instant ``now``, never before its last event.
    While the store is unreachable (since ``down_since``), time stands still at the outage's start: no flag
    falls for a player who cannot move (the time is given back in the log when the store returns). A game
    that waits for its players is at -1."""
    if s.waiting:
        return -1.0  # not started: t=0 comes when both players are there
    if down_since is not None:
        now = min(now, down_since)
    t = round(now - s.created_at, 3)
    last = s.game.events[-1].t_ms / 1000
    return max(t, last) if t >= 0 else t


# --- the start -------------------------------------------------------------------------------------------
def start_rule(s: Session) -> dict[str, Any]:
    """The game's start rule as stored (:meth:`chesslaws.server.live.LiveGame.follow` reads it back)."""
    return {"waiting": s.waiting, "abort_after": s.abort_after, "scheduled": s.scheduled, "held": s.held}


#: The fields of the ``start`` event that carry an online game's start rule (``docs/game-log.md``).
RULE_FIELDS = ("wait", "abort_after", "scheduled")

#: The server's event that fixes the t=0 of a game that waited for its players or its arbiter.
BEGIN: dict[str, Any] = {"type": "begin", "t": 0, "by": "arbiter"}


def rule_fields(rule: Mapping[str, Any] | None) -> dict[str, Any]:
    """The fields of the ``start`` event that carry ``rule`` (as :func:`start_rule` gives it, or None)."""
    if not rule:
        return {}
    out: dict[str, Any] = {}
    if rule.get("waiting"):
        out["wait"] = "arbiter" if rule.get("held") else "players"
    if rule.get("abort_after") is not None:
        out["abort_after"] = rule["abort_after"]
    if rule.get("scheduled"):
        out["scheduled"] = True
    return out


def logged_rule(game: Game) -> dict[str, Any] | None:
    """The start rule the game's log carries: its ``start`` event's fields of :data:`RULE_FIELDS`, the game
    waiting no more once any event follows the start (its ``begin``, or the arbiter's annulment). None when
    the start carries none of them (the rule, if any, is then the store's ``game_starts`` row)."""
    start = game.events[0]
    if not any(start.get(f) is not None for f in RULE_FIELDS):
        return None
    wait = start.get("wait") if len(game.events) == 1 else None
    after = start.get("abort_after")
    return {"waiting": wait is not None, "abort_after": None if after is None else float(after),
            "scheduled": bool(start.get("scheduled")), "held": wait == "arbiter"}


def competition(cfg: Config) -> dict[str, str] | None:
    """The event and round a game's start names when it is a round of a competition (a tournament's games
    name both; a game against an engine names its event alone): such a game has no rematch, and its page
    links to its event. None for a game of its own."""
    tags = cfg.tags
    event, rnd = tags.get("event"), tags.get("round")
    return {"event": event, "round": rnd} if event is not None and rnd is not None else None


def waiting_for(s: Session) -> list[str]:
    """The seats a waiting game still waits for (not taken, or not yet opened)."""
    if not s.waiting or s.held:  # a held game waits for the arbiter alone
        return []
    return [seat for seat in ("white", "black") if not s.token_hashes.get(seat) or seat not in s.present]


def postponed_start(s: Session, down: float, up: float, grace: float) -> float | None:
    """The new t=0 (unix seconds) of a scheduled game whose log is its start alone, or its start and its
    ``begin`` (nobody at the board yet, no move) and whose t=0 came before ``up`` while no player could reach
    it or be written at the board (the server or its database away from ``down`` to ``up``): ``grace`` seconds after ``up`` less the time it
    had already run before ``down``, so that the clocks and the default time (Article 6.7) count none of the
    time away. None when it is not postponed (begun, over, or its start still to come)."""
    game = s.game
    t0 = s.created_at
    if not s.scheduled or any(e.type != "begin" for e in game.events[1:]) or not game.state.ongoing or t0 >= up:
        return None
    if t0 < down and not seen_at(game, round(down - t0, 3)).state.ongoing:
        return None  # over by itself before (the default time passed): its ending stands
    return round(up + grace - max(0.0, down - t0), 3)


def abort_deadline_ms(s: Session) -> int | None:
    """When an online game without a first move by the side to move is aborted (ms since t=0), or None."""
    if s.abort_after is None or s.interface != "online" or s.waiting:
        return None
    st = s.game.state
    if not st.ongoing or len(st.moves) >= 2 or st.claims or st.clock.running is None:
        return None
    if st.absent:
        return None  # a player not yet at the board: the default time (Article 6.7) rules, not an abort
    since = st.moves[0].t_ms if st.moves else st.config.start_t_ms
    # From the moment both are at the board, or the clocks were started again after an interruption.
    restarts = [e.t_ms for e in s.game.events if e.type in ("arrive", "start_clocks")]
    if restarts:
        since = max(since, restarts[-1])
    deadline = since + round(s.abort_after * 1000)
    flag = st.clock.flag_time(st.clock.running)
    if flag is not None and flag - 50 < deadline:
        deadline = max(since, flag - 50)  # an abort, never a forfeit without a move
    return deadline


def abort_due(s: Session, t: float) -> bool:
    """Is the game to be aborted at ``t`` (its side to move made no first move in time)?"""
    deadline = abort_deadline_ms(s)
    return deadline is not None and t * 1000 >= deadline


def abort_reason(s: Session) -> str:
    """The reason of the arbiter's ``annul`` that aborts the game (:func:`aborted` recognises it, and
    :func:`abort_cause` reads it back)."""
    who = "White" if s.game.state.turn == "white" else "Black"
    after = s.abort_after if s.abort_after is not None else 0.0
    return f"aborted: {who} made no first move within {after:g} s"


#: The reason :func:`abort_reason` writes: the side that made no first move, and the seconds it had.
_ABORT_REASON = re.compile(r"aborted: (White|Black) made no first move within ([0-9.e+-]+) s")


def aborted(game: Game) -> bool:
    """Was the game aborted by the server (an ``annul`` whose reason begins with 'aborted:')?"""
    last = game.events[-1]
    return (game.state.status == "annulled" and last.type == "annul"
            and str(last.get("reason") or "").startswith("aborted:"))


def abort_cause(game: Game) -> dict[str, Any] | None:
    """Why the server aborted the game, as the pages say it in their own language: ``side`` (``"white"`` or
    ``"black"``), who made no first move, and ``after``, the seconds he had; None for a game not aborted (or
    aborted for a reason this server does not write)."""
    if not aborted(game):
        return None
    m = _ABORT_REASON.fullmatch(str(game.events[-1].get("reason")))
    if m is None:
        return None
    after = float(m.group(2))
    return {"side": m.group(1).lower(), "after": int(after) if after.is_integer() else after}


# --- what happens by itself ----------------------------------------------------------------------------
def ending_unwritten(s: Session, t: float) -> bool:
    """Has the game ended by itself by ``t`` (a flag fall observed, the default time) with its log not saying
    so yet? (Cheap when nothing is due: no state at the instant is built.)"""
    st = s.game.state
    if not st.ongoing or s.waiting:
        return False
    return t >= 0 and due(st, round(t * 1000)) and seen_at(s.game, t).state.status == "finished"


def ending_to_write(s: Session, t: float) -> str | None:
    """What the arbiter's ``observe`` at ``t`` writes when the game ended by itself by then and its log does not
    say so yet (``"flag"``, ``"default_time"``), else None."""
    game = s.game
    if s.waiting or t < 0 or not game.state.ongoing or not due(game.state, round(t * 1000)):
        return None
    seen = seen_at(game, t).state
    if seen.status != "finished":
        return None
    return ending_by_itself(seen)


def next_wakeup_ms(s: Session, now: float, t: float) -> int | None:
    """The next instant (ms since the scheduled start) at which the state changes by itself: the scheduled
    start, a flag fall an arbiter present observes, the default time for an absent player, the abort.
    ``now``: the server's instant (unix seconds); ``t``: the game's time then (:func:`server_t`)."""
    st = s.game.state
    if not st.ongoing:
        return None
    cfg = st.config
    now_ms = round((now - s.created_at) * 1000)
    if ending_unwritten(s, t):
        return now_ms  # ended by itself while nobody wrote it (a restart, an outage): written now
    when: list[int] = []
    if now_ms < 0:
        when.append(0)
    if cfg.flags_observed and st.clock.running is not None:
        ft = st.clock.flag_time(st.clock.running)
        if ft is not None:
            when.append(ft)
    if st.absent:
        when.append(st.default_deadline_ms + 1)
    abort = abort_deadline_ms(s)
    if abort is not None:
        when.append(abort)
    future = [w for w in when if w >= now_ms]
    return min(future) if future else None


# --- who may act, and when -----------------------------------------------------------------------------
def event_kind(body: Any) -> tuple[str, Schema]:
    """The type of the event ``body`` a client sent, and its schema; refused (409, 422) when it is not an
    event a client may send."""
    if not isinstance(body, dict):
        raise ApiError(422, "an event is a JSON object such as {\"type\": \"move\", \"move\": \"e4\"}")
    kind = body.get("type")
    if not isinstance(kind, str):
        raise ApiError(422, "every event needs a 'type' (a string)")
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise ApiError(422, f"unknown event type {kind!r}; known: {', '.join(sorted(SCHEMAS))}")
    if kind == "start":
        raise ApiError(409, "the game has already started ('start' is only the log's first line)")
    if kind == "begin":
        raise ApiError(409, "'begin' is written by the server when a game that waited begins")
    if "t" in body:
        raise ApiError(422, "do not send 't': the server's clock stamps every event")
    return kind, schema


def actor(interface: str, kind: str, schema: Schema, seat: str, body: Mapping[str, Any], limits: Limits) -> str:
    """Who the event is by (``"white"``, ``"black"``, ``"arbiter"``) when the token of ``seat`` sends it: a
    player acts for himself alone; the arbiter enters a player's event, saying for whom, only over the board.
    A player's texts and lists are bounded (:func:`chesslaws.server.budget.text_refusal`)."""
    claimed_by = body.get("by")
    if seat in ("white", "black"):
        if schema.by == "arbiter":
            raise ApiError(403, f"'{kind}' is an arbiter's event: it needs the arbiter's token")
        if claimed_by is not None and claimed_by != seat:
            raise ApiError(403, f"this token is {seat}'s: it cannot act for {claimed_by!r}")
        too_long = budget.text_refusal(body, limits)
        if too_long is not None:
            raise ApiError(422, too_long)
        return seat  # (over the board too, a player may act himself)
    if schema.by == "player":
        if interface != "otb":
            raise ApiError(403, "in an online game each player acts for himself; the arbiter enters "
                                "player events only in over-the-board mode (interface 'otb')")
        if claimed_by not in ("white", "black"):
            raise ApiError(422, f"the arbiter entering '{kind}' must say for whom: 'by': \"white\" or \"black\"")
        return str(claimed_by)
    if schema.by == "any":
        if claimed_by not in (None, "arbiter", "white", "black"):
            raise ApiError(422, "'by' must be \"white\", \"black\" or \"arbiter\"")
        return str(claimed_by or "arbiter")
    if claimed_by not in (None, "arbiter"):
        raise ApiError(422, "an arbiter's event has 'by': \"arbiter\"")
    return "arbiter"


def stamp(s: Session, t: float, kind: str, by: str) -> tuple[float, bool]:
    """The instant at which an event at the server's ``t`` is written, and whether the game had not begun
    then: refused (409) before the start, except the arbiter's ``annul`` of a game that has not begun
    (recorded at its start, t=0)."""
    before_start = s.waiting or t < 0
    if before_start and kind == "annul" and by == "arbiter":
        return 0.0, True
    if s.held:
        raise ApiError(409, "the game has not started: its clocks start when the arbiter starts the round")
    if s.waiting:
        raise ApiError(409, "the game has not started: it starts when both players have opened it")
    if t < 0:
        raise ApiError(409, f"the game has not started yet: it starts in {-t:.0f} s")
    return t, before_start


def arbiter_watching(here: bool, elsewhere: Mapping[str, float], now: float) -> bool:
    """Is an arbiter's console of the game open: ``here`` (on this process), or on another process of the
    database that said so lately (``elsewhere``: when each last did, in monotonic seconds; ``now`` the same
    clock): a process that died says nothing more."""
    if here:
        return True
    since = now - 3 * ARBITER_BEAT
    return any(t >= since for t in elsewhere.values())


def check_summons(cfg: Config, watching: bool) -> None:
    """A player stops the clocks only to summon an arbiter who is present (1997 6.12(b), 2023 6.11.2):
    refused where there is none, so that nobody can freeze an online game."""
    art = cfg.edition.article("summon_arbiter")
    if not cfg.arbiter_present:
        raise ApiError(409, f"no arbiter is present in this game: a player stops the clocks only to "
                            f"summon the arbiter (Article {art})")
    if not watching:
        raise ApiError(409, f"no arbiter is watching this game now: a player stops the clocks only to "
                            f"summon the arbiter (Article {art}); the arbiter's console must be open")


def check_legal(seen: Game, event: Mapping[str, Any]) -> None:
    """A live interface rejects illegal moves before they reach the log (``seen``: the game at the event's
    instant)."""
    st = seen.state
    if not st.ongoing or event.get("by") != st.turn:
        return  # the arbiter answers (game over, out of turn)
    kind = event["type"]
    text = event.get("move")
    if kind not in ("move", "claim_draw") or not isinstance(text, str):
        return
    try:
        st.position.parse_move(text)
    except IllegalMove:
        raise ApiError(422, f"illegal move {text!r} in this position") from None
    except AmbiguousMove as err:
        raise ApiError(422, f"ambiguous move {text!r}: it could be {', '.join(err.candidates)}") from None
    except UnreadableMove:
        raise ApiError(422, f"unreadable move {text!r}: write it in SAN (Nf3) or UCI (g1f3)") from None
    except ChessLawsError as err:
        raise ApiError(422, str(err)) from None


def check_awaited_arbiter(before: Game, new: Game, watching: Callable[[], bool]) -> None:
    """A player's claim that stops play until the arbiter decides it (the Laws say which:
    :func:`chesslaws.game.draws.awaiting_arbiter`) is refused, not recorded, while no arbiter watches the
    game (``watching()``, asked only for such a claim): nobody could decide it, and the clocks would stand
    still for good."""
    wait = awaiting_arbiter(new.state)
    if wait is None or awaiting_arbiter(before.state) is not None or watching():
        return
    if wait.concludes:
        why = (f"without an arbiter present {wait.what} concludes the game and is referred to an arbiter, "
               f"whose decision is final (Article {wait.article})")
    else:
        why = f"{wait.what} stops the clocks and summons the arbiter to decide it (Article {wait.article})"
    raise ApiError(409, f"refused, not recorded: {why}, but no arbiter is watching this game to decide it "
                        "(the clocks would stand still for good). Play on; the claim can be made while the "
                        "arbiter's console is open")


def alerts_after(seat: str, kind: str, new: Game, t: float) -> list[dict[str, Any]]:
    """What the arbiter's consoles are told after a player's event (``new``: the game after it): a claim he
    must decide, a summons."""
    out: list[dict[str, Any]] = []
    if seat not in ("white", "black"):
        return out
    wait = awaiting_arbiter(new.state)
    if wait is not None and wait.claim.t_ms == new.events[-1].t_ms and wait.claim.by == seat:
        out.append({"what": "decide", "by": seat, "t": t,
                    "text": f"{seat.capitalize()} makes {wait.what}: the clocks are stopped until you "
                            f"decide it (Article {wait.article})."})
    if kind == "stop_clocks":
        out.append({"what": "summons", "by": seat, "t": t,
                    "text": f"{seat.capitalize()} stopped the clocks to summon the arbiter "
                            f"(Article {new.state.config.edition.article('summon_arbiter')})."})
    return out


# --- the limits of 2023 11.5 ---------------------------------------------------------------------------
def log_full(seq: int, limits: Limits) -> bool:
    """Has the log reached the room of the players' events (``max_events_per_game``)?"""
    return seq >= limits.max_events_per_game


def log_full_error(limits: Limits) -> ApiError:
    return ApiError(409, f"this game's log is full ({limits.max_events_per_game} events): the arbiter must "
                         "decide the game; only an event that ends it is still accepted")


def log_full_alert(by: str, seq: int, limits: Limits) -> dict[str, Any]:
    return {"what": "log_full", "by": by, "count": seq,
            "text": f"This game's log is full ({limits.max_events_per_game} events): the players' events are "
                    "refused (except one that ends the game) until you decide the game."}


def budget_refusal(limits: Limits, kind: str, by: str, events: Sequence[Any], before: GameState,
                   new: GameState) -> ApiError | None:
    """A player's event refused because its side's budget is spent (:func:`chesslaws.server.budget.refusal`)."""
    why = budget.refusal(limits, kind, by, events, before, new)
    return None if why is None else ApiError(409, why)


def full_log_ruling(s: Session, limits: Limits) -> tuple[str, dict[str, Any]] | None:
    """What the arbiter enters when a player's event filled the log: in a game without an arbiter's token (an
    open-seat game of the lobby, a rematch) a draw by adjudication at once, as the arbiter acting in the best
    interest of the competition (1989 16.4, 1997 13.2, 2023 12.2.2): one player alone cannot fill the log
    (:mod:`chesslaws.server.budget`), so both played on together beyond any real game. Otherwise the clocks
    are stopped (in the room kept for him) so that nobody loses on time for moves the log can no longer
    take, and he decides the game. None when there is nothing to stop."""
    st = s.game.state
    limit = limits.max_events_per_game
    if st.ongoing and not s.token_hashes.get("arbiter"):  # nobody could decide it: never frozen for good
        return "decision", {"on": "adjudication", "ruling": "draw", "reason": (
            f"the game's log is full ({limit} events) and the game has no arbiter to decide it; the players "
            "filled it together, and neither won")}
    if not st.ongoing or st.clock.running is None:
        return None
    art = st.config.edition.article("interruption")
    return "stop_clocks", {"reason": f"this game's log is full ({limit} events): the clocks are stopped until "
                                     f"the arbiter decides the game (Article {art})"}


def full_log_alert(seq: int, limits: Limits) -> dict[str, Any]:
    return {"what": "log_full", "count": seq,
            "text": f"This game's log is full ({limits.max_events_per_game} events): the clocks are stopped and "
                    "the players' events refused (except one that ends the game) until you decide the game."}


def claim_left_going(kind: str, by: str | None, state: GameState) -> bool:
    """Was a player's claim one that left the game going (an incorrect claim: 2023 11.5)?"""
    return kind in budget.CLAIMS and by in ("white", "black") and state.ongoing and not state.claims


def annoyance_alert(side: str, count: int, state: GameState, limits: Limits) -> dict[str, Any] | None:
    """The arbiter is told when one side's incorrect claims reach a multiple of the limit, as the annoyance
    the Laws forbid (2023 11.5); None otherwise."""
    every = limits.incorrect_claims_alert
    if not every or count % every:
        return None
    art = state.config.edition.article("annoyance")
    return {"what": "annoyance", "by": side, "count": count,
            "text": f"{side.capitalize()} has made {count} claims that did not end the game: "
                    f"unreasonable claims may annoy the opponent (Article {art})."}


# --- outages -------------------------------------------------------------------------------------------
def interruption(s: Session, down: float, up: float, why: str, back: str) -> Game | None:
    """The game with the arbiter's interruption for the time from ``down`` to ``up`` (unix seconds) in which no
    move could be stored while its clock ran: ``stop_clocks`` at ``down`` and ``start_clocks`` at ``up``,
    each with a ruling citing the edition's article on interruptions; no flag falls because of it, nor (when
    a player is still absent) does the default time pass. None when its clock did not run then."""
    game = s.game
    t_down = max(round(down - s.created_at, 3), game.events[-1].t_ms / 1000)
    t_up = max(round(up - s.created_at, 3), t_down)
    if t_down < 0 or not game.state.ongoing or game.state.config.time_control.unlimited:
        return None
    seen = seen_at(game, t_down)
    if not seen.state.ongoing or seen.state.clock.running is None:
        return None
    stop: dict[str, Any] = {"type": "stop_clocks", "t": t_down, "by": "arbiter",
                            "reason": f"{why}; the time that passed is given back"}
    if seen.state.absent:  # nobody could be written at the board meanwhile: the default time waits too
        stop["default_time_extended_ms"] = round((t_up - t_down) * 1000)
    return game.apply(stop).apply({"type": "start_clocks", "t": t_up, "by": "arbiter", "reason": back})


def given_back_since(game: Game, created_at: float, down: float) -> bool:
    """Does the log end with an interruption given back since ``down`` (another process of the database that
    lived through the same outage wrote it)?"""
    since_ms = (down - created_at) * 1000
    return any(e.type == "start_clocks" and e.by == "arbiter" and e.t_ms >= since_ms for e in game.events[-4:])


__all__ = [
    "ARBITER_BEAT", "BEGIN", "RULE_FIELDS", "Session", "abort_cause", "abort_deadline_ms", "abort_due",
    "abort_reason", "aborted",
    "actor", "alerts_after", "annoyance_alert", "arbiter_watching", "budget_refusal", "check_awaited_arbiter",
    "check_legal", "check_summons", "claim_left_going", "ending_to_write", "ending_unwritten", "event_kind",
    "full_log_alert", "full_log_ruling", "given_back_since", "interruption", "log_full", "log_full_alert",
    "log_full_error", "logged_rule", "next_wakeup_ms", "postponed_start", "rule_fields", "seen_at", "server_t",
    "stamp", "start_rule", "waiting_for",
]

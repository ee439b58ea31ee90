"""Adjournment: sealing a move, the envelope, resumption, the envelope opened
when the replier arrives, the sealed move that is illegal or ambiguous, and
the envelope lost.

Articles, by edition:

- 1989: 8.4, 10.16 (the sealed move invalid), 13.1, 13.2, 13.3 (sealing), 14.1,
  14.2, 14.3, 14.4, 14.5, 14.6, 14.7 (resumption; 14.2 opened with the replier
  present; 14.4 the sealer absent; 14.5 the envelope lost).
- 1997: Appendix A: A.1, A.2, A.3 (sealing), A.5 (resumption), A.7 (opened with
  the replier present), A.8 (the sealed move invalid), A.9 (at the resumption),
  A.11 (the envelope lost), A.12, A.13.
- 2023: Guidelines I: I.1.1, I.1.2 (sealing), I.2, I.3 (the envelope), I.4 (an
  offer after the seal), I.5, I.6 (resumption; agreed or resigned before it),
  I.7 (opened with the replier present), I.8 (the sealed move invalid), I.9.1,
  I.9.2, I.9.3 (at the resumption; the sealer absent), I.12.1, I.12.2 (the
  envelope lost), I.13, I.14.
"""

from __future__ import annotations

from chesslaws._values import replace
from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.events import Event, EventError, t_to_ms
from chesslaws.game.completion import _cannot_win
from chesslaws.game.moving import allowed_by_touch
from chesslaws.game.played import _after_move
from chesslaws.game.state import (
    NAME,
    Envelope,
    GameError,
    GameState,
    _Builder,
    _clock_times,
    _require_player_present,
    draw,
    fmt_duration,
    other,
    win_for,
)
from chesslaws.notation import read_move
from chesslaws.position import Position
from chesslaws.timecontrol import Color


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
    return read_move(position, text, language)


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
    before = _touch_broken(b, t, sealer, uci, pos)
    _after_move(b, t, sealer, san, uci, nxt, press=False)
    if before is not None and b.get("status") == "ongoing":
        b.set(touch_violation=before)  # the replier, present now, may claim it before he touches a piece


def _touch_broken(b: _Builder, t: int, sealer: Color, uci: str, pos: Position) -> GameState | None:
    """The sealed move ``uci`` breaks touch-move when the sealer had touched a piece it does not move
    (1997 4.3, 2023 4.3: the sealed move is his move; 1997 A.1, 2023 I.1.1): the state to reinstate if
    the replier claims, with the sealer's clock running; None when it keeps Article 4."""
    s = b.s
    touched = b.get("touched")
    allowed, _ = allowed_by_touch(pos, sealer, touched, s.edition)
    if allowed is None or uci in allowed:
        return None
    clock = b.get("clock")
    counts = {side: clock.moves(side) - (1 if side == sealer else 0) for side in ("white", "black")}
    clock = clock.take_back(t, sealer, counts["white"], counts["black"])
    return replace(s, position=pos, keys=b.get("keys"), moves=b.get("moves"), clock=clock, touched=touched,
                   envelope=None, offer=b.get("offer"), counter=b.get("counter"))


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
    # An illegal move that stood when he sealed may still be claimed during the adjournment (1989 8.1:
    # in every session; 1997 7.4, 2023 7.5.1: during the game): ``illegal_pending`` is kept; so is the
    # opponent's touch-move breach, which the sealer, who wrote his move and touched no piece, may still
    # claim (1997 4.6, 2023 4.8), and the pieces he touched, which his sealed move must obey (4.3).
    b.set(clock=clock.press(t, by).stop(t), envelope=env, status="adjourned")
    where = f" Resumption: {env.resumption}." if env.resumption else ""
    b.rule(t, "adjournment", f"{NAME[by]} seals his move {number}; the clocks are stopped and the game is "
           f"adjourned.{extra}{where}")


def _on_resume(b: _Builder, ev: Event) -> None:
    s = b.s
    t = ev.t_ms
    env = s.envelope
    if s.status != "adjourned":
        raise GameError(ev, "there is no adjourned game to resume")
    clock = s.clock
    times = _clock_times(ev)
    if times is not None:
        clock = clock.set_times(t, *times)
    if env is None:  # set aside during the adjournment (an illegal move claimed): the move is made on the board
        mover = s.position.turn
        b.set(status="ongoing", clock=clock.start(t, mover), absent=frozenset({"white", "black"}), session_start_ms=t)
        b.rule(t, "resumption", f"The game is resumed from the position reinstated during the adjournment; "
               f"{NAME[mover]}'s clock runs, and he makes his move on the board.")
        return
    replier = other(env.sealer)
    present = _present(ev)
    clock = clock.start(t, replier)
    b.set(status="ongoing", clock=clock, absent=frozenset({"white", "black"}) - present, session_start_ms=t)
    at_board = ""
    if present:
        names = " and ".join(NAME[c] for c in ("white", "black") if c in present)
        at_board = f" {names} {'are' if len(present) == 2 else 'is'} at the board."
    b.rule(t, "resumption", f"The game is resumed from the position before the sealed move; {NAME[replier]}'s "
           f"clock runs, and the envelope is opened when {NAME[replier]} is present.{at_board}")
    if replier in present:
        _open_envelope(b, t, env)


def _present(ev: Event) -> frozenset[Color]:
    """The players at the board when the session of a resumption starts (the arbiter says so over the board):
    they are not absent, and the default time does not run against them."""
    raw = ev.get("present", [])
    if not isinstance(raw, list) or any(c not in ("white", "black") for c in raw) or len(set(raw)) != len(raw):
        raise EventError("field 'present' lists the players at the board: \"white\" and/or \"black\"",
                         field="present")
    return frozenset(raw)


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

"""The clock and flags: what happens by itself as time passes (a flag fall an
arbiter present sees, the default time), claims of a flag, both flags,
interruptions and the arbiter's setting of the clocks.

Articles, by edition:

- 1989: 10.14 (the flag), 10.15 (more than an hour late), 10.17 (both late),
  12.2 (the flag observed), 12.4 (setting the clocks, and its limits:
  :func:`_check_clock_limit`), 12.5, 12.6
  (interruptions), 12.8 (both flags), 13.1(a) (the flag that falls while the move is sealed:
  :func:`_claim_flag_at_seal`), 14.6.
- 1997: 6.6 (the default time), 6.8 (the flag), 6.9, 6.10 (the flag against an
  opponent who cannot mate), 6.11 (both flags), 6.12 (interruptions), 6.13
  (setting the clocks), 10.4 (both flags in the quickplay finish), 13.5, A.1 (sealing on the sealer's
  time), A.10
  (late for the resumption), B.6, B.7, B.8 (rapid play), C.4 (blitz: mating
  potential).
- 2023: 6.6 (White's clock started), 6.7.1, 6.7.2 (the default time), 6.8 (the
  flag), 6.9 (the opponent cannot mate), 6.10.1, 6.10.2 (setting the clocks),
  6.11.1, 6.11.2, 6.11.3 (interruptions; pausing the clock to summon the
  arbiter), 12.5 (additional time for a disturbance), I.1.1 (sealing on the sealer's time), I.10 (late for the
  resumption), III.3.1.1, III.3.1.2 (both flags; the Laws have no other rule on
  them, so a game with increment is ruled by analogy with III.3.1).
"""

from __future__ import annotations

from chesslaws._values import replace

from chesslaws.events import Event, EventError, ms_to_t
from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.game.adjournment import _read_written_move
from chesslaws.game.completion import _cannot_win
from chesslaws.game.draws import _in_quickplay_finish
from chesslaws.game.played import _after_move
from chesslaws.game.state import (
    NAME, GameError, GameState, Outcome, _Builder, draw, fmt_duration, mating_potential, other, win_for,
)
from chesslaws.position import Position
from chesslaws.timecontrol import Color, TimeControl


def _flag_outcome(b: _Builder, flagged: Color, t_ms: int) -> None:
    """The game after ``flagged``'s flag fell at ``t_ms`` (Articles 6.9 / 10.14)."""
    s = b.s
    ed = s.edition
    opp = other(flagged)
    position: Position = b.get("position")
    if ed.mating_potential_in_blitz and s.config.mode == "blitz":
        ok, why = mating_potential(position, opp)
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


def due(state: GameState, t_ms: int) -> bool:
    """Does something happen by itself in ``state`` by ``t_ms`` (see :func:`observe`): a flag fall an
    arbiter present observes, or a player still absent (whose default time may have passed)? When
    not, the state at ``t_ms`` differs from ``state`` by its instant alone."""
    if not state.ongoing:
        return False
    if state.absent:
        return True
    running = state.clock.running
    if not state.config.flags_observed or running is None:
        return False
    flag_at = state.clock.flag_time(running)
    return flag_at is not None and flag_at <= t_ms


def observe(state: GameState, t_ms: int) -> GameState:
    """The state at ``t_ms``: clocks run on; what an arbiter present sees happens.

    Two things happen by themselves: a flag fall that an arbiter present
    observes at its exact instant, and the loss of a player still absent when
    the default time has passed. Whichever comes first decides.
    """
    if t_ms < state.t_ms:
        raise GameError(None, f"t={ms_to_t(t_ms)} is earlier than the last event (t={ms_to_t(state.t_ms)})")
    if not due(state, t_ms):
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
    deadline = state.default_deadline_ms
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
    """A player absent when the default time has passed loses (1989 10.15, 1997 6.6, 2023 6.7.1;
    at a resumption 2023 I.10, unless the sealed move ended the game)."""
    s = b.s
    if _sealed_move_concluded(b, deadline):
        return
    limit = fmt_duration(s.config.default_time_ms)
    resumed = s.session_start_ms != s.config.start_t_ms
    since = "the start of the session" if resumed else "the scheduled start"
    if s.absence_excused_ms:  # the arbiter's extension (6.7.1): the interruptions did not count
        since += f", the {fmt_duration(s.absence_excused_ms)} of interruptions not counted"
    key = "late_resumption" if resumed and "late_resumption" in s.edition.articles else "late_arrival"
    if len(late) == 2:
        b.end(deadline, Outcome("0-0", "late_arrival"), key,
              f"Neither player arrived within the default time ({limit} after {since}): both lose.")
        return
    absent: Color = "white" if late[0] == "white" else "black"
    b.end(deadline, win_for(other(absent), "late_arrival"), key,
          f"{NAME[absent]} did not arrive within the default time ({limit} after {since}): "
          f"{NAME[other(absent)]} wins.")


def _sealed_move_concluded(b: _Builder, t: int) -> bool:
    """2023 I.10: a player who arrives after the default time for the resumption loses, "however,
    if the sealed move resulted in the conclusion of the game, that conclusion shall still apply".
    The arbiter opens the envelope: a legal sealed move that ends the game (mate, stalemate, a
    dead position, ...) decides it, whoever is late. True when it did. (1989 10.15 and 1997 A.10
    except only the late sealer; there the envelope is opened when the replier arrives.)"""
    s = b.s
    env = s.envelope
    if env is None or not s.edition.sealed_conclusion_stands:
        return False
    try:
        uci = _read_written_move(s.position, env.move, env.language)
    except (AmbiguousMove, UnreadableMove, IllegalMove):
        return False
    san, uci, nxt = s.position.play_annotated(uci)
    trial = _Builder(s)
    trial.set(envelope=None)
    _after_move(trial, t, env.sealer, san, uci, nxt, press=False)
    if trial.get("status") != "finished":
        return False
    late = " and ".join(NAME[c] for c in ("white", "black") if c in s.absent)
    b.set(envelope=None)
    b.rule(t, "late_resumption", f"{late} did not arrive within the default time for the resumption, but the "
           f"sealed move {env.move_number}{'.' if env.sealer == 'white' else '...'} {san} ended the game: the "
           "arbiter opens the envelope and that conclusion applies.")
    _after_move(b, t, env.sealer, san, uci, nxt, press=False)
    return True


def ending_by_itself(state: GameState) -> str:
    """What ended a game that ended by itself, as the arbiter's ``observe`` names it: ``"flag"`` (a flag
    fall the arbiter present saw) or ``"default_time"`` (a player still absent when it passed)."""
    return "flag" if state.termination == "time_forfeit" else "default_time"


def _record_ending(b: _Builder, ev: Event) -> None:
    """``observe`` of an ending that happened by itself by ``ev.t`` (:func:`observe`): the flag fall the
    arbiter present saw, or the default time that passed for a player still absent. The game already ended
    by itself by that instant (the builder holds the state there): the event changes nothing but puts the
    ending in the log, so that nothing read from the log afterwards (a server's restart that gives back the
    time since its last heartbeat) can undo it. It is refused when the game ended otherwise than ``what``
    says (:func:`~chesslaws.game.handlers.transition` refuses it when the game was over before its instant)."""
    s = b.s
    if ev.get("what") != ending_by_itself(s):
        said = {"flag": "a flag fall", "default_time": "the default time"}.get(ev.get("what"), "an illegal move")
        raise GameError(ev, f"the game did not end by {said}: {s.rulings[-1].text}")


def _on_claim_flag(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    opp = other(by)
    if s.status == "adjourned":
        _claim_flag_at_seal(b, ev)
        return
    fallen = s.clock.fallen(t)
    if opp not in fallen:
        b.rule(t, "flag_observed", f"{NAME[by]} claims that {NAME[opp]}'s flag has fallen, but it has not: the game continues.")
        return
    if by in fallen:
        _both_flags_down(b, t, by)
        return
    _flag_outcome(b, opp, t)


def _claim_flag_at_seal(b: _Builder, ev: Event) -> None:
    """A flag claim during the adjournment, before the envelope is opened (1989 14.2, 1997 A.7, 2023 I.7),
    ruled as it would have been when the clocks were stopped. Sealing is done on the sealer's time, and he
    stops his clock only once the envelope is sealed (1989 13.1(a), 1997 A.1, 2023 I.1.1), so his flag may
    fall while he seals; where nobody else sees flags (1989 12.2: "when a claim to that effect has been made
    by a player"), the replier claims it then and there. A flag down when the clocks were stopped is decided
    as at the board (1989 10.14, 1997 and 2023 6.9) and the envelope is not opened; a claim of a flag that
    had not fallen leaves the game adjourned."""
    s = b.s
    env = s.envelope
    by: Color = ev.by  # type: ignore[assignment]
    opp = other(by)
    t = ev.t_ms
    if opp not in s.clock.fallen(t):
        b.rule(t, "flag_observed", f"{NAME[by]} claims that {NAME[opp]}'s flag had fallen before the clocks were "
               "stopped at the adjournment, but the clocks show it had not: the game stays adjourned.")
        return
    fell = s.clock.flag_time(opp)
    if env is not None and opp == env.sealer and fell is not None and fell <= env.t_ms:
        b.rule(t, "adjournment", f"{NAME[env.sealer]}'s flag fell at t={ms_to_t(fell)}, before he had stopped "
               f"his clock at t={ms_to_t(env.t_ms)} having sealed his move: the sealing was done on his time, "
               f"and {NAME[by]}'s claim is decided now; the envelope is not opened.")
    b.set(envelope=None)
    _flag_outcome(b, opp, t)


def _both_flags_down(b: _Builder, t: int, by: Color) -> None:
    """Both flags have fallen, found at ``t`` on ``by``'s claim or by the arbiter's observation (``by``:
    the player having the move then): the first to fall decides where the clock establishes it,
    otherwise the edition's rule for both flags (1989 12.8, 1997 6.11, 10.4 and B.8, 2023 III.3.1)."""
    s = b.s
    ed = s.edition
    opp = other(by)
    rapid = s.config.mode in ("rapid", "blitz") and ed.flags_only_on_claim_in_rapid
    if rapid:
        b.end(t, draw("both_flags_fallen"), "both_flags_rapid", "Both flags have fallen: the game is drawn.")
        return
    first = s.clock.first_flag(t)
    if s.config.clock_shows_first_flag and first is not None:
        # The clock establishes which flag fell first: the rule for both flags, made for when it
        # cannot (1989 12.8, 1997 6.11 and 10.4, 2023 III.3.1), does not apply.
        loser, at = first
        b.rule(t, "first_flag", f"Both flags have fallen, and the clock shows that {NAME[loser]}'s fell first "
               f"(at t={ms_to_t(at)}): the rule for flags of which the first cannot be established does not "
               "apply.")
        _flag_outcome(b, loser, t)
        return
    quick = _in_quickplay_finish(s, by) and _in_quickplay_finish(s, opp)
    draw_key, continue_key = "both_flags_quickplay", "both_flags"
    if ed.quickplay_without_increment_only and any(p.increment_ms for p in s.clock.control.periods):
        # Guidelines III are for games without increment (III.2.2) and the Laws have no other
        # rule on both flags: the arbiter rules by analogy with III.3.1 (the Preface).
        draw_key, continue_key = "both_flags_last_period", "both_flags_earlier_period"
    if ed.both_flags_quickplay == "draw" and quick:
        b.end(t, draw("both_flags_fallen"), draw_key,
              "Both flags have fallen and it cannot be established which fell first, in the period in which "
              "all remaining moves must be made: the game is drawn.")
    else:
        b.rule(t, continue_key,
               "Both flags have fallen and it cannot be established which fell first: the game continues.")


def _on_stop_clocks(b: _Builder, ev: Event) -> None:
    s = b.s
    if s.clock.running is None:
        raise GameError(ev, "the clocks are already stopped")
    extra = ev.get("default_time_extended_ms")
    if extra is not None and (ev.by != "arbiter" or int(extra) < 0):
        raise EventError("'default_time_extended_ms' is the arbiter's, and not negative", field="default_time_extended_ms")
    b.set(clock=s.clock.stop(ev.t_ms))
    if ev.by == "arbiter":
        why = ev.get("reason")
        said = f"The arbiter stops the clocks: {why}." if why else "The arbiter stops the clocks."
        if extra and s.absent:  # 6.7.1: the arbiter decides that the interruption does not count against the absent
            b.set(absence_excused_ms=s.absence_excused_ms + int(extra))
            late = " and ".join(NAME[c] for c in ("white", "black") if c in s.absent)
            said += f" The default time of {late}, absent, is extended by {fmt_duration(int(extra))}."
        b.rule(ev.t_ms, "interruption", said)


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
    if s.edition.set_clocks_limits:
        for side, new in (("white", w), ("black", k)):
            _check_clock_limit(b, ev.t_ms, side, new)  # type: ignore[arg-type]


def clock_floor(control: TimeControl, made: int) -> int:
    """1989 12.4 and 12.6: the least time (ms) a player who has made ``made`` moves may be left with when
    time used is added to his clock: five minutes to the time control, and one minute for every move to it."""
    return max(5 * 60_000, 60_000 * (control.moves_to_control(made) or 0))


def _check_clock_limit(b: _Builder, t: int, side: Color, new_ms: int) -> None:
    """1989 12.4 and 12.6: an arbiter who adds time used to a player's clock shall under no
    circumstances leave him with less than five minutes to the time control, or less than one
    minute for every move to it. The setting is the arbiter's act and stands as he made it; the
    ruling says that it breaks the limit, and by how much."""
    s = b.s
    before = s.clock.remaining(t, side)
    if before is None or new_ms >= before:
        return  # no time used was added to this clock
    to_go = s.clock.control.moves_to_control(s.clock.moves(side))
    floor = clock_floor(s.clock.control, s.clock.moves(side))
    if new_ms >= floor:
        return
    moves = f" for {to_go} move{'s' if to_go != 1 else ''}" if to_go else ""
    b.rule(t, "set_clocks_limit", f"This leaves {NAME[side]} {fmt_duration(new_ms)}{moves} to the time control: "
           "an arbiter who adds time used must not leave a player with less than five minutes to the time "
           f"control, nor less than one minute for every move to it ({fmt_duration(floor)} here).")

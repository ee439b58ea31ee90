"""The arbiter's procedures: the game reconstructed on a second board (``reconstruct``), the clock times
allotted in proportion after an irregularity (``reinstate`` with ``proportional``), and what a wrong
set-up found too late leaves of castling.

Articles, by edition:

- 1989: 11.7, 11.8 (the scoresheets completed on a chessboard under the arbiter's control, the clocks
  stopped, the actual position recorded beforehand), 12.6 (the time each player is allotted up to an
  irregularity, in proportion to the clock when it was found; never below five minutes, or one minute a
  move, to the time control: 12.4).
- 1997: 8.5(b) (the game reconstructed on a second chessboard, the actual position recorded first),
  6.13 (the arbiter's best judgement of the times after an irregularity), B.4.
- 2023: 8.5.3 (the reconstruction: the actual position, the clock times, whose clock ran and the number
  of moves recorded first), 7.1 (the arbiter's best judgement of the times), A.5.1.2 (a wrong set-up not
  claimed in time: no castling with a misplaced king or rook).
"""

from __future__ import annotations

from chesslaws.events import Event, EventError
from chesslaws.game.flags import clock_floor
from chesslaws.game.setup import castling_lost, misplaced
from chesslaws.game.state import NAME, GameError, GameState, _Builder, fmt_duration
from chesslaws.timecontrol import Color, TimeControl


def _on_reconstruct(b: _Builder, ev: Event) -> None:
    """The arbiter has the game reconstructed on a second chessboard under his control (2023 8.5.3, 1997
    8.5(b), 1989 11.7-11.8): he first records the actual position, the clock times, whose clock ran and the
    number of moves (the ruling says them), and the clocks stop while it lasts. What it shows is written as
    his events: the scoresheets (``scoresheet``), an earlier position (``reinstate``), the next period when
    the control cannot be shown passed (``decision`` on ``period``); ``start_clocks`` ends it."""
    s = b.s
    t = ev.t_ms
    clock = s.clock
    running = clock.running
    w, k = clock.remaining(t, "white"), clock.remaining(t, "black")
    times = "no clock" if w is None or k is None else f"White {fmt_duration(w)}, Black {fmt_duration(k)}"
    ran = f"{NAME[running]}'s clock was running" if running else "the clocks were stopped"
    if running is not None:
        clock = clock.stop(t)
    b.set(clock=clock)
    why = f" ({ev.get('reason')})" if ev.get("reason") else ""
    b.rule(t, "reconstruction", f"The arbiter has the game reconstructed on a second chessboard{why}. He first "
           f"records the actual position ({s.position.fen()}), the clock times ({times}), that {ran}, and the "
           f"{len(s.moves)} moves made; the clocks are stopped while the reconstruction lasts.")


def _proportional_times(b: _Builder, ev: Event, before: GameState) -> None:
    """``reinstate`` with ``proportional``: each player is allotted, up to the reinstated position, a time
    used in proportion to the one his clock showed when the irregularity was found (1989 12.6: 90 minutes
    for 30 moves, the irregularity at the 20th: 60 minutes), the rest of his time given back, less the time
    of a control passed after the reinstated position (he is in that control's period again); the limits of
    12.4 then apply, counted to the control of the reinstated position (1989 12.6: never below five minutes, or one minute a move, to the time control). In
    1997 (6.13) and 2023 (7.1) it is the arbiter's best judgement, as he makes it here."""
    if not ev.get("proportional"):
        return
    if ev.get("white_ms") is not None or ev.get("black_ms") is not None:
        raise EventError("give either 'proportional' or the clock times, not both", field="proportional")
    t = ev.t_ms
    if before.config.time_control.unlimited:
        raise GameError(ev, "there is no clock whose times could be allotted")
    kept = b.get("moves")
    clock = b.get("clock")
    parts = []
    times: dict[Color, int] = {}
    for side in ("white", "black"):
        made = sum(1 for m in before.moves if m.color == side)
        have = sum(1 for m in kept if m.color == side)
        used = before.clock.used(t, side)
        share = used * have // made if made else used
        back = _time_added_after(before.clock.control, clock.moves(side), before.clock.moves(side))
        left = max(0, (before.clock.remaining(t, side) or 0) + used - share - back)
        part = (f"{NAME[side]} {fmt_duration(used)} x {have}/{made} = {fmt_duration(share)} used" if made
                else f"{NAME[side]} {fmt_duration(used)} used (no move made)")
        if back:
            part += f", less the {fmt_duration(back)} a time control passed since then gave him"
        floor = clock_floor(before.clock.control, clock.moves(side))
        if before.edition.set_clocks_limits and left < floor:
            # 1989 12.6: "This rule must not be used to leave a player with less than five minutes to the
            # time control, or less than one minute for every move to the time control."
            part += f", {fmt_duration(left)} left raised to the {fmt_duration(floor)} the rule must leave him"
            left = floor
        times[side] = left
        parts.append(part)
    b.set(clock=clock.set_times(t, times["white"], times["black"]))
    b.rule(t, "proportional_times", "The exact times up to the irregularity cannot be determined: each player is "
           f"allotted a time in proportion to his clock when it was found ({'; '.join(parts)}): White "
           f"{fmt_duration(times['white'])}, Black {fmt_duration(times['black'])} left.")


def _time_added_after(control: TimeControl, have: int, made: int) -> int:
    """The time the clock added for moves ``have + 1`` to ``made`` of a player (a period's time on completing
    the one before, the increment of each move): given back with the moves taken back, so that a player
    reinstated before a time control is in its period again, with that period's time alone."""
    added = 0
    for n in range(have + 1, made + 1):
        period = control.period_for_move(n - 1)
        added += period.increment_ms if period is not None else 0
        nxt = control.added_after(n)
        added += nxt.ms if nxt is not None else 0
    return added


def _setup_castling(b: _Builder, ev: Event) -> None:
    """After a claim about the set-up found too late (2023 A.5.1.2, 1997 B.4), on a board set up wrongly (start
    field ``setup``): the squares that differ, and the castlings a misplaced king or rook does not allow."""
    s = b.s
    cfg = s.config
    if ev.get("what") != "initial_position" or cfg.intended_fen is None or not s.ongoing:
        return
    if not b.new_rulings or b.new_rulings[-1].article != s.edition.articles.get("setup_claim"):
        return  # annulled, or ruled otherwise
    wrong = misplaced(cfg.intended_fen, cfg.fen)
    lost = castling_lost(cfg.intended_fen, cfg.fen)
    key = "incorrect_setup_castling" if "incorrect_setup_castling" in s.edition.articles else "setup_claim"
    tail = (f" Castling is not allowed with a misplaced king or rook: {', '.join(lost)} castling is lost."
            if lost else " No king or rook is misplaced: castling is as on a correct board.")
    b.rule(ev.t_ms, key, f"The pieces were set up wrongly on {', '.join(wrong)}; the game continues from the "
           f"position on the board.{tail}")


__all__: list[str] = []

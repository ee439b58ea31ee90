"""The chess clock (1997 Article 6, 1989 Article 12) as an immutable value.

A :class:`Clock` is fed integer millisecond timestamps (``t_ms``, e.g. the
milliseconds since the scheduled start of the game); it never reads a wall
clock.  Every operation returns a new clock; queries take the instant they
ask about.  The clock knows nothing of the board.

Conventions
-----------

- **Flag fall.**  A flag falls the instant the remaining time reaches 0.
  With ``r`` ms left when a clock starts at ``t``, the player owns the
  instants ``t .. t + r - 1``; at ``t + r`` his flag has fallen
  (:meth:`Clock.flag_time` is ``t + r``), and a press at exactly that instant
  comes too late.  Once fallen, a flag stays fallen and the remaining time
  stays 0, unless :meth:`Clock.set_times` or :meth:`Clock.add_time` gives
  time back.
- **Time stamps never decrease.**  Any operation or query with a ``t_ms``
  earlier than the last change raises :class:`ClockError`.
- **Turns.**  A turn begins when a side's clock is started by
  :meth:`Clock.start` or by the opponent's :meth:`Clock.press`; it ends with
  the side's own press.  :meth:`Clock.stop` / :meth:`Clock.resume` interrupt
  a turn without ending it: the simple delay left and the Bronstein count
  carry on where they were.
- **Periods.**  The move a side makes belongs to the period
  ``control.period_index(moves made before it)``; that period's increment and
  delay apply to it.  When a press completes the last move of a period, the
  next period's time is added to what is left (carry-over; the last period
  repeats).
- **Simple delay** (the 1997 "time delay mode"): the main time does not run
  during the first ``delay_ms`` of each turn; nothing is ever added.
- **Bronstein delay**: after the move, the time used on the turn is given
  back, at most ``delay_ms``.
- **After a flag fall** a press still counts the move and starts the
  opponent's clock, but adds nothing (no increment, no Bronstein refund, no
  next period): the side's remaining time stays 0.
- **Used time** (:meth:`Clock.used`) is the real time a side's clock has run
  (its thinking time, delays included, penalties and additions excluded); it
  goes on growing after the flag falls, as on a mechanical clock.
- **No clock** (``-``): moves and used time are counted, :meth:`Clock.remaining`
  is ``None``, no flag ever falls, and time changes are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from chesslaws._values import replace
from chesslaws.errors import WrongState
from chesslaws.timecontrol import Color, TimeControl

__all__ = ["Clock", "ClockError", "Color"]

_SIDES: tuple[Color, Color] = ("white", "black")


class ClockError(WrongState):
    """An operation the clock cannot do now: pressing a clock that does not
    run, a time stamp earlier than the last change, a negative time..."""


def _index(side: Color) -> int:
    if side == "white":
        return 0
    if side == "black":
        return 1
    raise ClockError(f"a side is 'white' or 'black', not {side!r}")


def _other(side: Color) -> Color:
    return "black" if side == "white" else "white"


def _turn_delay(control: TimeControl, made: int) -> int:
    """The simple delay of a turn begun after ``made`` moves (0 in a period without one)."""
    period = control.period_for_move(made)
    return period.delay_ms if period is not None and period.delay == "simple" else 0


def _pair(values: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    return (value, values[1]) if i == 0 else (values[0], value)


def _opt_pair(
    values: tuple[int | None, int | None], i: int, value: int | None
) -> tuple[int | None, int | None]:
    return (value, values[1]) if i == 0 else (values[0], value)


@dataclass(frozen=True, slots=True)
class Clock:
    """An immutable chess clock.  Build one with :meth:`Clock.new`.

    The fields are private state: remaining time of each side at ``_since``
    (the last change), used time, completed moves, the instant each flag fell
    (or ``None``) and the used time then, the side running, the side stopped by :meth:`stop`, the
    simple delay left of the current turn and the time elapsed in it.
    """

    _control: TimeControl
    _remaining: tuple[int, int]
    _used: tuple[int, int] = (0, 0)
    _moves: tuple[int, int] = (0, 0)
    _fell_at: tuple[int | None, int | None] = (None, None)
    _fell_used: tuple[int | None, int | None] = (None, None)  # each side's used time when its flag fell
    _running: Color | None = None
    _paused: Color | None = None
    _since: int | None = None
    _delay_left: int = 0
    _turn_ms: int = 0

    # ------------------------------------------------------------ building

    @classmethod
    def new(cls, control: TimeControl) -> Clock:
        """A clock set for ``control``: both sides have the first period's
        time, no move made, nobody running."""
        first = 0 if control.unlimited else control.periods[0].ms
        return cls(control, (first, first))

    # ------------------------------------------------------------ operations

    def start(self, t_ms: int, side: Color) -> Clock:
        """Start ``side``'s clock at ``t_ms``, beginning a new turn for it.

        Only when no clock runs (at the start of the game, or after
        :meth:`stop` when the arbiter starts a particular clock, e.g. at the
        resumption of an adjourned game); a fresh simple delay applies.  To
        continue an interrupted turn, use :meth:`resume`.
        """
        _index(side)
        self._check_t(t_ms)
        if self._running is not None:
            raise ClockError(
                f"cannot start {side}'s clock at {t_ms}: "
                f"{self._running}'s clock is already running"
            )
        return self._advance(t_ms)._begin_turn(side)

    def press(self, t_ms: int, side: Color) -> Clock:
        """``side`` completes a move at ``t_ms`` and starts the opponent's clock.

        Raises :class:`ClockError` unless ``side``'s clock is the one running
        (so pressing twice in a row is an error).  Unless ``side``'s flag has
        fallen by ``t_ms``: the Bronstein refund and the increment of the
        move's period are added, and if the move completes a period the next
        period's time is added.  The move is counted in any case.

        The clocks must be running: to complete a move after :meth:`stop`
        (e.g. the intended move after a draw claim was examined), call
        :meth:`resume` first.  A sealed move (1997 Appendix A.1) is a press
        followed by :meth:`stop` at the same instant: the move is counted and
        the opponent's turn waits for :meth:`resume`.
        """
        i = _index(side)
        self._check_t(t_ms)
        if self._running != side:
            if self._running is None:
                why = (
                    "the clocks are stopped"
                    if self._paused is not None
                    else "no clock is running"
                )
            else:
                why = f"{self._running}'s clock is running"
            raise ClockError(f"{side} cannot press the clock at {t_ms}: {why}")
        # The clock at t_ms (as _advance), the press and the opponent's new turn (as _begin_turn), built
        # as one value: a press is on every move.
        if self._since is None:
            remaining, fell_at, used, turn_ms = self._remaining, self._fell_at, self._used, self._turn_ms
            fell_used = self._fell_used
        else:
            remaining, fell_at, used, _, turn_ms, fell_used = self._advanced(t_ms, i)
        left = remaining[i]
        made = self._moves[i]
        control = self._control
        period = control.period_for_move(made)
        if period is not None and fell_at[i] is None:
            if period.delay == "bronstein":
                left += min(turn_ms, period.delay_ms)
            left += period.increment_ms
            added = control.added_after(made + 1)
            if added is not None:
                left += added.ms
        moves = _pair(self._moves, i, made + 1)
        nxt = _other(side)
        return replace(
            self,
            _since=t_ms,
            _remaining=_pair(remaining, i, left),
            _fell_at=fell_at,
            _fell_used=fell_used,
            _used=used,
            _moves=moves,
            _running=nxt,
            _paused=None,
            _delay_left=_turn_delay(control, moves[1 - i]),
            _turn_ms=0,
        )

    def stop(self, t_ms: int) -> Clock:
        """Interrupt the game at ``t_ms`` (1997 6.12): no clock runs.

        The side whose clock was running is remembered (:attr:`paused`) for
        :meth:`resume`.  Raises :class:`ClockError` if no clock runs.
        """
        self._check_t(t_ms)
        if self._running is None:
            raise ClockError(f"cannot stop the clocks at {t_ms}: no clock is running")
        c = self._advance(t_ms)
        return replace(c, _running=None, _paused=self._running)

    def resume(self, t_ms: int) -> Clock:
        """Restart at ``t_ms`` the clock that was running before :meth:`stop`.

        The interrupted turn continues (its simple delay left and Bronstein
        count are kept).  Raises :class:`ClockError` if a clock runs or none
        was stopped.
        """
        self._check_t(t_ms)
        if self._running is not None:
            raise ClockError(
                f"cannot resume at {t_ms}: {self._running}'s clock is running"
            )
        if self._paused is None:
            raise ClockError(f"cannot resume at {t_ms}: no clock was stopped")
        c = self._advance(t_ms)
        return replace(c, _running=self._paused, _paused=None)

    def set_times(self, t_ms: int, white_ms: int, black_ms: int) -> Clock:
        """The arbiter sets both clocks at ``t_ms`` (1997 6.10, 6.13).

        A side set to 0 has its flag fallen at ``t_ms`` (or keeps the earlier
        instant if it had already fallen); a side given time has no fallen
        flag.  Which clock runs, the moves and the current turn are unchanged.
        Ignored (apart from checking ``t_ms``) without a clock.
        """
        self._check_t(t_ms)
        if white_ms < 0 or black_ms < 0:
            raise ClockError(
                f"clock times cannot be negative: white {white_ms}, black {black_ms}"
            )
        c = self._advance(t_ms)
        if c._control.unlimited:
            return c
        fell = tuple(
            (c._fell_at[i] if c._fell_at[i] is not None else t_ms) if ms == 0 else None
            for i, ms in enumerate((white_ms, black_ms))
        )
        fell_used = tuple(
            (c._fell_used[i] if c._fell_at[i] is not None else c._used[i]) if ms == 0 else None
            for i, ms in enumerate((white_ms, black_ms))
        )
        return replace(c, _remaining=(white_ms, black_ms), _fell_at=(fell[0], fell[1]),
                       _fell_used=(fell_used[0], fell_used[1]))

    def take_back(self, t_ms: int, side: Color, white_moves: int, black_moves: int) -> Clock:
        """Moves are taken back at ``t_ms`` (the arbiter goes back to an earlier
        position: 1997 7.4, 2023 7.6, D.2.9): the completed moves become
        ``white_moves`` and ``black_moves`` (at most those made), and ``side``'s
        clock runs from ``t_ms``, a fresh turn.  The times are kept; the arbiter
        sets them with :meth:`set_times` where he judges it right.
        """
        self._check_t(t_ms)
        _index(side)
        if not (0 <= white_moves <= self._moves[0] and 0 <= black_moves <= self._moves[1]):
            raise ClockError(
                f"cannot take back to {white_moves} and {black_moves} moves: "
                f"{self._moves[0]} and {self._moves[1]} were made"
            )
        c = self._advance(t_ms)
        return replace(c, _moves=(white_moves, black_moves))._begin_turn(side)

    def with_increment(self, t_ms: int, ms: int) -> Clock:
        """From ``t_ms`` on, ``ms`` more is added after every move of both
        players, in every period (2023 Guidelines III.4: the cumulative mode
        of an extra five seconds introduced at a player's request)."""
        self._check_t(t_ms)
        if ms <= 0:
            raise ClockError(f"an increment must be positive, not {ms}")
        if self._control.unlimited:
            raise ClockError("there is no clock to give an increment to")
        periods = tuple(replace(p, increment_ms=p.increment_ms + ms) for p in self._control.periods)
        return replace(self._advance(t_ms), _control=TimeControl(periods))

    def next_period(self, t_ms: int) -> Clock:
        """The next move counts as the first of the following period (2023 8.6, 1997 8.6, 1989 11.9 and
        12.8: the scoresheets cannot show that the time control was passed), decided at ``t_ms``.

        Each side still in the earliest period either is in is counted as having made that period's
        moves and receives the following period's time; a fallen flag is raised. The following period
        began when the flag fell: the time the side's clock has run since comes out of it (a side that
        has used it all has its flag fallen again, at ``t_ms``). Raises :class:`ClockError` when that
        period is for all the remaining moves."""
        self._check_t(t_ms)
        c = self._advance(t_ms)
        control = c._control
        if control.unlimited:
            raise ClockError("there is no clock: no period follows")
        current = min(control.period_index(m) for m in c._moves)
        remaining, moves, fell, fell_used = c._remaining, c._moves, c._fell_at, c._fell_used
        for i in (0, 1):
            to_go = control.moves_to_control(moves[i])
            if control.period_index(moves[i]) != current or to_go is None:
                continue
            made = moves[i] + to_go
            added = control.added_after(made)
            since_fall = c._used[i] - (fell_used[i] or 0) if fell[i] is not None else 0
            left = (0 if fell[i] is not None else remaining[i]) + (added.ms if added else 0) - since_fall
            remaining = _pair(remaining, i, max(0, left))
            moves = _pair(moves, i, made)
            fell = _opt_pair(fell, i, t_ms if left <= 0 else None)
            fell_used = _opt_pair(fell_used, i, c._used[i] if left <= 0 else None)
        if moves == c._moves:
            raise ClockError("the period in play is for all the remaining moves: no period follows it")
        return replace(c, _remaining=remaining, _moves=moves, _fell_at=fell, _fell_used=fell_used)

    def add_time(self, t_ms: int, side: Color, ms: int) -> Clock:
        """Add ``ms`` to ``side``'s remaining time at ``t_ms`` (penalties).

        A negative ``ms`` removes time, never below 0; reaching 0 means the
        flag falls at ``t_ms`` (a flag already fallen keeps its instant).
        Giving a fallen side time raises its flag again.  Ignored (apart from
        the checks) without a clock.
        """
        i = _index(side)
        self._check_t(t_ms)
        c = self._advance(t_ms)
        if c._control.unlimited:
            return c
        value = max(0, c._remaining[i] + ms)
        fell: int | None = None
        fell_used: int | None = None
        if value == 0:
            fell = c._fell_at[i] if c._fell_at[i] is not None else t_ms
            fell_used = c._fell_used[i] if c._fell_at[i] is not None else c._used[i]
        return replace(
            c,
            _remaining=_pair(c._remaining, i, value),
            _fell_at=_opt_pair(c._fell_at, i, fell),
            _fell_used=_opt_pair(c._fell_used, i, fell_used),
        )

    # --------------------------------------------------------------- queries

    def remaining(self, t_ms: int, side: Color) -> int | None:
        """Milliseconds ``side`` has left at ``t_ms`` (never negative; 0 once
        the flag has fallen); ``None`` without a clock."""
        i = _index(side)
        self._check_t(t_ms)
        if self._control.unlimited:
            return None
        # What _advance(t_ms) leaves on this side, without building that clock (a state's view asks
        # for both sides at every move): only the running side's time runs, after its delay, to zero.
        left = self._remaining[i]
        since = self._since
        if self._running != side or since is None or self._fell_at[i] is not None:
            return left
        dt = t_ms - since
        if t_ms >= since + self._delay_left + left:
            return 0
        return left - (dt - min(dt, self._delay_left))

    def used(self, t_ms: int, side: Color) -> int:
        """The time ``side``'s clock has run up to ``t_ms`` (thinking time)."""
        i = _index(side)
        self._check_t(t_ms)
        return self._advance(t_ms)._used[i]

    def moves(self, side: Color) -> int:
        """The moves ``side`` has completed (presses)."""
        return self._moves[_index(side)]

    def flag_time(self, side: Color) -> int | None:
        """The instant ``side``'s flag falls or fell, given the current state.

        The past instant if it has fallen; the future instant if its clock
        runs (as long as nothing changes); ``None`` if it cannot fall (its
        clock is not running and it has time left, or there is no clock).
        """
        i = _index(side)
        if self._control.unlimited:
            return None
        fell = self._fell_at[i]
        if fell is not None:
            return fell
        if self._running == side and self._since is not None:
            return self._since + self._delay_left + self._remaining[i]
        return None

    def fallen(self, t_ms: int) -> tuple[Color, ...]:
        """The sides whose flag has fallen by ``t_ms``, in the order they fell
        (white first if both fell at the same instant)."""
        self._check_t(t_ms)
        c = self._advance(t_ms)
        down = [(at, i) for i, at in enumerate(c._fell_at) if at is not None]
        return tuple(_SIDES[i] for _, i in sorted(down))

    def first_flag(self, t_ms: int) -> tuple[Color, int] | None:
        """``(side, instant)`` of the first flag to have fallen by ``t_ms``."""
        sides = self.fallen(t_ms)
        if not sides:
            return None
        first = sides[0]
        at = self._advance(t_ms)._fell_at[_index(first)]
        assert at is not None
        return first, at

    @property
    def running(self) -> Color | None:
        """The side whose clock runs, or ``None``."""
        return self._running

    @property
    def paused(self) -> Color | None:
        """The side whose clock :meth:`stop` stopped (resumed by :meth:`resume`)."""
        return self._paused

    @property
    def control(self) -> TimeControl:
        """The time control the clock was set for."""
        return self._control

    @property
    def last_change(self) -> int | None:
        """The time stamp of the last operation (``None`` before the first)."""
        return self._since

    # ------------------------------------------------------------- internals

    def _check_t(self, t_ms: int) -> None:
        if isinstance(t_ms, bool) or not isinstance(t_ms, int):
            raise ClockError(f"time stamps are integer milliseconds, not {t_ms!r}")
        if self._since is not None and t_ms < self._since:
            raise ClockError(
                f"time stamp {t_ms} is earlier than the last change at {self._since}"
            )

    def _advance(self, t_ms: int) -> Clock:
        """The state at ``t_ms`` with nothing else changed."""
        side = self._running
        if side is None or self._since is None:
            return replace(self, _since=t_ms)
        remaining, fell_at, used, delay_left, turn_ms, fell_used = self._advanced(t_ms, _index(side))
        return replace(
            self,
            _since=t_ms,
            _remaining=remaining,
            _fell_at=fell_at,
            _fell_used=fell_used,
            _used=used,
            _delay_left=delay_left,
            _turn_ms=turn_ms,
        )

    def _advanced(
        self, t_ms: int, i: int
    ) -> tuple[tuple[int, int], tuple[int | None, int | None], tuple[int, int], int, int,
               tuple[int | None, int | None]]:
        """What :meth:`_advance` changes when side ``i``'s clock runs (since ``_since``): the remaining
        times, the flags' instants, the used times, the simple delay left, the turn's time and the used
        times when the flags fell."""
        since = self._since
        assert since is not None
        dt = t_ms - since
        in_delay = min(dt, self._delay_left)
        remaining = self._remaining
        fell_at = self._fell_at
        fell_used = self._fell_used
        if not self._control.unlimited and fell_at[i] is None:
            flag = since + self._delay_left + remaining[i]
            if t_ms >= flag:
                fell_at = _opt_pair(fell_at, i, flag)
                fell_used = _opt_pair(fell_used, i, self._used[i] + (flag - since))
                remaining = _pair(remaining, i, 0)
            else:
                remaining = _pair(remaining, i, remaining[i] - (dt - in_delay))
        used = _pair(self._used, i, self._used[i] + dt)
        return remaining, fell_at, used, self._delay_left - in_delay, self._turn_ms + dt, fell_used

    def _begin_turn(self, side: Color) -> Clock:
        """``side``'s clock runs from ``_since``, a fresh turn."""
        delay = _turn_delay(self._control, self._moves[_index(side)])
        return replace(self, _running=side, _paused=None, _delay_left=delay, _turn_ms=0)

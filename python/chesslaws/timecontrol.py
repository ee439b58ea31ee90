"""Time controls: the periods of a game, their syntax, and what the Laws make of them.

A time control is a sequence of :class:`Period` s.  The spec syntax
(``shared/spec/game-log.md``, "Time control strings") separates periods with
``:``; each period is ``[MOVES/]SECONDS[+INCREMENT][dDELAY|bDELAY]``:

- ``40/5400`` -- 40 moves in 90 minutes; the time saved carries into the next
  period (1997 Article 6.2, 1989 Article 12.1).
- ``5400+30`` -- 90 minutes for the rest of the game, 30 seconds added after
  each move made in that period (Fischer increment).
- ``300d5`` -- simple ("US", the 1997 text's "time delay mode") delay: the main
  time does not run during the first 5 seconds of each turn; nothing is added.
- ``300b5`` -- Bronstein delay: after the move, the time used on it is given
  back, at most 5 seconds.
- ``-`` -- no clock (an empty tuple of periods).

The last period repeats: in ``40/7200:20/3600`` every further 20 moves bring
another 60 minutes.  A period without a number of moves (sudden death) must be
the last one.  Seconds may carry up to three decimals (milliseconds), e.g.
``299.5``; :meth:`TimeControl.__str__` writes them back the same way so that
``TimeControl.parse(str(tc)) == tc``.  An increment and a delay may be
combined (``300+2d5``).

The PGN ``TimeControl`` tag (PGN standard 9.6.1) is read by
:meth:`TimeControl.from_pgn` and written by :meth:`TimeControl.to_pgn`;
:func:`read_pgn_tag` and :func:`write_pgn_tag` also handle the ``?``
(unknown) form, which is not a time control and so is mapped to ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from chesslaws._core import game_kind_1997
from chesslaws.errors import InvalidInput

__all__ = [
    "Color",
    "DelayKind",
    "Edition",
    "GameKind",
    "Period",
    "TimeControl",
    "TimeControlError",
    "classify",
    "read_pgn_tag",
    "recording_exempt",
    "write_pgn_tag",
]

Color = Literal["white", "black"]
"""A side of the board."""

DelayKind = Literal["none", "simple", "bronstein"]
"""The kind of delay of a period."""

Edition = Literal["1989", "1997", "2023"]
"""An edition of the Laws of Chess."""

GameKind = Literal["standard", "rapid", "blitz"]
"""What the Laws call a game by its time control."""

_MINUTE_MS = 60_000


class TimeControlError(InvalidInput):
    """A time-control string (or value) that cannot be read.

    ``text`` is the whole string, ``position`` the 0-based index of the bad
    part in it (``None`` when the error is not about one place, e.g. an
    inconsistent :class:`Period` built in code) and ``part`` the bad part
    itself.  The message quotes the part and its position.
    """

    text: str
    position: int | None
    part: str

    def __init__(
        self,
        message: str,
        text: str = "",
        position: int | None = None,
        part: str = "",
    ) -> None:
        super().__init__(message)
        self.text = text
        self.position = position
        self.part = part


def _fail(text: str, position: int, part: str, what: str) -> TimeControlError:
    """Build an error that quotes the bad part of ``text`` and where it is."""
    shown = repr(part) if part else "nothing"
    return TimeControlError(
        f"bad time control {text!r}: {what}: {shown} at position {position}",
        text=text,
        position=position,
        part=part,
    )


#: The ranges of a time control's numbers: far past any real control, and small enough that every
#: clock built from them can be scheduled and shown (a browser's numbers stop at 2**53).
MAX_PERIOD_MS = 8_640_000_000  # 100 days
MAX_ADDED_MS = 86_400_000  # an increment or a delay: one day
MAX_PERIOD_MOVES = 1000
MAX_PERIODS = 20


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a time control.

    ``moves`` is the number of moves to make in the period, or ``None`` for
    the rest of the game (sudden death).  ``ms`` is the time of the period;
    it is added to what is left from the previous period when the period
    begins.  ``increment_ms`` is added after every move made in the period.
    ``delay`` with ``delay_ms`` is the simple or Bronstein delay of every move
    made in the period.

    Raises :class:`TimeControlError` for inconsistent values: ``moves`` below
    1, negative times, or a ``delay_ms`` without a delay kind.
    """

    moves: int | None
    ms: int
    increment_ms: int = 0
    delay_ms: int = 0
    delay: DelayKind = "none"

    def __post_init__(self) -> None:
        if self.moves is not None and self.moves < 1:
            raise TimeControlError(f"a period needs at least 1 move, not {self.moves}")
        if self.moves is not None and self.moves > MAX_PERIOD_MOVES:
            raise TimeControlError(f"a period has at most {MAX_PERIOD_MOVES} moves, not {self.moves}")
        if self.ms < 0 or self.increment_ms < 0 or self.delay_ms < 0:
            raise TimeControlError(f"negative time in {self!r}")
        if self.ms > MAX_PERIOD_MS:
            raise TimeControlError(f"a period is at most {MAX_PERIOD_MS // 1000} s (100 days), "
                                   f"not {self.ms // 1000} s")
        if max(self.increment_ms, self.delay_ms) > MAX_ADDED_MS:
            raise TimeControlError(f"an increment or delay is at most {MAX_ADDED_MS // 1000} s (a day), "
                                   f"not {max(self.increment_ms, self.delay_ms) // 1000} s")
        if self.delay not in ("none", "simple", "bronstein"):
            raise TimeControlError(f"unknown delay kind {self.delay!r}")
        if self.delay == "none" and self.delay_ms != 0:
            raise TimeControlError(f"delay_ms={self.delay_ms} without a delay kind")

    def __str__(self) -> str:
        """The period in the spec syntax, e.g. ``40/5400+30``."""
        out = f"{self.moves}/" if self.moves is not None else ""
        out += _seconds(self.ms)
        if self.increment_ms:
            out += "+" + _seconds(self.increment_ms)
        if self.delay == "simple":
            out += "d" + _seconds(self.delay_ms)
        elif self.delay == "bronstein":
            out += "b" + _seconds(self.delay_ms)
        return out


def _seconds(ms: int) -> str:
    """Milliseconds as seconds, with decimals only where needed."""
    whole, frac = divmod(ms, 1000)
    if frac == 0:
        return str(whole)
    return f"{whole}.{frac:03d}".rstrip("0")


_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_INTEGER = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control: a tuple of periods, the last of which repeats.

    An empty tuple means no clock (``-``).  A sudden-death period (``moves``
    is ``None``) may only be the last.
    """

    periods: tuple[Period, ...]

    def __post_init__(self) -> None:
        if len(self.periods) > MAX_PERIODS:
            raise TimeControlError(f"a time control has at most {MAX_PERIODS} periods, not {len(self.periods)}")
        for i, period in enumerate(self.periods[:-1]):
            if period.moves is None:
                raise TimeControlError(
                    f"period {i + 1} ({period}) is for the rest of the game "
                    "but more periods follow it"
                )

    # ------------------------------------------------------------ spec syntax

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read the spec syntax (``40/5400+30:1800+30``, ``300d5``, ``-``).

        Raises :class:`TimeControlError` quoting the bad part and its
        position.
        """
        return cls._read(text, pgn=False)

    def __str__(self) -> str:
        """The control in the spec syntax; ``parse(str(tc)) == tc``."""
        if not self.periods:
            return "-"
        return ":".join(str(p) for p in self.periods)

    # -------------------------------------------------------------------- PGN

    @classmethod
    def from_pgn(cls, text: str) -> TimeControl:
        """Read a PGN ``TimeControl`` tag value.

        Accepts ``-`` (no clock), ``40/9000`` (moves in seconds), ``4500``
        (sudden death), ``4500+60`` (increment), several fields separated by
        ``:``, and the common extension ``40/5400+30``.  Times are whole
        seconds.  ``?`` (unknown) and the sandclock form ``*180`` have no
        :class:`TimeControl`: they raise :class:`TimeControlError` (use
        :func:`read_pgn_tag` to get ``None`` for ``?``), as do delays, which
        the tag cannot express.
        """
        if text == "?":
            raise TimeControlError(
                f"bad time control {text!r}: '?' at position 0 means unknown, "
                "which is not a time control",
                text=text,
                position=0,
                part="?",
            )
        for at, field in _fields(text):
            if field.startswith("*"):
                raise _fail(
                    text, at, field, "sandclock (hourglass) controls are not supported"
                )
        return cls._read(text, pgn=True)

    def to_pgn(self) -> str | None:
        """The PGN ``TimeControl`` tag value, or ``None`` if it cannot be said.

        The PGN standard forms are ``-``, ``MOVES/SECONDS``, ``SECONDS`` and
        ``SECONDS+INCREMENT`` with whole seconds.  ``None`` for delays,
        fractions of seconds and an increment in a period with a number of
        moves (``40/5400+30``, which the standard cannot express).
        """
        if not self.periods:
            return "-"
        fields: list[str] = []
        for p in self.periods:
            if p.delay != "none" or p.ms % 1000 or p.increment_ms % 1000:
                return None
            if p.moves is not None and p.increment_ms:
                return None
            fields.append(str(p))
        return ":".join(fields)

    # ---------------------------------------------------------------- queries

    @property
    def unlimited(self) -> bool:
        """True for no clock at all (``-``)."""
        return not self.periods

    def period_index(self, moves_made: int) -> int:
        """The index of the period a player is in after ``moves_made`` moves.

        The move the player makes next belongs to this period.  The last
        period repeats, so the index never exceeds ``len(periods) - 1``.
        0 for an unlimited control (which has no periods).
        """
        return self._position(moves_made)[0]

    def period_for_move(self, moves_made: int) -> Period | None:
        """The period of the move after ``moves_made`` moves (None if unlimited)."""
        if not self.periods:
            return None
        return self.periods[self.period_index(moves_made)]

    def moves_to_control(self, moves_made: int) -> int | None:
        """How many moves remain to the end of the current period after ``moves_made`` moves
        (``None`` in a period for all the remaining moves, or without a clock)."""
        if not self.periods:
            return None
        index, into = self._position(moves_made)
        moves = self.periods[index].moves
        return None if moves is None else moves - into

    def added_after(self, moves_after: int) -> Period | None:
        """The period whose time is added once ``moves_after`` moves are made.

        ``None`` when that move does not complete a period.  For
        ``40/7200:20/3600``: the second period after move 40, and again after
        moves 60, 80, ... as the last period repeats.
        """
        if not self.periods or moves_after < 1:
            return None
        index, into = self._position(moves_after)
        return self.periods[index] if into == 0 else None

    def _position(self, moves_made: int) -> tuple[int, int]:
        """(period index, moves already made inside it) after ``moves_made``."""
        if moves_made < 0:
            raise ValueError(f"moves_made must not be negative, not {moves_made}")
        n = moves_made
        last = len(self.periods) - 1
        for i, p in enumerate(self.periods):
            if p.moves is None:
                return i, n
            if i == last:
                return i, n % p.moves
            if n < p.moves:
                return i, n
            n -= p.moves
        return 0, n

    # ---------------------------------------------------------------- parsing

    @classmethod
    def _read(cls, text: str, *, pgn: bool) -> TimeControl:
        if not isinstance(text, str):
            raise TimeControlError(f"a time control is a string, not {text!r}")
        if text == "":
            raise _fail(text, 0, "", "empty time control")
        if text == "-":
            return cls(())
        fields = _fields(text)
        periods = [_read_period(text, at, chunk, pgn=pgn) for at, chunk in fields]
        # Sudden death must come last: point at the period that follows it.
        for i, period in enumerate(periods[:-1]):
            if period.moves is None:
                at, chunk = fields[i + 1]
                raise _fail(
                    text,
                    at,
                    chunk,
                    f"period {fields[i][1]!r} is for the rest of the game, "
                    "nothing may follow it",
                )
        return cls(tuple(periods))


def _read_period(text: str, start: int, chunk: str, *, pgn: bool) -> Period:
    """Read one ``[MOVES/]SECONDS[+INCREMENT][dDELAY|bDELAY]`` at ``start``."""
    pos = 0

    def number(what: str, integer: bool) -> tuple[int, str]:
        nonlocal pos
        m = _NUMBER.match(chunk, pos)
        if m is None:
            bad = chunk[pos:] if pos < len(chunk) else ""
            if chunk == "" and bad == "":
                raise _fail(text, start, "", "empty period")
            if bad == "-" or bad.startswith("-"):
                what_ = f"{what} ('-' means no clock and stands alone)"
            elif bad.startswith("?") or bad.startswith("*"):
                what_ = f"{what} ('?' and '*' are PGN forms this field cannot hold)"
            else:
                what_ = what
            raise _fail(text, start + pos, _token(chunk, pos), f"expected {what_}")
        digits = m.group()
        if "." in digits:
            if integer or pgn:
                raise _fail(
                    text,
                    start + pos,
                    digits,
                    f"{what} must be a whole number"
                    + (" in a PGN tag" if pgn and not integer else ""),
                )
            if len(digits.split(".")[1]) > 3:
                raise _fail(
                    text, start + pos, digits, f"{what} is finer than a millisecond"
                )
        pos = m.end()
        return _to_ms(digits) if not integer else int(digits), digits

    first_at = pos
    first, first_text = number("a number of seconds or moves", integer=False)
    moves: int | None = None
    if pos < len(chunk) and chunk[pos] == "/":
        if "." in first_text:
            raise _fail(text, start + first_at, first_text, "moves must be a whole number")
        moves = int(first_text)
        if moves < 1:
            raise _fail(text, start + first_at, first_text, "a period needs at least 1 move")
        pos += 1
        ms, _ = number("a number of seconds", integer=False)
    else:
        ms = first
    increment = 0
    if pos < len(chunk) and chunk[pos] == "+":
        pos += 1
        increment, _ = number("an increment in seconds", integer=False)
    delay: DelayKind = "none"
    delay_ms = 0
    if pos < len(chunk) and chunk[pos] in "db":
        if pgn:
            raise _fail(
                text, start + pos, _token(chunk, pos), "a PGN tag cannot express delays"
            )
        delay = "simple" if chunk[pos] == "d" else "bronstein"
        pos += 1
        delay_ms, _ = number("a delay in seconds", integer=False)
    if pos < len(chunk):
        raise _fail(text, start + pos, _token(chunk, pos), "unexpected text")
    return Period(moves, ms, increment, delay_ms, delay)


def _fields(text: str) -> list[tuple[int, str]]:
    """The ``:``-separated fields of ``text`` with their positions."""
    out: list[tuple[int, str]] = []
    at = 0
    for field in text.split(":"):
        out.append((at, field))
        at += len(field) + 1
    return out


def _token(chunk: str, pos: int) -> str:
    """The bad part starting at ``pos``: up to the next separator."""
    end = pos + 1
    while end < len(chunk) and chunk[end] not in "/+db":
        end += 1
    return chunk[pos:end]


def _to_ms(digits: str) -> int:
    """``"12.5"`` -> 12500 (at most three decimals, checked by the caller)."""
    whole, _, frac = digits.partition(".")
    if len(whole) > 12:
        raise TimeControlError(f"the number {digits[:16]}{'…' if len(digits) > 16 else ''} is far too large "
                               "for a time control")
    return int(whole) * 1000 + int((frac + "000")[:3])


# ------------------------------------------------------------------ PGN tags


def read_pgn_tag(text: str) -> TimeControl | None:
    """Read a PGN ``TimeControl`` tag value; ``None`` for ``?`` (unknown)."""
    if text == "?":
        return None
    return TimeControl.from_pgn(text)


def write_pgn_tag(control: TimeControl | None) -> str:
    """The PGN ``TimeControl`` tag value; ``?`` for an unknown control or one
    the tag cannot express (see :meth:`TimeControl.to_pgn`)."""
    if control is None:
        return "?"
    written = control.to_pgn()
    return "?" if written is None else written


# ------------------------------------------------------------ what the Laws say


def classify(tc: TimeControl, edition: Edition) -> GameKind:
    """Standard, rapid or blitz, by the edition's own definitions.

    - ``1989``: the edition knows no rapid or blitz: always standard.
    - ``1997`` (Appendix B.1, C.1): rapid when all the moves must be made in a
      fixed time from 15 to 60 minutes inclusive, blitz under 15 minutes.
      "All the moves in a fixed time" needs a control ending in sudden death;
      the fixed time is the sum of all periods plus the increments of a
      60-move game (each move with the increment of the period it is made
      in; delays add no time) -- the reading FIDE later wrote into the Laws
      (2023 A.1: "time allotted plus 60 times any increment").  Anything else
      is standard.  The native core decides it (``game_kind_1997``, the rule
      ``chesslaws check`` applies to a TimeControl tag).
    - ``2023`` (Appendix A.1, B.1): the first period's time plus 60 times its
      increment; rapid if over 10 and under 60 minutes, blitz if 10 minutes or
      less, otherwise standard.

    No clock (``-``) is standard in every edition.
    """
    if edition == "1989" or tc.unlimited:
        return "standard"
    if edition == "1997":
        return game_kind_1997([(p.moves, p.ms, p.increment_ms) for p in tc.periods])
    if edition == "2023":
        first = tc.periods[0]
        total = first.ms + 60 * first.increment_ms
        if total <= 10 * _MINUTE_MS:
            return "blitz"
        if total < 60 * _MINUTE_MS:
            return "rapid"
        return "standard"
    raise ValueError(f"unknown edition {edition!r}")


def recording_exempt(remaining_ms: int, tc: TimeControl, moves_made: int) -> bool:
    """Article 8.4 (1997, 2023): is the player excused from recording moves?

    True when he has less than five minutes left (``remaining_ms`` strictly
    under 300 000) and the period he is in (after ``moves_made`` moves) does
    not add 30 seconds or more with each move.  Never true without a clock.
    """
    if tc.unlimited:
        return False
    period = tc.periods[tc.period_index(moves_made)]
    return remaining_ms < 5 * _MINUTE_MS and period.increment_ms < 30_000

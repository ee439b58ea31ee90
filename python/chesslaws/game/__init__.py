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

The package follows the parts of the Laws; each module's docstring lists the
articles of each edition (1989, 1997, 2023) that it applies:

- :mod:`~chesslaws.game.state`: the values (state, configuration, outcome,
  rulings) and the builder of one transition;
- :mod:`~chesslaws.game.moving`: the act of moving and touch-move (Article 4);
- :mod:`~chesslaws.game.played`: what follows a move on the board, the clock
  and the scoresheet;
- :mod:`~chesslaws.game.completion`: the completion of the game (Article 5;
  1989 Article 10.1-10.5);
- :mod:`~chesslaws.game.draws`: draws, offers and claims (Article 9; 1997
  Article 10 and 2023 Guidelines III, the quickplay finish);
- :mod:`~chesslaws.game.flags`: the clock and flags (Article 6);
- :mod:`~chesslaws.game.gamescores`: the two game scores of a game with a
  visually disabled player (2023 D.2.9);
- :mod:`~chesslaws.game.recording`: the scoresheet kept, shown and signed,
  the next period when it cannot show the control passed, the arbiter's
  decision on the result (2023 Article 8, A.2, A.4.3, B.2.3, 12.6; 1997
  Article 8, 13.6; 1989 Article 11, 12.9);
- :mod:`~chesslaws.game.observation`: what an arbiter who does not watch a
  board throughout observes there (1989 12.2, 8.1; 1997 6.8, 7.4, B.5, B.6,
  C.3; 2023 6.8, 7.5.1, A.5.2, A.5.4, A.5.5);
- :mod:`~chesslaws.game.announcing`: a slip of the tongue in announcing a
  move, and the assistant (2023 D.2.8, D.2.10-D.2.11);
- :mod:`~chesslaws.game.displacement`: displaced pieces re-established
  (2023 7.4, 1997 7.3, 1989 8.3);
- :mod:`~chesslaws.game.releasing`: a piece released on a square within a
  move and the promotion piece chosen (2023 4.4.4 and 4.7, 1997 4.7, 1989 6);
- :mod:`~chesslaws.game.pressing`: pressing the clock apart from the move
  (2023 6.2.1-6.2.2, 1997 6.7(a), 1989 12.3);
- :mod:`~chesslaws.game.irregularities`: irregularities and illegal moves
  (Article 7);
- :mod:`~chesslaws.game.conduct`: conduct and the arbiter's penalties
  (2023 Articles 11-12; 1997 12-13; 1989 15-16);
- :mod:`~chesslaws.game.adjournment`: adjournment (1989 Articles 13-14; 1997
  Appendix A; 2023 Guidelines I);
- :mod:`~chesslaws.game.appeals`: an explanation of the Laws asked of the
  arbiter, an appeal against his decision and its decision (2023 11.9-11.10;
  1997 13.1, 13.3; 1989 16.1, 16.3);
- :mod:`~chesslaws.game.handlers`: the one entry point, the table that maps
  each event type to its handler, and :func:`transition`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from chesslaws.errors import ChessLawsError
from chesslaws.jsondepth import MAX_DEPTH, depth_ok
from chesslaws.events import Event, EventLog, parse_event, t_to_ms
from chesslaws.game.conduct import CONDUCT_RULES as CONDUCT_RULES, PENALTY_RULES as PENALTY_RULES
from chesslaws.game.flags import observe
from chesslaws.game.handlers import HANDLERS as HANDLERS, Handler as Handler, initial_state, transition
from chesslaws.game.state import (
    NAME as NAME,
    Config,
    DrawOffer,
    Envelope as Envelope,
    GameError,
    GameState,
    LogError,
    MoveRecord,
    Outcome,
    PendingClaim as PendingClaim,
    Result as Result,
    Ruling,
    Status as Status,
    Termination,
    draw as draw,
    fmt_duration as fmt_duration,
    other as other,
    win_for as win_for,
)
from chesslaws.position import Position


@dataclass(frozen=True, slots=True)
class Game:
    """A game: its log and the state the Laws give it. The log is an :class:`~chesslaws.events.EventLog`
    (a read-only sequence of events shared with the games it extends) when the game was built by
    :meth:`from_start` and :meth:`apply`."""

    events: Sequence[Event]
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
        return cls(EventLog.of((ev,)), initial_state(ev))

    def apply(self, event: Mapping[str, Any] | Event) -> Game:
        """The game after ``event`` (a log entry as a dict, or an :class:`Event`)."""
        ev = event if isinstance(event, Event) else parse_event(dict(event))
        state = transition(self.state, ev)
        log = self.events if type(self.events) is EventLog else EventLog.of(self.events)
        return Game(log.appended(ev), state)

    def at(self, t: float) -> Game:
        """The game as it stands at instant ``t`` (seconds), with no new event."""
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
        if not depth_ok(line):  # before the recursive parser, which a deep line exhausts
            raise LogError(n, f"not a game event: the JSON nests deeper than {MAX_DEPTH} levels")
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

"""PGN to game logs (the conversion behind ``chesslaws convert``).

A recorded game says what happened; a game log says what the players and the
arbiter did. The converter plays the record through the arbiter itself
(chesslaws.game), move by move, so that every time it writes is one the Laws
accept, and writes the ending as the event the Laws need: a flag fall, a
claim, an agreement, a resignation, or nothing where the moves ended the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

from chesslaws._core import recorded_ending
from chesslaws.errors import ChessLawsError
from chesslaws.events import SCHEMAS, ms_to_t
from chesslaws.game import NAME, Game, fmt_duration
from chesslaws.pgn import PgnGame
from chesslaws.position import Position, chess960_start_number
from chesslaws.records.export import COLOUR_TAGS, START_TAGS
from chesslaws.records.terminations import AUTOMATIC_ENDS, ENDED_AS
from chesslaws.records.times import clock_after, time_taken
from chesslaws.timecontrol import Color, TimeControl, TimeControlError


@dataclass(frozen=True, slots=True)
class Conversion:
    """A PGN game as a game log.

    ``notes`` say what had to be inferred or corrected to write the log (the
    ``--report`` of ``chesslaws convert``); ``problems`` say where the record
    contradicts itself or the Laws (an inconsistent record: its log cannot
    reproduce it). ``expected_clocks`` holds, for every move of the log, the
    range (ms) the record allows for the mover's clock after it, or ``None``.
    """

    number: int
    events: list[dict[str, Any]]
    notes: list[str]
    problems: list[str] = field(default_factory=list)
    line: int = 0
    white: str = "?"
    black: str = "?"
    recorded_result: str = "*"
    expected_fen: str | None = None
    expected_clocks: tuple[tuple[int, int] | None, ...] = ()

    @property
    def consistent(self) -> bool:
        """True when the log reproduces the record (nothing in ``problems``)."""
        return not self.problems


def _source(tags: Mapping[str, str]) -> str:
    site = (tags.get("Site", "") + " " + tags.get("Link", "")).lower()
    if "chess.com" in site:
        return "chess.com"
    if "lichess" in site:
        return "lichess"
    if "tcec" in site or "tcec" in tags.get("Event", "").lower():
        return "tcec"
    return "other"


def _read_control(text: str, notes: list[str]) -> tuple[TimeControl | None, int | None]:
    """The time control of the log, and for correspondence controls (a fixed
    time for each move, ``1/259200``) that time per move instead."""
    if text in ("?", "", "-"):
        return None, None
    try:
        control = TimeControl.from_pgn(text)
    except TimeControlError:
        try:
            control = TimeControl.parse(text)
        except TimeControlError:
            notes.append(f"TimeControl {text!r} not understood: written without a clock")
            return None, None
    first = control.periods[0] if len(control.periods) == 1 else None
    if first is not None and first.moves is None and first.ms == 0 and first.increment_ms > 0:
        # "0+1": the clocks start at zero, so each flag would fall the moment its clock is started and
        # both be down after Black's first move (1997 B.8 and C.2: a draw), whatever the record says.
        # The servers that offer it give each player a start: lichess the increment, at least 3 s.
        start = max(first.increment_ms, 3000)
        control = TimeControl(periods=(replace(first, ms=start),))
        notes.append(f"TimeControl {text!r} starts the clocks at zero, on which no move could be made in time: "
                     f"written with the start lichess gives such a game, {_fmt(start)} (the increment, at least "
                     "3 s)")
        return control, None
    if control.periods and control.periods[0].moves == 1 and len(control.periods) == 1:
        days = control.periods[0].ms / 86_400_000
        notes.append(f"TimeControl {text!r} gives a fixed time for every move (correspondence: {days:g} "
                     f"day{'s' if days != 1 else ''} a move), which no clock of the Laws keeps: written as the "
                     "start's days_per_move, without a clock, moves placed at the times the record's clocks give")
        return None, control.periods[0].ms
    return control, None


def _fmt(ms: int) -> str:
    return fmt_duration(ms)


def _move_name(ply0: int, fullmove: int, white_first: bool, san: str) -> str:
    """``12. Nf3`` / ``12... Nf6`` for the move at 0-based ``ply0``."""
    half = ply0 + (0 if white_first else 1)
    number = fullmove + half // 2
    return f"{number}{'.' if half % 2 == 0 else '...'} {san}"


def pgn_to_log(game: PgnGame, *, edition: str | None = None, seconds_per_move: float = 1.0) -> Conversion:
    """The game log of a PGN game, written as the Laws would have written it.

    Times: each move's ``t`` is rebuilt from the clock after it (``[%clk]``,
    TCEC ``tl=``) or the time it took (``[%emt]``, TCEC ``mt=``, cutechess's
    ``2.1s``), the time control adding its increments; a clock no time
    control explains becomes the arbiter's ``set_clocks``. Where the record
    has no times, moves are ``seconds_per_move`` apart (less when the clock
    would not allow it). The ending is read from the moves, the
    ``Termination`` tag and the last comment as ``chesslaws check`` reads
    them (the native ``recorded_ending``, through :func:`termination_kind`'s
    table) and written as what the Laws need; moves recorded after the Laws ended
    the game are left out. See :class:`Conversion` for the notes and problems.

    ``edition``: the Laws the log is to be replayed under; by default the
    edition of a ``Laws`` tag chesslaws wrote (``FIDE 1997``), else 2023.
    """
    if edition is None:
        laws = game.tags.get("Laws", "")
        edition = laws[5:] if laws in ("FIDE 1989", "FIDE 1997", "FIDE 2023") else "2023"
    conv = _Converter(game, edition=edition, seconds_per_move=seconds_per_move)
    return conv.run()


class _Converter:
    def __init__(self, game: PgnGame, *, edition: str, seconds_per_move: float) -> None:
        self.pgn = game
        self.edition = edition
        self.step_ms = max(0, round(seconds_per_move * 1000))
        self.notes: list[str] = []
        self.problems: list[str] = []
        tags = game.tags
        self.tags = tags
        self.source = _source(tags)
        # A PGN chesslaws wrote (replay --pgn) has the Laws' clocks: nothing added after the last move.
        self.laws_written = tags.get("Laws", "").startswith("FIDE ")
        self.adds_after_end = self.source == "chess.com" and not self.laws_written
        self.control, self.per_move_ms = _read_control(tags.get("TimeControl", "-").strip(), self.notes)
        self.timed = self.control is not None and not self.control.unlimited
        result = game.result
        tag_result = tags.get("Result", "*").strip()
        if result is None:
            result = tag_result if tag_result in ("1-0", "0-1", "1/2-1/2", "*") else "*"
        elif tag_result in ("1-0", "0-1", "1/2-1/2") and tag_result != result:
            self.notes.append(f"the Result tag says {tag_result}, the movetext {result}: the movetext is taken")
        self.recorded = result
        board = tags.get("BoardResult", "").strip()
        if board in ("1-0", "0-1", "1/2-1/2") and board != result:
            self.notes.append(f"the board gave {board} (BoardResult), the scoresheets {result}: the ending is the "
                              "board's, the signatures follow it")
            result = board
        self.result = result
        # How the game ended, as the record says it, and which ending the Laws judge: the native reading
        # `chesslaws check` makes of every record (chesslaws._core.recorded_ending).
        first = Position(tags.get("FEN"), chess960=game.chess960)
        colours: tuple[Color, Color] = ("white", "black") if first.turn == "white" else ("black", "white")
        clocks = [m.clock_ms if m.clock_ms is not None else clock_after(m.comment) for m in game.moves]
        last_clock: dict[Color, int | None] = {"white": None, "black": None}
        for ply0, clock in enumerate(clocks):
            if clock is not None:
                last_clock[colours[ply0 % 2]] = clock
        self.ending = recorded_ending(result, dict(tags), game.moves[-1].comment if game.moves else game.comment,
                                      colours[len(game.moves) % 2], len(game.moves), last_clock["white"],
                                      last_clock["black"], clocks[-1] if clocks else None)
        self.kind = self.ending.said
        term = tags.get("TerminationDetails" if self.ending.said_in == "TerminationDetails" else "Termination")
        self.term_text = term or ""

    # -- helpers
    def name(self, ply0: int) -> str:
        first = Position(self.tags.get("FEN"), chess960=self.pgn.chess960)
        return _move_name(ply0, first.fullmove_number, first.turn == "white", self.pgn.moves[ply0].san)

    def run(self) -> Conversion:
        pgn, tags = self.pgn, self.tags
        flag_ending = self.ending.flag_said
        start: dict[str, Any] = {"type": "start", "t": 0, "edition": self.edition,
                                 "time_control": str(self.control) if self.timed and self.control else "-"}
        if flag_ending and self.timed:
            start["arbiter"] = "absent"
            self.notes.append("time forfeit: the server's flag call is written as the winner's claim the instant "
                              "after the flag fell (arbiter absent, so that the log can show it)")
        start["white"] = tags.get("White", "?")
        start["black"] = tags.get("Black", "?")
        for key in ("Event", "Site", "Date", "Round"):
            if key in tags and tags[key].strip("?.- "):
                start[key.lower()] = tags[key]
        if self.per_move_ms is not None:
            # A correspondence game (chess.com "daily", TimeControl "1/86400"): its time for each move, which
            # no clock of the Laws keeps, said in the log for what it is.
            days = round(self.per_move_ms / 86_400_000, 6)
            start["days_per_move"] = int(days) if days == int(days) else days
        if pgn.chess960:
            # Chess960 (2023 Guidelines II): a starting array by its number, any
            # other position as X-FEN; without a FEN tag, the standard array.
            start["variant"] = "chess960"
            first = Position(tags.get("FEN"), chess960=True)
            number = chess960_start_number(first)
            if number is not None:
                start["start_position"] = number
            else:
                start["fen"] = first.fen()
        elif "FEN" in tags:
            start["fen"] = tags["FEN"]
        self._start_tags(start)
        events: list[dict[str, Any]] = [start]
        g = Game.from_start(start)

        targets = self._clock_targets()
        self.untimed_clock: dict[str, int] = {}
        if self.control is None and self.per_move_ms is None and any(c is not None for c in targets):
            self.notes.append("clock times but no time control the Laws can use: written without a clock, moves "
                              "placed by the differences of each player's clock times")
        elapsed = [time_taken(m.comment) for m in pgn.moves]
        if self.timed and pgn.moves and all(c is None for c in targets) and all(e is None for e in elapsed):
            self.notes.append(f"no clock times in the record: moves placed {self.step_ms / 1000:g} s apart "
                              "(less when the clock would not allow it)")
        elif self.control is None and self.per_move_ms is None and pgn.moves and any(e is None for e in elapsed):
            self.notes.append(f"no time control: moves placed {self.step_ms / 1000:g} s apart"
                              + (" where the record has no times" if any(e is not None for e in elapsed) else ""))
        expected: list[tuple[int, int] | None] = []
        corrections = 0
        last: dict[str, Any] | None = None  # what the last move's claim would need
        played = 0
        for i, m in enumerate(pgn.moves):
            st = g.state
            if not st.ongoing:
                rest = len(pgn.moves) - i
                self.problems.append(
                    f"the game ended after {self.name(i - 1)} ({st.termination}: "
                    f"{st.rulings[-1].text if st.rulings else ''}); the {rest} move{'s' if rest != 1 else ''} "
                    f"recorded after it ({self.name(i)}{', ...' if rest > 1 else ''}) "
                    f"{'are' if rest > 1 else 'is'} not part of the game and left out")
                break
            side = st.turn
            t_prev = st.t_ms
            ev: dict[str, Any] = {"type": "move", "t": ms_to_t(t_prev), "by": side, "move": m.uci}
            if m.draw_offer:
                ev["offer_draw"] = True
            try:
                g, exp, pre, post, info = self._place(g, ev, targets[i], elapsed[i], i)
            except ChessLawsError as err:
                self.problems.append(f"{self.name(i)}: the arbiter does not accept it: {err}")
                break
            if pre is not None:
                events.append(pre)
                corrections += 1
            move_index = len(events)
            events.append(ev)
            if post is not None:
                events.append(post)
                corrections += 1
            expected.append(exp)
            last = dict(info, index=move_index, ply0=i)
            played += 1
        st = g.state
        if pgn.errors and played == len(pgn.moves) and not st.ongoing:
            first_error = pgn.errors[0]
            self.problems.append(f"the game ended with {self.name(played - 1)} ({st.termination}); what the record "
                                 f"has after it (line {first_error.line}: {first_error.move or first_error.reason}) "
                                 "is not part of the game and left out")
        self.expected = expected
        g, events = self._ending(g, events, last)
        g, events = self._signatures(g, events)
        if flag_ending and self.timed and not any(e["type"] == "claim_flag" for e in events):
            # The flag claim was not written after all (the record contradicts it).
            tagged = self.tags.get("Arbiter", "").strip().lower()
            if tagged in ("absent", "occasional"):
                start["arbiter"] = tagged
            else:
                del start["arbiter"]
            self.notes[:] = [n for n in self.notes if not n.startswith("time forfeit: the server's flag call")]
            g = Game.from_events(events)
        expected = self.expected
        final = g.state
        fen_after = Position(tags.get("FEN"), chess960=pgn.chess960)
        for mv in pgn.moves[:played]:
            fen_after = fen_after.play(mv.uci)
        if self.recorded != "*" and final.result != self.recorded and not self.problems:
            self.problems.append(f"the record gives {self.recorded}, the Laws {final.result}"
                                 + (f" ({final.rulings[-1].text})" if final.rulings else ""))
        if corrections:
            self.notes.append(f"{corrections} clock correction{'s' if corrections != 1 else ''} by the arbiter "
                              "(set_clocks) where no time control explains the record's clocks")
        return Conversion(pgn.number, events, self.notes, self.problems, line=pgn.line,
                          white=tags.get("White", "?"), black=tags.get("Black", "?"),
                          recorded_result=self.recorded, expected_fen=fen_after.fen(),
                          expected_clocks=tuple(expected))

    def _start_tags(self, start: dict[str, Any]) -> None:
        """The start fields the tags carry (:data:`IN_PGN`); a value the log does not take is left out (a
        note in a PGN chesslaws wrote; elsewhere a tag of that name may mean something else)."""

        choices = SCHEMAS["start"].choices
        for tag, name in START_TAGS.items():
            value = self.tags.get(tag, "").strip().lower()
            if not value:
                continue
            if value in choices[name]:
                if name == "arbiter" and start.get("arbiter") == "absent":
                    # A flag written as the winner's claim needs an arbiter who did not see it first:
                    # absent, or one who watches the board now and then.
                    if value == "occasional":
                        start["arbiter"] = value
                    continue
                start[name] = value
            elif self.laws_written:  # elsewhere the tag may say something else (an Arbiter tag naming him)
                self.notes.append(f"{tag} {value!r} is not one of {', '.join(choices[name])}: left out")
        for tag, name in COLOUR_TAGS.items():
            text = self.tags.get(tag, "").strip().lower()
            if text:
                colours = [c.strip() for c in text.split(",")]
                if all(c in ("white", "black") for c in colours):
                    start[name] = colours
                elif self.laws_written:
                    self.notes.append(f"{tag} {text!r} names no players (white, black): left out")

    def _signatures(self, g: Game, events: list[dict[str, Any]]) -> tuple[Game, list[dict[str, Any]]]:
        """The signed results (WhiteSigned, BlackSigned), after the ending; a recorded result that the board
        and the signatures do not give is the arbiter's decision (2023 8.7)."""
        if g.state.status != "finished":
            return g, events
        t = events[-1]["t"]
        for colour, tag in (("white", "WhiteSigned"), ("black", "BlackSigned")):
            signed = self.tags.get(tag, "").strip()
            if signed in ("1-0", "0-1", "1/2-1/2"):
                ev = {"type": "sign", "t": t, "by": colour, "result": signed}
                g = g.apply(ev)
                events.append(ev)
        ruling = {"1-0": "white_wins", "0-1": "black_wins", "1/2-1/2": "draw"}.get(self.recorded)
        if ruling is not None and g.state.result != self.recorded and len(g.state.signed) == 2:
            ev = {"type": "decision", "t": t, "on": "result", "ruling": ruling}
            try:
                g = g.apply(ev)
            except ChessLawsError:
                return g, events
            events.append(ev)
            self.notes.append(f"the record gives {self.recorded}, which neither the board nor the signatures give: "
                              "written as the arbiter's decision on the result (2023 8.7)")
        return g, events

    def _clock_targets(self) -> list[int | None]:
        raw = [m.clock_ms if m.clock_ms is not None else clock_after(m.comment) for m in self.pgn.moves]
        values = [c for c in raw if c is not None]
        self.resolution = 1
        if values:
            if all(c % 1000 == 0 for c in values):
                self.resolution = 1000
            elif all(c % 100 == 0 for c in values):
                self.resolution = 100
        return raw

    def _set_clocks(self, g: Game, t_ms: int, side: Color, value: int) -> dict[str, Any]:
        other_side: Color = "black" if side == "white" else "white"
        other_ms = g.state.clock.remaining(t_ms, other_side) or 0
        ms = {side: value, other_side: other_ms}
        return {"type": "set_clocks", "t": ms_to_t(t_ms), "by": "arbiter",
                "white_ms": ms["white"], "black_ms": ms["black"]}

    def _place(self, g: Game, ev: dict[str, Any], target: int | None, took: int | None, i: int
               ) -> tuple[Game, tuple[int, int] | None, dict[str, Any] | None, dict[str, Any] | None,
                          dict[str, Any]]:
        """Plays the move at the time the record gives; returns the game after
        it, the clock range the record allows, an arbiter's set_clocks before
        and after it (or None), and what a claim in its place would need."""
        st = g.state
        side: Color = st.turn
        t_prev = st.t_ms
        info: dict[str, Any] = {"game": g, "t_prev": t_prev, "target": target, "side": side}
        if self.per_move_ms is not None:
            used = self.step_ms if target is None else self.per_move_ms - target
            if used < 0:
                self.notes.append(f"{self.name(i)}: the clock shows more than the time per move: placed at once")
                used = 0
            ev["t"] = ms_to_t(t_prev + used)
            return g.apply(ev), None, None, None, info
        if not self.timed:
            used = took if took is not None else self.step_ms
            before_clock = self.untimed_clock.get(side)
            if took is None and target is not None and before_clock is not None and before_clock >= target:
                used = before_clock - target  # clock times without a time control: their differences
            if target is not None:
                self.untimed_clock[side] = target
            ev["t"] = ms_to_t(t_prev + used)
            return g.apply(ev), None, None, None, info
        assert self.control is not None
        before = st.clock.remaining(t_prev, side) or 0
        info["before"] = before
        made = st.clock.moves(side)
        period = self.control.period_for_move(made)
        inc = period.increment_ms if period is not None else 0
        extra = self.control.added_after(made + 1)
        src_added = inc + (extra.ms if extra is not None else 0)  # what a source may add after a last move
        info["src_added"] = src_added
        if target is None:
            if took is not None:
                used = took
            elif self.source == "lichess" and made == 0:
                used = 0  # lichess runs no clock on a player's first move
            else:
                used = min(self.step_ms, before // 4)
            if used >= before > 0:
                # The time a move took, as an engine or a GUI reports it, is not the clock: the
                # GUI, which let the game go on, saw the move in time (a time margin).
                self.notes.append(f"{self.name(i)}: the record says it took {_fmt(used)}, but only {_fmt(before)} "
                                  "were left and the game went on: placed at the last instant")
                used = before - 1
            ev["t"] = ms_to_t(t_prev + used)
            return g.apply(ev), None, None, None, info
        dry = g.apply(ev)  # used 0: shows what the clock adds, and whether the move ends the game
        ends = not dry.state.ongoing
        lo_hi = (target, target)
        if target == 0:
            # Whole seconds (lichess) or tenths: a clock shown as 0 had less than one unit left.
            target = max(self.resolution // 2, 1)
            lo_hi = (0, self.resolution)
            self.notes.append(f"{self.name(i)}: the clock shows 0: read as {_fmt(target)} "
                              f"(under {self.resolution / 1000:g} s left)")
        if ends:
            adds = self.adds_after_end and src_added > 0
            if not adds and before - target < 0 <= before + src_added - target:
                adds = src_added > 0
            added = src_added if adds else 0
            if adds:
                self.notes.append(f"{self.name(i)} ends the game: the record's clock includes the "
                                  f"{_fmt(added)} added after it (as {self.source} does); the Laws' clock, "
                                  "stopped by the end, shows that much less")
            laws_target = target - added
            lo_hi = (lo_hi[0] - added, lo_hi[1] - added)
        else:
            added = (dry.state.moves[-1].clock_ms or 0) - before
            laws_target = target
        info["added_at_end"] = added if ends else None
        used = before + (0 if ends else added) - laws_target if not ends else before - laws_target
        pre = post = None
        # lichess does not run a player's clock on his first move: a first clock
        # below the time control is the start the player had (berserk halves it).
        first_untimed = self.source == "lichess" and made == 0 and used > 0
        if used < 0 or used >= before or first_untimed:
            # No time control explains the record's clock: the arbiter sets it
            # before the move, which is then made at once.
            value = laws_target - (0 if ends else added)
            what = "more" if used < 0 else "less"
            if value > 0:
                pre = self._set_clocks(g, t_prev, side, value)
                if first_untimed:
                    self.notes.append(
                        f"{self.name(i)}: {NAME[side]}'s first clock is {_fmt(target)} of {_fmt(before)}; lichess "
                        f"does not run the clock on a first move, so {NAME[side]} started with less (berserk "
                        f"halves the time): written as the arbiter setting it to {_fmt(value)} before the move")
                else:
                    self.notes.append(
                        f"{self.name(i)}: {NAME[side]}'s clock goes from {_fmt(before)} to {_fmt(target)}, "
                        f"{what} than the time control gives"
                        + (f" (+{_fmt(added)} per move)" if added > 0 and not ends else "")
                        + f": written as the arbiter setting it to {_fmt(value)} before the move")
                g = g.apply(pre)
                info["game"], info["before"] = g, value
                used = 0
            else:
                used = max(0, min(before - 1, before - target))
        t_move = t_prev + used
        ev["t"] = ms_to_t(t_move)
        after = dry if used == 0 and pre is None else g.apply(ev)
        got = after.state.moves[-1].clock_ms
        delay = period.delay_ms if period is not None and period.delay != "none" else 0
        if got is not None and got > laws_target and pre is None and delay:
            # A delay spared part of the time used (300d5, 300b5): the move came that much later.
            later = t_move + delay
            if later - t_prev < before + delay:
                try:
                    retry = g.apply(dict(ev, t=ms_to_t(later)))
                except ChessLawsError:
                    retry = None
                if retry is not None and retry.state.moves[-1].clock_ms == laws_target:
                    t_move, after, got = later, retry, laws_target
                    ev["t"] = ms_to_t(later)
        if not ends and got is not None and got != laws_target:
            post = self._set_clocks(after, t_move, side, laws_target)
            self.notes.append(f"{self.name(i)}: the clock after it is {_fmt(target)}, the time control "
                              f"gives {_fmt(got)}: written as the arbiter setting it after the move")
            after = after.apply(post)
        return after, lo_hi, pre, post, info

    # -- the ending
    def _ending(self, g: Game, events: list[dict[str, Any]], last: dict[str, Any] | None
                ) -> tuple[Game, list[dict[str, Any]]]:
        st = g.state
        result, kind = self.result, self.kind
        said = f"Termination {self.term_text!r}" if self.term_text else (f"the record ({kind})" if kind else "")
        if not st.ongoing:
            if result not in ("*", st.result):
                self.problems.append(f"the record gives {result}, but the moves ended the game: "
                                     f"{st.rulings[-1].text if st.rulings else st.termination}")
            elif kind not in (None, "normal", ENDED_AS.get(st.termination or "")):
                self.notes.append(f"{said}, but the moves ended the game ({st.termination}): nothing is written "
                                  "after the last move")
            return g, events
        if self.problems:
            return g, events  # the moves stopped early: no ending is written for a game cut short
        t_end = st.t_ms
        turn = st.turn
        if result in ("1-0", "0-1"):
            winner: Color = "white" if result == "1-0" else "black"
            loser: Color = "black" if winner == "white" else "white"
            if self.ending.way in ("flag", "flag_before_press", "flag_not_running"):
                done = self._flag(g, events, loser, winner, said, last)
                if done is not None:
                    return done
            elif kind in AUTOMATIC_ENDS:
                # A false reason with a result the Laws can give (a resignation): a note, as check gives it.
                self.notes.append(f"{said} says {kind.replace('_', ' ')}, but the final position is not one that "
                                  "ends the game")
            if self.ending.way == "decision":
                # The arbiter's (or the server's) decision, not the loser's resignation: no rule of
                # resignation judges it (2023 5.1.2 as this project reads it), only the rules that
                # undo any win (1989 10.5, 1997 C.4), as `check` judges it.
                ev: dict[str, Any] = {"type": "decision", "t": ms_to_t(t_end), "by": "arbiter", "on": "adjudication",
                      "ruling": f"{winner}_wins", "reason": self.term_text or (kind or "").replace("_", " ")}
                try:
                    after = g.apply(ev)
                except ChessLawsError as err:
                    self.notes.append(f"{said}: the arbiter does not accept it as his decision ({err}): written as "
                                      f"{NAME[loser]}'s resignation")
                else:
                    self.notes.append(f"{said}: written as the arbiter's decision")
                    return after, events + [ev]
            elif kind == "abandoned" and turn == winner:
                self.notes.append(f"{said} with {NAME[winner]} to move: {NAME[loser]}, his clock not running, left "
                                  f"the game: written as his resignation")
            elif kind == "abandoned":
                self.notes.append(f"{said}: written as {NAME[loser]}'s resignation")
            elif kind in (None, "normal"):
                self.notes.append(f"{result} with no mate on the board: written as {NAME[loser]}'s resignation")
            resign: dict[str, Any] = {"type": "resign", "t": ms_to_t(t_end), "by": loser}
            return g.apply(resign), events + [resign]
        if result == "1/2-1/2":
            # A draw on time (chess.com "timeout vs insufficient material", lichess "Time forfeit" with
            # 1/2-1/2): the flag of the player to move fell.
            if self.ending.way == "draw_on_time":
                done = self._flag(g, events, turn, "black" if turn == "white" else "white", said)
                if done is not None:
                    return done
            if kind in ("repetition", "fifty_moves", "fivefold", "seventy_five_moves", None, "normal"):
                reasons = ["fifty", "threefold"] if kind in ("fifty_moves", "seventy_five_moves") else \
                    ["threefold", "fifty"]
                mark = len(self.notes)
                claimed = self._claim(g, events, last, reasons, search=kind not in (None, "normal"))
                if claimed is not None:
                    if kind in (None, "normal"):
                        self.notes.insert(mark, "a draw the record does not explain, in a position that may be "
                                          "claimed: written as the claim")
                    return claimed
                if kind not in (None, "normal"):
                    # A false reason with a result the Laws can give (an agreement): a note, as check gives it.
                    self.notes.append(f"{said} says {kind.replace('_', ' ')}, but no claim by either player would "
                                      "be correct here: written as an agreement")
            elif kind in AUTOMATIC_ENDS:
                self.notes.append(f"{said} says {kind.replace('_', ' ')}, but the final position is not one that "
                                  "ends the game: written as an agreement")
            elif kind in ("adjudication", "rules_infraction", "abandoned", "resignation"):
                self.notes.append(f"{said}: written as an agreement")
            if kind in (None, "normal"):
                self.notes.append(f"{result} with nothing on the board or in the record that ends the game: "
                                  "written as an agreement")
            return self._agree(g, events, last)
        if kind not in (None, "normal", "unterminated") and self.pgn.moves:
            self.notes.append(f"{said}, but no result (*): the game is left unfinished")
        return g, events

    def _flag(self, g: Game, events: list[dict[str, Any]], loser: Color, winner: Color, said: str,
              last: dict[str, Any] | None = None) -> tuple[Game, list[dict[str, Any]]] | None:
        if not self.timed:
            clocked = self._nominal_clock(g, events, last, loser, said)
            if clocked is None:
                return None
            g, events, last = clocked
        st = g.state
        if self.ending.way == "flag_before_press" and last is not None:
            # The loser's last move is on the board, but his flag fell before he pressed the clock: the
            # move was made and not completed (1997 6.7(a), 2023 6.2.1; 1989 12.3: he had not stopped his
            # clock), so his clock ran on until it fell, the position on the board being the one after
            # that move, which the flag rule judges.
            prev: Game = last["game"]
            unpressed = dict(events[last["index"]], press=False)
            g = prev.apply(unpressed)
            events = events[:last["index"]] + [unpressed]
            self.expected[-1] = None  # the record's clock after a move never pressed is not the Laws' clock
            self.notes.append(f"{said} with {NAME[winner]} to move: {NAME[loser]}'s flag fell after he made "
                              f"{self.name(last['ply0'])} and before he pressed the clock (written as a move "
                              "made without pressing)")
            st = g.state
        if self.ending.way == "flag_not_running":
            # A clock after the loser's last move showing time left says he pressed it.
            self.problems.append(f"{said}: {NAME[loser]}'s flag cannot have fallen, {NAME[winner]}'s clock was "
                                 "running")
            return None
        fall = st.clock.flag_time(loser)
        if fall is None:
            self.problems.append(f"{said}, but {NAME[loser]}'s clock is not running")
            return None
        ev: dict[str, Any] = {"type": "claim_flag", "t": ms_to_t(fall + 1), "by": winner}
        after = g.apply(ev)
        if self.result != after.state.result:
            ruling = after.state.rulings[-1].text if after.state.rulings else ""
            self.problems.append(f"the record gives {self.result} on time; the Laws give {after.state.result}: "
                                 f"{ruling}")
        return after, events + [ev]

    def _nominal_clock(self, g: Game, events: list[dict[str, Any]], last: dict[str, Any] | None, loser: Color,
                       said: str) -> tuple[Game, list[dict[str, Any]], dict[str, Any] | None] | None:
        """The log of a record that says a flag fell but has no time control the Laws' clock can keep (no
        TimeControl tag, one not understood, or a fixed time for each move), given a nominal clock on which
        that flag can fall. What a flag fall leads to asks only for the position (1989 10.14 and 10.5, 1997
        6.9 and 6.10, 2023 6.9: can the opponent mate?), not for the clock's numbers, so the record is judged
        by the flag rule, as ``check`` judges it. The clock: a sudden death of standard play in every edition
        (two hours at least, so not 1997 blitz: C.4 is not asked, as ``check`` does not ask it without a
        TimeControl tag), an hour longer than the whole game so far, so that no flag falls before the last
        move; the arbiter absent, so that the winner's claim the instant after the fall shows it. The moves
        keep the times they were given without a clock. None (a problem) when the arbiter does not accept it."""
        minutes = max(120, -(-g.state.t_ms // 60_000) + 60)
        control = TimeControl.from_pgn(str(minutes * 60))
        start = dict(events[0], time_control=str(control))
        if start.get("arbiter") != "occasional":
            start["arbiter"] = "absent"
        clocked = [start] + events[1:]
        try:
            g = Game.from_events(clocked)
            if last is not None:
                last = dict(last, game=Game.from_events(clocked[:last["index"]]))
        except ChessLawsError as err:
            self.problems.append(f"{said} says the flag fell, but the record has no time control, and the arbiter "
                                 f"does not accept a nominal one: {err}")
            return None
        self.notes.append(f"{said} says the flag fell, but the record has no time control: what a flag fall leads "
                          f"to asks only for the position, so the log gives the clocks a nominal {minutes} min "
                          f"(standard play), on which {NAME[loser]}'s flag falls after the last move (the arbiter "
                          "absent, the flag claimed by the winner the instant after it fell)")
        return g, clocked, last

    def _claim(self, g: Game, events: list[dict[str, Any]], last: dict[str, Any] | None, reasons: list[str],
               *, search: bool) -> tuple[Game, list[dict[str, Any]]] | None:
        def upheld(game: Game) -> bool:
            return game.state.termination in ("threefold_repetition", "fifty_moves")

        st = g.state
        # (a) The last recorded move, written down with the claim (the position is about to appear).
        if last is not None:
            prev: Game = last["game"]
            move_ev = events[last["index"]]
            t_claim = round(float(move_ev["t"]) * 1000)
            expected_last = None
            ok = True
            if self.timed:
                if last.get("target") is None or last.get("before") is None:
                    ok = last.get("before") is not None
                else:
                    # The claimant stops the clocks instead of pressing: no increment, unless
                    # the source adds one after the last move (chess.com).
                    target = max(last["target"], 1)
                    added = last["src_added"] if self.adds_after_end else 0
                    used = last["before"] - (target - added)
                    if 0 <= used < last["before"]:
                        t_claim = last["t_prev"] + used
                        expected_last = (last["target"] - added, last["target"] - added)
                    else:
                        ok = False
            if ok:
                for reason in reasons:
                    ev = {"type": "claim_draw", "t": ms_to_t(t_claim), "by": move_ev["by"], "reason": reason,
                          "move": move_ev["move"]}
                    try:
                        after = prev.apply(ev)
                    except ChessLawsError:
                        continue
                    # Upheld with the move on the board (not because the position before it had
                    # already appeared three times, which would leave the move out).
                    if upheld(after) and len(after.state.moves) == len(prev.state.moves) + 1:
                        if expected_last is not None:
                            self.expected[-1] = expected_last
                        self.notes.append(f"{reason} claimed by {NAME[move_ev['by']]} with the move "
                                          f"{self.name(last['ply0'])} written down")
                        return after, events[:last["index"]] + [ev]
        # (b) The position on the board: claimed by the player to move.
        for reason in reasons:
            ev = {"type": "claim_draw", "t": ms_to_t(st.t_ms), "by": st.turn, "reason": reason}
            after = g.apply(ev)
            if upheld(after):
                self.notes.append(f"{reason} claimed by {NAME[st.turn]} (the player to move)")
                return after, events + [ev]
        # (c) A move the record does not show, that would make the claim correct.
        if search:
            for reason in reasons:
                for move in sorted(st.position.legal_moves()):
                    ev = {"type": "claim_draw", "t": ms_to_t(st.t_ms), "by": st.turn, "reason": reason,
                          "move": move}
                    after = g.apply(ev)
                    if upheld(after):
                        self.notes.append(f"{reason} claimed by {NAME[st.turn]} with the intended move {move}, "
                                          "which the record does not show (inferred)")
                        return after, events + [ev]
        return None

    def _agree(self, g: Game, events: list[dict[str, Any]], last: dict[str, Any] | None
               ) -> tuple[Game, list[dict[str, Any]]]:
        st = g.state
        t = ms_to_t(st.t_ms)
        accepter: Color = st.turn
        offerer: Color = "black" if accepter == "white" else "white"
        last_move = next((i for i in range(len(events) - 1, 0, -1) if events[i]["type"] == "move"), None)
        new = list(events)
        if st.offer is not None and st.offer.by == offerer:
            pass  # the offer made with the last move stands
        elif (last is not None and last_move == last["index"] == len(events) - 1
              and events[last_move]["by"] == offerer):
            # The offer is made with the move (Article 9.1.2.1): the last move is made again with it.
            ev = dict(events[last_move], offer_draw=True)
            new[last_move] = ev
            g = last["game"].apply(ev)
        else:
            off: dict[str, Any] = {"type": "offer_draw", "t": t, "by": offerer}
            new.append(off)
            g = g.apply(off)
        acc: dict[str, Any] = {"type": "accept_draw", "t": t, "by": accepter}
        new.append(acc)
        return g.apply(acc), new


def convertible(game: PgnGame) -> bool:
    """Can :func:`pgn_to_log` convert the game? Yes when it was read without
    error, or when its errors come only after a checkmate or stalemate (moves
    recorded after the end, which the log leaves out)."""
    if not game.errors:
        return True
    if not game.moves or game.final_fen is None:
        return False
    position = Position(game.final_fen, chess960=game.chess960)
    ended = position.is_checkmate() or position.is_stalemate()
    return ended and all(e.line >= game.moves[-1].line for e in game.errors)


def iter_conversions(games: Iterator[PgnGame], *, edition: str | None = None) -> Iterator[Conversion | PgnGame]:
    """Each PGN game as a :class:`Conversion`, or the game itself when it cannot be read."""
    for g in games:
        if not convertible(g):
            yield g
        else:
            yield pgn_to_log(g, edition=edition)

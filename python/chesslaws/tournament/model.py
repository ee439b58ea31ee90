"""The tournament: players, regulations, rounds, boards, byes and results.

Every value is immutable; a change returns a new :class:`Tournament`.
Start numbers are 1-based and fixed when the player is registered.

Results of a board (``Board.result``):

- ``"1-0"``, ``"0-1"``, ``"1/2-1/2"``: a game played over the board;
- ``"0-0"``: played, both lose (e.g. both flags under the 1989 Laws, or an
  arbiter's decision);
- ``"+-"``, ``"-+"``: won by forfeit (the loser did not play: late arrival
  under Article 6.7 of the 2023 Laws, 6.6 of 1997, 10.15 of 1989, or absence);
- ``"--"``: both forfeited (double forfeit).

Byes (``Bye.kind``): ``"pab"`` is the pairing-allocated bye (the odd player
out); ``"full"``, ``"half"`` and ``"zero"`` are byes the player requested
(or the arbiter granted) before the pairing; ``"absent"`` marks a round the
player did not take part in (after a withdrawal, or unpaired absence);
``"free"`` is the round a player of an odd round robin sits out (the
Berger tables' highest number), worth nothing and no unplayed round for
the tie-breaks, since every player has one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping, get_args

from chesslaws.errors import InvalidInput, WrongState
from chesslaws.events import RANGES
from chesslaws.names import name_problem
from chesslaws.regulations import Regulations as GameRegulations
from chesslaws.timecontrol import TimeControl, TimeControlError

BoardResult = Literal["1-0", "0-1", "1/2-1/2", "0-0", "+-", "-+", "--"]
BOARD_RESULTS: tuple[str, ...] = get_args(BoardResult)
ByeKind = Literal["pab", "full", "half", "zero", "absent", "free"]
BYE_KINDS: tuple[str, ...] = get_args(ByeKind)
System = Literal["swiss", "round-robin", "double-round-robin"]
SYSTEMS: tuple[str, ...] = get_args(System)

#: The tie-breaks this package computes (FIDE C.07, 2023), by their C.07 names.
TIEBREAKS: dict[str, str] = {
    "BH": "Buchholz",
    "BH-C1": "Buchholz cut 1",
    "BH-C2": "Buchholz cut 2",
    "BH-M1": "Median Buchholz 1",
    "SB": "Sonneborn-Berger",
    "SB-C1": "Sonneborn-Berger cut 1",
    "DE": "Direct encounter",
    "WIN": "Number of wins (played or not)",
    "WON": "Number of games won over the board",
    "BPG": "Games played with Black",
    "BWG": "Games won with Black",
    "PS": "Progressive scores",
    "ARO": "Average rating of opponents",
    "TPR": "Tournament performance rating",
    "STD": "Standard points (C.07 2026 only)",
}
#: The tie-breaks that only the 2026 revision of C.07 has (``tiebreak_rules="2026"``).
TIEBREAKS_2026_ONLY: frozenset[str] = frozenset({"STD"})

DEFAULT_SWISS_TIEBREAKS = ("BH-C1", "BH", "SB", "DE", "WIN", "BPG")
#: Acceleration of a Swiss: none, or the Baku Acceleration Method (C.04.5.1).
ACCELERATIONS: tuple[str, ...] = ("none", "baku")
#: The Tie-Break Regulations (C.07): the 2023 text, or the 2026 revision (Article 16.4 amended, Standard Points).
TIEBREAK_RULES: tuple[str, ...] = ("2023", "2026")
DEFAULT_ROUND_ROBIN_TIEBREAKS = ("DE", "SB", "WIN", "BPG")


def tiebreak_refused(code: str, rules: str) -> str | None:
    """Why the tie-break ``code`` cannot be used under the C.07 ``rules`` ("2023" or "2026"), or None."""
    if code in TIEBREAKS_2026_ONLY and rules != "2026":
        return (f"{code} ({TIEBREAKS[code].split(' (')[0]}) is a tie-break of the 2026 C.07 rules, not of the "
                f"{rules} rules: choose tiebreak_rules 2026")
    return None


class TournamentError(InvalidInput):
    """Bad tournament input: names the field (or player, round, board) that is wrong."""


class StaleTournament(WrongState):
    """A save over a stored version that another process (or request) has replaced meanwhile: nothing was
    written; read the event again and make the change on it (:meth:`TournamentStore.update`)."""


def _fail(message: str) -> TournamentError:
    return TournamentError(message)


def check_name(name: str, field: str = "name") -> str:
    """``name`` if a person can see it (:func:`chesslaws.names.name_problem`), else a TournamentError naming
    the field: for the event's name and its players' names, from the API, the command line or a file."""
    problem = name_problem(name)
    if problem is not None:
        raise _fail(f"field {field!r}: {problem} in {name[:40]!r}")
    return name


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for a win, a draw and a loss (Article 10.1 of 2023: 1, 1/2, 0 unless the regulations say otherwise).

    ``pab`` is what the pairing-allocated bye gives (by default a win's
    points, C.04.1); requested full/half byes give a win's/draw's points.
    """

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    pab: float | None = None

    @property
    def pab_points(self) -> float:
        return self.win if self.pab is None else self.pab

    @property
    def standard(self) -> bool:
        return (self.win, self.draw, self.loss) == (1.0, 0.5, 0.0)

    @classmethod
    def parse(cls, text: str) -> Scoring:
        """``"1-0.5-0"`` (the default), ``"3-1-0"`` (football scoring), optionally ``"3-1-0/pab=1"``."""
        body, _, extra = text.partition("/")
        parts = body.replace(",", ".").split("-")
        try:
            if len(parts) != 3:
                raise ValueError
            win, draw, loss = (float(p) for p in parts)
            pab = None
            if extra:
                key, _, value = extra.partition("=")
                if key.strip() != "pab":
                    raise ValueError
                pab = float(value)
        except ValueError:
            raise _fail(f"field 'scoring': {text!r} is not WIN-DRAW-LOSS points such as '1-0.5-0' or '3-1-0'") from None
        if not win > draw >= loss:
            raise _fail(f"field 'scoring': a win must give more than a draw, a draw at least a loss ({text!r})")
        return cls(win, draw, loss, pab)

    def __str__(self) -> str:
        text = "-".join(f"{v:g}" for v in (self.win, self.draw, self.loss))
        return text if self.pab is None else f"{text}/pab={self.pab:g}"


@dataclass(frozen=True, slots=True)
class Regulations:
    """The event's regulations, written once and applied to every game of the event."""

    system: System = "swiss"
    rounds: int = 9
    edition: str = "2023"
    time_control: str = "5400+30"
    default_time: float | None = None  # seconds; None: the edition's own default
    scoring: Scoring = field(default_factory=Scoring)
    quickplay: bool = False  # the quickplay-finish Guidelines were announced (2023 Guidelines III)
    tiebreaks: tuple[str, ...] = DEFAULT_SWISS_TIEBREAKS
    initial_colour: str = "white"  # the colour of pairing number 1 in round 1 (TRF ``XXC white1``/``black1``)
    acceleration: str = "none"  # "baku": the Baku Acceleration Method (C.04.5.1), written as XXA lines
    tiebreak_rules: str = "2023"  # C.07 as of 2023, or "2026": Article 16.4 amended, Standard Points (STD)
    unrated_rating: int | None = None  # the rating an unrated opponent counts with in ARO and TPR (None: left out)
    # What the Laws leave to the regulations of the event, carried into each game's start (2023 9.1.1, 11.2.4, III.4).
    no_draw_offers: bool = False  # no draw offered or agreed without the arbiter's consent
    no_draw_before_move: int | None = None  # ... before each player has made this many moves
    report_leaving: bool = False  # the opponent of the player having the move reports before leaving the area
    increment_possible: bool = True  # the clocks can introduce the increment of Guidelines III.4

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise _fail(f"field 'system': {self.system!r} is not one of {', '.join(SYSTEMS)}")
        if self.initial_colour not in ("white", "black"):
            raise _fail(f"field 'initial_colour': {self.initial_colour!r} is not white or black")
        if self.acceleration not in ACCELERATIONS:
            raise _fail(f"field 'acceleration': {self.acceleration!r} is not one of {', '.join(ACCELERATIONS)}")
        if self.acceleration == "baku" and (self.system != "swiss" or not self.scoring.standard):
            raise _fail("field 'acceleration': the Baku method (C.04.5.1) is for a Swiss scored 1-0.5-0")
        if self.tiebreak_rules not in TIEBREAK_RULES:
            raise _fail(f"field 'tiebreak_rules': {self.tiebreak_rules!r} is not one of {', '.join(TIEBREAK_RULES)}")
        if self.unrated_rating is not None and not 0 < self.unrated_rating <= 3500:
            raise _fail(f"field 'unrated_rating': {self.unrated_rating} is out of 1..3500")
        low, high = RANGES["no_draw_before_move"]
        if self.no_draw_before_move is not None and not low <= self.no_draw_before_move <= high:
            raise _fail(f"field 'no_draw_before_move': {self.no_draw_before_move} is out of {low:g}..{high:g}")
        if self.edition not in ("1989", "1997", "2023"):
            raise _fail(f"field 'edition': {self.edition!r} is not 1989, 1997 or 2023")
        if self.rounds < 1:
            raise _fail(f"field 'rounds': {self.rounds} (at least 1)")
        for tb in self.tiebreaks:
            if tb not in TIEBREAKS:
                raise _fail(f"field 'tiebreaks': unknown tie-break {tb!r} (known: {', '.join(TIEBREAKS)})")
            refused = tiebreak_refused(tb, self.tiebreak_rules)
            if refused:
                raise _fail(f"field 'tiebreaks': {refused}")

        try:
            TimeControl.parse(self.time_control)
        except TimeControlError as err:
            raise _fail(f"field 'time_control': {err}") from None

    def start_event(self, *, white: str, black: str, round_number: int, event: str = "",
                    site: str = "", date: str = "", t: float = 0) -> dict[str, Any]:
        """The ``start`` event of one of the event's games: the regulations in the game's own log."""
        ev: dict[str, Any] = {"type": "start", "t": t, "edition": self.edition, "time_control": self.time_control,
                              "arbiter": "present", "white": white, "black": black, "round": str(round_number)}
        if self.default_time is not None:
            ev["default_time"] = self.default_time
        if self.quickplay:
            ev["quickplay_guidelines"] = True
        if event:
            ev["event"] = event
        if site:
            ev["site"] = site
        if date:
            ev["date"] = date
        ev.update(self.game_regulations().to_json())
        return ev

    def game_regulations(self) -> GameRegulations:
        """What the Laws leave to the event's regulations, as each game's start event states it."""
        return GameRegulations(no_draw_offers=self.no_draw_offers, no_draw_before_move=self.no_draw_before_move,
                               report_leaving=self.report_leaving, increment_possible=self.increment_possible)

    def to_json(self) -> dict[str, Any]:
        """The regulations as stored; those the Laws leave to the event only when set (an event that sets
        none reads as it always did)."""
        return {"system": self.system, "rounds": self.rounds, "edition": self.edition,
                "time_control": self.time_control, "default_time": self.default_time,
                "scoring": str(self.scoring), "quickplay": self.quickplay, "tiebreaks": list(self.tiebreaks),
                "initial_colour": self.initial_colour, "acceleration": self.acceleration,
                "tiebreak_rules": self.tiebreak_rules, "unrated_rating": self.unrated_rating,
                **self.game_regulations().to_json()}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Regulations:
        return cls(system=obj.get("system", "swiss"), rounds=int(obj.get("rounds", 9)),
                   edition=str(obj.get("edition", "2023")), time_control=str(obj.get("time_control", "5400+30")),
                   default_time=obj.get("default_time"), scoring=Scoring.parse(str(obj.get("scoring", "1-0.5-0"))),
                   quickplay=bool(obj.get("quickplay", False)),
                   tiebreaks=tuple(obj.get("tiebreaks", DEFAULT_SWISS_TIEBREAKS)),
                   initial_colour=str(obj.get("initial_colour", "white")),
                   acceleration=str(obj.get("acceleration", "none")),
                   tiebreak_rules=str(obj.get("tiebreak_rules", "2023")),
                   unrated_rating=None if obj.get("unrated_rating") is None else int(obj["unrated_rating"]),
                   no_draw_offers=bool(obj.get("no_draw_offers", False)),
                   no_draw_before_move=None if obj.get("no_draw_before_move") is None
                   else int(obj["no_draw_before_move"]),
                   report_leaving=bool(obj.get("report_leaving", False)),
                   increment_possible=bool(obj.get("increment_possible", True)))


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player; ``start_number`` is the pairing number, fixed at registration."""

    start_number: int
    name: str
    rating: int = 0
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    sex: str = ""
    birth: str = ""
    withdrawn_from: int | None = None  # first round the player no longer takes part in

    def active_in(self, round_number: int) -> bool:
        return self.withdrawn_from is None or round_number < self.withdrawn_from

    def to_json(self) -> dict[str, Any]:
        return {"start_number": self.start_number, "name": self.name, "rating": self.rating, "title": self.title,
                "federation": self.federation, "fide_id": self.fide_id, "sex": self.sex, "birth": self.birth,
                "withdrawn_from": self.withdrawn_from}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Player:
        return cls(int(obj["start_number"]), str(obj["name"]), int(obj.get("rating", 0) or 0),
                   str(obj.get("title", "")), str(obj.get("federation", "")), str(obj.get("fide_id", "")),
                   str(obj.get("sex", "")), str(obj.get("birth", "")), obj.get("withdrawn_from"))


@dataclass(frozen=True, slots=True)
class Board:
    """A pairing: ``white`` and ``black`` are start numbers; ``result`` None while the game goes on."""

    table: int
    white: int
    black: int
    result: BoardResult | None = None
    game_id: str | None = None
    termination: str | None = None  # the game's termination, when the result came from its log

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "white": self.white, "black": self.black, "result": self.result,
                "game_id": self.game_id, "termination": self.termination}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Board:
        return cls(int(obj["table"]), int(obj["white"]), int(obj["black"]), obj.get("result"),
                   obj.get("game_id"), obj.get("termination"))


@dataclass(frozen=True, slots=True)
class Bye:
    player: int
    kind: ByeKind

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    boards: tuple[Board, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def complete(self) -> bool:
        return all(b.result is not None for b in self.boards)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "boards": [b.to_json() for b in self.boards],
                "byes": [b.to_json() for b in self.byes]}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Round:
        return cls(int(obj["number"]), tuple(Board.from_json(b) for b in obj.get("boards", [])),
                   tuple(Bye(int(b["player"]), b["kind"]) for b in obj.get("byes", [])))


def result_from_game_state(result: str, termination: str | None) -> BoardResult:
    """A board's result from a finished game's result and termination.

    A game lost by late arrival (Article 6.7 of 2023, 6.6 of 1997, 10.15 of
    1989) was never played: it is a forfeit in the tournament's record.
    """
    forfeit = termination == "late_arrival"
    table: dict[str, BoardResult] = (
        {"1-0": "+-", "0-1": "-+", "0-0": "--"} if forfeit
        else {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "0-0": "0-0"}
    )
    if result not in table:
        raise WrongState(f"the game has no final result yet ({result})")
    return table[result]


@dataclass(frozen=True, slots=True)
class Tournament:
    """An event: its regulations, players, requested byes and rounds."""

    name: str
    regulations: Regulations = field(default_factory=Regulations)
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = ()
    requested_byes: tuple[tuple[int, int, ByeKind], ...] = ()  # (round, start number, full/half/zero)
    site: str = ""
    date: str = ""
    id: str = ""
    # Virtual points per round given in the event's file (TRF ``XXA``: start number, points for rounds 1, 2, ...);
    # when empty, the regulations' acceleration (if any) gives them.
    accelerations: tuple[tuple[int, tuple[float, ...]], ...] = ()
    # The start numbers are the pairing numbers as given (an imported file's): round 1 is paired with them, not
    # after renumbering by rating (order_by_rating, asked for explicitly).
    numbered: bool = False
    # The stored version this value was read at (TournamentStore; not part of the event, nor of its JSON): a
    # save over a version that another process has replaced meanwhile is refused, never an overwrite.
    version: int = field(default=0, compare=False)

    # --- reading ---------------------------------------------------------------

    def player(self, start_number: int) -> Player:
        if not 1 <= start_number <= len(self.players):
            raise _fail(f"player {start_number}: no such start number (1..{len(self.players)})")
        return self.players[start_number - 1]

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise _fail(f"round {number}: not paired yet ({len(self.rounds)} round(s) paired)")
        return self.rounds[number - 1]

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.total_rounds and all(r.complete for r in self.rounds)

    @property
    def total_rounds(self) -> int:
        n = len(self.players)
        reg = self.regulations
        if reg.system == "swiss":
            return reg.rounds
        per_cycle = n - 1 if n % 2 == 0 else n
        return per_cycle * (2 if reg.system == "double-round-robin" else 1)

    def virtual_points(self, round_number: int) -> dict[int, float]:
        """The virtual points of each accelerated player for the pairing of ``round_number``: the event's own
        (TRF ``XXA``), else the Baku Acceleration Method's (C.04.5.1) when the regulations choose it: the first
        2 * Q pairing numbers (Q: the number of players divided by 4, rounded up) form GA; the accelerated rounds
        are the first half of the rounds (rounded up); GA has 1 virtual point in the first half of them (rounded
        up), 0.5 in the rest, and nobody has any afterwards."""
        if self.accelerations:
            return {sn: pts[round_number - 1] for sn, pts in self.accelerations
                    if round_number <= len(pts) and pts[round_number - 1]}
        if self.regulations.acceleration != "baku":
            return {}
        accelerated = (self.total_rounds + 1) // 2
        if round_number > accelerated:
            return {}
        points = 1.0 if round_number <= (accelerated + 1) // 2 else 0.5
        ga = 2 * ((len(self.players) + 3) // 4)
        return {sn: points for sn in range(1, min(ga, len(self.players)) + 1)}

    def requested_bye(self, round_number: int, start_number: int) -> ByeKind | None:
        for rnd, sn, kind in self.requested_byes:
            if rnd == round_number and sn == start_number:
                return kind
        return None

    # --- changes (each returns a new tournament) --------------------------------

    def add_player(self, name: str, rating: int = 0, title: str = "", federation: str = "", fide_id: str = "",
                   sex: str = "", birth: str = "") -> Tournament:
        if self.rounds:
            raise WrongState("players are registered before round 1 is paired")
        if not name.strip():
            raise _fail("field 'name': empty")
        check_name(name)
        if not 0 <= rating <= 3500:
            raise _fail(f"player {name!r}: field 'rating' {rating} is out of 0..3500")
        p = Player(len(self.players) + 1, name.strip(), rating, title, federation, fide_id, sex, birth)
        return replace(self, players=self.players + (p,))

    def order_by_rating(self) -> Tournament:
        """Renumbers players by rating (then title, then name), as C.04.2 ranks them before round 1."""
        if self.rounds:
            raise WrongState("start numbers are fixed once round 1 is paired")
        titles = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
        order = sorted(self.players, key=lambda p: (-p.rating, titles.index(p.title) if p.title in titles else 99,
                                                    p.name))
        new = {p.start_number: i for i, p in enumerate(order, 1)}
        return replace(self, players=tuple(replace(p, start_number=i) for i, p in enumerate(order, 1)),
                       requested_byes=tuple((r, new[sn], k) for r, sn, k in self.requested_byes),
                       accelerations=tuple(sorted((new[sn], pts) for sn, pts in self.accelerations)))

    def request_bye(self, round_number: int, start_number: int, kind: ByeKind) -> Tournament:
        self.player(start_number)
        if kind not in ("full", "half", "zero"):
            raise _fail(f"field 'kind': a requested bye is full, half or zero, not {kind!r}")
        if round_number < self.next_round:
            raise WrongState(f"round {round_number} is already paired: a bye is requested before the pairing")
        kept = tuple(b for b in self.requested_byes if (b[0], b[1]) != (round_number, start_number))
        return replace(self, requested_byes=kept + ((round_number, start_number, kind),))

    def withdraw(self, start_number: int, from_round: int | None = None) -> Tournament:
        """The player takes no part from ``from_round`` on (default: the next round to pair)."""
        p = self.player(start_number)
        first = self.next_round if from_round is None else from_round
        if first < self.next_round:
            raise WrongState(f"round {first} is already paired: enter a forfeit there instead")
        players = list(self.players)
        players[start_number - 1] = replace(p, withdrawn_from=first)
        return replace(self, players=tuple(players))

    def with_round(self, rnd: Round) -> Tournament:
        if rnd.number != self.next_round:
            raise WrongState(f"round {rnd.number} cannot follow round {len(self.rounds)}")
        if self.rounds and not self.rounds[-1].complete:
            missing = [b.table for b in self.rounds[-1].boards if b.result is None]
            raise WrongState(f"round {len(self.rounds)} is not finished: no result on table(s) "
                             f"{', '.join(map(str, missing))}")
        if rnd.number > self.total_rounds:
            raise WrongState(f"the tournament has {self.total_rounds} rounds")
        return replace(self, rounds=self.rounds + (rnd,))

    def set_result(self, round_number: int, table: int, result: str, *, termination: str | None = None,
                   game_id: str | None = None) -> Tournament:
        rnd = self.round(round_number)
        if result not in BOARD_RESULTS:
            raise _fail(f"round {round_number} table {table}: result {result!r} is not one of "
                        f"{', '.join(BOARD_RESULTS)}")
        boards = list(rnd.boards)
        for i, b in enumerate(boards):
            if b.table == table:
                boards[i] = replace(b, result=result, termination=termination or b.termination,  # type: ignore[arg-type]
                                    game_id=game_id or b.game_id)
                break
        else:
            raise _fail(f"round {round_number}: no table {table} (tables 1..{len(boards)})")
        rounds = list(self.rounds)
        rounds[round_number - 1] = replace(rnd, boards=tuple(boards))
        return replace(self, rounds=tuple(rounds))

    def set_game_id(self, round_number: int, table: int, game_id: str) -> Tournament:
        rnd = self.round(round_number)
        boards = tuple(replace(b, game_id=game_id) if b.table == table else b for b in rnd.boards)
        rounds = list(self.rounds)
        rounds[round_number - 1] = replace(rnd, boards=boards)
        return replace(self, rounds=tuple(rounds))

    def result_from_game(self, round_number: int, table: int, game: Any) -> Tournament:
        """Takes a board's result from its game (a :class:`chesslaws.game.Game` that has ended)."""
        state = game.state
        board = next((b for b in self.round(round_number).boards if b.table == table), None)
        if board is None:
            raise _fail(f"round {round_number}: no table {table}")
        self.check_game_regulations(game)
        res = result_from_game_state(state.result, state.termination)
        return self.set_result(round_number, table, res, termination=state.termination)

    def check_game_regulations(self, game: Any) -> None:
        """A game of the event is played under the event's regulations: its Laws, its time control and what
        the Laws leave to the regulations (draw offers, leaving the playing area, the increment)."""

        cfg = game.state.config
        reg = self.regulations
        if cfg.edition.name != reg.edition:
            raise _fail(f"the game was played under the {cfg.edition.name} Laws; the event's regulations say "
                        f"{reg.edition}")
        if cfg.time_control != TimeControl.parse(reg.time_control):
            raise _fail(f"the game's time control is {cfg.time_control}; the event's regulations say "
                        f"{reg.time_control}")
        if reg.default_time is not None and cfg.default_time_ms != round(reg.default_time * 1000):
            raise _fail(f"the game's default time is {cfg.default_time_ms / 1000:g} s; the event's regulations "
                        f"say {reg.default_time:g} s")
        if cfg.regulations != reg.game_regulations():
            raise _fail(f"the game's start states the regulations {cfg.regulations.to_json() or 'none'}; the "
                        f"event's say {reg.game_regulations().to_json() or 'none'}")

    # --- JSON ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "site": self.site, "date": self.date,
                "regulations": self.regulations.to_json(), "players": [p.to_json() for p in self.players],
                "rounds": [r.to_json() for r in self.rounds],
                "requested_byes": [list(b) for b in self.requested_byes],
                "accelerations": [[sn, list(pts)] for sn, pts in self.accelerations],
                **({"numbered": True} if self.numbered else {})}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Tournament:
        return cls(name=str(obj.get("name", "")), regulations=Regulations.from_json(obj.get("regulations", {})),
                   players=tuple(Player.from_json(p) for p in obj.get("players", [])),
                   rounds=tuple(Round.from_json(r) for r in obj.get("rounds", [])),
                   requested_byes=tuple((int(r), int(s), k) for r, s, k in obj.get("requested_byes", [])),
                   site=str(obj.get("site", "")), date=str(obj.get("date", "")), id=str(obj.get("id", "")),
                   accelerations=tuple((int(sn), tuple(float(x) for x in pts))
                                       for sn, pts in obj.get("accelerations", [])),
                   numbered=bool(obj.get("numbered", False)))

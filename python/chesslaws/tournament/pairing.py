"""Pairings: the FIDE Berger tables (C.05) and the Dutch system (C.04.3) through a pairing engine.

The engine is kept behind :class:`SwissEngine` (one call: pair one round
from each player's history). :class:`BbpDutch` runs bbpPairings (FIDE-endorsed,
C++, Apache-2.0, not shipped with chesslaws: built from github.com/BieremaBoyzProgramming/bbpPairings) on the event's TRF; :class:`CaissifyDutch`
adapts the pure-Python ``caissify-pairings`` package, whose maximum-weight
matchings (one of the whole field per pair it fixes: 97 % of its time with
networkx) run in chesslaws' Rust core, on the round's edge weights held there
(:mod:`chesslaws.tournament.matching`, :mod:`chesslaws.tournament.dutch`: the
same matchings, ties included). :func:`default_engine` takes bbpPairings
whenever one is found (``CHESSLAWS_BBP`` or the ``PATH``) and caissify-pairings
otherwise (the same boards in about bbpPairings' CPU time: bench/README.md). caissify takes the colour rules'
"higher ranked player" by pairing number where C.04.3 ranks by score first:
its pairs are kept and their colours given by :func:`allocate_colours`, the
one pairing rule written here. Otherwise no pairing rule is written here:
this module only derives each player's pairing history (score, colours of
played games, floats, byes, previous opponents) from the tournament's
record and turns the engine's answer into a :class:`Round`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import warnings
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from chesslaws.tournament.dutch import native_engine
from chesslaws.tournament.matching import native_networkx
from chesslaws.tournament.model import Board, Bye, Round, Tournament, TournamentError
from chesslaws.tournament.records import Entry, game_score, player_entries
from chesslaws.tournament.trf import write_trf

Pair = tuple[int, int]


# --- round robin -----------------------------------------------------------------


def berger_round(n: int, round_number: int) -> list[Pair]:
    """The FIDE Berger table (C.05 Annex 1) for ``n`` (even) positions, one round, in the published order."""
    from caissify_pairings.engines.round_robin import berger_round as engine_round

    return list(engine_round(n, round_number))


def berger_table(players: int, *, double: bool = False) -> list[list[Pair]]:
    """The rounds of a round robin for ``players`` players, each a list of (white, black) start numbers.

    With an odd number of players the highest number of the table (``players + 1``)
    is the free round: that pairing is left out. For a double round robin the
    second cycle repeats the first with colours reversed, and the last two
    rounds of the first cycle are exchanged, as C.05 recommends, so that no
    player gets the same colour three times running at the turn.
    """
    if players < 2:
        raise TournamentError(f"a round robin needs at least 2 players (got {players})")
    n = players + players % 2
    first = [[(w, b) for w, b in berger_round(n, r) if w <= players and b <= players] for r in range(1, n)]
    if not double:
        return first
    second = [[(b, w) for w, b in rnd] for rnd in first]
    if len(first) >= 2:
        first = first[:-2] + [first[-1], first[-2]]
    return first + second


def pair_round_robin(t: Tournament) -> Round:
    number = t.next_round
    n = len(t.players)
    table = berger_table(n, double=t.regulations.system == "double-round-robin")
    if number > len(table):
        raise TournamentError(f"the round robin has {len(table)} rounds")
    pairs = table[number - 1]
    boards = tuple(Board(i, w, b) for i, (w, b) in enumerate(pairs, 1))
    seated = {x for p in pairs for x in p}
    byes = tuple(Bye(sn, "free") for sn in range(1, n + 1) if sn not in seated)
    return Round(number, boards, byes)


# --- Swiss ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """What a Swiss engine is told about one player to pair."""

    start_number: int
    name: str
    rating: int
    score: float  # game points (1, 1/2, 0), byes and forfeits included
    colours: tuple[str, ...]  # "white"/"black" of the games played over the board, in order
    floats: tuple[str, ...]  # "up"/"down"/"none" per round so far
    had_bye_or_forfeit_win: int  # unplayed rounds that gave a win's points (no second PAB, C.04.1)
    forfeit_wins: int
    virtual: float = 0.0  # virtual points of an accelerated round (C.04.5.1): the pairing score is score + virtual
    # The player's place among the players the round ranks (0: the start number): those to pair and those who
    # took part in an earlier pairing, in start-number order. A player absent or on a requested bye in every round
    # so far is not among them: the initial colour goes down the players actually paired, as bbpPairings and
    # FIDE TEC's checker give it.
    rank: int = 0

    @property
    def ranked(self) -> int:
        return self.rank or self.start_number

    @property
    def pairing_score(self) -> float:
        return self.score + self.virtual


@dataclass(frozen=True, slots=True)
class SwissRequest:
    round_number: int
    total_rounds: int
    players: tuple[SwissPlayer, ...]
    played_pairs: frozenset[Pair]  # games played over the board (a forfeit may be paired again)
    trf: str = ""  # the event as TRF-16, with the requested byes and absences of the round to pair
    initial_colour: str = "white"  # the colour of pairing number 1 in round 1 (TRF XXC white1/black1)


class SwissEngine(Protocol):
    name: str

    def pair(self, request: SwissRequest) -> list[tuple[int, int | None]]:
        """(white, black) start numbers per board, in table order; (player, None) is the pairing-allocated bye."""


class CaissifyDutch:
    """The FIDE Dutch system (C.04.3) of the ``caissify-pairings`` package (Apache-2.0).

    caissify takes the colour rules' "higher ranked player" by pairing number alone, where C.04.3
    (1.2) ranks by score first: its pairs keep their players, their colours are given by
    :func:`allocate_colours` (``own_colours=False``: caissify's own colours, for comparison).
    Its maximum-weight matchings run in the Rust core, each started from the optimum of the one before,
    the round's edge weights held there too (:mod:`chesslaws.tournament.dutch`; ``table=False``: handed
    over as a networkx graph per matching, the same matchings; ``warm=False``: each from scratch, step for
    step as networkx, the same matchings; ``native=False``: in networkx, as caissify alone runs them, minutes per round past 150 players). A warm start may
    choose another matching among equally heavy ones; the pairings are compared with networkx' by the
    tests (every round of several events) and checked by FIDE TEC's checker in the bench."""

    name = "caissify-pairings dutch"

    def __init__(self, *, own_colours: bool = True, native: bool = True, warm: bool = True,
                 table: bool = True) -> None:
        self.own_colours = own_colours
        self.native = native
        self.warm = warm
        self.table = table and native and warm
        self.name = "caissify-pairings dutch" + (" (matching: networkx)" if not native else
                                                 " (matching: chesslaws' Rust core)" if warm else
                                                 " (matching: chesslaws' Rust core, from scratch)")

    def pair(self, request: SwissRequest) -> list[tuple[int, int | None]]:
        from caissify_pairings import MissingFloatHistoryWarning
        from caissify_pairings.engines.dutch import DutchEngine

        # caissify numbers the players by rating (then title, then starting number) before pairing them: every
        # player is given the same rating, so that its pairing numbers are the event's own (C.04.2).
        players = [{
            "id": p.start_number, "name": p.name, "score": p.pairing_score, "rating": 0,
            "starting_number": p.start_number, "color_hist": list(p.colours), "float_history": list(p.floats),
            "bye_count": p.had_bye_or_forfeit_win - p.forfeit_wins, "forfeit_win_count": p.forfeit_wins,
        } for p in request.players]
        with warnings.catch_warnings(), native_networkx(warm=self.warm) if self.native else nullcontext():
            warnings.simplefilter("error", MissingFloatHistoryWarning)
            kind = (native_engine() if self.table else None) or DutchEngine
            engine = kind(players=players, previous_pairings=set(request.played_pairs),
                          round_number=request.round_number, total_rounds=request.total_rounds)
            # The virtual points are in the scores given above (chesslaws' own acceleration: C.04.5.1 or the file's
            # XXA lines; caissify's `accelerated=True` would add its own, other, points to rounds 1-2). Marked
            # accelerated only after construction, so that round 1 is paired by score groups, not top half
            # against bottom half.
            engine.accelerated = any(p.virtual for p in request.players)
            out: list[dict[str, Any]] = engine.generate_pairings()
        out.sort(key=lambda d: d.get("table", 0))
        pairs: list[tuple[int, int | None]] = [
            (int(d["white_id"]), None if d.get("black_id") is None or d.get("bye") else int(d["black_id"]))
            for d in out]
        if not self.own_colours:
            return pairs
        by_sn = {p.start_number: p for p in request.players}
        return [(w, b) if b is None else allocate_colours(by_sn[w], by_sn[b], request.initial_colour)
                for w, b in pairs]



Preference = tuple[str | None, int]  # (colour, strength: 3 absolute, 2 strong, 1 mild, 0 none)


def colour_preference(colours: tuple[str, ...]) -> Preference:
    """A player's colour preference from the colours of the games played over the board (C.04.3 1.6).

    Absolute: a colour difference (games with White minus games with Black) over +1 or under -1, or the
    same colour in the last two games played; strong: a difference of +1 or -1; mild: a difference of 0,
    for the colour other than the last one played; none before the first game played."""
    if not colours:
        return None, 0
    diff = colours.count("white") - colours.count("black")
    if diff > 1 or diff < -1:
        return ("black" if diff > 1 else "white"), 3
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return ("black" if colours[-1] == "white" else "white"), 3
    if diff:
        return ("black" if diff > 0 else "white"), 2
    return ("black" if colours[-1] == "white" else "white"), 1


def allocate_colours(a: SwissPlayer, b: SwissPlayer, initial: str = "white") -> tuple[int, int]:
    """(white, black) for the paired players a and b by the colour allocation rules of C.04.3, in order:
    grant both preferences; grant the stronger one (of two absolute ones the wider colour difference);
    alternate the colours to the most recent round in which they had different colours; grant the
    preference of the higher ranked player (score first, then pairing number: 1.2); give the higher
    ranked player the initial colour if his pairing number is odd, the other colour if it is even (his place
    among the ranked players, :attr:`SwissPlayer.rank`)."""
    (pa, sa), (pb, sb) = colour_preference(a.colours), colour_preference(b.colours)

    def a_gets(colour: str) -> tuple[int, int]:
        return (a.start_number, b.start_number) if colour == "white" else (b.start_number, a.start_number)

    def other(colour: str) -> str:
        return "black" if colour == "white" else "white"

    if pa != pb:  # different preferences, or one has none
        return a_gets(pa) if pa is not None else a_gets(other(pb))  # type: ignore[arg-type]
    if pa is not None:  # the same preference
        ia = abs(a.colours.count("white") - a.colours.count("black"))
        ib = abs(b.colours.count("white") - b.colours.count("black"))
        if sa != sb:
            return a_gets(pa) if sa > sb else a_gets(other(pa))
        if sa == 3 and ia != ib:
            return a_gets(pa) if ia > ib else a_gets(other(pa))
        for ca, cb in zip(reversed(a.colours), reversed(b.colours)):
            if ca != cb:
                return a_gets(cb)
    higher, lower = ((a, b) if (-a.pairing_score, a.start_number) < (-b.pairing_score, b.start_number)
                     else (b, a))
    if pa is not None:
        colour = pa
    else:
        colour = initial if higher.ranked % 2 == 1 else other(initial)
    return (higher.start_number, lower.start_number) if colour == "white" else (lower.start_number, higher.start_number)


class BbpDutch:
    """The FIDE Dutch system of a bbpPairings binary (``bbpPairings --dutch FILE -p OUT``), given by its path."""

    name = "bbpPairings dutch"

    def __init__(self, executable: str) -> None:
        self.executable = executable

    def pair(self, request: SwissRequest) -> list[tuple[int, int | None]]:
        if not request.trf:
            raise TournamentError("bbpPairings pairs from the event's TRF: the request carries none")
        with tempfile.TemporaryDirectory(prefix="chesslaws-bbp-") as d:
            src, dst = Path(d) / "event.trf", Path(d) / "pairs.txt"
            src.write_text(request.trf, encoding="utf-8")
            try:
                run = subprocess.run([self.executable, "--dutch", str(src), "-p", str(dst)], capture_output=True,
                                     text=True, timeout=600)
            except OSError as err:
                raise TournamentError(f"cannot run bbpPairings ({self.executable}): {err}") from None
            if run.returncode != 0 or not dst.exists():
                raise TournamentError(f"bbpPairings could not pair round {request.round_number}: "
                                      f"{(run.stderr or run.stdout).strip()[:400]}")
            lines = dst.read_text().split()
        count, numbers = int(lines[0]), [int(x) for x in lines[1:]]
        pairs: list[tuple[int, int | None]] = [(numbers[2 * i], numbers[2 * i + 1] or None) for i in range(count)]
        return [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]


LARGE_FOR_CAISSIFY = 300
"""Above this many players a round takes seconds, past 1,000 a minute or so, with either engine (caissify-pairings
with its weights and matchings in the Rust core about as long as bbpPairings in CPU): the CLI says so."""

def find_bbp() -> str | None:
    """The bbpPairings executable to use, if any: ``CHESSLAWS_BBP``, else one on the ``PATH``."""
    named = os.environ.get("CHESSLAWS_BBP")
    if named:
        return named
    for name in ("bbpPairings", "bbpPairings.exe"):
        found = shutil.which(name)
        if found:
            return found
    return None


def default_engine() -> SwissEngine:
    """bbpPairings when one is found (:func:`find_bbp`), else caissify-pairings."""
    bbp = find_bbp()
    return BbpDutch(bbp) if bbp else CaissifyDutch()


def _request_trf(t: Tournament) -> str:
    """The event's TRF as a pairing engine reads it: the next round's requested byes (F, H, Z) and absences
    (-) already written in, and the points of a full or half bye counted in the player's total (columns
    81-84), as the round's code says (:func:`~chesslaws.tournament.trf.write_trf`)."""

    return write_trf(t, absences=True)


def _floats(sn: int, entries: dict[int, tuple[Entry, ...]], upto: int,
            virtual: dict[int, dict[int, float]] | None = None) -> tuple[str, ...]:
    """Floats per round (C.04.3): paired with a higher (up) or lower (down) pairing score (virtual points of an
    accelerated round included); an unplayed round with points is a downfloat."""
    out: list[str] = []
    for e in entries[sn]:
        if e.round > upto:
            break
        if not e.played:
            out.append("down" if e.game_points > 0 and e.kind != "free" else "none")
            continue
        assert e.opponent is not None
        vp = (virtual or {}).get(e.round, {})
        mine = game_score(entries[sn], e.round - 1) + vp.get(sn, 0.0)
        theirs = game_score(entries[e.opponent], e.round - 1) + vp.get(e.opponent, 0.0)
        out.append("down" if mine > theirs else "up" if mine < theirs else "none")
    return tuple(out)


_PAIRED = frozenset({"win", "draw", "loss", "forfeit_win", "forfeit_loss", "pab", "pending"})
"""The kinds of round in which a player took part in the pairing (paired against someone, or given the PAB)."""


def swiss_request(t: Tournament, *, with_trf: bool = False) -> SwissRequest:
    """The engine's input for the next round: the active players without a requested bye."""
    number = t.next_round
    entries = player_entries(t)
    virtual = t.virtual_points(number)
    history = {r: t.virtual_points(r) for r in range(1, number)}
    players: list[SwissPlayer] = []
    played: set[Pair] = set()
    ranked = 0
    for p in t.players:
        es = entries[p.start_number]
        for e in es:
            if e.played and e.opponent is not None:
                played.add((min(p.start_number, e.opponent), max(p.start_number, e.opponent)))
        present = p.active_in(number) and t.requested_bye(number, p.start_number) is None
        ranked += present or any(e.kind in _PAIRED for e in es)
        if not present:
            continue
        colours = tuple("white" if e.color == "w" else "black" for e in es if e.played)
        win_unplayed = sum(1 for e in es if e.kind in ("pab", "full", "forfeit_win"))
        players.append(SwissPlayer(p.start_number, p.name, p.rating, game_score(es), colours,
                                   _floats(p.start_number, entries, number - 1, history), win_unplayed,
                                   sum(1 for e in es if e.kind == "forfeit_win"), virtual.get(p.start_number, 0.0),
                                   ranked))
    return SwissRequest(number, t.total_rounds, tuple(players), frozenset(played),
                        _request_trf(t) if with_trf else "", t.regulations.initial_colour)


def pair_swiss(t: Tournament, engine: SwissEngine | None = None) -> Round:
    """The next round by the Dutch system of ``engine`` (by default :func:`default_engine`)."""
    engine = engine or default_engine()
    request = swiss_request(t, with_trf=isinstance(engine, BbpDutch))
    if len(request.players) < 2:
        raise TournamentError(f"round {request.round_number}: fewer than two players to pair")
    pairs = engine.pair(request)
    boards: list[Board] = []
    byes: list[Bye] = []
    for w, b in pairs:
        if b is None:
            byes.append(Bye(w, "pab"))
        else:
            boards.append(Board(len(boards) + 1, w, b))
    for rnd, sn, kind in t.requested_byes:
        if rnd == request.round_number and t.player(sn).active_in(rnd):
            byes.append(Bye(sn, kind))
    seated = [x for b in boards for x in (b.white, b.black)] + [y.player for y in byes]
    if len(seated) != len(set(seated)):
        raise TournamentError(f"round {request.round_number}: the engine seated a player twice")
    return Round(request.round_number, tuple(boards), tuple(byes))


def pair_next_round(t: Tournament, engine: SwissEngine | None = None) -> Tournament:
    """The tournament with its next round paired (Berger tables or the Dutch system, by the regulations).

    A Swiss is paired by ``engine``, by default :func:`default_engine` (bbpPairings when found)."""
    if t.rounds and not t.rounds[-1].complete:
        t.with_round(Round(t.next_round, ()))  # raises with the missing tables
    if t.next_round > t.total_rounds:
        raise TournamentError(f"all {t.total_rounds} rounds are paired")
    if t.regulations.system == "swiss":
        rnd = pair_swiss(t, engine)
    else:
        rnd = pair_round_robin(t)
    return t.with_round(rnd)

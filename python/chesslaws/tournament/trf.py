"""FIDE's Tournament Report File, TRF-16 (Handbook C.04 Annex 2): read and write.

The writer fills the fixed columns of the ``001`` player lines (start
number, sex, title, name, rating, federation, FIDE ID, birth date, points,
rank, then one ``oooo c r`` block per round from column 92) and the header
lines ``012`` (name), ``022`` (city), ``042`` (date), ``062``/``072``
(players, rated players), ``092`` (type), ``122`` (time control), with the
extensions that pairing programs read: ``XXR`` (number of rounds), ``XXC``
(the initial colour, ``white1`` or ``black1``, as the regulations say), ``XXA`` (the
virtual points of accelerated rounds) and, for a scoring other than 1-1/2-0,
``BBW``/``BBD``/``BBL``/``BBU``.

Round codes: ``1 = 0`` played (``W D L`` read as the same), ``+ -`` forfeit,
``U`` pairing-allocated bye, ``F H Z`` requested full, half, zero bye; an
opponent ``0000`` with result ``-`` is a round sat out (after a
withdrawal), and ``Z`` in a round robin the free round.

The extensions real programs write (JaVaFo's TRF(x), bbpPairings' TRF(bx)) are read too:
``XXC white1``/``black1`` (the colour of pairing number 1 in round 1; TRF-2026's
``152 W``/``B``; without either, the colours of round 1 tell), TRF-2026's ``142`` (as
``XXR``), ``XXZ`` (players announced absent from the round to pair: a requested
zero-point bye), ``XXA`` (a player's virtual points per round, e.g. the Baku Acceleration
Method: kept and handed to the pairing engines), ``XXS`` (the scoring: ``W=3 D=1 ...``)
and a last round column holding nothing but absence marks (``0000 - Z``, ``0000 - H``,
``0000 - F``), as files written before a round is paired carry: that column is the next
round's requested byes, not a round played (the writer writes the next round's requested byes so too,
so that a file read back asks for them again). ``XXC rank`` (the players' ranking is the order of
their ``001`` lines, the numbers in the file only ids, as bbpPairings reads it) renumbers the players in
that order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chesslaws.tournament.model import (
    DEFAULT_ROUND_ROBIN_TIEBREAKS, DEFAULT_SWISS_TIEBREAKS, Board, BoardResult, Bye, ByeKind, Player, Regulations,
    Round, Scoring, Tournament, TournamentError,
)
from chesslaws.tournament.limits import (
    MAX_GAME_POINTS, MAX_ROUNDS, name_problem, points_problem, rating_problem, rounds_problem, scoring_problem,
)
from chesslaws.timecontrol import TimeControl, TimeControlError
from chesslaws.tournament.records import player_entries, points_for
from chesslaws.tournament.tiebreaks import standings

_TYPE = {"swiss": "Individual: Swiss-System", "round-robin": "Individual: round robin",
         "double-round-robin": "Individual: double round robin"}


class TrfError(TournamentError):
    """A TRF file that cannot be read: names the line and the field."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def _code(kind: str) -> tuple[str, str]:
    """(colour column, result column) of an unpaired round."""
    return {"pab": ("-", "U"), "full": ("-", "F"), "half": ("-", "H"), "zero": ("-", "Z"), "absent": ("-", "-"),
            "free": ("-", "Z")}[kind]


_RESULT_CODE = {"win": "1", "draw": "=", "loss": "0", "forfeit_win": "+", "forfeit_loss": "-", "pending": " "}


def write_trf(t: Tournament, *, absences: bool = False) -> str:
    """The tournament as a TRF-16 file (ranks and points as the standings give them). The next round's
    requested byes are written in its column (``0000 - F``, ``H`` or ``Z``) with their points counted in the
    player's total (columns 81-84), as JaVaFo-style files carry them before the round is paired, so that the
    file read back asks for them again; with ``absences`` (the file handed to a pairing engine), the players
    who take no part in that round (withdrawn) are marked ``0000 - -`` there too."""
    reg = t.regulations
    lines = [f"012 {t.name}"]
    if t.site:
        lines.append(f"022 {t.site}")
    if t.date:
        lines.append(f"042 {t.date}")
    lines.append(f"062 {len(t.players)}")
    lines.append(f"072 {sum(1 for p in t.players if p.rating > 0)}")
    lines.append(f"092 {_TYPE[reg.system]}")
    lines.append(f"122 {reg.time_control}")
    lines.append(f"XXR {t.total_rounds}")
    if reg.system == "swiss":
        lines.append(f"XXC {reg.initial_colour}1")  # round 1: the first pairing number's colour (C.04.3)
        lines += _xxa_lines(t)
    if not reg.scoring.standard:
        s = reg.scoring
        lines += [f"BBW {s.win:4.1f}", f"BBD {s.draw:4.1f}", f"BBL {s.loss:4.1f}", f"BBU {s.pab_points:4.1f}"]
    ranks = {s.start_number: s.rank for s in standings(t)}
    entries = player_entries(t)
    for p in t.players:
        es = entries[p.start_number]
        pts = sum(e.points for e in es if e.kind != "pending")
        head = (f"001 {p.start_number:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} {p.rating or 0:>4} "
                f"{p.federation[:3]:<3} {p.fide_id[:11]:>11} {p.birth[:10]:<10} {pts:>4.1f} {ranks[p.start_number]:>4}")
        if p.rating == 0:
            head = head[:48] + "    " + head[52:]
        blocks = []
        for e in es:
            if e.opponent is None:
                colour, res = _code(e.kind)
                blocks.append(f"0000 {colour} {res}")
            else:
                blocks.append(f"{e.opponent:>4} {e.color} {_RESULT_CODE[e.kind]}")
        nxt = t.next_round
        asked = t.requested_bye(nxt, p.start_number) if nxt <= t.total_rounds else None
        active = p.active_in(nxt)
        if active and asked is not None:  # the next round's requested bye, its points in the total
            blocks.append(f"0000 - {_code(asked)[1]}")
            head = head[:80] + f"{pts + points_for(asked, reg.scoring)[0]:>4.1f}" + head[84:]
        elif absences and not active and nxt <= t.total_rounds:
            blocks.append("0000 - -")
        line = head + "".join("  " + b for b in blocks)
        lines.append(line.rstrip() if not blocks or blocks[-1][-1] != " " else line)
    return "\n".join(lines) + "\n"


def _xxa_lines(t: Tournament) -> list[str]:
    """``XXA NNNN pp.p pp.p ...``: each accelerated player's virtual points, round by round."""
    if t.accelerations:
        table = dict(t.accelerations)
    else:
        per_round = [t.virtual_points(r) for r in range(1, t.total_rounds + 1)]
        last = max((r for r, vp in enumerate(per_round, 1) if vp), default=0)
        table = {sn: tuple(per_round[r].get(sn, 0.0) for r in range(last))
                 for sn in sorted({sn for vp in per_round for sn in vp})}
    return [f"XXA {sn:>4}" + "".join(f" {v:4.1f}" for v in pts) for sn, pts in sorted(table.items()) if pts]


def _field(line: str, a: int, b: int) -> str:
    """Columns a..b (1-based, inclusive)."""
    return line[a - 1:b].strip()


def read_trf(text: str, *, regulations: Regulations | None = None) -> Tournament:
    """A tournament from a TRF-16 file; ``regulations`` supply what TRF does not carry (edition, tie-breaks...)."""
    name, site, date = "", "", ""
    system = "swiss"
    rounds_declared: int | None = None
    time_control: str | None = None
    bb: dict[str, float] = {}
    xxs: dict[str, float] = {}
    xxs_line = 0
    bb_line = 0
    initial: str | None = None
    by_rank = False  # XXC rank: the players' order in the file is their ranking (their pairing numbers)
    absent: dict[int, int] = {}  # start number -> its XXZ line
    accelerations: dict[int, tuple[float, ...]] = {}
    xxa_lines: dict[int, int] = {}
    raw_players: list[tuple[int, Player, list[tuple[int, str, str, str]]]] = []
    player_nos: list[int] = []  # the line of each of raw_players
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        line = raw.replace("\t", " ")
        if not line.strip():
            continue
        code = line[:3]
        rest = line[4:].strip()
        if code == "012":
            name = rest
            wrong = name_problem(name) if name else None
            if wrong:
                raise TrfError(no, f"012 (the event's name): {wrong}")
        elif code == "022":
            site = rest
        elif code == "042":
            date = rest
        elif code == "092":
            low = rest.lower()
            system = ("double-round-robin" if "double" in low and "round" in low else
                      "round-robin" if "round" in low and "robin" in low else "swiss")
        elif code == "122":
            time_control = rest or None
        elif code in ("XXR", "142"):  # 142: TRF-2026's number of rounds
            try:
                rounds_declared = int(rest.split()[0])
            except (ValueError, IndexError):
                raise TrfError(no, f"{code}: {rest!r} is not a number of rounds") from None
            wrong = rounds_problem(rounds_declared)
            if wrong:
                raise TrfError(no, f"{code}: {wrong}")
        elif code == "XXC":
            for token in rest.lower().split():
                if token in ("white1", "black1"):
                    initial = token[:-1]
                elif token == "rank":
                    by_rank = True
        elif code == "152":  # TRF-2026's initial colour: W or B
            if rest.upper() not in ("W", "B"):
                raise TrfError(no, f"152: {rest!r} is not the initial colour W or B")
            initial = "white" if rest.upper() == "W" else "black"
        elif code == "XXZ":
            for token in rest.replace(",", " ").split():
                if not token.isdigit():
                    raise TrfError(no, f"XXZ: {token!r} is not a start number "
                                       "(XXZ lists the absent players' numbers)")
                absent.setdefault(int(token), no)
        elif code == "XXA":
            sn_text = line[4:8].strip()
            if not sn_text.isdigit():
                raise TrfError(no, f"XXA: start number (columns 5-8) {sn_text!r} is not a number")
            values: list[float] = []
            for i, col in enumerate(range(9, len(line.rstrip()), 5)):
                cell = line[col:col + 4].strip()
                try:
                    values.append(float(cell) if cell else 0.0)
                    wrong = points_problem(values[-1], MAX_GAME_POINTS)
                    if wrong:
                        raise ValueError
                except ValueError:
                    raise TrfError(no, f"XXA: round {i + 1} (columns {col + 1}-{col + 4}): {cell!r} is not a number "
                                       f"of points (0..{MAX_GAME_POINTS:g})") from None
            accelerations[int(sn_text)] = tuple(values)
            xxa_lines[int(sn_text)] = no
        elif code == "XXS":
            xxs_line = no
            for token in rest.split():
                key, eq, value = token.partition("=")
                key = key.upper()
                try:
                    if not eq or key not in _XXS_CODES:
                        raise ValueError
                    points = float(value)
                    if points_problem(points, MAX_GAME_POINTS):
                        raise ValueError
                except ValueError:
                    raise TrfError(no, f"XXS: {token!r} is not CODE=POINTS with a CODE of "
                                       f"{', '.join(_XXS_CODES)} (e.g. W=3 D=1), POINTS 0..{MAX_GAME_POINTS:g}") from None
                for one in _XXS_CODES[key]:  # later codes override earlier ones, shortcuts included
                    xxs[one] = points
        elif code in ("BBW", "BBD", "BBL", "BBU"):
            try:
                bb[code] = float(rest)
            except ValueError:
                raise TrfError(no, f"{code}: {rest!r} is not a number of points") from None
            wrong = points_problem(bb[code], MAX_GAME_POINTS)
            if wrong:
                raise TrfError(no, f"{code}: {wrong}")
            bb_line = bb_line or no
        elif code == "001":
            raw_players.append(_read_player(no, line))
            player_nos.append(no)
    if not raw_players:
        raise TrfError(1, "no player line (001)")
    if by_rank:
        raw_players, absent, accelerations, xxa_lines = _ranked(raw_players, player_nos, absent, accelerations,
                                                                xxa_lines)
    line_of: dict[int, int] = {}
    for (sn, _, _), no in zip(raw_players, player_nos):
        if sn in line_of:
            raise TrfError(no, f"001: start number (columns 5-8) {sn} is repeated (also on line {line_of[sn]})")
        line_of[sn] = no
    numbers = sorted(line_of)
    if numbers != list(range(1, len(numbers) + 1)):
        missing = min(set(range(1, len(numbers) + 1)) - set(numbers))
        sn = min((x for x in numbers if x > len(numbers)), key=lambda x: line_of[x])
        raise TrfError(line_of[sn], f"001: start number (columns 5-8) {sn}: the start numbers must run "
                                    f"1..{len(numbers)}, and {missing} has no player line")
    raw_players.sort(key=lambda x: x[0])
    for code, where in (("XXZ", absent), ("XXA", xxa_lines)):
        for sn, no in where.items():
            if not 1 <= sn <= len(numbers):
                raise TrfError(no, f"{code}: start number {sn} has no player line (001) in the file "
                                   f"(1..{len(numbers)})")
    if xxs:
        bb = {**_xxs_scoring(xxs_line, xxs), **bb}
    scoring = Scoring(bb.get("BBW", 1.0), bb.get("BBD", 0.5), bb.get("BBL", 0.0),
                      bb["BBU"] if "BBU" in bb and bb["BBU"] != bb.get("BBW", 1.0) else None)
    wrong = scoring_problem(scoring.win, scoring.draw, scoring.loss, scoring.pab) if bb else None
    if wrong:  # as the API's scoring is refused (Scoring.parse)
        raise TrfError(bb_line or xxs_line, f"the scoring: {wrong}")
    # Without regulations, the tie-breaks are the system's own: DE, SB, WIN, BPG in a round robin (as the live
    # page ranks it), BH-C1, BH, SB, DE, WIN, BPG in a Swiss.
    base = regulations or Regulations(system=system, tiebreaks=(  # type: ignore[arg-type]
        DEFAULT_SWISS_TIEBREAKS if system == "swiss" else DEFAULT_ROUND_ROBIN_TIEBREAKS))
    n_rounds = max((len(r) for _, _, r in raw_players), default=0)
    if n_rounds > MAX_ROUNDS + 1:  # one more: the next round's requested byes
        no = next(no for (_, _, r), no in zip(raw_players, player_nos) if len(r) == n_rounds)
        raise TrfError(no, f"round {n_rounds} (columns {92 + 10 * (n_rounds - 1)}-{99 + 10 * (n_rounds - 1)}): "
                           f"an event has at most {MAX_ROUNDS} rounds")    # A last column of absence marks only (no opponent, no pairing-allocated bye) is the next round's requests.
    requests: list[tuple[int, int, ByeKind]] = []
    if n_rounds and all(len(res) < n_rounds
                        or (not res[n_rounds - 1][1].strip("0") and res[n_rounds - 1][3] in "ZHF-")
                        for _, _, res in raw_players):
        for sn, _, res in raw_players:
            if len(res) == n_rounds:
                mark = res[n_rounds - 1][3]
                requests.append((n_rounds, sn, "full" if mark == "F" else "half" if mark == "H" else "zero"))
                res.pop()
        n_rounds -= 1
    marked = {sn for _, sn, _ in requests}
    requests += [(n_rounds + 1, sn, "zero") for sn in absent if sn not in marked]
    reg = replace(base, system=system, scoring=scoring if bb else base.scoring,  # type: ignore[arg-type]
                  rounds=(rounds_declared or n_rounds or base.rounds) if system == "swiss" else base.rounds,
                  time_control=time_control if time_control and _tc_ok(time_control) else base.time_control,
                  initial_colour=initial or _initial_colour(raw_players) or base.initial_colour)
    t = Tournament(name=name, regulations=reg, players=tuple(p for _, p, _ in raw_players), site=site, date=date,
                   accelerations=tuple(sorted(accelerations.items())), numbered=True)
    rounds: list[Round] = []
    for r in range(1, n_rounds + 1):
        rounds.append(_read_round(r, raw_players, system, line_of))
    return replace(t, rounds=tuple(rounds), requested_byes=tuple(requests))


_RawPlayer = tuple[int, Player, list[tuple[int, str, str, str]]]


def _ranked(players: list[_RawPlayer], lines: list[int], absent: dict[int, int], accelerations: dict[int, tuple[float, ...]],
            xxa_lines: dict[int, int]) -> tuple[list[_RawPlayer], dict[int, int], dict[int, tuple[float, ...]],
                                                dict[int, int]]:
    """``XXC rank`` (JaVaFo's TRF(x), read so by bbpPairings): the numbers in the file are only ids; the players'
    ranking, which the pairing systems use as pairing numbers (colours, the order within a score group), is
    the order of their ``001`` lines. Each player gets the number of his line's place, and every reference
    to an id (opponents, ``XXZ``, ``XXA``) follows."""
    new: dict[int, int] = {}
    first: dict[int, int] = {}
    for i, ((sn, _, _), no) in enumerate(zip(players, lines), 1):
        if sn in new:
            raise TrfError(no, f"001: XXC rank: the player's id (columns 5-8) {sn} is repeated (also on line "
                               f"{first[sn]})")
        new[sn], first[sn] = i, no

    def of(sn: int, where: str, line: int) -> int:
        if sn not in new:
            raise TrfError(line, f"XXC rank: {where} names id {sn}, which has no player line (001)")
        return new[sn]

    out: list[_RawPlayer] = []
    for (sn, p, results), no in zip(players, lines):
        moved = [(r, str(of(int(opp), f"round {r} (columns {92 + 10 * (r - 1)}-{95 + 10 * (r - 1)})", no))
                  if opp.strip("0") else opp, colour, res)
                 for r, opp, colour, res in results]
        out.append((new[sn], replace(p, start_number=new[sn]), moved))
    return (out, {of(sn, "XXZ", no): no for sn, no in absent.items()},
            {of(sn, "XXA", xxa_lines[sn]): pts for sn, pts in accelerations.items()},
            {of(sn, "XXA", no): no for sn, no in xxa_lines.items()})


#: JaVaFo's XXS codes (its Advanced User Manual): each code, or shortcut, and the codes it sets.
_XXS_CODES: dict[str, tuple[str, ...]] = {
    "WW": ("WW",), "BW": ("BW",), "WD": ("WD",), "BD": ("BD",), "WL": ("WL",), "BL": ("BL",), "ZPB": ("ZPB",),
    "HPB": ("HPB",), "FPB": ("FPB",), "PAB": ("PAB",), "FW": ("FW",), "FL": ("FL",),
    "W": ("WW", "BW", "FW", "FPB"), "D": ("WD", "BD", "HPB"),
}
_XXS_DEFAULTS = {"WW": 1.0, "BW": 1.0, "WD": 0.5, "BD": 0.5, "WL": 0.0, "BL": 0.0, "ZPB": 0.0, "HPB": 0.5,
                 "FPB": 1.0, "PAB": 1.0, "FW": 1.0, "FL": 0.0}


def _xxs_scoring(line: int, given: dict[str, float]) -> dict[str, float]:
    """The BBW/BBD/BBL/BBU points of an XXS scoring: a win, a draw and a loss the same whatever the colour or
    the kind (played, forfeit, requested bye), as chesslaws scores them; the pairing-allocated bye apart."""
    x = {**_XXS_DEFAULTS, **given}
    for group in (("WW", "BW", "FW", "FPB"), ("WD", "BD", "HPB"), ("WL", "BL", "FL", "ZPB")):
        if len({x[c] for c in group}) > 1:
            raise TrfError(line, "XXS: " + ", ".join(f"{c}={x[c]:g}" for c in group) + " differ; chesslaws gives "
                           "every win the same points, every draw the same, every loss the same")
    return {"BBW": x["WW"], "BBD": x["WD"], "BBL": x["WL"], "BBU": x["PAB"]}


def _initial_colour(players: list[tuple[int, Player, list[tuple[int, str, str, str]]]]) -> str | None:
    """The initial colour an event without ``XXC`` used: the round-1 colour of the first pairing number that
    played it, reversed for an even pairing number (C.04.3: odd numbers get the initial colour), as
    bbpPairings infers it."""
    for sn, _, res in players:
        if res and res[0][1].strip("0") and res[0][2] in "wb":
            colour = "white" if res[0][2] == "w" else "black"
            return colour if sn % 2 == 1 else ("black" if colour == "white" else "white")
    return None


def _tc_ok(text: str) -> bool:
    try:
        TimeControl.parse(text)
    except TimeControlError:
        return False
    return True


def _read_player(no: int, line: str) -> tuple[int, Player, list[tuple[int, str, str, str]]]:
    try:
        sn = int(_field(line, 5, 8))
    except ValueError:
        raise TrfError(no, f"start number (columns 5-8) {_field(line, 5, 8)!r} is not a number") from None
    rating_text = _field(line, 49, 52)
    try:
        rating = int(rating_text) if rating_text else 0
    except ValueError:
        raise TrfError(no, f"rating (columns 49-52) {rating_text!r} is not a number") from None
    wrong = rating_problem(rating)
    if wrong:  # as the API's NewPlayer and Tournament.add_player refuse it
        raise TrfError(no, f"rating (columns 49-52): {wrong}")
    points_text = _field(line, 81, 84)
    if points_text:
        try:
            points: float | None = float(points_text.replace(",", "."))
        except ValueError:
            points = None
        wrong = f"{points_text!r} is not a number of points" if points is None else points_problem(points)
        if wrong:
            raise TrfError(no, f"points (columns 81-84): {wrong}")
    player = Player(sn, _field(line, 15, 47), rating, _field(line, 11, 13), _field(line, 54, 56),
                    _field(line, 58, 68), _field(line, 10, 10), _field(line, 70, 79))
    if not player.name:
        raise TrfError(no, "name (columns 15-47) is empty")
    problem = name_problem(player.name)
    if problem is not None:
        raise TrfError(no, f"name (columns 15-47) {player.name!r}: {problem}")
    results: list[tuple[int, str, str, str]] = []
    col = 92
    r = 1
    while len(line) >= col:
        block = line[col - 1:col + 7].ljust(8)
        opp_text, colour, res = block[0:4].strip(), block[5], block[7]
        if not opp_text and colour == " " and res == " ":
            results.append((r, "", " ", " "))
        else:
            results.append((r, opp_text, colour, res))
        col += 10
        r += 1
    while results and results[-1][1:] == ("", " ", " "):
        results.pop()
    for r, opp_text, colour, res in results:
        if opp_text and not opp_text.isdigit():
            raise TrfError(no, f"round {r} opponent (columns {92 + 10 * (r - 1)}-{95 + 10 * (r - 1)}): {opp_text!r} "
                               "is not a number")
        if colour not in "wb- ":
            raise TrfError(no, f"round {r} colour (column {97 + 10 * (r - 1)}): {colour!r} is not w, b or -")
        if res not in "10=+-WDLUFHZ ":
            raise TrfError(no, f"round {r} result (column {99 + 10 * (r - 1)}): {res!r} is not one of "
                               "1 0 = + - W D L U F H Z")
    return sn, player, results


_BYE_CODE: dict[str, ByeKind] = {"U": "pab", "F": "full", "H": "half", "Z": "zero", "-": "absent", "+": "pab",
                                 "1": "full", "=": "half", "0": "zero", " ": "absent"}


def _read_round(r: int, players: list[tuple[int, Player, list[tuple[int, str, str, str]]]], system: str,
                line_of: dict[int, int]) -> Round:
    seen: set[int] = set()
    boards: list[tuple[int, int, str, str]] = []
    byes: list[Bye] = []
    by_sn = {sn: res for sn, _, res in players}
    for sn, _, results in players:
        if r > len(results):
            byes.append(Bye(sn, "absent"))
            continue
        _, opp_text, colour, res = results[r - 1]
        opp = int(opp_text) if opp_text else 0
        if opp == 0:
            kind = _BYE_CODE[res]
            if kind == "zero" and system != "swiss":
                kind = "free"
            byes.append(Bye(sn, kind))
            continue
        if sn in seen:
            continue
        opp_field = f"round {r} opponent (columns {92 + 10 * (r - 1)}-{95 + 10 * (r - 1)})"
        if opp not in by_sn:
            raise TrfError(line_of[sn], f"{opp_field}: player {sn} meets {opp}, who has no player line (001)")
        if r > len(by_sn[opp]):
            raise TrfError(line_of[sn], f"{opp_field}: player {sn} meets {opp}, whose line "
                                        f"{line_of[opp]} has no round {r}")
        _, back_text, back_colour, back_res = by_sn[opp][r - 1]
        if not back_text or int(back_text) != sn:
            raise TrfError(line_of[sn], f"{opp_field}: player {sn} meets {opp}, but {opp} (line {line_of[opp]}) "
                                        f"meets {back_text or 'nobody'}")
        white, black = (sn, opp) if colour == "w" else (opp, sn)
        wres, bres = (res, back_res) if colour == "w" else (back_res, res)
        boards.append((white, black, wres, bres))
        _board_result(r, white, wres, bres, line_of)  # its error names the lines before the boards are sorted
        seen.update((sn, opp))
    out: list[Board] = []
    for i, (white, black, wres, bres) in enumerate(sorted(boards, key=lambda b: min(b[0], b[1])), 1):
        out.append(Board(i, white, black, _board_result(r, white, wres, bres, line_of)))
    return Round(r, tuple(out), tuple(byes))


def _board_result(r: int, white: int, wres: str, bres: str, line_of: dict[int, int]) -> BoardResult | None:
    w = {"W": "1", "D": "=", "L": "0"}.get(wres, wres)
    b = {"W": "1", "D": "=", "L": "0"}.get(bres, bres)
    table: dict[tuple[str, str], BoardResult | None] = {
        ("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2", ("0", "0"): "0-0",
        ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--", (" ", " "): None,
    }
    if (w, b) not in table:
        raise TrfError(line_of[white], f"round {r} result (column {99 + 10 * (r - 1)}): player {white} (White) "
                                       f"scored {wres!r} but the opponent {bres!r}")
    return table[(w, b)]


def tournament_summary(t: Tournament) -> dict[str, Any]:
    return {"name": t.name, "players": len(t.players), "rounds": len(t.rounds), "system": t.regulations.system}

"""Standings and tie-breaks by the FIDE Tie-Break Regulations (Handbook C.07, applied from 1 July 2023, or as
revised in 2026).

Unplayed rounds (C.07 Art. 16, 2023 wording):

- an unplayed round is a bye of any kind, a forfeit (won or lost), or a
  round sat out after a withdrawal;
- a voluntary unplayed round (VUR, 16.1) is a requested half- or zero-point
  bye, a forfeit loss, or a round sat out after a withdrawal; a full-point
  bye is not (FIDE TEC's checker: a bye that scores a win is not voluntary;
  a third-party reading of the text puts it in 16.2.1 with the PAB);
- in the opponents' tie-breaks a player's score counts what each round
  gave, except that requested byes followed only by voluntary unplayed
  rounds (a withdrawal, byes at the end) count as draws (16.3);
- a player's own unplayed round counts as a game against a dummy opponent
  whose score is the player's own final score (16.4);
- cuts remove the voluntary unplayed rounds first (16.5).

Points are the event's (its scoring system, e.g. 3-1-0): scores, adjusted
scores and the dummy's in Buchholz, and in Sonneborn-Berger each opponent's
score times the points the round gave (3 for a win, 1 for a draw in 3-1-0;
the PAB its own points), not times 1, 1/2 or 0. This is FIDE TEC's checker's
reading (gacrux ``compute_buchholz_sonneborn_berger``: ``score * sres`` with
``sres`` the round's points in the event's scoring).

Direct encounter (DE) ranks the tied players by the points they scored
against each other (the average when two met twice); when not all of them
met, a player ranks first only if no other could reach their score by
winning all their missing games; the rule is applied again within every
group it leaves tied. Its value is the number of tied players it puts
below the player (0 when it does not separate). In a Swiss only games
played over the board count; in a round robin forfeits count as played.
A round robin's free round (odd number of players) counts in none of the
tie-breaks: every player has one.

These are the 2023 rules. The 2026 amendment of Article 16.4 (approved by
the FIDE Council on 2 February 2026), chosen by ``Regulations.tiebreak_rules
= "2026"``, caps the dummy opponent's score in a Swiss: for a forfeit
(16.4.1) it is the lower of the player's own score and the scheduled
opponent's (adjusted) score; for any other unplayed round (16.4.2) the lower
of the player's own score and a draw in every round played so far. This is
how FIDE TEC's checker (gacrux, rules version 2: ``/V2``) applies it. The
revised C.07 is in force from 1 March 2026 (FIDE's reminder to organisers and
software developers; TEC's checker dates rules version 2 so), not 1 February.
The revision also introduces Standard Points (STD; its Art. 7.7 as a third-party
implementation that follows the text numbers it, chesspairing's C.07:2026 tests):
per round 1, 1/2 or 0 as the points the round gave are above, equal to or below
a draw's in the event's scoring, so that a 3-1-0 event's players can be told
apart on a 1-1/2-0 basis; unplayed rounds count what they gave (a forfeit win or
full bye 1, a half bye 1/2, a forfeit loss, zero bye or round sat out 0, the
PAB as its points compare with a draw's), without cuts. This is TEC's checker's
reading (gacrux ``compute_std``); the revised text itself could not be found.
STD is offered under ``tiebreak_rules = "2026"`` only: under 2023 it is refused.
Every value agrees with FIDE TEC's tie-break checker (TieBreakServer, rules
version 2024, and version 2 for the amendment) on the tests' worked examples
and simulated events.

ARO and TPR count rated opponents met over the board; with
``Regulations.unrated_rating`` an unrated opponent counts with that rating
(TEC's checker: ``-u RATING``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from chesslaws.tournament.model import TIEBREAKS, Tournament, tiebreak_refused
from chesslaws.tournament.records import REQUESTED_BYES, Entry, counted_entries, player_entries

#: Rating difference dp for a fractional score p (FIDE Rating Regulations, table 8.1.a), p from 0.50 up.
_DP = [0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175,
       184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444,
       470, 501, 538, 589, 677, 800]


def rating_difference(p: float) -> int:
    """dp for the fractional score ``p`` (0..1), rounded to the hundredth as the table reads it."""
    hundredths = int(round(p * 100 + 1e-9))
    if not 0 <= hundredths <= 100:
        raise ValueError(f"fractional score {p} out of 0..1")
    return _DP[hundredths - 50] if hundredths >= 50 else -_DP[50 - hundredths]


def _round_half_up(x: float) -> int:
    return int(x + 0.5 + 1e-9) if x >= 0 else -int(-x + 0.5 - 1e-9)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    start_number: int
    name: str
    rating: int
    points: float
    tiebreaks: tuple[tuple[str, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "start_number": self.start_number, "name": self.name, "rating": self.rating,
                "points": self.points, "tiebreaks": dict(self.tiebreaks)}


@dataclass(frozen=True, slots=True)
class _Contribution:
    opponent_score: float  # the (adjusted or dummy) score this round brings
    result: float  # the points the round gave, in the event's scoring (3, 1, 0 in 3-1-0)
    voluntary: bool

    @property
    def sb(self) -> float:
        return self.opponent_score * self.result


class _Calc:
    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.scoring = t.regulations.scoring
        self.entries = counted_entries(t)
        self.score = {sn: sum(e.points for e in es) for sn, es in self.entries.items()}
        self.adjusted = {sn: self._adjusted(es) for sn, es in self.entries.items()}
        unrated = t.regulations.unrated_rating or 0
        self.rating = {p.start_number: p.rating or unrated for p in t.players}
        self.amended = t.regulations.tiebreak_rules == "2026" and t.regulations.system == "swiss"
        self.rounds = max((e.round for es in self.entries.values() for e in es), default=0)

    def _adjusted(self, es: tuple[Entry, ...]) -> float:
        total = 0.0
        for i, e in enumerate(es):
            if e.kind in REQUESTED_BYES and all(later.voluntary for later in es[i + 1:]):
                total += self.scoring.draw
            else:
                total += e.points
        return total

    def contributions(self, sn: int) -> list[_Contribution]:
        out: list[_Contribution] = []
        for e in self.entries[sn]:
            if e.kind == "free":
                continue
            if e.played and e.opponent is not None:
                out.append(_Contribution(self.adjusted[e.opponent], e.points, False))
            else:
                out.append(_Contribution(self._dummy(sn, e), e.points, e.voluntary))
        return out

    def _dummy(self, sn: int, e: Entry) -> float:
        """The dummy opponent's score for an unplayed round: the player's own score (C.07 2023, 16.4), under
        the 2026 amendment no more than the scheduled opponent's for a forfeit (16.4.1), else no more than a
        draw in every round so far (16.4.2)."""
        own = self.score[sn]
        if not self.amended:
            return own
        if e.opponent is not None:
            return min(own, self.adjusted[e.opponent])
        return min(own, self.scoring.draw * self.rounds)

    # --- the tie-breaks --------------------------------------------------------------

    @staticmethod
    def _cut_sum(values: list[tuple[float, bool]], low: int, high: int) -> float:
        vur = sorted(v for v, vol in values if vol)
        rest = sorted(v for v, vol in values if not vol)
        kept = sorted((vur + rest)[low:])
        if high:
            kept = kept[:-high] if high < len(kept) else []
        return sum(kept)

    def buchholz(self, sn: int, low: int = 0, high: int = 0) -> float:
        return self._cut_sum([(c.opponent_score, c.voluntary) for c in self.contributions(sn)], low, high)

    def sonneborn_berger(self, sn: int, cuts: int = 0) -> float:
        kept = self.contributions(sn)
        for _ in range(cuts):
            if not kept:
                break
            least = min(kept, key=lambda c: (c.opponent_score, c.sb))
            cut = least
            vurs = [c for c in kept if c.voluntary]
            if vurs:
                lowest = min(vurs, key=lambda c: (c.sb, c.opponent_score))
                if lowest.sb >= least.sb:
                    cut = lowest
            kept.remove(cut)
        return sum(c.sb for c in kept)

    def wins(self, sn: int) -> float:
        return float(sum(1 for e in self.entries[sn] if e.kind != "free" and e.points >= self.scoring.win))

    def won(self, sn: int) -> float:
        return float(sum(1 for e in self.entries[sn] if e.kind == "win"))

    def black_played(self, sn: int) -> float:
        return float(sum(1 for e in self.entries[sn] if e.played and e.color == "b"))

    def black_won(self, sn: int) -> float:
        return float(sum(1 for e in self.entries[sn] if e.kind == "win" and e.color == "b"))

    def standard_points(self, sn: int) -> float:
        """Standard points (STD, C.07 2026; Art. 7.7 as numbered by a third-party reading of the text): per
        round 1, 1/2 or 0 as the points the round gave are above, equal to or below a draw's points in the
        event's scoring; so a 3-1-0 event's wins, draws and losses count 1, 1/2, 0. Unplayed rounds count what
        they gave: a forfeit win or full bye 1, a half bye 1/2, a forfeit loss, zero bye or round sat out after
        a withdrawal 0, the pairing-allocated bye as its points compare with a draw's (1 point in 3-1-0: 1/2).
        No cut applies. A round robin's free round counts in none of the tie-breaks."""
        draw = self.scoring.draw
        return sum(1.0 if e.points > draw else 0.5 if e.points == draw else 0.0
                   for e in self.entries[sn] if e.kind != "free")

    def progressive(self, sn: int) -> float:
        total, running = 0.0, 0.0
        for e in self.entries[sn]:
            running += e.points
            total += running
        return total

    def _rated_opponents(self, sn: int) -> list[int]:
        return [self.rating[e.opponent] for e in self.entries[sn]
                if e.played and e.opponent is not None and self.rating[e.opponent] > 0]

    def aro(self, sn: int) -> float:
        ratings = self._rated_opponents(sn)
        return float(_round_half_up(sum(ratings) / len(ratings))) if ratings else 0.0

    def tpr(self, sn: int) -> float:
        games = [e for e in self.entries[sn] if e.played and e.opponent is not None and self.rating[e.opponent] > 0]
        if not games:
            return 0.0
        p = sum(e.game_points for e in games) / len(games)
        return self.aro(sn) + rating_difference(p)

    def _de_order(self, group: list[int]) -> list[list[int]]:
        """The group split by direct encounter into tied subgroups, best first (C.07 2023, Art. 6)."""
        if len(group) < 2:
            return [group]
        members = set(group)
        predetermined = self.t.regulations.system != "swiss"  # a round robin counts its unplayed games as played
        score: dict[int, float] = {}
        met: dict[int, int] = {}
        for sn in group:
            per_opponent: dict[int, list[float]] = {}
            for e in self.entries[sn]:
                if e.opponent in members and (e.played or (predetermined and e.opponent is not None)):
                    per_opponent.setdefault(e.opponent, []).append(e.points)
            score[sn] = sum(sum(v) / len(v) for v in per_opponent.values())  # a pair that met twice: the average
            met[sn] = len(per_opponent)
        if all(met[sn] == len(group) - 1 for sn in group):
            levels = sorted({score[sn] for sn in group}, reverse=True)
            if len(levels) == 1:
                return [group]
            out: list[list[int]] = []
            for level in levels:
                out.extend(self._de_order(sorted(sn for sn in group if score[sn] == level)))
            return out
        # Not all met: a player ranks first only if no other could reach their score by winning every missing game.
        best = {sn: score[sn] + (len(group) - 1 - met[sn]) * self.scoring.win for sn in group}
        rest = sorted(group, key=lambda sn: (-score[sn], -best[sn], sn))
        ahead: list[list[int]] = []
        while len(rest) > 1 and score[rest[0]] > max(best[sn] for sn in rest[1:]):
            ahead.append([rest[0]])
            rest = rest[1:]
        if not ahead:
            return [group]
        return ahead + self._de_order(sorted(rest))

    def direct_encounter(self, group: list[int]) -> dict[int, float]:
        """Per player of a tied group: how many of the group direct encounter puts below them (0 when it does not separate)."""
        order = self._de_order(sorted(group))
        out: dict[int, float] = {}
        below = len(group)
        for sub in order:
            below -= len(sub)
            for sn in sub:
                out[sn] = float(below)
        return out

    def value(self, code: str) -> Callable[[int], float]:
        table: dict[str, Callable[[int], float]] = {
            "BH": lambda sn: self.buchholz(sn),
            "BH-C1": lambda sn: self.buchholz(sn, 1),
            "BH-C2": lambda sn: self.buchholz(sn, 2),
            "BH-M1": lambda sn: self.buchholz(sn, 1, 1),
            "SB": lambda sn: self.sonneborn_berger(sn),
            "SB-C1": lambda sn: self.sonneborn_berger(sn, 1),
            "WIN": self.wins, "WON": self.won, "BPG": self.black_played, "BWG": self.black_won,
            "PS": self.progressive, "ARO": self.aro, "TPR": self.tpr, "STD": self.standard_points,
        }
        return table[code]


def _check_codes(t: Tournament, codes: tuple[str, ...]) -> None:
    for code in codes:
        if code not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {code!r}")
        refused = tiebreak_refused(code, t.regulations.tiebreak_rules)
        if refused:
            raise ValueError(refused)


def tiebreak_values(t: Tournament, codes: tuple[str, ...] | None = None) -> dict[int, dict[str, float]]:
    """Each player's value for each (non-DE) tie-break code (by default every one the event's C.07 rules have)."""
    rules = t.regulations.tiebreak_rules
    codes = codes or tuple(c for c in TIEBREAKS if not tiebreak_refused(c, rules))
    _check_codes(t, codes)
    calc = _Calc(t)
    return {sn: {c: calc.value(c)(sn) for c in codes if c != "DE"} for sn in calc.entries}


def standings(t: Tournament, tiebreaks: tuple[str, ...] | None = None) -> list[Standing]:
    """The ranking: points, then the regulations' tie-breaks in order (DE among the players still tied)."""
    order = tiebreaks if tiebreaks is not None else t.regulations.tiebreaks
    _check_codes(t, order)
    calc = _Calc(t)
    values: dict[int, dict[str, float]] = {sn: {} for sn in calc.entries}
    for code in order:
        if code != "DE":
            f = calc.value(code)
            for sn in values:
                values[sn][code] = f(sn)
    # Resolve ties group by group, tie-break after tie-break.
    groups: list[list[int]] = []
    by_points: dict[float, list[int]] = {}
    for sn in sorted(values):
        by_points.setdefault(calc.score[sn], []).append(sn)
    groups = [by_points[k] for k in sorted(by_points, reverse=True)]
    for code in order:
        next_groups: list[list[int]] = []
        for g in groups:
            if code == "DE":
                de = calc.direct_encounter(g)
                for sn in g:
                    values[sn]["DE"] = de[sn]
            split: dict[float, list[int]] = {}
            for sn in g:
                split.setdefault(values[sn][code], []).append(sn)
            next_groups.extend(split[k] for k in sorted(split, reverse=True))
        groups = next_groups
    out: list[Standing] = []
    rank = 1
    for g in groups:
        for sn in sorted(g):
            p = t.player(sn)
            out.append(Standing(rank, sn, p.name, p.rating, calc.score[sn],
                                tuple((c, values[sn][c]) for c in order)))
        rank += len(g)
    return out


def crosstable(t: Tournament) -> list[list[str]]:
    """Rows of a Swiss-style crosstable: start number, name, rating, then per round 'opponent colour result', points."""
    entries = player_entries(t)
    counted = counted_entries(t)
    symbols = {"win": "1", "draw": "½", "loss": "0", "forfeit_win": "+", "forfeit_loss": "-", "pab": "U",
               "full": "F", "half": "H", "zero": "Z", "absent": "-", "free": " ", "pending": "*"}
    rows: list[list[str]] = []
    for p in t.players:
        cells = [str(p.start_number), p.name, str(p.rating or "")]
        for e in entries[p.start_number]:
            opp = f"{e.opponent}{e.color}" if e.opponent else "--"
            cells.append(f"{opp}{symbols[e.kind]}")
        cells.append(f"{sum(e.points for e in counted[p.start_number]):g}")
        rows.append(cells)
    return rows

"""Each player's record, round by round: the common ground of pairings, standings and TRF."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from chesslaws.tournament.model import Scoring, Tournament

Kind = Literal["win", "draw", "loss", "forfeit_win", "forfeit_loss", "pab", "full", "half", "zero", "absent",
               "free", "pending"]
#: C.07 2023 Art. 16: requested byes (half- or zero-point) and forfeit losses are voluntary unplayed rounds
#: (VUR); so is a round the player sat out after withdrawing. A full-point bye is not: FIDE TEC's checker counts
#: a bye that scores a win as not voluntary, and a third-party reading of the text puts it in 16.2.1 with the
#: pairing-allocated bye.
VOLUNTARY: frozenset[str] = frozenset({"forfeit_loss", "half", "zero", "absent"})
REQUESTED_BYES: frozenset[str] = frozenset({"half", "zero", "absent"})

_WHITE_KIND: dict[str, tuple[Kind, Kind]] = {
    "1-0": ("win", "loss"), "0-1": ("loss", "win"), "1/2-1/2": ("draw", "draw"), "0-0": ("loss", "loss"),
    "+-": ("forfeit_win", "forfeit_loss"), "-+": ("forfeit_loss", "forfeit_win"), "--": ("forfeit_loss", "forfeit_loss"),
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One round of one player."""

    round: int
    opponent: int | None
    color: Literal["w", "b"] | None
    kind: Kind
    points: float  # in the event's scoring system
    game_points: float  # 1, 1/2, 0: what the pairing rules count

    @property
    def played(self) -> bool:
        """Played over the board (C.07: forfeits and byes are unplayed rounds)."""
        return self.kind in ("win", "draw", "loss")

    @property
    def voluntary(self) -> bool:
        return self.kind in VOLUNTARY


def points_for(kind: Kind, scoring: Scoring) -> tuple[float, float]:
    """(points in the event's scoring, game points 1/0.5/0) of a round of this kind."""
    table: dict[str, tuple[float, float]] = {
        "win": (scoring.win, 1.0), "forfeit_win": (scoring.win, 1.0), "full": (scoring.win, 1.0),
        "draw": (scoring.draw, 0.5), "half": (scoring.draw, 0.5),
        "loss": (scoring.loss, 0.0), "forfeit_loss": (scoring.loss, 0.0), "zero": (scoring.loss, 0.0),
        "absent": (scoring.loss, 0.0), "free": (0.0, 0.0), "pending": (0.0, 0.0),
        "pab": (scoring.pab_points, 1.0 if scoring.pab_points >= scoring.win else
                0.5 if scoring.pab_points >= scoring.draw else 0.0),
    }
    return table[kind]


def player_entries(t: Tournament) -> dict[int, tuple[Entry, ...]]:
    """Every player's entries for the rounds paired so far (unfinished games are ``pending``)."""
    scoring = t.regulations.scoring
    out: dict[int, list[Entry]] = {p.start_number: [] for p in t.players}
    for rnd in t.rounds:
        seen: set[int] = set()
        for b in rnd.boards:
            if b.result is None:
                kinds: tuple[Kind, Kind] = ("pending", "pending")
            else:
                kinds = _WHITE_KIND[b.result]
            for sn, opp, color, kind in ((b.white, b.black, "w", kinds[0]), (b.black, b.white, "b", kinds[1])):
                pts, gp = points_for(kind, scoring)
                out[sn].append(Entry(rnd.number, opp, color, kind, pts, gp))  # type: ignore[arg-type]
                seen.add(sn)
        for bye in rnd.byes:
            pts, gp = points_for(bye.kind, scoring)
            out[bye.player].append(Entry(rnd.number, None, None, bye.kind, pts, gp))
            seen.add(bye.player)
        for sn in out:
            if sn not in seen:
                out[sn].append(Entry(rnd.number, None, None, "absent", scoring.loss, 0.0))
    return {sn: tuple(es) for sn, es in out.items()}


def counted_entries(t: Tournament) -> dict[int, tuple[Entry, ...]]:
    """The entries the standings count now: a game once it has its result, and a round without a game (a
    bye, a round sat out) once its round is played, that is when every board of it has its result. Until
    then a round in play gives its finished games' results and no bye: the player with the bye of round 1
    does not lead the standings before anyone of round 1 has finished."""
    played = {r.number for r in t.rounds if r.complete}
    return {sn: tuple(e for e in es if e.kind != "pending" and (e.opponent is not None or e.round in played))
            for sn, es in player_entries(t).items()}


def score(entries: tuple[Entry, ...], upto: int | None = None) -> float:
    return sum(e.points for e in entries if upto is None or e.round <= upto)


def game_score(entries: tuple[Entry, ...], upto: int | None = None) -> float:
    return sum(e.game_points for e in entries if upto is None or e.round <= upto)

"""The statistics of engine testing: the tally of a match (:class:`Tally`), its score and Elo difference with
a 95 % interval from the trinomial variance, and the GSPRT log-likelihood ratio (logistic Elo, trinomial) with
Wald's bounds (:class:`Sprt`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from chesslaws.errors import InvalidInput
from chesslaws.match.play import GameResult

__all__ = ["Sprt", "Tally", "elo_of"]


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test between Elo ``elo0`` (H0) and ``elo1`` (H1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0=0 elo1=5 alpha=0.05 beta=0.05`` (spaces or commas between)."""
        values: dict[str, float] = {}
        for part in text.replace(",", " ").split():
            key, sep, value = part.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise InvalidInput(f"--sprt: {part!r} is not one of elo0=, elo1=, alpha=, beta=")
            try:
                values[key] = float(value)
            except ValueError:
                raise InvalidInput(f"--sprt: {key} must be a number, not {value!r}") from None
        for key in ("elo0", "elo1"):
            if key not in values:
                raise InvalidInput(f"--sprt needs {key}= (e.g. --sprt 'elo0=0 elo1=5 alpha=0.05 beta=0.05')")
        sprt = cls(values["elo0"], values["elo1"], values.get("alpha", 0.05), values.get("beta", 0.05))
        if not (0 < sprt.alpha < 0.5 and 0 < sprt.beta < 0.5):
            raise InvalidInput("--sprt: alpha and beta must be between 0 and 0.5")
        if sprt.elo1 <= sprt.elo0:
            raise InvalidInput("--sprt: elo1 must be greater than elo0")
        return sprt

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds: (accept H0 at or below, accept H1 at or above)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The generalised log-likelihood ratio (trinomial, logistic Elo), the usual approximation."""
        if wins + draws + losses == 0:
            return 0.0
        # With an outcome never seen the variance is degenerate (0 after one game): regularise the
        # counts by half a game each, as long as one is zero (it vanishes as the match grows).
        w, d, l = (float(x) for x in (wins, draws, losses))
        if 0 in (wins, draws, losses):
            w, d, l = w + 0.5, d + 0.5, l + 0.5
        n = w + d + l
        s = (w + d / 2) / n
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
        s0, s1 = _expected(self.elo0), _expected(self.elo1)
        return (s1 - s0) * (2 * s - s0 - s1) / (2 * var / n)

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        llr = self.llr(wins, draws, losses)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def _expected(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


@dataclass(slots=True)
class Tally:
    """Wins, draws and losses of engine A (engine 1) against engine B."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    other: int = 0  # both lost (0-0) or annulled
    terminations: dict[str, int] = field(default_factory=dict)
    illegal: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    time_losses: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    incidents: int = 0
    #: Games lost on time by what caused them (:attr:`TimeLoss.cause`: engine, latency, harness).
    time_loss_causes: dict[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses + self.other

    @property
    def score(self) -> float:
        n = self.wins + self.draws + self.losses
        return (self.wins + self.draws / 2) / n if n else 0.5

    def elo(self) -> tuple[float, float]:
        """Elo difference of A over B and the half-width of its 95 % interval."""
        n = self.wins + self.draws + self.losses
        if n == 0:
            return 0.0, float("inf")
        s = self.score
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s ** 2) / n
        half = 1.959964 * math.sqrt(var / n)
        lo, hi = elo_of(s - half), elo_of(s + half)
        return elo_of(s), (hi - lo) / 2

    def add(self, r: GameResult) -> None:
        state = r.game.state
        a_color = "white" if r.white == "A" else "black"
        if state.result == "1/2-1/2":
            self.draws += 1
        elif state.result in ("1-0", "0-1"):
            if (state.result == "1-0") == (a_color == "white"):
                self.wins += 1
            else:
                self.losses += 1
        else:
            self.other += 1
        self.terminations[r.termination] = self.terminations.get(r.termination, 0) + 1
        for color, n in r.illegal.items():
            self.illegal["A" if color == a_color else "B"] += n
        if state.termination in ("time_forfeit", "both_flags_fallen") and state.outcome is not None:
            loser = {"1-0": "black", "0-1": "white"}.get(state.result)
            if loser is not None:
                self.time_losses["A" if loser == a_color else "B"] += 1
        self.incidents += bool(r.incidents)
        if r.time_loss is not None:
            cause = r.time_loss.cause
            self.time_loss_causes[cause] = self.time_loss_causes.get(cause, 0) + 1

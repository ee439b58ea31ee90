"""What the Laws leave to a claim or to the organisers, in an engine match: the claims made on an engine's
behalf (:func:`chesslaws.engine_claims.engine_claims`, as on the live server) and the arbiter's adjudications
of :class:`Adjudication` (a score both engines agree on, scores near zero, a move limit), each written in the
log as the claim or the decision (``decision`` with ``on: "adjudication"``) it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from chesslaws.engine_claims import engine_claims
from chesslaws.engines import BestMove
from chesslaws.game import Game, GameError
from chesslaws.timecontrol import Color

__all__ = ["Adjudication", "after_move", "apply_event", "engine_score"]


@dataclass(frozen=True, slots=True)
class Adjudication:
    """When the arbiter ends a game the Laws would let run on.

    ``claims``: claim a threefold repetition or the fifty moves on the
    engine's behalf as soon as it occurs (engines do not claim).
    ``resign_cp``/``resign_moves``: a side whose own score is at most
    ``-resign_cp`` for ``resign_moves`` of its moves in a row, while the
    opponent's is at least ``+resign_cp``, loses. ``draw_cp``/``draw_moves``/
    ``draw_after``: from move ``draw_after`` on, both scores within
    ``draw_cp`` for ``draw_moves`` moves each: a draw. ``max_moves``: a
    draw after that many moves.
    """

    claims: bool = True
    resign_cp: int | None = None
    resign_moves: int = 3
    draw_cp: int | None = None
    draw_moves: int = 8
    draw_after: int = 40
    max_moves: int | None = None


def engine_score(bm: BestMove | None) -> int | None:
    """The score an engine gave with its move, in centipawns for its side (a mate: 100,000), or None."""
    if bm is None:
        return None
    if bm.score_mate is not None:
        return 100_000 if bm.score_mate > 0 else -100_000
    return bm.score_cp


def apply_event(game: Game, event: Mapping[str, object]) -> Game:
    """Applies an event; if the game ended before it (a flag that fell first), the game at that instant."""
    try:
        return game.apply(event)
    except GameError:
        t = float(event["t"])  # type: ignore[arg-type]
        later = game.at(t)
        if later.state.ongoing:
            raise
        return later


def after_move(game: Game, mover: Color, t_ms: int, adj: Adjudication,
               last: Mapping[Color, list[int | None]]) -> Game:
    """After ``mover``'s move at ``t_ms``, still in play: the first claim the engine to move makes
    (:func:`~chesslaws.engine_claims.engine_claims`; its draw claims only with ``adj.claims``), else the arbiter's
    adjudication, else the game as it is."""
    s = game.state
    t = t_ms / 1000
    opp: Color = s.turn
    claims = engine_claims(s, opp, t_ms, draws=adj.claims)
    if claims:
        return apply_event(game, {**claims[0], "t": t, "by": opp})
    moves_made = len(s.moves) // 2
    if adj.max_moves is not None and moves_made >= adj.max_moves and s.turn == "white":
        return apply_event(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": "draw",
                                   "reason": f"move limit: {adj.max_moves} moves played"})
    if adj.resign_cp is not None:
        mine = last[mover][-adj.resign_moves:]
        theirs = last[opp][-1:] if last[opp] else []
        if len(mine) == adj.resign_moves and theirs and all(v is not None for v in mine + theirs):
            if all(v <= -adj.resign_cp for v in mine) and theirs[0] >= adj.resign_cp:  # type: ignore[operator]
                ruling = "white_wins" if opp == "white" else "black_wins"
                return apply_event(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": ruling,
                                           "reason": f"both engines agree: {adj.resign_cp} centipawns or more for "
                                                     f"{adj.resign_moves} moves"})
            if all(v >= adj.resign_cp for v in mine) and theirs[0] <= -adj.resign_cp:  # type: ignore[operator]
                ruling = "white_wins" if mover == "white" else "black_wins"
                return apply_event(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": ruling,
                                           "reason": f"both engines agree: {adj.resign_cp} centipawns or more for "
                                                     f"{adj.resign_moves} moves"})
    if adj.draw_cp is not None and moves_made >= adj.draw_after:
        w = last["white"][-adj.draw_moves:]
        b = last["black"][-adj.draw_moves:]
        if len(w) == len(b) == adj.draw_moves and all(v is not None and abs(v) <= adj.draw_cp for v in w + b):
            return apply_event(game, {"type": "decision", "t": t, "on": "adjudication", "ruling": "draw",
                                       "reason": f"both scores within {adj.draw_cp} centipawns for {adj.draw_moves} "
                                                 f"moves after move {adj.draw_after}"})
    return game

"""What an engine claims: the claims a player makes that an engine, which only answers with moves, cannot
make itself.

An engine in a match (:mod:`chesslaws.match`) and an engine holding a seat on the live server
(:mod:`chesslaws.server.engines`) claim through :func:`engine_claims` alone, so that an engine claims the same
wherever it plays: the opponent's illegal move where it stands until claimed, the opponent's touch-move
violation, the opponent's flag where flag falls count only on a claim, a threefold repetition and the fifty
moves. When to ask (after each move in a match; when its turn comes, or at the opponent's flag, on the
server) is the caller's.
"""

from __future__ import annotations

from typing import Mapping

from chesslaws.game import GameState, other
from chesslaws.timecontrol import Color

#: A claim: its event's ``type`` and fields, without the instant and the claimant (``t``, ``by``), which the
#: caller gives (the server stamps ``t`` itself).
Claim = Mapping[str, str]

ILLEGAL_MOVE: Claim = {"type": "claim_win", "reason": "illegal_move"}
TOUCH_MOVE: Claim = {"type": "claim_touch_move"}
FLAG: Claim = {"type": "claim_flag"}
THREEFOLD: Claim = {"type": "claim_draw", "reason": "threefold"}
FIFTY: Claim = {"type": "claim_draw", "reason": "fifty"}


def engine_claims(state: GameState, by: Color, t_ms: int, *, draws: bool = True) -> tuple[Claim, ...]:
    """The claims the engine playing ``by`` makes in ``state`` at ``t_ms`` (milliseconds since the start), in
    the order it makes them (the first that the arbiter accepts ends what it has to claim):

    - when it has the move: the opponent's illegal move that stands until claimed (1997 blitz without an
      arbiter), for the win; the opponent's move that broke the touch-move rule (Article 4);
    - the opponent's flag, fallen by ``t_ms`` where no arbiter sees flag falls (they count only on a claim);
    - when it has the move and ``draws``: a threefold repetition, then the fifty moves (Article 9.2, 9.3).
    """
    if not state.ongoing:
        return ()
    mine = state.turn == by
    out: list[Claim] = []
    if mine and state.illegal_pending is not None:
        out.append(ILLEGAL_MOVE)
    if mine and state.touch_violation is not None:
        out.append(TOUCH_MOVE)
    if not state.config.flags_observed:
        flag = state.clock.flag_time(other(by))
        if flag is not None and flag <= t_ms:
            out.append(FLAG)
    if mine and draws:
        if state.repetitions() >= 3:
            out.append(THREEFOLD)
        if state.position.halfmove_clock >= 2 * state.config.fifty_move_limit:
            out.append(FIFTY)
    return tuple(out)


__all__ = ["FIFTY", "FLAG", "ILLEGAL_MOVE", "THREEFOLD", "TOUCH_MOVE", "Claim", "engine_claims"]

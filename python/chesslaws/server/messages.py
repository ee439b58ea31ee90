"""What people are told when the arbiter refuses an event.

The game layer's :class:`~chesslaws.game.state.GameError` names the event and its instant for logs and
tools ("move at t=51.639: the clocks are stopped (interruption); ..."); a person at the board needs what
happened and what to do, without the server's ``t``: "Your move was not played: the clocks are stopped
(interruption); the arbiter must restart them."
"""

from __future__ import annotations

import re

from chesslaws.errors import WrongState
from chesslaws.game.state import GameError

#: What did not happen, by the refused event's type.
NOT_DONE: dict[str, str] = {
    "move": "Your move was not played",
    "touch": "The touched piece was not recorded",
    "press_clock": "The clock was not pressed",
    "offer_draw": "The draw offer was not made",
    "accept_draw": "The draw was not agreed",
    "decline_draw": "The draw offer was not declined",
    "claim_draw": "The draw claim was not recorded",
    "claim_flag": "The flag claim was not recorded",
    "claim_win": "The claim was not recorded",
    "claim_setup": "The claim was not recorded",
    "claim_touch_move": "The touch-move claim was not recorded",
    "resign": "The resignation was not recorded",
    "arrive": "Your arrival was not recorded",
    "seal": "The move was not sealed",
    "resume": "The game was not resumed",
    "envelope_lost": "The lost envelope was not recorded",
    "stop_clocks": "The clocks were not stopped",
    "start_clocks": "The clocks were not started",
    "set_clocks": "The clocks were not set",
    "adjust": "The position was not corrected",
    "penalty": "The penalty was not given",
    "conduct": "The ruling was not recorded",
    "decision": "The decision was not recorded",
    "refuse_to_comply": "The ruling was not recorded",
    "reinstate": "The position was not reinstated",
    "request_increment": "The request was not recorded",
    "annul": "The game was not annulled",
    "observe": "The observation was not recorded",
}

_INSTANT = re.compile(r"\s*\bat t=-?[0-9]+(?:\.[0-9]+)?")


def for_people(err: WrongState) -> str:
    """The refusal as a person reads it: what was not done, why, and no ``t=``."""
    if isinstance(err, GameError) and err.event is not None:
        what = NOT_DONE.get(err.event.type, "This was not recorded")
        reason = _INSTANT.sub("", err.reason).strip().rstrip(".")
        return f"{what}: {reason}."
    return _INSTANT.sub("", str(err))


__all__ = ["NOT_DONE", "for_people"]

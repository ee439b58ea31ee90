"""The grounds of a quickplay-finish claim (``claim_draw`` with ``reason``
``"quickplay"``): ``grounds``, what the claimant says (his opponent cannot
win by normal means, has been making no effort to win by normal means, or
both), and ``final_position``, the final position he wrote down. The
decision stays the arbiter's (``decision``, :mod:`chesslaws.game.draws`);
these rulings record what was claimed and whether the written position is
the one on the board, which the opponent verifies where no arbiter is present.

Articles, by edition (1989 has no quickplay-finish claim):

- 1997: 10.2 (with an arbiter: no effort to win, or not possible to win, by
  normal means), D.1 (no arbiter in the venue: the claim concludes the game;
  on either ground the claimant writes down the final position, which the
  opponent verifies; for no effort he also submits an up-to-date scoresheet).
- 2023: III.5 (the claim on the basis that the opponent cannot win by normal
  means and/or has been making no effort to), III.6.1, III.6.1.1, III.6.1.2
  (a competition not supervised by an arbiter: the final position written
  down and verified, the scoresheet submitted for no effort), III.6.2.
"""

from __future__ import annotations

from chesslaws.events import Event
from chesslaws.game.state import NAME, _Builder, other
from chesslaws.timecontrol import Color

GROUNDS = {
    "cannot_win": "his opponent cannot win by normal means",
    "no_effort": "his opponent has been making no effort to win by normal means",
    "both": "his opponent cannot win by normal means and has been making no effort to",
}


def _note_grounds(b: _Builder, ev: Event, by: Color) -> None:
    """After a quickplay-finish claim is admitted: the grounds and the written final position."""
    grounds = ev.get("grounds")
    written = ev.get("final_position")
    if grounds is None and written is None:
        return  # a claim written before these fields: only the decision says anything
    s = b.s
    absent = not s.config.arbiter_present
    rule = "quickplay_grounds_absent" if absent else "quickplay_grounds"
    opp = other(by)
    text = f"{NAME[by]} claims on the basis that {GROUNDS[str(grounds)]}." if grounds is not None else \
        f"{NAME[by]} states no basis for his claim."
    if written is not None:
        board = s.position.fen().split()[0]
        theirs = str(written).strip().split()[0] if str(written).strip() else ""
        if theirs == board:
            text += f" The final position he wrote down is the one on the board: {NAME[opp]} verifies it."
        else:
            text += (f" The final position he wrote down ({theirs or 'nothing'}) is not the one on the board "
                     f"({board}): {NAME[opp]} cannot verify it.")
    elif absent:
        text += " With no arbiter present he must write down the final position for his opponent to verify."
    if absent and grounds in ("no_effort", "both"):
        text += " On the ground of no effort he must also submit an up-to-date scoresheet."
    b.rule(ev.t_ms, rule, text + " The claim goes to the arbiter.")

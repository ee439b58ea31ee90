"""Claims the arbiter rules on beyond the correct ones: a claim that a legal move was illegal (``claim_win``
naming the ``move``), a claim relying only on what a screen, a demonstration board or a clock's move
counter shows (``relying_on``: ``"display"``), and a claim made during an adjournment about the session
that ended, before the envelope is opened.

Articles, by edition:

- 1989: 8.1 (an illegal move is corrected in every session of play: so while the game is adjourned),
  10.14 and 12.2 (a flag that had fallen before the clocks were stopped), 10.10, 10.12 (repetition and
  fifty moves, by the player having the move: the sealer), 15.1(d) (a groundless claim annoys the
  opponent).
- 1997: 6.8, 6.9 (the flag), 6.14 (no claim based on a screen or a demonstration board), 7.4 (an
  illegal move found during the game, the adjournment included), 9.2, 9.3 (claims by the player having
  the move), 12.5 (distracting or annoying the opponent), A.7 (the envelope opened only with the replier).
- 2023: 6.8, 6.9, 6.12.2 (no claim relying only on a screen, a demonstration board or a clock's move
  counter), 7.5.1 (an illegal move found during the game), 9.2, 9.3, 11.5 (unreasonable claims distract
  the opponent; the penalty is the arbiter's, 12.9), I.7 (the envelope opened only with the replier).
"""

from __future__ import annotations

from chesslaws.errors import ChessLawsError
from chesslaws.events import Event, EventError
from chesslaws.game.draws import _on_claim_draw
from chesslaws.game.flags import _on_claim_flag
from chesslaws.game.irregularities import _on_claim_win
from chesslaws.game.moving import _on_claim_touch_move
from chesslaws.game.state import NAME, GameError, GameState, _Builder, other
from chesslaws.history import MoveRecord, Moves
from chesslaws.position import Position
from chesslaws.timecontrol import Color

#: The claims a player may make while the game is adjourned, about the session that ended.
ADJOURNED_CLAIMS = frozenset({"claim_flag", "claim_win", "claim_draw", "claim_touch_move"})


def _relies_on_display(b: _Builder, ev: Event) -> bool:
    """A claim that relies only on a display (2023 6.12.2, 1997 6.14): not admitted, nothing else happens.
    The 1989 Laws know no such displays: the claim is examined as any other. True when ruled here."""
    if ev.get("relying_on") != "display":
        return False
    by: Color = ev.by  # type: ignore[assignment]
    if "display_claim" not in b.s.edition.articles:
        b.rule(ev.t_ms, "rules_of_play", f"{NAME[by]}'s claim relies on what a display shows; the 1989 Laws have "
               "no rule on displays, and the claim is examined on the game itself.")
        return False
    b.rule(ev.t_ms, "display_claim", f"{NAME[by]}'s claim relies only on what a screen, a demonstration board or "
           "a clock's move counter shows: a player may not make a claim on that alone. It is not admitted; the "
           "game continues.")
    return True


def _legal_move_claimed(b: _Builder, ev: Event) -> bool:
    """``claim_win`` naming the opponent's last ``move`` as illegal, when that move was legal: the claim is
    rejected and the game continues; an unreasonable claim distracts the opponent (2023 11.5, 1997 12.5,
    1989 15.1(d)), which the arbiter may penalise (his ``conduct``). A named move that stands illegal, or
    an act penalised as one (2023 7.5.3, 7.5.4) that the arbiter did not see, goes to the claim's usual
    ruling. True when ruled here."""
    named = ev.get("move")
    if named is None:
        return False
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    offender = other(by)
    last = next((m for m in reversed(s.moves) if m.color == offender), None)
    if last is None:
        raise EventError(f"field 'move': {NAME[offender]} has made no move", field="move")
    if not _names(s.moves, last, str(named), s.config.initial_position()):
        raise EventError(f"field 'move': {NAME[offender]}'s last move is {last.san}, not {named}", field="move")
    if last.illegal or any(a.by == offender and not a.answered for a in s.unseen):
        return False
    number = f"{(len(s.moves) - 1) // 2 + 1}{'.' if last.color == 'white' else '...'}"
    b.rule(ev.t_ms, "annoyance", f"{NAME[by]} claims that {NAME[offender]}'s move {number} {last.san} was illegal; "
           "it was legal: the claim is rejected and the game continues. An unreasonable claim distracts the "
           "opponent, which the arbiter may penalise.")
    return True


def _names(moves: Moves, last: MoveRecord, text: str, start: Position) -> bool:
    """Does ``text`` name the move ``last`` (its SAN, its coordinates, or a move read in the position before
    it that is the same move)?"""
    clean = text.strip().rstrip("+#!?")
    if clean in (last.san.rstrip("+#"), last.uci):
        return True
    position = start
    for m in moves:
        if m is last:
            try:
                return position.parse_move(clean) == last.uci
            except ChessLawsError:
                return False
        position = position.play_illegal(m.uci) if m.illegal else position.play(m.uci)
    return False


def _on_adjourned_claim(b: _Builder, ev: Event) -> None:
    """A claim made while the game is adjourned, about the session that ended, before the envelope is
    opened (1989 14.2, 1997 A.7, 2023 I.7: opened only when the replier is present). Each is ruled as it
    would have been when the clocks were stopped: a flag that had fallen by then (the clocks show it); an
    illegal move that stood when the sealer sealed, claimed by him (1989 8.1: in every session; 1997 7.4,
    2023 7.5.1: during the game): the position before it is reinstated, the envelope, whose move answered a
    position that no longer stands, is set aside, and at the resumption the player who made the illegal
    move makes his move on the board; a repetition or fifty-move claim by the sealer, who has the move, on
    the position before the sealed move (the sealed move stays sealed: no move is written with it). The
    game stays adjourned unless the claim ends it."""
    s = b.s
    t = ev.t_ms
    env = s.envelope
    if env is None or env.reply:
        raise GameError(ev, "the game is adjourned without a sealed move to answer for")
    if ev.type == "claim_touch_move":
        _on_sealed_touch_claim(b, ev)
        return
    if ev.type == "claim_flag":
        _on_claim_flag(b, ev)  # ruled as when the clocks were stopped (flags._claim_flag_at_seal)
        return
    if ev.type == "claim_draw":
        if ev.get("move") is not None:
            raise EventError("field 'move': during the adjournment the sealer's written move is the sealed one, "
                             "which stays in the envelope until his opponent is present", field="move")
        if ev.get("reason") == "quickplay":
            raise GameError(ev, "a quickplay-finish claim needs the clocks running: it is made in the session")
        _on_claim_draw(b, ev)
        _keep_adjourned(b, t)
        return
    if s.illegal_pending is None or ev.by != s.turn:
        raise GameError(ev, f"there is no illegal move by {NAME[other(s.turn)]} that stood when "
                        f"{NAME[s.turn]} sealed for him to claim")
    _on_sealed_illegal_claim(b, ev)


def sealed_unopened(s: GameState) -> bool:
    """Whether a sealed move waits in its envelope for the replier: the game adjourned, or resumed before he is
    there to open it (his clock running meanwhile: 1997 A.9(b), 2023 I.9.2, 1989 14.3)."""
    return s.envelope is not None and not s.envelope.reply


def _on_unopened_claim(b: _Builder, ev: Event) -> bool:
    """A claim at the resumption before the envelope is opened (the replier not yet there), about the session
    that ended, ruled as during the adjournment: the sealer's claim of his opponent's illegal move that stood
    when he sealed (the envelope, whose move answered a position that no longer stands, is set aside), and no
    written move with the sealer's draw claim (his move is the sealed one). True when ruled here; other
    claims (a flag, a draw claim without a move) are ruled as in play, on the clocks that run."""
    s = b.s
    if ev.type == "claim_draw" and ev.get("move") is not None and ev.by == s.turn:
        raise EventError("field 'move': before the envelope is opened the sealer's written move is the sealed one, "
                         "which stays in the envelope until his opponent is present", field="move")
    if ev.type == "claim_win" and s.illegal_pending is not None and ev.by == s.turn:
        _on_sealed_illegal_claim(b, ev)
        return True
    return False


def _on_sealed_illegal_claim(b: _Builder, ev: Event) -> None:
    """The sealer's claim of the illegal move that stood when he sealed, while his sealed move waits in its
    envelope (1989 8.1: corrected in every session; 1997 7.4, 2023 7.5.1: during the game): the position before
    it is reinstated and the envelope set aside unopened; the offender makes his move on the board."""
    t = ev.t_ms
    _on_claim_win(b, ev)
    status = b.get("status")
    if status not in ("adjourned", "ongoing"):
        return  # the claim ended the game (a blitz game's illegal move)
    _keep_adjourned(b, t)
    offender = b.get("position").turn
    b.set(envelope=None)
    if status == "adjourned":
        b.rule(t, "adjourned_claim", f"The claim is made during the adjournment: the sealed move answered a "
               f"position that no longer stands, so the envelope is set aside unopened; at the resumption "
               f"{NAME[offender]} makes his move on the board.")
    else:
        b.rule(t, "adjourned_claim", f"The claim is made before the envelope is opened: the sealed move answered a "
               f"position that no longer stands, so the envelope is set aside unopened; {NAME[offender]} makes his "
               "move on the board.")


def _on_sealed_touch_claim(b: _Builder, ev: Event) -> None:
    """A touch-move claim while a sealed move waits in its envelope: during the adjournment, or at the
    resumption before the replier is there to open it.

    The sealer claims against his opponent's last move: he wrote his move and touched no piece, so his right
    stands (1997 4.6, 2023 4.8, 1989 Article 7: it is lost by touching a piece) and the claim is ruled as in
    play (1997 4.3, 2023 4.3): upheld, the move is taken back, the envelope, whose move answered a position
    that no longer stands, is set aside unopened, and the offender makes his move on the board, bound by the
    piece he touched; otherwise rejected. The game stays adjourned until the arbiter resumes it.

    The replier's claim could only be against the sealed move, which stays in its envelope until he is
    present (1997 A.7, 2023 I.7, 1989 14.2): refused; he claims once it is opened and played, before he
    touches a piece (the sealed move is the sealer's move and must obey the pieces he touched)."""
    s = b.s
    t = ev.t_ms
    env = s.envelope
    by: Color = ev.by  # type: ignore[assignment]
    if env is None:
        raise GameError(ev, "no sealed move waits in its envelope")
    ed = s.edition
    if by != env.sealer:
        raise GameError(ev, f"{NAME[by]}'s claim could only be against {NAME[env.sealer]}'s sealed move, which stays "
                        f"in the envelope until {NAME[by]} is present at the resumption (Article "
                        f"{ed.article('envelope_opened')}): he claims once it is played, before he touches a piece "
                        f"(Article {ed.article('touch_claim_right')})")
    upheld = s.touch_violation is not None and s.turn == by
    _on_claim_touch_move(b, ev)
    if not upheld:
        return
    _keep_adjourned(b, t)
    offender = other(by)
    b.set(envelope=None)
    b.rule(t, "touch_move", f"The claim is made before the envelope is opened: {NAME[by]}'s sealed move answered a "
           f"position that no longer stands, so the envelope is set aside unopened; {NAME[offender]} makes his move "
           f"on the board{' at the resumption' if b.get('status') == 'adjourned' else ''}, bound by the piece he "
           "touched.")


def _keep_adjourned(b: _Builder, t: int) -> None:
    """The clocks stay stopped while the game is adjourned (a claim's ruling may have set them running)."""
    clock = b.get("clock")
    if b.get("status") == "adjourned" and clock.running is not None:
        b.set(clock=clock.stop(t))


__all__ = ["ADJOURNED_CLAIMS", "sealed_unopened"]

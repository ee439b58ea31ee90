"""The completion of the game: the automatic ends after a move, resignation,
and whether a player can still win (mate, mating material).

Articles, by edition:

- 1989: 10.1 (checkmate), 10.2 (resignation), 10.3 (stalemate), 10.4 (the drawn
  endings: :func:`_article_10_4`), 10.5 (a bare king cannot win:
  :func:`_cannot_win`).
- 1997: 1.2, 1.3, 5.1 (checkmate; resignation), 5.2 (stalemate), 9.6 (dead
  position), 6.9 (the opponent cannot mate: :func:`_cannot_win`), C.4 (mating
  potential in blitz, of every win: :func:`chesslaws.game.state.mating_potential`,
  applied by :meth:`chesslaws.game.state._Builder.end`).
- 2023: 1.1, 1.2, 1.3, 1.4, 1.5, 5.1.1 (checkmate), 5.1.2 (resignation; a draw
  when the opponent cannot mate), 5.2.1 (stalemate), 5.2.2 (dead position), 6.9
  (the opponent cannot mate), 4.8 and 5.1.1, 5.2.1, 5.2.2 (an end produced by a move that broke
  Article 4 waits for the opponent's claim: :func:`_end_or_hold`), 9.6.1, 9.6.2 (fivefold repetition, 75 moves), A.5.4
  (an illegal position still on the board after the next move:
  :func:`_illegal_position_stays`).
"""

from __future__ import annotations

from chesslaws.editions import Edition
from chesslaws.events import Event
from chesslaws.history import Keys
from chesslaws.game.state import NAME, HeldEnd, Outcome, _bare_king, _Builder, draw, other, win_for
from chesslaws.dead import returns_to
from chesslaws.mating import DeadVerdict, can_mate, is_dead
from chesslaws.position import Position
from chesslaws.timecontrol import Color


def _cannot_win(edition: Edition, position: Position, winner: Color) -> tuple[bool, str, str]:
    """Would ``winner`` be denied the win because he cannot mate, by this
    edition's rule (1989 10.5: a bare king; 1997 and 2023 6.9: no series of
    legal moves mates)? Returns (denied, the words after his name for a
    drawn ruling, the proof to quote when he wins)."""
    if edition.flag_draw == "bare_king":
        return _bare_king(position, winner), " has only the king left", ""
    verdict = can_mate(position, winner)
    return (verdict.can_mate is False,
            f"{verdict.clause} cannot checkmate by any series of legal moves{verdict.proof}", verdict.proof)


def _far_rank_pawn(pos: Position) -> str | None:
    """The square of a pawn on the rank furthest from its starting position, if any."""
    for sq, p in pos.pieces():
        if (p == "P" and sq[1] == "8") or (p == "p" and sq[1] == "1"):
            return sq
    return None


def _illegal_position_stays(b: _Builder, t_ms: int, seen: Position, now: Position, san: str) -> bool:
    """2023 A.5.4 (rapid, and blitz by B.3, where an arbiter watches several games): the arbiter who
    observes both kings in check, or a pawn on the rank furthest from its starting position, waits
    until the next move is completed; if an illegal position is still on the board, the game is
    drawn. ``seen`` is the position an illegal move that stood left, ``now`` the one after the next
    move. True when the game ended."""
    s = b.s
    cfg = s.config
    if not cfg.partially_supervised or not cfg.arbiter_present or not (cfg.observes_all or s.observed):
        return False  # no arbiter, or one who did not observe it (``observe``)
    pawn = _far_rank_pawn(seen)
    both_in_check = seen.is_check() and seen.is_irregular()  # the side that moved left its king in check too
    if pawn is None and not both_in_check:
        return False
    if not now.is_irregular():
        return False
    still = _far_rank_pawn(now)
    what = (f"a pawn still stands on {still}, the rank furthest from its starting position" if still
            else "the position on the board is still illegal")
    seen_what = f"a pawn on {pawn}" if pawn else "both kings in check"
    b.end(t_ms, draw("illegal_moves"), "illegal_position",
          f"The arbiter observed {seen_what} and waited until the next move was completed: after {san} "
          f"{what}, so the game is drawn.")
    return True


def _end_checks_after_move(b: _Builder, t_ms: int, mover: Color, san: str, uci: str | None = None,
                           breach: bool = False) -> bool:
    """Automatic ends after a move (``uci``: the move, when one was made); True when the game ended.
    ``breach``: the move broke Article 4 (touch-move, a piece released), which holds a checkmate, a
    stalemate or a dead position where the edition makes their end depend on it (:func:`_end_or_hold`)."""
    s = b.s
    ed = s.edition
    pos: Position = b.get("position")
    keys: Keys = b.get("keys")
    hold = breach and ed.end_needs_article_4
    if pos.is_checkmate():
        if _end_or_hold(b, t_ms, mover, hold, win_for(mover, "checkmate"), "checkmate",
                        f"{NAME[mover]} checkmates with {san}; the game ends.", "checkmate"):
            return True
    elif pos.is_stalemate():
        if _end_or_hold(b, t_ms, mover, hold, draw("stalemate"), "stalemate",
                        f"{NAME[other(mover)]} has no legal move and is not in check: stalemate, the game is drawn.",
                        "stalemate"):
            return True
    elif ed.insufficient_material_list and (ending := _article_10_4(pos)) is not None:
        b.end(t_ms, draw("insufficient_material"), "insufficient_material", f"{ending}: the game is drawn.")
        return True
    elif ed.dead_position:
        # The search is needed only where it can matter: a position that the last check found alive,
        # left by a quiet move that can be undone, is alive too (dead.returns_to).
        before = b.s.position
        if not (uci is not None and b.s.alive is before and returns_to(before, pos, uci)):
            dead = is_dead(pos)
        else:
            dead = DeadVerdict(False, "")
        b.set(alive=None if dead.dead else pos)
        if dead.dead and _end_or_hold(
            b, t_ms, mover, hold, draw("dead_position"), "dead_position",
            f"After {san} no series of legal moves can lead to checkmate ({dead.reason}): the game is drawn.",
            "a dead position",
        ):
            return True
    if ed.fivefold_repetition and keys.count(keys[-1]) >= 5:
        b.end(
            t_ms,
            draw("fivefold_repetition"),
            "fivefold",
            f"After {san} the same position has appeared for the fifth time: the game is drawn.",
        )
        return True
    if ed.seventyfive_moves and pos.halfmove_clock >= 150:
        b.end(
            t_ms,
            draw("seventyfive_moves"),
            "seventyfive",
            f"After {san} each player has made 75 moves without a pawn move or a capture: the game is drawn.",
        )
        return True
    return False


def _end_or_hold(b: _Builder, t_ms: int, mover: Color, hold: bool, outcome: Outcome, rule: str, text: str,
                 what: str) -> bool:
    """The game ends with ``outcome`` (True); or, ``hold``, the move that produced ``what`` broke Article
    4 and the end waits (False): under 2023 5.1.1, 5.2.1 and 5.2.2 it ends the game only "provided that
    the move producing" it "was in accordance with Article 3 and Articles 4.2-4.7". The opponent may
    claim the breach (the move is then taken back and the obligation enforced, 4.8); once he has lost
    that right by touching a piece, the end stands (:func:`held_end_stands`)."""
    if not hold:
        b.end(t_ms, outcome, rule, text)
        return True
    opp = NAME[other(mover)]
    b.set(held_end=HeldEnd(outcome, rule, text, mover))
    b.rule(t_ms, rule, f"{NAME[mover]}'s move leaves {what} on the board, but the move did not keep Article 4 (a piece "
           "touched or released): "
           f"the game ends only if the move producing it was made in accordance with Articles 4.2-4.7. {opp} "
           f"may claim the breach; if he touches a piece instead, he loses that right and {what} ends the game.")
    return False


def held_end_stands(b: _Builder, t_ms: int, by: Color, act: str) -> None:
    """The opponent of a move that broke Article 4 and produced a checkmate, a stalemate or a dead
    position (held: :func:`_end_or_hold`) touches a piece without claiming (``act``: what he did): he
    forfeits the right to claim (2023 4.8), and the end the move produced ends the game now."""
    held = b.s.held_end
    assert held is not None
    b.set(touch_violation=None)
    b.rule(t_ms, "claim_touch_move_lost", f"{NAME[by]} {act} without claiming {NAME[held.by]}'s breach of Article "
           "4: he has lost the right to claim it, and the position the move produced stands.")
    b.end(t_ms, held.outcome, held.rule, held.text)


def _article_10_4(pos: Position) -> str | None:
    material = pos.material()
    others = {k: v for k, v in material.items() if k not in ("K", "k")}
    if not others:
        return "King against king (Article 10.4(a))"
    if sum(others.values()) == 1 and set(others) <= {"B", "b", "N", "n"}:
        piece = "bishop" if set(others) <= {"B", "b"} else "knight"
        return f"King against king and {piece} (Article 10.4(b))"
    if others == {"B": 1, "b": 1}:
        w = pos.bishop_square_colors("white")
        k = pos.bishop_square_colors("black")
        if w == k:
            return f"King and bishop against king and bishop, both bishops on {w[0]} squares (Article 10.4(c))"
    return None


def _on_resign(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    opp = other(by)
    if s.edition.resign_draw_when_opponent_cannot_mate:
        verdict = can_mate(s.position, opp)
        if verdict.can_mate is False:
            b.end(ev.t_ms, draw("resignation"), "resignation",
                  f"{NAME[by]} resigns, but {NAME[opp]}{verdict.clause} cannot checkmate by any series of "
                  f"legal moves{verdict.proof}: the game is drawn.")
            return
    b.end(ev.t_ms, win_for(opp, "resignation"), "resignation", f"{NAME[by]} resigns: {NAME[opp]} wins.")

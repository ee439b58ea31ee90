"""The act of moving and touch-move: touching and adjusting pieces, what a
touched piece obliges, the move event itself, and the claim of a touch-move
breach; moves announced to a visually disabled player.

Articles, by edition:

- 1989: 3 (the right to move), 7 (touch-move, castling included).
- 1997: 1.1, 4.2 (adjusting), 4.3 (touched pieces), 4.4 (castling: king and
  rook touched), 4.5 (no touched piece can move), 4.6, 4.7 (the right to claim
  a breach).
- 2023: 1.1, 1.2, 1.3, 1.4, 1.5, 4.2 (adjusting), 4.3 (touched pieces), 4.4.1,
  4.4.2, 4.4.3 (castling), 4.5, 4.8 (the claim of a breach), 9.1.2.1 (a touch
  rejects a pending offer), II.3.2.1, II.3.2.2, II.3.2.3, II.3.2.4 (the four
  Chess960 castling methods under touch-move: :func:`allowed_by_touch`), D.2.1,
  D.2.2, D.2.3, D.2.4, D.2.5, D.2.6, D.2.7 (announced moves), D.2.8 (a slip of
  the tongue), D.2.9 (the two boards).

Irregular moves go on to :mod:`chesslaws.game.irregularities`; what follows a
move on the board, to :mod:`chesslaws.game.played`.
"""

from __future__ import annotations

from typing import Any

from chesslaws.editions import Edition
from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.events import Event, EventError
from chesslaws.game.completion import held_end_stands
from chesslaws.game.irregularities import _on_illegal_move, _reinstate, _two_hands
from chesslaws.game.played import _after_move
from chesslaws.game.pressing import _defer_illegal, _move_not_pressed, _press_field, _reply_before_press
from chesslaws.game.releasing import _allowed_by_release, _on_touch_promotion
from chesslaws.game.state import NAME, GameError, GameState, Slip, _Builder, _require_player_present, other
from chesslaws.position import Position
from chesslaws.timecontrol import Color


def _captured_square(pos: Position, m: str) -> str | None:
    """The square of the piece that the legal move ``m`` (UCI) captures: its
    destination, or for an en passant capture the square of the pawn taken
    (which the capturing pawn does not land on)."""
    to = m[2:4]
    if pos.piece_at(to) is not None:
        return to
    mover = pos.piece_at(m[:2])
    if mover is not None and mover.upper() == "P" and m[0] != m[2]:
        return m[2] + m[1]
    return None


def allowed_by_touch(
    pos: Position, mover: Color, touched: tuple[str, ...], edition: Edition
) -> tuple[set[str] | None, str]:
    """Articles 4.3-4.5 (1989 Article 7): the moves a player who touched ``touched`` may make.

    Returns (None, "") when any legal move is allowed, else the allowed UCI
    moves and a description of the obligation. A touched opponent's piece is
    "captured" by a move that takes it, en passant included (the capturing
    pawn then lands beside it). Castling is a king move; a rook touched before
    the king forbids castling with it (1997 4.4(a), 2023 4.4.2); the king and
    then a rook oblige castling with that rook where it is legal (2023 4.4.1),
    or else another king move (2023 4.4.3, 1997 4.4(b)), and the player is
    free when the king cannot move.

    Chess960 (2023 Guidelines II.3.2) keeps these rules for its four ways of
    castling, with one reading of our own, since the Guidelines say nothing
    of touch-move: castling is a move of the king (Article 3.8.2), so touching
    the king alone allows it (double-move, transposition and king-move-only
    castling, II.3.2.1-II.3.2.3), and touching the king and then a rook
    obliges castling with that rook where it is legal; a rook touched before
    the king forbids castling with it (4.4.2). In rook-move-only castling
    (II.3.2.4) the king stays where it is and the rook is the only piece
    the player moves: touching that rook alone allows that castling as a move
    of the touched rook. Touching it and then the king forbids that castling
    as 4.4.2 forbids any castling on that side: Chess960 is played as regular
    chess (II.1), so the rook, touched first, must make another move, or, if
    it has none, the king must (4.3).

    The prohibition of 4.4.2 holds "on that move" whatever 4.3 and 4.5 then
    allow: when neither the rook touched first nor the king can make another
    move, the player is free to make any legal move but that castling (in
    Chess960 the rook may stand beside the king with nowhere else to go, and
    the castling in which king and rook change places is its only move).
    """
    if not touched:  # nothing touched: no obligation (the common case, on every move)
        return None, ""
    allowed, duty = _allowed_by_touch(pos, mover, touched, edition)
    if allowed is not None:
        return allowed, duty
    forbidden, rooks = _castlings_forbidden(pos, mover, touched)
    if not forbidden:
        return None, ""
    return set(pos.legal_moves()) - forbidden, (
        f"make any legal move but castle with the rook on {' or '.join(rooks)}, touched before the king")


def _castlings_forbidden(pos: Position, mover: Color, touched: tuple[str, ...]) -> tuple[set[str], list[str]]:
    """2023 4.4.2, 1997 4.4(a), 1989 7: the legal castlings with a rook the player touched before his
    king, and those rooks (none when the king was not touched after a rook)."""
    upper = mover == "white"
    king = "K" if upper else "k"
    rook = "R" if upper else "r"
    order = [sq for sq in touched if pos.piece_at(sq) in (king, rook)]
    king_at = next((i for i, sq in enumerate(order) if pos.piece_at(sq) == king), None)
    if king_at is None:
        return set(), []
    rooks = [sq for sq in order[:king_at] if pos.piece_at(sq) == rook]
    king_sq = order[king_at]
    out: set[str] = set()
    for m in pos.legal_moves():
        if m[:2] != king_sq or not rooks:
            continue
        castle = abs(ord(m[2]) - ord(king_sq[0])) == 2 or pos.piece_at(m[2:4]) == rook
        if castle and any(r[1] == king_sq[1] and ((m[2] > king_sq[0]) == (r[0] > king_sq[0]) or m[2:4] == r)
                          for r in rooks):
            out.add(m)
    return out, rooks


def _allowed_by_touch(
    pos: Position, mover: Color, touched: tuple[str, ...], edition: Edition
) -> tuple[set[str] | None, str]:
    """:func:`allowed_by_touch` before 4.4.2's prohibition is applied to a player left free."""
    legal = pos.legal_moves()
    upper = mover == "white"
    king_sq = next((sq for sq, p in pos.pieces() if p == ("K" if upper else "k")), None)
    rook_first: set[str] = set()  # rooks touched before the king: no castling on that side
    rook_after: list[str] = []  # rooks touched after the king (castling intended)
    seen_king = False
    own_touched: list[str] = []
    opp_touched: list[str] = []
    for sq in touched:
        piece = pos.piece_at(sq)
        if piece is None:
            continue
        own = piece.isupper() == upper
        (own_touched if own else opp_touched).append(sq)
        if own and piece.upper() == "K":
            seen_king = True
        if own and piece.upper() == "R":
            if seen_king:
                rook_after.append(sq)
            else:
                rook_first.add(sq)

    def is_castle(m: str) -> bool:
        if king_sq is None or m[:2] != king_sq:
            return False
        target = pos.piece_at(m[2:4])
        return abs(ord(m[2]) - ord(king_sq[0])) == 2 or (target is not None and target == ("R" if upper else "r"))

    def castles_with(m: str, rook: str) -> bool:
        return (king_sq is not None and is_castle(m) and rook[1] == king_sq[1]
                and ((m[2] > king_sq[0]) == (rook[0] > king_sq[0]) or m[2:4] == rook))

    def captures_of(sq: str, by: str | None = None) -> set[str]:
        return {m for m in legal if (by is None or m[:2] == by) and _captured_square(pos, m) == sq}

    # 4.3(b) (2023 4.3.3): one of each colour: capture the opponent's piece with one's own.
    if own_touched and opp_touched:
        mine, theirs = own_touched[0], opp_touched[0]
        caps = captures_of(theirs, mine)
        if caps:
            return caps, f"capture the touched piece on {theirs} with the piece on {mine}"
    for sq in touched:
        piece = pos.piece_at(sq)
        if piece is None:
            continue
        if piece.isupper() == upper:
            moves = {m for m in legal if m[:2] == sq}
            rook_only = set()
            if piece.upper() == "R" and pos.chess960 and not seen_king:
                rook_only = {m for m in legal if castles_with(m, sq) and _king_stays(m)}
                moves |= rook_only
            if piece.upper() == "K":
                moves = {m for m in moves if not any(castles_with(m, r) for r in rook_first)}
                if rook_after:
                    rook = rook_after[0]
                    castle = {m for m in moves if castles_with(m, rook)}
                    if castle and edition.castle_when_king_then_rook:
                        return castle, f"castle with the rook on {rook} (king and then rook touched)"
                    if not moves:
                        return None, ""  # the king cannot move: any legal move (4.4(b), 2023 4.4.3)
            if moves and rook_only:
                return moves, (f"move the touched rook on {sq} (castling with it included: rook-move-only "
                               "castling)")
            if moves:
                return moves, f"move the touched piece on {sq}"
        else:
            caps = captures_of(sq)
            if caps:
                return caps, f"capture the touched piece on {sq}"
    return None, ""  # 4.5: none of the touched pieces can be moved or captured


def _king_stays(castle: str) -> bool:
    """A Chess960 castling (UCI: the king takes its rook) in which the king
    stays on its square: rook-move-only castling (2023 Guidelines II.3.2.4).
    The king ends on the g-file castling towards the h-side, on the c-file
    towards the a-side."""
    king_file, rook_file = castle[0], castle[2]
    return king_file == ("g" if rook_file > king_file else "c")


def _on_move(b: _Builder, ev: Event) -> None:
    s = b.s
    mover: Color = ev.by  # type: ignore[assignment]
    _require_player_present(b, ev)
    if s.claims:
        raise GameError(ev, "the clocks are stopped while a claim awaits the arbiter's decision")
    if s.envelope is not None:
        raise GameError(ev, f"{NAME[s.envelope.sealer]}'s sealed move is played when the envelope is opened "
                        f"({NAME[other(s.envelope.sealer)]} must be present)")
    if s.clock.running is None:
        raise GameError(ev, "the clocks are stopped (interruption); the arbiter must restart them")
    if mover != s.turn:
        raise GameError(ev, f"it is {NAME[s.turn]}'s move, not {NAME[mover]}'s")
    if s.held_end is not None:  # the move touches a piece: the right to claim is lost (2023 4.8)
        held_end_stands(b, ev.t_ms, mover, f"moved ({ev.get('move')})")
        return
    text = str(ev.get("move"))
    offer = bool(ev.get("offer_draw", False))
    press = _press_field(b, ev)
    if s.slip is not None and s.slip.by != mover:
        raise GameError(ev, f"{NAME[s.slip.by]}'s announcement differs from his move and he has not pressed the clock: "
                        "he corrects it or presses first (2023 D.2.8)")
    slip: str | None = None
    if "announced" in ev.fields:
        text, slip = _announced_move(b, ev, mover, text, str(ev.get("announced")), press)
    try:
        san, uci, nxt = s.position.play_annotated(text)
    except IllegalMove:
        if not press and _defer_illegal(b, ev, mover, text, offer):
            return
        _on_illegal_move(b, ev, mover, text, offer, press=press)
        return
    except (UnreadableMove, AmbiguousMove) as err:
        raise EventError(f"field 'move': {err}", field="move") from None
    allowed, duty = allowed_by_touch(s.position, mover, s.touched, s.edition)
    violation = allowed is not None and uci not in allowed
    released, _, _ = _allowed_by_release(s)  # a piece released on a square (4.7), the promotion piece (4.4.4)
    violation = violation or (released is not None and uci not in released)
    _reply_before_press(b, ev, mover)
    _after_move(b, ev.t_ms, mover, san, uci, nxt, offer_draw=offer, press=press, breach=violation)
    if slip is not None and b.get("status") == "ongoing":
        b.set(slip=Slip(mover, slip, s))  # the slip of the tongue may still be corrected (2023 D.2.8)
    if not press:
        _move_not_pressed(b, ev.t_ms, mover, san)
    if violation and b.get("status") == "ongoing":
        b.set(touch_violation=s)
    if ev.get("two_hands") and b.get("status") == "ongoing":
        _two_hands(b, ev.t_ms, mover, san)


def _announced_move(b: _Builder, ev: Event, mover: Color, executed: str, announced: str,
                    press: bool = True) -> tuple[str, str | None]:
    """2023 Appendix D: in a game with a visually disabled player every move is
    announced and repeated (D.2.1). An announcement that differs from the move
    executed and is not corrected before the clock is pressed (D.2.8) leaves
    the two boards different; the game scores, which both follow the
    announcement, decide (D.2.9): the announced move is the move made, and the
    board is adjusted to it. Made without pressing the clock, the slip may still be corrected
    (:mod:`chesslaws.game.announcing`): the move executed is played and the announced one kept.
    Returns the move to play and the announced move (UCI) of a slip not yet settled, or None."""
    s = b.s
    if not s.config.visually_disabled:
        raise EventError("field 'announced' belongs to games with a visually disabled player "
                         "(start field 'visually_disabled', 2023 Appendix D)", field="announced")
    pos = s.position
    try:
        said = pos.parse_move(announced)
    except (IllegalMove, UnreadableMove, AmbiguousMove):
        b.rule(ev.t_ms, "announcement", f"{NAME[mover]} announced {announced!r}, which is no legal move here, and "
               f"did not correct it before pressing the clock: the move executed on the board, {executed}, stands.")
        return executed, None
    try:
        done = pos.parse_move(executed)
    except (IllegalMove, UnreadableMove, AmbiguousMove):
        done = None
    if done == said:
        return executed, None
    if not press and done is not None:
        return executed, said
    b.rule(ev.t_ms, "boards_differ", f"{NAME[mover]} executed {executed} but announced {pos.san(said)} and did not "
           "correct the slip before pressing the clock: the two boards differ. The game scores follow the "
           f"announcement, so {pos.san(said)} is the move made and the board is adjusted to it.")
    return said, None


def _square_field(ev: Event) -> str:
    sq = str(ev.get("square")).strip().lower()
    if len(sq) != 2 or sq[0] not in "abcdefgh" or sq[1] not in "12345678":
        raise EventError(f"field 'square' must be a square such as e2, not {ev.get('square')!r}", field="square")
    return sq


def _on_touch(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    sq = _square_field(ev)
    if "piece" in ev.fields:  # the new piece of a promotion touches the square of promotion
        _on_touch_promotion(b, ev, sq, str(ev.get("piece")))
        return
    if s.clock.running is None or s.status != "ongoing":
        raise GameError(ev, "the clocks are stopped")
    if by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) is bound by touching pieces")
    if s.position.piece_at(sq) is None:
        raise GameError(ev, f"there is no piece on {sq}")
    if not _has_the_move(s, by):
        # 1997 1.1: a player has the move once his opponent's move is completed (6.7(a): the clock
        # pressed); 4.3 binds only the player having the move. The touch obliges nothing; it still
        # ends his right to claim the opponent's breach (4.6: "after he himself deliberately touches").
        b.set(touch_violation=None)
        opp = NAME[other(by)]
        b.rule(ev.t_ms, "touch_before_completion", f"{NAME[by]} touched the piece on {sq} before {opp} had "
               f"pressed the clock: {opp}'s move is not completed, so {NAME[by]} does not have the move yet and "
               "the touch binds him to nothing.")
        return
    if s.held_end is not None:
        held_end_stands(b, ev.t_ms, by, f"touched the piece on {sq}")
        return
    changes: dict[str, Any] = {"touched": s.touched + (sq,) if sq not in s.touched else s.touched}
    # Touching a piece ends the right to claim the opponent's touch-move breach (1997 4.6, 2023 4.8) ...
    changes["touch_violation"] = None
    # ... and, under 2023 9.1.2.1, rejects a pending draw offer.
    if s.edition.draw_offer_rejected_by_touch:
        own = [o for o in (s.offer, s.counter) if o is not None and o.by == by]
        changes["offer"] = own[0] if own else None
        changes["counter"] = None
    b.set(**changes)


def _has_the_move(s: GameState, by: Color) -> bool:
    """Does ``by``, whose turn the board shows, have the move (1989 6, 1997 1.1, 2023 1.3)? Where the
    move counts once made (1989, 2023: :attr:`~chesslaws.editions.Edition.has_move_once_made`), yes;
    under 1997 only once the opponent's move is completed, i.e. his clock pressed (6.7(a))."""
    if s.edition.has_move_once_made:
        return True
    return not (s.unpressed == other(by) and s.clock.running == other(by))


def _on_adjust(b: _Builder, ev: Event) -> None:
    s = b.s
    sq = _square_field(ev)
    if ev.by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) may adjust pieces (Article 4.2)")
    if s.position.piece_at(sq) is None:
        raise GameError(ev, f"there is no piece on {sq} to adjust")


def _on_claim_touch_move(b: _Builder, ev: Event) -> None:
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    t = ev.t_ms
    before = s.touch_violation
    offender = other(by)
    if before is None or s.turn != by:
        b.rule(t, "touch_move",
               f"{NAME[by]}'s touch-move claim is rejected: {NAME[offender]}'s last move kept Article 4 "
               "(or the right to claim was lost by touching a piece or moving).")
        return
    _, duty = allowed_by_touch(before.position, offender, before.touched, s.edition)
    last = s.moves[-1].san
    _reinstate(b, before, t, offender, before.touched)
    rule = "castling_touch" if duty.startswith("castle") else "touch_move"
    if "touched before the king" in duty:
        rule = "castling_rook_first"
    if s.config.chess960 and "rook-move-only" in duty:
        rule = "chess960_castling_touch"
    released, release_duty, release_rule = _allowed_by_release(before)
    if released is not None and s.moves[-1].uci not in released:  # the breach was of 4.7 (or 4.4.4)
        allowed, _ = allowed_by_touch(before.position, offender, before.touched, s.edition)
        both = allowed is not None and s.moves[-1].uci not in allowed
        duty = f"{duty} and {release_duty}" if both else release_duty
        rule = rule if both else release_rule
    b.set(released=before.released, promotion_piece=before.promotion_piece,
          promotion_touched=before.promotion_touched)
    b.rule(t, rule,
           f"{NAME[by]}'s claim is upheld: {NAME[offender]} touched a piece and played {last}; the move is "
           f"taken back and {NAME[offender]} must {duty}.")

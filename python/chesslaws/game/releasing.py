"""What the hand did within a move: a piece released on a square (``release``)
and the promotion piece chosen by touching the square of promotion (``touch``
with ``piece``). Touch-move itself (the order of the pieces touched, the
king or the rook first when castling) is :mod:`chesslaws.game.moving`'s.

A piece released on a square as a legal move, or as part of one (the king
or the rook of a castling, the new piece of a promotion), cannot be moved to
another square on that move: the move made must be one that puts it there.
A move that does not is a breach the opponent claims as a touch-move breach
(``claim_touch_move``): the move is taken back and the player must complete
the move the release began.

Articles, by edition:

- 1989: 6 (a move is completed when the player's hand has released the piece
  on its square; at a promotion, when it has released the new piece: the
  1989 text's own numbering of the rules of play, as 1997's 4.7).
- 1997: 4.7 (a piece released on a square as a legal move or part of one
  cannot then be moved to another square; the choice of the promotion piece is
  made with the move, 3.7(e)).
- 2023: 4.4.4 (the choice of the promotion piece is finalised when the piece
  has touched the square of promotion), 4.7 (the released piece), 4.7.1
  (capture), 4.7.2 (castling: the king released, only castling on that side,
  or where it is illegal another king move), 4.7.3 (promotion: the new piece
  released), 4.8 (the claim).
"""

from __future__ import annotations

from typing import Any

from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, GameError, GameState, _Builder
from chesslaws.position import Position

PIECE_NAMES = {"q": "queen", "r": "rook", "b": "bishop", "n": "knight"}


def _square(ev: Event, name: str) -> str:
    sq = str(ev.get(name)).strip().lower()
    if len(sq) != 2 or sq[0] not in "abcdefgh" or sq[1] not in "12345678":
        raise EventError(f"field {name!r} must be a square such as e2, not {ev.get(name)!r}", field=name)
    return sq


def _movements(pos: Position, uci: str) -> set[tuple[str, str]]:
    """The pieces a legal move ``uci`` carries, as (from, to) squares: one, or the king and the rook
    of a castling (standard ``e1g1`` or Chess960 king-takes-rook). A piece that stays where it is
    (Chess960) is not carried."""
    frm, to = uci[:2], uci[2:4]
    mover = pos.piece_at(frm)
    target = pos.piece_at(to)
    if mover is None or mover.upper() != "K":
        return {(frm, to)}
    own_rook = target is not None and target == ("R" if mover.isupper() else "r")
    if not own_rook and abs(ord(to[0]) - ord(frm[0])) != 2:
        return {(frm, to)}
    rank = frm[1]
    kingside = to[0] > frm[0]
    rook_from = to if own_rook else ("h" if kingside else "a") + rank
    king_to = ("g" if kingside else "c") + rank
    rook_to = ("f" if kingside else "d") + rank
    return {(a, b) for a, b in ((frm, king_to), (rook_from, rook_to)) if a != b}


def _allowed_by_release(s: GameState) -> tuple[set[str] | None, str, str]:
    """The moves the player's releases and his finalised promotion piece leave him: (None, "", "")
    when nothing binds him; else the allowed UCI moves, the duty in words and the rule key."""
    if not s.released and s.promotion_piece is None:
        return None, "", ""
    pos = s.position
    allowed = set(pos.legal_moves())
    duties: list[str] = []
    rule = "release"
    for frm, to in s.released:
        allowed = {m for m in allowed if (frm, to) in _movements(pos, m)}
        piece = pos.piece_at(frm)
        if piece is not None and piece.upper() == "K" and abs(ord(to[0]) - ord(frm[0])) == 2:
            rule = "release_castling"
        duties.append(f"complete the move of the piece released on {to} (from {frm})")
    if s.promotion_piece is not None:
        allowed = {m for m in allowed if len(m) < 5 or m[4] == s.promotion_piece}
        rule = "promotion_choice" if s.promotion_touched else "release_promotion"
        duties.append(f"promote to a {PIECE_NAMES[s.promotion_piece]}")
    if not allowed:
        return None, "", ""  # the releases contradict one another: no move completes them all
    return allowed, " and ".join(duties), rule


def _promotions_to(pos: Position, square: str, piece: str) -> bool:
    return any(m[2:4] == square and m[4:] == piece for m in pos.legal_moves() if len(m) == 5)


def _require_mover(b: _Builder, ev: Event) -> None:
    s = b.s
    if s.clock.running is None or s.status != "ongoing":
        raise GameError(ev, "the clocks are stopped")
    if ev.by != s.turn:
        raise GameError(ev, f"only the player having the move ({NAME[s.turn]}) is making a move")


def _on_release(b: _Builder, ev: Event) -> None:
    """``release``: the player's hand leaves a piece on ``square``: a piece of the board coming from
    ``from``, or (``piece``) the new piece of a promotion. It binds him only where it is a legal move
    or part of one (1997 and 2023 4.7; 1989 6)."""
    s = b.s
    _require_mover(b, ev)
    to = _square(ev, "square")
    piece = ev.get("piece")
    changes: dict[str, Any] = {}
    if piece is not None:
        letter = str(piece).lower()
        if "from" in ev.fields:
            raise EventError("a 'release' gives 'from' (a piece of the board) or 'piece' (the new piece of a "
                             "promotion), not both", field="piece")
        if s.promotion_piece is None and _promotions_to(s.position, to, letter):
            changes["promotion_piece"] = letter
            changes["promotion_touched"] = False
    else:
        if "from" not in ev.fields:
            raise EventError("a 'release' needs 'from' (the square the piece came from) or 'piece' (the new "
                             "piece of a promotion)", field="from")
        frm = _square(ev, "from")
        own = s.position.piece_at(frm)
        if own is None or own.isupper() != (s.turn == "white"):
            raise GameError(ev, f"there is no {s.turn} piece on {frm}")
        if frm not in s.touched:
            changes["touched"] = s.touched + (frm,)  # the piece was in his hand: touched first of all
        if any((frm, to) in _movements(s.position, m) for m in s.position.legal_moves()):
            if (frm, to) not in s.released:
                changes["released"] = s.released + ((frm, to),)
    changes["touch_violation"] = None  # his hand on a piece ends his right to claim (4.8; 1997 4.6)
    b.set(**changes)


def _on_touch_promotion(b: _Builder, ev: Event, square: str, piece: str) -> None:
    """``touch`` with ``piece``: the new piece of a promotion touches the square of promotion. 2023
    4.4.4: the choice is then final; the earlier editions make it final only with the move (1997 4.7,
    1989 6): the touch binds nothing."""
    s = b.s
    _require_mover(b, ev)
    letter = piece.lower()
    if not _promotions_to(s.position, square, letter):
        raise GameError(ev, f"no pawn of {NAME[s.turn]}'s can be promoted to a {PIECE_NAMES[letter]} on {square}")
    if s.edition.promotion_choice_on_touch and s.promotion_piece is None:
        b.set(promotion_piece=letter, promotion_touched=True)
    b.set(touch_violation=None)

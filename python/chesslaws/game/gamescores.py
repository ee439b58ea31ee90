"""The two game scores of a game with a visually disabled player (2023
Appendix D): what each player wrote (``game_score``), compared when the two
boards differ.

Articles, by edition: 2023 D.2.9 (different positions on the two boards are
corrected by consulting both game scores: where they correspond, the board
follows them; where they differ, the moves are retraced to the point where
they agree and the arbiter readjusts the clocks -- his ``reinstate`` with
``reason`` ``"boards_differ"``). The 1989 and 1997 Laws have no rules for
visually disabled players (1997: not in the Laws; 1989: none), so the event
belongs to 2023 games with ``visually_disabled`` only.
"""

from __future__ import annotations

from typing import Any

from chesslaws.errors import AmbiguousMove, IllegalMove, UnreadableMove
from chesslaws.events import Event, EventError
from chesslaws.game.state import NAME, _Builder, other
from chesslaws.position import Position
from chesslaws.timecontrol import Color


def _agreement(start: Position, a: tuple[str, ...], b: tuple[str, ...]) -> tuple[int, Position]:
    """How many moves the two scores share from the start (each read in any notation), and the
    position after them."""
    pos = start
    n = 0
    for x, y in zip(a, b):
        try:
            mx, my = pos.parse_move(x), pos.parse_move(y)
        except (IllegalMove, UnreadableMove, AmbiguousMove):
            break
        if mx != my:
            break
        pos = pos.play(mx)
        n += 1
    return n, pos


def _label(n: int, san: str) -> str:
    if n == 0:
        return "the start"
    return f"{(n + 1) // 2}{'.' if n % 2 else '...'} {san}"


def _on_game_score(b: _Builder, ev: Event) -> None:
    """``game_score``: the moves ``by`` has written, as the arbiter reads them."""
    s = b.s
    by: Color = ev.by  # type: ignore[assignment]
    if not s.config.visually_disabled:
        raise EventError("'game_score' belongs to games with a visually disabled player (start field "
                         "'visually_disabled', 2023 Appendix D.2.9)", field="type")
    raw: Any = ev.get("moves")
    written = tuple(str(m).strip() for m in raw)
    scores = {**s.game_scores, by: written}
    b.set(game_scores=scores)
    theirs = scores.get(other(by))
    if theirs is None:
        return
    start = s.config.initial_position()
    white, black = scores["white"], scores["black"]
    n, _ = _agreement(start, white, black)
    sans = [m.san for m in s.moves]
    board_n, _ = _agreement(start, white[:n], tuple(m.uci for m in s.moves))
    if n == len(white) == len(black):
        if board_n == n == len(s.moves):
            b.rule(ev.t_ms, "game_scores", "The two game scores correspond with each other and with the moves "
                   "played: nothing to correct.")
            return
        b.rule(ev.t_ms, "game_scores", f"The two game scores correspond with each other ({n} moves); the moves "
               f"played agree with them up to {_label(board_n, sans[board_n - 1] if board_n else '')}: the "
               "player who wrote the move correctly but made it wrongly on his board adjusts his board to the game "
               "scores.")
        return
    where = _label(n, _san_at(start, white, n))
    b.rule(ev.t_ms, "game_scores", f"The two game scores differ ({NAME['white']}'s has {len(white)} moves, "
           f"{NAME['black']}'s {len(black)}); they agree up to {where}: the moves are retraced to that point "
           f"(reinstate ply {n}) and the arbiter readjusts the clocks.")


def _san_at(start: Position, moves: tuple[str, ...], n: int) -> str:
    """The n-th move of a score, in SAN (n >= 1, the first n moves being legal)."""
    if n == 0:
        return ""
    pos = start
    for m in moves[: n - 1]:
        pos = pos.play(pos.parse_move(m))
    return pos.san(pos.parse_move(moves[n - 1]))

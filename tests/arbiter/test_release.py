"""What the hand did within a move. ``release``: a piece released on a square (1997 and
2023 4.7; 1989 Article 6, the move completed on release); ``touch`` with ``piece``: the new piece
of a promotion touching the square of promotion (2023 4.4.4). A move that contradicts them is a
breach the opponent claims with ``claim_touch_move``."""

from __future__ import annotations

import pytest

from chesslaws.events import EventError
from chesslaws.game import Game, GameError
from _arb import ev, game, last_ruling, start

EDITIONS = ["1989", "1997", "2023"]
CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTION = "8/4P3/8/8/8/8/k6p/4K2R w - - 0 1"


def breach(g: Game) -> bool:
    return any(p["kind"] == "touch_move_claimable" for p in g.state.pending())


def played(edition: str, *events: dict[str, object], fen: str | None = None) -> Game:
    fields = {"edition": edition, "time_control": "40/5400"}
    if fen is not None:
        fields["fen"] = fen
    return game(start(**fields), *events)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_piece_released_on_a_square_cannot_go_to_another(edition: str) -> None:
    """White puts the knight down on f3, then takes it up again and plays Nh3. 4.7 (1989: Article 6,
    the move was completed when the knight was released): Black's claim takes Nh3 back and White must
    play Nf3."""
    g = played(edition, ev("release", 5, "white", square="f3", **{"from": "g1"}), ev("move", 6, "white", move="Nh3"))
    assert breach(g)
    g = g.apply(ev("claim_touch_move", 8, "black"))
    assert last_ruling(g).article == {"1989": "6", "1997": "4.7", "2023": "4.7"}[edition]
    assert "released on f3" in last_ruling(g).text
    assert breach(g.apply(ev("move", 9, "white", move="Nh3")))
    assert not breach(g.apply(ev("move", 9, "white", move="Nf3")))


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_release_that_is_no_legal_move_binds_nothing(edition: str) -> None:
    """The knight put down on g3, where no legal move takes it: 4.7 speaks of a piece released "as a
    legal move or part of a legal move". Only touch-move binds: the knight must move, anywhere."""
    g = played(edition, ev("release", 5, "white", square="g3", **{"from": "g1"}), ev("move", 6, "white", move="Nh3"))
    assert not breach(g)
    g = played(edition, ev("release", 5, "white", square="g3", **{"from": "g1"}), ev("move", 6, "white", move="e4"))
    assert breach(g)  # the knight was in his hand: touched (4.3)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_king_released_on_g1_means_castling(edition: str) -> None:
    """The king is put down on g1 and the player then plays Kf1 instead. 2023 4.7.2: having released
    the king, he may only castle on that side; 1997 4.7, 1989 6 the same through the released piece."""
    g = played(edition, ev("release", 5, "white", square="g1", **{"from": "e1"}), ev("move", 6, "white", move="Kf1"),
               fen=CASTLING)
    assert breach(g)
    g = g.apply(ev("claim_touch_move", 7, "black"))
    assert last_ruling(g).article == {"1989": "6", "1997": "4.7", "2023": "4.7.2"}[edition]
    assert not breach(g.apply(ev("move", 8, "white", move="O-O")))
    # The rook put down on f1 as part of castling binds the same way: O-O-O breaks it.
    assert breach(played(edition, ev("release", 5, "white", square="f1", **{"from": "h1"}),
                         ev("move", 6, "white", move="O-O-O"), fen=CASTLING))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_king_released_where_castling_is_illegal(edition: str) -> None:
    """Black's bishop on c4 covers f1: castling short is illegal, so the king on g1 is no legal move
    and binds nothing by 4.7; the touched king must still move (2023 4.7.2 and 4.4.3 say so in
    words; 4.3 in every edition): Kd1 is right, a rook move is a breach."""
    fen = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    assert not breach(played(edition, ev("release", 5, "white", square="g1", **{"from": "e1"}),
                             ev("move", 6, "white", move="Kd1"), fen=fen))
    assert breach(played(edition, ev("release", 5, "white", square="g1", **{"from": "e1"}),
                         ev("move", 6, "white", move="Rh2"), fen=fen))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_promotion_piece_touching_the_square(edition: str) -> None:
    """A queen touches e8, then the player promotes to a knight. 2023 4.4.4: the choice was final
    when the queen touched the square: Black's claim takes e8=N back, White must take the queen.
    1997 and 1989 make the choice with the move (4.7; Article 6): the knight stands."""
    g = played(edition, ev("touch", 5, "white", square="e8", piece="Q"), ev("move", 6, "white", move="e8=N"),
               fen=PROMOTION)
    assert breach(g) == (edition == "2023")
    if edition == "2023":
        g = g.apply(ev("claim_touch_move", 7, "black"))
        assert last_ruling(g).article == "4.4.4"
        assert "promote to a queen" in last_ruling(g).text
        assert breach(g.apply(ev("move", 8, "white", move="e8=N")))
        assert not breach(g.apply(ev("move", 8, "white", move="e8=Q")))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_promotion_piece_released_on_the_square(edition: str) -> None:
    """The knight is put down on e8 and then exchanged for a queen: final in every edition once
    released (2023 4.7.3, 1997 4.7, 1989 6)."""
    g = played(edition, ev("release", 5, "white", square="e8", piece="N"), ev("move", 6, "white", move="e8=Q"),
               fen=PROMOTION)
    assert breach(g)
    g = g.apply(ev("claim_touch_move", 7, "black"))
    assert last_ruling(g).article == {"1989": "6", "1997": "4.7", "2023": "4.7.3"}[edition]
    assert not breach(played(edition, ev("release", 5, "white", square="e8", piece="N"),
                             ev("move", 6, "white", move="e8=N"), fen=PROMOTION))


def test_release_refusals() -> None:
    g = Game.from_start(start(edition="2023", time_control="40/5400"))
    with pytest.raises(GameError):
        g.apply(ev("release", 1, "black", square="f6", **{"from": "g8"}))  # not Black's move
    with pytest.raises(GameError):
        g.apply(ev("release", 1, "white", square="f6", **{"from": "g8"}))  # not White's piece
    with pytest.raises(EventError) as err:
        g.apply(ev("release", 1, "white", square="e4"))
    assert err.value.field == "from"
    with pytest.raises(EventError):
        g.apply(ev("release", 1, "white", square="e8", piece="K"))
    with pytest.raises(GameError):
        g.apply(ev("touch", 1, "white", square="e8", piece="Q"))  # no pawn to promote

"""Chess960 under the arbiter (2023 Laws, Guidelines II).

Narratives: the start event (``variant``, ``start_position`` or ``fen``),
the castling rules of II.3, touch-move for the four castling methods of
II.3.2, and repetition with Chess960 castling rights (Article 9.2.3).
"""

from __future__ import annotations

import pytest

from chesslaws.errors import ChessLawsError
from chesslaws.game import Game

from _arb import ev, game, last_ruling, moves, start, summary

# King e1/e8 between rooks b1/b8 and g1/g8 (X-FEN KQkq: the outermost rooks);
# the g-pawns are gone, so that the g-rooks can go out and back.
ROOKS_BG = "1r2k1r1/pppppp1p/8/8/8/8/PPPPPP1P/1R2K1R1 w KQkq - 0 1"


def c960(**fields: object) -> dict[str, object]:
    return start(edition="2023", time_control="-", variant="chess960", **fields)


# --- the start event ---------------------------------------------------------------


def test_start_by_number_sets_up_the_array() -> None:
    g = game(c960(start_position=0))
    assert g.state.position.fen() == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert g.state.position.chess960
    assert g.state.config.chess960 and g.state.config.start_number == 0


def test_start_by_fen_in_either_castling_notation_finds_the_number() -> None:
    shredder = game(c960(fen="bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"))
    xfen = game(c960(fen="bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"))
    assert shredder.state.config.start_number == xfen.state.config.start_number == 0
    assert shredder.state.position == xfen.state.position
    # A later position is no starting array: no number.
    later = game(c960(fen="bbqnnrkr/pppppppp/8/8/4P3/8/PPPP1PPP/BBQNNRKR b KQkq - 0 1"))
    assert later.state.config.start_number is None


def test_chess960_is_refused_before_2023() -> None:
    for edition in ("1989", "1997"):
        with pytest.raises(ChessLawsError, match="2023 Laws only"):
            game(start(edition=edition, variant="chess960", start_position=100))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"variant": "chess960"}, "needs its starting position"),
        ({"variant": "chess960", "start_position": 1, "fen": ROOKS_BG}, "not both"),
        ({"variant": "chess960", "start_position": 960}, "start_position"),
        ({"variant": "chess960", "start_position": "518"}, "start_position"),
        ({"start_position": 518}, "variant"),
        ({"variant": "crazyhouse"}, "variant"),
        ({"fen": "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"}, "add \"variant\": \"chess960\""),
    ],
)
def test_bad_start_events_name_the_field(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ChessLawsError, match=message):
        game(start(edition="2023", **fields))


def test_518_is_standard_chess_with_chess960_castling_notation() -> None:
    g = game(c960(start_position=518), moves(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "e1h1"]))
    assert g.state.sans[-1] == "O-O"
    assert g.state.position.piece_at("g1") == "K" and g.state.position.piece_at("f1") == "R"
    # The king's destination is read too, where it cannot be anything else.
    g2 = game(c960(start_position=518), moves(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "e1g1"]))
    assert g2.state.position == g.state.position


# --- castling (II.3) ---------------------------------------------------------------


def test_castling_squares_must_be_empty_and_not_attacked() -> None:
    """II.3: the king's and the rook's squares up to their destinations empty
    (but for the two of them), the king not in check, not passing attacked squares."""
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPP1PP/1R2K1R1 w KQkq - 0 1"
    ok = game(c960(fen=fen), ev("move", 1, "white", move="O-O"))
    assert ok.state.sans == ["O-O"] and ok.state.position.piece_at("g1") == "K"
    assert ok.state.position.piece_at("f1") == "R"
    # A black rook on the f-file attacks f1, which the king crosses: illegal.
    attacked = game(c960(fen="1r2kr2/ppppp1pp/8/8/8/8/PPPPP1PP/1R2K1R1 w Kq - 0 1"),
                    ev("move", 1, "white", move="O-O"))
    assert attacked.state.sans == []
    assert last_ruling(attacked).article.startswith("7.5")  # an illegal move (2023 7.5)
    # O-O-O: king e1 to c1, rook b1 to d1: the queen on d1 blocks it.
    blocked = game(c960(fen="1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R1QK1R1 w KQkq - 0 1"),
                   ev("move", 1, "white", move="O-O-O"))
    assert blocked.state.sans == []


def test_castling_is_once_per_game_and_rights_follow_the_rooks() -> None:
    g = game(c960(fen=ROOKS_BG), moves(["Rg2", "Rg7", "Rg1", "Rg8"]))
    # The g-rooks moved and came back: no castling with them any more.
    assert g.state.position.castling_rights == "Qq"
    with pytest.raises(ChessLawsError):
        g.state.position.play("O-O")
    assert g.state.position.san("e1b1") == "O-O-O"


# --- touch-move for the four castling methods (II.3.2 with Article 4.4) -------------


def test_king_then_rook_obliges_castling_with_that_rook() -> None:
    """4.4.1 with II.3.2.1 (double-move castling): king and then rook touched."""
    g = game(c960(fen="1r2k1r1/pppppppp/8/8/8/8/PPPPP1PP/1R2K1R1 w KQkq - 0 1"),
             ev("touch", 1, "white", square="e1"), ev("touch", 2, "white", square="g1"),
             ev("move", 3, "white", move="Kf1"))
    assert {"kind": "touch_move_claimable", "by": "black"} in g.state.pending()
    g = g.apply(ev("claim_touch_move", 4, "black"))
    assert "castle with the rook on g1" in last_ruling(g).text
    assert last_ruling(g).article == "4.4.1"
    g = g.apply(ev("move", 5, "white", move="O-O"))
    assert g.state.sans == ["O-O"]
    assert not any(p["kind"] == "touch_move_claimable" for p in g.state.pending())


def test_rook_then_king_forbids_castling_with_that_rook() -> None:
    """4.4.2: a rook touched before the king: no castling with it this move."""
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPP1PP/1R2K1R1 w KQkq - 0 1"
    g = game(c960(fen=fen), ev("touch", 1, "white", square="g1"), ev("touch", 2, "white", square="e1"),
             ev("move", 3, "white", move="O-O"))
    assert {"kind": "touch_move_claimable", "by": "black"} in g.state.pending()
    g = g.apply(ev("claim_touch_move", 4, "black"))
    assert g.state.sans == [] and "move the touched piece on g1" in last_ruling(g).text


def test_transposition_castling_king_then_rook() -> None:
    """II.3.2.2: king f1 and rook g1 swap. King then rook touched: castling is due."""
    fen = "5kr1/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w Kk - 0 1"
    g = game(c960(fen=fen), ev("touch", 1, "white", square="f1"), ev("touch", 2, "white", square="g1"),
             ev("move", 3, "white", move="O-O"))
    assert g.state.position.piece_at("g1") == "K" and g.state.position.piece_at("f1") == "R"
    assert not any(p["kind"] == "touch_move_claimable" for p in g.state.pending())
    # The rook moved alone instead (Rh1): a breach; the claim puts it back.
    bad = game(c960(fen=fen), ev("touch", 1, "white", square="f1"), ev("touch", 2, "white", square="g1"),
               ev("move", 3, "white", move="Rh1"))
    bad = bad.apply(ev("claim_touch_move", 4, "black"))
    assert bad.state.sans == [] and "castle with the rook on g1" in last_ruling(bad).text


def test_king_move_only_castling_with_the_king_touched_alone() -> None:
    """II.3.2.3: king e1, rook f1: O-O moves the king alone (to g1); castling is
    a king move (3.8.2), so touching only the king allows it."""
    fen = "4kr2/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w Kk - 0 1"
    g = game(c960(fen=fen), ev("touch", 1, "white", square="e1"), ev("move", 2, "white", move="e1f1"))
    assert g.state.sans == ["O-O"]
    assert g.state.position.piece_at("g1") == "K" and g.state.position.piece_at("f1") == "R"
    assert not any(p["kind"] == "touch_move_claimable" for p in g.state.pending())


def test_rook_move_only_castling_with_the_rook_touched_alone() -> None:
    """II.3.2.4: king g1, rook h1: O-O moves only the rook (h1 to f1).
    Touching that rook alone allows the castling."""
    fen = "6kr/pppppppp/8/8/8/8/PPPPPPPP/6KR w Kk - 0 1"
    g = game(c960(fen=fen), ev("touch", 1, "white", square="h1"), ev("move", 2, "white", move="O-O"))
    assert g.state.sans == ["O-O"]
    assert g.state.position.piece_at("f1") == "R" and g.state.position.piece_at("g1") == "K"
    assert not any(p["kind"] == "touch_move_claimable" for p in g.state.pending())
    # In standard-chess terms the same castling with the king touched first
    # then the rook is due as well.
    g2 = game(c960(fen=fen), ev("touch", 1, "white", square="g1"), ev("touch", 2, "white", square="h1"),
              ev("move", 3, "white", move="Kf1"))
    g2 = g2.apply(ev("claim_touch_move", 4, "black"))
    assert "castle with the rook on h1" in last_ruling(g2).text
    # The rook touched alone and moved elsewhere is fine too (it is the touched piece) ...
    g3 = game(c960(fen="6kr/pppppppp/8/8/8/8/PPPPPPP1/6KR w Kk - 0 1"), ev("touch", 1, "white", square="h1"),
              ev("move", 2, "white", move="Rh5"))
    assert not any(p["kind"] == "touch_move_claimable" for p in g3.state.pending())
    # ... but not a king move.
    g4 = game(c960(fen=fen), ev("touch", 1, "white", square="h1"), ev("move", 2, "white", move="Kf1"))
    assert {"kind": "touch_move_claimable", "by": "black"} in g4.state.pending()
    g4 = g4.apply(ev("claim_touch_move", 3, "black"))
    assert "rook-move-only castling" in last_ruling(g4).text and last_ruling(g4).article == "II.3.2.4"


def test_rook_touched_alone_does_not_allow_castling_that_moves_the_king() -> None:
    """A rook touched alone must move; a castling that moves the king (here
    king e1 to g1, rook g1 to f1) is a king move (3.8.2): a breach."""
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPP1PP/1R2K1R1 w KQkq - 0 1"
    g = game(c960(fen=fen), ev("touch", 1, "white", square="g1"), ev("move", 2, "white", move="O-O"))
    g = g.apply(ev("claim_touch_move", 3, "black"))
    assert g.state.sans == []
    assert "move the touched piece on g1" in last_ruling(g).text
    g = g.apply(ev("move", 4, "white", move="Rf1"))
    assert g.state.sans == ["Rf1"]


# --- repetition with Chess960 castling rights (9.2.3) --------------------------------


def test_positions_differ_when_chess960_castling_rights_differ() -> None:
    """The g-rooks go out and back: the board is the starting board again, but
    castling with them is gone, so the start does not count towards the
    repetition (9.2.3)."""
    shuffle = ["Rg2", "Rg7", "Rg1", "Rg8"]
    g = game(c960(fen=ROOKS_BG), moves(shuffle * 2, step=10))
    # The current position: after ply 4 and ply 8 (twice), not at the start.
    g = g.apply(ev("claim_draw", 85, "white", reason="threefold"))
    assert summary(g)[0] == "ongoing"
    assert "has appeared twice only" in last_ruling(g).text and last_ruling(g).article == "9.5.3"
    # The same board as at the start, but with the g-rooks' castling gone: a different position.
    # (The state keeps each position's Zobrist key for repetition: the start's and the current one differ.)
    board = g.state.config.initial_position().repetition_key().split()
    now = g.state.position.repetition_key().split()
    assert board[0] == now[0] and board[2] != now[2]
    assert g.state.keys[0] == g.state.config.initial_position().zobrist() != g.state.keys[-1]
    assert g.state.keys[-1] == g.state.position.zobrist()
    g = g.apply(moves(shuffle, t0=90, step=10)[0])
    for e in moves(shuffle, t0=90, step=10)[1:]:
        g = g.apply(e)
    g = g.apply(ev("claim_draw", 200, "white", reason="threefold"))
    assert summary(g) == ("finished", "1/2-1/2", "threefold_repetition")


def test_replay_of_a_chess960_log_end_to_end() -> None:
    log = [c960(start_position=518, white="A", black="B"),
           *moves(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"])]
    g = Game.from_events(log)
    assert summary(g) == ("finished", "1-0", "checkmate")

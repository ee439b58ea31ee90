"""The dead-position check only where it can matter: after a quiet move that can be undone,
a position whose predecessor was alive is alive, with no search (chesslaws.dead.returns_to).

The argument: if the position before the move comes back by legal moves, every series of moves that
led from it to a checkmate can follow; so the shortcut may only ever say "alive". These tests hold it
to that against the full search on random games, and check that games end exactly as without it."""

from __future__ import annotations

import random

import pytest

import chesslaws.game.completion as completion
from chesslaws.dead import is_dead, returns_to
from chesslaws.game import Game
from chesslaws.position import Position

chess = pytest.importorskip("chess")


def _random_line(rng: random.Random, plies: int) -> list[str]:
    board, line = chess.Board(), []
    while len(line) < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        line.append(move.uci())
    return line


def test_a_quiet_move_comes_back_and_the_others_do_not() -> None:
    start = Position()
    after = start.play("g1f3")
    assert returns_to(start, after, "g1f3")  # ...Nf6 / Ng1 / ...Ng8 brings it back
    assert not returns_to(start, start.play("e2e4"), "e2e4")  # a pawn never goes back
    p = Position("4k3/8/8/8/8/8/3r4/R3K3 w Q - 0 1")
    assert not returns_to(p, p.play("e1f1"), "e1f1")  # the castling right is gone for good
    q = Position("4k3/8/8/3pP3/8/8/8/R3K3 w - d6 0 1")
    assert not returns_to(q, q.play("a1a2"), "a1a2")  # so is the right to take en passant
    r = Position("4k3/8/8/8/8/8/3n4/R3K3 w - - 0 1")
    assert returns_to(r, r.play("a1a8"), "a1a8")  # a check: ...Ke7, Ra1, ...Ke8 and it is back
    assert not returns_to(r, r.play("e1d2"), "e1d2")  # a capture
    assert not returns_to(start, start.play("g1f3"), "e2e4")  # not the move that was made
    # Black's only moves are a pawn's: nothing to undo the reply with.
    k = Position("7k/7p/8/8/8/8/8/K6R w - - 0 1")
    assert not returns_to(k, k.play("h1g1"), "h1g1")


@pytest.mark.parametrize("seed", range(4))
def test_whenever_the_shortcut_says_alive_the_full_search_agrees(seed: int) -> None:
    rng = random.Random(seed)
    shown = 0
    for _ in range(25):
        line = _random_line(rng, 200)
        pos = Position()
        alive = is_dead(pos) is False
        for uci in line:
            nxt = pos.play(uci)
            if alive and returns_to(pos, nxt, uci):
                shown += 1
                assert is_dead(nxt) is False, f"{nxt.fen()} after {uci} from {pos.fen()}: dead, yet shown alive"
                alive = True
            else:
                alive = is_dead(nxt) is False
            pos = nxt
    assert shown > 1000  # the shortcut did its work on most quiet moves


def _replay(line: list[str], edition: str) -> Game:
    g = Game.from_start({"type": "start", "t": 0, "edition": edition, "time_control": "-"})
    for i, uci in enumerate(line):
        if not g.state.ongoing:
            break
        g = g.apply({"type": "move", "t": i + 1, "by": "white" if i % 2 == 0 else "black", "move": uci})
    return g


@pytest.mark.parametrize("edition", ["1997", "2023"])
def test_games_end_exactly_as_with_a_search_after_every_move(edition: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    lines = [_random_line(rng, 400) for _ in range(20)]
    # Endgames that reach a dead position by a quiet move (impossible, says the argument) or by a capture.
    lines.append(["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"])
    fast = [_replay(line, edition).state for line in lines]
    monkeypatch.setattr(completion, "returns_to", lambda *a: False)
    slow = [_replay(line, edition).state for line in lines]
    for a, b in zip(fast, slow):
        assert (a.status, a.result, a.termination, len(a.moves)) == (b.status, b.result, b.termination, len(b.moves))
        assert [r.text for r in a.rulings] == [r.text for r in b.rulings]
    assert any(s.termination == "dead_position" for s in slow), "no game reached a dead position: a weak test"

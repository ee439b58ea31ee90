"""What a live game costs in memory.

The arbiter's :class:`~chesslaws.game.Game` after 100 moves each, measured with tracemalloc: the
memory it retains, built by replaying a fixed log read from JSON text (so that every string of the
log is the game's own), while three other games are live (what a server holds: the letters of
common moves are shared between games, in the table of :mod:`chesslaws._packed`). The ceiling is
what the packed history reaches (the log, the moves and the repetition keys a few words an entry, in
buffers shared by successive states); the aim is 32 KiB at most for the whole live game in the
server (tests/server/test_memory_live.py).
"""

from __future__ import annotations

import json
import random

from memprobe import least_retained

from chesslaws.game import Game

#: Bytes a Game may retain after 200 plies (100 moves each): about 9.8 KiB measured this way, because
#: the history is packed (a move's event one word, its record two, its position's repetition key one);
#: events and moves kept as objects hold about 166 KiB, compact events with shared letters about 88 KiB.
GAME_CEILING = 12 * 1024


def random_log(seed: int, plies: int = 200) -> str:
    """A fixed log (JSON Lines) of a random legal game of ``plies`` moves that does not end: each move
    chosen by a seeded generator among those after which the game goes on (1997 Laws: no automatic
    draw by repetition), at irregular instants."""
    rng = random.Random(seed)
    start = {"type": "start", "t": 0, "edition": "1997", "time_control": "40/5400+30:1800+30",
             "white": "W", "black": "B"}
    game = Game.from_start(start)
    lines = [json.dumps(start)]
    t = 0.0
    while len(game.state.moves) < plies:
        t = round(t + rng.uniform(0.5, 20.0), 3)
        side = game.state.turn
        moves = game.state.position.legal_moves()
        rng.shuffle(moves)
        for uci in moves:
            event = {"type": "move", "t": t, "by": side, "move": uci}
            nxt = game.apply(event)
            if nxt.state.ongoing:
                game = nxt
                lines.append(json.dumps(event))
                break
        else:  # pragma: no cover - every move ends the game: never with these seeds
            raise AssertionError("no move keeps the game going")
    return "\n".join(lines)


def replay(text: str) -> Game:
    return Game.from_events(json.loads(line) for line in text.splitlines())


def test_a_game_after_100_moves_each_stays_under_its_ceiling() -> None:
    others = [replay(random_log(seed)) for seed in (1, 2, 3)]
    text = random_log(15)
    size, game = least_retained(lambda: replay(text))
    assert isinstance(game, Game) and len(game.state.moves) == 200 and game.state.ongoing
    assert size <= GAME_CEILING, f"a game of 200 plies retains {size / 1024:.1f} KiB (ceiling {GAME_CEILING / 1024:.0f})"
    # The measure is of the game's own memory: a second game of the same log costs as much again
    # (nothing of it is kept elsewhere), and what it retains grows with its moves.
    size2, again = least_retained(lambda: replay(text))
    assert abs(size2 - size) < size // 10
    # The packed history holds a ply in a few 64-bit words (its move, its repetition key, its event):
    # the second hundred plies cost at least three words each, and the rest is the game's fixed part.
    short, _ = least_retained(lambda: replay("\n".join(text.splitlines()[:101])))
    assert size - short >= 100 * 3 * 8, (short, size)
    assert others and again is not game


def test_compact_events_read_as_before() -> None:
    from chesslaws.events import Fields, parse_event

    ev = parse_event({"type": "move", "t": 1.5, "by": "white", "move": "e2e4", "offer_draw": True})
    assert isinstance(ev.fields, Fields)
    assert dict(ev.fields) == {"move": "e2e4", "offer_draw": True}
    assert ev.get("move") == "e2e4" and ev.get("announced") is None and "offer_draw" in ev.fields
    assert ev.to_json() == {"type": "move", "t": 1.5, "by": "white", "move": "e2e4", "offer_draw": True}
    one = parse_event({"type": "move", "t": 2, "by": "black", "move": "e7e5"})
    assert dict(one.fields) == {"move": "e7e5"} and one.fields["move"] == "e7e5" and len(one.fields) == 1
    assert parse_event({"type": "resign", "t": 3, "by": "black"}).fields == {}
    assert one == parse_event({"type": "move", "t": 2, "by": "black", "move": "e7e5"})
    assert one != parse_event({"type": "move", "t": 2, "by": "black", "move": "e7e6"})
    try:
        setattr(one.fields, "_values", "x")  # noqa: B010
    except AttributeError:
        pass
    else:
        raise AssertionError("an event's fields could be changed")
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(ev)) == ev and copy.deepcopy(one) == one
    listed = parse_event({"type": "start", "t": 0, "absent": ["white"]})
    assert listed.get("absent") == ["white"] and listed.fields["absent"] == ["white"]

"""A game's history (its log, its moves, its repetition keys) is packed in buffers shared by
successive immutable games (chesslaws._packed). These tests hold what sharing must never change: an
earlier game still reads its own history after later games, or other branches of it, were built; the
history reads back as the events and records it was made of; it replays, pickles and compares as
before."""

from __future__ import annotations

import copy
import json
import pickle
import threading

from chesslaws._packed import NO_TEXT, text_id, text_of
from chesslaws.events import EventLog, parse_event
from chesslaws.game import Game, MoveRecord
from chesslaws.history import Keys, Moves


def _game(moves: list[str], edition: str = "1997") -> Game:
    g = Game.start(edition=edition, time_control="40/5400+30", white="W", black="B")
    for i, m in enumerate(moves, start=1):
        g = g.apply({"type": "move", "t": i * 1.5, "by": g.state.turn, "move": m})
    return g


def test_successive_games_share_one_buffer_and_each_reads_its_own_history() -> None:
    games = [_game([])]
    for i, m in enumerate(["e2e4", "e7e5", "Nf3", "Nc6", "f1b5"], start=1):
        games.append(games[-1].apply({"type": "move", "t": i, "by": games[-1].state.turn, "move": m}))
    last = games[-1]
    assert isinstance(last.events, EventLog) and isinstance(last.state.moves, Moves) and isinstance(last.state.keys, Keys)
    for k, g in enumerate(games):
        assert g.events._buf is last.events._buf and g.state.moves._buf is last.state.moves._buf
        assert len(g.events) == k + 1 and len(g.state.moves) == k and len(g.state.keys) == k + 1
        assert [e.get("move") for e in g.events[1:]] == ["e2e4", "e7e5", "Nf3", "Nc6", "f1b5"][:k]
    assert [m.san for m in last.state.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert [m.uci for m in last.state.moves] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    # Another branch from an earlier game copies its part and leaves every other game as it was.
    other = games[2].apply({"type": "move", "t": 3, "by": "white", "move": "d2d4"})
    assert other.state.moves._buf is not last.state.moves._buf
    assert [m.san for m in other.state.moves] == ["e4", "e5", "d4"]
    assert [m.san for m in last.state.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert [m.san for m in games[3].state.moves] == ["e4", "e5", "Nf3"]
    # The same event applied again to the same game shares what is already there.
    again = games[2].apply({"type": "move", "t": 3, "by": "white", "move": "Nf3"})
    assert again.events._buf is last.events._buf and again.state.moves._buf is last.state.moves._buf
    assert again.state == games[3].state and again.events == games[3].events
    # The log keeps its last event as it came (what a server reads after each); a prefix reads it back.
    ev = parse_event({"type": "move", "t": 9, "by": "black", "move": "a7a6"})
    longer = last.apply(ev)
    read = longer.events[:7][-1]
    assert longer.events[-1] is ev and read == ev and read is not ev and longer.events[:6][-1] == games[-1].events[-1]
    # A takeback is a prefix of the same buffer.
    back = last.apply({"type": "reinstate", "t": 10, "by": "arbiter", "ply": 2})
    assert back.state.moves._buf is last.state.moves._buf and [m.san for m in back.state.moves] == ["e4", "e5"]
    assert back.state.keys == last.state.keys[:3] and len(back.state.keys) == 3
    after = back.apply({"type": "move", "t": 11, "by": "white", "move": "f4"})
    assert [m.san for m in after.state.moves] == ["e4", "e5", "f4"]
    assert [m.san for m in last.state.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


def test_the_history_reads_back_as_the_events_and_records_it_was_made_of() -> None:
    lines = [
        {"type": "start", "t": 0, "edition": "1997", "time_control": "40/5400+30", "white": "W", "black": "B",
         "arbiter": "absent"},
        {"type": "move", "t": 1.5, "by": "white", "move": "e2e4", "offer_draw": True},
        {"type": "decline_draw", "t": 2, "by": "black"},
        {"type": "move", "t": 2.25, "by": "black", "move": "e5"},
        {"type": "move", "t": 3, "by": "white", "move": "Nf3", "offer_draw": False},
        {"type": "move", "t": 4, "by": "black", "move": "  b8c6 "},
        {"type": "move", "t": 9_000_000.125, "by": "white", "move": "f1b5"},
    ]
    g = Game.from_events(lines)
    assert [e.to_json() for e in g.events] == [parse_event(x).to_json() for x in lines]
    assert list(g.events) == [parse_event(x) for x in lines] and g.events == tuple(parse_event(x) for x in lines)
    assert g.log_lines() == [json.dumps(parse_event(x).to_json()) for x in lines]
    moves = g.state.moves
    assert moves[0] == MoveRecord(1, "white", "e4", "e2e4", 1500, 5400_000 - 1500 + 30_000, True, False)
    assert moves[1].color == "black" and moves[1].san == "e5" and moves[-1].t_ms == 9_000_000_125
    assert moves[-1].clock_ms == 0  # the flag fell long ago (not observed: no arbiter)
    assert Game.start(time_control="-").apply({"type": "move", "t": 1, "by": "white", "move": "e4"}).state.moves[0].clock_ms is None
    assert moves[2:4] == (moves[2], moves[3]) and moves[::2] == (moves[0], moves[2], moves[4])
    # Replaying the log rebuilds the same state, from a pickled or copied log too; a history pickles as
    # its own entries only (not those of later games in its buffer).
    assert Game.from_events(e.to_json() for e in g.events).state == g.state
    assert Game.from_events(g.events).state == g.state
    for view in (g.events, g.state.moves, g.state.keys, g.events[:3], g.state.moves[:2]):
        for twin in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view), copy.copy(view)):
            assert twin == view and type(twin) is type(view) and list(twin) == list(view)
    first3 = g.events[:3]
    assert isinstance(first3, EventLog) and first3._buf is g.events._buf and len(first3._buf.words) == 7
    assert len(pickle.loads(pickle.dumps(first3))._buf.words) == 3
    assert Game.from_events(pickle.loads(pickle.dumps(g.events))).state == g.state
    # A game whose log is a tuple (built by hand) goes on as one.
    hand = Game(tuple(g.events), g.state).apply({"type": "resign", "t": 9_000_001, "by": "black"})
    assert isinstance(hand.events, EventLog) and list(hand.events)[:-1] == list(g.events)


def test_repetition_keys_are_the_positions_identities() -> None:
    g = _game(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"])
    keys = g.state.keys
    assert keys[0] == keys[4] == keys[8] and keys.count(keys[-1]) == 3 and g.state.repetitions() == 3
    assert len(set(keys)) == 4 and keys[1] == g.state.config.initial_position().play("g1f3").zobrist()
    claim = g.apply({"type": "claim_draw", "t": 20, "by": "white", "reason": "threefold"})
    assert claim.state.termination == "threefold_repetition"


def test_texts_outside_the_table_and_unusual_records_are_kept_as_they_are() -> None:
    long = "x" * 17
    assert text_id(long) == NO_TEXT and text_of(text_id("e2e4")) == "e2e4"
    record = MoveRecord(1, "white", long, "e2e4", 5, None)
    moves = Moves.new().appended(record)
    assert moves[0] is record and moves == (record,)
    odd = MoveRecord(7, "white", "e4", "e2e4", 5, None)  # not the next ply: kept as it is
    assert Moves.new().appended(odd)[0] is odd
    plain = MoveRecord(1, "black", "e5", "e7e5", 0, None, False, True)
    assert Moves.new().appended(plain)[0] == plain
    # A view reads the fields of many moves as rows, the same as the records'.
    mixed = moves.appended(MoveRecord(2, "black", "e5", "e7e5", 9, -3, True, False))
    fields = [(m.ply, m.color, m.san, m.uci, m.t_ms, m.clock_ms, m.draw_offer, m.illegal) for m in mixed]
    assert mixed.rows() == fields and mixed.rows(1) == fields[1:] and mixed.rows(0, 1) == fields[:1]
    assert mixed.rows(1, 99) == fields[1:] and mixed.rows(2) == []


def test_threads_extending_one_game_each_get_their_own_history() -> None:
    base = _game(["e4", "e5"])
    replies = ["Nf3", "Nc3", "d4", "Bc4", "f4", "g3"]
    out: dict[str, Game] = {}

    def play(m: str) -> None:
        g = base
        for _ in range(50):
            g = base.apply({"type": "move", "t": 5, "by": "white", "move": m})
        out[m] = g

    threads = [threading.Thread(target=play, args=(m,)) for m in replies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for m, g in out.items():
        assert [e.get("move") for e in g.events][1:] == ["e4", "e5", m] and g.state.moves[-1].san == m
    assert [m.san for m in base.state.moves] == ["e4", "e5"] and len(base.events) == 3

"""caissify's Dutch edge weights computed in the core (``chesslaws._core.WeightTable.dutch_*``).

Each weight must be the very int caissify's ``_compute_bracket_edge_weight`` gives (every criterion of C.04.3
is a bit field of it: one bit off and another pairing wins), and the engine adapted to compute them in the core
must pair every round as the engine that computes them in Python does.
"""

from __future__ import annotations

import random
from typing import Any

import networkx as nx
import pytest

from chesslaws import _core
from chesslaws.tournament import Regulations, Tournament, pair_next_round, pairing
from chesslaws.tournament.dutch import _dutch_c9, _dutch_field, native_engine
from chesslaws.tournament.matching import width_for
from chesslaws.tournament.pairing import CaissifyDutch

caissify = pytest.importorskip("caissify_pairings.engines.dutch")


def _field(rng: random.Random, n: int, rounds_played: int) -> list[Any]:
    """Players with random colour and float histories (some gaps, a foreign colour value), scores, opponents,
    byes."""
    colours = ["white", "black", "white", "black", "-"]
    floats = [caissify.FloatDir.UP, caissify.FloatDir.DOWN, caissify.FloatDir.NONE]
    players = []
    for i in range(n):
        played = rng.randint(0, rounds_played)
        players.append(caissify.DutchPlayer(
            id=100 + i, name=f"P{i}", score=rng.choice([0, 0.5, 1, 1.5, 2, 2.5, 3]), rating=0,
            pairing_number=i + 1, starting_number=i + 1,
            color_hist=[rng.choice(colours[:4] if rng.random() < 0.95 else colours) for _ in range(played)],
            float_hist=[rng.choice(floats) for _ in range(rng.randint(0, rounds_played))],
            bye_count=rng.random() < 0.1))
    for p in players:
        for q in rng.sample(players, min(n, rounds_played)):
            if q is not p:
                p.opponents.add(q.id)
                if rng.random() < 0.9:  # now and then only one side knows the game
                    q.opponents.add(p.id)
    players.sort(key=lambda p: (-p.score, p.pairing_number))
    return players


@pytest.mark.parametrize("seed", range(12))
def test_every_weight_is_caissifys(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 40)
    total = rng.randint(1, 9)
    round_number = rng.randint(1, total)  # the last round, too (its colour relaxation for the top scorers)
    players = _field(rng, n, round_number - 1)
    engine = caissify.DutchEngine(players=[], previous_pairings=set(), round_number=round_number,
                                  total_rounds=total)
    scores = sorted({p.score for p in players}, reverse=True)
    shifts, shift = {}, 0
    for s in reversed(scores):  # the lowest group first, as caissify reckons them
        shifts[s] = shift
        shift += max(1, sum(p.score == s for p in players).bit_length())
    byes = {p.id for p in players if rng.random() < 0.5} if rng.random() < 0.6 else None
    bye_score = rng.choice(scores) if rng.random() < 0.5 else None
    single = rng.random() < 0.5
    ranks = {k: rng.randint(0, n) for k in range(10)} if rng.random() < 0.7 else None
    table = _core.WeightTable(n)
    idx_of = {p.id: i for i, p in enumerate(players)}
    table.dutch_field(*_dutch_field(engine, players, idx_of, shifts, shift, byes))
    c9 = _dutch_c9(players, bye_score, single, ranks)
    for i in range(n):
        for j in range(n):
            for current, next_ in ((False, False), (True, False), (False, True)):
                expected = engine._compute_bracket_edge_weight(
                    players[i], players[j], 0.0, n, s1_ids=set(), s2_ids=set(), s1_pos={}, s2_pos={}, s_len=0,
                    in_current_bracket=current, in_next_bracket=next_, score_group_shifts=shifts,
                    score_groups_shift=shift, score_group_size_bits=8, bye_candidates=byes,
                    bye_assignee_score=bye_score, is_single_downfloater_bye_assignee=single,
                    unplayed_game_ranks=ranks)
                assert table.dutch_weight(i, j, current, next_, c9) == expected, (seed, i, j, current, next_)


def test_a_bracket_is_its_weights_set_on_the_table() -> None:
    rng = random.Random(7)
    players = _field(rng, 30, 4)
    engine = caissify.DutchEngine(players=[], previous_pairings=set(), round_number=5, total_rounds=9)
    shifts = {s: k for k, s in enumerate(sorted({p.score for p in players}))}
    table = _core.WeightTable(30)
    table.dutch_field(*_dutch_field(engine, players, {p.id: i for i, p in enumerate(players)}, shifts, 12, None))
    table.dutch_initial()
    assert [table.get((i, j)) for i in range(30) for j in range(i + 1, 30)] == [
        table.dutch_weight(i, j, False, False) for i in range(30) for j in range(i + 1, 30)]
    local = rng.sample(range(30), 20)
    rows = table.dutch_bracket(local, 3, 12)
    assert [len(r) for r in rows] == [0, 0, 0] + list(range(3, 20))
    for li in range(3, 20):
        for lj in range(li):
            w = table.dutch_weight(local[lj], local[li], li < 12, li >= 12)
            assert rows[li][lj] == w == table.get_w(local[li], local[lj])
    table.finalize(4, 9)
    assert table.get_w(9, 4) == 1 and table.get_w(4, 0) == table.get_w(17, 9) == 0 and table.get_w(1, 2) != 0
    assert table.get((4, 4)) == 0  # as caissify's own loop sets it


def _event(n: int, rounds: int, seed: int) -> Tournament:
    t = Tournament(f"weights {n}", Regulations(rounds=rounds))
    rng = random.Random(seed)
    for i in range(n):
        t = t.add_player(f"P{i:03}", rng.randint(1200, 2600))
    return t.order_by_rating()


@pytest.mark.parametrize("n,rounds,seed", [(60, 7, 1), (61, 7, 2), (45, 9, 3)])
def test_the_engine_pairs_as_with_its_weights_in_python(n: int, rounds: int, seed: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round, even and odd fields, the last round's relaxation included, withdrawals and a forfeit."""
    assert native_engine(True) is not native_engine(False)
    engine = CaissifyDutch()
    rng = random.Random(seed)
    t = _event(n, rounds, seed)
    for r in range(1, rounds + 1):
        if r == 4:
            t = t.withdraw(t.players[5].start_number)
        ours = pair_next_round(t, engine)
        with monkeypatch.context() as m:
            m.setattr(pairing, "native_engine", lambda: native_engine(False))
            theirs = pair_next_round(t, engine)
        assert [(b.white, b.black) for b in ours.rounds[-1].boards] == [
            (b.white, b.black) for b in theirs.rounds[-1].boards], r
        assert ours.rounds[-1].byes == theirs.rounds[-1].byes, r
        for k, b in enumerate(ours.rounds[-1].boards):
            x = rng.random()
            result = "+-" if k == 3 and r == 2 else "1/2-1/2" if x < 0.3 else "1-0" if x < 0.65 else "0-1"
            ours = ours.set_result(r, b.table, result)
        t = ours


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_kept_graph_matches_as_the_whole_graph_handed_over(seed: int) -> None:
    """A table whose keys i < j were first set in order keeps its graph in the matcher between matchings and
    changes it in place (edges re-weighted, gone to 0 or below, back again, pairs fixed): each matching is
    the one a session handed the whole graph (positive edges in key order) makes, step for step, and of
    networkx' cardinality and weight."""
    rng = random.Random(seed)
    n = rng.randint(20, 45)
    table = _core.WeightTable(n)
    weights: dict[tuple[int, int], int] = {}
    for i in range(n):
        for j in range(i + 1, n):
            weights[(i, j)] = rng.randint(1, 2**250) if rng.random() < 0.7 else 0
            table[(i, j)] = weights[(i, j)]
    session = _core.MatchingSession()
    for step in range(30):
        kind = step % 3
        if kind == 1:
            p, q = rng.sample(range(n), 2)
            table.finalize(p, q)
            for e in weights:
                if (p in e or q in e) and e != (min(p, q), max(p, q)):
                    weights[e] = 0
            weights[(min(p, q), max(p, q))] = 1
        elif kind == 2:
            x = rng.randrange(n)
            for (i, j) in weights:
                if x in (i, j):
                    w = rng.choice([0, -5, rng.randint(1, 2**250), weights[(i, j)] + 1])
                    weights[(i, j)] = w
                    table.set(j, i, w)
        positive = [(e, w) for e, w in weights.items() if w > 0]
        width = width_for([w for _, w in positive])
        assert width is not None
        blob = b"".join(w.to_bytes(width, "little", signed=True) for _, w in positive)
        whole = session.matching(n, [i for (i, _), _ in positive], [j for (_, j), _ in positive], blob, width, True)
        mates = table.solve()
        assert mates == [v if m < 0 else m for v, m in enumerate(whole)], step
        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from((i, j, w) for (i, j), w in positive)
        expected = nx.max_weight_matching(g, maxcardinality=True)
        got = {(v, m) for v, m in enumerate(mates) if m > v}
        assert len(got) == len(expected), step
        assert sum(weights[e] for e in got) == sum(weights[(min(e), max(e))] for e in expected), step
    assert (table.warm, table.cold, table.fallbacks) == (session.warm, session.cold, session.fallbacks)
    assert table.warm >= 10, (table.warm, table.cold)

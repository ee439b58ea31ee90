"""The Rust maximum-weight matching behind caissify-pairings (``chesslaws.tournament.matching``).

It must give what ``networkx.max_weight_matching`` gives, the same matching where several have the
greatest weight (small integer weights: many ties), and caissify must pair every round of an event
exactly as it pairs with networkx: the differential tests below compare both on the same input.
"""

from __future__ import annotations

import random
import sys
import threading
from typing import Any

import networkx as nx
import pytest

from chesslaws import _core
from chesslaws.tournament import Regulations, Tournament, pair_next_round
from chesslaws.tournament.dutch import native_engine
from chesslaws.tournament.matching import Graph, max_weight_matching, native_networkx, width_for
from chesslaws.tournament.pairing import CaissifyDutch, swiss_request


def _pairs(m: Any) -> set[frozenset[Any]]:
    return {frozenset(e) for e in m}


def _random_graphs(seed: int, count: int, most: int) -> Any:
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(1, most)
        density = rng.random()
        top = rng.choice([1, 2, 3, 10, 10**6, 2**200, 2**290, 2**393, 2**600])
        low = -1 if top < 5 else 1
        edges = [(i, j) for i in range(n) for j in range(n) if i != j and rng.random() < density / 2]
        rng.shuffle(edges)
        yield n, [(i, j, rng.randint(low, top)) for i, j in edges]


@pytest.mark.parametrize("seed,count,most", [(1, 1500, 10), (2, 150, 40)])
def test_the_same_matching_as_networkx_on_random_graphs(seed: int, count: int, most: int) -> None:
    """Random graphs, weights from {-1..1} to 600 bits, edges added in random order (some twice, the second
    weight replacing the first), with and without maxcardinality: the very matching networkx returns."""
    order = random.Random(seed)
    for n, edges in _random_graphs(seed, count, most):
        g, ours = nx.Graph(), Graph()
        # Nodes 0..n-1 first (caissify's way); or named, some only by their edges, some added between edges:
        # the node order (networkx': as first added) decides among equally heavy matchings.
        named = order.random() < 0.5
        label = (lambda i: f"v{(i * 7) % n}") if named else (lambda i: i)
        late = set(order.sample(range(n), n // 3)) if named else set()
        for i in range(n):
            if not named or (i not in late and order.random() < 0.5):
                g.add_node(label(i))
                ours.add_node(label(i))
        for k, (i, j, w) in enumerate(edges):
            if late and k % 5 == 0:
                x = late.pop()
                g.add_node(label(x))
                ours.add_node(label(x))
            g.add_edge(label(i), label(j), weight=w)
            ours.add_edge(label(i), label(j), weight=w)
        for mc in (False, True):
            expected = _pairs(nx.max_weight_matching(g, maxcardinality=mc))
            assert _pairs(max_weight_matching(ours, maxcardinality=mc)) == expected, (n, edges, mc)


def test_wide_weights_pick_a_wide_type_and_beyond_1024_bits_networkx() -> None:
    assert width_for([1, 2**100]) == 16 and width_for([2**120]) == 32 and width_for([-(2**200)]) == 32
    assert width_for([2**393]) == 56 and width_for([2**450]) == 64 and width_for([2**600]) == 96
    assert width_for([2**900]) == 128 and width_for([2**1010]) is None
    # A weight that only a 1024-bit type (or networkx) can hold, and one beyond: the heavier edge wins.
    for big in (2**900, 2**1100):
        g = Graph()
        g.add_edge("a", "b", weight=big)
        g.add_edge("b", "c", weight=big + 1)
        g.add_edge("c", "d", weight=1)
        assert _pairs(max_weight_matching(g)) == {frozenset("bc")}
        assert _pairs(max_weight_matching(g, maxcardinality=True)) == {frozenset("ab"), frozenset("cd")}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_warm_starts_reach_the_optimum(seed: int) -> None:
    """A session of graphs on the same vertices, each changed from the one before as caissify changes them
    (a pair fixed: its other edges gone, its own edge set to 1; a vertex's edges re-weighted up or down):
    every matching has the cardinality and the weight of networkx' (which may differ only among ties).
    Most are warm starts; a warm start whose end fails the optimality check (its unmatched vertices' duals
    not the least) is redone from scratch, and counted."""
    rng = random.Random(seed)
    n = rng.randint(20, 41)
    weights = {(i, j): rng.randint(1, 2**300) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.6}
    session = _core.MatchingSession()
    for step in range(25):
        if step % 2:
            p, q = rng.sample(range(n), 2)
            for e in list(weights):
                if (p in e or q in e) and e != (min(p, q), max(p, q)):
                    del weights[e]
            weights[(min(p, q), max(p, q))] = 1
        else:
            x = rng.randrange(n)
            for e in weights:
                if x in e and weights[e] > 1:
                    weights[e] = max(1, weights[e] + rng.randint(-2**290, 2**290))
        g = nx.Graph()
        g.add_nodes_from(range(n))
        ours = Graph()
        for i in range(n):
            ours.add_node(i)
        for (i, j), w in weights.items():
            g.add_edge(i, j, weight=w)
            ours.add_edge(i, j, weight=w)
        expected = nx.max_weight_matching(g, maxcardinality=True)
        width = width_for(list(weights.values()))
        assert width is not None
        blob = b"".join(w.to_bytes(width, "little", signed=True) for w in weights.values())
        mate = session.matching(n, [i for i, _ in weights], [j for _, j in weights], blob, width, True)
        got = {(i, j) for i, j in enumerate(mate) if j > i}
        assert len(got) == len(expected), step
        assert sum(weights[e] for e in got) == sum(weights[(min(e), max(e))] for e in expected), step
    assert session.warm >= 12 and session.warm + session.cold == 25, (session.warm, session.cold)
    assert session.cold == 1 + session.fallbacks


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="vertex 5 is not one of the 3 vertices"):
        _core.max_weight_matching(3, [0], [5], bytes(16), 16, True)
    with pytest.raises(ValueError, match="do not describe the same edges"):
        _core.max_weight_matching(3, [0, 1], [1], bytes(16), 16, True)
    with pytest.raises(ValueError, match="width 3 bytes"):
        _core.max_weight_matching(3, [0], [1], bytes(3), 3, True)


def test_networkx_is_lent_to_this_thread_only_and_given_back() -> None:
    import networkx

    real = sys.modules["networkx"]
    seen: dict[str, Any] = {}

    def other_thread() -> None:
        import networkx as other

        seen["graph"] = other.Graph

    with native_networkx():
        import networkx as lent

        assert lent.Graph is Graph and lent.max_weight_matching is max_weight_matching
        assert lent.DiGraph is networkx.DiGraph  # everything else is networkx
        with native_networkx():  # re-entrant
            pass
        assert sys.modules["networkx"] is not real
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert seen["graph"] is networkx.Graph
    assert sys.modules["networkx"] is real


def _event(n: int, rounds: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(f"Differential {n}", Regulations(rounds=rounds))
    for i in range(n):
        t = t.add_player(f"P{i + 1:03}", rng.randint(1200, 2700))
    t = t.order_by_rating()
    return t.request_bye(2, 3, "half").request_bye(3, 8, "zero").request_bye(rounds, 5, "full")


@pytest.mark.parametrize("n,rounds,seed", [(31, 7, 1), (40, 7, 2), (56, 6, 3), (70, 5, 4)])
def test_caissify_pairs_every_round_as_with_networkx(n: int, rounds: int, seed: int) -> None:
    """caissify's Dutch engine with the Rust matching (from scratch; warm-started, handed a graph per matching;
    warm-started on the round's weights held in the core: the default) and with networkx, on the same request
    every round (requested byes, a withdrawal, forfeits, odd fields with a pairing-allocated bye): the same
    boards."""
    rng = random.Random(seed)
    t = _event(n, rounds, seed)
    for r in range(1, rounds + 1):
        if r == 4:
            t = t.withdraw(n // 2)
        request = swiss_request(t)
        reference = CaissifyDutch(own_colours=False, native=False).pair(request)
        assert CaissifyDutch(own_colours=False, warm=False).pair(request) == reference, f"round {r}, from scratch"
        assert CaissifyDutch(own_colours=False, table=False).pair(request) == reference, f"round {r}, warm starts"
        assert CaissifyDutch(own_colours=False).pair(request) == reference, f"round {r}, the weights in the core"
        t = pair_next_round(t, CaissifyDutch())
        for b in t.rounds[-1].boards:
            x = rng.random()
            result = "+-" if x < 0.03 else "1/2-1/2" if x < 0.33 else "1-0" if x < 0.66 else "0-1"
            t = t.set_result(r, b.table, result)
    assert t.finished


def test_caissify_really_pairs_with_the_rust_matching(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lent networkx reaches caissify's engine (it imports networkx inside its functions): were that to
    change, caissify would pair with networkx again, at the speed of pure Python. Counted here, for the engine
    handed a graph per matching (``table=False``) and for the default, whose round's weights are a
    WeightTable of the core (the adapted search: were caissify's source to change so that it cannot be adapted,
    the engine would run as caissify wrote it, several times slower)."""
    from chesslaws.tournament import matching

    calls: list[int] = []
    real = matching.max_weight_matching

    def counting(graph: Any, maxcardinality: bool = False, weight: str = "weight") -> set[tuple[Any, Any]]:
        calls.append(graph.number_of_nodes())
        return real(graph, maxcardinality, weight)

    monkeypatch.setattr(matching, "max_weight_matching", counting)
    t = _event(24, 5, 9)
    t = pair_next_round(t, CaissifyDutch())
    for b in t.rounds[-1].boards:
        t = t.set_result(1, b.table, "1-0")
    pair_next_round(t, CaissifyDutch(table=False))
    assert calls and all(n >= 20 for n in calls), calls

    engine = native_engine()
    assert engine is not None, "caissify-pairings' search could not be adapted: its source changed"
    tables: list[int] = []

    class Counting:
        def __init__(self, n: int) -> None:
            self.table = _core.WeightTable(n)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.table, name)

        def __setitem__(self, key: tuple[int, int], value: int) -> None:
            self.table[key] = value

        def solve(self) -> list[int]:
            tables.append(1)
            return self.table.solve()

    monkeypatch.setitem(engine._pair_iterative_mwm.__globals__, "_WeightTable", Counting)
    calls.clear()
    pair_next_round(t, CaissifyDutch())
    # The lent networkx still matches once, the preliminary matching of an odd field (23 here: one half bye).
    assert len(tables) >= 6 and len(calls) <= 1, (tables, calls)


def test_a_weight_table_is_a_dict_of_ints_matched_as_networkx_would() -> None:
    """The table reads back what was set (``get`` with a default, as a dict), keeps a key's first place when
    it is set again, and matches the positive edges only, each vertex's mate or itself."""
    table = _core.WeightTable(5)
    table[(0, 1)] = 2**300
    table[(1, 2)] = 7
    table[(2, 3)] = 2**300
    table[(3, 4)] = 0
    table[(0, 1)] = -5  # no longer an edge
    assert table.get((0, 1), 0) == -5 and table.get((0, 4), 0) == 0 and table.get((0, 4)) is None
    assert len(table) == 4
    graph = nx.Graph()
    graph.add_nodes_from(range(5))
    graph.add_edge(1, 2, weight=7)
    graph.add_edge(2, 3, weight=2**300)
    mates = list(range(5))
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        mates[u], mates[v] = v, u
    assert table.solve() == mates == [0, 1, 3, 2, 4]
    with pytest.raises(KeyError):
        table[(5, 0)] = 1
    with pytest.raises(ValueError):
        table[(0, 2)] = 1.5  # type: ignore[assignment]


def test_a_session_encodes_weights_as_to_bytes_does() -> None:
    session = _core.MatchingSession()
    big = 2**393 + 12345
    weights = [0, 1, -1, 255, -256, big, -big, big, 7]
    encoded = session.encode(weights)
    assert encoded is not None
    blob, width = encoded
    assert width == width_for(weights) == 56
    assert blob == b"".join(w.to_bytes(width, "little", signed=True) for w in weights)
    again = session.encode([5, -2**100, 1])  # the small ones were encoded before: widths still fit
    assert again is not None and again[1] == 16
    assert again[0] == b"".join(w.to_bytes(16, "little", signed=True) for w in [5, -2**100, 1])
    assert session.encode([1, 2.0]) is None and session.encode([2**1001]) is None and session.encode(["1"]) is None

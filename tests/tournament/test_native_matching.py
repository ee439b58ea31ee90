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
    for n, edges in _random_graphs(seed, count, most):
        g, ours = nx.Graph(), Graph()
        for i in range(n):
            g.add_node(i)
            ours.add_node(i)
        for i, j, w in edges:
            g.add_edge(i, j, weight=w)
            ours.add_edge(i, j, weight=w)
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


@pytest.mark.parametrize("n,rounds,seed", [(31, 7, 1), (40, 7, 2), (56, 6, 3)])
def test_caissify_pairs_every_round_as_with_networkx(n: int, rounds: int, seed: int) -> None:
    """caissify's Dutch engine with the Rust matching and with networkx, on the same request every round
    (requested byes, a withdrawal, forfeits, odd fields with a pairing-allocated bye): the same boards."""
    rng = random.Random(seed)
    t = _event(n, rounds, seed)
    for r in range(1, rounds + 1):
        if r == 4:
            t = t.withdraw(n // 2)
        request = swiss_request(t)
        native = CaissifyDutch(own_colours=False).pair(request)
        reference = CaissifyDutch(own_colours=False, native=False).pair(request)
        assert native == reference, f"round {r}"
        t = pair_next_round(t, CaissifyDutch())
        for b in t.rounds[-1].boards:
            x = rng.random()
            result = "+-" if x < 0.03 else "1/2-1/2" if x < 0.33 else "1-0" if x < 0.66 else "0-1"
            t = t.set_result(r, b.table, result)
    assert t.finished

"""Maximum-weight matching in the Rust core, for caissify-pairings' Dutch engine.

caissify-pairings (the Dutch system chesslaws pairs with when no bbpPairings
is installed) solves one maximum-cardinality, maximum-weight matching of the
whole field for every pair it fixes, with ``networkx.max_weight_matching``
(pure Python) on edge weights of 300-450 bits: 97 % of its time, minutes per
round past 150 players. :func:`max_weight_matching` is the same algorithm in
the Rust core (``chesslaws._core.max_weight_matching``: same steps in the same
order, so that where several matchings have the greatest weight it returns the
one networkx returns), on fixed-width integers of 128 to 1024 bits.

:func:`native_networkx` lends it to caissify while one round is paired: code
that runs ``import networkx`` in this thread inside the block gets a module
whose ``Graph`` and ``max_weight_matching`` are the ones below (all other
names, and every other thread, get networkx itself).
"""

from __future__ import annotations

import sys
import threading
import types
import warnings
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from chesslaws import _core

WIDTHS = (16, 32, 40, 48, 56, 64, 96, 128)  # bytes per weight the core accepts (128 to 1024 bits)
HEADROOM = 24
"""Bits above the widest weight. Under maxcardinality a vertex dual can fall below zero, by up to about
the number of vertices times the widest weight: 24 bits cover graphs of a million vertices."""


class Graph:
    """The part of ``networkx.Graph`` caissify-pairings uses: nodes, weighted edges, in the order they were
    added (an edge added again keeps its place and takes the new weight, as in networkx; a node first
    named by an edge is added then, the first end before the second)."""

    __slots__ = ("_index", "_nodes", "_added_at", "_us", "_vs", "_ws")

    def __init__(self) -> None:
        self._index: dict[Hashable, int] = {}
        self._nodes: list[Hashable] = []  # added by add_node
        self._added_at: list[int] = []  # how many edges had been added then
        self._us: list[Hashable] = []  # the edges' ends as given: resolved to indices when matched
        self._vs: list[Hashable] = []
        self._ws: list[Any] = []

    def add_node(self, node: Hashable) -> None:
        if node not in self._index:
            self._index[node] = len(self._nodes)
            self._nodes.append(node)
            self._added_at.append(len(self._us))

    def add_edge(self, u: Hashable, v: Hashable, weight: Any = 1, **_: Any) -> None:
        self._us.append(u)
        self._vs.append(v)
        self._ws.append(weight)

    def resolved(self, fast: bool = True) -> tuple[list[Hashable], list[int], list[int]]:
        """(the nodes in the order networkx would have them, each edge's ends as indices into them).

        ``fast``: nodes 0..n-1 added before the edges, in order, are their own indices: the ends are
        given as they are when they lie in 0..n-1 (the core refuses any that is not an int)."""
        nodes, us, vs = self._nodes, self._us, self._vs
        n = len(nodes)
        if fast and nodes == list(range(n)) and (not nodes or self._added_at[-1] == 0):
            ints_u = cast(list[int], us)
            ints_v = cast(list[int], vs)
            try:
                if not ints_u or (min(min(ints_u), min(ints_v)) >= 0 and max(max(ints_u), max(ints_v)) < n):
                    return nodes, ints_u, ints_v
            except TypeError:  # ends that do not compare with ints
                pass
        index: dict[Hashable, int] = {}
        order: list[Hashable] = []

        def add(x: Hashable) -> None:
            if x not in index:
                index[x] = len(order)
                order.append(x)

        pending = 0
        for k, (u, v) in enumerate(zip(us, vs)):
            while pending < n and self._added_at[pending] <= k:
                add(nodes[pending])
                pending += 1
            add(u)
            add(v)
        for x in nodes[pending:]:
            add(x)
        return order, [index[u] for u in us], [index[v] for v in vs]

    def number_of_nodes(self) -> int:
        return len(self.resolved()[0])

    def weighted_edges(self) -> Iterator[tuple[Hashable, Hashable, Any]]:
        """The edges as added (an edge added twice comes twice: the second weight is the one that counts)."""
        yield from zip(self._us, self._vs, self._ws)

    @property
    def nodes_in_order(self) -> list[Hashable]:
        return self.resolved()[0]


def width_for(weights: list[int]) -> int | None:
    """Bytes per weight for these weights (one of :data:`WIDTHS`), None when they need more than 1024 bits."""
    if not weights:
        return WIDTHS[0]
    bits = max(max(weights).bit_length(), (-min(weights)).bit_length()) + HEADROOM
    for width in WIDTHS:
        if bits < 8 * width:
            return width
    return None


def _networkx_matching(graph: Graph, maxcardinality: bool, weight: str) -> set[tuple[Any, Any]]:
    import networkx

    real = networkx.Graph()
    real.add_nodes_from(graph.nodes_in_order)
    for u, v, w in graph.weighted_edges():
        real.add_edge(u, v, **{weight: w})
    return set(networkx.max_weight_matching(real, maxcardinality=maxcardinality, weight=weight))


def max_weight_matching(graph: Any, maxcardinality: bool = False, weight: str = "weight") -> set[tuple[Any, Any]]:
    """``networkx.max_weight_matching`` for a :class:`Graph` of integer weights, in the Rust core: the set of
    matched pairs, the same set networkx returns (inside ``native_networkx(warm=True)``: a matching of the
    same weight and cardinality, warm-started, maybe another among equally heavy ones). Any other graph, or
    weights that are not integers or need more than 1024 bits, go to networkx itself."""
    import networkx

    if not isinstance(graph, Graph):
        return set(networkx.max_weight_matching(graph, maxcardinality=maxcardinality, weight=weight))
    weights = graph._ws
    session: _core.MatchingSession | None = getattr(_borrowers, "session", None)
    if session is not None:  # it encodes each int object once per session (most come back every matching)
        encoded = session.encode(weights)
        if encoded is None:
            return _networkx_matching(graph, maxcardinality, weight)
        blob, width = encoded
    else:
        try:  # integers only (networkx computes otherwise with floats): anything else goes to networkx
            found = width_for(weights)
            if found is None:
                return _networkx_matching(graph, maxcardinality, weight)
            width = found
            blob = b"".join([w.to_bytes(width, "little", signed=True) for w in weights])
        except (AttributeError, TypeError):
            return _networkx_matching(graph, maxcardinality, weight)
    nodes, us, vs = graph.resolved()
    if len(nodes) >= 1 << 20:
        return _networkx_matching(graph, maxcardinality, weight)
    solve = session.matching if session is not None else _core.max_weight_matching
    try:
        try:
            mate = solve(len(nodes), us, vs, blob, width, maxcardinality)
        except (TypeError, OverflowError):  # ends that are not ints of 0..n-1 after all: by the node order
            nodes, us, vs = graph.resolved(fast=False)
            mate = solve(len(nodes), us, vs, blob, width, maxcardinality)
    except ValueError as err:  # the optimality check failed: a defect of the core, networkx decides
        warnings.warn(f"{err}; matched by networkx instead", RuntimeWarning, stacklevel=2)
        return _networkx_matching(graph, maxcardinality, weight)
    return {(nodes[i], nodes[j]) for i, j in enumerate(mate) if j > i}


_borrowers = threading.local()


def _depth() -> int:
    """How many :func:`native_networkx` blocks this thread is in."""
    depth: int = getattr(_borrowers, "depth", 0)
    return depth


class _NetworkxLender(types.ModuleType):
    """networkx, except that ``Graph`` and ``max_weight_matching`` are this module's in a thread inside
    :func:`native_networkx`."""

    def __init__(self, real: types.ModuleType) -> None:
        super().__init__(real.__name__, real.__doc__)
        object.__setattr__(self, "_real", real)

    def __getattribute__(self, name: str) -> Any:
        if name in ("Graph", "max_weight_matching") and _depth() > 0:
            return Graph if name == "Graph" else max_weight_matching
        if name in ("_real", "__class__", "__dict__"):
            return object.__getattribute__(self, name)
        return getattr(object.__getattribute__(self, "_real"), name)


_lock = threading.Lock()
_users = 0
_saved: types.ModuleType | None = None


@contextmanager
def native_networkx(*, warm: bool = False) -> Iterator[_core.MatchingSession | None]:
    """Inside the block, ``import networkx`` in this thread gets the Rust matching (see the module's text).

    With ``warm``, each matching starts from the optimum of the one before (a :class:`chesslaws._core.
    MatchingSession`, yielded: it counts warm and cold starts); where several matchings have the greatest
    weight it may then pick another one than networkx."""
    global _users, _saved
    import networkx  # the real one, before it is lent out

    session = _core.MatchingSession() if warm else None
    outer = getattr(_borrowers, "session", None)
    _borrowers.session = session

    with _lock:
        if _users == 0:
            _saved = sys.modules.get("networkx")
            sys.modules["networkx"] = _NetworkxLender(_saved or networkx)
        _users += 1
    _borrowers.depth = _depth() + 1
    try:
        yield session
    finally:
        _borrowers.depth -= 1
        _borrowers.session = outer
        with _lock:
            _users -= 1
            if _users == 0:
                if _saved is not None:
                    sys.modules["networkx"] = _saved
                _saved = None

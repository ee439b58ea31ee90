"""caissify-pairings' Dutch engine with the edge weights of its round held in the Rust core.

caissify pairs a round bracket by bracket as bbpPairings does: it keeps the weight of every pair of players in
a dict, changes a few of them for each pair it fixes, and then matches the whole field again, building a
networkx graph of every positive weight in Python (``_run_mwm``): a pass over all n²/2 pairs per matching and
n/2 matchings a round, most of its time. :class:`NativeDutchEngine` runs the same search (caissify's own
``_pair_iterative_mwm``, compiled from its source) with two changes: the dict is a
:class:`chesslaws._core.WeightTable`, which encodes each weight once, when it is set, and matching it is one
call into the core (``WeightTable.solve``) that hands the matcher the same graph in the same order as
``_run_mwm`` built it (vertices 0..n, edges in the dict's order), warm from the optimum before. The pairings
are the ones caissify makes with :func:`chesslaws.tournament.matching.native_networkx`. Its players' colour
preferences, which it derives from their colour histories at every one of the n²/2 weights, are derived once
per player (the histories do not change while a round is paired).

The source is adapted by replacing two exact pieces of text; when a version of caissify-pairings does not
have them, :func:`native_engine` is None and the engine runs as caissify wrote it.
"""

from __future__ import annotations

import functools
import inspect
import textwrap
from typing import Any

from chesslaws import _core

_DICT = "edge_weights: Dict[Tuple[int, int], int] = {}"
_RUN = '''        def _run_mwm() -> List[int]:
            """
            Run MWM on the current graph.
            Returns matching[idx] = partner_idx (self if unmatched).
            """
            G = nx.Graph()
            for i in range(n):
                G.add_node(i)
            for (i, j), w in edge_weights.items():
                if w > 0:
                    G.add_edge(i, j, weight=w)
            m = nx.max_weight_matching(G, maxcardinality=True)
            result = list(range(n))  # self-matched = unmatched
            for u, v in m:
                result[u] = v
                result[v] = u
            return result
'''
_SOLVE = '''        def _run_mwm() -> List[int]:
            return edge_weights.solve()
'''


@functools.cache
def native_engine() -> Any | None:
    """caissify's ``DutchEngine`` with its ``_pair_iterative_mwm`` adapted (its weights in a
    :class:`chesslaws._core.WeightTable`), or None when its source is not the one adapted here."""
    from caissify_pairings.engines import dutch as _caissify

    try:
        source = inspect.getsource(_caissify.DutchEngine._pair_iterative_mwm)
    except (OSError, TypeError):
        return None
    if source.count(_DICT) != 1 or source.count(_RUN) != 1:
        return None
    source = source.replace(_DICT, "edge_weights = _WeightTable(n)").replace(_RUN, _SOLVE)
    namespace: dict[str, Any] = dict(vars(_caissify))
    namespace["_WeightTable"] = _core.WeightTable
    exec(compile(textwrap.dedent(source), "<caissify-pairings' _pair_iterative_mwm, adapted>", "exec"), namespace)
    base: Any = _caissify.DutchPlayer

    class Player(base):  # type: ignore[misc]
        """caissify's player, its colour preference derived once (its colour history is fixed for the round)."""

        @functools.cached_property
        def color_diff(self) -> int:
            return int(base.color_diff.fget(self))

        @functools.cached_property
        def color_preference(self) -> Any:
            return base.color_preference.fget(self)

        @functools.cached_property
        def preference_strength(self) -> int:
            return int(base.preference_strength.fget(self))

        @functools.cached_property
        def _violates(self) -> dict[str, bool]:
            return {c: bool(base.would_violate_absolute_color(self, c)) for c in ("white", "black")}

        def would_violate_absolute_color(self, color: str) -> bool:
            return self._violates[color] if color in self._violates else bool(
                base.would_violate_absolute_color(self, color))

    def build_players(engine: Any, raw: list[dict[str, Any]]) -> list[Any]:
        players: list[Any] = _caissify.DutchEngine._build_players(engine, raw)
        for p in players:
            p.__class__ = Player
        return players

    return type("NativeDutchEngine", (_caissify.DutchEngine,), {
        "_pair_iterative_mwm": namespace["_pair_iterative_mwm"], "_build_players": build_players,
        "__module__": __name__,
        "__doc__": "caissify's DutchEngine, the weights of its round in the Rust core (chesslaws.tournament.dutch)."})

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

The weights themselves are computed in the core too (``WeightTable.dutch_field``, ``dutch_initial``,
``dutch_bracket``: caissify's ``_compute_bracket_edge_weight``, field for field, from what each player brings
to it, read once a round by :func:`_dutch_field`), a bracket in one call, and so are fixing a pair
(``finalize``) and setting one weight (``set``): caissify's Python loops over every pair of players, once the
matchings were in the core, were most of a round.

The source is adapted by replacing exact pieces of text; when a version of caissify-pairings does not have the
two that hold the weights and the matching, :func:`native_engine` is None and the engine runs as caissify wrote
it (the others are replaced where found: each alone leaves the pairings as they are).
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
_SET_GET = '''        def _set_w(i: int, j: int, w: int):
            edge_weights[_ek(i, j)] = w

        def _get_w(i: int, j: int) -> int:
            return edge_weights.get(_ek(i, j), 0)
'''
_SET_GET_CORE = '''        _set_w = edge_weights.set
        _get_w = edge_weights.get_w
'''
_FINALIZE = '''        def _finalize_pair(idx1: int, idx2: int):
            \"\"\"Lock in a pairing by zeroing all alternative edges.\"\"\"
            for k in range(n):
                if k != idx2:
                    _set_w(idx1, k, 0)
                if k != idx1:
                    _set_w(idx2, k, 0)
            _set_w(idx1, idx2, 1)
'''
_FINALIZE_CORE = '''        _finalize_pair = edge_weights.finalize
'''


def _weight_call(first: tuple[str, ...], current: str, following: str, *, indent: int) -> str:
    """caissify's call of ``_compute_bracket_edge_weight`` as both its weight loops write it (the field's first
    weights and a bracket's), ``indent`` spaces in: the arguments before ``s1_ids`` (``first``, a line each) and
    the values of the two bracket flags are the loop's own, the rest is the same in both."""
    args = ",\n    ".join(first)
    return textwrap.indent(f"""w = self._compute_bracket_edge_weight(
    {args},
    s1_ids=set(), s2_ids=set(),
    s1_pos={{}}, s2_pos={{}}, s_len=0,
    in_current_bracket={current},
    in_next_bracket={following},
    score_group_shifts=score_group_shifts,
    score_groups_shift=score_groups_shift,
    score_group_size_bits=score_group_size_bits,
    bye_candidates=bye_candidates,
    bye_assignee_score=bye_assignee_score,
    is_single_downfloater_bye_assignee=is_single_downfloater_bye_assignee,
    unplayed_game_ranks=unplayed_game_ranks,
)
""", " " * indent)


_INITIAL = '''        for i in range(n):
            for j in range(i + 1, n):
                pi, pj = sorted_players[i], sorted_players[j]
''' + _weight_call(("pi, pj", "bracket_score=min(pi.score, pj.score)", "n=n"), "False", "False", indent=16) + '''\
                edge_weights[(i, j)] = w
'''
_INITIAL_CORE = '''        edge_weights.dutch_field(*_dutch_field(
            self, sorted_players, idx_of, score_group_shifts, score_groups_shift, bye_candidates))
        edge_weights.dutch_initial(_dutch_c9(
            sorted_players, bye_assignee_score, is_single_downfloater_bye_assignee, unplayed_game_ranks))
'''
_BRACKET = '''            base_ew: List[List[int]] = [[] for _ in range(num_local)]

            for li in range(score_group_begin, num_local):
                for lj in range(li):
                    gi = players_by_idx[li]
                    gj = players_by_idx[lj]
                    pi = sorted_players[gi]
                    pj = sorted_players[gj]

                    # In bbpPairings: larger local index = lower-ranked
                    in_current = (li < next_sg_begin)
                    in_next = (li >= next_sg_begin)

''' + _weight_call(("pj, pi, bracket_score, n",), "in_current", "in_next", indent=20) + '''\
                    base_ew[li].append(w)

            # Set edge weights in global graph
            for li in range(score_group_begin, num_local):
                for lj in range(li):
                    gi = players_by_idx[li]
                    gj = players_by_idx[lj]
                    w = base_ew[li][lj] if lj < len(base_ew[li]) else 0
                    _set_w(gi, gj, w)
'''
_BRACKET_CORE = '''            base_ew = edge_weights.dutch_bracket(players_by_idx, score_group_begin, next_sg_begin, _dutch_c9(
                sorted_players, bye_assignee_score, is_single_downfloater_bye_assignee, unplayed_game_ranks))
'''
_REQUIRED = ((_DICT, "edge_weights = _WeightTable(n)"), (_RUN, _SOLVE))
_CALLS = ((_SET_GET, _SET_GET_CORE), (_FINALIZE, _FINALIZE_CORE))
_WEIGHTS = ((_INITIAL, _INITIAL_CORE), (_BRACKET, _BRACKET_CORE))


def _dutch_field(engine: Any, players: list[Any], idx_of: dict[Any, int], shifts: dict[float, int],
                 shift_bits: int, bye_candidates: set[Any] | None) -> tuple[Any, ...]:
    """What caissify's edge weight reads of each player, for :meth:`chesslaws._core.WeightTable.dutch_field`
    (every score of the round has its score group's shift: caissify's ``_score_bits`` is ``1 << shift``)."""
    from caissify_pairings.engines.dutch import ColorPref, FloatDir

    prefs = {ColorPref.WHITE: 1, ColorPref.BLACK: 2}
    floats = {FloatDir.UP: 1, FloatDir.DOWN: 2}
    colours: dict[Any, int] = {None: 0, "white": 1, "black": 2}
    rows = []
    for p in players:
        history, fl = p.color_hist, p.float_hist
        repeated = history[-1] if len(history) >= 2 and history[-1] == history[-2] else None
        rows.append((
            float(p.score), shifts[p.score], prefs.get(p.color_preference, 0), int(p.preference_strength),
            abs(p.color_diff), colours.setdefault(repeated, len(colours)),
            floats.get(fl[-1], 0) if fl else 0, floats.get(fl[-2], 0) if len(fl) >= 2 else 0,
            bool(p.would_violate_absolute_color("white")), bool(p.would_violate_absolute_color("black")),
            [idx_of[o] for o in p.opponents if o in idx_of]))
    settled = None if bye_candidates is None else [p.id not in bye_candidates for p in players]
    relax = (engine.round_number - 1) / 2.0 if engine._is_last_round else None
    return rows, settled, relax, max(8, len(players).bit_length() + 3), shift_bits, engine.round_number - 1


def _dutch_c9(players: list[Any], bye_score: float | None, single: bool, ranks: dict[int, int] | None,
              ) -> list[int] | None:
    """Each player's part of caissify's C9 field (the bye assignee's unplayed games), None when it is not
    set."""
    if not single or ranks is None or bye_score is None:
        return None
    return [ranks.get(len(p.opponents), 0) if p.score == bye_score else 0 for p in players]


@functools.cache
def native_engine(weights_in_core: bool = True) -> Any | None:
    """caissify's ``DutchEngine`` with its ``_pair_iterative_mwm`` adapted (its weights in a
    :class:`chesslaws._core.WeightTable`, with ``weights_in_core`` computed there too), or None when its source
    is not the one adapted here."""
    from caissify_pairings.engines import dutch as _caissify

    try:
        source = inspect.getsource(_caissify.DutchEngine._pair_iterative_mwm)
    except (OSError, TypeError):
        return None
    if any(source.count(old) != 1 for old, _ in _REQUIRED):
        return None
    groups = (_REQUIRED, *((c,) for c in _CALLS)) + ((_WEIGHTS,) if weights_in_core else ())
    for group in groups:
        if all(source.count(old) == 1 for old, _ in group):
            for old, new in group:
                source = source.replace(old, new)
    namespace: dict[str, Any] = dict(vars(_caissify))
    namespace.update(_WeightTable=_core.WeightTable, _dutch_field=_dutch_field, _dutch_c9=_dutch_c9)
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

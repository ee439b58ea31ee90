"""The texts a person is told, read out of chesslaws' own code with ``ast``, for the tests that every one of them
has its translations: the calls in a set of source files, and each text a call's argument can be (a string, an
f-string, a choice between texts), so that a text added in English alone is found where it is written."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "chesslaws"
#: Stands for what an f-string fills in.
FILLED = "x"


def filled(source: str) -> str:
    """What stands for a filled-in value (its expression as written): ``x``."""
    return FILLED


def calls(paths: Iterable[Path]) -> Iterator[tuple[Path, ast.Call]]:
    """Each call in the code of ``paths``, with the file it is in."""
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                yield path, node


#: The texts each name of a function is given (every assignment's value).
Names = Mapping[str, list[ast.expr]]


def scoped_calls(paths: Iterable[Path]) -> Iterator[tuple[Path, ast.Call, Names]]:
    """Each call in the code of ``paths``, with the file it is in and the texts the names of its function are
    given there (``base = f"…"``, and each ``base += "…"`` after it: what a call's ``{base}`` or ``base + "."``
    stands for)."""
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scope: dict[int, Names] = {}
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names: dict[str, list[ast.expr]] = {}
                plain: dict[str, list[ast.expr]] = {}
                # In the order of the code: each ``text += "…"`` adds to a text given before it (one sentence
                # added to the first text, as the branches that add them mostly choose one).
                for node in sorted((n for n in ast.walk(function) if isinstance(n, (ast.Assign, ast.AugAssign))),
                                   key=lambda n: (n.lineno, n.col_offset)):
                    if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                            and isinstance(node.targets[0], ast.Name):
                        names.setdefault(node.targets[0].id, []).append(node.value)
                        plain.setdefault(node.targets[0].id, []).append(node.value)
                    elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) \
                            and isinstance(node.target, ast.Name) and plain.get(node.target.id):
                        names[node.target.id] += [ast.BinOp(left=first, op=ast.Add(), right=node.value)
                                                  for first in plain[node.target.id]]
                # The innermost function's names win: ast.walk meets it after the one around it.
                for node in ast.walk(function):
                    if isinstance(node, ast.Call):
                        scope[id(node)] = names
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield path, node, scope.get(id(node), {})


def _conditions(node: ast.JoinedStr) -> list[str]:
    """The distinct conditions of the choices between two literal texts in an f-string (one condition chooses
    every choice it makes: ``{'have' if n > 1 else 'has'} … {'are' if n > 1 else 'is'}``)."""
    found: list[str] = []
    for value in node.values:
        if isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.IfExp) \
                and all(isinstance(b, ast.Constant) for b in (value.value.body, value.value.orelse)):
            test = ast.dump(value.value.test)
            if test not in found:
                found.append(test)
    return found


def variants(node: ast.expr, fill: Callable[[str], str] = filled, names: Names | None = None,
             _resolving: frozenset[str] = frozenset()) -> Iterator[str]:
    """Each text ``node`` can be: a string; an f-string, each choice between two literal texts both ways (the
    choices made by one condition the same way) and each other filled-in value what ``fill`` gives for its
    expression; a choice between texts (``a if c else b``, ``a or "…"``); a text's ``rstrip()``. With
    ``names`` (:func:`scoped_calls`), a name of the function (alone, filled in, or added to) is each text it
    is given, and a sum of texts each text it can be. Nothing for a text composed elsewhere (a parameter, a sum of unknowns)."""
    given_names = names is not None
    names = names or {}

    def named(expr: ast.expr) -> list[str] | None:
        """The texts a name given in the function stands for (None: not one, or none of them is a text)."""
        if not (isinstance(expr, ast.Name) and expr.id in names and expr.id not in _resolving):
            return None
        texts = [t for value in names[expr.id]
                 for t in variants(value, fill, names, _resolving | {expr.id})]
        return texts or None

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        conditions = _conditions(node)
        for choice in range(1 << len(conditions)):
            texts = [""]
            for value in node.values:
                if isinstance(value, ast.Constant):
                    texts = [t + str(value.value) for t in texts]
                elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.IfExp) \
                        and all(isinstance(b, ast.Constant) for b in (value.value.body, value.value.orelse)):
                    way = choice >> conditions.index(ast.dump(value.value.test)) & 1
                    chosen = (value.value.body, value.value.orelse)[way]
                    texts = [t + str(chosen.value) for t in texts]  # type: ignore[attr-defined]
                elif isinstance(value, ast.FormattedValue):
                    given = named(value.value)
                    texts = [t + g for t in texts for g in given] if given is not None \
                        else [t + fill(ast.unparse(value.value)) for t in texts]
            yield from texts
    elif isinstance(node, ast.Name):
        yield from named(node) or ()
    elif given_names and isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        right = list(variants(node.right, fill, names, _resolving))
        for left in variants(node.left, fill, names, _resolving):
            yield from (left + r for r in right)
    elif isinstance(node, ast.IfExp):
        yield from variants(node.body, fill, names, _resolving)
        yield from variants(node.orelse, fill, names, _resolving)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from variants(value, fill, names, _resolving)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "rstrip":
        yield from variants(node.func.value, fill, names, _resolving)

"""The texts a person is told, read out of chesslaws' own code with ``ast``, for the tests that every one of them
has its translations: the calls in a set of source files, and each text a call's argument can be (a string, an
f-string, a choice between texts), so that a text added in English alone is found where it is written."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable, Iterable, Iterator

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


def variants(node: ast.expr, fill: Callable[[str], str] = filled) -> Iterator[str]:
    """Each text ``node`` can be: a string; an f-string, each choice between two literal texts both ways and
    each other filled-in value what ``fill`` gives for its expression; a choice between texts (``a if c else
    b``, ``a or "…"``); a text's ``rstrip()``. Nothing for a text composed elsewhere (a name, a sum)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        texts = [""]
        for value in node.values:
            if isinstance(value, ast.Constant):
                texts = [t + str(value.value) for t in texts]
            elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.IfExp) \
                    and all(isinstance(b, ast.Constant) for b in (value.value.body, value.value.orelse)):
                texts = [t + str(b.value) for t in texts  # type: ignore[attr-defined]
                         for b in (value.value.body, value.value.orelse)]
            elif isinstance(value, ast.FormattedValue):
                texts = [t + fill(ast.unparse(value.value)) for t in texts]
        yield from texts
    elif isinstance(node, ast.IfExp):
        yield from variants(node.body, fill)
        yield from variants(node.orelse, fill)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from variants(value, fill)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "rstrip":
        yield from variants(node.func.value, fill)

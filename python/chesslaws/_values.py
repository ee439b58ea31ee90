"""``replace`` for the immutable values of the hot path (the clock, the game state).

:func:`dataclasses.replace` looks up the class's fields and calls ``__init__`` on every call: about 5 µs
for a game state, six times per event. The frozen, slotted dataclasses that pass through here have no
``__post_init__`` and no ``InitVar``, so a copy whose slots are set directly is the same value; a class
that has either goes to :func:`dataclasses.replace`, which runs them.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any] | None] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any] | None:
    fields = dataclasses.fields(cls)
    if (hasattr(cls, "__post_init__") or not getattr(cls, "__slots__", None)
            or any(not f.init or not f.name.isidentifier() for f in fields)):
        return None
    names = tuple(f.name for f in fields)
    # One straight-line function per class (as dataclasses builds __init__): no loop over the fields, no
    # getattr; each slot is written through its own descriptor (cheaper than object.__setattr__), then
    # the few changes over them.
    slots = [getattr(cls, n, None) for n in names]
    if any(type(d) is not types.MemberDescriptorType for d in slots):
        return None
    setters = {n: d.__set__ for n, d in zip(names, slots)}  # type: ignore[union-attr]
    lines = ["def copy(obj, changes):",
             "    if not changes.keys() <= known:",
             "        raise TypeError(f'{cls.__name__} has no field {sorted(changes.keys() - known)[0]!r}')",
             "    out = new(cls)"]
    lines += [f"    set_{i}(out, obj.{n})" for i, n in enumerate(names)]
    lines += ["    for name, value in changes.items():",
              "        setters[name](out, value)",
              "    return out"]
    scope: dict[str, Any] = {"cls": cls, "known": frozenset(names), "new": object.__new__, "setters": setters}
    scope.update({f"set_{i}": setters[n] for i, n in enumerate(names)})
    exec("\n".join(lines), scope)  # noqa: S102 - the source is built from the class's own field names
    return scope["copy"]  # type: ignore[no-any-return]


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes``, like :func:`dataclasses.replace`."""
    cls = type(obj)
    try:
        copy = _COPIERS[cls]
    except KeyError:
        copy = _COPIERS[cls] = _copier(cls)
    if copy is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    return copy(obj, changes)  # type: ignore[no-any-return]

"""How the engine builds its frozen values fast, in both builds.

The engine builds a new state on every action, so the cost of building one adds up. The
``__init__`` that ``@dataclass(frozen=True)`` generates stores each field through
``object.__setattr__``; in the compiled build it is even interpreted Python, called
through argument parsing. So the hot value classes (``State``, ``SeatState``, the views,
the analysis results) write their own ``__init__`` with one body per build:

- compiled (:data:`~erqishi.core._compiled.NATIVE`): ``self.x = x`` for each field, which
  mypyc turns into a store straight into the native object (the frozen class's
  ``__setattr__`` never runs);
- pure: one call of the class's :func:`slot_setter`, which writes each slot through its
  descriptor, positionally, as the generated ``__init__`` would but without the
  ``object.__setattr__`` lookups.

Either way the instance is the one ``@dataclass`` would build (equal, hashed and printed the
same, still frozen to its users).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any

__all__ = ["slot_setter"]


def slot_setter(cls: type, names: tuple[str, ...] | None = None) -> Callable[..., None]:
    """A function ``set(obj, v0, v1, …)`` that stores the ``init`` fields of the frozen
    slotted dataclass ``cls`` on ``obj`` (an instance being built), in field order, and
    gives a field with ``init=False`` its ``default_factory``. The caller passes every
    ``init`` field (defaults are the ``__init__``'s business). With ``names``, only those
    fields (a subclass's own, after its base's ``__init__`` stored the others).

    Raises:
        TypeError: a field with ``init=False`` and no ``default_factory``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True, init=False)
    ... class Point:
    ...     x: int
    ...     y: int
    ...     def __init__(self, x: int, y: int = 0) -> None:
    ...         _set_point(self, x, y)
    >>> _set_point = slot_setter(Point)
    >>> Point(1, 2) == Point(1, 2), Point(3)
    (True, Point(x=3, y=0))
    """
    found = tuple(f for f in fields(cls) if names is None or f.name in names)
    namespace: dict[str, Any] = {}
    given = [f for f in found if f.init]
    lines = [f"def set_fields(obj, {', '.join(f'v{i}' for i in range(len(given)))}):"]
    arg = 0
    for i, f in enumerate(found):
        slot = next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__)  # inherited slots too
        namespace[f"_set{i}"] = slot.__set__
        if f.init:
            lines.append(f"    _set{i}(obj, v{arg})")
            arg += 1
        else:  # a field the constructor does not take: its default factory, as __init__ does
            if f.default_factory is MISSING:
                raise TypeError(f"slot_setter: field {f.name} of {cls.__name__} is not init and has no default_factory")
            namespace[f"_factory{i}"] = f.default_factory
            lines.append(f"    _set{i}(obj, _factory{i}())")
    exec("\n".join(lines), namespace)
    set_fields: Callable[..., None] = namespace["set_fields"]
    set_fields.__doc__ = f"Store the fields of a {cls.__name__} being built, in order."
    return set_fields

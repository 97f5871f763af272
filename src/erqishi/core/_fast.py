"""A faster way for the engine to build its frozen values.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; the
engine builds a new state on every action, so that cost adds up. :func:`maker` returns a
function that builds an instance of a frozen, slotted dataclass by writing its slots
directly, positionally, in field order. The instance is the same as one built by
``__init__`` (equal, still frozen); only the fields' defaults and ``__post_init__`` are
not run, so the caller passes every field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["maker"]


def maker(cls: type[T]) -> Callable[..., T]:
    """A positional constructor for the frozen slotted dataclass ``cls`` (every field).

    In the compiled build (mypyc) the class is native and its own constructor is already
    fast: that is returned instead (its fields must then all be ``init`` fields)."""
    if hasattr(cls, "__mypyc_attrs__"):
        return cls
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(f'v{i}' for i in range(len(names)))}):", "    obj = _new(_cls)"]
    for i, name in enumerate(names):
        slot = next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__)  # inherited slots too
        namespace[f"_set{i}"] = slot.__set__
        lines.append(f"    _set{i}(obj, v{i})")
    lines.append("    return obj")
    exec("\n".join(lines), namespace)
    make: Callable[..., T] = namespace["make"]
    make.__doc__ = f"Build a {cls.__name__} from all its fields, in order."
    return make

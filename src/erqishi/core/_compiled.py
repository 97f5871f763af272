"""What the optional compiled build (mypyc, see setup.py) needs to behave as the pure one.

mypyc compiles each class of a compiled module to a native class, whose generated
``__init__`` checks every argument against its annotation and raises a bare ``TypeError``.
The public value classes below check and convert their own input instead (option names
for enums, on/off switches, clear :class:`~erqishi.core.errors.ErqishiError` messages), so
they stay ordinary Python classes in both builds: mypyc keeps a class with any decorator
other than its own, ``@dataclass`` and ``@final`` an ordinary Python class.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Final, TypeVar

T = TypeVar("T", bound=type)


class _Probe:
    """A plain class: native (it has ``__mypyc_attrs__``) only when this module is compiled."""


#: this module, and so the whole core, runs compiled by mypyc: the hot value classes'
#: ``__init__`` then stores each field straight into the native object (see
#: :mod:`erqishi.core._fast`).
NATIVE: Final = hasattr(_Probe, "__mypyc_attrs__")


def checks_own_input(cls: T) -> T:
    """Class decorator, a no-op at run time: the class validates its own constructor
    arguments (in ``__post_init__``), so the compiled build must not check their types
    first. Keeps the same errors in the pure and the compiled build.

    >>> @checks_own_input
    ... class Point:
    ...     pass
    >>> Point.__name__
    'Point'
    """
    return cls


def raw(obj: object, name: str) -> object:
    """The attribute ``name`` of ``obj`` as stored, unchecked: in the compiled build, reading
    an annotated attribute checks its type, which ``__post_init__`` must not do before it
    has checked the value itself."""
    return getattr(obj, name)


_KEYS: dict[type, tuple[str, ...]] = {}


def field_key(obj: object) -> tuple[object, ...]:
    """The values of ``obj``'s compared dataclass fields, in order: what the generated
    ``__eq__`` and ``__hash__`` of a dataclass compare.

    The classes marked :func:`checks_own_input` define ``__eq__`` and ``__hash__`` on it
    explicitly: compiled code does not see the ones ``@dataclass`` adds to an ordinary class
    at run time, and would compare such instances by identity.
    """
    cls = type(obj)
    names = _KEYS.get(cls)
    if names is None:
        names = _KEYS[cls] = tuple(f.name for f in fields(cls) if f.compare)  # type: ignore[arg-type]
    return tuple([getattr(obj, n) for n in names])


_INIT: dict[type, tuple[str, ...]] = {}


def reduce_fields(obj: object) -> tuple[type, tuple[object, ...]]:
    """``__reduce__`` of a frozen dataclass, for ``pickle`` and ``copy`` in both builds: the
    class and the values of its ``init`` fields in order (a field whose name starts with
    ``_`` ends them: it is a cache, rebuilt empty). The compiled build's own pickling of a
    frozen class would assign each field and be refused.

    >>> from erqishi.core.engine import HU
    >>> reduce_fields(HU)[1]
    (<ActionKind.HU: 'hu'>, (), ())
    """
    cls = type(obj)
    names = _INIT.get(cls)
    if names is None:
        kept: list[str] = []
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name.startswith("_"):
                break
            if f.init:
                kept.append(f.name)
        names = _INIT[cls] = tuple(kept)
    return cls, tuple([getattr(obj, n) for n in names])

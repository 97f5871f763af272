"""``mypyc_attr`` for the classes users subclass (the table, the bots), in both builds.

In the compiled build (mypyc, see setup.py) a compiled class cannot be subclassed by
ordinary Python code unless it is marked ``allow_interpreted_subclasses``; mypyc reads the
mark from ``mypy_extensions.mypyc_attr``. The pure package needs nothing: without
``mypy_extensions`` the mark is a no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # the pure package runs without mypy_extensions (a no-op, as there)

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        """A no-op: the class stays as it is."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]

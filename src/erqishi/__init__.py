"""erqishi: the reference implementation of 贰柒拾 (2-7-10), the 80-card card game of Leshan.

The public API lives in :mod:`erqishi.core`; it is re-exported here. :func:`build` tells
which build runs: the pure-Python reference or the optional compiled one (mypyc).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Literal

from erqishi.core import *  # noqa: F403
from erqishi.core import __all__ as _core_all

__all__ = [*_core_all, "build", "build_description"]
__version__ = "0.1.0"

#: a module that the compiled build always compiles (see setup.py)
_PROBE = "erqishi.core.engine.legal"


def build() -> Literal["pure", "compiled"]:
    """``"compiled"`` when the engine runs as mypyc-compiled extension modules (``bash
    scripts/setup.sh --compiled``), ``"pure"`` when it runs as the Python source.

    >>> build() in ("pure", "compiled")
    True
    """
    path = Path(getattr(importlib.import_module(_PROBE), "__file__", "") or "")
    return "compiled" if path.suffix in (".so", ".pyd") else "pure"


def build_description() -> str:
    """One line for ``erqishi --version``: the version, the build, and where it is installed,
    e.g. ``erqishi 0.1.0 (pure Python) /path/to/erqishi``."""
    kind = "compiled with mypyc" if build() == "compiled" else "pure Python"
    return f"erqishi {__version__} ({kind}) {Path(__file__).resolve().parent}"

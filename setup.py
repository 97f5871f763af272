"""setuptools hook for the optional compiled build (everything else is in pyproject.toml).

``ERQISHI_COMPILED=1`` compiles the engine, the analysis, the bots and the one table with
mypyc, the way ``black`` ships itself; the pure-Python source stays the reference and the
default. Without ``ERQISHI_COMPILED`` nothing is compiled. See README, "The compiled build".
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_backend"))
from erqishi_build import asking_requirements, compiled_requested

#: the modules compiled in the compiled build (relative to src/); the rest stays Python
COMPILED = [
    "erqishi/core",
    "erqishi/bots",
    "erqishi/play/step.py",
    "erqishi/play/table.py",
]


def _ext_modules() -> list[object]:
    if not compiled_requested() or asking_requirements():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # pragma: no cover - the backend installs mypy for this build
        raise SystemExit("ERQISHI_COMPILED=1 needs mypy (it ships mypyc) in the build environment") from None
    here = Path(__file__).resolve().parent
    paths = []
    for entry in COMPILED:
        path = here / "src" / entry
        paths += sorted(str(p) for p in path.rglob("*.py")) if path.is_dir() else [str(path)]
    # mypyc names each module from its package folders (src/ has no __init__.py)
    modules: list[object] = mypycify([os.path.relpath(p, here) for p in paths], opt_level="3")
    return modules


setup(ext_modules=_ext_modules(), options={"build_ext": {"parallel": os.cpu_count() or 1}})

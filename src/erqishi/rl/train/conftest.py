"""pytest only: the doctests of :mod:`erqishi.rl.train` need the ``train`` extra (torch).
Without it they are not collected, unless ``ERQISHI_REQUIRE_ALL=1`` (as ``scripts/test.sh``
sets), where a missing extra must fail loudly instead."""

from __future__ import annotations

import importlib.util
import os

#: The modules of the train extra that are not installed.
MISSING = [name for name in ("numpy", "torch") if importlib.util.find_spec(name) is None]
collect_ignore_glob: list[str] = ["*.py"] if MISSING and os.environ.get("ERQISHI_REQUIRE_ALL") != "1" else []

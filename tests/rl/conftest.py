"""The tests of erqishi.rl need the ``rl`` extra (``pip install erqishi[rl]``; ``scripts/setup.sh
--dev`` installs it). Without it only ``test_extra.py`` is collected, and it skips (or fails
when ``ERQISHI_REQUIRE_ALL=1``, as in CI)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

MISSING = [name for name in ("numpy", "gymnasium", "pettingzoo", "pyspiel") if importlib.util.find_spec(name) is None]
collect_ignore: list[str] = (
    [p.name for p in Path(__file__).parent.glob("*.py") if p.name not in ("conftest.py", "test_extra.py")]
    if MISSING
    else []
)

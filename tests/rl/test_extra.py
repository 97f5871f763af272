"""The rl extra is installed (CI installs it; elsewhere the rl tests skip without it)."""

from __future__ import annotations

import importlib.util
import os

import pytest

EXTRA = ("numpy", "gymnasium", "pettingzoo", "pyspiel")


def test_the_rl_extra_is_installed() -> None:
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing and os.environ.get("ERQISHI_REQUIRE_ALL") != "1":
        pytest.skip(f"the rl extra is not installed (missing {', '.join(missing)}): pip install -e '.[rl]'")
    assert not missing, f"ERQISHI_REQUIRE_ALL=1 but the rl extra is missing: {', '.join(missing)}"


def test_the_core_imports_nothing_of_rl() -> None:
    """The core stays standard-library only: importing it loads no module of the extra."""
    import subprocess
    import sys

    code = (
        "import sys, erqishi.core, erqishi.play, erqishi.bots, erqishi.sim; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'} or m.startswith('erqishi.rl')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

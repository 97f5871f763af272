"""A child that ends with its parent (erqishi.storage.lifetime)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_parent_already_gone_is_told() -> None:
    """``die_with_parent`` says whether the parent it was told of (or the parent of the
    moment) is still the parent: a process id that is not the parent's means the parent
    died before the request (the child was handed to init or to a subreaper)."""
    script = (
        "import os, signal\n"
        "from erqishi.storage.lifetime import die_with_parent\n"
        "print(die_with_parent(signal.SIGUSR1), die_with_parent(signal.SIGUSR1, os.getppid()),"
        " die_with_parent(signal.SIGUSR1, os.getppid() + 4_000_000), die_with_parent(signal.SIGUSR1, 1))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["True", "True", "False", "False"], done.stderr

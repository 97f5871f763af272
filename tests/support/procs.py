"""Waiting for processes the tests ended (or whose parent they killed) to be gone."""

from __future__ import annotations

import time
from collections.abc import Callable


def gone_within(alive: Callable[[], bool], seconds: float, step: float = 0.05) -> bool:
    """Poll ``alive`` every ``step`` seconds for up to ``seconds``: whether it became False."""
    deadline = time.monotonic() + seconds
    while alive() and time.monotonic() < deadline:
        time.sleep(step)
    return not alive()

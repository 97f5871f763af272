"""Real headless Chromium for the browser tests (Debian's ``chromium`` through Playwright),
on loopback only: no background networking, no updates, no sync."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launched_browser() -> Iterator[Browser]:
    """Launch Chromium, yield it, close it: the body of a ``browser`` fixture. Without
    Chromium the test is skipped, or fails under ``ERQISHI_REQUIRE_ALL=1`` (CI)."""
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        how = "install Debian's chromium and fonts-wqy-microhei (scripts/system-deps.sh does, as root)"
        if os.environ.get("ERQISHI_REQUIRE_ALL") == "1":
            pytest.fail(f"no {CHROMIUM}: {how}")
        pytest.skip(f"no {CHROMIUM}: {how}")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()

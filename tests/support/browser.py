"""Real headless Chromium for the browser tests (Debian's ``chromium`` through Playwright),
on loopback only: no background networking, no updates, no sync."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from erqishi.server.settings import Settings
from support.webserver import RunningServer

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


def browser_settings(db: Path, seed: int, *, bot_delay: float = 0.02, **more: Any) -> Settings:
    """The server settings of a browser test: bots move after ``bot_delay``, a person's
    timers last a minute (nobody is played for while the test looks), the rate limit is
    raised; ``more`` overrides any of them."""
    patient: dict[str, Any] = {
        "bot_delay": bot_delay,
        "response_seconds": 60,
        "turn_seconds": 60,
        "grace_seconds": 60,
        "next_hand_seconds": 60,
        "rate_per_second": 1e4,
    }
    return Settings(db_url=str(db), seed=seed, **{**patient, **more})


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


def open_page(
    browser: Browser, lang: str = "zh", *, width: int = 1100, scripts: tuple[str, ...] = (), **context: Any
) -> tuple[BrowserContext, Page]:
    """A new browser context (``width`` × 900 unless ``context`` says otherwise) whose pages
    show in ``lang`` (``zh`` or ``en``), with ``scripts`` run first on every page; its page."""
    options: dict[str, Any] = {"viewport": {"width": width, "height": 900}, **context}
    ctx = browser.new_context(**options)
    ctx.add_init_script(f"window.localStorage.setItem('erqishi.lang', '{lang}')")
    for script in scripts:
        ctx.add_init_script(script)
    return ctx, ctx.new_page()


def join(page: Page, server: RunningServer, code: str, name: str, *, sit: bool = True) -> None:
    """Open room ``code`` and join it as ``name``: take a seat (waiting until one is this
    page's) or, with ``sit`` False, watch."""
    page.goto(f"{server.url}/r/{code}")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("join" if sit else "spectate").click()
    if sit:
        expect(page.locator("[data-testid^=lobby-seat-].mine")).to_have_count(1)

"""The pages work under their Content-Security-Policy (erqishi.server.guard), in real
headless Chromium: every page renders without a refused script, style, image, worker or
connection, and a public room is made from the home page and joined over its WebSocket."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, expect

from erqishi.server.settings import Settings
from support.browser import launched_browser
from support.webserver import RunningServer, running_server


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(Settings(db_url=str(tmp_path / "web.db"), seed=4, bot_delay=0.02)) as srv:
        yield srv


def test_every_page_works_under_its_content_security_policy(browser: Browser, server: RunningServer) -> None:
    page = browser.new_page()
    refused: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            refused.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda error: refused.append(str(error)))
    for path in ("/rules", "/score", "/learn", "/history"):
        reply = page.goto(server.url + path)
        assert reply is not None and "script-src 'self'" in reply.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
        expect(page.locator("#app")).not_to_have_text("贰柒拾……")  # the modules ran and drew the page
    # the home page: make a public room, join it (the WebSocket is allowed by connect-src)
    page.goto(server.url + "/")
    page.get_by_test_id("public").check()
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("name-input").fill("小明")
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("sit-1")).to_be_visible()  # joining took the first seat
    listed = httpx.get(server.url + "/api/rooms").json()["rooms"]
    assert [r["code"] for r in listed] == [code] and listed[0]["seats"][0]["name"] == "小明"
    page.close()
    assert refused == []

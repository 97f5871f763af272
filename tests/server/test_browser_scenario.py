"""The game hall's "done when", in real headless Chromium: three friends open one room
from the home page (its 解散 vote, talk and timer options chosen there), play two matches in
a row in it, one hand by hand and the rest on 托管, refuse one 解散 vote and pass another,
which ends the room during the second match; the history stores that match as ended early."""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import browser_settings, join, launched_browser, open_page
from support.webserver import RunningServer, running_server


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


def stored_matches(server: RunningServer, holds: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
    """``/api/matches`` once ``holds`` is true of its list: the room writes its journal to
    the spool before anyone sees the result and to the database just after (the room never
    waits for it), so the list may lag the screens by a moment."""
    deadline = time.monotonic() + 15
    while True:
        matches: list[dict[str, Any]] = httpx.get(f"{server.url}/api/matches").json()["matches"]
        if holds(matches) or time.monotonic() > deadline:
            return matches
        time.sleep(0.1)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(browser_settings(tmp_path / "web.db", 31, bot_delay=0.05, next_hand_seconds=3)) as srv:
        yield srv


def click_a_move(page: Page, rng: random.Random) -> None:
    """One of the moves offered now (a 胡 when there is one), if any."""
    actions = page.get_by_test_id("action").all()
    cards = page.locator('[data-testid="hand-card"][data-legal="1"]').all()
    options = actions + cards
    if not options:
        return
    wins = [a for a in actions if a.get_attribute("data-action") == "hu"]
    with contextlib.suppress(Exception):  # the table moved on under the cursor
        (wins[0] if wins else rng.choice(options)).click(timeout=2000)


def test_three_friends_play_two_matches_with_tuoguan_and_two_votes(browser: Browser, server: RunningServer) -> None:
    (ca, a), (cb, b), (cc, c) = open_page(browser, "zh"), open_page(browser, "en"), open_page(browser, "zh")
    people = (a, b, c)
    # the room, made on the home page: 乐山, one 圈, quick timers, a 30 s vote where silence
    # refuses, and typed chat
    a.goto(server.url + "/")
    a.get_by_test_id("preset").select_option("leshan")
    a.get_by_test_id("match-quan").select_option("1")
    a.get_by_test_id("timer-response_seconds").select_option("10")
    a.get_by_test_id("timer-turn_seconds").select_option("20")
    a.get_by_test_id("vote-seconds").select_option("30")
    a.get_by_test_id("vote-timeout").select_option("refuse")
    a.get_by_test_id("free-text").check()
    a.get_by_test_id("create-room").click()
    a.wait_for_url("**/r/*")
    code = a.url.rsplit("/", 1)[1]
    room = httpx.get(f"{server.url}/api/rooms/{code}").json()
    room = room.get("room", room)
    assert (room["vote_seconds"], room["vote_timeout"], room["free_text"]) == (30, "refuse", True)
    assert room["timers"] == {"response_seconds": 10, "turn_seconds": 20} and room["match_quan"] == 1
    for page, name in zip(people, ("阿甲", "Bee", "阿丙"), strict=True):
        join(page, server, code, name)
    a.get_by_test_id("start").click()
    for page in people:
        expect(page.get_by_test_id("my-hand")).to_be_visible()

    # the first hand, played by hand; on the way 阿甲 asks to end the room and Bee refuses
    rngs = [random.Random(i) for i in range(3)]
    asked = False
    for turn in range(2000):
        if all(p.get_by_test_id("result").is_visible() for p in people):
            break
        if turn == 6 and not asked:
            asked = True
            a.get_by_test_id("dissolve").click()
            expect(b.get_by_test_id("vote")).to_contain_text("阿甲 asks to end the room (解散)")
            expect(c.get_by_test_id("vote-agree")).to_be_visible()
            b.get_by_test_id("vote-refuse").click()
            expect(a.get_by_test_id("toast").filter(has_text="Bee 不同意解散")).to_be_visible()
            for page in people:
                expect(page.get_by_test_id("vote")).to_have_count(0)
        for page, rng in zip(people, rngs, strict=True):
            if not page.get_by_test_id("result").is_visible():
                click_a_move(page, rng)
        a.wait_for_timeout(20)
    else:
        raise AssertionError("the first hand did not end in all three browsers")
    assert asked

    # the rest of the match on 托管: the bots play every seat
    for page in people:
        page.get_by_test_id("tuoguan").click()
        expect(page.get_by_test_id("tuoguan")).to_have_attribute("data-on", "1")
    for page in people:
        expect(page.get_by_test_id("match-over")).to_be_visible(timeout=60_000)
    expect(a.get_by_test_id("match-over")).to_contain_text("比赛结束")
    expect(b.get_by_test_id("match-over")).to_contain_text("The match is over")
    first = stored_matches(server, lambda ms: bool(ms) and ms[0]["status"] == "finished")[0]
    assert first["status"] == "finished" and first["hands"] >= 3  # (three seats deal once each)

    # everyone takes their seat back and is ready: the second match in the same seats
    for page in people:
        page.get_by_test_id("tuoguan").click()
        expect(page.get_by_test_id("tuoguan")).to_have_attribute("data-on", "0")
    for page in (b, c, a):
        page.get_by_test_id("again").click()
    for page in people:
        expect(page.get_by_test_id("match-over")).to_have_count(0, timeout=10_000)
        expect(page.get_by_test_id("my-hand")).to_be_visible()
    expect(a.get_by_test_id("status")).to_contain_text("第 1 手")

    # 阿甲 asks again; both agree: the room ends during the second match
    a.get_by_test_id("dissolve").click()
    b.get_by_test_id("vote-agree").click()
    c.get_by_test_id("vote-agree").click()
    for page, words in ((a, "房间已解散"), (b, "The room was ended (解散)"), (c, "房间已解散")):
        over = page.get_by_test_id("match-over")
        expect(over).to_contain_text(words)
        expect(over).to_have_attribute("data-ended", "1")
        expect(page.get_by_test_id("again")).to_have_count(0)

    # stored: the first match finished, the second ended early (with its finish time)
    matches = stored_matches(server, lambda ms: bool(ms) and ms[0]["status"] != "running")
    assert [m["status"] for m in matches[:2]] == ["ended_early", "finished"]
    assert matches[0]["finished"] is not None and matches[0]["leaders"] is None and matches[1]["id"] == first["id"]
    # and the history says so, in each reader's language
    for page, words in ((a, ("提前结束", "已结束")), (b, ("ended early", "finished"))):
        page.goto(server.url + "/history")
        items = page.get_by_test_id("match")
        expect(items.first.get_by_test_id("match-status")).to_have_text(words[0])
        expect(items.first.get_by_test_id("match-status")).to_have_attribute("data-status", "ended_early")
        expect(items.nth(1).get_by_test_id("match-status")).to_have_text(re.compile(f"^{words[1]}$"))
    for context in (ca, cb, cc):
        context.close()

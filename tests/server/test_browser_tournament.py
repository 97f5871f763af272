"""A 争霸赛 in real headless Chromium (Playwright), three people in three browsers: the
organiser makes a tournament of two rounds on /t/new and registers; the two others
register by the registration link (one in English); the organiser starts each round,
everyone goes to their table from the tournament page (the room admits them into their
reserved seats; the table starts once all three are there), hands the seat to the bot
(托管), and after each round the standings show the core's tie-break columns, live; at
the end the champion, and the history lists both tables' matches by their tournament."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import browser_settings, launched_browser, open_page
from support.webserver import RunningServer, running_server


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(browser_settings(tmp_path / "web.db", 23, bot_delay=0.01)) as srv:
        yield srv


def register(page: Page, name: str) -> None:
    page.get_by_test_id("t-reg-name").fill(name)
    page.get_by_test_id("t-register").click()
    expect(page.get_by_test_id("t-you")).to_be_visible()


def play_round(pages: list[Page], url: str, number: int) -> None:
    """Everyone goes to their table from the tournament page, hands the seat to the bot
    once the table has started, and comes back when the match is over."""
    for page in pages:
        go = page.get_by_test_id("t-go-table")
        expect(go).to_be_visible(timeout=10_000)
        expect(go).to_contain_text(re.compile(rf"(第 {number} 轮|round {number})"))
        go.click()
        expect(page).to_have_url(re.compile(r"/r/T\d+-\d+-1$"))
    for page in pages:  # (the table starts once all three are there)
        expect(page.get_by_test_id("tuoguan")).to_be_visible(timeout=15_000)
        page.get_by_test_id("tuoguan").click()
        expect(page.get_by_test_id("tuoguan")).to_have_attribute("data-on", "1")
    for page in pages:
        expect(page.get_by_test_id("match-over")).to_be_visible(timeout=40_000)
        page.goto(url)
        expect(page.get_by_test_id("t-page")).to_be_visible()


def test_three_people_play_a_two_round_tournament(browser: Browser, server: RunningServer) -> None:
    (c1, host), (c2, ann), (c3, ming) = open_page(browser), open_page(browser, "en"), open_page(browser)
    # the organiser's form
    host.goto(f"{server.url}/t/new")
    host.get_by_test_id("t-name").fill("周末争霸赛")
    host.get_by_test_id("t-rounds").select_option("2")
    host.get_by_test_id("t-quan").select_option("1")
    host.get_by_test_id("t-create").click()
    expect(host).to_have_url(re.compile(r"/t/\d+$"))
    expect(host.get_by_test_id("t-title")).to_have_text("周末争霸赛")
    expect(host.get_by_test_id("t-status")).to_have_text("报名中")
    expect(host.get_by_test_id("t-rules")).to_contain_text("乐山")
    link = host.get_by_test_id("t-share-link").input_value()
    tid = int(link.rsplit("/", 1)[1])
    url = f"{server.url}/t/{tid}"
    assert link == url
    register(host, "阿华")
    # the others register by the link; the English page reads in English
    ann.goto(link)
    expect(ann.get_by_test_id("t-status")).to_have_text("registering")
    expect(ann.get_by_test_id("t-start-round")).to_have_count(0)  # (only the organiser starts rounds)
    register(ann, "Ann")
    ming.goto(link)
    ming.get_by_test_id("t-reg-name").fill("ann")  # taken (in any case): refused, said why
    ming.get_by_test_id("t-register").click()
    expect(ming.get_by_test_id("toast")).to_contain_text("已有人用了")  # the server's Chinese, on a Chinese page
    register(ming, "小明")
    expect(host.get_by_test_id("t-entrant")).to_have_count(3, timeout=10_000)

    host.get_by_test_id("t-start-round").click()
    expect(host.get_by_test_id("t-status")).to_have_text("比赛中")
    pages = [host, ann, ming]
    play_round(pages, url, 1)
    state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()["tournament"]
    assert state["status"] == "between_rounds"
    for page in pages:  # the standings after round 1, with the tie-break columns
        rows = page.get_by_test_id("t-standing")
        expect(rows).to_have_count(3)
        # (waited for: a page may still show the standings of before the last result)
        for i, s in enumerate(state["standings"]):
            expect(rows.nth(i)).to_have_attribute("data-entrant", str(s["entrant"]))
            expect(rows.nth(i)).to_have_attribute("data-total", str(s["total"]))
    expect(ann.get_by_test_id("t-standings")).to_contain_text("Head-to-head")
    expect(host.get_by_test_id("t-standings")).to_contain_text("最佳一轮")
    expect(host.get_by_test_id("t-round")).to_have_count(1)
    expect(host.locator('[data-testid=t-table][data-status="finished"]')).to_have_count(1)

    host.get_by_test_id("t-start-round").click()
    play_round(pages, url, 2)
    state = httpx.get(f"{server.url}/api/tournaments/{tid}").json()["tournament"]
    assert state["status"] == "finished" and state["champion"]
    expect(host.get_by_test_id("t-champion")).to_have_text(f"冠军：{state['champion']}")
    expect(ann.get_by_test_id("t-champion")).to_have_text(f"Champion: {state['champion']}")
    expect(ann.get_by_test_id("t-status")).to_have_text("finished")
    expect(ming.get_by_test_id("t-round")).to_have_count(2)
    rows = ming.get_by_test_id("t-standing")
    expect(rows).to_have_count(3)
    for i, s in enumerate(state["ranking"]):
        expect(rows.nth(i)).to_have_attribute("data-place", str(s["place"]))
    # the history lists both tables' matches by their tournament, linked to the standings
    host.goto(f"{server.url}/history")
    tagged = host.get_by_test_id("match-tournament")
    expect(tagged).to_have_count(2)
    expect(tagged.first).to_contain_text("周末争霸赛")
    expect(host.get_by_test_id("match-sealed")).to_have_count(0)
    expect(host.get_by_test_id("history-tournaments")).to_contain_text("周末争霸赛")
    host.get_by_test_id("history-tournaments").get_by_role("link").first.click()
    expect(host).to_have_url(url)
    expect(host.get_by_test_id("t-champion")).to_be_visible()
    for context in (c1, c2, c3):
        context.close()

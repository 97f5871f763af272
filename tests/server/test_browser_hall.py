"""The game hall in real headless Chromium (Playwright): 再来一局 once everyone is ready,
托管 on and off, a 解散 vote refused and one passed (the end screen with its standings
chart, in Chinese and in English), quick phrases beside the speaker, free text shown as
text, and the rate limit on talk."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from erqishi.server.settings import Settings
from support.browser import browser_settings, join, launched_browser
from support.browser import open_page as open_any_page
from support.webserver import RunningServer, running_server

#: this file's pages are 1280 pixels wide
open_page = functools.partial(open_any_page, width=1280)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(browser_settings(tmp_path / "web.db", 13, bot_delay=0.0)) as srv:
        yield srv


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[RunningServer]:
    """Bots that take 0.2 s a move: a hand lasts long enough to watch the bot play a seat."""
    settings = Settings(db_url=str(tmp_path / "slow.db"), seed=13, bot_delay=0.2, grace_seconds=60, rate_per_second=1e4)
    with running_server(settings) as srv:
        yield srv


def new_room(server: RunningServer, **body: Any) -> str:
    reply = httpx.post(f"{server.url}/api/rooms", json={"v": 2, "preset": "duikou", "match_quan": 1, **body})
    assert reply.status_code == 201, reply.text
    code: str = reply.json()["code"]
    return code


def start(page: Page, *, bots: bool = False) -> None:
    if bots:
        page.get_by_test_id("fill-bots").click()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("status")).to_be_visible()


def test_rematch_once_everyone_is_ready_and_the_standings_chart(browser: Browser, server: RunningServer) -> None:
    code = new_room(server)
    (c1, host), (c2, guest) = open_page(browser), open_page(browser, "en")
    join(host, server, code, "房主甲")
    join(guest, server, code, "Guest")
    start(host)
    # both hand their seats to the bot (托管): the bots play the whole match
    for page in (host, guest):
        page.get_by_test_id("tuoguan").click()
        expect(page.get_by_test_id("tuoguan")).to_have_attribute("data-on", "1")
    over = host.get_by_test_id("match-over")
    expect(over).to_be_visible(timeout=30_000)
    expect(over).to_contain_text("比赛结束")
    expect(guest.get_by_test_id("match-over")).to_contain_text("The match is over")
    # the standings, and a line per seat through every hand's running total
    chart = host.get_by_test_id("standings-chart")
    expect(chart).to_be_visible()
    hands = int(chart.get_attribute("data-hands") or "0")
    assert hands >= 2  # (对口: each of the two seats deals at least once)
    assert host.get_by_test_id("chart-line").count() == 2
    assert host.get_by_test_id("chart-point").count() == 2 * hands
    standings = host.get_by_test_id("standings").locator("li")
    finals = {int(li.get_attribute("data-seat") or "-1"): li.inner_text() for li in standings.all()}
    for seat in (0, 1):
        last = host.locator(f'[data-testid=chart-point][data-seat="{seat}"][data-hand="{hands}"]')
        total = int(last.get_attribute("data-total") or "0")
        assert finals[seat].replace("\n", " ").endswith(f"+{total}" if total > 0 else str(total))
    # back from 托管; the guest is ready; the match starts when the host is too
    for page in (host, guest):
        page.get_by_test_id("tuoguan").click()
        expect(page.get_by_test_id("tuoguan")).to_have_attribute("data-on", "0")
    expect(guest.get_by_test_id("start-now")).to_have_count(0)  # (only the host may start at once)
    expect(host.get_by_test_id("start-now")).to_be_visible()
    guest.get_by_test_id("again").click()
    expect(guest.get_by_test_id("again-waiting")).to_be_visible()
    expect(host.get_by_test_id("again-ready")).to_contain_text("Guest")
    expect(host.get_by_test_id("match-over")).to_be_visible()  # still waiting for the host
    host.get_by_test_id("again").click()
    for page in (host, guest):
        expect(page.get_by_test_id("match-over")).to_have_count(0, timeout=10_000)
        expect(page.get_by_test_id("status")).to_contain_text("1")
    expect(host.get_by_test_id("status")).to_contain_text("第 1 手")
    expect(guest.get_by_test_id("status")).to_contain_text(re.compile(r"hand 1(?!\d)", re.IGNORECASE))
    c1.close()
    c2.close()


def test_tuoguan_on_and_off_shown_to_everyone(browser: Browser, slow_server: RunningServer) -> None:
    server = slow_server
    code = new_room(server, match_quan=3)
    (c1, person), (c2, watcher) = open_page(browser), open_page(browser)
    join(person, server, code, "小红")
    start(person, bots=True)
    join(watcher, server, code, "看客", sit=False)
    expect(watcher.get_by_test_id("spectating")).to_be_visible()
    expect(watcher.get_by_test_id("hall")).to_have_count(0)  # (a spectator has no seat to hand over)
    person.get_by_test_id("tuoguan").click()
    for page in (person, watcher):
        expect(page.get_by_test_id("seat-panel-0").get_by_test_id("tuoguan-tag")).to_be_visible()
    expect(person.get_by_test_id("tuoguan-note")).to_be_visible()
    # the bot plays: the stock runs down with nothing offered to the person
    stock = person.get_by_test_id("status").inner_text()
    person.wait_for_function(
        "(before) => document.querySelector('[data-testid=status]').innerText !== before", arg=stock, timeout=10_000
    )
    expect(person.get_by_test_id("action")).to_have_count(0)
    expect(person.locator('[data-testid=hand-card][data-legal="1"]')).to_have_count(0)
    # taken back: the tag goes, and the person is asked again
    person.get_by_test_id("tuoguan").click()
    for page in (person, watcher):
        expect(page.get_by_test_id("tuoguan-tag")).to_have_count(0)
    expect(person.get_by_test_id("tuoguan-note")).to_have_count(0)
    person.wait_for_selector(
        '[data-testid=action], [data-testid=hand-card][data-legal="1"], [data-testid=next-hand]', timeout=20_000
    )
    c1.close()
    c2.close()


def test_a_vote_refused_then_one_passed(browser: Browser, server: RunningServer) -> None:
    code = new_room(server, vote_seconds=60)
    (c1, a), (c2, b) = open_page(browser), open_page(browser, "en")
    join(a, server, code, "甲")
    join(b, server, code, "Bee")
    start(a)
    a.get_by_test_id("dissolve").click()
    vote = b.get_by_test_id("vote")
    expect(vote).to_contain_text("甲 asks to end the room (解散)")
    expect(vote.get_by_test_id("vote-timer")).to_be_visible()
    expect(a.get_by_test_id("vote")).to_contain_text("等大家表态")
    expect(a.get_by_test_id("vote-agree")).to_have_count(0)  # (who asked does not vote)
    expect(a.get_by_test_id("dissolve")).to_be_disabled()
    b.get_by_test_id("vote-refuse").click()
    expect(a.get_by_test_id("toast").filter(has_text="Bee 不同意解散")).to_be_visible()
    expect(b.get_by_test_id("toast").filter(has_text="Bee refused")).to_be_visible()
    for page in (a, b):
        expect(page.get_by_test_id("vote")).to_have_count(0)
    expect(a.get_by_test_id("match-over")).to_have_count(0)
    # asked again and agreed: the room ends, the standings show, in both languages
    a.get_by_test_id("dissolve").click()
    b.get_by_test_id("vote-agree").click()
    for page, words in ((a, "房间已解散"), (b, "The room was ended (解散)")):
        over = page.get_by_test_id("match-over")
        expect(over).to_contain_text(words)
        expect(over).to_have_attribute("data-ended", "1")
        expect(page.get_by_test_id("standings").locator("li")).to_have_count(2)
        expect(page.get_by_test_id("standings-chart")).to_be_visible()
        expect(page.get_by_test_id("hall")).to_have_count(0)
        expect(page.get_by_test_id("again")).to_have_count(0)
    expect(a.get_by_test_id("room-code").locator("..").locator("..")).to_contain_text("已解散")
    # stored as ended early, not as a match in progress
    matches = httpx.get(f"{server.url}/api/matches").json()["matches"]
    assert matches[0]["status"] == "ended_early" and matches[0]["finished"] is not None
    c1.close()
    c2.close()


def test_phrases_beside_the_speaker_free_text_as_text_and_the_rate_limit(
    browser: Browser, server: RunningServer
) -> None:
    code = new_room(server, free_text=True)
    (c1, a), (c2, b), (c3, w) = open_page(browser), open_page(browser, "en"), open_page(browser)
    join(a, server, code, "阿明")
    join(b, server, code, "Bob")
    start(a)
    join(w, server, code, "看客", sit=False)
    expect(w.get_by_test_id("talk-toggle")).to_have_count(0)  # (spectators do not talk)
    a.get_by_test_id("talk-toggle").click()
    panel = a.get_by_test_id("talk-panel")
    expect(panel.get_by_test_id("phrase")).to_have_count(13)
    panel.locator('[data-testid=phrase][data-id="hurry"]').click()
    # beside the speaker's seat, for everyone, in each one's language
    expect(b.get_by_test_id("seat-panel-0").get_by_test_id("bubble")).to_have_text("快点嘛 — Hurry up")
    expect(w.get_by_test_id("seat-panel-0").get_by_test_id("bubble")).to_have_text("快点嘛")
    expect(a.get_by_test_id("seat-panel-0").get_by_test_id("bubble")).to_have_text("快点嘛")
    # free text is shown as text, never as markup
    a.get_by_test_id("talk-text").fill('<img src=x onerror="window.pwned=1">巴适')
    a.get_by_test_id("talk-send").click()
    bubble = b.get_by_test_id("seat-panel-0").get_by_test_id("bubble")
    expect(bubble).to_have_text('<img src=x onerror="window.pwned=1">巴适')
    assert bubble.locator("img").count() == 0 and b.evaluate("window.pwned") is None
    # it fades after a few seconds
    expect(w.get_by_test_id("seat-panel-0").get_by_test_id("bubble")).to_have_count(0, timeout=8_000)
    # a burst is cut off with a clear message; nobody sees the phrases refused
    emote = panel.locator('[data-testid=emote][data-id="thumbs"]')
    for _ in range(5):
        emote.click()
    expect(a.get_by_test_id("toast").filter(has_text="说得太快了").first).to_be_visible()
    expect(b.get_by_test_id("seat-panel-0").get_by_test_id("bubble")).to_contain_text("👍")
    for context in (c1, c2, c3):
        context.close()

"""The web game's finish in real headless Chromium (docs/web.md): the error pages in both
languages, bots named in words, an English table page in English, records downloaded as
stored, replay links that open a step, a room whose rules its creator chose (shown in words
to whoever joins, and played by the server), and a visitor who sees the game start.

Expected values come from RULES.md (R-10's presets and options) and the words the brief
asked for, not from the code under test."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from erqishi.core import RuleSet
from support.browser import browser_settings, launched_browser
from support.webclient import Client, create_room, play_randomly
from support.webserver import RunningServer, running_server

#: The card faces (R-1.1): Chinese in both languages.
CARDS = set("一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾")
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
#: Chinese that stands alone on an English page: the switch to Chinese.
UI_TERMS = {"中文"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("browser-polish") / "web.db"
    with running_server(browser_settings(db, 13, max_rooms_per_address=0)) as srv:
        yield srv


def english_problems(text: str) -> list[str]:
    """The Chinese in an English page's visible text that is not as the glossary allows: a
    run of Chinese that is not card faces (R-1.2: faces are Chinese in both languages) is a
    term, in parentheses or right before its gloss in parentheses ("吃 (chi)", "chow (吃)")."""
    problems = []
    for m in CJK.finditer(text):
        run = m.group()
        if set(run) <= CARDS or run in UI_TERMS:
            continue
        before, after = text[: m.start()], text[m.end() :]
        line_before = before.rsplit("\n", 1)[-1]
        inside = line_before.count("(") > line_before.count(")")
        glossed = after.startswith((" (", "("))
        if not (inside or glossed):
            start = max(0, m.start() - 30)
            problems.append(f"{run!r} in …{text[start : m.end() + 30]!r}")
    return problems


def english_context(browser: Browser, server: RunningServer) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("try { localStorage.setItem('erqishi.lang', 'en'); } catch (e) {}")
    return context, context.new_page()


def click_a_move(page: Page, rng: random.Random) -> bool:
    actions = page.get_by_test_id("action")
    cards = page.locator('[data-testid="hand-card"][data-legal="1"]')
    options = [actions.nth(i) for i in range(actions.count())] + [cards.nth(i) for i in range(cards.count())]
    if not options:
        return False
    wins = [o for o in options if (o.get_attribute("data-action") or "") == "hu"]
    try:
        (wins[0] if wins else rng.choice(options)).click(timeout=2000)
    except Exception:  # the table moved on under the cursor
        return False
    return True


def seed_matches(server: RunningServer, match_quan: int = 1) -> str:
    """A match played over the protocol (one random player, two bots), in a thread of its
    own (Playwright holds this one's event loop); returns the room code."""
    out: dict[str, Any] = {}

    async def play() -> None:
        code = await create_room(server.url, match_quan=match_quan)
        client = await Client(server.ws_url, code, "阿华").connect()
        await client.send({"v": 2, "type": "sit", "seat": 0})
        await client.send({"v": 2, "type": "bots"})
        await play_randomly(client, random.Random(4), seat=0, start=True, sit=False, timeout=90)
        await client.close()
        out["code"] = code

    thread = threading.Thread(target=lambda: asyncio.run(play()))
    thread.start()
    thread.join(120)
    assert "code" in out, "the seeded match did not finish"
    return str(out["code"])


def api(server: RunningServer, path: str) -> Any:
    reply = httpx.get(server.url + path, timeout=10)
    assert reply.status_code == 200, reply.text
    return reply.json()


# ------------------------------------------------------------------ error pages


def test_error_pages_in_the_games_style_in_both_languages(browser: Browser, server: RunningServer) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    reply = page.goto(server.url + "/no/such/page")
    assert reply is not None and reply.status == 404
    box = page.get_by_test_id("error-page")
    expect(box).to_contain_text("找不到这个页面")
    expect(page.get_by_test_id("lang-toggle")).to_be_visible()  # the game's header, not raw JSON
    assert "detail" not in page.inner_text("body")
    page.get_by_test_id("lang-toggle").click()
    expect(box).to_contain_text("Page not found")
    expect(box).not_to_contain_text("找不到")

    reply = page.goto(server.url + "/r/QQQQQQ")
    assert reply is not None and reply.status == 404
    box = page.get_by_test_id("error-page")
    expect(box).to_contain_text("No such room")
    expect(box).to_contain_text("QQQQQQ")
    assert page.get_by_test_id("share-link").count() == 0 and page.get_by_test_id("copy-link").count() == 0
    page.get_by_test_id("lang-toggle").click()
    expect(box).to_contain_text("没有这个房间")
    # another code from here: the room page of that code
    code = httpx.post(server.url + "/api/rooms", json={"v": 2}).json()["code"]
    page.get_by_test_id("error-code-input").fill(code.lower())
    page.get_by_test_id("error-join").click()
    expect(page.get_by_test_id("room-code")).to_have_text(code)

    async def boom() -> None:
        raise RuntimeError("a fault for the test")

    server.app.add_api_route("/test-fault-page", boom)
    reply = page.goto(server.url + "/test-fault-page")
    assert reply is not None and reply.status == 500
    expect(page.get_by_test_id("error-page")).to_contain_text("服务器出错了")
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("error-page")).to_contain_text("Something went wrong on the server")
    context.close()


# ------------------------------------------------------------------ English, bot names


def test_the_english_table_reads_as_english_and_bots_have_names(browser: Browser, server: RunningServer) -> None:
    context, page = english_context(browser, server)
    page.goto(server.url + "/")
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/*")
    page.get_by_test_id("name-input").fill("Ann")
    page.get_by_test_id("join").click()
    page.get_by_test_id("fill-bots").click()
    expect(page.get_by_test_id("lobby-seat-1")).to_contain_text("Bot (steady) 2")
    expect(page.get_by_test_id("lobby-seat-2")).to_contain_text("Bot (steady) 3")
    assert english_problems(page.inner_text("body")) == []
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    rng = random.Random(6)
    seen: set[str] = set()
    result = page.get_by_test_id("result")
    for i in range(500):
        if result.is_visible():
            break
        if i % 5 == 0:
            text = page.inner_text("body")
            seen.update(english_problems(text))
            assert "heuristic-bot" not in text
        click_a_move(page, rng)
        page.wait_for_timeout(30)
    else:
        raise AssertionError("the hand did not end")
    text = page.inner_text("body")
    seen.update(english_problems(text))
    assert not seen, sorted(seen)
    assert "Bot (steady) 2" in text and "heuristic-bot" not in text
    status = page.get_by_test_id("status").inner_text()
    assert "Round 1 of 1" in status and "Hand 1" in status, status
    # the same table in Chinese names the bots in Chinese
    page.get_by_test_id("lang-toggle").click()
    expect(page.get_by_test_id("result")).to_contain_text("机器人·稳健 2")
    page.get_by_test_id("lang-toggle").click()
    # the history and the replay of that hand, in English too
    page.goto(server.url + "/history")
    page.get_by_test_id("open-match").first.click()
    expect(page.get_by_test_id("hand-link").first).to_be_visible()
    text = page.inner_text("body")
    assert "Bot (steady) 2" in text and "heuristic-bot" not in text
    assert english_problems(text) == []
    page.get_by_test_id("hand-link").first.click()
    page.wait_for_url("**/replay/*")
    expect(page.get_by_test_id("replay-text")).not_to_be_empty()
    page.keyboard.press("End")
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^step (\d+) / \1$"))  # the last step
    expect(page.get_by_test_id("replay-text")).to_contain_text(re.compile("Payments|Dead hand"))
    text = page.inner_text("body")
    assert "Bot (steady)" in text and "heuristic-bot" not in text
    assert english_problems(text) == []
    context.close()


# ------------------------------------------------------------------ records, replay links


def test_records_download_as_stored_and_replay_links_open_a_step(browser: Browser, server: RunningServer) -> None:
    seed_matches(server)
    match = api(server, "/api/matches")["matches"][0]  # the newest: the one just played
    hands = api(server, f"/api/matches/{match['id']}")["hands"]
    assert len(hands) >= 2, "a 圈 of three players is three hands (R-2.4)"
    first, second = hands[0], hands[1]
    stored = api(server, f"/api/hands/{first['id']}")["record"]

    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.goto(server.url + "/history")
    item = page.locator(f'[data-testid="match"][data-id="{match["id"]}"]')
    item.get_by_test_id("open-match").click()
    with page.expect_download() as download:
        item.get_by_test_id("download-hand").first.click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved == stored and saved["format"] == 1
    assert download.value.suggested_filename == f"erqishi-hand-{first['id']}.json"
    with page.expect_download() as download:
        item.get_by_test_id("download-match").click()
    whole = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert whole["kind"] == "match" and whole["hands"][0] == stored
    assert whole == api(server, f"/api/matches/{match['id']}")["record"]  # the finished match as stored

    # a replay link opens at its step, and the address follows the steps
    frames = api(server, f"/api/hands/{first['id']}/replay")["frames"]
    page.goto(f"{server.url}/replay/{first['id']}?step=5")
    step = page.get_by_test_id("replay-step")
    expect(step).to_have_text(f"第 5 / {len(frames) - 1} 步")
    expect(page.get_by_test_id("replay-action")).to_be_visible()  # step 5 is an action, not the deal
    page.get_by_test_id("replay-next").click()
    expect(step).to_have_text(f"第 6 / {len(frames) - 1} 步")
    assert page.url.endswith(f"/replay/{first['id']}?step=6")
    page.reload()
    expect(step).to_have_text(f"第 6 / {len(frames) - 1} 步")
    with page.expect_download() as download:
        page.get_by_test_id("download-hand").click()
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8")) == stored
    # ?hand=N: the N-th hand of the match
    page.goto(f"{server.url}/replay/{first['id']}?hand=2&step=3")
    page.wait_for_url(f"**/replay/{second['id']}?step=3")
    expect(page.get_by_test_id("replay-summary")).to_contain_text("第 2 手")
    expect(step).to_contain_text("第 3 /")
    context.close()


# ------------------------------------------------------------------ a room's own rules


def test_a_room_with_chosen_rules_shows_them_to_whoever_joins_and_plays_by_them(
    browser: Browser, server: RunningServer
) -> None:
    """The creator picks the game-hall preset (R-10 ``app``: tiers app, cap 100), lowers the
    cap to 50 and turns 瞟胡 off; a friend who opens the link reads those rules in words, a
    visitor who has not joined sees the game start, and the server's table plays by them."""
    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(3)]
    creator, friend, visitor = (c.new_page() for c in contexts)
    creator.goto(server.url + "/")
    creator.get_by_test_id("preset").select_option("app")
    expect(creator.get_by_test_id("opt-cap")).to_have_value(re.compile(r"\d+"))
    assert creator.locator('[data-testid="opt-cap"] option:checked').inner_text() == "100"  # the preset's cap
    creator.get_by_test_id("opt-cap").select_option(label="50")
    creator.get_by_test_id("opt-piao_fan").uncheck()
    expect(creator.get_by_test_id("opt-cap")).to_have_attribute("data-changed", "1")
    expect(creator.get_by_test_id("opt-piao_fan")).to_have_attribute("data-changed", "1")
    expect(creator.get_by_test_id("opt-kun_fan")).to_have_attribute("data-changed", "0")
    creator.get_by_test_id("create-room").click()
    creator.wait_for_url("**/r/*")
    code = creator.url.rsplit("/", 1)[1]
    creator.get_by_test_id("name-input").fill("甲")
    creator.get_by_test_id("join").click()
    expect(creator.get_by_test_id("lobby-seat-0")).to_contain_text("甲")

    friend.goto(f"{server.url}/r/{code}")
    rules = friend.get_by_test_id("room-rules")
    expect(rules).to_contain_text("游戏大厅")
    expect(rules.locator('li[data-option="cap"]')).to_have_text("封顶 50")
    expect(rules.locator('li[data-option="piao_fan"]')).to_have_text("瞟胡 无")
    expect(rules.locator('li[data-option="kun_fan"]')).to_have_text("坤胡 有")
    assert "changed" in (rules.locator('li[data-option="cap"]').get_attribute("class") or "")
    assert "changed" not in (rules.locator('li[data-option="kun_fan"]').get_attribute("class") or "")
    friend.get_by_test_id("lang-toggle").click()
    expect(rules.locator('li[data-option="cap"]')).to_contain_text("50")
    expect(rules.get_by_test_id("room-rules-summary")).to_contain_text("game hall (app)")
    expect(rules.locator('li[data-option="piao_fan"]')).to_contain_text("off")
    friend.get_by_test_id("lang-toggle").click()
    friend.get_by_test_id("name-input").fill("乙")
    friend.get_by_test_id("join").click()
    expect(friend.get_by_test_id("lobby-seat-1")).to_contain_text("乙")

    visitor.goto(f"{server.url}/r/{code}")  # opens the link and does not join
    expect(visitor.get_by_test_id("room-info")).to_contain_text("等人中")

    wanted = RuleSet.load({"preset": "app", "cap": 50, "piao_fan": False, "match_quan": 1})
    room = server.rooms.get(code)
    assert room is not None and room.rules == wanted and wanted.tiers.value == "app"
    creator.get_by_test_id("fill-bots").click()
    creator.get_by_test_id("start").click()
    expect(creator.get_by_test_id("my-hand")).to_be_visible()
    expect(visitor.get_by_test_id("room-info")).to_contain_text("游戏中", timeout=10_000)
    expect(visitor.get_by_test_id("room-info")).not_to_contain_text("等人中")
    visitor.get_by_test_id("name-input").fill("丙")
    visitor.get_by_test_id("spectate").click()  # and once watching, the table's own state
    expect(visitor.get_by_test_id("spectating")).to_be_visible()
    expect(visitor.get_by_test_id("room-info")).to_contain_text("游戏中")
    room = server.rooms.get(code)
    assert room is not None and room.table is not None and room.table.rules == wanted
    for c in contexts:
        c.close()


def test_a_refused_name_brings_the_join_form_back(browser: Browser, server: RunningServer) -> None:
    """A name the server refuses on joining (``bad_name``: it passes for a bot's; then
    ``name_taken``) says so and shows the form again with the name to change, instead of
    "connecting…" for good; a free name then joins."""
    code = httpx.post(f"{server.url}/api/rooms", json={"v": 2}).json()["code"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server.url}/r/{code}")
        page.get_by_test_id("name-input").fill("Bot 1")
        page.get_by_test_id("join").click()
        expect(page.locator(".toast").last).to_contain_text("机器人")
        expect(page.get_by_test_id("name-input")).to_have_value("Bot 1", timeout=5000)
        expect(page.get_by_test_id("name-input")).to_be_focused()
        page.get_by_test_id("name-input").fill("阿明")
        page.get_by_test_id("join").click()
        expect(page.get_by_test_id("lobby-seat-0")).to_contain_text("阿明")
        friend = browser.new_context(viewport={"width": 1280, "height": 900})
        other = friend.new_page()  # a friend's browser: a new member
        other.goto(f"{server.url}/r/{code}")
        other.get_by_test_id("name-input").fill("阿明")
        other.get_by_test_id("join").click()
        expect(other.locator(".toast").last).to_contain_text("已经有人用这个名字")
        expect(other.get_by_test_id("name-input")).to_have_value("阿明", timeout=5000)
        friend.close()
    finally:
        context.close()

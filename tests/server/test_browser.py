"""The browser client end to end, in real headless Chromium driven by Playwright: a person
plays against two bots by clicking, reloads mid-hand and resumes; three browsers play
together; Chinese text renders with a real font (no empty boxes); a phone-sized screen."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import browser_settings, launched_browser
from support.webserver import RunningServer, running_server


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(browser_settings(tmp_path / "web.db", 11)) as srv:
        yield srv


def create_room(page: Page, server: RunningServer, *, match_quan: int = 1, bots: str = "heuristic") -> str:
    """Create a room from the home page; returns its code (the page is then on /r/CODE)."""
    page.goto(server.url + "/")
    page.get_by_test_id("match-quan").select_option(str(match_quan))
    page.get_by_test_id("bots").select_option(bots)
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("room-code")).to_contain_text(code)
    return code


def join(page: Page, name: str) -> None:
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("join").click()


def play_against_bots(page: Page, server: RunningServer, name: str) -> None:
    """Create a room, join it as ``name``, fill the other seats with bots and start."""
    create_room(page, server)
    join(page, name)
    page.get_by_test_id("fill-bots").click()
    page.get_by_test_id("start").click()


def click_a_move(page: Page, rng: random.Random) -> bool:
    """Click one of the offered moves (a 胡 when offered); False when there is none now."""
    actions = page.get_by_test_id("action")
    cards = page.locator('[data-testid="hand-card"][data-legal="1"]')
    options = [actions.nth(i) for i in range(actions.count())] + [cards.nth(i) for i in range(cards.count())]
    if not options:
        return False
    wins = [o for o in options if (o.get_attribute("data-action") or "") == "hu"]
    target = wins[0] if wins else rng.choice(options)
    try:
        target.click(timeout=2000)
    except Exception:  # the table moved on under the cursor: the next state decides
        return False
    return True


def play_until_result(page: Page, rng: random.Random, *, limit: int = 400, on_click: object = None) -> int:
    """Click moves until the end-of-hand breakdown shows; returns the clicks made."""
    clicks = 0
    result = page.get_by_test_id("result")
    for _ in range(limit):
        if result.is_visible():
            return clicks
        if click_a_move(page, rng):
            clicks += 1
            if callable(on_click):
                on_click(clicks)
        page.wait_for_timeout(40)
    raise AssertionError("the hand did not end")


def test_a_person_plays_a_hand_against_two_bots_and_reloads_mid_hand(browser: Browser, server: RunningServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    play_against_bots(page, server, "小明")
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    rng = random.Random(5)
    reloaded = {}

    def reload_once(clicks: int) -> None:
        if clicks == 3 and not reloaded:
            hand_before = page.get_by_test_id("status").inner_text()
            page.reload()
            expect(page.get_by_test_id("my-hand")).to_be_visible(timeout=10_000)
            # the same seat, with the whole current state: the hand, the log, the seats
            assert page.get_by_test_id("hand-card").count() > 0
            expect(page.get_by_test_id("seat-panel-0")).to_contain_text("小明")
            assert page.get_by_test_id("log").inner_text().strip()
            reloaded["status"] = (hand_before, page.get_by_test_id("status").inner_text())

    clicks = play_until_result(page, rng, on_click=reload_once)
    assert clicks >= 3 and reloaded, "the page was not reloaded mid-hand"
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    text = result.inner_text()
    # the bots by their names in words (their seats keep heuristic-bot-2… in the records)
    assert "机器人·稳健 2" in text and "机器人·稳健 3" in text and "heuristic-bot" not in text
    room = server.rooms.get(page.url.rsplit("/", 1)[1])
    assert room is not None and room.table is not None and room.table.hands
    finished = room.table.hands[0]
    # the breakdown on the page is the server's: each payment is shown
    for pay in finished.outcome.payments:
        assert f"{pay:+d}" in text or str(pay) in text
    page.get_by_test_id("next-hand").click()
    expect(page.get_by_test_id("result")).to_be_hidden(timeout=10_000)
    context.close()


def test_three_browsers_play_together(browser: Browser, server: RunningServer) -> None:
    contexts = [browser.new_context(viewport={"width": 1024, "height": 768}) for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    code = create_room(pages[0], server)
    for i, page in enumerate(pages):
        if i:
            page.goto(f"{server.url}/r/{code}")
        join(page, f"友{i}")
        expect(page.get_by_test_id(f"lobby-seat-{i}")).to_contain_text(f"友{i}")
    pages[0].get_by_test_id("start").click()
    for page in pages:
        expect(page.get_by_test_id("my-hand")).to_be_visible()
    rngs = [random.Random(i) for i in range(3)]
    for _ in range(1500):
        if all(p.get_by_test_id("result").is_visible() for p in pages):
            break
        for page, rng in zip(pages, rngs, strict=True):
            if not page.get_by_test_id("result").is_visible():
                click_a_move(page, rng)
        pages[0].wait_for_timeout(20)
    else:
        raise AssertionError("the hand did not end in all three browsers")
    texts = [p.get_by_test_id("result").inner_text() for p in pages]
    for i, text in enumerate(texts):
        assert all(f"友{j}" in text for j in range(3) if j != i)  # the others by name, oneself as 你
    for page in pages:
        page.get_by_test_id("next-hand").click()
    for page in pages:
        expect(page.get_by_test_id("result")).to_be_hidden(timeout=10_000)
        expect(page.get_by_test_id("status")).to_be_visible()
    room = server.rooms.get(code)
    assert room is not None and room.table is not None and room.table.hand_number == 2
    for c in contexts:
        c.close()


def test_chinese_renders_with_a_real_font_on_a_phone(browser: Browser, server: RunningServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    play_against_bots(page, server, "小红")
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    page.wait_for_timeout(300)
    shot = tmp_path / "phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    # a real CJK font is used: it is installed and two different strings look different
    # (without the font every character is the same empty box)
    assert page.evaluate("document.fonts.check('16px \"WenQuanYi Micro Hei\"', '贰柒拾')")
    page.evaluate(
        """() => {
        const texts = [["cjk-a", "贰柒拾"], ["cjk-b", "一二三"], ["cjk-c", "\\u{10FFFD}\\u{10FFFD}\\u{10FFFD}"]];
        for (const [id, text] of texts) {
            const span = document.createElement("span");
            span.id = id; span.textContent = text;
            span.style.cssText = "font-size:32px;position:fixed;left:0;top:0;background:#fff;color:#000";
            document.body.appendChild(span);
        }
        }"""
    )
    images = {}
    for sid in ("cjk-a", "cjk-b", "cjk-c"):
        page.evaluate(f"""() => {{ for (const s of ["cjk-a","cjk-b","cjk-c"])
            document.getElementById(s).style.visibility = s === "{sid}" ? "visible" : "hidden"; }}""")
        images[sid] = page.locator(f"#{sid}").screenshot()
    assert images["cjk-a"] != images["cjk-b"]
    assert images["cjk-a"] != images["cjk-c"] and images["cjk-b"] != images["cjk-c"]
    # the hand's tiles show Chinese faces, and nothing scrolls sideways on a phone
    faces = page.get_by_test_id("hand-card").all_inner_texts()
    assert faces and all(any("\u4e00" <= ch <= "\u9fff" for ch in face) for face in faces)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for button in page.get_by_test_id("action").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 40
    context.close()


def test_history_lists_the_match_and_the_replay_steps_through_a_hand(browser: Browser, server: RunningServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    play_against_bots(page, server, "阿华")
    play_until_result(page, random.Random(2))
    page.wait_for_timeout(500)
    page.goto(server.url + "/history")
    match = page.get_by_test_id("match").first
    expect(match).to_contain_text("阿华")
    match.get_by_test_id("open-match").click()
    hand = page.get_by_test_id("hand-link").first
    expect(hand).to_be_visible()
    hand.click()
    page.wait_for_url("**/replay/*")
    expect(page.get_by_test_id("seat-panel-0")).to_be_visible()
    step = page.get_by_test_id("replay-step")
    start = step.inner_text()
    page.get_by_test_id("replay-next").click()
    expect(step).not_to_have_text(start)
    after_next = page.get_by_test_id("replay-text").inner_text()
    assert after_next.strip()
    page.keyboard.press("End")
    expect(page.get_by_test_id("replay-text")).not_to_have_text(after_next)
    page.keyboard.press("Home")
    expect(step).to_have_text(start)
    context.close()


def test_the_browser_tells_every_event_in_the_one_narration(browser: Browser, server: RunningServer) -> None:
    """The browser's renderer fills the server's sentences exactly as the Python narration
    does: over whole random hands (every kind of event, 2, 3 and 4 players, both
    languages), each event's lines in the page equal narrate_lines()."""
    from erqishi.core import RuleSet
    from erqishi.core.engine import Deal
    from erqishi.play import Names, narrate_lines, play_hand, random_chooser

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.get_by_test_id("create-room")).to_be_visible()
    kinds: set[str] = set()
    for players in (2, 3, 4):
        rules = RuleSet.from_options({"players": players, "yu": True})
        labels = [f"座{i}号" for i in range(players)]
        for seed in range(12):
            rng = random.Random(seed)
            played = play_hand(Deal.shuffled(rng, seed % players, rules), random_chooser(rng), rules)
            events = list(played.events)
            kinds |= {e.kind.value for e in events}
            for lang in ("zh", "en"):
                want = [narrate_lines(e, lang, Names(labels, you=1)) for e in events]  # type: ignore[arg-type]
                got = page.evaluate(
                    """async ([events, labels, lang]) => {
                        const i18n = await import("/static/js/i18n.js");
                        const narrate = await import("/static/js/narrate.js");
                        await narrate.loadNarration();
                        i18n.setLang(lang);
                        const nm = {
                            who: (s) => (s === 1 ? (lang === "en" ? "You" : "你") : labels[s]),
                            s: (s) => (s === 1 ? "" : "s"),
                        };
                        return events.map((ev) => narrate.eventLines(ev, nm));
                    }""",
                    [[e.to_json() for e in events], labels, lang],
                )
                assert got == want, (players, seed, lang)
    assert {"dealt", "flipped", "discarded", "took", "passed", "scored"} <= kinds
    page.evaluate("async () => (await import('/static/js/i18n.js')).setLang('zh')")
    context.close()


def test_the_page_log_reads_as_the_python_narration(browser: Browser, server: RunningServer) -> None:
    """A hand played in the page: its log lines are narrate() of the table's events, with
    the reader named 你."""
    from erqishi.play import Names, narrate_lines
    from erqishi.records.names import seat_label

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    play_against_bots(page, server, "小明")
    play_until_result(page, random.Random(8))
    room = server.rooms.get(page.url.rsplit("/", 1)[1])
    assert room is not None and room.table is not None
    names = Names([seat_label(n) for n in room.table.names], you=0)  # bots as the page names them
    want = [lines[0] for e in room.table.events if (lines := narrate_lines(e, "zh", names))]
    items = page.get_by_test_id("log").locator("li").all_inner_texts()
    assert items == want
    context.close()


def test_cards_look_as_the_seeds_describe_them(browser: Browser, server: RunningServer) -> None:
    """R-1.1: 大 cards red and 小 cards black, on a light face, in the browser as in the
    terminal; the ranks of 二七十 are marked by a line under the face, not by a colour; the
    legend says so."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    play_against_bots(page, server, "小明")
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    styles = page.evaluate(
        """() => [...document.querySelectorAll('.tile[data-card]')].map((el) => {
            const s = getComputedStyle(el);
            return [el.dataset.card, s.color, s.backgroundColor, s.textDecorationLine];
        })"""
    )
    assert styles

    def rgb(text: str) -> tuple[int, ...]:
        return tuple(int(v) for v in text[text.index("(") + 1 : text.index(")")].split(",")[:3])

    for card, color, background, decoration in styles:
        r, g, b = rgb(color)
        if card.startswith("d"):
            assert r > 150 and g < 80 and b < 80, (card, color)  # red
        else:
            assert max(r, g, b) < 80, (card, color)  # black
        assert min(rgb(background)) > 180, (card, background)  # a light face
        assert ("underline" in decoration) == (card[1:] in ("2", "7", "10")), (card, decoration)
    legend = page.get_by_test_id("legend").inner_text()
    assert "黑" in legend and "红" in legend and "下划线" in legend
    context.close()


def test_a_refused_card_says_why_on_hover_and_tap(browser: Browser, server: RunningServer) -> None:
    """R-3.1, R-5.10: while you owe a discard, a held card the engine refuses is marked, its
    title says why, and a tap shows the reason in words (the narration's why_ sentence with
    the R-id) without sending anything."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    play_against_bots(page, server, "小明")
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    rng = random.Random(3)
    seen: list[str] = []
    for _hand in range(6):
        result = page.get_by_test_id("result")
        for _ in range(400):
            if result.is_visible():
                break
            refused = page.locator('[data-testid="hand-card"].refused')
            if refused.count():
                card = refused.first
                title = card.get_attribute("title") or ""
                assert "R-3.1" in title or "R-5.10" in title, title
                step = page.get_by_test_id("status").inner_text()
                try:
                    # aria-disabled: a person can still tap it (force skips Playwright's enabled check)
                    card.click(timeout=2000, force=True)
                except Exception:  # the table moved on
                    page.wait_for_timeout(40)
                    continue
                why = page.get_by_test_id("why").inner_text()
                if why:
                    assert "不能打" in why and ("坎" in why or "上吐下泻" in why), why
                    assert page.get_by_test_id("status").inner_text() == step or result.is_visible()
                    seen.append(why)
                    break
            if click_a_move(page, rng):
                page.wait_for_timeout(40)
        if seen:
            break
        page.get_by_test_id("next-hand").click()
        expect(result).to_be_hidden(timeout=10_000)
    assert seen, "no refused card in six hands"
    context.close()

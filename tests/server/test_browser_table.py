"""What happened at the table, in real headless Chromium (docs/web.md, "At the table"):
the last discard, flip and take marked on their cards and seats, with their animations; a
吃 outranked by a 对 in the same window (R-5.4) told to the seat that declared it and to
nobody else; a tap that raises a card and a second tap that discards it; sounds off by
default, and the switch kept in the browser; and the table on a 360×740 phone.

The games are driven deterministically: two people play a 对口 room (two seats, no bots),
and a plan made with the engine from the server's own state of the hand (everyone passes,
the first legal card is discarded) leads them to the window the test needs."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from erqishi.core.engine import PASS, Action, ActionKind, Phase, State, apply, resolve_responses, seat_options
from erqishi.play.step import asked
from support.browser import browser_settings, join, launched_browser
from support.browser import open_page as support_open_page
from support.webserver import RunningServer, running_server

#: Counts what the page sends, the audio it makes and the animations it runs.
INSTRUMENT = """
(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { window.__sent.push(JSON.parse(data)); } catch (e) {}
    return send.call(this, data);
  };
  window.__audio = { contexts: 0, tones: 0 };
  const AC = window.AudioContext;
  if (AC) {
    window.AudioContext = class extends AC {
      constructor(...args) { super(...args); window.__audio.contexts += 1; }
      createOscillator() { window.__audio.tones += 1; return super.createOscillator(); }
    };
  }
  window.__anims = [];
  document.addEventListener("animationstart", (e) => {
    const card = e.target && e.target.dataset ? e.target.dataset.card : "";
    window.__anims.push(`${e.animationName}:${card}`);
  }, true);
})();
"""

#: Every control a thumb may need, and its size: buttons, links, selects, fields, a
#: checkbox's label, a folded section's summary (visible ones only).
SMALL_CONTROLS = """
() => {
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll("button, a[href], select, input, summary, label")) {
    let target = el;
    if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) target = el.closest("label") || el;
    else if (el.tagName === "LABEL" && !el.querySelector("input[type=checkbox], input[type=radio]")) continue;
    if (seen.has(target)) continue;
    seen.add(target);
    const r = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (r.width === 0 || r.height === 0 || style.visibility === "hidden") continue;
    if (r.width < 39.5 || r.height < 39.5) {
      const name = target.dataset.testid || target.id || "";
      const text = (target.innerText || target.value || "").slice(0, 20);
      out.push(`${target.tagName} ${name} "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("browser-table") / "web.db"
    with running_server(browser_settings(db, 21, bot_delay=0.05, max_rooms_per_address=0)) as srv:
        yield srv


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$ERQISHI_SCREENSHOTS`` if set (to look at them), else the
    test's own temporary directory."""
    where = os.environ.get("ERQISHI_SCREENSHOTS")
    path = Path(where) if where else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_room(server: RunningServer, **body: Any) -> str:
    reply = httpx.post(f"{server.url}/api/rooms", json={"v": 2, "preset": "duikou", "match_quan": 1, **body})
    assert reply.status_code == 201, reply.text
    code: str = reply.json()["code"]
    return code


def open_page(browser: Browser, lang: str = "zh", **context: Any) -> tuple[BrowserContext, Page]:
    """:func:`support.browser.open_page` with the page's sounds and acts counted (INSTRUMENT)."""
    return support_open_page(browser, lang, scripts=(INSTRUMENT,), **context)


def two_players(
    browser: Browser, server: RunningServer, a: dict[str, Any], b: dict[str, Any]
) -> tuple[str, list[BrowserContext], dict[int, Page]]:
    """A 对口 room with two people (甲 in seat 0, 乙 in seat 1), started."""
    code = new_room(server)
    (ca, pa), (cb, pb) = open_page(browser, **a), open_page(browser, **b)
    join(pa, server, code, "甲")
    join(pb, server, code, "乙")
    pa.get_by_test_id("start").click()
    for page in (pa, pb):
        expect(page.get_by_test_id("my-hand")).to_be_visible()
    return code, [ca, cb], {0: pa, 1: pb}


def live_state(server: RunningServer, code: str) -> State:
    """The server's own state of the hand (read while it waits for the people)."""
    room = server.rooms.get(code)
    assert room is not None and room.table is not None and room.table.state is not None
    return room.table.state


# ------------------------------------------------------------------ a plan for the hand


@dataclass(frozen=True)
class Decision:
    """One decision of the hand: at ``step`` each seat in ``moves`` sends that action
    (None: the server makes it, a 开 owed with nothing else to choose)."""

    step: int
    moves: dict[int, str | None]


#: A seat's answer in a window other than passing: (state, seat, its options) -> action or None.
Respond = Callable[[State, int, tuple[Action, ...]], Action | None]


def plan(
    state: State,
    stop: Callable[[State], bool],
    choose: Callable[[list[Action]], Action],
    respond: Respond | None = None,
) -> tuple[list[Decision], State | None]:
    """Play on from ``state`` with the engine, everyone passing in every window (or making
    the 开 they owe, or what ``respond`` says) and discarding ``choose(discards)``, until
    ``stop(state)``: the decisions to make, and the state then (None when the hand ended
    first)."""
    decisions: list[Decision] = []
    while not state.is_over:
        if stop(state):
            return decisions, state
        if state.phase is Phase.RESPONSE:
            declared: dict[int, Action] = {}
            moves: dict[int, str | None] = {}
            for seat in asked(state):
                options = seat_options(state, seat)
                action = PASS if PASS in options else next((a for a in options if a.kind is ActionKind.KAI), options[0])
                action = (respond(state, seat, options) if respond is not None else None) or action
                declared[seat] = action
                moves[seat] = None if options == (action,) and action.kind is ActionKind.KAI else str(action)
            seat, action = resolve_responses(state, declared)
            decisions.append(Decision(state.steps, moves))
        else:
            seat = state.turn
            options = seat_options(state, seat)
            discards = [a for a in options if a.kind is ActionKind.DISCARD]
            action = choose(discards) if discards else options[0]
            decisions.append(Decision(state.steps, {seat: str(action)}))
        state = apply(state, seat, action)
    return decisions, None


def conflict(state: State) -> bool:
    """A window where one seat may 吃 the card and another may 对 it."""
    if state.phase is not Phase.RESPONSE:
        return False
    options = {seat: seat_options(state, seat) for seat in asked(state)}
    chi = [s for s, o in options.items() if any(a.kind is ActionKind.CHI for a in o)]
    dui = [s for s, o in options.items() if any(a.kind is ActionKind.DUI for a in o)]
    return any(c != d for c in chi for d in dui)


def plan_to(
    state: State, stop: Callable[[State], bool], respond: Respond | None = None
) -> tuple[list[Decision], State]:
    """A plan that reaches ``stop``: the first legal discards, else other choices."""
    for attempt in range(40):
        rng = random.Random(attempt)
        decisions, at = plan(state, stop, (lambda d: d[0]) if attempt == 0 else rng.choice, respond)
        if at is not None:
            return decisions, at
    raise AssertionError("no plan reaches the wanted window in this hand")


def at_step(page: Page, step: int) -> None:
    expect(page.get_by_test_id("table")).to_have_attribute("data-step", str(step), timeout=10_000)


def acts_sent(page: Page) -> list[str]:
    sent: list[dict[str, Any]] = page.evaluate("window.__sent")
    return [m["action"] for m in sent if m.get("type") == "act"]


def discard(page: Page, card: str) -> None:
    """Discard ``card`` as a person does: one click, or two where a tap raises it."""
    tile = page.locator(f'[data-testid=hand-card][data-legal="1"][data-card="{card}"]').first
    tile.click()
    if page.get_by_test_id("my-hand").get_attribute("data-tap") == "raise":
        expect(page.locator(f'[data-raised="1"][data-card="{card}"]')).to_have_count(1)
        tile.click()


def drive(pages: dict[int, Page], decisions: list[Decision]) -> None:
    """Make the planned decisions in the people's pages."""
    for d in decisions:
        for seat, action in d.moves.items():
            if action is None:
                continue
            page = pages[seat]
            at_step(page, d.step)
            if action.startswith("discard "):
                discard(page, action.split()[1])
            else:
                page.locator(f'[data-testid=action][data-action="{action}"]').click()


# ------------------------------------------------------------------ the tests


def test_the_last_flip_take_and_discard_are_marked_and_an_outranked_chi_is_told_to_its_seat_only(
    browser: Browser, server: RunningServer, shots: Path
) -> None:
    code, contexts, pages = two_players(browser, server, {"lang": "zh"}, {"lang": "en"})
    cw, watcher = open_page(browser)
    join(watcher, server, code, "看客", sit=False)
    expect(watcher.get_by_test_id("spectating")).to_be_visible()
    decisions, at = plan_to(live_state(server, code), conflict)
    drive(pages, decisions)

    # the window: a card flipped that one seat may 吃 and the other may 对
    step, card, flipper = at.steps, at.pending.ascii, at.turn
    assert at.pending_flip  # (对口: only a flip is offered to both seats, R-5.2, R-5.3)
    options = {seat: seat_options(at, seat) for seat in asked(at)}
    dui_seat = next(s for s, o in options.items() if any(a.kind is ActionKind.DUI for a in o))  # (one pair at most)
    chi_seat = 1 - dui_seat
    chi = str(next(a for a in options[chi_seat] if a.kind is ActionKind.CHI))
    for page in (*pages.values(), watcher):
        at_step(page, step)
        # the flip: marked on the card on offer and on the seat that flipped it
        expect(page.get_by_test_id("pending-card")).to_have_attribute("data-last", "flip")
        expect(page.get_by_test_id("pending-card")).to_have_attribute("data-card", card)
        expect(page.get_by_test_id(f"seat-panel-{flipper}")).to_have_attribute("data-last", re.compile(r"\bflip$"))
        expect(page.locator('.tile[data-last~="flip"]')).to_have_count(1)
    watcher.wait_for_function("(c) => window.__anims.includes(`flip-over:${c}`)", arg=card)
    watcher.screenshot(path=str(shots / "table-flip.png"))

    pages[chi_seat].locator(f'[data-testid=action][data-action="{chi}"]').click()
    expect(pages[chi_seat].get_by_test_id("declared")).to_be_visible()
    pages[dui_seat].locator('[data-testid=action][data-action="dui"]').click()

    # the 对 outranks the 吃: the seat that declared 吃 is told, in its language
    for page in (*pages.values(), watcher):
        at_step(page, step + 1)
    told = pages[chi_seat].get_by_test_id("outranked")
    if chi_seat == 0:  # 甲 reads Chinese
        expect(told).to_have_text("你的吃被 乙 的对压过了")
    else:
        expect(told).to_have_text("甲's pung (对) beat your chow (吃)")
    expect(told).to_have_attribute("data-mine", "chi")
    expect(told).to_have_attribute("data-take", "dui")
    expect(told).to_have_attribute("data-by", str(dui_seat))
    pages[chi_seat].screenshot(path=str(shots / "table-outranked.png"))
    for page in (pages[dui_seat], watcher):  # nobody else is told anything
        expect(page.get_by_test_id("outranked")).to_have_count(0)

    # the take: marked on the taken card in the taker's new 对, and on the taker's seat
    for page in (*pages.values(), watcher):
        taken = page.locator('.tile[data-last~="take"]')
        expect(taken).to_have_count(1)
        expect(taken).to_have_attribute("data-card", card)
        expect(taken).to_have_attribute("data-last", "flip take")  # (the card taken is the one flipped)
        panel = page.get_by_test_id(f"seat-panel-{dui_seat}")
        expect(panel.locator('.meld[data-last~="take"] .tile[data-last~="take"]')).to_have_count(1)
        expect(panel.locator('[data-testid=last-tag][data-kind="take"]')).to_be_visible()
    watcher.wait_for_function("(c) => window.__anims.includes(`take-in:${c}`)", arg=card)
    # no sound was made: they are off until someone turns them on
    for page in (*pages.values(), watcher):
        assert page.evaluate("window.__audio.contexts") == 0
        assert page.evaluate("localStorage.getItem('erqishi.sound')") is None

    # the watcher turns the sound on: a tone now, and the switch is kept across a reload
    watcher.get_by_test_id("settings-toggle").click()
    expect(watcher.get_by_test_id("sound-toggle")).not_to_be_checked()
    watcher.get_by_test_id("sound-toggle").check()
    watcher.wait_for_function("window.__audio.tones > 0")
    watcher.reload()
    at_step(watcher, step + 1)
    watcher.get_by_test_id("settings-toggle").click()
    expect(watcher.get_by_test_id("sound-toggle")).to_be_checked()
    assert watcher.evaluate("window.__audio.tones") == 0  # (a fresh page: nothing to play yet)

    # the taker discards: marked on the card on offer (or, once passed, in the taker's row)
    after = apply(at, dui_seat, next(a for a in seat_options(at, dui_seat) if a.kind is ActionKind.DUI))
    assert after.phase is Phase.DISCARD and after.turn == dui_seat
    out = next(a for a in seat_options(after, dui_seat) if a.kind is ActionKind.DISCARD)
    discard(pages[dui_seat], out.cards[0].ascii)
    watcher.wait_for_function("window.__audio.tones > 0")  # the discard's tone
    decisions, _ = plan(apply(after, dui_seat, out), lambda s: s.steps > step + 2, lambda d: d[0])
    drive(pages, decisions)
    for page in (*pages.values(), watcher):
        marked = page.locator('.tile[data-last~="discard"]')
        expect(marked).to_have_count(1)
        expect(marked).to_have_attribute("data-card", out.cards[0].ascii)
        expect(
            page.get_by_test_id(f"seat-panel-{dui_seat}").get_by_test_id("row").locator('[data-last~="discard"]')
        ).to_have_count(1)
        expect(page.get_by_test_id(f"seat-panel-{dui_seat}")).to_have_attribute("data-last", re.compile(r"\bdiscard\b"))

    # and off again: kept off
    watcher.get_by_test_id("sound-toggle").uncheck()
    watcher.reload()
    watcher.get_by_test_id("settings-toggle").click()
    expect(watcher.get_by_test_id("sound-toggle")).not_to_be_checked()
    assert watcher.evaluate("localStorage.getItem('erqishi.sound')") == "off"
    for c in (*contexts, cw):
        c.close()


def test_a_tap_raises_a_card_and_a_second_tap_discards_it(browser: Browser, server: RunningServer, shots: Path) -> None:
    """On a touch screen a tap raises the card and a second tap on it discards it; one tap
    never discards. With a mouse a click discards (the setting says which)."""
    phone = {"lang": "zh", "has_touch": True, "viewport": {"width": 400, "height": 860}}
    code, contexts, pages = two_players(browser, server, phone, {"lang": "en"})
    touch, mouse = pages[0], pages[1]
    expect(touch.get_by_test_id("my-hand")).to_have_attribute("data-tap", "raise")
    expect(mouse.get_by_test_id("my-hand")).to_have_attribute("data-tap", "once")

    # (seat 0 takes what it can, so that it owes a discard: in 对口 the dealer opens, and a
    # seat discards only after a take)
    def take(state: State, seat: int, options: tuple[Action, ...]) -> Action | None:
        return next((a for a in options if a.kind in (ActionKind.CHI, ActionKind.DUI)), None) if seat == 0 else None

    decisions, at = plan_to(live_state(server, code), lambda s: s.phase is not Phase.RESPONSE and s.turn == 0, take)
    drive(pages, decisions)  # (the mouse's discards on the way are single clicks)
    at_step(touch, at.steps)
    cards = [a.cards[0].ascii for a in seat_options(at, 0) if a.kind is ActionKind.DISCARD]
    assert cards
    before = acts_sent(touch)
    first = touch.locator(f'[data-testid=hand-card][data-legal="1"][data-card="{cards[0]}"]').first
    first.click()
    expect(touch.locator('[data-raised="1"]')).to_have_attribute("data-card", cards[0])
    expect(touch.get_by_test_id("discard-hint")).to_contain_text("再点一下")
    last = cards[-1]
    if last != cards[0]:  # another card: that one is raised instead
        touch.locator(f'[data-testid=hand-card][data-legal="1"][data-card="{last}"]').first.click()
        expect(touch.locator('[data-raised="1"]')).to_have_attribute("data-card", last)
    touch.wait_for_timeout(300)
    touch.screenshot(path=str(shots / "table-raised.png"))
    assert acts_sent(touch) == before, "a single tap sent a discard"
    expect(touch.get_by_test_id("table")).to_have_attribute("data-step", str(at.steps))
    touch.locator(f'[data-raised="1"][data-card="{last}"]').click()
    touch.wait_for_function("(n) => window.__sent.filter((m) => m.type === 'act').length > n", arg=len(before))
    assert acts_sent(touch)[len(before) :] == [f"discard {last}"]
    expect(touch.get_by_test_id("table")).not_to_have_attribute("data-step", str(at.steps))
    # the setting: tap once instead, kept in the browser
    touch.get_by_test_id("settings-toggle").click()
    expect(touch.get_by_test_id("tap-mode")).to_have_value("raise")
    touch.get_by_test_id("tap-mode").select_option("once")
    expect(touch.get_by_test_id("my-hand")).to_have_attribute("data-tap", "once")
    touch.reload()
    expect(touch.get_by_test_id("my-hand")).to_have_attribute("data-tap", "once")
    assert touch.evaluate("localStorage.getItem('erqishi.tap')") == "once"
    for c in contexts:
        c.close()


def in_view(page: Page, testid: str, height: int) -> bool:
    box = page.get_by_test_id(testid).first.bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1


def look_at_the_strip(page: Page, shots: Path, width: int, height: int) -> bool:
    """At a decision of the person with something marked on the table: no sideways scroll,
    every control at least 40 px, and scrolled to the bottom the others' strip in sight.
    False if there is nothing marked yet, or once it has looked."""
    if page.evaluate("window.__looked === 1") or page.locator("[data-last]").count() < 2:
        return False
    page.wait_for_timeout(600)  # (the scroll to your decision settles)
    page.screenshot(path=str(shots / "phone-decision.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(SMALL_CONTROLS) == []
    # scrolled down to the hand and below: the strip of the others stays in sight
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "phone-scrolled.png"))
    strip = page.get_by_test_id("table-strip").bounding_box()
    assert strip is not None and strip["y"] <= 1 and strip["height"] <= height * 0.6, strip
    for seat in (1, 2):
        box = page.get_by_test_id(f"seat-panel-{seat}").bounding_box()
        assert box is not None and 0 <= box["y"] < strip["y"] + strip["height"], (seat, box, strip)
    assert in_view(page, "status", height)
    page.evaluate("window.__looked = 1")
    return True


def play_on_a_phone(page: Page, rng: random.Random, *, until: Any, look: Callable[[], object]) -> None:
    """Tap moves (a card: tap to raise, tap again) until ``until`` shows; at each decision
    first ``look()``."""
    for _ in range(600):
        if until.is_visible():
            return
        actions = page.get_by_test_id("action").all()
        cards = page.locator('[data-testid=hand-card][data-legal="1"]').all()
        if (actions or cards) and look():
            continue
        try:
            if cards and (not actions or rng.random() < 0.5):
                rng.choice(cards).click(timeout=2000)  # raises it (a touch screen)
                page.locator('[data-raised="1"]').click(timeout=2000)
            elif actions:
                wins = [a for a in actions if a.get_attribute("data-action") == "hu"]
                (wins[0] if wins else rng.choice(actions)).click(timeout=2000)
        except Exception:  # the table moved on under the finger
            pass
        page.wait_for_timeout(30)
    raise AssertionError("the hand did not end")


def test_the_table_on_a_phone(browser: Browser, server: RunningServer, shots: Path) -> None:
    """360×740: nothing scrolls sideways; the others' seats stay in a strip at the top while
    you scroll down to your hand; every control is at least 40 px; when the hand ends its
    result, with the next hand's timer, comes into sight."""
    width, height = 360, 740
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    context.add_init_script("window.localStorage.setItem('erqishi.lang', 'zh')")
    page = context.new_page()
    errors: list[str] = []  # a script error, or anything the page's CSP refused
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    code = new_room(server, preset="leshan")
    join(page, server, code, "小红")
    page.get_by_test_id("fill-bots").click()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("my-hand")).to_be_visible()
    rng = random.Random(7)
    result = page.get_by_test_id("result")
    for _hand in range(3):  # (until a hand where the person had a decision to look at)
        play_on_a_phone(page, rng, until=result, look=lambda: look_at_the_strip(page, shots, width, height))
        if page.evaluate("window.__looked === 1"):
            break
        page.get_by_test_id("next-hand").click()
        expect(result).to_be_hidden(timeout=10_000)
    else:
        raise AssertionError("no decision of the person to look at in three hands")
    # the result came into sight, its next-hand timer too
    page.wait_for_function(
        """(h) => {
            const r = document.querySelector('[data-testid=result]').getBoundingClientRect();
            const t = document.querySelector('[data-testid=result] [data-testid=timer]').getBoundingClientRect();
            return r.top >= -1 && r.top < h && t.top >= 0 && t.bottom <= h;
        }""",
        arg=height,
        timeout=5000,
    )
    page.screenshot(path=str(shots / "phone-result.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(SMALL_CONTROLS) == []
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hints_suggest_a_legal_move_and_say_what_it_expects(
    browser: Browser, server: RunningServer, shots: Path, lang: str
) -> None:
    """提示 shows the waits and the learned bot's suggestion for the seat that decides now,
    with the expected payment of the hand, in the page's language; the move is one of the
    seat's options (the engine's, R-9)."""
    code, contexts, pages = two_players(browser, server, {"lang": lang}, {"lang": lang})
    try:
        state = live_state(server, code)
        seat = state.turn
        page = pages[seat]
        page.get_by_test_id("hints").click()
        line = page.get_by_test_id("hint-suggest")
        expect(line).to_be_visible()
        text = line.inner_text()
        if lang == "zh":
            assert text.startswith("建议：") and "预计本局净得" in text, text
        else:
            assert text.startswith("Suggestion: ") and "expects" in text, text
        sent = [m for m in page.evaluate("window.__sent") if m.get("type") == "hints"]
        assert sent, "the page asked the server for hints"
        assert seat_options(state, seat), "the seat has a decision"
        page.screenshot(path=str(shots / f"hints-{lang}.png"))
    finally:
        for context in contexts:
            context.close()

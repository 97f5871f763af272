"""The pocket scorer (/score) in real headless Chromium: its in-page scoring (scorer.js, over
the rule data of GET /api/rules) gives exactly the verdict of ``erqishi score`` and
``erqishi waits`` on every worked case of ``../shared/cases`` (each under its ``ruleset``) and
on hundreds of random hands; driven by taps it gives the CLI's verdict on every case of
scoring.json and scoring-rules.json (the rules chosen on the page) and the address it writes
shows the same verdict; it works offline after one visit (service worker); a phone screen
(360×740) never scrolls sideways and its tap targets are at least 40 px (RULES.md R-3,
R-4.4, R-6.1, R-7, R-8, R-10).

Two things keep this file fast: the ``erqishi`` command is built once (Typer rebuilds it on
every call), and a second page on the same hand lives in a second browser context (a second
tab would leave the first in the background, where Chromium stops animation frames and
every Playwright click waits for them: the cause of an earlier 300 s hang)."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlencode

import pytest
import typer
from playwright.sync_api import Browser, Page, expect

from erqishi import cli as cli_module
from erqishi.core import Card, RuleSet
from erqishi.core.hands import GroupKind
from erqishi.core.rules import PRESETS
from erqishi.server.settings import Settings
from support import bruteforce as bf
from support.browser import launched_browser
from support.webserver import RunningServer, running_server

ROOT = Path(__file__).resolve().parents[2]
CASE_FILES = ("scoring.json", "scoring-rules.json")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("score") / "web.db"
    with running_server(Settings(db_url=str(db), seed=3)) as srv:
        yield srv


@pytest.fixture(scope="module")
def scorer_page(browser: Browser, server: RunningServer) -> Iterator[Page]:
    """A page with scorer.js and the rule data loaded (window.S, window.D)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(server.url + "/score")
    page.evaluate(
        """async () => {
        window.S = await import('/static/js/scorer.js');
        window.D = await (await fetch('/api/rules')).json();
        }"""
    )
    yield page
    context.close()


# ---------------------------------------------------------------------------------------------
# the command line's verdicts


@functools.cache
def _cli_command() -> Any:
    """The ``erqishi`` command as click builds it from the Typer app, built once: Typer
    rebuilds it on every call (some 40 ms), which hundreds of calls cannot afford."""
    return typer.main.get_command(cli_module.app)


def cli(*args: str) -> tuple[int, str]:
    """Run ``erqishi ARGS`` in this process (``erqishi.cli.main``, with the command built
    once); its exit code and standard output."""
    out = io.StringIO()
    command = _cli_command()
    with (
        mock.patch.object(cli_module, "app", lambda **kw: command.main(**kw)),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        code = cli_module.main(list(args))
    return code, out.getvalue()


def rules_arg(ruleset: Any) -> str:
    return ruleset if isinstance(ruleset, str) else json.dumps(ruleset, ensure_ascii=False)


def cli_score(case: dict[str, Any]) -> dict[str, Any]:
    """``erqishi score HAND --meld … --win … --json`` of one case (its verdict and payments)."""
    ctx = case["context"]
    args = ["score", case["hand"]]
    for meld in case["melds"]:
        args += ["--meld", meld]
    if ctx.get("tian"):
        args.append("--tian")
    else:
        args += ["--win", case["win"], "--source", ctx.get("win_source", "discard")]
    if ctx.get("di"):
        args.append("--di")
    if ctx.get("quan") is not None:
        args += ["--quan", str(ctx["quan"])]
    args += ["--rules", rules_arg(case.get("ruleset", "leshan")), "--json"]
    code, out = cli(*args)
    assert code in (0, 1), (case, out)
    verdict: dict[str, Any] = json.loads(out)
    return verdict


def cli_cases(path: Path) -> list[dict[str, Any]]:
    """``erqishi score --cases FILE``: one verdict per case."""
    code, out = cli("score", "--cases", str(path))
    assert code == 0, out
    return [json.loads(line) for line in out.splitlines()]


def cli_waits(case: dict[str, Any]) -> list[dict[str, Any]]:
    args = ["waits", case["hand"]]
    for meld in case["melds"]:
        args += ["--meld", meld]
    ctx = case["context"]
    if ctx.get("di"):
        args.append("--di")
    if ctx.get("quan") is not None:
        args += ["--quan", str(ctx["quan"])]
    args += ["--rules", rules_arg(case.get("ruleset", "leshan")), "--json"]
    code, out = cli(*args)
    assert code in (0, 1), (case, out)
    waits: list[dict[str, Any]] = json.loads(out)["waits"]
    return waits


def js_input(case: dict[str, Any]) -> dict[str, Any]:
    ctx = case["context"]
    return {
        "hand": case["hand"],
        "melds": case["melds"],
        "win": case["win"],
        "source": "tian" if ctx.get("tian") else ctx.get("win_source", "discard"),
        "di": bool(ctx.get("di")),
        "quan": ctx.get("quan"),
    }


def js_score(page: Page, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """scoreHand(D, input, ruleset) in the page for every case (or its error code)."""
    items = [{"input": js_input(c), "rules": c.get("ruleset", "leshan")} for c in cases]
    found: list[dict[str, Any]] = page.evaluate(
        """(items) => items.map(({input, rules}) => {
        try { return S.scoreHand(D, input, rules); }
        catch (e) { return {error: e.code || String(e)}; }
        })""",
        items,
    )
    return found


def js_waits(page: Page, cases: list[dict[str, Any]]) -> list[Any]:
    items = [{"input": js_input(c), "rules": c.get("ruleset", "leshan")} for c in cases]
    found: list[Any] = page.evaluate(
        """(items) => items.map(({input, rules}) => {
        try { return S.findWaits(D, input, rules); }
        catch (e) { return {error: e.code || String(e)}; }
        })""",
        items,
    )
    return found


def verdict_of(cli_json: dict[str, Any]) -> dict[str, Any]:
    """What the CLI says, in the fields the scorer must match."""
    if not cli_json["win"]:
        return {"win": False, "reason": cli_json["reason"]}
    return {
        "win": True,
        "hu": cli_json["hu"],
        "base": cli_json["base"],
        "fan": cli_json["fan"],
        "score": cli_json["score"],
        "payments": [p["amount"] for p in cli_json["payments"]],
        "roles": [p["role"] for p in cli_json["payments"]],
    }


def verdict_js(js: dict[str, Any]) -> dict[str, Any]:
    if "error" in js:
        return {"error": js["error"]}
    if not js["win"]:
        return {"win": False, "reason": js["reason"]}
    return {
        "win": True,
        "hu": js["hu"],
        "base": js["base"],
        "fan": js["fan"],
        "score": js["score"],
        "payments": [p["amount"] for p in js["payments"]],
        "roles": [p["role"] for p in js["payments"]],
    }


def load_cases(shared: Path, name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((shared / "cases" / name).read_text(encoding="utf-8"))
    return cases


# ---------------------------------------------------------------------------------------------
# random hands


def _benchmark_hands() -> Any:
    spec = importlib.util.spec_from_file_location("erqishi_benchmark_hands", ROOT / "benchmarks" / "hands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_rules(rng: random.Random) -> Any:
    """A preset, or options over one (the 番 switches, tiers, 天胡, players, cap, 抬炮, yu)."""
    if rng.random() < 0.4:
        return rng.choice(list(PRESETS))
    options: dict[str, Any] = {"preset": rng.choice(list(PRESETS))}
    for name in ("yu", "kun_fan", "piao_fan", "quan_fan", "shuang_quan", "tian_di_fan"):
        if rng.random() < 0.25:
            options[name] = rng.random() < 0.5
    if rng.random() < 0.3:
        options["tiers"] = rng.choice(["seed", "app", "jianwei"])
    if rng.random() < 0.3:
        options["tianhu"] = rng.choice(["one_fan", "two_fan", "fixed_100"])
    if rng.random() < 0.3:
        options["players"] = rng.choice([2, 3, 4])
    if rng.random() < 0.2:
        options["cap"] = rng.choice([None, 50, 160])
    if rng.random() < 0.15:
        options["taipao_multiplier"] = rng.choice([None, 1, 4])
    return options


def as_case(i: int, deal: bf.Deal, ruleset: Any) -> dict[str, Any]:
    ctx: dict[str, Any] = {}
    if deal.ctx.source == "tian":
        ctx["tian"] = True
    else:
        ctx["win_source"] = deal.ctx.source
    if deal.ctx.di:
        ctx["di"] = True
    if deal.ctx.quan is not None:
        ctx["quan"] = deal.ctx.quan
    return {
        "id": f"random-{i}",
        "hand": bf.show(deal.hand),
        "melds": [m.text() for m in deal.melds],
        "win": None if deal.win is None else bf.show([deal.win]),
        "context": ctx,
        "ruleset": ruleset,
    }


def random_cases(seed: int, n_deals: int, n_benchmark: int) -> list[dict[str, Any]]:
    """Random hands: the brute-force reference's deals (near-wins, tangled 二七十/花吃, yu melds,
    天胡, 地胡, 圈) and complete hands from benchmarks/hands.py, each under random rules."""
    rng = random.Random(seed)
    cases = []
    for i in range(n_deals):
        ruleset = random_rules(rng)
        deal = bf.random_deal(rng, tangled=rng.random() < 0.3, rules=bf.BRules.of(RuleSet.load(ruleset)))
        cases.append(as_case(i, deal, ruleset))
    hands = _benchmark_hands()
    for i in range(n_benchmark):
        hand, melds, win = hands.complete_hand(rng)
        ctx: dict[str, Any] = {"win_source": rng.choice(["discard", "flip", "own_flip"])}
        if rng.random() < 0.4:
            ctx["quan"] = rng.randint(1, 10)
        ruleset = random_rules(rng)
        yu = RuleSet.load(ruleset).yu
        texts = []
        for g in melds:
            text = "".join(c.char for c in g.cards)
            if yu and g.kind is GroupKind.KAI and rng.random() < 0.5:
                text = text[:3] + "+" + text[3:]  # a 开 made onto an exposed 对 (R-5.13: only under yu)
            texts.append(text)
        cases.append(
            {
                "id": f"bench-{i}",
                "hand": "".join(Card(c).char for c in hand),
                "melds": texts,
                "win": win.char,
                "context": ctx,
                "ruleset": ruleset,
            }
        )
    return cases


# ---------------------------------------------------------------------------------------------
# agreement


def test_scorer_js_gives_the_clis_verdict_on_every_worked_case(scorer_page: Page, shared: Path) -> None:
    """Every case of scoring.json and scoring-rules.json (under its ``ruleset``): the page's
    scorer says what ``erqishi score --cases`` and ``erqishi score --json`` say: win or the
    reason not, hu, base, 番, score, and each payment (R-7, R-8)."""
    tried = 0
    for name in CASE_FILES:
        cases = load_cases(shared, name)
        batch = cli_cases(shared / "cases" / name)
        found = js_score(scorer_page, cases)
        for case, line, js in zip(cases, batch, found, strict=True):
            full = verdict_of(cli_score(case))
            got = verdict_js(js)
            assert got == full, (case["id"], got, full)
            if line["win"]:
                assert [js["hu"], js["base"], js["fan"], js["score"]] == [
                    line["hu"],
                    line["base"],
                    line["fan"],
                    line["score"],
                ]
            assert js["win"] == line["win"] == case["expect"]["win"], case["id"]
            tried += 1
    assert tried == sum(len(load_cases(shared, n)) for n in CASE_FILES)


def test_scorer_js_agrees_with_the_cli_on_hundreds_of_random_hands(scorer_page: Page, tmp_path: Path) -> None:
    """A few hundred random hands under random rule sets: not one disagreement with the CLI
    (win or the reason not, hu, base, 番, score, payments); the same cards without the
    winning card have the waits of ``erqishi waits`` (R-6.1)."""
    cases = random_cases(seed=20240601, n_deals=260, n_benchmark=140)
    path = tmp_path / "random.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    batch = cli_cases(path)
    found = js_score(scorer_page, cases)
    disagreements = []
    wins = 0
    for case, line, js in zip(cases, batch, found, strict=True):
        assert "error" not in line, (case, line)
        full = verdict_of(cli_score(case))
        got = verdict_js(js)
        if line["win"]:
            wins += 1
            same_line = [js.get("hu"), js.get("base"), js.get("fan"), js.get("score")] == [
                line["hu"],
                line["base"],
                line["fan"],
                line["score"],
            ]
        else:
            same_line = js.get("win") is False
        if got != full or not same_line:
            disagreements.append((case, got, full))
    assert not disagreements, f"{len(disagreements)} of {len(cases)} disagree, e.g. {disagreements[:3]}"
    assert wins >= 100, f"only {wins} wins among the random hands"

    waiting = [
        {**c, "win": None, "context": {k: v for k, v in c["context"].items() if k != "win_source"}}
        for c in cases[:120]
        if c["win"] is not None
    ]
    js_found = js_waits(scorer_page, waiting)
    some = 0
    for case, js in zip(waiting, js_found, strict=True):
        want = [[w["card"], w["hu"], w["base"], w["fan"], w["score"]] for w in cli_waits(case)]
        got = js if isinstance(js, dict) else [[w["card"], w["hu"], w["base"], w["fan"], w["score"]] for w in js]
        assert got == want, (case, got, want)
        some += bool(want)
    assert some >= 20


def test_a_kai_grown_on_an_exposed_dui_needs_yu_in_the_page_as_in_the_cli(scorer_page: Page, tmp_path: Path) -> None:
    """R-5.13: without ``yu`` the page refuses 叁叁叁+叁 as the CLI does (it would earn 瞟胡
    under leshan); with ``yu`` both score it alike."""
    case = {
        "id": "grown",
        "hand": "二七一二三四五六八八",
        "melds": ["叁叁叁+叁", "肆肆肆", "伍伍伍"],
        "win": "十",
        "context": {"win_source": "discard"},
        "ruleset": "leshan",
    }
    path = tmp_path / "grown.json"
    path.write_text(json.dumps([case], ensure_ascii=False), encoding="utf-8")
    (line,) = cli_cases(path)
    assert "R-5.13" in line["error"]
    (js,) = js_score(scorer_page, [case])
    assert js == {"error": "yu_meld"}
    under_yu = {**case, "ruleset": {"preset": "leshan", "yu": True}}
    (js,) = js_score(scorer_page, [under_yu])
    assert verdict_js(js) == verdict_of(cli_score(under_yu)) and js["fan"] == ["瞟胡"]


# ---------------------------------------------------------------------------------------------
# the page, by taps


def read_verdict(page: Page) -> dict[str, Any]:
    """The verdict the page shows, from its data attributes (read in one go)."""
    box: dict[str, Any] = page.get_by_test_id("verdict").evaluate("(el) => ({...el.dataset, text: el.innerText})")
    if box.get("state") == "win":
        return {
            "win": True,
            "hu": int(box.get("hu", -1)),
            "base": int(box.get("base", -1)),
            "fan": json.loads(box.get("fan", "null")),
            "score": int(box.get("score", -1)),
            "payments": json.loads(box.get("payments", "null")),
        }
    if box.get("state") == "nowin":
        return {"win": False, "reason": box.get("reason")}
    return {"state": box.get("state"), "text": box["text"]}


#: Tap the controls named by data-testid, one after another, each where it is on the screen:
#: brought into view, hit-tested at its centre (the element there must be the control, not
#: something covering it) and clicked; stops at the first that cannot be tapped.
TAP_AT_POINT = """(ids) => {
    for (const id of ids) {
        const el = document.querySelector(`[data-testid="${id}"]`);
        if (!el) return `no ${id}`;
        el.scrollIntoView({block: 'nearest'});
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const target = hit && hit.closest('[data-testid]');
        if (target !== el) return `${id} is covered by ${target ? target.dataset.testid : hit}`;
        if (el.disabled) return `${id} is disabled`;
        el.click();
    }
    return null; }"""

#: Where a control is on the screen, brought into view: its centre.
PLACE = """(id) => { const el = document.querySelector(`[data-testid="${id}"]`);
    el.scrollIntoView({block: 'nearest'}); const r = el.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2]; }"""


class Taps:
    """Taps on the scorer's controls by their data-testid: with ``touch``, real touch events
    from the browser's input pipeline (Playwright's touchscreen) at each control's centre;
    otherwise each control is hit-tested where it is on the screen and clicked in the page
    (:data:`TAP_AT_POINT`), a batch per call, which costs a few milliseconds instead of a
    frame or two per tap."""

    def __init__(self, page: Page, *, touch: bool) -> None:
        self.page = page
        self.touch = touch

    def __call__(self, *ids: str) -> None:
        if self.touch:
            for testid in ids:
                x, y = self.page.evaluate(PLACE, testid)
                self.page.touchscreen.tap(x, y)
            return
        problem = self.page.evaluate(TAP_AT_POINT, list(ids))
        assert problem is None, problem


def keys(cards: str) -> list[str]:
    return [f"key-{Card.parse(card).ascii}" for card in cards]


#: The scorer's selects as they stand: the preset, how many options differ from it, whether
#: the rule options are open, the 圈.
CONTROLS = """() => ({preset: document.querySelector('[data-testid=preset]').value,
    changed: document.querySelectorAll('select.sc-changed').length,
    open: document.querySelector('details.sc-more').open,
    quan: document.querySelector('[data-testid=quan]').value})"""


def choose_rules(page: Page, ruleset: Any, controls: dict[str, Any]) -> None:
    """Choose the rule set of a case on the page: the preset, then each option over it in
    the rule options (a preset or ``{"preset": …, option: value…}``, over ``leshan``)."""
    options = {} if isinstance(ruleset, str) else {k: v for k, v in ruleset.items() if k != "preset"}
    preset = ruleset if isinstance(ruleset, str) else ruleset.get("preset", "leshan")
    if controls["preset"] != preset or controls["changed"]:
        page.get_by_test_id("preset").select_option(preset)  # a new preset clears the options set over the old one
    if options:
        if not controls["open"]:
            page.locator("details.sc-more > summary").click()
        for name, value in options.items():
            page.get_by_test_id(f"opt-{name}").select_option(json.dumps(value))


def tap_case(taps: Taps, case: dict[str, Any]) -> None:
    """Enter a case by taps, as a person at the table would: clear, the hand on the keyboard,
    each meld marked (its cards, 下雨 for a 开 onto a 对, lay it down), how the win came, 地胡,
    the 圈 and the rules (selects), then the winning card."""
    page = taps.page
    ctx = case["context"]
    ids = ["clear", "mode-hand", *keys(case["hand"])]
    for meld in case["melds"]:
        ids += ["mode-meld", *keys(meld.replace("+", ""))]
        ids += ["meld-yu", "lay-meld"] if "+" in meld else ["lay-meld"]
    ids.append("source-" + ("tian" if ctx.get("tian") else ctx.get("win_source", "discard")))
    if ctx.get("di"):
        ids.append("di-toggle")
    taps(*ids)
    controls = page.evaluate(CONTROLS)
    if controls["quan"] != str(ctx.get("quan") or ""):
        page.get_by_test_id("quan").select_option(str(ctx.get("quan") or ""))
    choose_rules(page, case.get("ruleset", "leshan"), controls)
    if case["win"] is not None:
        taps("mode-win", *keys(case["win"]))


#: The worked case also tapped with real touch events (a hand, a meld, the winning card).
TOUCHED = ("min-10",)


#: The hand and the number of melds the page holds.
ENTERED = """() => [[...document.querySelectorAll('[data-testid=hand-tile]')].map((e) => e.innerText).join(''),
    document.querySelectorAll('[data-testid=meld]').length]"""


def test_tapping_every_worked_case_gives_the_clis_verdict_and_its_link_the_same(
    browser: Browser, server: RunningServer, shared: Path
) -> None:
    """scoring.json, then scoring-rules.json, case by case, on a phone: the keyboard (hand),
    meld marking, the winning card, the source, 地胡, the 圈 and the rules (preset and
    options, each case under its ``ruleset``), all by taps (every case tapped where each control is on
    the screen; one with real touch events too); the verdict on the page is the
    CLI's; the address the page wrote, opened on another phone, shows the same verdict."""
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    context = browser.new_context(**phone)
    context.set_default_timeout(5_000)
    # the other phone is another browser that never saw the page (no service worker): a
    # second tab would leave this one in the background, where Chromium stops its animation
    # frames and every real tap waits seconds
    elsewhere = browser.new_context(**phone, service_workers="block")
    elsewhere.set_default_timeout(5_000)
    page, other = context.new_page(), elsewhere.new_page()
    page.goto(server.url + "/score")
    expect(page.get_by_test_id("keyboard")).to_be_visible()
    cases = load_cases(shared, "scoring.json")
    assert set(TOUCHED) <= {c["id"] for c in cases}
    cases += load_cases(shared, "scoring-rules.json")
    runs = [(case, False) for case in cases] + [(case, True) for case in cases if case["id"] in TOUCHED]
    address_written = (
        "() => location.pathname + location.search === document.querySelector('[data-testid=copy-link]').dataset.href"
    )
    for n, (case, touch) in enumerate(runs):
        tap_case(Taps(page, touch=touch), case)
        want = verdict_of(cli_score(case))
        want.pop("roles", None)
        # the hand entered is the case's, every card in its place
        hand = "".join(sorted(case["hand"], key=lambda ch: Card.parse(ch)))
        expect(page.get_by_test_id("hand-tile")).to_have_count(len(hand))
        entered = page.evaluate(ENTERED)
        assert entered == [hand, len(case["melds"])], (case["id"], entered)
        got = read_verdict(page)
        assert got == want, (case["id"], touch, got, want)
        if touch:
            continue
        # the address holds the hand: once written, another phone opening it sees the same
        # verdict; every third link is loaded afresh, the others are opened as the back and
        # forward buttons do (the page built anew from the address alone)
        page.wait_for_function(address_written, timeout=3_000)
        if n % 3 == 0:
            other.goto(page.url, wait_until="commit")
        else:
            other.evaluate(
                "(url) => { history.pushState({}, '', url); dispatchEvent(new PopStateEvent('popstate')); }", page.url
            )
        expect(other.get_by_test_id("verdict")).to_have_attribute("data-state", "win" if want["win"] else "nowin")
        assert read_verdict(other) == got, (case["id"], other.url)
    context.close()
    elsewhere.close()


def test_a_written_link_with_ascii_tokens_and_the_waits(browser: Browser, server: RunningServer) -> None:
    """Links written by hand work: ASCII tokens as well as characters (R-1.2), the rules by
    preset and options; without a winning card the page lists the 下叫 of ``erqishi waits``
    and a tap on a wait scores the win on it."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    hand = "x2 x3 x4 x5 x6 x7 x7 x7 d1 d2 d3 d6 d6 d6 d8 d9 d10"
    query = urlencode([("h", hand), ("m", "x1 x1 x1"), ("s", "flip"), ("r", "app"), ("o", "cap:160")])
    page.goto(f"{server.url}/score?{query}")
    waits = page.get_by_test_id("wait")
    expect(waits.first).to_be_visible()
    want = cli_waits({"hand": hand, "melds": ["x1 x1 x1"], "context": {}, "ruleset": {"preset": "app", "cap": 160}})
    assert [w.get_attribute("data-card") for w in waits.all()] == [w["card"] for w in want]
    assert [int(w.get_attribute("data-score") or -1) for w in waits.all()] == [w["score"] for w in want]
    assert page.get_by_test_id("opt-cap").input_value() == "160"
    page.get_by_test_id("wait").nth(1).click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-state", "win")
    case = {
        "hand": hand,
        "melds": ["x1 x1 x1"],
        "win": want[1]["card"],
        "context": {"win_source": "flip"},
        "ruleset": {"preset": "app", "cap": 160},
    }
    expected = verdict_of(cli_score(case))
    expected.pop("roles")
    assert read_verdict(page) == expected
    assert "w=" in page.url and "r=app" in page.url and "s=flip" in page.url
    # a bad part of a link is said and skipped
    page.goto(f"{server.url}/score?h=一二三q&w=九")
    expect(page.get_by_test_id("link-problems")).to_be_visible()
    # so is a rule option the package refuses (R-10: cap a positive whole number, tiers one
    # of three tables, players 2-4): the rest of the link is scored under the preset
    for bad in ("tiers:foo", "cap:-5", "cap:0", "cap:abc", "cap:1.5", "players:7", "taipao_multiplier:0", "tianhu:zzz"):
        query = urlencode(
            [("h", "二三四五六七七七壹贰叁陆陆陆捌玖拾"), ("m", "一一一"), ("w", "四"), ("s", "discard"), ("o", bad)]
        )
        page.goto(f"{server.url}/score?{query}")
        expect(page.get_by_test_id("link-problems")).to_contain_text(bad)
        expect(page.get_by_test_id("verdict")).to_have_attribute("data-state", "win")
        # the page rewrites its address (at most every 120 ms) without the skipped part
        expect(page).not_to_have_url(re.compile(r"[?&]o="))
    context.close()


def test_the_scorer_works_offline_after_one_visit(browser: Browser, tmp_path: Path) -> None:
    """Load /score once (the service worker precaches the client and /api/rules); then with
    the network gone and the server stopped, a reload still opens the scorer, a hand from a
    link is scored, and the rules page opens with its tables."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    with running_server(Settings(db_url=str(tmp_path / "web.db"))) as srv:
        url = srv.url
        page.goto(url + "/score")
        expect(page.get_by_test_id("keyboard")).to_be_visible()
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10_000)
        cached = page.evaluate(
            """async () => { const keys = await caches.keys(); const c = await caches.open(keys[0]);
            return (await c.keys()).map((r) => new URL(r.url).pathname); }"""
        )
        assert "/api/rules" in cached and "/score" in cached and "/static/js/scorer.js" in cached
    context.set_offline(True)
    page.goto(url + "/score?" + urlencode({"h": "二三四五六七七七壹贰叁陆陆陆捌玖拾", "m": "一一一", "w": "四"}))
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-state", "win", timeout=10_000)
    assert verdict.get_attribute("data-score") == "10"
    page.get_by_test_id("mode-win").click()
    page.get_by_test_id("key-x7").click()
    expect(verdict).to_have_attribute("data-score", "10")
    page.reload()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-state", "win", timeout=10_000)
    # the rules page too, with its generated tables
    page.goto(url + "/rules")
    expect(page.get_by_test_id("presets-table")).to_be_visible(timeout=10_000)
    context.close()


def test_a_phone_screen_never_scrolls_sideways_and_every_tap_target_is_40px(
    browser: Browser, server: RunningServer
) -> None:
    """360×740, both languages: the scorer with a verdict, with waits, with the rule options
    open, the rules page and the home page fit the width; the scorer's buttons, keys and
    selects are at least 40 px each way."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    hand = {"h": "二三四五六七七七壹贰叁陆陆陆捌玖拾", "m": "一一一", "r": "leshan"}
    pages = [
        "/score?" + urlencode({**hand, "w": "四", "s": "discard", "q": "6"}),
        "/score?" + urlencode(hand),
        "/rules",
        "/",
    ]
    for lang in ("zh", "en"):
        page.goto(server.url + "/")
        page.evaluate(f"localStorage.setItem('erqishi.lang', '{lang}')")
        for path in pages:
            page.goto(server.url + path)
            page.wait_for_selector("main > *:not(p.muted)")
            page.wait_for_timeout(150)
            if path.startswith("/score"):
                page.locator("details.sc-more").evaluate("d => d.open = true")
                page.get_by_test_id("mode-meld").click()
                page.get_by_test_id("key-x5").click()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, (lang, path, width)
            if path.startswith("/score"):
                small = page.evaluate(
                    """() => [...document.querySelectorAll(
                        'main button, main select, main summary, main a.btn, main label.sc-yu')]
                    .filter((el) => el.offsetParent !== null)
                    .map((el) => { const r = el.getBoundingClientRect();
                        return {t: el.dataset.testid || el.textContent.trim().slice(0, 12), w: r.width, h: r.height}; })
                    .filter((b) => b.w < 40 || b.h < 40)"""
                )
                assert not small, (lang, path, small)
    context.close()

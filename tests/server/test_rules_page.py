"""The rules page (/rules) and the rule data behind it (GET /api/rules): the rules in the
order a learner needs them, each section citing its R-ids and linking the lesson that
teaches it (/learn/<id>); the hu, tier, 番, payment and preset tables generated from the
package's own rule data (RULES.md R-3, R-7.2, R-7.3, R-8, R-10), never retyped; both
languages, in real headless Chromium; a phone screen (360×740) never scrolls sideways."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from erqishi.core import RuleSet, analyze_hand
from erqishi.core.hands import FAN_RULES, HU_TABLE, MIN_HU, WinContext, WinSource, settle, tier_of
from erqishi.core.hands.scoring import TIER_ROWS
from erqishi.core.rule_info import OPTIONS, PRESET_NAMES, describe_option, differences
from erqishi.core.rules import LESHAN, PRESETS, Tiers
from erqishi.server.rules_page import EXAMPLES, SECTIONS
from erqishi.server.settings import Settings
from support.browser import launched_browser
from support.webserver import RunningServer, running_server

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "erqishi" / "server" / "static"

#: The lessons of /learn, in the order the issue lists them (issue 13, deliverable 1).
LESSONS = (
    "cards",
    "groups",
    "locked",
    "winning",
    "chi",
    "bai",
    "guozhang",
    "shangtu",
    "dui",
    "kai",
    "bakuai",
    "huilong",
    "waits",
    "fan",
    "payments",
    "play",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("rules") / "web.db"
    with running_server(Settings(db_url=str(db), seed=5)) as srv:
        yield srv


@pytest.fixture(scope="module")
def data(server: RunningServer) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/api/rules", timeout=10) as response:
        loaded: dict[str, Any] = json.loads(response.read().decode("utf-8"))
    return loaded


# ---------------------------------------------------------------------------------------------
# the rule data


def test_the_rule_data_is_the_packages_own(data: dict[str, Any]) -> None:
    """GET /api/rules carries the package's tables, not copies: the hu table (R-3), the tier
    of every hu under every tier table (R-7.2, R-10), the 番 registry with its switches
    (R-7.3), every preset's options and what it changes (R-10), payments by ``settle``
    (R-8) and the worked examples as ``analyze_hand`` scores them."""
    assert [(g["kind"], tuple(g["hu"])) for g in data["groups"]] == [(k.value, hu) for k, hu in HU_TABLE.items()]
    assert data["min_hu"] == MIN_HU
    for tiers in Tiers:
        rules = RuleSet.from_options({"tiers": tiers.value})
        table = data["tiers"][tiers.value]
        for hu, shown in enumerate(table["by_hu"]):
            tier = tier_of(hu, rules)
            assert shown == (None if tier is None else [tier.name, tier.base]), (tiers, hu)
        rows, top = TIER_ROWS[tiers]
        assert [(r["high"], r["name"], r["base"]) for r in table["rows"][:-1]] == list(rows)
        assert table["rows"][-1]["base"] == top
    assert [[f["name"] for f in rule["fans"]] for rule in data["fans"]] == [
        [f.value for f in r.fans] for r in FAN_RULES
    ]
    assert [rule["switch"] for rule in data["fans"]] == [r.switch for r in FAN_RULES]
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    for preset in data["presets"]:
        rules = RuleSet.preset(preset["name"])
        assert preset["rules"] == rules.to_options()
        assert preset["differs"] == list(differences(rules, LESHAN))
        assert preset["words"] == list(PRESET_NAMES[preset["name"]])
    assert [o["name"] for o in data["options"]] == [o.name for o in OPTIONS]
    for row in data["payments"]:
        rules = RuleSet.preset(row["preset"]) if row["preset"] else RuleSet.from_options({"players": row["players"]})
        sitting_out = row["roles"].index("sitting_out") if "sitting_out" in row["roles"] else None
        discarder = row["roles"].index("discarder") if "discarder" in row["roles"] else None
        paid = settle(row["score"], WinSource(row["source"]), 0, rules, discarder=discarder, sitting_out=sitting_out)
        assert row["payments"] == list(paid), row
    for (hand, melds, win, source, _), shown in zip(EXAMPLES, data["examples"], strict=True):
        result = analyze_hand(hand, list(melds), win, WinContext(source))
        assert [shown["hu"], shown["base"], shown["fan"], shown["score"]] == [
            result.hu,
            result.base,
            result.fan_names,
            result.score,
        ]


def test_every_rule_cites_its_ids_and_links_the_lesson_that_teaches_it(shared: Path) -> None:
    """Each section of the page states rules of RULES.md (its R-ids exist there), in both
    languages, and links a lesson of /learn; every lesson is linked; the sections come in the
    order the lessons teach them (a learner's order), the whole-hand lesson aside."""
    spec = (shared / "RULES.md").read_text(encoding="utf-8")
    known = set(re.findall(r"\*\*(R-\d+(?:\.\d+)?)\*\*", spec)) | set(re.findall(r"^## (R-\d+)", spec, re.M))
    for section in SECTIONS:
        assert section.rules and set(section.rules) <= known, (section.id, set(section.rules) - known)
        assert section.lesson in LESSONS, section.id
        for zh, en in (section.title, *section.body):
            assert zh.strip() and en.strip() and zh != en, section.id
            assert re.search(r"[a-zA-Z]{3}", en), (section.id, en)
    linked = [s.lesson for s in SECTIONS]
    assert set(linked) == set(LESSONS)
    first = [lesson for i, lesson in enumerate(linked) if lesson != "play" and lesson not in linked[:i]]
    assert first == [lesson for lesson in LESSONS if lesson != "play"]
    assert SECTIONS[0].id == "cards" and SECTIONS[-1].id == "presets"
    assert len({s.id for s in SECTIONS}) == len(SECTIONS)


def test_every_label_of_the_two_pages_exists_in_chinese_and_english() -> None:
    """Every label the scorer and the rules page show (``t("…")`` in score.js and rules.js,
    and the keys they build from a prefix) is in i18n.js with a Chinese and an English text."""
    table: dict[str, tuple[str, str]] = {}
    for m in re.finditer(
        r'^\s+(\w+): \["((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\],?$',
        (STATIC / "js" / "i18n.js").read_text(encoding="utf-8"),
        re.M,
    ):
        table[m.group(1)] = (m.group(2), m.group(3))
    for name in ("score.js", "rules.js"):
        source = (STATIC / "js" / name).read_text(encoding="utf-8")
        keys = set(re.findall(r'\bt\("(\w+)"', source))
        keys |= {k for pair in re.findall(r'\bt\((\w+) \? "(\w+)" : "(\w+)"', source) for k in pair[1:]}
        assert keys, name
        for key in sorted(keys):
            assert key in table, (name, key)
            zh, en = table[key]
            assert zh.strip() and en.strip(), (name, key)
        for prefix in set(re.findall(r"\bt\(`(\w+)\$\{", source)):
            assert any(k.startswith(prefix) for k in table), (name, prefix)
    # the prefixed keys: roles, sources, modes, errors
    for key in ("sc_role_winner", "sc_role_discarder", "sc_role_other", "sc_role_sitting_out"):
        assert key in table
    for source_name in ("discard", "flip", "own_flip", "tian"):
        assert f"sc_src_{source_name}" in table and f"ru_src_{source_name}" in table
    scorer = (STATIC / "js" / "scorer.js").read_text(encoding="utf-8")
    for code in set(re.findall(r'new ScoreError\("(\w+)"', scorer)):
        assert f"sc_err_{code}" in table, code


# ---------------------------------------------------------------------------------------------
# the page in the browser

#: What the page shows, read in one go: the sections, the learn links and the tables.
READ_PAGE = """() => {
    const text = (el) => el.innerText.replace(/\\s+/g, ' ').trim();
    const sections = [...document.querySelectorAll('[data-testid=rule-section]')].map((s) => ({
        id: s.dataset.id, title: text(s.querySelector('h2')).replace(/\\s*#$/, ''),
        learn: s.querySelector('[data-testid=learn-link]').getAttribute('href') }));
    const hu = [...document.querySelectorAll('[data-testid=hu-table] tbody tr')].map((tr) =>
        [tr.dataset.kind, ...[...tr.querySelectorAll('td.num')].map((td) => Number(td.textContent))]);
    const tiers = [...document.querySelectorAll('[data-testid=tier-table]')].map((d) => [d.dataset.tiers,
        [...d.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map(text))]);
    const fans = [...document.querySelectorAll('[data-testid=fan-table] tbody tr')].map((tr) => tr.dataset.fan);
    const table = document.querySelector('[data-testid=presets-table]');
    const presets = [...table.querySelectorAll('tbody tr')].map((tr) => [tr.dataset.option,
        [...tr.querySelectorAll('td')].map((td) => [td.dataset.preset, text(td), td.classList.contains('ru-diff')])]);
    const heads = [...table.querySelectorAll('thead th[data-preset]')].map((th) => th.dataset.preset);
    return {sections, hu, tiers, fans, presets, heads, h1: text(document.querySelector('h1')),
            body: document.body.innerText, lang: document.documentElement.lang}; }"""


def check_page(page: Page, lang: str) -> None:
    shown = page.evaluate(READ_PAGE)
    i = 0 if lang == "zh" else 1
    assert shown["lang"] == ("zh-CN" if lang == "zh" else "en")
    assert shown["h1"] == ("规则", "The rules")[i]
    # the sections, in order, titled in the language, each with its lesson
    assert [s["id"] for s in shown["sections"]] == [s.id for s in SECTIONS]
    assert [s["title"] for s in shown["sections"]] == [s.title[i] for s in SECTIONS]
    assert [s["learn"] for s in shown["sections"]] == [f"/learn/{s.lesson}" for s in SECTIONS]
    # the hu table and every tier table, from the package
    assert shown["hu"] == [[k.value, *hu] for k, hu in HU_TABLE.items()]
    assert [name for name, _ in shown["tiers"]] == [t.value for t in Tiers]
    for name, rows in shown["tiers"]:
        table, top = TIER_ROWS[Tiers(name)]
        assert [[r[1], int(r[2])] for r in rows[:-1]] == [[tier, base] for _, tier, base in table], name
        assert rows[-1][0] == f"≥ {table[-1][0] + 1}"
        assert rows[-1][2] == (str(top) if top is not None else ("4 × 胡*", "4 × hu*")[i])
        low = 10
        for (high, _, _), row in zip(table, rows, strict=False):
            assert row[0] == (str(low) if low == high else f"{low}–{high}"), (name, row)
            low = high + 1
    # the 番
    assert shown["fans"] == [f.value for rule in FAN_RULES for f in rule.fans]
    # the presets side by side: each cell in the package's words, the changes marked
    assert shown["heads"] == list(PRESETS)
    assert [o for o, _ in shown["presets"]] == [o.name for o in OPTIONS]
    for option, cells in shown["presets"]:
        for preset, text, marked in cells:
            rules = RuleSet.preset(preset)
            assert text == describe_option(rules, option, lang), (preset, option, text)
            assert marked == (option in differences(rules, LESHAN)), (preset, option)
    # no label left untranslated (t() shows the key itself when it has no text)
    assert not re.search(r"\b(?:sc|ru)_[a-z_]+\b", shown["body"]), re.findall(r"\b(?:sc|ru)_[a-z_]+\b", shown["body"])


def test_the_rules_page_renders_in_both_languages_with_the_generated_tables(
    browser: Browser, server: RunningServer
) -> None:
    """/rules in Chinese, then in English by the language toggle: every section in order,
    titled in that language, linking its lesson; the hu table, each tier table, the 番 and
    the presets side by side (each cell in the package's words, the differences from
    Leshan marked) as the package has them."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.goto(server.url + "/rules")
    expect(page.get_by_test_id("presets-table")).to_be_visible()
    check_page(page, "zh")
    page.get_by_test_id("lang-toggle").click()
    expect(page.locator("h1")).to_have_text("The rules")
    check_page(page, "en")
    # the language is kept: a reload stays English
    page.reload()
    expect(page.get_by_test_id("presets-table")).to_be_visible()
    check_page(page, "en")
    context.close()


def test_an_anchor_opens_its_rule_and_a_worked_example_opens_in_the_scorer(
    browser: Browser, server: RunningServer
) -> None:
    """/rules#kai opens at the 开 rule; the contents list jumps to a rule and writes its
    anchor; a worked example's button opens the pocket scorer on that hand, which scores it
    as the package does (R-7)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.goto(server.url + "/rules#kai")
    kai = page.locator("section#kai")
    expect(kai).to_be_visible()
    expect(kai).to_be_in_viewport()
    top = kai.evaluate("el => el.getBoundingClientRect().top")
    assert -2 <= top <= 40, top
    page.get_by_test_id("rules-toc").get_by_role("link", name="八块").click()
    expect(page.locator("section#bakuai")).to_be_in_viewport()
    assert page.url.endswith("/rules#bakuai")
    # the worked examples, each opened in the scorer
    for n, (hand, melds, win, source, _) in enumerate(EXAMPLES):
        page.goto(server.url + "/rules")
        page.get_by_test_id("open-in-scorer").nth(n).click()
        verdict = page.get_by_test_id("verdict")
        expect(verdict).to_have_attribute("data-state", "win")
        result = analyze_hand(hand, list(melds), win, WinContext(source))
        assert verdict.get_attribute("data-score") == str(result.score)
        assert verdict.get_attribute("data-hu") == str(result.hu)
        assert json.loads(verdict.get_attribute("data-fan") or "null") == result.fan_names
        assert "/score?" in page.url
    context.close()


def test_the_rules_page_fits_a_phone_in_both_languages(browser: Browser, server: RunningServer) -> None:
    """360×740: neither the page nor any section of it is wider than the screen, in either
    language, the presets table included; the links to the lessons are at least 40 px high."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    context.set_default_timeout(5_000)
    page = context.new_page()
    for lang in ("zh", "en"):
        page.goto(server.url + "/")
        page.evaluate(f"localStorage.setItem('erqishi.lang', '{lang}')")
        page.goto(server.url + "/rules")
        expect(page.get_by_test_id("presets-table")).to_be_visible()
        wide = page.evaluate(
            """() => [...document.querySelectorAll('main *')]
            .filter((el) => el.offsetParent !== null)
            .map((el) => ({tag: el.tagName, id: el.dataset.testid || el.id || el.className,
                           right: el.getBoundingClientRect().right, sw: el.scrollWidth, cw: el.clientWidth,
                           over: getComputedStyle(el).overflowX}))
            .filter((b) => b.right > 360.5 || (b.over !== 'visible' && b.sw > b.cw + 1))
            .slice(0, 5)"""
        )
        assert not wide, (lang, wide)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, lang
        heights = page.get_by_test_id("learn-link").evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect().height)"
        )
        assert len(heights) == len(SECTIONS) and min(heights) >= 40, (lang, min(heights))
    context.close()

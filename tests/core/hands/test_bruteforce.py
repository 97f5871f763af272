"""The fast hand analyzer checked against the independent brute-force scorer of
``tests/support/bruteforce.py`` (written from ``RULES.md`` alone).

The reference is first checked on the worked cases of ``shared/cases/scoring.json`` and
``shared/cases/scoring-rules.json`` (each under its ``ruleset``), then compared with
``analyze_hand``, ``HandAnalyzer.score`` and ``HandAnalyzer.waits`` on thousands of seeded
random hands under several rule sets (R-10).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from conftest import shared_dir
from erqishi.core import Card, RuleSet
from erqishi.core.hands import grouping
from support.bruteforce import (
    COPIES,
    LESHAN,
    N_IDS,
    QUADS,
    BRules,
    Ctx,
    Deal,
    Meld,
    all_groupings,
    base_of,
    brute_force,
    case_deal,
    compare,
    free_partitions,
    free_shapes,
    got_str,
    grouping_problems,
    legal_shape,
    load_cases,
    random_deal,
    random_waiting_hand,
    rate,
    show,
    to_ids,
)

CASE_FILES = ("scoring.json", "scoring-rules.json")


def _case_ids() -> list[tuple[str, str]]:
    """(file, id) of every worked case, read at collection (the test reads the case again
    through the ``shared`` fixture, which fails loudly when the directory is missing)."""
    out: list[tuple[str, str]] = []
    for name in CASE_FILES:
        path = shared_dir() / "cases" / name
        if path.is_file():
            out += [(name, c["id"]) for c in json.loads(path.read_text(encoding="utf-8"))]
        else:
            out.append((name, "missing"))
    return out


CASE_IDS = _case_ids()


def _case(shared: Path, name: str, case_id: str) -> dict[str, object]:
    cases = {c["id"]: c for c in load_cases(shared, name)}
    assert case_id in cases, f"{name}: no case {case_id!r}"
    return cases[case_id]


#: Rule sets the random hands are compared under (R-10): the presets, and the switches.
RULE_SETS = {
    "leshan": LESHAN,
    "app": BRules.of(RuleSet.preset("app")),
    "jianwei": BRules.of(RuleSet.preset("jianwei")),
    "meishan": BRules.of(RuleSet.preset("meishan")),
    "fixed_100": BRules(tianhu="fixed_100"),
    "yu": BRules(yu=True),
    "switches-off": BRules(shuang_quan=False, tian_di_fan=False, kun_fan=False, piao_fan=False),
    "yu-quan-off": BRules(yu=True, quan_fan=False, tianhu="two_fan", tiers="app"),
    "yu-piao-kun-off": BRules(yu=True, piao_fan=False, kun_fan=False, shuang_quan=False, tiers="jianwei"),
    "fixed-tian-off": BRules(tianhu="fixed_100", tian_di_fan=False),
}


# ---------------------------------------------------------------------------------------------
# The reference on the worked cases
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "case_id"), CASE_IDS, ids=[f"{n}:{i}" for n, i in CASE_IDS])
def test_reference_matches_worked_case(shared: Path, name: str, case_id: str) -> None:
    """The brute force itself reproduces every hand-worked case (cases/*.json)."""
    case = _case(shared, name, case_id)
    deal = case_deal(case)
    want = case["expect"]
    assert isinstance(want, dict)
    got = deal.reference()
    msg = f"{case_id}: {deal}\n  expected: {want}\n  brute force: {got}"
    assert got.win == want["win"], msg
    if want["win"]:
        assert (got.hu, got.base, list(got.fans), got.score) == (
            want["hu"],
            want["base"],
            sorted(want["fan"]),
            want["score"],
        ), msg


@pytest.mark.parametrize(("name", "case_id"), CASE_IDS, ids=[f"{n}:{i}" for n, i in CASE_IDS])
def test_analyzer_matches_reference_on_worked_case(shared: Path, name: str, case_id: str) -> None:
    report = compare(case_deal(_case(shared, name, case_id)))
    assert report is None, report


@pytest.mark.parametrize(
    ("hu", "base"),
    [
        (10, 10),
        (14, 10),
        (15, 20),
        (20, 20),
        (21, 40),
        (22, 40),
        (23, 50),
        (27, 50),
        (28, 60),
        (30, 60),
        (31, 120),
        (32, 120),
        (33, 140),
        (37, 140),
        (38, 160),
        (54, 220),
        (72, 280),
    ],
)
def test_reference_base_table(hu: int, base: int) -> None:
    """R-7.2 seed tiers, including the examples 33 -> 140 and 72 -> 280."""
    assert base_of(hu) == base


@pytest.mark.parametrize(
    ("tiers", "bases"),
    [
        # R-10 app: 10-14:10, 15-20:20, 21-24:40, 25-30:60, >=31:100
        ("app", {10: 10, 14: 10, 15: 20, 20: 20, 21: 40, 24: 40, 25: 60, 30: 60, 31: 100, 80: 100}),
        # R-10 jianwei: 10:10, 11-20:20, 21-30:40, >=31:80
        ("jianwei", {10: 10, 11: 20, 14: 20, 20: 20, 21: 40, 30: 40, 31: 80, 72: 80}),
    ],
)
def test_reference_other_tier_tables(tiers: str, bases: dict[int, int]) -> None:
    assert {hu: base_of(hu, tiers) for hu in bases} == bases


def kinds_of(hand: str, win: str | None, melds: tuple[Meld, ...] = (), rules: BRules = LESHAN) -> list[tuple[str, ...]]:
    """The sorted group kinds of every grouping the reference tries."""
    w = to_ids(win)[0] if win else None
    return sorted({tuple(sorted(g.kind for g in gs)) for gs in all_groupings(to_ids(hand), melds, w, rules)})


def test_reference_locks_and_winning_card() -> None:
    """R-3.1 / R-3.2 / R-5.13 on small hand-made hands."""
    # Three held 五 are a 坎: the winning 五 goes into 四五六 and leaves the 坎 whole.
    assert kinds_of("四五五五六", "五") == [("kan", "run")]
    # ... or completes the 坎 into a 开 (never a 滚); a held pair is no 坎 either.
    assert kinds_of("五五五八八", "五") == [("kai", "pair")]
    # Two held 五 + the winning 五 are a 对, never a 坎.
    assert kinds_of("五五", "五") == [("dui",)]
    # 单吊: a held single and the winning card are the pair.
    assert kinds_of("五", "五") == [("pair",)]
    # Four held 五 are a 滚, never split (into two pairs, say).
    assert kinds_of("五五五五八", "八") == [("gun", "pair")]
    # A 天胡 has no winning card: three identical are a 坎.
    assert kinds_of("五五五", None) == [("kan",)]
    # The winning 五 onto an exposed 对 五五五 is a 开 only under yu.
    dui = (Meld(tuple(to_ids("五五五"))),)
    assert kinds_of("八八", "八", dui) == [("dui", "dui")]
    assert kinds_of("八八", "五", dui) == []
    assert kinds_of("八八", "五", dui, BRules(yu=True)) == [("kai", "pair")]


def test_reference_yu_kai_is_piao_and_a_grown_kai_is_not() -> None:
    """R-7.3 as changed: a 开 made under yu onto an exposed 对 (on the table, or by the
    winning card) does not block 瞟胡; a 开 grown from a 坎 does. Worked by hand: exposed
    三三三+三 (small 开, 6), 七七柒 (花吃, 0), 捌捌捌 (big 对, 3), 玖玖玖 (3); in hand 五六七,
    壹贰叁 and 十, winning on 十 (the pair): one quad, five triples, the pair; 12 hu, 小和 10;
    no 坎/滚, no 二七十 held: 瞟胡, 20. With 三三三三 grown from a 坎: no 番, 10."""
    yu = BRules(yu=True)
    rest = tuple(Meld(tuple(to_ids(m))) for m in ("七七柒", "捌捌捌", "玖玖玖"))
    hand, ten, three = tuple(to_ids("五六七壹贰叁十")), to_ids("十")[0], to_ids("三")[0]
    on_table = brute_force(hand, (Meld(tuple(to_ids("三三三三")), yu=True), *rest), ten, Ctx(), yu)
    assert (on_table.hu, on_table.fans, on_table.score) == (12, ("瞟胡",), 20)
    grown = brute_force(hand, (Meld(tuple(to_ids("三三三三"))), *rest), ten, Ctx(), yu)
    assert (grown.hu, grown.fans, grown.score) == (12, (), 10)
    by_win = brute_force((*hand, ten), (Meld(tuple(to_ids("三三三"))), *rest), three, Ctx(), yu)
    assert (by_win.hu, by_win.fans, by_win.score) == (12, ("瞟胡",), 20)


# ---------------------------------------------------------------------------------------------
# The analyzer against the reference on random deals
# ---------------------------------------------------------------------------------------------

RANDOM_SEEDS = range(8)
DEALS_PER_SEED = 500  # 8 x 500 = 4,000 random hands per run under leshan
OTHER_SEEDS = range(2)
OTHER_DEALS_PER_SEED = 150  # and 2 x 150 under each other rule set


def _run(rng: random.Random, n: int, rules: BRules) -> list[str]:
    reports: list[str] = []
    for _ in range(n):
        report = compare(random_deal(rng, rules=rules))
        if report is not None:
            reports.append(report)
    return reports


@pytest.mark.parametrize("seed", RANDOM_SEEDS)
def test_analyzer_matches_brute_force(seed: int) -> None:
    reports = _run(random.Random(20_710 + seed), DEALS_PER_SEED, LESHAN)
    assert not reports, f"{len(reports)} of {DEALS_PER_SEED} hands differ (seed {seed}):\n" + "\n".join(reports[:5])


@pytest.mark.parametrize("seed", OTHER_SEEDS)
@pytest.mark.parametrize("name", [n for n in RULE_SETS if n != "leshan"])
def test_analyzer_matches_brute_force_under_other_rules(name: str, seed: int) -> None:
    """R-10: tier tables, 天胡 worth, yu and every 番 switch."""
    reports = _run(random.Random(31_000 + 97 * seed + len(name)), OTHER_DEALS_PER_SEED, RULE_SETS[name])
    assert not reports, f"{len(reports)} of {OTHER_DEALS_PER_SEED} hands differ ({name}, seed {seed}):\n" + "\n".join(
        reports[:5]
    )


def test_random_deals_cover_the_interesting_cases() -> None:
    """The generator really produces wins, non-wins, quads, 天胡, 地胡, 圈, melds, winning
    cards held 2 or 3 times, and under yu the winning card onto an exposed 对 and yu 开 melds."""
    seen: Counter[str] = Counter()
    for rules in (LESHAN, RULE_SETS["yu"]):
        rng = random.Random(20_710)
        for _ in range(DEALS_PER_SEED):
            deal = random_deal(rng, rules=rules)
            v = deal.reference()
            seen["win" if v.win else "no win"] += 1
            seen["tian"] += deal.ctx.source == "tian"
            seen["di"] += deal.ctx.di
            seen["quan"] += deal.ctx.quan is not None
            seen["melds"] += bool(deal.melds)
            seen["yu meld"] += any(m.yu for m in deal.melds)
            if deal.win is not None:
                seen[f"win held {Counter(deal.hand)[deal.win]}"] += 1
            if v.win:
                seen["quad win"] += any(g.kind in QUADS for g in v.groups)
                seen["yu win"] += any(g.yu and g.winning for g in v.groups)
                seen["fans"] += bool(v.fans)
                seen["quan fan"] += any(f in ("圈胡", "双圈") for f in v.fans)
                seen["piao"] += "瞟胡" in v.fans
                seen["piao with a yu 开"] += "瞟胡" in v.fans and any(g.yu for g in v.groups)
                seen["kun"] += "坤胡" in v.fans
    for key in (
        "win",
        "no win",
        "tian",
        "di",
        "quan",
        "melds",
        "yu meld",
        "win held 2",
        "win held 3",
        "quad win",
        "yu win",
        "quan fan",
        "piao",
        "piao with a yu 开",
        "kun",
    ):
        assert seen[key] > 0, f"{key} never generated: {dict(seen)}"
    assert seen["win"] >= DEALS_PER_SEED // 5, dict(seen)


def several_scores(deal: Deal) -> bool:
    """The deal has legal groupings of at least 10 hu with different (score, hu, 番)."""
    rated = {
        (v.score, v.hu, v.fans)
        for v in (
            rate(groups, deal.hand, deal.ctx, deal.rules)
            for groups in all_groupings(deal.hand, deal.melds, deal.win, deal.rules)
            if legal_shape(groups) and sum(g.hu for g in groups) >= 10
        )
    }
    return len(rated) > 1


AMBIGUOUS_SEEDS = range(2)
AMBIGUOUS_PER_SEED = 100


@pytest.mark.parametrize("seed", AMBIGUOUS_SEEDS)
def test_analyzer_picks_the_best_of_several_groupings(seed: int) -> None:
    """R-7.1 on deals whose cards group several ways with different scores (only ~1-2% of
    random deals are such; these are drawn until enough are found)."""
    rng = random.Random(2_710 + seed)
    reports: list[str] = []
    found = draws = 0
    while found < AMBIGUOUS_PER_SEED and draws < 40_000:
        draws += 1
        rules = RULE_SETS["yu"] if draws % 3 == 0 else LESHAN
        deal = random_deal(rng, tangled=draws % 2 == 0, rules=rules)
        if not several_scores(deal):
            continue
        found += 1
        report = compare(deal)
        if report is not None:
            reports.append(report)
    assert found == AMBIGUOUS_PER_SEED, f"only {found} ambiguous deals in {draws} draws"
    assert not reports, f"{len(reports)} of {found} hands differ (seed {seed}):\n" + "\n".join(reports[:5])


# found by searching random deals; in each the grouping with the most hu is not the one
# with the highest score (the winning card makes a 开 of the 圈 card for 双圈, or a 对 for 圈胡).
SCORE_BEFORE_HU = [
    ("四五六九九贰贰贰柒捌玖玖拾拾", ["六六六", "三四五"], "贰", Ctx("own_flip", quan=2)),
    ("二二六六七七十十贰叁肆伍陆柒拾拾拾", ["六陆陆"], "拾", Ctx("own_flip", quan=10)),
    ("二二七七十十贰贰贰肆伍陆陆柒柒捌捌玖拾拾", [], "贰", Ctx("flip", di=True, quan=2)),
    ("五五五九九贰贰贰柒捌玖玖拾拾", ["二七十", "八八八"], "贰", Ctx("discard", quan=2)),
    ("二二二三七七七七十十贰贰叁叁柒柒捌玖拾拾", [], "贰", Ctx("flip", quan=2)),
]


@pytest.mark.parametrize(("hand", "melds", "win", "ctx"), SCORE_BEFORE_HU)
def test_analyzer_prefers_score_over_hu(hand: str, melds: list[str], win: str, ctx: Ctx) -> None:
    deal = Deal(tuple(to_ids(hand)), tuple(Meld(tuple(to_ids(m))) for m in melds), to_ids(win)[0], ctx)
    most_hu = max(
        sum(g.hu for g in groups) for groups in all_groupings(deal.hand, deal.melds, deal.win) if legal_shape(groups)
    )
    assert deal.reference().hu < most_hu, "not a score-versus-hu case"
    report = compare(deal)
    assert report is None, report


def by_char(waits: dict[int, tuple[int, int, tuple[str, ...]]]) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    """Waits keyed by the card's character, for messages."""
    return {show([c]): v for c, v in sorted(waits.items())}


WAIT_SEEDS = range(3)
WAIT_HANDS_PER_SEED = 150  # 3 x 150 = 450 waiting hands per rule set


@pytest.mark.parametrize("seed", WAIT_SEEDS)
@pytest.mark.parametrize("name", ["leshan", "yu", "switches-off", "yu-piao-kun-off"])
def test_waits_match_brute_force(name: str, seed: int) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(70_210 + seed)
    reports: list[str] = []
    for _ in range(WAIT_HANDS_PER_SEED):
        deal = random_waiting_hand(rng, rules)
        counts = deal.all_cards()
        want: dict[int, tuple[int, int, tuple[str, ...]]] = {}
        for c in range(N_IDS):
            if counts[c] < COPIES:
                v = brute_force(deal.hand, deal.melds, c, deal.ctx, rules)
                if v.win:
                    want[c] = (v.score, v.hu, v.fans)
        analyzer = deal.analyzer()
        waits = analyzer.waits(deal.ctx.api())
        got = {int(w.card): (w.result.score, w.result.hu, tuple(sorted(w.result.fan_names))) for w in waits}
        if got != want:
            reports.append(f"{deal}\n  expected waits: {by_char(want)}\n  got waits:      {by_char(got)}")
        # the engine's quick test never turns a winning card away
        missed = [show([c]) for c in want if not analyzer.could_win(c)]
        if missed:
            reports.append(f"{deal}\n  could_win refuses winning cards {missed}")
        for w in waits:  # each wait's grouping is a real, correctly scored partition
            won = Deal(deal.hand, deal.melds, int(w.card), deal.ctx, rules)
            problems = grouping_problems(won, w.result) if w.result.is_win else ["a wait that does not win"]
            if w.result.score != analyzer.score(Card(w.card), deal.ctx.api()):
                problems.append("HandAnalyzer.score differs from the wait's score")
            if problems:
                reports.append(f"{won}\n  wait result: {got_str(w.result)}\n  " + "; ".join(problems))
    assert not reports, f"{len(reports)} problems in {WAIT_HANDS_PER_SEED} waiting hands (seed {seed}):\n" + "\n".join(
        reports[:5]
    )


def _free_split_exists(held: list[int], pairs: int) -> bool:
    """Whether the free cards ``held`` (count per identity) cut into runs, 二七十 and 花吃
    with exactly ``pairs`` pairs (R-4.4; three identical free cards are a group only with
    the winning card, R-3.2), by the reference's plain recursion."""
    return any(
        all(g.kind in ("run", "ejs", "hua", "pair") for g in groups) and sum(g.kind == "pair" for g in groups) == pairs
        for groups in free_partitions(list(held), None)  # a copy: any() leaves the recursion midway
    )


def _free_cards(rng: random.Random) -> list[int]:
    """Free cards rich in 花吃: half built from groups (runs, 二七十, 花吃, maybe a pair),
    some of those with one card moved; half drawn from a few ranks in both sizes."""
    held = [0] * N_IDS
    if rng.random() < 0.5:
        shapes = [s for s in free_shapes() if len(s) == 3 and len(set(s)) > 1]
        huas = [s for s in shapes if len({c // 10 for c in s}) == 2]
        for _ in range(rng.randrange(2, 6)):
            shape = rng.choice(huas if rng.random() < 0.6 else shapes)
            if all(held[c] + shape.count(c) <= 2 for c in set(shape)):
                for c in shape:
                    held[c] += 1
        if rng.random() < 0.5:
            c = rng.randrange(N_IDS)
            held[c] = min(2, held[c] + 2)
        if rng.random() < 0.4:
            gone = rng.choice([c for c in range(N_IDS) if held[c]])
            held[gone] -= 1
            held[rng.choice([c for c in range(N_IDS) if held[c] < 2])] += 1
        return held
    ranks = rng.sample(range(10), rng.randrange(3, 7))
    for _ in range(rng.choice((9, 11, 12, 14))):
        c = rng.choice(ranks) + 10 * rng.randrange(2)
        if held[c] < 2:
            held[c] += 1
    return held


@pytest.mark.parametrize("seed", range(2))
def test_split_search_matches_brute_force(seed: int) -> None:
    """R-4.4: the analyzer's quick search for a split of the free cards (it covers the
    lowest card first, and is asked before every choice of 花吃 is tried) and its full
    search agree with the reference's plain recursion on hands rich in 花吃, splittable or
    not, with and without the pair."""
    rng = random.Random(seed)
    seen = Counter()
    for _ in range(250):
        held = _free_cards(rng)
        n = sum(held)
        if n % 3 == 1 or n == 0:
            continue
        pairs = int(n % 3 == 2)
        s = sum(held[v] << (2 * v) for v in range(10))
        b = sum(held[10 + v] << (2 * v) for v in range(10))
        expected = _free_split_exists(held, pairs)
        hua_ranks = sum(1 for v in range(10) if held[v] and held[10 + v] and held[v] + held[10 + v] >= 3)
        seen[expected, hua_ranks >= 3] += 1
        shown = show([c for c in range(N_IDS) for _ in range(held[c])])
        assert grouping._can_split(s, b, bool(pairs)) == expected, shown
        assert (grouping._free_best(s, b, bool(pairs)) is not None) == expected, shown
    assert all(seen[k] >= 5 for k in ((True, True), (False, True), (True, False), (False, False))), seen

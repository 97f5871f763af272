"""The 番 of R-7.3, one function each (``erqishi.core.hands.fan``), their registry and the
game-hall switches of R-10, the yu 开 and 瞟胡 (R-7.3 as changed), and ``三三三+三``.

Expected values are worked by hand from RULES.md; each hand's arithmetic is in its test."""

from __future__ import annotations

from dataclasses import fields

import pytest

from erqishi.core import (
    Card,
    ErqishiError,
    Fan,
    GroupKind,
    InvalidHandError,
    InvalidNotationError,
    RuleSet,
    WinContext,
    WinSource,
    analyze_hand,
    parse_meld,
)
from erqishi.core.hands import FAN_RULES, Candidate, Placement, fan_weight
from erqishi.core.hands.fan import active_fans, dihu, kunhu, piaohu, quanhu, tianhu

LESHAN = RuleSet()
NO_PLAN: tuple[tuple[tuple[int, bool], ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
D3 = int(Card.D3)  # the 圈 card of 圈3


def grouping(
    *,
    win: int | None = 0,
    placement: Placement = Placement.JOIN,
    scores: bool = False,
    in_hand: bool = True,
    three: int = 0,
    four: int = 0,
) -> Candidate:
    """A candidate grouping with the given facts (hu and plan do not matter to a 番)."""
    return Candidate(12, win, placement, scores, in_hand, NO_PLAN, (three, four))


def off(*names: str) -> RuleSet:
    return RuleSet.from_options({name: False for name in names})


# ---------------------------------------------------------------------------------------------
# each 番 function on its own facts


def test_tianhu_is_the_tian_context() -> None:
    """R-6.3: 天胡 is a win with the dealer's dealt cards (source tian)."""
    assert tianhu(grouping(win=None, placement=Placement.NONE), WinContext(WinSource.TIAN), LESHAN) is Fan.TIANHU
    assert tianhu(grouping(), WinContext(WinSource.OWN_FLIP), LESHAN) is None


def test_dihu_is_the_di_context() -> None:
    """R-6.3: 地胡 is a non-dealer's win on the dealer's opening discard."""
    assert dihu(grouping(), WinContext(di=True), LESHAN) is Fan.DIHU
    assert dihu(grouping(), WinContext(), LESHAN) is None


def test_kunhu_needs_every_group_but_the_pair_to_score() -> None:
    assert kunhu(grouping(scores=True), WinContext(), LESHAN) is Fan.KUNHU
    assert kunhu(grouping(scores=False), WinContext(), LESHAN) is None


def test_piaohu_needs_no_hu_from_the_hand() -> None:
    assert piaohu(grouping(in_hand=False), WinContext(), LESHAN) is Fan.PIAOHU
    assert piaohu(grouping(in_hand=True), WinContext(), LESHAN) is None


@pytest.mark.parametrize(
    ("facts", "rules", "want"),
    [
        ({"three": 1 << D3}, LESHAN, Fan.QUANHU),  # a 坎 or exposed 对 of 叁
        ({"four": 1 << D3}, LESHAN, Fan.SHUANGQUAN),  # a 滚 or exposed 开 of 叁
        ({"four": 1 << D3}, off("shuang_quan"), Fan.QUANHU),  # 1 番, listed as 圈胡
        ({"three": 1 << int(Card.X3)}, LESHAN, None),  # 三 is small: not the 圈 card
        ({"three": 1 << int(Card.D4)}, LESHAN, None),  # another big card
        ({"win": D3, "placement": Placement.DUI}, LESHAN, Fan.QUANHU),  # the winning 叁 makes the 对
        ({"win": D3, "placement": Placement.KAI}, LESHAN, Fan.SHUANGQUAN),  # ... the 开
        ({"win": D3, "placement": Placement.YU}, LESHAN, Fan.SHUANGQUAN),  # ... a yu 开
        ({"win": D3, "placement": Placement.YU}, off("shuang_quan"), Fan.QUANHU),
        ({"win": D3, "three": 1 << D3}, LESHAN, Fan.QUANHU),  # it joins a run; the 坎 stays
        ({"win": D3}, LESHAN, None),  # one 叁 alone
    ],
)
def test_quanhu_counts_the_quan_cards_owned_as_one_group(
    facts: dict[str, int], rules: RuleSet, want: Fan | None
) -> None:
    """R-7.3: three of the 圈 card as a 对 or 坎 is 圈胡; all four as a 开 or 滚 is 双圈."""
    assert quanhu(grouping(**facts), WinContext(quan=3), rules) is want  # type: ignore[arg-type]
    assert quanhu(grouping(**facts), WinContext(), rules) is None  # not playing 圈


# ---------------------------------------------------------------------------------------------
# the registry


def test_registry_names_every_fan_once_with_an_on_off_switch() -> None:
    """One registry: every Fan comes from exactly one rule; each switch is a RuleSet bool
    option, on by default (R-10)."""
    named = [fan for rule in FAN_RULES for fan in rule.fans]
    assert sorted(named) == sorted(Fan)
    bools = {f.name for f in fields(RuleSet) if f.type in ("bool", bool)}
    for rule in FAN_RULES:
        assert rule.switch in bools and getattr(LESHAN, rule.switch) is True
        assert rule.rule.startswith("R-")
    assert {r.switch for r in FAN_RULES} == {"tian_di_fan", "kun_fan", "piao_fan", "quan_fan"}


@pytest.mark.parametrize(
    ("fan", "options", "weight"),
    [
        (Fan.TIANHU, {}, 1),
        (Fan.TIANHU, {"tianhu": "two_fan"}, 2),
        (Fan.TIANHU, {"tianhu": "fixed_100"}, 0),  # the score is flat
        (Fan.DIHU, {}, 1),
        (Fan.KUNHU, {}, 1),
        (Fan.PIAOHU, {}, 1),
        (Fan.QUANHU, {}, 1),
        (Fan.SHUANGQUAN, {}, 2),
    ],
)
def test_fan_weights(fan: Fan, options: dict[str, str], weight: int) -> None:
    """R-7.3: each 番 doubles once, 双圈 twice; 天胡 per the tianhu option (R-10)."""
    assert fan_weight(fan, RuleSet.from_options(options)) == weight


def test_fan_weight_of_no_fan_is_an_erqishi_error() -> None:
    with pytest.raises(ErqishiError, match="unknown 番"):
        fan_weight("天和")
    assert fan_weight("双圈") == 2 and fan_weight("瞟胡") == 1  # by name


@pytest.mark.parametrize("switch", ["tian_di_fan", "kun_fan", "piao_fan", "quan_fan"])
def test_a_switch_takes_its_fans_out_of_scoring(switch: str) -> None:
    tests, _ = active_fans(off(switch))
    gone = {r.test for r in FAN_RULES if r.switch == switch}
    assert gone and not gone & set(tests)
    assert len(tests) == len(FAN_RULES) - len(gone)


# ---------------------------------------------------------------------------------------------
# the switches on whole hands, worked by hand

TIANHU_HAND = "二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾"  # 坎 壹 6 + 贰柒拾 6 = 12 hu, 小和 10
TIAN = WinContext(WinSource.TIAN)


@pytest.mark.parametrize(
    ("options", "fans", "score"),
    [
        ({}, ["天胡"], 20),  # 10 x 2
        ({"tian_di_fan": False}, [], 10),  # still a win, no 番, not listed
        ({"tianhu": "two_fan", "tian_di_fan": False}, [], 10),
        ({"tianhu": "fixed_100"}, ["天胡"], 100),
        ({"tianhu": "fixed_100", "tian_di_fan": False}, [], 100),  # fixed_100 still pays 100
        ({"tianhu": "fixed_100", "cap": 80}, ["天胡"], 100),  # the cap is for payments
    ],
)
def test_tian_di_fan_switch_on_tianhu(options: dict[str, object], fans: list[str], score: int) -> None:
    r = analyze_hand(TIANHU_HAND, context=TIAN, rules=RuleSet.from_options(options))
    assert (r.is_win, r.hu, r.fan_names, r.score) == (True, 12, fans, score)


# a non-dealer's 20 dealt cards; the 一 onto the pair 一一 is a small 对 (1) beside the 坎
# 七七七 (3) and 陆陆陆 (6): 10 hu, 小和 10; runs 二三四 四五六 壹贰叁 捌玖拾
DIHU_HAND = "一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"


@pytest.mark.parametrize(("options", "fans", "score"), [({}, ["地胡"], 20), ({"tian_di_fan": False}, [], 10)])
def test_tian_di_fan_switch_on_dihu(options: dict[str, bool], fans: list[str], score: int) -> None:
    r = analyze_hand(DIHU_HAND, [], "一", WinContext(di=True), RuleSet.from_options(options))
    assert (r.is_win, r.hu, r.fan_names, r.score) == (True, 10, fans, score)


SIX_KAI = ["壹壹壹壹", "陆陆陆陆", "捌捌捌捌", "玖玖玖玖", "拾拾拾拾", "贰贰贰贰"]  # 6 big 开: 54 hu, 台和 220


@pytest.mark.parametrize(
    ("options", "fans", "score"),
    [
        ({}, ["坤胡"], 440),
        ({"kun_fan": False}, [], 220),
        ({"kun_fan": False, "tiers": "jianwei"}, [], 80),  # ≥ 31 hu: 8 个
        ({"tiers": "jianwei"}, ["坤胡"], 160),
    ],
)
def test_kun_fan_switch(options: dict[str, object], fans: list[str], score: int) -> None:
    """The single 一 waits on the pair; every other group is a big 开 (9 hu): 坤胡."""
    r = analyze_hand("一", SIX_KAI, "一", rules=RuleSet.from_options(options))
    assert (r.hu, r.fan_names, r.score) == (54, fans, score)


# 贰柒拾 6 + exposed 对 捌 3 and 肆 3 + 七八九 0, in hand 一二三 四五六, and 二七 joined by the
# winning 十: 二七十 3 = 15 hu, 中和 20; no 坎/滚/开, and 十 was not held: 瞟胡
PIAO = ("一二三四五六二七", ["贰柒拾", "捌捌捌", "肆肆肆", "七八九"], "十")


@pytest.mark.parametrize(("options", "fans", "score"), [({}, ["瞟胡"], 40), ({"piao_fan": False}, [], 20)])
def test_piao_fan_switch(options: dict[str, bool], fans: list[str], score: int) -> None:
    r = analyze_hand(*PIAO, rules=RuleSet.from_options(options))
    assert (r.hu, r.fan_names, r.score) == (15, fans, score)


# the winning 陆 makes the 坎 陆陆陆 a 开 (9); 九九九 坎 3, 贰柒拾 6; pair 八八: 18 hu, 中和 20
SHUANG = ("二三四五六七八八九九九贰叁肆伍陆陆陆柒拾", [], "陆")


@pytest.mark.parametrize(
    ("options", "fans", "score"),
    [
        ({}, ["双圈"], 80),  # 2 番
        ({"shuang_quan": False}, ["圈胡"], 40),  # all four 圈 cards are 1 番, 圈胡
        ({"quan_fan": False}, [], 20),
        ({"quan_fan": False, "shuang_quan": False}, [], 20),
    ],
)
def test_shuang_quan_switch(options: dict[str, bool], fans: list[str], score: int) -> None:
    r = analyze_hand(*SHUANG, WinContext(quan=6), RuleSet.from_options(options))
    assert (r.hu, r.fan_names, r.score) == (18, fans, score)


def test_shuang_quan_off_on_a_gun_in_tianhu() -> None:
    """A dealt 滚 of the 圈 card: 双圈, or 圈胡 with shuang_quan off. The 21 cards: 滚
    壹壹壹壹 12 + 坎 二二二 3, runs 三四五 六七八 贰叁肆 伍陆柒 and the pair 九九: 15 hu, 中和 20,
    天胡 1 番."""
    hand = "二二二三四五六七八九九壹壹壹壹贰叁肆伍陆柒"
    ctx = WinContext(WinSource.TIAN, quan=1)
    on = analyze_hand(hand, context=ctx)
    assert (on.hu, on.fan_names, on.score) == (15, ["双圈", "天胡"], 160)
    shuang_off = analyze_hand(hand, context=ctx, rules=off("shuang_quan"))
    assert (shuang_off.fan_names, shuang_off.score) == (["圈胡", "天胡"], 80)


def test_every_switch_on_is_the_preset() -> None:
    """R-10: with every switch on, every preset scores as before (they are the defaults)."""
    on = {"shuang_quan": True, "tian_di_fan": True, "kun_fan": True, "piao_fan": True, "quan_fan": True}
    for name in ("leshan", "duikou", "meishan", "app", "jianwei"):
        assert RuleSet.from_options({"preset": name, **on}) == RuleSet.preset(name)


@pytest.mark.parametrize(
    ("hu", "name", "base"),
    [
        (10, "小和", 10),
        (11, "中和", 20),
        (20, "中和", 20),
        (21, "大和", 40),
        (30, "大和", 40),
        (31, "台和", 80),
        (90, "台和", 80),
    ],
)
def test_jianwei_tiers(hu: int, name: str, base: int) -> None:
    """R-10 tiers jianwei (犍为): 10:10, 11-20:20, 21-30:40, ≥31:80 (1, 2, 4, 8 个)."""
    from erqishi.core import tier_of

    tier = tier_of(hu, RuleSet.preset("jianwei"))
    assert tier is not None and (tier.name, tier.base) == (name, base)
    assert tier_of(9, RuleSet.preset("jianwei")) is None


def test_jianwei_preset_caps_at_80() -> None:
    """R-10 preset jianwei: cap 80 per payer, then the 抬炮 multiplier (R-8.2). Six big 开:
    54 hu = 80, 坤胡 160; capped at 80; a discard pays 3 x 80."""
    from erqishi.core import settle

    jianwei = RuleSet.preset("jianwei")
    r = analyze_hand("一", SIX_KAI, "一", rules=jianwei)
    assert (r.base, r.score) == (80, 160)
    assert settle(r.score, WinSource.DISCARD, 0, jianwei, discarder=1) == (240, -240, 0)


# ---------------------------------------------------------------------------------------------
# as changed: a 开 under yu onto an exposed 对 does not block 瞟胡

YU = RuleSet.from_options({"yu": True})
# exposed 三三三+三 (a small 开 made under yu, 6 hu), 七七柒 (花吃 0), 捌捌捌 and 玖玖玖 (big 对,
# 3 each); in hand 五六七 壹贰叁 and 十, winning on 十 for the pair (one quad: five triples and
# the pair): 12 hu, 小和 10; no 坎, 滚 or grown 开, and no whole 二七十 held: 瞟胡, 20
REST = ["七七柒", "捌捌捌", "玖玖玖"]


def test_a_yu_kai_meld_does_not_block_piao() -> None:
    r = analyze_hand("五六七壹贰叁十", ["三三三+三", *REST], "十", rules=YU)
    assert (r.is_win, r.hu, r.fan_names, r.score) == (True, 12, ["瞟胡"], 20)
    assert r.groups[0].kind is GroupKind.KAI and r.groups[0].yu and r.groups[0].exposed


def test_a_kai_grown_from_a_kan_blocks_piao() -> None:
    """三三三三 on the table was a 坎 in the hand (开 claim, R-5.12): no 瞟胡, 10."""
    for rules in (YU, LESHAN):
        r = analyze_hand("五六七壹贰叁十", ["三三三三", *REST], "十", rules=rules)
        assert (r.hu, r.fan_names, r.score) == (12, [], 10)


def test_the_winning_card_onto_an_exposed_dui_under_yu_is_piao() -> None:
    """The winning 三 onto the exposed 对 三三三 makes the yu 开 (6 hu instead of 1): the
    same 12 hu and 瞟胡; the group is exposed, holds the winning card and is marked yu.
    Without yu the 三 has no group and the pair 十十 alone leaves no win."""
    r = analyze_hand("五六七壹贰叁十十", ["三三三", *REST], "三", WinContext(WinSource.FLIP), YU)
    assert (r.is_win, r.hu, r.fan_names, r.score) == (True, 12, ["瞟胡"], 20)
    [kai] = [g for g in r.groups if g.winning]
    assert (kai.kind, kai.exposed, kai.yu, kai.hu) == (GroupKind.KAI, True, True, 6)
    assert not analyze_hand("五六七壹贰叁十十", ["三三三", *REST], "三").is_win


def test_the_winning_card_onto_a_kan_is_no_piao() -> None:
    """A 开 the winning card makes from a 坎 in the hand grew from the 坎 (R-3.2, R-7.3). The
    winning 三 onto the 坎 三三三: 开 6 + 捌 3 + 玖 3 = 12 hu, no 瞟胡 (the 坎 is hu from the
    hand), 10."""
    r = analyze_hand("三三三五六七壹贰叁十十", REST, "三")
    assert (r.is_win, r.hu, r.fan_names, r.score) == (True, 12, [], 10)


def test_holding_a_whole_ejs_before_the_win_blocks_piao() -> None:
    """R-7.3: the 二七十 was in the hand before the winning 一 came (一 joins 一二三): the
    same 15 hu as PIAO, but no 瞟胡: 20."""
    r = analyze_hand("二三四五六二七十", ["贰柒拾", "捌捌捌", "肆肆肆", "七八九"], "一")
    assert (r.hu, r.fan_names, r.score) == (15, [], 20)


# ---------------------------------------------------------------------------------------------
# parse_meld: 三三三+三


@pytest.mark.parametrize("text", ["三三三+三", "x3 x3 x3+x3", "x3 x3 x3 + x3", "三三三 + 三"])
def test_parse_meld_reads_a_yu_kai(text: str) -> None:
    g = parse_meld(text)
    assert (g.kind, g.cards, g.exposed, g.winning, g.yu, g.hu) == (
        GroupKind.KAI,
        (Card.X3,) * 4,
        True,
        False,
        True,
        6,
    )
    assert parse_meld("三三三三").yu is False


@pytest.mark.parametrize("text", ["三三三+四", "三三+三三", "三三三三+三", "三三三+", "+三", "一二三+一"])
def test_parse_meld_refuses_other_plus_forms(text: str) -> None:
    with pytest.raises(InvalidHandError, match="not a group"):
        parse_meld(text)


def test_parse_meld_reports_a_bad_card_in_the_whole_text() -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse_meld("三三三+q")
    assert (info.value.text, info.value.token, info.value.index, info.value.position) == ("三三三+q", "q", 3, 4)
    with pytest.raises(InvalidNotationError) as info:  # one + only
        parse_meld("三三三+三+三")
    assert (info.value.token, info.value.position) == ("+", 5)

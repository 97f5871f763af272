"""Base values, doublings, score and settlement (R-7.2, R-7.3, R-7.4, R-8), and the
rule options that change them (R-10). Expected values are worked from RULES.md."""

from __future__ import annotations

import pytest

from erqishi.core import Card, Fan, RuleSet, WinContext, WinSource, analyze_hand, settle, tier_of
from erqishi.core.hands.fan import fan_weight

LESHAN = RuleSet()
APP = RuleSet.preset("app")


@pytest.mark.parametrize(
    ("hu", "name", "base"),
    [
        (10, "小和", 10),
        (14, "小和", 10),
        (15, "中和", 20),
        (20, "中和", 20),
        (21, "大和", 40),
        (22, "大和", 40),
        (23, "大和", 50),
        (27, "大和", 50),
        (28, "30和", 60),
        (30, "30和", 60),
        (31, "台和", 120),  # 31 rounds to 30: 30 x 4
        (32, "台和", 120),
        (33, "台和", 140),  # example: 35 x 4
        (37, "台和", 140),
        (38, "台和", 160),
        (54, "台和", 220),
        (72, "台和", 280),  # example: 70 x 4
    ],
)
def test_seed_tiers(hu: int, name: str, base: int) -> None:
    """R-7.2, the seed table."""
    tier = tier_of(hu)
    assert tier is not None and (tier.name, tier.base) == (name, base)


@pytest.mark.parametrize("hu", [0, 1, 9])
def test_under_ten_is_no_tier(hu: int) -> None:
    assert tier_of(hu) is None and tier_of(hu, APP) is None


@pytest.mark.parametrize(
    ("hu", "base"),
    [(10, 10), (14, 10), (15, 20), (20, 20), (21, 40), (24, 40), (25, 60), (30, 60), (31, 100), (80, 100)],
)
def test_app_tiers(hu: int, base: int) -> None:
    """R-10 ``tiers: app``: 10-14:10, 15-20:20, 21-24:40, 25-30:60, >=31:100."""
    tier = tier_of(hu, APP)
    assert tier is not None and tier.base == base


def test_fan_weights() -> None:
    """R-7.3: every 番 doubles once, 双圈 twice; 天胡 per the tianhu option."""
    assert [fan_weight(f) for f in Fan] == [1, 1, 1, 1, 1, 2]
    assert fan_weight(Fan.TIANHU, RuleSet.preset("meishan")) == 2


TIANHU_HAND = "二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾"  # kan 壹 6 + 贰柒拾 6 = 12 hu


@pytest.mark.parametrize(
    ("options", "fans", "score"),
    [
        ({}, ["天胡"], 20),  # 10 x 2
        ({"tianhu": "two_fan"}, ["天胡"], 40),  # 眉山: 10 x 4
        ({"tianhu": "fixed_100"}, ["天胡"], 100),  # a flat 100
    ],
)
def test_tianhu_options(options: dict[str, str], fans: list[str], score: int) -> None:
    r = analyze_hand(TIANHU_HAND, context=WinContext(WinSource.TIAN), rules=RuleSet.from_options(options))
    assert (r.is_win, r.hu, r.fan_names, r.score) == (True, 12, fans, score)


def test_quan_fan_off_drops_quan() -> None:
    """R-10 ``quan_fan: off``: the 壹 kan in 圈1 no longer doubles."""
    ctx = WinContext(WinSource.TIAN, quan=1)
    on = analyze_hand(TIANHU_HAND, context=ctx)
    off = analyze_hand(TIANHU_HAND, context=ctx, rules=RuleSet.from_options({"quan_fan": False}))
    assert (on.fan_names, on.score) == (["圈胡", "天胡"], 40)
    assert (off.fan_names, off.score) == (["天胡"], 20)


def test_quan_by_exposed_dui() -> None:
    """R-7.3: three of the 圈 card as an exposed 对 (柒柒柒 in 圈7) is 圈胡."""
    r = analyze_hand("一二二三七九十壹贰叁捌捌捌", ["五五五五", "柒柒柒"], "九", WinContext(WinSource.FLIP, quan=7))
    assert (r.hu, r.fan_names, r.score) == (18, ["圈胡"], 40)


def test_shuangquan_by_winning_kai() -> None:
    """R-3.2 + R-7.3: the 陆 坎 plus the winning 陆 is a 开 of the 圈6 card: 双圈, 2 番."""
    r = analyze_hand("二三四五六七八八九九九贰叁肆伍陆陆陆柒拾", [], "陆", WinContext(quan=6))
    assert (r.hu, r.fan_names, r.score) == (18, ["双圈"], 80)


def test_exposed_run_breaks_kun() -> None:
    """R-7.3 坤胡: a 0-hu exposed 顺子 means not every group scores: 23 hu, 大和 50, no 坤."""
    r = analyze_hand("二七九九十贰贰贰柒柒柒拾拾拾", ["四四四", "四五六"], "九")
    assert (r.is_win, r.hu, r.base, r.fan_names, r.score) == (True, 23, 50, [], 50)


def test_piao_when_the_winning_card_completes_the_ejs() -> None:
    """R-7.3 瞟胡: the hand held 二七 but not 十 before the win; all hu on the table or
    from the winning card. 6 + 3 + 3 + 0 + 3 = 15: 中和 20 x 2."""
    r = analyze_hand("一二三四五六二七", ["贰柒拾", "捌捌捌", "肆肆肆", "七八九"], "十")
    assert (r.hu, r.fan_names, r.score) == (15, ["瞟胡"], 40)


def test_app_preset_scores_and_caps() -> None:
    """R-10 app: 54 hu is 100, 坤 doubles to 200; the cap of 100 applies per payer (R-8.2)."""
    melds = ["壹壹壹壹", "陆陆陆陆", "捌捌捌捌", "玖玖玖玖", "拾拾拾拾", "贰贰贰贰"]
    r = analyze_hand("一", melds, "一", rules=APP)
    assert (r.hu, r.base, r.fan_names, r.score) == (54, 100, ["坤胡"], 200)
    assert settle(r.score, WinSource.FLIP, 0, APP) == (200, -100, -100)
    assert settle(r.score, WinSource.DISCARD, 0, APP, discarder=1) == (300, -300, 0)


@pytest.mark.parametrize(
    ("source", "winner", "discarder", "payments"),
    [
        (WinSource.DISCARD, 0, 2, (60, 0, -60)),  # 抬炮: 包三家, 3 x 20
        (WinSource.DISCARD, 2, 1, (0, -60, 60)),
        (WinSource.FLIP, 1, None, (-20, 40, -20)),  # 翻胡: each other pays
        (WinSource.OWN_FLIP, 2, None, (-20, -20, 40)),  # 自摸
        (WinSource.TIAN, 0, None, (40, -20, -20)),  # 天胡
    ],
)
def test_settlement_three_players(
    source: WinSource, winner: int, discarder: int | None, payments: tuple[int, ...]
) -> None:
    """R-8.1, R-8.2 for a score of 20."""
    assert settle(20, source, winner, discarder=discarder) == payments


def test_settlement_duikou_pays_twice_on_discard() -> None:
    """R-8.2 with two players (对抠): 'only twice the base, not three times'."""
    duikou = RuleSet.preset("duikou")
    assert settle(50, WinSource.DISCARD, 1, duikou, discarder=0) == (-100, 100)
    assert settle(50, WinSource.OWN_FLIP, 1, duikou) == (-50, 50)


def test_settlement_four_players_skip_the_seat_sitting_out() -> None:
    """R-10 players 4: the seat sitting out pays and receives nothing."""
    four = RuleSet.from_options({"players": 4})
    assert settle(20, WinSource.FLIP, 0, four, sitting_out=3) == (40, -20, -20, 0)
    assert settle(20, WinSource.DISCARD, 0, four, discarder=1, sitting_out=3) == (60, -60, 0, 0)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"source": WinSource.DISCARD, "winner": 0}, "discarder"),
        ({"source": WinSource.DISCARD, "winner": 0, "discarder": 0}, "discarder"),
        ({"source": WinSource.FLIP, "winner": 3}, "winner seat 3"),
    ],
)
def test_settlement_rejects_bad_seats(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        settle(20, **kwargs)  # type: ignore[arg-type]
    assert fragment in str(info.value)


def test_payments_always_sum_to_zero() -> None:
    for rules in (LESHAN, APP, RuleSet.preset("duikou"), RuleSet.from_options({"players": 4, "cap": 30})):
        n = rules.players
        for score in (10, 40, 440):
            for source in WinSource:
                for winner in range(min(n, 3)):
                    discarder = (winner + 1) % min(n, 3) if source is WinSource.DISCARD else None
                    sitting = 3 if n == 4 else None
                    pay = settle(score, source, winner, rules, discarder=discarder, sitting_out=sitting)
                    assert sum(pay) == 0 and pay[winner] > 0


def test_card_parse_of_winning_card_accepts_ascii() -> None:
    assert analyze_hand("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["x1 x1 x1"], "x4").score == 10
    assert analyze_hand("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"], Card.X4).score == 10

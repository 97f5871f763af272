"""The doublings, 番 *fan* (R-7.3), one small function each, in one registry.

Each 番 is a function of a candidate grouping's facts (:class:`~erqishi.core.hands.grouping.Candidate`),
the win's context and the rule set; it names the :class:`Fan` that applies, or None.
:data:`FAN_RULES` lists them with the rule option that switches each off (R-10) and its
weight in doublings. Scoring reads only the registry, so a new 番 is one function and one
:class:`FanRule` here (and its on/off option, one ``bool`` field of ``RuleSet``).

A 番 whose switch is off is neither counted nor listed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from erqishi.core._compiled import reduce_fields
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import LESHAN, RuleSet, TianhuRule

if TYPE_CHECKING:
    from erqishi.core.hands.grouping import Candidate
    from erqishi.core.hands.scoring import WinContext

__all__ = [
    "FAN_RULES",
    "Fan",
    "FanRule",
    "active_fans",
    "dihu",
    "fan_weight",
    "kunhu",
    "piaohu",
    "quanhu",
    "tianhu",
]


class Fan(StrEnum):
    """The doublings (番) of R-7.3, by their Chinese names (as in records and cases)."""

    TIANHU = "天胡"
    DIHU = "地胡"
    KUNHU = "坤胡"
    PIAOHU = "瞟胡"
    QUANHU = "圈胡"
    SHUANGQUAN = "双圈"


def tianhu(grouping: Candidate, context: WinContext, rules: RuleSet) -> Fan | None:
    """天胡 (R-6.3, R-7.3): the dealer's 21 dealt cards win as they are. 1 番, 2 under
    ``tianhu: two_fan``; under ``fixed_100`` the score is a flat 100 (R-10, scoring).

    >>> from erqishi.core import HandAnalyzer, WinContext, WinSource
    >>> [g] = HandAnalyzer("二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾").candidates(None)
    >>> tianhu(g, WinContext(WinSource.TIAN), LESHAN), tianhu(g, WinContext(), LESHAN)
    (<Fan.TIANHU: '天胡'>, None)
    """
    return Fan.TIANHU if context.tian else None


def dihu(grouping: Candidate, context: WinContext, rules: RuleSet) -> Fan | None:
    """地胡 (R-6.3, R-7.3): a non-dealer wins on the dealer's opening discard (or on the
    first flip when the dealer owed none). 1 番.

    >>> from erqishi.core import Card, HandAnalyzer, WinContext
    >>> [g] = HandAnalyzer("一一二三四四五六七七七壹贰叁陆陆陆捌玖拾").candidates(Card.X1)
    >>> dihu(g, WinContext(di=True), LESHAN)
    <Fan.DIHU: '地胡'>
    """
    return Fan.DIHU if context.di else None


def kunhu(grouping: Candidate, context: WinContext, rules: RuleSet) -> Fan | None:
    """坤胡 *kunhu* (房房数, R-7.3): every group except the pair scores at least 1 hu. 1 番.

    >>> from erqishi.core import Card, HandAnalyzer, WinContext
    >>> melds = ["壹壹壹壹", "陆陆陆陆", "捌捌捌捌", "玖玖玖玖", "拾拾拾拾", "贰贰贰贰"]
    >>> [g] = HandAnalyzer("一", melds).candidates(Card.X1)
    >>> kunhu(g, WinContext(), LESHAN)
    <Fan.KUNHU: '坤胡'>
    """
    return Fan.KUNHU if grouping.all_groups_score else None


def piaohu(grouping: Candidate, context: WinContext, rules: RuleSet) -> Fan | None:
    """瞟胡 *piaohu* (R-7.3): all hu was earned on the table or with the winning card: no
    坎, no 滚, no 开 that grew from a 坎 (a 开 made under ``yu`` onto an exposed 对, the
    winning card's included, grew on the table and does not block), and the hand did not
    hold all three of 二 七 十 of one size just before the winning card. 1 番.

    >>> from erqishi.core import Card, HandAnalyzer, WinContext
    >>> [g] = HandAnalyzer("一二三四五六二七", ["贰柒拾", "捌捌捌", "肆肆肆", "七八九"]).candidates(Card.X10)
    >>> piaohu(g, WinContext(), LESHAN)
    <Fan.PIAOHU: '瞟胡'>
    """
    return None if grouping.hu_in_hand else Fan.PIAOHU


def quanhu(grouping: Candidate, context: WinContext, rules: RuleSet) -> Fan | None:
    """圈胡 / 双圈 (R-7.3): the winner owns three of the 圈 card (the big card of the 圈
    number) as a 对 or 坎: 圈胡, 1 番; all four, as a 开 or 滚: 双圈, 2 番, or 圈胡 (1 番)
    when ``shuang_quan`` is off (R-10). Only when playing 圈 (``context.quan``).

    >>> from erqishi.core import Card, HandAnalyzer, WinContext
    >>> melds = ["壹壹壹壹", "陆陆陆陆", "捌捌捌捌", "玖玖玖玖", "拾拾拾拾", "贰贰贰贰"]
    >>> [g] = HandAnalyzer("一", melds).candidates(Card.X1)
    >>> quanhu(g, WinContext(quan=1), LESHAN), quanhu(g, WinContext(quan=3), LESHAN)
    (<Fan.SHUANGQUAN: '双圈'>, None)
    """
    if context.quan is None:
        return None
    owned = grouping.identical(9 + context.quan)
    if owned == 4:
        return Fan.SHUANGQUAN if rules.shuang_quan else Fan.QUANHU
    return Fan.QUANHU if owned == 3 else None


def _one(fan: Fan, rules: RuleSet) -> int:
    return 1


def _tianhu_weight(fan: Fan, rules: RuleSet) -> int:
    return _TIANHU_FAN[rules.tianhu]


def _quan_weight(fan: Fan, rules: RuleSet) -> int:
    return 2 if fan is Fan.SHUANGQUAN else 1


_TIANHU_FAN: Final = {TianhuRule.ONE_FAN: 1, TianhuRule.TWO_FAN: 2, TianhuRule.FIXED_100: 0}

#: A 番 test: the fan that applies to a grouping in a context under a rule set, or None.
FanTest = Callable[["Candidate", "WinContext", RuleSet], "Fan | None"]


@dataclass(frozen=True, slots=True)
class FanRule:
    """One entry of the 番 registry.

    Attributes:
        test: the function deciding whether (and which of ``fans``) applies.
        fans: the names it may award.
        switch: the ``bool`` option of :class:`~erqishi.core.rules.RuleSet` that turns it
            off (R-10): off, it is neither counted nor listed.
        weight: doublings a listed fan is worth under a rule set.
        rule: the R-ids it implements.
    """

    test: FanTest
    fans: tuple[Fan, ...]
    switch: str
    weight: Callable[[Fan, RuleSet], int]
    rule: str

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)


#: Every 番 of R-7.3, with its switch (R-10) and weight. The one place to add a 番.
FAN_RULES: tuple[FanRule, ...] = (
    FanRule(tianhu, (Fan.TIANHU,), "tian_di_fan", _tianhu_weight, "R-6.3, R-7.3, R-10 tianhu"),
    FanRule(dihu, (Fan.DIHU,), "tian_di_fan", _one, "R-6.3, R-7.3"),
    FanRule(kunhu, (Fan.KUNHU,), "kun_fan", _one, "R-7.3"),
    FanRule(piaohu, (Fan.PIAOHU,), "piao_fan", _one, "R-7.3"),
    FanRule(quanhu, (Fan.QUANHU, Fan.SHUANGQUAN), "quan_fan", _quan_weight, "R-7.3, R-10 shuang_quan"),
)

_RULE_OF: Final = {fan: rule for rule in FAN_RULES for fan in rule.fans}


def fan_weight(fan: Fan | str, rules: RuleSet = LESHAN) -> int:
    """How many doublings ``fan`` (a :class:`Fan` or its Chinese name) is worth when it is
    listed (R-7.3): 双圈 2, 天胡 1 or 2 by the ``tianhu`` option (0 under ``fixed_100``, where
    the score is flat), every other 1.

    Raises:
        ErqishiError: ``fan`` names no 番.
        TypeError: ``fan`` is not a string (in both builds: the compiled one checks the
            argument's type before the call).

    >>> fan_weight(Fan.SHUANGQUAN), fan_weight("天胡", RuleSet.preset("meishan"))
    (2, 2)
    """
    if not isinstance(fan, str):
        raise TypeError(f"a 番 is a Fan or its name, got {fan!r}")
    found = fan if isinstance(fan, Fan) else next((f for f in Fan if f.value == fan), None)
    rule = _RULE_OF.get(found) if found is not None else None
    if found is None or rule is None:
        names = [f.value for f in Fan]
        raise ErqishiError(
            f"unknown 番 {fan!r}; the 番 are {', '.join(names)}", zh=f"没有 {fan!r} 这个番；番有 {'、'.join(names)}"
        )
    return rule.weight(found, rules)


_ACTIVE: Final[dict[int, tuple[RuleSet, tuple[FanTest, ...], dict[Fan, int]]]] = {}


def active_fans(rules: RuleSet) -> tuple[tuple[FanTest, ...], dict[Fan, int]]:
    """The tests of the 番 switched on under ``rules`` (registry order), and the weight of
    every fan they may award; worked out once per rule set.

    >>> tests, weights = active_fans(RuleSet.from_options({"kun_fan": False}))
    >>> kunhu in tests, weights[Fan.SHUANGQUAN]
    (False, 2)
    """
    entry = _ACTIVE.get(id(rules))
    if entry is None or entry[0] is not rules:
        on = [r for r in FAN_RULES if getattr(rules, r.switch)]
        weights = {fan: r.weight(fan, rules) for r in on for fan in r.fans}
        entry = (rules, tuple(r.test for r in on), weights)
        if len(_ACTIVE) > 256:
            _ACTIVE.clear()
        _ACTIVE[id(rules)] = entry
    return entry[1], entry[2]

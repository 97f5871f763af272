"""Hand analysis: locks, the winning card's place, hand size, reasons and waits
(R-3.1, R-3.2, R-4.4, R-6.1, R-7.1). Expected values are worked from RULES.md."""

from __future__ import annotations

import re

import pytest

from erqishi.core import (
    Card,
    ErqishiError,
    Group,
    GroupKind,
    HandAnalyzer,
    InvalidHandError,
    NoWinReason,
    WinContext,
    WinSource,
    analyze_hand,
    find_waits,
    parse_cards,
    parse_meld,
)
from erqishi.core.hands.fan import fan_weight

MIN10 = "二三四五六七七七壹贰叁陆陆陆捌玖拾"


def test_kan_is_locked_and_never_split() -> None:
    """R-3.1: 一 二二 三三三 四四 五 would be three runs, but 三三三 is a 坎 and locked,
    so 一二二四四五 cannot group: no win."""
    r = analyze_hand("二二三三三四四五贰柒拾捌捌捌玖玖玖六七八", [], "一")
    assert (r.is_win, r.reason) == (False, NoWinReason.NO_GROUPING)


def test_gun_is_locked() -> None:
    """R-3.1: four identical held cards are a 滚, never a pair plus runs."""
    r = analyze_hand("一二二二二三三四四五贰柒拾捌捌捌玖玖玖六", [], "七")
    assert not r.is_win


@pytest.mark.parametrize(
    ("hand", "melds", "win", "reason"),
    [
        (MIN10[:-1], ["一一一"], "四", NoWinReason.TOO_FEW),  # 20 cards, no quad
        (MIN10 + "九", ["一一一"], "四", NoWinReason.TOO_MANY),  # 22 cards, no quad
        (MIN10, ["一二三"], "四", NoWinReason.UNDER_10),  # 9 hu
        ("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"], "九", NoWinReason.NO_GROUPING),
    ],
)
def test_reasons_for_no_win(hand: str, melds: list[str], win: str, reason: NoWinReason) -> None:
    """R-4.4 多牌/少牌, R-6.1 under 10 hu or loose cards."""
    r = analyze_hand(hand, melds, win)
    assert (r.is_win, r.reason, r.score) == (False, reason, 0)


def test_groups_of_a_win_name_the_winning_card() -> None:
    r = analyze_hand("四四四五六七八九十贰叁肆伍陆柒柒捌玖玖拾", [], "玖")
    winning = [g for g in r.groups if g.winning]
    assert len(winning) == 1 and winning[0].kind is GroupKind.DUI and winning[0].hu == 3


def test_hua_either_way() -> None:
    """花吃 of two small and one big, or one small and two big (R-3)."""
    assert parse_meld("六六陆").kind is GroupKind.HUA and parse_meld("六陆陆").kind is GroupKind.HUA
    with pytest.raises(InvalidHandError):
        parse_meld("六陆七")


@pytest.mark.parametrize("meld", ["一二四", "一贰三", "九十壹", "一一", "一一一一一", "一一二二"])
def test_non_groups_are_not_melds(meld: str) -> None:
    """R-3: mixed-size runs and wrapped runs are not groups."""
    with pytest.raises(InvalidHandError):
        parse_meld(meld)


def test_fifth_copy_is_invalid() -> None:
    with pytest.raises(InvalidHandError, match="5 copies of 一"):
        HandAnalyzer("一一", ["一一一"])
    with pytest.raises(InvalidHandError, match="fifth copy"):
        analyze_hand("一", ["一一一"], "一")


@pytest.mark.parametrize("bad", [3, "一", None, 3.0])
def test_a_hand_of_things_that_are_not_cards_is_refused(bad: object) -> None:
    """Bad input gets a clear error naming it, the same in both builds (not a bare TypeError)."""
    with pytest.raises(InvalidHandError, match=f"a hand holds cards .*got {re.escape(repr(bad))}"):
        HandAnalyzer([Card.X1, bad])  # type: ignore[list-item]


def test_tian_takes_no_winning_card_and_others_need_one() -> None:
    with pytest.raises(InvalidHandError):
        analyze_hand(MIN10, [], "一", WinContext(WinSource.TIAN))
    with pytest.raises(InvalidHandError):
        analyze_hand(MIN10, [], None)
    with pytest.raises(InvalidHandError):
        analyze_hand("", [], "一")


def test_waits_of_a_waiting_hand() -> None:
    """下叫 of 二三四五六七七七壹贰叁陆陆陆捌玖拾 with 一一一 exposed: 一 (一二三 四五六),
    四 (二三四 四五六), 七 (二三四 五六七 beside the 坎): each 10 hu, score 10."""
    waits = find_waits(MIN10, ["一一一"])
    assert [(str(w.card), w.result.hu, w.score) for w in waits] == [("一", 10, 10), ("四", 10, 10), ("七", 10, 10)]


def test_waits_skip_cards_with_no_copy_left() -> None:
    """Six 开 and a single 一: the only wait is the pair (单吊), and not when all four 一 are seen."""
    melds = ["壹壹壹壹", "陆陆陆陆", "捌捌捌捌", "玖玖玖玖", "拾拾拾拾", "贰贰贰贰"]
    assert [str(w.card) for w in find_waits("一", melds)] == ["一"]
    assert find_waits("一一一一", ["壹壹壹", "二二二"]) == ()


DIHU = "一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"


def test_waits_di_context_and_no_waits_for_tian() -> None:
    """地胡 doubles every wait of a non-dealer's dealt hand (R-6.3, R-7.3)."""
    waits = find_waits(DIHU, [], WinContext(di=True))
    assert Card.X1 in {w.card for w in waits}
    for w in waits:
        assert w.result.fan_names == ["地胡"] and w.score == 2 * w.result.base
    with pytest.raises(InvalidHandError):
        find_waits(MIN10, ["一一一"], WinContext(WinSource.TIAN))


@pytest.mark.parametrize(
    ("hand", "melds", "context", "fragment"),
    [
        ("二三四五六七八九十壹壹壹贰柒拾叁肆伍", ["陆陆陆"], WinContext(WinSource.TIAN), "no melds"),
        ("一一一一二二二二三四五六七八壹贰叁肆伍陆柒柒", [], WinContext(WinSource.TIAN), "not 22"),
        (MIN10, ["一一一"], WinContext(di=True), "no melds"),
        ("一一一一二二二二三四五六七八壹贰叁肆伍陆柒", [], WinContext(di=True), "not 21"),
    ],
)
def test_tian_and_di_need_the_dealt_hand(hand: str, melds: list[str], context: WinContext, fragment: str) -> None:
    """R-2.3, R-6.3: 天胡 is the dealer's 21 dealt cards, 地胡 a non-dealer's 20, before any meld."""
    win = None if context.tian else "柒"
    with pytest.raises(InvalidHandError, match=fragment):
        analyze_hand(hand, melds, win, context)


def test_analyzer_score_matches_evaluate() -> None:
    a = HandAnalyzer(MIN10, ["一一一"])
    scores = {card: a.score(card) for card in Card}
    assert scores == {card: a.evaluate(card).score for card in Card}
    assert {c for c, s in scores.items() if s} == {Card.X1, Card.X4, Card.X7}


def test_bakuai_hand_keeps_a_card() -> None:
    """R-4.4: two 滚 and a 坎: 22 cards with the pair 一 (the bakuai case)."""
    hand = parse_cards("一三三三三四五六七八九贰伍伍伍柒玖玖玖玖拾")
    assert len(hand) == 21
    r = analyze_hand(hand, [], "一", WinContext(WinSource.FLIP))
    kinds = sorted(g.kind.value for g in r.groups)
    assert kinds == ["ejs", "gun", "gun", "kan", "pair", "run", "run"]


@pytest.mark.parametrize(
    "call",
    [
        lambda: HandAnalyzer([0, 1, 2]),  # ints are no cards
        lambda: HandAnalyzer("一二三", [42]),  # a meld that is no group
        lambda: HandAnalyzer("一二三", ["一二三四"]),
        lambda: HandAnalyzer.from_counts([1] * 21),
        lambda: HandAnalyzer.from_counts([-1] + [0] * 19),
        lambda: HandAnalyzer.from_counts([5] + [0] * 19),
        lambda: HandAnalyzer(MIN10, ["一一一"]).score(None),
        lambda: HandAnalyzer(MIN10, ["一一一"]).candidates(25),
        lambda: HandAnalyzer("一", ["一一一"]).candidates(Card.X1),  # a fifth copy
        lambda: analyze_hand(MIN10, ["一一一"], "q"),
        lambda: analyze_hand(MIN10, ["一一一"], "四", rules="nosuch"),
        lambda: analyze_hand(MIN10, ["一一一"], "四", WinContext(quan=11)),
        lambda: parse_meld("一二"),
        lambda: parse_meld("三三三+q"),
        lambda: Group("run", parse_cards("一二三")),  # type: ignore[arg-type]
        lambda: Group(GroupKind.RUN, ()),
    ],
)
def test_bad_input_raises_an_erqishi_error(call: object) -> None:
    """Every core error is an ErqishiError (a ValueError), never a bare KeyError or
    IndexError; the messages name the input."""
    with pytest.raises(ErqishiError):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    "call",
    [
        lambda: HandAnalyzer(MIN10, ["一一一"]).evaluate("四"),  # type: ignore[arg-type]
        lambda: HandAnalyzer(MIN10, ["一一一"]).evaluate(3),  # type: ignore[arg-type]
        lambda: fan_weight(3),  # type: ignore[arg-type]
    ],
)
def test_an_argument_of_the_wrong_type_is_a_type_error(call: object) -> None:
    """What mypy rejects (an argument against its annotation) raises TypeError, in the pure
    and the compiled build alike (the compiled one checks the types before the call)."""
    with pytest.raises(TypeError):
        call()  # type: ignore[operator]


def test_a_kai_grown_on_an_exposed_dui_is_a_group_only_under_yu() -> None:
    """R-5.13: without ``yu`` the 4th card on an exposed 对 makes no group, so a hand that
    shows one is refused by every way of building an analyzer (R-7.3's 瞟胡 cannot come of it)."""
    from erqishi.core import RuleSet

    yu = RuleSet.load('{"yu": true}')
    grown = parse_meld("叁叁叁+叁")
    assert grown.yu
    with pytest.raises(InvalidHandError, match=r"R-5\.13"):
        HandAnalyzer("二七一二三四五六八八", [grown, "肆肆肆", "伍伍伍"])
    with pytest.raises(InvalidHandError, match=r"R-5\.13"):
        HandAnalyzer.from_counts([1] + [0] * 19, [grown])
    result = HandAnalyzer("二七一二三四五六八八", [grown, "肆肆肆", "伍伍伍"], yu).evaluate(Card.X10)
    assert result.is_win and [f.value for f in result.fans] == ["瞟胡"]

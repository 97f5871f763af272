"""Hand analysis and settlement on awkward input: settlement checks (R-8, R-10), the yu 开
as a winning group (R-5.13), names accepted and wrong types refused."""

from __future__ import annotations

import pytest

from erqishi.core import (
    ErqishiError,
    InvalidHandError,
    RuleSet,
    WinContext,
    WinSource,
    analyze_hand,
    settle,
)
from erqishi.core.rules import Tiers

MIN10 = "二三四五六七七七壹贰叁陆陆陆捌玖拾"


def test_settlement_validation() -> None:
    four = RuleSet.from_options({"players": 4})
    with pytest.raises(ErqishiError, match="sits the hand out"):
        settle(10, WinSource.FLIP, 1, four)
    with pytest.raises(ErqishiError, match="only with four players"):
        settle(10, WinSource.FLIP, 1, sitting_out=0)
    with pytest.raises(ErqishiError, match="sits the hand out and cannot be the discarder"):
        settle(10, WinSource.DISCARD, 0, four, discarder=3, sitting_out=3)
    with pytest.raises(ErqishiError, match="score must be"):
        settle(-10, WinSource.FLIP, 0)
    # a wrong type is a TypeError in both builds (the compiled one checks before the call);
    # a bool is the int it stands for, as everywhere in Python
    with pytest.raises(TypeError, match=r"score must be|int"):
        settle(10.5, WinSource.FLIP, 0)  # type: ignore[arg-type]
    assert settle(True, WinSource.FLIP, 0) == settle(1, WinSource.FLIP, 0) == (2, -1, -1)


def test_yu_winning_card_onto_an_exposed_dui() -> None:
    """R-10 yu (R-5.13): the winning 五 onto the exposed 对 五五五 makes a 开 (6 hu), which
    with the pair 九九: 开 6 + 贰柒拾 6 = 12 hu, 小和 10. Without yu the 五 has no group."""
    hand = "一二三六七八壹贰叁肆伍陆贰柒拾九九"
    with_yu = analyze_hand(hand, ["五五五"], "五", rules=RuleSet.from_options({"yu": True}))
    assert (with_yu.is_win, with_yu.hu, with_yu.score) == (True, 12, 10)
    kai = [g for g in with_yu.groups if g.winning]
    assert len(kai) == 1 and kai[0].exposed and kai[0].hu == 6 and len(kai[0].cards) == 4
    assert not analyze_hand(hand, ["五五五"], "五").is_win


def test_api_takes_names_and_refuses_wrong_types() -> None:
    assert RuleSet(tiers="app").tiers is Tiers.APP  # type: ignore[arg-type]
    assert analyze_hand(MIN10, ["一一一"], "四", rules="app").score == 10
    with pytest.raises(InvalidHandError, match="win source"):
        WinContext("bogus")  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="圈 number"):
        WinContext(quan="3")  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="list of meld strings"):
        analyze_hand(MIN10, "一一一", "四")  # type: ignore[arg-type]

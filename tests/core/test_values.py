"""The value classes pickle and copy to equal values, in the pure and the compiled build
alike (``sim --workers`` and library users send them between processes), and wrong-typed
arguments to the settlement and card helpers are refused, never silently misread."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from erqishi.core import Card, HandAnalyzer, RuleSet, Size, WinContext, WinSource, analyze_hand, settle
from erqishi.core.engine import (
    Deal,
    Match,
    apply,
    legal_moves,
    new_hand,
    public_view,
    refusals,
    view,
)
from erqishi.core.hands import parse_meld
from erqishi.core.hands.scoring import tier_of

MIN10 = "二三四五六七七七壹贰叁陆陆陆捌玖拾"


def _values() -> list[object]:
    rng = random.Random(3)
    state = new_hand(Deal.shuffled(rng, 0))
    states = [state]
    while not state.is_over:
        seat, action = rng.choice(legal_moves(state))
        state = apply(state, seat, action)
        states.append(state)
    mid = states[len(states) // 2]
    win = analyze_hand(MIN10, ["一一一"], "四")
    analyzer = HandAnalyzer(MIN10, ["一一一"])
    out: list[object] = [
        mid,
        state,
        mid.seats[0],
        mid.deal,
        legal_moves(mid)[0][1],
        view(mid, 1),
        public_view(mid),
        win,
        win.groups[0],
        analyzer.candidates(Card.X4)[0],
        RuleSet.preset("app"),
        WinContext(WinSource.FLIP, quan=3),
        parse_meld("一二三"),
        tier_of(33),
        Match(RuleSet(), dealer=1, totals=(0, 0, 0)),
        *analyzer.waits(),
        *refusals(mid, mid.turn)[:1],
    ]
    if state.result is not None:
        out.append(state.result)
    return out


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_a_value_pickles_and_copies_to_an_equal_value(value: object) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value


def test_settle_refuses_a_source_that_is_no_win_source() -> None:
    """R-8: a 抬炮 pays differently from a 翻胡; a source given as text is refused rather
    than settled as something else (the compiled build refuses it at the call)."""
    with pytest.raises(TypeError):
        settle(10, "discard", 0, discarder=1)  # type: ignore[arg-type]
    assert settle(10, WinSource.DISCARD, 0, discarder=1) == (30, -30, 0)


def test_card_of_refuses_a_size_that_is_no_size() -> None:
    with pytest.raises(TypeError):
        Card.of("big", 3)  # type: ignore[arg-type]
    assert Card.of(Size.BIG, 3) is Card.D3 and Card.of(Size.SMALL, 3) is Card.X3


def test_errors_with_details_pickle_whole() -> None:
    from erqishi.core import InvalidNotationError, parse_cards
    from erqishi.records.model import RecordFieldError

    with pytest.raises(InvalidNotationError) as caught:
        parse_cards("一二q三")
    again = pickle.loads(pickle.dumps(caught.value))
    assert (type(again), str(again), again.token, again.index, again.position) == (
        InvalidNotationError,
        str(caught.value),
        "q",
        2,
        2,
    )
    field = RecordFieldError("bad score", field="hands[2].result.score", hand=2)
    back = pickle.loads(pickle.dumps(field))
    assert (str(back), back.field, back.hand, back.step) == ("bad score", "hands[2].result.score", 2, None)


def test_errors_keep_their_chinese_across_processes() -> None:
    """``ErqishiError.zh`` (the message in Chinese) survives pickling (``sim --workers``),
    for the plain errors and for those with details."""
    from erqishi.core import InvalidHandError, InvalidNotationError, parse_cards
    from erqishi.records.model import RecordFieldError

    with pytest.raises(InvalidHandError) as hand:
        HandAnalyzer("一一一一一")
    with pytest.raises(InvalidNotationError) as notation:
        parse_cards("一二q三")
    field = RecordFieldError("rules: bad", field="rules", zh="rules：有误")
    for error in (hand.value, notation.value, field):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
        assert back.zh == error.zh and back.zh, error
    assert hand.value.zh == "一 有 5 张（手牌和亮出的房合计），一副牌只有 4 张"  # four copies

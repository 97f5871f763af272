"""Actions (FORMATS.md): their notation, and that none applies once the hand is over."""

from __future__ import annotations

import pytest

from erqishi.core import Card, IllegalActionError
from erqishi.core.engine import (
    PASS,
    Action,
    apply,
)
from support.positions import position, seat_state

QUIET = "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾九"


def test_action_words_are_case_insensitive() -> None:
    assert Action.parse("CHI x7 x8 BAI x6 x7 x8") == Action.parse("chi x7 x8 bai x6 x7 x8")
    assert str(Action.parse("DISCARD D2")) == "discard d2"


def test_a_hand_cannot_go_on_after_it_ended() -> None:
    state = position(
        {0: seat_state(QUIET), 1: seat_state("一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"), 2: seat_state(QUIET)},
        pending="一",
    )
    won = apply(state, 1, Action.parse("hu"))
    with pytest.raises(IllegalActionError, match="the hand is over"):
        apply(won, 2, PASS)
    assert won.result is not None and won.result.analysis is not None
    assert won.result.analysis.win_card is Card.X1

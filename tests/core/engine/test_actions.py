"""Actions (FORMATS.md): their notation, and that none applies once the hand is over."""

from __future__ import annotations

import pytest

from erqishi.core import Card, IllegalActionError, InvalidNotationError
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


@pytest.mark.parametrize(
    ("text", "token", "index"),
    [
        ("chi x99", "x99", 1),  # tokens: chi x99
        ("chi x1 x99", "x99", 2),
        ("chi x1 x2 bai x99 x1 x2", "x99", 4),  # chi x1 x2 bai x99
        ("chi 一二 bai 三四五 bai 六七q", "q", 10),
        ("discard x99", "x99", 1),
        ("  discard   d0 ", "d0", 1),
        ("pass x1", "x1", 1),
        ("foo x1", "foo", 0),
        ("chi 一二 bai 三四五 七", "三四五 七", 4),
    ],
)
def test_a_bad_action_names_its_token_where_it_is_in_the_whole_text(text: str, token: str, index: int) -> None:
    """FORMATS.md notation: the error points into the action as written, not into a part of it."""
    with pytest.raises(InvalidNotationError) as caught:
        Action.parse(text)
    err = caught.value
    assert (err.token, err.index) == (token, index)
    assert text[err.position : err.position + len(token)] == token
    assert err.text == text
    assert f"character {err.position + 1})" in str(err)

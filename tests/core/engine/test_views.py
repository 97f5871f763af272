"""Views (R-9): each seat is offered its own options and never learns another seat's hidden
坎; the engine resolves the window (R-5.4)."""

from __future__ import annotations

import pytest

from erqishi.core import IllegalActionError
from erqishi.core.engine import (
    KAI,
    PASS,
    Action,
    resolve_responses,
    seat_options,
    view,
)
from support.positions import position, seat_state

QUIET = "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾九"


def test_views_do_not_reveal_another_seats_kan() -> None:
    """R-9: seat 2's concealed 坎 of 五 makes the 开 compulsory, but the other seats' views
    still offer them their own responses and a pass; only the table resolves (R-5.4)."""
    s1 = seat_state("四六三八九壹叁伍柒玖二一十贰肆捌拾七九壹")  # may 吃 五 with 四六
    s2 = seat_state("五五五一二三七八九十贰贰叁肆伍陆柒柒玖拾")
    state = position({0: seat_state(QUIET), 1: s1, 2: s2}, turn=1, pending="五", flip=True)
    assert PASS in view(state, 0).legal
    assert Action.parse("chi x4 x6") in view(state, 1).legal and PASS in view(state, 1).legal
    assert view(state, 2).legal == (KAI,)
    assert seat_options(state, 1) == view(state, 1).legal
    # everybody else passing: the compulsory 开 is the effective move
    with pytest.raises(IllegalActionError, match="owes a 开"):
        resolve_responses(state, {0: PASS, 1: PASS})
    assert resolve_responses(state, {0: PASS, 1: Action.parse("chi x4 x6"), 2: KAI}) == (2, KAI)
    calm = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, turn=1, pending="五", flip=True)
    assert resolve_responses(calm, {0: PASS, 1: PASS, 2: PASS}) == (1, PASS)
    assert resolve_responses(calm, {1: Action.parse("chi x4 x6")}) == (1, Action.parse("chi x4 x6"))
    with pytest.raises(IllegalActionError, match="may not declare"):
        resolve_responses(calm, {0: Action.parse("chi x4 x6")})

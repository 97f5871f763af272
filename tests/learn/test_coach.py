"""The coach (erqishi.learn.coach): notes on moves the strongest play rates clearly worse,
from the player's own view only (R-9). The positions are built by hand and each note's
reason is worked from RULES.md."""

from __future__ import annotations

import random

import pytest

from erqishi.core.engine import HU, PASS, Action, Deal, apply, new_hand, view
from erqishi.core.errors import ErqishiError
from erqishi.learn import Position, SeatSpec
from erqishi.learn.coach import coach
from erqishi.play.step import asked, resolve

#: five groups of 12 hu (二七十 3, 贰柒拾 6, 坎 三三三 3, 四五六, 八九十)
GROUPS = "二七十贰柒拾三三三四五六八九十"


def at(pos: Position, seat: int = 1) -> object:
    return view(pos.state(), seat)


def test_a_win_let_go_r6_2() -> None:
    v = view(Position(seats={1: SeatSpec(hand=GROUPS + "壹贰叁伍陆")}, pending="肆").state(), 1)
    assert HU in v.legal
    note = coach(v, PASS)
    assert note is not None and note.reason == "missed_hu" and note.better == HU and "过胡" in note.text.zh
    assert coach(v, HU) is None


def test_a_pass_that_kept_the_hand_from_waiting_r6_1() -> None:
    """Holding 壹贰 with 伍陆 and a loose 捌: 吃 叁 with 壹贰 and discard 捌 leaves 伍陆 waiting
    on 肆/柒 (seven groups, 12 hu; discarding 伍 would wait on 柒 alone, fewer copies);
    passing keeps the hand two cards short."""
    v = view(Position(seats={1: SeatSpec(hand=GROUPS + "壹贰伍陆捌")}, pending="叁").state(), 1)
    note = coach(v, PASS)
    assert note is not None and note.reason == "passed_wait"
    assert note.better == Action.parse("chi d1 d2")
    assert "捌" in note.text.zh and "肆" in note.text.zh and "柒" in note.text.zh
    assert coach(v, Action.parse("chi d1 d2")) is None


def test_a_discard_that_loses_the_wait_r6_1() -> None:
    """21 cards owing a discard: 一 is loose (throwing it leaves 伍陆 waiting on 肆/柒); after
    伍 the hand holds 陆 and 一, which wait on nothing."""
    pos = Position(seats={1: SeatSpec(hand=GROUPS + "壹贰叁伍陆一")}, phase="discard", turn=1)
    v = view(pos.state(), 1)
    note = coach(v, Action.parse("discard d5"))
    assert note is not None and note.reason == "leaves_wait" and note.better == Action.parse("discard x1")
    assert "肆" in note.text.zh and "柒" in note.text.zh
    assert coach(v, Action.parse("discard x1")) is None


def test_breaking_a_held_erqishi_r3() -> None:
    """贰柒拾 (6 hu) held beside loose cards that make nothing: throwing 柒 is clearly worse."""
    pos = Position(
        seats={1: SeatSpec(hand="贰柒拾一四九壹肆玖三三三六六六八八八五五五")}, phase="discard", turn=1
    )
    v = view(pos.state(), 1)
    note = coach(v, Action.parse("discard d7"))
    assert note is not None and note.reason == "breaks_ejs"
    assert note.better.cards[0] not in v.hand or str(note.better.cards[0]) not in "贰柒拾"


def test_only_the_view_and_only_legal_moves() -> None:
    v = view(Position(seats={1: SeatSpec(hand=GROUPS + "壹贰叁伍陆")}, pending="肆").state(), 1)
    with pytest.raises(ErqishiError):
        coach(v, Action.parse("dui"))


def test_the_same_view_gives_the_same_note_whatever_is_hidden() -> None:
    """Over random hands: two states that differ only in the other seats' hidden cards and
    the stock give the same view, hence the same note (R-9); and the notes repeat."""
    seen: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = new_hand(Deal.shuffled(rng, dealer=0))
        while not state.is_over:
            decl = {}
            for seat in asked(state):
                v = view(state, seat)
                action = rng.choice(v.legal)
                note = coach(v, action)
                again = coach(view(state, seat), action)
                assert note == again
                if note is not None:
                    seen.add(note.reason)
                decl[seat] = action
            state = apply(state, *resolve(state, decl))
    assert {"further", "leaves_wait"} <= seen

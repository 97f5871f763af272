"""Explained refusals (``refusals``): what a seat may reach for that the engine refuses,
each with the rule, in hand-built positions (R-3.1, R-5.9, R-5.10, R-5.14, R-6.2), and
on random hands: a refusal is never one of the seat's options and never depends on
another seat's hidden cards (R-9)."""

from __future__ import annotations

import random

import pytest

from erqishi.core import Card, RuleSet
from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Deal,
    Phase,
    apply,
    legal_moves,
    new_hand,
    refusals,
    seat_options,
    why_illegal,
)
from support.positions import position, seat_state

A = Action.parse
#: wins on a discarded 一 (as in test_rules.py)
WINS_ON_X1 = "一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"
#: no pair, no win; holds 二 and 三, which make a 吃 group with 一
QUIET = "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾"
#: no pair of 一 or 二, no partners of 一
FAR = "五七九壹叁伍柒玖四六八十贰肆陆捌拾七九拾"


def _reasons(state: object, seat: int) -> list[tuple[str, str | None]]:
    return [(r.reason, None if r.card is None else r.card.ascii) for r in refusals(state, seat)]  # type: ignore[arg-type]


def test_a_locked_kan_cannot_be_discarded_r3_1() -> None:
    """Owing a discard with 三三三 in the hand: the three 三 are refused as a locked 坎."""
    me = seat_state("三三三五七九壹叁伍柒玖四六八十贰肆陆捌拾一")
    state = position({0: me, 1: seat_state(FAR), 2: seat_state(FAR)}, phase=Phase.DISCARD, turn=0)
    assert _reasons(state, 0) == [("locked", "x3")]
    assert refusals(state, 1) == ()  # seat 1 has nothing to decide


def test_shangtu_xiaxie_is_named_r5_10() -> None:
    """Holding 三四五, taking 二 with 三四: 五 would make 二三四五's group again (上吐下泻)."""
    s1 = seat_state("三四五七九壹叁伍柒玖一六八十贰肆陆捌拾九")
    state = position({0: seat_state(FAR), 1: s1, 2: seat_state(FAR)}, pending="二")
    took = apply(state, 1, A("chi x3 x4"))
    assert _reasons(took, 1) == [("shangtu_xiaxie", "x5")]


def test_huilong_bars_the_win_and_the_chi_r6_2_r5_9() -> None:
    """WINS_ON_X1 wins on a discarded 一, but the seat discarded 一 earlier: 回笼 bars the
    胡 and R-5.9 the 吃 of 一 with 二三; the 对 stays offered."""
    s1 = seat_state(WINS_ON_X1, discarded="一")
    state = position({0: seat_state(FAR), 1: s1, 2: seat_state(FAR)}, pending="一")
    got = refusals(state, 1)
    assert [(r.reason, r.rule) for r in got] == [("huilong", "R-6.2"), ("discarded", "R-5.9")]
    assert all(r.card == Card.X1 for r in got)


def test_guohu_is_named_after_a_declined_win_r6_2() -> None:
    state = position({0: seat_state(FAR), 1: seat_state(WINS_ON_X1), 2: seat_state(FAR)}, pending="一")
    passed = apply(state, 0, PASS)
    again = position({0: seat_state(FAR), 1: passed.seats[1], 2: seat_state(FAR)}, pending="一")
    reasons = [r.reason for r in refusals(again, 1)]
    assert reasons[0] == "guohu"
    assert "R-6.2 过胡" in refusals(again, 1)[0].message


def test_guozhang_and_who_may_chi_r5_9_r5_2() -> None:
    """Seat 1 (下家 of the discarder) declined 一 before: 过张. Seat 2 holds 二三 too, but
    only the discarder's 下家 may 吃 a discard."""
    s1 = seat_state(QUIET, guozhang="一")
    state = position({0: seat_state(FAR), 1: s1, 2: seat_state(QUIET)}, pending="一")
    assert [r.reason for r in refusals(state, 1)] == ["guozhang"]
    assert [(r.reason, r.rule) for r in refusals(state, 2)] == [("not_chi_seat", "R-5.2")]


def test_locked_cards_in_a_chi_r3_1() -> None:
    """一一一 in the hand and 一 pending: the 开 is owed (R-5.12), so no 吃 is listed as refused
    (the seat could not choose one). With 二二二三 a 吃 with 二三 is refused: 二 is locked."""
    kan = seat_state("一一一二三五七九壹叁伍柒玖四六八十贰肆陆")
    state = position({0: seat_state(FAR), 1: kan, 2: seat_state(FAR)}, pending="一")
    assert ActionKind.KAI in {a.kind for a in seat_options(state, 1)}
    assert refusals(state, 1) == ()
    partner = seat_state("二二二三五七九壹叁伍柒玖四六八十贰肆陆捌")
    state = position({0: seat_state(FAR), 1: partner, 2: seat_state(FAR)}, pending="一")
    assert [(r.reason, r.card) for r in refusals(state, 1)] == [("locked_partner", Card.X2)]


def test_no_take_without_a_discard_after_r5_14() -> None:
    """Every other card locked: 吃 一 with 二三 and 对 二 would leave no legal discard."""
    chi_hand = seat_state("二三四四四五五五六六六八八八九九九十十十")
    state = position({0: seat_state(FAR), 1: chi_hand, 2: seat_state(FAR)}, pending="一")
    assert [(r.reason, r.rule) for r in refusals(state, 1)] == [("chi_no_discard", "R-5.14")]
    dui_hand = seat_state("二二四四四五五五六六六八八八九九九十十十")
    state = position({0: seat_state(FAR), 1: seat_state(FAR), 2: dui_hand}, pending="二")
    assert [(r.reason, r.rule) for r in refusals(state, 2)] == [("no_discard_after", "R-5.14")]


def test_a_held_copy_that_cannot_be_laid_as_bai_r5_8() -> None:
    """R-5.8's own example: holding 一 二 三 七 and nothing else that fits 一, taking 一 with
    二三 is refused because the held 一 cannot go down as 摆 (not for want of a discard)."""
    hand = seat_state("一二三七九九十十贰叁肆伍陆柒捌玖拾拾五六")
    state = position({0: seat_state(FAR), 1: hand, 2: seat_state(FAR)}, pending="一")
    assert [(r.reason, r.rule, r.card) for r in refusals(state, 1)] == [("bai_impossible", "R-5.8", Card.X1)]


def test_the_discarder_and_a_quiet_seat_have_none() -> None:
    state = position({0: seat_state(QUIET), 1: seat_state(FAR), 2: seat_state(FAR)}, pending="一")
    assert refusals(state, 0) == ()  # its own discard
    assert refusals(state, 2) == ()  # no pair, no partners, no win


def _hide(state: object, seat: int, rng: random.Random) -> object:
    """The same state with the other seats' hands shuffled among themselves (same sizes)."""
    from dataclasses import replace

    from erqishi.core.engine import State

    assert isinstance(state, State)
    others = [s for s in state.order if s != seat]
    pool: list[int] = []
    for s in others:
        for c, n in enumerate(state.seats[s].hand):
            pool += [c] * n
    rng.shuffle(pool)
    seats = list(state.seats)
    for s in others:
        k = sum(seats[s].hand)
        counts = [0] * 20
        for c in pool[:k]:
            counts[c] += 1
        pool = pool[k:]
        seats[s] = replace(seats[s], hand=tuple(counts), quads=sum(1 for n in counts if n == 4))
    return replace(state, seats=tuple(seats))


@pytest.mark.parametrize("preset", ["leshan", "duikou", "jianwei"])
def test_random_hands_refusals_are_refused_and_private(preset: str) -> None:
    """Over random hands: every refused action is outside the seat's options, every held
    card the seat may not discard has one refusal, and the refusals stay the same when the
    other seats' hidden hands are changed (R-9)."""
    rules = RuleSet.preset(preset)
    rng = random.Random(7)
    seen: set[str] = set()
    for hand_no in range(40):
        state = new_hand(Deal.shuffled(rng, hand_no % rules.players, rules), rules)
        while not state.is_over:
            for seat in state.order:
                got = refusals(state, seat)
                options = seat_options(state, seat)
                for r in got:
                    seen.add(r.reason)
                    assert r.card is not None
                owes = state.phase is not Phase.RESPONSE and seat == state.turn
                if owes:
                    held = {Card(c) for c, n in enumerate(state.seats[seat].hand) if n}
                    offered = {a.cards[0] for a in options if a.kind is ActionKind.DISCARD}
                    if offered:
                        assert {r.card for r in got} == held - offered
                if got and state.phase is Phase.RESPONSE and seat != state.turn:
                    assert _reasons(_hide(state, seat, rng), seat) == _reasons(state, seat)
            seat, action = rng.choice(legal_moves(state))
            state = apply(state, seat, action)
    assert {"locked", "not_chi_seat", "shangtu_xiaxie", "guozhang"} <= seen, seen


def test_every_refusal_message_names_its_rule() -> None:
    """FORMATS.md (verify): the message of an illegal step carries its R-id. Every
    action a seat might try on random hands, legal or not, by every seat and by a seat
    that does not exist: the refusal's message holds the refusal's own rule."""
    rng = random.Random(11)
    tries = [PASS, A("dui"), A("kai"), A("hu"), *(Action.discard(c) for c in Card), A("chi x1 x2"), A("chi x7 x8")]
    seen_rules: set[str] = set()
    for dealer in range(12):
        state = new_hand(Deal.shuffled(rng, dealer % 3))
        while not state.is_over:
            for seat in (-1, 0, 1, 2, 3):
                for action in tries:
                    refusal = why_illegal(state, seat, action)
                    seen_rules.add(refusal.rule)
                    assert refusal.rule in refusal.message, (refusal.rule, refusal.message)
            moves = legal_moves(state)
            state = apply(state, *moves[rng.randrange(len(moves))])
    assert {"R-2.1", "R-5.2", "R-5.14", "R-3.1"} <= seen_rules

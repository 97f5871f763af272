"""The engine against RULES.md R-4 to R-6, one position or short hand per rule. Every
expectation is worked out by hand from the rules; positions are built in
``positions.py``."""

from __future__ import annotations

import random

import pytest

from erqishi.core import Card, IllegalActionError, RuleSet, WinSource
from erqishi.core.engine import (
    DUI,
    HU,
    KAI,
    PASS,
    Action,
    Match,
    Outcome,
    Phase,
    apply,
    legal_actions,
    legal_moves,
    new_hand,
)
from support.positions import deal_with, position, seat_state

A = Action.parse
#: A non-dealer's 20 dealt cards that win on 一: 对 一 (1) + 坎 七 (3) + 坎 陆 (6) = 10 hu.
WINS_ON_X1 = "一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"
#: 20 cards with nothing useful for the tests around them (no pairs, 坎 or runs of note).
QUIET = "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾"


# --- hand size, quads, 八块 ----------------------------------------------------


def test_r4_1_first_kai_owes_a_discard() -> None:
    """R-4.1: 20 cards, a 坎 of 伍 takes the 4th: 21 > 20 + max(0, 1 - 1): discard owed."""
    s1 = seat_state("一二三四六七八九十伍伍伍壹贰叁肆陆柒捌玖")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, turn=0, pending="伍")
    after = apply(state, 1, KAI)
    assert (after.phase, after.turn, after.seats[1].quads, after.seats[1].announced) == (Phase.DISCARD, 1, 1, 0)


def test_r4_1_r4_2_second_kai_keeps_the_card_and_announces_8() -> None:
    """R-4.1, R-4.2: with a 开 on the table a second 开 makes 21 = 20 + (2 - 1) cards: no
    discard; 八块 is announced and the taker's 下家 flips (R-5.5)."""
    s1 = seat_state("一二三四六七八九十伍伍伍壹贰叁肆", ("五五五五",))
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, turn=0, pending="伍", stock="x9 x8")
    after = apply(state, 1, KAI)
    assert after.seats[1].announced == 8 and after.seats[1].card_count == 21
    assert (after.phase, after.turn, after.pending, after.pending_flip) == (Phase.RESPONSE, 2, Card.X9, True)


def test_r4_3_dealer_with_two_gun_makes_no_opening_discard() -> None:
    """R-4.3, R-5.1: the dealer dealt 一一一一 and 二二二二 announces 八块, makes no
    discard, and the dealer's 下家 flips; that first flip carries 地胡 (R-6.3)."""
    deal = deal_with(0, {0: "一一一一二二二二三四五六七八九十壹贰叁肆伍"}, stock_top="x10")
    state = new_hand(deal)
    assert state.seats[0].announced == 8
    assert (state.phase, state.turn, state.pending, state.pending_flip, state.di_window) == (
        Phase.RESPONSE,
        1,
        Card.X10,
        True,
        True,
    )


def test_r4_3_non_dealer_with_two_gun_keeps_the_card_at_the_next_take() -> None:
    """R-4.3 via R-4.1: 20 cards with two 滚 may hold 21: after 对 no discard is owed."""
    s2 = seat_state("一一一一二二二二五五七八九壹贰叁肆伍陆柒")
    state = position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: s2}, turn=0, pending="五")
    after = apply(state, 2, DUI)
    assert after.seats[2].announced == 8 and after.phase is Phase.RESPONSE and after.turn == 0


# --- the opening -------------------------------------------------------------


def test_r5_1_the_dealer_opens_and_nobody_else() -> None:
    deal = deal_with(0, {0: "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾一"})
    state = new_hand(deal)
    assert legal_actions(state, 1) == () and legal_actions(state, 2) == ()
    assert A("discard x1") in legal_actions(state, 0) and HU not in legal_actions(state, 0)
    with pytest.raises(IllegalActionError, match=r"R-5\.1"):
        apply(state, 1, A("discard x1"))


def test_r5_1_dealer_with_every_card_in_a_kan_must_declare_tianhu() -> None:
    """R-5.1: seven 坎 leave no legal discard: only 天胡 is offered."""
    deal = deal_with(0, {0: "一一一二二二三三三四四四五五五六六六七七七"})
    state = new_hand(deal)
    assert legal_actions(state, 0) == (HU,)
    over = apply(state, 0, HU)
    assert over.result is not None and over.result.source is WinSource.TIAN


# --- who may take a discard or a flip ------------------------------------


def test_r5_2_only_the_xiajia_may_chi_a_discard() -> None:
    """Both others hold 二三 for a discarded 一; only seat 1, the 下家 of seat 0, may 吃."""
    hand = "二三五七九壹叁伍柒玖四六八十贰肆陆捌拾九"
    state = position({0: seat_state(QUIET), 1: seat_state(hand), 2: seat_state(hand)}, turn=0, pending="一")
    assert A("chi x2 x3") in legal_actions(state, 1)
    assert legal_actions(state, 2) == (PASS,)
    with pytest.raises(IllegalActionError, match=r"R-5\.2"):
        apply(state, 2, A("chi x2 x3"))
    after = apply(state, 0, PASS)  # nobody takes it: it stays in seat 0's row, seat 1 flips
    assert after.seats[0].row == (Card.X1,) and (after.turn, after.pending_flip) == (1, True)
    # 对抠 and other tables with discard_chi none: no 吃 of a discard at all
    none = RuleSet.from_options({"discard_chi": "none"})
    state = position({0: seat_state(QUIET), 1: seat_state(hand), 2: seat_state(hand)}, pending="一", rules=none)
    assert legal_actions(state, 1) == (PASS,)


def test_r5_3_a_flip_can_be_chi_by_the_flipper_then_its_xiajia() -> None:
    hand = "二三五七九壹叁伍柒玖四六八十贰肆陆捌拾九"
    seats = {0: seat_state(hand), 1: seat_state(hand), 2: seat_state(hand)}
    state = position(seats, turn=1, pending="一", flip=True)
    assert A("chi x2 x3") in legal_actions(state, 1)  # the flipper
    assert A("chi x2 x3") in legal_actions(state, 2)  # the flipper's 下家
    assert legal_actions(state, 0) == (PASS,)
    # the 下家's 吃 outranks nothing: taking it means the flipper declined its own (R-5.9)
    after = apply(state, 2, A("chi x2 x3"))
    assert after.seats[1].guozhang & (1 << Card.X1)
    only = RuleSet.from_options({"flip_chi": "flipper_only"})
    state = position(seats, turn=1, pending="一", flip=True, rules=only)
    assert legal_actions(state, 2) == (PASS,)
    passed = apply(position(seats, turn=1, pending="一", flip=True), 1, PASS)
    assert passed.seats[1].row == (Card.X1,) and passed.turn == 2  # the flipper's row; 下家 flips


# --- priority -------------------------------------------------------------------


def test_r5_4_a_win_outranks_a_compulsory_kai() -> None:
    """Seat 1 holds the 四 坎 and must 开 the discarded 四 unless someone wins; seat 2 wins
    on it (二三四 + 八九十 + 坎 七 3 + 坎 陆 6 + 壹贰叁 + 捌玖拾 + 坎 伍 6 = 15 hu, 中和 20).
    胡 > 开, so the win is legal; a pass is not (R-5.12)."""
    s1 = seat_state("四四四一一五五六九十肆柒玖壹叁二八捌拾贰")
    s2 = seat_state("二三八九十七七七陆陆陆壹贰叁捌玖拾伍伍伍")
    state = position({0: seat_state(QUIET), 1: s1, 2: s2}, turn=0, pending="四")
    assert legal_actions(state, 1) == (KAI,)
    assert legal_actions(state, 2) == (HU,)
    assert PASS not in legal_actions(state, 0)
    won = apply(state, 2, HU)
    assert won.result is not None and won.result.winner == 2 and won.result.payments == (-60, 0, 60)


def test_r5_4_dui_outranks_chi() -> None:
    """Seat 1 (下家) could 吃 二; seat 2 holds 二二 and may 对 it first: either is legal alone;
    a 对 by seat 2 leaves seat 1's 吃 never offered, so no 过张 (R-5.9)."""
    s1 = seat_state("一三五七九壹叁伍柒玖四六八十贰肆陆捌拾九")
    s2 = seat_state("二二五七九壹叁伍柒玖四六八十贰肆陆捌拾九")
    state = position({0: seat_state(QUIET), 1: s1, 2: s2}, turn=0, pending="二")
    assert A("chi x1 x3") in legal_actions(state, 1) and DUI in legal_actions(state, 2)
    after = apply(state, 2, DUI)
    assert after.seats[1].guozhang == 0 and (after.phase, after.turn) == (Phase.DISCARD, 2)


# --- turn flow and the dead hand -------------------------------------------


def test_r5_5_after_a_take_the_taker_discards_then_its_xiajia_flips() -> None:
    hand = "二三五七九壹叁伍柒玖四六八十贰肆陆捌拾九"
    state = position({0: seat_state(QUIET), 1: seat_state(hand), 2: seat_state(QUIET)}, pending="一", stock="d9")
    took = apply(state, 1, A("chi x2 x3"))
    assert (took.phase, took.turn) == (Phase.DISCARD, 1)
    assert A("discard x4") not in legal_actions(took, 1)  # 上吐下泻: 二三四
    discarded = apply(took, 1, A("discard x9"))
    passed = apply(discarded, 1, PASS)
    assert (passed.turn, passed.pending, passed.pending_flip) == (2, Card.D9, True)


def test_r5_6_dead_hand_when_a_flip_is_due_on_an_empty_stock() -> None:
    """The last discard can still be taken or won; untaken, the hand is dead: no payment."""
    s1 = seat_state(WINS_ON_X1)
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="一", stock="")
    assert HU in legal_actions(state, 1)
    dead = apply(state, 0, PASS)
    assert dead.is_over and dead.result == Outcome("dead", (0, 0, 0))
    assert legal_moves(dead) == ()


# --- 吃 ----------------------------------------------------------------


def test_r5_7_chi_groups_and_locked_cards() -> None:
    """Runs, 二七十 and 花吃 are 吃 groups; cards of a 坎 may not be used (R-3.1)."""
    s1 = seat_state("六陆陆七八五五五十贰肆捌拾一三九壹叁伍柒")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="六")
    acts = set(legal_actions(state, 1))
    # 六七八 or 六陆陆 leave the held 六 to be laid as 摆; 六六陆 uses it
    assert {A("chi x7 x8 bai x6 d6 d6"), A("chi d6 d6 bai x6 x7 x8"), A("chi x6 d6")} <= acts
    assert A("chi x7 x8") not in acts
    assert A("chi x5 x7") not in acts and A("chi x4 x5") not in acts  # 五 is a locked 坎
    s1b = seat_state("七十三五七九壹叁伍柒玖四六八贰肆陆捌拾九")
    state = position({0: seat_state(QUIET), 1: s1b, 2: seat_state(QUIET)}, pending="二")
    assert A("chi x7 x10") in legal_actions(state, 1)  # 二七十


def test_r5_8_bai_lays_every_held_copy() -> None:
    """R-5.8 examples: holding 一二二三三, taking 一 with 二三 obliges 一二三 laid too;
    holding 一二三七 and nothing else that fits 一, taking 一 with 二三 is refused."""
    s1 = seat_state("一二二三三五七九壹叁伍柒玖六八贰肆陆捌拾")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="一")
    acts = legal_actions(state, 1)
    assert A("chi x2 x3 bai x1 x2 x3") in acts and A("chi x2 x3") not in acts
    s1 = seat_state("一二三七九壹叁伍柒玖五六八贰肆陆捌拾十四")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="一")
    acts = legal_actions(state, 1)
    assert not [a for a in acts if a.kind.value == "chi" and a.cards == (Card.X2, Card.X3)]
    with pytest.raises(IllegalActionError, match=r"R-5\.8"):
        apply(state, 1, A("chi x2 x3"))


def test_r5_9_guozhang_after_declining_and_after_discarding() -> None:
    hand = "二三五七九壹叁伍柒玖四六八十贰肆陆捌拾九"
    state = position({0: seat_state(QUIET), 1: seat_state(hand), 2: seat_state(QUIET)}, pending="一")
    passed = apply(state, 0, PASS)  # seat 1 declined 吃 一
    assert passed.seats[1].guozhang == 1 << Card.X1
    later = position({0: seat_state(QUIET), 1: passed.seats[1], 2: seat_state(QUIET)}, pending="一")
    assert legal_actions(later, 1) == (PASS,)
    with pytest.raises(IllegalActionError, match=r"R-5\.9"):
        apply(later, 1, A("chi x2 x3"))
    own = position({0: seat_state(QUIET), 1: seat_state(hand, discarded="一"), 2: seat_state(QUIET)}, pending="一")
    assert legal_actions(own, 1) == (PASS,)
    # 过张 never restricts 对
    pair = seat_state("一一三五七九壹叁伍柒玖四六八十贰肆陆捌拾", guozhang="一")
    state = position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: pair}, pending="一")
    assert DUI in legal_actions(state, 2)


def test_r5_10_shangtu_xiaxie() -> None:
    """Holding 三四五, taking 二 with 三四: 五 may not follow (二三四五); nor may 二."""
    s1 = seat_state("三四五七九壹叁伍柒玖一六八十贰肆陆捌拾九")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="二")
    took = apply(state, 1, A("chi x3 x4"))
    acts = legal_actions(took, 1)
    assert A("discard x5") not in acts and A("discard x1") in acts
    with pytest.raises(IllegalActionError, match=r"R-5\.10"):
        apply(took, 1, A("discard x5"))


# --- 对, 开, discards -------------------------------------------------


def test_r5_11_dui_is_optional() -> None:
    pair = seat_state("一一三五七九壹叁伍柒玖四六八十贰肆陆捌拾")
    state = position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: pair}, pending="一")
    assert set(legal_actions(state, 2)) == {DUI, PASS}


def test_r5_12_kai_is_compulsory_but_a_win_may_replace_it() -> None:
    """The 陆 坎 with the discarded 陆 wins (开 9 + 坎 九 3 + 贰柒拾 6 = 18, pair 八八);
    the seat may win or 开, never pass."""
    s1 = seat_state("二三四五六七八八九九九贰叁肆伍陆陆陆柒拾")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="陆")
    assert legal_actions(state, 1) == (HU, KAI)
    assert PASS not in legal_actions(state, 0)
    with pytest.raises(IllegalActionError, match=r"R-5\.12"):
        apply(state, 2, PASS)


def test_r5_13_yu_option() -> None:
    """A 4th card onto an exposed 对 is no group by default; with yu it is an optional 开."""
    s2 = seat_state("一三七九壹叁伍柒玖四六八十贰肆陆捌", ("五五五",))
    state = position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: s2}, pending="五")
    assert KAI not in legal_actions(state, 2)
    yu = RuleSet.from_options({"yu": True})
    state = position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: s2}, pending="五", rules=yu)
    assert set(legal_actions(state, 2)) == {KAI, PASS}
    after = apply(state, 2, KAI)
    assert [len(g.cards) for g in after.seats[2].melds] == [4]


def test_r5_14_no_take_without_a_legal_discard_after() -> None:
    """Every other card in a 坎: after 吃 一 with 二三, or 对 二, no discard would be legal."""
    chi_hand = seat_state("二三四四四五五五六六六八八八九九九十十十")
    state = position({0: seat_state(QUIET), 1: chi_hand, 2: seat_state(QUIET)}, pending="一")
    assert not [a for a in legal_actions(state, 1) if a.kind.value == "chi"]
    dui_hand = seat_state("二二四四四五五五六六六八八八九九九十十十")
    state = position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: dui_hand}, pending="二")
    assert DUI not in legal_actions(state, 2)


# --- R-6 winning --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flip", "turn", "source", "payments"),
    [
        (False, 0, WinSource.DISCARD, (-30, 30, 0)),  # 抬炮: the discarder pays 3 x 10
        (True, 2, WinSource.FLIP, (-10, 20, -10)),  # 翻胡: each other pays 10
        (True, 1, WinSource.OWN_FLIP, (-10, 20, -10)),  # 自摸
    ],
)
def test_r6_1_r6_4_wins_and_their_sources(flip: bool, turn: int, source: WinSource, payments: tuple[int, ...]) -> None:
    state = position(
        {0: seat_state(QUIET), 1: seat_state(WINS_ON_X1), 2: seat_state(QUIET)}, pending="一", flip=flip, turn=turn
    )
    won = apply(state, 1, HU)
    assert won.result is not None
    assert (won.result.source, won.result.payments) == (source, payments)
    assert won.result.analysis is not None and won.result.analysis.hu == 10


def test_r6_2_huilong() -> None:
    """No win on an identity the seat discarded earlier (回笼)."""
    s1 = seat_state(WINS_ON_X1, discarded="一")
    state = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, pending="一")
    assert HU not in legal_actions(state, 1)
    with pytest.raises(IllegalActionError, match=r"R-6\.2 回笼"):
        apply(state, 1, HU)


def test_r6_2_guohu_until_the_next_take() -> None:
    """Declining a win of 10 bars wins of 10 or less until the next take; a bigger one is allowed."""
    state = position({0: seat_state(QUIET), 1: seat_state(WINS_ON_X1), 2: seat_state(QUIET)}, pending="一")
    passed = apply(state, 0, PASS)
    assert passed.seats[1].guohu == 10
    again = position({0: seat_state(QUIET), 1: passed.seats[1], 2: seat_state(QUIET)}, pending="一")
    assert HU not in legal_actions(again, 1)
    with pytest.raises(IllegalActionError, match=r"R-6\.2 过胡"):
        apply(again, 1, HU)
    bigger = position({0: seat_state(QUIET), 1: passed.seats[1], 2: seat_state(QUIET)}, pending="一", di=True)
    assert HU in legal_actions(bigger, 1)  # 地胡 doubles it to 20 > 10
    taken = apply(
        position({0: seat_state(QUIET), 1: seat_state(QUIET), 2: passed.seats[1]}, pending="四", turn=0),
        2,
        DUI,
    )
    assert taken.seats[2].guohu == -1


def test_r6_3_dihu_on_the_opening_discard_and_declined_tianhu() -> None:
    deal = deal_with(0, {0: "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾二", 1: WINS_ON_X1})
    state = apply(new_hand(deal), 0, A("discard x1"))
    assert HU in legal_actions(state, 1)
    won = apply(state, 1, HU)
    assert won.result is not None and won.result.analysis is not None
    assert won.result.analysis.fan_names == ["地胡"] and won.result.payments == (-60, 60, 0)
    # a dealer who could declare 天胡 and discards instead has declined a win
    tian = deal_with(0, {0: "二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾"})
    state = new_hand(tian)
    assert HU in legal_actions(state, 0)
    assert apply(state, 0, A("discard x2")).seats[0].guohu == 20


# --- matches -------------------------------------------------------------


def test_match_dealer_rotation_quan_and_totals() -> None:
    match = Match(RuleSet.from_options({"match_quan": 2}), dealer=1, totals=(0, 0, 0))
    win = Outcome("win", (-20, 40, -20), winner=1)
    dead = Outcome("dead", (0, 0, 0))
    m = match.after(win)
    assert (m.dealer, m.quan, m.totals) == (2, 1, (-20, 40, -20))  # the deal passes to the 下家
    m = m.after(dead).after(dead)
    assert (m.dealer, m.quan) == (1, 2)  # every seat dealt once: 圈 2 begins
    m = m.after(dead).after(dead).after(dead)
    assert m.is_over and m.hands_played == 6 and m.leaders == (1,)
    with pytest.raises(ValueError, match="over"):
        m.after(dead)
    winner = Match(RuleSet.from_options({"dealer": "winner", "match_quan": 1}), dealer=0, totals=(0, 0, 0))
    m = winner.after(win)
    assert m.dealer == 1 and m.quan == 1  # the winner deals; 圈 goes on until all have dealt
    assert m.after(win).dealer == 1 and m.after(dead).dealer == 2
    assert Match.start(random.Random(3)).quan_card_number == 1


@pytest.mark.parametrize("stock_size", [0, 2, 18, 20])
def test_r2_3_a_stock_of_the_wrong_size_is_named_as_such(stock_size: int) -> None:
    """R-2.3: with 21 + 20 + 20 dealt, the stock holds the other 19 cards; a stock of another
    size is refused with that said, not as a card count somewhere in the deck."""
    from erqishi.core import InvalidHandError
    from erqishi.core.engine import Deal

    deal = Deal.shuffled(random.Random(3), 0)
    spare = [*deal.stock, deal.stock[0]]  # one card too many at most
    bad = Deal(deal.dealer, deal.hands, tuple(spare[:stock_size]))
    with pytest.raises(InvalidHandError, match=f"the stock must hold 19 cards .*not {stock_size}"):
        bad.validate()


class _OwnShuffle(random.Random):
    """A generator with a shuffle of its own (the deal must use it)."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()


def test_a_shuffled_deal_is_the_generators_shuffle() -> None:
    """R-2.3: ``Deal.shuffled`` deals the deck in the order ``random.Random.shuffle`` puts it
    (so a seed gives the same deal in every version and build), leaves the generator as
    that shuffle does, and uses a generator's own shuffle when it has one."""
    from erqishi.core.engine import Deal, active_seats

    for seed in range(200):
        dealer = seed % 3
        deck = [Card(v) for v in range(20) for _ in range(4)]
        rng = random.Random(seed)
        rng.shuffle(deck)
        mine = random.Random(seed)
        deal = Deal.shuffled(mine, dealer)
        seats = active_seats(dealer, 3)
        order = [s for s in seats if s >= dealer] + [s for s in seats if s < dealer]
        pos = 0
        for seat in order:
            size = 21 if seat == dealer else 20
            assert deal.hands[seat] == tuple(sorted(deck[pos : pos + size]))
            pos += size
        assert deal.stock == tuple(deck[pos:])
        assert mine.random() == rng.random()
    own = Deal.shuffled(_OwnShuffle(1), 0)
    assert own.stock == tuple(Card(v) for v in range(20) for _ in range(4))[::-1][61:]

"""The one story of a hand (:mod:`erqishi.play.events`): which public events each move
brings (R-4.2, R-5, R-6), numbered by step, never a concealed card or a seat's pass (R-9);
and the same story from a live table and from its record's replay."""

from __future__ import annotations

import json
import random

import pytest

from erqishi.bots import make_bot
from erqishi.core import Card, RuleSet
from erqishi.core.engine import HU, KAI, PASS, Action, ActionKind, Deal, Phase, apply, new_hand
from erqishi.core.hands import WinSource
from erqishi.play import Table, play_hand, random_chooser, table_chooser
from erqishi.play.events import (
    Announced,
    DeadHand,
    Dealt,
    Discarded,
    Flipped,
    Passed,
    Scored,
    Took,
    Won,
    opening_events,
    step_events,
)
from erqishi.play.replay import replay
from support.positions import position, seat_state


def test_a_discard_then_nobody_takes_it_then_a_flip() -> None:
    """R-5.2: seat 0 discards 九; nobody takes it: it is told as passed and seat 1 flips."""
    state = position(
        {0: seat_state("一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾"), 1: seat_state("壹壹"), 2: seat_state("")},
        phase=Phase.DISCARD,
        turn=0,
        stock="d5 x1",
    )
    after = apply(state, 0, Action.parse("discard x9"))
    assert step_events(state, 0, Action.parse("discard x9"), after) == [Discarded(state.steps + 1, 0, Card.X9)]
    passed = apply(after, 0, PASS)
    events = step_events(after, 0, PASS, passed)
    step = after.steps + 1
    assert events == [Passed(step, 0, Card.X9, False), Flipped(step, 1, Card.D5, 1)]


def test_a_compulsory_kai_is_a_take_from_the_seat_that_flipped() -> None:
    """R-5.12: seat 1 holds 五五五; seat 0's flip of 五 is taken as a 开, told with who
    turned it; the discard owed follows (R-4.1), no flip yet."""
    state = position(
        {0: seat_state("二三"), 1: seat_state("五五五一二三四六七八九十壹贰叁肆伍陆柒捌"), 2: seat_state("")},
        phase=Phase.RESPONSE,
        turn=0,
        pending="x5",
        flip=True,
    )
    assert state.seats[1].card_count == 20
    after = apply(state, 1, KAI)
    (event,) = step_events(state, 1, KAI, after)
    assert event == Took(state.steps + 1, 1, ActionKind.KAI, Card.X5, 0)
    assert event.to_json() == {
        "event": "took",
        "step": state.steps + 1,
        "seat": 1,
        "take": "kai",
        "card": "x5",
        "from": 0,
    }  # (the hand cards and 摆 groups of a take come with a 吃 only)


def test_a_chi_with_bai_names_its_cards_and_groups() -> None:
    """R-5.8: 下家 holds 一 二二 三三; 吃 一 with 二三 lays the held 一 as 一二三 too."""
    state = position(
        {0: seat_state("九九"), 1: seat_state("一二二三三四五六七八九十叁肆伍陆柒捌玖拾"), 2: seat_state("")},
        phase=Phase.RESPONSE,
        turn=0,
        pending="x1",
    )
    action = Action.parse("chi x2 x3 bai x1 x2 x3")
    after = apply(state, 1, action)
    (event,) = step_events(state, 1, action, after)
    assert isinstance(event, Took)
    assert (event.take, event.card, event.cards, event.bai, event.from_seat) == (
        ActionKind.CHI,
        Card.X1,
        (Card.X2, Card.X3),
        ((Card.X1, Card.X2, Card.X3),),
        0,
    )


def test_a_dealer_with_two_gun_announces_and_the_xiajia_flips() -> None:
    """R-4.3: a dealer dealt two 滚 makes no opening discard, announces 八块 (8 quad cards),
    and the dealer's 下家 flips: all at step 0."""
    rng = random.Random(5)
    pool = [c for c in Card for _ in range(4) if c not in (Card.X9, Card.D9)]
    rng.shuffle(pool)
    dealer = tuple(sorted([Card.X9] * 4 + [Card.D9] * 4 + pool[:13]))
    hands = (dealer, tuple(sorted(pool[13:33])), tuple(sorted(pool[33:53])))
    deal = Deal(0, hands, tuple(pool[53:]))
    state = new_hand(deal)
    events = opening_events(state, hand=1, quan=1)
    assert events == [Dealt(0, 1, 1, 0), Announced(0, 0, 8), Flipped(0, 1, deal.stock[0], 18)]


def test_a_win_names_its_card_source_and_who_gave_it() -> None:
    """R-6.4: a win on a discard is 抬炮 from the discarder; on a flip 翻胡 from the flipper."""
    hand = "二三四五六七七七壹贰叁陆陆陆捌玖拾"  # with 一一一 exposed: waits 一 四 七 (README)
    for flip, source in ((False, WinSource.DISCARD), (True, WinSource.FLIP)):
        state = position(
            {0: seat_state("九九"), 1: seat_state(hand, ("一一一",)), 2: seat_state("")},
            phase=Phase.RESPONSE,
            turn=2,
            pending="x4",
            flip=flip,
        )
        after = apply(state, 1, HU)
        (event,) = step_events(state, 1, HU, after)
        assert event == Won(state.steps + 1, 1, Card.X4, source, 2)


def test_a_dead_hand_is_told() -> None:
    """R-5.6: the last card passes with an empty stock: the hand is dead."""
    state = position(
        {0: seat_state("二三"), 1: seat_state("八八"), 2: seat_state("")},
        phase=Phase.RESPONSE,
        turn=0,
        pending="x9",
        flip=True,
        stock="",
    )
    after = apply(state, 0, PASS)
    assert step_events(state, 0, PASS, after) == [Passed(state.steps + 1, 0, Card.X9, True), DeadHand(state.steps + 1)]


#: Every key an event may carry: nothing else goes out (R-9).
EVENT_KEYS = {
    "event", "step", "hand", "quan", "dealer", "sits_out", "seat", "card", "stock_left", "take", "from",
    "cards", "bai", "yu", "count", "flipped", "source", "kind", "winner", "groups", "hu", "tier", "fan",
    "score", "payments", "totals", "hand_id", "played", "leaders",
}  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_story_of_random_hands(players: int) -> None:
    """Over many random hands: steps never go back; every event JSON names only public
    cards; a table and the replay of its record tell the same story, event for event."""
    rules = RuleSet.from_options({"players": players})
    for seed in range(40):
        rng = random.Random(seed)
        played = play_hand(Deal.shuffled(rng, seed % players, rules), random_chooser(rng), rules)
        events = list(played.events)
        assert isinstance(events[0], Dealt) and isinstance(events[-1], Scored)
        steps = [e.step for e in events]
        assert steps == sorted(steps) and steps[-1] == len(played.record.actions)
        # nothing concealed: only the event's own fields, and concealed groups only once the
        # hand is over (the scored event, R-9)
        for event in events:
            data = event.to_json()
            assert set(data) <= EVENT_KEYS, data
            assert isinstance(event, Scored) or "groups" not in data
            assert json.loads(json.dumps(data)) == data
        rep = replay(played.record.with_result(played.outcome))
        told = [e for frame in rep.frames for e in frame.events]
        assert [e.to_json() for e in told] == [e.to_json() for e in events]


def test_bots_at_a_table_and_the_record_tell_one_story() -> None:
    """The search bot's and heuristic bots' hands through :func:`table_chooser` (one
    simultaneous step per decision) replay to the same events."""
    rules = RuleSet()
    for seed in range(6):
        rng = random.Random(seed)
        bots = [make_bot("heuristic") for _ in range(3)]
        played = play_hand(
            Deal.shuffled(rng, seed % 3), table_chooser(bots, [random.Random(seed * 3 + i) for i in range(3)]), rules
        )
        rep = replay(played.record)
        assert [e.to_json() for f in rep.frames for e in f.events] == [e.to_json() for e in played.events]


def test_a_live_table_and_its_replay_agree_over_a_match() -> None:
    table = Table(RuleSet.from_options({"match_quan": 1}), random.Random(9), ["a", "b", "c"])
    rng = random.Random(9)
    while not table.match_over:
        table.start_hand()
        while table.in_hand:
            seat = table.waiting()[0]
            table.declare(seat, rng.choice(table.options(seat)))
        finished = table.hands[-1]
        rep = replay(finished.record, hand=finished.scored.hand, quan=table.quan, totals=finished.scored.totals)
        told = [e.to_json() for f in rep.frames for e in f.events]
        live = [e.to_json() for e in table.events if e.kind.value != "match_over"]
        assert told == live

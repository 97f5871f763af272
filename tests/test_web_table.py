"""The web table without a network (:class:`erqishi.server.table.GameTable`): declarations in
response windows (R-5.4), defaults when time runs out (R-5.12), the public log and the
records of finished hands."""

from __future__ import annotations

import json
import random

import pytest

from erqishi.core import IllegalActionError, RuleSet
from erqishi.core.engine import PASS, ActionKind, Phase, legal_actions
from erqishi.records import parse_record, verify
from erqishi.server.table import GameTable


def play_match(seed: int, rules: RuleSet) -> tuple[GameTable, list[dict[str, object]]]:
    """Random decisions from the seats asked, in random order; every log event kept."""
    rng = random.Random(seed)
    table = GameTable(rules, random.Random(seed), [f"s{i}" for i in range(rules.players)])
    events: list[dict[str, object]] = []
    while not table.match_over:
        table.start_hand()
        finished = None
        while finished is None:
            waiting = table.waiting()
            assert waiting, "a hand in progress always waits for someone"
            seat = rng.choice(waiting)
            options = table.options(seat)
            assert options and all(table.options(s) == () for s in range(rules.players) if s not in waiting)
            finished = table.act(seat, rng.choice(options))
        events.extend(table.log)
        record = finished.record_json()
        verdict = verify(parse_record(json.loads(json.dumps(record))))
        assert verdict["ok"] and verdict["result"] == record["result"]
        assert finished.breakdown["payments"] == record["result"]["payments"]
    return table, events


@pytest.mark.parametrize("preset", ["leshan", "duikou", "app"])
def test_random_matches_give_verified_records_and_a_complete_log(preset: str) -> None:
    rules = RuleSet.load({"preset": preset, "match_quan": 2})
    for seed in range(8):
        table, events = play_match(seed, rules)
        totals = [sum(h.outcome.payments[s] for h in table.hands) for s in range(rules.players)]
        assert list(table.match.totals) == totals
        verdict = verify(parse_record(json.loads(json.dumps(table.match_record_json()))))
        assert verdict["ok"] and verdict["result"]["totals"] == totals
        for event in events:
            # a take names the card taken, whatever card it is (一 included)
            if event["event"] in ("chi", "dui", "kai", "flip", "discard", "untaken"):
                assert isinstance(event["card"], str), event


def test_a_take_of_the_card_x1_names_it() -> None:
    """Card 一 is value 0: the log must not mistake it for no card."""
    found = False
    for seed in range(400):
        rng = random.Random(seed)
        table = GameTable(RuleSet(), random.Random(seed), ["a", "b", "c"])
        table.start_hand()
        while table.in_hand:
            state = table.state
            assert state is not None
            waiting = table.waiting()
            seat = waiting[0]
            options = table.options(seat)
            takes = [a for a in options if a.kind in (ActionKind.DUI, ActionKind.KAI, ActionKind.CHI)]
            if (
                state.phase is Phase.RESPONSE
                and state.pending is not None
                and state.pending.ascii == "x1"
                and takes
                and waiting == (seat,)
            ):
                logged = len(table.log)
                table.act(seat, takes[0])
                taken = [e for e in table.log[logged:] if e["event"] in ("chi", "dui", "kai")]
                assert taken and all(e["card"] == "x1" for e in taken[:1]), table.log[logged:]
                found = True
                break
            table.act(seat, rng.choice(options))
        if found:
            break
    assert found


def test_declarations_wait_for_every_seat_asked_and_defaults() -> None:
    for seed in range(200):
        table = GameTable(RuleSet(), random.Random(seed), ["a", "b", "c"])
        table.start_hand()
        rng = random.Random(seed)
        while table.in_hand:
            waiting = table.waiting()
            state = table.state
            assert state is not None
            if state.phase is Phase.RESPONSE and len(waiting) == 2:
                first, second = waiting
                default = table.default_action(first)
                options = table.options(first)
                assert default == (PASS if PASS in options else next(a for a in options if a.kind is ActionKind.KAI))
                step = table.step
                assert table.act(first, default) is None
                assert table.step == step and table.waiting() == (second,)  # nothing applied yet
                assert table.options(first) == ()
                with pytest.raises(IllegalActionError):
                    table.act(first, default)
                table.act(second, table.options(second)[0])
                assert table.step > step and first not in table.declared
                return
            seat = waiting[0]
            if state.phase is not Phase.RESPONSE:
                assert table.default_action(seat) is None
                assert set(table.options(seat)) == set(legal_actions(state, seat))
            table.act(seat, rng.choice(table.options(seat)))
    pytest.fail("no window with two seats to ask in 200 hands")

"""The one table (:class:`erqishi.play.Table`) without any front end: declarations in
response windows as one simultaneous step (R-5.4), defaults when time runs out (R-5.12),
refusals from the engine, the events of a hand and the records of finished hands."""

from __future__ import annotations

import json
import random

import pytest

from erqishi.core import IllegalActionError, RuleSet
from erqishi.core.engine import PASS, Action, ActionKind, Phase, legal_actions, seat_options
from erqishi.play import NotYourTurnError, Table
from erqishi.play.events import DeadHand, Dealt, Flipped, MatchOver, Passed, Scored, Took, Won
from erqishi.records import parse_record, verify


def play_match(seed: int, rules: RuleSet) -> Table:
    """Random decisions from the seats asked, in random order (windows wait for everyone)."""
    rng = random.Random(seed)
    table = Table(rules, random.Random(seed), [f"s{i}" for i in range(rules.players)], auto_close=False)
    while not table.match_over:
        table.start_hand()
        while table.in_hand:
            if table.is_idle_window:
                table.close_window()
                continue
            waiting = table.waiting()
            assert waiting, "a hand in progress always waits for someone"
            seat = rng.choice(waiting)
            options = table.options(seat)
            assert options and all(table.options(s) == () for s in range(rules.players) if s not in waiting)
            table.declare(seat, rng.choice(options))
        finished = table.hands[-1]
        record = finished.record_json()
        verdict = verify(parse_record(json.loads(json.dumps(record)))).to_json()
        assert verdict["ok"] and verdict["result"] == record["result"]
        assert finished.scored.to_json()["payments"] == record["result"]["payments"]
    return table


@pytest.mark.parametrize("preset", ["leshan", "duikou", "app"])
def test_random_matches_give_verified_records_and_a_complete_story(preset: str) -> None:
    rules = RuleSet.load({"preset": preset, "match_quan": 2})
    for seed in range(8):
        table = play_match(seed, rules)
        totals = [sum(h.outcome.payments[s] for h in table.hands) for s in range(rules.players)]
        assert list(table.match.totals) == totals
        verdict = verify(parse_record(json.loads(json.dumps(table.match_record_json())))).to_json()
        assert verdict["ok"] and verdict["result"]["totals"] == totals
        # the story: every hand opens with Dealt and closes with Scored; the match with MatchOver
        dealt = [e for e in table.history if isinstance(e, Dealt)]
        scored = [e for e in table.history if isinstance(e, Scored)]
        assert len(dealt) == len(scored) == len(table.hands)
        assert [e.hand for e in dealt] == list(range(1, len(table.hands) + 1))
        assert isinstance(table.history[-1], MatchOver) and table.history[-1].totals == table.match.totals
        for hand, event in zip(table.hands, scored, strict=True):
            assert event.outcome == hand.outcome
        ends = [e for e in table.history if isinstance(e, Won | DeadHand)]
        assert len(ends) == len(table.hands)
        flips = [e for e in table.history if isinstance(e, Flipped)]
        stock = sum(len(h.record.deal.stock) for h in table.hands)
        assert len(flips) <= stock
        steps = [e.step for e in table.events]
        assert steps == sorted(steps) and steps[0] == 0


def test_a_take_of_the_card_x1_names_it() -> None:
    """Card 一 is value 0: the story must not mistake it for no card."""
    for seed in range(400):
        rng = random.Random(seed)
        table = Table(RuleSet(), random.Random(seed), ["a", "b", "c"])
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
                new = table.declare(seat, takes[0])
                taken = [e for e in new if isinstance(e, Took)]
                assert taken and taken[0].card.ascii == "x1" and taken[0].to_json()["card"] == "x1", new
                return
            table.declare(seat, rng.choice(options))
    pytest.fail("no take of 一 in 400 hands")


def test_declarations_wait_for_every_seat_asked_and_defaults() -> None:
    for seed in range(200):
        table = Table(RuleSet(), random.Random(seed), ["a", "b", "c"])
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
                assert table.declare(first, default) == []
                assert table.step == step and table.waiting() == (second,)  # nothing applied yet
                assert table.options(first) == ()
                with pytest.raises(NotYourTurnError):
                    table.declare(first, default)
                table.declare(second, table.options(second)[0])
                assert table.step > step and first not in table.declared
                return
            seat = waiting[0]
            if state.phase is not Phase.RESPONSE:
                assert table.default_action(seat) is None
                assert set(table.options(seat)) == set(legal_actions(state, seat))
            table.declare(seat, rng.choice(table.options(seat)))
    pytest.fail("no window with two seats to ask in 200 hands")


def test_a_refused_declaration_says_why_and_changes_nothing() -> None:
    """The table decides nothing itself: the engine refuses (R-5.10, R-3.1, R-5.2…) and the
    table is as it was."""
    table = Table(RuleSet(), random.Random(3), ["a", "b", "c"])
    table.start_hand()
    state = table.state
    assert state is not None and state.phase is Phase.OPENING
    dealer = state.dealer
    locked = [c for c in state.seats[dealer].cards() if state.seats[dealer].hand[c] >= 3]
    other = (dealer + 1) % 3
    with pytest.raises(NotYourTurnError):
        table.declare(other, Action.parse("discard x1"))
    with pytest.raises(IllegalActionError, match="R-5"):
        table.declare(dealer, Action.parse("dui"))
    held = {c for c in state.seats[dealer].cards()}
    missing = next(a for a in (Action.discard(c) for c in state.seats[other].cards()) if a.cards[0] not in held)
    with pytest.raises(IllegalActionError, match="holds no"):
        table.declare(dealer, missing)
    if locked:
        with pytest.raises(IllegalActionError, match=r"R-3\.1"):
            table.declare(dealer, Action.discard(locked[0]))
    assert table.state is state and table.actions == [] and all(e.step == 0 for e in table.events)


def test_a_declaration_never_tells_of_another_seats_hidden_kai() -> None:
    """R-9: a seat may declare its own options (pass included) even when another seat owes
    a 开 that outranks them; the refusal of an option it lacks names only its own cards."""
    for seed in range(3000):
        table = Table(RuleSet(), random.Random(seed), ["a", "b", "c"], auto_close=False)
        table.start_hand()
        rng = random.Random(seed)
        while table.in_hand:
            state = table.state
            assert state is not None
            if table.is_idle_window:
                table.close_window()
                continue
            waiting = table.waiting()
            if state.phase is Phase.RESPONSE:
                owing = [s for s in state.order if any(a.kind is ActionKind.KAI for a in seat_options(state, s))]
                owing = [s for s in owing if PASS not in seat_options(state, s)]
                others = [s for s in waiting if s not in owing]
                if owing and others:
                    seat = others[0]
                    assert PASS in table.options(seat)
                    with pytest.raises(IllegalActionError) as refused:
                        table.declare(seat, Action.parse("kai"))
                    assert f"seat {owing[0]}" not in str(refused.value)
                    table.declare(seat, PASS)
                    return
            seat = rng.choice(waiting)
            table.declare(seat, rng.choice(table.options(seat)))
    pytest.fail("no window where a seat owed a 开 while another could answer")


def test_passed_cards_are_told_and_passes_are_not() -> None:
    """A card nobody takes is told (it goes to the row); which seats passed is not (R-9)."""
    table = Table(RuleSet(), random.Random(11), ["a", "b", "c"])
    table.start_hand()
    rng = random.Random(11)
    while table.in_hand:
        seat = table.waiting()[0]
        table.declare(seat, rng.choice(table.options(seat)))
    passed = [e for e in table.history if isinstance(e, Passed)]
    assert passed
    for event in passed:
        assert set(event.to_json()) == {"event", "step", "seat", "card", "flipped"}


@pytest.mark.parametrize("preset", ["leshan", "app"])
def test_moves_played_untold_tell_the_same_story_when_read(preset: str) -> None:
    """Table.play builds a move's events only when events or history is read: the same
    events in the same order as apply_move, across the hands of a match (R-2.4), read
    in the middle of a hand, at its end and only after the next deal."""
    rules = RuleSet.load({"preset": preset, "match_quan": 2})
    for seed in range(4):
        told = Table(rules, random.Random(seed), ["a", "b", "c"][: rules.players], auto_close=False)
        untold = Table(rules, random.Random(seed), ["a", "b", "c"][: rules.players], auto_close=False)
        rng = random.Random(seed + 100)
        hand = 0
        while not told.match_over:
            opening = told.start_hand()
            assert untold.start_hand() == opening
            hand += 1
            moves = 0
            while told.in_hand:
                state = told.state
                assert state is not None and untold.state == state
                # an effective move as a record lists it: any seat's response, or the turn's move
                seat, action = rng.choice([(s, a) for s in state.order for a in legal_actions(state, s)])
                new = told.apply_move(seat, action)
                assert new  # every move tells something (at least the move or the flip)
                untold.play(seat, action)
                moves += 1
                if hand == 1 and moves == 5:  # read in the middle of the first hand
                    assert untold.events == told.events
            if hand % 2 == 0:  # read at the end of every other hand
                assert untold.events == told.events and isinstance(untold.events[-1], Scored | MatchOver)
        assert untold.history == told.history
        assert isinstance(untold.history[-1], MatchOver)
        assert untold.hands[-1].record == told.hands[-1].record

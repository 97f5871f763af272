"""Random-playout invariants of the engine (R-2 to R-9): over 1,000 seeded hands per
player count, 80 cards are conserved, every offered move applies, every hand ends,
record → replay reproduces state and result, views never show another seat's concealed
cards or the stock order, and the same seed gives a byte-identical record."""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest

from erqishi.core import IllegalActionError, RuleSet
from erqishi.core.engine import (
    PASS,
    Action,
    Deal,
    Phase,
    PlayerView,
    State,
    apply,
    legal_actions,
    legal_moves,
    new_hand,
    view,
)
from erqishi.play import play_hand, random_chooser
from erqishi.records import dumps, load_record, replay_hand, verify

GAMES = 1_000
RULES = {2: RuleSet.preset("duikou"), 3: RuleSet.preset("leshan"), 4: RuleSet.from_options({"players": 4})}


def _census(state: State) -> list[int]:
    """Copies of each identity in hands, melds, rows, the pending card and the stock."""
    counts = [0] * 20
    for seat in state.seats:
        for c, n in enumerate(seat.hand):
            counts[c] += n
        for group in seat.melds:
            for card in group.cards:
                counts[card] += 1
        for card in seat.row:
            counts[card] += 1
    if state.pending is not None and state.phase is not Phase.OVER:
        counts[state.pending] += 1
    elif state.phase is Phase.OVER and state.result is not None and state.result.kind == "win":
        win = state.result.analysis.win_card if state.result.analysis else None
        if win is not None:
            counts[win] += 1
    for card in state.deal.stock[state.stock_pos :]:
        counts[card] += 1
    return counts


def _illegal_probes(state: State, rng: random.Random) -> list[tuple[int, Action]]:
    """A few moves that must be refused: a seat with no legal action, a discard of a card
    the seat does not hold, a pass while a 开 is owed."""
    probes: list[tuple[int, Action]] = []
    n = state.rules.players
    for seat in range(n):
        acts = legal_actions(state, seat)
        if not acts:
            probes.append((seat, PASS))
        missing = [c for c in range(20) if state.seats[seat].hand[c] == 0]
        if missing:
            probes.append((seat, Action.parse(f"discard {'x' if missing[0] < 10 else 'd'}{missing[0] % 10 + 1}")))
    return [p for p in probes if p[1] not in legal_actions(state, p[0])][:3]


def _check_view(state: State, seat: int) -> None:
    v = view(state, seat)
    names = {f.name for f in fields(PlayerView)}
    assert not names & {"deal", "stock", "state", "seats_state"}
    for sv in v.seats:
        if sv.seat != seat and state.phase is not Phase.OVER:
            assert sv.hand is None, "another seat's concealed hand leaked (R-9)"
        assert sv.hand_size == sum(state.seats[sv.seat].hand)
    assert v.stock_left == state.stock_left
    assert tuple(sorted(v.hand)) == v.hand and len(v.hand) == sum(state.seats[seat].hand)
    # nothing reachable from the view is the stock order
    stock_rest = state.deal.stock[state.stock_pos :]
    if len(stock_rest) > 1:
        flat = repr(v)
        assert repr(stock_rest) not in flat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(players: int) -> None:
    rules = RULES[players]
    rng = random.Random(7_000 + players)
    outcomes = {"win": 0, "dead": 0}
    for game in range(GAMES):
        deal = Deal.shuffled(rng, rng.randrange(players), rules)
        quan = rng.choice([None, *range(1, 11)])
        state = new_hand(deal, rules, quan)
        actions: list[tuple[int, Action]] = []
        thorough = game % 20 == 0
        while not state.is_over:
            assert _census(state) == [4] * 20, f"cards not conserved at step {len(actions)}"
            moves = legal_moves(state)
            assert moves, "a decision with no legal move"
            per_seat = {(s, a) for s in range(players) for a in legal_actions(state, s)}
            assert set(moves) <= per_seat
            if thorough:
                for seat, action in moves:
                    apply(state, seat, action)  # every offered move applies
                for seat, action in _illegal_probes(state, rng):
                    with pytest.raises(IllegalActionError):
                        apply(state, seat, action)
                for seat in range(players):
                    _check_view(state, seat)
            seat, action = rng.choice(moves)
            state = apply(state, seat, action)
            actions.append((seat, action))
            assert len(actions) < 400, "the hand did not end"
        assert state.result is not None
        outcomes[state.result.kind] += 1
        assert sum(state.result.payments) == 0
        if players == 4:
            sitting = (deal.dealer - 1) % 4
            assert state.result.payments[sitting] == 0 and deal.hands[sitting] == ()
            assert all(seat != sitting for seat, _ in actions), "a seat sitting out acted (R-10)"
        if thorough or game % 5 == 0:
            _check_record_round_trip(state, actions, rules, quan)
    assert outcomes["win"] > GAMES // 50 and outcomes["dead"] > GAMES // 10


def _check_record_round_trip(state: State, actions: list[tuple[int, Action]], rules: RuleSet, quan: int | None) -> None:
    from erqishi.records import HandRecord

    assert state.result is not None
    names = tuple(f"p{i}" for i in range(rules.players))
    record = HandRecord(rules, names, quan, state.deal, tuple(actions))
    text = dumps(record.to_json(state.result))
    loaded = load_record(text)
    assert verify(loaded).to_json() == {"ok": True, "finished": True, "result": state.result.to_json()}
    replayed = replay_hand(loaded).final  # type: ignore[arg-type]
    assert replayed == state, "replay did not reproduce the state"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_record_bytes(players: int) -> None:
    rules = RULES[players]
    for seed in range(20):
        texts = []
        for _ in range(2):
            rng = random.Random(seed)
            deal = Deal.shuffled(rng, seed % players, rules)
            played = play_hand(deal, random_chooser(rng), rules, quan=1 + seed % 10)
            texts.append(dumps(played.to_json()))
        assert texts[0] == texts[1]
        assert json.loads(texts[0])["format"] == 1


def _random_rules(rng: random.Random) -> RuleSet:
    return RuleSet.from_options(
        {
            "players": rng.choice([2, 3, 4]),
            "flip_chi": rng.choice(["flipper_then_xiajia", "flipper_only"]),
            "discard_chi": rng.choice(["xiajia", "none"]),
            "tiers": rng.choice(["seed", "app"]),
            "tianhu": rng.choice(["one_fan", "two_fan", "fixed_100"]),
            "taipao_multiplier": rng.choice([None, 1, 2, 3]),
            "cap": rng.choice([None, 20, 100]),
            "yu": rng.random() < 0.5,
            "quan_fan": rng.random() < 0.7,
        }
    )


def test_random_playouts_under_every_option() -> None:
    """R-10: the invariants hold whatever the options: cards conserved, every offered
    move applies, the hand ends, payments sum to 0 and respect the cap, records replay."""
    rng = random.Random(99)
    for game in range(400):
        rules = _random_rules(rng)
        deal = Deal.shuffled(rng, rng.randrange(rules.players), rules)
        quan = rng.choice([None, *range(1, 11)])
        state = new_hand(deal, rules, quan)
        actions: list[tuple[int, Action]] = []
        while not state.is_over:
            assert _census(state) == [4] * 20
            moves = legal_moves(state)
            if game % 10 == 0:
                for seat, action in moves:
                    apply(state, seat, action)
            seat, action = rng.choice(moves)
            state = apply(state, seat, action)
            actions.append((seat, action))
            assert len(actions) < 400
        result = state.result
        assert result is not None and sum(result.payments) == 0
        if result.kind == "win" and rules.cap is not None:
            assert result.winner is not None
            limit = rules.cap * (
                rules.taipao_factor if result.source is not None and result.source.value == "discard" else 1
            )
            assert all(-p <= limit for p in result.payments), (rules, result.payments)
        _check_record_round_trip(state, actions, rules, quan)

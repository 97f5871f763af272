"""The fixed action space (erqishi.rl.actions): a bijection with the engine's actions."""

from __future__ import annotations

import itertools

from erqishi.core.cards import Card
from erqishi.core.engine import DUI, HU, KAI, PASS, Action, ActionKind
from erqishi.core.hands import classify_triple
from erqishi.rl.actions import (
    ACTIONS,
    CHI_BAI1_START,
    CHI_BAI2_START,
    CHI_START,
    N_ACTIONS,
    action_index,
    action_indices,
    decode_action,
)


def test_a_bijection() -> None:
    assert len(set(ACTIONS)) == len(ACTIONS) == N_ACTIONS
    for i, action in enumerate(ACTIONS):
        assert action_index(action) == i and decode_action(i) == action
        assert Action.parse(str(action)) == action
    assert action_indices(ACTIONS[:5]) == [0, 1, 2, 3, 4]


def test_the_blocks() -> None:
    assert [ACTIONS[c] for c in range(20)] == [Action.discard(card) for card in Card]
    assert ACTIONS[20:24] == (PASS, DUI, KAI, HU)
    assert CHI_START == 24
    chis = ACTIONS[CHI_START:]
    assert all(a.kind is ActionKind.CHI for a in chis)
    assert all(len(a.bai) == 0 for a in ACTIONS[CHI_START:CHI_BAI1_START])
    assert all(len(a.bai) == 1 for a in ACTIONS[CHI_BAI1_START:CHI_BAI2_START])
    assert all(len(a.bai) == 2 for a in ACTIONS[CHI_BAI2_START:])


def test_every_plain_chi_shape_is_there() -> None:
    """Every pair of hand cards that makes a 顺子, 二七十 or 花吃 with some card (R-5.7)."""
    pairs = {
        (a, b)
        for a, b in itertools.combinations_with_replacement(Card, 2)
        if any(classify_triple((a, b, x)) is not None for x in Card)
    }
    plain = {tuple(a.cards) for a in ACTIONS if a.kind is ActionKind.CHI and not a.bai}
    assert plain == pairs


def test_out_of_range() -> None:
    import pytest

    with pytest.raises(IndexError):
        decode_action(N_ACTIONS)
    with pytest.raises(KeyError):
        action_index(Action.chi((Card.X1, Card.X5)))

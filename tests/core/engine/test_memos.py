"""The memo bounds (erqishi.core.engine.limit_memos): the tables never hold more than
their bound, and the verdicts do not depend on what they hold: every worked case of
``../shared/cases`` gives its hand-worked result with the tables bounded to one entry."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erqishi.core import Card, RuleSet, WinContext, WinSource, analyze_hand
from erqishi.core.engine import HU, Deal, apply, limit_memos, memo_sizes, new_hand, seat_options, view
from erqishi.core.engine import state as engine_state
from erqishi.core.hands import grouping
from erqishi.play import asked, resolve


@pytest.fixture
def bounded() -> Iterator[None]:
    """The bounds as a test sets them, then the defaults again."""
    saved = (grouping.MEMO_LIMITS[0], grouping.MEMO_LIMITS[1], engine_state.HAND_CARDS_LIMIT[0])
    try:
        yield
    finally:
        limit_memos(splits=saved[0], hua=saved[1], hand_cards=saved[2])


def _random_hands(count: int, seed: int) -> None:
    rules = RuleSet.load("leshan")
    rng = random.Random(seed)
    for _ in range(count):
        state = new_hand(Deal.shuffled(rng, rng.randrange(3), rules), rules, 1)
        while not state.is_over:
            declared = {}
            for s in asked(state):
                options = seat_options(state, s)
                view(state, s)
                declared[s] = HU if HU in options else rng.choice(options)
            state = apply(state, *resolve(state, declared))


def test_the_tables_stay_within_their_bounds(bounded: None) -> None:
    limit_memos(splits=300, hua=40, hand_cards=50)
    _random_hands(60, 1)
    sizes = memo_sizes()
    assert 0 < sizes["splits"] <= 300 and 0 < sizes["hua"] <= 40 and 0 < sizes["hand_cards"] <= 50


def test_a_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="hua must be at least 1"):
        limit_memos(hua=0)


def test_worked_cases_hold_with_tables_of_one_entry(bounded: None, shared: Path) -> None:
    """R-7: the hu, tier, 番 and score of every worked case, memos emptied at every entry."""
    limit_memos(splits=1, hua=1, hand_cards=1)
    for name in ("scoring.json", "scoring-rules.json"):
        cases: list[dict[str, Any]] = json.loads((shared / "cases" / name).read_text(encoding="utf-8"))
        for case in cases:
            ctx = case["context"]
            source = WinSource.TIAN if ctx.get("tian") else WinSource(ctx.get("win_source", "discard"))
            context = WinContext(source, bool(ctx.get("di", False)), ctx.get("quan"))
            win = None if case["win"] is None else Card.parse(case["win"])
            rules = RuleSet.load(case.get("ruleset", "leshan"))
            result = analyze_hand(case["hand"], case["melds"], win, context, rules)
            got: dict[str, Any] = {"win": result.is_win}
            if result.is_win:
                got.update(hu=result.hu, base=result.base, fan=sorted(result.fan_names), score=result.score)
            expect = {k: sorted(v) if k == "fan" else v for k, v in case["expect"].items()}
            assert got == expect, f"{name}:{case['id']}"

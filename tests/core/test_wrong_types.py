"""A value of the wrong type is a ``TypeError`` in both builds (the compiled build checks
the annotated types of a call itself; the pure build checks the same where a reviewer
found them apart), and a value of the right type that the rules refuse is the project's
own error. The suite runs on both builds, so each case here is a check that they agree."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from erqishi.bots import HeuristicBot
from erqishi.core import HandAnalyzer, RuleSet, WinSource, analyze_hand, settle
from erqishi.core.errors import ErqishiError, InvalidHandError, InvalidRulesError

HAND = "二三四五六七七七壹贰叁陆陆陆捌玖拾"


@pytest.mark.parametrize(
    "call",
    [
        lambda: analyze_hand(HAND, ["一一一"], "四", rules=None),  # type: ignore[arg-type]
        lambda: analyze_hand(HAND, ["一一一"], "四", rules=5),  # type: ignore[arg-type]
        lambda: HandAnalyzer(HAND, ["一一一"]).candidates("x1"),  # type: ignore[arg-type]
        lambda: HandAnalyzer.from_counts([None] + [1] * 19),  # type: ignore[arg-type]
        lambda: HandAnalyzer.from_counts([1.0] * 20),  # type: ignore[list-item]
        lambda: settle(20, WinSource.FLIP, None),  # type: ignore[arg-type]
        lambda: settle(20, WinSource.FLIP, 0, sitting_out=3.0),  # type: ignore[arg-type]
        lambda: settle(20, WinSource.DISCARD, 0, discarder="2"),  # type: ignore[arg-type]
        lambda: RuleSet.preset(None),  # type: ignore[arg-type]
        lambda: RuleSet.from_options({}, base=0),  # type: ignore[arg-type]
        lambda: RuleSet.load(None),  # type: ignore[arg-type]
        lambda: RuleSet.load(3),  # type: ignore[arg-type]
        lambda: HeuristicBot(look_at_waits=0),  # type: ignore[arg-type]
        lambda: HeuristicBot(safety="high"),  # type: ignore[arg-type]
    ],
)
def test_a_wrong_type_is_a_type_error(call: Callable[[], object]) -> None:
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: analyze_hand(HAND, ["一一一"], "四", rules="nope"), InvalidRulesError),
        (lambda: analyze_hand(HAND, ["一一一"], "四", rules={"cap": "big"}), InvalidRulesError),
        (lambda: HandAnalyzer(HAND, ["一一一"]).candidates(25), InvalidHandError),
        (lambda: HandAnalyzer.from_counts([5] + [0] * 19), InvalidHandError),
        (lambda: settle(20, WinSource.FLIP, 7), ErqishiError),
        (lambda: RuleSet.preset("nope"), InvalidRulesError),
    ],
)
def test_a_value_of_the_right_type_is_refused_by_the_rules(call: Callable[[], object], error: type) -> None:
    with pytest.raises(error):
        call()


def test_rules_as_an_object_of_options_score_in_both_builds() -> None:
    """``analyze_hand(rules=…)`` takes what RuleSet.load takes, a mapping of options too (as
    the rule sets of ../shared/cases/scoring-rules.json are given)."""
    for options in ({"cap": 5}, {"preset": "jianwei"}, {"preset": "app", "piao_fan": False}):
        assert analyze_hand(HAND, ["一一一"], "四", rules=options) == analyze_hand(
            HAND, ["一一一"], "四", rules=RuleSet.load(options)
        )

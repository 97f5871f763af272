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


def _state() -> object:
    import random

    from erqishi.core.engine import Deal, new_hand

    return new_hand(Deal.shuffled(random.Random(1), 0))


_STATE = "erqishi.core.engine.state.State"
_ACTION = "erqishi.core.engine.actions.Action"
_RULES = "erqishi.core.rules.RuleSet"


def _engine_calls() -> list[tuple[str, Callable[[], object], str]]:
    import random

    from erqishi.core import Card, parse_cards, tier_of
    from erqishi.core.cards import Size
    from erqishi.core.engine import (
        PASS,
        Action,
        Deal,
        Match,
        apply,
        legal_actions,
        legal_moves,
        new_hand,
        public_view,
        refusals,
        resolve_responses,
        seat_options,
        sitting_out_seat,
        view,
        why_illegal,
    )

    state = _state()
    deal = Deal.shuffled(random.Random(1), 0)
    return [
        ("apply seat", lambda: apply(state, "0", PASS), "int object expected; got str"),  # type: ignore[arg-type]
        ("apply action", lambda: apply(state, 0, "discard x1"), f"{_ACTION} object expected; got str"),  # type: ignore[arg-type]
        ("apply state", lambda: apply(None, 0, PASS), f"{_STATE} object expected; got None"),  # type: ignore[arg-type]
        ("legal_moves", lambda: legal_moves("x"), f"{_STATE} object expected; got str"),  # type: ignore[arg-type]
        ("legal_actions", lambda: legal_actions(state, "0"), "int object expected; got str"),  # type: ignore[arg-type]
        ("seat_options", lambda: seat_options(state, 1.5), "int object expected; got float"),  # type: ignore[arg-type]
        ("view", lambda: view(state, "0"), "int object expected; got str"),  # type: ignore[arg-type]
        ("public_view", lambda: public_view(5), f"{_STATE} object expected; got int"),  # type: ignore[arg-type]
        ("refusals", lambda: refusals(state, "1"), "int object expected; got str"),  # type: ignore[arg-type]
        ("why_illegal", lambda: why_illegal(state, 0, "pass"), f"{_ACTION} object expected; got str"),  # type: ignore[arg-type]
        ("resolve_responses", lambda: resolve_responses(state, [1]), "dict object expected; got list"),  # type: ignore[arg-type]
        ("new_hand deal", lambda: new_hand(None), "erqishi.core.engine.deal.Deal object expected; got None"),  # type: ignore[arg-type]
        ("new_hand rules", lambda: new_hand(deal, "leshan"), f"{_RULES} object expected; got str"),  # type: ignore[arg-type]
        ("new_hand quan", lambda: new_hand(deal, quan="1"), "int or None object expected; got str"),  # type: ignore[arg-type]
        ("Deal.shuffled", lambda: Deal.shuffled(random.Random(1), "0"), "int object expected; got str"),  # type: ignore[arg-type]
        ("Match.start", lambda: Match.start(random.Random(1), "leshan"), f"{_RULES} object expected; got str"),  # type: ignore[arg-type]
        ("Action.discard", lambda: Action.discard(25), "erqishi.core.cards.Card object expected; got int"),  # type: ignore[arg-type]
        ("Action.parse", lambda: Action.parse(5), "str object expected; got int"),  # type: ignore[arg-type]
        ("parse_cards", lambda: parse_cards(5), "str object expected; got int"),  # type: ignore[arg-type]
        ("Card.of", lambda: Card.of("small", 1), "erqishi.core.cards.Size object expected; got str"),  # type: ignore[arg-type]
        ("sitting_out_seat", lambda: sitting_out_seat("0", 3), "int object expected; got str"),  # type: ignore[arg-type]
        ("tier_of", lambda: tier_of("x"), "int object expected; got str"),  # type: ignore[arg-type]
        ("HandAnalyzer rules", lambda: HandAnalyzer(HAND, ["一一一"], "leshan"), f"{_RULES} object expected; got str"),  # type: ignore[arg-type]
        (
            "evaluate",
            lambda: HandAnalyzer(HAND, ["一一一"]).evaluate("四"),  # type: ignore[arg-type]
            "erqishi.core.cards.Card or None object expected; got str",
        ),
        ("candidates", lambda: HandAnalyzer(HAND, ["一一一"]).candidates("x1"), "int or None object expected; got str"),  # type: ignore[arg-type]
        ("Size unused", lambda: Card.of(Size.SMALL, "1"), "int object expected; got str"),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("case", range(len(_engine_calls())))
def test_a_wrong_type_at_an_entry_point_is_worded_alike_in_both_builds(case: int) -> None:
    """The compiled build refuses a wrongly typed argument before the call runs, in its
    own words; the pure build refuses it the same way, with the same words (see
    erqishi.core._boundary), instead of failing somewhere inside."""
    _name, call, message = _engine_calls()[case]
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message


def test_a_bool_for_an_int_is_an_int_in_both_builds() -> None:
    """The compiled build holds an ``int`` parameter as an int: a seat given as True is
    seat 1, in the pure build too; a 圈 number (``int | None``) refuses a bool."""
    import random

    from erqishi.core.engine import Deal, new_hand

    deal = Deal.shuffled(random.Random(1), True)  # type: ignore[arg-type]
    assert deal.dealer == 1 and type(deal.dealer) is int
    with pytest.raises(InvalidHandError, match="true/false"):
        new_hand(Deal.shuffled(random.Random(1), 0), quan=True)

"""Bots see only their view, choose only what they are offered, and are reproducible
from their seeds; the heuristic measures closeness to a win sensibly."""

from __future__ import annotations

import random

import pytest

from erqishi.bots import BOTS, HeuristicBot, SearchBot, make_bot
from erqishi.bots.heuristic import shanten
from erqishi.core import RuleSet, parse_cards, parse_meld
from erqishi.core.engine import Deal, PlayerView
from erqishi.play import play_hand, table_chooser

RULES = {2: RuleSet.preset("duikou"), 3: RuleSet(), 4: RuleSet.from_options({"players": 4})}


class Watcher:
    """Wraps a bot: checks it is given a view and answers from ``view.legal``."""

    def __init__(self, inner: str) -> None:
        self.inner = SearchBot(playouts=4, seconds=0.5) if inner == "search" else make_bot(inner)
        self.name = inner
        self.calls = 0

    def choose(self, view: PlayerView, rng: random.Random):  # type: ignore[no-untyped-def]
        assert isinstance(view, PlayerView) and view.legal
        action = self.inner.choose(view, rng)
        assert action in view.legal, (self.name, action, view.legal)
        self.calls += 1
        return action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_make_only_legal_moves(players: int) -> None:
    rules = RULES[players]
    rng = random.Random(31 + players)
    names = list(BOTS)
    for game in range(60):
        bots = [Watcher(names[(game + s) % len(names)]) for s in range(players)]
        rngs = [random.Random(rng.random()) for _ in range(players)]
        played = play_hand(Deal.shuffled(rng, game % players, rules), table_chooser(bots, rngs), rules)
        assert played.final.is_over and sum(played.outcome.payments) == 0
        assert sum(b.calls for b in bots) > 0


def test_same_seeds_same_game() -> None:
    def run() -> str:
        rng = random.Random(5)
        bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")]
        rngs = [random.Random(10 + s) for s in range(3)]
        return str(play_hand(Deal.shuffled(rng, 1), table_chooser(bots, rngs)).to_json())

    assert run() == run()


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        # seven groups held: a win shape, one step beyond waiting
        ("一二三四五六七八九壹贰叁肆伍陆柒捌玖二七十", [], -1),
        # six groups and a partial 七八: waiting
        ("一二三四五六七八壹贰叁肆伍陆柒捌玖二七十", [], 0),
        # three groups to go and nothing hangs together: 2 x 3 - 1
        ("一五叁捌", ["二二二", "六六六", "贰贰贰", "陆陆陆"], 5),
        # the same needs with 七十 (part of 二七十) and 一壹 (part of a 花吃): two partials
        ("一七十壹", ["二二二", "六六六", "贰贰贰", "陆陆陆"], 3),
    ],
)
def test_shanten(hand: str, melds: list[str], expected: int) -> None:
    counts = [0] * 20
    for c in parse_cards(hand):
        counts[c] += 1
    assert shanten(counts, [parse_meld(m) for m in melds]) == expected


def test_unknown_bot_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nosuch'"):
        make_bot("nosuch")
    assert isinstance(make_bot("heuristic"), HeuristicBot)

"""Random hands for the benchmarks: complete hands (seven groups, some exposed) with a
winning card, drawn with a seeded generator."""

from __future__ import annotations

import random

from erqishi.core import Card, Group, GroupKind
from erqishi.core.hands import classify_triple

Hand = tuple[list[Card], list[Group], Card]


def _triple(rng: random.Random) -> tuple[str, list[int]]:
    t = rng.random()
    size = 10 * rng.randrange(2)
    if t < 0.45:
        r = rng.randrange(8)
        return "chi", [size + r, size + r + 1, size + r + 2]
    if t < 0.6:
        return "chi", [size + 1, size + 6, size + 9]
    if t < 0.75:
        r = rng.randrange(10)
        return "chi", [r, r + 10, r + 10] if rng.random() < 0.5 else [r, r, r + 10]
    c = rng.randrange(20)
    return "same", [c, c, c]


def complete_hand(rng: random.Random) -> Hand:
    """A hand of R-4.4 shape: q quads (0-2), 7 - q - [q > 0] triples and a pair when q > 0;
    about 30% of the groups exposed; one concealed card taken out as the winning card.
    The cards always group; whether they win (locks, 10 hu) is for the analysis to say."""
    while True:
        left = [4] * 20
        q = rng.choice((0, 0, 0, 1, 1, 2))
        parts: list[tuple[str, list[int]]] = [("quad", [c] * 4) for c in rng.sample(range(20), q)]
        parts += [_triple(rng) for _ in range(7 - q - (q > 0))]
        if q:
            c = rng.randrange(20)
            parts.append(("pair", [c, c]))
        for _, cards in parts:
            for c in cards:
                left[c] -= 1
        if min(left) < 0:
            continue
        hand: list[Card] = []
        melds: list[Group] = []
        for kind, values in parts:
            cards = [Card(v) for v in values]
            if kind != "pair" and rng.random() < 0.3:
                if kind == "quad":
                    melds.append(Group(GroupKind.KAI, tuple(cards), exposed=True))
                elif kind == "same":
                    melds.append(Group(GroupKind.DUI, tuple(cards), exposed=True))
                else:
                    group_kind = classify_triple(cards)
                    assert group_kind is not None
                    melds.append(Group(group_kind, tuple(sorted(cards)), exposed=True))
            else:
                hand.extend(cards)
        if len(hand) < 2:
            continue
        rng.shuffle(hand)
        win = hand.pop()
        return hand, melds, win


def random_deal(rng: random.Random) -> tuple[list[Card], Card]:
    """21 cards off a shuffled deck: 20 in hand and the 21st as the winning card."""
    deck = [c for c in Card for _ in range(4)]
    rng.shuffle(deck)
    return deck[:20], deck[20]

"""下叫 hints for a seat, from its view only (R-6.1, R-7, R-9): the waits of its hand, and
for each legal discard the waits it would leave. Used by the terminal game and the server.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from erqishi.core.cards import Card
from erqishi.core.engine import HU, ActionKind, Phase, PlayerView
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import Wait, WinContext, find_waits

__all__ = ["DiscardHint", "discard_hints", "live_waits", "visible_counts"]


@dataclass(frozen=True, slots=True)
class DiscardHint:
    """A legal discard that leaves a waiting hand, with its live waits (best first)."""

    card: Card
    waits: tuple[Wait, ...]


def visible_counts(v: PlayerView) -> Counter[Card]:
    """Copies of each card the viewer can see: own hand, every meld and row, and the pending
    card, unless the viewer may win on it now (then it is still live for them)."""
    counts = v.seen()
    if v.pending is not None and v.phase is Phase.RESPONSE and HU in v.legal:
        counts[v.pending] -= 1
    return Counter({card: counts[card] for card in Card if counts[card]})


def live_waits(v: PlayerView, hand: Sequence[Card] | None = None, seen: Counter[Card] | None = None) -> list[Wait]:
    """The waits (下叫) of ``hand`` (default the viewer's hand) with the viewer's melds that
    still have an unseen copy, best score first; ``[]`` when the cards cannot wait."""
    if seen is None:
        seen = visible_counts(v)
    cards = v.hand if hand is None else hand
    try:
        waits = find_waits(cards, v.seats[v.seat].melds, WinContext(quan=v.quan), v.rules)
    except ErqishiError:
        return []
    return sorted((w for w in waits if seen[w.card] < 4), key=lambda w: -w.score)


def discard_hints(v: PlayerView) -> list[DiscardHint]:
    """For each legal discard of ``v.legal`` that leaves a waiting hand, its live waits;
    best first (highest score, then most waits)."""
    seen = visible_counts(v)
    hints: list[DiscardHint] = []
    for action in v.legal:
        if action.kind is not ActionKind.DISCARD:
            continue
        hand = list(v.hand)
        hand.remove(action.cards[0])
        waits = live_waits(v, hand, seen)
        if waits:
            hints.append(DiscardHint(action.cards[0], tuple(waits)))
    hints.sort(key=lambda h: (-h.waits[0].score, -len(h.waits)))
    return hints

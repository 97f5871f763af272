"""下叫 hints for a seat, from its view only (R-6.1, R-7, R-9): the waits of its hand, and
for each legal discard the waits it would leave; and a suggested move with what it expects
(:func:`suggest`: the move of a bot the caller passes in, the strongest it has, e.g.
``erqishi.bots.LearnedBot``, whose value of the move is the expected net payment of the
hand). Used by the terminal game and the server.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from erqishi.core.cards import Card
from erqishi.core.engine import HU, Action, ActionKind, Phase, PlayerView
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import Wait, WinContext, find_waits

__all__ = ["Advice", "DiscardHint", "Suggester", "Valuer", "discard_hints", "live_waits", "suggest", "visible_counts"]


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


class Suggester(Protocol):
    """A bot as :func:`suggest` takes it: ``choose(view, rng)`` returns one of ``view.legal``."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal``."""
        ...


@runtime_checkable
class Valuer(Protocol):
    """A bot that also values every legal action (``erqishi.bots.LearnedBot``)."""

    def values(self, view: PlayerView) -> tuple[float, list[tuple[Action, float]]]:
        """(value of the state, [(action, expected net payment)] for ``view.legal``),
        score units (R-8)."""
        ...


@dataclass(frozen=True, slots=True)
class Advice:
    """A suggested move and what it expects.

    Attributes:
        action: one of the view's legal actions.
        expected: the expected net payment of the hand for the seat after ``action``
            (score units, R-8), when the bot values moves; else None.
        waits: the live waits (下叫) the hand keeps after ``action`` (a discard), or has now,
            best score first (R-6.1).
    """

    action: Action
    expected: float | None
    waits: tuple[Wait, ...]

    def describe(self, lang: str = "zh") -> str:
        """What the suggestion expects, in Chinese (``zh``) or English (``en``), without
        the move itself: the expected net payment and the waits it keeps; "" for nothing.

        >>> Advice(Action.parse("pass"), 2.25, ()).describe("en")
        'expects +2.2 for this hand'
        >>> Advice(Action.parse("pass"), -1.0, ()).describe()
        '预计本局净得 -1.0 分'
        """
        parts = []
        if self.expected is not None:
            parts.append(
                f"expects {self.expected:+.1f} for this hand"
                if lang == "en"
                else f"预计本局净得 {self.expected:+.1f} 分"
            )
        if self.waits:
            listed = ", ".join(f"{w.card}({w.score})" for w in self.waits[:6])
            parts.append(f"keeps the waits {listed}" if lang == "en" else f"留下叫 {listed}")
        return "; ".join(parts) if lang == "en" else "，".join(parts)


def suggest(v: PlayerView, bot: Suggester, rng: random.Random) -> Advice | None:
    """The move ``bot`` would make from ``v`` (the seat's own view, R-9) with what it
    expects (:class:`Advice`); None when the seat has nothing to decide. A bot that values
    moves (:class:`Valuer`) gives the expected payment of its choice; otherwise the move
    is ``bot.choose(v, rng)`` and only the waits are said.

    Raises:
        ValueError: the bot chose something ``v.legal`` does not hold.
    """
    if not v.legal or v.phase is Phase.OVER:
        return None
    expected: float | None = None
    if isinstance(bot, Valuer):
        _, values = bot.values(v)
        action = bot.choose(v, rng)
        expected = next((q for a, q in values if a == action), None)
    else:
        action = bot.choose(v, rng)
    if action not in v.legal:
        raise ValueError(f"the suggesting bot chose {action}, which is not legal here")
    if action.kind is ActionKind.DISCARD:
        hand = list(v.hand)
        hand.remove(action.cards[0])
        waits = tuple(live_waits(v, hand))
    else:
        waits = tuple(live_waits(v)) if v.phase is Phase.RESPONSE else ()
    return Advice(action, expected, waits)

"""Waits (下叫 *xiajiao*): which cards would complete a hand one card short of a win (R-6.1)."""

from __future__ import annotations

from collections.abc import Iterable

from erqishi.core.cards import Card
from erqishi.core.errors import InvalidHandError
from erqishi.core.hands.analysis import HandAnalyzer, Wait
from erqishi.core.hands.groups import Group
from erqishi.core.hands.scoring import WinContext
from erqishi.core.notation import parse_cards
from erqishi.core.rules import LESHAN, RuleSet

__all__ = ["Wait", "find_waits"]


def find_waits(
    hand: Iterable[Card] | str,
    melds: Iterable[Group | str] = (),
    context: WinContext = WinContext(),
    rules: RuleSet = LESHAN,
) -> tuple[Wait, ...]:
    """Every card identity that would win the hand, with the result of each (下叫).

    Only identities with a copy left (fewer than four in hand and melds) are tried.
    Scores do not depend on where the card comes from, except 地胡 and 圈 in ``context``.

    Args:
        hand: the concealed hand (cards or card string), one card short of a win.
        melds: exposed melds.
        context: source (not ``TIAN``), 地胡, 圈 number.
        rules: the rule set.

    Returns:
        The waits in card order; empty when no card wins.

    Raises:
        InvalidNotationError: a bad card token.
        InvalidHandError: an empty hand, a bad meld, a fifth copy, or a 天胡 context.

    >>> [str(w.card) for w in find_waits("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"])]
    ['一', '四', '七']
    """
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    if not cards:
        raise InvalidHandError("the hand is empty", zh="手牌是空的")
    return HandAnalyzer(cards, melds, rules).waits(context)

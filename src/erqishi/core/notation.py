"""Card list notation (R-1.2, FORMATS.md "Cards").

A card list is Chinese characters run together (``一一二七十壹``) or ASCII tokens
``x1``…``x10`` / ``d1``…``d10`` separated by spaces or commas (``x1 x1 x2``); the two may
be mixed. Parsing reports the first bad token with its position.
"""

from __future__ import annotations

from collections.abc import Iterable

from erqishi.core.cards import CHAR_TO_CARD, Card
from erqishi.core.errors import InvalidNotationError

__all__ = ["format_cards", "parse_cards", "sort_cards"]

_SEPARATORS = frozenset(" \t\r\n,，、;\u3000\xa0")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a card list written in either notation (R-1.2).

    Args:
        text: e.g. ``"一二三壹"``, ``"x1 x2, x3 d1"``; blanks and commas separate tokens.

    Returns:
        The cards in the order written (possibly empty for a blank text).

    Raises:
        InvalidNotationError: naming the first token that is not a card, its 0-based token
            index and character offset.

    >>> parse_cards("x1, x2 d10")
    (<Card.X1: 0>, <Card.X2: 1>, <Card.D10: 19>)
    >>> "".join(map(str, parse_cards("一柒x10")))
    '一柒十'
    """
    cards: list[Card] = []
    i = 0
    n = len(text)
    index = 0
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        card = CHAR_TO_CARD.get(ch)
        if card is not None:
            cards.append(card)
            i += 1
            index += 1
            continue
        start = i
        if ch in "xXdD":
            j = i + 1
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            digits = text[i + 1 : j]
            if digits and 1 <= int(digits) <= 10 and not (len(digits) > 1 and digits[0] == "0"):
                cards.append(Card(int(digits) - 1 + (10 if ch in "dD" else 0)))
                i = j
                index += 1
                continue
            # the whole bad token runs to the next separator
            k = j
            while k < n and text[k] not in _SEPARATORS:
                k += 1
            token = text[start:k]
            why = "rank must be 1-10" if digits else "x (small) or d (big) must be followed by a rank"
            raise InvalidNotationError(text, token, index, start, why)
        k = i + 1
        while k < n and text[k] not in _SEPARATORS and text[k] not in CHAR_TO_CARD:
            k += 1
        raise InvalidNotationError(text, text[start:k], index, start, "cards are 一…十, 壹…拾, x1…x10 or d1…d10")
    return tuple(cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: small before big, then by rank (R-1.2)."""
    return sorted(cards)


def format_cards(cards: Iterable[Card], *, ascii: bool = False, sort: bool = False) -> str:
    """Write a card list: Chinese characters run together, or ASCII tokens joined by spaces.

    ``parse_cards(format_cards(cs)) == tuple(cs)`` for both notations.

    >>> format_cards([Card.X2, Card.D7, Card.X10]), format_cards([Card.X2, Card.D7], ascii=True)
    ('二柒十', 'x2 d7')
    """
    seq = sorted(cards) if sort else list(cards)
    if ascii:
        return " ".join(c.ascii for c in seq)
    return "".join(c.char for c in seq)

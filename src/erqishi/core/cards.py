"""Cards: the 20 card identities of the 80-card deck (R-1.1).

A card's identity is its size (小 small / 大 big) and rank (1-10); the four physical
copies of an identity are interchangeable, so the engine and the analysis speak of
identities only. :class:`Card` is an ``IntEnum`` whose value 0-19 indexes count arrays:
small 一…十 are 0-9, big 壹…拾 are 10-19, which is also the display order.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, IntEnum
from typing import Final

from erqishi.core.errors import InvalidHandError, InvalidNotationError

__all__ = ["CARD_COUNT", "COPIES", "IDENTITIES", "Card", "Size", "count_cards"]

#: Copies of each identity in the deck (R-1.1).
COPIES = 4
#: Number of card identities (2 sizes x 10 ranks).
IDENTITIES = 20
#: Cards in the deck.
CARD_COUNT = COPIES * IDENTITIES

_SMALL_CHARS: Final = "一二三四五六七八九十"
_BIG_CHARS: Final = "壹贰叁肆伍陆柒捌玖拾"


class Size(Enum):
    """小 / 大: a card's size (R-1.1). Small cards are black, big cards red."""

    SMALL = "small"
    BIG = "big"

    @property
    def chinese(self) -> str:
        """小 or 大."""
        return "小" if self is Size.SMALL else "大"


class Card(IntEnum):
    """One card identity (R-1.1): ``Card.X1`` … ``Card.X10`` (小 一…十),
    ``Card.D1`` … ``Card.D10`` (大 壹…拾).

    ``str(card)`` is the canonical Chinese character (R-1.2); ``card.ascii`` the ASCII
    token used by records and the protocol; :meth:`parse` reads either.

    >>> Card.parse("x7"), str(Card.D10), Card.D2.ascii, Card.X3.rank
    (<Card.X7: 6>, '拾', 'd2', 3)
    """

    X1 = 0
    X2 = 1
    X3 = 2
    X4 = 3
    X5 = 4
    X6 = 5
    X7 = 6
    X8 = 7
    X9 = 8
    X10 = 9
    D1 = 10
    D2 = 11
    D3 = 12
    D4 = 13
    D5 = 14
    D6 = 15
    D7 = 16
    D8 = 17
    D9 = 18
    D10 = 19

    @classmethod
    def of(cls, size: Size, rank: int) -> Card:
        """The card of ``size`` and ``rank`` (1-10).

        Raises:
            InvalidHandError: the rank is not 1-10.
            TypeError: ``size`` is no :class:`Size` or ``rank`` no ``int`` (in both builds).
        """
        if not isinstance(size, Size) or not isinstance(rank, int):
            raise TypeError(f"Card.of takes a Size and an int rank, got {size!r}, {rank!r}")
        if not 1 <= rank <= 10:
            raise InvalidHandError(f"rank must be 1-10, got {rank}", zh=f"点数应是 1-10，不是 {rank}")
        return cls(rank - 1 + (10 if size is Size.BIG else 0))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card, Chinese (``"柒"``) or ASCII (``"d7"``), surrounding blanks ignored.

        Raises:
            InvalidNotationError: ``text`` is not exactly one card; its ``token`` is the
                text as written without the surrounding blanks (R-1.2).

        >>> Card.parse(" X7 ")
        <Card.X7: 6>
        """
        token = text.strip()
        card = CHAR_TO_CARD.get(token)
        if card is None:
            card = ASCII_TO_CARD.get(token.lower())
        if card is None:
            if not token:
                why, why_zh = "one card is needed, the text is blank", "要给一张牌，这里是空的"
            elif len(token) > 1 and all(ch in CHAR_TO_CARD for ch in token):
                why, why_zh = f"one card is needed, not {len(token)}", f"只能给一张牌，这里是 {len(token)} 张"
            else:
                why, why_zh = "a card is one of 一…十, 壹…拾, x1…x10 or d1…d10", "牌写作 一…十、壹…拾、x1…x10 或 d1…d10"
            raise InvalidNotationError(text, token, 0, text.find(token) if token else 0, why, why_zh=why_zh)
        return card

    @property
    def size(self) -> Size:
        """小 or 大."""
        return Size.BIG if self.value >= 10 else Size.SMALL

    @property
    def is_big(self) -> bool:
        """True for 大 (red) cards."""
        return self.value >= 10

    @property
    def rank(self) -> int:
        """The rank, 1-10."""
        return self.value % 10 + 1

    @property
    def char(self) -> str:
        """The Chinese character (R-1.2), e.g. ``'七'`` or ``'柒'``."""
        return (_BIG_CHARS if self.value >= 10 else _SMALL_CHARS)[self.value % 10]

    @property
    def ascii(self) -> str:
        """The ASCII token (R-1.2), e.g. ``'x7'`` or ``'d7'``."""
        return f"{'d' if self.value >= 10 else 'x'}{self.value % 10 + 1}"

    @property
    def other_size(self) -> Card:
        """The card of the same rank in the other size (the partner of a 花吃)."""
        return Card((self.value + 10) % 20)

    def __str__(self) -> str:
        return self.char

    def __format__(self, spec: str) -> str:
        return format(self.char, spec)


def count_cards(cards: Iterable[Card]) -> list[int]:
    """Count array of ``cards``: a list of 20 ints indexed by ``Card`` value."""
    counts = [0] * IDENTITIES
    for card in cards:
        counts[card] += 1
    return counts


#: Chinese character -> card.
CHAR_TO_CARD: dict[str, Card] = {c.char: c for c in Card}
#: ASCII token (lower case) -> card.
ASCII_TO_CARD: dict[str, Card] = {c.ascii: c for c in Card}

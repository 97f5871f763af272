"""Card list notation (R-1.2, FORMATS.md "Cards").

A card list is Chinese characters run together (``一一二七十壹``) or ASCII tokens
``x1``…``x10`` / ``d1``…``d10`` separated by spaces or commas (``x1 x1 x2``); the two may
be mixed. Parsing reports the first bad token with its position.
"""

from __future__ import annotations

from collections.abc import Iterable

from erqishi.core.cards import CHAR_TO_CARD, Card
from erqishi.core.errors import InvalidNotationError

__all__ = ["format_cards", "parse_cards", "parse_cards_within", "sort_cards"]

_SEPARATORS = frozenset(" \t\r\n,，、;\u3000\xa0")
_DIGITS = frozenset("0123456789")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a card list written in either notation (R-1.2).

    The text is cut into tokens: blanks and commas separate them; each Chinese card
    character (一…十, 壹…拾) is a token of its own, so they may run together; ``x`` or
    ``d`` (either case) followed by ASCII digits is one ASCII token (``x10``); any other
    run of characters between those is one token too, and never a card (``q``, ``X`` in
    ``一二X五``, ``y2``). The first token that is not a card is reported exactly as written.

    Args:
        text: e.g. ``"一二三壹"``, ``"x1 x2, x3 d1"``; blanks and commas separate tokens.

    Returns:
        The cards in the order written (possibly empty for a blank text).

    Raises:
        InvalidNotationError: naming the first token that is not a card (``token``, as
            written), its 0-based token ``index`` and character offset ``position``.

    >>> parse_cards("x1, x2 d10")
    (<Card.X1: 0>, <Card.X2: 1>, <Card.D10: 19>)
    >>> "".join(map(str, parse_cards("一柒x10")))
    '一柒十'
    >>> try:
    ...     parse_cards("一二X五")
    ... except InvalidNotationError as err:
    ...     err.token, err.index, err.position
    ('X', 2, 2)
    """
    cards: list[Card] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        card = CHAR_TO_CARD.get(ch)
        if card is not None:
            cards.append(card)
            i += 1
            continue
        end = _ascii_end(text, i)
        if end:
            digits = text[i + 1 : end]
            if 1 <= int(digits) <= 10 and digits[0] != "0":
                cards.append(Card(int(digits) - 1 + (10 if ch in "dD" else 0)))
                i = end
                continue
            if digits[0] != "0" or len(digits) == 1:
                why, why_zh = "rank must be 1-10", "点数应是 1-10"
            else:
                why, why_zh = "a rank has no leading 0", "点数前面不能有 0"
            raise InvalidNotationError(text, text[i:end], len(cards), i, why, why_zh=why_zh)
        # any other run up to a separator, a Chinese card or an ASCII token is one bad token
        k = i + 1
        while k < n and text[k] not in _SEPARATORS and text[k] not in CHAR_TO_CARD and not _ascii_end(text, k):
            k += 1
        token = text[i:k]
        if token in ("x", "X", "d", "D"):
            why, why_zh = "x (small) or d (big) must be followed by a rank 1-10", "x（小）或 d（大）后面要跟点数 1-10"
        else:
            why, why_zh = "cards are 一…十, 壹…拾, x1…x10 or d1…d10", "牌写作 一…十、壹…拾、x1…x10 或 d1…d10"
        raise InvalidNotationError(text, token, len(cards), i, why, why_zh=why_zh)
    return tuple(cards)


def parse_cards_within(
    text: str, start: int, end: int, tokens_before: int, why: str | None = None, why_zh: str | None = None
) -> tuple[Card, ...]:
    """:func:`parse_cards` of ``text[start:end]``, a part of a longer text (an action, a
    meld) that has ``tokens_before`` tokens before the part: a bad card is reported where
    it stands in the whole ``text``, with ``why`` in place of the card's own reason if given.

    Raises:
        InvalidNotationError: the first token of the part that is not a card, its index and
            character offset counted in ``text``.

    >>> try:
    ...     parse_cards_within("chi x1 x99", 4, 10, 1)
    ... except InvalidNotationError as err:
    ...     err.token, err.index, err.position
    ('x99', 2, 7)
    """
    try:
        return parse_cards(text[start:end])
    except InvalidNotationError as err:
        raise InvalidNotationError(
            text,
            err.token,
            tokens_before + err.index,
            start + err.position,
            err._why if why is None else why,
            what=err.what,
            why_zh=err._why_zh if why_zh is None else why_zh,
        ) from None


def _ascii_end(text: str, i: int) -> int:
    """The end of the ASCII token ``x``/``d`` + digits starting at ``i``, or 0 when none
    starts there."""
    if text[i] not in "xXdD":
        return 0
    j = i + 1
    while j < len(text) and text[j] in _DIGITS:
        j += 1
    return j if j > i + 1 else 0


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

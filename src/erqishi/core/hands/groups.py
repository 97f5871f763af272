"""Groups (房 *fang*) and their hu (胡数), R-3: the one hu table of the project.

A :class:`Group` is one group of a winning hand: its kind, its cards, whether it lies
exposed on the table, whether it holds the winning card, and whether it is a 开 that grew
on the table under the ``yu`` option. Its ``hu`` comes from :data:`HU_TABLE` (hu points,
not score); :data:`CARD_HU` is the same table spread per card value, for the search.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from erqishi.core._compiled import checks_own_input, field_key, raw
from erqishi.core.cards import IDENTITIES, Card
from erqishi.core.errors import InvalidHandError
from erqishi.core.notation import format_cards, parse_cards, parse_cards_within

__all__ = ["CARD_HU", "HU_TABLE", "Group", "GroupKind", "classify_triple", "parse_meld"]


class GroupKind(StrEnum):
    """The kinds of group of R-3 by their code names (R-11)."""

    RUN = "run"
    EJS = "ejs"
    HUA = "hua"
    DUI = "dui"
    KAN = "kan"
    KAI = "kai"
    GUN = "gun"
    PAIR = "pair"

    @property
    def chinese(self) -> str:
        """The Chinese name: 顺子 二七十 花吃 对 坎 开 滚 桩子."""
        return _CHINESE[self]

    @property
    def is_quad(self) -> bool:
        """开 and 滚, the quads of R-4."""
        return self in (GroupKind.KAI, GroupKind.GUN)


_CHINESE: Final = {
    GroupKind.RUN: "顺子",
    GroupKind.EJS: "二七十",
    GroupKind.HUA: "花吃",
    GroupKind.DUI: "对",
    GroupKind.KAN: "坎",
    GroupKind.KAI: "开",
    GroupKind.GUN: "滚",
    GroupKind.PAIR: "桩子",
}

#: Hu of each kind for (small, big) cards (R-3). Every hu value of the analysis comes
#: from this table.
HU_TABLE: dict[GroupKind, tuple[int, int]] = {
    GroupKind.RUN: (0, 0),
    GroupKind.EJS: (3, 6),
    GroupKind.HUA: (0, 0),
    GroupKind.DUI: (1, 3),
    GroupKind.KAN: (3, 6),
    GroupKind.KAI: (6, 9),
    GroupKind.GUN: (9, 12),
    GroupKind.PAIR: (0, 0),
}

#: :data:`HU_TABLE` per card value: ``CARD_HU[kind][v]`` is the hu of a group of ``kind``
#: whose lowest card has value ``v`` (0-9 small, 10-19 big; R-1.1, R-3).
CARD_HU: dict[GroupKind, tuple[int, ...]] = {
    kind: tuple(small if v < 10 else big for v in range(IDENTITIES)) for kind, (small, big) in HU_TABLE.items()
}


@checks_own_input
@dataclass(frozen=True, slots=True)
class Group:
    """One group (房) of a hand (R-3).

    Raises:
        InvalidHandError: ``kind`` is no :class:`GroupKind`, or ``cards`` holds no cards.

    Attributes:
        kind: the group's kind.
        cards: its cards in display order (3, 4, or 2 for the pair).
        exposed: laid face up on the table during play (a 吃/摆 group, 对 or 开 meld).
        winning: holds the winning card (R-3.2: such a 对 or 开 counts as exposed in kind).
        yu: a 开 made under the ``yu`` option by adding the fourth card to an exposed 对
            (下雨, R-5.13): it grew on the table, not from a 坎 in the hand (R-7.3 瞟胡).
    """

    kind: GroupKind
    cards: tuple[Card, ...]
    exposed: bool = False
    winning: bool = False
    yu: bool = False
    #: Hu points of this group (R-3): e.g. a big 坎 is 6, a small 对 is 1, a run 0.
    hu: int = field(init=False, compare=False)

    def __eq__(self, other: object) -> bool:  # explicit for the compiled build (field_key)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_key(self) == field_key(other)

    def __hash__(self) -> int:
        return hash(field_key(self))

    def __post_init__(self) -> None:
        kind, cards = raw(self, "kind"), raw(self, "cards")  # unchecked: checked here, in both builds
        hu = HU_TABLE.get(kind) if isinstance(kind, GroupKind) else None
        if hu is None:
            raise InvalidHandError(f"a group's kind must be a GroupKind, got {kind!r}")
        if not isinstance(cards, tuple) or not cards or not isinstance(cards[0], Card):
            raise InvalidHandError(f"a group holds a tuple of cards, got {cards!r}")
        object.__setattr__(self, "hu", hu[cards[0] >= 10])

    @property
    def name(self) -> str:
        """Chinese name as shown to players; a big 二七十 is 贰柒拾."""
        if self.kind is GroupKind.EJS and self.cards[0].is_big:
            return "贰柒拾"
        return self.kind.chinese

    def __str__(self) -> str:
        return format_cards(self.cards)


def classify_triple(cards: Iterable[Card]) -> GroupKind | None:
    """Which of 顺子, 二七十, 花吃 three cards make (R-3), or None.

    Three identical cards are no 吃 group (they are a 对 or 坎, decided by where they
    came from), so they give None here.

    >>> classify_triple(parse_cards("二七十")), classify_triple(parse_cards("六陆陆"))
    (<GroupKind.EJS: 'ejs'>, <GroupKind.HUA: 'hua'>)
    """
    a, b, c = sorted(cards)
    if a == b == c:
        return None
    if a.size is b.size is c.size:
        if b.rank == a.rank + 1 and c.rank == b.rank + 1:
            return GroupKind.RUN
        if (a.rank, b.rank, c.rank) == (2, 7, 10):
            return GroupKind.EJS
        return None
    if a.rank == b.rank == c.rank:
        return GroupKind.HUA
    return None


_NOT_A_MELD: Final = (
    "a meld is 3 identical (对), 4 identical (开), a 对 plus its fourth card (开 under yu, "
    "三三三+三), or 3 cards making 顺子, 二七十 or 花吃"
)
_NOT_A_MELD_ZH: Final = (
    "一房是三张相同的（对）、四张相同的（开）、对加它的第四张（yu 选项下的开，如 三三三+三），"
    "或成顺子、二七十、花吃的三张"
)


def parse_meld(text: str) -> Group:
    """An exposed meld from its cards (``cases/README.md``): 3 identical = 对,
    4 identical = 开 (grown from a 坎), otherwise a 吃/摆 group (顺子, 二七十 or 花吃).

    A 对 plus its fourth card, written with ``+`` (``三三三+三``, ``x3 x3 x3 + x3``), is a
    开 made under the ``yu`` option onto the exposed 对 (下雨, R-5.13): ``yu=True``, so it
    does not block 瞟胡 (R-7.3).

    Returns:
        The exposed :class:`Group`, cards in display order.

    Raises:
        InvalidNotationError: a bad card token (its position counted in the whole text).
        InvalidHandError: the cards are no meld, naming the text.

    >>> g = parse_meld("五五五五"); (g.kind, g.hu, g.exposed, g.yu)
    (<GroupKind.KAI: 'kai'>, 6, True, False)
    >>> g = parse_meld("三三三+三"); (g.kind, g.hu, g.exposed, g.yu)
    (<GroupKind.KAI: 'kai'>, 6, True, True)
    """
    plus = text.find("+")
    if plus >= 0:
        dui = _parse_part(text, 0, plus, 0)
        fourth = _parse_part(text, plus + 1, len(text), len(dui))
        if len(dui) == 3 and len(set(dui)) == 1 and fourth == dui[:1]:
            return Group(GroupKind.KAI, dui + fourth, exposed=True, yu=True)
        raise InvalidHandError(f"meld {text!r} is not a group: {_NOT_A_MELD}", zh=f"{text!r} 不成房：{_NOT_A_MELD_ZH}")
    cards = tuple(sorted(parse_cards(text)))
    if len(cards) == 4 and len(set(cards)) == 1:
        return Group(GroupKind.KAI, cards, exposed=True)
    if len(cards) == 3:
        if len(set(cards)) == 1:
            return Group(GroupKind.DUI, cards, exposed=True)
        kind = classify_triple(cards)
        if kind is not None:
            return Group(kind, cards, exposed=True)
    raise InvalidHandError(f"meld {text!r} is not a group: {_NOT_A_MELD}", zh=f"{text!r} 不成房：{_NOT_A_MELD_ZH}")


def _parse_part(text: str, start: int, end: int, tokens_before: int) -> tuple[Card, ...]:
    """The cards of ``text[start:end]``; a bad token is reported within the whole ``text``."""
    return parse_cards_within(
        text,
        start,
        end,
        tokens_before,
        "cards are 一…十, 壹…拾, x1…x10 or d1…d10, and one + joins a 对 to its fourth card",
        "牌写作 一…十、壹…拾、x1…x10 或 d1…d10，一个 + 把对和它的第四张连起来",
    )

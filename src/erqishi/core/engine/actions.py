"""Actions and their one-line ASCII notation (FORMATS.md "Actions").

``discard x3`` · ``chi x2 x3`` · ``chi x2 x3 bai x1 x2 x3`` · ``dui`` · ``kai`` · ``hu`` ·
``pass``. Flips and 八块 announcements are not actions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from erqishi.core._compiled import reduce_fields
from erqishi.core.cards import Card
from erqishi.core.errors import InvalidNotationError
from erqishi.core.notation import format_cards, parse_cards_within

#: an action's first word and the blanks after it
_HEAD = re.compile(r"\s*(\S+)\s*")
#: the ``bai`` between a 吃's hand cards and each 摆 group (any case)
_BAI = re.compile(r"(?:^|\s+)bai(?:\s+|$)", re.IGNORECASE)


__all__ = ["DUI", "HU", "KAI", "PASS", "Action", "ActionKind"]


class ActionKind(StrEnum):
    """The kinds of action (FORMATS.md)."""

    DISCARD = "discard"
    CHI = "chi"
    DUI = "dui"
    KAI = "kai"
    HU = "hu"
    PASS = "pass"

    @property
    def chinese(self) -> str:
        """打, 吃, 对, 开, 胡, 过."""
        return {"discard": "打", "chi": "吃", "dui": "对", "kai": "开", "hu": "胡", "pass": "过"}[self.value]


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a seat (FORMATS.md).

    Attributes:
        kind: what is done.
        cards: for ``discard`` the one card; for ``chi`` the two hand cards used with the
            pending card (R-5.7), sorted.
        bai: for ``chi``, the 摆 groups laid with it (R-5.8), each three hand cards,
            sorted within and between groups.

    ``str(action)`` is the ASCII notation; :meth:`parse` reads it back (either card
    notation), so ``Action.parse(str(a)) == a``.

    >>> a = Action.parse("chi x8 x7 bai x6 x7 x8"); str(a)
    'chi x7 x8 bai x6 x7 x8'
    >>> Action.parse("discard 三") == Action.discard(Card.X3)
    True
    """

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    bai: tuple[tuple[Card, ...], ...] = ()

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    @classmethod
    def discard(cls, card: Card) -> Action:
        """``discard card``."""
        return cls(ActionKind.DISCARD, (card,))

    @classmethod
    def chi(cls, cards: tuple[Card, Card], bai: tuple[tuple[Card, ...], ...] = ()) -> Action:
        """``chi a b [bai x y z]…`` in normal form (cards sorted, 摆 groups sorted)."""
        return cls(ActionKind.CHI, tuple(sorted(cards)), tuple(sorted(tuple(sorted(g)) for g in bai)))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read one action in the notation of FORMATS.md.

        Raises:
            InvalidNotationError: an unknown action word, a bad card, or the wrong number
                of cards for the action, naming the text.
        """
        head_match = _HEAD.match(text)
        if head_match is None:
            raise InvalidNotationError(text, text, 0, 0, "empty action", what="action", why_zh="动作是空的")
        head = head_match.group(1)
        rest_at = head_match.end()  # where the cards start in ``text``
        rest = text[rest_at:]
        try:
            kind = ActionKind(head.lower())
        except ValueError:
            raise InvalidNotationError(
                text,
                head,
                0,
                head_match.start(1),
                "actions are discard, chi, dui, kai, hu, pass",
                what="action",
                why_zh="动作是 discard、chi、dui、kai、hu、pass 之一",
            ) from None
        if kind in (ActionKind.DUI, ActionKind.KAI, ActionKind.HU, ActionKind.PASS):
            if rest.strip():
                raise InvalidNotationError(
                    text,
                    rest.strip(),
                    1,
                    rest_at + len(rest) - len(rest.lstrip()),
                    f"{kind} takes no cards",
                    what="action",
                    why_zh=f"{kind} 不带牌",
                )
            return cls(kind)
        if kind is ActionKind.DISCARD:
            cards = parse_cards_within(text, rest_at, rest_at + len(rest), 1)
            if len(cards) != 1:
                raise InvalidNotationError(
                    text,
                    rest.strip() or text,
                    1 if rest.strip() else 0,
                    rest_at + len(rest) - len(rest.lstrip()) if rest.strip() else 0,
                    "discard takes one card",
                    what="action",
                    why_zh="discard 带一张牌",
                )
            return cls.discard(cards[0])
        # the hand cards, then each 摆 group after a ``bai``, with where each part starts
        parts: list[tuple[str, int]] = []
        start = 0
        for sep in _BAI.finditer(rest):
            parts.append((rest[start : sep.start()], rest_at + start))
            start = sep.end()
        parts.append((rest[start:], rest_at + start))
        tokens = 1  # tokens before the part being read: the action word, cards, each ``bai``
        first = parse_cards_within(text, parts[0][1], parts[0][1] + len(parts[0][0]), tokens)
        if len(first) != 2:
            raise InvalidNotationError(
                text,
                parts[0][0].strip() or text,
                1 if parts[0][0].strip() else 0,
                parts[0][1] + len(parts[0][0]) - len(parts[0][0].lstrip()) if parts[0][0].strip() else 0,
                "chi takes two hand cards",
                what="action",
                why_zh="chi 带两张手牌",
            )
        tokens += len(first)
        groups: list[tuple[Card, ...]] = []
        for part, at in parts[1:]:
            tokens += 1  # the ``bai``
            group = parse_cards_within(text, at, at + len(part), tokens)
            if len(group) != 3:
                lead = len(part) - len(part.lstrip())
                raise InvalidNotationError(
                    text,
                    part.strip() or "bai",
                    tokens,
                    at + lead if part.strip() else at - 4,
                    "a 摆 group is three cards",
                    what="action",
                    why_zh="摆的每组是三张牌",
                )
            tokens += len(group)
            groups.append(group)
        return cls.chi((first[0], first[1]), tuple(groups))

    def _spell(self, *, ascii: bool) -> str:
        if self.kind is ActionKind.DISCARD:
            card = self.cards[0]
            return f"discard {card.ascii}" if ascii else f"打 {card}"
        if self.kind is ActionKind.CHI:
            chi, bai = ("chi", "bai") if ascii else ("吃", "摆")
            text = f"{chi} {format_cards(self.cards, ascii=ascii)}"
            for group in self.bai:
                text += f" {bai} {format_cards(group, ascii=ascii)}"
            return text
        return self.kind.value if ascii else self.kind.chinese

    def __str__(self) -> str:
        return self._spell(ascii=True)

    @property
    def chinese(self) -> str:
        """The action for display, e.g. ``吃 七八 摆 六七八``, ``打 九``."""
        return self._spell(ascii=False)


PASS = Action(ActionKind.PASS)
HU = Action(ActionKind.HU)
DUI = Action(ActionKind.DUI)
KAI = Action(ActionKind.KAI)

"""The deal (R-2): who deals, every seat's cards and the stock order, as a value.

Chance is data: a :class:`Deal` fixes everything random in a hand, so the same deal and
the same actions give the same hand. :meth:`Deal.shuffled` draws one from an injected
``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from erqishi.core._compiled import reduce_fields
from erqishi.core.cards import COPIES, Card
from erqishi.core.errors import InvalidHandError
from erqishi.core.rules import LESHAN, RuleSet

__all__ = ["Deal", "active_seats", "sitting_out_seat"]

#: the 80 cards in card order, four copies each (R-2.1): what a shuffle starts from
_DECK: Final = tuple(card for card in Card for _ in range(COPIES))


def sitting_out_seat(dealer: int, players: int) -> int | None:
    """With four players, seat (dealer - 1) mod 4 sits the hand out (R-10); else None."""
    return (dealer - 1) % 4 if players == 4 else None


def active_seats(dealer: int, players: int) -> tuple[int, ...]:
    """The seats that play a hand, in seat order (FORMATS.md "Seats")."""
    out = sitting_out_seat(dealer, players)
    return tuple(s for s in range(players) if s != out)


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt hand (R-2.3): the dealer, each seat's cards, and the stock, top first.

    Attributes:
        dealer: the dealer's seat (庄家).
        hands: one tuple of cards per seat: 21 for the dealer, 20 for the others, none
            for a seat sitting out (four players).
        stock: the undealt cards (堂牌), the next flip first.

    Raises:
        InvalidHandError: the cards are not one full deck of 80, or a hand has the wrong
            size for its seat, naming the seat.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    def validate(self, rules: RuleSet = LESHAN) -> None:
        """Check the deal against the rule set's player count (R-2.3, R-10).

        Raises:
            InvalidHandError: naming what is wrong.
        """
        self.hand_counts(rules)

    def hand_counts(self, rules: RuleSet = LESHAN) -> list[list[int]]:
        """Each seat's cards as 20 counts by ``Card`` value, the deal checked against
        ``rules`` on the way (:meth:`validate`; one pass over the cards for both).

        Raises:
            InvalidHandError: naming what is wrong.
        """
        n = rules.players
        if not 0 <= self.dealer < n:
            raise InvalidHandError(
                f"dealer seat {self.dealer} is not one of 0-{n - 1}", zh=f"庄家座位 {self.dealer} 不在 0-{n - 1} 之中"
            )
        if len(self.hands) != n:
            raise InvalidHandError(
                f"expected {n} hands, one per seat, got {len(self.hands)}",
                zh=f"应有 {n} 手牌（每个座位一手），不是 {len(self.hands)} 手",
            )
        out = sitting_out_seat(self.dealer, n)
        for seat, hand in enumerate(self.hands):
            want = 0 if seat == out else 21 if seat == self.dealer else 20
            if len(hand) != want:
                role = "sits out and" if seat == out else "deals and" if seat == self.dealer else ""
                role_zh = "轮空，" if seat == out else "是庄家，" if seat == self.dealer else ""
                raise InvalidHandError(
                    f"seat {seat} {role} must hold {want} cards, not {len(hand)}".replace("  ", " "),
                    zh=f"座位 {seat} {role_zh}应有 {want} 张牌，不是 {len(hand)} 张",
                )
        dealt = sum(len(hand) for hand in self.hands)
        if dealt + len(self.stock) != COPIES * len(Card):
            raise InvalidHandError(
                f"the stock must hold {COPIES * len(Card) - dealt} cards (the deck's {COPIES * len(Card)} "
                f"less the {dealt} dealt), not {len(self.stock)}",
                zh=f"底牌应有 {COPIES * len(Card) - dealt} 张（一副 {COPIES * len(Card)} 张减去发出的 {dealt} 张），"
                f"不是 {len(self.stock)} 张",
            )
        counts = [0] * 20
        for card in self.stock:
            counts[card] += 1
        per_seat: list[list[int]] = []
        for hand in self.hands:
            mine = [0] * 20
            for card in hand:
                mine[card] += 1
            for v in range(20):
                counts[v] += mine[v]
            per_seat.append(mine)
        for v in range(len(counts)):  # by value: no walk over the enum on every deal
            if counts[v] != COPIES:
                card = Card(v)
                raise InvalidHandError(
                    f"the deal holds {counts[v]} copies of {card} ({card.ascii}); a deck has {COPIES}",
                    zh=f"这副牌里有 {counts[v]} 张 {card}：一副牌每种只有 {COPIES} 张",
                )
        return per_seat

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int, rules: RuleSet = LESHAN) -> Deal:
        """A shuffled deal from ``rng`` (R-2.3): the dealer takes 21 cards, the others 20,
        counter-clockwise from the dealer; the rest is the stock.

        >>> d = Deal.shuffled(random.Random(1), 0); [len(h) for h in d.hands], len(d.stock)
        ([21, 20, 20], 19)
        """
        deck = list(_DECK)
        _shuffle(rng, deck)
        n = rules.players
        hands: list[tuple[Card, ...]] = [()] * n
        pos = 0
        seats = active_seats(dealer, n)
        order = [s for s in seats if s >= dealer] + [s for s in seats if s < dealer]
        for seat in order:
            size = 21 if seat == dealer else 20
            hands[seat] = tuple(sorted(deck[pos : pos + size]))
            pos += size
        return cls(dealer, tuple(hands), tuple(deck[pos:]))


def _shuffle(rng: random.Random, deck: list[Card]) -> None:
    """``rng.shuffle(deck)``, card for card: for a plain ``random.Random`` the same draws
    as its ``shuffle`` (Fisher-Yates from the end, each index by ``getrandbits`` with
    rejection, as CPython's ``_randbelow``) in a loop of this module, which the compiled
    build runs natively; any other generator shuffles by its own method."""
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]

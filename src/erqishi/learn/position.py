"""A constructed position in card notation (R-1.2): each seat's hand, melds, row and marks,
whose turn it is and the pending card, turned into an engine :class:`State` that the
engine's own move generator and checks then judge. Like a chess position file, it lets one
rule be looked at in isolation; the lessons are built on it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from erqishi.core import Card, RuleSet, parse_cards
from erqishi.core.engine import Deal, Phase, SeatState, State, active_seats
from erqishi.core.errors import InvalidHandError
from erqishi.core.hands import Group, parse_meld

__all__ = ["Position", "SeatSpec"]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a :class:`Position`, all in card notation (R-1.2).

    Attributes:
        hand: the concealed hand; ``None`` fills it with unused cards up to ``size``.
        melds: exposed melds (``cases/README.md`` meld notation: ``三三三``, ``一二三``, ``五五五五``).
        row: the seat's face-up row, oldest first (R-5.2, R-5.3).
        discarded: identities it discarded from its hand (R-5.9, 回笼 R-6.2); its row's
            cards are not assumed discarded unless listed.
        guozhang: identities it declined to 吃 (过张, R-5.9).
        guohu: the highest score of a win it declined since its last take, -1 if none (R-6.2).
        size: with ``hand=None``, how many concealed cards to fill in.
    """

    hand: str | None = None
    melds: tuple[str, ...] = ()
    row: str = ""
    discarded: str = ""
    guozhang: str = ""
    guohu: int = -1
    size: int = 20


def _mask(cards: tuple[Card, ...]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


@dataclass(frozen=True, slots=True)
class Position:
    """A hand in progress, built by hand (not by play) for one decision.

    Attributes:
        seats: seat number → :class:`SeatSpec`; unlisted seats are filled with unused cards.
        phase: ``response`` (a card waits for answers), ``discard`` (``turn`` owes a
            discard) or ``opening`` (the dealer opens, R-5.1).
        turn: RESPONSE: who discarded or flipped ``pending``; DISCARD: who owes it.
        pending: the card waiting for responses, in notation.
        flip: ``pending`` was flipped (else discarded).
        dealer: the dealer's seat.
        stock: how many cards are left in the stock (filled with unused cards).
        forbidden: identities the seat owing a discard may not discard (上吐下泻, R-5.10).
        preset: the rule preset (R-10).
        quan: the 圈 number, or None.
    """

    seats: Mapping[int, SeatSpec] = field(default_factory=dict)
    phase: str = "response"
    turn: int = 0
    pending: str | None = None
    flip: bool = False
    dealer: int = 0
    stock: int = 12
    forbidden: str = ""
    preset: str = "leshan"
    quan: int | None = None

    def rules(self) -> RuleSet:
        """The position's rule set (R-10)."""
        return RuleSet.preset(self.preset)

    def state(self) -> State:
        """The engine state of this position.

        Unlisted hands, the stock and every ``hand=None`` are filled from the cards not
        used elsewhere, in a fixed order (the same position always gives the same state).

        Raises:
            InvalidNotationError: a bad card, naming it and where.
            InvalidHandError: more than four copies of a card in all, or a bad meld.
        """
        rules = self.rules()
        n = rules.players
        order = active_seats(self.dealer, n)
        left = [4] * 20
        pending = None if self.pending is None else Card.parse(self.pending)

        def use(cards: tuple[Card, ...], where: str) -> None:
            for c in cards:
                left[c] -= 1
                if left[c] < 0:
                    raise InvalidHandError(f"{where}: a fifth {c} (there are four of each card, R-1.1)")

        parsed: dict[int, tuple[tuple[Card, ...] | None, tuple[Group, ...], tuple[Card, ...]]] = {}
        for seat in order:
            spec = self.seats.get(seat, SeatSpec())
            hand = None if spec.hand is None else parse_cards(spec.hand)
            melds = tuple(parse_meld(m) for m in spec.melds)
            row = parse_cards(spec.row)
            if hand is not None:
                use(hand, f"seat {seat}'s hand")
            for g in melds:
                use(g.cards, f"seat {seat}'s melds")
            use(row, f"seat {seat}'s row")
            parsed[seat] = (hand, melds, row)
        if pending is not None:
            use((pending,), "the pending card")
        spare = [Card(c) for c in range(20) for _ in range(left[c])]
        random.Random(20).shuffle(spare)
        seats: list[SeatState] = []
        for seat in range(n):
            if seat not in parsed:
                seats.append(SeatState(hand=(0,) * 20))
                continue
            spec = self.seats.get(seat, SeatSpec())
            hand, melds, row = parsed[seat]
            if hand is None:
                hand, spare = tuple(spare[: spec.size]), spare[spec.size :]
            counts = [0] * 20
            for c in hand:
                counts[c] += 1
            quads = sum(1 for k in counts if k == 4) + sum(1 for g in melds if len(g.cards) == 4)
            seats.append(
                SeatState(
                    hand=tuple(counts),
                    melds=melds,
                    row=row,
                    discarded=_mask(parse_cards(spec.discarded)),
                    guozhang=_mask(parse_cards(spec.guozhang)),
                    guohu=spec.guohu,
                    quads=quads,
                    card_count=len(hand) + sum(len(g.cards) for g in melds),
                )
            )
        stock = tuple(spare[: self.stock])
        deal = Deal(self.dealer, tuple(() for _ in range(n)), stock)
        return State(
            rules=rules,
            deal=deal,
            quan=self.quan,
            seats=tuple(seats),
            order=order,
            stock_pos=0,
            phase=Phase(self.phase),
            turn=self.turn,
            pending=pending,
            pending_flip=self.flip,
            forbidden=_mask(parse_cards(self.forbidden)),
        )

"""Hand-made engine positions for the rule tests: a state built directly from each
seat's cards, melds and history, so that one rule can be looked at in isolation
(like chess position files). Card strings use either notation (R-1.2)."""

from __future__ import annotations

from erqishi.core import Card, RuleSet, parse_cards, parse_meld
from erqishi.core.engine import Deal, Phase, SeatState, State, active_seats

LESHAN = RuleSet()


def mask(cards: str) -> int:
    """A bit set of card identities."""
    out = 0
    for c in parse_cards(cards):
        out |= 1 << c
    return out


def seat_state(
    hand: str,
    melds: tuple[str, ...] = (),
    *,
    discarded: str = "",
    guozhang: str = "",
    guohu: int = -1,
    row: str = "",
) -> SeatState:
    counts = [0] * 20
    for c in parse_cards(hand):
        counts[c] += 1
    groups = tuple(parse_meld(m) for m in melds)
    quads = sum(1 for n in counts if n == 4) + sum(1 for g in groups if len(g.cards) == 4)
    return SeatState(
        hand=tuple(counts),
        melds=groups,
        row=parse_cards(row),
        discarded=mask(discarded),
        guozhang=mask(guozhang),
        guohu=guohu,
        quads=quads,
        card_count=sum(counts) + sum(len(g.cards) for g in groups),
    )


def position(
    seats: dict[int, SeatState],
    *,
    phase: Phase = Phase.RESPONSE,
    turn: int = 0,
    pending: str | None = None,
    flip: bool = False,
    dealer: int = 0,
    stock: str = "x1 x2 x3",
    rules: RuleSet = LESHAN,
    di: bool = False,
    quan: int | None = None,
    forbidden: str = "",
) -> State:
    n = rules.players
    empty = seat_state("")
    all_seats = tuple(seats.get(s, empty) for s in range(n))
    deal = Deal(dealer, tuple(() for _ in range(n)), parse_cards(stock))
    return State(
        rules=rules,
        deal=deal,
        quan=quan,
        seats=all_seats,
        order=active_seats(dealer, n),
        stock_pos=0,
        phase=phase,
        turn=turn,
        pending=None if pending is None else Card.parse(pending),
        pending_flip=flip,
        di_window=di,
        forbidden=mask(forbidden),
    )


def deal_with(dealer: int, fixed: dict[int, str], stock_top: str = "", players: int = 3) -> Deal:
    """A full deal: the given hands (completed with spread-out cards), then the stock."""
    left = [4] * 20
    hands: dict[int, list[Card]] = {}
    for seat, text in fixed.items():
        hands[seat] = list(parse_cards(text))
        for c in hands[seat]:
            left[c] -= 1
    top = list(parse_cards(stock_top))
    for c in top:
        left[c] -= 1
    assert min(left) >= 0
    pool = [Card(c) for c in range(20) for _ in range(left[c])]
    sitting = (dealer - 1) % 4 if players == 4 else None
    for seat in range(players):
        hands.setdefault(seat, [])
    for seat in range(players):
        want = 0 if seat == sitting else 21 if seat == dealer else 20
        while len(hands[seat]) < want:
            # the card this seat holds fewest of, so fillers make no 坎
            card = min(pool, key=lambda c: (hands[seat].count(c), c))
            pool.remove(card)
            hands[seat].append(card)
    return Deal(dealer, tuple(tuple(sorted(hands[s])) for s in range(players)), tuple(top + pool))

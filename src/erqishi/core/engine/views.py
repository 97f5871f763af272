"""What one seat may know (R-9): :class:`PlayerView`, derived from the state.

Bots, the terminal game, the server and the RL environment receive views, never the
state, so hidden information (others' concealed hands, concealed 滚, the stock order)
cannot leak. When the hand is over every hand is shown (R-9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from erqishi.core._boundary import raise_if_mistyped
from erqishi.core._compiled import NATIVE, reduce_fields
from erqishi.core._fast import slot_setter
from erqishi.core.cards import Card
from erqishi.core.engine.actions import Action
from erqishi.core.engine.legal import seat_options
from erqishi.core.engine.state import Outcome, Phase, SeatState, State
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import Group
from erqishi.core.rules import RuleSet

__all__ = ["PlayerView", "PublicView", "SeatView", "public_view", "view"]


@dataclass(frozen=True, slots=True, init=False)
class SeatView:
    """The public part of one seat (R-9).

    Attributes:
        seat: the seat number.
        hand_size: cards in its concealed hand.
        melds: its exposed groups.
        row: its face-up row (discards and untaken flips).
        announced: quad cards announced (八块 = 8 …), 0 if none.
        hand: its concealed hand, only for the viewer's own seat or once the hand is over.
    """

    seat: int
    hand_size: int
    melds: tuple[Group, ...]
    row: tuple[Card, ...]
    announced: int
    hand: tuple[Card, ...] | None

    def __init__(
        self,
        seat: int,
        hand_size: int,
        melds: tuple[Group, ...],
        row: tuple[Card, ...],
        announced: int,
        hand: tuple[Card, ...] | None,
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.seat = seat  # type: ignore[misc]
            self.hand_size = hand_size  # type: ignore[misc]
            self.melds = melds  # type: ignore[misc]
            self.row = row  # type: ignore[misc]
            self.announced = announced  # type: ignore[misc]
            self.hand = hand  # type: ignore[misc]
        else:
            _SET_SEAT_VIEW(self, seat, hand_size, melds, row, announced, hand)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)


@dataclass(frozen=True, slots=True, init=False)
class PublicView:
    """What everyone at the table may know now (R-9): a spectator's view.

    Attributes:
        rules, quan, dealer: the hand's rule set, 圈 number and dealer.
        order: the seats that play, in seat order.
        phase: the phase.
        turn: the seat that discarded or flipped the pending card, or that must act.
        pending: the card waiting for responses, and whether it was flipped.
        stock_left: cards left in the stock.
        seats: public information of every seat; concealed hands only once the hand is
            over (and, in a :class:`PlayerView`, the viewer's own).
        result: the outcome once the hand is over.
    """

    rules: RuleSet
    quan: int | None
    dealer: int
    order: tuple[int, ...]
    phase: Phase
    turn: int
    pending: Card | None
    pending_flip: bool
    stock_left: int
    seats: tuple[SeatView, ...]
    result: Outcome | None

    def __init__(
        self,
        rules: RuleSet,
        quan: int | None,
        dealer: int,
        order: tuple[int, ...],
        phase: Phase,
        turn: int,
        pending: Card | None,
        pending_flip: bool,
        stock_left: int,
        seats: tuple[SeatView, ...],
        result: Outcome | None,
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.rules = rules  # type: ignore[misc]
            self.quan = quan  # type: ignore[misc]
            self.dealer = dealer  # type: ignore[misc]
            self.order = order  # type: ignore[misc]
            self.phase = phase  # type: ignore[misc]
            self.turn = turn  # type: ignore[misc]
            self.pending = pending  # type: ignore[misc]
            self.pending_flip = pending_flip  # type: ignore[misc]
            self.stock_left = stock_left  # type: ignore[misc]
            self.seats = seats  # type: ignore[misc]
            self.result = result  # type: ignore[misc]
        else:
            _SET_PUBLIC_VIEW(
                self, rules, quan, dealer, order, phase, turn, pending, pending_flip, stock_left, seats, result
            )

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    def seen(self) -> list[int]:
        """Copies of each identity in sight of everyone (20 counts by ``Card`` value):
        every meld and row, and the pending card."""
        counts = [0] * 20
        for sv in self.seats:
            for group in sv.melds:
                for card in group.cards:
                    counts[card] += 1
            for card in sv.row:
                counts[card] += 1
        if self.pending is not None and self.phase is Phase.RESPONSE:
            counts[self.pending] += 1
        return counts


@dataclass(frozen=True, slots=True, init=False)
class PlayerView(PublicView):
    """Everything ``seat`` may know now (R-9): the public view plus its own hand and options.

    Attributes:
        seat: the viewer.
        hand: the viewer's concealed hand in display order.
        legal: what the viewer may declare now (:func:`~erqishi.core.engine.legal.seat_options`):
            in a response window every own response and ``pass`` unless the viewer itself
            owes a 开, so nothing here depends on another seat's hidden cards.
    """

    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Action, ...]

    def __init__(
        self,
        rules: RuleSet,
        quan: int | None,
        dealer: int,
        order: tuple[int, ...],
        phase: Phase,
        turn: int,
        pending: Card | None,
        pending_flip: bool,
        stock_left: int,
        seats: tuple[SeatView, ...],
        result: Outcome | None,
        seat: int,
        hand: tuple[Card, ...],
        legal: tuple[Action, ...],
    ) -> None:
        PublicView.__init__(
            self, rules, quan, dealer, order, phase, turn, pending, pending_flip, stock_left, seats, result
        )
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.seat = seat  # type: ignore[misc]
            self.hand = hand  # type: ignore[misc]
            self.legal = legal  # type: ignore[misc]
        else:
            _SET_PLAYER_OWN(self, seat, hand, legal)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    def seen(self, *, own_hand: bool = True) -> list[int]:
        """Copies of each identity this seat can see (20 counts by ``Card`` value): every
        meld and row, the pending card, and its own hand unless ``own_hand`` is False."""
        counts = PublicView.seen(self)
        if own_hand:
            for card in self.hand:
                counts[card] += 1
        return counts


_SET_SEAT_VIEW: Final = slot_setter(SeatView)
_SET_PLAYER_OWN: Final = slot_setter(PlayerView, ("seat", "hand", "legal"))
_SET_PUBLIC_VIEW: Final = slot_setter(PublicView)


def _seat_view(s: int, st: SeatState, shown: bool) -> SeatView:
    """The public part of seat ``s`` whose state is ``st``, with its concealed hand if
    ``shown``; built once per seat state (a seat keeps its state object while nothing of
    it changes, so most views reuse it)."""
    memo = st._views
    if memo is None or memo[0] != s:
        memo = [s, None, None]
        object.__setattr__(st, "_views", memo)
    found: SeatView | None = memo[2 if shown else 1]
    if found is None:
        found = SeatView(s, sum(st.hand), st.melds, st.row, st.announced, st.cards() if shown else None)
        memo[2 if shown else 1] = found
    return found


def _seat_views(state: State, viewer: int | None) -> tuple[SeatView, ...]:
    """Every seat's public part; concealed hands only for ``viewer`` or once the hand is over."""
    over = state.phase is Phase.OVER
    return tuple([_seat_view(s, st, over or s == viewer) for s, st in enumerate(state.seats)])


def view(state: State, seat: int) -> PlayerView:
    """The :class:`PlayerView` of ``seat`` (R-9), computed once per state and seat.

    Raises:
        ErqishiError: ``seat`` is not a seat of this hand's rule set.
    """
    try:
        if not 0 <= seat < state.rules.players:
            raise ErqishiError(f"seat {seat} is not one of 0-{state.rules.players - 1}")
        memo = state._memo
        known = memo.views
        if known is None:
            known = memo.views = [None] * state.rules.players
        found = known[seat]
        if found is None:
            fields = _public_fields(state, seat)
            found = known[seat] = PlayerView(*fields, seat, state.seats[seat].cards(), seat_options(state, seat))
        return found  # type: ignore[no-any-return]
    except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
        raise_if_mistyped(view, state, seat)
        raise


_PublicFields = tuple[
    RuleSet, int | None, int, tuple[int, ...], Phase, int, Card | None, bool, int, tuple[SeatView, ...], Outcome | None
]


def _public_fields(state: State, viewer: int | None) -> _PublicFields:
    """The fields of a :class:`PublicView`, in order; concealed hands for ``viewer`` only."""
    return (
        state.rules,
        state.quan,
        state.dealer,
        state.order,
        state.phase,
        state.turn,
        state.pending,
        state.pending_flip,
        state.stock_left,
        _seat_views(state, viewer),
        state.result,
    )


def public_view(state: State) -> PublicView:
    """What a spectator may know (R-9): the public part of every seat, no concealed hand
    until the hand is over, and no options.

    >>> import random
    >>> from erqishi.core.engine.transitions import new_hand
    >>> from erqishi.core.engine.deal import Deal
    >>> v = public_view(new_hand(Deal.shuffled(random.Random(1), 0)))
    >>> [s.hand for s in v.seats], isinstance(v, PlayerView)
    ([None, None, None], False)
    """
    return PublicView(*_public_fields(state, None))

"""Engine state (R-2 to R-9): immutable values; :func:`~erqishi.core.engine.transitions.apply`
returns a new state.

A hand moves through phases: the dealer's ``OPENING`` (天胡, a discard, or nothing with
八块), a ``RESPONSE`` window on each discarded or flipped card, a ``DISCARD`` owed after a
take, and ``OVER``. Flips happen inside the engine as soon as one is due.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from erqishi.core._compiled import NATIVE, checks_own_input, field_key, raw, reduce_fields
from erqishi.core._fast import slot_setter
from erqishi.core.cards import Card
from erqishi.core.engine.deal import Deal
from erqishi.core.errors import ErqishiError
from erqishi.core.hands import Group, HandAnalyzer, HandResult, WinSource
from erqishi.core.rules import RuleSet

__all__ = ["Outcome", "OutcomeKind", "Phase", "SeatState", "State", "StateMemo"]


class OutcomeKind(StrEnum):
    """How a hand ended (R-5.6, R-6): ``result.kind`` in records."""

    WIN = "win"
    DEAD = "dead"

    @property
    def chinese(self) -> str:
        """胡 or 荒庄."""
        return "胡" if self is OutcomeKind.WIN else "荒庄"


class Phase(StrEnum):
    """Where a hand stands."""

    OPENING = "opening"
    RESPONSE = "response"
    DISCARD = "discard"
    OVER = "over"


_OVER: Final = Phase.OVER  # a constant: the compiled build reads it directly


@dataclass(frozen=True, slots=True, init=False)
class SeatState:
    """One seat's part of the state.

    Attributes:
        hand: the concealed hand as 20 counts indexed by ``Card`` value.
        melds: exposed groups in the order laid.
        row: the seat's face-up row: its discards and its untaken flips, in order (R-5.2, R-5.3).
        discarded: bit set of identities this seat discarded from its hand (R-5.9, 回笼 R-6.2).
        guozhang: bit set of identities this seat declined to 吃 (过张, R-5.9).
        guohu: the highest score of a win this seat declined since its last take, -1 if none (R-6.2).
        announced: quad cards announced (八块 = 8, 十二块 = 12 …), 0 if none (R-4.2).
        quads: quads owned, exposed 开 and concealed 滚 (R-4).
        card_count: cards held, concealed plus exposed.
    """

    hand: tuple[int, ...]
    melds: tuple[Group, ...] = ()
    row: tuple[Card, ...] = ()
    discarded: int = 0
    guozhang: int = 0
    guohu: int = -1
    announced: int = 0
    quads: int = 0
    card_count: int = 0
    _free_mask: int = field(default=-1, compare=False, repr=False)
    _analyzer: list[HandAnalyzer] = field(default_factory=list, compare=False, repr=False)
    #: the seat's public views, built once (``erqishi.core.engine.views``): [seat, hidden, shown]
    _views: list[Any] | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        hand: tuple[int, ...],
        melds: tuple[Group, ...] = (),
        row: tuple[Card, ...] = (),
        discarded: int = 0,
        guozhang: int = 0,
        guohu: int = -1,
        announced: int = 0,
        quads: int = 0,
        card_count: int = 0,
        _free_mask: int = -1,
        _analyzer: list[HandAnalyzer] | None = None,
        _views: list[Any] | None = None,  # a cache of this object only: never carried over
    ) -> None:
        analyzer = [] if _analyzer is None else _analyzer
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.hand = hand  # type: ignore[misc]
            self.melds = melds  # type: ignore[misc]
            self.row = row  # type: ignore[misc]
            self.discarded = discarded  # type: ignore[misc]
            self.guozhang = guozhang  # type: ignore[misc]
            self.guohu = guohu  # type: ignore[misc]
            self.announced = announced  # type: ignore[misc]
            self.quads = quads  # type: ignore[misc]
            self.card_count = card_count  # type: ignore[misc]
            self._free_mask = _free_mask  # type: ignore[misc]
            self._analyzer = analyzer  # type: ignore[misc]
            self._views = None  # type: ignore[misc]
        else:
            _SET_SEAT(
                self,
                hand,
                melds,
                row,
                discarded,
                guozhang,
                guohu,
                announced,
                quads,
                card_count,
                _free_mask,
                analyzer,
                None,
            )

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    @property
    def free_mask(self) -> int:
        """Bit set of identities held once or twice (not locked in a 坎/滚, R-3.1): the
        cards that may be discarded or used in a 吃."""
        mask = self._free_mask
        if mask < 0:
            mask = 0
            for c, n in enumerate(self.hand):
                if 1 <= n <= 2:
                    mask |= 1 << c
            object.__setattr__(self, "_free_mask", mask)
        return mask

    @property
    def owes_discard(self) -> bool:
        """R-4.1: more cards than 20 + max(0, q - 1)."""
        return self.card_count > 20 + max(0, self.quads - 1)

    def evolve(
        self,
        *,
        hand: tuple[int, ...] | None = None,
        melds: tuple[Group, ...] | None = None,
        row: tuple[Card, ...] | None = None,
        discarded: int | None = None,
        guozhang: int | None = None,
        guohu: int | None = None,
        announced: int | None = None,
        quads: int | None = None,
        card_count: int | None = None,
    ) -> SeatState:
        """A copy with some fields changed (faster than ``dataclasses.replace``); the
        cached analyzer is kept only while hand and melds stay the same."""
        same_cards = hand is None and melds is None
        return SeatState(
            self.hand if hand is None else hand,
            self.melds if melds is None else melds,
            self.row if row is None else row,
            self.discarded if discarded is None else discarded,
            self.guozhang if guozhang is None else guozhang,
            self.guohu if guohu is None else guohu,
            self.announced if announced is None else announced,
            self.quads if quads is None else quads,
            self.card_count if card_count is None else card_count,
            self._free_mask if hand is None else -1,
            self._analyzer if same_cards else [],
        )

    def cards(self) -> tuple[Card, ...]:
        """The concealed hand as cards in display order."""
        hand = self.hand
        found = _HAND_CARDS.get(hand)
        if found is None:
            out: list[Card] = []
            for v in range(len(hand)):
                n = hand[v]
                if n:
                    out += _COPIES_OF[n][v]
            found = tuple(out)
            if len(_HAND_CARDS) >= HAND_CARDS_LIMIT[0]:
                _HAND_CARDS.clear()
            _HAND_CARDS[hand] = found
        return found

    def analyzer(self, rules: RuleSet) -> HandAnalyzer:
        """A prepared hand analyzer for this seat's hand and melds (cached)."""
        if not self._analyzer:
            self._analyzer.append(HandAnalyzer.trusted(self.hand, self.melds, rules, self.card_count))
        return self._analyzer[0]


_SET_SEAT: Final = slot_setter(SeatState)
_CARDS: Final = tuple(Card)
#: _COPIES_OF[n][v]: n copies of the card of value v
_COPIES_OF: Final = tuple(tuple((c,) * n for c in _CARDS) for n in range(5))
#: hand counts -> the hand as cards (views ask for it once per state and seat); bounded
_HAND_CARDS: Final[dict[tuple[int, ...], tuple[Card, ...]]] = {}
#: most entries of _HAND_CARDS (emptied when full); a list: set_hand_cards_limit changes it
HAND_CARDS_LIMIT: Final = [1 << 16]


def set_hand_cards_limit(entries: int) -> None:
    """Bound the memo of hand patterns turned into cards (emptied now if it holds more)."""
    HAND_CARDS_LIMIT[0] = entries
    if len(_HAND_CARDS) > entries:
        _HAND_CARDS.clear()


def hand_cards_entries() -> int:
    """The hand patterns the memo holds."""
    return len(_HAND_CARDS)


@checks_own_input
@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended (R-6, R-8): a win or a dead hand (荒庄).

    Attributes:
        kind: a win or a dead hand.
        payments: per seat, in score units, summing to 0 (R-8).
        winner, source, analysis: for a win, the winner's seat, the win source (R-6.4)
            and the scoring analysis (groups, hu, 番, score).
        discarder: for a 抬炮, the seat that fired.
        source_seat: for a win on a card, the seat that discarded or flipped it (None
            for 天胡 and a dead hand).

    Raises:
        ErqishiError: ``kind`` is not ``win`` or ``dead``.
    """

    kind: OutcomeKind
    payments: tuple[int, ...]
    winner: int | None = None
    source: WinSource | None = None
    analysis: HandResult | None = None
    discarder: int | None = None
    source_seat: int | None = None

    def __eq__(self, other: object) -> bool:  # explicit for the compiled build (field_key)
        if other.__class__ is not self.__class__:
            return NotImplemented
        return field_key(self) == field_key(other)

    def __hash__(self) -> int:
        return hash(field_key(self))

    def __post_init__(self) -> None:
        kind = raw(self, "kind")  # unchecked: checked here, in both builds
        if not isinstance(kind, OutcomeKind):
            try:
                object.__setattr__(self, "kind", OutcomeKind(kind))  # type: ignore[arg-type]
            except ValueError:
                raise ErqishiError(f"an outcome is 'win' or 'dead', not {kind!r}") from None

    @property
    def is_win(self) -> bool:
        """The hand was won (else it died, 荒庄)."""
        return self.kind is OutcomeKind.WIN

    def to_json(self) -> dict[str, object]:
        """The ``result`` object of a record (FORMATS.md)."""
        if self.kind is OutcomeKind.DEAD or self.analysis is None or self.source is None:
            return {"kind": "dead", "payments": list(self.payments)}
        return {
            "kind": "win",
            "winner": self.winner,
            "source": self.source.value,
            "hu": self.analysis.hu,
            "fan": self.analysis.fan_names,
            "score": self.analysis.score,
            "payments": list(self.payments),
        }


class StateMemo:
    """What the engine has worked out about one :class:`State`, kept beside it: the
    responses on the pending card, each seat's legal actions, options and view. Not part
    of the state's value (never compared, copied or pickled); every new state gets an
    empty one. Attributes, not a dict keyed by name and seat: reading one is a plain slot
    read in both builds."""

    __slots__ = ("effective", "legal", "options", "responses", "tian", "views")

    def __init__(self) -> None:
        self.responses: tuple[Any, ...] | None = None
        self.effective: tuple[tuple[Any, ...], bool] | None = None
        self.tian = -1
        self.legal: list[Any] | None = None
        self.options: list[Any] | None = None
        self.views: list[Any] | None = None


@dataclass(frozen=True, slots=True, init=False)
class State:
    """The whole state of one hand.

    Attributes:
        rules: the rule set.
        deal: the deal (dealer, hands, stock order).
        quan: the 圈 number for 圈胡, or None.
        seats: one :class:`SeatState` per seat (a seat sitting out has an empty hand).
        order: the seats that play, in seat order.
        stock_pos: how many stock cards have been flipped.
        phase: the phase.
        turn: OPENING: the dealer; DISCARD: the seat that owes the discard; RESPONSE: the
            seat that discarded or flipped the pending card; OVER: -1.
        pending: the card waiting for responses (RESPONSE), else None.
        pending_flip: the pending card was flipped (else discarded).
        di_window: a non-dealer's win on the pending card is 地胡 (R-6.3).
        forbidden: bit set of identities the seat owing a discard may not discard (上吐下泻, R-5.10).
        result: the outcome once OVER.
        steps: actions applied so far.
    """

    rules: RuleSet
    deal: Deal
    quan: int | None
    seats: tuple[SeatState, ...]
    order: tuple[int, ...]
    stock_pos: int
    phase: Phase
    turn: int
    pending: Card | None = None
    pending_flip: bool = False
    di_window: bool = False
    forbidden: int = 0
    result: Outcome | None = None
    steps: int = 0
    _memo: StateMemo = field(default_factory=StateMemo, init=False, compare=False, repr=False)

    def __init__(
        self,
        rules: RuleSet,
        deal: Deal,
        quan: int | None,
        seats: tuple[SeatState, ...],
        order: tuple[int, ...],
        stock_pos: int,
        phase: Phase,
        turn: int,
        pending: Card | None = None,
        pending_flip: bool = False,
        di_window: bool = False,
        forbidden: int = 0,
        result: Outcome | None = None,
        steps: int = 0,
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.rules = rules  # type: ignore[misc]
            self.deal = deal  # type: ignore[misc]
            self.quan = quan  # type: ignore[misc]
            self.seats = seats  # type: ignore[misc]
            self.order = order  # type: ignore[misc]
            self.stock_pos = stock_pos  # type: ignore[misc]
            self.phase = phase  # type: ignore[misc]
            self.turn = turn  # type: ignore[misc]
            self.pending = pending  # type: ignore[misc]
            self.pending_flip = pending_flip  # type: ignore[misc]
            self.di_window = di_window  # type: ignore[misc]
            self.forbidden = forbidden  # type: ignore[misc]
            self.result = result  # type: ignore[misc]
            self.steps = steps  # type: ignore[misc]
            self._memo = StateMemo()  # type: ignore[misc]
        else:
            _SET_STATE(
                self,
                rules,
                deal,
                quan,
                seats,
                order,
                stock_pos,
                phase,
                turn,
                pending,
                pending_flip,
                di_window,
                forbidden,
                result,
                steps,
            )

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.deal.dealer

    @property
    def stock_left(self) -> int:
        """Cards left in the stock (R-9: public)."""
        return len(self.deal.stock) - self.stock_pos

    @property
    def is_over(self) -> bool:
        """The hand has ended (a win or a dead hand)."""
        return self.phase is _OVER

    def xiajia(self, seat: int) -> int:
        """下家: the next seat in play after ``seat`` (R-2.1)."""
        order = self.order
        return order[(order.index(seat) + 1) % len(order)]

    def shangjia(self, seat: int) -> int:
        """上家: the seat that plays just before ``seat`` (R-2.1)."""
        order = self.order
        return order[(order.index(seat) - 1) % len(order)]


_SET_STATE: Final = slot_setter(State)

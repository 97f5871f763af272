"""The one story of a hand: a typed vocabulary of public events (R-2 to R-9).

Every front end tells a hand through these events: the terminal log, ``erqishi
replay``, the web log and the web replay all render them with one narration
(:mod:`erqishi.play.narrate`). Events are public (R-9): they say what everyone at the
table saw, never a concealed card, and never a seat's pass (which nobody sees).

Steps are numbered one way everywhere: ``step`` is the number of actions of the hand
applied when the event happened. The deal is step 0; the first action of the record
(``actions[0]``) is step 1, and the flip that follows an action carries that action's
step.

Card values in JSON are the ASCII notation of FORMATS.md (``x3``, ``d10``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar

from erqishi.core.cards import Card
from erqishi.core.engine import Action, ActionKind, Outcome, Phase, State
from erqishi.core.hands import Group, WinSource

__all__ = [
    "Announced",
    "DeadHand",
    "Dealt",
    "Discarded",
    "Event",
    "EventKind",
    "Flipped",
    "MatchOver",
    "Passed",
    "Scored",
    "Took",
    "Won",
    "group_json",
    "opening_events",
    "step_events",
]

_ASCII = tuple(card.ascii for card in Card)


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [_ASCII[c] for c in cards]


def group_json(group: Group) -> dict[str, Any]:
    """A group as JSON: kind, Chinese name, cards (ASCII), hu (R-3), and whether it was
    exposed or holds the winning card."""
    return {
        "kind": group.kind.value,
        "name": group.name,
        "cards": _cards(group.cards),
        "hu": group.hu,
        "exposed": group.exposed,
        "winning": group.winning,
    }


def _plain(value: Any) -> Any:
    """A field's JSON value: cards in ASCII, enums by value, tuples as lists."""
    if isinstance(value, Card):
        return _ASCII[value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


#: Field names as JSON spells them.
_JSON_NAMES = {"from_seat": "from"}


class _Told:
    """What every event has: its ``kind`` and, by default, its fields as JSON."""

    __slots__ = ()
    kind: ClassVar[EventKind]

    def to_json(self) -> dict[str, Any]:
        """The event as JSON: ``"event"`` (its kind), then each field (cards in ASCII)."""
        data: dict[str, Any] = {"event": self.kind.value}
        for f in fields(self):  # type: ignore[arg-type]
            data[_JSON_NAMES.get(f.name, f.name)] = _plain(getattr(self, f.name))
        return data


class EventKind(StrEnum):
    """The kinds of event, as ``"event"`` in JSON."""

    DEALT = "dealt"
    FLIPPED = "flipped"
    DISCARDED = "discarded"
    TOOK = "took"
    ANNOUNCED = "announced"
    PASSED = "passed"
    WON = "won"
    DEAD = "dead"
    SCORED = "scored"
    MATCH_OVER = "match_over"


@dataclass(frozen=True, slots=True)
class Dealt(_Told):
    """A hand was dealt (R-2.3): the ``hand``-th of its match (from 1), in 圈 ``quan``
    (the current 圈, from 1), dealt by ``dealer``; with four players ``sits_out`` sits it
    out (R-10)."""

    kind: ClassVar[EventKind] = EventKind.DEALT
    step: int
    hand: int
    quan: int
    dealer: int
    sits_out: int | None = None


@dataclass(frozen=True, slots=True)
class Flipped(_Told):
    """``seat`` turned the top stock card ``card`` up (R-5.3); ``stock_left`` remain."""

    kind: ClassVar[EventKind] = EventKind.FLIPPED
    step: int
    seat: int
    card: Card
    stock_left: int


@dataclass(frozen=True, slots=True)
class Discarded(_Told):
    """``seat`` discarded ``card`` from its hand (R-5.2, R-5.5)."""

    kind: ClassVar[EventKind] = EventKind.DISCARDED
    step: int
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Took(_Told):
    """``seat`` took ``card``, which ``from_seat`` discarded or flipped, as a 吃, 对 or
    开 (``take``, R-5.7 to R-5.13). For a 吃, ``cards`` are the two hand cards used and
    ``bai`` the 摆 groups laid with it (R-5.8); ``yu`` marks a 开 onto an exposed 对
    (R-5.13). In JSON, ``cards`` and ``bai`` come with a 吃 only and ``yu`` only when true."""

    kind: ClassVar[EventKind] = EventKind.TOOK
    step: int
    seat: int
    take: ActionKind
    card: Card
    from_seat: int
    cards: tuple[Card, ...] = ()
    bai: tuple[tuple[Card, ...], ...] = ()
    yu: bool = False

    def to_json(self) -> dict[str, Any]:
        """The event as JSON."""
        data: dict[str, Any] = {
            "event": self.kind.value,
            "step": self.step,
            "seat": self.seat,
            "take": self.take.value,
            "card": _ASCII[self.card],
            "from": self.from_seat,
        }
        if self.take is ActionKind.CHI:
            data["cards"] = _cards(self.cards)
            data["bai"] = [_cards(g) for g in self.bai]
        if self.yu:
            data["yu"] = True
        return data


@dataclass(frozen=True, slots=True)
class Announced(_Told):
    """``seat`` announced ``count`` quad cards (八块 = 8, 十二块 = 12 …, R-4.2)."""

    kind: ClassVar[EventKind] = EventKind.ANNOUNCED
    step: int
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Passed(_Told):
    """Nobody took ``card``, which ``seat`` discarded or flipped (``flipped``): it stays
    face up in ``seat``'s row (R-5.2, R-5.3). A single seat's pass is never told."""

    kind: ClassVar[EventKind] = EventKind.PASSED
    step: int
    seat: int
    card: Card
    flipped: bool


@dataclass(frozen=True, slots=True)
class Won(_Told):
    """``seat`` won (R-6): on ``card``, which ``from_seat`` discarded or flipped, or with
    the dealt cards (天胡: ``card`` and ``from_seat`` None); ``source`` as in records (R-6.4)."""

    kind: ClassVar[EventKind] = EventKind.WON
    step: int
    seat: int
    card: Card | None
    source: WinSource
    from_seat: int | None


@dataclass(frozen=True, slots=True)
class DeadHand(_Told):
    """A flip was due on an empty stock: the hand is dead (荒庄, R-5.6)."""

    kind: ClassVar[EventKind] = EventKind.DEAD
    step: int


@dataclass(frozen=True, slots=True)
class Scored(_Told):
    """The ``hand``-th hand (from 1) was settled: its ``outcome`` (groups, hu, tier, 番,
    score, payments in score units, R-7, R-8) and the match ``totals`` after it (R-8.3)."""

    kind: ClassVar[EventKind] = EventKind.SCORED
    step: int
    hand: int
    outcome: Outcome
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The breakdown as JSON (docs/protocol.md ``result``): a dead hand has only its
        payments and totals."""
        outcome = self.outcome
        data: dict[str, Any] = {"event": self.kind.value, "step": self.step, "hand": self.hand}
        analysis = outcome.analysis
        if outcome.is_win and analysis is not None and outcome.source is not None:
            tier = analysis.tier
            data.update(
                {
                    "kind": "win",
                    "winner": outcome.winner,
                    "source": outcome.source.value,
                    "card": None if analysis.win_card is None else _ASCII[analysis.win_card],
                    "from": outcome.source_seat,
                    "groups": [group_json(g) for g in analysis.groups],
                    "hu": analysis.hu,
                    "tier": {"name": tier.name, "base": tier.base} if tier is not None else None,
                    "fan": list(analysis.fan_names),
                    "score": analysis.score,
                }
            )
        else:
            data["kind"] = "dead"
        data["payments"] = list(outcome.payments)
        data["totals"] = list(self.totals)
        return data


@dataclass(frozen=True, slots=True)
class MatchOver(_Told):
    """The match is over (R-2.4): ``totals`` per seat in score units and the ``leaders``
    (more than one on a tie), after ``played`` hands."""

    kind: ClassVar[EventKind] = EventKind.MATCH_OVER
    step: int
    played: int
    totals: tuple[int, ...]
    leaders: tuple[int, ...]


#: One event of the story of a hand.
Event = Dealt | Flipped | Discarded | Took | Announced | Passed | Won | DeadHand | Scored | MatchOver


def _announcements(before: State | None, after: State, step: int) -> list[Event]:
    out: list[Event] = []
    for seat in after.order:
        count = after.seats[seat].announced
        if count and (before is None or count > before.seats[seat].announced):
            out.append(Announced(step, seat, count))
    return out


def _flip(before: State | None, after: State, step: int) -> list[Event]:
    flipped = after.phase is Phase.RESPONSE and after.pending_flip and after.pending is not None
    if flipped and (before is None or after.stock_pos > before.stock_pos):
        assert after.pending is not None
        return [Flipped(step, after.turn, after.pending, after.stock_left)]
    return []


def opening_events(state: State, *, hand: int, quan: int, sits_out: int | None = None) -> list[Event]:
    """The events of a new hand: it was dealt, then any 八块 of a dealer who makes no
    opening discard and the first flip that follows (R-4.3)."""
    events: list[Event] = [Dealt(0, hand, quan, state.dealer, sits_out)]
    events += _announcements(None, state, 0)
    events += _flip(None, state, 0)
    return events


def step_events(before: State, seat: int, action: Action, after: State) -> list[Event]:
    """The public events of one effective move (as a record lists it) from ``before`` to
    ``after``: the move itself, any 八块 it brought, the next flip, and a win or a dead
    hand when the hand ended (R-4.2, R-5, R-6). A pass that closes a pending card tells
    only that nobody took it."""
    step = after.steps
    events: list[Event] = []
    kind = action.kind
    pending = before.pending if before.phase is Phase.RESPONSE else None
    if kind is ActionKind.DISCARD:
        events.append(Discarded(step, seat, action.cards[0]))
    elif kind is ActionKind.PASS:
        if pending is not None:
            events.append(Passed(step, before.turn, pending, before.pending_flip))
    elif kind is ActionKind.HU:
        result = after.result
        assert result is not None and result.source is not None
        events.append(Won(step, seat, pending, result.source, result.source_seat))
    elif pending is not None:  # a take: 吃, 对 or 开
        yu = kind is ActionKind.KAI and before.seats[seat].hand[pending] != 3
        events.append(Took(step, seat, kind, pending, before.turn, action.cards, action.bai, yu))
    events += _announcements(before, after, step)
    events += _flip(before, after, step)
    if after.is_over and kind is not ActionKind.HU:
        events.append(DeadHand(step))
    return events

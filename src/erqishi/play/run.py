"""Play whole hands and matches at the one :class:`~erqishi.play.table.Table` without a
person: with a chooser that picks each effective move (random play, tests, benchmarks),
or with a player per seat (bots), every decision one simultaneous step (R-5.4, R-9).
Keeps what a record needs (R-2.2, R-2.4, R-8.3; FORMATS.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from erqishi.core.engine import Action, Deal, Match, Outcome, State, legal_moves
from erqishi.core.rules import LESHAN as LESHAN_RULES
from erqishi.core.rules import RuleSet
from erqishi.play.events import Event
from erqishi.play.step import Player, step_players
from erqishi.play.table import MAX_STEPS, Table
from erqishi.records import HandRecord, MatchRecord

__all__ = [
    "MAX_STEPS",
    "Chooser",
    "PlayedHand",
    "PlayedMatch",
    "play_hand",
    "play_match",
    "play_until",
    "random_chooser",
    "table_chooser",
]

#: Picks one of the legal moves ``(seat, action)`` of a state.
Chooser = Callable[[State, Sequence[tuple[int, Action]]], tuple[int, Action]]


def random_chooser(rng: random.Random) -> Chooser:
    """A chooser that picks uniformly among the legal moves with ``rng``."""

    def choose(state: State, moves: Sequence[tuple[int, Action]]) -> tuple[int, Action]:
        return rng.choice(list(moves))

    return choose


def table_chooser(players: Sequence[Player], rngs: Sequence[random.Random]) -> Chooser:
    """A chooser that seats ``players[seat]`` (each with its own ``rngs[seat]``): every
    decision is one simultaneous step (:func:`~erqishi.play.step.step`), each seat seeing
    only its own view (R-9).

    Raises (from the chooser):
        IllegalActionError: a player chose something it was not offered.
    """
    return _SeatedChooser(list(players), list(rngs))


class _SeatedChooser:
    """:func:`table_chooser`'s chooser: it asks the seated players, never the list of
    legal moves, so :func:`_play_out` does not make that list for it."""

    __slots__ = ("generators", "seated")

    def __init__(self, seated: list[Player], generators: list[random.Random]) -> None:
        self.seated = seated
        self.generators = generators

    def __call__(self, state: State, moves: Sequence[tuple[int, Action]]) -> tuple[int, Action]:
        return step_players(state, self.seated, self.generators)


def play_until(table: Table, players: Mapping[int, Player], rngs: Mapping[int, random.Random]) -> list[Event]:
    """Let the seated ``players`` declare (each from its own view with ``rngs[seat]``)
    until a seat without a player must decide or the hand is over; the new events.

    Raises:
        IllegalActionError: a player chose something it was not offered.
    """
    new: list[Event] = []
    while table.in_hand:
        seats = [seat for seat in table.waiting() if seat in players]
        if not seats:
            if table.is_idle_window:
                new += table.close_window()
                continue
            break
        for seat in seats:
            new += table.declare(seat, players[seat].choose(table.player_view(seat), rngs[seat]))
            if not table.in_hand:
                break
    return new


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A finished hand: its record, every state in order, its events and the outcome.

    ``story`` is its events, or the table that played it and told nothing else since
    (:meth:`Table.play`: the events are built when :attr:`events` is read)."""

    record: HandRecord
    states: tuple[State, ...]
    story: tuple[Event, ...] | Table = field(default=(), repr=False, compare=False)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of the hand, in order (:mod:`erqishi.play.events`)."""
        story = self.story
        return story if isinstance(story, tuple) else tuple(story.events)

    @property
    def final(self) -> State:
        """The last state (over)."""
        return self.states[-1]

    @property
    def outcome(self) -> Outcome:
        """The outcome of the hand."""
        result = self.final.result
        assert result is not None
        return result

    def to_json(self) -> dict[str, object]:
        """The hand record with its result (FORMATS.md)."""
        return self.record.to_json(self.outcome)


def _names(rules: RuleSet, seats: Sequence[str] | None) -> tuple[str, ...]:
    return tuple(seats) if seats is not None else tuple(f"seat{i}" for i in range(rules.players))


def _play_out(table: Table, choose: Chooser, *, last: bool = False) -> PlayedHand:
    """Every move of the hand from ``choose`` (the table closes no window by itself);
    ``last``: the table plays no other hand, so the events are told only when read."""
    # seated players decide from their own views (the engine's options), never the list
    lists_moves = not isinstance(choose, _SeatedChooser)
    while table.in_hand:
        state = table.state
        assert state is not None
        if table.step >= MAX_STEPS:
            raise RuntimeError(f"the hand did not end within {MAX_STEPS} actions")
        table.play(*choose(state, legal_moves(state) if lists_moves else ()))
    story = table if last else tuple(table.events)
    return PlayedHand(table.hand_record(), tuple(table.states), story)


def play_hand(
    deal: Deal,
    choose: Chooser,
    rules: RuleSet = LESHAN_RULES,
    *,
    quan: int | None = None,
    seats: Sequence[str] | None = None,
) -> PlayedHand:
    """Play one hand to its end at a table, asking ``choose`` at every decision.

    Args:
        deal: the deal (its dealer deals).
        choose: picks each effective move (:func:`random_chooser`, :func:`table_chooser`…).
        rules: the rule set.
        quan: the 圈 number for 圈胡, or None.
        seats: the seats' names in the record (default ``seat0``…).

    Raises:
        InvalidHandError: the deal does not fit the rules.
        IllegalActionError: the chooser picked a move that is not legal.
        RuntimeError: the hand did not end within ``MAX_STEPS`` actions.
    """
    names = _names(rules, seats)
    match = Match(rules, dealer=deal.dealer, totals=(0,) * rules.players)
    table = Table(rules, random.Random(0), names, auto_close=False, match=match, keep_states=True)
    table.start_hand(deal, quan=quan)
    return _play_out(table, choose, last=True)


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A finished match: every hand and the final match state with the totals."""

    hands: tuple[PlayedHand, ...]
    match: Match
    seats: tuple[str, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        """Final totals per seat, in score units."""
        return self.match.totals

    def to_json(self) -> dict[str, object]:
        """The match record (FORMATS.md)."""
        record = MatchRecord(self.match.rules, self.seats, tuple(h.record for h in self.hands), self.totals)
        return record.to_json([h.outcome for h in self.hands])


def play_match(
    rng: random.Random,
    choose: Chooser,
    rules: RuleSet = LESHAN_RULES,
    *,
    seats: Sequence[str] | None = None,
) -> PlayedMatch:
    """Play a whole match of ``rules.match_quan`` 圈 at one table: the first dealer and
    every deal are drawn from ``rng`` (R-2.2), the deal rotates per ``rules.dealer`` and
    totals carry across hands (R-8.3)."""
    names = _names(rules, seats)
    table = Table(rules, rng, names, auto_close=False, keep_states=True)
    hands: list[PlayedHand] = []
    while not table.match.is_over:
        table.start_hand()
        hands.append(_play_out(table, choose))
    return PlayedMatch(tuple(hands), table.match, names)

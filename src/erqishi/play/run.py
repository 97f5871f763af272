"""Run a hand or a match with a chooser that picks one effective move per decision, and
keep what a record needs (R-2.2, R-2.4, R-8.3; FORMATS.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from erqishi.core.engine import Action, Deal, Match, Outcome, State, apply, legal_moves, new_hand
from erqishi.core.rules import LESHAN as LESHAN_RULES
from erqishi.core.rules import RuleSet
from erqishi.play.step import Player, step_players
from erqishi.records import HandRecord, MatchRecord

__all__ = ["Chooser", "PlayedHand", "PlayedMatch", "play_hand", "play_match", "random_chooser", "table_chooser"]

#: Picks one of the legal moves ``(seat, action)`` of a state.
Chooser = Callable[[State, Sequence[tuple[int, Action]]], tuple[int, Action]]

#: Plays are cut off after this many actions (a hand needs about 40; none can loop).
MAX_STEPS = 2_000


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

    def choose(state: State, moves: Sequence[tuple[int, Action]]) -> tuple[int, Action]:
        return step_players(state, list(players), list(rngs))

    return choose


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A finished hand: its record, every state in order, and the outcome."""

    record: HandRecord
    states: tuple[State, ...]

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


def play_hand(
    deal: Deal,
    choose: Chooser,
    rules: RuleSet = LESHAN_RULES,
    *,
    quan: int | None = None,
    seats: Sequence[str] | None = None,
) -> PlayedHand:
    """Play one hand to its end, asking ``choose`` at every decision.

    Raises:
        InvalidHandError: the deal does not fit the rules.
        IllegalActionError: the chooser picked a move that is not legal.
        RuntimeError: the hand did not end within ``MAX_STEPS`` actions.
    """
    state = new_hand(deal, rules, quan)
    states = [state]
    actions: list[tuple[int, Action]] = []
    while not state.is_over:
        if len(actions) >= MAX_STEPS:
            raise RuntimeError(f"the hand did not end within {MAX_STEPS} actions")
        seat, action = choose(state, legal_moves(state))
        state = apply(state, seat, action)
        states.append(state)
        actions.append((seat, action))
    names = tuple(seats) if seats is not None else tuple(f"seat{i}" for i in range(rules.players))
    record = HandRecord(rules, names, quan, deal, tuple(actions))
    return PlayedHand(record, tuple(states))


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
    """Play a whole match of ``rules.match_quan`` 圈: the first dealer and every deal are
    drawn from ``rng`` (R-2.2), the deal rotates per ``rules.dealer`` and totals carry
    across hands (R-8.3)."""
    names = tuple(seats) if seats is not None else tuple(f"seat{i}" for i in range(rules.players))
    match = Match.start(rng, rules)
    hands: list[PlayedHand] = []
    while not match.is_over:
        played = play_hand(match.deal(rng), choose, rules, quan=match.quan_card_number, seats=names)
        hands.append(played)
        match = match.after(played.outcome)
    return PlayedMatch(tuple(hands), match, names)

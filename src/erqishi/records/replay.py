"""Replaying records (FORMATS.md): the states a record's actions lead to and the implicit
passes after its last action. The verdict of ``erqishi verify`` is
:mod:`erqishi.records.verify`; the story of a replayed hand in words is
:mod:`erqishi.play.replay`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from erqishi.core import IllegalActionError
from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Phase,
    Refusal,
    State,
    apply,
    legal_actions,
    new_hand,
    why_illegal,
)
from erqishi.records.model import HandRecord

__all__ = ["HandReplay", "iter_run_out", "replay_hand", "run_out"]


@dataclass(slots=True)
class HandReplay:
    """A record replayed: the states after each step, where it stopped and why."""

    record: HandRecord
    states: list[State] = field(default_factory=list)
    #: the moves between consecutive states: the record's, then implicit passes
    moves: list[tuple[int, Action]] = field(default_factory=list)
    error_step: int | None = None
    error: str | None = None
    #: why that step is illegal, as the engine's Refusal (for the reader's language)
    refusal: Refusal | None = None

    @property
    def final(self) -> State:
        """The last state reached."""
        return self.states[-1]

    @property
    def ok(self) -> bool:
        """Every recorded action was legal."""
        return self.error_step is None


def iter_run_out(state: State) -> Iterator[tuple[int, Action, State]]:
    """The implicit passes that continue a hand (FORMATS.md): while the only owed decision
    is a pending card nobody must take, close it with a pass; stop at a decision that is
    not a pass (the dealer's opening, a discard owed, a compulsory 开) or at the end.
    Yields ``(seat, pass, state after)``."""
    while state.phase is Phase.RESPONSE and PASS in legal_actions(state, state.turn):
        seat = state.turn
        state = apply(state, seat, PASS)
        yield seat, PASS, state


def run_out(state: State) -> State:
    """The state reached after the implicit passes of :func:`iter_run_out`."""
    final = state
    for _, _, after in iter_run_out(state):
        final = after
    return final


def replay_hand(record: HandRecord) -> HandReplay:
    """Apply the record's actions one by one, stopping at the first illegal one."""
    out = HandReplay(record)
    state = new_hand(record.deal, record.rules, record.quan)
    out.states.append(state)
    for step, (seat, action) in enumerate(record.actions):
        if state.phase is Phase.RESPONSE and action.kind is ActionKind.PASS and 0 <= seat < record.rules.players:
            seat = state.turn if PASS in legal_actions(state, state.turn) else seat  # any valid seat may pass
        try:
            state = apply(state, seat, action)
        except IllegalActionError as exc:
            out.error_step, out.error = step, str(exc)
            out.refusal = why_illegal(state, seat, action)
            return out
        out.states.append(state)
        out.moves.append((seat, action))
    for seat, action, after in iter_run_out(state):
        out.moves.append((seat, action))
        out.states.append(after)
    return out

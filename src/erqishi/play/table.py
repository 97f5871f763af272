"""The one table: a match of 贰柒拾 at one table, for every front end (R-2 to R-9).

A :class:`Table` deals each hand of its match (R-2.2, R-2.4), asks the seats that must
decide (:func:`~erqishi.play.step.asked`), takes one declaration per seat in a response
window and lets the engine resolve them as one simultaneous step (R-5.4), applies every
move through the engine, keeps the record, settles the match (R-8.3) and tells all of it
as events (:mod:`erqishi.play.events`). The web server, the terminal game and record
replays drive it; bots, sims and search playouts use the same step functions
(:mod:`erqishi.play.step`). Legality is decided by the engine alone: a refused
declaration raises the engine's :class:`~erqishi.core.IllegalActionError`, whose message
says why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from erqishi.core._compiled import reduce_fields
from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Deal,
    Match,
    Outcome,
    Phase,
    PlayerView,
    PublicView,
    Refusal,
    State,
    apply,
    check_declaration,
    new_hand,
    public_view,
    seat_options,
    sitting_out_seat,
    view,
    why_illegal,
)
from erqishi.core.engine import refusals as engine_refusals
from erqishi.core.errors import ErqishiError, IllegalActionError
from erqishi.core.rules import RuleSet
from erqishi.play._compiled import mypyc_attr
from erqishi.play.events import Event, MatchOver, Scored, opening_events, step_events
from erqishi.play.step import asked, owed_kai, resolve
from erqishi.records import HandRecord, MatchRecord

__all__ = ["MAX_STEPS", "SPECTATOR", "FinishedHand", "NotYourTurnError", "Spectator", "Table", "Viewer"]

#: Longest a hand can run (a hand needs about 40 actions; none can loop).
MAX_STEPS = 2_000


@dataclass(frozen=True, slots=True)
class Spectator:
    """Someone watching the table: sees the public view only (R-9)."""

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)


#: The spectator.
SPECTATOR = Spectator()
#: Whoever looks at the table: a seat number, or a spectator.
Viewer = int | Spectator


class NotYourTurnError(IllegalActionError):
    """A seat declared when it has nothing to decide (R-5): not its turn, or it has
    declared in this window already."""


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand that ended: its place in the match (from 0), its record (with its result),
    outcome and the ``scored`` event that settled it."""

    index: int
    record: HandRecord
    outcome: Outcome
    scored: Scored

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    def record_json(self) -> dict[str, object]:
        """The hand record with its result (FORMATS.md)."""
        return self.record.to_json()


@mypyc_attr(allow_interpreted_subclasses=True)  # users subclass it, in both builds
class Table:
    """One match at one table.

    Args:
        rules: the rule set (player count, 圈 per match, …).
        rng: the table's generator: the first dealer and every deal come from it (R-2.2).
        names: the seats' names for the records, one per seat.
        auto_close: close at once a response window in which nobody may do more than pass,
            and resolve a window as soon as everyone asked has declared. A web room turns
            this off and closes windows after the bots' pause itself (R-9: how long a window
            stays open must not tell whether a seat could take the card).
        match: start from this match state instead of a new one (resuming, or a fixed
            first dealer).
        keep_states: keep every state of the hand in :attr:`states` (for callers that
            study a hand); a long-running table keeps only the current one.

    Raises:
        ErqishiError: ``names`` does not give one name per seat.
    """

    def __init__(
        self,
        rules: RuleSet,
        rng: random.Random,
        names: Sequence[str],
        *,
        auto_close: bool = True,
        match: Match | None = None,
        keep_states: bool = False,
    ) -> None:
        if len(names) != rules.players:
            raise ErqishiError(f"{len(names)} names for {rules.players} seats")
        self.rules = rules
        self.rng = rng
        self.names = tuple(names)
        self.auto_close = auto_close
        self.match = match if match is not None else Match.start(rng, rules)
        self.hands: list[FinishedHand] = []
        self.hand_number = 0
        #: the 圈 of the hand on the table, from 1 (the match moves on when a hand ends)
        self.quan = self.match.quan
        self.deal: Deal | None = None
        self.state: State | None = None
        self.keep_states = keep_states
        #: with ``keep_states``, every state of the hand so far, in order
        self.states: list[State] = []
        self.actions: list[tuple[int, Action]] = []
        self.declared: dict[int, Action] = {}
        self._events: list[Event] = []
        self._history: list[Event] = []
        #: moves applied by :meth:`play` whose events are not built yet, in order, with
        #: any events told after them: (before, seat, action, after) or a list of events
        self._untold: list[tuple[State, int, Action, State] | list[Event]] = []
        #: where each finished hand (by index from 0) was stored, once it is
        self.hand_ids: dict[int, int] = {}
        self._asked_of: State | None = None
        self._asked: tuple[int, ...] = ()
        self._options: dict[int, tuple[Action, ...]] = {}
        #: waiting()'s answer and the declarations it was worked out from (the dict and how
        #: many it held: declarations only add to it within a window)
        self._waiting: tuple[dict[int, Action], int, tuple[int, ...]] | None = None

    # ------------------------------------------------------------------ the story

    @property
    def events(self) -> list[Event]:
        """The events of the hand being played (or just finished), in order."""
        if self._untold:
            self._tell()
        return self._events

    @property
    def history(self) -> list[Event]:
        """The events of the match, every hand's in order."""
        if self._untold:
            self._tell()
        return self._history

    def _tell(self) -> None:
        """Build the events of the moves :meth:`play` applied (the same
        :func:`~erqishi.play.events.step_events` as every other move's)."""
        new: list[Event] = []
        for item in self._untold:
            if isinstance(item, list):
                new += item
            else:
                new += step_events(*item)
        self._untold = []
        self._events += new
        self._history += new

    def _new_story(self) -> None:
        """A new hand's events begin (the last hand's untold moves go into the history)."""
        if self._untold:
            self._tell()
        self._events = []

    # ------------------------------------------------------------------ the hand

    @property
    def in_hand(self) -> bool:
        """A hand is being played (dealt and not over)."""
        return self.state is not None and not self.state.is_over

    @property
    def step(self) -> int:
        """Actions applied in this hand (the step number of :mod:`erqishi.play.events`)."""
        return len(self.actions)

    @property
    def match_over(self) -> bool:
        """Every 圈 of the match has been played."""
        return self.match.is_over and not self.in_hand

    def start_hand(self, deal: Deal | None = None, *, quan: int | Literal["match"] | None = "match") -> list[Event]:
        """Deal the next hand of the match (R-2.2, R-2.4) and return its opening events.

        Args:
            deal: a fixed deal (a puzzle, a lesson, a record) instead of one drawn from the
                table's generator; its dealer deals.
            quan: the 圈 number for 圈胡 (R-7.3), None for none; by default the match's
                (:attr:`~erqishi.core.engine.Match.quan_card_number`).

        Raises:
            ErqishiError: the match is over, or a hand is still being played.
            InvalidHandError: ``deal`` does not fit the rules.
        """
        if self.in_hand:
            raise ErqishiError("a hand is still being played")
        if deal is None:
            deal = self.match.deal(self.rng)
        if quan == "match":
            quan = self.match.quan_card_number
        self.deal = deal
        self.quan = self.match.quan
        self.state = new_hand(deal, self.rules, quan)
        self.states = [self.state] if self.keep_states else []
        self.hand_number += 1
        self.actions = []
        self.declared = {}
        self._new_story()
        new = opening_events(
            self.state,
            hand=self.hand_number,
            quan=self.quan,
            sits_out=sitting_out_seat(deal.dealer, self.rules.players),
        )
        self._emit(new)
        if self.auto_close:
            new += self.close_window()
        return new

    def start_position(self, state: State) -> list[Event]:
        """Play on from a constructed position (a lesson, a puzzle: :mod:`erqishi.learn`)
        instead of a deal: the engine judges every move from ``state`` as from any other.
        The hand counts as the match's next; its record lists the moves from the position
        (its deal is the position's, not a full deck). Returns the events so far (none: the
        position is told by whoever built it).

        Raises:
            ErqishiError: a hand is still being played, or ``state`` has other rules.
        """
        if self.in_hand:
            raise ErqishiError("a hand is still being played")
        if state.rules != self.rules:
            raise ErqishiError("the position is played under other rules than the table's")
        self.deal = state.deal
        self.quan = self.match.quan
        self.state = state
        self.states = [state] if self.keep_states else []
        self.hand_number += 1
        self.actions = []
        self.declared = {}
        self._new_story()
        if self.auto_close:
            return self.close_window()
        return []

    def waiting(self) -> tuple[int, ...]:
        """The seats that must decide now and have not (:func:`~erqishi.play.step.asked`
        less those that declared in this window)."""
        state = self.state
        if state is None or state.is_over:
            return ()
        if self._asked_of is not state:
            self._asked_of, self._asked, self._options, self._waiting = state, asked(state), {}, None
        declared = self.declared
        known = self._waiting
        if known is None or known[0] is not declared or known[1] != len(declared):
            known = self._waiting = (declared, len(declared), tuple(s for s in self._asked if s not in declared))
        return known[2]

    def options(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may declare now (its own options, R-9), ``()`` when it has nothing
        to decide. Computed once per state and seat."""
        state = self.state
        if state is None or seat not in self.waiting():
            return ()
        found = self._options.get(seat)
        if found is None:
            found = self._options[seat] = seat_options(state, seat)
        return found

    def default_action(self, seat: int) -> Action | None:
        """What a response window does for ``seat`` when its time runs out: ``pass``, or
        the 开 it owes (R-5.12, 有开必开); None outside a response window."""
        state = self.state
        options = self.options(seat)
        if state is None or state.phase is not Phase.RESPONSE or not options:
            return None
        if PASS in options:
            return PASS
        return next((a for a in options if a.kind is ActionKind.KAI), options[0])

    def forced(self, seat: int) -> Action | None:
        """The 开 ``seat`` owes in this response window when it has nothing else to choose
        (R-5.12): a front end makes it for the player."""
        state = self.state
        if state is None or seat not in self.waiting():
            return None
        return owed_kai(state, seat)

    def declare(self, seat: int, action: Action) -> list[Event]:
        """``seat`` decides ``action``: in a response window its declaration (the window is
        resolved once everyone asked has declared, unless ``auto_close`` is off: then
        :meth:`close_window` does it), otherwise the move itself. Returns the new events.

        Raises:
            NotYourTurnError: ``seat`` has nothing to decide now.
            IllegalActionError: ``action`` is not one of its options (the engine says why).
        """
        state = self.state
        if state is None or seat not in self.waiting():
            raise NotYourTurnError(f"seat {seat} has nothing to decide now (R-5)")
        check_declaration(state, seat, action)
        if state.phase is Phase.RESPONSE:
            self.declared[seat] = action
            if self.waiting() or not self.auto_close:
                return []
            return self._apply(*resolve(state, self.declared)) + self.close_window()
        new = self._apply(seat, action)
        if self.auto_close:
            new += self.close_window()
        return new

    @property
    def is_idle_window(self) -> bool:
        """A response window with nobody left to ask: nobody may do more than pass, or
        everyone asked has declared."""
        state = self.state
        return state is not None and state.phase is Phase.RESPONSE and not self.waiting()

    def close_window(self) -> list[Event]:
        """Close the response window with nobody left to ask: the declarations are resolved
        (R-5.4), or, when nobody may take the card, it stays in its row and play goes on
        (R-5.2, R-5.3); with ``auto_close`` also every idle window that follows."""
        new: list[Event] = []
        while self.is_idle_window:
            state = self.state
            assert state is not None
            new += self._apply(*resolve(state, self.declared))
            if not self.auto_close:
                break
        return new

    def why_not(self, seat: int, action: Action) -> Refusal:
        """Why ``seat`` may not declare ``action`` now, from the engine, using only what the
        seat may know (R-9): a front end shows this; it never re-checks a rule itself.

        Raises:
            ErqishiError: no hand has been dealt.
        """
        if self.state is None:
            raise ErqishiError("no hand has been dealt")
        return why_illegal(self.state, seat, action, declaring=True)

    def refusals(self, seat: int) -> tuple[Refusal, ...]:
        """What ``seat`` might reach for now that the engine refuses, each with why
        (:func:`erqishi.core.engine.refusals`, R-9: the seat's own knowledge only): held
        cards it may not discard, a 吃, 对 or 胡 it is not offered. Empty between hands."""
        if self.state is None:
            return ()
        return engine_refusals(self.state, seat)

    def apply_move(self, seat: int, action: Action) -> list[Event]:
        """Apply an effective move as a record lists it (FORMATS.md), without collecting
        declarations: for replaying records and for choosers that see the whole state.

        Raises:
            IllegalActionError: the engine refuses the move (naming the rule).
        """
        if self.state is None or self.state.is_over:
            raise IllegalActionError("no hand is being played")
        return self._apply(seat, action)

    def play(self, seat: int, action: Action) -> None:
        """:meth:`apply_move` for a caller that does not read the events of each move (a
        learning environment): the move is applied at once, its events are built only when
        :attr:`events` or :attr:`history` is read, the same events in the same order.

        Raises:
            IllegalActionError: the engine refuses the move (naming the rule).
        """
        state = self.state
        if state is None or state.phase is Phase.OVER:
            raise IllegalActionError("no hand is being played")
        self._apply(seat, action, tell=False)

    def _apply(self, seat: int, action: Action, *, tell: bool = True) -> list[Event]:
        before = self.state
        assert before is not None and self.deal is not None
        if len(self.actions) >= MAX_STEPS:  # pragma: no cover - the engine ends every hand
            raise RuntimeError(f"the hand did not end within {MAX_STEPS} actions")
        after = apply(before, seat, action)
        self.state = after
        if self.keep_states:
            self.states.append(after)
        self.actions.append((seat, action))
        if self.declared:
            self.declared = {}
        if not tell:
            self._untold.append((before, seat, action, after))
            if after.is_over:
                self._emit(self._finish(after))
            return []
        new = step_events(before, seat, action, after)
        if after.is_over:
            new += self._finish(after)
        self._emit(new)
        return new

    def _emit(self, new: list[Event]) -> None:
        if self._untold:  # after the untold moves, in order
            self._untold.append(new)
            return
        self._events += new
        self._history += new

    def _finish(self, state: State) -> list[Event]:
        outcome = state.result
        assert outcome is not None and self.deal is not None
        self.match = self.match.after(outcome)
        record = HandRecord(self.rules, self.names, state.quan, self.deal, tuple(self.actions)).with_result(outcome)
        scored = Scored(self.step, self.hand_number, outcome, self.match.totals)
        self.hands.append(FinishedHand(len(self.hands), record, outcome, scored))
        new: list[Event] = [scored]
        if self.match.is_over:
            new.append(MatchOver(self.step, self.hand_number, self.match.totals, self.match.leaders))
        return new

    def set_hand_id(self, index: int, hand_id: int) -> None:
        """Note where finished hand ``index`` (from 0) was stored (:attr:`hand_ids`)."""
        self.hand_ids[index] = hand_id

    @property
    def last_hand(self) -> FinishedHand | None:
        """The hand just finished, while no new hand has been dealt."""
        if self.hands and self.state is not None and self.state.is_over:
            return self.hands[-1]
        return None

    # ------------------------------------------------------------------ views and records

    def view_for(self, viewer: Viewer) -> PublicView | None:
        """What ``viewer`` may know now (R-9): a seat's :class:`PlayerView`, or the public
        view for a spectator; None before the first hand."""
        if self.state is None:
            return None
        if isinstance(viewer, Spectator):
            return public_view(self.state)
        return view(self.state, viewer)

    def player_view(self, seat: int) -> PlayerView:
        """The view of ``seat`` (R-9).

        Raises:
            ErqishiError: no hand has been dealt, or ``seat`` is not a seat.
        """
        if self.state is None:
            raise ErqishiError("no hand has been dealt")
        return view(self.state, seat)

    def hand_record(self) -> HandRecord:
        """The record of the hand being played, or of the hand just finished with its result
        (FORMATS.md).

        Raises:
            ErqishiError: no hand has been dealt.
        """
        if self.state is None or self.deal is None:
            raise ErqishiError("no hand has been dealt")
        last = self.last_hand
        if last is not None:
            return last.record
        return HandRecord(self.rules, self.names, self.state.quan, self.deal, tuple(self.actions))

    def match_record(self) -> MatchRecord:
        """The record of every finished hand of the match, with the totals (FORMATS.md)."""
        return MatchRecord(self.rules, self.names, tuple(h.record for h in self.hands), self.match.totals)

    def match_record_json(self) -> dict[str, object]:
        """:meth:`match_record` as JSON, every hand with its result."""
        return self.match_record().to_json()

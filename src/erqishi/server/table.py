"""One match at a web table, without any networking: the engine state, the declarations of
an open response window, the public log and the finished hands (R-2.2, R-5, R-8, R-9).

A response window (R-5.4) collects one declaration from each seat that has more than
``pass``; once all have declared, the engine resolves them. Seats with nothing but ``pass``
are never asked, and no seat learns what another may do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from erqishi.core import Card, RuleSet
from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Deal,
    Match,
    Outcome,
    Phase,
    PlayerView,
    State,
    apply,
    new_hand,
    public_view,
    resolve_responses,
    seat_options,
    view,
)
from erqishi.core.errors import IllegalActionError
from erqishi.records import HandRecord, MatchRecord
from erqishi.server.protocol import cards_json, group_json

__all__ = ["FinishedHand", "GameTable"]

#: Longest a hand can run (a hand needs about 40 actions; none can loop).
MAX_STEPS = 2_000


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand that ended: its record, outcome and breakdown (``result`` of the protocol)."""

    index: int
    record: HandRecord
    outcome: Outcome
    breakdown: dict[str, Any]

    def record_json(self) -> dict[str, Any]:
        """The hand record with its result (FORMATS.md)."""
        return self.record.to_json(self.outcome)


class GameTable:
    """A match in progress at one table.

    Args:
        rules: the rule set.
        rng: the table's generator; the first dealer and every deal come from it (R-2.2).
        names: the seats' names for the records, one per seat of ``rules``.
        auto_close: close at once a response window in which nobody may do more than pass.
            A room turns this off and closes such windows itself after the same pause a
            bot takes, so how long a window stays open never tells whether some seat could
            have taken the card (R-9).
    """

    def __init__(self, rules: RuleSet, rng: random.Random, names: Sequence[str], *, auto_close: bool = True) -> None:
        if len(names) != rules.players:
            raise ValueError(f"{len(names)} names for {rules.players} seats")
        self.rules = rules
        self.rng = rng
        self.names = tuple(names)
        self.auto_close = auto_close
        self.match = Match.start(rng, rules)
        self.hands: list[FinishedHand] = []
        self.hand_number = 0
        self.deal: Deal | None = None
        self.state: State | None = None
        self.actions: list[tuple[int, Action]] = []
        self.declared: dict[int, Action] = {}
        self.log: list[dict[str, Any]] = []
        self._win: tuple[Card | None, int | None] = (None, None)
        self._options_of: State | None = None
        self._options: dict[int, tuple[Action, ...]] = {}

    # ------------------------------------------------------------------ flow

    @property
    def in_hand(self) -> bool:
        """A hand is being played (dealt and not over)."""
        return self.state is not None and not self.state.is_over

    def start_hand(self) -> State:
        """Deal the next hand of the match.

        Raises:
            ValueError: the match is over, or a hand is still being played.
        """
        if self.in_hand:
            raise ValueError("a hand is still being played")
        self.deal = self.match.deal(self.rng)
        self.state = new_hand(self.deal, self.rules, self.match.quan_card_number)
        self.hand_number += 1
        self.actions = []
        self.declared = {}
        self._win = (None, None)
        self.log = [{"event": "deal", "dealer": self.deal.dealer, "quan": self.match.quan}]
        self._log_flip(self.state)
        if self.auto_close:
            self.close_window()
        return self.state

    @property
    def step(self) -> int:
        """Actions applied in this hand."""
        return len(self.actions)

    def waiting(self) -> tuple[int, ...]:
        """The seats that must decide now and have not: in a response window every seat with
        more than ``pass`` that has not declared; otherwise the seat to act (R-5)."""
        state = self.state
        if state is None or state.is_over:
            return ()
        if state.phase is Phase.RESPONSE:
            return tuple(
                seat
                for seat in state.order
                if seat not in self.declared and (options := self._seat_options(seat)) and options != (PASS,)
            )
        return (state.turn,)

    def _seat_options(self, seat: int) -> tuple[Action, ...]:
        """``seat_options`` of the current state, computed once per state and seat."""
        state = self.state
        assert state is not None
        if self._options_of is not state:
            self._options_of, self._options = state, {}
        found = self._options.get(seat)
        if found is None:
            found = self._options[seat] = seat_options(state, seat)
        return found

    def options(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may send now: its legal options while it must decide, else ``()``."""
        state = self.state
        if state is None or seat not in self.waiting():
            return ()
        return self._seat_options(seat)

    def default_action(self, seat: int) -> Action | None:
        """What a response window does for ``seat`` when its time runs out: the 开 it owes
        (R-5.12, 有开必开) or ``pass``; None outside a response window."""
        state = self.state
        options = self.options(seat)
        if state is None or state.phase is not Phase.RESPONSE or not options:
            return None
        if PASS in options:
            return PASS
        return next((a for a in options if a.kind is ActionKind.KAI), options[0])

    def act(self, seat: int, action: Action) -> FinishedHand | None:
        """``seat`` decides ``action``: a declaration in a response window (applied once every
        seat asked has declared, R-5.4; without ``auto_close`` the window then waits for
        :meth:`close_window`), or the move itself. Returns the finished hand when this ended
        it.

        Raises:
            IllegalActionError: ``action`` is not one of :meth:`options` of ``seat``.
        """
        state = self.state
        if state is None or action not in self.options(seat):
            raise IllegalActionError(f"{action} is not an option of seat {seat} now (R-5)")
        if state.phase is Phase.RESPONSE:
            self.declared[seat] = action
            if self.waiting() or not self.auto_close:
                return None
            self._apply(*resolve_responses(state, self.declared))
        else:
            self._apply(seat, action)
        if self.auto_close:
            return self.close_window()
        return self._finished()

    @property
    def is_idle_window(self) -> bool:
        """A response window with nobody left to ask: nobody may do more than pass, or
        everyone asked has declared."""
        state = self.state
        return state is not None and state.phase is Phase.RESPONSE and not self.waiting()

    def close_window(self) -> FinishedHand | None:
        """Close the response windows with nobody left to ask: the declarations are resolved
        (R-5.4), or, when nobody may take the card, it stays in its row and play goes on
        (R-5.2, R-5.3); while the next window is idle too if ``auto_close``, else one
        window. Returns the finished hand if that ended it."""
        while self.is_idle_window:
            state = self.state
            assert state is not None
            self._apply(*resolve_responses(state, self.declared))
            if not self.auto_close:
                break
        return self._finished()

    def _finished(self) -> FinishedHand | None:
        state = self.state
        if state is None or not state.is_over or len(self.hands) == self.hand_number:
            return None
        return self._finish()

    def _apply(self, seat: int, action: Action) -> None:
        before = self.state
        assert before is not None and self.deal is not None
        if len(self.actions) >= MAX_STEPS:  # pragma: no cover - the engine ends every hand
            raise RuntimeError(f"the hand did not end within {MAX_STEPS} actions")
        after = apply(before, seat, action)
        self.state = after
        self.actions.append((seat, action))
        self.declared = {}
        pending = before.pending if before.phase is Phase.RESPONSE else None
        self._log_action(before, seat, action, pending)
        if after.seats[seat].announced > before.seats[seat].announced:
            self.log.append({"event": "announce", "seat": seat, "count": after.seats[seat].announced})
        self._log_flip(after)
        if action.kind is ActionKind.HU:
            self._win = (pending, before.turn if pending is not None else None)

    def _finish(self) -> FinishedHand:
        state = self.state
        assert state is not None and state.result is not None and self.deal is not None
        outcome = state.result
        self.match = self.match.after(outcome)
        record = HandRecord(self.rules, self.names, state.quan, self.deal, tuple(self.actions))
        card, win_from = self._win if outcome.kind == "win" else (None, None)
        finished = FinishedHand(len(self.hands), record, outcome, breakdown(outcome, card, win_from))
        self.hands.append(finished)
        return finished

    def _log_action(self, before: State, seat: int, action: Action, pending: Card | None) -> None:
        kind = action.kind
        if kind is ActionKind.PASS:
            if pending is not None and before.phase is Phase.RESPONSE:
                self.log.append({"event": "untaken", "seat": before.turn, "card": pending.ascii})
            return
        if kind is ActionKind.DISCARD:
            self.log.append({"event": "discard", "seat": seat, "card": action.cards[0].ascii})
            return
        event: dict[str, Any] = {
            "event": kind.value,
            "seat": seat,
            "card": pending.ascii if pending is not None else None,
        }
        if kind is ActionKind.CHI:
            event["cards"] = cards_json(action.cards)
            event["bai"] = [cards_json(g) for g in action.bai]
        self.log.append(event)

    def _log_flip(self, state: State) -> None:
        if state.phase is Phase.RESPONSE and state.pending is not None and state.pending_flip:
            self.log.append({"event": "flip", "seat": state.turn, "card": state.pending.ascii})

    # ------------------------------------------------------------------ views

    def view_for(self, seat: int | None) -> PlayerView | None:
        """The view of ``seat`` (R-9), or the public view for a spectator (``None``)."""
        if self.state is None:
            return None
        if seat is None or seat >= self.rules.players:
            return public_view(self.state)
        return view(self.state, seat)

    @property
    def match_over(self) -> bool:
        """Every 圈 of the match has been played."""
        return self.match.is_over and not self.in_hand

    def match_record_json(self) -> dict[str, Any]:
        """The match record so far (FORMATS.md), with every finished hand."""
        record = MatchRecord(self.rules, self.names, tuple(h.record for h in self.hands), self.match.totals)
        return record.to_json([h.outcome for h in self.hands])


def breakdown(outcome: Outcome, card: Card | None, win_from: int | None) -> dict[str, Any]:
    """The protocol's ``result`` object: winner, source, card, groups with hu, tier, 番,
    score and payments (R-6.4, R-7, R-8). ``card`` is the winning card (None for 天胡 or a
    dead hand) and ``win_from`` the seat that discarded or flipped it."""
    analysis = outcome.analysis
    if outcome.kind != "win" or analysis is None or outcome.source is None:
        return {"kind": "dead", "payments": list(outcome.payments), "hand_id": None}
    tier = analysis.tier
    return {
        "kind": "win",
        "winner": outcome.winner,
        "source": outcome.source.value,
        "source_name": outcome.source.chinese,
        "card": card.ascii if card is not None else None,
        "from": win_from,
        "groups": [group_json(g) for g in analysis.groups],
        "hu": analysis.hu,
        "tier": {"name": tier.name, "base": tier.base} if tier is not None else None,
        "fan": list(analysis.fan_names),
        "score": analysis.score,
        "payments": list(outcome.payments),
        "hand_id": None,
    }

"""Verdicts on records: ``erqishi verify`` (FORMATS.md "Machine output of the command line").

:func:`verify` replays a hand or a match record and returns a typed verdict; its
``to_json()`` is the object ``erqishi verify --json`` prints, key for key and in order:

- a hand: ``{"ok": true, "finished": true, "result": {…}}`` (the computed result),
  ``{"ok": true, "finished": false}``, or ``{"ok": false, "step": K, "error": "R-…"}``;
- a match: ``{"ok": true, "finished": …, "hands": [hand verdicts], "result": {"kind":
  "match", "totals": […], "leaders": […]}}`` (``result`` once all its 圈 are played), or a
  fault ``{"ok": false, "hand": I, "step": K or null, "error": "…"}``;
- a file that is no valid record (:class:`InvalidVerdict`): ``{"ok": false, "invalid":
  true, "step": K or null, "error": "…"}``, with ``"hand": I`` before ``step`` when the
  unreadable part is in hand I of a match.

The stated result. When a legal record carries its own result and it differs from the
computed one, the verdict adds ``"result_matches": false`` and ``"stated"``: the fields
that differ, as the file states them (``null`` for a field the file does not state, such
as a dead hand's ``winner``). A hand that states a result but is unfinished differs in
every field it states. For a match, each entry of ``hands`` carries its hand's own
``result_matches``/``stated``; the match itself compares the file's ``totals`` with the
totals computed from the replayed hands (the running totals while it is unfinished), and
adds ``"result_matches": false`` when they differ or any hand's result differs, with
``stated`` holding ``"totals"`` (when they differ) and ``"hands"``, an object from the
index of each hand that differs (as a string) to that hand's ``stated``. An illegal record
is not compared (its verdict already says it is wrong). The exit code is the verdict's:
0 legal, 1 illegal, 2 invalid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, overload

from erqishi.core import RecordError
from erqishi.core.engine import Match, Refusal
from erqishi.records.model import HandRecord, MatchRecord, RecordFieldError, RecordResult
from erqishi.records.replay import replay_hand

__all__ = [
    "HandVerdict",
    "InvalidVerdict",
    "MatchResult",
    "MatchVerdict",
    "Verdict",
    "verify",
    "verify_hand",
    "verify_match",
]


class Verdict:
    """What ``erqishi verify`` says of a record: :class:`HandVerdict`,
    :class:`MatchVerdict` or :class:`InvalidVerdict`; :meth:`to_json` is its machine form
    (FORMATS.md). Verdicts are equal when their JSON is."""

    __slots__ = ()

    @property
    def ok(self) -> bool:
        """Every recorded action was legal (False for an invalid file too)."""
        raise NotImplementedError

    @property
    def exit_code(self) -> int:
        """The exit code of ``erqishi verify``: 0 legal, 1 an illegal step, 2 invalid."""
        return 0 if self.ok else 1

    def to_json(self) -> dict[str, Any]:
        """The object ``erqishi verify --json`` prints (FORMATS.md)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Verdict) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False))


def _with_result(out: dict[str, Any], verdict: HandVerdict | MatchVerdict) -> dict[str, Any]:
    """``out`` with the verdict's computed ``result`` and, when the record states another,
    ``"result_matches": false`` and ``stated`` (FORMATS.md)."""
    if verdict.result is not None:
        out["result"] = verdict.result.to_json()
    if verdict.result_matches is False:
        out["result_matches"] = False
        out["stated"] = verdict.stated_json()
    return out


@dataclass(frozen=True, slots=True, eq=False)
class HandVerdict(Verdict):
    """The verdict on a hand record (FORMATS.md).

    Attributes:
        legal: every recorded action was legal (``ok``).
        finished: the hand ended (a win or a dead hand); False when illegal.
        result: the computed result of a finished hand, else None.
        step: the 0-based index of the first illegal action, else None.
        error: why that action is illegal (the message names the R-id), else None.
        stated: the result the record states, or None when it states none.
        refusal: why that action is illegal as the engine's :class:`Refusal` (a front end
            words it in the reader's language), else None.
    """

    legal: bool
    finished: bool = False
    result: RecordResult | None = None
    step: int | None = None
    error: str | None = None
    stated: RecordResult | None = None
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        """Every recorded action was legal."""
        return self.legal

    @property
    def result_matches(self) -> bool | None:
        """Whether the stated result equals the computed one (:meth:`differences`
        empty); None when there is nothing to compare (no stated result, or an illegal
        record)."""
        if self.stated is None or not self.legal:
            return None
        return not self.differences()

    def differences(self) -> tuple[str, ...]:
        """The result fields in which the stated result differs from the computed one
        (every field it states when the hand is unfinished), in record order; empty
        when nothing is compared."""
        if self.stated is None or not self.legal:
            return ()
        if self.result is None:
            return self.stated.differences(None)
        return self.result.differences(self.stated)

    def stated_json(self) -> dict[str, Any]:
        """The differing fields as the record states them (``stated`` of FORMATS.md)."""
        if self.stated is None:
            return {}
        return {name: self.stated.field_json(name) for name in self.differences()}

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "finished", "result"}``, ``{"ok": true, "finished": false}`` or
        ``{"ok": false, "step", "error"}``, with ``result_matches`` and ``stated`` added
        when the stated result differs."""
        if not self.legal:
            return {"ok": False, "step": self.step, "error": self.error}
        return _with_result({"ok": True, "finished": self.finished}, self)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of a finished match (R-8.3): the totals per seat and the leading seats."""

    totals: tuple[int, ...]
    leaders: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "match", "totals": […], "leaders": […]}``."""
        return {"kind": "match", "totals": list(self.totals), "leaders": list(self.leaders)}


@dataclass(frozen=True, slots=True, eq=False)
class MatchVerdict(Verdict):
    """The verdict on a match record (FORMATS.md).

    Attributes:
        legal: every hand legal, each dealt by the right seat in the right 圈 (``ok``).
        finished: all the match's 圈 are played.
        hands: the verdicts of the hands replayed, in order (empty on a fault).
        result: the match result once finished, else None.
        hand: on a fault, the index of the hand it is in, else None.
        step: on a fault, the illegal action's index in that hand, None for a
            match-level fault (a wrong dealer or 圈, a hand after an unfinished one).
        error: on a fault, why.
        totals: the totals computed from the replayed hands (running totals while the
            match goes on); None on a fault.
        stated_totals: the totals the record states, or None.
        refusal: on an illegal action, why as the engine's :class:`Refusal`, else None.
    """

    legal: bool
    finished: bool = False
    hands: tuple[HandVerdict, ...] = ()
    result: MatchResult | None = None
    hand: int | None = None
    step: int | None = None
    error: str | None = None
    totals: tuple[int, ...] | None = None
    stated_totals: tuple[int, ...] | None = None
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        """The match record is legal."""
        return self.legal

    @property
    def totals_match(self) -> bool | None:
        """Whether the stated totals equal the computed ones; None when not compared."""
        if not self.legal or self.stated_totals is None or self.totals is None:
            return None
        return self.stated_totals == self.totals

    @property
    def differing_hands(self) -> tuple[int, ...]:
        """The indices of the hands whose stated result differs from the computed one."""
        return tuple(i for i, h in enumerate(self.hands) if h.result_matches is False)

    @property
    def result_matches(self) -> bool | None:
        """False when the stated totals or any hand's stated result differ; None when
        nothing is compared (no stated totals nor results, or an illegal record)."""
        if not self.legal:
            return None
        compared = [self.totals_match, *(h.result_matches for h in self.hands)]
        if all(c is None for c in compared):
            return None
        return all(c is not False for c in compared)

    def stated_json(self) -> dict[str, Any]:
        """``stated`` of FORMATS.md for a match: ``totals`` as stated (when they differ)
        and ``hands``: index → that hand's differing fields as stated."""
        out: dict[str, Any] = {}
        if self.totals_match is False:
            assert self.stated_totals is not None
            out["totals"] = list(self.stated_totals)
        if self.differing_hands:
            out["hands"] = {str(i): self.hands[i].stated_json() for i in self.differing_hands}
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "finished", "hands", "result"}`` or the fault ``{"ok": false,
        "hand", "step", "error"}``, with ``result_matches``/``stated`` when they differ."""
        if not self.legal:
            return {"ok": False, "hand": self.hand, "step": self.step, "error": self.error}
        return _with_result({"ok": True, "finished": self.finished, "hands": [h.to_json() for h in self.hands]}, self)


@dataclass(frozen=True, slots=True, eq=False)
class InvalidVerdict(Verdict):
    """A file that is not a valid record (FORMATS.md): bad JSON, a missing or mistyped
    field, a card or an action that cannot be read, or a file that cannot be read at all.

    Attributes:
        error: the message (it names the field).
        step: the index of the action that cannot be read, else None.
        hand: in a match record, the index of the hand the bad part is in, else None.
    """

    error: str
    step: int | None = None
    hand: int | None = None

    @classmethod
    def from_error(cls, exc: RecordError, prefix: str = "") -> InvalidVerdict:
        """The verdict for a :class:`RecordError` (with its ``step`` and ``hand`` when it
        is a :class:`RecordFieldError`); ``prefix`` (a file name…) opens the message."""
        message = f"{prefix}: {exc}" if prefix else str(exc)
        if isinstance(exc, RecordFieldError):
            return cls(message, exc.step, exc.hand)
        return cls(message)

    @property
    def ok(self) -> bool:
        """Never: the file is no record."""
        return False

    @property
    def exit_code(self) -> int:
        """2."""
        return 2

    def to_json(self) -> dict[str, Any]:
        """``{"ok": false, "invalid": true, "step": K or null, "error": "…"}``, with
        ``"hand"`` before ``step`` for a part of a match's hand."""
        out: dict[str, Any] = {"ok": False, "invalid": True}
        if self.hand is not None:
            out["hand"] = self.hand
        out["step"] = self.step
        out["error"] = self.error
        return out


def verify_hand(record: HandRecord) -> HandVerdict:
    """Replay a hand record: the verdict of ``erqishi verify`` (FORMATS.md), its stated
    result compared with the computed one."""
    rep = replay_hand(record)
    if not rep.ok:
        return HandVerdict(False, step=rep.error_step, error=rep.error, stated=record.result, refusal=rep.refusal)
    outcome = rep.final.result
    if outcome is None:
        return HandVerdict(True, False, stated=record.result)
    return HandVerdict(True, True, RecordResult.from_outcome(outcome), stated=record.result)


@overload
def verify(record: HandRecord) -> HandVerdict: ...
@overload
def verify(record: MatchRecord) -> MatchVerdict: ...
@overload
def verify(record: HandRecord | MatchRecord) -> HandVerdict | MatchVerdict: ...


def verify(record: HandRecord | MatchRecord) -> HandVerdict | MatchVerdict:
    """The verdict for a hand or a match record (FORMATS.md; see the module docstring for
    its JSON and for how stated results are compared): :func:`verify_hand` or
    :func:`verify_match`."""
    if isinstance(record, HandRecord):
        return verify_hand(record)
    return verify_match(record)


def verify_match(record: MatchRecord) -> MatchVerdict:
    """Replay a match record: the verdict of ``erqishi verify`` (FORMATS.md).

    A match is replayed as a match: each hand must be dealt by the seat the deal passed
    to (R-2.2) and carry the 圈 number of its 圈 (R-2.4); every hand but the last must
    be finished; the match is finished once all its 圈 are played. Its result is the
    totals (R-8.3) and the leading seats. A match-level fault is reported with the hand's
    index and ``step`` None.
    """
    rules = record.rules
    stated = record.totals
    verdicts: list[HandVerdict] = []
    if not record.hands:
        return MatchVerdict(True, False, totals=(0,) * rules.players, stated_totals=stated)
    match = Match(rules, dealer=record.hands[0].deal.dealer, totals=(0,) * rules.players)
    last = len(record.hands) - 1
    for i, hand in enumerate(record.hands):
        if match.is_over:
            return _match_fault(i, f"R-2.4: the match of {rules.match_quan} 圈 was over after hands[{i - 1}]")
        if hand.deal.dealer != match.dealer:
            return _match_fault(
                i,
                f"R-2.2: hands[{i}] is dealt by seat {hand.deal.dealer}, "
                f"but the deal had passed to seat {match.dealer}",
            )
        if hand.quan != match.quan_card_number:
            return _match_fault(
                i,
                f"R-2.4: hands[{i}] is played in 圈 {match.quan}, so its quan must be "
                f"{json.dumps(match.quan_card_number)}, not {json.dumps(hand.quan)}",
            )
        rep = replay_hand(hand)
        if not rep.ok:
            return MatchVerdict(False, hand=i, step=rep.error_step, error=rep.error, refusal=rep.refusal)
        outcome = rep.final.result
        if outcome is None:
            verdicts.append(HandVerdict(True, False, stated=hand.result))
            if i != last:
                return _match_fault(i + 1, f"hands[{i}] is unfinished, yet hands[{i + 1}] follows")
            return MatchVerdict(True, False, tuple(verdicts), totals=match.totals, stated_totals=stated)
        verdicts.append(HandVerdict(True, True, RecordResult.from_outcome(outcome), stated=hand.result))
        match = match.after(outcome)
    result = MatchResult(match.totals, match.leaders) if match.is_over else None
    return MatchVerdict(True, match.is_over, tuple(verdicts), result, totals=match.totals, stated_totals=stated)


def _match_fault(hand: int, error: str) -> MatchVerdict:
    return MatchVerdict(False, hand=hand, step=None, error=error)

"""The game record, format 1 (FORMATS.md "Game record"): read, validate and write.

A hand record holds the rule set, seat names, 圈 number, the deal, the effective actions
and, once the hand is over, its result (:class:`RecordResult`); a match record holds its
hands and totals. Reading never trusts the file: every field is checked, ``result`` too,
and a :class:`RecordFieldError` names the first bad one (and the action, when it is one).
Writing gives the same JSON, key for key and in the same order, as the engine's
``Outcome.to_json`` for the result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from erqishi.core import Card, ErqishiError, RecordError, RuleSet, WinSource, parse_cards
from erqishi.core.engine import Action, Deal, Outcome, OutcomeKind

__all__ = [
    "FORMAT",
    "RESULT_FIELDS",
    "HandRecord",
    "MatchRecord",
    "RecordFieldError",
    "RecordResult",
    "dumps",
    "load_record",
    "parse_record",
]

FORMAT = 1

#: The fields of a record's ``result``, in the order they are written (FORMATS.md).
RESULT_FIELDS = ("kind", "winner", "source", "hu", "fan", "score", "payments")

#: ``result.source`` (R-6.4) and the 番 names of ``result.fan`` (R-7.3, cases/README.md).
_SOURCES = ("discard", "flip", "own_flip", "tian")
_FAN_NAMES = ("双圈", "圈胡", "地胡", "坤胡", "天胡", "瞟胡")


class RecordFieldError(RecordError):
    """A record that is not valid (FORMATS.md), with where it went wrong.

    Attributes:
        field: the first bad field as written in the message (``deal.hands[1]``,
            ``actions[3]``, ``hands[2].result.score``), or None when the text is no JSON.
        hand: for a match record, the index of the hand the bad field is in, else None.
        step: the 0-based index of the action that cannot be read, when the bad field
            is one of ``actions`` (``"step"`` of ``erqishi verify --json``), else None.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        hand: int | None = None,
        step: int | None = None,
        zh: str = "",
    ) -> None:
        super().__init__(message, zh=zh)
        self.field = field
        self.hand = hand
        self.step = step

    def __reduce__(self) -> tuple[object, ...]:  # it crosses processes whole
        return (_field_error, (str(self), self.field, self.hand, self.step, self.zh))


def _field_error(message: str, field: str | None, hand: int | None, step: int | None, zh: str) -> RecordFieldError:
    return RecordFieldError(message, field=field, hand=hand, step=step, zh=zh)


def _wrapped(field: str, exc: ErqishiError, step: int | None = None) -> RecordFieldError:
    """A lower layer's error at ``field`` (its Chinese kept, with the field)."""
    return RecordFieldError(f"{field}: {exc}", field=field, step=step, zh=f"{field}：{exc.zh}" if exc.zh else "")


def _need(cond: bool, field: str, message: str, *, step: int | None = None) -> None:
    if not cond:
        raise RecordFieldError(f"{field}: {message}", field=field, step=step)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    """``value`` as JSON for a message, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass(frozen=True, slots=True)
class RecordResult:
    """A hand's ``result`` (FORMATS.md; R-5.6, R-6.4, R-7, R-8): a win or a dead hand.

    Attributes:
        kind: ``win`` or ``dead`` (荒庄).
        payments: per seat, in score units (R-8); the engine's sum to 0 (a stated result
            read from a file may not: :func:`erqishi.records.verify` reports it).
        winner: the winner's seat; None for a dead hand.
        source: the win source (R-6.4); None for a dead hand.
        hu: the winner's hu (R-7.1); None for a dead hand.
        fan: the 番 by Chinese name (``cases/README.md``), as written (the engine sorts
            them by code point); empty for a dead hand.
        score: the score (R-7.4); None for a dead hand.

    Raises:
        RecordError: a win without its winner, source, hu or score, or a dead hand with one.

    >>> r = RecordResult(OutcomeKind.DEAD, (0, 0, 0)); r.to_json()
    {'kind': 'dead', 'payments': [0, 0, 0]}
    """

    kind: OutcomeKind
    payments: tuple[int, ...]
    winner: int | None = None
    source: WinSource | None = None
    hu: int | None = None
    fan: tuple[str, ...] = ()
    score: int | None = None

    def __post_init__(self) -> None:
        win_fields = (self.winner, self.source, self.hu, self.score)
        if self.kind is OutcomeKind.WIN and any(v is None for v in win_fields):
            raise RecordError("a win needs its winner, source, hu and score")
        if self.kind is OutcomeKind.DEAD and (any(v is not None for v in win_fields) or self.fan):
            raise RecordError("a dead hand has no winner, source, hu, fan or score")

    @classmethod
    def from_outcome(cls, outcome: Outcome) -> RecordResult:
        """The result of an engine outcome (what ``Outcome.to_json`` writes)."""
        analysis = outcome.analysis
        if outcome.kind is OutcomeKind.DEAD or analysis is None or outcome.source is None:
            return cls(OutcomeKind.DEAD, tuple(outcome.payments))
        return cls(
            OutcomeKind.WIN,
            tuple(outcome.payments),
            outcome.winner,
            outcome.source,
            analysis.hu,
            tuple(analysis.fan_names),
            analysis.score,
        )

    @classmethod
    def from_json(cls, data: Any, players: int, where: str = "result") -> RecordResult:
        """Read a ``result`` object, checking every field.

        Args:
            data: the parsed JSON.
            players: the number of seats (``payments`` has one entry per seat, ``winner``
                is one of them).
            where: the field's name in messages (``hands[2].result``).

        Raises:
            RecordFieldError: the first missing or mistyped field, named (``result.score``):
                ``kind`` not ``win``/``dead``, ``payments`` not one integer per seat, and
                for a win ``winner`` not a seat, ``source`` not one of R-6.4, ``hu`` or
                ``score`` not an integer ≥ 0, ``fan`` not a list of 番 names; for a dead
                hand a winner, source, hu, score or 番 that is there and not null.
        """
        _need(isinstance(data, dict), where, f"must be an object, got {_show(data)}")
        kind_text = data.get("kind")
        _need(kind_text in ("win", "dead"), f"{where}.kind", f"must be 'win' or 'dead', got {_show(kind_text)}")
        kind = OutcomeKind(kind_text)
        payments = data.get("payments")
        _need(
            isinstance(payments, list) and len(payments) == players and all(_int(p) for p in payments),
            f"{where}.payments",
            f"must be {players} integers (one per seat), got {_show(payments)}",
        )
        if kind is OutcomeKind.DEAD:
            for key in ("winner", "source", "hu", "score"):
                _need(data.get(key) is None, f"{where}.{key}", "must be absent or null for a dead hand")
            _need(data.get("fan") in (None, []), f"{where}.fan", "must be absent, null or [] for a dead hand")
            return cls(kind, tuple(payments))
        winner = data.get("winner")
        _need(
            _int(winner) and 0 <= winner < players,
            f"{where}.winner",
            f"must be a seat 0-{players - 1}, got {_show(winner)}",
        )
        source_text = data.get("source")
        _need(
            source_text in _SOURCES,
            f"{where}.source",
            f"must be one of {', '.join(_SOURCES)}, got {_show(source_text)}",
        )
        hu = data.get("hu")
        _need(_int(hu) and hu >= 0, f"{where}.hu", f"must be an integer 0 or more, got {_show(hu)}")
        fan = data.get("fan")
        _need(isinstance(fan, list), f"{where}.fan", f"must be a list of 番 names, got {_show(fan)}")
        for i, name in enumerate(fan):
            _need(
                isinstance(name, str) and name in _FAN_NAMES,
                f"{where}.fan[{i}]",
                f"must be one of {' '.join(_FAN_NAMES)}, got {_show(name)}",
            )
        score = data.get("score")
        _need(_int(score) and score >= 0, f"{where}.score", f"must be an integer 0 or more, got {_show(score)}")
        return cls(kind, tuple(payments), winner, WinSource(source_text), hu, tuple(fan), score)

    @property
    def is_win(self) -> bool:
        """The hand was won (else it died, 荒庄)."""
        return self.kind is OutcomeKind.WIN

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object (FORMATS.md), keys in the order of :data:`RESULT_FIELDS`;
        a dead hand has only ``kind`` and ``payments``."""
        if self.kind is OutcomeKind.DEAD:
            return {"kind": "dead", "payments": list(self.payments)}
        assert self.source is not None
        return {
            "kind": "win",
            "winner": self.winner,
            "source": self.source.value,
            "hu": self.hu,
            "fan": list(self.fan),
            "score": self.score,
            "payments": list(self.payments),
        }

    def field_json(self, name: str) -> Any:
        """One field of :attr:`to_json` by name; None for a field this result does not
        carry (a dead hand's winner, source, hu, fan and score).

        Raises:
            KeyError: ``name`` is not one of :data:`RESULT_FIELDS`.
        """
        if name not in RESULT_FIELDS:
            raise KeyError(name)
        return self.to_json().get(name)

    def differences(self, other: RecordResult | None) -> tuple[str, ...]:
        """The fields (of :data:`RESULT_FIELDS`, in that order) in which ``other`` differs
        from this result; every field this result carries when ``other`` is None. 番 are
        compared as a set of names with their counts, whatever their order."""
        if other is None:
            return tuple(self.to_json())
        out = []
        for name in RESULT_FIELDS:
            mine, theirs = self.field_json(name), other.field_json(name)
            if name == "fan" and mine is not None and theirs is not None:
                mine, theirs = sorted(mine), sorted(theirs)
            if mine != theirs:
                out.append(name)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as recorded (FORMATS.md).

    Attributes:
        rules: the rule set.
        seats: a display name per seat.
        quan: the 圈 number, or None.
        deal: the deal.
        actions: the effective actions, ``(seat, action)``, in order.
        result: the result: as the file states it (checked for its form, not for its
            truth: :func:`erqishi.records.verify` replays the hand), or as the engine
            computed it (:meth:`with_result`); None when the record carries none.
    """

    rules: RuleSet
    seats: tuple[str, ...]
    quan: int | None
    deal: Deal
    actions: tuple[tuple[int, Action], ...]
    result: RecordResult | None = None

    def with_result(self, result: Outcome | RecordResult) -> HandRecord:
        """This record carrying ``result`` (an engine outcome or a result)."""
        typed = result if isinstance(result, RecordResult) else RecordResult.from_outcome(result)
        return replace(self, result=typed)

    def to_json(self, outcome: Outcome | None = None) -> dict[str, Any]:
        """The record as a JSON object (FORMATS.md); ``outcome`` (when given) becomes
        ``result``, else :attr:`result` is written (none when None)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_spec(),
            "seats": list(self.seats),
            "quan": self.quan,
            "deal": {
                "dealer": self.deal.dealer,
                "hands": [" ".join(c.ascii for c in hand) for hand in self.deal.hands],
                "stock": " ".join(c.ascii for c in self.deal.stock),
            },
            "actions": [[seat, str(action)] for seat, action in self.actions],
        }
        result = RecordResult.from_outcome(outcome) if outcome is not None else self.result
        if result is not None:
            data["result"] = result.to_json()
        return data


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match (FORMATS.md): its hands in order and the running totals.

    Attributes:
        rules: the rule set of every hand.
        seats: a display name per seat.
        hands: the hand records in the order played.
        totals: the totals per seat after the hands (R-8.3), as stated; None when the
            record carries none.
    """

    rules: RuleSet
    seats: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...] | None = None

    def to_json(self, outcomes: list[Outcome] | None = None) -> dict[str, Any]:
        """The match record as a JSON object; ``outcomes`` (one per hand, when given)
        become the hands' results, else each hand's own :attr:`HandRecord.result`."""
        hands = [h.to_json(outcomes[i] if outcomes is not None else None) for i, h in enumerate(self.hands)]
        data: dict[str, Any] = {
            "format": FORMAT,
            "kind": "match",
            "rules": self.rules.to_spec(),
            "seats": list(self.seats),
            "hands": hands,
        }
        if self.totals is not None:
            data["totals"] = list(self.totals)
        return data


def dumps(data: dict[str, Any]) -> str:
    """JSON text of a record: UTF-8 characters kept, one line per action for a hand."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _format(data: dict[str, Any], field: str) -> None:
    value = data.get("format")
    _need(
        isinstance(value, int) and not isinstance(value, bool) and value == FORMAT,
        field,
        f"must be {FORMAT}, got {json.dumps(value)[:40]}",
    )


def _cards(value: Any, field: str) -> tuple[Card, ...]:
    _need(isinstance(value, str), field, f"must be a card string, got {_show(value)}")
    try:
        return parse_cards(value)
    except ErqishiError as exc:
        raise _wrapped(field, exc) from None


def _rules(value: Any, field: str) -> RuleSet:
    _need(isinstance(value, (str, dict)), field, "must be a preset name or an object of options")
    try:
        return RuleSet.load(value)
    except ErqishiError as exc:
        raise _wrapped(field, exc) from None


def _seats(value: Any, field: str, rules: RuleSet) -> tuple[str, ...]:
    _need(isinstance(value, list) and all(isinstance(s, str) for s in value), field, "must be a list of names")
    _need(
        len(value) == rules.players,
        field,
        f"must name {rules.players} seats for {rules.players} players, got {len(value)}",
    )
    return tuple(value)


def _hand_record(
    data: Any, where: str, rules: RuleSet | None = None, seats: tuple[str, ...] | None = None
) -> HandRecord:
    prefix = f"{where}." if where else ""
    _need(isinstance(data, dict), where or "record", "must be a JSON object")
    if not where or "format" in data:
        _format(data, f"{prefix}format")
    kind = data.get("kind", "hand")
    _need(kind == "hand", f"{prefix}kind", f"must be 'hand' here, got {_show(kind)}")
    if rules is None:
        _need("rules" in data, f"{prefix}rules", "is missing (a preset name or an object of options)")
        rules = _rules(data["rules"], f"{prefix}rules")
    elif "rules" in data:
        own = _rules(data["rules"], f"{prefix}rules")
        _need(own == rules, f"{prefix}rules", "differ from the match's rules")
    if seats is None:
        _need("seats" in data, f"{prefix}seats", "is missing (a list of seat names)")
        seats = _seats(data["seats"], f"{prefix}seats", rules)
    elif "seats" in data:
        _need(
            _seats(data["seats"], f"{prefix}seats", rules) == seats, f"{prefix}seats", "differ from the match's seats"
        )
    quan = data.get("quan")
    _need(quan is None or (_int(quan) and 1 <= quan <= 10), f"{prefix}quan", f"must be null or 1-10, got {_show(quan)}")
    deal_data = data.get("deal")
    _need(isinstance(deal_data, dict), f"{prefix}deal", "must be an object with dealer, hands and stock")
    dealer = deal_data.get("dealer")
    _need(_int(dealer), f"{prefix}deal.dealer", f"must be a seat number, got {_show(dealer)}")
    hands_data = deal_data.get("hands")
    _need(isinstance(hands_data, list), f"{prefix}deal.hands", "must be a list of card strings")
    hands = tuple(_cards(h, f"{prefix}deal.hands[{i}]") for i, h in enumerate(hands_data))
    stock = _cards(deal_data.get("stock"), f"{prefix}deal.stock")
    deal = Deal(dealer, hands, stock)
    try:
        deal.validate(rules)
    except ErqishiError as exc:
        raise _wrapped(f"{prefix}deal", exc) from None
    _need("actions" in data, f"{prefix}actions", "is missing (a list of [seat, action], possibly empty)")
    actions_data = data["actions"]
    _need(isinstance(actions_data, list), f"{prefix}actions", "must be a list of [seat, action]")
    actions: list[tuple[int, Action]] = []
    for i, entry in enumerate(actions_data):
        field = f"{prefix}actions[{i}]"
        _need(
            isinstance(entry, list) and len(entry) == 2 and _int(entry[0]) and isinstance(entry[1], str),
            field,
            f'must be [seat, "action"], got {_show(entry)}',
            step=i,
        )
        try:
            action = Action.parse(entry[1])
        except ErqishiError as exc:
            raise _wrapped(field, exc, i) from None
        actions.append((entry[0], action))
    result_data = data.get("result")
    result = None if result_data is None else RecordResult.from_json(result_data, rules.players, f"{prefix}result")
    return HandRecord(rules, seats, quan, deal, tuple(actions), result)


def parse_record(data: Any) -> HandRecord | MatchRecord:
    """A record from its parsed JSON (FORMATS.md "Game record").

    Raises:
        RecordFieldError: (a ``RecordError``) the first field that is missing or wrong,
            named (``deal.hands[1]``, ``actions[3]``, ``result.score``,
            ``hands[2].deal``…), with the action's index as ``step`` when it is an action
            that cannot be read and, in a match, the hand's index as ``hand``.
    """
    _need(isinstance(data, dict), "record", "must be a JSON object")
    if data.get("kind") == "match":
        _format(data, "format")
        _need("rules" in data, "rules", "is missing (a preset name or an object of options)")
        rules = _rules(data["rules"], "rules")
        _need("seats" in data, "seats", "is missing (a list of seat names)")
        seats = _seats(data["seats"], "seats", rules)
        hands_data = data.get("hands")
        _need(isinstance(hands_data, list), "hands", "must be a list of hand records")
        hands: list[HandRecord] = []
        for i, h in enumerate(hands_data):
            try:
                hands.append(_hand_record(h, f"hands[{i}]", rules, seats))
            except RecordFieldError as exc:
                raise RecordFieldError(str(exc), field=exc.field, hand=i, step=exc.step) from None
        totals = data.get("totals")
        _need(
            totals is None
            or (isinstance(totals, list) and len(totals) == rules.players and all(_int(t) for t in totals)),
            "totals",
            f"must be {rules.players} integers (one per seat), got {_show(totals)}",
        )
        return MatchRecord(rules, seats, tuple(hands), None if totals is None else tuple(totals))
    return _hand_record(data, "")


def load_record(text: str) -> HandRecord | MatchRecord:
    """A record from JSON text.

    Raises:
        RecordFieldError: (a ``RecordError``) not JSON (no field named), or not a valid
            record (see :func:`parse_record`).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordFieldError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordFieldError("not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer too long to convert
        raise RecordFieldError(f"not valid JSON: {exc}") from None
    return parse_record(data)

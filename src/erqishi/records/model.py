"""The game record, format 1 (FORMATS.md "Game record"): read, validate and write.

A hand record holds the rule set, seat names, 圈 number, the deal, the effective actions
and the result; a match record holds its hands and totals. Reading never trusts the
file: every field is checked and a :class:`RecordError` names the first bad one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from erqishi.core import Card, ErqishiError, RecordError, RuleSet, parse_cards
from erqishi.core.engine import Action, Deal, Outcome

__all__ = ["FORMAT", "HandRecord", "MatchRecord", "load_record", "parse_record"]

FORMAT = 1


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as recorded (FORMATS.md).

    Attributes:
        rules: the rule set.
        seats: a display name per seat.
        quan: the 圈 number, or None.
        deal: the deal.
        actions: the effective actions, ``(seat, action)``, in order.
        result: the ``result`` object as written in the file (not trusted), or None.
    """

    rules: RuleSet
    seats: tuple[str, ...]
    quan: int | None
    deal: Deal
    actions: tuple[tuple[int, Action], ...]
    result: dict[str, Any] | None = None

    def to_json(self, outcome: Outcome | None = None) -> dict[str, Any]:
        """The record as a JSON object; ``outcome`` (when given) becomes ``result``."""
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
        result = outcome.to_json() if outcome is not None else self.result
        if result is not None:
            data["result"] = result
        return data


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match (FORMATS.md): its hands in order and the running totals."""

    rules: RuleSet
    seats: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...] | None = None

    def to_json(self, outcomes: list[Outcome] | None = None) -> dict[str, Any]:
        """The match record as a JSON object."""
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


def _need(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise RecordError(f"{field}: {message}")


def _format(data: dict[str, Any], field: str) -> None:
    value = data.get("format")
    _need(
        isinstance(value, int) and not isinstance(value, bool) and value == FORMAT,
        field,
        f"must be {FORMAT}, got {json.dumps(value)[:40]}",
    )


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards(value: Any, field: str) -> tuple[Card, ...]:
    _need(isinstance(value, str), field, f"must be a card string, got {json.dumps(value, ensure_ascii=False)}")
    try:
        return parse_cards(value)
    except ErqishiError as exc:
        raise RecordError(f"{field}: {exc}") from None


def _rules(value: Any, field: str) -> RuleSet:
    _need(isinstance(value, (str, dict)), field, "must be a preset name or an object of options")
    try:
        return RuleSet.load(value)
    except ErqishiError as exc:
        raise RecordError(f"{field}: {exc}") from None


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
    _need(kind == "hand", f"{prefix}kind", f"must be 'hand' here, got {kind!r}")
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
    _need(quan is None or (_int(quan) and 1 <= quan <= 10), f"{prefix}quan", f"must be null or 1-10, got {quan!r}")
    deal_data = data.get("deal")
    _need(isinstance(deal_data, dict), f"{prefix}deal", "must be an object with dealer, hands and stock")
    dealer = deal_data.get("dealer")
    _need(_int(dealer), f"{prefix}deal.dealer", f"must be a seat number, got {dealer!r}")
    hands_data = deal_data.get("hands")
    _need(isinstance(hands_data, list), f"{prefix}deal.hands", "must be a list of card strings")
    hands = tuple(_cards(h, f"{prefix}deal.hands[{i}]") for i, h in enumerate(hands_data))
    stock = _cards(deal_data.get("stock"), f"{prefix}deal.stock")
    deal = Deal(dealer, hands, stock)
    try:
        deal.validate(rules)
    except ErqishiError as exc:
        raise RecordError(f"{prefix}deal: {exc}") from None
    _need("actions" in data, f"{prefix}actions", "is missing (a list of [seat, action], possibly empty)")
    actions_data = data["actions"]
    _need(isinstance(actions_data, list), f"{prefix}actions", "must be a list of [seat, action]")
    actions: list[tuple[int, Action]] = []
    for i, entry in enumerate(actions_data):
        field = f"{prefix}actions[{i}]"
        _need(
            isinstance(entry, list) and len(entry) == 2 and _int(entry[0]) and isinstance(entry[1], str),
            field,
            f'must be [seat, "action"], got {json.dumps(entry, ensure_ascii=False)}',
        )
        try:
            action = Action.parse(entry[1])
        except ErqishiError as exc:
            raise RecordError(f"{field}: {exc}") from None
        actions.append((entry[0], action))
    result = data.get("result")
    _need(result is None or isinstance(result, dict), f"{prefix}result", "must be an object")
    return HandRecord(rules, seats, quan, deal, tuple(actions), result)


def parse_record(data: Any) -> HandRecord | MatchRecord:
    """A record from its parsed JSON.

    Raises:
        RecordError: the first field that is missing or wrong, named (``deal.hands[1]``,
            ``actions[3]``, ``hands[2].deal``…).
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
        hands = tuple(_hand_record(h, f"hands[{i}]", rules, seats) for i, h in enumerate(hands_data))
        totals = data.get("totals")
        _need(
            totals is None or (isinstance(totals, list) and all(_int(t) for t in totals)),
            "totals",
            "must be a list of numbers",
        )
        return MatchRecord(rules, seats, hands, None if totals is None else tuple(totals))
    return _hand_record(data, "")


def load_record(text: str) -> HandRecord | MatchRecord:
    """A record from JSON text.

    Raises:
        RecordError: not JSON, or not a valid record (the field is named).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer too long to convert
        raise RecordError(f"not valid JSON: {exc}") from None
    return parse_record(data)

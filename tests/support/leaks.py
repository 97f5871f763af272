"""The hall's messages hide every card (R-9): what the leak checks of the protocol tests
apply to each message that is not a player's own view (``state`` objects other than
``game``, ``said``, ``vote_ended``, ``welcome``…)."""

from __future__ import annotations

import json
import re
from typing import Any

#: A card as a JSON string, in ASCII notation (FORMATS.md): ``"x3"``, ``"d10"``.
CARD = re.compile(r'"[xd](?:10|[1-9])"')

#: The fields each message of the hall may carry, and nothing else.
HALL_FIELDS: dict[str, set[str]] = {
    "welcome": {"v", "type", "token", "member", "talk"},
    "said": {"v", "type", "seat", "phrase", "emote", "text"},
    "vote_ended": {"v", "type", "seat", "result", "reason", "refused", "agreed", "silent"},
    "pong": {"v", "type"},
    "notice": {"v", "type", "code", "text"},
}
#: The fields of a seat in ``room.seats``.
SEAT_FIELDS = {"seat", "kind", "name", "connected", "away", "tuoguan"}


def cards_in(obj: Any) -> list[str]:
    """Every card string anywhere in ``obj`` (as JSON)."""
    return CARD.findall(json.dumps(obj, ensure_ascii=False))


def check_hides_cards(message: dict[str, Any]) -> None:
    """``message`` names no card outside a ``game`` (whose view the protocol tests check
    against the replayed state) or the sender's own ``hints`` and ``error`` (an error
    quotes the sender's own message): the ``room`` and ``you`` objects of a state and
    every message of the hall carry no card at all, and only their documented fields."""
    kind = message["type"]
    if kind == "state":
        assert not cards_in(message["room"]), f"a card in the room object: {message['room']}"
        assert not cards_in(message["you"]), f"a card in the you object: {message['you']}"
        for seat in message["room"]["seats"]:
            assert set(seat) <= SEAT_FIELDS, seat
        vote = message["room"].get("vote")
        if vote is not None:
            assert set(vote) == {"by", "asked", "agreed", "remaining_ms", "total_ms", "timeout"}, vote
        game = message["game"]
        if game is not None:
            running = game["running"]
            assert all(isinstance(t, int) for totals in running for t in totals), running
        return
    if kind in ("hints", "error"):
        return
    assert kind in HALL_FIELDS, f"a message of an unknown kind: {kind}"
    assert set(message) <= HALL_FIELDS[kind], f"{kind} carries {sorted(set(message) - HALL_FIELDS[kind])}"
    if kind == "said" and "text" in message:
        return  # what a person typed is theirs to say (a room option allows it)
    assert not cards_in(message), f"a card in a {kind} message: {message}"

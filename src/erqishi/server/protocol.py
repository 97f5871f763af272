"""The web protocol, version 1 (docs/protocol.md): client messages validated with pydantic,
and the JSON the server sends (views, results, errors), built from the engine's values.

Card and action strings are the ASCII forms of FORMATS.md. Nothing here reads a
:class:`~erqishi.core.engine.State` directly except through a view, so what a message can
hold is what the view allows (R-9).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from erqishi.core import Card
from erqishi.core.engine import PlayerView
from erqishi.core.hands import Group
from erqishi.server.settings import PROTOCOL_VERSION

__all__ = [
    "ClientMessage",
    "CreateRoom",
    "ProtocolError",
    "clean_name",
    "error_message",
    "group_json",
    "parse_client_message",
    "view_json",
]

BotLevel = Literal["random", "heuristic", "search"]
Preset = Literal["leshan", "duikou", "meishan", "app"]


class ProtocolError(Exception):
    """A client message that cannot be accepted; ``code`` is one of the protocol's error
    codes (docs/protocol.md) and ``ref`` the message's type when known."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def clean_name(name: str) -> str:
    """A display name with control characters removed and spaces collapsed.

    Raises:
        ValueError: nothing printable is left, or it is longer than 24 characters.

    >>> clean_name("  小  明 ")
    '小 明'
    """
    kept = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    kept = " ".join(kept.split())
    if not kept:
        raise ValueError("a name needs at least one visible character")
    if len(kept) > 24:
        raise ValueError("a name has at most 24 characters")
    return kept


def _exactly_one(value: object) -> object:
    """The protocol version is the integer 1 (not ``true``, not ``1.0``)."""
    if type(value) is not int:
        raise ValueError("the protocol version must be the integer 1")
    return value


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    v: Literal[1]

    _version = field_validator("v", mode="before")(_exactly_one)


class Hello(_Message):
    """Join a room, or resume as an earlier member with its ``token``."""

    type: Literal["hello"]
    name: str | None = Field(default=None, max_length=64)
    token: str | None = Field(default=None, min_length=1, max_length=128)
    lang: Literal["zh", "en"] | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class Rename(_Message):
    """Change the display name."""

    type: Literal["name"]
    name: str = Field(max_length=64)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class Sit(_Message):
    """Take an empty seat (lobby)."""

    type: Literal["sit"]
    seat: int = Field(ge=0, le=3)


class Unbot(_Message):
    """Empty a bot's seat (lobby)."""

    type: Literal["unbot"]
    seat: int = Field(ge=0, le=3)


class Act(_Message):
    """A decision: an ASCII action (FORMATS.md) answering the state numbered ``seq``."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=120)
    seq: int = Field(ge=0)


class Simple(_Message):
    """A message with no fields."""

    type: Literal["stand", "bots", "start", "next", "hints", "ping"]


ClientMessage = Annotated[Hello | Rename | Sit | Unbot | Act | Simple, Field(discriminator="type")]
_CLIENT = TypeAdapter[Hello | Rename | Sit | Unbot | Act | Simple](ClientMessage)


class CreateRoom(BaseModel):
    """The body of ``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    v: Literal[1]
    preset: Preset = "leshan"

    _version = field_validator("v", mode="before")(_exactly_one)
    quan: int = Field(default=1, ge=1, le=10)
    bots: BotLevel = "heuristic"
    players: int | None = Field(default=None, ge=2, le=4)


def parse_client_message(text: str | bytes, max_bytes: int) -> Hello | Rename | Sit | Unbot | Act | Simple:
    """Check one client frame against the protocol.

    Raises:
        ProtocolError: ``too_big``, ``bad_json``, ``bad_version`` or ``bad_message``, naming
            the fault (the field and what was wrong).
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages are JSON in text frames, not binary frames")
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise ProtocolError("too_big", f"message of {size} bytes; the limit is {max_bytes}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    ref = data.get("type") if isinstance(data.get("type"), str) else None
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise ProtocolError("bad_version", f"protocol version {version!r} is not supported; use 1", ref)
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}", ref) from None


def error_message(code: str, message: str, ref: str | None = None) -> dict[str, Any]:
    """An ``error`` message."""
    return {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message, "ref": ref}


#: ASCII notation by card value (``x1``…``d10``).
ASCII: tuple[str, ...] = tuple(card.ascii for card in Card)


def cards_json(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """Cards in ASCII notation."""
    return [ASCII[card] for card in cards]


def group_json(group: Group) -> dict[str, Any]:
    """A group: kind, Chinese name, cards, hu (R-7.1)."""
    return {"kind": group.kind.value, "name": group.name, "cards": cards_json(group.cards), "hu": group.hu}


def view_json(v: PlayerView) -> dict[str, Any]:
    """The ``view`` object (docs/protocol.md) of a player's or a spectator's view (R-9).

    Only fields of the view go out: concealed hands of other seats are ``None`` in the view
    until the hand is over, and the stock is only a count.
    """
    return {
        "seat": v.seat if v.seat >= 0 else None,
        "quan": v.quan,
        "dealer": v.dealer,
        "order": list(v.order),
        "phase": v.phase.value,
        "turn": v.turn,
        "pending": ASCII[v.pending] if v.pending is not None else None,
        "pending_flip": v.pending_flip,
        "stock_left": v.stock_left,
        "hand": cards_json(v.hand),
        "seats": [
            {
                "seat": sv.seat,
                "hand_size": sv.hand_size,
                "melds": [group_json(g) for g in sv.melds],
                "row": cards_json(sv.row),
                "announced": sv.announced,
                "hand": cards_json(sv.hand) if sv.hand is not None else None,
            }
            for sv in v.seats
        ],
    }

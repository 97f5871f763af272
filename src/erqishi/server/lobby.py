"""A room's lobby: who is in it (members with their seat tokens), and who sits where (a
person, a bot, or nobody). Nothing here knows the rules of the game."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from erqishi.records.names import name_key
from erqishi.server.protocol import ProtocolError

if TYPE_CHECKING:
    from erqishi.server.connection import Connection

__all__ = ["Lobby", "Member", "Slot", "token_digest"]


def token_digest(token: str) -> str:
    """The stored form of a seat token (SHA-256): tokens themselves are never kept."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(eq=False)
class Member:
    """Someone in a room: a player (seated) or a spectator (``seat`` None)."""

    id: str
    digest: str
    name: str
    seat: int | None = None
    lang: str = "zh"
    conns: set[Connection] = field(default_factory=set)
    gone_since: float | None = None

    @property
    def connected(self) -> bool:
        """At least one open connection."""
        return bool(self.conns)


@dataclass(eq=False)
class Slot:
    """A seat: empty, a person (``member``) or a bot."""

    kind: Literal["empty", "human", "bot"] = "empty"
    member: Member | None = None


class Lobby:
    """The members and seats of one room.

    Args:
        players: the number of seats.
        bot_level: the room's bot (its name shows on bot seats).
        grace_seconds: how long a seated person may be gone before a bot plays for them.
    """

    def __init__(self, players: int, bot_level: str, grace_seconds: float) -> None:
        self.bot_level = bot_level
        self.grace_seconds = grace_seconds
        self.slots = [Slot() for _ in range(players)]
        self.members: dict[str, Member] = {}
        self.by_digest: dict[str, Member] = {}
        self._counter = 0

    # ------------------------------------------------------------------ members

    def join(self, token: str | None, name: str | None, lang: str | None) -> tuple[Member, str]:
        """A member for a ``hello``: the earlier member with ``token``, or a new one with a
        new token. Returns the member and its token (only the digest is kept)."""
        member = self.by_digest.get(token_digest(token)) if token else None
        if member is None or token is None:
            self._counter += 1
            token = secrets.token_urlsafe(32)
            number = self._counter
            while not name:  # a default name nobody in the room has taken
                default = f"Player {number}" if lang == "en" else f"玩家{number}"
                if not self.name_taken(default):
                    name = default
                number += 1
            member = Member(f"m{self._counter}", token_digest(token), name)
            self.members[member.id] = member
            self.by_digest[member.digest] = member
        elif name:
            member.name = name
        if lang:
            member.lang = lang
        member.gone_since = None
        return member, token

    def name_taken(self, name: str, by: Member | None = None) -> bool:
        """Whether a member of the room other than ``by`` goes by ``name`` (the same
        letters in any case or width), so two people at one table cannot look the same."""
        key = name_key(name)
        return any(m is not by and name_key(m.name) == key for m in self.members.values())

    def find(self, token: str | None) -> Member | None:
        """The member whose token is ``token``, or None."""
        return self.by_digest.get(token_digest(token)) if token else None

    def leave(self, member: Member) -> bool:
        """Forget ``member`` if it has no seat and no connection left (a spectator who left:
        its token no longer resumes it); True if it was forgotten. Seated members stay."""
        if member.seat is not None or member.connected or self.members.get(member.id) is not member:
            return False
        del self.members[member.id]
        self.by_digest.pop(member.digest, None)
        return True

    def spectators(self) -> int:
        """Connected members without a seat."""
        return sum(1 for m in self.members.values() if m.seat is None and m.connected)

    def spectators_from(self, address: str) -> int:
        """Connected members without a seat with a connection from ``address``."""
        return sum(
            1
            for m in self.members.values()
            if m.seat is None and any(c.address == address for c in m.conns)
        )

    # ------------------------------------------------------------------ seats

    def sit(self, member: Member, seat: int) -> None:
        """Seat ``member`` at the empty ``seat`` (leaving its old seat).

        Raises:
            ProtocolError: ``bad_message`` for a seat the room has not, ``seat_taken``.
        """
        if seat >= len(self.slots):
            raise ProtocolError(
                "bad_message", f"seat: {seat} is not a seat of this room (0-{len(self.slots) - 1})", "sit"
            )
        slot = self.slots[seat]
        if slot.kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} is taken", "sit")
        if member.seat is not None:
            self.slots[member.seat] = Slot()
        slot.kind, slot.member = "human", member
        member.seat = seat

    def stand(self, member: Member) -> None:
        """``member`` leaves its seat."""
        if member.seat is not None:
            self.slots[member.seat] = Slot()
            member.seat = None

    def fill_bots(self) -> None:
        """A bot takes every empty seat."""
        for slot in self.slots:
            if slot.kind == "empty":
                slot.kind = "bot"

    def unbot(self, seat: int) -> None:
        """Empty a bot's seat.

        Raises:
            ProtocolError: ``bad_message`` when no bot sits there.
        """
        if seat >= len(self.slots) or self.slots[seat].kind != "bot":
            raise ProtocolError("bad_message", f"seat: no bot sits at seat {seat}", "unbot")
        self.slots[seat] = Slot()

    def empty_seats(self) -> list[int]:
        """The seats nobody has taken."""
        return [i for i, slot in enumerate(self.slots) if slot.kind == "empty"]

    def bot_name(self, seat: int) -> str:
        """The name shown for a bot's seat."""
        return f"{self.bot_level}-bot-{seat + 1}"

    def seat_name(self, seat: int) -> str:
        """The name shown for ``seat`` (empty for an empty seat)."""
        slot = self.slots[seat]
        if slot.kind == "human" and slot.member is not None:
            return slot.member.name
        if slot.kind == "bot":
            return self.bot_name(seat)
        return ""

    def names(self) -> list[str]:
        """Every seat's name, for the records."""
        return [self.seat_name(i) for i in range(len(self.slots))]

    def is_away(self, seat: int, now: float | None = None) -> bool:
        """A seated person gone longer than the grace period (a bot plays for them)."""
        slot = self.slots[seat]
        member = slot.member
        if slot.kind != "human" or member is None or member.connected or member.gone_since is None:
            return False
        now = time.monotonic() if now is None else now
        return now - member.gone_since >= self.grace_seconds

    def bot_controls(self, seat: int, now: float | None = None) -> bool:
        """A bot decides for ``seat``: a bot's seat or an away person's."""
        return self.slots[seat].kind == "bot" or self.is_away(seat, now)

    def connected_humans(self) -> list[int]:
        """The seats of the people who are connected now."""
        return [
            i
            for i, slot in enumerate(self.slots)
            if slot.kind == "human" and slot.member is not None and slot.member.connected
        ]

    def seats_json(self, now: float) -> list[dict[str, Any]]:
        """The ``room.seats`` of the protocol."""
        return [
            {
                "seat": i,
                "kind": slot.kind,
                "name": self.seat_name(i),
                "connected": slot.kind == "bot" or (slot.member is not None and slot.member.connected),
                "away": self.is_away(i, now),
            }
            for i, slot in enumerate(self.slots)
        ]

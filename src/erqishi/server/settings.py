"""Server settings: where to store, how long players have, and the limits on messages."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PROTOCOL_VERSION", "Settings"]

#: The ``"v"`` of every protocol message (docs/protocol.md).
PROTOCOL_VERSION = 2


@dataclass(frozen=True, slots=True)
class Settings:
    """How ``erqishi serve`` runs (docs/protocol.md, "Timers and absent players").

    Attributes:
        db_url: the database: an SQLite file path or an SQLAlchemy URL (SQLite or PostgreSQL).
        bot_delay: seconds a bot waits before it moves, so people can follow (0 in tests).
        response_seconds: time each seat has to answer a discard or flip; then its default
            (pass, or the 开 it owes) is played.
        turn_seconds: time a seat has to discard or open; then the room's bot plays that move.
        grace_seconds: how long a player may be disconnected before a bot plays for them.
        next_hand_seconds: pause after a hand before the next starts without everyone ready.
        idle_room_seconds: a room nobody is connected to is dropped from memory after this
            long (its stored matches stay).
        max_message_bytes: the largest client message accepted.
        rate_per_second, rate_burst: the per-connection token bucket.
        seed: seeds every room's generator when set (reproducible tables, for tests); by
            default each room draws its seed from the operating system and stores it.
    """

    db_url: str = "erqishi-web.db"
    bot_delay: float = 0.8
    response_seconds: float = 20.0
    turn_seconds: float = 60.0
    grace_seconds: float = 15.0
    next_hand_seconds: float = 30.0
    idle_room_seconds: float = 3600.0
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    seed: int | None = None

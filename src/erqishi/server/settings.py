"""Server settings: where to store, how long players have, and the limits on messages."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy.engine import make_url

from erqishi.storage import database_urls

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
        finished_room_seconds: the same for a room whose match is over (or that ended by
            解散) and whose hands are all stored: such a room holds nothing to come back to,
            so it is released sooner.
        sweep_seconds: how often rooms are looked at for being dropped.
        max_message_bytes: the largest client message accepted.
        rate_per_second, rate_burst: the per-connection token bucket.
        seed: seeds every room's generator when set (reproducible tables, for tests); by
            default each room draws its seed from the operating system and stores it.
        max_sockets_per_address: WebSockets one client address may hold open at once.
        max_connects_per_minute: WebSockets one client address may open in a minute.
        max_requests_per_address: HTTP requests of one client address in progress at once.
        max_rooms_per_address: rooms one client address may create in ``rooms_window_seconds``.
        max_misses_per_minute: room codes one client address may look up in vain in a minute
            (a page, the API or a WebSocket); past it, lookups are refused (429) until the
            minute has passed: room codes cannot be scanned for.
        max_spectators_per_address: members without a seat connected from one address to one room.
        max_room_members: members connected to one room (seated or not) from anywhere.
        max_body_bytes: the largest HTTP request body read; a larger one is refused unread.
        max_json_depth: the deepest nesting of arrays and objects in a message or body.
        body_timeout_seconds: the longest wait for the next part of an HTTP request body;
            a client that sends it slower is answered 408 and its request ends (0: no limit).
        log_interval_seconds: at most one log line per client (or per kind of line) this often.
        redis_url: with several server processes, the Redis server they share (rooms are
            leased there, :mod:`erqishi.server.cluster`); None: one process on its own.
        node: this process's URL as its peers reach it (``http://host:port``; with
            ``redis_url`` only): they proxy the WebSockets of its rooms to it.
        lease_seconds: how long a room's lease lasts without renewal: how soon another
            process takes over the rooms of one that died.
        journal_writer: what stores the journal in the database: ``"process"`` (a child
            process, :mod:`erqishi.storage.writer`) or ``"thread"`` (a thread of the
            server's; see :class:`erqishi.storage.journal.Journal`'s ``writer``).

        A limit of 0 switches that limit off (for load benchmarks from one address).
    """

    db_url: str = "erqishi-web.db"
    bot_delay: float = 0.8
    response_seconds: float = 20.0
    turn_seconds: float = 60.0
    grace_seconds: float = 15.0
    next_hand_seconds: float = 30.0
    idle_room_seconds: float = 3600.0
    finished_room_seconds: float = 120.0
    sweep_seconds: float = 60.0
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    seed: int | None = None
    spool: str | None = None
    save_wait_seconds: float = 1.0
    slow_write_seconds: float = 3.0
    retry_max_seconds: float = 5.0
    max_sockets_per_address: int = 32
    max_connects_per_minute: int = 300
    max_requests_per_address: int = 32
    max_rooms_per_address: int = 20
    max_misses_per_minute: int = 60
    rooms_window_seconds: float = 600.0
    max_spectators_per_address: int = 8
    max_room_members: int = 100
    max_body_bytes: int = 65536
    max_json_depth: int = 20
    body_timeout_seconds: float = 10.0
    log_interval_seconds: float = 10.0
    redis_url: str | None = None
    node: str | None = None
    lease_seconds: float = 5.0
    journal_writer: Literal["process", "thread"] = "process"

    def spool_dir(self) -> Path:
        """The spool directory (:attr:`spool`, or its default for :attr:`db_url`).

        Raises:
            ValueError: ``db_url`` is not a supported database URL.
        """
        if self.spool is not None:
            return Path(self.spool)
        sync_url = make_url(database_urls(self.db_url)[1])
        if sync_url.drivername.startswith("sqlite") and sync_url.database:
            if self.redis_url is not None:  # several processes on one file: one spool each
                return Path(sync_url.database + ".spool-" + hashlib.sha256(str(self.node).encode()).hexdigest()[:8])
            return Path(sync_url.database + ".spool")
        from platformdirs import user_data_path

        # one per database (and schema): the URL's digest names it; with several
        # processes, one per process (its advertised URL)
        key = self.db_url if self.redis_url is None else f"{self.db_url} {self.node}"
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
        return user_data_path("erqishi", appauthor=False) / f"spool-{digest}"

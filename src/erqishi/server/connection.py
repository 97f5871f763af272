"""One WebSocket of a player or spectator: an outgoing queue drained by the socket's
writer, a token bucket on incoming messages (and a slower one on ``say``), and the
numbering of the states it was sent (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from erqishi.server.jsontext import dumps
from erqishi.server.settings import Settings

if TYPE_CHECKING:
    from erqishi.server.lobby import Member

__all__ = ["TALK_BURST", "TALK_EVERY", "Connection"]

log = logging.getLogger("erqishi.server")

#: A connection may ``say`` this many things at once, then one more every ``TALK_EVERY`` seconds.
TALK_BURST = 3.0
TALK_EVERY = 2.0


class Connection:
    """One WebSocket.

    Attributes:
        member: who said ``hello`` on it, None before.
        seq: the number of the last ``state`` it was sent; states are numbered 1, 2, 3…
            per connection without gaps, so no gap tells of a message sent to someone else.
        window: the decision window of its last state, and ``window_seq`` the number of
            its first state in that window: an ``act`` must answer a state of the open window.
        last_state: the body of its last state without its log (an unchanged state is
            not sent again).
        log_hand, log_sent: the hand whose events it was sent, and how many of them.
        address: the client's IP address (the limits per address count it).
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        settings: Settings,
        close: Callable[[], None],
        address: str = "?",
    ) -> None:
        self._send = send
        self.address = address
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=512)
        self.member: Member | None = None
        self.rate = settings.rate_per_second
        self.burst = settings.rate_burst
        self.tokens = settings.rate_burst
        self.stamp = time.monotonic()
        self.last_limited = 0.0
        self.closed = False
        self.seq = 0
        self.window: tuple[int, int] | None = None
        self.window_seq = 0
        self.last_state = ""
        self.log_hand = 0
        self.log_sent = 0
        self.talk_tokens = TALK_BURST
        self.talk_stamp = self.stamp

    def allow(self) -> bool:
        """Take one message from the bucket; False when the connection is over its rate."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def allow_talk(self) -> bool:
        """Take one ``say`` from the connection's own bucket (:data:`TALK_BURST` at once, one
        more every :data:`TALK_EVERY` seconds); False when it is over that rate."""
        now = time.monotonic()
        self.talk_tokens = min(TALK_BURST, self.talk_tokens + (now - self.talk_stamp) / TALK_EVERY)
        self.talk_stamp = now
        if self.talk_tokens < 1:
            return False
        self.talk_tokens -= 1
        return True

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client that stops reading is disconnected, never waited for."""
        if self.closed:
            return
        text = message if isinstance(message, str) else dumps(message)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("closing a connection that does not read its messages")
            self.close()

    def close(self) -> None:
        """Stop the writer and close the socket."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            self._close()

    async def writer(self) -> None:
        """Send queued messages in order until closed."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self._send(text)
            except Exception:  # the socket is gone; the reader will notice
                self.closed = True
                return

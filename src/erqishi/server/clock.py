"""A room's clock: the open decision window, its deadline and the bots' pause, and the
timers that act when they run out (docs/protocol.md "Timers and absent players").

The clock decides *when*: a response window never closes before the bots' pause from its
opening, so neither its length nor the time from one's own answer to its close tells
whether another seat could have taken the card (R-9); a seat that must decide gets its
time, then its default. The room decides *what* (its handlers play the moves).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Protocol

from erqishi.core.engine import Phase
from erqishi.play import Table
from erqishi.server.lobby import Lobby
from erqishi.server.settings import Settings

__all__ = ["Clock", "Handlers", "Window"]

#: A decision window: (hand number, step) of the table when it opened.
Window = tuple[int, int]


class Handlers(Protocol):
    """What a room does when the clock says so."""

    def plays_itself(self, seat: int, now: float) -> bool:
        """``seat``'s move is made without a person (a bot, an away player, a forced 开)."""
        ...

    async def close_idle(self, window: Window) -> None:
        """Close a response window with nobody left to ask."""
        ...

    async def bots_move(self, window: Window) -> None:
        """Every seat that plays itself decides in ``window``."""
        ...

    async def timeout(self, window: Window) -> None:
        """Time is up in ``window``: every seat still deciding gets its default."""
        ...

    async def start_next_hand(self) -> None:
        """Deal the next hand (between hands)."""
        ...

    async def refresh(self) -> None:
        """Send everyone the state again (someone became away)."""
        ...


class Clock:
    """The timers of one room.

    Attributes:
        window: the open decision window, or None.
        opened: when it opened (monotonic seconds); ``deadline`` when its time runs out,
            ``total`` its length.
        next_deadline: between hands, when the next hand starts without everyone ready.
    """

    def __init__(self, settings: Settings, spawn: Callable[[Awaitable[None]], None]) -> None:
        self.settings = settings
        self._spawn = spawn
        self.window: Window | None = None
        self.opened = 0.0
        self.deadline = 0.0
        self.total = 0.0
        self.next_deadline = 0.0
        self._handles: list[asyncio.TimerHandle] = []
        self._away: list[asyncio.TimerHandle] = []
        self.closed = False

    def open(self, window: Window, *, response: bool) -> bool:
        """Open ``window`` if it is new (a response window gets ``response_seconds``, a
        discard or the opening ``turn_seconds``); True when it was new."""
        if window == self.window:
            return False
        self.window = window
        self.total = self.settings.response_seconds if response else self.settings.turn_seconds
        self.opened = time.monotonic()
        self.deadline = self.opened + self.total
        return True

    def between_hands(self) -> None:
        """A hand ended: the next starts after ``next_hand_seconds`` unless everyone is ready."""
        self.window = None
        self.next_deadline = time.monotonic() + self.settings.next_hand_seconds

    def remaining(self) -> float:
        """Seconds left in the open window."""
        return max(0.0, self.deadline - time.monotonic())

    def remaining_between(self) -> float:
        """Seconds left before the next hand starts by itself."""
        return max(0.0, self.next_deadline - time.monotonic())

    def _later(self, delay: float, make: Callable[[], Awaitable[None]], *, away: bool = False) -> None:
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(max(0.0, delay), lambda: self._spawn(make()))
        (self._away if away else self._handles).append(handle)

    def member_gone(self, handlers: Handlers) -> None:
        """A seated member lost its last connection: everyone is told when the grace
        period ends (the seat turns away)."""
        loop_time = asyncio.get_running_loop().time()
        self._away = [h for h in self._away if not h.cancelled() and h.when() > loop_time]
        self._later(self.settings.grace_seconds + 0.01, handlers.refresh, away=True)

    def plan(self, status: str, table: Table | None, lobby: Lobby, ready: set[int], handlers: Handlers) -> None:
        """Re-arm the timers after a change: bot moves, the window's deadline, players
        becoming away, the next hand."""
        for handle in self._handles:
            handle.cancel()
        self._handles = []
        now = time.monotonic()
        if status == "between":
            humans = lobby.connected_humans()
            wait = 0.0 if humans and all(i in ready for i in humans) else self.next_deadline - now
            self._later(wait, handlers.start_next_hand)
            return
        if status != "playing" or table is None or table.state is None or self.window is None:
            return
        waiting = table.waiting()
        for seat in waiting:
            member = lobby.slots[seat].member
            if member is not None and not member.connected and member.gone_since is not None:
                left = member.gone_since + self.settings.grace_seconds - now
                if left > 0:
                    self._later(left, handlers.refresh)
        window = self.window
        pause = self.opened + self.settings.bot_delay - now
        if table.is_idle_window:
            # nobody left to ask: the window closes when a bot would have answered, counted
            # from its opening, so neither its length nor the time from one's own answer to
            # its close tells whether another seat could have taken the card
            self._later(pause, lambda: handlers.close_idle(window))
            return
        if any(handlers.plays_itself(seat, now) for seat in waiting):
            self._later(pause, lambda: handlers.bots_move(window))
        if any(not handlers.plays_itself(seat, now) for seat in waiting):
            self._later(self.deadline - now, lambda: handlers.timeout(window))

    def is_response(self, table: Table) -> bool:
        """The table's open decision is a response window."""
        return table.state is not None and table.state.phase is Phase.RESPONSE

    def close(self) -> None:
        """Cancel every timer; nothing is scheduled after. The clock lets go of its room
        (its ``spawn``), so a dropped room is freed when the last reference goes, without
        waiting for a full garbage collection."""
        self.closed = True
        for handle in self._handles + self._away:
            handle.cancel()
        self._handles = []
        self._away = []
        self._spawn = _spawn_nothing


def _spawn_nothing(work: Awaitable[None]) -> None:
    """A closed clock's ``spawn``: what was asked is dropped unrun."""
    if isinstance(work, Coroutine):
        work.close()

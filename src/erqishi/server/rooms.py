"""Rooms: members, seats, connections, timers and bots around a :class:`GameTable`
(docs/protocol.md).

Everything that changes a room runs on the event loop between two ``await`` points, so a
message is applied whole or not at all; work that awaits (a search bot thinking, the
database) re-checks afterwards that the decision it answers is still open.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from erqishi.bots import Bot, make_bot
from erqishi.core import RuleSet
from erqishi.core.engine import Action, ActionKind, Phase
from erqishi.core.errors import ErqishiError, InvalidNotationError
from erqishi.core.hands import Wait
from erqishi.play.hints import discard_hints, live_waits
from erqishi.server.protocol import (
    Act,
    CreateRoom,
    Hello,
    ProtocolError,
    Rename,
    Simple,
    Sit,
    Unbot,
    error_message,
    view_json,
)
from erqishi.server.settings import PROTOCOL_VERSION, Settings
from erqishi.server.table import FinishedHand, GameTable

__all__ = ["Connection", "Member", "Room", "RoomManager", "Store"]

log = logging.getLogger("erqishi.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Stands for the log in a ``game`` object while it is encoded (the log is spliced in).
LOG_SLOT = "\u0000log\u0000"
Status = Literal["lobby", "playing", "between", "finished"]


class Store(Protocol):
    """What a room needs from storage (:class:`erqishi.storage.Store`)."""

    async def create_match(
        self, *, room: str, preset: str, rules: dict[str, Any], seats: list[str], seed: int
    ) -> int: ...

    async def save_hand(self, match_id: int, index: int, record: dict[str, Any], totals: list[int]) -> int: ...

    async def finish_match(
        self, match_id: int, record: dict[str, Any], totals: list[int], leaders: list[int]
    ) -> None: ...


def token_digest(token: str) -> str:
    """The stored form of a seat token (SHA-256): tokens themselves are never kept."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Connection:
    """One WebSocket: an outgoing queue drained by the socket's writer, and a token bucket
    limiting incoming messages."""

    def __init__(self, send: Callable[[str], Awaitable[None]], settings: Settings, close: Callable[[], None]) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=512)
        self.member: Member | None = None
        self.room: Room | None = None
        self.rate = settings.rate_per_second
        self.burst = settings.rate_burst
        self.tokens = settings.rate_burst
        self.stamp = time.monotonic()
        self.last_limited = 0.0
        self.closed = False
        #: the numbering of this connection's states: gapless, so no gap tells of a
        #: message sent to someone else
        self.seq = 0
        self.window: tuple[int, int] | None = None
        self.window_seq = 0
        self.last_state = ""

    def allow(self) -> bool:
        """Take one message from the bucket; False when the connection is over its rate."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client that stops reading is disconnected, never waited for."""
        if self.closed:
            return
        text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
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


@dataclass(eq=False)
class Member:
    """Someone in a room: a player (seated) or a spectator."""

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


class Room:
    """A table with its lobby, its match and everyone connected (docs/protocol.md).

    Args:
        code: the room code.
        config: what the creator asked for (preset, 圈 count, bot level, players).
        settings: the server settings (timers, limits).
        store: where finished hands and matches go, or None (nothing stored).
        seed: seeds the room's generator (first dealer, deals, bots' choices).
    """

    def __init__(self, code: str, config: CreateRoom, settings: Settings, store: Store | None, seed: int) -> None:
        options: dict[str, Any] = {"preset": config.preset, "match_quan": config.quan}
        if config.players is not None:
            options["players"] = config.players
        self.rules = RuleSet.load(options)
        self.code = code
        self.config = config
        self.settings = settings
        self.store = store
        self.seed = seed
        self.rng = random.Random(seed)
        self.status: Status = "lobby"
        self.slots = [Slot() for _ in range(self.rules.players)]
        self.members: dict[str, Member] = {}
        self.by_digest: dict[str, Member] = {}
        self.conns: set[Connection] = set()
        self.table: GameTable | None = None
        self.bots: list[Bot] = []
        self.bot_rngs: list[random.Random] = []
        self.match_id: int | None = None
        self.seq = 0
        self.ready: set[int] = set()
        self.window: tuple[int, int] | None = None
        self.deadline = 0.0
        self.opened = 0.0  # when the current decision window opened (monotonic seconds)
        self.deadline_total = 0.0
        self.next_deadline = 0.0
        self.handles: list[asyncio.TimerHandle] = []
        self.away_handles: list[asyncio.TimerHandle] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.save_lock = asyncio.Lock()
        self.saving = 0  # hands being stored: the next hand waits for them
        self.last_active = time.monotonic()
        self._counter = 0
        self.errors: list[str] = []
        self.closed = False

    # ------------------------------------------------------------------ members

    def _new_member(self, name: str | None, lang: str | None) -> tuple[Member, str]:
        self._counter += 1
        token = secrets.token_urlsafe(32)
        default = f"Player {self._counter}" if lang == "en" else f"玩家{self._counter}"
        member = Member(f"m{self._counter}", token_digest(token), name or default)
        self.members[member.id] = member
        self.by_digest[member.digest] = member
        return member, token

    def _bot_name(self, seat: int) -> str:
        return f"{self.config.bots}-bot-{seat + 1}"

    def seat_name(self, seat: int) -> str:
        """The name shown for ``seat``."""
        slot = self.slots[seat]
        if slot.kind == "human" and slot.member is not None:
            return slot.member.name
        if slot.kind == "bot":
            return self._bot_name(seat)
        return ""

    def is_away(self, seat: int, now: float | None = None) -> bool:
        """A seated person gone longer than the grace period (a bot plays for them)."""
        slot = self.slots[seat]
        member = slot.member
        if slot.kind != "human" or member is None or member.connected or member.gone_since is None:
            return False
        now = time.monotonic() if now is None else now
        return now - member.gone_since >= self.settings.grace_seconds

    def bot_controls(self, seat: int, now: float | None = None) -> bool:
        """A bot decides for ``seat``: a bot's seat or an away player's."""
        return self.slots[seat].kind == "bot" or self.is_away(seat, now)

    # ------------------------------------------------------------------ connections

    def attach(self, conn: Connection) -> None:
        """A new socket for this room (it must say ``hello`` first)."""
        conn.room = self
        self.conns.add(conn)
        self.last_active = time.monotonic()

    def detach(self, conn: Connection) -> None:
        """A socket closed: its member may become away after the grace period."""
        self.conns.discard(conn)
        self.last_active = time.monotonic()
        member = conn.member
        if member is None:
            return
        member.conns.discard(conn)
        if not member.connected:
            member.gone_since = time.monotonic()
            if member.seat is not None and not self.closed:
                # everyone sees the seat turn away when the grace period ends (a seat in the
                # lobby is kept for the member's return)
                loop = asyncio.get_running_loop()
                self.away_handles.append(loop.call_later(self.settings.grace_seconds + 0.01, self._away_check))
        self.changed()

    def _away_check(self) -> None:
        self.away_handles = [h for h in self.away_handles if not h.cancelled() and h.when() > time.monotonic()]
        self.changed()

    def handle(self, conn: Connection, text: str | bytes, parse: Callable[[str | bytes], Any]) -> None:
        """One client message: parsed, checked, applied whole, or answered with an error
        that changes nothing."""
        if not conn.allow():
            now = time.monotonic()
            if now - conn.last_limited >= 1.0:
                conn.last_limited = now
                conn.send(error_message("rate_limited", "too many messages; slow down"))
            return
        try:
            message = parse(text)
            self._dispatch(conn, message)
        except ProtocolError as exc:
            conn.send(error_message(exc.code, exc.message, exc.ref))
        except ErqishiError as exc:
            conn.send(error_message("illegal", str(exc), "act"))
        except Exception:  # a fault of ours: logged, the sender told, the room goes on
            log.exception("room %s: a message failed", self.code)
            conn.send(error_message("server_error", "the server failed to handle this message; it was dropped"))

    def _dispatch(self, conn: Connection, message: Any) -> None:
        if isinstance(message, Hello):
            self._hello(conn, message)
            return
        member = conn.member
        if member is None:
            raise ProtocolError("not_joined", "say hello first", message.type)
        self.last_active = time.monotonic()
        if isinstance(message, Act):
            self._act(conn, member, message)
        elif isinstance(message, Sit):
            self._sit(member, message.seat)
        elif isinstance(message, Unbot):
            self._unbot(member, message.seat)
        elif isinstance(message, Rename):
            member.name = message.name
            self.changed()
        elif isinstance(message, Simple):
            if message.type == "ping":
                conn.send({"v": PROTOCOL_VERSION, "type": "pong"})
            elif message.type == "hints":
                conn.send(self._hints(conn, member))
            elif message.type == "stand":
                self._stand(member)
            elif message.type == "bots":
                self._fill_bots(member)
            elif message.type == "start":
                self._start(member)
            elif message.type == "next":
                self._next(member)

    def _hello(self, conn: Connection, message: Hello) -> None:
        if conn.member is not None:
            raise ProtocolError("bad_state", "already joined", "hello")
        member = self.by_digest.get(token_digest(message.token)) if message.token else None
        token = message.token
        if member is None:
            member, token = self._new_member(message.name, message.lang)
        elif message.name:
            member.name = message.name
        if message.lang:
            member.lang = message.lang
        member.conns.add(conn)
        member.gone_since = None
        conn.member = member
        conn.send({"v": PROTOCOL_VERSION, "type": "welcome", "token": token, "member": member.id})
        self.changed()

    def _require_lobby(self, ref: str) -> None:
        if self.status != "lobby":
            raise ProtocolError("bad_state", "the match has started; seats are fixed", ref)

    def _sit(self, member: Member, seat: int) -> None:
        self._require_lobby("sit")
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
        self.changed()

    def _require_seat(self, member: Member, ref: str, why: str = "take a seat first") -> int:
        """The member's seat, in the lobby.

        Raises:
            ProtocolError: ``bad_state`` once the match has started, ``not_seated`` without a seat.
        """
        self._require_lobby(ref)
        if member.seat is None:
            raise ProtocolError("not_seated", why, ref)
        return member.seat

    def _stand(self, member: Member) -> None:
        self.slots[self._require_seat(member, "stand", "you have no seat")] = Slot()
        member.seat = None
        self.changed()

    def _fill_bots(self, member: Member) -> None:
        self._require_seat(member, "bots")
        for slot in self.slots:
            if slot.kind == "empty":
                slot.kind = "bot"
        self.changed()

    def _unbot(self, member: Member, seat: int) -> None:
        self._require_seat(member, "unbot")
        if seat >= len(self.slots) or self.slots[seat].kind != "bot":
            raise ProtocolError("bad_message", f"seat: no bot sits at seat {seat}", "unbot")
        self.slots[seat] = Slot()
        self.changed()

    def _start(self, member: Member) -> None:
        if self.status != "finished":  # after a match, `start` plays a new one in the same seats
            self._require_lobby("start")
        if member.seat is None:
            raise ProtocolError("not_seated", "take a seat first", "start")
        empty = [i for i, slot in enumerate(self.slots) if slot.kind == "empty"]
        if empty:
            raise ProtocolError("bad_state", f"seat {empty[0]} is empty: take it or fill it with a bot", "start")
        names = [self.seat_name(i) for i in range(len(self.slots))]
        self.table = GameTable(self.rules, self.rng, names, auto_close=False)
        self.bots = [make_bot(self.config.bots) for _ in self.slots]
        self.bot_rngs = [random.Random(self.rng.getrandbits(64)) for _ in self.slots]
        self.status = "playing"
        self.match_id = None
        self.ready = set()
        self.window = None
        self.table.start_hand()
        self._spawn(self._create_match(names))
        self.changed()

    def _next(self, member: Member) -> None:
        if self.status != "between":
            raise ProtocolError("bad_state", "no hand is waiting to start", "next")
        if member.seat is None:
            raise ProtocolError("not_seated", "spectators do not start hands", "next")
        self.ready.add(member.seat)
        self.changed()

    def _act(self, conn: Connection, member: Member, message: Act) -> None:
        try:
            action = Action.parse(message.action)
        except InvalidNotationError as exc:
            raise ProtocolError("bad_message", f"action: {exc}", "act") from None
        table = self.table
        seat = member.seat
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot act", "act")
        if table is None or self.status != "playing":
            raise ProtocolError("bad_state", "no hand is being played", "act")
        if message.seq > conn.seq:
            raise ProtocolError("stale", f"seq {message.seq} was never sent; the latest state is {conn.seq}", "act")
        if conn.window != self.window or message.seq < conn.window_seq:
            raise ProtocolError("stale", f"seq {message.seq} answers an earlier decision; now at {conn.seq}", "act")
        options = table.options(seat)
        if not options:
            raise ProtocolError("not_your_turn", "you have nothing to decide now", "act")
        if action not in options:
            offered = ", ".join(str(a) for a in options)
            raise ProtocolError("illegal", f"{action} is not legal now; you may: {offered}", "act")
        self._play(seat, action)

    # ------------------------------------------------------------------ playing

    def _play(self, seat: int, action: Action) -> None:
        table = self.table
        assert table is not None
        before = (table.hand_number, table.step)
        finished = table.act(seat, action)
        if finished is not None:
            self._hand_over(finished)
            self.changed()
        elif (table.hand_number, table.step) == before:
            self.changed(only=seat)  # a declaration: only the declarer's options change
        else:
            self.changed()

    def _hand_over(self, finished: FinishedHand) -> None:
        table = self.table
        assert table is not None
        self.ready = set()
        self.status = "finished" if table.match_over else "between"
        self.next_deadline = time.monotonic() + self.settings.next_hand_seconds
        self.saving += 1
        self._spawn(self._save_hand(finished, final=table.match_over))

    def _start_next_hand(self) -> None:
        if self.status != "between" or self.table is None or self.saving:
            return  # (a hand being stored: its result gets its id first; the save re-arms this)
        self.status = "playing"
        self.table.start_hand()
        self.changed()

    def _bot_action(self, seat: int) -> Action:
        table = self.table
        assert table is not None
        v = table.view_for(seat)
        assert v is not None
        try:
            action = self.bots[seat].choose(v, self.bot_rngs[seat])
        except Exception:  # a faulty bot must not stall the table
            log.exception("room %s: the bot of seat %d failed", self.code, seat)
            action = None
        if action is None or action not in table.options(seat):
            default = table.default_action(seat)
            action = default if default is not None else table.options(seat)[0]
        return action

    def plays_itself(self, seat: int, now: float | None = None) -> bool:
        """``seat``'s move is made without a person: a bot's or an away player's, or a
        compulsory 开 with nothing else to choose (R-5.12)."""
        return self.bot_controls(seat, now) or self.forced(seat) is not None

    def forced(self, seat: int) -> Action | None:
        """The 开 ``seat`` owes with no other option in this response window (R-5.12): it
        is made for the player after the bots' pause, and not offered as a button."""
        table = self.table
        if table is None or table.state is None or table.state.phase is not Phase.RESPONSE:
            return None
        options = table.options(seat)
        if len(options) == 1 and options[0].kind is ActionKind.KAI:
            return options[0]
        return None

    def _table_in(self, window: tuple[int, int]) -> GameTable | None:
        """The table while a hand is played and ``window`` is still the open decision, else
        None (a timer armed for an earlier decision does nothing)."""
        if self.table is None or self.window != window or self.status != "playing":
            return None
        return self.table

    async def _close_idle(self, window: tuple[int, int]) -> None:
        """Close a response window with nobody left to ask: resolve the declarations, or
        leave the card in its row."""
        table = self._table_in(window)
        if table is None or not table.is_idle_window:
            return
        finished = table.close_window()
        if finished is not None:
            self._hand_over(finished)
        self.changed()

    async def _bots_move(self, window: tuple[int, int]) -> None:
        """Every seat that plays itself and must decide in ``window`` decides."""
        table = self._table_in(window)
        if table is None:
            return
        for seat in table.waiting():
            if self.window != window:
                return
            if seat not in table.waiting() or not self.plays_itself(seat):
                continue
            forced = self.forced(seat)
            if forced is not None:
                self._play(seat, forced)
                continue
            if self.config.bots == "search":
                v = table.view_for(seat)
                assert v is not None
                try:
                    action = await asyncio.to_thread(self.bots[seat].choose, v, self.bot_rngs[seat])
                except Exception:
                    log.exception("room %s: the search bot of seat %d failed", self.code, seat)
                    action = self._bot_action(seat)
                if self.window != window or seat not in table.waiting():
                    return
                if action not in table.options(seat):
                    action = self._bot_action(seat)
            else:
                action = self._bot_action(seat)
            self._play(seat, action)
            if self.window != window:
                return

    async def _timeout(self, window: tuple[int, int]) -> None:
        """Time is up in ``window``: each seat still deciding gets its default (pass or the
        开 it owes) or, for a discard or opening, the bot's move."""
        table = self._table_in(window)
        if table is None:
            return
        for seat in table.waiting():
            if self.window != window:
                return
            default = table.default_action(seat)
            self._play(seat, default if default is not None else self._bot_action(seat))

    # ------------------------------------------------------------------ storage

    async def _create_match(self, names: list[str]) -> None:
        if self.store is None:
            return
        async with self.save_lock:
            try:
                self.match_id = await self.store.create_match(
                    room=self.code,
                    preset=self.config.preset,
                    rules=self.rules.to_options(),
                    seats=names,
                    seed=self.seed,
                )
            except Exception as exc:  # storage trouble must not stop the game
                log.exception("could not store the match of room %s", self.code)
                self.errors.append(f"create_match: {exc}")
        self.changed()

    async def _save_hand(self, finished: FinishedHand, *, final: bool) -> None:
        try:
            await self._store_hand(finished, final=final)
        finally:
            self.saving -= 1
            self.changed()

    async def _store_hand(self, finished: FinishedHand, *, final: bool) -> None:
        table = self.table
        if self.store is None or table is None:
            return
        async with self.save_lock:
            if self.match_id is None:
                return
            try:
                hand_id = await self.store.save_hand(
                    self.match_id, finished.index, finished.record_json(), list(table.match.totals)
                )
                finished.breakdown["hand_id"] = hand_id
                if final:
                    await self.store.finish_match(
                        self.match_id, table.match_record_json(), list(table.match.totals), list(table.match.leaders)
                    )
            except Exception as exc:
                log.exception("could not store hand %d of room %s", finished.index, self.code)
                self.errors.append(f"save_hand: {exc}")

    # ------------------------------------------------------------------ timers

    def _spawn(self, coro: Awaitable[None]) -> None:
        if self.closed:
            if asyncio.iscoroutine(coro):
                coro.close()
            return

        async def run() -> None:
            try:
                await coro
            except Exception:
                log.exception("room %s task failed", self.code)

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _later(self, delay: float, make: Callable[[], Awaitable[None]]) -> None:
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        self.handles.append(loop.call_later(max(0.0, delay), lambda: self._spawn(make())))

    def _schedule(self) -> None:
        """Re-arm the timers after a change: bot moves, the decision's deadline, players
        becoming away, the next hand."""
        for handle in self.handles:
            handle.cancel()
        self.handles = []
        table = self.table
        now = time.monotonic()
        if self.status == "between":
            humans = [
                i
                for i, slot in enumerate(self.slots)
                if slot.kind == "human" and slot.member is not None and slot.member.connected
            ]
            if humans and all(i in self.ready for i in humans):
                self._later(0, self._async(self._start_next_hand))
            else:
                self._later(self.next_deadline - now, self._async(self._start_next_hand))
            return
        if self.status != "playing" or table is None or table.state is None:
            return
        waiting = table.waiting()
        for seat in waiting:
            member = self.slots[seat].member
            if member is not None and not member.connected and member.gone_since is not None:
                left = member.gone_since + self.settings.grace_seconds - now
                if left > 0:
                    self._later(left, self._async(self.changed))
        window = self.window
        assert window is not None
        pause = self.opened + self.settings.bot_delay - now
        if table.is_idle_window:
            # nobody left to ask: the window closes when a bot would have answered, counted
            # from its opening, so neither its length nor the time from one's own answer to
            # its close tells whether another seat could have taken the card
            self._later(pause, lambda: self._close_idle(window))
            return
        if any(self.plays_itself(seat, now) for seat in waiting):
            self._later(pause, lambda: self._bots_move(window))
        if any(not self.plays_itself(seat, now) for seat in waiting):
            self._later(self.deadline - now, lambda: self._timeout(window))

    @staticmethod
    def _async(func: Callable[[], None]) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            func()

        return run

    # ------------------------------------------------------------------ messages out

    def changed(self, only: int | None = None) -> None:
        """Something changed: open a new decision window if the hand moved on, send the new
        state (to everyone, or only to the seat ``only``) and re-arm the timers."""
        self.seq += 1
        table = self.table
        if table is not None and table.state is not None and self.status == "playing":
            window = (table.hand_number, table.step)
            if window != self.window:
                self.window = window
                total = (
                    self.settings.response_seconds
                    if table.state.phase is Phase.RESPONSE
                    else self.settings.turn_seconds
                )
                self.deadline_total = total
                self.opened = time.monotonic()
                self.deadline = self.opened + total
        self.broadcast(only)
        self._schedule()

    def broadcast(self, only: int | None = None) -> None:
        """Send each connection its ``state`` (its own view only, R-9)."""
        room = json.dumps(self.room_json(), ensure_ascii=False)
        games: dict[int | None, str] = {}
        log_json: str | None = None  # the hand's log, the same for everyone: encoded once
        for conn in list(self.conns):
            member = conn.member
            if member is None:
                continue
            seat = member.seat if self.status != "lobby" else None
            if only is not None and seat != only:
                continue
            if seat not in games:
                game = self.game_json(seat)
                if game is not None:
                    game["log"] = LOG_SLOT
                text = json.dumps(game, ensure_ascii=False)
                if log_json is None:
                    log_json = json.dumps(self.table.log if self.table is not None else [], ensure_ascii=False)
                games[seat] = text.replace(json.dumps(LOG_SLOT), log_json, 1)
            you = json.dumps(self.you_json(member), ensure_ascii=False)
            body = f'{{"room": {room}, "you": {you}, "game": {games[seat]}}}'
            if body == conn.last_state:
                continue  # nothing new for this connection
            conn.last_state = body
            conn.seq += 1
            if conn.window != self.window:
                conn.window, conn.window_seq = self.window, conn.seq
            conn.send(f'{{"v": {PROTOCOL_VERSION}, "type": "state", "seq": {conn.seq}, {body[1:]}')

    def room_json(self) -> dict[str, Any]:
        """The ``room`` object (docs/protocol.md)."""
        now = time.monotonic()
        return {
            "code": self.code,
            "status": self.status,
            "preset": self.config.preset,
            "rules": self.rules.to_options(),
            "quan": self.rules.match_quan,
            "bots": self.config.bots,
            "players": self.rules.players,
            "seats": [
                {
                    "seat": i,
                    "kind": slot.kind,
                    "name": self.seat_name(i),
                    "connected": slot.kind == "bot" or (slot.member is not None and slot.member.connected),
                    "away": self.is_away(i, now),
                }
                for i, slot in enumerate(self.slots)
            ],
            "spectators": sum(1 for m in self.members.values() if m.seat is None and m.connected),
            "match": self.match_id,
        }

    @staticmethod
    def you_json(member: Member) -> dict[str, Any]:
        """The ``you`` object."""
        return {
            "member": member.id,
            "name": member.name,
            "seat": member.seat,
            "role": "player" if member.seat is not None else "spectator",
        }

    def game_json(self, seat: int | None) -> dict[str, Any] | None:
        """The ``game`` object for ``seat`` (None: a spectator), built from its view only."""
        table = self.table
        if table is None or table.state is None:
            return None
        v = table.view_for(seat)
        assert v is not None
        legal = table.options(seat) if seat is not None and self.status == "playing" else ()
        timer = None
        declared = table.declared.get(seat) if seat is not None else None
        forced = self.forced(seat) if seat is not None and legal else None
        if forced is not None:  # shown as already declared: the server makes it
            legal, declared = (), forced
        if self.status == "playing" and (legal or declared is not None):
            remaining = max(0.0, self.deadline - time.monotonic())
            default = declared if declared is not None else table.default_action(seat) if seat is not None else None
            timer = {
                "remaining_ms": int(remaining * 1000),
                "total_ms": int(self.deadline_total * 1000),
                "default": str(default) if default is not None else "bot",
            }
        elif self.status == "between":
            timer = {
                "remaining_ms": int(max(0.0, self.next_deadline - time.monotonic()) * 1000),
                "total_ms": int(self.settings.next_hand_seconds * 1000),
                "default": "next",
            }
        last = table.hands[-1] if table.hands and table.state.is_over else None
        over = table.match_over
        return {
            "hand": table.hand_number,
            "step": table.step,
            "view": view_json(v),
            "legal": [str(a) for a in legal],
            "declared": str(declared) if declared is not None else None,
            "timer": timer,
            "log": table.log,
            "result": last.breakdown if last is not None else None,
            "totals": list(table.match.totals),
            "ready": sorted(self.ready),
            "match_over": {"totals": list(table.match.totals), "leaders": list(table.match.leaders)} if over else None,
        }

    def _hints(self, conn: Connection, member: Member) -> dict[str, Any]:
        table = self.table
        seat = member.seat
        if seat is None:
            raise ProtocolError("not_seated", "hints are for a seated player's own hand", "hints")
        message: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "hints", "seq": conn.seq, "waits": [], "discards": []}
        if table is None or seat is None or table.state is None or table.state.is_over:
            return message
        v = table.view_for(seat)
        assert v is not None
        message["waits"] = [_wait_json(w) for w in live_waits(v)]
        if v.phase is not Phase.RESPONSE and seat in table.waiting():
            message["discards"] = [
                {
                    "card": h.card.ascii,
                    "waits": [_wait_json(w) for w in h.waits],
                }
                for h in discard_hints(v)
            ]
        return message

    def close(self) -> None:
        """Stop the timers and tasks (the room is dropped); nothing new is scheduled after."""
        self.closed = True
        for handle in self.handles + self.away_handles:
            handle.cancel()
        for task in self.tasks:
            task.cancel()
        for conn in list(self.conns):
            conn.close()


def _wait_json(wait: Wait) -> dict[str, Any]:
    """A wait (下叫) of the protocol's ``hints``: the card, the hu and score of winning on it."""
    return {"card": wait.card.ascii, "hu": wait.result.hu, "score": wait.score, "live": True}


class RoomManager:
    """The rooms of one server, by code."""

    def __init__(self, settings: Settings, store: Store | None) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._seeds = random.Random(settings.seed) if settings.seed is not None else None

    def create(self, config: CreateRoom) -> Room:
        """A new room with a fresh code.

        Raises:
            InvalidRulesError: the options make no valid rule set.
        """
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.rooms:
                break
        seed = self._seeds.getrandbits(63) if self._seeds is not None else secrets.randbits(63)
        room = Room(code, config, self.settings, self.store, seed)
        self.rooms[code] = room
        return room

    def get(self, code: str) -> Room | None:
        """The room with ``code`` (case-insensitive), or None."""
        return self.rooms.get(code.upper())

    def sweep(self) -> None:
        """Drop rooms nobody has been connected to for ``idle_room_seconds``."""
        now = time.monotonic()
        for code, room in list(self.rooms.items()):
            if not room.conns and now - room.last_active > self.settings.idle_room_seconds:
                room.close()
                del self.rooms[code]

    def close(self) -> None:
        """Stop every room."""
        for room in self.rooms.values():
            room.close()
        self.rooms.clear()

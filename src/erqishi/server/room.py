"""A room: its lobby, its one :class:`~erqishi.play.Table`, its clock, its broadcaster and
its storage, and the messages that drive them (docs/protocol.md).

Everything that changes a room runs on the event loop between two ``await`` points, so a
message is applied whole or not at all; work that awaits (a search bot thinking, the
database) re-checks afterwards that the decision it answers is still open. The room
never decides legality: the table asks the engine, whose refusal names the rule.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

from erqishi.bots import Bot, make_bot
from erqishi.core.engine import Action, Phase, PlayerView
from erqishi.core.errors import ErqishiError, IllegalActionError
from erqishi.core.hands import Wait
from erqishi.learn.coach import coach
from erqishi.play import SPECTATOR, FinishedHand, NotYourTurnError, Table, Viewer
from erqishi.play.hints import discard_hints, live_waits
from erqishi.records import HandRecord, MatchRecord
from erqishi.server.broadcast import Broadcaster
from erqishi.server.clock import Clock, Window
from erqishi.server.connection import Connection
from erqishi.server.lobby import Lobby, Member
from erqishi.server.protocol import (
    ASCII,
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

__all__ = ["Room", "RoomManager", "Store"]

log = logging.getLogger("erqishi.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
Status = Literal["lobby", "playing", "between", "finished"]
ClientMessage = Hello | Rename | Sit | Unbot | Act | Simple


class Store(Protocol):
    """What a room needs from storage (:class:`erqishi.storage.Store`)."""

    async def create_match(
        self, *, room: str, preset: str, rules: dict[str, Any], seats: list[str], seed: int
    ) -> int: ...

    async def save_hand(self, match_id: int, index: int, record: HandRecord, totals: list[int]) -> int: ...

    async def finish_match(self, match_id: int, record: MatchRecord, totals: list[int], leaders: list[int]) -> None: ...


class StoredMatch:
    """Where one match is stored: its id once the store has made it."""

    __slots__ = ("id",)

    def __init__(self) -> None:
        self.id: int | None = None


class Room:
    """A table with its lobby, its match and everyone connected (docs/protocol.md).

    Args:
        code: the room code.
        config: what the creator asked for (preset, 圈 per match, bot level, players).
        settings: the server settings (timers, limits).
        store: where finished hands and matches go, or None (nothing stored).
        seed: seeds the room's generator (first dealer, deals, bots' choices).

    Raises:
        InvalidRulesError: the options make no valid rule set.
    """

    def __init__(self, code: str, config: CreateRoom, settings: Settings, store: Store | None, seed: int) -> None:
        self.rules = config.rules()
        self.code = code
        self.config = config
        self.settings = settings
        self.store = store
        self.seed = seed
        self.rng = random.Random(seed)
        self.status: Status = "lobby"
        self.lobby = Lobby(self.rules.players, config.bots, settings.grace_seconds)
        self.clock = Clock(settings, self._spawn)
        self.out = Broadcaster()
        self.table: Table | None = None
        self.bots: list[Bot] = []
        self.bot_rngs: list[random.Random] = []
        #: where the match being played is stored (each match its own, so the saves of a
        #: match just ended still reach it when a new one starts at once)
        self.stored = StoredMatch()
        self.ready: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.save_lock = asyncio.Lock()
        self.saving = 0  # hands being stored: the next hand waits for them
        self.handled = 0  # finished hands already taken care of
        self.last_active = time.monotonic()
        #: how many changes the room has seen (each one sent to whoever it concerns)
        self.version = 0
        self.errors: list[str] = []
        self.closed = False
        self._log: list[dict[str, Any]] = []
        self._log_of: object = None
        self._rules_json = self.rules.to_options()
        self._views: dict[Viewer, tuple[object, dict[str, Any]]] = {}
        self._refused: dict[int, tuple[object, list[dict[str, Any]]]] = {}
        #: with the coach on, its note on each seat's last move (None: nothing to say)
        self._coached: dict[int, dict[str, Any] | None] = {}

    # ------------------------------------------------------------------ connections

    @property
    def conns(self) -> set[Connection]:
        """The room's open connections."""
        return self.out.conns

    def attach(self, conn: Connection) -> None:
        """A new socket for this room (it must say ``hello`` first)."""
        self.out.add(conn)
        self.last_active = time.monotonic()

    def detach(self, conn: Connection) -> None:
        """A socket closed: its member may become away after the grace period."""
        self.out.discard(conn)
        self.last_active = time.monotonic()
        member = conn.member
        if member is None:
            return
        member.conns.discard(conn)
        if not member.connected:
            member.gone_since = time.monotonic()
            if member.seat is not None and not self.closed:
                self.clock.member_gone(self)
        self.changed()

    def handle(self, conn: Connection, text: str | bytes, parse: Callable[[str | bytes], ClientMessage]) -> None:
        """One client message: parsed into a typed message, applied whole, or answered with
        an error that changes nothing."""
        if not conn.allow():
            now = time.monotonic()
            if now - conn.last_limited >= 1.0:
                conn.last_limited = now
                conn.send(error_message("rate_limited", "too many messages; slow down"))
            return
        try:
            self._dispatch(conn, parse(text))
        except ProtocolError as exc:
            conn.send(error_message(exc.code, exc.message, exc.ref))
        except NotYourTurnError as exc:
            conn.send(error_message("not_your_turn", str(exc), "act"))
        except ErqishiError as exc:
            conn.send(error_message("illegal", str(exc), "act"))
        except Exception:  # a fault of ours: logged, the sender told, the room goes on
            log.exception("room %s: a message failed", self.code)
            conn.send(error_message("server_error", "the server failed to handle this message; it was dropped"))

    def _dispatch(self, conn: Connection, message: ClientMessage) -> None:
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
            self._require_lobby("sit")
            self.lobby.sit(member, message.seat)
            self.changed()
        elif isinstance(message, Unbot):
            self._require_seat(member, "unbot")
            self.lobby.unbot(message.seat)
            self.changed()
        elif isinstance(message, Rename):
            member.name = message.name
            self.changed()
        elif message.type == "ping":
            conn.send({"v": PROTOCOL_VERSION, "type": "pong"})
        elif message.type == "hints":
            conn.send(self._hints(conn, member))
        elif message.type == "stand":
            self._require_seat(member, "stand", "you have no seat")
            self.lobby.stand(member)
            self.changed()
        elif message.type == "bots":
            self._require_seat(member, "bots")
            self.lobby.fill_bots()
            self.changed()
        elif message.type == "start":
            self._start(member)
        elif message.type == "next":
            self._next(member)

    def _hello(self, conn: Connection, message: Hello) -> None:
        if conn.member is not None:
            raise ProtocolError("bad_state", "already joined", "hello")
        member, token = self.lobby.join(message.token, message.name, message.lang)
        member.conns.add(conn)
        conn.member = member
        conn.send({"v": PROTOCOL_VERSION, "type": "welcome", "token": token, "member": member.id})
        self.changed()

    def _require_lobby(self, ref: str) -> None:
        if self.status != "lobby":
            raise ProtocolError("bad_state", "the match has started; seats are fixed", ref)

    def _require_seat(self, member: Member, ref: str, why: str = "take a seat first") -> int:
        """The member's seat, in the lobby.

        Raises:
            ProtocolError: ``bad_state`` once the match has started, ``not_seated`` without a seat.
        """
        self._require_lobby(ref)
        if member.seat is None:
            raise ProtocolError("not_seated", why, ref)
        return member.seat

    def _start(self, member: Member) -> None:
        if self.status != "finished":  # after a match, `start` plays a new one in the same seats
            self._require_lobby("start")
        if member.seat is None:
            raise ProtocolError("not_seated", "take a seat first", "start")
        empty = self.lobby.empty_seats()
        if empty:
            raise ProtocolError("bad_state", f"seat {empty[0]} is empty: take it or fill it with a bot", "start")
        names = self.lobby.names()
        self.table = Table(self.rules, self.rng, names, auto_close=False)
        self.handled = 0
        self.bots = [make_bot(self.config.bots) for _ in self.lobby.slots]
        self.bot_rngs = [random.Random(self.rng.getrandbits(64)) for _ in self.lobby.slots]
        self.status = "playing"
        self.stored = StoredMatch()
        self.ready = set()
        self.clock.window = None
        self.table.start_hand()
        self._spawn(self._create_match(self.stored, names))
        self.changed()

    def _next(self, member: Member) -> None:
        if self.status != "between":
            raise ProtocolError("bad_state", "no hand is waiting to start", "next")
        if member.seat is None:
            raise ProtocolError("not_seated", "spectators do not start hands", "next")
        self.ready.add(member.seat)
        self.changed()

    def _act(self, conn: Connection, member: Member, message: Act) -> None:
        table = self.table
        seat = member.seat
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot act", "act")
        if table is None or self.status != "playing":
            raise ProtocolError("bad_state", "no hand is being played", "act")
        if message.seq > conn.seq:
            raise ProtocolError("stale", f"seq {message.seq} was never sent; the latest state is {conn.seq}", "act")
        if conn.window != self.clock.window or message.seq < conn.window_seq:
            raise ProtocolError("stale", f"seq {message.seq} answers an earlier decision; now at {conn.seq}", "act")
        if self.config.coach and table.state is not None and seat in table.waiting():
            before = table.player_view(seat)
            if message.action in before.legal:  # else the table refuses it below
                self._coached[seat] = _coach_json(before, message.action, table.hand_number)
        self._play(seat, message.action)

    # ------------------------------------------------------------------ playing

    def _play(self, seat: int, action: Action) -> None:
        """``seat`` declares ``action`` at the table (the engine checks it)."""
        table = self.table
        assert table is not None
        before = (table.hand_number, table.step)
        try:
            table.declare(seat, action)
        except NotYourTurnError:
            raise
        except IllegalActionError as exc:  # the engine's reason, and what the seat may do
            offered = ", ".join(str(a) for a in table.options(seat))
            raise IllegalActionError(f"{exc}; you may: {offered}") from None
        if self._hand_over():
            self.changed()
        elif (table.hand_number, table.step) == before:
            self.changed(only=seat)  # a declaration: only the declarer's state changes
        else:
            self.changed()

    def _hand_over(self) -> bool:
        """Take care of a hand the table just finished: store it; True if there was one."""
        table = self.table
        if table is None or len(table.hands) == self.handled:
            return False
        finished = table.hands[self.handled]
        self.handled += 1
        self.ready = set()
        self.status = "finished" if table.match_over else "between"
        self.clock.between_hands()
        self.saving += 1
        self._spawn(self._save_hand(table, self.stored, finished, final=table.match_over))
        return True

    async def start_next_hand(self) -> None:
        """Deal the next hand (a clock handler)."""
        if self.status != "between" or self.table is None or self.saving:
            return  # (a hand being stored: its result gets its id first; the save re-arms this)
        self.status = "playing"
        self.table.start_hand()
        self.changed()

    def _bot_action(self, seat: int) -> Action:
        """The room's bot's choice for ``seat``, or its default when the bot fails."""
        table = self.table
        assert table is not None
        try:
            action: Action | None = self.bots[seat].choose(table.player_view(seat), self.bot_rngs[seat])
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
        return self.lobby.bot_controls(seat, now) or self.forced(seat) is not None

    def forced(self, seat: int) -> Action | None:
        """The 开 ``seat`` owes with no other option (R-5.12): made for the player after the
        bots' pause, and not offered as a button."""
        return self.table.forced(seat) if self.table is not None else None

    def _table_in(self, window: Window) -> Table | None:
        """The table while a hand is played and ``window`` is still the open decision, else
        None (a timer armed for an earlier decision does nothing)."""
        if self.table is None or self.clock.window != window or self.status != "playing":
            return None
        return self.table

    async def close_idle(self, window: Window) -> None:
        """Close a response window with nobody left to ask (a clock handler)."""
        table = self._table_in(window)
        if table is None or not table.is_idle_window:
            return
        table.close_window()
        self._hand_over()
        self.changed()

    async def bots_move(self, window: Window) -> None:
        """Every seat that plays itself and must decide in ``window`` decides (a clock handler)."""
        table = self._table_in(window)
        if table is None:
            return
        for seat in table.waiting():
            if self.clock.window != window:
                return
            if seat not in table.waiting() or not self.plays_itself(seat):
                continue
            forced = self.forced(seat)
            if forced is not None:
                self._play(seat, forced)
                continue
            if self.config.bots == "search":
                try:
                    action = await asyncio.to_thread(
                        self.bots[seat].choose, table.player_view(seat), self.bot_rngs[seat]
                    )
                except Exception:
                    log.exception("room %s: the search bot of seat %d failed", self.code, seat)
                    action = self._bot_action(seat)
                if self.clock.window != window or seat not in table.waiting():
                    return
                if action not in table.options(seat):
                    action = self._bot_action(seat)
            else:
                action = self._bot_action(seat)
            self._play(seat, action)
            if self.clock.window != window:
                return

    async def timeout(self, window: Window) -> None:
        """Time is up in ``window`` (a clock handler): each seat still deciding gets its
        default (pass or the 开 it owes) or, for a discard or opening, the bot's move."""
        table = self._table_in(window)
        if table is None:
            return
        for seat in table.waiting():
            if self.clock.window != window:
                return
            default = table.default_action(seat)
            self._play(seat, default if default is not None else self._bot_action(seat))

    async def refresh(self) -> None:
        """Send everyone the state again (a clock handler: someone became away)."""
        self.changed()

    # ------------------------------------------------------------------ storage

    @property
    def match_id(self) -> int | None:
        """The stored id of the match being played, once it is stored."""
        return self.stored.id

    async def _create_match(self, stored: StoredMatch, names: list[str]) -> None:
        if self.store is None:
            return
        async with self.save_lock:
            try:
                stored.id = await self.store.create_match(
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

    async def _save_hand(self, table: Table, stored: StoredMatch, finished: FinishedHand, *, final: bool) -> None:
        try:
            await self._store_hand(table, stored, finished, final=final)
        finally:
            self.saving -= 1
            self.changed()

    async def _store_hand(self, table: Table, stored: StoredMatch, finished: FinishedHand, *, final: bool) -> None:
        """Store a finished hand of ``table``'s match (and the match once it is over), in the
        order the hands ended, even when a new match has started meanwhile."""
        if self.store is None:
            return
        totals = list(finished.scored.totals)
        async with self.save_lock:
            if stored.id is None:
                return
            try:
                hand_id = await self.store.save_hand(stored.id, finished.index, finished.record, totals)
                table.set_hand_id(finished.index, hand_id)
                if final:
                    await self.store.finish_match(
                        stored.id, table.match_record(), list(table.match.totals), list(table.match.leaders)
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

    # ------------------------------------------------------------------ messages out

    def changed(self, only: int | None = None) -> None:
        """Something changed: open a new decision window if the hand moved on, send the new
        state (to everyone, or only to the seat ``only``) and re-arm the timers."""
        self.version += 1
        table = self.table
        if table is not None and table.state is not None and self.status == "playing":
            self.clock.open((table.hand_number, table.step), response=table.state.phase is Phase.RESPONSE)
        self.out.send_states(
            room=self.room_json(),
            viewer_of=self._viewer,
            game_for=self.game_json,
            hand=table.hand_number if table is not None else 0,
            log=self._log_json,
            you=self.you_json,
            window=self.clock.window,
            only=only,
        )
        self.clock.plan(self.status, self.table, self.lobby, self.ready, self)

    def _viewer(self, member: Member) -> Viewer:
        """A member's viewer: its seat once the match has started, else a spectator."""
        return member.seat if member.seat is not None and self.status != "lobby" else SPECTATOR

    def _log_json(self) -> list[dict[str, Any]]:
        """The hand's events as JSON, kept between broadcasts (events only ever append)."""
        table = self.table
        if table is None:
            return []
        events = table.events
        if self._log_of is not events:
            self._log_of, self._log = events, []
        if len(self._log) < len(events):
            self._log.extend(e.to_json() for e in events[len(self._log) :])
        return self._log

    def room_json(self) -> dict[str, Any]:
        """The ``room`` object (docs/protocol.md)."""
        return {
            "code": self.code,
            "status": self.status,
            "preset": self.config.preset,
            "rules": self._rules_json,
            "match_quan": self.rules.match_quan,
            "bots": self.config.bots,
            "players": self.rules.players,
            "seats": self.lobby.seats_json(time.monotonic()),
            "spectators": self.lobby.spectators(),
            "match": self.match_id,
            "coach": self.config.coach,
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

    def game_json(self, viewer: Viewer) -> dict[str, Any] | None:
        """The ``game`` object for ``viewer``, built from its view only (without the log,
        whose new events the broadcaster adds per connection)."""
        table = self.table
        if table is None or table.state is None:
            return None
        seat = viewer if isinstance(viewer, int) else None
        legal = table.options(seat) if seat is not None and self.status == "playing" else ()
        declared = table.declared.get(seat) if seat is not None else None
        forced = self.forced(seat) if seat is not None and legal else None
        if forced is not None:  # shown as already declared: the server makes it
            legal, declared = (), forced
        timer = None
        if self.status == "playing" and (legal or declared is not None):
            default = declared if declared is not None else table.default_action(seat) if seat is not None else None
            timer = {
                "remaining_ms": int(self.clock.remaining() * 1000),
                "total_ms": int(self.clock.total * 1000),
                "default": str(default) if default is not None else "bot",
            }
        elif self.status == "between":
            timer = {
                "remaining_ms": int(self.clock.remaining_between() * 1000),
                "total_ms": int(self.settings.next_hand_seconds * 1000),
                "default": "next",
            }
        last = table.last_hand
        result = None
        if last is not None:
            result = last.scored.to_json()
            result["hand_id"] = table.hand_ids.get(last.index)
        over = table.match_over
        return {
            "hand": table.hand_number,
            "quan": table.quan,
            "step": table.step,
            "view": self._view_json(table, viewer),
            "legal": [str(a) for a in legal],
            "refusals": self._refusals_json(table, seat) if seat is not None and self.status == "playing" else [],
            "coach": self._coached.get(seat) if seat is not None else None,
            "declared": str(declared) if declared is not None else None,
            "timer": timer,
            "result": result,
            "totals": list(table.match.totals),
            "ready": sorted(self.ready),
            "match_over": {"totals": list(table.match.totals), "leaders": list(table.match.leaders)} if over else None,
        }

    def _refusals_json(self, table: Table, seat: int) -> list[dict[str, Any]]:
        """Why the engine refuses what ``seat`` might reach for now (held cards it may not
        discard, a 吃, 对 or 胡 not offered; R-9: its own knowledge only), built once per
        state; the browser words each ``reason`` with the narration's ``why_`` sentences."""
        state = table.state
        cached = self._refused.get(seat)
        if cached is not None and cached[0] is state:
            return cached[1]
        built = [
            {
                "reason": r.reason,
                "rule": r.rule,
                "card": ASCII[r.card] if r.card is not None else None,
                "message": r.message,
            }
            for r in table.refusals(seat)
        ]
        self._refused[seat] = (state, built)
        return built

    def _view_json(self, table: Table, viewer: Viewer) -> dict[str, Any]:
        """The ``view`` object of ``viewer`` (R-9), built once per state."""
        state = table.state
        cached = self._views.get(viewer)
        if cached is not None and cached[0] is state:
            return cached[1]
        v = table.view_for(viewer)
        assert v is not None
        built = view_json(v)
        self._views[viewer] = (state, built)
        return built

    def _hints(self, conn: Connection, member: Member) -> dict[str, Any]:
        table = self.table
        seat = member.seat
        if seat is None:
            raise ProtocolError("not_seated", "hints are for a seated player's own hand", "hints")
        message: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "hints", "seq": conn.seq, "waits": [], "discards": []}
        if table is None or table.state is None or table.state.is_over:
            return message
        v = table.player_view(seat)
        message["waits"] = [_wait_json(w) for w in live_waits(v)]
        if v.phase is not Phase.RESPONSE and seat in table.waiting():
            message["discards"] = [
                {"card": h.card.ascii, "waits": [_wait_json(w) for w in h.waits]} for h in discard_hints(v)
            ]
        return message

    def close(self) -> None:
        """Stop the timers and tasks (the room is dropped); nothing new is scheduled after."""
        self.closed = True
        self.clock.close()
        for task in self.tasks:
            task.cancel()
        self.out.close()


def _coach_json(before: PlayerView, action: Action, hand: int) -> dict[str, Any] | None:
    """The coach's note on ``action`` made from the view ``before`` (the player's own, R-9),
    or None when it has nothing to say."""
    note = coach(before, action)
    if note is None:
        return None
    return {
        "hand": hand,
        "reason": note.reason,
        "rule": note.rule,
        "played": str(note.played),
        "better": str(note.better),
        "text": {"zh": note.text.zh, "en": note.text.en},
    }


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

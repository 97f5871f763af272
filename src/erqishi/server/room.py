"""A room: its lobby, its one :class:`~erqishi.play.Table`, its clock, its broadcaster and
its storage, and the messages that drive them (docs/protocol.md).

Everything that changes a room runs on the event loop between two ``await`` points, so a
message is applied whole or not at all; work that awaits (a search bot thinking) re-checks
afterwards that the decision it answers is still open. The room never decides legality:
the table asks the engine, whose refusal names the rule.

A room is durable (:mod:`erqishi.server.durable`): before it sends anyone a state, it
writes what changed to its journal (the spool, then the database, in order), and a server
started again restores it from there. The room never waits for the database.

A room may be a table of a 争霸赛 round (:class:`TableLink`, :mod:`erqishi.server.tournaments`):
its seats reserved for the players' tokens, its deals the round's duplicate deals.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from erqishi.bots import Bot, adviser, make_bot
from erqishi.core.engine import PASS, Action, ActionKind, Deal, Match, Phase, PlayerView
from erqishi.core.errors import ErqishiError, IllegalActionError
from erqishi.core.hands import Wait
from erqishi.learn.coach import coach
from erqishi.play import SPECTATOR, NotYourTurnError, Table, Viewer
from erqishi.play.hints import discard_hints, live_waits, suggest
from erqishi.play.narrate import explain
from erqishi.server.broadcast import Broadcaster
from erqishi.server.clock import Clock, Window
from erqishi.server.connection import TALK_BURST, TALK_EVERY, Connection
from erqishi.server.durable import Recorder, RestoreError, lobby_json, replay_table, restore_lobby
from erqishi.server.jsontext import dumps
from erqishi.server.lobby import Lobby, Member, Slot
from erqishi.server.protocol import (
    ASCII,
    EMOTES,
    PHRASES,
    Act,
    Again,
    AnyClientMessage,
    AutoPass,
    CreateRoom,
    Hello,
    ProtocolError,
    Rename,
    Say,
    SeatCache,
    Sit,
    Tuoguan,
    Unbot,
    Vote,
    error_message,
    talk_json,
    view_json,
)
from erqishi.server.room_options import rules_words
from erqishi.server.settings import PROTOCOL_VERSION, Settings
from erqishi.storage.journal import Health, Journal
from erqishi.storage.live import LiveResult, LiveRoom

__all__ = ["NOTICES", "Room", "RoomManager", "TableLink"]

log = logging.getLogger("erqishi.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
Status = Literal["lobby", "playing", "between", "finished", "ended"]
ClientMessage = AnyClientMessage
#: The messages a room that has ended (解散) still takes.
_AFTER_END = frozenset({"ping", "hints", "name", "say"})
#: The messages a tournament table refuses: the tournament sets its seats, names and match.
_NOT_AT_TOURNAMENT = frozenset({"sit", "stand", "bots", "unbot", "start", "again", "dissolve", "name"})


@dataclass(frozen=True, slots=True)
class TableLink:
    """What makes a room a table of a 争霸赛 round (:mod:`erqishi.server.tournaments`,
    docs/tournament.md): the seats are the tournament's (a person's seat is reserved for the
    holder of that entrant's player token: ``people`` keeps its SHA-256, as a lobby keeps
    seat tokens), bots sit where ``bots`` names a level, and the match deals the round's
    duplicate deals from ``random.Random(deal_seed)``, seat 0 dealing first; each seat's bot
    chooses with a generator of its own (``bot_seeds``), so nothing else draws from the
    deals' generator. The room plays one match and starts it once every person is
    connected, or ``wait_seconds`` after it was made (the absent are then played by the
    bot, as after a lost connection, until they come).

    Attributes:
        tournament, round, table: where (round from 1, table from 0).
        names: each seat's name for the records (an entrant's, or a filler's
            ``LEVEL-bot-N``).
        bots: each seat's bot level, None for a person.
        people: each person's seat's token digest, None for a bot.
        deal_seed: the round's deal seed (:meth:`erqishi.tournament.Tournament.deal_seed`).
        bot_seeds: each seat's bot's seed.
        wait_seconds: how long the table waits for its people.
    """

    tournament: int
    round: int
    table: int
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    people: tuple[str | None, ...]
    deal_seed: int
    bot_seeds: tuple[int, ...]
    wait_seconds: float = 60.0

    def __post_init__(self) -> None:
        n = len(self.names)
        if not (len(self.bots) == len(self.people) == len(self.bot_seeds) == n):
            raise ValueError("a tournament table needs one name, bot, person and bot seed per seat")
        if any((b is None) == (p is None) for b, p in zip(self.bots, self.people, strict=True)):
            raise ValueError("each seat of a tournament table is a bot or a person, not both or neither")

    def to_json(self) -> dict[str, Any]:
        """The link as the room's journal keeps it (in its ``room`` entry)."""
        return {
            "tournament": self.tournament,
            "round": self.round,
            "table": self.table,
            "names": list(self.names),
            "bots": list(self.bots),
            "people": list(self.people),
            "deal_seed": self.deal_seed,
            "bot_seeds": list(self.bot_seeds),
            "wait_seconds": self.wait_seconds,
        }

    @classmethod
    def from_json(cls, data: Any) -> TableLink:
        """The link of :meth:`to_json`.

        Raises:
            ValueError: not such an object.
        """
        if not isinstance(data, dict):
            raise ValueError("a tournament link is an object")
        try:
            return cls(
                int(data["tournament"]),
                int(data["round"]),
                int(data["table"]),
                tuple(str(n) for n in data["names"]),
                tuple(None if b is None else str(b) for b in data["bots"]),
                tuple(None if p is None else str(p) for p in data["people"]),
                int(data["deal_seed"]),
                tuple(int(s) for s in data["bot_seeds"]),
                float(data.get("wait_seconds", 60.0)),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a tournament link lacks {exc}") from None

    def public_json(self) -> dict[str, Any]:
        """``room.tournament``: where the table stands in its tournament."""
        return {"id": self.tournament, "round": self.round, "table": self.table, "url": f"/t/{self.tournament}"}


#: The notices of the ``notice`` message (docs/protocol.md), Chinese and English.
NOTICES: dict[str, dict[str, str]] = {
    "saving_failed": {
        "zh": "暂时存不进数据库，服务器正在重试。牌照常打，每一步都已记在本机的备份里，不会丢。",
        "en": "The database cannot be written just now; the server keeps retrying. Play goes on: "
        "every move is kept in the server's local backup and will not be lost.",
    },
    "saving_memory": {
        "zh": "数据库和本机备份都暂时写不进去（磁盘满了或只读）。牌照常打，记录先留在内存里；请不要关掉服务器。",
        "en": "Neither the database nor the local backup can be written just now (the disk is full or "
        "read-only). Play goes on and the records wait in memory: please do not stop the server.",
    },
    "saving_ok": {
        "zh": "保存恢复正常：到现在为止的每一步都已存好。",
        "en": "Saving works again: every move so far is stored.",
    },
}


#: ``room.saving`` and the notice that says it, by level
_SAVING_NOTICE = {"ok": "saving_ok", "failing": "saving_failed", "memory": "saving_memory"}


def saving_level(health: Health) -> str:
    """What players are told of saving (``room.saving``): ``ok`` while the database takes
    writes, ``failing`` while it does not and the spool keeps every move, ``memory`` when
    neither can be written. A spool that fails while the database works is the operator's
    matter (logged): every move still reaches the database, so players are not told; a
    disk at the edge of full would otherwise flap their notices."""
    if health.database:
        return "ok"
    return "failing" if health.spool else "memory"


@dataclass(eq=False)
class DissolveVote:
    """A 解散 vote in progress: ``by`` asked to end the room, the people in ``asked`` answer
    (同意 ``agreed``) until ``deadline`` (monotonic seconds); a vote is not kept in the
    journal (a restart drops it)."""

    by: int
    asked: tuple[int, ...]
    total: float
    deadline: float
    agreed: set[int] = field(default_factory=set)
    handle: asyncio.TimerHandle | None = None


class Room:
    """A table with its lobby, its match and everyone connected (docs/protocol.md).

    Args:
        code: the room code.
        config: what the creator asked for (preset, 圈 per match, bot level, players).
        settings: the server settings (timers, limits).
        journal: where the room's changes are written as they happen (finished hands and
            matches reach the history from there), or None (nothing is stored).
        seed: seeds the room's generator (first dealer, deals, bots' choices).
        uid: the room's unique id in the journal (a new one by default; a code may be
            used again once its room is gone, a uid never).
        tournament: makes the room a table of a tournament round (:class:`TableLink`):
            its seats reserved, its deals the round's.

    Raises:
        InvalidRulesError: the options make no valid rule set.
    """

    def __init__(
        self,
        code: str,
        config: CreateRoom,
        settings: Settings,
        journal: Journal | None,
        seed: int,
        *,
        uid: str | None = None,
        tournament: TableLink | None = None,
    ) -> None:
        self.rules = config.rules()
        self.code = code
        self.uid = uid if uid is not None else secrets.token_hex(8)
        self.config = config
        self.settings = config.timed(settings)  # the room's own timers, where its creator set them
        self.journal = journal
        self.recorder = Recorder(self.uid, journal) if journal is not None else None
        #: the manager holding the room (set when it is added), asked whether what the room
        #: does may be shown (several processes: RoomManager.confirmed)
        self.manager: RoomManager | None = None
        self.seed = seed
        self.rng = random.Random(seed)
        self.status: Status = "lobby"
        self.lobby = Lobby(self.rules.players, config.bots, settings.grace_seconds)
        self.clock = Clock(self.settings, self._spawn)
        self.out = Broadcaster()
        self.table: Table | None = None
        self.bots: list[Bot] = []
        self.bot_rngs: list[random.Random] = []
        #: a quick bot that decides for a seat whose own bot is still thinking when its
        #: time is up (the search bot's rooms only)
        self.quick: Bot | None = make_bot("heuristic") if config.bots == "search" else None
        #: each seat's bot's decision in the open window, started when the window opened so
        #: that it is made inside the bots' pause: (window, when it started, the decision)
        self.thoughts: dict[int, tuple[Window, float, asyncio.Future[Action]]] = {}
        #: the number of the match being played in this room (1, 2, …; 0 before the first)
        self.match_no = 0
        self.first_dealer = 0
        #: the stored id of each match of the room, by number, once the database has it
        self.match_ids: dict[int, int] = {}
        #: finished hands (match number, index) not yet in the database, since when
        self.unsaved: dict[tuple[int, int], float] = {}
        self.ready: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.handled = 0  # finished hands already taken care of
        self._wait_handle: asyncio.TimerHandle | None = None
        self.last_active = time.monotonic()
        #: how many changes the room has seen (each one sent to whoever it concerns)
        self.version = 0
        self.closed = False
        self._log: list[dict[str, Any]] = []
        self._log_of: object = None
        self._rules_json = self.rules.to_options()
        self._rules_words = rules_words(self.rules, config.preset)  # shown to everyone who joins
        self._room_fixed_text: str | None = None  # room_text's fixed part, encoded once
        self._adviser: Bot | None = None  # the hints' bot (bots.adviser), loaded at the first hint
        self._views: dict[Viewer, tuple[object, dict[str, Any]]] = {}
        # the saving level the last notice gave (or the state a new room was first sent)
        self._saving_told = saving_level(journal.health) if journal is not None else "ok"
        self._seats_json: SeatCache = {}  # each seat's public part, while its SeatView stays
        self._legal_text: dict[int, tuple[tuple[Action, ...], list[str]]] = {}
        self._refused: dict[int, tuple[object, list[dict[str, Any]]]] = {}
        #: with the coach on, its note on each seat's last move (None: nothing to say)
        self._coached: dict[int, dict[str, Any] | None] = {}
        #: the member id of the room's creator (the first to join: 房主), who may start a
        #: new match at once after one ends
        self.host: str | None = None
        #: the seats whose person handed them to the room's bot (托管)
        self.tuoguan: set[int] = set()
        #: the seats that pass by themselves every response window with no 胡 and no 开 owed
        self.autopass: set[int] = set()
        #: after a match, the seats whose person is ready for another (再来一局)
        self.again: set[int] = set()
        #: the open 解散 vote, or None
        self.vote: DissolveVote | None = None
        #: a tournament table's link (None: an ordinary room)
        self.tournament = tournament
        self._start_handle: asyncio.TimerHandle | None = None
        if tournament is not None:
            self._seat_tournament(tournament)

    def _seat_tournament(self, link: TableLink) -> None:
        """Seat a tournament table: each person's seat reserved for its player token's
        digest (the member is away until its person connects), a bot at every other."""
        if len(link.names) != len(self.lobby.slots):
            raise ValueError(f"a tournament table of {len(link.names)} seats for {len(self.lobby.slots)}")
        now = time.monotonic()
        for seat, digest in enumerate(link.people):
            if digest is None:
                self.lobby.slots[seat] = Slot("bot")
                continue
            member = Member(f"m{seat + 1}", digest, link.names[seat], seat=seat)
            member.gone_since = now
            self.lobby.members[member.id] = member
            self.lobby.by_digest[digest] = member
            self.lobby.slots[seat] = Slot("human", member)
        self.lobby._counter = len(link.names)

    def arm_tournament(self) -> None:
        """A tournament table waiting for its people (the manager calls this once the room
        is made or restored): it starts as soon as they are all connected, or when its wait
        is over."""
        link = self.tournament
        if link is None or self.status != "lobby" or self.closed:
            return
        if link.wait_seconds <= 0:
            self._start_tournament()
            return
        if self._start_handle is not None:
            self._start_handle.cancel()
        self._start_handle = asyncio.get_running_loop().call_later(link.wait_seconds, self._start_tournament)
        self.changed()

    def _start_tournament(self) -> None:
        if self._start_handle is not None:
            self._start_handle.cancel()
            self._start_handle = None
        if self.tournament is not None and self.status == "lobby" and not self.closed:
            self._new_match()

    def _tournament_ready(self) -> bool:
        """Start a waiting tournament table whose people are all connected; True if it
        started."""
        if self.tournament is None or self.status != "lobby" or self.closed:
            return False
        people = [slot.member for slot in self.lobby.slots if slot.kind == "human"]
        if not all(m is not None and m.connected for m in people):
            return False
        self._start_tournament()
        return True

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
            self.lobby.leave(member)  # a spectator who left is forgotten (a seat stays)
        self.changed()
        self._maybe_rematch()  # (the one who left may have been the last not ready)

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
            conn.send(error_message("illegal", str(exc), "act", zh=exc.zh))
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
        if self.status == "ended" and message.type not in _AFTER_END:
            raise ProtocolError("bad_state", "the room has ended (解散)", message.type)
        if self.tournament is not None and message.type in _NOT_AT_TOURNAMENT:
            why = "its seats, names and one match are set by the tournament; it starts once its players are here"
            raise ProtocolError(
                "tournament_table", f"a tournament table does not take {message.type!r}: {why}", message.type
            )
        if isinstance(message, Say):
            self._say(conn, member, message)
        elif isinstance(message, Again):
            self._again(member, message.ready)
        elif isinstance(message, Tuoguan):
            self._tuoguan(member, message.on)
        elif isinstance(message, AutoPass):
            self._autopass(member, message.on)
        elif isinstance(message, Vote):
            self._vote(member, message.agree)
        elif message.type == "dissolve":
            self._dissolve_asked(member)
        elif isinstance(message, Act):
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
            self._require_free_name(message.name, member, "name")
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
        found = self.lobby.find(message.token)
        if self.tournament is not None and found is None:
            # (in duplicate play, watching a table would show the deals still to come elsewhere)
            why = "a tournament table admits only its players, from the tournament's page with their player token"
            raise ProtocolError("tournament_table", why, "hello")
        self._admit(conn, found)
        name = None if self.tournament is not None else message.name  # (the registered name stays)
        if name:
            self._require_free_name(name, found, "hello")
        member, token = self.lobby.join(message.token, name, message.lang)
        member.conns.add(conn)
        conn.member = member
        if self.host is None:
            self.host = member.id  # the room's creator is the first to join it
        welcome = {"v": PROTOCOL_VERSION, "type": "welcome", "token": token, "member": member.id, "talk": _TALK}
        conn.send(welcome)
        if not self._tournament_ready():
            self.changed()

    def _require_free_name(self, name: str, member: Member | None, ref: str) -> None:
        """Refuse ``name`` when another member of the room goes by it (``name_taken``)."""
        if self.lobby.name_taken(name, member):
            raise ProtocolError("name_taken", f"someone in this room is called {name!r} already; choose another", ref)

    def _admit(self, conn: Connection, member: Member | None) -> None:
        """Whether ``conn`` may join as ``member`` (None: a new member) within the limits on
        members per room and spectators per address (docs/protocol.md, "Limits").

        Raises:
            ProtocolError: ``room_full``, ``too_many_spectators``.
        """
        s = self.settings
        if member is None and s.max_room_members and len(self.lobby.members) >= s.max_room_members:
            raise ProtocolError(
                "room_full", f"the room has {len(self.lobby.members)} members, the most it takes", "hello"
            )
        unseated = member is None or (member.seat is None and not any(c.address == conn.address for c in member.conns))
        limit = s.max_spectators_per_address
        if unseated and limit and self.lobby.spectators_from(conn.address) >= limit:
            raise ProtocolError(
                "too_many_spectators", f"at most {limit} members without a seat per address in a room", "hello"
            )

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
        if self.status == "finished" and member is not self.host_member():
            why = "only the room's host (房主) starts the next match at once; send `again` to be ready"
            raise ProtocolError("not_host", why, "start")
        empty = self.lobby.empty_seats()
        if empty:
            raise ProtocolError("bad_state", f"seat {empty[0]} is empty: take it or fill it with a bot", "start")
        self._new_match()

    def _new_match(self) -> None:
        """A new match in the seats as they are (the first, or another after one ended)."""
        names = self.lobby.names()
        # (the match just ended is in the journal already, hands and finish: its entries
        # reach the database before this one's, in order, so it is always marked finished)
        link = self.tournament
        if link is not None:  # the round's duplicate deals, from a generator of their own; seat 0 deals first
            first = Match(self.rules, 0, totals=(0,) * self.rules.players)
            deals = random.Random(link.deal_seed)
            self.table = Table(self.rules, deals, list(link.names), auto_close=False, match=first)
        else:
            self.table = Table(self.rules, self.rng, names, auto_close=False)
        self.match_no += 1
        self.first_dealer = self.table.match.dealer
        self.handled = 0
        self._new_bots()
        self.status = "playing"
        self.ready = set()
        self.again = set()
        self.clock.window = None
        self.table.start_hand()
        self.changed()

    def _new_bots(self) -> None:
        link = self.tournament
        if link is not None:  # each seat's own level and seed: nothing draws from the deals' generator
            self.bots = [make_bot(level or self.config.bots) for level in link.bots]
            self.bot_rngs = [random.Random(seed) for seed in link.bot_seeds]
        else:
            self.bots = [make_bot(self.config.bots) for _ in self.lobby.slots]
            self.bot_rngs = [random.Random(self.rng.getrandbits(64)) for _ in self.lobby.slots]
        self.thoughts = {}

    def _next(self, member: Member) -> None:
        if self.status != "between":
            raise ProtocolError("bad_state", "no hand is waiting to start", "next")
        if member.seat is None:
            raise ProtocolError("not_seated", "spectators do not start hands", "next")
        self.ready.add(member.seat)
        self.changed()

    # ------------------------------------------------------------------ the hall

    def host_member(self) -> Member | None:
        """The room's host (房主): its creator while it is a member, else the person in the
        lowest seat (None: nobody)."""
        found = self.lobby.members.get(self.host) if self.host is not None else None
        if found is not None:
            return found
        return next((s.member for s in self.lobby.slots if s.kind == "human" and s.member is not None), None)

    def _seated(self, member: Member, ref: str, why: str) -> int:
        if member.seat is None:
            raise ProtocolError("not_seated", why, ref)
        return member.seat

    def _again(self, member: Member, ready: bool) -> None:
        """再来一局: ready (or not) for another match in the same seats."""
        seat = self._seated(member, "again", "spectators do not play the next match")
        if self.status != "finished":
            raise ProtocolError("bad_state", "no match has ended", "again")
        if ready:
            self.again.add(seat)
        else:
            self.again.discard(seat)
        self.changed()
        self._maybe_rematch()

    def _ready_seats(self) -> list[int]:
        """``game.ready``: between hands the seats that sent ``next``; after a match those
        ready for another: who sent ``again``, every bot, and every seat on 托管 (its bot
        answers for it: it does not hold a rematch up, so it is shown ready)."""
        if self.status != "finished":
            return sorted(self.ready)
        bots = {i for i, slot in enumerate(self.lobby.slots) if slot.kind == "bot"}
        return sorted(self.again | bots | self.tuoguan)

    def _maybe_rematch(self) -> None:
        """After a match, start the next in the same seats once someone asked for it and
        every connected person is ready (a bot always is; nor does a seat on 托管 hold it up)."""
        if self.status != "finished" or not self.again or self.closed:
            return
        ready = set(self._ready_seats())
        if all(seat in ready for seat in self.lobby.connected_humans()):
            self._new_match()

    def _tuoguan(self, member: Member, on: bool) -> None:
        """托管: the room's bot plays ``member``'s seat until it is taken back (as it does for
        a player gone past the grace period)."""
        seat = self._seated(member, "tuoguan", "spectators have no seat to hand to the bot")
        if self.status == "lobby":
            raise ProtocolError("bad_state", "the match has not started", "tuoguan")
        if on:
            self.tuoguan.add(seat)
            if self.status == "between":
                self.ready.add(seat)
        else:
            self.tuoguan.discard(seat)
        self.changed()
        self._maybe_rematch()

    def _autopass(self, member: Member, on: bool) -> None:
        """Auto-pass: ``member``'s seat passes by itself in every response window where it
        has no 胡 and owes no 开 (its options from the engine say so)."""
        seat = self._seated(member, "autopass", "spectators have no seat")
        if on:
            self.autopass.add(seat)
        else:
            self.autopass.discard(seat)
        self.changed()

    def _auto_pass(self) -> None:
        """Declare ``pass`` for each waiting seat with auto-pass on whose options hold a
        pass and no 胡 (a seat that owes a 开 is never offered a pass, R-5.12)."""
        table = self.table
        if not self.autopass or table is None or self.status != "playing":
            return
        state = table.state
        if state is None or state.phase is not Phase.RESPONSE:
            return
        for seat in table.waiting():
            if seat not in self.autopass or self.plays_itself(seat):
                continue
            options = table.options(seat)
            if PASS in options and all(a.kind is not ActionKind.HU for a in options):
                table.declare(seat, PASS)

    def _say(self, conn: Connection, member: Member, message: Say) -> None:
        """A quick phrase, an emote or (where the room allows it) a short text, to everyone."""
        seat = self._seated(member, "say", "spectators watch without talking at the table")
        if message.text is not None and not self.config.free_text:
            raise ProtocolError("bad_message", "text: this room allows only the quick phrases and emotes", "say")
        if not conn.allow_talk():
            raise ProtocolError(
                "talk_limited",
                f"at most {TALK_BURST:g} phrases at once, then one every {TALK_EVERY:g} s: wait a moment",
                "say",
            )
        said: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "said", "seat": seat}
        if message.phrase is not None:
            said["phrase"] = message.phrase
        elif message.emote is not None:
            said["emote"] = message.emote
        else:
            said["text"] = message.text
        self.out.send_all(said)

    def _people(self) -> list[int]:
        """The seats of people (not bots), connected or not."""
        return [i for i, slot in enumerate(self.lobby.slots) if slot.kind == "human"]

    def _dissolve_asked(self, member: Member) -> None:
        """解散: ``member`` asks to end the room; every other seated person votes."""
        seat = self._seated(member, "dissolve", "spectators cannot end the room")
        if self.status == "lobby":
            raise ProtocolError("bad_state", "no match has started: there is nothing to end", "dissolve")
        if self.vote is not None:
            raise ProtocolError("bad_state", "a vote to end the room is open already", "dissolve")
        asked = tuple(i for i in self._people() if i != seat)
        if not asked:  # nobody else to ask
            self._vote_over(DissolveVote(seat, (), 0.0, 0.0), "passed", "alone")
            return
        total = self.config.vote_seconds
        vote = DissolveVote(seat, asked, total, time.monotonic() + total)
        vote.handle = asyncio.get_running_loop().call_later(total, self._vote_timeout, vote)
        self.vote = vote
        self.changed()

    def _vote(self, member: Member, agree: bool) -> None:
        """同意 or 拒绝 in the open 解散 vote: one refusal ends it; everyone agreeing ends the room."""
        seat = self._seated(member, "vote", "spectators do not vote")
        vote = self.vote
        if vote is None:
            raise ProtocolError("bad_state", "no vote is open", "vote")
        if seat not in vote.asked:
            raise ProtocolError("bad_state", "you asked to end the room: the others vote", "vote")
        if seat in vote.agreed:
            raise ProtocolError("bad_state", "you have voted already", "vote")
        if not agree:
            self._vote_over(vote, "refused", "refused", refused=seat)
            return
        vote.agreed.add(seat)
        if all(i in vote.agreed for i in vote.asked):
            self._vote_over(vote, "passed", "agreed")
        else:
            self.changed()

    def _vote_timeout(self, vote: DissolveVote) -> None:
        """The vote's time ran out: who has not answered counts as the room's
        ``vote_timeout`` says (agree by default)."""
        if self.vote is not vote or self.closed:
            return
        passed = self.config.vote_timeout == "agree"
        self._vote_over(vote, "passed" if passed else "refused", "timeout")

    def _vote_over(self, vote: DissolveVote, result: str, reason: str, refused: int | None = None) -> None:
        """Tell everyone how the vote ended (``vote_ended``); a vote that passed ends the room."""
        if vote.handle is not None:
            vote.handle.cancel()
        self.vote = None
        silent = [i for i in vote.asked if i not in vote.agreed and i != refused]
        self.out.send_all(
            {
                "v": PROTOCOL_VERSION,
                "type": "vote_ended",
                "seat": vote.by,
                "result": result,
                "reason": reason,
                "refused": refused,
                "agreed": sorted(vote.agreed),
                "silent": silent if reason == "timeout" else [],
            }
        )
        if result == "passed":
            self._end()
        else:
            self.changed()

    def _end(self) -> None:
        """End the room (a 解散 vote passed): the match in play is stored as ended early
        with the hands finished so far, the room's journal is closed (it is not restored),
        and everyone sees the standings; only talk, hints and renames are taken after."""
        self._persist()  # (whatever is not written yet goes first)
        recorder = self.recorder
        if recorder is not None:
            table = self.table
            recorder.write(recorder.ended_early(table, self.match_no) if table is not None else [("closed", {})])
            self.recorder = None  # nothing more of this room is written
        self.status = "ended"
        self.clock.close()
        if self._wait_handle is not None:
            self._wait_handle.cancel()
        for _, _, future in self.thoughts.values():
            future.cancel()
        self.changed()

    def _vote_json(self) -> dict[str, Any] | None:
        """``room.vote``: the open 解散 vote, or None."""
        vote = self.vote
        if vote is None:
            return None
        return {
            "by": vote.by,
            "asked": list(vote.asked),
            "agreed": sorted(vote.agreed),
            "remaining_ms": int(max(0.0, vote.deadline - time.monotonic()) * 1000),
            "total_ms": int(vote.total * 1000),
            "timeout": self.config.vote_timeout,
        }

    def hall_json(self) -> dict[str, Any]:
        """What the journal keeps of the hall (in each ``lobby`` entry): the host and the
        seats on 托管 and on auto-pass (a vote in progress is not kept)."""
        return {"host": self.host, "tuoguan": sorted(self.tuoguan), "autopass": sorted(self.autopass)}

    def _restore_hall(self, data: object) -> None:
        if not isinstance(data, dict):
            return
        seats = range(len(self.lobby.slots))
        host = data.get("host")
        self.host = host if isinstance(host, str) else None
        for key, into in (("tuoguan", self.tuoguan), ("autopass", self.autopass)):
            found = data.get(key)
            if isinstance(found, list):
                into.update(i for i in found if type(i) is int and i in seats and self.lobby.slots[i].kind == "human")

    def _act(self, conn: Connection, member: Member, message: Act) -> None:
        table = self.table
        seat = member.seat
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot act", "act")
        if table is None or self.status != "playing":
            raise ProtocolError("bad_state", "no hand is being played", "act")
        if seat in self.tuoguan:
            raise ProtocolError("bad_state", "your seat is on 托管 (the bot plays it): take it back first", "act")
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
            why = explain(table.why_not(seat, action), "zh")
            raise IllegalActionError(f"{exc}; you may: {offered}", zh=why) from None
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
        self.ready = set(self.tuoguan)  # (a seat on 托管 is always ready)
        self.again = set()
        self.status = "finished" if table.match_over else "between"
        self.clock.between_hands()
        if self.journal is not None:  # (the hand is written to the journal by changed())
            self.unsaved[(self.match_no, finished.index)] = time.monotonic()
        return True

    async def start_next_hand(self) -> None:
        """Deal the next hand (a clock handler). While saving works, it waits up to
        ``save_wait_seconds`` for the hand just ended to reach the database, so that its
        result carries its stored id; it never waits while saving is failing (the hand
        is in the spool already)."""
        if self.status != "between" or self.table is None:
            return
        waiting = [since for (match, _), since in self.unsaved.items() if match == self.match_no]
        if waiting and self.journal is not None and self.journal.health.database:
            left = min(waiting) + self.settings.save_wait_seconds - time.monotonic()
            if left > 0:  # the save re-arms this (changed()), or the wait runs out
                if self._wait_handle is not None:
                    self._wait_handle.cancel()
                self._wait_handle = asyncio.get_running_loop().call_later(left, self._waited)
                return
        self.status = "playing"
        self.table.start_hand()
        self.changed()

    def _waited(self) -> None:
        self._wait_handle = None
        if not self.closed:
            self.unsaved = {k: v for k, v in self.unsaved.items() if k[0] != self.match_no}
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
        return self.lobby.bot_controls(seat, now) or seat in self.tuoguan or self.forced(seat) is not None

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

    # ------------------------------------------------------------------ the bots

    def _think(self, window: Window) -> None:
        """A window opened: every seat a bot plays starts deciding now, so that its
        decision is ready when the bots' pause ends (a bot that thinks long never makes a
        window longer than one where nobody had a choice; R-9)."""
        table = self.table
        if table is None or self.closed:
            return
        for seat in table.waiting():
            if self.plays_itself(seat) and self.forced(seat) is None:
                self._start_thought(window, seat)

    def _start_thought(self, window: Window, seat: int) -> asyncio.Future[Action] | None:
        """Start ``seat``'s bot on its view of ``window`` (in a worker thread for the search
        bot, soon on the loop for the quick bots); None while that bot is still busy with
        an earlier view (it is never run twice at once)."""
        table = self.table
        assert table is not None
        old = self.thoughts.get(seat)
        if old is not None and old[0] == window:
            return old[2]
        if old is not None and not old[2].done():
            return None
        loop = asyncio.get_running_loop()
        bot, rng, view = self.bots[seat], self.bot_rngs[seat], table.player_view(seat)
        future: asyncio.Future[Action]
        if self.config.bots == "search":
            future = loop.run_in_executor(None, bot.choose, view, rng)
        else:
            future = loop.create_future()

            def decide() -> None:
                if future.done():
                    return
                try:
                    future.set_result(bot.choose(view, rng))
                except Exception as exc:
                    future.set_exception(exc)

            loop.call_soon(decide)  # after the state of the new window is sent
        future.add_done_callback(_retrieve)
        self.thoughts[seat] = (window, time.monotonic(), future)
        return future

    async def _decision(self, window: Window, seat: int) -> Action:
        """``seat``'s bot's decision in ``window`` when the bots' pause ends: the one it
        started at the window's opening; if that is not ready, a quick bot's (a decision
        started later, for a player who became away meanwhile, is waited for; so is any
        with no pause at all, ``bot_delay`` 0)."""
        future = self._start_thought(window, seat)
        if future is not None and not future.done():
            started = self.thoughts[seat][1]
            late = started > self.clock.opened + max(0.05, self.settings.bot_delay * 0.5)
            if late or self.settings.bot_delay <= 0:
                await asyncio.wait([future])
        if future is not None and future.done() and not future.cancelled() and future.exception() is None:
            return future.result()
        if future is not None and future.done() and not future.cancelled():
            log.error("room %s: the bot of seat %d failed", self.code, seat, exc_info=future.exception())
        elif future is not None or self.quick is not None:
            log.info("room %s: the bot of seat %d was not ready in its pause; a quick bot decides", self.code, seat)
        return self._quick_action(seat)

    def _quick_action(self, seat: int) -> Action:
        """A decision for ``seat`` made at once: the quick bot's in a search bot's room,
        else the room's bot's (both take milliseconds)."""
        table = self.table
        assert table is not None
        bot = self.quick if self.quick is not None else self.bots[seat]
        try:
            action: Action | None = bot.choose(table.player_view(seat), self.bot_rngs[seat])
        except Exception:  # a faulty bot must not stall the table
            log.exception("room %s: the bot of seat %d failed", self.code, seat)
            action = None
        if action is None or action not in table.options(seat):
            default = table.default_action(seat)
            action = default if default is not None else table.options(seat)[0]
        return action

    async def bots_move(self, window: Window) -> None:
        """Every seat that plays itself and must decide in ``window`` decides (a clock
        handler, when the bots' pause ends)."""
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
            action = await self._decision(window, seat)
            if self.clock.window != window or seat not in table.waiting():
                return
            if not self.plays_itself(seat):  # (taken back from 托管 meanwhile)
                continue
            if action not in table.options(seat):
                action = self._quick_action(seat)
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
            if default is not None:
                self._play(seat, default)
                continue
            future = self._start_thought(window, seat)
            if future is not None:
                await asyncio.wait([future])
            action = await self._decision(window, seat)
            if self.clock.window != window or seat not in table.waiting():
                return
            self._play(seat, action if action in table.options(seat) else self._quick_action(seat))

    async def refresh(self) -> None:
        """Send everyone the state again (a clock handler: someone became away)."""
        self.changed()

    # ------------------------------------------------------------------ storage

    @property
    def match_id(self) -> int | None:
        """The stored id of the match being played, once the database has it."""
        return self.match_ids.get(self.match_no)

    def _persist(self) -> None:
        """Write to the journal what changed since the last write (a ``room`` entry is
        written when the room is made): called before every state is sent, so nobody is
        shown a move, a deal or a result the journal does not hold."""
        recorder = self.recorder
        if recorder is None:
            return
        entries = recorder.lobby_changes(self.lobby, self.hall_json())
        table = self.table
        if table is not None and self.match_no:
            first = {
                "match": self.match_no,
                "names": list(table.names),
                "dealer": self.first_dealer,
                "code": self.code,
                "preset": self.config.preset,
                "rules": self._rules_json,
                "seed": self.tournament.deal_seed if self.tournament is not None else self.seed,
            }
            more, finished = recorder.table_changes(table, self.match_no, first)
            entries += more
            for index in finished:
                self.unsaved.setdefault((self.match_no, index), time.monotonic())
        recorder.write(entries)

    def write_created(self) -> None:
        """Write the room's first entry (its settings and seed), before its code is given
        to anyone."""
        if self.recorder is not None:
            data = {
                "code": self.code,
                "config": self.config.model_dump(mode="json"),
                "seed": self.seed,
                "created": time.time(),
            }
            if self.tournament is not None:
                data["tournament"] = self.tournament.to_json()
            self.recorder.write([("room", data)])

    def write_closed(self) -> None:
        """Write that the room is dropped: its journal is deleted from the database."""
        if self.recorder is not None:
            self.recorder.write([("closed", {})])

    def stored(self, result: LiveResult) -> None:
        """The database took one of the room's entries (a journal listener): note the ids
        of its matches and hands, and show them."""
        entry = result.entry
        number = entry.match
        if number is None or self.closed:
            return
        if entry.kind == "match" and result.match_id is not None:
            self.match_ids[number] = result.match_id
            if number == self.match_no:
                self.changed()
        elif entry.kind == "hand":
            index = entry.data.get("index")
            if type(index) is not int:
                return
            self.unsaved.pop((number, index), None)
            if number == self.match_no and self.table is not None and result.hand_id is not None:
                self.table.set_hand_id(index, result.hand_id)
            self.changed()

    def notify(self, health: Health) -> None:
        """Saving started failing or works again: tell everyone in the room (a ``notice``
        in Chinese and English, and ``room.saving`` in every state)."""
        level = saving_level(health)
        if self.closed or level == self._saving_told:
            return
        self._saving_told = level
        code = _SAVING_NOTICE[level]
        self.out.send_all({"v": PROTOCOL_VERSION, "type": "notice", "code": code, "text": NOTICES[code]})
        self.changed()

    @classmethod
    def restore(cls, live: LiveRoom, settings: Settings, journal: Journal) -> Room:
        """The room as its journal left it: the same code, seats and seat tokens, the match
        replayed through the engine up to the last action and declaration. Nobody is
        connected: the seated players' grace period starts now, and the open decision
        gets its whole time again once :meth:`changed` is called.

        Raises:
            RestoreError: the journal does not replay (the message names the entry).
        """
        entries = live.entries
        if not entries or entries[0].kind != "room":
            raise RestoreError(f"room {live.room}: its journal does not begin with the room")
        data = entries[0].data
        try:
            config = CreateRoom.model_validate(data["config"])
            found = data.get("tournament")
            link = TableLink.from_json(found) if found is not None else None
            room = cls(str(data["code"]), config, settings, journal, int(data["seed"]), uid=live.room, tournament=link)
        except (KeyError, ValueError, TypeError, ErqishiError) as exc:
            raise RestoreError(f"room {live.room}: its settings do not load: {exc}") from None
        recorder = room.recorder
        assert recorder is not None
        recorder.seq = entries[-1].seq
        # the hands still to come are drawn afresh (never the same deals again)
        room.rng = random.Random(f"{room.seed}:{recorder.seq}")
        lobbies = [e for e in entries if e.kind == "lobby"]
        if lobbies:
            restore_lobby(room.lobby, dict(lobbies[-1].data))
            room._restore_hall(lobbies[-1].data.get("hall"))
            recorder.lobby = {**lobby_json(room.lobby), "hall": room.hall_json()}
        starts = [i for i, e in enumerate(entries) if e.kind == "match"]
        if starts:
            first = entries[starts[-1]].data
            number, names, dealer = first.get("match"), first.get("names"), first.get("dealer")
            if type(number) is not int or not isinstance(names, list) or type(dealer) is not int:
                raise RestoreError(f"room {live.room}: entry #{entries[starts[-1]].seq} names no match")
            table, done = replay_table(room.rules, names, dealer, entries[starts[-1] + 1 :], room.rng)
            if link is not None:  # a tournament table deals on the round's duplicate deals
                table.rng = _deals_after(link.deal_seed, table, room.code)
            room.table, room.match_no, room.first_dealer = table, number, dealer
            room.match_ids = dict(live.match_ids)
            table.hand_ids.update(live.hand_ids)
            room.handled = len(table.hands)
            room._new_bots()
            recorder.match, recorder.hand, recorder.moves = number, table.hand_number, table.step
            recorder.declared = {str(seat): str(action) for seat, action in table.declared.items()}
            recorder.done = done
            if table.in_hand:
                room.status = "playing"
            elif table.state is not None:
                room.status = "finished" if table.match_over else "between"
                room.clock.between_hands()
        return room

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

        def done(task: asyncio.Task[None]) -> None:
            self.tasks.discard(task)
            if asyncio.iscoroutine(coro):  # cancelled before it ran (the server stopping):
                coro.close()  # closed unrun, not left to warn "never awaited"

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(done)

    # ------------------------------------------------------------------ messages out

    def changed(self, only: int | None = None) -> None:
        """Something changed: write it to the journal, open a new decision window if the
        hand moved on, send the new state (to everyone, or only to the seat ``only``),
        start the bots deciding in a new window and re-arm the timers."""
        self.version += 1
        self._auto_pass()
        self._persist()  # before anyone is sent anything that follows from it
        manager = self.manager
        if manager is not None and manager.confirmed is not None and not manager.confirmed():
            manager.unconfirmed(self)  # nothing that follows from this change is sent
            return
        table = self.table
        opened = False
        if table is not None and table.state is not None and self.status == "playing":
            opened = self.clock.open((table.hand_number, table.step), response=table.state.phase is Phase.RESPONSE)
        self.out.send_states(
            room=self.room_text(),
            viewer_of=self._viewer,
            game_for=self.game_json,
            hand=table.hand_number if table is not None else 0,
            log=self._log_json,
            you=self.you_json,
            window=self.clock.window,
            only=only,
        )
        if opened and self.clock.window is not None:
            self._think(self.clock.window)
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

    def _room_fixed(self) -> dict[str, Any]:
        """The fields of the ``room`` object that never change for this room."""
        return {
            "code": self.code,
            "preset": self.config.preset,
            "rules": self._rules_json,
            "rules_words": self._rules_words,
            "match_quan": self.rules.match_quan,
            "bots": self.config.bots,
            "players": self.rules.players,
            "coach": self.config.coach,
            "timers": {"response_seconds": self.settings.response_seconds, "turn_seconds": self.settings.turn_seconds},
            "public": self.config.public,
            "vote_seconds": self.config.vote_seconds,
            "vote_timeout": self.config.vote_timeout,
            "free_text": self.config.free_text,
        }

    def _room_live(self) -> dict[str, Any]:
        """The fields of the ``room`` object that change as the room goes on."""
        seats = self.lobby.seats_json(time.monotonic())
        for seat in seats:
            seat["tuoguan"] = seat["seat"] in self.tuoguan
        host = self.host_member()
        return {
            "status": self.status,
            "seats": seats,
            "spectators": self.lobby.spectators(),
            "match": self.match_id,
            "saving": self._saving(),
            "host": host.seat if host is not None else None,
            "vote": self._vote_json(),
            **({"tournament": self.tournament.public_json()} if self.tournament is not None else {}),
        }

    def room_json(self) -> dict[str, Any]:
        """The ``room`` object (docs/protocol.md)."""
        return {**self._room_fixed(), **self._room_live()}

    def room_text(self) -> str:
        """:meth:`room_json` as JSON text, as every ``state`` carries it: the fixed fields
        (the rules and their words are most of it) are encoded once for the room."""
        fixed = self._room_fixed_text
        if fixed is None:
            fixed = self._room_fixed_text = dumps(self._room_fixed())[:-1]
        return f"{fixed}, {dumps(self._room_live())[1:]}"

    def _saving(self) -> str:
        """``room.saving``: ``ok``, ``failing`` (the database takes no writes; the spool
        does) or ``memory`` (neither: records wait in memory)."""
        if self.journal is None:
            return "ok"
        return saving_level(self.journal.health)

    def you_json(self, member: Member) -> dict[str, Any]:
        """The ``you`` object."""
        return {
            "member": member.id,
            "name": member.name,
            "seat": member.seat,
            "role": "player" if member.seat is not None else "spectator",
            "host": member is self.host_member(),
            "autopass": member.seat is not None and member.seat in self.autopass,
        }

    def game_json(self, viewer: Viewer) -> dict[str, Any] | None:
        """The ``game`` object for ``viewer``, built from its view only (without the log,
        whose new events the broadcaster adds per connection)."""
        table = self.table
        if table is None or table.state is None:
            return None
        seat = viewer if isinstance(viewer, int) else None
        playing = seat is not None and self.status == "playing" and seat not in self.tuoguan
        legal = table.options(seat) if playing and seat is not None else ()
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
            "legal": self._legal_json(seat, legal),
            "refusals": self._refusals_json(table, seat) if seat is not None and self.status == "playing" else [],
            "coach": self._coached.get(seat) if seat is not None else None,
            "declared": str(declared) if declared is not None else None,
            "timer": timer,
            "result": result,
            "totals": list(table.match.totals),
            "running": [list(hand.scored.totals) for hand in table.hands],
            "ready": self._ready_seats(),
            "match_over": {"totals": list(table.match.totals), "leaders": list(table.match.leaders)} if over else None,
        }

    def _legal_json(self, seat: int | None, legal: tuple[Action, ...]) -> list[str]:
        """``legal`` in the notation of FORMATS.md, spelled once per options tuple (the
        table keeps one per state and seat)."""
        if not legal or seat is None:
            return []
        cached = self._legal_text.get(seat)
        if cached is None or cached[0] is not legal:
            cached = self._legal_text[seat] = (legal, [str(a) for a in legal])
        return cached[1]

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
        built = view_json(v, self._seats_json)
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
        message["suggest"] = None
        if seat in table.waiting():
            # the strongest bot that answers at once (docs/learned-bot.md), from the seat's
            # own view; seeded by the room and the step, so asking twice says the same
            if self._adviser is None:
                self._adviser = adviser()
            rng = random.Random(f"{self.seed}:hints:{table.hand_number}:{table.step}:{seat}")
            advice = suggest(v, self._adviser, rng)
            if advice is not None:
                message["suggest"] = {
                    "action": str(advice.action),
                    "expected": None if advice.expected is None else round(advice.expected, 2),
                    "text": {"zh": advice.describe("zh"), "en": advice.describe("en")},
                }
        return message

    def close(self) -> None:
        """Stop the timers and tasks (the room is dropped); nothing new is scheduled after."""
        self.closed = True
        self.clock.close()
        if self._wait_handle is not None:
            self._wait_handle.cancel()
        if self._start_handle is not None:
            self._start_handle.cancel()
        if self.vote is not None and self.vote.handle is not None:
            self.vote.handle.cancel()
        for task in self.tasks:
            task.cancel()
        for _, _, future in self.thoughts.values():
            future.cancel()  # (a worker thread already running finishes; its result is dropped)
        self.out.close()


#: ``welcome.talk``: the quick phrases and emotes (built once).
_TALK = talk_json()
assert set(PHRASES) and set(EMOTES)


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


def _deals_after(seed: int, table: Table, code: str) -> random.Random:
    """The deals' generator of a tournament table rebuilt from its journal: the round's
    generator past the hands dealt so far (each one checked against the round's deal)."""
    rng = random.Random(seed)
    deals = [hand.record.deal for hand in table.hands]
    if table.hand_number > len(deals) and table.deal is not None:
        deals.append(table.deal)
    for deal in deals:
        if Deal.shuffled(rng, deal.dealer, table.rules) != deal:
            log.error("room %s: a restored deal is not the round's duplicate deal", code)
    return rng


def _wait_json(wait: Wait) -> dict[str, Any]:
    """A wait (下叫) of the protocol's ``hints``: the card, the hu and score of winning on it."""
    return {"card": wait.card.ascii, "hu": wait.result.hu, "score": wait.score, "live": True}


class RoomManager:
    """The rooms of one server, by code.

    Args:
        settings: the server settings.
        journal: where every room writes its changes (None: nothing is stored).
    """

    def __init__(self, settings: Settings, journal: Journal | None) -> None:
        self.settings = settings
        self.journal = journal
        self.rooms: dict[str, Room] = {}
        self.by_uid: dict[str, Room] = {}
        self._seeds = random.Random(settings.seed) if settings.seed is not None else None
        #: with several server processes, this one's lease value, written with every
        #: journal entry (the database's fence, erqishi.storage.live); None: one process
        self.owner: str | None = None
        #: called with each room the sweep closes (the cluster forgets it)
        self.on_closed: Callable[[Room], None] | None = None
        #: with several server processes: whether this process may still show what its
        #: rooms do (its leases were confirmed recently enough that no other process can
        #: have taken one); None: one process, always
        self.confirmed: Callable[[], bool] | None = None
        if journal is not None:
            journal.listen(self._stored, self._health)

    def new_code(self) -> str:
        """A room code no room of this server has."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.rooms:
                return code

    def create(
        self,
        config: CreateRoom,
        code: str | None = None,
        uid: str | None = None,
        *,
        tournament: TableLink | None = None,
    ) -> Room:
        """A new room with a fresh code (or ``code``, and the unique id ``uid``, claimed
        beforehand across the server processes), written to the journal before it is
        returned; with ``tournament``, a tournament table (:class:`TableLink`).

        Raises:
            InvalidRulesError: the options make no valid rule set.
        """
        code = code if code is not None else self.new_code()
        seed = self._seeds.getrandbits(63) if self._seeds is not None else secrets.randbits(63)
        room = Room(code, config, self.settings, self.journal, seed, uid=uid, tournament=tournament)
        if room.recorder is not None:
            room.recorder.owner = self.owner
        room.write_created()
        self._add(room)
        room.arm_tournament()
        return room

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.by_uid[room.uid] = room
        room.manager = self

    def unconfirmed(self, room: Room) -> None:
        """This process could not confirm its leases in time (Redis out of reach): drop
        ``room`` before anything that follows from its last change is sent, so that no
        player is shown a move another process, taking the room over, might not have.
        The players reconnect; the room goes on from the journal, here or elsewhere."""
        log.error("room %s (%s): its lease is not confirmed in time: dropped here", room.code, room.uid)
        self.drop(room)

    def restore(self, live_rooms: list[LiveRoom]) -> list[Room]:
        """Bring back the rooms of the journal (:meth:`Room.restore`), each with its timers
        started afresh. A room whose journal does not replay is left as it is in the
        database and logged.

        Returns:
            The rooms restored.
        """
        assert self.journal is not None
        restored = []
        for live in live_rooms:
            try:
                room = Room.restore(live, self.settings, self.journal)
                if room.recorder is not None:
                    room.recorder.owner = self.owner
            except RestoreError:
                log.exception("room %s could not be restored; its journal is kept", live.room)
                continue
            if room.code in self.rooms:  # (a code given twice: the newer room keeps it)
                log.error("room code %s is in the journal twice; room %s is not restored", room.code, live.room)
                continue
            self._add(room)
            restored.append(room)
        for room in restored:
            room.changed()
            room.arm_tournament()  # (a tournament table still waiting for its people)
        if restored:
            log.warning("restored %d rooms from the journal", len(restored))
        return restored

    def _stored(self, result: LiveResult) -> None:
        room = self.by_uid.get(result.entry.room)
        if room is not None:
            room.stored(result)

    def _health(self, health: Health) -> None:
        for room in list(self.rooms.values()):
            room.notify(health)

    def get(self, code: str) -> Room | None:
        """The room with ``code`` (case-insensitive), or None."""
        return self.rooms.get(code.upper())

    def sweep(self) -> None:
        """Drop rooms nobody has been connected to for ``idle_room_seconds``, or for
        ``finished_room_seconds`` once their match is over (or the room ended) and every
        hand is stored (their journal is closed: they are not restored; their stored
        matches stay)."""
        now = time.monotonic()
        settings = self.settings
        for room in list(self.rooms.values()):
            if room.conns or (room.tournament is not None and room.status != "finished"):
                continue  # (a tournament table plays on, by its bots, until its match is over)
            done = room.status in ("finished", "ended") and not room.unsaved
            limit = settings.finished_room_seconds if done else settings.idle_room_seconds
            if now - room.last_active > limit:
                room.write_closed()
                self.drop(room)
                if self.on_closed is not None:
                    self.on_closed(room)

    def drop(self, room: Room) -> None:
        """Stop ``room`` and forget it here (its journal is left as it is: with several
        server processes, another one that took its lease carries it on)."""
        room.close()
        room.recorder = None  # nothing more of it is written here (its sockets still close)
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        if self.by_uid.get(room.uid) is room:
            del self.by_uid[room.uid]
        for conn in list(room.conns):
            conn.close()

    def close(self) -> None:
        """Stop every room (their journals stay open: a server started again restores them)."""
        for room in self.rooms.values():
            room.close()
        self.rooms.clear()
        self.by_uid.clear()


def _retrieve(future: asyncio.Future[Action]) -> None:
    """Take a bot's failure out of its future (it is handled where the decision is used)."""
    if not future.cancelled():
        future.exception()

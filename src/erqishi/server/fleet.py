"""The rooms of one server process among several (:mod:`erqishi.server.cluster`): where a
room is played, taking over the rooms whose owner died, renewing this process's leases,
publishing its rooms' summaries, and proxying a WebSocket to the room's owner.

Used only with ``erqishi serve --redis URL``; a single process never loads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import websockets
from fastapi import WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from websockets.asyncio.client import ClientConnection, connect

from erqishi.server.cluster import ADOPTED, Cluster, RedisError, wait_free
from erqishi.server.protocol import error_message
from erqishi.server.room import Room, RoomManager
from erqishi.server.settings import Settings
from erqishi.storage import Store
from erqishi.storage.journal import Journal
from erqishi.storage.live import LiveEntry, LiveResult, LiveRoom

__all__ = ["PEER_CLIENT", "PEER_HEADER", "Elsewhere", "Fleet", "carry", "refuse_unavailable", "route_socket"]

log = logging.getLogger("erqishi.server")

#: The header by which a peer proves a proxied WebSocket is its own (the shared secret),
#: and the one naming the client's address (the limits per address are counted by the peer).
PEER_HEADER = "x-erqishi-peer"
PEER_CLIENT = "x-erqishi-client"


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A room another process owns: its uid, the lease's value and the owner's URL."""

    uid: str
    owner: str
    node: str


#: The part of a lease a renewal answered keeps this process's rooms playing: the rest is
#: for the journal's last entries to reach the database before the lease can expire.
CONFIRMED = 0.6


class Fleet:
    """This process's part of the cluster.

    Args:
        cluster: the Redis handle.
        rooms: this process's rooms.
        store: the shared database.
        settings: the server settings.
    """

    def __init__(self, cluster: Cluster, rooms: RoomManager, store: Store, settings: Settings) -> None:
        self.cluster = cluster
        self.rooms = rooms
        self.store = store
        self.settings = settings
        self._published: dict[str, int] = {}
        self._taking: dict[str, asyncio.Task[Room | None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[None]] = set()
        self._reaper: asyncio.Task[None] | None = None
        self._publisher: asyncio.Task[None] | None = None
        rooms.on_closed = self._closed
        rooms.owner = cluster.me
        rooms.confirmed = self._confirmed
        #: until when (monotonic) this process's leases are sure to be its own: a renewal
        #: answered makes it the renewal's sending time plus CONFIRMED of a lease; past it,
        #: a room shows nothing more (RoomManager.unconfirmed), leaving the rest of the
        #: lease for the journal's last entries to reach the database before another
        #: process may take the room over
        self._good_until = math.inf  # until start(): the leases were just taken
        self._stored: dict[str, int] = {}
        journal = rooms.journal
        if journal is not None:
            journal.mirror = self._mirror
            journal.listen(self._committed)

    # ------------------------------------------------------------------ journal tails

    def _mirror(self, entries: Sequence[LiveEntry]) -> None:
        """Copy the entries just spooled to Redis before anything that follows from them is
        sent (a blocking loopback round trip, so a process that takes the room over finds
        every entry whose state someone saw); if Redis does not answer in time, the copy is
        retried in the background and the database still gets them."""
        try:
            self.cluster.push_tail_now(entries)
        except (RedisError, OSError) as exc:
            log.warning("cannot copy %d journal entries to Redis at once: %s", len(entries), type(exc).__name__)
            task = asyncio.get_running_loop().create_task(self._push(list(entries)))
            self._chores.add(task)
            task.add_done_callback(self._chores.discard)

    async def _push(self, batch: list[LiveEntry]) -> None:
        try:
            await self.cluster.push_tail(batch)
        except (RedisError, OSError) as exc:  # the database still gets them
            log.warning("cannot copy %d journal entries to Redis: %s", len(batch), type(exc).__name__)

    def _committed(self, result: LiveResult) -> None:
        entry = result.entry
        if entry.seq > self._stored.get(entry.room, 0):
            self._stored[entry.room] = entry.seq

    # ------------------------------------------------------------------ start and stop

    async def recover(self, journal: Journal) -> None:
        """At start-up: replay the spool of an earlier run of this process for the rooms
        no other process has taken since (their entries would fork the journal of one
        that has: those are kept in ``rejected.jsonl``), restore those rooms, and make
        every open room of the database known to Redis."""
        spooled = journal.spooled_rooms()
        holders = await self.cluster.holders(spooled)
        skip = {uid for uid, node in holders.items() if node is not None and node != self.cluster.node}
        mine = [uid for uid in sorted(spooled - skip) if await self.cluster.claim(uid)]
        skip |= spooled - set(mine)
        await journal.recover(skip)
        for uid in mine:  # the fence names this incarnation now (the spool's entries named the last)
            await self.store.take_room(uid, self.cluster.me)
        if skip:
            log.warning("%d rooms of the spool moved to other processes; their entries are set aside", len(skip))
        codes = await self.store.live_room_codes()
        await self.cluster.adopt(codes)
        restored = self.rooms.restore(await self.store.live_rooms(mine)) if mine else []
        await self.cluster.release(set(mine) - {room.uid for room in restored})
        self._claim_codes(restored)

    def start(self) -> None:
        """Start renewing leases, and apart (so that neither delays a renewal) publishing
        summaries and taking over free rooms."""
        if self._task is None:
            self._good_until = time.monotonic() + self.cluster.lease_seconds * CONFIRMED
            loop = asyncio.get_running_loop()
            self._task = loop.create_task(self._run())
            self._publisher = loop.create_task(self._publish_loop())
            self._reaper = loop.create_task(self._reap_loop())

    async def close(self, journal: Journal) -> None:
        """Stop: the rooms are stopped, the journal flushed, then the leases given up so
        that the other processes take the rooms over at once."""
        for task in (self._task, self._publisher, self._reaper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for chore in list(self._chores):
            chore.cancel()
        uids = list(self.rooms.by_uid)
        self.rooms.close()
        await journal.close()
        with contextlib.suppress(RedisError, OSError):
            await self.cluster.release(uids)
        await self.cluster.close()

    # ------------------------------------------------------------------ rooms

    async def create_code(self, public: bool) -> tuple[str, str]:
        """A code and uid for a new room, claimed across the processes (with its lease)."""
        import secrets

        while True:
            code, uid = self.rooms.new_code(), secrets.token_hex(8)
            if await self.cluster.register(code, uid, public=public, created=time.time()):
                return code, uid

    async def created(self, room: Room) -> None:
        """A new room: publish its summary at once (a peer may be asked for it next)."""
        await self.cluster.publish({room.uid: room.room_json()})
        self._published[room.uid] = room.version

    async def route(self, code: str) -> Room | Elsewhere | None:
        """Where the room ``code`` is played: here (taken over from the database if its
        lease is free), at another process, or nowhere (no open room has that code)."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        uid = await self.cluster.uid_of(code.upper())
        if uid is None:
            return None
        for _ in range(3):
            room = self.rooms.by_uid.get(uid)
            if room is not None:
                return room
            owner = await self.cluster.owner(uid)
            waited = 0.0
            while owner == ADOPTED and waited < self.cluster.lease_seconds + 1:  # its owner may take it again
                await asyncio.sleep(0.2)
                waited += 0.2
                owner = await self.cluster.owner(uid)
            if owner == ADOPTED:
                continue
            if owner is None or owner == self.cluster.me or Cluster.node_of(owner) == self.cluster.node:
                room = await self.take(uid)
                if room is not None:
                    return room
                continue
            return Elsewhere(uid, owner, Cluster.node_of(owner))
        return None

    async def take(self, uid: str) -> Room | None:
        """Take the lease of ``uid`` and restore the room from the database; None when
        another process holds the lease or the room is closed."""
        room = self.rooms.by_uid.get(uid)
        if room is not None:
            return room
        task = self._taking.get(uid)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._take(uid))
            self._taking[uid] = task
            task.add_done_callback(lambda _: self._taking.pop(uid, None))
        return await asyncio.shield(task)

    async def _take(self, uid: str) -> Room | None:
        if not await self.cluster.claim(uid):
            return None
        try:
            # the fence first: a batch the former owner may still be writing is waited
            # for, and whatever it writes later is refused (erqishi.storage.live)
            before = await self.store.take_room(uid, self.cluster.me)
            found = await self.store.live_rooms([uid])
            # what the former owner wrote that the database did not hold yet
            stored = found[0].entries if found else ()
            tail = await self.cluster.tail(uid, stored[-1].seq if stored else 0, before)
        except BaseException:
            await self.cluster.release([uid])
            raise
        extra = [LiveEntry(e.room, e.seq, e.kind, e.data, self.cluster.me) for e in tail]
        if (not stored and not extra) or any(e.kind == "closed" for e in extra):
            await self.cluster.forget(uid)  # closed: nobody restores it again
            return None
        if extra:
            journal = self.rooms.journal
            assert journal is not None
            journal.append(extra)
            log.warning("room %s: %d journal entries came from Redis, not yet in the database", uid, len(extra))
        live = [
            LiveRoom(
                uid,
                (*stored, *extra),
                found[0].match_ids if found else {},
                found[0].hand_ids if found else {},
            )
        ]
        restored = self.rooms.restore(live)
        if not restored:  # its journal does not replay (logged): left for a person to look at
            await self.cluster.release([uid])
            return None
        room = restored[0]
        log.warning("took over room %s (%s) from the database", room.code, uid)
        await self.created(room)
        return room

    def _claim_codes(self, restored: list[Room]) -> None:
        task = asyncio.get_running_loop().create_task(
            self.cluster.adopt({r.uid: (r.code, r.config.public, time.time()) for r in restored})
        )
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def _closed(self, room: Room) -> None:
        """The sweep closed ``room``: nobody restores it again."""
        self._published.pop(room.uid, None)

        async def forget() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self.cluster.forget(room.uid)

        task = asyncio.get_running_loop().create_task(forget())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def public_codes(self, codes: list[str]) -> set[str]:
        """Which of ``codes`` name an open public room (here or elsewhere)."""
        here = {c for c in codes if (r := self.rooms.get(c)) is not None and r.config.public and not r.closed}
        with contextlib.suppress(RedisError, OSError):
            here |= await self.cluster.public_codes([c for c in codes if c not in here])
        return here

    async def public_rooms(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest public rooms of every process (this process's own as they are now)."""
        listed = await self.cluster.public(limit)
        fresh = {r.code: r.room_json() for r in self.rooms.rooms.values() if r.config.public and not r.closed}
        out = [fresh.pop(str(info.get("code")), info) for info in listed]
        return out + list(fresh.values())[: max(0, limit - len(out))]

    async def summary(self, code: str) -> dict[str, Any] | None:
        """The ``room`` object of ``code`` wherever it is played, or None."""
        room = self.rooms.get(code)
        if room is not None:
            return room.room_json()
        uid = await self.cluster.uid_of(code.upper())
        if uid is None:
            return None
        info = await self.cluster.info(uid)
        if info is not None:
            return info
        found = await self.route(code)
        return found.room_json() if isinstance(found, Room) else None

    # ------------------------------------------------------------------ the loop

    def _confirmed(self) -> bool:
        """Whether this process's leases are still sure to be its own (RoomManager.confirmed)."""
        return time.monotonic() < self._good_until

    def _drop_unconfirmed(self) -> None:
        """Past the confirmed time, drop every room (each would drop itself at its next
        change; a room where nothing happens must not outlive its lease either)."""
        if self._confirmed() or not self.rooms.by_uid:
            return
        for room in list(self.rooms.by_uid.values()):
            if room.uid not in self._taking:
                self.rooms.unconfirmed(room)
                self._published.pop(room.uid, None)

    async def _run(self) -> None:
        """Renew the leases every quarter lease (at most a second), on a loop of its own:
        publishing the rooms' summaries must never delay a renewal. (When both were one
        loop, a renewal waited for the last round's publishing and trimming, round trips
        to Redis that on a saturated event loop each wait behind every table's work; the
        renewals came late and the process dropped rooms whose leases were still its own,
        which the other process then took over: 199 rooms in 40 s at 600 tables on two
        processes.)"""
        period = min(1.0, self.cluster.lease_seconds / 4)
        failing = False
        while True:
            try:
                await self._renew()
                if failing:
                    log.warning("renewing the leases works again")
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis out of reach: said once, not at every try
                if not failing:
                    log.warning("renewing the leases failed (%s); retrying", _why(exc))
                failing = True
            self._drop_unconfirmed()
            await asyncio.sleep(period)

    async def _publish_loop(self) -> None:
        """Publish the summaries of the rooms that changed and trim the journal tails the
        database holds, every quarter lease (at most a second)."""
        period = min(1.0, self.cluster.lease_seconds / 4)
        failing = False
        while True:
            try:
                await self._publish()
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis out of reach: the renewals say so too
                if not failing:
                    log.warning("publishing the rooms failed (%s); retrying", _why(exc))
                failing = True
            await asyncio.sleep(period)

    async def _reap_loop(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(self.cluster.lease_seconds / 2 * random.uniform(0.7, 1.3))
            try:
                await self._reap()
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not failing:
                    log.warning("taking over free rooms failed (%s); retrying", _why(exc))
                failing = True

    async def _renew(self) -> None:
        """Renew this process's leases (a room whose lease is lost is dropped at once)."""
        uids = list(self.rooms.by_uid)
        sent = time.monotonic()
        # a Redis that does not answer must not hold the renewal past the confirmed time
        wait = max(0.05, self._good_until - sent)
        lost, missing = await asyncio.wait_for(self.cluster.renew(uids), timeout=wait)
        self._good_until = sent + self.cluster.lease_seconds * CONFIRMED
        for uid in sorted(missing):
            room = self.rooms.by_uid.get(uid)
            if room is not None and uid not in self._taking and not await self._reclaim(room):
                lost.add(uid)
        for uid in lost:
            room = self.rooms.by_uid.get(uid)
            if room is not None and uid not in self._taking:
                log.error("lost the lease of room %s (%s): dropped here", room.code, uid)
                self.rooms.drop(room)
                self._published.pop(uid, None)

    async def _publish(self) -> None:
        """Publish the summaries of the rooms that changed, and trim the journal tails the
        database holds."""
        changed = {
            uid: room.room_json()
            for uid, room in self.rooms.by_uid.items()
            if self._published.get(uid) != room.version and not room.closed
        }
        await self.cluster.publish(changed)
        for uid in changed:
            self._published[uid] = self.rooms.by_uid[uid].version
        for uid in [u for u in self._published if u not in self.rooms.by_uid]:
            del self._published[uid]
        stored, self._stored = self._stored, {}
        await self.cluster.trim_tails(stored)

    async def _reclaim(self, room: Room) -> bool:
        """Our lease of ``room`` is missing (Redis lost its data, or the lease expired
        unrenewed): take it again if nobody did, and keep the room only when the database's
        fence names this process or nobody (no other process took the room over since)."""
        if not await self.cluster.reclaim(room.uid, room.code, public=room.config.public, created=time.time()):
            return False
        fence = await self.store.room_fence(room.uid)
        if fence is not None and fence != self.cluster.me:
            await self.cluster.release([room.uid])
            return False
        log.warning("room %s (%s): its lease was missing in Redis; taken again", room.code, room.uid)
        self._published.pop(room.uid, None)  # publish its summary again
        return True

    async def _reap(self) -> None:
        """Take over the open rooms whose lease nobody holds; after Redis lost its data,
        first make the database's open rooms known to it again."""
        if await self.cluster.lost_data():
            log.warning("Redis lost its data: the open rooms of the database are registered again")
            await self.cluster.adopt(await self.store.live_room_codes())
        for uid in await self.cluster.free_rooms():
            if uid not in self.rooms.by_uid:
                await self.take(uid)


async def proxy(ws: WebSocket, target: Elsewhere, code: str, address: str, fleet: Fleet) -> bool:
    """Carry the client's WebSocket ``ws`` (accepted) to the owner's ``/ws/{code}`` and
    back until either side closes. Returns False when the owner cannot be reached (nothing
    was sent to the client then); True once the connection was carried."""
    url = "ws" + target.node.removeprefix("http") + f"/ws/{code}"
    headers = {PEER_HEADER: fleet.cluster.secret, PEER_CLIENT: address}
    try:
        up = await connect(url, additional_headers=headers, open_timeout=3, max_size=1 << 20, ping_interval=20)
    except (OSError, TimeoutError, websockets.WebSocketException):
        return False
    await _pipe(ws, up)
    return True


async def _pipe(ws: WebSocket, up: ClientConnection) -> None:
    async def down() -> None:
        async for message in up:
            if isinstance(message, str):
                await ws.send_text(message)
            else:
                await ws.send_bytes(message)

    async def upward() -> None:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            await up.send(text if text is not None else message.get("bytes") or b"")

    tasks = [asyncio.create_task(down()), asyncio.create_task(upward())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await up.close()
        # the owner went away (it stopped, died, or dropped the room): 1012 "service
        # restart" tells the client to reconnect, which lands where the room is played now
        with contextlib.suppress(Exception, WebSocketDisconnect):
            await ws.close(code=1012)


async def route_socket(fleet: Fleet, code: str) -> tuple[Room | Elsewhere | None, bool]:
    """:meth:`Fleet.route`, with Redis or the database failing reported as ``(None, False)``
    (the client is told to try again) instead of raising."""
    try:
        return await fleet.route(code), True
    except (RedisError, OSError, DBAPIError, SQLAlchemyTimeoutError) as exc:
        # Redis, or the database a room taken over is restored from, out of reach
        log.warning("cannot find room %s: %s", code[:16], type(exc).__name__)
        return None, False


async def carry(ws: WebSocket, fleet: Fleet, code: str, address: str, first: Elsewhere) -> Room | None:
    """Proxy ``ws`` to the owner of ``first``; when the owner cannot be reached (it died
    and its lease has not expired yet), wait for the lease to expire and route again: the
    room may now be played here (returned: serve it) or at another process (proxied)."""
    target: Room | Elsewhere | None = first
    for _ in range(4):
        if not isinstance(target, Elsewhere):
            return target
        if await proxy(ws, target, code, address, fleet):
            return None
        await wait_free(fleet.cluster, target.uid, target.owner, fleet.cluster.lease_seconds + 1.0)
        target, ok = await route_socket(fleet, code)
        if not ok:  # Redis or the database out of reach: the client tries again later
            await refuse_unavailable(ws)
            return None
    if isinstance(target, Room):
        return target
    await refuse_unavailable(ws)
    return None


async def refuse_unavailable(ws: WebSocket) -> None:
    """Tell the client the room cannot be reached just now, and close with 1013 ("try
    again later"): the client reconnects."""
    with contextlib.suppress(Exception, WebSocketDisconnect):
        await ws.send_json(
            error_message(
                "unavailable",
                "房间暂时连不上，请稍后再试。 / The room cannot be reached just now; try again shortly.",
            )
        )
        await ws.close(code=1013)


def _why(exc: BaseException) -> str:
    """An exception in a few words for a log line: its type and message."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

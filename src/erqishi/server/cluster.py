"""Several ``erqishi serve`` processes sharing one database and one Redis server
(``erqishi serve --redis URL``; docs/protocol.md, "Several processes").

Each room is owned by one process at a time through a lease in Redis: the key
``erqishi:lease:{uid}`` holds the owner (``NODE#INCARNATION``, where ``NODE`` is the
owner's advertised URL) and expires after ``lease_seconds`` unless the owner renews it,
which it does three times a lease. A process asked for a room it does not own proxies the
WebSocket to the owner (the client sees one server); when no process holds the lease (the
owner died, or stopped and released it), the process that is asked, or the first whose
periodic sweep finds it free, takes the lease and restores the room from the database
journal (:mod:`erqishi.server.durable`). The clients of the dead owner reconnect and land
there. A process that fails to renew a lease drops the room at once (someone else may own
it now); it never writes to that room's journal again.

Keys (all under ``erqishi:``): ``code:{CODE}`` → uid (while the room is open),
``rooms`` (the set of open rooms' uids), ``lease:{uid}``, ``holder:{uid}`` (the node that
last owned the room: after a crash it alone may replay its spool for that room),
``info:{uid}`` (the room summary, published by its owner), ``tail:{uid}`` (the journal
entries its owner wrote that the database may not hold yet, by ``seq``), ``public`` (a sorted set of
public rooms by creation time), ``secret`` (proves a proxied connection comes from a
peer) and ``epoch`` (set once: when it is missing, Redis lost its data).

Redis restarted empty (or flushed): the owners find their leases missing, not taken, and
take them again (:meth:`Cluster.reclaim`) when the database's fence of the room still names
them or nobody, re-registering each room's code; the first process to see ``epoch`` missing
makes every open room of the database known again (:meth:`Cluster.adopt`), so the rooms of
a process that died meanwhile are taken over as usual; ``secret`` is written back by every
process (the first one's stays). A Redis that loses its data loses no room: the journal
tails it held are in the database or in the owners' spools.

Nothing here knows the game: the rooms are :class:`~erqishi.server.room.Room` objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from erqishi.storage.live import LiveEntry

__all__ = ["ADOPTED", "Cluster", "RedisError"]

log = logging.getLogger("erqishi.server")

PREFIX = "erqishi:"
#: The value of a lease that :meth:`Cluster.adopt` holds for a room's owner.
ADOPTED = "adopted"

#: Take the lease when nobody holds it or an earlier incarnation of this node does
#: (that process is gone: this one answers at its address). KEYS[1] lease, ARGV: me,
#: my node prefix ("NODE#"), ttl ms. Returns 1 when taken.
_CLAIM = """
local v = redis.call('get', KEYS[1])
if v and v ~= ARGV[1] and string.sub(v, 1, string.len(ARGV[2])) ~= ARGV[2] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[3])
return 1
"""

#: Renew the leases still ours. KEYS: leases; ARGV: me, ttl ms. Returns the indexes of
#: the leases another process holds and of those nobody holds.
_RENEW = """
local taken, missing = {}, {}
for i, k in ipairs(KEYS) do
  local v = redis.call('get', k)
  if v == ARGV[1] then redis.call('pexpire', k, ARGV[2])
  elseif v and v ~= 'adopted' then table.insert(taken, i)
  else table.insert(missing, i) end
end
return {taken, missing}
"""

#: Take again a lease nobody holds or that :meth:`Cluster.adopt` holds for its owner.
#: KEYS[1] lease; ARGV: me, ttl ms. Returns 1 when taken.
_RECLAIM = """
local v = redis.call('get', KEYS[1])
if v and v ~= 'adopted' then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
return 1
"""

#: Delete the keys whose value is ARGV[1] (only our own leases).
_RELEASE = """
local n = 0
for _, k in ipairs(KEYS) do
  if redis.call('get', k) == ARGV[1] then redis.call('del', k); n = n + 1 end
end
return n
"""


class Cluster:
    """This process's handle on the shared Redis (see the module).

    Args:
        client: an open ``redis.asyncio`` client (decoded responses).
        node: this process's advertised URL (``http://host:port``): peers proxy to it.
        lease_seconds: how long a lease lasts without renewal.
    """

    def __init__(self, client: aioredis.Redis, node: str, lease_seconds: float) -> None:
        self.redis = client
        self.node = node.rstrip("/")
        self.me = f"{self.node}#{secrets.token_hex(6)}"
        self.ttl_ms = max(200, int(lease_seconds * 1000))
        self.lease_seconds = self.ttl_ms / 1000
        self.secret = ""
        self.sync: redis.Redis | None = None
        self._claim = client.register_script(_CLAIM)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._reclaim = client.register_script(_RECLAIM)

    @classmethod
    async def open(cls, url: str, node: str, lease_seconds: float) -> Cluster:
        """Connect to Redis at ``url`` and read (or make) the peers' shared secret.

        Raises:
            redis.exceptions.RedisError: Redis cannot be reached.
        """
        client = aioredis.from_url(url, decode_responses=True, socket_timeout=5, socket_connect_timeout=5)
        try:
            await client.set(PREFIX + "secret", secrets.token_urlsafe(24), nx=True)
            await client.set(PREFIX + "epoch", "start", nx=True)
            secret = await client.get(PREFIX + "secret")
        except BaseException:
            await client.aclose()
            raise
        cluster = cls(client, node, lease_seconds)
        cluster.secret = str(secret)
        # the journal's tail is copied with a blocking client, before the states that follow
        # from the entries are sent (a loopback round trip; a short timeout if Redis hangs)
        cluster.sync = redis.Redis.from_url(url, decode_responses=True, socket_timeout=0.5, socket_connect_timeout=0.5)
        return cluster

    async def close(self) -> None:
        await self.redis.aclose()
        if self.sync is not None:
            self.sync.close()

    def push_tail_now(self, entries: Iterable[LiveEntry]) -> None:
        """:meth:`push_tail`, blocking: the entries are in Redis when it returns, so a
        process that takes the room over after this one dies finds every entry whose state
        anyone was shown.

        Raises:
            redis.exceptions.RedisError: Redis did not take them (the database still will).
        """
        if self.sync is None:
            raise RedisError("no blocking connection to Redis")
        pipe = self.sync.pipeline(transaction=False)
        _queue_tail(pipe, entries)
        pipe.execute()

    # ------------------------------------------------------------------ peers

    def is_peer(self, proof: str | None) -> bool:
        """``proof`` (a proxied connection's header) is the peers' secret."""
        return bool(proof) and bool(self.secret) and hmac.compare_digest(str(proof), self.secret)

    @staticmethod
    def node_of(owner: str) -> str:
        """The node (URL) of a lease's value ``NODE#INCARNATION``."""
        return owner.rsplit("#", 1)[0]

    # ------------------------------------------------------------------ rooms

    async def register(self, code: str, uid: str, *, public: bool, created: float) -> bool:
        """Claim ``code`` for the new room ``uid`` and take its lease; False when another
        open room has that code."""
        if not await self.redis.set(PREFIX + f"code:{code}", uid, nx=True):
            return False
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(PREFIX + f"lease:{uid}", self.me, px=self.ttl_ms)
        await self._listed(pipe, uid, code, public=public, created=created)
        return True

    async def _listed(self, pipe: Any, uid: str, code: str, *, public: bool, created: float) -> None:
        """Run ``pipe`` with the keys that list our room ``uid`` added: its holder (this
        node), the open rooms, its code, the public rooms."""
        pipe.set(PREFIX + f"holder:{uid}", self.node)
        pipe.sadd(PREFIX + "rooms", uid)
        pipe.hset(PREFIX + "codes", uid, code)
        if public:
            pipe.zadd(PREFIX + "public", {uid: created})
        await pipe.execute()

    async def adopt(self, rooms: dict[str, tuple[str, bool, float]]) -> None:
        """Make the open rooms of the database journal known (``{uid: (code, public,
        created)}``): for rooms stored before Redis knew them (a new or emptied Redis).
        Each one's lease is held as ``adopted`` for one lease time, which only its owner may
        take (:meth:`reclaim`): a live owner keeps its room; the room of a dead one is free
        after that."""
        if not rooms:
            return
        known = set(await self.redis.smembers(PREFIX + "rooms"))
        pipe = self.redis.pipeline(transaction=False)
        for uid, (code, public, created) in rooms.items():
            if uid in known:
                continue
            pipe.set(PREFIX + f"code:{code}", uid, nx=True)
            pipe.set(PREFIX + f"lease:{uid}", "adopted", px=self.ttl_ms, nx=True)
            pipe.sadd(PREFIX + "rooms", uid)
            pipe.hset(PREFIX + "codes", uid, code)
            if public:
                pipe.zadd(PREFIX + "public", {uid: created})
        await pipe.execute()

    async def uid_of(self, code: str) -> str | None:
        """The uid of the open room with ``code``, or None."""
        found = await self.redis.get(PREFIX + f"code:{code}")
        return None if found is None else str(found)

    async def owner(self, uid: str) -> str | None:
        """Who holds the lease of ``uid`` (``NODE#INCARNATION``), or None."""
        found = await self.redis.get(PREFIX + f"lease:{uid}")
        return None if found is None else str(found)

    async def claim(self, uid: str) -> bool:
        """Take the lease of ``uid`` if nobody (or a dead incarnation of this node) holds
        it; True when it is ours now (then this node is its holder)."""
        taken = await self._claim(keys=[PREFIX + f"lease:{uid}"], args=[self.me, self.node + "#", self.ttl_ms])
        if int(taken) != 1:
            return False
        await self.redis.set(PREFIX + f"holder:{uid}", self.node)
        return True

    async def holders(self, uids: Iterable[str]) -> dict[str, str | None]:
        """The node that last owned each room."""
        keys = list(uids)
        if not keys:
            return {}
        found = await self.redis.mget([PREFIX + f"holder:{uid}" for uid in keys])
        return {uid: (None if h is None else str(h)) for uid, h in zip(keys, found, strict=True)}

    async def renew(self, uids: list[str]) -> tuple[set[str], set[str]]:
        """Renew the leases of ``uids``; returns those another process holds now and those
        nobody holds (expired, or Redis lost its data)."""
        taken: set[str] = set()
        missing: set[str] = set()
        for i in range(0, len(uids), 500):
            chunk = uids[i : i + 500]
            found = await self._renew(keys=[PREFIX + f"lease:{uid}" for uid in chunk], args=[self.me, self.ttl_ms])
            taken.update(chunk[int(j) - 1] for j in found[0])
            missing.update(chunk[int(j) - 1] for j in found[1])
        return taken, missing

    async def reclaim(self, uid: str, code: str, *, public: bool, created: float) -> bool:
        """Take again the lease of our room ``uid`` that nobody holds (Redis lost it, or it
        expired unrenewed) and register the room again (its code, the open rooms, the
        holder); False when another process took the lease or the code first. The caller
        checks the database's fence before keeping the room."""
        if int(await self._reclaim(keys=[PREFIX + f"lease:{uid}"], args=[self.me, self.ttl_ms])) != 1:
            return False
        await self.redis.set(PREFIX + f"code:{code}", uid, nx=True)
        if await self.redis.get(PREFIX + f"code:{code}") != uid:
            await self.release([uid])
            return False
        await self._listed(self.redis.pipeline(transaction=False), uid, code, public=public, created=created)
        return True

    async def lost_data(self) -> bool:
        """True once after Redis lost its data (``epoch`` missing: it is set again now);
        writes back the peers' shared secret (the first process's stays) and reads it."""
        fresh = bool(await self.redis.set(PREFIX + "epoch", self.me, nx=True))
        await self.redis.set(PREFIX + "secret", self.secret, nx=True)
        self.secret = str(await self.redis.get(PREFIX + "secret") or self.secret)
        return fresh

    async def release(self, uids: Iterable[str]) -> None:
        """Give up our leases of ``uids`` (a peer may take them at once)."""
        keys = [PREFIX + f"lease:{uid}" for uid in uids]
        for i in range(0, len(keys), 500):
            await self._release(keys=keys[i : i + 500], args=[self.me])

    async def forget(self, uid: str) -> None:
        """The room is closed: nobody restores it again."""
        found = await self.redis.hget(PREFIX + "codes", uid)
        code = None if found is None else str(found)
        pipe = self.redis.pipeline(transaction=False)
        pipe.srem(PREFIX + "rooms", uid)
        pipe.hdel(PREFIX + "codes", uid)
        pipe.zrem(PREFIX + "public", uid)
        pipe.delete(PREFIX + f"info:{uid}", PREFIX + f"holder:{uid}", PREFIX + f"tail:{uid}")
        await pipe.execute()
        if code is not None:
            await self._release(keys=[PREFIX + f"code:{code}"], args=[uid])
        await self.release([uid])

    async def free_rooms(self) -> list[str]:
        """The open rooms whose lease nobody holds (their owner died or stopped)."""
        uids = sorted(str(u) for u in await self.redis.smembers(PREFIX + "rooms"))
        if not uids:
            return []
        free: list[str] = []
        for i in range(0, len(uids), 500):
            chunk = uids[i : i + 500]
            held = await self.redis.mget([PREFIX + f"lease:{uid}" for uid in chunk])
            free += [uid for uid, h in zip(chunk, held, strict=True) if h is None]
        return free

    # ------------------------------------------------------------------ journal tails

    async def push_tail(self, entries: list[LiveEntry]) -> None:
        """Copy journal entries to their rooms' tails (``tail:{uid}``, by ``seq``)."""
        pipe = self.redis.pipeline(transaction=False)
        _queue_tail(pipe, entries)
        await pipe.execute()

    async def trim_tails(self, stored: dict[str, int]) -> None:
        """Drop from the tails the entries the database holds (up to each ``seq``)."""
        if not stored:
            return
        pipe = self.redis.pipeline(transaction=False)
        for room, seq in stored.items():
            pipe.zremrangebyscore(PREFIX + f"tail:{room}", "-inf", seq)
        await pipe.execute()

    async def tail(self, uid: str, after: int, owner: str | None) -> list[LiveEntry]:
        """The entries of ``uid``'s tail past ``seq`` ``after`` that follow it without a
        gap, written by ``owner`` (any writer when None)."""
        found = await self.redis.zrangebyscore(PREFIX + f"tail:{uid}", f"({after}", "+inf")
        out: list[LiveEntry] = []
        for line in found:
            try:
                entry = LiveEntry.from_json(json.loads(line if isinstance(line, str | bytes) else ""))
            except ValueError:
                continue
            if owner is not None and entry.owner != owner:
                continue
            if entry.seq == after + len(out) + 1:
                out.append(entry)
            elif entry.seq > after + len(out) + 1:
                break
        return out

    # ------------------------------------------------------------------ summaries

    async def publish(self, infos: dict[str, dict[str, Any]]) -> None:
        """Store the summaries (the ``room`` object) of rooms this process owns, for the
        peers' ``GET /api/rooms/{code}`` and ``GET /api/rooms``."""
        if not infos:
            return
        pipe = self.redis.pipeline(transaction=False)
        ttl = max(60_000, 4 * self.ttl_ms)
        for uid, info in infos.items():
            pipe.set(PREFIX + f"info:{uid}", json.dumps(info, ensure_ascii=False), px=ttl)
        await pipe.execute()

    async def info(self, uid: str) -> dict[str, Any] | None:
        """The last published summary of ``uid``, or None."""
        found = await self.redis.get(PREFIX + f"info:{uid}")
        return None if found is None else dict(json.loads(found))

    async def public(self, limit: int = 100) -> list[dict[str, Any]]:
        """The summaries of the newest public rooms, newest first."""
        uids = [str(u) for u in await self.redis.zrevrange(PREFIX + "public", 0, limit - 1)]
        if not uids:
            return []
        found = await self.redis.mget([PREFIX + f"info:{uid}" for uid in uids])
        return [dict(json.loads(f)) for f in found if f is not None]

    async def public_codes(self, codes: Iterable[str]) -> set[str]:
        """Which of ``codes`` name an open public room."""
        wanted = sorted(set(codes))
        if not wanted:
            return set()
        uids = await self.redis.mget([PREFIX + f"code:{c}" for c in wanted])
        pipe = self.redis.pipeline(transaction=False)
        pairs = [(c, u) for c, u in zip(wanted, uids, strict=True) if u is not None]
        for _, uid in pairs:
            pipe.zscore(PREFIX + "public", uid)
        scores = await pipe.execute() if pairs else []
        return {c for (c, _), s in zip(pairs, scores, strict=True) if s is not None}


def check_redis(url: str, timeout: float = 5.0) -> None:
    """Check that the Redis server at ``url`` answers (``erqishi serve --redis`` asks before
    it starts, so a wrong URL is one line, not a failed start-up).

    Raises:
        ConnectionError: it does not answer within ``timeout`` seconds, or ``url`` is no
            Redis URL; the message says why.
    """
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError) as exc:
        raise ConnectionError(str(exc)) from None


async def wait_free(cluster: Cluster, uid: str, owner: str, timeout: float) -> bool:
    """Wait until the lease of ``uid`` no longer names ``owner`` (it expired, or someone
    took it), up to ``timeout`` seconds; True when it changed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(RedisError):
            if await cluster.owner(uid) != owner:
                return True
        await asyncio.sleep(0.1)
    return False


def _queue_tail(pipe: Any, entries: Iterable[LiveEntry]) -> None:
    """Queue on a Redis pipeline (blocking or asyncio) the copy of ``entries`` to their
    rooms' tails (``tail:{uid}``, scored by ``seq``), each tail kept a day."""
    rooms = set()
    for entry in entries:
        line = json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":"))
        pipe.zadd(PREFIX + f"tail:{entry.room}", {line: entry.seq})
        rooms.add(entry.room)
    for room in rooms:
        pipe.expire(PREFIX + f"tail:{room}", 86400)

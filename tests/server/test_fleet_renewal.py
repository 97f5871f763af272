"""A process's lease renewals run on a loop of their own (erqishi.server.fleet): publishing
the rooms' summaries, however slow, never delays a renewal. When both were one loop, a
renewal waited for the last round's publishing (round trips to Redis that wait behind every
table's work on a saturated event loop), came late, and the process dropped rooms whose
leases were still its own (RoomManager.unconfirmed), which the other process then took over
(``benchmarks/web_load.py --tables 600 --processes 2``: 199 rooms dropped in 40 s, 281
players' sockets closed). Here one real Redis, one process's fleet in this event loop, and
its summaries' publishing made slower than the part of a lease a renewal must be answered
in: the room stays, its lease stays this process's, and the renewals go on."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erqishi.server.cluster import Cluster
from erqishi.server.fleet import CONFIRMED, Fleet
from erqishi.server.protocol import CreateRoom
from erqishi.server.room import RoomManager
from erqishi.server.settings import PROTOCOL_VERSION, Settings
from erqishi.storage.store import Store
from support.redisproc import running_redis

LEASE = 1.0


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with running_redis(tmp_path / "redis") as url:
        yield url


async def test_a_slow_publish_never_delays_a_renewal(redis_url: str, tmp_path: Path) -> None:
    settings = Settings(seed=1, lease_seconds=LEASE)
    cluster = await Cluster.open(redis_url, "http://127.0.0.1:9", LEASE)
    rooms = RoomManager(settings, None)
    store = await Store.open(str(tmp_path / "db.sqlite"))
    fleet = Fleet(cluster, rooms, store, settings)
    code, uid = await fleet.create_code(public=False)
    room = rooms.create(CreateRoom(v=PROTOCOL_VERSION), code, uid)
    publishing = 0

    real_publish = cluster.publish

    async def slow_publish(infos: dict[str, dict[str, Any]]) -> None:
        nonlocal publishing
        publishing += 1
        await asyncio.sleep(3 * LEASE)  # far past the confirmed part of a lease
        await real_publish(infos)

    cluster.publish = slow_publish  # type: ignore[method-assign]
    renewed: list[float] = []
    real_renew = cluster.renew

    async def counted_renew(uids: list[str]) -> tuple[set[str], set[str]]:
        found = await real_renew(uids)
        renewed.append(asyncio.get_running_loop().time())
        return found

    cluster.renew = counted_renew  # type: ignore[method-assign]
    room.version += 1  # a change to publish
    fleet.start()
    try:
        await asyncio.sleep(4 * LEASE)
        assert publishing >= 1  # the slow publish was under way all along
        assert rooms.by_uid.get(uid) is room, "the room was dropped while its lease was this process's"
        assert fleet._confirmed()
        # renewals every quarter lease, never a gap as long as the confirmed part
        gaps = [b - a for a, b in itertools.pairwise(renewed)]
        assert len(renewed) >= 8 and max(gaps) < CONFIRMED * LEASE, renewed
        assert await cluster.owner(uid) == cluster.me  # the lease is still this process's
    finally:
        tasks = [t for t in (getattr(fleet, name, None) for name in ("_task", "_publisher", "_reaper")) if t]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        rooms.close()
        await cluster.close()
        await store.close()

"""A room's timed work (a refresh, a bot's move…) runs as a task of the room; a task the
server cancels before it ran (stopping) closes its work unrun: no "coroutine … was never
awaited" warning at shutdown (one was printed by a server stopped under load)."""

from __future__ import annotations

import asyncio
import gc
import warnings

from erqishi.server.protocol import CreateRoom
from erqishi.server.room import RoomManager
from erqishi.server.settings import PROTOCOL_VERSION, Settings


async def _spawn_and_cancel() -> None:
    rooms = RoomManager(Settings(seed=1), None)
    room = rooms.create(CreateRoom(v=PROTOCOL_VERSION))
    room._spawn(room.refresh())
    tasks = list(room.tasks)
    assert tasks
    for task in tasks:
        task.cancel()  # as the server's loop does when it stops
    await asyncio.gather(*tasks, return_exceptions=True)
    rooms.close()


async def test_work_cancelled_before_it_ran_is_closed_without_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await _spawn_and_cancel()
        await asyncio.sleep(0)
        gc.collect()
    assert not [w for w in caught if "never awaited" in str(w.message)]

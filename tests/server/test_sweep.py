"""Rooms leave the server's memory (issue: finished rooms released promptly, the soak's
flat memory): a room whose match is over and whose hands are stored is dropped
``finished_room_seconds`` after its last person left; a room in the middle of a match, or
one where someone is still connected, is kept (its players may come back for an hour)."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from pathlib import Path

import httpx

from erqishi.play import Table
from erqishi.server.settings import Settings
from support.webclient import Client, create_room, play_randomly
from support.webserver import RunningServer, running_server


def _quick(tmp_path: Path, seed: int, finished_room_seconds: float) -> Settings:
    """Bots at once, no rate limit, a sweep every 0.1 s."""
    return Settings(
        db_url=str(tmp_path / "web.db"),
        seed=seed,
        bot_delay=0.0,
        rate_per_second=1e4,
        rate_burst=1e4,
        next_hand_seconds=0.2,
        finished_room_seconds=finished_room_seconds,
        sweep_seconds=0.1,
    )


async def _finish_a_match(srv: RunningServer, code: str, seed: int) -> Client:
    host = await Client(srv.ws_url, code, "host").connect()
    await host.send({"v": 2, "type": "sit", "seat": 0})
    await host.send({"v": 2, "type": "bots"})
    await host.wait_for(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    await host.send({"v": 2, "type": "start"})
    final = await play_randomly(host, random.Random(seed), seat=0, sit=False)
    assert final["game"]["match_over"] is not None
    return host


async def test_finished_rooms_are_released_soon_and_others_kept(tmp_path: Path) -> None:
    settings = _quick(tmp_path, 6, finished_room_seconds=0.5)
    with running_server(settings) as srv:
        left = await create_room(srv.url, match_quan=1, bots="random")
        stayed = await create_room(srv.url, match_quan=1, bots="random")
        waiting = await create_room(srv.url, match_quan=1, bots="random")
        host = await _finish_a_match(srv, left, 1)
        await host.close()
        friend = await _finish_a_match(srv, stayed, 2)  # still connected after the match
        visitor = await Client(srv.ws_url, waiting, "visitor").connect()
        await visitor.send({"v": 2, "type": "sit", "seat": 1})
        await visitor.wait_for(lambda m: m["type"] == "state" and m["you"]["seat"] == 1)
        await visitor.close()  # left in the lobby: it may come back
        async with asyncio.timeout(10):
            while srv.rooms.get(left) is not None:
                await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # two finished_room_seconds more: the others are still there
        assert srv.rooms.get(stayed) is not None and srv.rooms.get(waiting) is not None
        # both finished matches are in the history, finished, with their hands (the room
        # codes of private rooms are not listed)
        async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
            matches = (await http.get("/api/matches")).json()["matches"]
            done = [m for m in matches if m["finished"] is not None and m["leaders"] and m["hands"] >= 1]
            assert len(done) == 2, matches
            assert (await http.get(f"/api/rooms/{left}")).status_code == 404
            assert (await http.get(f"/api/rooms/{waiting}")).status_code == 200
        await friend.close()
        async with asyncio.timeout(10):
            while srv.rooms.get(stayed) is not None:
                await asyncio.sleep(0.05)
        assert srv.rooms.get(waiting) is not None


async def test_a_dropped_room_is_freed_without_the_cycle_collector(tmp_path: Path) -> None:
    """``erqishi serve`` runs full collections rarely (gc.freeze, a high third threshold), so
    a dropped room must not hang in a reference cycle (its clock holding its room, …): the
    soak's memory grew by every room dropped until a full collection. With the collector
    off, the room and its table are gone as soon as the server lets go of them."""
    settings = _quick(tmp_path, 9, finished_room_seconds=0.3)
    with running_server(settings) as srv:
        codes = [await create_room(srv.url, match_quan=1, bots=level) for level in ("heuristic", "search")]
        rooms, tables = [], set()
        gc.collect()
        gc.disable()
        try:
            for seed, code in enumerate(codes):
                host = await _finish_a_match(srv, code, seed)
                room = srv.rooms.get(code)
                assert room is not None and room.table is not None
                rooms.append(weakref.ref(room))
                tables.add(id(room.table))  # (the compiled Table takes no weak reference)
                del room
                await host.close()
            async with asyncio.timeout(10):
                while any(srv.rooms.get(code) is not None for code in codes):
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)  # (its last tasks end)
            assert [r() is None for r in rooms] == [True] * len(rooms)
            assert [o for o in gc.get_objects() if type(o) is Table and id(o) in tables] == []
        finally:
            gc.enable()

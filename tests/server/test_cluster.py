"""Several server processes (docs/protocol.md, "Several processes"): three real
``erqishi serve --redis`` processes share one PostgreSQL schema and one real Redis server
of the test's own. Players connect to any of them (a process that does not own the room
proxies to the one that does); one process is killed (``kill -9``) in the middle of the
matches; its rooms' leases expire, the surviving processes take them over from the
database journal, the players reconnect to a surviving process and every match finishes,
stored once with every hand. The killed process, started again, finds its rooms taken and
sets its spool's entries for them aside instead of forking their journals.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import redis
import websockets

from server.test_durable import Person, check_history
from support.redisproc import running_redis
from support.serveproc import ServeProcess
from support.sql import rows
from support.webclient import Client, create_room

ARGS = ["--bot-delay", "0.03", "--response-seconds", "30", "--turn-seconds", "30", "--grace-seconds", "30"]
LEASE = 2.5


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with running_redis(tmp_path / "redis") as url:
        yield url


class Pool:
    """The processes a player may reach (as behind a load balancer): each connection goes
    to one of those running, chosen at random."""

    def __init__(self, servers: list[ServeProcess], rng: random.Random) -> None:
        self.servers, self.rng = servers, rng

    @property
    def ws_url(self) -> str:
        alive = [s for s in self.servers if s.proc is not None and s.proc.poll() is None]
        return self.rng.choice(alive).ws_url


def leases(url: str) -> dict[str, str]:
    """Room code → the node (URL) holding its lease."""
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        codes = client.hgetall("erqishi:codes")
        held = {uid: client.get(f"erqishi:lease:{uid}") for uid in codes}
        return {codes[uid]: str(v).rsplit("#", 1)[0] for uid, v in held.items() if v is not None}
    finally:
        client.close()


async def test_rooms_carry_on_when_their_process_is_killed(
    postgres_schema_url: str, redis_url: str, tmp_path: Path
) -> None:
    servers = []
    for i in range(3):
        port_srv = ServeProcess(postgres_schema_url, [], tmp_path / f"serve{i}.log")
        port_srv.args = [
            *ARGS,
            "--seed",
            str(20 + i),
            "--redis",
            redis_url,
            "--advertise",
            port_srv.url,
            "--lease-seconds",
            str(LEASE),
            "--spool",
            str(tmp_path / f"spool{i}"),
        ]
        servers.append(port_srv)
    try:
        for srv in servers:  # one after the other: the first creates the schema
            await asyncio.to_thread(srv.start)
        secret = urlsplit(postgres_schema_url).password
        for srv in servers:  # the database URL went in ERQISHI_DB: no password in ps
            assert srv.proc is not None and secret
            assert secret.encode() not in Path(f"/proc/{srv.proc.pid}/cmdline").read_bytes()
        # rooms made at each process; one is public
        codes = []
        for i in range(4):
            codes.append(await create_room(servers[i % 3].url, match_quan=1, bots="heuristic", public=i == 0))
        async with httpx.AsyncClient(timeout=10) as http:
            for srv in servers:  # every process answers for every room, and lists the public one
                for code in codes:
                    got = await http.get(f"{srv.url}/api/rooms/{code}")
                    assert got.status_code == 200 and got.json()["code"] == code, got.text
                listed = (await http.get(f"{srv.url}/api/rooms")).json()["rooms"]
                assert [r["code"] for r in listed] == [codes[0]]
            assert (await http.get(f"{servers[1].url}/api/rooms/ZZZZZZ")).status_code == 404
        # a spectator at a process that does not own the room is proxied to its owner
        watcher = await Client(servers[1].ws_url, codes[0], "watcher").connect()
        assert watcher.token
        await watcher.ws.close()

        rng = random.Random(7)
        pool = Pool(servers, rng)
        people = [Person(pool, code, i % 3, random.Random(i)) for i, code in enumerate(codes)]  # type: ignore[arg-type]
        tasks = [asyncio.create_task(p.play()) for p in people]
        # the matches are under way; kill the process that owns the most rooms
        await asyncio.sleep(1.5)
        before = leases(redis_url)
        busiest, count = Counter(before.values()).most_common(1)[0]
        orphans = {code for code, node in before.items() if node == busiest}
        victim = next(s for s in servers if s.url == busiest)
        victim.kill()
        async with asyncio.timeout(120):
            finals = await asyncio.gather(*tasks)
        assert count >= 2 and all(p.connects > 1 for p in people if p.code in orphans)
        after = leases(redis_url)
        assert busiest not in after.values() and set(after) == set(codes), after
        # every move a player was shown is still there where the room carries on (what the
        # database had not taken yet came from the journal's tail in Redis), every match
        # finished and is stored once with every hand
        print(f"killed {busiest} owning {count} of {len(codes)} rooms; all carried on")
        await check_history(postgres_schema_url, people, finals)
        # the killed process comes back: it owns none of its old rooms, and whatever its
        # spool held for them is set aside (never written into the journals of their new owners)
        await asyncio.to_thread(victim.start)
        async with httpx.AsyncClient(timeout=10) as http:
            for code in codes:
                got = await http.get(f"{victim.url}/api/rooms/{code}")
                assert got.status_code == 200 and got.json()["status"] == "finished", got.text
        await check_history(postgres_schema_url, people, finals)
        for srv in servers:
            assert "Traceback" not in srv.log_text(), srv.log_text()[-3000:]
        matches = rows(postgres_schema_url, "SELECT room FROM web_matches")
        assert sorted(r[0] for r in matches) == sorted(codes)
        rejected = tmp_path / f"spool{servers.index(victim)}" / "rejected.jsonl"
        if rejected.exists():  # only "moved" entries, never a refusal of the database
            for line in rejected.read_text().splitlines():
                assert json.loads(line)["error"] == "the room moved to another server process"
    finally:
        for srv in servers:
            srv.kill()


async def test_the_fence_refuses_a_former_owner(tmp_path: Path) -> None:
    """Once a process takes a room over (its fence in the database), entries of the former
    owner are refused; the new owner's are stored; a process alone (no owner) is never fenced."""
    from erqishi.storage import Store, upgrade
    from erqishi.storage.live import FencedError, LiveEntry

    db = str(tmp_path / "fence.db")
    upgrade(db)
    store = await Store.open(db)
    try:
        await store.apply_live([LiveEntry("r1", 1, "lobby", {"slots": []}, "http://a#1")])
        assert await store.take_room("r1", "http://b#1") == "http://a#1"
        with pytest.raises(FencedError, match="owned by http://b#1"):
            await store.apply_live([LiveEntry("r1", 2, "lobby", {"slots": [1]}, "http://a#1")])
        await store.apply_live([LiveEntry("r1", 2, "lobby", {"slots": [2]}, "http://b#1")])
        await store.apply_live([LiveEntry("r1", 3, "declared", {}, None)])
        [live] = await store.live_rooms(["r1"])
        assert [e.seq for e in live.entries] == [2, 3] and live.entries[0].data == {"slots": [2]}
        assert await store.live_rooms(["nobody"]) == []
    finally:
        await store.close()


def _processes(tmp_path: Path, seed: int, links: list[tuple[str, str]]) -> list[ServeProcess]:
    """One ``erqishi serve --redis`` process per ``(database URL, Redis URL)`` of ``links``
    (either may go through a relay), each with its spool, seeds from ``seed`` on."""
    servers = []
    for i, (db, redis_at) in enumerate(links):
        srv = ServeProcess(db, [], tmp_path / f"serve{i}.log")
        srv.args = [*ARGS, "--seed", str(seed + i), "--redis", redis_at, "--advertise", srv.url,
                    "--lease-seconds", str(LEASE), "--spool", str(tmp_path / f"spool{i}")]  # fmt: skip
        servers.append(srv)
    return servers


async def test_rooms_carry_on_when_redis_loses_its_data(
    postgres_schema_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Redis restarted empty (here: FLUSHALL) in the middle of the matches: each owner finds
    its leases missing, not taken, and takes them again; the rooms stay where they are, no
    player is cut off, every match finishes and is stored once with every hand."""
    servers = _processes(tmp_path, 40, [(postgres_schema_url, redis_url)] * 2)
    try:
        for srv in servers:
            await asyncio.to_thread(srv.start)
        codes = [await create_room(servers[i % 2].url, match_quan=1, bots="heuristic") for i in range(3)]
        pool = Pool(servers, random.Random(3))
        people = [Person(pool, code, i % 3, random.Random(50 + i)) for i, code in enumerate(codes)]  # type: ignore[arg-type]
        tasks = [asyncio.create_task(p.play()) for p in people]
        await asyncio.sleep(1.5)
        before = leases(redis_url)
        assert set(before) == set(codes), before
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            # flushed and counted in one transaction: an owner republishing its summary a
            # moment later must not make the check itself racy
            flushed, size = client.pipeline(transaction=True).flushall().dbsize().execute()
            assert flushed and size == 0
        finally:
            client.close()
        async with asyncio.timeout(120):
            finals = await asyncio.gather(*tasks)
        # every room kept its owner: nobody took a room over, nobody had to reconnect
        assert leases(redis_url) == before
        assert all(p.connects == 1 for p in people), [p.connects for p in people]
        async with httpx.AsyncClient(timeout=10) as http:  # the codes answer again at every process
            for srv in servers:
                for code in codes:
                    # (another process's summary is the one its owner republishes every second)
                    async with asyncio.timeout(10):
                        while True:
                            got = await http.get(f"{srv.url}/api/rooms/{code}")
                            assert got.status_code == 200, got.text
                            if got.json()["status"] == "finished":
                                break
                            await asyncio.sleep(0.2)
        await check_history(postgres_schema_url, people, finals)
        for srv in servers:
            text = srv.log_text()
            assert "Traceback" not in text, text[-3000:]
            assert "dropped here" not in text, text[-3000:]
    finally:
        for srv in servers:
            srv.kill()


class _Relay:
    """A TCP relay (to Redis or PostgreSQL) that the test can cut and restore: one process
    reaches the service only through it, as across a network link that fails, silently
    (``cut``: what is sent is lost, no connection is refused or reset) or with the far end
    down (:meth:`go_down`), while everything else still reaches that process."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cut = False
        self.refuse = False  # the far end is down: connections are refused or reset at once
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        """Listen on a free loopback port: the port."""
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refuse:
            writer.close()
            return
        self.writers.append(writer)
        while self.cut:  # a connection made while the link is down hangs
            if not await reader.read(65536):
                writer.close()
                return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.close()
            return
        self.writers.append(up_writer)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    if not self.cut:  # while the link is down, what is sent is lost
                        dst.write(data)
                        await dst.drain()
            except OSError:
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def go_down(self) -> None:
        """The far end is down: every connection is closed, new ones refused."""
        self.refuse = True
        for w in self.writers:
            w.close()
        self.writers.clear()

    def restore(self) -> None:
        """The link is up again: the connections that lost data are closed (their replies
        are out of step), new ones go through."""
        self.cut = self.refuse = False
        for w in self.writers:
            w.close()
        self.writers.clear()

    async def close(self) -> None:
        self.restore()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def test_a_process_cut_off_from_redis_shows_nothing_it_may_have_lost(
    postgres_schema_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Process A reaches Redis through a link that fails for longer than a lease while its
    players and the database still reach it; process B takes its rooms over when their
    leases expire. A stops showing its rooms' moves before that can happen (it cannot
    confirm its leases: it drops the rooms), so no player is ever shown a move or a hand
    that is then lost: every story each player saw goes on where the room carries on, and
    every match finishes, stored once with every hand (before, A played on for the whole
    cut and about three finished hands a room were thrown away)."""
    target = urlsplit(redis_url)
    relay = _Relay(target.hostname or "127.0.0.1", target.port or 6379)
    via_relay = f"redis://127.0.0.1:{await relay.start()}/0"
    servers = _processes(tmp_path, 60, [(postgres_schema_url, via_relay), (postgres_schema_url, redis_url)])
    try:
        for srv in servers:
            await asyncio.to_thread(srv.start)
        cut_off = servers[0]
        codes = [await create_room(cut_off.url, match_quan=1, bots="heuristic") for _ in range(2)]
        pool = Pool([cut_off], random.Random(5))  # A's players reach A only
        people = [Person(pool, code, i % 3, random.Random(70 + i)) for i, code in enumerate(codes)]  # type: ignore[arg-type]
        tasks = [asyncio.create_task(p.play()) for p in people]
        await asyncio.sleep(2.0)
        assert set(leases(redis_url).values()) == {cut_off.url}
        relay.cut = True
        await asyncio.sleep(3 * LEASE)  # B takes the rooms over meanwhile
        moved = leases(redis_url)
        relay.restore()
        async with asyncio.timeout(120):
            finals = await asyncio.gather(*tasks)
        assert set(moved) == set(codes) and set(moved.values()) == {servers[1].url}, moved
        assert all(not p.broken for p in people), [p.broken for p in people]
        await check_history(postgres_schema_url, people, finals)
        text = cut_off.log_text()
        assert "not confirmed in time: dropped here" in text, text[-3000:]
        assert "Traceback" not in text, text[-3000:]
    finally:
        for srv in servers:
            srv.kill()
        await relay.close()


async def test_a_room_whose_owner_died_while_the_database_is_down_says_try_again(
    postgres_schema_url: str, redis_url: str, tmp_path: Path
) -> None:
    """The owner of a room is killed while the other process cannot reach the database: a
    player reconnecting there cannot have the room restored yet, and is told so
    (``unavailable``, close 1013, "try again later"), with one log line instead of a
    traceback and a silent close; once the database is back the room is restored there and
    the match finishes, every hand the player saw kept."""
    parts = urlsplit(postgres_schema_url)
    relay = _Relay(parts.hostname or "127.0.0.1", parts.port or 5432)
    via_port = await relay.start()
    through_relay = parts._replace(netloc=f"{parts.netloc.rsplit('@', 1)[0]}@127.0.0.1:{via_port}").geturl()
    servers = _processes(tmp_path, 80, [(postgres_schema_url, redis_url), (through_relay, redis_url)])
    try:
        for srv in servers:
            await asyncio.to_thread(srv.start)
        owner, other = servers
        code = await create_room(owner.url, match_quan=1, bots="heuristic")
        person = Person(Pool(servers, random.Random(9)), code, 0, random.Random(90))  # type: ignore[arg-type]
        task = asyncio.create_task(person.play())
        await asyncio.sleep(1.5)
        relay.go_down()
        owner.kill()
        told = silent = 0
        deadline = asyncio.get_running_loop().time() + 3 * LEASE
        while asyncio.get_running_loop().time() < deadline:  # a player of its own asks the other process
            try:
                client = await Client(other.ws_url, code, "visitor").connect(hello=False)
            except (OSError, ConnectionError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.2)
                continue
            try:
                got = await client.wait_for(lambda m: m["type"] == "error", timeout=5)
            except ConnectionError:  # closed without a word
                got = {}
                silent += 1
            except (TimeoutError, websockets.WebSocketException):
                got = {}
            finally:
                await client.ws.close()
            if got.get("type") == "error":
                assert got["code"] == "unavailable", got
                told += 1
            await asyncio.sleep(0.3)
        relay.restore()
        async with asyncio.timeout(120):
            final = await task
        assert told > 0 and silent == 0, (told, silent)
        assert not person.broken, person.broken
        await check_history(postgres_schema_url, [person], [final])
        text = other.log_text()
        assert "Traceback" not in text and "Exception in ASGI application" not in text, text[-3000:]
    finally:
        for srv in servers:
            srv.kill()
        await relay.close()

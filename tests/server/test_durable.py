"""Durable rooms (docs/protocol.md, "Durable rooms"): a real ``erqishi serve`` process is
killed (``kill -9``) at random moments during several matches and started again; the
players reconnect with their seat tokens and play on. Every move a player was shown is
still there after each restart, every match finishes and is in the history exactly once
with every hand, and the database is sound. With PostgreSQL unreachable while the server
is killed, what it could not store comes back from the spool.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy.engine import make_url

from erqishi.play.replay import replay
from erqishi.records import HandRecord, MatchRecord, parse_record, verify
from erqishi.server.settings import Settings
from erqishi.storage import database_urls
from support.serveproc import Proxy, ServeProcess
from support.sql import as_json, rows
from support.webclient import Client, create_room, play_step
from support.webserver import RunningServer, running_server

#: Bots pause 50 ms, so that a match lasts a few seconds and the kills land inside hands.
ARGS = ["--bot-delay", "0.05", "--response-seconds", "30", "--turn-seconds", "30", "--grace-seconds", "30"]
#: What of an event a player's log and the stored record must agree on.
KEYS = ("event", "step", "seat", "card", "take", "from", "source", "kind", "payments")


def story(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(json.dumps(e.get(k), sort_keys=True) for k in KEYS) for e in events]


class Person:
    """A player at one seat, across restarts of the server: plays random legal actions,
    reconnects with its token whenever the connection drops, and keeps the longest story
    of each hand it was shown (each later one must begin with it)."""

    def __init__(self, srv: ServeProcess | RunningServer, code: str, seat: int, rng: random.Random) -> None:
        self.srv, self.code, self.seat, self.rng = srv, code, seat, rng
        self.token: str | None = None
        self.seen: dict[int, list[tuple[Any, ...]]] = {}
        self.declared: tuple[int, int, str] | None = None  # (hand, step, action) last shown declared
        self.broken: list[str] = []
        self.connects = 0

    def note(self, state: dict[str, Any], *, first: bool) -> None:
        game = state["game"]
        if game is None:
            return
        hand, now = game["hand"], story(game["log"])
        before = self.seen.get(hand, [])
        if now[: len(before)] != before:
            self.broken.append(f"hand {hand}: the story shown before is not the start of the story now")
        if len(now) >= len(before):
            self.seen[hand] = now
        again = first and self.declared is not None and self.declared[:2] == (hand, game["step"])
        if again and state["room"]["status"] == "playing" and game["declared"] != self.declared[2]:  # type: ignore[index]
            self.broken.append(f"hand {hand} step {game['step']}: the declaration {self.declared} was lost")
        if game["declared"] is not None:
            self.declared = (hand, game["step"], game["declared"])

    async def play(self) -> dict[str, Any]:
        while True:
            try:
                client = await Client(self.srv.ws_url, self.code, f"p{self.seat}", self.token).connect()
            except (OSError, ConnectionError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.1)
                continue
            self.token = client.token
            self.connects += 1
            try:
                return await self._play(client)
            except (ConnectionError, TimeoutError, websockets.WebSocketException):
                continue
            finally:
                await client.ws.close()

    async def _play(self, client: Client) -> dict[str, Any]:
        answered: set[tuple[int, int]] = set()
        readied: set[int] = set()
        seen, first = 0, True
        while True:
            state = await client.wait_for(lambda m: m["type"] == "state", timeout=20, start=seen)
            seen = client.messages.index(state, seen) + 1
            self.note(state, first=first)
            first = False
            if any(m["type"] == "state" for m in client.messages[seen:]):
                continue
            room = state["room"]
            if room["status"] == "lobby":
                if self.connects == 1 and state["you"]["seat"] is None:
                    await client.send({"v": 2, "type": "sit", "seat": self.seat})
                    await client.send({"v": 2, "type": "bots"})
                    await client.send({"v": 2, "type": "start"})
                continue
            if await play_step(client, state, self.rng, readied, answered):
                return state


async def check_history(url: str, people: list[Person], finals: list[dict[str, Any]]) -> None:
    """Each room's match is stored once, finished, with every hand in order; its record
    verifies to the totals the players saw; every story a player was shown is the start
    of the stored hand's story."""
    # the end of a match is in the spool before anyone is told; the database has it a
    # moment later (the writer's queue)
    async with asyncio.timeout(20):
        while any(
            not rows(url, "SELECT 1 FROM web_matches WHERE room = :r AND finished IS NOT NULL", r=p.code)
            for p in people
        ):
            await asyncio.sleep(0.1)
    for person, final in zip(people, finals, strict=True):
        matches = rows(url, "SELECT id, finished, totals, record FROM web_matches WHERE room = :r", r=person.code)
        assert len(matches) == 1, f"room {person.code}: {len(matches)} matches stored"
        match_id, finished, totals, record_json = matches[0]
        over = final["game"]["match_over"]
        assert finished is not None and as_json(totals) == over["totals"]
        record = parse_record(as_json(record_json))
        assert isinstance(record, MatchRecord)
        assert verify(record).to_json()["result"]["totals"] == over["totals"]
        hands = rows(url, "SELECT idx, record FROM web_hands WHERE match_id = :m ORDER BY idx", m=match_id)
        assert [h[0] for h in hands] == list(range(final["game"]["hand"])), "a hand is missing or doubled"
        for idx, data in hands:
            hand = parse_record(as_json(data))
            assert isinstance(hand, HandRecord)
            stored = story([e.to_json() for frame in replay(hand, hand=idx + 1).frames for e in frame.events])
            shown = person.seen.get(idx + 1, [])
            moves = [s for s in shown if json.loads(s[0]) not in ("dealt", "scored", "match_over")]
            assert (
                moves == [s for s in stored if json.loads(s[0]) not in ("dealt", "scored", "match_over")][: len(moves)]
            ), f"room {person.code} hand {idx + 1}: what the player was shown is not what is stored"
        assert not person.broken, person.broken


async def kill_and_restart(srv: ServeProcess, rng: random.Random, kills: int) -> None:
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(0.4, 1.6))
        srv.kill()
        await asyncio.sleep(rng.uniform(0.0, 0.2))
        await asyncio.to_thread(srv.start)


async def test_kill_9_during_matches_loses_nothing(tmp_path: Path) -> None:
    url = str(tmp_path / "web.db")
    rng = random.Random(15)
    spool = ["--spool", str(tmp_path / "spool")]
    srv = ServeProcess(url, [*ARGS, "--seed", "15", *spool], tmp_path / "serve.log")
    srv.start()
    try:
        codes = [await create_room(srv.url, match_quan=1, bots="heuristic") for _ in range(4)]
        people = [Person(srv, code, i % 3, random.Random(i)) for i, code in enumerate(codes)]
        tasks = [asyncio.create_task(p.play()) for p in people]
        kills = 3
        await kill_and_restart(srv, rng, kills)
        async with asyncio.timeout(120):
            finals = await asyncio.gather(*tasks)
        assert srv.starts == kills + 1
        assert all(p.connects > 1 for p in people), "every player was cut off and came back"
        await check_history(url, people, finals)
    finally:
        srv.kill()
    assert rows(url, "PRAGMA integrity_check") == [("ok",)]


async def test_what_the_database_did_not_take_comes_back_from_the_spool(
    postgres_schema_url: str, tmp_path: Path
) -> None:
    """PostgreSQL becomes unreachable mid-match (a proxy in front of it is cut); the tables
    play on and tell the players; the server is killed while it is still down, so hands
    are only in the spool; started again with the database back, it replays the spool,
    restores the room, and the match finishes with every hand stored."""
    parsed = make_url(database_urls(postgres_schema_url)[1])
    proxy = Proxy((parsed.host or "127.0.0.1", parsed.port or 5432))
    await proxy.restore()
    url = parsed.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    srv = ServeProcess(url, [*ARGS, "--seed", "3", "--spool", str(tmp_path / "spool")], tmp_path / "serve.log")
    await asyncio.to_thread(srv.start)
    try:
        code = await create_room(srv.url, match_quan=1, bots="heuristic")
        watcher = await Client(srv.ws_url, code, "watcher").connect()
        person = Person(srv, code, 0, random.Random(5))
        task = asyncio.create_task(person.play())
        await watcher.wait_for(lambda m: m["type"] == "state" and m["game"] is not None and m["game"]["step"] > 3)
        await proxy.cut()
        # the players are told; the table plays on until a hand ends while the database is down
        await watcher.wait_for(lambda m: m["type"] == "notice" and m["code"] == "saving_failed", timeout=20)
        ended = await watcher.wait_for(
            lambda m: m["type"] == "state" and m["game"] is not None and m["game"]["result"] is not None, timeout=30
        )
        assert ended["room"]["saving"] == "failing" and ended["game"]["result"]["hand_id"] is None
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            down = await http.get("/api/matches")
        assert down.status_code == 503 and down.json()["code"] == "storage_unavailable", down.text
        srv.kill()
        spooled = sum(len(p.read_text().splitlines()) for p in (tmp_path / "spool").glob("spool-*.jsonl"))
        assert spooled > 0
        await proxy.restore()
        await asyncio.to_thread(srv.start)
        async with asyncio.timeout(120):
            final = await task
        await check_history(postgres_schema_url, [person], [final])  # (not through the proxy: it runs on this loop)
        assert not list((tmp_path / "spool").glob("rejected.jsonl"))
    finally:
        srv.kill()
        await proxy.cut()


async def test_a_locked_database_stalls_no_table_and_loses_no_hand(tmp_path: Path) -> None:
    """Another process holds SQLite's write lock while a match is played: the table plays
    on across the end of a hand (the next hand does not wait for the save), everyone is
    told that saving fails and then that it works again, and every hand is stored in order."""
    db = tmp_path / "web.db"
    settings = Settings(
        db_url=str(db), seed=4, bot_delay=0.02, slow_write_seconds=0.3, rate_per_second=1e4, grace_seconds=30
    )
    with running_server(settings) as srv:
        code = await create_room(srv.url, match_quan=1, bots="heuristic")
        watcher = await Client(srv.ws_url, code, "watcher").connect()
        person = Person(srv, code, 0, random.Random(8))
        task = asyncio.create_task(person.play())
        await watcher.wait_for(lambda m: m["type"] == "state" and m["game"] is not None and m["game"]["step"] > 3)
        lock = sqlite3.connect(db, timeout=30, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            start = len(watcher.messages)
            failed = await watcher.wait_for(lambda m: m["type"] == "notice" and m["code"] == "saving_failed", 20, start)
            told = next(i for i, m in enumerate(watcher.messages) if m is failed)
            # a hand ends while the lock is held (after the players were told), and the
            # next one is dealt and played on
            ended = await watcher.wait_for(
                lambda m: m["type"] == "state" and m["game"] is not None and m["game"]["result"] is not None, 60, told
            )
            hand = ended["game"]["hand"]
            assert ended["game"]["result"]["hand_id"] is None and ended["room"]["saving"] == "failing"
            later = await watcher.wait_for(
                lambda m: m["type"] == "state" and (m["game"] or {}).get("hand") == hand + 1 and m["game"]["step"] > 5,
                60,
                start,
            )
            assert later["room"]["saving"] == "failing"
            # the history still reads while a writer holds the lock (write-ahead log)
            async with httpx.AsyncClient(base_url=srv.url) as http:
                assert (await http.get("/api/matches")).status_code == 200
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        ok = await watcher.wait_for(lambda m: m["type"] == "notice" and m["code"] == "saving_ok", 30, start)
        assert set(ok["text"]) == {"zh", "en"}
        async with asyncio.timeout(120):
            final = await task
        await check_history(str(db), [person], [final])

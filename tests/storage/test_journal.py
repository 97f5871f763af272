"""The journal of live rooms (erqishi.storage.live, erqishi.storage.journal): entries are
applied in order and only once however often they are replayed; what the database did
not take is replayed from the spool at the next start; a line cut short by a crash is
skipped, an entry the database refuses is kept aside, never dropped; one server per spool;
an old database (0002) upgrades keeping its matches. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from erqishi.core import RuleSet
from erqishi.play import Table
from erqishi.records import HandRecord
from erqishi.storage import Store, database_urls, upgrade
from erqishi.storage.journal import Journal, JournalError, is_transient
from erqishi.storage.live import LiveEntry
from support.sql import rows

RULES = RuleSet.from_options({"match_quan": 1})
NAMES = ["甲", "乙", "丙"]


@pytest.fixture
def url(db_url: str) -> str:
    """The database of a test: SQLite, then PostgreSQL (conftest's ``db_url``)."""
    return db_url


def a_match(room: str = "a1b2c3d4e5f60718") -> list[LiveEntry]:
    """The journal of a room that played one whole match (random moves, through the table)."""
    rng = random.Random(5)
    table = Table(RULES, rng, NAMES, auto_close=True)
    entries: list[tuple[str, dict[str, Any]]] = [
        ("room", {"code": "K7M2QX", "config": {"v": 2}, "seed": 5}),
        ("lobby", {"slots": [], "members": [], "counter": 0}),
        (
            "match",
            {
                "match": 1,
                "names": NAMES,
                "dealer": table.match.dealer,
                "code": "K7M2QX",
                "preset": "leshan",
                "rules": RULES.to_options(),
                "seed": 5,
            },
        ),
    ]
    while not table.match_over:
        table.start_hand()
        state = table.state
        assert state is not None and table.deal is not None
        deal = HandRecord(RULES, NAMES, state.quan, table.deal, ()).to_json()
        entries.append(("deal", {"match": 1, "hand": table.hand_number, "record": deal}))
        while table.in_hand:
            seat = table.waiting()[0]
            table.declare(seat, rng.choice(table.options(seat)))
        finished = table.hands[-1]
        moves = [[s, str(a)] for s, a in table.actions]
        entries.append(("moves", {"match": 1, "hand": table.hand_number, "from": 0, "moves": moves}))
        entries.append(
            (
                "hand",
                {
                    "match": 1,
                    "index": finished.index,
                    "record": finished.record.to_json(),
                    "totals": list(finished.scored.totals),
                },
            )
        )
    entries.append(
        (
            "finish",
            {
                "match": 1,
                "record": table.match_record().to_json(),
                "totals": list(table.match.totals),
                "leaders": list(table.match.leaders),
            },
        )
    )
    return [LiveEntry(room, i + 1, kind, data) for i, (kind, data) in enumerate(entries)]  # type: ignore[arg-type]


def history(url: str) -> list[tuple[Any, ...]]:
    return rows(
        url,
        "SELECT m.room, m.finished IS NOT NULL, COUNT(h.id) FROM web_matches m "
        "LEFT JOIN web_hands h ON h.match_id = m.id GROUP BY m.id, m.room, m.finished",
    )


async def test_entries_apply_once_however_often_replayed(url: str) -> None:
    entries = a_match()
    hands = sum(1 for e in entries if e.kind == "hand")
    store = await Store.open(url)
    try:
        first = await store.apply_live(entries)
        assert all(r.applied for r in first)
        again = await store.apply_live(entries[2:])  # a spool replayed after a crash
        assert not any(r.applied for r in again)
        assert [r.hand_id for r in again if r.entry.kind == "hand"] == [
            r.hand_id for r in first if r.entry.kind == "hand"
        ]
        assert history(url) == [("K7M2QX", True, hands)]
        [live] = await store.live_rooms()
        assert live.match_ids == {1: first[2].match_id}
        assert sorted(live.hand_ids) == list(range(hands))
        # only the newest lobby stays, and the hands' records live in the history only
        kinds = [e.kind for e in live.entries]
        assert kinds.count("lobby") == 1 and all("record" not in e.data for e in live.entries if e.kind == "hand")
        # a closed room's journal is deleted; its match stays in the history
        await store.apply_live([LiveEntry(entries[0].room, len(entries) + 1, "closed", {})])
        assert await store.live_rooms() == []
        assert history(url) == [("K7M2QX", True, hands)]
    finally:
        await store.close()


async def test_the_spool_is_replayed_at_the_next_start(url: str, tmp_path: Path) -> None:
    """Entries written to the spool while the database could not take them (the writer
    never ran: the process died) reach the database at the next start-up; a last line cut
    short by the crash is skipped; the segments are deleted once stored."""
    entries = a_match()
    store = await Store.open(url)
    spool = tmp_path / "spool"
    try:
        journal = Journal(store, spool)
        journal.append(entries[:5])
        journal.append(entries[5:])
        journal.spool.close()  # the process dies: nothing reached the database
        assert history(url) == []
        [segment] = list(spool.glob("spool-*.jsonl"))
        with segment.open("a", encoding="utf-8") as out:
            out.write('{"room": "a1b2c3d4e5f60718", "seq": 999, "ki')  # a write cut short
        again = Journal(store, spool)
        assert await again.recover() == len(entries)
        hands = sum(1 for e in entries if e.kind == "hand")
        assert history(url) == [("K7M2QX", True, hands)]
        assert list(spool.glob("spool-*.jsonl")) == [] and not (spool / "rejected.jsonl").exists()
        await again.close()
    finally:
        await store.close()


async def test_a_refused_entry_is_kept_aside_and_the_rest_stored(tmp_path: Path) -> None:
    url = str(tmp_path / "web.db")
    entries = a_match()
    bad = LiveEntry(entries[0].room, 900, "hand", {"match": 7, "index": 0, "record": {}, "totals": [0, 0, 0]})
    store = await Store.open(url)
    try:
        journal = Journal(store, tmp_path / "spool")
        journal.start()
        journal.append([*entries[:3], bad, *entries[3:]])
        assert await journal.flush(30)
        assert journal.health.ok
        [line] = (tmp_path / "spool" / "rejected.jsonl").read_text(encoding="utf-8").splitlines()
        kept = json.loads(line)
        assert kept["entry"]["seq"] == 900 and "no stored match" in kept["error"]
        assert history(url) == [("K7M2QX", True, sum(1 for e in entries if e.kind == "hand"))]
        await journal.close()
    finally:
        await store.close()


async def test_one_server_per_spool(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "web.db"))
    try:
        journal = Journal(store, tmp_path / "spool")
        with pytest.raises(JournalError, match="in use by another erqishi server"):
            Journal(store, tmp_path / "spool")
        await journal.close()
        Journal(store, tmp_path / "spool").spool.close()  # free again once closed
    finally:
        await store.close()


def test_faults_of_the_database_are_retried_and_bad_data_is_not() -> None:
    from sqlalchemy.exc import IntegrityError, OperationalError

    assert is_transient(OperationalError("INSERT", {}, Exception("database is locked")))
    assert is_transient(OSError(28, "No space left on device"))
    assert not is_transient(IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed")))
    assert not is_transient(KeyError(3))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"room": "", "seq": 1, "kind": "room", "data": {}}, "room:"),
        ({"room": "r", "seq": 0, "kind": "room", "data": {}}, "seq:"),
        ({"room": "r", "seq": 1, "kind": "nap", "data": {}}, "kind:"),
        ({"room": "r", "seq": 1, "kind": "room", "data": []}, "data:"),
        ([], "a JSON object"),
    ],
)
def test_an_entry_that_is_none_is_refused_by_name(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LiveEntry.from_json(data)


async def test_a_database_at_0002_upgrades_keeping_its_matches(url: str) -> None:
    upgrade(url, "0002")
    engine = create_engine(database_urls(url)[1], poolclass=NullPool)
    try:
        with engine.begin() as conn:  # a match stored by the server before durable rooms
            conn.execute(
                text(
                    "INSERT INTO web_matches (room, created, preset, rules, seats, seed, totals) "
                    "VALUES ('OLD001', '2025-01-01 00:00:00', 'leshan', '{}', '[\"a\", \"b\", \"c\"]', 1, '[0, 0, 0]')"
                )
            )
    finally:
        engine.dispose()
    store = await Store.open(url)  # migrates to the head
    try:
        assert rows(url, "SELECT version_num FROM alembic_version") == [("0004",)]
        assert [m.room for m in await store.list_matches()] == ["OLD001"]
        assert rows(url, "SELECT live_key FROM web_matches") == [(None,)]
        assert await store.live_rooms() == []
    finally:
        await store.close()


@pytest.mark.parametrize("gather", [0.0, 5.0])
async def test_entries_that_arrive_together_share_a_transaction(tmp_path: Path, gather: float) -> None:
    """A group commit: once entries wait, the writer lets ``gather`` seconds pass for more
    to join them, so a room's entries arriving a few ms apart go in one transaction; without
    it each arrival is a transaction of its own. Either way all are stored, in order."""
    entries = a_match()
    store = await Store.open(str(tmp_path / "web.db"))
    try:
        journal = Journal(store, tmp_path / "spool", gather=gather, sync=False)
        batches: list[int] = []
        store_batch = journal._store_batch

        async def counted(batch: list[LiveEntry], *rest: Any) -> Any:
            batches.append(len(batch))
            return await store_batch(batch, *rest)

        journal._store_batch = counted  # type: ignore[method-assign]
        journal.start()
        journal.append(entries[:1])  # the writer process is started and takes the first
        assert await journal.flush(30)
        batches.clear()
        for entry in entries[1:]:
            journal.append([entry])
            await asyncio.sleep(0.05)  # the writer runs between arrivals
        assert await journal.flush(30)
        assert sum(batches) == len(entries) - 1 and journal.stored == len(entries)
        if gather:
            assert len(batches) == 1, batches
        else:
            assert len(batches) >= 3, batches
        assert history(str(tmp_path / "web.db")) == [("K7M2QX", True, sum(1 for e in entries if e.kind == "hand"))]
        await journal.close()
    finally:
        await store.close()


async def test_start_up_waits_for_a_locked_database_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A crash left entries in the spool and the database is locked by another program at
    the next start (a backup holding BEGIN EXCLUSIVE longer than SQLite's 5 s busy wait):
    start-up says so once and retries until the lock goes, then stores every entry; it
    never gives up on the spool with a traceback."""
    import sqlite3
    import threading

    entries = a_match()
    path = tmp_path / "web.db"
    url = str(path)
    store = await Store.open(url)
    spool = tmp_path / "spool"
    try:
        journal = Journal(store, spool, writer="inline", retry_max=0.5)
        journal.append(entries)
        journal.spool.close()  # the process dies: nothing reached the database
        locker = sqlite3.connect(path, check_same_thread=False)
        locker.execute("BEGIN EXCLUSIVE")
        release = threading.Timer(7.0, locker.rollback)
        release.start()
        try:
            again = Journal(store, spool, writer="inline", retry_max=0.5)
            with caplog.at_level("WARNING", logger="erqishi.storage"):
                assert await again.recover() == len(entries)
        finally:
            release.join()
            locker.close()
        assert "the database takes no writes" in caplog.text and "takes writes again" in caplog.text
        hands = sum(1 for e in entries if e.kind == "hand")
        assert history(url) == [("K7M2QX", True, hands)]
        assert list(spool.glob("spool-*.jsonl")) == []
        await again.close()
    finally:
        await store.close()


def test_an_empty_spool_removes_only_a_directory_it_made(tmp_path: Path) -> None:
    """A spool left empty at close leaves no file behind, and no directory when it made the
    directory; a directory the user made (``--spool DIR``) stays."""
    from erqishi.storage.journal import Spool

    made = tmp_path / "made-here"
    Spool(made).close()
    assert not made.exists()
    given = tmp_path / "given"
    given.mkdir()
    Spool(given).close()
    assert given.is_dir() and not any(given.iterdir())

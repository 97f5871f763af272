"""A broken disk under the database (issue: storage faults lose finished hands): the SQLite
file and its spool lie on a small tmpfs of the test's own, served by an ``erqishi serve``
that file permissions bind (root without its capability to ignore them); the directory
and its files are made read-only (``chmod a-w``) or
the disk full (a filler file takes every free byte) for several seconds in the middle of
several matches, then repaired. Hands that end meanwhile cannot be written
anywhere on that disk; the server keeps them in its ordered queue, retries, and stores
every one once the disk is back: every match finishes and is in the history once with
every hand in order, and ``PRAGMA integrity_check`` is ok.

Mounting needs root (as ``scripts/test.sh`` runs, for PostgreSQL too) and ``setpriv``
(util-linux); without them the test fails under ``ERQISHI_REQUIRE_ALL=1`` and is skipped
otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.test_durable import ARGS, Person, check_history
from support.serveproc import ServeProcess
from support.webclient import create_room
from support.webserver import get_json

#: How long the disk stays broken (seconds): hands end meanwhile.
BROKEN = 8.0


@contextlib.contextmanager
def small_disk(where: Path, size_mb: int = 32) -> Iterator[Path]:
    """A tmpfs of ``size_mb`` mounted at ``where`` for the block."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        why = f"cannot mount a tmpfs (needs root): {done.stderr.strip()}"
        if os.environ.get("ERQISHI_REQUIRE_ALL") == "1":
            pytest.fail(why)
        pytest.skip(why)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def break_disk(disk: Path, fault: str) -> None:
    if fault == "read_only":
        for path in [disk, *disk.iterdir()]:
            path.chmod(path.stat().st_mode & ~0o222)
    else:  # full: a filler takes every free byte (then one more write fails with ENOSPC)
        with contextlib.suppress(OSError), (disk / "filler").open("wb", buffering=0) as filler:
            while True:
                filler.write(b"\0" * (1 << 16))
        assert os.statvfs(disk).f_bavail == 0


def repair_disk(disk: Path, fault: str) -> None:
    if fault == "read_only":
        for path in [disk, *disk.iterdir()]:
            path.chmod(path.stat().st_mode | 0o200)
    else:
        (disk / "filler").unlink()


def ended(people: list[Person]) -> set[tuple[str, int]]:
    """The hands (room, number) whose end some player was shown."""
    return {(p.code, hand) for p in people for hand, s in p.seen.items() if any('"scored"' in e[0] for e in s)}


@pytest.mark.parametrize("fault", ["read_only", "full"])
async def test_no_hand_is_lost_while_the_disk_is_broken(fault: str, tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "web.db"
        srv = ServeProcess(str(db), [*ARGS, "--seed", "31"], tmp_path / "serve.log", bound=True)
        await asyncio.to_thread(srv.start)
        try:
            codes = [await create_room(srv.url, match_quan=1, bots="heuristic") for _ in range(4)]
            people = [Person(srv, code, 0, random.Random(60 + i)) for i, code in enumerate(codes)]
            tasks = [asyncio.create_task(p.play()) for p in people]
            await asyncio.sleep(1.5)
            before = ended(people)
            break_disk(disk, fault)
            try:
                await asyncio.sleep(BROKEN)
                if fault == "full":  # the entries the database refuses wait, counted by /healthz
                    assert (await get_json(srv, "/healthz"))["pending"] > 0
            finally:
                during = ended(people) - before
                repair_disk(disk, fault)
            assert during, "no hand ended while the disk was broken: the test tested nothing"
            async with asyncio.timeout(120):
                finals = await asyncio.gather(*tasks)
            await check_history(str(db), people, finals)
            async with asyncio.timeout(10):  # and once it takes them again, none is left waiting
                while (await get_json(srv, "/healthz"))["pending"]:
                    await asyncio.sleep(0.1)
            if fault == "full":
                # the spool says it works again at its next write: when every match ended
                # before the disk was repaired, that is the next room made
                await create_room(srv.url, match_quan=1, bots="heuristic")
                async with asyncio.timeout(10):
                    while "saving works again" not in srv.log_text():
                        await asyncio.sleep(0.1)
            log = srv.log_text()
            assert "Traceback" not in log, log[-3000:]
            if fault == "full":  # felt: the server said saving failed, then that it works again
                assert "saving is failing" in log and "saving works again" in log, log[-3000:]
            # (a read-only directory is not felt at all: SQLite's WAL and the spool write
            # through files the server holds open, which permissions do not take back)
        finally:
            srv.kill()
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        print(f"{fault}: {len(during)} hands ended while the disk was broken; all stored")


def test_players_are_told_when_their_moves_stop_reaching_the_database_once_each_way() -> None:
    """The notice follows what players' moves reach (docs/protocol.md): the database
    (``ok``), only the spool (``saving_failed``), or neither (``saving_memory``). A spool
    that fails while the database takes every write is not theirs to hear of, and a level
    already told is not told again, so a disk at the edge of full cannot flap notices."""
    from erqishi.server.protocol import CreateRoom
    from erqishi.server.room import Room
    from erqishi.server.settings import Settings
    from erqishi.storage.journal import Health

    room = Room("SAVE01", CreateRoom(v=2), Settings(), None, 1)
    told: list[str] = []
    room.out.send_all = lambda message: told.append(message["code"])  # type: ignore[method-assign]
    steps = [
        Health(database=True, spool=False),  # the spool's disk is full: the database has it all
        Health(database=True, spool=True),
        Health(database=True, spool=False),
        Health(database=False, spool=True),  # the database fails: the spool keeps every move
        Health(database=False, spool=True, pending=9),
        Health(database=False, spool=False),  # and now the spool too
        Health(database=True, spool=False),  # the database is back
        Health(database=True, spool=True),
    ]
    for health in steps:
        room.notify(health)
    assert told == ["saving_failed", "saving_memory", "saving_ok"]

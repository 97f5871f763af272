"""The journal's writer in a process of its own (erqishi.storage.writer): it stores what the
journal stored inline, with the same ids; a writer process killed mid-match is replaced
and nothing is lost; it ends with the server that started it; the database's password
never shows on its command line; a fault of the database is retried, never taken for a
refusal of the entries. On SQLite and PostgreSQL where a database is named."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

from erqishi.storage import Store, database_urls
from erqishi.storage.journal import Journal, is_transient
from erqishi.storage.live import LiveEntry
from erqishi.storage.writer import RemoteStoreError, WriterProcess
from storage.test_journal import a_match, history
from support.procs import gone_within
from support.sql import rows


@pytest.fixture
def url(db_url: str) -> str:
    """The database of a test: SQLite, then PostgreSQL (conftest's ``db_url``)."""
    return db_url


async def test_the_process_stores_what_the_store_stores_with_the_same_ids(tmp_path: Path) -> None:
    """One match's journal applied inline to one database and through the process to
    another: the same results (applied, match id, hand id) entry by entry, and again
    (nothing applied twice) when replayed."""
    entries = a_match()
    inline_url, process_url = str(tmp_path / "inline.db"), str(tmp_path / "process.db")
    inline = await Store.open(inline_url)
    await (await Store.open(process_url)).close()  # migrated, as the server does first
    writer = await WriterProcess.open(process_url)
    try:
        assert writer.open_error is None
        expected = [(r.applied, r.match_id, r.hand_id) for r in await inline.apply_live(entries)]
        got = await writer.apply_live(entries)
        assert [r.entry for r in got] == entries
        assert [(r.applied, r.match_id, r.hand_id) for r in got] == expected
        assert sum(1 for r in got if r.hand_id is not None) == sum(1 for e in entries if e.kind == "hand")
        again = await writer.apply_live(entries[:5])
        assert not any(r.applied for r in again)
        assert history(process_url) == history(inline_url)
    finally:
        await writer.close()
        await inline.close()
    assert writer.process.returncode == 0  # closing its input ends it cleanly


async def test_a_refusal_is_told_apart_from_a_fault(tmp_path: Path) -> None:
    """A hand of a match never stored is refused for good (not transient: the journal
    sets it aside); a database the process cannot reach is a fault of the moment."""
    await (await Store.open(str(tmp_path / "web.db"))).close()
    writer = await WriterProcess.open(str(tmp_path / "web.db"))
    try:
        bad = LiveEntry("r0", 1, "hand", {"match": 7, "index": 0, "record": {}, "totals": [0, 0, 0]})
        with pytest.raises(RemoteStoreError, match="no stored match") as refused:
            await writer.apply_live([bad])
        assert not is_transient(refused.value) and writer.alive  # the process serves on
        assert [r.applied for r in await writer.apply_live(a_match()[:2])] == [True, True]
    finally:
        await writer.close()
    down = await WriterProcess.open("postgresql://nobody:secret@127.0.0.1:9/none")
    try:
        assert down.open_error is not None and "secret" not in down.open_error
        with pytest.raises(RemoteStoreError) as fault:
            await down.apply_live(a_match()[:1])
        assert is_transient(fault.value) and "secret" not in str(fault.value)
        assert down.alive  # each batch tries again; no process is spent per retry
    finally:
        await down.close()


async def test_a_killed_writer_process_is_replaced_and_nothing_is_lost(url: str, tmp_path: Path) -> None:
    """kill -9 the writer process halfway through a match's journal: the journal starts
    another and stores every entry, in order, once."""
    entries = a_match()
    store = await Store.open(url)
    try:
        journal = Journal(store, tmp_path / "spool", sync=False)
        journal.start()
        half = len(entries) // 2
        journal.append(entries[:half])
        assert await journal.flush(60)
        first = journal._writer
        assert isinstance(first, WriterProcess)
        os.kill(first.process.pid, signal.SIGKILL)
        await first.process.wait()
        for entry in entries[half:]:
            journal.append([entry])
        assert await journal.flush(60)
        assert journal.stored == len(entries) and journal.health.ok
        assert isinstance(journal._writer, WriterProcess) and journal._writer is not first
        assert history(url)[-1][1:] == (True, sum(1 for e in entries if e.kind == "hand"))
        await journal.close()
    finally:
        await store.close()
    assert not list((tmp_path / "spool").glob("rejected.jsonl"))


@pytest.mark.parametrize("blocked", [False, True], ids=["idle", "blocked"])
def test_the_writer_ends_with_its_server_and_hides_the_password(url: str, tmp_path: Path, blocked: bool) -> None:
    """A process that runs a journal is killed with SIGKILL: its writer process ends, even
    while it waits on a lock another connection holds (the test holds it on ``live_log``
    past the kill: the writer must not wait for it), and on PostgreSQL no session of it is
    left waiting in the server. While it ran, the database URL was not on its command line."""
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        from pathlib import Path
        from erqishi.storage import Store
        from erqishi.storage.journal import Journal
        from storage.test_journal import a_match

        async def main():
            store = await Store.open({url!r})
            journal = Journal(store, Path({str(tmp_path / "spool")!r}), sync=False)
            journal.start()
            entries = a_match()
            journal.append(entries[:3])
            assert await journal.flush(60)
            print(journal._writer.process.pid, flush=True)
            await asyncio.to_thread(sys.stdin.readline)  # the test holds its lock now
            journal.append(entries[3:6])
            print("appended", flush=True)
            await asyncio.sleep(600)

        asyncio.run(main())
        """
    )
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )
    lock = _Lock(url) if blocked else None
    try:
        assert parent.stdout is not None and parent.stdin is not None
        child = int(parent.stdout.readline())
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        secret = database_urls(url)[1].encode()
        assert not any(secret in part for part in cmdline) and not any(url.encode() in part for part in cmdline)
        if lock is not None:
            lock.take()
        parent.stdin.write("go\n")
        parent.stdin.flush()
        assert parent.stdout.readline().strip() == "appended"
        time.sleep(1.0)  # the writer is at the lock now
        assert _alive(child)
        parent.kill()
        parent.wait(10)
        assert gone_within(lambda: _alive(child), 20), "the writer process outlived its server"
        if lock is not None:
            assert lock.waiting() == 0, "a session of the dead writer still waits for the lock"
    finally:
        if lock is not None:
            lock.release()
        parent.kill()
        parent.wait(10)


class _Lock:
    """Another connection's write lock on ``live_log``: SQLite's whole-file lock, or a
    PostgreSQL table lock."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_engine(database_urls(url)[1], poolclass=NullPool)
        self.conn: Connection | None = None

    def take(self) -> None:
        self.conn = self.engine.connect()
        if self.engine.dialect.name == "sqlite":
            self.conn.exec_driver_sql("BEGIN EXCLUSIVE")
        else:
            self.conn.begin()
            self.conn.execute(text("LOCK TABLE live_log IN ACCESS EXCLUSIVE MODE"))

    def waiting(self) -> int:
        """Sessions (other than ours) waiting for a lock (PostgreSQL; 0 for SQLite)."""
        if self.engine.dialect.name == "sqlite":
            return 0
        query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        deadline = time.monotonic() + 10
        while True:
            waiting = int(rows(self.url, query)[0][0])
            if waiting == 0 or time.monotonic() > deadline:
                return waiting
            time.sleep(0.1)

    def release(self) -> None:
        if self.conn is not None:
            self.conn.rollback()
            self.conn.close()
        self.engine.dispose()


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, already ended and waiting for init, does not)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_journal_names_its_writer(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="writer: process, thread or inline, got 'fork'"):
        Journal(object(), tmp_path / "spool", writer="fork")  # type: ignore[arg-type]
    assert not (tmp_path / "spool").exists()  # refused before the spool is touched


async def test_a_writer_that_cannot_start_is_a_fault_never_a_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer process dies and another cannot start for a while, for a reason that is
    no OSError (no thread to watch it): the entries wait and are stored once it starts,
    none is set aside as refused."""
    import erqishi.storage.writer as writer_module

    entries = a_match()
    url = str(tmp_path / "web.db")
    store = await Store.open(url)
    try:
        journal = Journal(store, tmp_path / "spool", sync=False, retry_first=0.01, retry_max=0.05)
        journal.start()
        journal.append(entries[:2])
        assert await journal.flush(60)
        first = journal._writer
        assert isinstance(first, WriterProcess)
        spawn = asyncio.create_subprocess_exec

        async def cannot(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("can't start new thread")

        monkeypatch.setattr(writer_module.asyncio, "create_subprocess_exec", cannot)
        os.kill(first.process.pid, signal.SIGKILL)
        await first.process.wait()
        journal.append(entries[2:6])
        await asyncio.sleep(0.5)
        assert not journal.health.database and "can't start new thread" in str(journal.health.error)
        monkeypatch.setattr(writer_module.asyncio, "create_subprocess_exec", spawn)
        journal.append(entries[6:])
        assert await journal.flush(60)
        assert journal.health.ok and journal.stored == len(entries)
        assert history(url) == [("K7M2QX", True, sum(1 for e in entries if e.kind == "hand"))]
        await journal.close()
    finally:
        await store.close()
    assert not (tmp_path / "spool" / "rejected.jsonl").exists()


async def test_a_writer_that_died_idle_is_replaced_without_a_word_to_the_players(tmp_path: Path) -> None:
    """A writer process killed between batches is seen to be gone before the next batch
    is sent to it: the batch goes to a new one, and saving never counts as failing."""
    entries = a_match()
    store = await Store.open(str(tmp_path / "web.db"))
    try:
        journal = Journal(store, tmp_path / "spool", sync=False)
        told: list[bool] = []
        journal.listen(on_health=lambda health: told.append(health.ok))
        journal.start()
        for part in (entries[:3], entries[3:10], entries[10:]):
            journal.append(part)
            assert await journal.flush(60)
            process = journal._writer
            assert isinstance(process, WriterProcess)
            os.kill(process.process.pid, signal.SIGKILL)
            await process.process.wait()
        assert journal.stored == len(entries) and journal.failures == 0 and told == []
        await journal.close()
    finally:
        await store.close()


async def test_a_batch_cut_off_leaves_no_session_behind(url: str) -> None:
    """A batch cancelled while the writer waits on a lock (what ``Journal.close`` does when
    its time is up): the process is stopped, and on PostgreSQL its statement is cancelled
    in the server, so no session of it stays waiting there, holding what it had locked."""
    await (await Store.open(url)).close()
    writer = await WriterProcess.open(url)
    lock = _Lock(url)
    try:
        await writer.apply_live(a_match()[:1])
        lock.take()
        batch = asyncio.create_task(writer.apply_live(a_match()[1:4]))
        await asyncio.sleep(1.0)
        assert not batch.done()
        batch.cancel()
        with pytest.raises(asyncio.CancelledError):
            await batch
        assert not writer.alive and writer.process.returncode is not None
        assert await asyncio.to_thread(lock.waiting) == 0, "the cut-off statement still waits in the server"
    finally:
        lock.release()
        await writer.close()


@pytest.mark.parametrize("input_ends", [False, True], ids=["interrupted", "input-ended"])
def test_the_writer_leaves_quietly_on_repeated_interrupts(tmp_path: Path, input_ends: bool) -> None:
    """The writer's server dies (SIGINT from the kernel) while something else sends SIGINT
    too (a Ctrl-C to the process group): it leaves with status 0 and prints no traceback into
    the server's log (a review found SQLAlchemy's "Exception closing connection" tracebacks,
    a second interrupt cutting the clean-up short). With ``input_ends`` its input ends first,
    as when the server dies: the kernel's SIGINT then comes while it already leaves (CI met
    it inside SQLAlchemy's ``dispose``); the interrupts start at staggered moments after."""
    import json

    url = f"sqlite:///{tmp_path / 'w.db'}"
    for attempt in range(8):
        writer = subprocess.Popen(
            [sys.executable, "-m", "erqishi.storage.writer"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert writer.stdin is not None and writer.stdout is not None
        writer.stdin.write((json.dumps({"op": "open", "url": url}) + "\n").encode())
        writer.stdin.flush()
        assert json.loads(writer.stdout.readline())["ok"]
        if input_ends:
            writer.stdin.close()
            time.sleep(attempt * 0.002)
        end = time.monotonic() + 0.3
        while time.monotonic() < end and writer.poll() is None:
            try:
                writer.send_signal(signal.SIGINT)
            except ProcessLookupError:
                break
            time.sleep(0.0005)
        writer.stdin.close()
        assert writer.stderr is not None
        err = writer.stderr.read()
        writer.wait(20)
        writer.stdout.close()
        writer.stderr.close()
        assert writer.returncode == 0 and b"Traceback" not in err, err.decode(errors="replace")


def test_a_writer_stopped_while_it_starts_leaves_quietly(tmp_path: Path) -> None:
    """The server gives up on a writer still starting (``open`` cancelled at staggered
    moments, from before its imports are done to after it answered): the writer ends and
    prints no traceback into the server's log (a review found a KeyboardInterrupt traceback:
    the server's Ctrl-C reached the writer while it was still importing); and the module run
    as ``python -m`` tells a database fault of the moment as transient, as the server's own
    start of it does (a review found ``"transient": false``: the module ran as ``__main__``
    had its own copy of the error class)."""
    import json

    script = textwrap.dedent(
        f"""
        import asyncio, sys
        from erqishi.storage.writer import WriterProcess

        async def main():
            for delay in (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.5):
                task = asyncio.create_task(WriterProcess.open({"sqlite:///" + str(tmp_path / "w.db")!r}))
                await asyncio.sleep(delay)
                task.cancel()
                try:
                    writer = await task
                except asyncio.CancelledError:
                    continue
                await writer.close()

        asyncio.run(main())
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    down = "postgresql://nobody:secret@127.0.0.1:9/nothing"  # nothing listens on port 9
    answered = subprocess.run(
        [sys.executable, "-m", "erqishi.storage.writer"],
        input=json.dumps({"op": "open", "url": down}) + '\n{"op": "apply", "n": 0}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [json.loads(line) for line in answered.stdout.splitlines()]
    assert lines[0]["ok"] and lines[0]["error"], lines
    assert lines[1] == {"ok": False, "error": lines[1]["error"], "transient": True}, lines

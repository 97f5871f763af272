"""The journal's writer in a process of its own (erqishi.storage.writer): it stores what the
journal stored inline, with the same ids; a writer process killed mid-match is replaced
and nothing is lost; it ends with the server that started it; the database's password
never shows on its command line; a fault of the database is retried, never taken for a
refusal of the entries. On SQLite and PostgreSQL where a database is named."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from erqishi.storage import Store
from erqishi.storage.journal import Journal, is_transient
from erqishi.storage.live import LiveEntry
from erqishi.storage.writer import RemoteStoreError, WriterProcess
from storage.test_journal import a_match, history


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


def test_the_writer_ends_with_its_server_and_hides_the_password(tmp_path: Path) -> None:
    """A process that runs a journal is killed with SIGKILL: its writer process sees its
    input end and exits. While it ran, the database URL was not on its command line."""
    db = tmp_path / "web.db"
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        from pathlib import Path
        from erqishi.storage import Store
        from erqishi.storage.journal import Journal
        from storage.test_journal import a_match

        async def main():
            store = await Store.open({str(db)!r})
            journal = Journal(store, Path({str(tmp_path / "spool")!r}), sync=False)
            journal.start()
            journal.append(a_match()[:3])
            assert await journal.flush(60)
            print(journal._writer.process.pid, flush=True)
            await asyncio.sleep(600)

        asyncio.run(main())
        """
    )
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        assert b"erqishi.storage.writer" in cmdline and not any(str(db).encode() in part for part in cmdline)
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 20
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the writer process outlived its server"
    finally:
        parent.kill()
        parent.wait(10)


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

"""The write path of live rooms: a local spool, then an ordered queue into the database.

:meth:`Journal.append` is synchronous and quick: it writes the entries to the spool (an
append-only file of JSON lines in the spool directory; once ``write`` returns, the
entries survive the process being killed) and queues them. A single writer task stores
the queue in the database in order (:meth:`erqishi.storage.Store.apply_live`), in
batches, retrying with exponential back-off while the database is down, locked, full or
slow. The rooms never wait for the database: they wait only for the spool.

Whatever the database has not taken stays in the spool. The next start-up replays it
(:meth:`Journal.recover`) before the rooms are restored; applying an entry twice changes
nothing. A segment of the spool is deleted once every entry in it is in the database.
An entry the database refuses for good (a bug, never a fault of the database) is logged
and kept in ``rejected.jsonl`` beside the spool: nothing is dropped silently.

While writes fail (or one takes longer than ``slow_seconds``) :attr:`Journal.health` says
so, and the listeners are told when it changes, so players can be warned; they are told
again when the database catches up.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import fcntl
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Collection, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import orjson
from sqlalchemy import exc as sa_exc

from erqishi.storage.live import LiveEntry, LiveResult
from erqishi.storage.store import Store, _first_line, mask_url
from erqishi.storage.writer import RemoteStoreError, WriterProcess, sync_and_close

T = TypeVar("T")

__all__ = ["Health", "Journal", "JournalError", "Spool", "WriterLoop", "is_transient"]

log = logging.getLogger("erqishi.storage")

#: A spool segment is closed for new entries past this size (bytes): a segment is deleted
#: once all of it is in the database, so a start-up replays little more than this.
SEGMENT_BYTES = 256 << 10


class JournalError(RuntimeError):
    """The spool cannot be used: its directory cannot be made, or another server holds it."""


def is_transient(exc: BaseException) -> bool:
    """A fault of the database or its connection, worth retrying: unreachable, locked,
    read-only, full, timed out, or a connection lost. Refusals of the data itself
    (integrity, bad values, bad records) are not.

    >>> is_transient(TimeoutError()), is_transient(ValueError("bad"))
    (True, False)
    """
    if isinstance(exc, RemoteStoreError):
        return exc.transient
    if isinstance(exc, sa_exc.IntegrityError | sa_exc.DataError | sa_exc.ProgrammingError):
        return bool(getattr(exc, "connection_invalidated", False))
    return isinstance(
        exc,
        sa_exc.DatabaseError  # operational, interface, internal, and a damaged file
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError
        | OSError
        | TimeoutError,
    )


@dataclass(frozen=True, slots=True)
class Health:
    """How saving goes.

    Attributes:
        database: writes reach the database (False while they fail or one is too slow).
        spool: the local spool takes new entries (False: the disk is full or read-only;
            entries are then held in memory only, until the spool or the database takes them).
        pending: entries not yet in the database.
        error: what went wrong last, or None.
    """

    database: bool = True
    spool: bool = True
    pending: int = 0
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Both the database and the spool take writes."""
        return self.database and self.spool


class _Segment:
    __slots__ = ("fd", "last", "path", "size")

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.size = os.fstat(self.fd).st_size
        self.last = 0  # the serial of the last entry written to it

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


class Spool:
    """The spool directory: segments ``spool-NNNNNNNN.jsonl`` of journal entries, one JSON
    object a line, and a lock file so that one server at a time uses it.

    Args:
        directory: created when missing.

    Raises:
        JournalError: the directory cannot be made or locked (another server uses it).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        #: made here (so an empty one is removed again at close); one given that existed stays
        self._made = not directory.exists()
        try:
            directory.mkdir(parents=True, exist_ok=True)
            self._lock = os.open(directory / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise JournalError(f"cannot use the spool directory {str(directory)!r}: {exc.strerror}") from None
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._lock)
            raise JournalError(
                f"the spool directory {str(directory)!r} is in use by another erqishi server; give each its own"
            ) from None
        self.old = self.segments()
        self._next = max((_number(p) for p in self.old), default=0) + 1
        self._segments: list[_Segment] = []
        self._broken = False  # the current segment may end in a torn line: start another

    def segments(self) -> list[Path]:
        """The segment files now in the directory, oldest first."""
        return sorted(self.directory.glob("spool-*.jsonl"), key=_number)

    def write(self, serial: int, data: bytes) -> None:
        """Append ``data`` (whole lines) whose last entry has ``serial``.

        Raises:
            OSError: it could not be written (what was written of it is cut off again
                where possible, else the next write starts a new segment).
        """
        segment = self._current()
        start = segment.size
        try:
            view = memoryview(data)
            while view:
                written = os.write(segment.fd, view)
                view = view[written:]
        except OSError:
            try:
                os.ftruncate(segment.fd, start)
            except OSError:
                self._broken = True
            raise
        segment.size = start + len(data)
        segment.last = serial

    def _current(self) -> _Segment:
        if not self._segments or self._broken or self._segments[-1].size >= SEGMENT_BYTES:
            path = self.directory / f"spool-{self._next:08d}.jsonl"
            segment = _Segment(path)  # raises OSError: a read-only or full disk
            self._next += 1
            self._broken = False
            self._segments.append(segment)
        return self._segments[-1]

    def committed(self, serial: int) -> None:
        """Every entry up to ``serial`` is in the database: drop the segments that hold
        nothing newer (the current one is emptied instead)."""
        keep: list[_Segment] = []
        for i, segment in enumerate(self._segments):
            current = i == len(self._segments) - 1
            if segment.last > serial:
                keep.append(segment)
            elif current and not self._broken:
                if segment.size:
                    with contextlib.suppress(OSError):
                        os.ftruncate(segment.fd, 0)
                        segment.size = 0
                keep.append(segment)
            else:
                segment.close()
                with contextlib.suppress(OSError):
                    segment.path.unlink()
        self._segments = keep

    def paths(self) -> list[Path]:
        """The segments written by this run that are still kept, oldest first."""
        return [segment.path for segment in self._segments]

    def sync_handle(self) -> int | None:
        """A duplicate of the current segment's descriptor for ``fdatasync`` in a worker
        thread (the caller closes it), or None."""
        if not self._segments:
            return None
        try:
            return os.dup(self._segments[-1].fd)
        except OSError:
            return None

    def close(self) -> None:
        """Close the segments (their entries stay for the next start-up) and unlock; an
        empty spool leaves no file behind (and no directory, when it made the directory)."""
        for segment in self._segments:
            segment.close()
            if segment.size == 0:
                with contextlib.suppress(OSError):
                    segment.path.unlink()
        self._segments = []
        with contextlib.suppress(OSError):
            if not any(self.directory.iterdir()) or [p.name for p in self.directory.iterdir()] == ["lock"]:
                (self.directory / "lock").unlink()
                if self._made:
                    self.directory.rmdir()
        with contextlib.suppress(OSError):
            os.close(self._lock)

    def reject(self, entry: LiveEntry | None, line: str, error: str) -> None:
        """Keep an entry (or an unreadable line) the database refused in ``rejected.jsonl``."""
        record = {"error": error, "entry": entry.to_json() if entry is not None else None, "line": line}
        try:
            with (self.directory / "rejected.jsonl").open("a", encoding="utf-8") as out:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        except OSError as exc:
            log.error("cannot keep a refused journal entry in %s: %s: %s", self.directory, exc, line)


def _number(path: Path) -> int:
    digits = path.stem.removeprefix("spool-")
    return int(digits) if digits.isdigit() else 0


def read_segment(path: Path) -> Iterator[tuple[LiveEntry | None, str, str | None]]:
    """The entries of a spool segment: ``(entry, line, None)``, or ``(None, line, why)``
    for a line that is no entry. A last line cut short by a crash is no entry: it was
    never acknowledged (the state that followed it was not sent)."""
    text = path.read_bytes().decode("utf-8", "replace")
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            yield LiveEntry.from_json(json.loads(line)), line, None
        except ValueError as exc:
            torn = i == len(lines) - 1  # no newline after it: the write was cut short
            yield None, line, ("a line cut short by a crash" if torn else f"not a journal entry: {exc}")


Listener = Callable[[LiveResult], None]
HealthListener = Callable[[Health], None]


class Journal:
    """The ordered, retried write path of the live rooms (see the module).

    Args:
        store: the open store.
        spool: the spool directory (one per server process).
        retry_first, retry_max: the back-off between retries, from ``retry_first`` seconds
            doubling up to ``retry_max`` (with jitter).
        slow_seconds: a write taking longer than this counts as failing (players are told).
        batch: at most this many entries per transaction (a writer that fell behind
            catches up in transactions this large; each costs a round trip through a busy
            server's loop).
        gather: seconds the writer waits, once entries are queued and fewer than ``batch``,
            for more to join them in one transaction (a group commit: with hundreds of
            tables a transaction per few entries cost the server as much CPU as the
            tables themselves). The rooms never wait for it; a stored hand is announced
            that much later.
        sync: ``fdatasync`` the spool before each write to the database (in the writer
            process, or a worker thread), so the entries not yet stored survive a crash of
            the machine, not only of the process.
        writer: where the batches are stored. ``"process"`` (the default): by a child
            process (:class:`erqishi.storage.writer.WriterProcess`) through a synchronous
            engine of its own, on the machine's other core; the server's loop sends each
            batch down a pipe and awaits one answer.
            ``"thread"``: through a store of its own on an event loop in a thread
            (:class:`WriterLoop`); a saturated server starves that thread, since it gets
            the interpreter only between the server's slices (``benchmarks/journal.py``
            shows both). ``"inline"``: through ``store`` on the caller's loop, where each
            statement waits its turn behind the tables. A store without a URL (an SQLite
            database in memory) is always written inline.

    Raises:
        JournalError: the spool directory cannot be used.
    """

    def __init__(
        self,
        store: Store,
        spool: Path,
        *,
        retry_first: float = 0.05,
        retry_max: float = 5.0,
        slow_seconds: float = 3.0,
        batch: int = 1024,
        gather: float = 0.02,
        sync: bool = True,
        writer: Literal["process", "thread", "inline"] = "process",
    ) -> None:
        if writer not in ("process", "thread", "inline"):
            raise ValueError(f"writer: process, thread or inline, got {writer!r}")
        self.store = store
        self.writer: Literal["process", "thread", "inline"] = writer if store.url else "inline"
        self._writer: WriterLoop | WriterProcess | None = None
        self.spool = Spool(spool)
        self.retry_first = retry_first
        self.retry_max = retry_max
        self.slow_seconds = slow_seconds
        self.batch = batch
        self.gather = gather
        self.sync = sync
        #: (serial, entry, its spool line): the line is what the writer process is sent too
        self._pending: collections.deque[tuple[int, LiveEntry, bytes]] = collections.deque()
        self._unspooled: list[tuple[int, LiveEntry, bytes]] = []
        self._serial = 0
        self._db_ok = True
        self._spool_ok = True
        self._error: str | None = None
        self._listeners: list[Listener] = []
        self._health_listeners: list[HealthListener] = []
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        #: called with the entries of every :meth:`append` once they are in the spool
        #: (several server processes copy them to Redis, where a process that takes a
        #: room over finds those the database did not have yet)
        self.mirror: Callable[[Sequence[LiveEntry]], None] | None = None
        self.stored = 0  # entries stored since start-up (for tests and the log)
        self.failures = 0  # failed attempts since start-up

    # ------------------------------------------------------------------ listeners

    def listen(self, on_result: Listener | None = None, on_health: HealthListener | None = None) -> None:
        """Call ``on_result`` with each entry's result once it is in the database, and
        ``on_health`` whenever :attr:`health` changes (both on the event loop)."""
        if on_result is not None:
            self._listeners.append(on_result)
        if on_health is not None:
            self._health_listeners.append(on_health)

    @property
    def health(self) -> Health:
        """How saving goes now."""
        return Health(self._db_ok, self._spool_ok, len(self._pending), self._error)

    def _set_health(self, *, database: bool | None = None, spool: bool | None = None, error: str | None = None) -> None:
        before = (self._db_ok, self._spool_ok)
        if database is not None:
            self._db_ok = database
        if spool is not None:
            self._spool_ok = spool
        if error is not None:
            self._error = error
        if self._db_ok and self._spool_ok:
            self._error = None
        if (self._db_ok, self._spool_ok) != before:
            health = self.health
            if health.ok:
                log.warning("saving works again: every entry is stored")
            else:
                log.error("saving is failing (%s); %d entries wait", health.error, health.pending)
            for listener in self._health_listeners:
                try:
                    listener(health)
                except Exception:
                    log.exception("a journal health listener failed")

    # ------------------------------------------------------------------ writing

    def append(self, entries: Sequence[LiveEntry]) -> None:
        """Write ``entries`` (in order) to the spool and queue them for the database.

        Never raises for a fault of the disk: entries the spool cannot take are held in
        memory (and :attr:`health` says so) until the spool or the database takes them.
        """
        if not entries:
            return
        first = self._serial + 1
        self._serial += len(entries)
        lines = [
            (first + i, e, orjson.dumps(e.to_json(), option=orjson.OPT_NON_STR_KEYS) + b"\n")
            for i, e in enumerate(entries)
        ]
        self._pending.extend(lines)
        self._unspooled.extend(lines)
        self._write_spool()
        if self.mirror is not None:
            try:
                self.mirror(entries)
            except Exception:
                log.exception("copying journal entries failed")
        self._idle.clear()
        self._wake.set()

    def _write_spool(self) -> None:
        """Write every entry not yet in the spool, in order (one write), if it takes them."""
        if not self._unspooled:
            return
        try:
            self.spool.write(self._unspooled[-1][0], b"".join(line for _, _, line in self._unspooled))
        except OSError as exc:
            self._set_health(spool=False, error=f"the spool {self.spool.directory} cannot be written: {exc.strerror}")
            return
        self._unspooled = []
        if not self._spool_ok:
            self._set_health(spool=True)

    def start(self) -> None:
        """Start the writer task (on the running loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until every entry appended so far is in the database (or ``timeout``
        seconds); True when it is."""
        try:
            async with asyncio.timeout(timeout):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    async def close(self, timeout: float = 5.0) -> None:
        """Give the writer up to ``timeout`` seconds to store what is queued, then stop it;
        what is left stays in the spool for the next start-up."""
        if self._task is not None:
            await self.flush(timeout)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._writer is not None:
            if isinstance(self._writer, WriterProcess):  # it stores what it holds, or is stopped
                await self._writer.close(max(timeout, 1.0))
            else:
                await self._writer.close()
            self._writer = None
        self._write_spool()
        left = len(self._pending)
        if left:
            log.warning("%d journal entries are not in the database yet: kept in %s", left, self.spool.directory)
        self.spool.close()

    async def _run(self) -> None:
        delay = self.retry_first
        loop = asyncio.get_running_loop()
        if self.writer == "process":  # its start-up need not delay the first batch
            try:
                process = await self._open_writer()
            except Exception as exc:
                log.warning("the journal's writer process cannot start yet: %s", _describe(exc))
            else:
                if isinstance(process, WriterProcess) and process.open_error is not None:
                    log.warning("the journal's writer cannot open the database yet: %s", process.open_error)
        while True:
            if not self._pending:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.gather > 0 and len(self._pending) < self.batch:
                await asyncio.sleep(self.gather)  # let more entries join this transaction
            self._write_spool()  # a spool that failed may take its entries again
            count = min(self.batch, len(self._pending))
            pending = self._pending
            batch = [pending[i][1] for i in range(count)]
            lines = [pending[i][2] for i in range(count)]
            last = pending[count - 1][0]
            synced: list[str] = []
            if self.sync and self.writer == "process":
                synced = [str(path) for path in self.spool.paths()]  # the writer syncs them
            elif self.sync:
                await self._sync_spool()
            started = time.monotonic()
            slow = loop.call_later(self.slow_seconds, self._slow, started)
            try:
                results = await self._apply(batch, synced, lines)
            except Exception as exc:
                slow.cancel()
                self.failures += 1
                self._set_health(database=False, error=_describe(exc))
                delay = await self._back_off(delay)
                continue
            slow.cancel()
            delay = self.retry_first
            for _ in range(count):
                self._pending.popleft()
            self.stored += count
            self._unspooled = [u for u in self._unspooled if u[0] > last]
            self.spool.committed(last)
            if not self._db_ok:
                self._set_health(database=True)
            for result in results:
                for listener in self._listeners:
                    try:
                        listener(result)
                    except Exception:
                        log.exception("a journal listener failed")

    def _slow(self, started: float) -> None:
        waited = time.monotonic() - started
        self._set_health(database=False, error=f"a write to the database has taken {waited:.0f} s")

    async def _sync_spool(self) -> None:
        fd = self.spool.sync_handle()
        if fd is not None:
            await asyncio.to_thread(sync_and_close, fd)

    async def _apply(
        self, batch: list[LiveEntry], synced: Sequence[str] = (), lines: Sequence[bytes] | None = None
    ) -> list[LiveResult]:
        """Store a batch; an entry refused for good is set aside (logged, kept in
        ``rejected.jsonl``) and the others are stored one by one. The writer process first
        ``fdatasync``s the spool files ``synced``; ``lines`` are the entries' spool lines
        when known (the writer process is sent them as they are).

        Raises:
            Exception: a fault of the database (:func:`is_transient`): nothing of the
                batch is lost, the caller retries.
        """
        try:
            return await self._store_batch(batch, synced, lines)
        except Exception as exc:
            if is_transient(exc):
                raise
        results = []
        for i, entry in enumerate(batch):
            try:
                results += await self._store_batch([entry], (), None if lines is None else lines[i : i + 1])
            except Exception as exc:
                if is_transient(exc):
                    raise
                log.error("journal entry %s#%d (%s) refused: %s", entry.room, entry.seq, entry.kind, exc)
                self.spool.reject(entry, json.dumps(entry.to_json(), ensure_ascii=False), _describe(exc))
                results.append(LiveResult(entry, False))
        return results

    async def _store_batch(
        self, batch: list[LiveEntry], synced: Sequence[str] = (), lines: Sequence[bytes] | None = None
    ) -> list[LiveResult]:
        """``Store.apply_live``, where :attr:`writer` says (the writer process first syncs
        the files ``synced``: the server's loop then makes no thread hop for it)."""
        if self.writer == "inline":
            return await self.store.apply_live(batch)
        writer = await self._open_writer()
        if isinstance(writer, WriterProcess):
            return await writer.apply_live(batch, sync=synced, lines=lines)
        return await writer.apply_live(batch)

    async def _open_writer(self) -> WriterLoop | WriterProcess:
        """The writer's process or thread, (re)started when there is none."""
        if self._writer is None or not self._writer.alive:
            if self.writer == "process":
                self._writer = await WriterProcess.open(self.store.url)
            else:
                self._writer = await WriterLoop.open(self.store.url)
        return self._writer

    # ------------------------------------------------------------------ start-up

    def spooled_rooms(self) -> set[str]:
        """The rooms (uids) with entries in what an earlier run left in the spool."""
        found: set[str] = set()
        for path in self.spool.old:
            found.update(entry.room for entry, _, _ in read_segment(path) if entry is not None)
        return found

    async def recover(self, skip: Collection[str] = ()) -> int:
        """Store what an earlier run left in the spool (in order; entries already stored
        change nothing), then delete those segments. Call it once, before :meth:`start`
        and before the rooms are restored from the database.

        Args:
            skip: rooms (uids) whose entries are not stored but kept in ``rejected.jsonl``
                (another server process owns the room now and has written its own journal
                since: these entries would fork it).

        A fault of the database (:func:`is_transient`: locked, unreachable, full …) is
        retried with the running journal's back-off until the database takes the entries,
        with a warning at the first fault and then every :data:`RECOVER_TELL_SECONDS`:
        start-up waits for the database, as a running server's tables never do, but never
        gives up on what the spool holds.

        Returns:
            The number of entries read from the spool.

        Raises:
            OSError: the spool's files cannot be read or removed. (An entry the database
            refuses for good is set aside, :meth:`_apply`; cancelling, Ctrl-C, leaves
            the spool's unstored segments for the next start.)
        """
        count = 0
        for path in self.spool.old:
            entries: list[LiveEntry] = []
            for entry, line, why in read_segment(path):
                if entry is None:
                    log.warning("spool %s: skipped %s: %.120s", path.name, why, line)
                    if why is not None and not why.startswith("a line cut short"):
                        self.spool.reject(None, line, why)
                    continue
                if entry.room in skip:
                    self.spool.reject(entry, line, "the room moved to another server process")
                    continue
                entries.append(entry)
            for i in range(0, len(entries), self.batch):
                await self._recover_batch(entries[i : i + self.batch], len(entries) - i)
            count += len(entries)
            path.unlink()
        if count:
            log.warning("replayed %d journal entries left in the spool %s", count, self.spool.directory)
        self.spool.old = []
        return count

    async def _back_off(self, delay: float) -> float:
        """Wait about ``delay`` seconds (with jitter) after a fault of the database; the
        next wait, doubled up to ``retry_max``."""
        await asyncio.sleep(delay * random.uniform(0.5, 1.0))
        return min(delay * 2, self.retry_max)

    async def _recover_batch(self, batch: list[LiveEntry], waiting: int) -> None:
        """Store one batch of the spool at start-up, retrying while the database faults
        (``waiting``: the entries of the segment not stored yet, for the log)."""
        delay = self.retry_first
        told = 0.0
        while True:
            try:
                await self._apply(batch)
            except Exception as exc:
                if not is_transient(exc):
                    raise
                now = time.monotonic()
                if now - told >= RECOVER_TELL_SECONDS:
                    told = now
                    log.warning(
                        "start-up: the database takes no writes (%s); %d entries left in the spool %s wait "
                        "for it, retrying",
                        _describe(exc),
                        waiting,
                        self.spool.directory,
                    )
                delay = await self._back_off(delay)
                continue
            if told:
                log.warning("start-up: the database takes writes again")
            return


#: how often start-up says again that it waits for the database (seconds)
RECOVER_TELL_SECONDS = 30.0


def _describe(exc: BaseException) -> str:
    """A one-line account of a database fault, without a password."""
    if isinstance(exc, RemoteStoreError):  # told by the writer process already
        return mask_url(str(exc))[:300]
    return mask_url(f"{type(exc).__name__}: {_first_line(exc)}")[:300]


class WriterLoop:
    """A :class:`Store` on an event loop of its own, run by a thread: coroutines given to
    :meth:`call` run there and the caller's loop waits for each once. Open it with
    ``await WriterLoop.open(url)``; :meth:`close` closes its store and stops the thread.
    A cancelled :meth:`call` cancels the coroutine in the thread.
    """

    def __init__(self) -> None:
        self.alive = True  # as a WriterProcess's
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="erqishi-journal", daemon=True)
        self.thread.start()
        self.store: Store | None = None

    @classmethod
    async def open(cls, url: str) -> WriterLoop:
        """Start the thread and open a store on ``url`` there.

        Raises:
            sqlalchemy.exc.OperationalError: the database cannot be reached (the thread
                is stopped again).
        """
        writer = cls()
        try:
            writer.store = await writer.call(Store.open(url))
        except BaseException:
            writer._stop()
            raise
        return writer

    async def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on this loop; its result (or exception)."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    async def apply_live(self, entries: Sequence[LiveEntry]) -> list[LiveResult]:
        """:meth:`Store.apply_live` there."""
        assert self.store is not None
        return await self.call(self.store.apply_live(entries))

    async def close(self) -> None:
        """Close the store and stop the thread."""
        try:
            if self.store is not None:
                await self.call(self.store.close())
        finally:
            self._stop()

    def _stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()

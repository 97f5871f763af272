"""The journal's writer in a process of its own: ``python -m erqishi.storage.writer``.

A busy server's main thread holds the interpreter nearly all the time. A writer thread
beside it (:class:`erqishi.storage.journal.WriterLoop`) then gets it only between the
main thread's slices, and a batch of entries, whose statements each hop between the
writer's event loop and the database driver's thread, takes tens of milliseconds per
``hand`` entry: at 200 tables the journal fell further behind every second. This
process owns the journal's database connection instead and stores what it is sent on
the machine's other core; the server hands it one batch at a time over a pipe and reads
one answer back, on its own event loop, with no thread hop.

The protocol, one JSON object a line on the child's standard input and output:

- ``{"op": "open", "url": URL}``, first: the database to write (the URL, password
  included, goes over the pipe, never on the command line where ``ps`` shows it). The
  child opens its store; when it cannot (the database is down), it says so and tries
  again at each ``apply``, so a database that is down costs no new process per retry;
- ``{"op": "apply", "n": N, "sync": [PATH…]}`` followed by N lines, each an entry's JSON
  (:meth:`erqishi.storage.live.LiveEntry.to_json`): stored as :meth:`Store.apply_live`
  stores them, with the same statements through a synchronous engine
  (:func:`erqishi.storage.store.apply_live_sync`: this process does nothing else, so it
  needs no event loop and no hop to a driver thread per statement), after ``fdatasync`` of
  the files ``sync`` names (the server's spool: its entries then survive a crash of the
  machine before any of them is in the database);
- the answer to each: ``{"ok": true}`` (with ``"error"`` when ``open`` could not open
  the store yet), with ``"results"`` (``[applied, match_id, hand_id]`` per entry, in
  order) for ``apply``; or ``{"ok": false, "error": TEXT, "transient": BOOL}``
  (:func:`erqishi.storage.journal.is_transient`).

The server has brought the database to the newest migration before it starts the child.
The child ends when its standard input does (the server closed it, or died), and on
Linux when its server dies (it asks for SIGINT then, which cancels a statement in
progress): a server killed with ``kill -9`` leaves no writer behind, even one waiting on
a lock. It runs in a session of its own and ignores SIGTERM, so the terminal's Ctrl-C and
a service manager's SIGTERM reach only the server, which then flushes through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import orjson
from sqlalchemy.engine import Engine

from erqishi.storage.lifetime import die_with_parent
from erqishi.storage.live import LiveEntry, LiveResult
from erqishi.storage.store import apply_live_sync, open_sync_engine

__all__ = ["RemoteStoreError", "WriterProcess", "main", "sync_and_close"]

#: The longest answer line read (an answer to 1,024 entries is about 25 KB).
_LINE_LIMIT = 1 << 22


class RemoteStoreError(Exception):
    """The writer process could not store a batch (or has ended).

    Attributes:
        transient: a fault of the database or of the process, worth retrying
            (:func:`erqishi.storage.journal.is_transient` reads it).
    """

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


#: Started by the server: import the package from where the server found it (its folder is
#: put first on the path only when the interpreter would not find it there anyway).
_BOOT = (
    "import signal, sys\n"
    # an interrupt while it starts (its imports) would only print a traceback: main()
    # takes interrupts from where it can leave cleanly
    "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    "if sys.argv[1] not in sys.path: sys.path.insert(0, sys.argv[1])\n"
    "from erqishi.storage.writer import main\n"
    "sys.exit(main())\n"
)

#: The environment variable in which the server tells the writer its process id.
_PARENT_VARIABLE = "ERQISHI_WRITER_PARENT"

#: Seconds a writer cut off mid-batch gets to cancel its statement (Ctrl-C, as a person
#: would: the PostgreSQL driver then cancels it in the server, so no session is left
#: holding locks) before it is killed.
_CANCEL_SECONDS = 2.0


class WriterProcess:
    """The journal's database writes in a child process (see the module), with the interface of
    :class:`erqishi.storage.journal.WriterLoop`: ``await WriterProcess.open(url)``, then
    :meth:`apply_live`, then :meth:`close`. One request at a time (the journal's single
    writer task). After a request is cut off (cancelled, or the process ended) the
    process is stopped and :attr:`alive` is False: open another.

    Every failure of the process itself (it cannot start, it ended, its answer is not one)
    is a :class:`RemoteStoreError` with ``transient`` set: only a refusal the child reports
    from the database is ever taken for a refusal of the entries.
    """

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._open = True
        #: it answered ``open``: it takes interrupts (before, it is killed: nothing to cancel)
        self._ready = False
        #: why the process could not open its store at start-up (it tries again at each
        #: batch), or None
        self.open_error: str | None = None

    @property
    def alive(self) -> bool:
        """The process runs and its pipe is in step (False once it ended or was stopped)."""
        return self._open and self.process.returncode is None

    @classmethod
    async def open(cls, url: str) -> WriterProcess:
        """Start the process and have it connect to ``url``, a database already at the
        newest migration (:meth:`Store.open` migrates it). A database that cannot be
        reached does not stop it: :attr:`open_error` says why, and each batch tries again.

        Raises:
            RemoteStoreError: the process could not start (``transient``).
        """
        package_root = str(Path(__file__).resolve().parents[2])  # the same erqishi as ours
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _BOOT,
                package_root,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                start_new_session=True,
                limit=_LINE_LIMIT,
                env={**os.environ, _PARENT_VARIABLE: str(os.getpid())},
            )
        except Exception as exc:  # no process (OSError), no thread to watch it (RuntimeError)…
            raise RemoteStoreError(f"the journal's writer process cannot start: {exc}", transient=True) from None
        writer = cls(process)
        try:
            answer = await writer._call(orjson.dumps({"op": "open", "url": url}) + b"\n")
        except BaseException:
            await writer._stop()
            raise
        writer._ready = True
        error = answer.get("error")
        writer.open_error = str(error) if error is not None else None
        return writer

    async def apply_live(
        self, entries: Sequence[LiveEntry], *, sync: Sequence[str] = (), lines: Sequence[bytes] | None = None
    ) -> list[LiveResult]:
        """:meth:`Store.apply_live` in the process: one result per entry, in order. The
        files ``sync`` (the journal's spool) are ``fdatasync``ed there first. ``lines``: the
        entries as JSON lines already (the journal's spool lines, each ending in a newline),
        sent as they are instead of being serialized again.

        Raises:
            RemoteStoreError: it failed there (``transient`` says whether a retry may
                help), or the process ended or answered nonsense (``transient``).
        """
        if lines is None or len(lines) != len(entries):
            lines = [orjson.dumps(e.to_json(), option=orjson.OPT_NON_STR_KEYS) + b"\n" for e in entries]
        header = orjson.dumps({"op": "apply", "n": len(entries), "sync": list(sync)}) + b"\n"
        answer = await self._call(header + b"".join(lines))
        try:
            results = answer["results"]
            if not isinstance(results, list) or len(results) != len(entries):
                raise TypeError("not one result per entry")
            return [LiveResult(e, bool(r[0]), _id(r[1]), _id(r[2])) for e, r in zip(entries, results, strict=True)]
        except (KeyError, IndexError, TypeError) as exc:
            await self._stop()
            raise RemoteStoreError(
                f"the journal's writer process gave a malformed answer: {exc}", transient=True
            ) from None

    async def _call(self, request: bytes) -> dict[str, Any]:
        if not self.alive:
            await self._stop()
            raise RemoteStoreError(
                f"the journal's writer process has ended (exit status {self.process.returncode})", transient=True
            )
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        done, why = False, ""
        try:
            stdin.write(request)
            await stdin.drain()
            line = await stdout.readline()
            done = True
        except (OSError, ValueError) as exc:  # a broken pipe; an overlong line
            line = b""
            why = str(exc)
        finally:
            if not done:  # cut off mid-request: the stream is out of step
                await asyncio.shield(self._stop(gently=True))
        if not done:
            raise RemoteStoreError(f"the journal's writer process failed: {why}", transient=True)
        try:
            answer = orjson.loads(line) if line else None
        except orjson.JSONDecodeError:
            answer = None
        if not isinstance(answer, dict):
            await self._stop(gently=True)
            what = f"gave no answer (exit status {self.process.returncode})" if not line else "answered nonsense"
            raise RemoteStoreError(f"the journal's writer process {what}", transient=True)
        if not answer.get("ok"):
            raise RemoteStoreError(str(answer.get("error")), transient=bool(answer.get("transient")))
        return answer

    async def close(self, timeout: float = 10.0) -> None:
        """Close its standard input (it closes its connections and exits) and wait up to
        ``timeout`` seconds; then stop it (Ctrl-C, then kill)."""
        if not self._open:
            await self._stop()
            return
        self._open = False
        stdin = self.process.stdin
        if stdin is not None:
            stdin.close()
            with contextlib.suppress(OSError):
                await stdin.wait_closed()
        try:
            async with asyncio.timeout(timeout):
                await self.process.wait()
        except TimeoutError:
            await self._stop(gently=True)

    async def _stop(self, *, gently: bool = False) -> None:
        """End the process: with ``gently``, Ctrl-C first (it cancels a statement in
        progress), then after :data:`_CANCEL_SECONDS` a kill. A process that has not
        answered ``open`` yet is killed at once (it ignores Ctrl-C while it starts)."""
        self._open = False
        if self.process.returncode is None and gently and self._ready:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGINT)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(_CANCEL_SECONDS):
                    await self.process.wait()
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        await self.process.wait()


def _sync_file(path: str) -> None:
    """``fdatasync`` the file at ``path`` (the journal's spool), if it is there."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    sync_and_close(fd)


def sync_and_close(fd: int) -> None:
    """``fdatasync`` the file open as ``fd`` (a failure changes nothing: the entries stay
    in the page cache), then close ``fd``."""
    try:
        os.fdatasync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _id(value: Any) -> int | None:
    if value is None or type(value) is int:
        return value
    raise TypeError(f"an id is a number or null, got {value!r}")


def _serve(requests: BinaryIO, answers: BinaryIO) -> None:
    from erqishi.storage.journal import _describe, is_transient

    engine: Engine | None = None
    url: str | None = None

    def answer(data: dict[str, Any]) -> None:
        answers.write(orjson.dumps(data) + b"\n")
        answers.flush()

    def opened() -> Engine:
        # a synchronous engine: this process does nothing else, so no event loop and no
        # hop to a driver thread per statement (what a writer in the server needs)
        nonlocal engine
        if url is None:
            raise RemoteStoreError("no database was named", transient=True)
        if engine is None:
            engine = open_sync_engine(url)
            try:
                with engine.connect():
                    pass  # reach the database now, so that open can say it cannot
            except BaseException:
                engine.dispose()
                engine = None
                raise
        return engine

    try:
        while header := requests.readline():
            try:
                request = orjson.loads(header)
                if request.get("op") == "open":
                    url = str(request["url"])
                    try:
                        opened()
                    except Exception as exc:  # the database is down: try again at each batch
                        answer({"ok": True, "error": _describe(exc)})
                        continue
                    answer({"ok": True})
                    continue
                lines = [requests.readline() for _ in range(int(request["n"]))]
                for path in request.get("sync", ()):
                    _sync_file(str(path))
                entries = [LiveEntry.from_json(orjson.loads(line)) for line in lines]
                try:
                    writing = opened()
                except Exception as exc:
                    # the server opened this very database: what keeps us from it now
                    # is a fault of the moment, never a refusal of the entries
                    raise RemoteStoreError(_describe(exc), transient=True) from None
                results = apply_live_sync(writing, entries)
                answer({"ok": True, "results": [[r.applied, r.match_id, r.hand_id] for r in results]})
            except Exception as exc:
                answer({"ok": False, "error": _describe(exc), "transient": is_transient(exc)})
    finally:
        # leaving, whether the input ended or an interrupt came: an interrupt now must not
        # cut the clean-up short, where it would only print tracebacks into the server's
        # log. The server's death brings both the end of the input and, a moment later,
        # SIGINT (a test met it inside ``dispose``)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if engine is not None:
            engine.dispose()


def main() -> int:
    """Serve requests on standard input until it ends (see the module); exit status 0.

    The server ends it by closing its input. SIGTERM is ignored (a service manager that
    signals every process of the server lets the server flush through it first); the
    death of the server sends it SIGINT (Linux), which cancels a statement in progress,
    so a writer blocked on a lock does not outlive its server.
    """
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    told = os.environ.get(_PARENT_VARIABLE, "")
    parent = int(told) if told.isdigit() else None
    if not die_with_parent(signal.SIGINT, parent):  # the server died before we asked
        return 0
    signal.signal(signal.SIGINT, signal.default_int_handler)  # ignored while it started
    _report_faults_but_not_interrupts()
    # the answers get a descriptor of their own (3 or above: never 0-2, even when the server
    # started us with standard error closed); anything printed by accident goes to the log
    answers = os.fdopen(fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3), "wb")
    try:
        os.fstat(2)
        os.dup2(2, 1)
    except OSError:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        _serve(sys.stdin.buffer, answers)
    return 0


class _NoInterrupts(logging.Filter):
    """Drops records about a :class:`KeyboardInterrupt`: the interrupt is how this process
    is asked to leave, so SQLAlchemy meeting it while it closes a connection (which it
    reports with a traceback) is no fault."""

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0] if record.exc_info else None
        return not (kind is not None and issubclass(kind, KeyboardInterrupt))


def _report_faults_but_not_interrupts() -> None:
    """Warnings and errors of the libraries go to standard error (the server's log), as
    Python's last-resort handler would print them, less those about an interrupt."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.addFilter(_NoInterrupts())
    logging.getLogger().addHandler(handler)


if __name__ == "__main__":
    # run the module's own copy: its RemoteStoreError is the one the journal tells
    # apart (``python -m`` runs this file as ``__main__``, a second copy of each class)
    from erqishi.storage.writer import main as _main

    sys.exit(_main())

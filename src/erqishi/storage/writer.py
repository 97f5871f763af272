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
- ``{"op": "apply", "n": N}`` followed by N lines, each an entry's JSON
  (:meth:`erqishi.storage.live.LiveEntry.to_json`): stored as :meth:`Store.apply_live`
  stores them, with the same statements through a synchronous engine
  (:func:`erqishi.storage.store.apply_live_sync`: this process does nothing else, so it
  needs no event loop and no hop to a driver thread per statement);
- the answer to each: ``{"ok": true}`` (with ``"error"`` when ``open`` could not open
  the store yet), with ``"results"`` (``[applied, match_id, hand_id]`` per entry, in
  order) for ``apply``; or ``{"ok": false, "error": TEXT, "transient": BOOL}``
  (:func:`erqishi.storage.journal.is_transient`).

The server has brought the database to the newest migration before it starts the child.
The child ends when its standard input does (the server closed it, or died: a server
killed with ``kill -9`` leaves no writer behind once the batch in hand is stored). It
runs in a session of its own, so the terminal's Ctrl-C reaches only the server, which
then flushes through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import orjson
from sqlalchemy.engine import Engine

from erqishi.storage.live import LiveEntry, LiveResult
from erqishi.storage.store import apply_live_sync, open_sync_engine

__all__ = ["RemoteStoreError", "WriterProcess", "main"]

#: The longest answer line read (an answer to 256 entries is about 6 KB).
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


class WriterProcess:
    """The journal's database writes in a child process (see the module), with the interface of
    :class:`erqishi.storage.journal.WriterLoop`: ``await WriterProcess.open(url)``, then
    :meth:`apply_live`, then :meth:`close`. One request at a time (the journal's single
    writer task). After a request is cut off (cancelled, or the process ended) the
    process is stopped and :attr:`alive` is False: open another.
    """

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.alive = True
        #: why the process could not open its store at start-up (it tries again at each
        #: batch), or None
        self.open_error: str | None = None

    @classmethod
    async def open(cls, url: str) -> WriterProcess:
        """Start the process and have it connect to ``url``, a database already at the
        newest migration (:meth:`Store.open` migrates it). A database that cannot be
        reached does not stop it: :attr:`open_error` says why, and each batch tries again.

        Raises:
            RemoteStoreError: the process could not start (``transient``).
        """
        package_root = str(Path(__file__).resolve().parents[2])  # the same erqishi as ours
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "erqishi.storage.writer",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env=env,
                start_new_session=True,
                limit=_LINE_LIMIT,
            )
        except OSError as exc:
            raise RemoteStoreError(f"the journal's writer process cannot start: {exc}", transient=True) from None
        writer = cls(process)
        try:
            answer = await writer._call(orjson.dumps({"op": "open", "url": url}) + b"\n")
        except BaseException:
            await writer._stop()
            raise
        error = answer.get("error")
        writer.open_error = str(error) if error is not None else None
        return writer

    async def apply_live(self, entries: Sequence[LiveEntry]) -> list[LiveResult]:
        """:meth:`Store.apply_live` in the process: one result per entry, in order.

        Raises:
            RemoteStoreError: it failed there (``transient`` says whether a retry may
                help), or the process ended.
        """
        lines = [orjson.dumps({"op": "apply", "n": len(entries)})]
        lines += (orjson.dumps(e.to_json(), option=orjson.OPT_NON_STR_KEYS) for e in entries)
        answer = await self._call(b"\n".join(lines) + b"\n")
        results = answer.get("results")
        if not isinstance(results, list) or len(results) != len(entries):
            await self._stop()
            raise RemoteStoreError("the journal's writer process gave a malformed answer", transient=True)
        return [LiveResult(e, bool(r[0]), r[1], r[2]) for e, r in zip(entries, results, strict=True)]

    async def _call(self, request: bytes) -> dict[str, Any]:
        if not self.alive:
            raise RemoteStoreError("the journal's writer process has ended", transient=True)
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
            if not done:
                await asyncio.shield(self._stop())  # cut off mid-request: the stream is unknown
        if not line:
            code = self.process.returncode
            if not done:
                raise RemoteStoreError(f"the journal's writer process failed: {why}", transient=True)
            await self._stop()
            raise RemoteStoreError(f"the journal's writer process ended (exit status {code})", transient=True)
        answer = orjson.loads(line)
        if not answer.get("ok"):
            raise RemoteStoreError(str(answer.get("error")), transient=bool(answer.get("transient")))
        return answer  # type: ignore[no-any-return]

    async def close(self, timeout: float = 10.0) -> None:
        """Close its standard input (it closes the store and exits) and wait up to
        ``timeout`` seconds, then kill it."""
        if not self.alive:
            return
        self.alive = False
        stdin = self.process.stdin
        if stdin is not None:
            stdin.close()
            with contextlib.suppress(OSError):
                await stdin.wait_closed()
        try:
            async with asyncio.timeout(timeout):
                await self.process.wait()
        except TimeoutError:
            await self._stop()

    async def _stop(self) -> None:
        self.alive = False
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()


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
        if engine is not None:
            engine.dispose()


def main() -> int:
    """Serve requests on standard input until it ends (see the module); exit status 0."""
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed by accident goes to the log, not into the answers
    with contextlib.suppress(BrokenPipeError):
        _serve(sys.stdin.buffer, answers)
    return 0


if __name__ == "__main__":
    # run as ``-m``, this file is ``__main__``: serve with the module's own classes, so
    # that is_transient knows the RemoteStoreError raised here
    from erqishi.storage.writer import main as serve

    sys.exit(serve())

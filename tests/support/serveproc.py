"""A real ``erqishi serve`` process on a loopback port, to be killed (``kill -9``) and
started again on the same port; and a TCP proxy in front of a database server that a
test can cut and restore (the database "goes down" for the server behind it)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServeProcess:
    """``erqishi serve`` as a child process.

    Args:
        db: the database (``--db``), passed as ``ERQISHI_DB``.
        args: more command-line options.
        log: where its standard error goes (appended across restarts).
        bound: run it without the capabilities that let root ignore file permissions
            (``setpriv``, Linux; the tests run as root), so that a read-only file binds it.
    """

    def __init__(self, db: str, args: list[str], log: Path, *, bound: bool = False) -> None:
        self.db = db
        self.args = args
        self.log = log
        self.bound = bound
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until it answers ``/healthz``.

        Raises:
            RuntimeError: it exited or did not answer in time (its log is quoted).
        """
        exe = Path(sys.executable).with_name("erqishi")
        # the database URL (a PostgreSQL password with it) goes in the environment, as the
        # README advises, never on the command line that ``ps`` shows
        cmd = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.args]
        if self.bound:
            cmd = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--", *cmd]
        env = {**os.environ, "ERQISHI_DB": self.db}
        with self.log.open("ab") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        self.starts += 1
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"erqishi serve exited with {self.proc.returncode}:\n{self.log_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"erqishi serve did not answer in {timeout} s:\n{self.log_text()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """``kill -9`` the server and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        """Stop the server gracefully (SIGINT, as Ctrl-C), or kill it after 15 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""


class Proxy:
    """A TCP proxy on a loopback port to ``target`` (host, port), run on the test's event
    loop: :meth:`cut` closes every connection through it and refuses new ones (the server
    behind it is unreachable), :meth:`restore` accepts them again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    async def restore(self) -> None:
        """Listen (again)."""
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port, reuse_address=True)

    async def cut(self) -> None:
        """Stop listening and close every open connection."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._pipes):
            writer.transport.abort()
        self._pipes.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._pipes |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.IncompleteReadError, asyncio.CancelledError):
                pass
            finally:
                dst.transport.abort()
                self._pipes.discard(dst)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

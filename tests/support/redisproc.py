"""A real Redis server (Debian's ``redis-server``) of a test's own, on a free loopback
port, without persistence, in a temporary directory; never a system-wide one."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from support.serveproc import free_port


def redis_server() -> str | None:
    """The path of ``redis-server``, or None when it is not installed."""
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None
    )


@contextlib.contextmanager
def running_redis(directory: Path) -> Iterator[str]:
    """Start ``redis-server`` on 127.0.0.1 and yield its URL; stopped (and reaped) after.

    Raises:
        RuntimeError: it is not installed, exited, or did not answer in 10 s.
    """
    exe = redis_server()
    if exe is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server, or scripts/system-deps.sh)")
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    cmd = [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
           "--dir", str(directory), "--protected-mode", "yes", "--loglevel", "warning"]  # fmt: skip
    with (directory / "redis.log").open("ab") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 10
        while True:
            if proc.poll() is not None:
                said = (directory / "redis.log").read_text()
                raise RuntimeError(f"redis-server exited with {proc.returncode}: {said}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer in 10 s")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

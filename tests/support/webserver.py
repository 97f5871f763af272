"""Run the web server in a background thread on a loopback port, for the protocol and
browser tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import httpx
import uvicorn

from erqishi.server.app import create_app
from erqishi.server.room import RoomManager
from erqishi.server.settings import Settings

#: Bots move at once and a person has all the time in the world unless a test says otherwise;
#: a test client may act far faster than a person, so the rate limit is raised (except in the
#: tests of the limits themselves). ``Settings(db_url=…, seed=…, **FAST)``.
FAST: dict[str, Any] = {
    "bot_delay": 0.0,
    "response_seconds": 30.0,
    "turn_seconds": 30.0,
    "grace_seconds": 30.0,
    "rate_per_second": 1e4,
}


class RunningServer:
    """A server started by :func:`running_server`: its base URL and its app."""

    def __init__(self, url: str, app: Any) -> None:
        self.url = url
        self.ws_url = url.replace("http://", "ws://", 1)
        self.app = app

    @property
    def rooms(self) -> RoomManager:
        """The server's rooms (read them only while no message is in flight)."""
        manager: RoomManager = self.app.state.holder["rooms"]
        return manager


class Served(Protocol):
    """A server the tests started: a :class:`RunningServer` or a ``ServeProcess``."""

    url: str


async def get_json(srv: Served, path: str) -> Any:
    """``GET path`` on ``srv``, which must answer 200; its JSON."""
    async with httpx.AsyncClient(base_url=srv.url) as http:
        reply = await http.get(path)
        assert reply.status_code == 200, reply.text
        return reply.json()


@contextmanager
def running_server(settings: Settings) -> Iterator[RunningServer]:
    """Serve ``create_app(settings)`` on 127.0.0.1 at a free port until the block ends."""
    app = create_app(settings)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536, lifespan="on")
    server = uvicorn.Server(config)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield RunningServer(f"http://127.0.0.1:{port}", app)
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()

"""Limits against abuse (docs/protocol.md, "Limits"): what one client address may hold and
do, bounds on what is parsed, security headers, and logging that a client cannot flood.

- :class:`Guard` counts per client address: WebSockets open and opened a minute, HTTP
  requests in progress, rooms created in a window. Each refusal is a :class:`Refusal`
  with the protocol's error code, an HTTP status and words in Chinese and English.
- :class:`GuardMiddleware` (ASGI) puts the security headers on every HTTP response,
  refuses a client over its requests in progress, and reads a request body only up to
  ``max_body_bytes`` (a larger one is refused from its ``Content-Length`` unread, or as
  soon as it passes the bound) and checks its JSON nesting before anything parses it.
- :func:`json_too_deep` bounds nesting in one linear scan, before ``json.loads``.
- :class:`LogThrottle` lets one line per client (or per kind of line) through per interval
  and counts the rest into the next line.

Everything here runs on the server's one event loop (no locks); counts are forgotten as
soon as they fall to zero, so memory follows the addresses active now.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from erqishi.server.settings import PROTOCOL_VERSION, Settings

__all__ = [
    "SECURITY_HEADERS",
    "Guard",
    "GuardMiddleware",
    "LogThrottle",
    "Refusal",
    "client_address",
    "install_log_throttle",
    "json_too_deep",
]

log = logging.getLogger("erqishi.server")

#: The pages load their scripts, styles and manifest from this origin only (no inline
#: script or style: the client builds its DOM through ``dom.js`` and sets styles through
#: the CSSOM), talk to this origin only (``'self'`` covers its WebSocket), draw only
#: images of this origin or ``data:`` (the empty favicon), and are framed by nobody.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

#: Sent with every HTTP response. ``no-referrer``: a room's link (its code) never leaves
#: in a Referer header.
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
)
_HEADER_NAMES = frozenset(name.encode() for name, _ in SECURITY_HEADERS)
_RAW_HEADERS = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a client is refused: the protocol's error ``code``, the HTTP ``status``, and what
    a person reads (``zh``, ``en``)."""

    code: str
    status: int
    zh: str
    en: str

    @property
    def message(self) -> str:
        """Both languages, Chinese first: ``"…。 / …"``."""
        return f"{self.zh} / {self.en}"

    def json(self) -> dict[str, Any]:
        """The protocol's ``error`` object."""
        return {
            "v": PROTOCOL_VERSION,
            "type": "error",
            "code": self.code,
            "message": self.message,
            "message_zh": self.zh,
            "ref": None,
        }


def client_address(scope: Scope) -> str:
    """The client's IP address of an ASGI scope (after uvicorn's trusted proxy headers), or
    ``"?"`` when the server does not know it."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


# ---------------------------------------------------------------------------- counting


class _Window:
    """Events per key in the last ``seconds`` (a sliding log per key, forgotten when empty)."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self.events: dict[str, deque[float]] = {}
        self._hits = 0

    def count(self, key: str) -> int:
        """The events of ``key`` still in the window."""
        found = self.events.get(key)
        if found is None:
            return 0
        cut = self.clock() - self.seconds
        while found and found[0] <= cut:
            found.popleft()
        if not found:
            del self.events[key]
            return 0
        return len(found)

    def add(self, key: str) -> None:
        """One event of ``key`` now (and, now and then, forget keys with none left)."""
        self.events.setdefault(key, deque()).append(self.clock())
        self._hits += 1
        if self._hits % 1024 == 0:
            for old in list(self.events):
                self.count(old)


class Guard:
    """What each client address holds and has done, against the limits of ``settings``
    (a limit of 0 is off).

    Args:
        settings: the limits (``max_sockets_per_address`` and the rest).
        clock: seconds, monotonic (a test may pass its own).
    """

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.sockets: dict[str, int] = {}
        self.requests: dict[str, int] = {}
        self.connects = _Window(60.0, clock)
        self.rooms = _Window(settings.rooms_window_seconds, clock)
        self.misses = _Window(60.0, clock)
        self.throttle = LogThrottle(settings.log_interval_seconds, clock)

    def open_socket(self, address: str) -> Refusal | None:
        """A WebSocket of ``address`` opens: counted, or refused (nothing counted) with
        ``too_many_connections`` when the address holds ``max_sockets_per_address`` open or
        opened ``max_connects_per_minute`` in the last minute."""
        s = self.settings
        held = self.sockets.get(address, 0)
        if s.max_sockets_per_address and held >= s.max_sockets_per_address:
            return self._refuse(
                address,
                Refusal(
                    "too_many_connections",
                    429,
                    f"你的网络地址已经开了 {held} 个连接，请先关掉一些页面",
                    f"your address already holds {held} connections; close some tabs first",
                ),
            )
        if s.max_connects_per_minute and self.connects.count(address) >= s.max_connects_per_minute:
            return self._refuse(
                address,
                Refusal(
                    "too_many_connections",
                    429,
                    "连接太频繁，请一分钟后再试",
                    f"more than {s.max_connects_per_minute} connections a minute from your address; "
                    "try again in a minute",
                ),
            )
        self.sockets[address] = held + 1
        if s.max_connects_per_minute:
            self.connects.add(address)
        return None

    def close_socket(self, address: str) -> None:
        """A WebSocket counted by :meth:`open_socket` closed."""
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)

    def create_room(self, address: str) -> Refusal | None:
        """``address`` creates a room: counted, or refused with ``too_many_rooms`` (429) past
        ``max_rooms_per_address`` in ``rooms_window_seconds``."""
        s = self.settings
        if s.max_rooms_per_address and self.rooms.count(address) >= s.max_rooms_per_address:
            minutes = max(1, round(s.rooms_window_seconds / 60))
            return self._refuse(
                address,
                Refusal(
                    "too_many_rooms",
                    429,
                    f"每个网络地址 {minutes} 分钟内最多开 {s.max_rooms_per_address} 个房间，请稍后再试",
                    f"at most {s.max_rooms_per_address} rooms per address in {minutes} minutes; try again later",
                ),
            )
        if s.max_rooms_per_address:
            self.rooms.add(address)
        return None

    def look_up(self, address: str) -> Refusal | None:
        """``address`` asks for a room by its code: refused with ``too_many_misses`` (429)
        when it asked for ``max_misses_per_minute`` codes that were no room in the last
        minute (someone guessing codes), else None."""
        limit = self.settings.max_misses_per_minute
        if limit and self.misses.count(address) >= limit:
            return self._refuse(
                address,
                Refusal(
                    "too_many_misses",
                    429,
                    "找了太多不存在的房间，请一分钟后再试",
                    f"more than {limit} room codes that are no room in a minute from your address; "
                    "try again in a minute",
                ),
            )
        return None

    def missed(self, address: str) -> None:
        """A room code ``address`` asked for was no room (counted for :meth:`look_up`)."""
        if self.settings.max_misses_per_minute:
            self.misses.add(address)

    def enter_request(self, address: str) -> Refusal | None:
        """An HTTP request of ``address`` starts: counted, or refused with
        ``too_many_requests`` (429) past ``max_requests_per_address`` in progress."""
        held = self.requests.get(address, 0)
        limit = self.settings.max_requests_per_address
        if limit and held >= limit:
            return self._refuse(
                address,
                Refusal(
                    "too_many_requests",
                    429,
                    "请求太多，请稍后再试",
                    f"more than {limit} requests at once from your address; try again later",
                ),
            )
        self.requests[address] = held + 1
        return None

    def leave_request(self, address: str) -> None:
        """An HTTP request counted by :meth:`enter_request` ended."""
        left = self.requests.get(address, 0) - 1
        if left > 0:
            self.requests[address] = left
        else:
            self.requests.pop(address, None)

    def bad_input(self, address: str, what: str, code: str) -> None:
        """Note a refused input of ``address`` in the log: one line per address per
        interval at most (:class:`LogThrottle`)."""
        log.info("refused %s from %s: %s", what, address, code, extra={"client": address})

    def _refuse(self, address: str, refusal: Refusal) -> Refusal:
        self.bad_input(address, "a client over its limit", refusal.code)
        return refusal


# ---------------------------------------------------------------------------- parsing

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_STRING_B = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_BRACKETS_B = re.compile(rb"[\[\]{}]")


def json_too_deep(text: str | bytes, limit: int) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit``, counted in
    one scan that skips strings, before anything parses it (so no parser recurses on it).
    Malformed text is not judged here: the parser refuses it after.

    >>> json_too_deep('{"a": [[1]], "b": "[[[["}', 3), json_too_deep("[[[[]]]]", 3)
    (False, True)
    """
    if isinstance(text, bytes):
        brackets: list[str] = [chr(b[0]) for b in _BRACKETS_B.findall(_STRING_B.sub(b"", text))]
    else:
        brackets = _BRACKETS.findall(_STRING.sub("", text))
    if len(brackets) <= limit:
        return False
    depth = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class GuardMiddleware:
    """The ASGI middleware of :mod:`erqishi.server.guard` (see there).

    Args:
        app: the app it guards.
        guard: the per-address counts.
        settings: ``max_body_bytes``, ``max_json_depth``.
    """

    def __init__(self, app: ASGIApp, guard: Guard, settings: Settings) -> None:
        self.app = app
        self.guard = guard
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        head = scope.get("method") == "HEAD"
        if head:  # HEAD is GET without the body (RFC 9110): every page and endpoint answers it
            scope = {**scope, "method": "GET"}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _HEADER_NAMES]
                message["headers"] = headers + _RAW_HEADERS
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        address = client_address(scope)
        refused = self.guard.enter_request(address)
        if refused is not None:
            await _answer(send_with_headers, refused.status, refused.json())
            return
        try:
            body_receive = await self._bounded_body(scope, receive, send_with_headers, address)
            if body_receive is not None:
                await self.app(scope, body_receive, send_with_headers)
        finally:
            self.guard.leave_request(address)

    async def _bounded_body(self, scope: Scope, receive: Receive, send: Send, address: str) -> Receive | None:
        """A ``receive`` that replays the body read here within the bounds, or None once
        the request has been answered with its refusal (413 ``too_big``, 400 ``too_deep``)."""
        limit = self.settings.max_body_bytes
        headers = dict(scope.get("headers", []))
        length = headers.get(b"content-length")
        chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
        if length is None and not chunked:
            return receive  # no body (GET, HEAD…)
        too_big = Refusal(
            "too_big", 413, f"请求内容太大（最多 {limit} 字节）", f"request body over the limit of {limit} bytes"
        )
        if limit and length is not None and (not length.isdigit() or int(length) > limit):
            self.guard.bad_input(address, "an HTTP body", too_big.code)
            await _answer(send, too_big.status, too_big.json())
            return None
        parts: list[bytes] = []
        size = 0
        wait = self.settings.body_timeout_seconds or None
        while True:
            try:
                message = await asyncio.wait_for(receive(), wait)
            except TimeoutError:  # a body trickled in to hold the connection (slowloris)
                slow = Refusal(
                    "too_slow",
                    408,
                    f"请求内容来得太慢（每段最多等 {wait:g} 秒）",
                    f"the request body came too slowly (at most {wait:g} s between its parts)",
                )
                self.guard.bad_input(address, "an HTTP body", slow.code)
                await _answer(send, slow.status, slow.json())
                return None
            if message["type"] != "http.request":
                return receive  # the client left: let the app see it
            chunk = message.get("body", b"")
            size += len(chunk)
            if limit and size > limit:
                self.guard.bad_input(address, "an HTTP body", too_big.code)
                await _answer(send, too_big.status, too_big.json())
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(parts)
        depth = self.settings.max_json_depth
        if depth and json_too_deep(body, depth):
            refusal = Refusal(
                "too_deep", 400, f"JSON 嵌套太深（最多 {depth} 层）", f"JSON nested deeper than {depth} levels"
            )
            self.guard.bad_input(address, "an HTTP body", refusal.code)
            await _answer(send, refusal.status, refusal.json())
            return None
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay


async def _answer(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


# ---------------------------------------------------------------------------- logging


#: messages that uvicorn logs with a traceback for what a client sent (its fault, not the
#: server's)
_CLIENT_FAULTS = frozenset(["Invalid UTF-8 sequence received from client."])


class LogThrottle(logging.Filter):
    """At most one record per key per ``interval`` seconds; the next one let through says
    how many were held back. The key is the record's ``client`` (``extra={"client": …}``)
    when it has one, else its logger, message template and arguments.

    Args:
        interval: seconds between two records of one key.
        clock: seconds, monotonic.
    """

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self.last: dict[object, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """True to let ``record`` through. A client's bad bytes that the server below the
        app reports with a traceback (uvicorn's "Invalid UTF-8 sequence") are one line:
        the traceback says nothing about the server."""
        if record.exc_info and record.msg in _CLIENT_FAULTS:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(exc).__name__}: {str(exc)[:120]})"
            record.args = None
            record.exc_info = record.exc_text = None
        client = getattr(record, "client", None)
        key: object = ("client", client) if client is not None else (record.name, record.msg, repr(record.args)[:200])
        now = self.clock()
        seen = self.last.get(key)
        if seen is not None and now - seen[0] < self.interval:
            self.last[key] = (seen[0], seen[1] + 1)
            return False
        if len(self.last) > 10_000:
            cut = now - self.interval
            self.last = {k: v for k, v in self.last.items() if v[0] > cut}
        self.last[key] = (now, 0)
        if seen is not None and seen[1]:
            record.msg = f"{record.getMessage()} ({seen[1]} similar lines held back in {self.interval:g} s)"
            record.args = None
        return True


def install_log_throttle(throttle: LogThrottle, names: tuple[str, ...] = ("erqishi.server", "uvicorn.error")) -> None:
    """Put ``throttle`` on the loggers ``names`` (the server's and uvicorn's protocol
    warnings), replacing any throttle installed before."""
    for name in names:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, LogThrottle)]:
            logger.removeFilter(old)
        logger.addFilter(throttle)

"""A WebSocket test client for the web protocol (docs/protocol.md): keeps every message it
receives and plays random legal actions, answering each decision once."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import websockets


async def create_room(base_url: str, **body: Any) -> str:
    """POST /api/rooms and return the code."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post("/api/rooms", json={"v": 2, **body})
        assert reply.status_code == 201, reply.text
        code: str = reply.json()["code"]
        return code


class Client:
    """One connection to a room."""

    def __init__(self, ws_url: str, code: str, name: str | None = None, token: str | None = None) -> None:
        self.url = f"{ws_url}/ws/{code}"
        self.name = name
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._event = asyncio.Event()
        self.member: str | None = None
        self._log: list[dict[str, Any]] = []
        self._log_hand: int | None = None

    async def connect(self, *, hello: bool = True) -> Client:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        self._reader = asyncio.create_task(self._read())
        if hello:
            body: dict[str, Any] = {"v": 2, "type": "hello"}
            if self.name:
                body["name"] = self.name
            if self.token:
                body["token"] = self.token
            await self.send(body)
            welcome = await self.wait_for(lambda m: m["type"] == "welcome")
            self.token = welcome["token"]
            self.member = welcome["member"]
            await self.wait_for(lambda m: m["type"] == "state")
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message.get("type") == "state" and message.get("game") is not None:
                    self._join_log(message["game"])
                self.messages.append(message)
                self._event.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._event.set()

    def _join_log(self, game: dict[str, Any]) -> None:
        """The server sends only the hand's events not sent yet (docs/protocol.md): keep the
        whole log, as a client does, in each state (``raw_log`` is what came on the wire)."""
        start = game["log_from"]
        if start == 0 or game["hand"] != self._log_hand:
            self._log = []
        assert start == len(self._log), f"a gap in the log: from {start}, have {len(self._log)}"
        game["raw_log"] = game["log"]
        self._log = self._log + game["log"]
        self._log_hand = game["hand"]
        game["log"] = self._log

    async def send(self, body: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(body if isinstance(body, str | bytes) else json.dumps(body))

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            await self._reader

    @property
    def closed(self) -> bool:
        return self._reader is not None and self._reader.done()

    async def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0, start: int = 0
    ) -> dict[str, Any]:
        """The first message from index ``start`` on that satisfies ``pred``."""
        async with asyncio.timeout(timeout):
            i = start
            while True:
                while i < len(self.messages):
                    if pred(self.messages[i]):
                        return self.messages[i]
                    i += 1
                if self.closed:
                    raise ConnectionError("the connection closed")
                self._event.clear()
                if i < len(self.messages):
                    continue
                await self._event.wait()

    async def next_message(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message after those already seen."""
        return await self.wait_for(lambda m: True, timeout, start=len(self.messages))

    @property
    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]

    @property
    def last_state(self) -> dict[str, Any]:
        return self.states[-1]

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]


async def play_step(
    client: Client,
    state: dict[str, Any],
    rng: random.Random,
    readied: set[int],
    answered: set[tuple[int, int]],
) -> bool:
    """Answer one state of a started match as a random player: ready once between hands
    (``readied``, by hand), a uniformly random legal action once per decision
    (``answered``, by (hand, step)). True when the match is over."""
    room, game = state["room"], state["game"]
    if game is None:
        return False
    if game["match_over"] is not None:
        return True
    if room["status"] == "between" and game["hand"] not in readied:
        readied.add(game["hand"])
        await client.send({"v": 2, "type": "next"})
        return False
    key = (game["hand"], game["step"])
    if game["legal"] and key not in answered:
        answered.add(key)
        action = rng.choice(game["legal"])
        await client.send({"v": 2, "type": "act", "action": action, "seq": state["seq"]})
    return False


async def play_randomly(
    client: Client,
    rng: random.Random,
    *,
    seat: int,
    start: bool = False,
    stop: Callable[[dict[str, Any]], bool] | None = None,
    timeout: float = 60.0,
    on_state: Callable[[Client, dict[str, Any]], Awaitable[bool]] | None = None,
    sit: bool = True,
) -> dict[str, Any]:
    """Sit at ``seat`` and play uniformly random legal actions until the match is over (or
    ``stop`` holds for a state). Each decision (hand, step) is answered once. Returns the
    last state seen. ``on_state`` sees each newest state of a started match first (to send
    other messages: talk, 托管…); when it returns True, that state is not acted on. With
    ``sit`` False the client sits at ``seat`` already."""
    if sit:
        await client.send({"v": 2, "type": "sit", "seat": seat})
    answered: set[tuple[int, int]] = set()
    readied: set[int] = set()
    started = not start
    seen = 0
    async with asyncio.timeout(timeout):
        while True:
            state = await client.wait_for(lambda m: m["type"] == "state", start=seen)
            seen = client.messages.index(state, seen) + 1
            if any(m["type"] == "state" for m in client.messages[seen:]):
                continue  # act on the newest state only
            if stop is not None and stop(state):
                return state
            room = state["room"]
            if room["status"] == "lobby":
                if not started and all(s["kind"] != "empty" for s in room["seats"]):
                    started = True
                    await client.send({"v": 2, "type": "start"})
                continue
            game = state["game"]
            if (
                on_state is not None
                and game is not None
                and game["match_over"] is None
                and await on_state(client, state)
            ):
                continue
            if await play_step(client, state, rng, readied, answered):
                return state

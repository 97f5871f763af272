"""Abuse refused (docs/protocol.md, "Limits"), over a real server and real sockets:
spectators who leave are forgotten, each client address is held to its connections,
requests, rooms and spectators, live rooms are not listed to strangers, bodies and frames
are bounded before they are parsed, integers are range-checked, every response carries
the security headers, names are checked, and a flood of bad input logs one line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from erqishi.play.replay import describe
from erqishi.records import parse_record
from erqishi.server.guard import SECURITY_HEADERS
from erqishi.server.settings import Settings
from support.webclient import Client, create_room
from support.webserver import RunningServer, running_server

FAST = {"bot_delay": 0.0, "rate_per_second": 1e4, "rate_burst": 1e4}
RECORDS = Path(__file__).parents[1] / "data" / "records"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(Settings(db_url=str(tmp_path / "web.db"), seed=5, **FAST)) as srv:  # type: ignore[arg-type]
        yield srv


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One server for the tests that change nothing another test reads."""
    db = tmp_path_factory.mktemp("shared") / "web.db"
    with running_server(Settings(db_url=str(db), max_rooms_per_address=0, **FAST)) as srv:  # type: ignore[arg-type]
        yield srv


def limited(path: Path, **limits: float) -> Iterator[RunningServer]:
    """A test server on the database ``path`` with ``limits`` (Settings fields)."""
    with running_server(Settings(db_url=str(path), seed=6, **limits, **FAST)) as srv:  # type: ignore[arg-type]
        yield srv


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[RunningServer]:
    """A server with small limits per address."""
    yield from limited(
        tmp_path / "tight.db",
        max_sockets_per_address=3,
        max_connects_per_minute=8,
        max_requests_per_address=1,
        max_rooms_per_address=3,
        max_spectators_per_address=2,
        max_room_members=3,
    )


def from_address(address: str) -> dict[str, str]:
    """Headers that make the test server (uvicorn trusts its loopback proxy) see ``address``."""
    return {"x-forwarded-for": address}


async def say_hello(
    srv: RunningServer, code: str, address: str = "127.0.0.1", **hello: Any
) -> tuple[Any, dict[str, Any]]:
    """Open a socket from ``address`` and say hello; the socket and the first reply."""
    ws = await websockets.connect(f"{srv.ws_url}/ws/{code}", additional_headers=from_address(address))
    await ws.send(json.dumps({"v": 2, "type": "hello", **hello}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 5))


async def first_code(ws: Any) -> str:
    """Ping on ``ws``: the code of the first error it gets (a refused socket's comes unasked)."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(json.dumps({"v": 2, "type": "ping"}))
    code: str = json.loads(await ws.recv())["code"]
    return code


def open_sockets(srv: RunningServer, address: str = "127.0.0.1") -> int:
    """The WebSockets the server counts open for ``address``."""
    count: int = srv.app.state.guard.sockets.get(address, 0)
    return count


async def until(holds: Callable[[], bool]) -> None:
    """Wait until the server has caught up (``holds()``); the test's timeout bounds it."""
    while not holds():
        await asyncio.sleep(0.01)


async def test_spectators_who_leave_are_forgotten_and_seats_stay(tmp_path: Path) -> None:
    settings = Settings(db_url=str(tmp_path / "w.db"), max_connects_per_minute=0, **FAST)  # type: ignore[arg-type]
    with running_server(settings) as srv:
        code = await create_room(srv.url)
        player = await Client(srv.ws_url, code, name="Ann").connect()
        await player.send({"v": 2, "type": "sit", "seat": 0})
        await player.wait_for(lambda m: m["type"] == "state" and m["you"]["seat"] == 0)

        async def join_and_leave(n: int) -> None:
            for _ in range(n):
                ws, reply = await say_hello(srv, code)
                assert reply["type"] == "welcome"
                await ws.close()

        await asyncio.gather(*(join_and_leave(25) for _ in range(4)))
        await player.close()
        room = srv.rooms.get(code)
        assert room is not None
        await until(lambda: len(room.lobby.members) == 1)  # the server notices the close after the client
        # 100 spectators came and went: only the seated player (gone, but seated) is kept
        assert [m.name for m in room.lobby.members.values()] == ["Ann"]
        assert room.room_json()["spectators"] == 0
        back = await Client(srv.ws_url, code, token=player.token).connect()
        assert back.last_state["you"]["seat"] == 0
        await back.close()


async def test_connections_per_address_are_limited(tight: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=tight.url) as http:
        code = (await http.post("/api/rooms", json={"v": 2})).json()["code"]
    held = [await websockets.connect(f"{tight.ws_url}/ws/{code}") for _ in range(3)]
    extra = await websockets.connect(f"{tight.ws_url}/ws/{code}")
    refused = json.loads(await extra.recv())
    assert refused["code"] == "too_many_connections" and "连接" in refused["message"]
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await extra.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    # another address is not held to this one's count
    other = await websockets.connect(f"{tight.ws_url}/ws/{code}", additional_headers=from_address("10.0.0.2"))
    await other.send(json.dumps({"v": 2, "type": "ping"}))
    assert json.loads(await other.recv())["code"] == "not_joined"
    # one closed: one more may open (4 of the 8 a minute used so far)
    await held.pop().close()
    await until(lambda: open_sockets(tight) == 2)
    again = await websockets.connect(f"{tight.ws_url}/ws/{code}")
    assert await first_code(again) == "not_joined"
    # the rate: 8 opened a minute at most, however many were closed again
    for ws in [*held, again]:
        await ws.close()
    await until(lambda: open_sockets(tight) == 0)
    replies = []
    for _ in range(5):
        ws = await websockets.connect(f"{tight.ws_url}/ws/{code}")
        replies.append(await first_code(ws))
        await ws.close()
    assert replies == ["not_joined"] * 4 + ["too_many_connections"]
    await other.close()


async def test_spectators_per_address_and_members_per_room_are_limited(tight: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=tight.url) as http:
        code = (await http.post("/api/rooms", json={"v": 2})).json()["code"]
    a, reply = await say_hello(tight, code, "10.0.0.1")
    b, _ = await say_hello(tight, code, "10.0.0.1")
    c, refused = await say_hello(tight, code, "10.0.0.1")
    assert refused["code"] == "too_many_spectators" and refused["ref"] == "hello"
    await c.close()
    await until(lambda: open_sockets(tight, "10.0.0.1") == 2)
    # a seated member is no spectator: then one more may watch from that address
    await a.send(json.dumps({"v": 2, "type": "sit", "seat": 0}))
    c, welcome = await say_hello(tight, code, "10.0.0.1")
    assert welcome["type"] == "welcome"
    # three members: the room takes nobody new from anywhere, but a member resumes
    d, full = await say_hello(tight, code, "10.0.0.9")
    assert full["code"] == "room_full"
    await d.close()
    await a.close()
    await until(lambda: open_sockets(tight, "10.0.0.1") == 2 and open_sockets(tight, "10.0.0.9") == 0)
    a, back = await say_hello(tight, code, "10.0.0.9", token=reply["token"])
    assert back["type"] == "welcome" and back["member"] == reply["member"]
    for ws in (a, b, c):
        await ws.close()


async def test_rooms_and_requests_per_address_are_limited(tight: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=tight.url) as http:
        made = [(await http.post("/api/rooms", json={"v": 2})).status_code for _ in range(4)]
        assert made == [201, 201, 201, 429]
        refused = (await http.post("/api/rooms", json={"v": 2})).json()
        assert refused["code"] == "too_many_rooms" and "房间" in refused["message"] and "rooms" in refused["message"]
        # a bad body is refused first and counts nothing; another address may still create
        assert (await http.post("/api/rooms", json={"v": 2, "preset": "nope"})).status_code == 422
        other = await http.post("/api/rooms", json={"v": 2}, headers=from_address("10.0.0.3"))
        assert other.status_code == 201
    assert len(tight.rooms.rooms) == 4
    # one request in progress (a body that has not come yet) holds the address's one slot
    host, port = tight.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as slow:
        slow.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n"
        )
        await asyncio.sleep(0.2)
        async with httpx.AsyncClient(base_url=tight.url) as http:
            busy = await http.get("/healthz")
            assert busy.status_code == 429 and busy.json()["code"] == "too_many_requests"
        slow.sendall(b'{"v": 2} ')
        assert b" 429 " in slow.recv(4096).split(b"\r\n")[0]  # too many rooms still
    async with httpx.AsyncClient(base_url=tight.url) as http:
        assert (await http.get("/healthz")).status_code == 200


async def test_live_rooms_are_not_listed_to_strangers(server: RunningServer) -> None:
    code = await create_room(server.url)
    public = await create_room(server.url, public=True)
    codes = {code: None, public: None}
    for room_code in codes:
        client = await Client(server.ws_url, room_code, name="Ann").connect()
        for message in ({"type": "sit", "seat": 0}, {"type": "bots"}, {"type": "start"}):
            await client.send({"v": 2, **message})
        state = await client.wait_for(lambda m: m["type"] == "state" and m["room"]["match"] is not None)
        codes[room_code] = state["room"]["match"]
        assert state["room"]["public"] is (room_code == public)
        await client.close()
    async with httpx.AsyncClient(base_url=server.url) as http:
        listed = {m["id"]: m["room"] for m in (await http.get("/api/matches")).json()["matches"]}
        assert listed == {codes[code]: None, codes[public]: public}
        assert (await http.get(f"/api/matches/{codes[code]}")).json()["match"]["room"] is None
        assert (await http.get(f"/api/matches/{codes[public]}")).json()["match"]["room"] == public
        rooms = (await http.get("/api/rooms")).json()["rooms"]
        assert [r["code"] for r in rooms] == [public]
        # the link still finds a private room
        assert (await http.get(f"/api/rooms/{code}")).status_code == 200


def raw_request(srv: RunningServer, head: bytes, body: bytes = b"") -> bytes:
    """Send ``head`` and ``body`` on a plain socket; the answer up to the server's close."""
    host, port = srv.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head + body)
        answer = b""
        with contextlib.suppress(ConnectionResetError):  # the server may reset once it answered
            while chunk := sock.recv(65536):
                answer += chunk
        return answer


async def test_bodies_are_bounded_before_they_are_read(server: RunningServer) -> None:
    # a 40 MB body announced: refused from its Content-Length, after 1 KB of it was sent
    head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 41943040\r\n\r\n"
    answer = await asyncio.to_thread(raw_request, server, head, b"x" * 1024)
    status, _, body = answer.partition(b"\r\n\r\n")
    assert b" 413 " in status.split(b"\r\n")[0] and json.loads(body)["code"] == "too_big"
    # chunked, no length: refused once past the bound
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"10001\r\n" + b"x" * 0x10001 + b"\r\n"  # one byte over the bound, and no end
    answer = await asyncio.to_thread(raw_request, server, head, chunk)
    assert b" 413 " in answer.split(b"\r\n")[0]
    async with httpx.AsyncClient(base_url=server.url) as http:
        deep = await http.post(
            "/api/rooms", content="[" * 5000 + "]" * 5000, headers={"content-type": "application/json"}
        )
        assert deep.status_code == 400 and deep.json()["code"] == "too_deep"
        assert (await http.post("/api/rooms", json={"v": 2})).status_code == 201


async def test_deep_frames_and_lone_surrogates_get_errors_and_the_socket_stays(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    code = await create_room(server.url)
    client = await Client(server.ws_url, code).connect()
    caplog.set_level(logging.DEBUG)
    frames = {
        '{"v":2,"type":"hello","name":' + "[" * 1000 + "]" * 1000 + "}": "too_deep",
        '{"v":' + "[" * 900 + "]" * 900 + ',"type":"ping"}': "too_deep",
        '{"v":2,"type":"\\ud800"}': "bad_message",
        '{"v":2,"type":"ping","\\udfff":1}': "bad_message",
        '{"v":1,"type":"\\ud800"}': "bad_version",
        '{"v":2,"type":"name","name":"\\ud800"}': "bad_message",
        '{"v":2,"type":"name","name":"\\u3164"}': "bad_name",
    }
    for frame, expected in list(frames.items()) * 10:
        seen = len(client.messages)
        await client.send(frame)
        reply = await client.wait_for(lambda m: m["type"] == "error", start=seen)
        assert reply["code"] == expected, frame[:40]
    await client.send({"v": 2, "type": "ping"})
    await client.wait_for(lambda m: m["type"] == "pong")
    await client.close()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert not any(r.exc_info for r in caplog.records)


async def test_integer_parameters_are_range_checked(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        for path in (
            "/api/matches?offset=9223372036854775808",
            "/api/matches?limit=9223372036854775808",
            "/api/matches?offset=-1",
            "/api/matches?limit=99999999999999999999999999999999",
        ):
            reply = await http.get(path)
            assert reply.status_code == 400 and reply.json()["code"] == "bad_request", path
        for path in (
            "/api/matches?offset=1e3",
            "/api/matches/9223372036854775808",
            "/api/hands/9223372036854775808/replay",
            "/api/hands/0",
        ):
            reply = await http.get(path)
            assert reply.status_code == 422 and reply.json()["code"] == "bad_message", path


async def test_every_response_carries_the_security_headers(server: RunningServer) -> None:
    code = await create_room(server.url)
    async with httpx.AsyncClient(base_url=server.url) as http:
        replies = [await http.get(p) for p in ("/", f"/r/{code}", "/history", "/score", "/static/js/main.js")]
        replies += [await http.get(p) for p in ("/sw.js", "/api/presets", "/nope", "/api/matches/0", "/healthz")]
        replies.append(await http.post("/api/rooms", content="[" * 100 + "]" * 100))
    for reply in replies:
        for name, value in SECURITY_HEADERS:
            assert reply.headers.get(name) == value, (reply.url, name)
    csp = dict(SECURITY_HEADERS)["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("  小  明 ", "小 明"),
        ("Ann\x1b[31m", "Ann[31m"),
        ("\u202eevE", "evE"),
        ("Robot", "Robot"),
        ("\u3164", None),
        ("\u2800\u2800", None),
        ("\u200b\u200d", None),
        ("\u0301\u0301", None),
        ("heuristic-bot-1", None),
        ("Bot 2", None),
        ("ｒａｎｄｏｍ－ｂｏｔ", None),
        ("b0t", None),
        ("机器人", None),
        ("search", None),
        ("x" * 25, None),
    ],
)
async def test_names_are_checked(shared: RunningServer, name: str, kept: str | None) -> None:
    code = await create_room(shared.url)
    ws, reply = await say_hello(shared, code, name=name)
    if kept is None:
        assert reply["code"] == "bad_name", reply
    else:
        assert reply["type"] == "welcome"
        state = json.loads(await ws.recv())
        assert state["you"]["name"] == kept
        await ws.send(json.dumps({"v": 2, "type": "name", "name": "random-bot-2"}))
        assert json.loads(await ws.recv())["code"] == "bad_name"
    await ws.close()


async def test_two_members_of_a_room_cannot_go_by_one_name(shared: RunningServer) -> None:
    """A name another member of the room goes by (in any case or width) is ``name_taken``,
    on ``hello`` and on ``name``; the default names skip a number someone has taken."""
    code = await create_room(shared.url)
    alice, welcome = await say_hello(shared, code, name="Alice")
    assert welcome["type"] == "welcome"
    again, refused = await say_hello(shared, code, name="ａｌｉｃｅ")  # full width, lower case
    assert refused["code"] == "name_taken" and refused["ref"] == "hello", refused
    await again.close()
    taken, welcome = await say_hello(shared, code, name="玩家2")
    assert welcome["type"] == "welcome"
    nameless, welcome = await say_hello(shared, code)  # the second member by count: 玩家2 is taken
    assert welcome["type"] == "welcome"
    message = json.loads(await asyncio.wait_for(nameless.recv(), 5))
    while message["type"] != "state":
        message = json.loads(await asyncio.wait_for(nameless.recv(), 5))
    you = message["you"]["name"]
    assert you not in ("Alice", "玩家2") and you.startswith("玩家"), you
    await taken.send(json.dumps({"v": 2, "type": "name", "name": "ALICE"}))
    reply = json.loads(await asyncio.wait_for(taken.recv(), 5))
    while reply["type"] != "error":
        reply = json.loads(await asyncio.wait_for(taken.recv(), 5))
    assert reply["code"] == "name_taken" and reply["ref"] == "name"
    for ws in (alice, taken, nameless):
        await ws.close()


def test_a_record_s_seat_names_reach_the_terminal_without_control_characters() -> None:
    data = json.loads((RECORDS / "r5-11-dui.json").read_text(encoding="utf-8"))
    seats = ["\x1b[2J\x1b]0;pwned\x07Eve", "Bob\r\x1b[31m", "C\u202ed\u2066", "Dan"]
    data["seats"] = seats[: len(data["seats"])]
    record = parse_record(data)
    text = "\n".join(describe(record, "en")) + "\n".join(describe(record, "zh"))
    assert "Eve" in text and "Bob" in text
    controls = [ch for ch in text if ch != "\n" and not ch.isprintable()]
    assert controls == []


async def test_bad_utf8_in_a_frame_closes_that_socket_with_one_log_line(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A text frame that is no UTF-8 closes the sender's socket with 1007 (RFC 6455); the
    server below the app logs it, as one line without a traceback: the fault is the
    client's."""
    code = await create_room(server.url)
    caplog.set_level(logging.DEBUG)
    ws = await websockets.connect(Client(server.ws_url, code).url)
    ws.protocol.send_text(b'{"v":2,"type":"\xff"}')  # the bytes as they are: no encoding
    ws.send_data()
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    said = [r for r in caplog.records if "Invalid UTF-8" in r.getMessage()]
    assert said and not any(r.exc_info for r in said)
    assert "UnicodeDecodeError" in said[0].getMessage()


@pytest.fixture
def watchful(tmp_path: Path) -> Iterator[RunningServer]:
    """A server that lets an address miss 5 room codes a minute and waits 1 s for a body."""
    yield from limited(tmp_path / "watchful.db", max_misses_per_minute=5, body_timeout_seconds=1.0)


async def test_the_small_faults_of_an_adversarial_review(watchful: RunningServer) -> None:
    """Room codes cannot be scanned for (429 ``too_many_misses`` past the misses an address
    may make in a minute, on the API, the page and the socket); a body that trickles in is
    answered 408 ``too_slow``; HEAD answers like GET without a body; API errors carry
    ``message_zh``."""
    async with httpx.AsyncClient(base_url=watchful.url) as http:
        head = await http.head("/")
        assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 0
        refused = await http.get("/api/matches", params={"offset": -1})
        assert refused.status_code == 400 and "offset" in refused.json()["message_zh"]
        for i in range(5):  # the server's max_misses_per_minute
            missing = await http.get(f"/api/rooms/NOPE{i:02d}")
            assert missing.status_code == 404 and "没有房间" in missing.json()["message_zh"]
        code = await create_room(watchful.url)
        over = await http.get(f"/api/rooms/{code}")  # even a room that is there, for a minute
        assert over.status_code == 429 and over.json()["code"] == "too_many_misses"
        assert over.json()["message_zh"]
        page = await http.get(f"/r/{code}", headers={"accept": "text/html"})
        assert page.status_code == 429 and 'data-kind="too_many_misses"' in page.text
    host, port = watchful.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
    writer.write(b"Content-Length: 100\r\n\r\n{")  # then nothing more, for longer than 1 s
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)  # the server answers and closes
    writer.close()
    assert answer.startswith(b"HTTP/1.1 408") and b"too_slow" in answer
    ws = await websockets.connect(Client(watchful.ws_url, code).url)
    refusal = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert refusal["code"] == "too_many_misses"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429

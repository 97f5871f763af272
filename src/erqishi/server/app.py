"""The web server (docs/protocol.md): the JSON API, one WebSocket per player or spectator,
and the static browser client, in one FastAPI app.

Run it with ``erqishi serve``; tests build it with :func:`create_app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as FastAPIPath
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from erqishi.core.engine import Outcome, OutcomeKind, PublicView, State, public_view
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import RuleSet
from erqishi.play.replay import hand_in_match, replay
from erqishi.records import HandRecord, dumps, parse_record
from erqishi.server import memory
from erqishi.server.connection import Connection
from erqishi.server.fleet import PEER_CLIENT, PEER_HEADER, Elsewhere, Fleet, carry, refuse_unavailable, route_socket
from erqishi.server.guard import SECURITY_HEADERS, Guard, GuardMiddleware, client_address, install_log_throttle
from erqishi.server.pages import error_page, pages_router, wants_html
from erqishi.server.protocol import (
    CreateRoom,
    error_message,
    narration_json,
    parse_client_message,
    presets_json,
    view_json,
)
from erqishi.server.room import RoomManager
from erqishi.server.room_options import rule_options_json
from erqishi.server.settings import PROTOCOL_VERSION, Settings
from erqishi.server.tournaments import Tournaments, tournament_router
from erqishi.storage import HandSummary, Store
from erqishi.storage.journal import Journal

__all__ = ["create_app"]

log = logging.getLogger("erqishi.server")


class ApiError(HTTPException):
    """An HTTP error of the API with its message in Chinese too (``message_zh``)."""

    def __init__(self, status: int, message: str, zh: str) -> None:
        super().__init__(status, message)
        self.zh = zh


#: ``message_zh`` of an HTTP error raised without one, by its code
_ZH_BY_CODE = {
    "not_found": "找不到：没有这个地址或记录",
    "bad_request": "请求有误",
    "bad_method": "这个地址不能这样请求",
}

STATIC = Path(str(resources.files("erqishi.server") / "static"))

#: A stored match's or hand's id in a path: a positive 64-bit integer.
Id = Annotated[int, FastAPIPath(ge=1, le=2**63 - 1)]


def open_view(state: State) -> PublicView:
    """A finished hand's state with every hand shown (R-9: at the end all hands are shown),
    for the replay viewer."""
    v = public_view(state)
    seats = tuple(replace(sv, hand=state.seats[sv.seat].cards()) for sv in v.seats)
    return replace(v, seats=seats)


def replay_frames(
    record: HandRecord, *, hand: int = 1, quan: int | None = None, totals: tuple[int, ...] | None = None
) -> list[dict[str, Any]]:
    """The replay viewer's frames of a finished hand (:func:`erqishi.play.replay.replay`):
    the deal (step 0), then one per step, each with its events and the open view; the
    ``hand``-th of its match, in 圈 ``quan``, with the match ``totals`` after it."""
    return [
        {
            "step": frame.step,
            "seat": frame.seat,
            "action": None if frame.action is None else str(frame.action),
            "events": [event.to_json() for event in frame.events],
            "view": view_json(open_view(frame.state)),
        }
        for frame in replay(record, hand=hand, quan=quan, totals=totals).frames
    ]


def create_app(settings: Settings | None = None, *, freeze_gc: bool = False) -> FastAPI:
    """The server app; the database is migrated and opened at start-up.

    Args:
        settings: the server settings (default :class:`Settings`).
        freeze_gc: once started, move every object alive then (modules, the app) out of
            the garbage collector's reach (``gc.freeze``), so its full collections stay
            short under load, and after every sweep give the C allocator's free pages
            back to the system (:func:`erqishi.server.memory.trim`). For a server process
            of its own, as ``erqishi serve`` runs.
    """
    settings = settings or Settings()
    holder: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(settings.db_url)
        # what an earlier run left in the spool goes to the database first, then every
        # room in progress comes back from it (docs/protocol.md, "Durable rooms")
        try:
            journal = Journal(
                store,
                settings.spool_dir(),
                retry_max=settings.retry_max_seconds,
                slow_seconds=settings.slow_write_seconds,
                writer=settings.journal_writer,
            )
        except BaseException:
            await store.close()
            raise
        part: Fleet | None = None
        try:
            rooms = RoomManager(settings, journal)
            if settings.redis_url is None:
                await journal.recover()
                rooms.restore(await store.live_rooms())
            else:  # several processes: each room where its lease is (erqishi.server.cluster)
                from erqishi.server.cluster import Cluster

                cluster = await Cluster.open(settings.redis_url, settings.node or "", settings.lease_seconds)
                part = Fleet(cluster, rooms, store, settings)
                try:
                    await part.recover(journal)
                except BaseException:
                    await cluster.close()
                    raise
        except BaseException:
            await journal.close(0)
            await store.close()
            raise
        journal.start()
        holder["store"], holder["rooms"], holder["journal"] = store, rooms, journal
        holder["fleet"] = part
        if part is not None:
            part.start()
        # 争霸赛: the tournaments in play catch up with their tables (erqishi.server.tournaments)
        contests = Tournaments(store, rooms, settings)
        holder["tournaments"] = contests
        if part is None:
            await contests.open(journal)

        async def sweep() -> None:
            while True:
                await asyncio.sleep(settings.sweep_seconds)
                rooms.sweep()
                if freeze_gc:  # a process of its own: what the dropped rooms held goes back
                    memory.trim()

        sweeper = asyncio.create_task(sweep())
        if freeze_gc:
            gc.collect()
            gc.freeze()
            # full collections 10x rarer than by default: each one scans every connection's
            # objects and would stall every table for tens of milliseconds under load
            gen0, gen1, _ = gc.get_threshold()
            gc.set_threshold(gen0, gen1, 100)
        try:
            yield
        finally:
            sweeper.cancel()
            await contests.close()
            if part is not None:  # the leases are given up once the journal is flushed
                await part.close(journal)
            else:
                rooms.close()
                await journal.close()  # what the database has not taken stays in the spool
            await store.close()

    app = FastAPI(title="erqishi", version=str(PROTOCOL_VERSION), lifespan=lifespan)
    app.state.holder = holder
    # the limits per client address, body bounds, security headers, throttled logging
    guard = Guard(settings)
    app.state.guard = guard
    app.add_middleware(GuardMiddleware, guard=guard, settings=settings)
    install_log_throttle(guard.throttle)

    def rooms() -> RoomManager:
        manager: RoomManager = holder["rooms"]
        return manager

    def store() -> Store:
        st: Store = holder["store"]
        return st

    def fleet() -> Fleet | None:
        """This process's part of the cluster (``--redis``), or None for a process alone."""
        found: Fleet | None = holder.get("fleet")
        return found

    def tournaments() -> Tournaments:
        found: Tournaments = holder["tournaments"]
        return found

    async def sealed(room: object) -> JSONResponse | None:
        """A match of a tournament round still being played: its deals are every table's
        of the round, so they are kept until the round is over (403 ``sealed``)."""
        if not await tournaments().sealed(room):
            return None
        why = "this table's deals are kept until every table of its tournament round has finished (duplicate play)"
        zh = "这一桌的牌要等本轮争霸赛各桌都打完才公开（复式发牌）"
        return JSONResponse(error_message("sealed", why, zh=zh), status_code=403)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # a browser asking for a page that is not there gets the game's 404 page; the API
        # (and every other client) its JSON error
        if exc.status_code == 404 and wants_html(request.url.path, request.headers.get("accept", "")):
            return error_page(404, "not_found")
        code = {404: "not_found", 400: "bad_request", 405: "bad_method"}.get(exc.status_code, "error")
        zh = exc.zh if isinstance(exc, ApiError) else _ZH_BY_CODE.get(code, "请求出错")
        return JSONResponse(
            error_message(code, str(exc.detail), zh=zh), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        # a fault of the server (logged by the server): the game's 500 page for a browser,
        # JSON for the API
        if wants_html(request.url.path, request.headers.get("accept", "")):
            return error_page(500, "server_error")
        return JSONResponse(
            error_message("server_error", "the server failed to answer; try again", zh="服务器出错了，请再试一次"),
            status_code=500,
            headers=dict(SECURITY_HEADERS),
        )

    @app.exception_handler(sa_exc.DBAPIError)
    @app.exception_handler(sa_exc.TimeoutError)
    async def storage_down(request: Request, exc: Exception) -> JSONResponse:
        # the database is down, locked or unreachable: a clear 503, not a 500 (the games
        # go on; what they write waits in the spool)
        log.warning("storage unavailable for %s: %s", request.url.path, type(exc).__name__)
        return JSONResponse(
            error_message(
                "storage_unavailable",
                "the database is not available just now; try again shortly",
                zh="数据库暂时用不了，请稍后再试（牌局照常进行，记录不会丢）",
            ),
            status_code=503,
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid"}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        return JSONResponse(
            error_message("bad_message", f"{where}: {first.get('msg')}", zh=f"参数 {where} 不对"), status_code=422
        )

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """Alive, how many rooms this process holds in memory (benchmarks/web_load.py
        watches it: finished rooms are released) and how many journal entries wait for
        the database (``pending``: a number that keeps growing means the database cannot
        keep up)."""
        held = holder.get("rooms")
        journal = holder.get("journal")
        pending = journal.health.pending if isinstance(journal, Journal) else 0
        return {"ok": True, "rooms": len(held.rooms) if isinstance(held, RoomManager) else 0, "pending": pending}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return presets_json()

    @app.get("/api/narration")
    async def narration() -> dict[str, Any]:
        return narration_json()

    @app.get("/api/rule-options")
    async def rule_options() -> dict[str, Any]:
        """The options a room's creator may set, in words, from the rule set's own data."""
        return rule_options_json({"response_seconds": settings.response_seconds, "turn_seconds": settings.turn_seconds})

    @app.post("/api/rooms", status_code=201, response_model=None)
    async def create_room(config: CreateRoom, request: Request) -> dict[str, Any] | JSONResponse:
        address = request.client.host if request.client else "?"
        try:
            config.rules()
        except ErqishiError as exc:  # the message names the option (RuleSet checks them)
            zh = f"规则：{exc.zh or '规则有误'}"
            return JSONResponse(error_message("bad_rules", f"rules: {exc}", zh=zh), status_code=400)
        refused = guard.create_room(address)
        if refused is not None:
            return JSONResponse(refused.json(), status_code=refused.status)
        peers = fleet()
        if peers is None:
            room = rooms().create(config)
        else:  # the code is claimed across the processes, with the room's lease
            code, uid = await peers.create_code(config.public)
            room = rooms().create(config, code, uid)
            await peers.created(room)
        return {"v": PROTOCOL_VERSION, "code": room.code, "url": f"/r/{room.code}"}

    @app.get("/api/rooms")
    async def public_rooms() -> dict[str, Any]:
        """The rooms their creators made public (``"public": true``), newest first; no other
        room is listed: a room is found by its link or code."""
        peers = fleet()
        if peers is not None:  # every process's public rooms (their owners publish them)
            return {"v": PROTOCOL_VERSION, "rooms": await peers.public_rooms(100)}
        listed = [room for room in rooms().rooms.values() if room.config.public and not room.closed]
        return {
            "v": PROTOCOL_VERSION,
            "rooms": [room.room_json() for room in reversed(listed[-100:])],
        }

    async def public_codes(codes: list[str]) -> set[str]:
        """Which of ``codes`` name a public room that is open (in any process)."""
        peers = fleet()
        if peers is not None:
            return await peers.public_codes(codes)
        return {c for c in codes if (r := rooms().get(c)) is not None and r.config.public}

    def shown_room(summary: dict[str, Any], public: set[str]) -> dict[str, Any]:
        """A match summary with its room code only when that room is public: a stranger
        reading the history cannot walk into a private room (in play or not)."""
        if summary.get("room") not in public:
            summary["room"] = None
        # running, finished, or ended_early (解散: finished without leaders)
        finished, leaders = summary.get("finished"), summary.get("leaders")
        summary["status"] = "running" if finished is None else "finished" if leaders is not None else "ended_early"
        return summary

    @app.get("/api/rooms/{code}", response_model=None)
    async def get_room(code: str, request: Request) -> dict[str, Any] | JSONResponse:
        address = client_address(request.scope)
        refused = guard.look_up(address)
        if refused is not None:
            return JSONResponse(refused.json(), status_code=refused.status)
        peers = fleet()
        found = rooms().get(code)
        summary = found.room_json() if found is not None else None
        if summary is None and peers is not None:
            summary = await peers.summary(code)
        if summary is None:
            guard.missed(address)
            raise ApiError(404, f"no room {code!r}", f"没有房间 {code!r}")
        return {"v": PROTOCOL_VERSION, **summary}

    @app.get("/api/matches")
    async def list_matches(limit: int = 50, offset: int = 0) -> dict[str, Any]:
        if not 1 <= limit <= 200 or not 0 <= offset < 2**62:
            raise ApiError(
                400,
                "limit must be 1-200 and offset 0 or more (below 2^62)",
                "limit 要在 1-200 之间，offset 要是 0 或更大（小于 2^62）",
            )
        found = [m.to_json() for m in await store().list_matches(limit=limit, offset=offset)]
        public = await public_codes([m["room"] for m in found if isinstance(m.get("room"), str)])
        for m in found:  # a tournament's table: named, and sealed while its round is played
            closed = await tournaments().sealed(m.get("room"))  # (reads the tournament if need be)
            label = tournaments().label(m.get("room"))
            if label is not None:
                m["tournament"], m["sealed"] = label, closed
                if closed:
                    m["totals"] = None
        return {"v": PROTOCOL_VERSION, "matches": [shown_room(m, public) for m in found]}

    @app.get("/api/matches/{match_id}", response_model=None)
    async def get_match(match_id: Id) -> dict[str, Any] | JSONResponse:
        found = await store().get_match(match_id)
        if found is None:
            raise ApiError(404, f"no match {match_id}", f"没有第 {match_id} 场对局")
        summary, hands, record = found
        if (refused := await sealed(summary.room)) is not None:
            return refused
        public = await public_codes([summary.room] if isinstance(summary.room, str) else [])
        return {
            "v": PROTOCOL_VERSION,
            "match": shown_room(summary.to_json(), public),
            "hands": [h.to_json() for h in hands],
            "record": record,
        }

    async def stored_hand(hand_id: int) -> tuple[HandSummary, dict[str, Any]]:
        found = await store().get_hand(hand_id)
        if found is None:
            raise ApiError(404, f"no hand {hand_id}", f"没有第 {hand_id} 手牌")
        return found

    async def sealed_hand(summary: HandSummary) -> JSONResponse | None:
        match = await store().get_match(summary.match)
        return await sealed(match[0].room) if match is not None else None

    @app.get("/api/hands/{hand_id}", response_model=None)
    async def get_hand(hand_id: Id) -> dict[str, Any] | JSONResponse:
        summary, record = await stored_hand(hand_id)
        if (refused := await sealed_hand(summary)) is not None:
            return refused
        return {"v": PROTOCOL_VERSION, "hand": summary.to_json(), "record": record}

    def record_file(data: dict[str, Any], name: str) -> Response:
        """A record as a JSON file to save (FORMATS.md, written as ``erqishi play`` saves
        it: :func:`erqishi.records.dumps`)."""
        return Response(
            dumps(data),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/hands/{hand_id}/record")
    async def download_hand(hand_id: Id) -> Response:
        """The hand's record (FORMATS.md) as a file to save."""
        summary, record = await stored_hand(hand_id)
        if (refused := await sealed_hand(summary)) is not None:
            return refused
        return record_file(record, f"erqishi-hand-{hand_id}.json")

    @app.get("/api/matches/{match_id}/record")
    async def download_match(match_id: Id) -> Response:
        """The match's record (FORMATS.md) as a file to save: as stored once the match is
        over; while it goes on, its hands so far with the totals after them."""
        found = await store().get_match(match_id)
        if found is None:
            raise ApiError(404, f"no match {match_id}", f"没有第 {match_id} 场对局")
        summary, hands, record = found
        if (refused := await sealed(summary.room)) is not None:
            return refused
        if record is None:
            records = []
            for h in hands:
                got = await store().get_hand(h.id)
                if got is not None:
                    records.append(got[1])
            try:
                rules: str | dict[str, Any] = RuleSet.load(summary.rules).to_spec()
            except ErqishiError:
                rules = summary.rules
            record = {
                "format": 1,
                "kind": "match",
                "rules": rules,
                "seats": list(summary.seats),
                "hands": records,
                "totals": list(summary.totals),
            }
        return record_file(record, f"erqishi-match-{match_id}.json")

    @app.get("/api/hands/{hand_id}/replay", response_model=None)
    async def get_replay(hand_id: Id) -> dict[str, Any] | JSONResponse:
        summary, data = await stored_hand(hand_id)
        if (refused := await sealed_hand(summary)) is not None:
            return refused
        record = parse_record(data)
        if not isinstance(record, HandRecord):
            raise ApiError(400, f"hand {hand_id} holds no hand record", f"第 {hand_id} 手没有牌局记录")
        # where the hand stands in its match: its number, its 圈, the totals after it
        found = await store().get_match(summary.match)
        hand_no, quan, totals = summary.index + 1, None, None
        if found is not None:
            match, hands, _ = found
            earlier = [Outcome(OutcomeKind(h.kind), h.payments, h.winner) for h in hands if h.index < summary.index]
            own = Outcome(OutcomeKind(summary.kind), summary.payments, summary.winner)
            with contextlib.suppress(ErqishiError):
                rules = RuleSet.load(match.rules)
                first = hands[0].dealer if hands else record.deal.dealer
                hand_no, quan, totals = hand_in_match(rules, first, earlier, own)
        frames = replay_frames(record, hand=hand_no, quan=quan, totals=totals)
        return {"v": PROTOCOL_VERSION, "hand": summary.to_json(), "frames": frames}

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        address = ws.client.host if ws.client else "?"
        peers = fleet()
        if peers is not None and peers.cluster.is_peer(ws.headers.get(PEER_HEADER)):
            # a peer proxies a client to this room's owner: the peer counted the client
            # against the limits per address; the client's own address is for the room
            address = (ws.headers.get(PEER_CLIENT) or address)[:64]
            await serve_socket_or_refuse(ws, code, address)
            return
        refused = guard.open_socket(address)
        if refused is not None:  # said in words, then closed: the client may retry later
            await ws.send_json(refused.json())
            await ws.close(code=4429)
            return
        try:
            await serve_socket_or_refuse(ws, code, address)
        finally:
            guard.close_socket(address)

    async def serve_socket_or_refuse(ws: WebSocket, code: str, address: str) -> None:
        """:func:`serve_socket`; the database out of reach (a room to restore, a match to
        look up) is the client's ``unavailable`` and close 1013, "try again later", and one
        log line: the HTTP handlers' 503 does not apply to a socket."""
        try:
            await serve_socket(ws, code, address)
        except (sa_exc.DBAPIError, sa_exc.TimeoutError) as exc:
            log.warning("storage unavailable for /ws/%s: %s", code[:16], type(exc).__name__)
            await refuse_unavailable(ws)

    async def serve_socket(ws: WebSocket, code: str, address: str) -> None:
        refused = guard.look_up(address)
        if refused is not None:
            await ws.send_json(refused.json())
            await ws.close(code=4429)
            return
        room = rooms().get(code)
        peers = fleet()
        if room is None and peers is not None:  # played here, elsewhere (proxied), or taken over
            found, ok = await route_socket(peers, code)
            if not ok:
                await refuse_unavailable(ws)
                return
            if isinstance(found, Elsewhere):
                found = await carry(ws, peers, code, address, found)
                if found is None:
                    return
            room = found
        if room is None:
            guard.missed(address)
            await ws.send_json(error_message("not_found", f"no room {code[:16]!r}", zh=f"没有房间 {code[:16]!r}"))
            await ws.close(code=4404)
            return
        loop = asyncio.get_running_loop()

        closing: set[asyncio.Task[None]] = set()

        def close() -> None:
            task = loop.create_task(_close(ws))
            closing.add(task)
            task.add_done_callback(closing.discard)

        conn = Connection(ws.send_text, settings, close, address)
        writer = asyncio.create_task(conn.writer())
        room.attach(conn)

        def parse(text: str | bytes) -> Any:
            return parse_client_message(text, settings.max_message_bytes, settings.max_json_depth)

        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data = text if text is not None else message.get("bytes") or b""
                room.handle(conn, data, parse)
        except WebSocketDisconnect:
            pass
        finally:
            room.detach(conn)
            conn.close()
            writer.cancel()

    index = STATIC / "index.html"

    app.include_router(pages_router())
    app.include_router(tournament_router(tournaments, guard, lambda: fleet() is None))

    @app.get("/t/{tournament_id}", response_model=None)
    async def tournament_page(tournament_id: str) -> Response:
        """A tournament's page (registration, tables, standings); for no such tournament,
        the game's 404 page. (``/t/new`` is the organiser's form.)"""
        if tournament_id != "new":
            number = int(tournament_id) if tournament_id.isdigit() and len(tournament_id) < 19 else 0
            if number < 1 or await store().get_tournament(number) is None:
                return error_page(404, "not_found")
        return FileResponse(index, media_type="text/html")

    @app.get("/r/{code}", response_model=None)
    async def room_page(code: str, request: Request) -> Response:
        """A room's page; for a room that is not there (in any process), the game's 404
        page, which offers no link to share (429 for an address that looked for too many
        rooms that are not there: :meth:`Guard.look_up`)."""
        address = client_address(request.scope)
        if guard.look_up(address) is not None:
            return error_page(429, "too_many_misses")
        if rooms().get(code) is None:
            peers = fleet()
            try:
                summary = None if peers is None else await peers.summary(code)
            except Exception:  # Redis cannot be asked just now: the client finds out itself
                log.warning("room %s: cannot ask the other processes", code[:16], exc_info=True)
                return FileResponse(index, media_type="text/html")
            if summary is None:
                guard.missed(address)
                return error_page(404, "room_missing", code.upper())
        return FileResponse(index, media_type="text/html")

    @app.get("/")
    @app.get("/history")
    @app.get("/replay/{hand_id}")
    @app.get("/learn")
    @app.get("/learn/{lesson}")
    @app.get("/rules")
    @app.get("/score")
    @app.get("/t")
    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


async def _close(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await ws.close()

"""Load benchmark of the web server: N tables of bots over real WebSockets on loopback.

    .venv/bin/python benchmarks/web_load.py --tables 200              # 200 tables, 600 connections
    .venv/bin/python benchmarks/web_load.py --tables 200 --think 0.25 # 4x the message rate
    .venv/bin/python benchmarks/web_load.py --quick                   # 5 tables for 5 s
    .venv/bin/python benchmarks/web_load.py --tables 1000 --processes 2 --db postgresql://…   # two servers
    .venv/bin/python benchmarks/web_load.py --tables 200 --duration 1800 --rss-every 30       # a 30-minute soak

It starts ``erqishi serve`` as a separate process on a free loopback port with a temporary
SQLite database, ``--bot-delay 0`` and any ``--serve-args`` (or uses ``--url``), creates one room per table with
``POST /api/rooms`` and opens one WebSocket per seat. Every connection is a bot that sits,
starts the match (seat 0, once every seat is taken), answers each decision once after a think
time (uniform in ``think`` ±50%) with a random legal action (``hu`` whenever it is legal) and
the ``seq`` of its newest state, and sends ``next`` between hands. A table whose match is over
closes its connections and opens a new room, so the load stays steady.

Latency is measured per ``act``: from just before it is written to the socket until that
connection receives the next ``state`` (any with a higher ``seq`` than it had seen). Actions
sent during the warm-up (``--warmup`` seconds after every table has connected) are not
counted; the measurement lasts ``--duration`` seconds, then the bots stop acting and the
answers still in flight are awaited for a moment before everything closes. This process's
cyclic garbage collector is off while it measures (its pauses would count as latency).

With ``--processes N`` it starts N ``erqishi serve`` processes that share one database
(``--db``: a PostgreSQL URL of an empty database, e.g. ``ERQISHI_PG_DB=erqishi_load bash
scripts/postgres-test.sh`` after ``dropdb erqishi_load``: the rooms an earlier run left open
in it are taken over and restored by the servers, a load of their own) and one
Redis server (``--redis URL``, or a ``redis-server`` of its own on a free loopback port,
without persistence): the processes' ``--redis`` mode (docs/web.md "Several processes").
Table ``i`` creates its rooms on process ``i mod N`` and connects to it (the owner of the
rooms it creates); ``--cross F`` sends that fraction of the tables' sockets to the next
process instead, which proxies them to the owner. CPU and memory are the sums over the
processes; each process's memory is also printed.

Memory is sampled every ``--rss-every`` seconds over the measured window (the servers'
resident set with their writer processes', summed): ``web_server_rss_start_mb`` (the first sample after the warm-up),
``web_server_rss_end_mb``, ``web_server_rss_max_mb``, the growth over the second half of
the window per minute (``web_server_rss_growth_mb_per_min``, a least-squares slope) and
``web_rss_flat`` (``pass`` when the second half grew by less than 2% of the start): run
it for 30 minutes for a soak. ``web_journal_pending_end`` and ``web_journal_pending_max`` are
the journal entries not yet in the database (``/healthz``'s ``pending``, summed over the
servers) when the measurement ends and at the worst memory sample: a backlog that grows
means the database writes do not keep up. ``web_server_rooms_end`` is how many rooms the servers hold
when the measurement ends (``GET /healthz`` gives each process's count): tables open a new
room after every match and leave the old one, so it shows whether finished rooms are
released.

The load generator runs here on one event loop; each server in its own process (another
core on a two-core machine). ``web_server_cpu_pct`` (100 = one core) is read from
``/proc/PID/stat`` over the measured window, with the busiest second as ``..._peak_pct``;
a server's CPU and memory include its children (the journal's writer process);
``web_other_cpu_pct`` is what the rest of the machine used meanwhile (with ``--url`` the
server counts as other): above ~20 the figures are disturbed. ``web_client_timer_lag_p99_ms``
says how late the bots' timers fired, i.e. whether the load generator itself kept up.

Figures are printed one per line as ``name: value``, like benchmarks/run.py, or as one JSON
object with ``--json``. The exit code is 0 whether or not the latency bar (p99 under 100 ms)
is met; ``web_p99_bar_100ms`` says which.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import math
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets
from websockets.asyncio.client import ClientConnection, connect

BAR_MS = 100.0
DRAIN_SECONDS = 3.0
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# ---------------------------------------------------------------------------- measurements


@dataclass
class Stats:
    """Everything counted by the bots. Samples and counts are kept only inside the
    measurement window ``[start, end)`` (``time.perf_counter`` seconds)."""

    start: float = math.inf
    end: float = math.inf
    latencies: list[float] = field(default_factory=list)
    states: int = 0
    state_bytes: int = 0
    acts: int = 0
    nexts: int = 0
    hands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    lags: list[float] = field(default_factory=list)
    rooms: int = 0
    matches: int = 0
    connect_times: list[float] = field(default_factory=list)

    def measuring(self, t: float) -> bool:
        """``t`` falls in the measurement window."""
        return self.start <= t < self.end


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p`` percentile (0 < p <= 100) of sorted values; NaN if none."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (a server's journal writer), from Linux ``/proc``."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):
            found += [int(x) for x in (task / "children").read_text().split()]
    return found


def _own_ticks(pid: int, *, waited: bool) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    if waited:  # cutime, cstime: children that ended and were waited for
        ticks += int(fields[13]) + int(fields[14])
    return ticks


def cpu_ticks(pid: int) -> int | None:
    """User plus system CPU ticks of process ``pid`` and its children (a server and its
    journal writer process; Linux ``/proc``), or None."""
    ticks = _own_ticks(pid, waited=True)
    if ticks is None:
        return None
    return ticks + sum(_own_ticks(child, waited=True) or 0 for child in children(pid))


def machine_busy_ticks() -> int | None:
    """CPU ticks all cores spent busy since boot (Linux ``/proc/stat``), or None."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle, iowait
    return sum(fields[:8]) - idle  # user nice system idle iowait irq softirq steal


def _own_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` and its children (a server and its journal
    writer process) in MiB, or None."""
    own = _own_rss_mb(pid)
    if own is None:
        return None
    return own + sum(_own_rss_mb(child) or 0.0 for child in children(pid))


# ---------------------------------------------------------------------------- bots


class Table:
    """One table: a room and one bot connection per seat; opens a new room when its match
    is over, until the benchmark stops."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        self.seated = asyncio.Event()
        self.done = asyncio.Event()
        self.seats: list[Seat] = []
        self.process = index % len(bench.base_urls)  # the server its rooms are created on

    async def run(self) -> None:
        """Play matches until the benchmark stops."""
        bench = self.bench
        while not bench.stopping:
            self.done.clear()
            code = await bench.create_room(self.process)
            self.seats = [Seat(self, seat, random.Random(bench.rng.getrandbits(64))) for seat in range(bench.players)]
            try:
                await asyncio.gather(*(seat.connect(code) for seat in self.seats))
                for seat in self.seats:
                    seat.sit()
                await self.done.wait()
            finally:
                await asyncio.gather(*(seat.close() for seat in self.seats), return_exceptions=True)

    def check_seated(self) -> None:
        """Every seat has seen a state in which all seats are taken."""
        if all(seat.all_seated for seat in self.seats):
            self.seated.set()


class Seat:
    """One WebSocket connection playing one seat."""

    def __init__(self, table: Table, seat: int, rng: random.Random) -> None:
        self.table = table
        self.bench = table.bench
        self.stats = table.bench.stats
        self.seat = seat
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.first_state = asyncio.Event()
        self.latest: dict[str, Any] | None = None
        self.max_seq = -1
        self.pending_at: float | None = None  # when the unanswered act was sent
        self.pending_seq = 0
        self.answered: set[tuple[int, int]] = set()
        self.readied: set[int] = set()
        self.plan: tuple[str, int, int] | None = None  # ("act", hand, step) or ("next", hand, 0)
        self.handle: asyncio.TimerHandle | None = None
        self.planned_at = 0.0
        self.started = False
        self.all_seated = False
        self.results: set[int] = set()
        self.closing = False
        # the server this socket connects to: the table's, or with --cross the next one (it proxies)
        n = len(self.bench.base_urls)
        self.process = (table.process + (1 if n > 1 and rng.random() < self.bench.args.cross else 0)) % n

    async def connect(self, code: str) -> None:
        """Open the socket, say hello and wait for the first state."""
        bench = self.bench
        async with bench.connect_slots:
            t0 = time.perf_counter()
            self.ws = await connect(
                f"{bench.ws_urls[self.process]}/ws/{code}",
                compression="deflate" if bench.deflate else None,
                max_size=2**22,
                ping_interval=None,
                open_timeout=60,
                proxy=None,
            )
            bench.extensions.add(",".join(e.name for e in self.ws.protocol.extensions) or "none")
            self.reader = asyncio.create_task(self.read())
            await self.ws.send(json.dumps({"v": 2, "type": "hello", "name": f"load-{self.table.index}-{self.seat}"}))
            await asyncio.wait_for(self.first_state.wait(), 60)
            self.stats.connect_times.append(time.perf_counter() - t0)

    def sit(self) -> None:
        """Take this bot's seat."""
        self.send({"v": 2, "type": "sit", "seat": self.seat})

    async def close(self) -> None:
        """Stop playing and close the socket."""
        self.closing = True
        self.cancel_plan()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader

    async def read(self) -> None:
        """Receive messages until the socket closes."""
        ws = self.ws
        assert ws is not None
        stats = self.stats
        try:
            async for text in ws:
                now = time.perf_counter()
                message = orjson.loads(text)  # the server sends with orjson; 3-4x faster to read than json
                kind = message.get("type")
                if kind == "state":
                    if stats.measuring(now):
                        stats.states += 1
                        stats.state_bytes += len(text)
                    self.on_state(message, now)
                elif kind == "error":
                    stats.errors[str(message.get("code"))] += 1
                    if message.get("ref") == "act" and self.pending_at is not None:
                        self.pending_at = None  # answered with an error: no latency sample
        except websockets.ConnectionClosed:
            pass
        if not self.closing and not self.bench.stopping:
            stats.errors["client_connection_closed"] += 1
            self.table.done.set()  # this room is lost; the table opens a new one

    def on_state(self, state: dict[str, Any], now: float) -> None:
        """A new state: close the latency sample it answers, then plan this seat's answer."""
        seq: int = state["seq"]
        if seq > self.max_seq:
            self.max_seq = seq
        if self.pending_at is not None and seq > self.pending_seq:
            if self.stats.measuring(self.pending_at):
                self.stats.latencies.append(now - self.pending_at)
            self.pending_at = None
        self.latest = state
        self.first_state.set()
        room, game = state["room"], state["game"]
        if room["status"] == "lobby":
            seats = room["seats"]
            if all(s["kind"] != "empty" for s in seats):
                self.all_seated = True
                self.table.check_seated()
                if self.seat == 0 and not self.started and seats[0]["kind"] == "human":
                    self.started = True
                    self.send({"v": 2, "type": "start"})
            return
        if game is None:
            return
        if game["result"] is not None and self.seat == 0 and game["hand"] not in self.results:
            self.results.add(game["hand"])
            if self.stats.measuring(now):
                self.stats.hands += 1
        if game["match_over"] is not None:
            self.cancel_plan()
            if self.seat == 0:
                self.stats.matches += 1
            self.table.done.set()
            return
        want: tuple[str, int, int] | None = None
        if room["status"] == "between":
            if game["hand"] not in self.readied:
                want = ("next", game["hand"], 0)
        elif room["status"] == "playing" and game["legal"]:
            key = (game["hand"], game["step"])
            if key not in self.answered:
                want = ("act", *key)
        if want != self.plan:
            self.cancel_plan()
            if want is not None and not self.bench.stopping:
                self.plan = want
                delay = self.bench.think_time(self.rng)
                self.planned_at = now + delay
                self.handle = asyncio.get_running_loop().call_later(delay, self.fire)

    def cancel_plan(self) -> None:
        """Drop the answer being thought about."""
        if self.handle is not None:
            self.handle.cancel()
        self.handle = None
        self.plan = None

    def fire(self) -> None:
        """The think time is over: answer the newest state."""
        plan, state = self.plan, self.latest
        self.plan, self.handle = None, None
        now = time.perf_counter()
        if self.stats.measuring(now):
            self.stats.lags.append(now - self.planned_at)
        if plan is None or state is None or self.bench.stopping or self.closing:
            return
        kind, hand, step = plan
        if kind == "next":
            self.readied.add(hand)
            if self.stats.measuring(now):
                self.stats.nexts += 1
            self.send({"v": 2, "type": "next"})
            return
        self.answered.add((hand, step))
        legal: list[str] = state["game"]["legal"]
        action = "hu" if "hu" in legal else self.rng.choice(legal)
        self.send({"v": 2, "type": "act", "action": action, "seq": state["seq"]}, timed=True)

    def send(self, body: dict[str, Any], *, timed: bool = False) -> None:
        """Write a message without waiting; ``timed``: start a latency sample just before."""
        self.bench.spawn(self._send(json.dumps(body), timed))

    async def _send(self, text: str, timed: bool) -> None:
        ws = self.ws
        if ws is None or self.closing:
            return
        if timed:
            t0 = time.perf_counter()
            self.pending_at, self.pending_seq = t0, self.max_seq
            if self.stats.measuring(t0):
                self.stats.acts += 1
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(text)


# ---------------------------------------------------------------------------- the run


class Bench:
    """The load generator: options, the tables and their counters."""

    def __init__(self, args: argparse.Namespace, base_urls: list[str], servers: list[subprocess.Popen[bytes]]) -> None:
        self.args = args
        self.base_urls = base_urls
        self.ws_urls = [url.replace("http://", "ws://", 1) for url in base_urls]
        self.servers = servers
        self.players: int = args.players
        self.deflate: bool = args.deflate
        self.rng = random.Random(args.seed)
        self.stats = Stats()
        self.stopping = False
        self.connect_slots = asyncio.Semaphore(args.connect_concurrency)
        self.https = [
            httpx.AsyncClient(base_url=url, trust_env=False, timeout=60, limits=httpx.Limits(max_connections=16))
            for url in base_urls
        ]
        self.tasks: set[asyncio.Task[None]] = set()
        self.extensions: set[str] = set()  # the WebSocket extensions the server accepted
        # (time, server ticks, client seconds, machine busy ticks)
        self.cpu: list[tuple[float, int | None, float, int | None]] = []
        # (time, servers' resident MiB summed), every --rss-every seconds while measuring
        self.rss: list[tuple[float, float]] = []
        # the servers' journal entries not yet in the database, with each memory sample
        self.pending: list[int] = []
        self.next_rss = 0.0

    def think_time(self, rng: random.Random) -> float:
        """A think time: uniform in ``think`` ±50%."""
        think: float = self.args.think
        return rng.uniform(0.5 * think, 1.5 * think)

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def create_room(self, process: int) -> str:
        """``POST /api/rooms`` to server ``process`` and return the code."""
        body = {
            "v": 2,
            "preset": self.args.preset,
            "match_quan": self.args.match_quan,
            "bots": "random",
            "players": self.players,
        }
        for attempt in range(5):
            try:
                reply = await self.https[process].post("/api/rooms", json=body)
                break
            except httpx.TransportError:  # a kept-alive connection the server closed meanwhile
                if attempt == 4:
                    raise
                await asyncio.sleep(0.1 * (attempt + 1))
        if reply.status_code != 201:
            raise RuntimeError(f"POST /api/rooms answered {reply.status_code}: {reply.text}")
        self.stats.rooms += 1
        code: str = reply.json()["code"]
        return code

    def check_server(self) -> None:
        """Stop the run if a server process died."""
        for i, server in enumerate(self.servers):
            if server.poll() is not None:
                raise RuntimeError(f"server {i} exited with code {server.returncode}")

    def sample_cpu(self) -> None:
        """Record the servers' and this process's CPU time now, and every ``--rss-every``
        seconds of the measured window the servers' memory."""
        t = os.times()
        now = time.perf_counter()
        ticks: int | None = None
        if self.servers:
            each = [cpu_ticks(server.pid) for server in self.servers]
            ticks = None if None in each else sum(x for x in each if x is not None)
        self.cpu.append((now, ticks, t.user + t.system, machine_busy_ticks()))
        if self.servers and self.stats.start <= now <= self.stats.end + 1.0 and now >= self.next_rss:
            sizes = [rss_mb(server.pid) for server in self.servers]
            if None not in sizes:
                self.rss.append((now, sum(x for x in sizes if x is not None)))
            self.next_rss = now + self.args.rss_every

    async def healthz_sum(self, key: str) -> int | None:
        """``key`` of every server's ``/healthz`` now, summed (``rooms``: the rooms held;
        ``pending``: journal entries not yet in the database), or None if one does not say."""
        total = 0
        for http in self.https:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                value = (await http.get("/healthz")).json().get(key)
                if isinstance(value, int):
                    total += value
                    continue
            return None
        return total

    async def sleep_until(self, when: float, tables: list[asyncio.Task[None]]) -> None:
        """Sleep until ``when`` (perf_counter), sampling CPU every second and failing early
        when the server or a table fails."""
        while (left := when - time.perf_counter()) > 0:
            await asyncio.sleep(min(1.0, left))
            samples = len(self.rss)
            self.sample_cpu()
            if len(self.rss) > samples and (pending := await self.healthz_sum("pending")) is not None:
                self.pending.append(pending)
            self.check_server()
            for task in tables:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    raise RuntimeError(f"a table failed: {task.exception()!r}")

    async def run(self) -> dict[str, Any]:
        """Connect every table, warm up, measure, drain; return the figures."""
        args = self.args
        t0 = time.perf_counter()
        tables = [Table(self, i) for i in range(args.tables)]
        runs = [asyncio.create_task(table.run()) for table in tables]
        waiting: asyncio.Future[Any] = asyncio.ensure_future(asyncio.gather(*(t.seated.wait() for t in tables)))
        try:
            watched: list[asyncio.Future[Any]] = [waiting, *runs]
            while not waiting.done():
                await asyncio.wait(watched, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
                self.check_server()
                for task in runs:
                    if task.done() and not task.cancelled() and task.exception() is not None:
                        raise RuntimeError(f"a table failed while connecting: {task.exception()!r}")
            connect_s = time.perf_counter() - t0
            connect_times = sorted(x * 1000 for x in self.stats.connect_times)
            self.stats.connect_times = []
            # the load generator's own garbage collector stays off while it measures, so that
            # its pauses (tens of ms with 1000+ sockets) are not counted as server latency
            gc.collect()
            gc.freeze()
            gc.disable()
            self.sample_cpu()
            self.stats.start = time.perf_counter() + args.warmup
            self.stats.end = self.stats.start + args.duration
            await self.sleep_until(self.stats.start, runs)
            self.sample_cpu()
            mark = len(self.cpu) - 1
            await self.sleep_until(self.stats.end, runs)
            self.sample_cpu()
            window = self.cpu[mark:]
            rooms_end = await self.healthz_sum("rooms")
            pending_end = await self.healthz_sum("pending")
            self.stopping = True
            # let the answers to the last measured actions arrive
            deadline = time.perf_counter() + DRAIN_SECONDS
            while time.perf_counter() < deadline and any(
                seat.pending_at is not None and self.stats.measuring(seat.pending_at)
                for table in tables
                for seat in table.seats
            ):
                await asyncio.sleep(0.05)
            self.stats.unanswered = sum(
                1
                for table in tables
                for seat in table.seats
                if seat.pending_at is not None and self.stats.measuring(seat.pending_at)
            )
        finally:
            gc.enable()
            gc.unfreeze()
            self.stopping = True
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await waiting
            for task in runs:
                task.cancel()
            for table in tables:
                table.done.set()
            await asyncio.gather(*runs, return_exceptions=True)
            await asyncio.gather(*(seat.close() for table in tables for seat in table.seats), return_exceptions=True)
            for http in self.https:
                await http.aclose()
        return self.figures(connect_s, connect_times, window, rooms_end, pending_end)

    def figures(
        self,
        connect_s: float,
        connect_times: list[float],
        window: list[tuple[float, int | None, float, int | None]],
        rooms_end: int | None = None,
        pending_end: int | None = None,
    ) -> dict[str, Any]:
        """The results as one flat dict (``name: value``)."""
        args, stats = self.args, self.stats
        lat = sorted(x * 1000 for x in stats.latencies)
        lags = sorted(x * 1000 for x in stats.lags)
        span = window[-1][0] - window[0][0]
        server_cpu: float | None = None
        server_peak: float | None = None
        if window[0][1] is not None and window[-1][1] is not None:
            server_cpu = (window[-1][1] - window[0][1]) / CLK_TCK / span * 100
            peaks = [
                (b[1] - a[1]) / CLK_TCK / (b[0] - a[0]) * 100
                for a, b in itertools.pairwise(window)
                if a[1] is not None and b[1] is not None and b[0] - a[0] > 0.5
            ]
            server_peak = max(peaks, default=server_cpu)
        client_cpu = (window[-1][2] - window[0][2]) / span * 100
        other_cpu: float | None = None
        if window[0][3] is not None and window[-1][3] is not None:
            other_cpu = (window[-1][3] - window[0][3]) / CLK_TCK / span * 100 - client_cpu - (server_cpu or 0.0)
        p99 = percentile(lat, 99)
        out: dict[str, Any] = {
            "web_tables": args.tables,
            "web_processes": len(self.base_urls),
            "web_connections": args.tables * self.players,
            "web_think_s": args.think,
            "web_match_quan": args.match_quan,
            # permessage-deflate as negotiated: offered by default, accepted or not by the server
            "web_deflate": "on" if any("deflate" in e for e in self.extensions) else "off",
            "web_connect_s": round(connect_s, 2),
            "web_connect_p50_ms": round(percentile(connect_times, 50), 1),
            "web_connect_p99_ms": round(percentile(connect_times, 99), 1),
            "web_measured_s": round(span, 1),
            "web_actions": len(lat),
            "web_actions_per_s": round(len(lat) / span, 1),
            "web_states_per_s": round(stats.states / span, 1),
            "web_state_bytes_mean": round(stats.state_bytes / stats.states) if stats.states else 0,
            "web_hands_per_s": round(stats.hands / span, 2),
            "web_p50_ms": round(percentile(lat, 50), 2),
            "web_p90_ms": round(percentile(lat, 90), 2),
            "web_p99_ms": round(p99, 2),
            "web_max_ms": round(lat[-1], 2) if lat else math.nan,
            "web_unanswered": stats.unanswered,
            "web_errors": sum(stats.errors.values()),
        }
        for code, count in sorted(stats.errors.items()):
            out[f"web_errors_{code}"] = count
        out.update(
            {
                "web_rooms_created": stats.rooms,
                "web_matches_finished": stats.matches,
                "web_server_cpu_pct": round(server_cpu, 1) if server_cpu is not None else None,
                "web_server_cpu_peak_pct": round(server_peak, 1) if server_peak is not None else None,
                "web_server_rss_mb": None,
                "web_server_rooms_end": rooms_end,
                "web_journal_pending_end": pending_end,
                "web_journal_pending_max": max(self.pending, default=pending_end),
                "web_client_cpu_pct": round(client_cpu, 1),
                "web_client_timer_lag_p99_ms": round(percentile(lags, 99), 2),
                # CPU used by other processes on this machine meanwhile (100 = one core)
                "web_other_cpu_pct": round(max(0.0, other_cpu), 1) if other_cpu is not None else None,
                "web_cores": os.cpu_count(),
                "web_p99_bar_100ms": "pass" if p99 < BAR_MS else "FAIL",
            }
        )
        if self.servers:
            sizes = [rss_mb(server.pid) for server in self.servers]
            if None not in sizes:
                out["web_server_rss_mb"] = round(sum(x for x in sizes if x is not None), 1)
                if len(sizes) > 1:
                    for i, size in enumerate(sizes):
                        out[f"web_server_{i}_rss_mb"] = round(size or 0.0, 1)
        out.update(rss_figures(self.rss))
        return out


def rss_figures(samples: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """The memory figures of ``(time s, MiB)`` samples (see the module text): start, end,
    max, the second half's least-squares growth per minute and whether it stayed flat
    (grew by less than 2% of the start over the second half)."""
    if len(samples) < 4:
        return {}
    start, end = samples[0][1], samples[-1][1]
    half = samples[len(samples) // 2 :]
    mean_t = sum(t for t, _ in half) / len(half)
    mean_m = sum(m for _, m in half) / len(half)
    var = sum((t - mean_t) ** 2 for t, _ in half)
    slope = sum((t - mean_t) * (m - mean_m) for t, m in half) / var if var > 0 else 0.0  # MiB per second
    growth = slope * (half[-1][0] - half[0][0])
    return {
        "web_server_rss_samples": len(samples),
        "web_server_rss_start_mb": round(start, 1),
        "web_server_rss_end_mb": round(end, 1),
        "web_server_rss_max_mb": round(max(m for _, m in samples), 1),
        "web_server_rss_growth_mb_per_min": round(slope * 60, 3),
        "web_rss_flat": "pass" if growth < 0.02 * start else "FAIL",
    }


# ---------------------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve_command() -> list[str]:
    """How to run ``erqishi serve`` with this interpreter's environment."""
    script = Path(sys.executable).parent / "erqishi"
    if script.is_file():
        return [str(script), "serve"]
    found = shutil.which("erqishi")
    if found:
        return [found, "serve"]
    return [sys.executable, "-c", "from erqishi.cli import run; run()", "serve"]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the server gets SIGTERM if this process dies without stopping it."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_server(
    args: argparse.Namespace, workdir: Path, index: int = 0, redis: str | None = None
) -> tuple[subprocess.Popen[bytes], str, Path]:
    """Start server ``index`` and wait for ``/healthz``; returns the process, base URL and
    log. With ``redis`` it runs in the several-processes mode, sharing ``args.db``."""
    port = free_port()
    db = args.db or str(workdir / "web-load.db")
    several = ["--redis", redis, "--advertise", f"http://127.0.0.1:{port}"] if redis else []
    command = [
        *serve_command(),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        "--spool",
        str(workdir / f"spool-{index}"),
        *several,
        "--bot-delay",
        "0",
        "--seed",
        str(args.seed),
        # every simulated client comes from 127.0.0.1: the per-address limits are off
        "--max-connections-per-address",
        "0",
        "--max-rooms-per-address",
        "0",
        *shlex.split(args.serve_args),
    ]
    log_path = workdir / f"server-{index}.log"
    with log_path.open("wb") as log_file:
        server = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches this process only; it stops the server
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    with httpx.Client(base_url=base_url, trust_env=False, timeout=2) as http:
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"the server exited with code {server.returncode}:\n{tail(log_path)}")
            with contextlib.suppress(httpx.HTTPError):
                if http.get("/healthz").json().get("ok") is True:
                    break
            if time.monotonic() > deadline:
                stop_server(server)
                raise RuntimeError(f"the server did not answer /healthz within 60 s:\n{tail(log_path)}")
            time.sleep(0.1)
    return server, base_url, log_path


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A ``redis-server`` of this run's own on a free loopback port, without persistence."""
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(exe).is_file():
        raise RuntimeError("--processes needs redis-server (apt-get install redis-server) or --redis URL")
    port = free_port()
    log = (workdir / "redis.log").open("ab")
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir), "--protected-mode", "yes", "--loglevel", "warning"],
        stdout=log, stderr=log, preexec_fn=_die_with_parent if sys.platform == "linux" else None,
    )  # fmt: skip
    log.close()
    deadline = time.monotonic() + 10
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with code {proc.returncode}:\n{tail(workdir / 'redis.log')}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            if sock.recv(16).startswith(b"+PONG"):
                return proc, f"redis://127.0.0.1:{port}/0"
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("redis-server did not answer within 10 s")
        time.sleep(0.05)


def stop_server(server: subprocess.Popen[bytes]) -> str:
    """Stop the server: SIGINT (uvicorn's graceful shutdown), then SIGTERM, then SIGKILL.
    Returns the signal that stopped it, or ``"exited"`` if it had stopped by itself."""
    stopped_by = "exited"
    for sig, wait in ((signal.SIGINT, 10.0), (signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        if server.poll() is not None:
            return stopped_by
        stopped_by = sig.name
        with contextlib.suppress(ProcessLookupError):
            server.send_signal(sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(wait)
    return stopped_by


def tail(path: Path, lines: int = 30) -> str:
    """The last lines of a log file."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


# ---------------------------------------------------------------------------- command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="seats per table (default 3)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured after the warm-up (60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured after connecting (5)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time in seconds, ±50%% (1.0)")
    parser.add_argument("--match-quan", type=int, default=1, help="圈 per match (1)")
    parser.add_argument("--preset", default="leshan", help="rule preset of the rooms (leshan)")
    parser.add_argument("--seed", type=int, default=20261130, help="seed of the bots and of the server's rooms")
    parser.add_argument("--connect-concurrency", type=int, default=32, help="connections opened at once (32)")
    parser.add_argument(
        "--no-deflate", dest="deflate", action="store_false", help="do not offer permessage-deflate (browsers do)"
    )
    parser.add_argument("--serve-args", default="", help="more options for erqishi serve, e.g. --serve-args=--deflate")
    parser.add_argument(
        "--url", action="append", help="use a running server at this base URL instead of starting one (repeatable)"
    )
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (1); 2+ need --db URL")
    parser.add_argument("--db", help="the servers' database: a PostgreSQL URL for --processes 2+ (default: SQLite)")
    parser.add_argument("--redis", help="with --processes 2+: a running Redis (default: start one)")
    parser.add_argument("--cross", type=float, default=0.0, help="fraction of sockets sent to a non-owner (0)")
    parser.add_argument("--rss-every", type=float, default=5.0, help="seconds between memory samples (5)")
    parser.add_argument("--quick", action="store_true", help="smoke run: --tables 5 --duration 5 --warmup 2")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.duration, args.warmup = 5, 5.0, 2.0
    if args.tables < 1 or args.duration <= 0 or args.warmup < 0 or args.think < 0 or args.connect_concurrency < 1:
        parser.error("--tables, --duration and --connect-concurrency must be positive; --warmup, --think not negative")
    if args.processes < 1 or args.rss_every <= 0 or not 0 <= args.cross <= 1:
        parser.error("--processes and --rss-every must be positive, --cross in 0-1")
    if args.processes > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("--processes 2+ share one database: give --db postgresql://…")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="erqishi-web-load-") as tmp:
        servers: list[subprocess.Popen[bytes]] = []
        logs: list[Path] = []
        redis_proc: subprocess.Popen[bytes] | None = None
        stopped: list[str] = []
        try:
            if args.url:
                base_urls = [url.rstrip("/") for url in args.url]
            else:
                redis = args.redis
                if args.processes > 1 and redis is None:
                    redis_proc, redis = start_redis(Path(tmp))
                base_urls = []
                for i in range(args.processes):
                    server, base_url, log_path = start_server(args, Path(tmp), i, redis if args.processes > 1 else None)
                    servers.append(server)
                    logs.append(log_path)
                    base_urls.append(base_url)
                    print(f"server {i}: pid {server.pid} at {base_url}", file=sys.stderr)
            try:
                import uvloop

                loop_factory: Any = uvloop.new_event_loop
            except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
                loop_factory = None
            with asyncio.Runner(loop_factory=loop_factory) as runner:
                figures = runner.run(Bench(args, base_urls, servers).run())
        except KeyboardInterrupt:
            print("web_load: interrupted", file=sys.stderr)
            return 130
        except Exception as exc:
            print(f"web_load: {exc}", file=sys.stderr)
            for i, log_path in enumerate(logs):
                print(f"server {i} log:\n{tail(log_path)}", file=sys.stderr)
            return 1
        finally:
            for i, server in enumerate(servers):
                stopped_by = stop_server(server)
                stopped.append(stopped_by)
                if stopped_by != "SIGINT":
                    print(f"web_load: server {i} did not stop on SIGINT within 10 s ({stopped_by})", file=sys.stderr)
            if redis_proc is not None:
                redis_proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    redis_proc.wait(10)
    if servers:
        figures["web_server_stopped_by"] = ",".join(sorted(set(stopped)))
    figures["web_p99_bar_100ms"] = figures.pop("web_p99_bar_100ms")  # the verdict comes last
    other = figures.get("web_other_cpu_pct")
    if other is not None and other > 20 and servers:
        print(
            f"web_load: other processes used {other:.0f}% of a core meanwhile; the figures are disturbed",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How fast the web server's journal is stored: ``Store.apply_live`` on SQLite (a temporary
file) or PostgreSQL (``--db URL``), in batches as the journal's writer sends them.

    .venv/bin/python benchmarks/journal.py              # SQLite
    .venv/bin/python benchmarks/journal.py --db postgresql://…

Two workloads, each printed as ``name: value`` lines:

- ``journal_entries_per_s``: ``moves`` entries of 200 rooms (what a busy server writes
  most), 40 each, in batches of 256 (the writer's batch); then the first batch again (a
  spool replayed: nothing is applied twice), ``journal_replay_batch_ms``. Wall clock: the
  writes wait on the database. A server writes about five entries a second per table in
  play, so 200 tables need about 1,000 a second.
- ``journal_busy_entries_per_s`` and ``journal_busy_hands_per_s``: whole matches as a room
  journals them (room, lobby, then what the server's ``Recorder`` writes after each move:
  match, each hand's deal, moves, declarations, the ``hand`` entry with the record, the
  ``finish`` with the match record, ``closed``),
  appended for ``--busy-seconds`` (20) to a :class:`~erqishi.storage.journal.Journal`
  while the appending thread keeps busy with pure-Python work, as a saturated server's
  does. This is where a server at its limit stands. It runs once per journal writer
  (``--writer``): ``process``, what ``erqishi serve`` uses, stores on the other core;
  ``thread`` gets the interpreter only between the busy thread's slices. The figures are
  named ``journal_busy_<writer>_…``; also printed: ``…_appended`` and ``…_pending``
  (entries still waiting at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from erqishi.core import RuleSet
from erqishi.play import Table
from erqishi.server.durable import Recorder
from erqishi.storage import Store
from erqishi.storage.journal import Journal
from erqishi.storage.live import LiveEntry, LiveKind

ROOMS, STEPS, BATCH = 200, 40, 256
BUSY_MATCHES = 24
RULES = RuleSet.from_options({"match_quan": 1})
NAMES = ["甲", "乙", "丙"]


async def measure(db: str, prefix: str) -> dict[str, float]:
    store = await Store.open(db)
    try:
        entries = [
            LiveEntry(f"{prefix}{r}", seq, "moves", {"match": 1, "hand": 1, "step": seq, "moves": [[0, "d:1"]]})
            for seq in range(1, STEPS + 1)
            for r in range(ROOMS)
        ]
        start = time.perf_counter()
        for i in range(0, len(entries), BATCH):
            await store.apply_live(entries[i : i + BATCH])
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        again = await store.apply_live(entries[:BATCH])
        replay = time.perf_counter() - start
        if any(r.applied for r in again):
            raise RuntimeError("a replayed entry was applied twice")
    finally:
        await store.close()
    return {"journal_entries_per_s": len(entries) / seconds, "journal_replay_batch_ms": replay * 1000}


def a_match(recorder: Recorder, seed: int) -> list[LiveEntry]:
    """The journal of a room that plays one match of random moves: the entries the
    server's :class:`~erqishi.server.durable.Recorder` writes after each move."""
    rng = random.Random(seed)
    table = Table(RULES, rng, NAMES, auto_close=True)
    first = {"match": 1, "names": NAMES, "dealer": table.match.dealer, "code": f"R{seed:05d}",
             "preset": "leshan", "rules": RULES.to_options(), "seed": seed}  # fmt: skip
    out: list[tuple[LiveKind, dict[str, Any]]] = [
        ("room", {"code": f"R{seed:05d}", "config": {"v": 2}, "seed": seed}),
        ("lobby", {"slots": [], "members": [], "counter": 0}),
    ]
    while not table.match_over:
        table.start_hand()
        while table.in_hand:
            seat = table.waiting()[0]
            table.declare(seat, rng.choice(table.options(seat)))
            out += recorder.table_changes(table, 1, first)[0]
    out += recorder.ended_early(table, 1)
    return [LiveEntry(recorder.room, i + 1, kind, data) for i, (kind, data) in enumerate(out)]


def _spin(seconds: float) -> int:
    """Pure-Python work for about ``seconds`` (what a server's loop does with a move)."""
    end, n = time.perf_counter() + seconds, 0
    while time.perf_counter() < end:
        n += sum(i * i for i in range(50))
    return n


async def measure_busy(db: str, prefix: str, spool: Path, seconds: float, writer: str) -> dict[str, float]:
    """Whole matches journalled for ``seconds`` while the appending thread stays busy (see
    the module), with the journal's ``writer`` (``process`` or ``thread``); what the writer
    stored in that time, and what was left waiting. The figures are named after it."""
    store = await Store.open(db)
    journal = Journal(store, spool, sync=False, writer=writer)  # type: ignore[arg-type]
    matches = [a_match(Recorder(f"{prefix}{i}", journal), i) for i in range(BUSY_MATCHES)]
    # the rooms' entries interleave, one entry of each room in turn
    order = [m[step] for step in range(max(map(len, matches))) for m in matches if step < len(m)]
    stored: Counter[str] = Counter()
    journal.listen(lambda r: stored.update((r.entry.kind,)))
    journal.start()
    try:
        start = time.perf_counter()
        i = 0
        while time.perf_counter() - start < seconds:
            if i < len(order):
                journal.append(order[i : i + 8])
                i += 8
            _spin(0.002)
            await asyncio.sleep(0)
        took = time.perf_counter() - start
        appended, left = min(i, len(order)), journal.health.pending
    finally:
        await journal.close(timeout=0)
        await store.close()
    return {
        f"journal_busy_{writer}_appended": appended,
        f"journal_busy_{writer}_entries_per_s": stored.total() / took,
        f"journal_busy_{writer}_hands_per_s": stored["hand"] / took,
        f"journal_busy_{writer}_pending": left,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="a PostgreSQL URL (default: a temporary SQLite file)")
    parser.add_argument("--busy-seconds", type=float, default=20.0, help="length of each busy workload (20)")
    parser.add_argument(
        "--writer",
        action="append",
        choices=["process", "thread"],
        help="the journal writer(s) of the busy workload, each in turn (default: process, then thread)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="erqishi-journal-") as tmp:
        db = args.db or str(Path(tmp) / "journal.db")
        prefix = f"bench-{time.time_ns()}-"
        figures = asyncio.run(measure(db, prefix))
        for writer in args.writer or ["process", "thread"]:
            spool = Path(tmp) / f"spool-{writer}"
            figures |= asyncio.run(measure_busy(db, f"{prefix}{writer[0]}", spool, args.busy_seconds, writer))
    for name, value in figures.items():
        print(f"{name}: {value:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

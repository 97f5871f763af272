"""How fast the web server's journal is stored: ``Store.apply_live`` on SQLite (a temporary
file) or PostgreSQL (``--db URL``), in batches as the journal's writer sends them.

    .venv/bin/python benchmarks/journal.py              # SQLite
    .venv/bin/python benchmarks/journal.py --db postgresql://…

The entries are ``moves`` entries of 200 rooms (what a busy server writes most), 40 each,
in batches of 256 (the writer's batch); then the first batch again (a spool replayed:
nothing is applied twice). Prints ``name: value`` lines: ``journal_entries_per_s`` (wall
clock: the writes wait on the database) and ``journal_replay_batch_ms``. A server writes
about five entries a second per table in play, so 200 tables need about 1,000 a second.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from erqishi.storage import Store
from erqishi.storage.live import LiveEntry

ROOMS, STEPS, BATCH = 200, 40, 256


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="a PostgreSQL URL (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="erqishi-journal-") as tmp:
        db = args.db or str(Path(tmp) / "journal.db")
        figures = asyncio.run(measure(db, f"bench-{time.time_ns()}-"))
    for name, value in figures.items():
        print(f"{name}: {value:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

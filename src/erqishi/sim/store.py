"""Keep runs in a SQL database (SQLAlchemy 2 core; SQLite by default): one row per run
with its summary, one row per hand with its outcome and record, so any hand can later be
replayed (``erqishi replay``).

The tables (``sim_runs``, ``sim_hands``) are those of :mod:`erqishi.storage.schema`, in the
schema the Alembic migrations keep, beside the web server's matches: every call first
migrates the database to the newest revision (:func:`erqishi.storage.upgrade`), which also
adopts a file written by older versions (tables made by ``create_all``, no
``alembic_version``) with its runs. :func:`save_run` writes a run and all its hands in
one transaction (a failed save leaves nothing); :class:`RunWriter` stores a run as it is
played, its hands as they finish, so that a long run that stops keeps what it played
(its summary then says ``"status": "running"`` or ``"interrupted"`` with the hands
stored, and :attr:`StoredRun.complete` is false). ``url`` is an SQLite file path, an
``sqlite:///FILE`` URL or a PostgreSQL URL (:func:`erqishi.storage.database_urls`).
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, create_engine, func, pool, select

from erqishi.sim.stats import SimHand, SimResult
from erqishi.storage import database_urls, upgrade
from erqishi.storage.schema import sim_hands as hands
from erqishi.storage.schema import sim_runs as runs

__all__ = [
    "RUN_STATUS_ZH",
    "RecordNotKeptError",
    "RunWriter",
    "StoredRun",
    "list_runs",
    "load_hand_record",
    "load_run",
    "run_state",
    "save_run",
    "sqlite_url",
]


class RecordNotKeptError(LookupError):
    """A stored hand of a run has no record: the run was saved without its records
    (``keep_records=False``), so the hand cannot be replayed or reported."""


#: a stored run's status (``done``, or the summary's ``running``/``interrupted``) in Chinese
RUN_STATUS_ZH: Final = {"done": "完成", "running": "进行中", "interrupted": "中断"}


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A saved run.

    Attributes:
        id: the run id.
        created: when it was saved (UTC).
        seed, hands, bots: the run's seed, hand count and bot list.
        rules: the rule set spec (a preset name or JSON options, for ``RuleSet.load``).
        summary: the summary JSON (``SimResult.to_json()``).
    """

    id: int
    created: datetime
    seed: int
    hands: int
    bots: tuple[str, ...]
    rules: str
    summary: dict[str, Any]

    @property
    def complete(self) -> bool:
        """Every hand is stored and the summary is the run's (not a run that a
        :class:`RunWriter` is still writing or that stopped)."""
        return "status" not in self.summary

    @property
    def state(self) -> str:
        """``done``, ``running``, or ``interrupted``: a run whose summary still says
        ``running`` but whose process is gone (killed with ``kill -9``, or the machine
        restarted: :func:`run_state`) was interrupted."""
        return run_state(self.summary)


def _boot_id() -> str:
    """This boot of the machine (Linux), or "" where it is not known."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _writer(pid: int) -> dict[str, Any]:
    """Where a run is being written: its process, machine and the machine's boot."""
    return {"pid": pid, "host": socket.gethostname(), "boot": _boot_id()}


def run_state(summary: dict[str, Any]) -> str:
    """The state of a stored run from its summary: ``done``, ``interrupted``, or
    ``running`` while the process writing it (on this machine) is alive; one that died
    without a word (``kill -9``, a crash, a restart of the machine) was interrupted. A run
    written on another machine, or by an erqishi that did not note its process, is taken at
    its word."""
    status = summary.get("status")
    if status is None:
        return "done"
    if status != "running":
        return str(status)
    writer = summary.get("writer")
    if not isinstance(writer, dict) or writer.get("host") != socket.gethostname():
        return "running"
    if writer.get("boot") and writer.get("boot") != _boot_id():
        return "interrupted"
    pid = writer.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return "running"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return "interrupted"
    except OSError:  # alive, someone else's
        return "running"
    return "running"


def sqlite_url(path: str) -> str:
    """The SQLAlchemy URL of an SQLite file.

    >>> sqlite_url("erqishi-sim.db")
    'sqlite:///erqishi-sim.db'
    """
    return f"sqlite:///{path}"


@contextmanager
def _engine(url: str) -> Iterator[Engine]:
    """An engine on the migrated database ``url``, disposed of afterwards.

    Raises:
        ValueError: ``url`` is not an SQLite file or a PostgreSQL URL.
        sqlalchemy.exc.OperationalError: the database cannot be opened or migrated.
    """
    sync_url = database_urls(url)[1]
    upgrade(url)
    engine = create_engine(sync_url, poolclass=pool.NullPool)
    try:
        yield engine
    finally:
        engine.dispose()


def save_run(url: str, result: SimResult, records: Sequence[Mapping[str, object]] | None = None) -> int:
    """Save ``result`` and its hands' records in one transaction; the new run's id.

    Args:
        url: an SQLite file path or a database URL.
        result: the run.
        records: per hand, its record (FORMATS.md); ``None`` takes ``result.records``.
            May be empty (hands are then stored without records).

    Raises:
        ValueError: ``records`` is neither empty nor one per hand, or ``url`` is not a
            supported database.
    """
    recs = result.records if records is None else records
    if recs and len(recs) != len(result.hands):
        raise ValueError(f"need one record per hand ({len(result.hands)}), got {len(recs)}")
    with _engine(url) as engine, engine.begin() as conn:
        key = conn.execute(
            runs.insert().values(
                created=datetime.now(UTC),
                seed=result.seed,
                hands=len(result.hands),
                bots=list(result.bots),
                rules=str(result.rules),
                summary=result.to_json(),
            )
        ).inserted_primary_key
        if key is None:
            raise RuntimeError("the database returned no id for the new run")
        run_id = int(key[0])
        rows = [_hand_row(run_id, h.index, h, recs[k] if recs else None) for k, h in enumerate(result.hands)]
        if rows:
            conn.execute(hands.insert(), rows)
    return run_id


def _hand_row(run_id: int, index: int, hand: SimHand, record: Mapping[str, object] | None) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "idx": index,
        "seats": list(hand.seats),
        "kind": hand.kind,
        "winner": hand.winner,
        "payments": list(hand.payments),
        "record": dict(record) if record is not None else None,
    }


class RunWriter:
    """A run stored as it is played (``erqishi sim``): the run's row when it is made, its
    hands with :meth:`add` as they finish (each call one transaction), the summary with
    :meth:`finish`. Until then the run's summary is ``{"status": "running",
    "hands_stored": N}``; :meth:`close` without :meth:`finish` marks it ``"interrupted"``.

    Args:
        url: an SQLite file path or a database URL.
        seed, bots, rules, hands: the run's seed, bot names, rule set and hand count.
        keep_records: store each hand's record (for ``erqishi replay``).

    Raises:
        ValueError: ``url`` is not a supported database.
        sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or written.
    """

    def __init__(
        self, url: str, seed: int, bots: Sequence[str], rules: object, hands: int, *, keep_records: bool = True
    ) -> None:
        sync_url = database_urls(url)[1]
        upgrade(url)
        self._engine = create_engine(sync_url, poolclass=pool.NullPool)
        self.keep_records = keep_records
        self.stored = 0
        self.finished = False
        self._writer = _writer(os.getpid())
        try:
            with self._engine.begin() as conn:
                key = conn.execute(
                    runs.insert().values(
                        created=datetime.now(UTC),
                        seed=seed,
                        hands=hands,
                        bots=list(bots),
                        rules=str(rules),
                        summary={"status": "running", "hands_stored": 0, "writer": self._writer},
                    )
                ).inserted_primary_key
        except BaseException:
            self._engine.dispose()
            raise
        if key is None:
            raise RuntimeError("the database returned no id for the new run")
        self.run_id = int(key[0])

    def add(self, items: Sequence[tuple[int, SimHand, Mapping[str, object]]]) -> None:
        """Store the hands ``(index, hand, record)`` just finished (one transaction)."""
        if not items:
            return
        stored = self.stored + len(items)
        with self._engine.begin() as conn:
            conn.execute(
                hands.insert(),
                [_hand_row(self.run_id, i, h, rec if self.keep_records else None) for i, h, rec in items],
            )
            conn.execute(
                runs.update()
                .where(runs.c.id == self.run_id)
                .values(summary={"status": "running", "hands_stored": stored, "writer": self._writer})
            )
        self.stored = stored  # counted once committed (a Ctrl-C inside the transaction undoes it)

    def finish(self, result: SimResult) -> int:
        """Store the run's summary (every hand must be stored); the run's id.

        Raises:
            ValueError: not every hand of ``result`` was stored.
        """
        if self.stored != len(result.hands):
            raise ValueError(f"{self.stored} of the run's {len(result.hands)} hands are stored")
        with self._engine.begin() as conn:
            conn.execute(
                runs.update().where(runs.c.id == self.run_id).values(hands=len(result.hands), summary=result.to_json())
            )
        self.finished = True
        return self.run_id

    def close(self) -> None:
        """Release the database; a run not finished is marked ``"interrupted"`` (its hands
        stored so far stay)."""
        try:
            if not self.finished:
                with self._engine.begin() as conn:
                    # the rows themselves say how many are stored: a Ctrl-C between a commit
                    # and the count above must not make the summary disagree with them
                    count = select(func.count()).select_from(hands).where(hands.c.run_id == self.run_id)
                    self.stored = int(conn.execute(count).scalar_one())
                    conn.execute(
                        runs.update()
                        .where(runs.c.id == self.run_id)
                        .values(summary={"status": "interrupted", "hands_stored": self.stored})
                    )
        finally:
            self._engine.dispose()


def _stored(row: Any) -> StoredRun:
    summary = row.summary if isinstance(row.summary, dict) else json.loads(row.summary)
    created: datetime = row.created
    if created.tzinfo is None:  # SQLite keeps no time zone
        created = created.replace(tzinfo=UTC)
    return StoredRun(row.id, created, row.seed, row.hands, tuple(row.bots), row.rules, summary)


def load_run(url: str, run_id: int) -> StoredRun:
    """The saved run ``run_id``.

    Raises:
        LookupError: no run of that id.
    """
    with _engine(url) as engine, engine.connect() as conn:
        row = conn.execute(select(runs).where(runs.c.id == run_id)).one_or_none()
    if row is None:
        raise LookupError(f"no sim run {run_id}")
    return _stored(row)


def list_runs(url: str) -> list[StoredRun]:
    """Every saved run, oldest first."""
    with _engine(url) as engine, engine.connect() as conn:
        rows = conn.execute(select(runs).order_by(runs.c.id)).all()
    return [_stored(row) for row in rows]


def load_hand_record(url: str, run_id: int, index: int) -> dict[str, Any]:
    """The record (FORMATS.md) of hand ``index`` of run ``run_id``, ready for
    ``parse_record`` / ``erqishi replay``.

    Raises:
        LookupError: no such run or hand.
        RecordNotKeptError: the hand was saved without its record (a LookupError).
    """
    with _engine(url) as engine, engine.connect() as conn:
        row = conn.execute(select(hands.c.record).where(hands.c.run_id == run_id, hands.c.idx == index)).one_or_none()
    if row is None:
        raise LookupError(f"no hand {index} in sim run {run_id}")
    if row.record is None:
        raise RecordNotKeptError(f"hand {index} of sim run {run_id} was saved without its record")
    record: dict[str, Any] = row.record
    return record

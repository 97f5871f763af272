"""The web server's store: matches and their hands in SQLite or PostgreSQL (SQLAlchemy 2,
async engine), the schema kept by Alembic migrations.

:meth:`Store.open` first brings the database to the newest migration (on a sync engine in
a worker thread), then opens an async engine: aiosqlite for SQLite, psycopg for
PostgreSQL. Nothing here creates tables directly; every schema change is a migration in
``migrations/versions``.

Every write is one transaction: a hand and the match's new totals are stored together or
not at all. Records come in typed (:class:`~erqishi.records.HandRecord` with its
:class:`~erqishi.records.RecordResult`, :class:`~erqishi.records.MatchRecord`) and are
trusted: they are stored as their ``to_json()``, not parsed again.

The sim runs of ``erqishi sim`` (``sim_runs``, ``sim_hands``) live in the same schema;
:mod:`erqishi.sim.store` reads and writes them.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from sqlalchemy import Row, create_engine, delete, event, func, insert, inspect, pool, select, text, tuple_, update
from sqlalchemy.engine import URL, Connection, Engine, Result, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError
from sqlalchemy.sql import Executable

from erqishi.core.engine import OutcomeKind
from erqishi.core.errors import RecordError
from erqishi.records import HandRecord, MatchRecord, parse_record
from erqishi.storage.live import FencedError, LiveEntry, LiveResult, LiveRoom, live_key
from erqishi.storage.schema import live_log, metadata, web_hands, web_matches

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no file lock while migrating
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.ext.asyncio import AsyncEngine

    from erqishi.storage.tournaments import StoredTournament, TournamentInfo, TournamentMatch, TournamentSummary

__all__ = [
    "MIGRATIONS",
    "HandSummary",
    "MatchSummary",
    "Store",
    "UnknownMatchError",
    "alembic_config",
    "apply_live_sync",
    "check_sqlite",
    "database_urls",
    "mask_url",
    "open_sync_engine",
    "sqlite_file",
    "upgrade",
]

#: The Alembic script directory shipped with the package.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

_SQLITE_DRIVERS = frozenset({"sqlite", "sqlite+pysqlite", "sqlite+aiosqlite"})
_POSTGRES_DRIVERS = frozenset({"postgresql", "postgres", "postgresql+psycopg"})
_BIGINT = 2**63


class UnknownMatchError(KeyError):
    """No stored match has this id. A ``KeyError`` (so a ``LookupError``) with a plain message.

    Attributes:
        match_id: the id asked for.
    """

    def __init__(self, match_id: int) -> None:
        super().__init__(match_id)
        self.match_id = match_id

    def __str__(self) -> str:
        return f"no stored match {self.match_id}"


# -- database URLs and migrations -------------------------------------------------------


def mask_url(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for messages and logs.

    >>> mask_url("postgresql://erqishi:s3cret@127.0.0.1:5432/erqishi")
    'postgresql://erqishi:***@127.0.0.1:5432/erqishi'
    >>> mask_url("sqlite:///web.db")
    'sqlite:///web.db'
    >>> mask_url("postgresql://erqishi@127.0.0.1/erqishi?password=s3cret&sslmode=disable")
    'postgresql://erqishi@127.0.0.1/erqishi?password=***&sslmode=disable'
    """
    url = _QUERY_PASSWORD.sub(r"\1***", url)
    scheme, sep, rest = url.partition("://")
    at = rest.rfind("@")
    colon = rest.find(":", 0, at) if sep and at >= 0 else -1
    if colon < 0 or "/" in rest[:colon]:
        return url
    return f"{scheme}://{rest[:colon]}:***{rest[at:]}"


#: a password given in a URL's query string (libpq's ``?password=…``)
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#\s]*?(?=[&#\s]|:\s|:?$)", re.IGNORECASE)


def database_urls(url: str) -> tuple[str, str]:
    """The SQLAlchemy URLs ``(async_url, sync_url)`` of a database.

    Args:
        url: an SQLite file path (``erqishi-web.db``), ``sqlite:///FILE``,
            ``sqlite+aiosqlite:///FILE``, or a PostgreSQL URL (``postgresql://``,
            ``postgres://`` or ``postgresql+psycopg://USER:PASSWORD@HOST:PORT/DB``).
            Query parameters are kept.

    Returns:
        For SQLite, the ``sqlite+aiosqlite`` and ``sqlite+pysqlite`` URLs of the file; for
        PostgreSQL, the ``postgresql+psycopg`` URL twice.

    Raises:
        ValueError: an empty URL, an in-memory SQLite database (the migrations and the
            server would each see a database of their own), another database or driver, or
            text that is no URL. The message quotes the URL with its password masked.

    >>> database_urls("erqishi-web.db")
    ('sqlite+aiosqlite:///erqishi-web.db', 'sqlite+pysqlite:///erqishi-web.db')
    >>> database_urls("postgres://u:p@127.0.0.1:5432/db")[0]
    'postgresql+psycopg://u:p@127.0.0.1:5432/db'
    """
    if not url.strip():
        raise ValueError("no database URL given: use an SQLite file path or a postgresql:// URL")
    if "://" not in url:
        if url.strip() == ":memory:":
            raise ValueError(f"{url!r}: an in-memory SQLite database cannot be stored to; give a file path")
        return (
            URL.create("sqlite+aiosqlite", database=url).render_as_string(hide_password=False),
            URL.create("sqlite+pysqlite", database=url).render_as_string(hide_password=False),
        )
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise ValueError(f"not a database URL: {mask_url(url)!r}") from None
    driver = parsed.drivername
    if driver in _SQLITE_DRIVERS:
        if parsed.database in (None, "", ":memory:"):
            raise ValueError(
                f"{mask_url(url)!r} is an in-memory SQLite database, which cannot be stored to; "
                "give a file (sqlite:///FILE)"
            )
        return (
            parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False),
            parsed.set(drivername="sqlite+pysqlite").render_as_string(hide_password=False),
        )
    if driver in _POSTGRES_DRIVERS:
        pg = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
        return pg, pg
    raise ValueError(
        f"unsupported database URL {mask_url(url)!r}: use an SQLite file path, sqlite:///FILE, "
        "or postgresql://USER:PASSWORD@HOST:PORT/DB"
    )


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite database named as :func:`database_urls` takes it (a path or an
    ``sqlite…:///`` URL), else None (PostgreSQL, or no database URL).

    >>> sqlite_file("runs.db"), sqlite_file("sqlite:///runs.db?timeout=5"), sqlite_file("postgresql://h/db")
    (PosixPath('runs.db'), PosixPath('runs.db'), None)
    """
    try:
        parsed = make_url(database_urls(url)[1])
    except ValueError:
        return None
    return Path(parsed.database) if parsed.get_backend_name() == "sqlite" and parsed.database else None


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the shipped migrations, built without an ``alembic.ini``.

    Args:
        url: when given, the database (as for :func:`database_urls`), set as
            ``sqlalchemy.url`` for Alembic commands that open their own connection
            (``command.current``, ``command.upgrade(cfg, "head", sql=True)``…).

    Returns:
        The config, with ``script_location`` set to :data:`MIGRATIONS`.

    Raises:
        ValueError: ``url`` is not a supported database URL.
    """
    from alembic.config import Config  # here: the journal's writer process never migrates

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        # the config is an INI parser: a literal % must be doubled
        cfg.set_main_option("sqlalchemy.url", database_urls(url)[1].replace("%", "%%"))
    return cfg


#: the tables of a file of runs from before the migrations, with their columns (0002)
_LEGACY_SIM: dict[str, frozenset[str]] = {
    "sim_runs": frozenset({"id", "created", "seed", "hands", "bots", "rules", "summary"}),
    "sim_hands": frozenset({"run_id", "idx", "seats", "kind", "winner", "payments", "record"}),
}


def _is_ours(found: Any, tables: Collection[str]) -> bool:
    """Whether an SQLite file with ``tables`` (inspected by ``found``) is erqishi's: it has
    the migrations' table, or it is a file of runs from before the migrations (only the two
    sim tables, with their columns of then)."""
    if "alembic_version" in tables:
        return True
    ours = set(tables) & set(metadata.tables)
    if not ours or not ours <= set(_LEGACY_SIM):
        return False
    return all({c["name"] for c in found.get_columns(name)} == _LEGACY_SIM[name] for name in ours)


def check_sqlite(url: str) -> None:
    """Make sure an SQLite database can be read whole and written now (call it before
    :func:`upgrade`): ``PRAGMA quick_check``, and in an erqishi database a write that is
    rolled back. Does nothing for other databases.

    Raises:
        ValueError: the file is damaged, or cannot be written (read-only file, folder or
            mount), saying which.
        sqlalchemy.exc.OperationalError: the file cannot be opened.
    """
    sync_url = database_urls(url)[1]
    engine = create_engine(sync_url, poolclass=pool.NullPool)
    try:
        if engine.dialect.name != "sqlite":
            return
        with engine.connect() as conn:
            trans = conn.begin()
            try:
                try:
                    verdict = [str(r[0]) for r in conn.exec_driver_sql("PRAGMA quick_check(3)")]
                except DatabaseError as exc:  # too damaged to be checked: "malformed"
                    verdict = [_first_line(exc)]
                if verdict != ["ok"]:
                    raise ValueError(
                        f"{mask_url(url)} is damaged (SQLite's check: {'; '.join(verdict)[:200]}); "
                        "nothing was written to it: give another file, or repair this one (sqlite3 .recover)"
                    )
                if "alembic_version" in inspect(conn).get_table_names():
                    # a write that changes nothing, rolled back (migrating a file writes to it
                    # anyway, so a file without the table is found out by the migration)
                    try:
                        conn.exec_driver_sql("UPDATE alembic_version SET version_num = version_num")
                    except Exception as exc:
                        raise ValueError(f"{mask_url(url)} cannot be written: {_first_line(exc)}") from None
            finally:
                trans.rollback()
    finally:
        engine.dispose()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def upgrade(url: str, revision: str = "head") -> None:
    """Run the migrations on the database ``url`` up to ``revision``, in one transaction
    where the database allows it (PostgreSQL does; SQLite commits each table as it goes).

    Blocking: call it from a thread in async code (:meth:`Store.open` does).

    Args:
        url: the database, as for :func:`database_urls`.
        revision: the target revision, the newest by default.

    Raises:
        ValueError: ``url`` is not a supported database URL, an SQLite file that holds
            another program's tables (it is left as it was), or a database of a newer erqishi.
        sqlalchemy.exc.OperationalError: the database cannot be reached.
    """
    sync_url = database_urls(url)[1]
    engine = create_engine(sync_url, poolclass=pool.NullPool)
    try:
        with _migrating(url), engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                # several processes starting on one database at once (a batch of sims, the
                # servers of one site) migrate one after the other: the others wait here
                # and then find the schema current
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            if engine.dialect.name == "sqlite":
                # an SQLite file of another program is never written into: erqishi's tables
                # go only into a new file or one that has some of them (an old file of runs,
                # from before the migrations, is adopted). PostgreSQL databases are often
                # shared by several programs, each in its own tables: not checked.
                found = inspect(conn)
                tables = found.get_table_names()
                if tables and not _is_ours(found, tables):
                    shown = ", ".join(sorted(tables)[:3]) + (", …" if len(tables) > 3 else "")
                    raise ValueError(
                        f"{mask_url(url)} is not an erqishi database (it holds other tables: {shown}); "
                        "give an erqishi database or a new file"
                    )
            from alembic import command
            from alembic.util.exc import CommandError

            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            try:
                command.upgrade(cfg, revision)
            except CommandError as exc:
                if "Can't locate revision" not in str(exc):
                    raise
                raise ValueError(
                    f"{mask_url(url)} was written by a newer erqishi (its schema is past this version's "
                    "migrations): use that version, or another database"
                ) from None
    finally:
        engine.dispose()


#: the PostgreSQL advisory lock held while migrating (an arbitrary constant of erqishi's)
_MIGRATION_LOCK: Final = 0x65727169  # "erqi"


@contextmanager
def _migrating(url: str) -> Iterator[None]:
    """While migrating an SQLite file, hold an exclusive ``flock`` on the file itself, so
    that several processes opening a new file at once (sims started together) migrate it
    one after the other, the others then finding it current. ``flock`` locks do not meet
    the ``fcntl`` locks SQLite takes on the same file. PostgreSQL: nothing here (an
    advisory lock in the migration's transaction)."""
    path = sqlite_file(url)
    if path is None or str(path) == ":memory:" or fcntl is None:
        yield
        return
    try:
        handle = path.open("ab")  # creates an empty file, which SQLite takes as a new database
    except OSError:
        yield  # the migration's own connection says why the file cannot be opened
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # write-ahead logging: readers never wait for the writer, nor the writer for readers
    # (a long read or a lock held by another process stalls neither); safe after a crash
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


# -- summaries --------------------------------------------------------------------------


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone: every stored time is UTC
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _iso(moment: datetime) -> str:
    """ISO 8601 in UTC, to the millisecond: ``2025-03-01T08:15:30.250Z``."""
    return _utc(moment).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored match as the history lists it (docs/protocol.md "match summary").

    Attributes:
        id: the match id.
        room: the code of the room it was played in.
        created: when it was stored (UTC).
        finished: when it ended (UTC), or None while it goes on.
        preset: the rules preset name it was set up with.
        rules: the rule options object.
        seats: a display name per seat.
        seed: the seed its deals were drawn with (not sent to clients).
        totals: the running totals per seat, in score units.
        leaders: the seats in the lead at the end, or None while it goes on (and for a
            match ended early by a 解散 vote: :attr:`status`).
        hands: how many hands are stored.
    """

    id: int
    room: str
    created: datetime
    finished: datetime | None
    preset: str
    rules: dict[str, Any]
    seats: tuple[str, ...]
    seed: int
    totals: tuple[int, ...]
    leaders: tuple[int, ...] | None
    hands: int

    def to_json(self) -> dict[str, Any]:
        """The protocol's match summary object (times as ISO 8601 in UTC)."""
        return {
            "id": self.id,
            "room": self.room,
            "created": _iso(self.created),
            "finished": None if self.finished is None else _iso(self.finished),
            "rules": self.rules,
            "preset": self.preset,
            "seats": list(self.seats),
            "totals": list(self.totals),
            "leaders": None if self.leaders is None else list(self.leaders),
            "hands": self.hands,
        }

    @property
    def status(self) -> Literal["running", "finished", "ended_early"]:
        """``running`` (no ``finished`` time yet), ``finished`` (every 圈 played, with its
        leaders) or ``ended_early`` (ended by a 解散 vote: finished without leaders)."""
        if self.finished is None:
            return "running"
        return "finished" if self.leaders is not None else "ended_early"


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A stored hand as the history lists it (docs/protocol.md "hand summary").

    Attributes:
        id: the hand id.
        match: the id of its match.
        index: its place in the match, from 0.
        quan: the 圈 number, or None.
        dealer: the dealer's seat.
        kind: ``"win"`` or ``"dead"``.
        winner: the winner's seat, None for a dead hand.
        score: the winner's score, 0 for a dead hand.
        payments: what each seat won (+) or paid (-), in score units; they sum to 0.
    """

    id: int
    match: int
    index: int
    quan: int | None
    dealer: int
    kind: Literal["win", "dead"]
    winner: int | None
    score: int
    payments: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The protocol's hand summary object."""
        return {
            "id": self.id,
            "match": self.match,
            "index": self.index,
            "quan": self.quan,
            "dealer": self.dealer,
            "kind": self.kind,
            "winner": self.winner,
            "score": self.score,
            "payments": list(self.payments),
        }


# -- what is stored ---------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(values: Sequence[int], what: str) -> list[int]:
    items = list(values)
    if not all(_is_int(v) for v in items):
        raise ValueError(f"{what} must be integers, got {items!r}")
    return items


def _need(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise RecordError(f"{field}: {message}")


@dataclass(frozen=True, slots=True)
class _HandRow:
    """What ``web_hands`` keeps of a hand: its summary columns and its record as JSON."""

    quan: int | None
    dealer: int
    kind: Literal["win", "dead"]
    winner: int | None
    score: int
    payments: list[int]
    record: dict[str, Any]


def _hand_row(record: HandRecord) -> _HandRow:
    """The row of a finished hand, its summary read from the typed result.

    Raises:
        RecordError: not a hand record, or a hand record without its result.
    """
    _need(isinstance(record, HandRecord), "kind", "must be a hand record here, got a match record")
    result = record.result
    _need(result is not None, "result", "is missing: only finished hands, with their result, are stored")
    assert result is not None
    win = result.kind is OutcomeKind.WIN
    return _HandRow(
        quan=record.quan,
        dealer=record.deal.dealer,
        kind="win" if win else "dead",
        winner=result.winner if win else None,
        score=(result.score or 0) if win else 0,
        payments=list(result.payments),
        record=record.to_json(),
    )


def _check_seat_list(values: Sequence[int], seats: int, what: str) -> list[int]:
    items = _ints(values, what)
    if len(items) != seats:
        raise ValueError(f"{what} must have one entry per seat ({seats}), got {items!r}")
    return items


# -- writes inside a transaction --------------------------------------------------------


def _match_values(*, room: str, preset: str, rules: dict[str, Any], seats: Sequence[str], seed: int) -> dict[str, Any]:
    """The checked columns of a new match (see :meth:`Store.create_match` for the errors)."""
    names = list(seats)
    if not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f"seats must be a non-empty list of names, got {names!r}")
    if not _is_int(seed) or not -_BIGINT <= seed < _BIGINT:
        raise ValueError(f"seed must be a signed 64-bit integer, got {seed!r}")
    try:
        options = json.loads(json.dumps(rules, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"rules must be a JSON object: {exc}") from None
    if not isinstance(options, dict):
        raise ValueError(f"rules must be a JSON object, got {rules!r}")
    return {
        "room": room,
        "finished": None,
        "preset": preset,
        "rules": options,
        "seats": names,
        "seed": seed,
        "totals": [0] * len(names),
        "leaders": None,
        "record": None,
    }


async def _insert_match(conn: _Writes, values: dict[str, Any], live_key: str | None = None) -> int:
    new_id = await conn.scalar(
        insert(web_matches).values(created=datetime.now(UTC), live_key=live_key, **values).returning(web_matches.c.id)
    )
    if new_id is None:
        raise RuntimeError("the database returned no id for the new match")
    return int(new_id)


def _hand_values(index: int, record: HandRecord, totals: Sequence[int]) -> tuple[_HandRow, list[int]]:
    """The checked row and totals of a hand (see :meth:`Store.save_hand` for the errors)."""
    row = _hand_row(record)
    if not _is_int(index) or index < 0:
        raise ValueError(f"the hand index must be 0 or more, got {index!r}")
    return row, _ints(totals, "totals")


async def _insert_hand(
    conn: _Writes, match_id: int, index: int, record: HandRecord, row: _HandRow, new_totals: list[int]
) -> int:
    # the update comes first: it takes the write lock (SQLite) or the row lock (PostgreSQL)
    seats = await conn.scalar(
        update(web_matches).where(web_matches.c.id == match_id).values(totals=new_totals).returning(web_matches.c.seats)
    )
    if seats is None:
        raise UnknownMatchError(match_id)
    _check_seat_list(new_totals, len(seats), "totals")
    _need(
        len(record.seats) == len(seats),
        "seats",
        f"the record has {len(record.seats)} seats, match {match_id} has {len(seats)}",
    )
    try:
        hand_id = await conn.scalar(
            insert(web_hands)
            .values(
                match_id=match_id,
                idx=index,
                created=datetime.now(UTC),
                quan=row.quan,
                dealer=row.dealer,
                kind=row.kind,
                winner=row.winner,
                score=row.score,
                payments=row.payments,
                record=row.record,
            )
            .returning(web_hands.c.id)
        )
    except IntegrityError:
        raise ValueError(f"match {match_id} already has a hand {index}") from None
    if hand_id is None:
        raise RuntimeError("the database returned no id for the new hand")
    return int(hand_id)


def _finish_values(
    record: MatchRecord, totals: Sequence[int], leaders: Sequence[int]
) -> tuple[list[int], list[int], dict[str, Any]]:
    """The checked totals, leaders and record JSON of a finished match (see
    :meth:`Store.finish_match` for the errors)."""
    _need(isinstance(record, MatchRecord), "kind", "must be 'match' here (a match record)")
    for i, hand in enumerate(record.hands):
        _need(hand.result is not None, f"hands[{i}].result", "is missing: a finished match has every result")
    final = _ints(totals, "totals")
    _need(
        record.totals is None or list(record.totals) == final,
        "totals",
        f"the record's totals {None if record.totals is None else list(record.totals)!r} differ from {final!r}",
    )
    return final, _ints(leaders, "leaders"), record.to_json()


async def _finish_match(
    conn: _Writes,
    match_id: int,
    record: MatchRecord,
    final: list[int],
    lead: list[int],
    data: dict[str, Any],
    *,
    early: bool = False,
) -> None:
    # a match ended early (解散) is finished without leaders: nobody won it
    seats = await conn.scalar(
        update(web_matches)
        .where(web_matches.c.id == match_id)
        .values(finished=datetime.now(UTC), record=data, totals=final, leaders=None if early else lead)
        .returning(web_matches.c.seats)
    )
    if seats is None:
        raise UnknownMatchError(match_id)
    _check_seat_list(final, len(seats), "totals")
    if not all(0 <= s < len(seats) for s in lead):
        raise ValueError(f"leaders must be seats 0-{len(seats) - 1}, got {lead!r}")
    _need(
        len(record.seats) == len(seats),
        "seats",
        f"the record has {len(record.seats)} seats, match {match_id} has {len(seats)}",
    )


# -- the store --------------------------------------------------------------------------

_SUMMARY_COLUMNS = (
    web_matches.c.id,
    web_matches.c.room,
    web_matches.c.created,
    web_matches.c.finished,
    web_matches.c.preset,
    web_matches.c.rules,
    web_matches.c.seats,
    web_matches.c.seed,
    web_matches.c.totals,
    web_matches.c.leaders,
)

_HAND_COLUMNS = (
    web_hands.c.id,
    web_hands.c.match_id,
    web_hands.c.idx,
    web_hands.c.quan,
    web_hands.c.dealer,
    web_hands.c.kind,
    web_hands.c.winner,
    web_hands.c.score,
    web_hands.c.payments,
)


def _hand_count() -> Any:
    return (
        select(func.count())
        .select_from(web_hands)
        .where(web_hands.c.match_id == web_matches.c.id)
        .correlate(web_matches)
        .scalar_subquery()
        .label("hands")
    )


def _match_summary(row: Row[*tuple[Any, ...]]) -> MatchSummary:
    return MatchSummary(
        id=row.id,
        room=row.room,
        created=_utc(row.created),
        finished=None if row.finished is None else _utc(row.finished),
        preset=row.preset,
        rules=row.rules,
        seats=tuple(row.seats),
        seed=row.seed,
        totals=tuple(row.totals),
        leaders=None if row.leaders is None else tuple(row.leaders),
        hands=row.hands,
    )


def _hand_summary(row: Row[*tuple[Any, ...]]) -> HandSummary:
    return HandSummary(
        id=row.id,
        match=row.match_id,
        index=row.idx,
        quan=row.quan,
        dealer=row.dealer,
        kind="win" if row.kind == "win" else "dead",
        winner=row.winner,
        score=row.score,
        payments=tuple(row.payments),
    )


class Store:
    """The matches and hands of the web server, in one database.

    Open it with ``await Store.open(url)`` and ``await store.close()`` when done. Methods may
    be called concurrently from one event loop.
    """

    __slots__ = ("_engine", "url")

    def __init__(self, engine: AsyncEngine, url: str = "") -> None:
        """Wrap an engine on a migrated database; use :meth:`open` instead."""
        self._engine = engine
        #: what it was opened with (:meth:`open`'s ``url``)
        self.url = url

    @classmethod
    async def open(cls, url: str) -> Store:
        """Bring the database to the newest migration and open it.

        Args:
            url: an SQLite file path or a database URL (see :func:`database_urls`). An
                SQLite file is created when missing.

        Returns:
            The open store.

        Raises:
            ValueError: ``url`` is not a supported database URL.
            sqlalchemy.exc.OperationalError: the database cannot be reached.
        """
        from sqlalchemy.ext.asyncio import create_async_engine  # not in the writer process

        async_url, _ = database_urls(url)
        await asyncio.to_thread(upgrade, url)
        if async_url.startswith("sqlite"):
            engine = create_async_engine(async_url)
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            # a dead connection is noticed before use; an unreachable server fails in seconds
            engine = create_async_engine(async_url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
        return cls(engine, url)

    async def close(self) -> None:
        """Close every database connection. The store cannot be used afterwards."""
        await self._engine.dispose()

    async def create_match(
        self, *, room: str, preset: str, rules: dict[str, Any], seats: Sequence[str], seed: int
    ) -> int:
        """Store a new match, with totals of 0 and no hands.

        Args:
            room: the room code.
            preset: the rules preset name it was set up with.
            rules: the rule options object (JSON).
            seats: a display name per seat.
            seed: the seed of its deals; a signed 64-bit integer.

        Returns:
            The new match's id.

        Raises:
            ValueError: no seats, a seat name that is not a string, ``rules`` that are not
                JSON, or a seed beyond 64 bits.
        """
        values = _match_values(room=room, preset=preset, rules=rules, seats=seats, seed=seed)
        async with self._engine.begin() as conn:
            return await _insert_match(conn, values)

    async def save_hand(self, match_id: int, index: int, record: HandRecord, totals: Sequence[int]) -> int:
        """Store a finished hand of a match and the match's new totals, in one transaction.

        The record is trusted (it comes from the engine, or was read and checked by
        :func:`erqishi.records.parse_record`): ``record.to_json()`` is stored as it is,
        and the summary (``quan``, ``dealer``, ``kind``, ``winner``, ``score``,
        ``payments``) is read from it and its typed result; ``score`` is 0 for a dead hand.

        Args:
            match_id: the match.
            index: the hand's place in the match, from 0.
            record: the hand record with its result (``HandRecord.with_result(outcome)``).
            totals: the match totals per seat after this hand.

        Returns:
            The new hand's id.

        Raises:
            RecordError: ``record`` is not a hand record, has no result, or has another
                number of seats than the match.
            UnknownMatchError: (a ``KeyError``) no match ``match_id``.
            ValueError: a negative index, ``totals`` not one integer per seat, or the match
                already has a hand ``index``.

        Nothing is written when it raises.
        """
        row, new_totals = _hand_values(index, record, totals)
        async with self._engine.begin() as conn:
            return await _insert_hand(conn, match_id, index, record, row, new_totals)

    async def finish_match(
        self, match_id: int, record: MatchRecord, totals: Sequence[int], leaders: Sequence[int]
    ) -> None:
        """Mark a match finished now, with its match record, final totals and leaders.

        The record is trusted like a hand's (:meth:`save_hand`): ``record.to_json()`` is
        stored, every hand with its result.

        Args:
            match_id: the match.
            record: the match record (FORMATS.md, ``"kind": "match"``), every hand with its
                result.
            totals: the final totals per seat.
            leaders: the seats in the lead.

        Raises:
            RecordError: ``record`` is not a match record, a hand of it has no result, it
                has another number of seats than the match, or totals other than ``totals``.
            UnknownMatchError: (a ``KeyError``) no match ``match_id``.
            ValueError: ``totals`` not one integer per seat, or ``leaders`` not seats.

        Nothing is written when it raises.
        """
        final, lead, data = _finish_values(record, totals, leaders)
        async with self._engine.begin() as conn:
            await _finish_match(conn, match_id, record, final, lead, data)

    async def list_matches(self, limit: int = 50, offset: int = 0) -> list[MatchSummary]:
        """Stored matches, newest first.

        Args:
            limit: at most this many.
            offset: skip this many of the newest first.

        Returns:
            The summaries, each with its hand count.

        Raises:
            ValueError: a negative ``limit`` or ``offset``.
        """
        if limit < 0 or offset < 0:
            raise ValueError(f"limit and offset must be 0 or more, got {limit} and {offset}")
        query = (
            select(*_SUMMARY_COLUMNS, _hand_count())
            .order_by(web_matches.c.created.desc(), web_matches.c.id.desc())
            .limit(limit)
            .offset(offset)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_match_summary(row) for row in rows]

    async def get_match(self, match_id: int) -> tuple[MatchSummary, list[HandSummary], dict[str, Any] | None] | None:
        """A stored match with its hands.

        Args:
            match_id: the match.

        Returns:
            ``(summary, hands in order, match record or None while it goes on)``, or None
            when there is no such match.
        """
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(*_SUMMARY_COLUMNS, _hand_count(), web_matches.c.record).where(web_matches.c.id == match_id)
                )
            ).one_or_none()
            if row is None:
                return None
            hands = (
                await conn.execute(
                    select(*_HAND_COLUMNS).where(web_hands.c.match_id == match_id).order_by(web_hands.c.idx)
                )
            ).all()
        record: dict[str, Any] | None = row.record
        return _match_summary(row), [_hand_summary(h) for h in hands], record

    async def get_hand(self, hand_id: int) -> tuple[HandSummary, dict[str, Any]] | None:
        """A stored hand.

        Args:
            hand_id: the hand.

        Returns:
            ``(summary, hand record with its result)``, or None when there is no such hand.
        """
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(*_HAND_COLUMNS, web_hands.c.record).where(web_hands.c.id == hand_id))
            ).one_or_none()
        if row is None:
            return None
        record: dict[str, Any] = row.record
        return _hand_summary(row), record

    # -- 争霸赛 tournaments (erqishi.storage.tournaments) ---------------------------------

    async def create_tournament(self, state: dict[str, Any], info: TournamentInfo) -> int:
        """Store a new tournament's state (:func:`erqishi.storage.tournaments.create_tournament`)."""
        from erqishi.storage import tournaments

        return await tournaments.create_tournament(self._engine, state, info)

    async def save_tournament(
        self,
        tournament_id: int,
        state: dict[str, Any],
        info: TournamentInfo,
        *,
        version: int | None = None,
        matches: Sequence[TournamentMatch] = (),
    ) -> tuple[int, list[int]]:
        """Save a tournament's state with its tables' finished matches, in one transaction
        (:func:`erqishi.storage.tournaments.save_tournament`)."""
        from erqishi.storage import tournaments

        return await tournaments.save_tournament(
            self._engine, tournament_id, state, info, version=version, matches=matches
        )

    async def get_tournament(self, tournament_id: int) -> StoredTournament | None:
        """A stored tournament (:func:`erqishi.storage.tournaments.get_tournament`)."""
        from erqishi.storage import tournaments

        return await tournaments.get_tournament(self._engine, tournament_id)

    async def list_tournaments(self, limit: int = 50, offset: int = 0) -> list[TournamentSummary]:
        """Stored tournaments, newest first (:func:`erqishi.storage.tournaments.list_tournaments`)."""
        from erqishi.storage import tournaments

        return await tournaments.list_tournaments(self._engine, limit, offset)

    async def link_tournament_match(self, tournament_id: int, round_no: int, table: int, match_id: int) -> None:
        """Link a stored match to a tournament table (:func:`erqishi.storage.tournaments.link_tournament_match`)."""
        from erqishi.storage import tournaments

        await tournaments.link_tournament_match(self._engine, tournament_id, round_no, table, match_id)

    # -- the journal of live rooms (erqishi.storage.live) -------------------------------

    async def apply_live(self, entries: Sequence[LiveEntry]) -> list[LiveResult]:
        """Store journal entries, in order, in one transaction (all or none).

        Each entry is kept in ``live_log`` and does what its kind says
        (:mod:`erqishi.storage.live`): ``match`` stores a match, ``hand`` a hand with the
        match's totals, ``finish`` marks the match finished, ``closed`` deletes the room's
        journal. An entry stored already is not applied again (``applied`` False), so a
        spool may be replayed any number of times.

        Args:
            entries: the entries, in the order they were written.

        Returns:
            One result per entry, in order, with the ids of the matches and hands stored.

        Raises:
            RecordError: a ``hand`` or ``finish`` whose record is not one, or has no result.
            UnknownMatchError: a ``hand`` or ``finish`` of a match never stored.
            ValueError: an entry whose data lacks a field or has a wrong one (named).
            sqlalchemy.exc.OperationalError: the database cannot be reached or written
                (locked, read-only, full, down); nothing is written then.
        """
        async with self._engine.begin() as conn:
            return await _apply_live(conn, entries)

    async def room_fence(self, room: str) -> str | None:
        """The process named by the fence of ``room`` (see :mod:`erqishi.storage.live`),
        None when the room has none."""
        async with self._engine.connect() as conn:
            query = select(live_log.c.data).where(live_log.c.room == room, live_log.c.seq == 0)
            found = (await conn.execute(query)).first()
        owner = found.data.get("owner") if found is not None and isinstance(found.data, dict) else None
        return owner if isinstance(owner, str) else None

    async def take_room(self, room: str, owner: str) -> str | None:
        """Make ``owner`` the fence of ``room`` (see :mod:`erqishi.storage.live`): from now
        on the database refuses the entries of any other writer. With PostgreSQL this
        waits for a transaction of the former owner still writing the room's entries, so
        that the journal read next holds all it stored. Returns the former owner (None
        when the room had no fence)."""
        for _ in range(3):
            async with self._engine.begin() as conn:
                query = select(live_log.c.data).where(live_log.c.room == room, live_log.c.seq == 0)
                found = (await conn.execute(query.with_for_update())).first()
                if found is not None:
                    before = found.data.get("owner") if isinstance(found.data, dict) else None
                    await conn.execute(
                        update(live_log)
                        .where(live_log.c.room == room, live_log.c.seq == 0)
                        .values(data={"owner": owner}, created=datetime.now(UTC))
                    )
                    return before if isinstance(before, str) else None
                try:
                    async with conn.begin_nested():
                        await conn.execute(
                            insert(live_log).values(
                                room=room, seq=0, kind="owner", created=datetime.now(UTC), data={"owner": owner}
                            )
                        )
                    return None
                except IntegrityError:  # written meanwhile by its former owner: update it
                    continue
        raise RuntimeError(f"cannot take room {room} over: its fence keeps changing")

    async def live_room_codes(self) -> dict[str, tuple[str, bool, float]]:
        """The rooms whose journal is stored and not closed: ``{uid: (code, public,
        created)}`` from each one's ``room`` entry (several server processes share them,
        :mod:`erqishi.server.cluster`)."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(live_log.c.room, live_log.c.data).where(live_log.c.kind == "room"))).all()
        found: dict[str, tuple[str, bool, float]] = {}
        for row in rows:
            data: dict[str, Any] = row.data if isinstance(row.data, dict) else {}
            config: dict[str, Any] = data["config"] if isinstance(data.get("config"), dict) else {}
            created = data.get("created")
            if isinstance(data.get("code"), str):
                found[row.room] = (
                    data["code"],
                    bool(config.get("public")),
                    float(created) if isinstance(created, int | float) else 0.0,
                )
        return found

    async def live_rooms(self, only: Collection[str] | None = None) -> list[LiveRoom]:
        """Every room whose journal is stored and not closed (or those of them whose uid is
        in ``only``), oldest first, with the ids of its matches and of its newest match's
        hands."""
        if only is not None and not only:
            return []
        async with self._engine.connect() as conn:
            query = select(live_log.c.room, live_log.c.seq, live_log.c.kind, live_log.c.data).where(
                live_log.c.seq >= 1  # (not the fence of several processes, seq 0)
            )
            if only is not None:
                query = query.where(live_log.c.room.in_(list(only)))
            rows = (await conn.execute(query.order_by(live_log.c.room, live_log.c.seq))).all()
            by_room: dict[str, list[LiveEntry]] = {}
            for row in rows:
                by_room.setdefault(row.room, []).append(LiveEntry(row.room, row.seq, row.kind, row.data))
            keys = {
                live_key(room, e.match): (room, e.match)
                for room, entries in by_room.items()
                for e in entries
                if e.kind == "match" and e.match is not None
            }
            match_ids: dict[str, dict[int, int]] = {room: {} for room in by_room}
            if keys:
                for match_row in (
                    await conn.execute(
                        select(web_matches.c.id, web_matches.c.live_key).where(web_matches.c.live_key.in_(list(keys)))
                    )
                ).all():
                    room, number = keys[match_row.live_key]
                    match_ids[room][number] = match_row.id
            newest = {room: ids[max(ids)] for room, ids in match_ids.items() if ids}
            hand_ids: dict[int, dict[int, int]] = {mid: {} for mid in newest.values()}
            if newest:
                for hand_row in (
                    await conn.execute(
                        select(web_hands.c.id, web_hands.c.match_id, web_hands.c.idx).where(
                            web_hands.c.match_id.in_(list(newest.values()))
                        )
                    )
                ).all():
                    hand_ids[hand_row.match_id][hand_row.idx] = hand_row.id
        rooms = [
            LiveRoom(
                room,
                tuple(entries),
                match_ids[room],
                hand_ids.get(newest[room], {}) if room in newest else {},
            )
            for room, entries in by_room.items()
        ]
        return sorted(rooms, key=lambda r: (r.entries[0].kind != "room", r.entries[0].data.get("created", ""), r.room))


# -- applying journal entries -----------------------------------------------------------


class _Writes(Protocol):
    """What applying journal entries asks of a connection in a transaction: an
    :class:`AsyncConnection`, or :class:`_SyncWrites` around a plain one."""

    async def execute(self, statement: Executable, parameters: Any = None) -> Result[Any]: ...

    async def scalar(self, statement: Executable) -> Any: ...


class _SyncWrites:
    """A synchronous :class:`Connection` behind the awaitable methods of :class:`_Writes`:
    they never suspend, so a coroutine that only awaits them runs to its end in one
    ``send`` (:func:`apply_live_sync`)."""

    __slots__ = ("conn",)

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def execute(self, statement: Executable, parameters: Any = None) -> Result[Any]:
        return self.conn.execute(statement, parameters)

    async def scalar(self, statement: Executable) -> Any:
        return self.conn.scalar(statement)


def open_sync_engine(url: str) -> Engine:
    """A synchronous engine on a database already brought to the newest migration (by
    :meth:`Store.open`), configured as :meth:`Store.open` configures its own: for a process
    that only writes the journal (:mod:`erqishi.storage.writer`), with no event loop and
    no thread hop per statement.

    Raises:
        ValueError: ``url`` is not a supported database URL.
    """
    _, sync_url = database_urls(url)
    if sync_url.startswith("sqlite"):
        engine = create_engine(sync_url)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(sync_url, pool_pre_ping=True, connect_args={"connect_timeout": 5})


def apply_live_sync(engine: Engine, entries: Sequence[LiveEntry]) -> list[LiveResult]:
    """:meth:`Store.apply_live` through a synchronous ``engine`` (:func:`open_sync_engine`):
    the same statements in one transaction, the same results and errors."""
    with engine.begin() as conn:
        work = _apply_live(_SyncWrites(conn), entries)
        try:
            work.send(None)
        except StopIteration as done:
            results: list[LiveResult] = done.value
            return results
        work.close()
        raise RuntimeError("applying journal entries waited on something other than the connection")


async def _apply_live(conn: _Writes, entries: Sequence[LiveEntry]) -> list[LiveResult]:
    """The body of :meth:`Store.apply_live`, inside the caller's transaction."""
    fenced: set[str] = set()
    out: list[LiveResult] = []
    plain: list[LiveEntry] = []  # entries that only add a row, stored together
    for entry in entries:
        if entry.owner is not None and entry.room not in fenced:
            await _check_fence(conn, entry)
            fenced.add(entry.room)
        if entry.kind in _PLAIN_KINDS:
            plain.append(entry)
            continue
        if plain:
            out += await _apply_plain(conn, plain)
            plain = []
        out.append(await _apply_entry(conn, entry))
    if plain:
        out += await _apply_plain(conn, plain)
    return out


def _field(entry: LiveEntry, name: str, kind: type) -> Any:
    value = entry.data.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"journal entry {entry.room}#{entry.seq} ({entry.kind}): {name} must be a {kind.__name__}")
    return value


async def _check_fence(conn: _Writes, entry: LiveEntry) -> None:
    """Refuse ``entry`` when another process owns its room now; lock the fence (or set
    it, for a new room) so that no process takes the room over while this transaction
    writes it.

    Raises:
        FencedError: the fence names another owner.
    """
    query = select(live_log.c.data).where(live_log.c.room == entry.room, live_log.c.seq == 0).with_for_update()
    found = (await conn.execute(query)).first()
    if found is None:
        await conn.execute(
            insert(live_log).values(
                room=entry.room, seq=0, kind="owner", created=datetime.now(UTC), data={"owner": entry.owner}
            )
        )
        return
    owner = found.data.get("owner") if isinstance(found.data, dict) else None
    if owner != entry.owner:
        raise FencedError(
            f"journal entry {entry.room}#{entry.seq} ({entry.kind}) of {entry.owner}: the room is owned by {owner} now"
        )


async def _match_id(conn: _Writes, entry: LiveEntry) -> int | None:
    key = live_key(entry.room, _field(entry, "match", int))
    found = await conn.scalar(select(web_matches.c.id).where(web_matches.c.live_key == key))
    return None if found is None else int(found)


async def _hand_id(conn: _Writes, match_id: int, index: int) -> int | None:
    found = await conn.scalar(select(web_hands.c.id).where(web_hands.c.match_id == match_id, web_hands.c.idx == index))
    return None if found is None else int(found)


#: The kinds of journal entry that only add their row to ``live_log`` (no other table, no
#: deletion): a run of them is stored with one query for those already there and one insert.
_PLAIN_KINDS = frozenset({"room", "deal", "moves", "declared"})


async def _apply_plain(conn: _Writes, entries: Sequence[LiveEntry]) -> list[LiveResult]:
    """Store entries of :data:`_PLAIN_KINDS` (as :func:`_apply_entry` would, one by one, but
    with a few queries whatever their number: a busy server writes thousands a second)."""
    keys = [(e.room, e.seq) for e in entries]
    there: set[tuple[str, int]] = set()
    for i in range(0, len(keys), 200):
        chunk = keys[i : i + 200]
        query = select(live_log.c.room, live_log.c.seq).where(tuple_(live_log.c.room, live_log.c.seq).in_(chunk))
        there.update((str(r.room), int(r.seq)) for r in await conn.execute(query))
    now = datetime.now(UTC)
    rows: list[dict[str, Any]] = []
    out: list[LiveResult] = []
    for entry, key in zip(entries, keys, strict=True):
        applied = key not in there
        if applied:
            there.add(key)  # (the same entry twice in one batch is applied once)
            rows.append({"room": entry.room, "seq": entry.seq, "kind": entry.kind, "created": now,
                         "data": entry.stored_data()})  # fmt: skip
        out.append(LiveResult(entry, applied))
    if rows:
        await conn.execute(insert(live_log), rows)
    return out


async def _apply_entry(conn: _Writes, entry: LiveEntry) -> LiveResult:
    """Apply one journal entry inside the caller's transaction (see :meth:`Store.apply_live`)."""
    kind, room = entry.kind, entry.room
    done = await conn.scalar(select(live_log.c.seq).where(live_log.c.room == room, live_log.c.seq == entry.seq))
    applied = done is None
    if applied and kind != "closed":
        await conn.execute(
            insert(live_log).values(
                room=room, seq=entry.seq, kind=kind, created=datetime.now(UTC), data=entry.stored_data()
            )
        )
    if kind == "closed":
        await conn.execute(delete(live_log).where(live_log.c.room == room))
        return LiveResult(entry, applied)
    if kind == "lobby" and applied:  # the newest lobby is the one that counts
        await conn.execute(
            delete(live_log).where(live_log.c.room == room, live_log.c.kind == "lobby", live_log.c.seq < entry.seq)
        )
    if kind not in ("match", "hand", "finish"):
        return LiveResult(entry, applied)
    match_id = await _match_id(conn, entry)
    if kind == "match":
        if match_id is None:
            values = _match_values(
                room=_field(entry, "code", str),
                preset=_field(entry, "preset", str),
                rules=_field(entry, "rules", dict),
                seats=_field(entry, "names", list),
                seed=_field(entry, "seed", int),
            )
            match_id = await _insert_match(conn, values, live_key(room, _field(entry, "match", int)))
        if applied:  # the moves of earlier matches are no longer needed to restore the room
            await conn.execute(
                delete(live_log).where(
                    live_log.c.room == room,
                    live_log.c.seq < entry.seq,
                    live_log.c.kind.in_(("deal", "moves", "declared")),
                )
            )
        return LiveResult(entry, applied, match_id)
    if match_id is None:
        raise UnknownMatchError(entry.match if entry.match is not None else -1)
    if kind == "hand":
        index = _field(entry, "index", int)
        hand_id = await _hand_id(conn, match_id, index)
        if hand_id is None:
            if "record" not in entry.data:
                raise ValueError(f"journal entry {room}#{entry.seq} (hand): record is missing")
            record = parse_record(entry.data["record"])
            if not isinstance(record, HandRecord):
                raise RecordError("kind: must be a hand record here, got a match record")
            row, totals = _hand_values(index, record, _field(entry, "totals", list))
            hand_id = await _insert_hand(conn, match_id, index, record, row, totals)
        return LiveResult(entry, applied, match_id, hand_id)
    finished = await conn.scalar(select(web_matches.c.finished).where(web_matches.c.id == match_id))
    if finished is None:
        if "record" not in entry.data:
            raise ValueError(f"journal entry {room}#{entry.seq} (finish): record is missing")
        record = parse_record(entry.data["record"])
        if not isinstance(record, MatchRecord):
            raise RecordError("kind: must be 'match' here (a match record)")
        final, lead, data = _finish_values(record, _field(entry, "totals", list), _field(entry, "leaders", list))
        early = entry.data.get("ended") == "early"  # ended by a 解散 vote
        await _finish_match(conn, match_id, record, final, lead, data, early=early)
    return LiveResult(entry, applied, match_id)

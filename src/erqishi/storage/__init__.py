"""erqishi's storage: the web server's matches and hands, and the runs of ``erqishi sim``
(:mod:`erqishi.sim.store`), in SQLite or PostgreSQL (SQLAlchemy 2), one schema kept by
the Alembic migrations shipped in ``migrations/`` (0001 the web tables, 0002 the sim runs,
0004 the tournaments of :mod:`erqishi.storage.tournaments`).
:class:`Store` takes typed records (:class:`~erqishi.records.HandRecord` with its result,
:class:`~erqishi.records.MatchRecord`) and stores their JSON.

``await Store.open(url)`` migrates the database to the newest revision, then opens it;
``python -m erqishi.storage upgrade URL`` (or :func:`upgrade`) only migrates.
"""

from erqishi.storage.store import (
    MIGRATIONS,
    HandSummary,
    MatchSummary,
    Store,
    UnknownMatchError,
    alembic_config,
    database_urls,
    mask_url,
    sqlite_file,
    upgrade,
)
from erqishi.storage.tournaments import (
    StaleTournamentError,
    StoredTournament,
    TournamentInfo,
    TournamentMatch,
    TournamentSummary,
    UnknownTournamentError,
)

__all__ = [
    "MIGRATIONS",
    "HandSummary",
    "MatchSummary",
    "StaleTournamentError",
    "Store",
    "StoredTournament",
    "TournamentInfo",
    "TournamentMatch",
    "TournamentSummary",
    "UnknownMatchError",
    "UnknownTournamentError",
    "alembic_config",
    "database_urls",
    "mask_url",
    "sqlite_file",
    "upgrade",
]

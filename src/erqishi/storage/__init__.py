"""The web server's storage: matches and hands in SQLite or PostgreSQL (SQLAlchemy 2,
async), the schema kept by Alembic migrations shipped in ``migrations/``.

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
    upgrade,
)

__all__ = [
    "MIGRATIONS",
    "HandSummary",
    "MatchSummary",
    "Store",
    "UnknownMatchError",
    "alembic_config",
    "database_urls",
    "mask_url",
    "upgrade",
]

"""Reading a test's database directly (SQLite or PostgreSQL), to check what was stored."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from erqishi.storage import database_urls


def rows(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of the query ``sql`` (with ``params``) on the database ``url``."""
    engine = create_engine(database_urls(url)[1], poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql), params)]
    finally:
        engine.dispose()


def as_json(value: Any) -> Any:
    """A JSON column's value (SQLite may hand back its text)."""
    return json.loads(value) if isinstance(value, str) else value

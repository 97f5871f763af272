"""Shared fixtures: where the project's shared documents and worked cases live.

The worked cases are read in place from ``../shared`` beside the repository (or from
``$ERQISHI_SHARED``); they are never copied. A missing directory fails the tests that
need it rather than skipping them.

``postgres_url`` is the PostgreSQL database of the storage tests
(``$ERQISHI_TEST_POSTGRES_URL``, which ``scripts/postgres-test.sh`` prints).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The tests' own data: golden records made by hand (tests/data/records).
DATA = ROOT / "tests" / "data"


def shared_dir() -> Path:
    """The shared documents directory: ``$ERQISHI_SHARED`` or ``../shared``."""
    return Path(os.environ.get("ERQISHI_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared() -> Path:
    path = shared_dir()
    assert (path / "RULES.md").is_file(), f"shared documents not found at {path} (set ERQISHI_SHARED)"
    return path


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The URL of a PostgreSQL database for the tests: ``$ERQISHI_TEST_POSTGRES_URL``.

    Unset, the tests that need it are skipped, or fail when ``ERQISHI_REQUIRE_ALL=1`` (as
    ``scripts/test.sh`` sets).
    """
    url = os.environ.get("ERQISHI_TEST_POSTGRES_URL", "").strip()
    if url:
        return url
    how = "set ERQISHI_TEST_POSTGRES_URL, e.g. ERQISHI_TEST_POSTGRES_URL=$(bash scripts/postgres-test.sh)"
    if os.environ.get("ERQISHI_REQUIRE_ALL") == "1":
        pytest.fail(f"ERQISHI_REQUIRE_ALL=1 but no PostgreSQL for the tests: {how}")
    pytest.skip(f"no PostgreSQL for the tests: {how} (or run scripts/test.sh)")


@pytest.fixture
def postgres_schema_url(postgres_url: str) -> Iterator[str]:
    """A new, empty schema in the PostgreSQL test database: its URL sets ``search_path`` to
    it; the schema is dropped afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    from erqishi.storage import database_urls

    schema = f"test_{secrets.token_hex(6)}"
    engine = create_engine(database_urls(postgres_url)[1], poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(postgres_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, once of each kind: an SQLite file path, then a new PostgreSQL
    schema (:func:`postgres_schema_url`)."""
    if request.param == "sqlite":
        yield str(tmp_path / "test.db")
        return
    url: str = request.getfixturevalue("postgres_schema_url")
    yield url

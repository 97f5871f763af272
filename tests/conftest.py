"""Shared fixtures: where the project's shared documents and worked cases live.

The worked cases are read in place from ``../shared`` beside the repository (or from
``$ERQISHI_SHARED``); they are never copied. A missing directory fails the tests that
need it rather than skipping them.

``postgres_url`` is the PostgreSQL database of the storage tests
(``$ERQISHI_TEST_POSTGRES_URL``, which ``scripts/postgres-test.sh`` prints).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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

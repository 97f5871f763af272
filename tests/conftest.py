"""Shared fixtures: where the project's shared documents and worked cases live.

The worked cases are read in place from ``../shared`` beside the repository (or from
``$ERQISHI_SHARED``); they are never copied. A missing directory fails the tests that
need it rather than skipping them.
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

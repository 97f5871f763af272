"""The build backend of erqishi: setuptools, plus mypy when a compiled build is asked for.

``ERQISHI_COMPILED=1 pip install .`` builds the compiled build (the modules listed in
``setup.py`` compiled with mypyc); without it the package is pure Python. Only the build
requirements differ: with ``ERQISHI_COMPILED=1`` the isolated build environment also gets
mypy (mypyc ships with it), at the version ``constraints.txt`` pins.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517/660 interface)

#: mypy (and mypyc) as constraints.txt pins it, so both builds check the same types
_MYPY = "mypy==2.4.1"


def compiled_requested() -> bool:
    """Whether ``ERQISHI_COMPILED`` asks for the compiled build (``1``, ``true``, ``yes``)."""
    return os.environ.get("ERQISHI_COMPILED", "").strip().lower() in ("1", "true", "yes")


def _mypy_requirement() -> str:
    pins = Path(__file__).resolve().parent.parent / "constraints.txt"
    if pins.is_file():
        for line in pins.read_text(encoding="utf-8").splitlines():
            if line.strip().lower().startswith("mypy=="):
                return line.strip()
    return _MYPY


def asking_requirements() -> bool:
    """Whether setup.py runs only to list the build requirements (mypy may be missing yet)."""
    return os.environ.get("_ERQISHI_LISTING_REQUIREMENTS") == "1"


def _requires(ask: Any, config_settings: dict[str, Any] | None) -> list[str]:
    os.environ["_ERQISHI_LISTING_REQUIREMENTS"] = "1"
    try:
        return list(ask(config_settings))
    finally:
        del os.environ["_ERQISHI_LISTING_REQUIREMENTS"]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires = _requires(_setuptools.get_requires_for_build_wheel, config_settings)
    return [*requires, _mypy_requirement()] if compiled_requested() else requires


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires = _requires(_setuptools.get_requires_for_build_editable, config_settings)
    return [*requires, _mypy_requirement()] if compiled_requested() else requires

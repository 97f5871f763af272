"""The command line's error line: ``erqishi: error: 中文 · English`` (every screen in
Chinese and English), one line on standard error."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u4e00-\u9fff]")
PREFIX = "erqishi: error: "


def error_parts(err: str) -> tuple[str, str]:
    """The Chinese and the English of one error line ``err`` (standard error, whole);
    fails unless it is exactly one line of that shape with Chinese in its Chinese part."""
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert err.startswith(PREFIX), err
    zh, sep, en = err[len(PREFIX) : -1].partition(" · ")
    assert sep and zh and en, f"not 中文 · English: {err!r}"
    assert _CJK.search(zh), f"no Chinese before the ' · ': {err!r}"
    return zh, en

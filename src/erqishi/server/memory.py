"""Keeping a long-running server's memory flat (glibc's allocator, on Linux).

Python hands blocks of more than 512 bytes (state messages, journal lines, encoded
frames) to the C allocator. glibc gives each thread that allocates an arena of its own
(up to eight per core) and returns freed memory to the system only from the top of each
heap, so a server whose database and socket threads allocate and free all day keeps
growing although the Python objects alive stay the same. Two calls stop that:
:func:`limit_arenas` before any thread starts (what ``MALLOC_ARENA_MAX`` does) and
:func:`trim` now and then (``malloc_trim(0)``: every free page of every arena goes back).
Both are no-ops, returning False, where there is no glibc (macOS, Windows, musl).

The engine's memo tables are bounded for benchmarks and simulations, which gain from
keeping hundreds of thousands of card patterns; a server would fill them for hours.
:func:`settle_server` lowers the bounds (:func:`erqishi.core.engine.limit_memos`) so the
tables are full, and the memory flat, after some minutes of play.
"""

from __future__ import annotations

import ctypes
import sys
from functools import cache

from erqishi.core.engine import limit_memos

__all__ = ["SERVER_MEMOS", "limit_arenas", "settle_server", "trim"]

#: the memo bounds of a server process: about 12 MB of split tables, 14 MB of 花吃
#: choices and 2 MB of hand patterns at most, full after some 2,000 hands
SERVER_MEMOS = {"splits": 16_384, "hua": 4_000, "hand_cards": 4_096}

#: mallopt's parameter number of M_ARENA_MAX (glibc's malloc.h)
_M_ARENA_MAX = -8


@cache
def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    if not (hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim")):
        return None  # pragma: no cover - a libc.so.6 that is not glibc
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.mallopt.restype = ctypes.c_int
    libc.malloc_trim.argtypes = [ctypes.c_size_t]
    libc.malloc_trim.restype = ctypes.c_int
    return libc


def limit_arenas(arenas: int = 2) -> bool:
    """Let the C allocator keep at most ``arenas`` arenas (call it before threads start).
    True when glibc took it."""
    libc = _glibc()
    return libc is not None and libc.mallopt(_M_ARENA_MAX, arenas) == 1


def trim() -> bool:
    """Give every free page of the C allocator's arenas back to the system. True when
    glibc released some memory."""
    libc = _glibc()
    return libc is not None and libc.malloc_trim(0) == 1


def settle_server() -> None:
    """What ``erqishi serve`` does at start-up, before any thread: at most two C
    allocator arenas and the server's memo bounds (:data:`SERVER_MEMOS`)."""
    limit_arenas()
    limit_memos(**SERVER_MEMOS)

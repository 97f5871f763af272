"""The server gives the C allocator's free memory back (erqishi.server.memory): on glibc,
blocks freed by a thread stay in its arena until ``malloc_trim`` returns them."""

from __future__ import annotations

import ctypes
import sys
import threading

import pytest

from erqishi.server import memory

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or memory._glibc() is None,
    reason="glibc only (the functions are no-ops elsewhere)",
)


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def test_trim_gives_back_what_a_thread_freed() -> None:
    """A thread allocates 200 MB in 2 kB C blocks and frees all but one in 64: the process
    keeps most of it (the survivors pin every heap page) until trim() returns the free
    pages between them."""
    libc = ctypes.CDLL("libc.so.6")
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    kept: list[int] = []

    def churn() -> None:
        blocks = []
        for _ in range(100_000):
            block = libc.malloc(2048)
            libc.memset(block, 1, 2048)  # touched: resident
            blocks.append(block)
        for i, block in enumerate(blocks):
            if i % 64:
                libc.free(block)
            else:
                kept.append(block)

    memory.trim()
    before = _rss_mb()
    worker = threading.Thread(target=churn)
    worker.start()
    worker.join()
    held = _rss_mb() - before
    assert held > 100, f"the freed blocks were given back before trim ({held:.0f} MB held)"
    assert memory.trim()
    after = _rss_mb() - before
    assert after < held / 2, f"trim gave back too little: {held:.0f} MB -> {after:.0f} MB"
    for block in kept:
        libc.free(block)


def test_limit_arenas_is_taken() -> None:
    """mallopt(M_ARENA_MAX) accepts the limit (it only bounds arenas made from now on)."""
    assert memory.limit_arenas(8)

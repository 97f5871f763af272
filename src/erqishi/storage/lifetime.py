"""A child process that ends with its parent: the journal's writer process
(:mod:`erqishi.storage.writer`) and the workers of ``erqishi sim``
(:mod:`erqishi.sim.runner`) ask Linux for a signal when the process that started them
dies (``prctl(PR_SET_PDEATHSIG)``), so a parent killed with ``kill -9`` leaves none of them
behind. Elsewhere nothing is asked: those children then notice the end of their input
(the writer) or of their pool (the workers)."""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["die_with_parent", "pool_worker_signals"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(sig: signal.Signals, parent: int | None = None) -> bool:
    """Ask for ``sig`` when this process's parent dies (Linux; elsewhere a no-op).

    Args:
        sig: the signal to be sent.
        parent: the parent's process id, when the parent told it (it may have died before
            this process could ask); None takes the parent of the moment.

    Returns:
        False when the parent has already died (the process was handed to init, or to a
        subreaper, before the request could take effect), else True.
    """
    expected = os.getppid() if parent is None else parent
    if not sys.platform.startswith("linux"):
        return True
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        return True
    return os.getppid() == expected and expected != 1


def pool_worker_signals() -> None:
    """The signals of a pool worker (``erqishi sim``, ``erqishi tournament run``): it ends
    at SIGTERM, whatever handler the parent had set when it forked; it ignores Ctrl-C (the
    terminal sends it to the whole group: the parent stops the run and ends the workers);
    on Linux it gets SIGTERM when its parent dies, so a parent stopped by ``kill`` or
    ``kill -9`` leaves no worker behind. A pool's ``initializer``."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(signal.SIGTERM)

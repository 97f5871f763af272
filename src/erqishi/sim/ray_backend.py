"""Play a run's chunks on a Ray cluster: ``erqishi sim --backend ray [--address HOST:PORT]``.

Ray is the optional ``ray`` extra (``pip install 'erqishi[ray]'``): nothing else in erqishi
imports it, and this module imports it only when a :class:`RayBackend` starts, so
``import erqishi.sim.ray_backend`` works without it. The backend plays the chunks of the
local pool (:func:`~erqishi.sim.runner.chunk_bounds`) as Ray tasks, and every hand takes
its seeds from ``(seed, index)`` alone, so a run gives the same hands, summary and stored
rows as a local run of the same seed. Results come back in the order the tasks finish
(``ray.wait``) and each chunk goes into its place at once, feeding the progress bar.

The tasks run on the cluster's worker processes, which import erqishi there: every node
needs the same erqishi version (the backend checks each node's version when it starts).
See ``docs/sim.md`` for a cluster of several machines.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

__all__ = ["INSTALL_HINT", "RayBackend", "RayBackendError"]

R = TypeVar("R")

#: How to install Ray, for error messages.
INSTALL_HINT = "pip install 'erqishi[ray]'"

#: Chunks in flight per worker: enough to keep every CPU busy, few enough that finished
#: results do not pile up in the object store.
IN_FLIGHT_PER_WORKER = 4

#: The object store of a local Ray started for one run: results are fetched as they finish.
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024


class RayBackendError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached or used (the message says
    which, in one line)."""


def _import_ray() -> Any:
    """The ``ray`` module, or :class:`RayBackendError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise RayBackendError(f"--backend ray needs Ray: {INSTALL_HINT} ({exc})") from None
    return ray


def _split_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` or ``ray://HOST:PORT``; None for ``auto`` and
    other forms Ray resolves itself.

    >>> _split_address("10.0.0.5:6379"), _split_address("ray://head:10001"), _split_address("auto")
    (('10.0.0.5', 6379), ('head', 10001), None)
    """
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def _is_listening(host: str, port: int, timeout: float) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _probe(ray: Any, address: str, timeout: float) -> None:
    """Fail at once when nothing listens at ``address`` (Ray itself retries for minutes).

    Raises:
        RayBackendError: no answer at the address.
    """
    split = _split_address(address)
    if split is None:
        return
    host, port = split
    hosts = [host]
    if host in ("localhost", "127.0.0.1", "::1"):
        # Ray connects to this machine's own address instead, where `ray start --head` listens
        hosts.append(importlib.import_module("ray.util").get_node_ip_address())
    if not any(_is_listening(h, port, timeout) for h in hosts):
        raise RayBackendError(
            f"no Ray cluster answers at {address}: start one with `ray start --head --port {port}` "
            "on the head machine, or leave out --address to start a local Ray for the run"
        )


def _erqishi_version() -> str:
    """The erqishi version of the worker running the task (see :meth:`RayBackend.start`)."""
    import erqishi

    return erqishi.__version__


class RayBackend:
    """A :class:`~erqishi.sim.runner.ChunkBackend` on a Ray cluster.

    Use it as a context manager (or :meth:`start` / :meth:`close`) around
    :func:`~erqishi.sim.run_sim` or :func:`~erqishi.sim.run_duplicate` (``backend=``).

    Args:
        address: the cluster (``HOST:PORT`` of the head's ``ray start --head --port``,
            ``auto`` for the one started on this machine, ``ray://HOST:PORT`` for Ray
            Client); None starts a local Ray for the run and stops it afterwards. When
            this process is already connected to Ray (``ray.init`` was called), that
            connection is used and left open.
        num_cpus: CPUs of the local Ray started for the run (default: every CPU); not
            with ``address``.
        connect_timeout: seconds to wait for the address to answer.

    Raises:
        ValueError: ``num_cpus`` with ``address``, or ``num_cpus < 1``.
    """

    name = "ray"

    def __init__(
        self, address: str | None = None, *, num_cpus: int | None = None, connect_timeout: float = 5.0
    ) -> None:
        if num_cpus is not None and address is not None:
            raise ValueError("num_cpus is for the local Ray started for the run; a cluster at an address uses its CPUs")
        if num_cpus is not None and num_cpus < 1:
            raise ValueError(f"num_cpus must be ≥ 1, got {num_cpus}")
        self.address = address
        self.num_cpus = num_cpus
        self.connect_timeout = connect_timeout
        self._ray: Any = None
        self._owned = False
        self._workers = 0

    @property
    def workers(self) -> int:
        """The cluster's CPUs when it started (chunks played at once)."""
        if self._ray is None:
            raise RuntimeError("the Ray backend is not started")
        return self._workers

    def start(self) -> RayBackend:
        """Connect to the cluster (or start a local Ray) and check every node's erqishi.

        Raises:
            RayBackendError: Ray is not installed, nothing answers at the address, Ray
                refuses the connection, the cluster has no CPU, or a node runs another
                erqishi version.
        """
        if self._ray is not None:
            return self
        ray = _import_ray()
        if self.address is not None:
            _probe(ray, self.address, self.connect_timeout)
        if not ray.is_initialized():
            options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
            if self.address is None:
                options |= {
                    "address": "local",
                    "num_cpus": self.num_cpus,
                    "include_dashboard": False,
                    "object_store_memory": LOCAL_OBJECT_STORE_BYTES,
                }
                # the run's own Ray keeps Ray's default token authentication without saying so
                logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
            else:
                options["address"] = self.address
            try:
                ray.init(**options)
            except Exception as exc:  # ConnectionError, AuthenticationError, RuntimeError …
                what = f"connect to the Ray cluster at {self.address}" if self.address else "start a local Ray"
                message = " ".join(str(exc).split()) or type(exc).__name__
                if self.address is not None and self.address.startswith("ray://"):
                    message += (
                        ' (ray:// goes through Ray Client, which needs pip install "ray[client]" of the'
                        " cluster's Ray version; or give the head's HOST:6379)"
                    )
                elif self.address is not None and os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
                    message += (
                        " (a cluster with token authentication needs RAY_AUTH_MODE=token and its token"
                        " in RAY_AUTH_TOKEN or ~/.ray/auth_token)"
                    )
                raise RayBackendError(f"cannot {what}: {message}") from None
            self._owned = True
        self._ray = ray
        try:
            cpus = ray.cluster_resources().get("CPU", 0)
            if cpus < 1:
                raise RayBackendError("the Ray cluster has no CPU to run tasks on")
            self._workers = int(cpus)
            self._check_versions()
        except BaseException:
            self.close()
            raise
        return self

    def _check_versions(self) -> None:
        """Every live node with CPUs runs this erqishi version (a tiny task per node)."""
        import erqishi

        ray = self._ray
        strategies = importlib.import_module("ray.util.scheduling_strategies")
        probe = ray.remote(num_cpus=1, max_retries=0)(_erqishi_version)
        refs: dict[str, Any] = {}
        for node in ray.nodes():
            if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) >= 1:
                strategy = strategies.NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
                refs[str(node.get("NodeManagerAddress", node["NodeID"]))] = probe.options(
                    scheduling_strategy=strategy
                ).remote()
        for where, ref in refs.items():
            try:
                version = ray.get(ref, timeout=120)
            except Exception as exc:
                message = " ".join(str(exc).split())[:200]
                raise RayBackendError(
                    f"the Ray node {where} cannot run erqishi ({type(exc).__name__}: {message}): "
                    f"install erqishi {erqishi.__version__} on every node"
                ) from None
            if version != erqishi.__version__:
                raise RayBackendError(
                    f"the Ray node {where} has erqishi {version}, this machine {erqishi.__version__}: "
                    "every node needs the same version"
                )

    def close(self) -> None:
        """Stop the local Ray started for the run, or disconnect from the cluster (a
        connection that was open before :meth:`start` stays open)."""
        ray, owned = self._ray, self._owned
        self._ray, self._owned = None, False
        if ray is not None and owned:
            ray.shutdown()

    def __enter__(self) -> RayBackend:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def map_chunks(self, fn: Callable[..., R], calls: Sequence[tuple[object, ...]]) -> Iterator[tuple[int, R]]:
        """Run ``fn(*call)`` for every call as a Ray task (a task whose worker dies is run
        again: chunks are pure) and yield ``(index of the call, result)`` as each one
        finishes; at most :data:`IN_FLIGHT_PER_WORKER` tasks per CPU are in flight.

        Raises:
            RuntimeError: the backend is not started.
            Exception: what a task raised (Ray's ``RayTaskError`` is also of its class).
        """
        ray = self._ray
        if ray is None:
            raise RuntimeError("the Ray backend is not started: use it in a with block or call start()")
        remote = ray.remote(num_cpus=1, max_retries=3, retry_exceptions=False)(fn)
        window = max(1, IN_FLIGHT_PER_WORKER * self._workers)
        queue = iter(enumerate(calls))
        pending: dict[Any, int] = {}
        try:
            while True:
                for k, call in itertools.islice(queue, window - len(pending)):
                    pending[remote.remote(*call)] = k
                if not pending:
                    return
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    k = pending.pop(ref)
                    yield k, ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref)

"""The Ray backend (``erqishi sim --backend ray``, the cluster-simulation issue): the same
seeded chunks as the local pool played as Ray tasks give the same hands, summary and
stored rows; ``--duplicate`` too; a cluster that does not answer, or Ray missing, is one
clear line and stores nothing.

One local Ray for the module (2 CPUs, every address on loopback, no dashboard, no token,
a small object store): starting it is most of the module's time (about 8 s on an idle
machine) and its processes take about 0.6 GiB (PSS). Without the ``ray`` extra only the
tests that need no Ray run.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.sim import SimResult, list_runs, run_duplicate, run_sim, save_run
from erqishi.sim.ray_backend import RayBackend
from erqishi.storage.schema import sim_hands, sim_runs

LESHAN = RuleSet.load("leshan")
BOTS = ["heuristic", "random", "random"]
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the ray extra is not installed")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def same(a: SimResult, b: SimResult) -> bool:
    return json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    """A local Ray for this module's tests, on loopback only; shut down afterwards."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RAY_AUTH_MODE", "disabled")  # Ray 2.60 would write a token to ~/.ray
        env.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # the node's address is 127.0.0.1
        env.setenv("RAY_USAGE_STATS_ENABLED", "0")
        import ray

        temp = tempfile.mkdtemp(prefix="erqishi-ray-")  # short: Ray's socket paths must fit
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            _node_ip_address="127.0.0.1",
            _temp_dir=temp,
            object_store_memory=80 * 1024 * 1024,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
        try:
            assert ray.util.get_node_ip_address() == "127.0.0.1"
            yield ray
        finally:
            ray.shutdown()
            shutil.rmtree(temp, ignore_errors=True)


def test_without_ray_backend_ray_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    db = tmp_path / "runs.db"
    code, _, err = run(capsys, "sim", "-n", "3", "--backend", "ray", "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and "pip install 'erqishi[ray]'" in err
    assert not db.exists()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--backend", "spark"], "--backend must be local or ray"),
        (["--address", "127.0.0.1:6379"], "--address goes with --backend ray"),
        (["--backend", "ray", "--address", "127.0.0.1:6379", "--workers", "2"], "a Ray cluster at --address uses"),
    ],
)
def test_backend_options(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, _, err = run(capsys, "sim", "--no-db", *args)
    assert code == 2 and fragment in err and err.count("\n") == 1


def stored(db: Path, run_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A stored run's row (without its id and time) and its hands' rows (without the run id)."""
    engine = create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            row = conn.execute(select(sim_runs).where(sim_runs.c.id == run_id)).one()._asdict()
            hands = [
                {k: v for k, v in r._asdict().items() if k != "run_id"}
                for r in conn.execute(select(sim_hands).where(sim_hands.c.run_id == run_id).order_by(sim_hands.c.idx))
            ]
    finally:
        engine.dispose()
    return {k: v for k, v in row.items() if k not in ("id", "created")}, hands


@needs_ray
def test_ray_plays_the_local_hands(ray_cluster: Any, tmp_path: Path) -> None:
    """40 hands and 4 duplicate deals on Ray: the hands, records, summaries and stored rows
    of the local runs; the progress counts every hand."""
    local = run_sim(40, 7, BOTS, LESHAN, workers=1)
    local_dup = run_duplicate(4, 7, BOTS, LESHAN, workers=1)
    ticks: list[int] = []
    with RayBackend() as cluster:  # this process's connection: used and left open
        assert cluster.workers == 2
        on_ray = run_sim(40, 7, BOTS, LESHAN, progress=ticks.append, backend=cluster)
        dup_on_ray = run_duplicate(4, 7, BOTS, LESHAN, backend=cluster)
    assert ray_cluster.is_initialized()
    assert sum(ticks) == 40 and len(ticks) > 1  # chunk by chunk, as they finish
    assert same(on_ray, local) and on_ray.hands == local.hands and on_ray.records == local.records
    assert same(dup_on_ray, local_dup) and dup_on_ray.records == local_dup.records
    db = tmp_path / "runs.db"
    assert stored(db, save_run(str(db), on_ray)) == stored(db, save_run(str(db), local))


@needs_ray
def test_cli_backend_ray(ray_cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``erqishi sim --backend ray`` prints and stores what the local pool does, with
    ``--duplicate`` too."""
    db = tmp_path / "runs.db"
    common = ["sim", "-n", "12", "--seed", "5", "--bots", "random,random,heuristic", "--json", "--db", str(db)]
    code, out, err = run(capsys, *common, "--backend", "ray")
    assert code == 0, err
    on_ray = json.loads(out)
    code, out, _ = run(capsys, *common, "--workers", "1")
    local = json.loads(out)
    assert on_ray.pop("run") == {"db": str(db), "id": 1} and local.pop("run")["id"] == 2
    assert on_ray == local
    assert stored(db, 1) == stored(db, 2)
    dup = ["sim", "-n", "3", "--seed", "5", "--duplicate", "--json", "--no-db"]
    code, out, err = run(capsys, *dup, "--backend", "ray")
    assert code == 0, err
    assert json.loads(out) == json.loads(run(capsys, *dup, "--workers", "1")[1])


@needs_ray
def test_address_with_no_cluster(ray_cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An address where no Ray answers: one line at once, exit 2, the store untouched."""
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "3", "--db", str(db), "--workers", "1")[0] == 0
    with socket.socket() as s:  # a free loopback port: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, out, err = run(
        capsys, "sim", "-n", "3", "--db", str(db), "--backend", "ray", "--address", f"127.0.0.1:{port}"
    )
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in err and "ray start --head" in err
    assert [r.id for r in list_runs(str(db))] == [1]

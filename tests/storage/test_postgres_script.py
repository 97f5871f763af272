"""``scripts/postgres-test.sh``, which ``scripts/test.sh`` (and so CI) runs once per build.

It starts the PostgreSQL server when it is down and keeps the test role's password, taking
a lock so that runs take turns. The server it starts must not keep that lock: it did once
(it inherited the lock's descriptor), and every later run waited two minutes and failed, so
the compiled build's run in CI had no database.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "postgres-test.sh"


def _needs_the_script() -> Path:
    """The lock file's path; skips (fails under ``ERQISHI_REQUIRE_ALL=1``) where the script
    cannot run: no PostgreSQL installed, or not root."""
    why = ""
    if shutil.which("pg_lsclusters") is None:
        why = "PostgreSQL is not installed"
    elif os.geteuid() != 0:
        why = "scripts/postgres-test.sh runs as root"
    if why:
        if os.environ.get("ERQISHI_REQUIRE_ALL") == "1":
            pytest.fail(f"ERQISHI_REQUIRE_ALL=1 but {why}")
        pytest.skip(why)
    return Path(pwd.getpwnam("postgres").pw_dir) / "erqishi-test.lock"


def _holders(path: Path) -> list[str]:
    """The processes with ``path`` open: ``"PID command line"`` each."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fds = list((proc / "fd").iterdir())
            if any(os.readlink(fd) == str(path) for fd in fds):
                command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                found.append(f"{proc.name} {command}")
        except OSError:  # the process ended meanwhile
            continue
    return found


def test_a_second_run_reuses_the_server_and_the_password(postgres_url: str) -> None:
    lock = _needs_the_script()
    run = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    printed = run.stdout.strip()
    assert printed.startswith("postgresql://erqishi_test:") and printed.count("\n") == 0, run.stdout
    ours = make_url(postgres_url)
    if (ours.username, ours.host) == ("erqishi_test", "127.0.0.1"):  # the suite's URL came from the script
        assert printed == postgres_url, "a second run made a new password: the first run's URL no longer logs in"
    assert lock.is_file()
    assert _holders(lock) == [], "a process started by the script keeps its lock"

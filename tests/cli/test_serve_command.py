"""``erqishi serve`` as a user runs it: a real process on a loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from erqishi.cli import main
from support.cli_errors import error_parts

ERQISHI = Path(sys.executable).with_name("erqishi")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(proc: subprocess.Popen[str] | subprocess.Popen[bytes], base: str) -> None:
    """Wait until the server at ``base`` says it is ready (``/healthz``), at most 30 s."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).json().get("ok") is True:
                return
        except httpx.TransportError:
            pass
        assert proc.poll() is None, "the server exited"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def test_serve_runs_and_serves_the_client_and_the_api(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "web.db"
    proc = subprocess.Popen(
        [str(ERQISHI), "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_healthy(proc, base)
        page = httpx.get(f"{base}/")
        assert page.status_code == 200 and "贰柒拾" in page.text
        assert httpx.get(f"{base}/static/js/main.js").status_code == 200
        room = httpx.post(f"{base}/api/rooms", json={"v": 2, "match_quan": 2}).json()
        assert room["url"] == f"/r/{room['code']}"
        assert httpx.get(f"{base}/api/rooms/{room['code']}").json()["match_quan"] == 2
        assert db.is_file()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert f"serving on http://127.0.0.1:{port}/" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "--port must be 1-65535"),
        (["--port", "70000"], "--port must be 1-65535"),
        (["--db", "mysql://u@h/d"], "--db:"),
        (["--response-seconds", "-1"], "--response-seconds must be 0 or more"),
        (["--max-rooms-per-address", "-1"], "--max-rooms-per-address must be 0 (no limit) or more"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_serve_reports_a_database_it_cannot_open(tmp_path: Path) -> None:
    port = free_port()
    bad = tmp_path / "missing-dir" / "x.db"
    proc = subprocess.run(
        [str(ERQISHI), "serve", "--port", str(port), "--db", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "x.db" in proc.stderr or "database" in proc.stderr


def test_serve_on_a_busy_port_says_so_in_one_line_before_anything_else(tmp_path: Path) -> None:
    """A port another program listens on: one line naming the port and the way out, a
    non-zero exit, and no "serving on" first (the port is bound before it is announced)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [str(ERQISHI), "serve", "--port", str(port), "--db", str(tmp_path / "web.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode != 0
    zh, en = error_parts(proc.stderr)
    assert zh == f"127.0.0.1 的端口 {port} 已被占用，用 --port 换一个"
    assert en == f"port {port} on 127.0.0.1 is in use; choose another with --port"
    assert "serving on" not in proc.stderr + proc.stdout and proc.stdout == ""
    assert not (tmp_path / "web.db").exists()  # nothing was done before the port was had


def test_what_the_server_needs_is_checked_before_it_says_serving_on(tmp_path: Path, postgres_url: str) -> None:
    """A spool directory that cannot be made, a Redis server that does not answer, or
    several processes (``--redis``) on an SQLite file: one line in Chinese and English and
    exit code 2, not a start-up traceback after "serving on"."""
    a_file = tmp_path / "a-file"
    a_file.write_text("", encoding="utf-8")
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        dead = closed.getsockname()[1]
    sqlite = str(tmp_path / "web.db")
    cases = [
        (
            [sqlite, "--spool", str(a_file)],
            "--spool：用不了",
            f"--spool: cannot use the spool directory {str(a_file)!r}",
        ),
        (
            [postgres_url, "--redis", f"redis://u:pw1234@127.0.0.1:{dead}/0", "--spool", str(tmp_path / "s")],
            "--redis：地址不对或连不上 Redis",
            "--redis: cannot reach",
        ),
        (
            [sqlite, "--redis", f"redis://u:pw1234@127.0.0.1:{dead}/0"],
            "--redis（多个进程）要用 PostgreSQL 的 --db",
            "--redis (several processes) needs a PostgreSQL --db",
        ),
    ]
    for extra, zh_start, en_start in cases:
        proc = subprocess.run(
            [str(ERQISHI), "serve", "--port", str(free_port()), "--db", *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, proc.stderr
        zh, en = error_parts(proc.stderr)
        assert zh.startswith(zh_start) and en.startswith(en_start), proc.stderr
        assert "pw1234" not in proc.stderr and "serving on" not in proc.stderr and proc.stdout == ""


def test_a_database_out_of_reach_is_waited_for_while_the_spool_holds_changes(tmp_path: Path) -> None:
    """protocol.md: a start-up that finds entries in the spool and the database down waits
    for it, saying so (after a restart of the machine the database may come up after
    erqishi); with nothing in the spool, a database out of reach is one line and exit 2."""
    down = f"postgresql://erqishi:secret@127.0.0.1:{free_port()}/erqishi"  # nobody listens there
    empty = tmp_path / "empty-spool"
    proc = subprocess.run(
        [str(ERQISHI), "serve", "--port", str(free_port()), "--db", down, "--spool", str(empty)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    zh, en = error_parts(proc.stderr)
    assert proc.returncode == 2 and "打不开" in zh and "cannot open" in en and "secret" not in proc.stderr

    spool = tmp_path / "spool"
    spool.mkdir()
    (spool / "spool-00000001.jsonl").write_text('{"room": "r", "seq": 1}\n')
    waiting = subprocess.Popen(
        [str(ERQISHI), "serve", "--port", str(free_port()), "--db", down, "--spool", str(spool)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(4)
        assert waiting.poll() is None  # still waiting, not gone
    finally:
        waiting.send_signal(signal.SIGINT)
        _, err = waiting.communicate(timeout=30)
    assert "waiting for the database" in err and "等它恢复" in err and "secret" not in err
    assert "Traceback" not in err
    assert (spool / "spool-00000001.jsonl").read_text() == '{"room": "r", "seq": 1}\n'  # kept as it was


def test_only_the_server_holds_its_port(tmp_path: Path) -> None:
    """The journal's writer process (a child of the server) does not inherit the listening
    socket: killed with -9, the server's port is free at once for the server started
    again (before, the writer held it for a second or more)."""
    port = free_port()
    proc = subprocess.Popen(
        [str(ERQISHI), "serve", "--port", str(port), "--db", str(tmp_path / "web.db")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_healthy(proc, f"http://127.0.0.1:{port}")
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        assert children, "no journal writer process"
        proc.kill()
        proc.wait(timeout=10)
        with socket.socket() as again:  # as uvicorn binds (SO_REUSEADDR, not SO_REUSEPORT)
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
            again.listen()
    finally:
        if proc.poll() is None:
            proc.kill()

"""Faults a review of ``erqishi sim``, ``runs``, ``report``, ``ratings`` and ``replay --db``
found, each kept as a test: a report never overwrites the database or a file that is no
report; a run never goes into a damaged file or one with foreign tables of erqishi's names;
Ctrl-C pressed twice with worker processes ends them all at once, without tracebacks; an
output that cannot be written is one line; sizes beyond reason are refused; one hand gives
no interval; a hand of a stored run is told by its place in the run; one file named twice is
rated once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from erqishi.cli import main
from support.cli_errors import error_parts
from support.procs import gone_within


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def test_a_report_never_overwrites_the_database_or_another_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "4", "--db", str(db))[0] == 0
    before = _bytes(db)
    code, _, err = run(capsys, "report", "--run", "1", "--db", str(db), "-o", str(db))
    assert code == 2 and "is the database itself" in err and err.count("\n") == 1
    assert _bytes(db) == before
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    code, _, err = run(capsys, "report", "--run", "1", "--db", str(db), "-o", str(notes))
    assert code == 2 and "not an HTML page" in err and notes.read_text() == "mine\n"
    # the same through sim --report: refused before a hand is played, the database untouched
    code, _, err = run(capsys, "sim", "-n", "4", "--db", str(db), "--report", str(db))
    assert code == 2 and "is the database itself" in err and _bytes(db) == before
    fresh = tmp_path / "fresh.db"
    code, _, err = run(capsys, "sim", "-n", "2", "--db", str(fresh), "--report", str(fresh))
    assert code == 2 and not fresh.exists()


def test_a_damaged_database_takes_no_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "30", "--db", str(db))[0] == 0
    raw = bytearray(db.read_bytes())
    page = 4096
    assert len(raw) > 6 * page
    raw[3 * page : 5 * page] = bytes(range(7, 256)) * (2 * page // 249) + bytes(2 * page % 249)  # not the header
    db.write_bytes(bytes(raw))
    with sqlite3.connect(db) as conn:
        try:
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            verdict = str(exc)
        assert verdict != "ok"
    damaged = db.read_bytes()
    code, _, err = run(capsys, "sim", "-n", "3", "--db", str(db))
    assert code == 1 and "is damaged" in err and err.count("\n") == 1
    assert db.read_bytes() == damaged


def test_a_foreign_table_of_an_erqishi_name_is_not_adopted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE sim_runs (id INTEGER PRIMARY KEY, title TEXT)")
        conn.execute("INSERT INTO sim_runs VALUES (1, 'not ours')")
    before = db.read_bytes()
    code, _, err = run(capsys, "sim", "-n", "3", "--db", str(db))
    assert code == 1 and "is not an erqishi database" in err
    assert db.read_bytes() == before


def test_a_newer_schema_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "2", "--db", str(db))[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'zzzz9999'")
    code, _, err = run(capsys, "sim", "-n", "2", "--db", str(db))
    assert code == 1 and "newer erqishi" in err and "Can't locate" not in err


def test_an_output_that_cannot_be_written_is_one_line() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    for args in (["sim", "-n", "3", "--no-db"], ["sim", "-n", "3", "--no-db", "--json"], ["rules"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-c", "from erqishi.cli import run; run()", *args],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
        assert done.returncode == 1, (args, done.stderr)
        assert error_parts(done.stderr)[1] == "cannot write: No space left on device", (args, done.stderr)


def test_sizes_beyond_reason_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sim", "-n", "200", "--workers", "100000", "--no-db")
    assert code == 2 and "--workers must be at most" in err
    four = '{"players": 4}'
    code, _, err = run(
        capsys, "sim", "-n", "1000000", "--duplicate", "--permutations", "--bots",
        "heuristic,random,search,learned", "--rules", four, "--no-db",
    )  # fmt: skip
    assert code == 2 and "24000000 hands" in err
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "3", "--db", str(db))[0] == 0
    for tau in ("1e308", "inf", "nan", "-1"):
        code, _, err = run(capsys, "ratings", "--db", str(db), "--tau", tau)
        assert code == 2 and "--tau must be" in err, tau


def test_one_hand_gives_no_interval(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sim", "-n", "1", "--seed", "3", "--no-db")
    assert code == 0
    words = out.split()
    # the seat that played one hand: its mean and no half-width; the others (two hands) have one
    assert "±—" in words and "±0.00" not in words
    assert "one hand: no interval" in " ".join(words)


def test_a_stored_hand_is_told_by_its_place_in_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "3", "--db", str(db))[0] == 0
    for index in (0, 2):
        code, out, _ = run(capsys, "replay", "--db", str(db), "--run", "1", "--hand", str(index), "--lang", "en")
        assert code == 0 and f"Hand {index + 1}:" in out


def test_one_file_named_twice_is_rated_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "runs.db"
    assert run(capsys, "sim", "-n", "5", "--db", str(db))[0] == 0
    once = json.loads(run(capsys, "ratings", "--db", str(db), "--json")[1])
    other_name = os.path.join(str(tmp_path), ".", "runs.db")  # the same file, another string
    twice = json.loads(run(capsys, "ratings", "--db", str(db), "--db", other_name, "--json")[1])
    assert once["games"] == twice["games"] == 5


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _until_workers_play(proc: subprocess.Popen[bytes]) -> None:
    """Wait (up to 2 minutes) until the run ``proc`` has both its worker processes."""
    deadline = time.monotonic() + 120
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    while not (children.exists() and len(children.read_text().split()) >= 2):
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline
        time.sleep(0.2)


def test_ctrl_c_twice_with_workers_ends_every_process_at_once(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group (the terminal sends it so), twice: the run
    stops within seconds (the workers are ended, chunks in play included), exit code 130,
    no traceback, no process of the group left, the stored hands intact."""
    db = tmp_path / "int.db"
    cmd = [sys.executable, "-c", "from erqishi.cli import run; run()", "sim", "--hands", "400",
           "--bots", "search,search,search", "--seed", "5", "--workers", "2", "--db", str(db)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    pgid = proc.pid
    try:
        _until_workers_play(proc)
        time.sleep(1.0)
        os.killpg(pgid, signal.SIGINT)
        time.sleep(0.2)
        os.killpg(pgid, signal.SIGINT)
        started = time.monotonic()
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(pgid, signal.SIGKILL)
            proc.wait(10)
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text, text
    assert took < 10, took
    time.sleep(0.5)
    assert not _group_alive(pgid), "a worker outlived the run"
    if db.exists():
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_workers_end_when_the_run_is_killed(tmp_path: Path) -> None:
    """``kill -9`` of an ``erqishi sim`` with workers (no chance to end them itself): the
    workers end too (Linux tells each of its parent's death), none left playing."""
    cmd = [sys.executable, "-c", "from erqishi.cli import run; run()", "sim", "--hands", "400",
           "--bots", "search,search,search", "--seed", "6", "--workers", "2", "--no-db"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    pgid = proc.pid
    try:
        _until_workers_play(proc)
        time.sleep(0.5)
        proc.kill()
        proc.wait(10)
        assert gone_within(lambda: _group_alive(pgid), 10), "a worker outlived its killed run"
    finally:
        if _group_alive(pgid):
            os.killpg(pgid, signal.SIGKILL)

"""Runs stored as they are played (the cluster issue: "streaming results into the store
as they finish"): ``erqishi sim`` writes the run's row with the first hands that finish and
each later chunk as it arrives (:class:`erqishi.sim.RunWriter`), so a long run can be
looked at while it plays and keeps what it played when it stops; the finished run is the
one :func:`save_run` would store."""

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
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from erqishi.core import RuleSet
from erqishi.records import parse_record, verify
from erqishi.sim import RunWriter, list_runs, load_hand_record, load_run, run_duplicate, run_sim, save_run
from erqishi.storage import database_urls

LESHAN = RuleSet.load("leshan")
BOTS = ["heuristic", "random", "random"]


def hand_rows(url: str, run_id: int) -> list[tuple[object, ...]]:
    engine = create_engine(database_urls(url)[1], poolclass=NullPool)
    try:
        with engine.connect() as conn:
            query = "SELECT idx, seats, kind, winner, payments, record FROM sim_hands WHERE run_id = :r ORDER BY idx"
            rows = conn.execute(text(query), {"r": run_id}).all()
    finally:
        engine.dispose()
    return [tuple(json.dumps(v, sort_keys=True) if not isinstance(v, str | int | None) else v for v in r) for r in rows]


def test_a_streamed_run_is_the_run_save_run_stores(db_url: str) -> None:
    seen: list[list[int]] = []
    writer = RunWriter(db_url, 5, BOTS, LESHAN, 30)
    try:

        def store(items: list[tuple[int, object, dict[str, object]]]) -> None:
            seen.append([i for i, _, _ in items])
            writer.add(items)  # type: ignore[arg-type]
            stored = load_run(db_url, writer.run_id)
            assert not stored.complete and stored.state == "running"  # this process writes it
            assert stored.summary["status"] == "running" and stored.summary["hands_stored"] == writer.stored

        result = run_sim(30, 5, BOTS, LESHAN, workers=2, on_hands=store)
        run_id = writer.finish(result)
    finally:
        writer.close()
    assert sorted(i for chunk in seen for i in chunk) == list(range(30)) and len(seen) > 1  # chunk by chunk
    saved = save_run(db_url, result)
    streamed, whole = load_run(db_url, run_id), load_run(db_url, saved)
    assert streamed.complete and streamed.summary == whole.summary == json.loads(json.dumps(result.to_json()))
    assert hand_rows(db_url, run_id) == hand_rows(db_url, saved)


def test_duplicate_games_are_streamed_with_their_run_indexes(tmp_path: Path) -> None:
    db = str(tmp_path / "dup.db")
    writer = RunWriter(db, 2, BOTS, LESHAN, 4 * 3)
    result = run_duplicate(4, 2, BOTS, LESHAN, workers=2, on_hands=writer.add)
    writer.finish(result)
    writer.close()
    saved = save_run(db, result)
    assert hand_rows(db, writer.run_id) == hand_rows(db, saved)


def test_a_run_that_stops_keeps_its_hands_and_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "stop.db")
    result = run_sim(10, 3, BOTS, LESHAN)
    writer = RunWriter(db, 3, BOTS, LESHAN, 10)
    writer.add([(i, result.hands[i], result.records[i]) for i in (4, 0, 1)])
    writer.close()  # never finished
    (stored,) = list_runs(db)
    assert not stored.complete and stored.summary == {"status": "interrupted", "hands_stored": 3}
    for i in (0, 1, 4):  # each stored hand replays as played
        record = parse_record(load_hand_record(db, stored.id, i))
        assert verify(record).to_json()["result"] == result.records[i]["result"]


def test_a_chunk_whose_transaction_fails_is_not_counted(tmp_path: Path) -> None:
    """A chunk whose transaction is undone (here the database refuses the summary's update;
    in the command, a Ctrl-C in the middle of it) is neither stored nor counted: the
    interrupted run's ``hands_stored`` is the number of its rows, and the next chunk is
    counted from there (a CI run once saw 122 claimed for 121 rows)."""
    db = str(tmp_path / "undone.db")
    result = run_sim(6, 4, BOTS, LESHAN)
    writer = RunWriter(db, 4, BOTS, LESHAN, 6)
    try:
        writer.add([(0, result.hands[0], result.records[0]), (1, result.hands[1], result.records[1])])
        with sqlite3.connect(db) as conn:  # a real refusal by the database, inside add's transaction
            conn.execute(
                "CREATE TRIGGER refuse BEFORE UPDATE ON sim_runs WHEN (SELECT count(*) FROM sim_hands) > 2 "
                "BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        try:
            writer.add([(2, result.hands[2], result.records[2])])
        except Exception as exc:  # (SQLAlchemy's wrapper of the refusal)
            assert "refused" in str(exc)
        else:
            raise AssertionError("the refused chunk was taken")
        assert writer.stored == 2
        with sqlite3.connect(db) as conn:
            conn.execute("DROP TRIGGER refuse")
        writer.add([(3, result.hands[3], result.records[3])])
        assert writer.stored == 3
    finally:
        writer.close()
    (stored,) = list_runs(db)
    assert stored.summary == {"status": "interrupted", "hands_stored": 3}
    with sqlite3.connect(db) as conn:
        assert [r[0] for r in conn.execute("SELECT idx FROM sim_hands ORDER BY idx")] == [0, 1, 3]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_command_stores_hands_while_it_plays_and_when_interrupted(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl-C or SIGTERM (a service manager, ``kill``) stop the run: the hands stored so far
    stay, the run is marked interrupted, the exit code says so (128 + the signal) and
    standard error says what was stored."""
    db = tmp_path / "live.db"
    cmd = [sys.executable, "-c", "from erqishi.cli import run; run()", "sim", "--hands", "100000",
           "--bots", "random,random,random", "--seed", "8", "--workers", "1", "--db", str(db)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
    counts: list[int] = []
    try:
        deadline = time.monotonic() + 90
        while len(set(counts)) < 3:  # the stored count grows while the run plays
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, counts
            time.sleep(0.3)
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=5) as conn:
                        row = conn.execute("SELECT summary FROM sim_runs").fetchone()
                        hands = conn.execute("SELECT count(*) FROM sim_hands").fetchone()[0]
                except sqlite3.OperationalError:  # created or migrating just now
                    continue
                if row is not None:
                    summary = json.loads(row[0])
                    assert summary["status"] == "running" and summary["hands_stored"] <= hands
                    counts.append(hands)
        proc.send_signal(stop)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    (stored,) = list_runs(str(db))
    assert stored.hands == 100000 and not stored.complete
    assert stored.summary["status"] == "interrupted" and stored.summary["hands_stored"] >= max(counts)
    assert proc.returncode == 128 + stop, err.decode()
    assert f"{stored.summary['hands_stored']} of 100000 hands stored as run {stored.id}" in err.decode()
    with sqlite3.connect(db) as conn:
        idx = [r[0] for r in conn.execute("SELECT idx FROM sim_hands WHERE run_id = ? ORDER BY idx", (stored.id,))]
    assert idx == list(range(stored.summary["hands_stored"]))  # one worker: the first hands, in order
    record = parse_record(load_hand_record(str(db), stored.id, idx[-1]))
    assert verify(record).to_json()["ok"] is True

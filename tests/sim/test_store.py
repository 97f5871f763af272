"""Sim runs in the Alembic-managed schema (``erqishi.storage``, migration 0002): a file
written by the old ``erqishi sim`` (its tables made by ``create_all``, no
``alembic_version``, no web tables) is adopted with its runs and read by ``erqishi runs``,
``replay --db`` and ``verify --db``; runs are stored on PostgreSQL too, beside web matches.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)
from sqlalchemy.pool import NullPool

from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.records import parse_record, verify
from erqishi.sim import RecordNotKeptError, SimResult, list_runs, load_hand_record, load_run, run_sim, save_run
from erqishi.storage import Store, alembic_config, database_urls, upgrade

LESHAN = RuleSet.load("leshan")
BOTS = ["heuristic", "random", "random"]

# -- the tables as ``erqishi sim`` made them before migration 0002 (its create_all) ------

old_metadata = MetaData()
old_runs = Table(
    "sim_runs",
    old_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("bots", JSON, nullable=False),
    Column("rules", Text, nullable=False),
    Column("summary", JSON, nullable=False),
)
old_hands = Table(
    "sim_hands",
    old_metadata,
    Column("run_id", Integer, ForeignKey("sim_runs.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seats", JSON, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("payments", JSON, nullable=False),
    Column("record", JSON, nullable=True),
)


def old_save_run(url: str, result: SimResult, with_records: bool = True) -> int:
    """Store a run the way the old ``erqishi sim`` did: ``create_all``, then one transaction."""
    engine = create_engine(database_urls(url)[1], poolclass=NullPool)
    old_metadata.create_all(engine)
    try:
        with engine.begin() as conn:
            key = conn.execute(
                old_runs.insert().values(
                    created=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
                    seed=result.seed,
                    hands=len(result.hands),
                    bots=list(result.bots),
                    rules=str(result.rules),
                    summary=result.to_json(),
                )
            ).inserted_primary_key
            assert key is not None
            run_id = int(key[0])
            conn.execute(
                old_hands.insert(),
                [
                    {
                        "run_id": run_id,
                        "idx": h.index,
                        "seats": list(h.seats),
                        "kind": h.kind,
                        "winner": h.winner,
                        "payments": list(h.payments),
                        "record": dict(result.records[k]) if with_records else None,
                    }
                    for k, h in enumerate(result.hands)
                ],
            )
    finally:
        engine.dispose()
    return run_id


def tables(url: str) -> set[str]:
    engine = create_engine(database_urls(url)[1], poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def version(url: str) -> list[str]:
    engine = create_engine(database_urls(url)[1], poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    finally:
        engine.dispose()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def result() -> SimResult:
    return run_sim(6, 4, BOTS, LESHAN)


def test_an_old_sim_file_is_adopted_with_its_runs(
    db_url: str, result: SimResult, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = old_save_run(db_url, result)
    second = old_save_run(db_url, result, with_records=False)
    assert (first, second) == (1, 2)
    assert tables(db_url) == {"sim_runs", "sim_hands"}  # no alembic_version, no web tables

    # read with the new code: the database is migrated first, the runs kept
    runs = list_runs(db_url)
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head == "0004" and version(db_url) == [head]
    assert {"sim_runs", "sim_hands", "web_matches", "web_hands", "alembic_version"} <= tables(db_url)
    assert [(r.id, r.seed, r.hands, r.bots, r.rules) for r in runs] == [
        (1, 4, 6, tuple(BOTS), "leshan"),
        (2, 4, 6, tuple(BOTS), "leshan"),
    ]
    assert runs[0].created == datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert runs[0].summary == json.loads(json.dumps(result.to_json()))
    stored = load_hand_record(db_url, 1, 3)
    assert stored == result.records[3]
    with pytest.raises(RecordNotKeptError, match="saved without its record"):
        load_hand_record(db_url, 2, 3)
    with pytest.raises(LookupError, match="no hand 99") as no_hand:
        load_hand_record(db_url, 1, 99)
    assert not isinstance(no_hand.value, RecordNotKeptError)

    # the commands read it
    code, out, _ = run(capsys, "runs", "--db", db_url, "--json")
    assert code == 0 and [(r["id"], r["seed"], r["hands"], r["bots"]) for r in json.loads(out)] == [
        (1, 4, 6, BOTS),
        (2, 4, 6, BOTS),
    ]
    code, out, _ = run(capsys, "replay", "--db", db_url, "--run", "1", "--hand", "3")
    assert code == 0 and "起手" in out
    code, out, _ = run(capsys, "verify", "--db", db_url, "--run", "1", "--hand", "3", "--json")
    assert code == 0
    assert json.loads(out) == {"ok": True, "finished": True, "result": result.records[3]["result"]}
    # run 2 was saved without its records: each command says so, not that the hand is missing
    code, _, err = run(capsys, "replay", "--db", db_url, "--run", "2", "--hand", "3")
    assert code == 2 and "没有存下记录" in err and "saved without its record" in err
    code, _, err = run(capsys, "replay", "--db", db_url, "--run", "1", "--hand", "99")
    assert code == 2 and "里没有序号为 99 的一手" in err and "no hand 99" in err
    code, _, err = run(capsys, "report", "--db", db_url, "--run", "2", "--output", str(tmp_path / "r.html"))
    assert code == 2 and "牌局记录没有存下" in err and "stored without its record" in err

    # and new runs go into the same tables, numbered on
    assert save_run(db_url, result) == 3
    assert [r.id for r in list_runs(db_url)] == [1, 2, 3]
    assert version(db_url) == [head]


def test_a_run_round_trip(db_url: str, result: SimResult) -> None:
    run_id = save_run(db_url, result)
    assert version(db_url) == ["0004"]
    stored = load_run(db_url, run_id)
    assert (stored.seed, stored.hands, stored.bots) == (4, 6, tuple(BOTS))
    assert RuleSet.load(stored.rules) == LESHAN
    for index in range(6):
        record: dict[str, Any] = load_hand_record(db_url, run_id, index)
        assert record == result.records[index]
        verdict = verify(parse_record(record))
        assert verdict.ok and verdict.finished and verdict.to_json()["result"] == record["result"]
    with pytest.raises(LookupError, match="no sim run 99"):
        load_run(db_url, 99)


async def test_sim_runs_and_web_matches_share_one_database(db_url: str, result: SimResult) -> None:
    run_id = save_run(db_url, result)
    store = await Store.open(db_url)
    try:
        match_id = await store.create_match(room="SIM001", preset="leshan", rules={}, seats=["a", "b", "c"], seed=1)
        assert [m.id for m in await store.list_matches()] == [match_id]
    finally:
        await store.close()
    assert [r.id for r in list_runs(db_url)] == [run_id]


def test_a_file_that_is_no_database(tmp_path: Path, result: SimResult, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.db"
    path.write_text("not a database", encoding="utf-8")
    code, _, err = run(capsys, "runs", "--db", str(path))
    assert code == 2 and err.count("\n") == 1 and "cannot read" in err
    with pytest.raises(ValueError, match="unsupported database URL"):
        save_run("mysql://u:p@h/db", result)


def test_a_web_database_at_0001_gains_the_sim_tables(db_url: str, result: SimResult) -> None:
    upgrade(db_url, "0001")
    assert version(db_url) == ["0001"]
    assert not {"sim_runs", "sim_hands"} & tables(db_url)
    assert save_run(db_url, result) == 1
    assert version(db_url) == ["0004"] and {"sim_runs", "sim_hands"} <= tables(db_url)


def test_sims_started_together_on_a_new_database_all_store_their_runs(db_url: str, tmp_path: Path) -> None:
    """Researchers start several seeds at once into one new database: each process migrates
    it on opening, one after the other (a file lock on SQLite, an advisory lock on
    PostgreSQL), and every run is stored (before, 3 of 4 failed with 'table web_matches
    already exists')."""
    import subprocess
    import sys

    command = [sys.executable, "-c", "from erqishi.cli import run; run()", "sim", "--hands", "4", "--json"]
    runs = [
        subprocess.Popen(
            [*command, "--seed", str(seed), "--db", db_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
        for seed in range(4)
    ]
    for proc in runs:
        _, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
    assert sorted(r.seed for r in list_runs(db_url)) == [0, 1, 2, 3]

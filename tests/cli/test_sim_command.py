"""``erqishi sim`` (issue 4): the summary as JSON, workers give the same summary, runs go
into SQLite and any stored hand can be replayed and verified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erqishi.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_sim_json_shape_and_workers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sim", "-n", "40", "--seed", "3", "--json", "--no-db", "--workers", "1")
    one = json.loads(out)
    assert code == 0 and set(one["bots"]) == {"heuristic", "random"}
    for stats in one["bots"].values():
        lo, hi = stats["ci95"]
        assert lo <= stats["mean_payment"] <= hi and 0 <= stats["win_rate"] <= 1
    assert one["bots"]["heuristic"]["hands"] == 40 and one["bots"]["random"]["hands"] == 80
    assert 0 <= one["dead_rate"] <= 1
    _, out, _ = run(capsys, "sim", "-n", "40", "--seed", "3", "--json", "--no-db", "--workers", "2")
    assert json.loads(out) == one


def test_sim_stores_runs_for_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "runs.db")
    code, out, _ = run(capsys, "sim", "-n", "12", "--bots", "random,random,heuristic", "--db", db)
    assert code == 0 and "run 1 stored" in out and "heuristic" in out
    code, out, _ = run(capsys, "verify", "--db", db, "--run", "1", "--hand", "5", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = run(capsys, "replay", "--db", db, "--run", "1", "--hand", "5")
    assert code == 0 and "起手" in out
    code, _, err = run(capsys, "replay", "--db", db, "--run", "9", "--hand", "0")
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--bots", "random,random"], "need 3 bots"),
        (["--bots", "random,random,alphago"], "unknown bot 'alphago'"),
        (["--hands", "0"], "--hands must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--rules", "nosuch"], "unknown rules preset"),
    ],
)
def test_sim_bad_options(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, _, err = run(capsys, "sim", "--no-db", *args)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_stored_hand_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing database file is named and not created; an unknown run is named."""
    missing = tmp_path / "nothere.db"
    code, _, err = run(capsys, "replay", "--db", str(missing), "--run", "1", "--hand", "0")
    assert code == 2 and "no such file" in err and not missing.exists()
    db = str(tmp_path / "runs.db")
    assert run(capsys, "sim", "-n", "3", "--db", db)[0] == 0
    code, _, err = run(capsys, "verify", "--db", db, "--run", "99", "--hand", "0")
    assert code == 2 and "no sim run 99" in err and err.count("\n") == 1


def test_sim_unknown_bot_is_named_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sim", "--no-db", "--bots", "foo")
    assert code == 2 and "unknown bot 'foo'" in err


@pytest.mark.parametrize("db", ["/proc/no-such-dir/x.db", "{tmp}", "{tmp}/corrupt.db", "foo://bar"])
def test_sim_that_cannot_store_says_so_before_it_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """A database that cannot be written (a missing folder, a folder, a file that is no
    database, an unknown kind) is found before the first hand, not after the last one."""
    (tmp_path / "corrupt.db").write_bytes(b"this is not an SQLite database" * 100)
    code, out, err = run(capsys, "sim", "-n", "3", "--db", db.format(tmp=tmp_path))
    assert code == 1 and out == ""  # no hand played
    assert err.count("\n") == 1 and "cannot store the run" in err and "sqlalche.me" not in err


def test_sim_never_shows_a_database_password(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sim", "-n", "3", "--db", "postgresql://erqishi:s3cret-pw@127.0.0.1:1/none")
    assert code == 1 and "cannot store the run" in err and "s3cret-pw" not in err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--hands", "99999999999999999999999"], "--hands must be at most 10000000"),
        (["--seed", "99999999999999999999999999"], "--seed must be a whole number"),
        (["--seed", str(-(2**63) - 1)], "--seed must be a whole number"),
        (["--report", "/no-such-folder/r.html"], "--report: cannot write"),
    ],
)
def test_sim_refuses_what_would_fail_after_playing(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, out, err = run(capsys, "sim", "--no-db", *args)
    assert code == 2 and out == "" and fragment in err and err.count("\n") == 1


def test_runs_lists_stored_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "runs.db")
    assert run(capsys, "sim", "-n", "3", "--seed", "9", "--db", db)[0] == 0
    code, out, _ = run(capsys, "runs", "--db", db, "--json")
    rows = json.loads(out)
    assert code == 0 and [(r["id"], r["seed"], r["hands"]) for r in rows] == [(1, 9, 3)]
    code, out, _ = run(capsys, "runs", "--db", db)
    # the bot list, whole (it wraps between bots on a narrow terminal, never hiding one)
    assert code == 0 and [w for w in out.split() if w.strip(",") in ("heuristic", "random")] == [
        "heuristic,",
        "random,",
        "random",
    ]
    code, _, err = run(capsys, "runs", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no such file" in err


def test_a_stored_duplicate_run_shows_its_paired_comparison_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A duplicate run is judged by its paired comparison (per deal, with 95% intervals):
    ``erqishi runs`` marks the run as duplicate with its deals, and ``erqishi report`` of
    the stored run shows each bot's mean per deal and each pair's difference with the same
    intervals ``sim --json`` gave (before, the report sent the reader back to sim's output,
    which was gone)."""
    db = tmp_path / "runs.db"
    code, out, _ = run(capsys, "sim", "--duplicate", "-n", "12", "--bots", "heuristic,random,random",
                       "--seed", "4", "--db", str(db), "--json")  # fmt: skip
    assert code == 0
    paired = json.loads(out)["duplicate"]
    code, out, _ = run(capsys, "runs", "--db", str(db), "--json")
    assert code == 0 and json.loads(out)[0]["duplicate"] == {"deals": 12, "games_per_deal": 3}
    page = tmp_path / "r.html"
    code, _, _ = run(capsys, "report", "--db", str(db), "--run", "1", "--output", str(page))
    text = page.read_text(encoding="utf-8")
    assert code == 0 and 'id="paired-pairs"' in text and "erqishi sim's output" not in text
    pair = paired["pairs"][0]
    lo, hi = pair["ci95"]
    sign = lambda x: f"+{x:.2f}" if x > 0 else f"{x:.2f}"  # noqa: E731 - the page's numbers
    assert f"{sign(pair['mean_difference'])} [{sign(lo)}, {sign(hi)}]" in text


def test_a_run_whose_process_was_killed_is_shown_interrupted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kill -9`` leaves a stored run's summary saying "running" (nothing could mark it):
    ``erqishi runs`` sees that the process writing it is gone and says "interrupted", with
    the hands stored, as after Ctrl-C; a live run still says "running"."""
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "runs.db"
    erqishi = Path(sys.executable).with_name("erqishi")
    proc = subprocess.Popen([str(erqishi), "sim", "-n", "100000", "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        rows: list[dict[str, object]] = []
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if db.exists():
                code, out, _ = run(capsys, "runs", "--db", str(db), "--json")
                rows = json.loads(out) if code == 0 and out.strip() else []
                if rows and int(str(rows[0]["hands_stored"])) > 0:
                    break
        assert rows and rows[0]["state"] == "running", rows
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        code, out, _ = run(capsys, "runs", "--db", str(db), "--json")
        row = json.loads(out)[0]
        assert code == 0 and row["state"] == "interrupted" and str(row["status"]).startswith("interrupted ")
        code, out, _ = run(capsys, "runs", "--db", str(db))
        assert "中断" in out and "进行中" not in out
    finally:
        if proc.poll() is None:
            proc.kill()

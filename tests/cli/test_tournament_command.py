"""``erqishi tournament`` (争霸赛 of bots): a 9-player tournament runs end to end, is stored
with its matches, listed, shown and resumed after a stop between rounds; bad input is one
error line and exit code 2."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from erqishi.cli import main
from erqishi.storage import Store
from erqishi.tournament import Tournament, play_round
from erqishi.tournament.persist import create_stored, save_stored

RUN = ["tournament", "run", "--field", "9", "--bots", "random,heuristic", "--rounds", "2", "--quan", "1", "--seed", "5"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_nine_player_bot_tournament_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.db")
    code, out, err = run(capsys, *RUN, "--leitai", "--db", db)
    assert code == 0, err
    # round by round: three tables of three, then the 擂台 final's one table
    assert "第 1 轮 round 1" in out and "第 2 轮 round 2" in out and "擂台决赛 leitai final" in out
    assert out.count("heuristic#") >= 9 and "最终排名 final ranking" in out
    assert "冠军 champion: " in out and "tournament 1 stored in" in out
    code, out, _ = run(capsys, "tournament", "list", "--db", db, "--json")
    [listed] = json.loads(out)
    assert code == 0 and (listed["id"], listed["status"], listed["players"], listed["played"]) == (1, "finished", 9, 3)
    code, out, _ = run(capsys, "tournament", "show", "1", "--db", db, "--json")
    shown = json.loads(out)
    assert code == 0 and shown["champion"] == listed["champion"] == shown["ranking"][0]["name"]
    assert len(shown["ranking"]) == 9 and len(shown["matches"]) == 3 + 3 + 1
    t = Tournament.from_json(shown["tournament"])
    for r in t.swiss_played:  # every player at one table of each Swiss round
        assert sorted(e for tb in r.tables for e in tb.entrants) == list(range(9))
    # the same command without a store gives the same tournament
    code, out, _ = run(capsys, *RUN, "--leitai", "--json")
    assert code == 0 and json.loads(out)["tournament"] == shown["tournament"]
    code, out, _ = run(capsys, "tournament", "show", "1", "--db", db)
    assert code == 0 and "争霸赛 (#1)" in out and "擂台决赛 leitai final" in out and "冠军 champion: " in out
    code, out, _ = run(capsys, "tournament", "list", "--db", db)
    assert code == 0 and "已结束 finished" in out


def test_resume_after_a_stop_between_rounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.db")
    start = Tournament.create("争霸赛", "leshan", rounds=2, match_quan=1, seed=5)
    for i in range(9):
        start = start.register_bot(("random", "heuristic")[i % 2])

    async def first_round() -> int:
        store = await Store.open(db)
        try:
            tid = await create_stored(store, start)
            t, played = play_round(start)
            await save_stored(store, tid, t, played)
            return tid
        finally:
            await store.close()

    tid = asyncio.run(first_round())
    code, out, err = run(capsys, "tournament", "resume", str(tid), "--db", db, "--json")
    assert code == 0, err
    resumed = json.loads(out)
    assert "第 1 轮" not in out and len(resumed["matches"]) == 3  # only round 2 was played now
    code, out, _ = run(capsys, *RUN, "--json")
    assert json.loads(out)["tournament"] == resumed["tournament"]
    code, _, err = run(capsys, "tournament", "resume", str(tid), "--db", db)
    assert code == 2 and "is finished" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--players", "random,random,random", "--field", "3"], "not both"),
        (["--players", "random,alphago,random"], "unknown bot 'alphago'"),
        (["--field", "1"], "--field must be 2-120"),
        (["--bots", "random,deepblue"], "unknown bot 'deepblue'"),
        (["--rounds", "0"], "rounds must be"),
        (["--quan", "0"], "圈 per round"),
        (["--rules", "nosuch"], "unknown rules preset"),
        (["--rules", '{"dealer": "winner"}'], "dealer: rotate"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--filler", "alphago"], "unknown filler bot"),
        (["--name", "\x1b"], "tournament needs a name"),
    ],
)
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, out, err = run(capsys, "tournament", "run", *args)
    assert code == 2 and fragment in err and err.count("\n") == 1 and out == ""


def test_store_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "none.db")
    for args in (["list", "--db", missing], ["show", "1", "--db", missing], ["resume", "1", "--db", missing]):
        code, _, err = run(capsys, "tournament", *args)
        assert code == 2 and "no such file" in err and err.count("\n") == 1
    db = str(tmp_path / "empty.db")
    asyncio.run(_create_empty(db))
    code, out, _ = run(capsys, "tournament", "list", "--db", db)
    assert code == 0 and "no tournaments" in out
    code, _, err = run(capsys, "tournament", "show", "7", "--db", db)
    assert code == 2 and "no tournament 7" in err and err.count("\n") == 1


async def _create_empty(db: str) -> None:
    store = await Store.open(db)
    await store.close()


@pytest.mark.parametrize("how", ["TERM", "KILL"])
def test_a_stopped_tournament_leaves_no_worker_behind(tmp_path: Path, how: str) -> None:
    """``tournament run --workers 2`` stopped by ``kill`` or ``kill -9`` in the middle of a
    round: its pool's workers end with it, as ``erqishi sim``'s do (they stayed, idle,
    adopted by init)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    erqishi = Path(sys.executable).with_name("erqishi")
    proc = subprocess.Popen(
        [str(erqishi), "tournament", "run", "--field", "9", "--bots", "search-old,heuristic", "--rounds", "3",
         "--quan", "2", "--seed", "3", "--db", str(tmp_path / "t.db"), "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    children: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(children) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            path = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
            children = [int(c) for c in path.read_text().split()] if path.exists() else []
        assert len(children) >= 2, "the round's workers did not start"
        proc.send_signal(getattr(signal, f"SIG{how}"))
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        alive = children
        while alive and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = [c for c in children if Path(f"/proc/{c}").exists() and "zombie" not in _state(c)]
        assert not alive, f"workers left behind: {alive}"
    finally:
        if proc.poll() is None:
            proc.kill()
        for c in children:
            if Path(f"/proc/{c}").exists():
                os.kill(c, signal.SIGKILL)


def _state(pid: int) -> str:
    try:
        line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("State:"))
    except (OSError, StopIteration):
        return "zombie"
    return line.lower()

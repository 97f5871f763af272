"""erqishi replay: the hand step by step in the one narration, steps counted from 1, the
win before a later illegal step, 八块 and the first flip, who owes the next move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import DATA, shared_dir
from erqishi.cli import main

RECORDS = shared_dir() / "cases" / "records"


def _tianhu_plus(extra: list[Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / "tianhu.json").read_text(encoding="utf-8"))
    data["actions"] += extra
    return data


def test_replay_shows_the_win_before_a_later_illegal_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_tianhu_plus([[1, "pass"]])), encoding="utf-8")
    assert main(["replay", str(path)]) == 1  # an illegal step: exit 1, like verify
    out = capsys.readouterr().out
    # steps count from 1 in words (actions[1] is the second step), as everywhere
    assert "A(0) 天胡" in out and "得分 20" in out and "第 2 步（actions[1]）不合规则" in out
    assert out.index("得分 20") < out.index("第 2 步（actions[1]）不合规则")


def test_replay_shows_the_first_flip_after_a_bakuai_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "records" / "r4-3-dealer-two-gun-no-opening.json"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "A(0) 报八块" in out and "B(1) 翻出 拾（堂牌余 18 张）" in out
    assert out.index("A(0) 报八块") < out.index("B(1) 翻出 拾")


def test_replay_says_who_owes_the_next_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "chi-on-discard.json")]) == 0
    assert "（牌局未完：B(1) 还需打一张牌）" in capsys.readouterr().out

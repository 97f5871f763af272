"""erqishi replay: the hand step by step in the one narration, steps counted from 1, the
win before a later illegal step, 八块 and the first flip, who owes the next move; the
rules in words, one kind of colon per language, step 0 the deal."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import DATA, shared_dir
from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.play import play_match, random_chooser

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


def _lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["replay", *args]) in (0, 1)
    return capsys.readouterr().out.splitlines()


def test_replay_names_the_rules_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The header: the preset in words, each option that differs from it, then the 圈 and
    its card (the big card of the 圈's rank, R-2.4)."""
    game = str(RECORDS / "game-01.json")  # leshan, 圈 5
    assert _lines(capsys, game)[0] == "规则：乐山 leshan；圈5（圈牌 伍）"
    assert _lines(capsys, game, "--lang", "en")[0] == "rules: Leshan (leshan); 圈 5 (圈 card 伍)"
    data = json.loads((RECORDS / "chi-on-discard.json").read_text(encoding="utf-8"))
    data["rules"] = {"match_quan": 1}  # no 圈 in this record
    path = tmp_path / "one-quan.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _lines(capsys, str(path))[0] == "规则：乐山 leshan；比赛圈数 1"
    assert _lines(capsys, str(path), "--lang", "en")[0] == "rules: Leshan (leshan); 圈 per match 1"
    yu = str(DATA / "records" / "r5-13-yu-kai-onto-dui.json")
    assert _lines(capsys, yu)[0] == "规则：乐山 leshan；下雨 有"
    assert _lines(capsys, yu, "--lang", "en")[0] == "rules: Leshan (leshan); 下雨 (yu) on"


RECORD_FILES = [
    p for folder in (RECORDS, DATA / "records") for p in sorted(folder.glob("*.json")) if p.name != "index.json"
]


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.name)
def test_one_kind_of_colon_per_language(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Chinese lines use the full-width ： only, English lines ": " only (an engine's
    message about an illegal step is English and quoted as it is)."""
    for line in _lines(capsys, str(path)):
        if "不合规则" not in line:
            assert ":" not in line, line
    for line in _lines(capsys, str(path), "--lang", "en"):
        assert "：" not in line, line
        assert ":" not in line.replace(": ", ""), line


def test_steps_are_numbered_from_the_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """Step 0 is the deal (with a dealer's 八块 and the first flip, R-4.3), step K the K-th
    action of the record (FORMATS.md), then the implicit passes after the last one."""
    lines = _lines(capsys, str(DATA / "records" / "r4-3-dealer-two-gun-no-opening.json"))
    assert lines[1] == "—— 第 1 手：圈1，A(0) 做庄 ——"
    assert [line[:9] for line in lines[2:5]] == ["  A(0) 起手", "  B(1) 起手", "  C(2) 起手"]
    assert lines[5:8] == ["[0] A(0) 报八块", "[0] B(1) 翻出 拾（堂牌余 18 张）", "[1] 无人要 拾"]
    numbers = [int(line[1 : line.index("]")]) for line in lines if line.startswith("[")]
    assert numbers == sorted(numbers) and numbers[0] == 0
    # game-01: the six actions are steps 1-6; the win is the 6th
    lines = _lines(capsys, str(RECORDS / "game-01.json"))
    assert (
        "[1] A(0) 打 伍" in lines and "[4] C(2) 吃 二（七十），摆 二三四" in lines and "[6] A(0) 胡 八（抬炮）" in lines
    )
    assert not any(line.startswith("[7]") for line in lines)


def test_a_match_is_told_hand_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A match of one 圈 with three players is three hands, each dealer once (R-2.2, R-2.4);
    each hand is headed by its number (手) and its rules in words."""
    rules = RuleSet.from_options({"match_quan": 1})
    match = play_match(random.Random(7), random_chooser(random.Random(8)), rules)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match.to_json(), ensure_ascii=False), encoding="utf-8")
    zh = _lines(capsys, str(path))
    assert [line for line in zh if line.startswith("===")] == ["=== 第 1 手 ===", "=== 第 2 手 ===", "=== 第 3 手 ==="]
    assert zh.count("规则：乐山 leshan；比赛圈数 1；圈1（圈牌 壹）") == 3
    en = _lines(capsys, str(path), "--lang", "en")
    assert [line for line in en if line.startswith("===")] == ["=== hand 1 ===", "=== hand 2 ===", "=== hand 3 ==="]
    assert en.count("rules: Leshan (leshan); 圈 per match 1; 圈 1 (圈 card 壹)") == 3


def test_an_illegal_step_of_a_record_names_the_seat_that_made_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A record is read by someone who is none of its seats: the reason of its illegal
    step (guozhang.json: seat 1 吃 a card it declined, R-5.9) names that seat instead of
    saying "you", in the replay and in verify."""
    path = RECORDS / "guozhang.json"
    seats = json.loads(path.read_text(encoding="utf-8"))["seats"]
    label = f"{seats[1]}(1)"
    assert main(["replay", str(path)]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if "不合规则" in x)
    assert f"过张：这手牌 {label} 已经放过一次" in line and "你" not in line and "R-5.9" in line
    assert main(["verify", str(path)]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if "不合规则" in x)
    assert f"{label} 已经放过一次" in line and "你" not in line and "seat 1" in line

"""Records (FORMATS.md): the worked records of ../shared/cases/records, ``erqishi
verify`` and ``erqishi replay``, invalid files, and match records."""

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
from erqishi.records import load_record, verify

RECORDS = shared_dir() / "cases" / "records"


def _index() -> list[dict[str, Any]]:
    path = RECORDS / "index.json"
    assert path.is_file(), f"worked records not found at {path}"
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


INDEX = _index()


def _matches(got: dict[str, Any], expect: dict[str, Any]) -> bool:
    for key, value in expect.items():
        if key == "result":
            result = got.get("result") or {}
            if any(result.get(k) != v for k, v in value.items()):
                return False
        elif got.get(key) != value:
            return False
    return True


#: The keys of each verdict, in order (FORMATS.md "Machine output").
VERDICT_KEYS = {
    "finished": ["ok", "finished", "result"],
    "unfinished": ["ok", "finished"],
    "illegal": ["ok", "step", "error"],
}


def _shapes(expect: dict[str, Any]) -> list[str]:
    """The verdict shapes an index entry allows (``{"ok": true}`` alone allows both)."""
    if not expect["ok"]:
        return ["illegal"]
    if "finished" not in expect:
        return ["finished", "unfinished"]
    return ["finished" if expect["finished"] else "unfinished"]


@pytest.mark.parametrize("entry", INDEX, ids=[e["file"] for e in INDEX])
def test_worked_record(entry: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / entry["file"]
    text = path.read_text(encoding="utf-8")
    verdict = verify(load_record(text))
    data = verdict.to_json()
    assert _matches(data, entry["expect"]), (entry["rules"], data)
    assert verdict.ok is entry["expect"]["ok"]
    code = main(["verify", str(path), "--json"])
    out = capsys.readouterr().out
    # one line, the verdict's JSON byte for byte, its keys in the order of FORMATS.md; the
    # worked files state the right result (their README), so nothing is added
    assert out == json.dumps(data, ensure_ascii=False) + "\n"
    assert list(json.loads(out)) in [VERDICT_KEYS[shape] for shape in _shapes(entry["expect"])]
    assert code == (0 if entry["expect"]["ok"] else 1)
    if "result" in json.loads(text):
        assert verdict.result_matches is True


def test_verify_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(RECORDS / "game-02.json")]) == 0
    out = capsys.readouterr().out
    assert "seat 0 wins (discard)" in out and "15 胡" in out and "[60, -60, 0]" in out
    assert main(["verify", str(RECORDS / "guozhang.json")]) == 1
    assert "第 3 步 step 3 (actions[2])" in capsys.readouterr().out
    assert main(["verify", str(RECORDS / "chi-on-discard.json")]) == 0
    assert "未完 unfinished" in capsys.readouterr().out


def test_replay_tells_the_hand_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "game-01.json")]) == 0
    out = capsys.readouterr().out
    for text in (
        "圈5（圈牌 伍）",
        "A(0) 起手",
        "A(0) 打 伍",
        "B(1) 对 伍",
        "C(2) 吃 二（七十），摆 二三四",
        "A(0) 胡 八（抬炮）",
        "A(0) 得分 20：15 胡，中和，规格 20，番 无",
        "A(0) +60",
    ):
        assert text in out, text
    assert main(["replay", str(RECORDS / "game-10.json")]) == 0
    out = capsys.readouterr().out
    assert "翻" in out and "荒庄" in out


def _base() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / "chi-on-discard.json").read_text(encoding="utf-8"))
    return data


def _broken(change: str) -> dict[str, Any]:
    data = _base()
    if change == "format":
        data["format"] = 2
    elif change == "hands":
        data["deal"]["hands"][1] = data["deal"]["hands"][1] + " x1"
    elif change == "card":
        data["deal"]["stock"] = data["deal"]["stock"].replace("d8", "d88", 1)
    elif change == "action":
        data["actions"][1][1] = "chow d9 d10"
    elif change == "seat":
        data["actions"][0][0] = "zero"
    elif change == "rules":
        data["rules"] = {"players": 7}
    elif change == "seats":
        data["seats"] = ["A", "B"]
    elif change == "dealer":
        data["deal"]["dealer"] = None
    return data


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ("format", "format: must be 1"),
        ("hands", "deal: seat 1 must hold 20 cards, not 21"),
        ("card", "deal.stock: bad card 'd88'"),
        ("action", "actions[1]: bad action 'chow'"),
        ("seat", 'actions[0]: must be [seat, "action"]'),
        ("rules", "rules: option 'players' must be 2, 3 or 4"),
        ("seats", "seats: must name 3 seats"),
        ("dealer", "deal.dealer: must be a seat number"),
    ],
)
def test_invalid_records_exit_2_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, fragment: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_broken(change)), encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and fragment in out.err, out.err
    # FORMATS.md: --json still prints one object; "step" is the action that cannot be read
    assert main(["verify", str(path), "--json"]) == 2
    out = capsys.readouterr()
    verdict = json.loads(out.out)
    assert list(verdict) == ["ok", "invalid", "step", "error"] and out.err == ""
    assert verdict["ok"] is False and verdict["invalid"] is True and fragment in verdict["error"]
    assert verdict["step"] == {"action": 1, "seat": 0}.get(change)
    assert main(["replay", str(path)]) == 2
    assert fragment in capsys.readouterr().err


def test_not_json_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text("{", encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_illegal_seat_number_is_an_illegal_step(tmp_path: Path) -> None:
    data = _base()
    data["actions"][1][0] = 9
    verdict = verify(load_record(json.dumps(data)))
    assert verdict.ok is False and verdict.step == 1 and verdict.error is not None and "seat 9" in verdict.error
    assert verdict.exit_code == 1


def test_match_record_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A whole match written by the engine: every hand legal, totals = sum of payments (R-8.3)."""
    rules = RuleSet.from_options({"match_quan": 2})
    played = play_match(random.Random(11), random_chooser(random.Random(12)), rules)
    assert played.match.quan == 3 and len(played.hands) >= 6  # two 圈 of three deals each
    path = tmp_path / "m.json"
    path.write_text(json.dumps(played.to_json(), ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["finished"] and verdict["result"]["totals"] == list(played.totals)
    sums = [sum(h.outcome.payments[s] for h in played.hands) for s in range(3)]
    assert sums == list(played.totals)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    totals = "，".join(f"seat{s}({s}) {t:+d}" for s, t in enumerate(played.totals))
    assert f"—— 比赛结束：{totals}；" in out


GOLDEN = DATA / "records"
GOLDEN_INDEX: list[dict[str, Any]] = json.loads((GOLDEN / "index.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("entry", GOLDEN_INDEX, ids=[e["file"] for e in GOLDEN_INDEX])
def test_golden_record(entry: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """Hand-made records, one or more per rule of R-4 to R-6 (tests/data/records)."""
    code = main(["verify", str(GOLDEN / entry["file"]), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert _matches(verdict, entry["expect"]), (entry["rules"], entry["note"], verdict)
    assert code == (0 if entry["expect"]["ok"] else 1)
    if not entry["expect"]["ok"]:
        assert verdict["error"].startswith("R-"), verdict["error"]  # the message names the rule


def test_golden_records_cover_every_rule_section() -> None:
    covered = " ".join(e["rules"] for e in GOLDEN_INDEX + INDEX)
    for section in (
        "R-4.1",
        "R-4.2",
        "R-4.3",
        "R-5.1",
        "R-5.2",
        "R-5.3",
        "R-5.8",
        "R-5.9",
        "R-5.10",
        "R-5.11",
        "R-5.12",
        "R-5.13",
        "R-5.14",
        "R-6.1",
        "R-6.2",
        "R-6.3",
        "R-6.4",
    ):
        assert section in covered, section
    assert any(not e["expect"]["ok"] for e in GOLDEN_INDEX)

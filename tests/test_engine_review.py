"""Faults an adversarial review of the engine and record tools found, kept as tests:
views that leaked a hidden 坎, crashing record files, ``replay`` dropping steps,
matches not checked as matches, and small notation gaps."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_dir
from erqishi.cli import main
from erqishi.core import Card, IllegalActionError, RuleSet
from erqishi.core.engine import (
    KAI,
    PASS,
    Action,
    apply,
    resolve_responses,
    seat_options,
    view,
)
from erqishi.play import play_match, random_chooser
from positions import position, seat_state

QUIET = "一三五七九壹叁伍柒玖二四六八十贰肆陆捌拾九"
RECORDS = shared_dir() / "cases" / "records"


def test_views_do_not_reveal_another_seats_kan() -> None:
    """R-9: seat 2's concealed 坎 of 五 makes the 开 compulsory, but the other seats' views
    still offer them their own responses and a pass; only the table resolves (R-5.4)."""
    s1 = seat_state("四六三八九壹叁伍柒玖二一十贰肆捌拾七九壹")  # may 吃 五 with 四六
    s2 = seat_state("五五五一二三七八九十贰贰叁肆伍陆柒柒玖拾")
    state = position({0: seat_state(QUIET), 1: s1, 2: s2}, turn=1, pending="五", flip=True)
    assert PASS in view(state, 0).legal
    assert Action.parse("chi x4 x6") in view(state, 1).legal and PASS in view(state, 1).legal
    assert view(state, 2).legal == (KAI,)
    assert seat_options(state, 1) == view(state, 1).legal
    # everybody else passing: the compulsory 开 is the effective move
    with pytest.raises(IllegalActionError, match="owes a 开"):
        resolve_responses(state, {0: PASS, 1: PASS})
    assert resolve_responses(state, {0: PASS, 1: Action.parse("chi x4 x6"), 2: KAI}) == (2, KAI)
    calm = position({0: seat_state(QUIET), 1: s1, 2: seat_state(QUIET)}, turn=1, pending="五", flip=True)
    assert resolve_responses(calm, {0: PASS, 1: PASS, 2: PASS}) == (1, PASS)
    assert resolve_responses(calm, {1: Action.parse("chi x4 x6")}) == (1, Action.parse("chi x4 x6"))
    with pytest.raises(IllegalActionError, match="may not declare"):
        resolve_responses(calm, {0: Action.parse("chi x4 x6")})


@pytest.mark.parametrize(
    ("content", "fragment"),
    [("[" * 5000 + "]" * 5000, "nested too deeply"), ('{"format": ' + "9" * 5001 + "}", "not valid JSON")],
)
def test_pathological_json_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, fragment: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(content, encoding="utf-8")
    for command in ("verify", "replay"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and fragment in err


def _tianhu_plus(extra: list[Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / "tianhu.json").read_text(encoding="utf-8"))
    data["actions"] += extra
    return data


def test_replay_shows_the_win_before_a_later_illegal_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_tianhu_plus([[1, "pass"]])), encoding="utf-8")
    assert main(["replay", str(path)]) == 1  # an illegal step: exit 1, like verify
    out = capsys.readouterr().out
    assert "A(0) 胡（天胡）" in out and "得分 20" in out and "第 1 步不合规则" in out
    assert out.index("得分 20") < out.index("第 1 步不合规则")


def test_replay_shows_the_first_flip_after_a_bakuai_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent / "data" / "records" / "r4-3-dealer-two-gun-no-opening.json"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "A(0) 报 8 块" in out and "B(1) 翻 拾（余 18 张）" in out


def test_replay_says_who_owes_the_next_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "chi-on-discard.json")]) == 0
    assert "牌局未完: B(1) 还需打一张牌" in capsys.readouterr().out


def _match(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    played = play_match(random.Random(5), random_chooser(random.Random(6)), RuleSet.from_options({"match_quan": 1}))
    data = played.to_json()
    return tmp_path / "m.json", data


def test_match_records_are_checked_as_matches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-2.2 the deal passes on, R-2.4 the 圈 number, R-8.3 totals; a short match is unfinished."""
    path, data = _match(tmp_path)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 0
    good = json.loads(capsys.readouterr().out)
    assert good["finished"] and good["result"]["kind"] == "match" and len(good["result"]["leaders"]) >= 1

    same = dict(data, hands=[data["hands"][0]] * 3)  # the same deal three times
    path.write_text(json.dumps(same, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 1
    bad = json.loads(capsys.readouterr().out)
    assert (bad["hand"], bad["step"]) == (1, None) and bad["error"].startswith("R-2.2")

    wrong_quan = json.loads(json.dumps(data))
    wrong_quan["hands"][1]["quan"] = 7
    path.write_text(json.dumps(wrong_quan, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"].startswith("R-2.4")

    short = dict(data, hands=data["hands"][:1])
    path.write_text(json.dumps(short, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and not verdict["finished"] and "result" not in verdict

    other_rules = json.loads(json.dumps(data))
    other_rules["hands"][0]["rules"] = "app"
    path.write_text(json.dumps(other_rules, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert "hands[0].rules: differ from the match's rules" in capsys.readouterr().err


@pytest.mark.parametrize("value", [True, 1.0, "1"])
def test_format_must_be_the_number_1(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: object) -> None:
    data = json.loads((RECORDS / "tianhu.json").read_text(encoding="utf-8"))
    data["format"] = value
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert "format: must be 1" in capsys.readouterr().err


@pytest.mark.parametrize("field", ["actions", "seats", "rules"])
def test_required_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str) -> None:
    data = json.loads((RECORDS / "tianhu.json").read_text(encoding="utf-8"))
    del data[field]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert f"{field}: is missing" in capsys.readouterr().err


def test_action_words_are_case_insensitive() -> None:
    assert Action.parse("CHI x7 x8 BAI x6 x7 x8") == Action.parse("chi x7 x8 bai x6 x7 x8")
    assert str(Action.parse("DISCARD D2")) == "discard d2"


def test_a_hand_cannot_go_on_after_it_ended() -> None:
    state = position(
        {0: seat_state(QUIET), 1: seat_state("一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"), 2: seat_state(QUIET)},
        pending="一",
    )
    won = apply(state, 1, Action.parse("hu"))
    with pytest.raises(IllegalActionError, match="the hand is over"):
        apply(won, 2, PASS)
    assert won.result is not None and won.result.analysis is not None
    assert won.result.analysis.win_card is Card.X1

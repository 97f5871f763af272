"""``erqishi rules [PRESET|JSON] [--json]``: every option of a rule set in words with its
meaning and R-id (R-10), every preset side by side, and the JSON for machines."""

from __future__ import annotations

import json
import re

import pytest

from erqishi import cli
from erqishi.cli import main
from erqishi.core.rule_info import OPTIONS
from support.cli_errors import error_parts

PRESETS = ["leshan", "duikou", "meishan", "app", "jianwei"]


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that no table cell wraps (each row is one line)."""
    monkeypatch.setattr(cli._out, "_width", 240)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def cells(out: str, start: str) -> list[str]:
    """The cells of the first line starting with ``start`` (cells are two or more blanks apart)."""
    line = next(line for line in out.splitlines() if line.startswith(start))
    return re.split(r"\s{2,}", line.strip())


def test_a_preset_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "app")
    assert code == 0
    assert out.splitlines()[0] == "规则 rules: 游戏大厅 app / game hall (app)"
    for info in OPTIONS:  # every option, its meaning and its rule
        assert f"{info.zh}\n" in out or info.zh in out
        assert info.name in out and info.meaning_zh in out and f"{info.meaning_en} ({info.rule_id})" in out
    # the app preset: tiers app, cap 100; the rest as leshan; * marks the two
    assert re.search(r"计分\s+规格表\s+游戏大厅\*", out) and re.search(r"计分\s+封顶\s+100\*", out)
    assert re.search(r"番\s+坤胡\s+有\s", out) and re.search(r"牌桌\s+人数\s+3\s", out)
    assert "* 与乐山 leshan 不同 differs from leshan" in out
    # the 抬炮 multiple in effect: unset, so 3 with three players
    assert re.search(r"抬炮倍数\s+默认（3 倍）", out) and "default (×3)" in out


def test_the_multiple_in_effect_follows_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    """R-8.2: unset, the discarder pays 2 × the score with two players; duikou sets 2."""
    _, out, _ = run(capsys, "rules", '{"players": 2}')
    assert out.splitlines()[0] == "规则 rules: 乐山 leshan；人数 2 / Leshan (leshan); players 2"
    assert re.search(r"抬炮倍数\s+默认（2 倍）", out)
    _, out, _ = run(capsys, "rules", "duikou")
    assert re.search(r"抬炮倍数\s+2 倍\*", out) and re.search(r"吃打牌\s+无人\*", out)


def test_every_preset_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    assert out.splitlines()[0].startswith("预设 presets (R-10): leshan, duikou, meishan, app, jianwei")
    # a column per preset; a value only where the preset differs from leshan
    assert cells(out, "封顶 cap") == ["封顶 cap", "无 none", "·", "·", "100", "80"]
    assert cells(out, "天胡 tianhu") == ["天胡 tianhu", "一番 1 番", "·", "两番 2 番", "·", "·"]
    assert cells(out, "人数 players") == ["人数 players", "3", "2", "·", "·", "·"]
    assert cells(out, "吃打牌 discard_chi") == ["吃打牌 discard_chi", "下家", "无人 nobody", "·", "·", "·"]
    assert cells(out, "规格表 tiers") == [
        "规格表 tiers",
        "标准 seed",
        "·",
        "·",
        "游戏大厅 game hall",
        "犍为 Jianwei (犍为)",
    ]
    assert cells(out, "坤胡 kun_fan") == ["坤胡 kun_fan", "有 on", "·", "·", "·", "·"]
    # then the list of presets, each with what it changes
    assert "乐山 leshan: 全部默认 / Leshan (leshan): all defaults" in out
    assert "眉山 meishan: 天胡 两番 / Meishan (meishan): 天胡 2 番" in out
    assert "犍为 jianwei: 规格表 犍为、封顶 80" in out


def test_json_for_machines(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints the options as before: every field, and the multiple in effect."""
    code, out, _ = run(capsys, "rules", "app", "--json")
    assert code == 0
    expected = {
        "players": 3,
        "flip_chi": "flipper_then_xiajia",
        "discard_chi": "xiajia",
        "tiers": "app",
        "tianhu": "one_fan",
        "taipao_multiplier": None,
        "cap": 100,
        "yu": False,
        "dealer": "rotate",
        "match_quan": 10,
        "quan_fan": True,
        "shuang_quan": True,
        "tian_di_fan": True,
        "kun_fan": True,
        "piao_fan": True,
        "taipao_multiplier_in_effect": 3,
    }
    assert out == json.dumps(expected, ensure_ascii=False, indent=2) + "\n"
    _, out, _ = run(capsys, "rules", "--json")
    data = json.loads(out)
    assert list(data) == PRESETS
    assert data["duikou"]["taipao_multiplier_in_effect"] == 2 and data["meishan"]["tianhu"] == "two_fan"


def test_bad_rules_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["rules", "junk"], ["rules", "junk", "--json"], ["rules", '{"cap": 0}']):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == "" and error_parts(err)[1].startswith("rules: ")

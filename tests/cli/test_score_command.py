"""erqishi score and waits at the edges: strictly typed case files, per-hand options
refused with --cases, impossible 天胡/地胡 as invalid input, output details (对抠's 2×, the
cap before the multiplier, 少牌 counts), exit codes through a closed pipe and on ASCII
terminals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from erqishi.cli import main
from support.cli_errors import error_parts

MIN10 = "二三四五六七七七壹贰叁陆陆陆捌玖拾"


TIANHU_HAND = "二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾"


EXE = Path(sys.executable).with_name("erqishi")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("context", "fragment"),
    [
        ({"di": "false"}, "'context.di' must be true or false"),
        ({"tian": "yes"}, "'context.tian' must be true or false"),
        ({"wn_source": "flip"}, "unknown key 'context.wn_source'"),
        ({"win_source": "tian"}, "'context.win_source' must be"),
        ({"quan": "3"}, "'context.quan' must be a number"),
    ],
)
def test_case_file_fields_are_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], context: dict[str, object], fragment: str
) -> None:
    """FORMATS.md: bad input in one case gives an error line; a string is not a boolean."""
    path = tmp_path / "c.json"
    case = {"id": "x", "hand": MIN10, "melds": ["一一一"], "win": "四", "context": context}
    path.write_text(json.dumps([case]), encoding="utf-8")
    code, out, _ = run(capsys, "score", "--cases", str(path))
    row = json.loads(out)
    assert code == 0 and row["id"] == "x" and fragment in row["error"]


@pytest.mark.parametrize("extra", [["--win", "一"], ["--tian"], ["--source", "flip"], ["--quan", "2"]])
def test_cases_mode_refuses_per_hand_options(capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    code, _, err = run(capsys, "score", "--cases", "whatever.json", *extra)
    assert code == 2 and "--cases FILE takes every hand from the file" in err


@pytest.mark.parametrize(
    "args",
    [
        ["score", "二三四五六七八九十壹壹壹贰柒拾叁肆伍", "--meld", "陆陆陆", "--tian"],
        ["score", "一一一一二二二二三四五六七八壹贰叁肆伍陆柒柒", "--tian"],
        ["score", MIN10, "--meld", "一一一", "--win", "四", "--di"],
        ["score", TIANHU_HAND, "--tian", "--source", "flip"],
    ],
)
def test_impossible_tian_and_di_are_invalid_input(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """R-2.3, R-6.3: 天胡 is the dealer's 21 dealt cards, 地胡 a non-dealer's 20, no melds."""
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("erqishi: error:") and err.count("\n") == 1


def test_output_details(capsys: pytest.CaptureFixture[str]) -> None:
    # 对抠 pays twice on a discard, and that is not called 包三家
    _, out, _ = run(capsys, "score", MIN10, "-m", "一一一", "-w", "四", "--rules", "duikou")
    assert "点炮 pays 2 × score" in out and "包三家" not in out
    # the cap is applied before the multiplier, and said so
    melds = ["-m", "壹壹壹壹", "-m", "陆陆陆陆", "-m", "捌捌捌捌", "-m", "玖玖玖玖", "-m", "拾拾拾拾", "-m", "贰贰贰贰"]
    _, out, _ = run(capsys, "score", "一", *melds, "-w", "一", "--rules", "app")
    assert "点炮 -300" in out and "capped at 100 per payer" in out
    # too few cards names the count needed
    _, out, _ = run(capsys, "score", "一一一一二二二二三四五六七八壹贰叁肆伍陆", "-w", "柒")
    assert "少牌" in out and "21 cards" in out and "with 2 quads a win holds 22" in out
    # a hand that is not one short says so
    code, out, _ = run(capsys, "waits", TIANHU_HAND)
    assert code == 1 and "21 cards in hand and melds; one short of a win is 20 (R-4.4)" in out
    code, _, err = run(capsys, "rules", "junk")
    assert code == 2 and error_parts(err)[1].startswith("rules: unknown rules preset 'junk'")
    code, out, _ = run(capsys, "rules", '{"preset": "duikou", "cap": 50}', "--json")
    data = json.loads(out)
    assert (data["players"], data["cap"], data["taipao_multiplier_in_effect"]) == (2, 50, 2)


def test_exit_code_survives_a_closed_pipe_and_ascii_terminals() -> None:
    script = f'"{EXE}" score {MIN10} -m 一一一 -w 四 | head -c 1 >/dev/null; echo "${{PIPESTATUS[0]}}"'
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "0" and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [str(EXE), "score", MIN10, "-m", "一一一", "-w", "四"],
        capture_output=True,
        timeout=60,
        env={"PYTHONIOENCODING": "ascii", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr and b"score: 10" in proc.stdout


def test_a_kai_grown_on_an_exposed_dui_needs_yu(capsys: pytest.CaptureFixture[str]) -> None:
    """R-5.13: the 4th card added to an exposed 对 (叁叁叁+叁) is no group unless the rules
    have ``yu``; refused, it cannot earn 瞟胡 (R-7.3) that the rules do not allow."""
    args = [
        "score",
        "二七一二三四五六八八",
        "--meld",
        "叁叁叁+叁",
        "--meld",
        "肆肆肆",
        "--meld",
        "伍伍伍",
        "--win",
        "十",
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "R-5.13" in err and "yu" in err and err.count("\n") == 1
    assert main([*args, "--rules", '{"yu": true}', "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fan"] == ["瞟胡"]


def test_no_cases_print_no_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON lines: one per case, so an empty list of cases prints nothing (not a blank line)."""
    path = tmp_path / "none.json"
    path.write_text("[]", encoding="utf-8")
    assert main(["score", "--cases", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_a_yu_kai_is_written_with_a_plus_and_keeps_piaohu(capsys: pytest.CaptureFixture[str]) -> None:
    """R-7.3 and R-5.13, worked by hand: 五六十十 + 七 (flip) with the melds 三三三+三 (a 开
    grown from an exposed 对 under ``yu``, 6 hu), 壹贰叁 (0), 七七柒 (0), 捌捌捌 and 玖玖玖
    (exposed big 对, 3 each): 6 + 3 + 3 = 12 hu, 小和, base 10; the concealed part is 五六七
    and the pair 十十, every group exposed but those, no 坎 held: 瞟胡 doubles it to 20.
    The same cards with 三三三三 (a 开 from a 坎) lose 瞟胡: 10."""
    hand = ["score", "五六十十", "--win", "七", "--source", "flip", "--rules", '{"yu": true}']
    melds = ["--meld", "壹贰叁", "--meld", "七七柒", "--meld", "捌捌捌", "--meld", "玖玖玖"]
    code, out, _ = run(capsys, *hand, "--meld", "三三三+三", *melds, "--json")
    data = json.loads(out)
    assert code == 0 and (data["hu"], data["base"], data["fan"], data["score"]) == (12, 10, ["瞟胡"], 20)
    kai = next(g for g in data["groups"] if g["kind"] == "kai")
    assert kai["yu"] is True and kai["exposed"] is True
    assert all(g["yu"] is False for g in data["groups"] if g["kind"] != "kai")
    code, out, _ = run(capsys, *hand, "--meld", "三三三+三", *melds)
    assert code == 0 and "开（亮，下雨）" in out
    code, out, _ = run(capsys, *hand, "--meld", "三三三三", *melds, "--json")
    data = json.loads(out)
    assert code == 0 and (data["fan"], data["score"]) == ([], 10)
    assert next(g for g in data["groups"] if g["kind"] == "kai")["yu"] is False
    # without the yu option such a 开 cannot be on the table
    code, _, err = run(capsys, *hand[:-2], "--meld", "三三三+三", *melds)
    assert code == 2 and "R-5.13" in err

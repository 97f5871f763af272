"""Inputs an adversarial review found mishandled, kept as tests: strict case files,
impossible 天胡/地胡, settlement validation, the ``yu`` option in scoring, API input
types, separators, and command-line output details."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from erqishi.cli import main
from erqishi.core import (
    ErqishiError,
    InvalidHandError,
    InvalidNotationError,
    RuleSet,
    WinContext,
    WinSource,
    analyze_hand,
    parse_cards,
    settle,
)
from erqishi.core.rules import Tiers

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


def test_settlement_validation() -> None:
    four = RuleSet.from_options({"players": 4})
    with pytest.raises(ErqishiError, match="sits the hand out"):
        settle(10, WinSource.FLIP, 1, four)
    with pytest.raises(ErqishiError, match="only with four players"):
        settle(10, WinSource.FLIP, 1, sitting_out=0)
    with pytest.raises(ErqishiError, match="sits the hand out and cannot be the discarder"):
        settle(10, WinSource.DISCARD, 0, four, discarder=3, sitting_out=3)
    for bad in (-10, True, 10.5):
        with pytest.raises(ErqishiError, match="score must be"):
            settle(bad, WinSource.FLIP, 0)  # type: ignore[arg-type]


def test_yu_winning_card_onto_an_exposed_dui() -> None:
    """R-10 yu (R-5.13): the winning 五 onto the exposed 对 五五五 makes a 开 (6 hu), which
    with the pair 九九: 开 6 + 贰柒拾 6 = 12 hu, 小和 10. Without yu the 五 has no group."""
    hand = "一二三六七八壹贰叁肆伍陆贰柒拾九九"
    with_yu = analyze_hand(hand, ["五五五"], "五", rules=RuleSet.from_options({"yu": True}))
    assert (with_yu.is_win, with_yu.hu, with_yu.score) == (True, 12, 10)
    kai = [g for g in with_yu.groups if g.winning]
    assert len(kai) == 1 and kai[0].exposed and kai[0].hu == 6 and len(kai[0].cards) == 4
    assert not analyze_hand(hand, ["五五五"], "五").is_win


def test_api_takes_names_and_refuses_wrong_types() -> None:
    assert RuleSet(tiers="app").tiers is Tiers.APP  # type: ignore[arg-type]
    assert analyze_hand(MIN10, ["一一一"], "四", rules="app").score == 10
    with pytest.raises(InvalidHandError, match="win source"):
        WinContext("bogus")  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="圈 number"):
        WinContext(quan="3")  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="list of meld strings"):
        analyze_hand(MIN10, "一一一", "四")  # type: ignore[arg-type]


def test_full_width_and_no_break_spaces_separate_tokens() -> None:
    assert parse_cards("x1\u3000x2\xa0d3") == parse_cards("x1 x2 d3")


def test_long_bad_input_is_quoted_in_part() -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse_cards("x1 " + "q" * 100_000)
    assert len(str(info.value)) < 300


def test_output_details(capsys: pytest.CaptureFixture[str]) -> None:
    # 对抠 pays twice on a discard, and that is not called 包三家
    _, out, _ = run(capsys, "score", MIN10, "-m", "一一一", "-w", "四", "--rules", "duikou")
    assert "放炮 pays 2 × score" in out and "包三家" not in out
    # the cap is applied before the multiplier, and said so
    melds = ["-m", "壹壹壹壹", "-m", "陆陆陆陆", "-m", "捌捌捌捌", "-m", "玖玖玖玖", "-m", "拾拾拾拾", "-m", "贰贰贰贰"]
    _, out, _ = run(capsys, "score", "一", *melds, "-w", "一", "--rules", "app")
    assert "放炮 -300" in out and "capped at 100 per payer" in out
    # too few cards names the count needed
    _, out, _ = run(capsys, "score", "一一一一二二二二三四五六七八壹贰叁肆伍陆", "-w", "柒")
    assert "少牌" in out and "21 cards" in out and "with 2 quads a win holds 22" in out
    # a hand that is not one short says so
    code, out, _ = run(capsys, "waits", TIANHU_HAND)
    assert code == 1 and "is not one short of a win" in out
    code, _, err = run(capsys, "rules", "junk")
    assert code == 2 and err.startswith("erqishi: error: rules: unknown rules preset 'junk'")
    code, out, _ = run(capsys, "rules", '{"preset": "duikou", "cap": 50}')
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

"""The command line: ``erqishi score``, ``waits``, ``rules`` (issue: exit codes 0 win,
1 no win, 2 invalid input with a one-line message and no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erqishi.cli import main
from support.cli_errors import error_parts

MIN10 = "二三四五六七七七壹贰叁陆陆陆捌玖拾"
DIHU = "一一二三四四五六七七七壹贰叁陆陆陆捌玖拾"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_prints_a_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", MIN10, "--meld", "一一一", "--win", "四")
    assert code == 0
    for text in ("顺子", "坎", "对", "小和", "10 胡", "得分 score: 10", "胡家 +30", "点炮 -30"):
        assert text in out, text


def test_score_flip_payments_and_fans(capsys: pytest.CaptureFixture[str]) -> None:
    # the dihu case hand: 对 一 (1) + 坎 七 (3) + 坎 陆 (6) = 10 hu, 地胡 doubles to 20
    code, out, _ = run(capsys, "score", DIHU, "-w", "一", "--source", "flip", "--di")
    assert code == 0
    assert "地胡" in out and "得分 score: 20" in out and "胡家 +40" in out and "另一家 -20" in out


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "score", "x2 x3 x4 x5 x6 x7 x7 x7 d1 d2 d3 d6 d6 d6 d8 d9 d10", "-m", "x1 x1 x1", "-w", "x4", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert (data["win"], data["hu"], data["base"], data["tier"], data["fan"], data["score"]) == (
        True,
        10,
        10,
        "小和",
        [],
        10,
    )
    assert len(data["groups"]) == 7 and sum(g["hu"] for g in data["groups"]) == 10
    assert {r["role"]: r["amount"] for r in data["payments"]} == {"winner": 30, "other": 0, "discarder": -30}


def test_score_tian_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾"
    code, out, _ = run(capsys, "score", hand, "--tian", "--quan", "1", "--rules", "meishan", "--json")
    data = json.loads(out)
    # 12 hu, 小和 10; 圈胡 1 番 + 天胡 2 番 (眉山) = x8
    assert code == 0 and data["fan"] == ["圈胡", "天胡"] and data["score"] == 80


def test_no_win_exits_1_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", MIN10, "--meld", "一二三", "--win", "四")
    assert code == 1 and "不够十胡" in out and "9 胡" in out
    code, out, _ = run(capsys, "score", MIN10 + "九", "--meld", "一一一", "--win", "四")
    assert code == 1 and "多牌" in out
    code, out, _ = run(capsys, "score", MIN10[:-1], "--meld", "一一一", "--win", "四")
    assert code == 1 and "少牌" in out
    code, out, _ = run(capsys, "score", MIN10, "--meld", "一一一", "--win", "九", "--json")
    assert code == 1 and json.loads(out)["reason"] == "no_grouping"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["score", "x1 x2 x11", "--win", "x1"], "'x11' (token 3, character 7)"),
        (["score", "一一一一一", "--win", "二"], "5 copies of 一"),
        (["score", "一", "--win", "一", "--meld", "一一一"], "fifth copy"),
        (["score", "", "--win", "一"], "hand is empty"),
        (["score", "一二", "--meld", "一二四", "--win", "三"], "meld 1 ('一二四')"),
        (["score", "一二", "--win", "三", "--rules", "nosuch"], "unknown rules preset 'nosuch'"),
        (["score", "一二", "--win", "三", "--rules", '{"cap": 0}'], "'cap'"),
        (["score", "一二"], "--win CARD is needed"),
        (["score", MIN10, "--tian", "--win", "一"], "--tian takes no --win"),
        (["score", MIN10, "--win", "一", "--quan", "11"], "圈 number must be 1-10"),
        (["score", MIN10, "--win", "一", "--quan", "x"], "'--quan'"),
        (["score", MIN10, "--win", "一", "--source", "tian"], "use --tian"),
        (["score", MIN10, "--win", "一", "--source", "air"], "--source must be"),
        (["score", MIN10, "--win", "z9"], "--win"),
        (["score", "--cases", "/nonexistent/cases.json"], "cannot read"),
        (["waits", "一二", "--meld", "七八"], "meld 1"),
        (["nosuch"], "No such command"),
    ],
)
def test_invalid_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert fragment in error_parts(err)[1]


def test_cases_file_errors_are_per_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """FORMATS.md: bad input in one case prints {"id", "error"} and the rest continue."""
    cases = [
        {"id": "bad", "hand": "x1 q", "melds": [], "win": "x1", "context": {}},
        {
            "id": "good",
            "hand": MIN10,
            "melds": ["一一一"],
            "win": "四",
            "context": {"win_source": "discard"},
            "expect": {"win": False},
        },
        {"id": "five", "hand": "一一一一", "melds": [], "win": "一", "context": {}},
        "not an object",
    ]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    code, out, _ = run(capsys, "score", "--cases", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 4
    assert rows[0]["id"] == "bad" and "'q'" in rows[0]["error"]
    assert rows[1] == {"id": "good", "win": True, "hu": 10, "base": 10, "fan": [], "score": 10}
    assert rows[2]["id"] == "five" and "fifth copy" in rows[2]["error"]
    assert "error" in rows[3]


TIAN = "二三四五六七八九十壹壹壹贰叁肆伍陆柒柒捌拾"


def test_cases_carry_their_own_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """FORMATS.md: a case's "ruleset" (a preset name or an options object, R-10) is what it is
    scored under; --rules only sets the rule set of cases without one; a bad ruleset is that
    case's error line.

    The hand is a 天胡 in 圈 1: 坎 壹 6 + 二七十 (big) 6 = 12 hu, 小和, base 10 (R-7.2); 圈胡
    (three 圈 cards 壹 in a 坎) 1 番 and 天胡 1 番 (R-7.3): 10 × 4 = 40 under leshan; 眉山
    plays 天胡 as two 番: 10 × 8 = 80; ``tianhu: fixed_100`` pays a flat 100 listing only 天胡."""
    case = {"hand": TIAN, "melds": [], "win": None, "context": {"tian": True, "quan": 1}}
    cases = [
        {"id": "default", **case},
        {"id": "leshan", **case, "ruleset": "leshan"},
        {"id": "meishan", **case, "ruleset": "meishan"},
        {"id": "flat", **case, "ruleset": {"tianhu": "fixed_100"}},
        {"id": "nosuch", **case, "ruleset": "nosuch"},
        {"id": "number", **case, "ruleset": 5},
        {"id": "option", **case, "ruleset": {"players": 7}},
    ]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    leshan = {"win": True, "hu": 12, "base": 10, "fan": ["圈胡", "天胡"], "score": 40}
    meishan = {**leshan, "score": 80}
    flat = {"win": True, "hu": 12, "base": 10, "fan": ["天胡"], "score": 100}
    for rules, default in (([], leshan), (["--rules", "meishan"], meishan)):
        code, out, _ = run(capsys, "score", "--cases", str(path), *rules)
        rows = [json.loads(line) for line in out.splitlines()]
        assert code == 0 and [r["id"] for r in rows] == [c["id"] for c in cases]
        assert rows[0] == {"id": "default", **default}
        assert rows[1] == {"id": "leshan", **leshan}
        assert rows[2] == {"id": "meishan", **meishan}
        assert rows[3] == {"id": "flat", **flat}
        assert set(rows[4]) == {"id", "error"} and "nosuch" in rows[4]["error"]
        assert set(rows[5]) == {"id", "error"} and "ruleset" in rows[5]["error"]
        assert set(rows[6]) == {"id", "error"} and "players" in rows[6]["error"]


def test_scoring_rules_cases(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """../shared/cases/scoring-rules.json: hands under other rule sets (犍为 tiers, the
    game-hall switches, yu), each scored under its "ruleset"; the answers are its "expect"."""
    path = shared / "cases" / "scoring-rules.json"
    cases = json.loads(path.read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "score", "--cases", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["id"] for r in rows] == [c["id"] for c in cases]
    for case, row in zip(cases, rows, strict=True):
        expect = case["expect"]
        wanted = {"id": case["id"], **expect} if expect["win"] else {"id": case["id"], "win": False}
        assert row == wanted, (case["id"], case["ruleset"], case["note"])


def test_cases_file_that_is_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cases.json"
    path.write_text("[{", encoding="utf-8")
    code, _, err = run(capsys, "score", "--cases", str(path))
    assert code == 2 and "not valid JSON" in err


def test_waits_lists_winning_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", MIN10, "--meld", "一一一", "--json")
    assert code == 0
    assert [(w["card"], w["score"]) for w in json.loads(out)["waits"]] == [("x1", 10), ("x4", 10), ("x7", 10)]
    code, out, _ = run(capsys, "waits", MIN10, "--meld", "一一一")
    assert code == 0 and "下叫 waits: 3" in out
    code, out, _ = run(capsys, "waits", "一三五七九", "--json")
    assert code == 1 and json.loads(out) == {"waits": []}


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "duikou", "--json")
    assert code == 0 and json.loads(out)["players"] == 2
    code, out, _ = run(capsys, "rules", "--json")
    assert set(json.loads(out)) == {"leshan", "duikou", "meishan", "app", "jianwei"}  # the presets of R-10


def test_installed_command_never_prints_a_traceback() -> None:
    """The console script itself: exit code and stderr of a bad hand."""
    exe = Path(sys.executable).with_name("erqishi")
    proc = subprocess.run([str(exe), "score", "x1 x99", "--win", "x1"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1
    proc = subprocess.run(
        [str(exe), "score", MIN10, "-m", "一一一", "-w", "四"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and "得分 score: 10" in proc.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--bots", "heuristic"], "name 2 bots for 3 players"),
        (["--bots", "heuristic,deepblue"], "unknown bot 'deepblue'"),
        (["--rules", "duikou", "--bots", "random,random"], "name 1 bot for 2 players"),
        (["--rules", '{"players": 4}', "--bots", "random"], "name 3 bots for 4 players"),
        (["--resume", "--seed", "3"], "--resume continues the saved match with its own settings; drop --seed"),
        (["--match-quan", "0"], "--match-quan must be at least 1"),
        (["--lang", "fr"], "--lang must be zh or en"),
    ],
)
def test_play_refuses_bad_options(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, _, err = run(capsys, "play", *args)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_play_resume_without_a_saved_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--resume with nothing saved (or a damaged save) is a one-line error naming the file."""
    missing = tmp_path / "none.json"
    code, _, err = run(capsys, "play", "--resume", "--saved-file", str(missing))
    assert code == 2 and "no match in progress is saved" in err and str(missing) in err and err.count("\n") == 1
    damaged = tmp_path / "bad.json"
    damaged.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", "--saved-file", str(damaged))
    assert code == 2 and "damaged" in err and err.count("\n") == 1


def test_an_interrupted_command_is_no_success(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in any command exits 130 and says so (typer hands the code back instead of
    raising it; a script must not take an interrupted command for a success)."""
    import erqishi.cli

    def interrupted(*_: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(erqishi.cli, "_read_rules", interrupted)
    code, _, err = run(capsys, "score", MIN10, "--meld", "一一一", "--win", "四")
    assert code == 130 and "interrupted" in err


def test_the_command_list_is_in_chinese_and_english(capsys: pytest.CaptureFixture[str]) -> None:
    """``erqishi --help`` says what the program and each command do in Chinese and English
    (every screen exists in both)."""
    import re

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    commands = out.split("Commands:")[1]
    names = ["score", "waits", "verify", "replay", "play", "learn", "sim", "serve", "runs", "report", "ratings"]
    for name in [*names, "rules", "tournament"]:
        line = next(line for line in commands.splitlines() if line.strip().startswith(name + " "))
        assert re.search(r"[\u4e00-\u9fff]", line) and re.search(r"[A-Za-z]{4,}", line.split(name, 1)[1]), line
    intro = out.split("Options:")[0]
    assert "在终端或浏览器里打牌" in intro and "play in the terminal" in intro


_CJK = "[\u4e00-\u9fff]"


def _command_pages() -> list[tuple[str, list[str]]]:
    """Every command's and subcommand's ``--help`` arguments, with its name."""
    from typer.main import get_command

    from erqishi.cli import app

    root = get_command(app)
    pages: list[tuple[str, list[str]]] = []
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        pages.append((name, [name, "--help"]))
        for sub in getattr(command, "commands", {}):
            pages.append((f"{name} {sub}", [name, sub, "--help"]))
    return pages


@pytest.mark.parametrize(("name", "argv"), _command_pages(), ids=[n for n, _ in _command_pages()])
def test_every_help_page_is_in_chinese_and_english(
    capsys: pytest.CaptureFixture[str], name: str, argv: list[str]
) -> None:
    """``erqishi COMMAND --help``: what the command does in Chinese, then in English, and
    every option and argument explained in both (Chinese first, `` · ``, then English),
    ``--help`` itself included: every screen exists in both languages. Only the headings
    (``Usage:``, ``Options:``) are the library's."""
    import re

    from typer.main import get_command

    from erqishi.cli import app

    assert main(argv) == 0, name
    out = capsys.readouterr().out
    assert re.search(r"-h, --help +显示本帮助并退出 · Show this message", out), out
    assert main([*argv[:-1], "-h"]) == 0 and capsys.readouterr().out == out  # -h is --help
    intro = out.split("Options:")[0].split("\n\n", 1)[1]
    paragraphs = [p for p in intro.split("\n\n") if p.strip()]
    assert re.search(_CJK, paragraphs[0]) and re.search(r"[A-Za-z]{4,}\s+[A-Za-z]{3,}", paragraphs[-1]), out
    # every line fits an 80-column terminal, a Chinese character taking two columns
    double = _CJK + "|[，。、；：（）…]"
    wide = [line for line in out.splitlines() if len(line) + len(re.findall(double, line)) > 80]
    assert not wide, wide
    command = get_command(app)
    for part in name.split():
        command = command.commands[part]  # type: ignore[attr-defined]
    for param in command.params:
        text = getattr(param, "help", None)
        if text is None or param.name == "help":
            continue
        zh, sep, en = text.partition(" · ")
        assert sep and re.search(_CJK, zh) and re.search(r"[A-Za-z]{3,}", en), f"{name} {param.name}: {text!r}"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab c--x（）()，。·自摸胡[]`:", max_size=60), st.integers(min_value=1, max_value=40))
def test_help_lines_break_without_losing_a_character(text: str, columns: int) -> None:
    """The help's line breaker (Chinese measured in terminal columns) keeps every character
    in order, starts no line but the first with closing punctuation or the ``·`` between
    the languages, and ends no line but the last with opening punctuation."""
    from erqishi.cli import _NO_END, _NO_START, _wrap_wide

    lines = _wrap_wide(text, columns)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line[:1] in _NO_START and line[:1] for line in lines[1:]), lines
    assert not any(line[-1:] in _NO_END and line[-1:] for line in lines[:-1]), lines

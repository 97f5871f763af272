"""Every error of the command line is one line in Chinese and English:
``erqishi: error: 中文 · English`` (every screen exists in both languages), exit code 2.

The English part is the message other tests and scripts read; the Chinese part says the
same, or, for an error raised below the command line (a bad card, a hand that is no hand,
bad rules), its kind in Chinese with the offending token, the details being in the English.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

from conftest import ROOT
from erqishi.cli import main
from support.cli_errors import error_parts

CLI = ROOT / "src" / "erqishi" / "cli.py"
_CJK = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")  # characters, Chinese punctuation


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _calls(name: str) -> list[ast.Call]:
    tree = ast.parse(CLI.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]


def test_every_error_the_cli_writes_has_its_chinese() -> None:
    """Read in the source: each ``_fail``/``_unreadable``/``_error_line`` call gives a
    Chinese text and an English one, and no error line is written any other way."""
    source = CLI.read_text(encoding="utf-8")
    calls = _calls("_fail") + _calls("_unreadable") + _calls("_error_line")
    assert len(calls) > 60
    for call in calls:
        where = f"cli.py line {call.lineno}"
        if len(call.args) == 1 and isinstance(call.args[0], ast.Starred):  # _fail(*_cannot_read(...))
            continue
        assert len(call.args) == 2 and not call.keywords, where
        zh, en = (ast.get_source_segment(source, a) or "" for a in call.args)
        if isinstance(call.args[0], ast.Constant | ast.JoinedStr):
            assert _CJK.search(zh), f"{where}: no Chinese in {zh}"
        if isinstance(call.args[1], ast.Constant | ast.JoinedStr):
            assert not _CJK.search(en.split("{")[0][:12]), f"{where}: the English part opens in Chinese: {en}"
    written = [line for line in source.splitlines() if '"erqishi: error:' in line]
    assert written == ['    return f"erqishi: error: {_visible(zh)} · {_visible(en)}\\n"'], written


@pytest.mark.parametrize(
    ("args", "zh", "en"),
    [
        # usage errors (the command-line library's own, English): their kind in Chinese
        (["score", "--bogus"], "没有 --bogus 这个选项", "No such option: --bogus"),
        (["sim", "--hands", "x"], "--hands 要是整数", "Invalid value for '--hands'"),
        (["sim", "--hands"], "--hands 后面要跟一个值", "requires an argument"),
        (["score", "一", "--json=yes"], "--json 不带值", "does not take a value"),
        (["score", "--jsn"], "没有 --jsn 这个选项（是不是 --json", "No such option: --jsn"),
        (["score", "一", "二", "--win", "三"], "多给了参数：二", "unexpected extra argument"),
        (["nosuch"], "没有 nosuch 这个命令", "No such command 'nosuch'"),
        (["wait"], "没有 wait 这个命令（是不是 waits？）", "Did you mean 'waits'?"),
        (["tournament", "show"], "缺少 ID", "Missing argument 'ID'"),
        # the commands' own checks
        (["sim", "--hands", "0"], "--hands 至少为 1，不是 0", "--hands must be at least 1, got 0"),
        (["sim", "--bots", "nosuch,random"], "没有 'nosuch' 这个机器人", "unknown bot 'nosuch'"),
        (["sim", "--permutations", "--no-db"], "要和 --duplicate 一起用", "--permutations goes with --duplicate"),
        (["sim", "--backend", "cloud"], "只能是 local 或 ray", "--backend must be local or ray"),
        (["play", "--lang", "fr"], "只能是 zh 或 en", "--lang must be zh or en, got 'fr'"),
        (["learn", "nosuch"], "没有 'nosuch' 这一课", "no lesson 'nosuch'"),
        (["serve", "--port", "0"], "1-65535", "--port must be 1-65535, got 0"),
        (["serve", "--advertise", "http://x"], "要和 --redis 一起用", "--advertise needs --redis"),
        (["replay"], "缺少记录文件", "missing RECORD"),
        (["verify", "/nonexistent/hand.json"], "读不了 /nonexistent/hand.json", "cannot read /nonexistent/hand.json"),
        (["runs", "--db", ""], "--db 不能为空", "Invalid value for '--db': is empty"),
        (["sim", "-n", "3", "--db", " "], "--db 不能为空", "Invalid value for '--db': is empty"),
        (["runs", "--db", "/nonexistent/sim.db"], "没有 /nonexistent/sim.db 这个文件", "--db: no such file"),
        (["ratings", "--tau", "-1"], "--tau 应是 0 到", "--tau must be a number from 0"),
        (["tournament", "run", "--players", "a,b,c"], "没有 'a' 这个机器人", "unknown bot 'a'"),
        (["tournament", "run", "--players", "random", "--field", "9"], "只能给一个", "give --players or --field"),
        # errors from below the command line: the kind in Chinese, the details in English
        (["score", "一二q五", "--win", "一"], "手牌：牌 'q'（第 3 项，从第 3 个字符起）：牌写作", "hand: bad card 'q'"),
        (["score", "一一一一一", "--win", "二"], "一 有 5 张（手牌和亮出的房合计），一副牌只有 4 张", "5 copies of 一"),
        (
            ["score", "一二", "--meld", "一二四", "--win", "三"],
            "亮出的第 1 房：'一二四' 不成房：一房是三张相同的（对）",
            "meld 1 ('一二四')",
        ),
        (
            ["score", "一二三", "-m", "一一一+一", "--win", "三"],
            "对加第四张成的开只在 yu（下雨）选项下算一房",
            "under the yu option",
        ),
        (["score", "一", "--win", "二", "--quan", "0"], "第几圈应是 1-10，不是 0", "圈 number must be 1-10, got 0"),
        (
            ["score", "一二", "--win", "三", "--rules", "nosuch"],
            "--rules：没有 'nosuch' 这个预设；预设有 leshan、",
            "unknown",
        ),
        (["rules", "nosuch"], "没有 'nosuch' 这个预设", "rules: unknown rules preset 'nosuch'"),
        (["rules", '{"cap": 0}'], "选项 cap 应是正整数或 null，不是 0", "option 'cap' must be a positive"),
        (["score", "一二", "--win", "z9"], "--win：牌 'z9'（第 1 项，从第 1 个字符起）", "--win: bad card 'z9'"),
        (
            ["score", "一二", "--win", "十一"],
            "--win：牌 '十一'（第 1 项，从第 1 个字符起）：只能给一张牌，这里是 2 张",
            "not 2",
        ),
    ],
)
def test_an_error_is_one_line_in_chinese_and_english(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    zh: str,
    en: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing is written where the tests run
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), err
    got_zh, got_en = error_parts(err)
    assert zh in got_zh, err
    assert en in got_en, err


def test_a_stored_record_that_is_missing_says_so_in_both_languages(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``replay``/``verify`` with ``--db``: the record's errors (FORMATS.md keeps ``verify
    --json`` in English) are Chinese and English on the terminal."""
    missing = tmp_path / "none.db"
    for command in ("replay", "verify"):
        code, out, err = run(capsys, command, "--db", str(missing), "--run", "1", "--hand", "0")
        assert (code, out) == (2, "")
        zh, en = error_parts(err)
        assert zh == f"--db：没有 {missing} 这个文件" and en == f"--db: no such file {missing}"


def test_what_the_terminal_must_not_get_is_escaped_or_masked(capsys: pytest.CaptureFixture[str]) -> None:
    """A file name with a line break or an escape sequence stays one line of text; the
    password of a database URL is never printed."""
    code, _, err = run(capsys, "verify", "a\nb\x1b[31m.json")
    assert code == 2
    zh, en = error_parts(err)
    assert "\x1b" not in err and "a\\nb\\x1b[31m.json" in en and "a\\nb" in zh
    for args in (
        ["runs", "--db", "postgresql://u@127.0.0.1:1/db?password=s3cret"],
        ["runs", "--db", "postgresql://u:s3cret@127.0.0.1:1/db"],
        ["replay", "--db", "postgresql://u:s3cret@127.0.0.1:1/db", "--run", "1", "--hand", "0"],
        ["ratings", "--db", "postgresql://u:s3@cret@127.0.0.1:1/db"],
    ):
        code, out, err = run(capsys, *args)
        assert code == 2 and "s3" not in err + out and "cret" not in err + out, err
        assert "postgresql://u:***@127.0.0.1:1/db" in error_parts(err)[1] or "password=***" in err
    # verify --json prints the verdict (FORMATS.md) on standard output: masked too
    code, out, _ = run(
        capsys, "verify", "--json", "--db", "postgresql://u:s3cret@127.0.0.1:1/db", "--run", "1", "--hand", "0"
    )
    assert code == 2 and "s3cret" not in out and "postgresql://u:***@127.0.0.1:1/db" in json.loads(out)["error"]


def test_a_save_nested_too_deeply_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A saved match or lesson progress of deeply nested JSON: one line, not a traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", "--saved-file", str(deep))
    assert code == 2
    zh, en = error_parts(err)
    assert "存档已损坏：JSON 嵌套太深" in zh and "nested too deeply" in en
    code, _, err = run(capsys, "learn", "--progress", str(deep))
    assert code == 2
    zh, en = error_parts(err)
    assert "不是课程进度：JSON 嵌套太深" in zh and "nested too deeply" in en


def test_a_damaged_save_or_record_says_what_in_both_languages(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A saved match naming a bot that does not exist, or a random state that is none: one
    line, not a traceback; a record's bad rule option: the option's own Chinese."""
    from erqishi.tui import resume

    saved = tmp_path / "saved.json"
    good = {
        "kind": resume._KIND,
        "format": resume.FORMAT,
        "seed": 1,
        "bots": ["random", "random"],
        "human_seat": 0,
        "declared": {},
        "bot_rngs": {},
        "hands": [],
        "actions": [],
        "hint_rng": list(random.Random(1).getstate()),
        "rules": "leshan",
    }
    for change, zh in (
        ({"bots": ["bogus", "random"]}, "存档已损坏：bots 应是机器人的名字"),
        ({"hint_rng": [3, [1, 2, 3], None]}, "存档已损坏：hint_rng 应是随机数发生器的状态"),
    ):
        saved.write_text(json.dumps({**good, **change}), encoding="utf-8")
        code, _, err = run(capsys, "play", "--resume", "--saved-file", str(saved))
        assert code == 2 and zh in error_parts(err)[0], err
    # a saved move the engine refuses: where, and the engine's reason in Chinese too
    saved.write_text(json.dumps({**good, "actions": [[0, "kai"]]}), encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", "--saved-file", str(saved))
    zh, en = error_parts(err)
    assert code == 2 and "存档已损坏：第 1 手第 1 步：" in zh and "hand 1, step 1" in en, err
    assert not zh.endswith("这一步不合规则"), err
    record = tmp_path / "hand.json"
    record.write_text(json.dumps({"format": 1, "rules": {"cap": 0}}), encoding="utf-8")
    code, _, err = run(capsys, "verify", str(record))
    assert code == 2
    zh, en = error_parts(err)
    assert "牌局记录无效：rules：选项 cap 应是正整数或 null" in zh and "option 'cap'" in en


def test_verify_and_replay_say_why_a_step_is_illegal_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    """R-5.5: a seat that took a card must discard; the record's pass at step 3 is illegal.
    ``verify`` and ``replay`` word the engine's reason in Chinese, beside its English."""
    record = str(ROOT / "tests" / "data" / "records" / "r4-1-kai-then-no-discard-rejected.json")
    code, out, _ = run(capsys, "verify", record)
    assert code == 1
    assert out.strip() == (
        "不合规则 illegal: 第 3 步 step 3 (actions[2]): 进了牌要先打一张（R-5.5） · "
        "R-5.5: seat 1 must discard after the take, not pass"
    )
    code, out, _ = run(capsys, "replay", record)
    assert code == 1 and out.rstrip().endswith("第 3 步（actions[2]）不合规则：进了牌要先打一张（R-5.5）")

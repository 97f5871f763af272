"""The README stays truthful: its Python example runs and gives what it says, and its
example command scores a win."""

from __future__ import annotations

import re
import shlex

import pytest

from conftest import ROOT
from erqishi.cli import main

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_python_example_runs_and_matches_its_comments() -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    lines = block.group(1).splitlines()
    for line in lines:
        code, _, comment = line.partition("#")
        if not code.strip():
            continue
        if "=" in code.split("(")[0] or code.startswith(("from", "import")):
            exec(code, namespace)
        else:
            value = eval(code, namespace)
            if comment.strip():
                assert repr(value) == comment.strip(), line


def test_first_command_starts_the_terminal_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The main job is the terminal game (driven headless in test_tui.py); here: the
    command exists as written."""
    match = re.search(r"bash scripts/setup.sh && \.venv/bin/erqishi (.*)\n", README)
    assert match is not None and shlex.split(match.group(1)) == ["play"]
    assert main(["play", "--help"]) == 0
    assert "Play 贰柒拾 in the terminal" in capsys.readouterr().out


def test_score_example_command(capsys: pytest.CaptureFixture[str]) -> None:
    match = re.search(r"\n\.venv/bin/erqishi (score 二三四.*)\n", README)
    assert match is not None
    assert main(shlex.split(match.group(1))) == 0
    assert "得分 score: 10" in capsys.readouterr().out


def test_every_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})

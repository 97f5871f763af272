"""Every worked hand of ``../shared/cases/scoring.json`` (read in place), through the API
and through ``erqishi score --cases`` (FORMATS.md machine output)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_dir
from erqishi.cli import main
from erqishi.core import Card, WinContext, WinSource, analyze_hand


def _cases() -> list[dict[str, Any]]:
    path = shared_dir() / "cases" / "scoring.json"
    assert path.is_file(), f"worked cases not found at {path}"
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


CASES = _cases()


def _context(case: dict[str, Any]) -> WinContext:
    ctx = case["context"]
    source = WinSource.TIAN if ctx.get("tian") else WinSource(ctx.get("win_source", "discard"))
    return WinContext(source, bool(ctx.get("di", False)), ctx.get("quan"))


def test_there_are_cases() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_worked_case(case: dict[str, Any]) -> None:
    win = None if case["win"] is None else Card.parse(case["win"])
    result = analyze_hand(case["hand"], case["melds"], win, _context(case))
    expect = case["expect"]
    got: dict[str, Any] = {"win": result.is_win}
    if result.is_win:
        got.update(hu=result.hu, base=result.base, fan=sorted(result.fan_names), score=result.score)
    assert got == {k: sorted(v) if k == "fan" else v for k, v in expect.items()}, case["note"]
    if result.is_win:
        # the grouping shown is real: 7 groups holding exactly the cards, hu adding up
        assert len(result.groups) == 7
        assert sum(g.hu for g in result.groups) == result.hu
        cards = sorted(c for g in result.groups for c in g.cards)
        given = sorted(
            [Card.parse(ch) for ch in case["hand"]]
            + [Card.parse(ch) for m in case["melds"] for ch in m]
            + ([] if win is None else [win])
        )
        assert cards == given


def test_cases_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """FORMATS.md: one JSON object per line, per case, in order."""
    code = main(["score", "--cases", str(Path(shared_dir()) / "cases" / "scoring.json")])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(CASES)
    for line, case in zip(lines, CASES, strict=True):
        got = json.loads(line)
        assert got["id"] == case["id"]
        expect = case["expect"]
        if expect["win"]:
            assert list(got) == ["id", "win", "hu", "base", "fan", "score"]
        else:
            assert got == {"id": case["id"], "win": False}
        for key, value in expect.items():
            assert got[key] == value, (case["id"], key)

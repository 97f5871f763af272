"""Every worked hand of ``../shared/cases/scoring.json`` (leshan) and
``../shared/cases/scoring-rules.json`` (each under its ``ruleset``, R-10), read in place,
through the API; ``scoring.json`` also through ``erqishi score --cases`` (FORMATS.md
machine output)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_dir
from erqishi.cli import main
from erqishi.core import Card, RuleSet, WinContext, WinSource, analyze_hand

CASE_FILES = ("scoring.json", "scoring-rules.json")


def _load(shared: Path, name: str) -> list[dict[str, Any]]:
    path = shared / "cases" / name
    assert path.is_file(), f"worked cases not found at {path}"
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _ids() -> list[tuple[str, str]]:
    """(file, id) of every case, read at collection; each test reads its case again
    through the ``shared`` fixture (which fails when the directory is missing)."""
    out: list[tuple[str, str]] = []
    for name in CASE_FILES:
        path = shared_dir() / "cases" / name
        cases = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else [{"id": "missing"}]
        out += [(name, c["id"]) for c in cases]
    return out


IDS = _ids()


def _context(case: dict[str, Any]) -> WinContext:
    ctx = case["context"]
    source = WinSource.TIAN if ctx.get("tian") else WinSource(ctx.get("win_source", "discard"))
    return WinContext(source, bool(ctx.get("di", False)), ctx.get("quan"))


def test_there_are_cases(shared: Path) -> None:
    assert len(_load(shared, "scoring.json")) >= 20
    rules_cases = _load(shared, "scoring-rules.json")
    assert len(rules_cases) >= 10 and all("ruleset" in c for c in rules_cases)


@pytest.mark.parametrize(("name", "case_id"), IDS, ids=[f"{n}:{i}" for n, i in IDS])
def test_worked_case(shared: Path, name: str, case_id: str) -> None:
    cases = {c["id"]: c for c in _load(shared, name)}
    assert case_id in cases
    case = cases[case_id]
    # the case's ruleset as the file gives it (a preset name or an object of options):
    # analyze_hand takes either, in both builds
    rules = case.get("ruleset", "leshan")
    win = None if case["win"] is None else Card.parse(case["win"])
    result = analyze_hand(case["hand"], case["melds"], win, _context(case), rules)
    assert result == analyze_hand(case["hand"], case["melds"], win, _context(case), RuleSet.load(rules))
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
            + [Card.parse(ch) for m in case["melds"] for ch in m if ch != "+"]
            + ([] if win is None else [win])
        )
        assert cards == given
        # the fan list is sorted by code point, as in the cases
        assert result.fan_names == sorted(result.fan_names)


def test_cases_through_the_command_line(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """FORMATS.md: one JSON object per line, per case, in order."""
    cases = _load(shared, "scoring.json")
    code = main(["score", "--cases", str(shared / "cases" / "scoring.json")])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(cases)
    for line, case in zip(lines, cases, strict=True):
        got = json.loads(line)
        assert got["id"] == case["id"]
        expect = case["expect"]
        if expect["win"]:
            assert list(got) == ["id", "win", "hu", "base", "fan", "score"]
        else:
            assert got == {"id": case["id"], "win": False}
        for key, value in expect.items():
            assert got[key] == value, (case["id"], key)

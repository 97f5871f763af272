"""erqishi verify on record files (FORMATS.md): unreadable files are one-line errors, match
records are checked as matches (R-2.2, R-2.4, R-8.3), required fields."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_dir
from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.play import play_match, random_chooser

RECORDS = shared_dir() / "cases" / "records"


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

"""``erqishi verify`` per FORMATS.md "Machine output": typed results and verdicts, files
that are no valid record (one JSON object each, exit 2), and records whose own ``result``
differs from the replay (``result_matches``/``stated``, and in words).

Expected values come from ../shared/cases/records (the worked records and their verdicts
in index.json) and from the edits each test makes; never from the code under test.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import shared_dir
from erqishi.cli import main
from erqishi.core import RecordError, RuleSet, WinSource
from erqishi.core.engine import Deal, OutcomeKind
from erqishi.play import play_hand, play_match, random_chooser
from erqishi.records import (
    HandRecord,
    HandVerdict,
    InvalidVerdict,
    MatchVerdict,
    RecordFieldError,
    RecordResult,
    load_record,
    parse_record,
    verify,
)

RECORDS = shared_dir() / "cases" / "records"
INDEX: dict[str, dict[str, Any]] = {
    e["file"]: e["expect"] for e in json.loads((RECORDS / "index.json").read_text(encoding="utf-8"))
}
#: game-02.json: a win of seat 0 on a discard, 15 hu, no 番, score 20 (index.json)
GAME_02 = INDEX["game-02.json"]["result"]


def record_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: Any, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def verify_json(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, Any], str]:
    """``erqishi verify PATH --json``: exit code, the one object printed, stderr."""
    code, out, err = run(capsys, "verify", str(path), "--json")
    assert out.count("\n") == 1, out
    data: dict[str, Any] = json.loads(out)
    return code, data, err


# -- typed results ---------------------------------------------------------------------


def test_a_result_is_read_typed_and_written_back_as_it_was() -> None:
    result = RecordResult.from_json(GAME_02, 3)
    assert result == RecordResult(OutcomeKind.WIN, (60, -60, 0), 0, WinSource.DISCARD, 15, (), 20)
    assert result.is_win and result.to_json() == GAME_02
    assert list(result.to_json()) == ["kind", "winner", "source", "hu", "fan", "score", "payments"]
    dead = RecordResult.from_json({"kind": "dead", "payments": [0, 0, 0]}, 3)
    assert dead == RecordResult(OutcomeKind.DEAD, (0, 0, 0)) and not dead.is_win
    assert dead.to_json() == {"kind": "dead", "payments": [0, 0, 0]}


@pytest.mark.parametrize("name", [n for n in INDEX if n.startswith("game-")])
def test_a_worked_record_is_written_back_byte_for_byte(name: str) -> None:
    """The game-NN files were written by a program in the format's key order: read and
    written again they are the same text."""
    text = (RECORDS / name).read_text(encoding="utf-8")
    record = load_record(text)
    assert isinstance(record, HandRecord) and record.result is not None
    assert record.result.to_json() == INDEX[name]["result"]
    assert json.dumps(record.to_json(), ensure_ascii=False) == text.strip()


def test_records_written_from_the_engine_keep_their_json() -> None:
    """The typed result writes what the engine's outcome writes, key for key."""
    for seed in range(30):
        rng = random.Random(seed)
        played = play_hand(Deal.shuffled(rng, seed % 3), random_chooser(rng), quan=seed % 10 + 1)
        expected = {**played.record.to_json(), "result": played.outcome.to_json()}
        typed = played.record.with_result(played.outcome)
        assert typed.result == RecordResult.from_outcome(played.outcome)
        for data in (typed.to_json(), played.record.to_json(played.outcome)):
            assert json.dumps(data, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)


def test_fan_order_is_no_difference() -> None:
    a = RecordResult(OutcomeKind.WIN, (-40, 80, -40), 1, WinSource.FLIP, 15, ("坤胡", "瞟胡"), 80)
    b = RecordResult(OutcomeKind.WIN, (-40, 80, -40), 1, WinSource.FLIP, 15, ("瞟胡", "坤胡"), 80)
    assert a.differences(b) == ()
    assert a.differences(RecordResult(OutcomeKind.DEAD, (0, 0, 0))) == (
        "kind", "winner", "source", "hu", "fan", "score", "payments"
    )  # fmt: skip


def test_an_inconsistent_result_cannot_be_made() -> None:
    with pytest.raises(RecordError):
        RecordResult(OutcomeKind.WIN, (0, 0, 0))
    with pytest.raises(RecordError):
        RecordResult(OutcomeKind.DEAD, (0, 0, 0), winner=1)


# -- files that are no valid record -----------------------------------------------------


def _edit(data: dict[str, Any], change: str) -> None:
    result = data.get("result")
    if change == "no actions":
        del data["actions"]
    elif change == "no deal":
        del data["deal"]
    elif change == "card in deal.hands[1]":
        cards = data["deal"]["hands"][1].split()
        cards[4] = "x11"
        data["deal"]["hands"][1] = " ".join(cards)
    elif change == "result.score":
        result["score"] = "20"
    elif change == "result.winner":
        result["winner"] = 7
    elif change == "result.fan":
        result["fan"] = ["清一色"]
    elif change == "result.source":
        result["source"] = "air"
    elif change == "result.kind":
        result["kind"] = "draw"
    elif change == "result.payments":
        result["payments"] = [60, -60]
    elif change == "result.hu":
        result["hu"] = None
    elif change == "result":
        data["result"] = [1, 2]
    else:
        raise AssertionError(change)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ("no actions", "actions: is missing"),
        ("no deal", "deal: must be an object"),
        ("card in deal.hands[1]", "deal.hands[1]: bad card 'x11'"),
        ("result.score", "result.score: must be an integer"),
        ("result.winner", "result.winner: must be a seat 0-2, got 7"),
        ("result.fan", "result.fan[0]: must be one of"),
        ("result.source", "result.source: must be one of discard, flip, own_flip, tian"),
        ("result.kind", "result.kind: must be 'win' or 'dead'"),
        ("result.payments", "result.payments: must be 3 integers (one per seat)"),
        ("result.hu", "result.hu: must be an integer"),
        ("result", "result: must be an object"),
    ],
)
def test_an_invalid_record_prints_one_object_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, fragment: str
) -> None:
    data = record_data("game-02.json")
    _edit(data, change)
    path = write(tmp_path, data)
    code, verdict, err = verify_json(capsys, path)
    assert code == 2 and err == ""
    assert list(verdict) == ["ok", "invalid", "step", "error"]
    assert (verdict["ok"], verdict["invalid"], verdict["step"]) == (False, True, None)
    assert fragment in verdict["error"], verdict["error"]
    # without --json: today's one line on stderr
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("erqishi: error: ")
    assert fragment in err
    with pytest.raises(RecordError, match=re.escape(fragment)):
        parse_record(data)


@pytest.mark.parametrize(
    ("step", "entry", "fragment"),
    [
        (3, [0, "discard z9"], "actions[3]: bad card 'z9'"),
        (0, [0, "chow x1 x2"], "actions[0]: bad action 'chow'"),
        (4, "pass", 'actions[4]: must be [seat, "action"]'),
        (2, [1], 'actions[2]: must be [seat, "action"]'),
        (5, ["one", "pass"], 'actions[5]: must be [seat, "action"]'),
    ],
)
def test_an_unreadable_action_gives_its_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], step: int, entry: Any, fragment: str
) -> None:
    data = record_data("game-02.json")
    data["actions"][step] = entry
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 2
    assert verdict == {"ok": False, "invalid": True, "step": step, "error": verdict["error"]}
    assert fragment in verdict["error"], verdict["error"]
    with pytest.raises(RecordFieldError) as info:
        parse_record(data)
    assert (info.value.step, info.value.hand, info.value.field) == (step, None, f"actions[{step}]")


def test_bad_json_not_utf8_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"format": 1, "rules": ', encoding="utf-8")
    latin = tmp_path / "latin.json"
    latin.write_bytes(json.dumps(record_data("game-02.json"), ensure_ascii=False).encode("utf-8") + b"\xff\xfe")
    missing = tmp_path / "missing.json"
    for path, fragment in ((bad_json, "not valid JSON"), (latin, "is not UTF-8"), (missing, "cannot read")):
        code, verdict, err = verify_json(capsys, path)
        assert code == 2 and err == ""
        assert list(verdict) == ["ok", "invalid", "step", "error"]
        assert (verdict["ok"], verdict["invalid"], verdict["step"]) == (False, True, None)
        assert fragment in verdict["error"] and str(path) in verdict["error"]
        code, out, err = run(capsys, "verify", str(path))
        assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err
    assert not missing.exists()


def test_an_unreadable_action_in_a_match_names_its_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = RuleSet.from_options({"match_quan": 1})
    data = play_match(random.Random(5), random_chooser(random.Random(6)), rules).to_json()
    assert isinstance(data["hands"], list) and len(data["hands"]) >= 2
    data["hands"][1]["actions"][2] = [0, "discard q5"]
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 2
    assert list(verdict) == ["ok", "invalid", "hand", "step", "error"]
    assert (verdict["hand"], verdict["step"]) == (1, 2)
    assert "hands[1].actions[2]: bad card 'q5'" in verdict["error"]
    data["hands"][1]["actions"][2] = [0, "pass"]
    data["hands"][0]["deal"]["dealer"] = "x"
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 2 and (verdict["hand"], verdict["step"]) == (0, None)
    assert "hands[0].deal.dealer" in verdict["error"]


def test_a_stored_hand_that_cannot_be_read_prints_one_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    code, out, _ = run(capsys, "verify", "--db", str(missing), "--run", "1", "--hand", "0", "--json")
    verdict = json.loads(out)
    assert code == 2 and verdict["invalid"] is True and verdict["step"] is None and "no such file" in verdict["error"]
    db = str(tmp_path / "runs.db")
    assert run(capsys, "sim", "-n", "2", "--db", db)[0] == 0
    code, out, _ = run(capsys, "verify", "--db", db, "--run", "7", "--hand", "0", "--json")
    verdict = json.loads(out)
    assert code == 2 and verdict["invalid"] is True and "no sim run 7" in verdict["error"]
    code, out, _ = run(capsys, "verify", "--db", db, "--run", "1", "--hand", "0", "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_usage_errors_stay_one_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "verify", "--json")
    assert code == 2 and out == "" and "missing RECORD" in err and err.count("\n") == 1


# -- a stated result that differs -------------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "stated"),
    [
        ({"score": 40}, {"score": 40}),
        ({"winner": 1}, {"winner": 1}),
        ({"payments": [60, 0, -60]}, {"payments": [60, 0, -60]}),
        ({"payments": [80, -60, 0]}, {"payments": [80, -60, 0]}),  # not even summing to 0
        ({"score": 40, "hu": 25, "fan": ["坤胡"]}, {"hu": 25, "fan": ["坤胡"], "score": 40}),
        ({"source": "flip", "payments": [40, -20, -20]}, {"source": "flip", "payments": [40, -20, -20]}),
    ],
)
def test_an_edited_result_is_reported_as_stated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict[str, Any], stated: dict[str, Any]
) -> None:
    data = record_data("game-02.json")
    data["result"].update(edit)
    path = write(tmp_path, data)
    code, verdict, _ = verify_json(capsys, path)
    assert code == 0  # the exit code stays that of the verdict: a legal, finished hand
    assert verdict == {"ok": True, "finished": True, "result": GAME_02, "result_matches": False, "stated": stated}
    assert list(verdict) == ["ok", "finished", "result", "result_matches", "stated"]
    assert list(verdict["stated"]) == list(stated)
    typed = verify(load_record(path.read_text(encoding="utf-8")))
    assert isinstance(typed, HandVerdict) and typed.result_matches is False
    assert typed.differences() == tuple(stated)
    # in words, naming each field: stated vs computed
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0
    assert "seat 0 wins (discard)" in out and "score 20" in out
    assert "differs" in out and "不符" in out
    computed = {"score": "20", "winner": "0", "hu": "15", "fan": "[]", "source": "discard", "payments": "[60, -60, 0]"}
    for name, value in stated.items():
        line = next(x for x in out.splitlines() if f" {name}:" in x)
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, list) else str(value)
        assert f"stated {shown}" in line and f"computed {computed[name]}" in line, line


def test_a_dead_hand_stated_for_a_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record_data("game-02.json")
    data["result"] = {"kind": "dead", "payments": [0, 0, 0]}
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 0 and verdict["result"] == GAME_02
    # a field the file does not state is null
    assert verdict["stated"] == {
        "kind": "dead", "winner": None, "source": None, "hu": None, "fan": None, "score": None, "payments": [0, 0, 0]
    }  # fmt: skip


def test_a_win_stated_for_a_dead_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record_data("game-10.json")
    assert INDEX["game-10.json"]["result"] == {"kind": "dead", "payments": [0, 0, 0]}
    data["result"] = {"kind": "win", "winner": 2, "source": "own_flip", "hu": 12, "fan": [], "score": 10,
                      "payments": [-10, -10, 20]}  # fmt: skip
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 0 and verdict["result"] == {"kind": "dead", "payments": [0, 0, 0]}
    assert verdict["stated"] == {
        "kind": "win", "winner": 2, "source": "own_flip", "hu": 12, "fan": [], "score": 10, "payments": [-10, -10, 20]
    }  # fmt: skip


def test_an_unfinished_hand_that_states_a_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record_data("chi-on-discard.json")
    assert INDEX["chi-on-discard.json"] == {"ok": True, "finished": False}
    data["result"] = {"kind": "dead", "payments": [0, 0, 0]}
    path = write(tmp_path, data)
    code, verdict, _ = verify_json(capsys, path)
    assert code == 0
    assert verdict == {
        "ok": True,
        "finished": False,
        "result_matches": False,
        "stated": {"kind": "dead", "payments": [0, 0, 0]},
    }
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and "未完 unfinished" in out and "stated dead" in out


def test_an_illegal_record_is_not_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record_data("guozhang.json")
    data["result"] = {"kind": "dead", "payments": [0, 0, 0]}
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 1 and list(verdict) == ["ok", "step", "error"] and verdict["step"] == 2


def test_a_matching_result_adds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record_data("game-02.json")
    data["result"] = dict(reversed(list(data["result"].items())))  # other key order, same values
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 0 and verdict == {"ok": True, "finished": True, "result": GAME_02}


def _match() -> dict[str, Any]:
    """A finished match of one 圈 written by the engine (FORMATS.md match record), the
    first of seeds 0, 1, 2… with a hand won."""
    rules = RuleSet.from_options({"match_quan": 1})
    for seed in range(200):
        data: dict[str, Any] = play_match(random.Random(seed), random_chooser(random.Random(seed)), rules).to_json()
        if any(h["result"]["kind"] == "win" for h in data["hands"]):
            return data
    raise AssertionError("no match with a win in 200 seeds")


def test_a_match_whose_totals_or_hands_were_edited(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _match()
    hands = data["hands"]
    # R-8.3: the totals are the sums of the hands' payments
    sums = [sum(h["result"]["payments"][s] for h in hands) for s in range(3)]
    assert data["totals"] == sums
    code, verdict, _ = verify_json(capsys, write(tmp_path, data))
    assert code == 0 and "result_matches" not in verdict and verdict["result"]["totals"] == sums

    edited = copy.deepcopy(data)
    edited["totals"] = [sums[0] + 100, sums[1] - 100, sums[2]]
    path = write(tmp_path, edited)
    code, verdict, _ = verify_json(capsys, path)
    assert code == 0 and verdict["finished"] is True and verdict["result"]["totals"] == sums
    assert list(verdict) == ["ok", "finished", "hands", "result", "result_matches", "stated"]
    assert verdict["result_matches"] is False and verdict["stated"] == {"totals": edited["totals"]}
    assert all("result_matches" not in h for h in verdict["hands"])
    code, out, _ = run(capsys, "verify", str(path))
    line = next(x for x in out.splitlines() if " totals:" in x)
    assert f"stated {json.dumps(edited['totals'])}" in line and f"computed {json.dumps(sums)}" in line

    edited = copy.deepcopy(data)
    index = next(i for i, h in enumerate(hands) if h["result"]["kind"] == "win")
    score = hands[index]["result"]["score"]
    edited["hands"][index]["result"]["score"] = score + 10
    path = write(tmp_path, edited)
    code, verdict, _ = verify_json(capsys, path)
    assert code == 0 and verdict["result"]["totals"] == sums
    assert verdict["hands"][index]["result_matches"] is False
    assert verdict["hands"][index]["stated"] == {"score": score + 10}
    assert verdict["hands"][index]["result"] == hands[index]["result"]
    assert verdict["result_matches"] is False and verdict["stated"] == {"hands": {str(index): {"score": score + 10}}}
    typed = verify(load_record(path.read_text(encoding="utf-8")))
    assert isinstance(typed, MatchVerdict) and typed.differing_hands == (index,) and typed.totals_match is True
    code, out, _ = run(capsys, "verify", str(path))
    line = next(x for x in out.splitlines() if f"hands[{index}]" in x)
    assert f"score: 记录写 stated {score + 10}" in line and f"computed {score}" in line


def test_verdicts_are_typed_values() -> None:
    hand = verify(load_record((RECORDS / "game-02.json").read_text(encoding="utf-8")))
    assert isinstance(hand, HandVerdict)
    assert (hand.ok, hand.finished, hand.exit_code, hand.result_matches) == (True, True, 0, True)
    assert hand.result is not None and hand.result.to_json() == GAME_02
    assert hand.to_json()["result"] == GAME_02 and "step" not in hand.to_json()
    illegal = verify(load_record((RECORDS / "guozhang.json").read_text(encoding="utf-8")))
    assert (illegal.ok, illegal.step, illegal.exit_code) == (False, 2, 1)
    invalid = InvalidVerdict.from_error(RecordFieldError("actions[3]: bad", field="actions[3]", step=3), "r.json")
    assert invalid.to_json() == {"ok": False, "invalid": True, "step": 3, "error": "r.json: actions[3]: bad"}
    assert invalid.exit_code == 2


def test_a_match_hand_in_the_wrong_quan_names_both_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-2.4: every hand of 圈 1 is played with quan 1; a hand that states null instead is
    an illegal step of the match, and the message writes the values as the record does
    (FORMATS.md: JSON), not as Python (None)."""
    data = _match()
    assert len(data["hands"]) >= 2 and data["hands"][1]["quan"] == 1
    edited = copy.deepcopy(data)
    edited["hands"][1]["quan"] = None
    code, verdict, _ = verify_json(capsys, write(tmp_path, edited))
    assert code == 1 and verdict["ok"] is False
    assert "R-2.4" in verdict["error"] and "must be 1, not null" in verdict["error"]
    assert "None" not in verdict["error"]

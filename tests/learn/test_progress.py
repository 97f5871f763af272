"""The lessons' saved progress (erqishi.learn.progress): stars 1-3 per lesson, the best kept,
unknown lessons and bad values dropped, a damaged file a clear error that names it, and the
file written whole (never half a file)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from erqishi.core.errors import ErqishiError
from erqishi.learn import LESSONS
from erqishi.learn.progress import Progress


def test_round_trip_and_next_lesson(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "lessons.json"
    assert Progress.load(path).stars == {}  # nothing saved yet: empty, not an error
    progress = Progress()
    assert progress.next_lesson() == LESSONS[0].id and progress.finished == 0
    progress.record(LESSONS[0].id, 3)
    progress.record(LESSONS[2].id, 1)
    progress.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"format": 1, "stars": {LESSONS[0].id: 3, LESSONS[2].id: 1}}
    back = Progress.load(path)
    assert back.stars == progress.stars
    assert back.finished == 2 and back.next_lesson() == LESSONS[1].id


def test_best_stars_are_kept() -> None:
    progress = Progress()
    progress.record("cards", 2)
    progress.record("cards", 1)
    assert progress.stars["cards"] == 2
    progress.record("cards", 3)
    assert progress.stars["cards"] == 3
    for bad in (0, 4, -1):
        with pytest.raises(ErqishiError):
            progress.record("cards", bad)


def test_all_done_points_to_the_last_lesson() -> None:
    progress = Progress({lesson.id: 1 for lesson in LESSONS})
    assert progress.finished == len(LESSONS) and progress.next_lesson() == LESSONS[-1].id


def test_unknown_lessons_and_bad_values_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    stars = {"cards": 2, "no-such-lesson": 3, "groups": 5, "locked": True, "kai": "3", "dui": 0, "fan": 1}
    path.write_text(json.dumps({"format": 1, "stars": stars}), encoding="utf-8")
    assert Progress.load(path).stars == {"cards": 2, "fan": 1}


@pytest.mark.parametrize("text", ["{not json", "[1, 2, 3]", '{"format": 1}', '{"stars": [1]}', ""])
def test_a_damaged_file_names_itself(tmp_path: Path, text: str) -> None:
    path = tmp_path / "damaged.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ErqishiError) as info:
        Progress.load(path)
    assert str(path) in str(info.value) and "not lesson progress" in str(info.value)


def test_written_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is replaced in one step: no temporary file stays behind, and a write that
    fails before the replacement leaves the old progress as it was."""
    path = tmp_path / "p.json"
    Progress({"cards": 3}).save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json"]
    old = path.read_text(encoding="utf-8")

    def failing_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        Progress({"cards": 3, "groups": 2}).save(path)
    assert path.read_text(encoding="utf-8") == old
    assert Progress.load(path).stars == {"cards": 3}


def test_a_file_that_is_not_text_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ErqishiError, match=r"bin\.json: not lesson progress"):
        Progress.load(path)

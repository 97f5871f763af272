"""A learner's progress: the stars of each finished lesson (0-3, :attr:`LessonRun.stars`),
as a small JSON object ``{"format": 1, "stars": {"cards": 3, …}}``. The web page keeps it
in the browser's storage; the terminal in a file, written whole or not at all."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erqishi.core.errors import ErqishiError
from erqishi.learn.lessons import LESSONS

__all__ = ["Progress", "default_path"]

FORMAT = 1


def default_path() -> Path:
    """Where the terminal keeps the lessons' progress (the user's data directory)."""
    from platformdirs import user_data_path

    return user_data_path("erqishi", appauthor=False) / "lessons.json"


@dataclass
class Progress:
    """Stars per lesson id (only lessons that exist; a better result replaces a worse)."""

    stars: dict[str, int] = field(default_factory=dict)

    def record(self, lesson_id: str, stars: int) -> None:
        """Note a finished lesson; the best stars are kept."""
        if not 1 <= stars <= 3:
            raise ErqishiError(f"stars are 1-3, got {stars}")
        self.stars[lesson_id] = max(stars, self.stars.get(lesson_id, 0))

    @property
    def finished(self) -> int:
        """How many lessons are finished."""
        return sum(1 for lesson in LESSONS if self.stars.get(lesson.id))

    def next_lesson(self) -> str:
        """The first lesson not finished yet (the last one when all are)."""
        for lesson in LESSONS:
            if not self.stars.get(lesson.id):
                return lesson.id
        return LESSONS[-1].id

    def to_json(self) -> dict[str, Any]:
        """The JSON object (see the module)."""
        return {"format": FORMAT, "stars": dict(self.stars)}

    @classmethod
    def from_json(cls, data: object) -> Progress:
        """Read it back; unknown lessons and bad values are dropped, not trusted.

        Raises:
            ErqishiError: not a progress object at all.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("stars"), Mapping):
            raise ErqishiError(
                'lesson progress must be an object {"format": 1, "stars": {...}}',
                zh='课程进度要是一个对象 {"format": 1, "stars": {...}}',
            )
        known = {lesson.id for lesson in LESSONS}
        stars = {
            k: v
            for k, v in data["stars"].items()
            if k in known and isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 3
        }
        return cls(stars)

    @classmethod
    def load(cls, path: Path) -> Progress:
        """The progress saved at ``path``; empty when there is none yet.

        Raises:
            ErqishiError: the file is not lesson progress, naming it.
            OSError: it cannot be read.
        """
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except UnicodeDecodeError as exc:
            raise ErqishiError(
                f"{path}: not lesson progress (not UTF-8 text: {exc.reason})",
                zh=f"{path} 不是课程进度：不是 UTF-8 文本",
            ) from None
        try:
            return cls.from_json(json.loads(text))
        except RecursionError:
            raise ErqishiError(
                f"{path}: not lesson progress (JSON nested too deeply)", zh=f"{path} 不是课程进度：JSON 嵌套太深"
            ) from None
        except ValueError as exc:
            inner = getattr(exc, "zh", "")
            zh = f"{path} 不是课程进度" + (f"：{inner}" if inner else "")
            raise ErqishiError(f"{path}: not lesson progress ({exc})", zh=zh) from None

    def save(self, path: Path) -> None:
        """Write it to ``path`` whole (a temporary file, then renamed).

        Raises:
            OSError: it cannot be written.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)

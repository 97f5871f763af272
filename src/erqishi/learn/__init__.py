"""Learning the game: lessons in one source of truth (:mod:`.lessons`, on constructed
positions, :mod:`.position`), the checks and feedback of a learner's tries (:mod:`.run`),
saved progress (:mod:`.progress`) and the coach of real games (:mod:`.coach`). The web
page ``/learn`` and ``erqishi learn`` both drive these."""

from erqishi.learn.lessons import LESSONS, GoalKind, Lesson, Step, Text, WinSpec, lesson
from erqishi.learn.position import Position, SeatSpec
from erqishi.learn.run import Choice, LessonRun, Verdict

__all__ = [
    "LESSONS",
    "Choice",
    "GoalKind",
    "Lesson",
    "LessonRun",
    "Position",
    "SeatSpec",
    "Step",
    "Text",
    "Verdict",
    "WinSpec",
    "lesson",
]

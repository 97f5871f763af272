"""The JSON of the lessons page (``/learn``, docs/protocol.md): the lessons of
:mod:`erqishi.learn` (one source of truth with ``erqishi learn``) and the checks of a
learner's tries. The server keeps no state per learner: each try sends the moves already
made, which are replayed on the lesson's position by the engine."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from erqishi.core import Card, parse_cards
from erqishi.core.engine import Action
from erqishi.core.errors import ErqishiError
from erqishi.learn import LESSONS, GoalKind, LessonRun, Text, Verdict, lesson
from erqishi.server.protocol import cards_json, view_json
from erqishi.server.settings import PROTOCOL_VERSION

__all__ = ["learn_router", "lesson_json"]


def _text(t: Text) -> dict[str, str]:
    return {"zh": t.zh, "en": t.en}


class Try(BaseModel):
    """The body of ``POST /api/lessons/{id}/try`` and ``…/hint``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    moves: list[str] = Field(default_factory=list, max_length=8)
    action: str | None = Field(default=None, max_length=120)
    cards: list[str] | None = Field(default=None, max_length=30)
    choice: str | None = Field(default=None, max_length=60)
    mistakes: int = Field(default=0, ge=0, le=10_000)
    hints: int = Field(default=0, ge=0, le=10_000)


def _board(run: LessonRun) -> dict[str, Any] | None:
    if run.table is None:
        return None
    refusals = [
        {"reason": r.reason, "rule": r.rule, "card": r.card.ascii if r.card is not None else None, "message": r.message}
        for r in run.table.refusals(run.seat)
    ]
    return {"view": view_json(run.view()), "options": [str(a) for a in run.options()], "refusals": refusals}


def lesson_json(lesson_id: str) -> dict[str, Any]:
    """One lesson as the page shows it (docs/protocol.md ``GET /api/lessons/{id}``).

    Raises:
        KeyError: no such lesson.
    """
    run = LessonRun(lesson(lesson_id))
    les = run.lesson
    out: dict[str, Any] = {
        "id": les.id,
        "index": [x.id for x in LESSONS].index(les.id),
        "title": _text(les.title),
        "intro": [_text(t) for t in les.intro],
        "kind": les.kind.value,
        "rules": list(les.rules),
        "goal": _text(run.goal()),
        "cards": cards_json(run.hand()) if les.kind in (GoalKind.PICK, GoalKind.GROUP, GoalKind.WAITS) else [],
        "choices": [{"key": c.key, "text": _text(c.text)} for c in run.choices()],
        "board": _board(run),
        "win": None,
    }
    if les.win is not None:
        out["win"] = {
            "hand": _cards(les.win.hand),
            "melds": [_cards(m) for m in les.win.melds],
            "card": Card.parse(les.win.card).ascii,
            "source": les.win.source,
        }
    return out


def _cards(text: str) -> list[str]:
    return cards_json(parse_cards(text))


def _replayed(lesson_id: str, body: Try) -> LessonRun:
    try:
        run = LessonRun(lesson(lesson_id))
    except KeyError as exc:
        raise HTTPException(404, str(exc.args[0])) from None
    for i, text in enumerate(body.moves):
        if run.table is None or run.done:
            raise HTTPException(400, f"moves[{i}]: lesson {lesson_id} has no move to make there")
        try:
            verdict = run.try_move(Action.parse(text))
        except ErqishiError as exc:
            raise HTTPException(400, f"moves[{i}]: {exc}") from None
        if not verdict.ok:
            raise HTTPException(400, f"moves[{i}]: {text!r} is not a move of this lesson ({verdict.text.en})")
    run.mistakes, run.hints = body.mistakes, body.hints
    return run


def _verdict_json(run: LessonRun, verdict: Verdict) -> dict[str, Any]:
    return {
        "v": PROTOCOL_VERSION,
        "ok": verdict.ok,
        "done": verdict.done,
        "text": _text(verdict.text),
        "rule": verdict.rule,
        "reason": verdict.reason,
        "story": [_text(t) for t in verdict.story],
        "goal": _text(run.goal()),
        "board": _board(run),
        "stars": run.stars if verdict.done else 0,
    }


def learn_router() -> APIRouter:
    """The routes of the lessons: ``GET /api/lessons``, ``GET /api/lessons/{id}``,
    ``POST /api/lessons/{id}/try`` and ``POST /api/lessons/{id}/hint``."""
    router = APIRouter()

    @router.get("/api/lessons")
    async def lessons() -> dict[str, Any]:
        return {
            "v": PROTOCOL_VERSION,
            "lessons": [
                {"id": x.id, "title": _text(x.title), "kind": x.kind.value, "rules": list(x.rules)} for x in LESSONS
            ],
        }

    @router.get("/api/lessons/{lesson_id}")
    async def one(lesson_id: str) -> dict[str, Any]:
        try:
            return {"v": PROTOCOL_VERSION, "lesson": lesson_json(lesson_id)}
        except KeyError as exc:
            raise HTTPException(404, str(exc.args[0])) from None

    @router.post("/api/lessons/{lesson_id}/try")
    async def attempt(lesson_id: str, body: Try) -> dict[str, Any]:
        run = _replayed(lesson_id, body)
        kind = run.lesson.kind
        given = [name for name in ("action", "cards", "choice") if getattr(body, name) is not None]
        want = {GoalKind.MOVE: "action", GoalKind.CHOOSE: "choice"}.get(kind, "cards")
        if kind is GoalKind.PLAY:
            raise HTTPException(400, f"lesson {lesson_id} is played at a table, not tried here")
        if given != [want]:
            raise HTTPException(
                400, f"lesson {lesson_id} ({kind.value}) takes {want!r} alone, got {given or 'nothing'}"
            )
        try:
            if kind is GoalKind.MOVE:
                if run.done:
                    raise HTTPException(400, f"lesson {lesson_id} is already done after these moves")
                assert body.action is not None
                verdict = run.try_move(Action.parse(body.action))
            elif kind is GoalKind.CHOOSE:
                assert body.choice is not None
                verdict = run.try_choice(body.choice)
            else:
                assert body.cards is not None
                verdict = run.try_cards([Card.parse(c) for c in body.cards])
        except ErqishiError as exc:
            raise HTTPException(400, f"{want}: {exc}") from None
        return _verdict_json(run, verdict)

    @router.post("/api/lessons/{lesson_id}/hint")
    async def hint(lesson_id: str, body: Try) -> dict[str, Any]:
        run = _replayed(lesson_id, body)
        return {"v": PROTOCOL_VERSION, "text": _text(run.hint())}

    return router

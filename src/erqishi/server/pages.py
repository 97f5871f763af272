"""The JSON behind the learning pages, generated from the package's own rule data
(RULES.md), never retyped: the rules page and the pocket scorer
(:mod:`erqishi.server.rules_page`) and the lessons (:mod:`erqishi.server.learn_page`)."""

from __future__ import annotations

from fastapi import APIRouter

from erqishi.server.learn_page import learn_router
from erqishi.server.rules_page import rules_router

__all__ = ["pages_router"]


def pages_router() -> APIRouter:
    """The routes of the learning pages."""
    router = APIRouter()
    router.include_router(rules_router())
    router.include_router(learn_router())
    return router

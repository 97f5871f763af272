"""(being written)"""

from __future__ import annotations

from fastapi import APIRouter

__all__ = ["learn_router"]


def learn_router() -> APIRouter:
    """The routes of this page."""
    return APIRouter()

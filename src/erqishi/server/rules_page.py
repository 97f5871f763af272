"""(being written)"""

from __future__ import annotations

from fastapi import APIRouter

__all__ = ["rules_router"]


def rules_router() -> APIRouter:
    """The routes of this page."""
    return APIRouter()

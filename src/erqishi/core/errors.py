"""Errors raised by erqishi: every one is an :class:`ErqishiError` (a ``ValueError``)."""

from __future__ import annotations

__all__ = [
    "ErqishiError",
    "IllegalActionError",
    "InvalidHandError",
    "InvalidNotationError",
    "InvalidRulesError",
    "RecordError",
]


class ErqishiError(ValueError):
    """Base class of every error erqishi raises on bad input or illegal play."""


class InvalidNotationError(ErqishiError):
    """A card or card list could not be read (R-1.2).

    Attributes:
        text: the whole text that was being parsed.
        token: the offending token, as written.
        index: 0-based index of the offending token among the tokens of ``text``.
        position: 0-based character offset of the offending token in ``text``.
        what: what was being read: ``"card"``, or ``"action"`` (R-1.2, FORMATS.md).
    """

    def __init__(self, text: str, token: str, index: int, position: int, why: str = "", *, what: str = "card") -> None:
        self.text = text
        self.token = token
        self.index = index
        self.position = position
        self.what = what
        self._why = why
        detail = f": {why}" if why else ""
        super().__init__(
            f"bad {what} {_clip(token)!r} (token {index + 1}, character {position + 1}) in {_clip(text)!r}{detail}"
        )

    def __reduce__(self) -> tuple[object, ...]:  # it crosses processes (sim --workers) whole
        return (_notation_error, (self.text, self.token, self.index, self.position, self._why, self.what))


def _notation_error(text: str, token: str, index: int, position: int, why: str, what: str) -> InvalidNotationError:
    return InvalidNotationError(text, token, index, position, why, what=what)


def _clip(text: str, limit: int = 60) -> str:
    """``text`` shortened for a message: long input is quoted in part."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class InvalidHandError(ErqishiError):
    """Cards that are well written but cannot be a hand: a fifth copy, an empty hand,
    a meld that is no group (R-1.1, R-3)."""


class InvalidRulesError(ErqishiError):
    """An unknown rule option, preset name or a bad option value (R-10)."""


class IllegalActionError(ErqishiError):
    """An action that the rules do not allow in the current state."""


class RecordError(ErqishiError):
    """A game record that is not valid (FORMATS.md)."""

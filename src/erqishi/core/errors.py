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
    """Base class of every error erqishi raises on bad input or illegal play.

    ``str(error)`` is the English message. ``zh`` is the same in Chinese where the raiser
    gives it (``""`` otherwise), so that front ends show both (every screen in both
    languages): ``raise InvalidHandError("the hand is empty", zh="手牌是空的")``.
    """

    zh: str

    def __init__(self, *args: object, zh: str = "") -> None:
        super().__init__(*args)
        self.zh = zh

    def __reduce__(self) -> tuple[object, ...]:  # it crosses processes (sim --workers) whole
        return (_rebuilt, (type(self), self.args, self.zh))


def _rebuilt(kind: type[ErqishiError], args: tuple[object, ...], zh: str) -> ErqishiError:
    return kind(*args, zh=zh)


class InvalidNotationError(ErqishiError):
    """A card or card list could not be read (R-1.2).

    Attributes:
        text: the whole text that was being parsed.
        token: the offending token, as written.
        index: 0-based index of the offending token among the tokens of ``text``.
        position: 0-based character offset of the offending token in ``text``.
        what: what was being read: ``"card"``, or ``"action"`` (R-1.2, FORMATS.md).
    """

    def __init__(
        self,
        text: str,
        token: str,
        index: int,
        position: int,
        why: str = "",
        *,
        what: str = "card",
        why_zh: str = "",
    ) -> None:
        self.text = text
        self.token = token
        self.index = index
        self.position = position
        self.what = what
        self._why, self._why_zh = why, why_zh
        detail = f": {why}" if why else ""
        where = f"（第 {index + 1} 项，从第 {position + 1} 个字符起）"
        shown = _clip(token)
        zh = f"{_ZH_WHAT.get(what, '')} {shown!r}{where}" + (f"：{why_zh}" if why_zh else "写法不对")
        super().__init__(
            f"bad {what} {shown!r} (token {index + 1}, character {position + 1}) in {_clip(text)!r}{detail}",
            zh=zh.strip(),
        )

    def __reduce__(self) -> tuple[object, ...]:  # it crosses processes (sim --workers) whole
        args = (self.text, self.token, self.index, self.position, self._why, self.what, self._why_zh)
        return (_notation_error, args)


_ZH_WHAT = {"card": "牌", "action": "动作"}


def _notation_error(
    text: str, token: str, index: int, position: int, why: str, what: str, why_zh: str
) -> InvalidNotationError:
    return InvalidNotationError(text, token, index, position, why, what=what, why_zh=why_zh)


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

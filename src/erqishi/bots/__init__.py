"""Bots: players that see only a :class:`~erqishi.core.engine.PlayerView` and choose among
its legal actions with an injected random generator."""

from __future__ import annotations

from collections.abc import Callable

from erqishi.bots.base import Bot
from erqishi.bots.heuristic import HeuristicBot
from erqishi.bots.learned import LearnedBot
from erqishi.bots.random_bot import RandomBot
from erqishi.bots.search import SearchBot
from erqishi.bots.search_old import OldSearchBot
from erqishi.core.errors import ErqishiError

__all__ = [
    "BOTS",
    "Bot",
    "BotLoadError",
    "HeuristicBot",
    "LearnedBot",
    "OldSearchBot",
    "RandomBot",
    "SearchBot",
    "adviser",
    "make_bot",
    "start_bot",
]

#: Bot makers by name; ``search-old`` is the search bot as it was before issue 10, kept to
#: measure the new one against; ``learned`` plays the shipped network (issue 12,
#: docs/learned-bot.md).
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "search-old": OldSearchBot,
    "learned": LearnedBot,
}


def make_bot(name: str) -> Bot:
    """A new bot by name.

    Raises:
        ValueError: no bot of that name, listing the names.
    """
    maker = BOTS.get(name)
    if maker is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}")
    return maker()


class BotLoadError(ErqishiError):
    """A known bot that cannot start (the learned bot's weights cannot be read), naming
    the bot and why, in both languages."""

    def __init__(self, name: str, cause: BaseException) -> None:
        why = str(cause)
        if isinstance(cause, OSError):
            why = f"{cause.filename or ''} {cause.strerror or cause}".strip()
        zh = getattr(cause, "zh", "") or why
        super().__init__(f"bot {name!r} cannot start: {why}", zh=f"机器人 {name} 启动不了：{zh}")
        self.name = name


def start_bot(name: str) -> Bot:
    """:func:`make_bot`, with a bot that cannot start (its weights damaged or missing) a
    :class:`BotLoadError` naming it.

    Raises:
        ValueError: no bot of that name, listing the names.
        BotLoadError: the bot exists but cannot start.
    """
    if name not in BOTS:
        return make_bot(name)  # its error lists the bots
    try:
        return make_bot(name)
    except (ValueError, OSError) as exc:
        raise BotLoadError(name, exc) from None


def adviser() -> Bot:
    """The bot behind hints: the learned bot (the strongest that answers at once, with the
    payment it expects), or the heuristic bot when the learned bot's weights cannot be
    loaded (a damaged install), so that asking for a hint never fails."""
    try:
        return LearnedBot()
    except (ValueError, OSError):
        return HeuristicBot()

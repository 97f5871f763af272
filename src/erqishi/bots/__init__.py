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

__all__ = ["BOTS", "Bot", "HeuristicBot", "LearnedBot", "OldSearchBot", "RandomBot", "SearchBot", "adviser", "make_bot"]

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


def adviser() -> Bot:
    """The bot behind hints: the learned bot (the strongest that answers at once, with the
    payment it expects), or the heuristic bot when the learned bot's weights cannot be
    loaded (a damaged install), so that asking for a hint never fails."""
    try:
        return LearnedBot()
    except (ValueError, OSError):
        return HeuristicBot()

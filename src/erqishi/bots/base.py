"""What a bot is: something that picks one of the actions a seat may declare, seeing only
that seat's :class:`~erqishi.core.engine.PlayerView` and using only the random
generator it is given. Bots never decide legality: they choose among ``view.legal``."""

from __future__ import annotations

import random
from typing import Protocol

from erqishi.core.engine import Action, PlayerView

__all__ = ["Bot"]


class Bot(Protocol):
    """A player program."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal`` (never empty when asked)."""
        ...

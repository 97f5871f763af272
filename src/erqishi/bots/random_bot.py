"""The ``random`` bot: uniform over the actions it may declare."""

from __future__ import annotations

import random

from erqishi.core.engine import Action, PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among ``view.legal`` with the injected generator."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(view.legal)

"""The ``random`` bot: uniform over the actions it may declare."""

from __future__ import annotations

import random

from erqishi.core.engine import Action, PlayerView
from erqishi.play._compiled import mypyc_attr

__all__ = ["RandomBot"]


@mypyc_attr(allow_interpreted_subclasses=True)  # users subclass it, in both builds
class RandomBot:
    """Chooses uniformly among ``view.legal`` with the injected generator."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(view.legal)

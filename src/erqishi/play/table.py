"""A table of bots: each decision goes to the seats that have one, each seeing only its
own view (R-9); in a response window every seat with a response declares at once and the
engine resolves the priority (R-5.4)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from erqishi.bots import Bot
from erqishi.core.engine import Action, State, table_move, view
from erqishi.play.run import Chooser

__all__ = ["table_chooser"]


def table_chooser(bots: Sequence[Bot], rngs: Sequence[random.Random]) -> Chooser:
    """A chooser that asks ``bots[seat]`` (with its own ``rngs[seat]``) for every decision.

    Raises (from the chooser):
        IllegalActionError: a bot chose something it was not offered.
    """

    def choose(state: State, moves: Sequence[tuple[int, Action]]) -> tuple[int, Action]:
        return table_move(state, lambda seat: bots[seat].choose(view(state, seat), rngs[seat]))

    return choose

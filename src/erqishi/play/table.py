"""A table of bots: each decision goes to the seats that have one, each seeing only its
own view (R-9); in a response window every seat with a response declares at once and the
engine resolves the priority (R-5.4)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from erqishi.bots import Bot
from erqishi.core.engine import PASS, Action, Phase, State, resolve_responses, seat_options, view
from erqishi.play.run import Chooser

__all__ = ["table_chooser"]


def table_chooser(bots: Sequence[Bot], rngs: Sequence[random.Random]) -> Chooser:
    """A chooser that asks ``bots[seat]`` (with its own ``rngs[seat]``) for every decision.

    Raises (from the chooser):
        IllegalActionError: a bot chose something it was not offered.
    """

    def choose(state: State, moves: Sequence[tuple[int, Action]]) -> tuple[int, Action]:
        if state.phase is Phase.RESPONSE:
            declared: dict[int, Action] = {}
            for seat in state.order:
                options = seat_options(state, seat)
                if not options or options == (PASS,):
                    continue
                declared[seat] = bots[seat].choose(view(state, seat), rngs[seat])
            return resolve_responses(state, declared)
        seat = state.turn
        action = bots[seat].choose(view(state, seat), rngs[seat])
        return seat, action

    return choose

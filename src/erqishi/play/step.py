"""One decision of a hand as one simultaneous step (R-5.4, R-9).

Most decisions belong to one seat: the dealer's opening, a discard owed after a take. A
response window on a discarded or flipped card belongs to every seat at once: each seat
that has more than ``pass`` declares one of its own options (never learning what another
seat holds), and the engine picks the effective move by R-5.4
(:func:`~erqishi.core.engine.resolve_responses`). This is OpenSpiel's simultaneous move:
everyone answers, then one transition.

These functions are the one collector of a response window: :class:`~erqishi.play.table.Table`
(the web server, the terminal game, records) and :func:`step` (bots, sims, search
playouts) both ask :func:`asked` who decides and :func:`resolve` what happens.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol

from erqishi.core.engine import (
    PASS,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    State,
    resolve_responses,
    seat_options,
    view,
)

__all__ = ["Player", "asked", "owed_kai", "resolve", "step", "step_players"]


class Player(Protocol):
    """Anyone who decides for a seat from that seat's view alone (R-9): a bot, a person
    behind a front end, a learned policy."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal`` (never empty when asked)."""
        ...


def asked(state: State) -> tuple[int, ...]:
    """The seats that decide the current step, in seat order: in a response window every
    seat with more than ``pass`` to choose from (seats with nothing to decide are never
    asked, R-9); otherwise the seat whose turn it is; none once the hand is over."""
    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.RESPONSE:
        out = []
        for seat in state.order:
            options = seat_options(state, seat)
            if options and options != (PASS,):
                out.append(seat)
        return tuple(out)
    return (state.turn,)


def owed_kai(state: State, seat: int) -> Action | None:
    """The 开 ``seat`` owes in this response window when it is the seat's only option
    (R-5.12, 有开必开): nothing is left to choose, so a front end makes it for the seat
    (the table's ``forced``, the learning environment, which never asks that seat). None
    otherwise, and outside a response window."""
    if state.phase is not Phase.RESPONSE:
        return None
    options = seat_options(state, seat)
    if len(options) == 1 and options[0].kind is ActionKind.KAI:
        return options[0]
    return None


def resolve(state: State, declared: Mapping[int, Action]) -> tuple[int, Action]:
    """The effective move ``(seat, action)`` of the current step from the declarations of
    the seats :func:`asked` (R-5.4); outside a response window, the one seat's action.

    Raises:
        IllegalActionError: a declaration that is not one of the seat's options, or a
            missing one (from the engine, naming the rule).
    """
    if state.phase is Phase.RESPONSE:
        return resolve_responses(state, dict(declared))
    seat = state.turn
    return seat, declared[seat]


def step(state: State, ask: Callable[[int], Action]) -> tuple[int, Action]:
    """The effective move of the current decision when ``ask(seat)`` gives each asked
    seat's own decision (one of its :func:`~erqishi.core.engine.seat_options`).

    Raises:
        IllegalActionError: an answer that is not one of the seat's options.
    """
    return resolve(state, {seat: ask(seat) for seat in asked(state)})


def step_players(
    state: State, players: Mapping[int, Player] | list[Player], rngs: Mapping[int, random.Random] | list[random.Random]
) -> tuple[int, Action]:
    """:func:`step` with ``players[seat]`` deciding from its own view with ``rngs[seat]``."""
    return step(state, lambda seat: players[seat].choose(view(state, seat), rngs[seat]))

"""The ``search-old`` bot: the search bot as it was before issue 10, kept to measure the
new one against (``erqishi sim --bots search,search-old,heuristic``).

For each action it may declare, it samples the hidden cards consistently with its view
(:func:`~erqishi.bots.search.determinize`), plays the hand out with heuristic players
(through views, one :class:`~erqishi.bots.heuristic.HeuristicBot` decision a step), and
keeps the action with the best mean net payment (R-8, score units). 24 playouts a
decision by default, each candidate its own sampled worlds.
"""

from __future__ import annotations

import random
import time

from erqishi.bots.heuristic import HeuristicBot
from erqishi.bots.search import MAX_STEPS, determinize
from erqishi.core import IllegalActionError
from erqishi.core.engine import HU, Action, ActionKind, Phase, PlayerView, State, apply, legal_actions, view
from erqishi.play._compiled import mypyc_attr
from erqishi.play.step import step

__all__ = ["OldSearchBot"]


@mypyc_attr(allow_interpreted_subclasses=True)  # users subclass it, in both builds
class OldSearchBot:
    """Determinized Monte Carlo search over the actions it may declare (see the module)."""

    name = "search-old"

    def __init__(self, *, playouts: int = 24, seconds: float | None = None, width: int = 4) -> None:
        """Args:
        playouts: playouts per decision, shared among the candidate actions (24 take
            well under a second here).
        seconds: an optional wall-clock limit per decision. Off by default: a time limit
            makes the choice depend on the machine's speed, and seeded games must repeat
            exactly.
        width: how many of the heuristic's best discards are searched.
        """
        self.playouts = playouts
        self.seconds = seconds
        self.width = width
        self.skipped = 0  # playouts dropped for an unreachable sampled world
        self._ranker = HeuristicBot()
        self._rollout = HeuristicBot(look_at_waits=False)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate with the best mean net payment over the playouts."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if HU in legal:
            return HU  # a win now is certain; waiting is the heuristic's call, not the search's
        candidates = self._candidates(view, rng)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for k in range(self.playouts):
            if deadline is not None and k >= len(candidates) and time.perf_counter() > deadline:
                break
            i = k % len(candidates)
            state = determinize(view, rng)
            value = self._playout(state, view.seat, candidates[i], rng)
            if value is None:
                self.skipped += 1
                continue
            totals[i] += value
            counts[i] += 1
        means = [t / n if n else float("-inf") for t, n in zip(totals, counts, strict=True)]
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        return candidates[best]

    def _candidates(self, view: PlayerView, rng: random.Random) -> list[Action]:
        legal = list(view.legal)
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        if len(discards) > self.width:
            ranked = self._ranker._discard_scores(view, discards)
            keep = {a for _, a in ranked[: self.width]}
            legal = [a for a in legal if a.kind is not ActionKind.DISCARD or a in keep]
        return legal

    def _playout(self, state: State, me: int, first: Action, rng: random.Random) -> float | None:
        """Play ``first`` for ``me``, then heuristic players to the end; my payment, or
        None when the sampled world is one the real hand cannot reach (a guessed hand
        that leaves a seat without a legal move): that sample is dropped."""
        try:
            state = self._step(state, me, first, rng)
            steps = 0
            while not state.is_over and steps < MAX_STEPS:
                if state.phase is not Phase.RESPONSE and not legal_actions(state, state.turn):
                    return None
                state = self._step(state, None, None, rng)
                steps += 1
        except IllegalActionError:
            return None
        if state.result is None:
            return 0.0
        return float(state.result.payments[me])

    def _step(self, state: State, me: int | None, mine: Action | None, rng: random.Random) -> State:
        bot = self._rollout

        def ask(seat: int) -> Action:
            if seat == me and mine is not None:
                return mine
            return bot.choose(view(state, seat), rng)

        return apply(state, *step(state, ask))

"""Training data for the ``learned`` bot: decisions labelled by simulation.

A hand is dealt and played by the engine (:func:`~erqishi.play.step.asked`,
:func:`~erqishi.play.step.resolve`): one seat, the *hero* (rotating from hand to hand), plays
the trajectory policy (the heuristic bot in round 0, the latest learned bot after), the
others the heuristic bot; every player explores with probability ``epsilon``.

Each decision of any seat with more than one legal action is labelled with probability
``label_prob``: for every legal action the hand is played out from the true state, the
seat declaring that action (the other seats asked in the same window declaring their own
choice), then every seat its policy to the end; the seat's net payment (R-8, score units)
is the target of that action. All actions of a decision share the same deal and stock
order, so the differences between their targets show what the action changes (Deep
Monte-Carlo targets on paired worlds; the features see only the seat's view, so the
regression learns the expectation over what the seat cannot see).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from erqishi.bots import Bot, HeuristicBot
from erqishi.bots.learned import N_ACTION, N_STATE, LearnedBot, LearnedNet, Sparse, decision_features, load_npz
from erqishi.bots.search import playout as rule_playout
from erqishi.core.engine import Action, Deal, Phase, PlayerView, State, apply, new_hand, view
from erqishi.core.rules import RuleSet
from erqishi.play.step import asked, resolve

__all__ = ["PLAYOUTS", "ChunkStats", "ChunkTask", "dense", "generate_chunk", "policy"]

MAX_STEPS = 400
#: the ways a labelled action is played out (:attr:`ChunkTask.playout`)
PLAYOUTS = ("policy", "rule")


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """One chunk of hands to generate (a worker's task).

    Attributes:
        path: the ``.npz`` file to write.
        seed: the seed of the chunk's deals and choices.
        hands: hands to play.
        rules: a preset name or JSON options (:meth:`RuleSet.parse`).
        weights: the learned bot's weights for the hero, None for the heuristic bot.
        label_prob: probability of labelling a decision.
        epsilon: exploration of every player.
        playout: how a labelled action is played out from the true state: ``"policy"``
            (every seat its player, as the hand is played) or ``"rule"`` (every seat the
            search bot's playout rule, :func:`erqishi.bots.search.playout`: the values the
            search bot estimates, without its guess of the hidden cards and without its
            sampling noise, at about a tenth of the cost).
    """

    path: str
    seed: int
    hands: int
    rules: str
    weights: str | None
    label_prob: float
    epsilon: float
    playout: str = "policy"


@dataclass(frozen=True, slots=True)
class ChunkStats:
    """What a chunk produced: hands, labelled decisions, action samples, seconds, and the
    hero's summed payment (score units)."""

    hands: int
    decisions: int
    actions: int
    seconds: float
    hero_payment: float


_NETS: dict[str, LearnedNet] = {}


def policy(weights: str | None, epsilon: float = 0.0, *, width: int = 3, always_hu: bool = True) -> Bot:
    """The learned bot of ``weights`` (its network cached per worker; ``width`` and
    ``always_hu`` as :class:`LearnedBot`'s), or the heuristic bot for None."""
    if weights is None:
        return _Exploring(HeuristicBot(), epsilon) if epsilon else HeuristicBot()
    net = _NETS.get(weights)
    if net is None:
        net = _NETS[weights] = LearnedNet(load_npz(weights))
    return LearnedBot(net, epsilon=epsilon, width=width, always_hu=always_hu)


class _Exploring:
    """A bot that plays uniformly at random with probability ``epsilon``."""

    def __init__(self, bot: Bot, epsilon: float) -> None:
        self.bot, self.epsilon, self.name = bot, epsilon, bot.name

    def choose(self, v: PlayerView, rng: random.Random) -> Action:
        """A random legal action with probability ``epsilon``, else the bot's."""
        if rng.random() < self.epsilon:
            return rng.choice(v.legal)
        return self.bot.choose(v, rng)


def dense(sparse: Sparse, n: int) -> npt.NDArray[np.float32]:
    """A sparse vector as a dense float32 array of length ``n``."""
    out = np.zeros(n, dtype=np.float32)
    for i, x in sparse:
        out[i] = x
    return out


def _rollout(state: State, seat: int, first: dict[int, Action], players: dict[int, Bot], rng: random.Random) -> float:
    """``first`` declared in ``state``, then every seat its player to the end: ``seat``'s payment."""
    state = apply(state, *resolve(state, first))
    steps = 0
    while state.phase is not Phase.OVER and steps < MAX_STEPS:
        declared = {s: players[s].choose(view(state, s), rng) for s in asked(state)}
        state = apply(state, *resolve(state, declared))
        steps += 1
    result = state.result
    return 0.0 if result is None else float(result.payments[seat])


def generate_chunk(task: ChunkTask) -> ChunkStats:
    """Play and label ``task.hands`` hands (module text) and write them to ``task.path`` as
    an ``.npz``: ``S`` (decisions x N_STATE, float16), ``A`` (actions x N_ACTION, float16),
    ``T`` (actions, float32: targets in score units), ``D`` (actions, int32: the decision
    of each action).

    Raises:
        OSError: the file cannot be written.
        ValueError: an unknown ``task.playout``.
    """
    if task.playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}; got {task.playout!r}")
    by_rule = task.playout == "rule"
    start = time.perf_counter()
    rules = RuleSet.parse(task.rules)
    rng = random.Random(task.seed)
    greedy = {"hero": policy(task.weights), "other": policy(None)}
    exploring = {"hero": policy(task.weights, task.epsilon), "other": policy(None, task.epsilon)}
    states: list[npt.NDArray[np.float32]] = []
    actions: list[npt.NDArray[np.float32]] = []
    targets: list[float] = []
    owners: list[int] = []
    hero_total = 0.0
    n = rules.players
    for h in range(task.hands):
        deal = Deal.shuffled(rng, rng.randrange(n), rules)
        state = new_hand(deal)
        hero = h % n
        play = {s: exploring["hero" if s == hero else "other"] for s in range(n)}
        cont = {s: greedy["hero" if s == hero else "other"] for s in range(n)}
        steps = 0
        while state.phase is not Phase.OVER and steps < MAX_STEPS:
            seats = asked(state)
            declared = {s: play[s].choose(view(state, s), rng) for s in seats}
            for s in seats:
                v = view(state, s)
                if len(v.legal) < 2 or rng.random() >= task.label_prob:
                    continue
                s_feat, a_feats = decision_features(v)
                if by_rule:
                    values = [rule_playout(state, s, action) for action in v.legal]
                else:
                    others = {o: cont[o].choose(view(state, o), rng) for o in seats if o != s}
                    paired = rng.random()  # every action's playout with the same generator
                    values = [
                        _rollout(state, s, {**others, s: action}, cont, random.Random(paired)) for action in v.legal
                    ]
                if any(x is None for x in values):
                    continue  # the rule found no move (cannot happen from a true state; kept safe)
                d = len(states)
                states.append(dense(s_feat, N_STATE))
                for value, a_feat in zip(values, a_feats, strict=True):
                    assert value is not None
                    targets.append(value)
                    actions.append(dense(a_feat, N_ACTION))
                    owners.append(d)
            state = apply(state, *resolve(state, declared))
            steps += 1
        if state.result is not None:
            hero_total += state.result.payments[hero]
    path = Path(task.path)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        S=np.asarray(states, dtype=np.float16).reshape(-1, N_STATE),
        A=np.asarray(actions, dtype=np.float16).reshape(-1, N_ACTION),
        T=np.asarray(targets, dtype=np.float32),
        D=np.asarray(owners, dtype=np.int32),
    )
    tmp.replace(path)
    return ChunkStats(task.hands, len(states), len(actions), time.perf_counter() - start, hero_total)

"""A Gymnasium single-agent environment: one learning seat against erqishi's bots.

``gymnasium.make("erqishi/Erqishi-v0", opponents="heuristic")`` (after ``import
erqishi.rl``, which registers the id; or ``gymnasium.make("erqishi.rl:erqishi/Erqishi-v0",
…)`` without it). The learning seat plays through the PettingZoo environment
:mod:`erqishi.rl.erqishi_v0` with the same observation planes and the same 884 actions;
every other seat is played by an opponent that sees only its own
:class:`~erqishi.core.engine.PlayerView` (R-9): a bot name (``random``, ``heuristic``,
``search``, ``learned``), a bot object with ``choose(view, rng)``, or any callable ``f(view, rng)``
returning an :class:`~erqishi.core.engine.Action` or an action index.
:class:`ObservationPolicy` turns a policy on observations (``f(obs, mask) -> index``, a
learned agent) into such an opponent.

Observations are the planes alone; the legal actions are ``info["action_mask"]`` (and the
method :meth:`ErqishiEnv.action_masks`, which sb3-contrib's ``MaskablePPO`` calls). A step
is one decision of the learning seat; the opponents' decisions in between are made inside
``step``. The reward is the learning seat's R-8 payment when a hand ends (score units).
``reset`` deals until the learning seat has a decision: a hand in which it has none (it
sits the hand out with four players, or an opponent wins at once) is played through and
counted in ``info["skipped_hands"]``. With ``match=True`` the episode is the match: the
hands that end before the learning seat's first decision belong to it, and their payments
are added to the reward of its first step (so the episode's return is its match total,
R-8.3); ``info["hands_before"]`` says how many there were. An action outside the mask ends the episode with
``illegal_reward`` (default -1000) and ``info["illegal_action"] = True``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from erqishi import rl
from erqishi.bots import make_bot
from erqishi.core.engine import Action, PlayerView
from erqishi.core.errors import ErqishiError, IllegalActionError
from erqishi.core.rules import RuleSet
from erqishi.play import Table
from erqishi.rl.actions import ACTIONS, INDEX, N_ACTIONS, as_integer, index_of
from erqishi.rl.encoding import ObservationEncoder, OwnMarks, action_mask, observation_shape
from erqishi.rl.erqishi_v0 import DEFAULT_ILLEGAL_REWARD, raw_env
from erqishi.rl.render import view_text

__all__ = ["ENV_ID", "ErqishiEnv", "ObservationPolicy", "Opponent", "OpponentSpec", "make_opponent"]

#: The Gymnasium id (registered when :mod:`erqishi.rl` is imported).
ENV_ID = rl.ENV_ID

Observation = npt.NDArray[np.float32]


class Opponent(Protocol):
    """Plays a seat from that seat's view alone (like every bot)."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal``."""
        ...


#: An opponent as the environment takes it: a bot name, a bot, or a callable.
OpponentSpec = str | Opponent | Callable[[PlayerView, random.Random], Action | int]


class _CallableOpponent:
    def __init__(self, fn: Callable[[PlayerView, random.Random], Action | int]) -> None:
        self.fn = fn

    def __repr__(self) -> str:
        """The callable as its author knows it (``my_policy``), for messages."""
        return _callable_name(self.fn)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        chosen = self.fn(view, rng)
        if isinstance(chosen, Action):
            return chosen
        return ACTIONS[index_of(chosen, f"the action opponent {self!r} chose")]


class ObservationPolicy:
    """An opponent from a policy on observations: ``policy(obs, mask)`` returns an action
    index, given the seat's planes and mask (the same encoding as the learning seat's), so
    a learned agent can sit at the table.

    >>> first_legal = ObservationPolicy(lambda obs, mask: int(mask.argmax()))
    """

    def __init__(self, policy: Callable[[Observation, npt.NDArray[np.int8]], int], *, marks: bool = True) -> None:
        """``marks``: show the policy the seat's own marks (过张, 回笼, 过胡) as the learning
        seat's planes have them; False leaves those planes empty (a policy trained
        without them)."""
        self.policy = policy
        self.marks = marks
        self._encoder = ObservationEncoder()

    def choose(self, view: PlayerView, rng: random.Random, marks: OwnMarks | None = None) -> Action:
        """The policy's action for ``view`` (with the seat's own ``marks`` when it shows them).

        Raises:
            TypeError, IndexError: the policy returned no index of the action space.
        """
        obs = self._encoder.encode(view, marks if marks is not None and self.marks else OwnMarks())
        return ACTIONS[index_of(self.policy(obs, action_mask(view.legal)), f"the action policy {self.policy!r} chose")]


def _callable_name(fn: object) -> str:
    """``module.qualname`` of a function or method, else its repr."""
    name = getattr(fn, "__qualname__", None)
    if isinstance(name, str):
        module = getattr(fn, "__module__", None)
        return f"{module}.{name}" if isinstance(module, str) and module != "__main__" else name
    return repr(fn)


def make_opponent(spec: OpponentSpec) -> Opponent:
    """An opponent from a bot name, a bot, or a callable ``f(view, rng)``.

    Raises:
        ValueError: an unknown bot name (the message lists the bots).
        TypeError: something that is none of these.
    """
    if isinstance(spec, str):
        return make_bot(spec)
    if hasattr(spec, "choose"):
        return spec
    if callable(spec):
        return _CallableOpponent(spec)
    raise TypeError(f"an opponent is a bot name, a bot with choose(view, rng) or a callable, not {spec!r}")


class ErqishiEnv(gymnasium.Env[Observation, np.int64]):
    """One learning seat against bots (see the module text).

    Args:
        opponents: one opponent for every other seat, or one per other seat in seat order.
        players, rules, match, match_quan, names, quan_count: as
            :class:`~erqishi.rl.erqishi_v0.raw_env`.
        seat: the learning seat.
        illegal_reward: the reward of an action outside the mask (the episode ends).
        render_mode: ``"human"`` or ``"ansi"``.

    Raises:
        ValueError: a wrong number of opponents, a bad seat, or an unknown bot name.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 - Env's field

    def __init__(
        self,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
        players: int | None = None,
        rules: str | RuleSet = "leshan",
        seat: int = 0,
        match: bool = False,
        match_quan: int | None = None,
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        render_mode: str | None = None,
        names: list[str] | None = None,
        *,
        quan_count: int | None = None,
    ) -> None:
        self._env = raw_env(
            players=players, rules=rules, match=match, match_quan=match_quan, names=names, quan_count=quan_count
        )
        n = self._env.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seat must be a seat number 0-{n - 1}, got {type(seat).__name__} {seat!r}")
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0-{n - 1}, got {seat}")
        specs: list[OpponentSpec]
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            specs = [opponents] * (n - 1)
        else:
            specs = list(opponents)
            if len(specs) == 1:
                specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"need 1 or {n - 1} opponents for {n} players, got {len(specs)}")
        others = [s for s in range(n) if s != seat]
        self.opponents: dict[int, Opponent] = {s: make_opponent(spec) for s, spec in zip(others, specs, strict=True)}
        self.seat = seat
        self.agent = f"player_{seat}"
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=0.0, high=1.0, shape=observation_shape(n), dtype=np.float32)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._rngs: dict[int, random.Random] = {}
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)
        self._done = True
        self._carried = 0.0  # payments to the learning seat not yet given as a reward

    @property
    def table(self) -> Table | None:
        """The :class:`~erqishi.play.Table` being played."""
        return self._env.table

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self._env.rules

    def record(self) -> dict[str, object]:
        """The record of the episode so far (FORMATS.md)."""
        return self._env.record()

    # ------------------------------------------------------------------ API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal until the learning seat has a decision; ``(observation, info)``."""
        super().reset(seed=seed)
        skipped = 0
        while True:
            inner = int(self.np_random.integers(2**63))
            self._env.reset(seed=inner)
            stream = random.Random(inner)
            self._rngs = {s: random.Random(stream.getrandbits(64)) for s in self.opponents}
            carried = self._play_opponents()
            if not self._env.terminations[self.agent]:
                break
            skipped += 1
        self._done = False
        # in a match, hands may have ended before the first decision: they are the
        # episode's, and pay at its first step (a single hand cannot have ended here)
        self._carried = carried
        table = self._env.table
        obs, info = self._observe()
        info["skipped_hands"] = skipped
        if self._env.match:
            info["hands_before"] = len(table.hands) if table is not None else 0
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learning seat takes ``action``; the opponents play until it must decide
        again or the episode ends. ``(observation, reward, terminated, truncated, info)``.

        An integer outside the mask (or the space) ends the episode with
        ``illegal_reward`` and ``info["illegal_action"]``.

        Raises:
            ErqishiError: the episode is over (call ``reset``).
            TypeError: ``action`` is no integer (a float, a string, ``None`` …).
        """
        if self._done:
            raise ErqishiError("the episode is over: call reset()")
        index = as_integer(action)
        if index is None:
            raise TypeError(f"an action is an index 0-{N_ACTIONS - 1} of the action space (an integer), got {action!r}")
        if not 0 <= index < N_ACTIONS or not self._mask[index]:
            self._done = True
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        env = self._env
        env.step(index)
        reward = env.rewards[self.agent] + self._carried
        self._carried = 0.0
        reward += self._play_opponents()
        terminated = bool(env.terminations[self.agent])
        self._done = terminated
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), terminated, False, info

    def _play_opponents(self) -> float:
        """Let the opponents decide until the learning seat must, or the episode ends;
        the learning seat's rewards meanwhile."""
        env = self._env
        reward = 0.0
        while not env.terminations[self.agent] and env.agent_selection != self.agent:
            seat = env._seat[env.agent_selection]
            agent = env.agent_selection
            opponent = self.opponents[seat]
            v = env.player_view(agent)
            if isinstance(opponent, ObservationPolicy):
                chosen = opponent.choose(v, self._rngs[seat], env.marks(agent))
            else:
                chosen = opponent.choose(v, self._rngs[seat])
            index = INDEX.get(chosen) if isinstance(chosen, Action) else None
            if index is None:
                raise TypeError(
                    f"the opponent {opponent!r} of seat {seat} chose {chosen!r}, which is no action of the action "
                    "space (an Action from the view's legal ones)"
                )
            try:
                env.step(index)
            except IllegalActionError as exc:  # the engine's reason, with who chose it
                raise IllegalActionError(
                    f"the opponent {opponent!r} of seat {seat} chose {chosen}, which is not one of its options: {exc}"
                ) from None
            reward += env.rewards[self.agent]
        return reward

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        seen = self._env.observe(self.agent)  # the mask is 0 unless the learning seat is to decide
        obs = seen["observation"]
        mask = seen["action_mask"] if not self._done else np.zeros(N_ACTIONS, np.int8)
        self._mask = mask
        return obs, {"action_mask": mask.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learning seat now, as booleans (for MaskablePPO)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """The learning seat's view in Chinese: printed (``"human"``) or returned (``"ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        table = self._env.table
        if table is None or table.state is None:
            return None
        text = view_text(
            self._env.player_view(self.agent), self._env.marks(self.agent), self._env.names, table.events[-6:]
        )
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""

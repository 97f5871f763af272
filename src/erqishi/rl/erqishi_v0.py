"""
# 贰柒拾 (erqishi)

A PettingZoo AEC environment of 贰柒拾, the 80-card paper card game of Leshan, in the
conventions of PettingZoo's classic environments (``from erqishi.rl import erqishi_v0``).
The rules are erqishi's engine (``../shared/RULES.md``): the environment drives the one
table of :mod:`erqishi.play` and never decides legality itself.

| Import             | `from erqishi.rl import erqishi_v0`                          |
|--------------------|--------------------------------------------------------------|
| Actions            | Discrete                                                     |
| Parallel API       | No                                                           |
| Manual Control     | No                                                           |
| Agents             | `agents= ['player_0', 'player_1', 'player_2']` (2-4 players) |
| Action Shape       | Discrete(884)                                                |
| Observation Shape  | (21 + 22 × players, 20): (87, 20) with three players         |
| Observation Values | [0, 1]                                                       |

### Arguments

``env(players=None, rules="leshan", match=False, match_quan=None, render_mode=None,
illegal_reward=-1000.0)``: ``rules`` is a preset (``leshan``, ``duikou``, ``meishan``,
``app``, ``jianwei``), JSON options or a :class:`~erqishi.core.RuleSet`; ``players``
overrides its player count (2, 3 or 4); ``match_quan`` its 圈 per match (the issue's
``quan_count``: the option is ``match_quan`` everywhere in erqishi). One episode is one
hand, the first of a new match (the dealer drawn from the seed, R-2.2; 圈1); with
``match=True`` it is the whole match of ``match_quan`` 圈 (R-2.4), hands dealt one after
the other, rewards paid as each hand ends.

### Agents and turns

``player_i`` is seat ``i`` (FORMATS.md "Seats"). A step is one seat's decision: the
dealer's opening, a discard owed after a take, or one seat's declaration in a response
window on a discarded or flipped card. In a response window every seat with more than
``pass`` to choose from declares, one step each, in seat order (:func:`erqishi.play.asked`);
declarations are collected and the window is resolved by R-5.4 only once all have
declared, so no seat's observation ever shows another's declaration, or whether it had
one. Seats with nothing but ``pass`` are never asked. With four players the seat that
sits a hand out is never asked in that hand.

### Observation

``{"observation": planes, "action_mask": mask}`` built from the seat's
:class:`~erqishi.core.engine.PlayerView` and its own 过张/回笼/过胡 marks
(:mod:`erqishi.rl.encoding` documents every plane). ``action_mask`` (``int8``, 884) is 1
exactly at the seat's :attr:`PlayerView.legal`; it is all zeros outside the seat's
decisions and once the hand is over. Only the selected agent acts.

### Actions

One fixed ``Discrete(884)``: 0-19 discards by card value, 20 pass, 21 对, 22 开, 23 胡,
24-883 every 吃 with every 摆 choice (:mod:`erqishi.rl.actions` has the table).

### Rewards

The R-8 payments of the hand, in score units, zero-sum: at the step that ends a hand each
seat receives its payment (0 in a dead hand, R-5.6). An illegal action (a masked-out
index) follows the classic environments: ``env()`` wraps the raw environment in
PettingZoo's ``TerminateIllegalWrapper``, which ends the episode, gives the acting agent
``illegal_reward`` and the others 0. The default is -1000 score units rather than the
classic -1, because -1 is smaller than most losses of a hand and would teach an unmasked
learner to escape a loss with an illegal move. ``raw_env`` raises the engine's
``IllegalActionError`` instead. (``env()`` uses PettingZoo's three classic wrappers, with
the attributes read on every step forwarded straight to the raw environment:
:func:`fast_wrappers`.)

### Seeding and rendering

``reset(seed=s)`` makes the episode repeat exactly (every deal and dealer comes from one
``random.Random`` seeded with ``s``); ``reset()`` without a seed goes on with the next
episode of the same stream. ``render()`` prints (``"human"``) or returns (``"ansi"``) the
selected seat's view in Chinese, with the hand's latest events.

### Version History

* v0: Initial version.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from erqishi.core.engine import Action, Phase, PlayerView, State, seat_options, view
from erqishi.core.errors import ErqishiError, IllegalActionError
from erqishi.core.rules import RuleSet
from erqishi.play import Table, asked, resolve
from erqishi.rl.actions import ACTIONS, N_ACTIONS
from erqishi.rl.encoding import ObservationEncoder, OwnMarks, action_mask, observation_shape
from erqishi.rl.render import view_text

__all__ = ["DEFAULT_ILLEGAL_REWARD", "env", "fast_wrappers", "make_rules", "raw_env"]

#: What ``env()`` gives the agent that takes an illegal action (score units).
DEFAULT_ILLEGAL_REWARD = -1000.0


def make_rules(rules: str | RuleSet = "leshan", players: int | None = None, match_quan: int | None = None) -> RuleSet:
    """The rule set of an environment: ``rules`` (a preset, JSON options or a RuleSet)
    with ``players`` and ``match_quan`` set where given.

    Raises:
        InvalidRulesError: an unknown preset, a bad option or value.

    >>> make_rules("duikou").players, make_rules("leshan", players=4, match_quan=2).match_quan
    (2, 2)
    """
    rule_set = RuleSet.load(rules)
    changes: dict[str, Any] = {}
    if players is not None:
        changes["players"] = players
    if match_quan is not None:
        changes["match_quan"] = match_quan
    return replace(rule_set, **changes) if changes else rule_set


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's classic wrappers, as the classic environments
    wrap theirs: ``TerminateIllegalWrapper`` (an illegal action ends the episode,
    ``illegal_reward``, default -1000, to the agent that took it),
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Keywords as
    :class:`raw_env`, plus ``illegal_reward``.

    The wrappers are PettingZoo's own classes with one change that does not alter what
    they do: the attributes every step reads (``agent_selection``, ``terminations`` …)
    go straight to the raw environment instead of through each wrapper's
    ``__getattr__`` in turn, which cost about as much as the observation itself
    (:func:`fast_wrappers`)."""
    illegal_reward = float(kwargs.pop("illegal_reward", DEFAULT_ILLEGAL_REWARD))
    return fast_wrappers(raw_env(**kwargs), illegal_reward)


#: The attributes of the raw environment that every step reads through the wrappers.
_FORWARDED = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards")
#: Those that ``OrderEnforcingWrapper`` refuses before the first ``reset``.
_BEFORE_RESET = frozenset({"agents", "agent_selection", "rewards", "terminations", "truncations", "infos"})


def _forward(name: str, *, checked: bool) -> property:
    def get(self: Any) -> Any:
        if checked and name in _BEFORE_RESET and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def put(self: Any, value: Any) -> None:
        setattr(self._raw, name, value)

    return property(get, put, doc=f"The raw environment's ``{name}``.")


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper``, reading the raw environment directly."""

    _raw: raw_env


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading the raw environment directly."""

    _raw: raw_env


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, reading the raw environment directly (and
    still refusing those attributes before the first ``reset``)."""

    _raw: raw_env


for _name in _FORWARDED:
    setattr(_TerminateIllegal, _name, _forward(_name, checked=False))
    setattr(_AssertOutOfBounds, _name, _forward(_name, checked=False))
    setattr(_OrderEnforcing, _name, _forward(_name, checked=True))


def fast_wrappers(raw: raw_env, illegal_reward: float = DEFAULT_ILLEGAL_REWARD) -> AECEnv:
    """``raw`` in PettingZoo's classic wrappers (see :func:`env`)."""
    inner = _TerminateIllegal(raw, illegal_reward=illegal_reward)
    middle = _AssertOutOfBounds(inner)
    outer = _OrderEnforcing(middle)
    for wrapper in (inner, middle, outer):
        object.__setattr__(wrapper, "_raw", raw)
    return outer


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """The unwrapped environment (see the module text).

    Args:
        players: seats (2, 3 or 4), over the rule set's own count.
        rules: a preset name, JSON options or a RuleSet (R-10).
        match: one episode is a whole match instead of one hand.
        match_quan: 圈 per match (the rule option ``match_quan``, R-2.4).
        render_mode: ``"human"`` (print) or ``"ansi"`` (return the text), or None.
        names: the seats' names in records and ``render()`` (default ``座0``…).

    Attributes:
        table: the :class:`~erqishi.play.Table` being played (its records, events, state).
        rules: the rule set.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "erqishi_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int | None = None,
        rules: str | RuleSet = "leshan",
        match: bool = False,
        match_quan: int | None = None,
        render_mode: str | None = None,
        names: list[str] | None = None,
    ) -> None:
        EzPickle.__init__(self, players, rules, match, match_quan, render_mode, names)
        super().__init__()
        self.rules = make_rules(rules, players, match_quan)
        n = self.rules.players
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.match = match
        self.names = list(names) if names is not None else [f"座{s}" for s in range(n)]
        if len(self.names) != n:
            raise ErqishiError(f"{len(self.names)} names for {n} seats")
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        shape = observation_shape(n)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(N_ACTIONS) for agent in self.possible_agents}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._rng = random.Random()
        self._encoder = ObservationEncoder()
        self.table: Table | None = None
        self._asked_of: State | None = None
        self._asked: tuple[int, ...] = ()
        self._options: dict[int, tuple[Action, ...]] = {}
        self._declared: dict[int, Action] = {}

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(884)``."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode: a hand (or a match). ``seed`` restarts the episode stream,
        so the same seed and actions give the same episode."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._encoder = ObservationEncoder()
        self.table = Table(self.rules, random.Random(self._rng.getrandbits(64)), self.names, auto_close=False)
        self.table.start_hand()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def _ask(self) -> None:
        """The seats asked in the current state (:func:`erqishi.play.asked`), their options."""
        state = self.table.state if self.table is not None else None
        assert state is not None
        self._asked_of = state
        self._asked = asked(state)
        self._options = {}
        self._declared = {}

    def options(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may declare now (its :attr:`PlayerView.legal`, from the engine),
        ``()`` unless it is asked and has not declared yet."""
        table = self.table
        if table is None or table.state is None or table.state.is_over:
            return ()
        if self._asked_of is not table.state:
            self._ask()
        if seat not in self._asked or seat in self._declared:
            return ()
        found = self._options.get(seat)
        if found is None:
            found = self._options[seat] = seat_options(table.state, seat)
        return found

    def _after_move(self) -> None:
        """Close every response window in which nobody is asked (the card stays in its row,
        R-5.2, R-5.3), settle every hand that has ended (its payments are the rewards), deal
        the next hand of a match, and select the next agent to decide: the first seat asked
        that has not declared, in seat order."""
        table = self.table
        assert table is not None
        while True:
            state = table.state
            assert state is not None
            if state.is_over:
                last = table.hands[-1]
                for s, payment in enumerate(last.outcome.payments):
                    self.rewards[self.possible_agents[s]] += float(payment)
                if self.match and not table.match.is_over:
                    table.start_hand()
                    continue
                self.terminations = dict.fromkeys(self.agents, True)
                return
            if self._asked_of is not state:
                self._ask()
            if self._asked:
                break
            table.apply_move(*resolve(state, {}))  # nobody may do more than pass
        declared = self._declared
        self.agent_selection = self.possible_agents[next(s for s in self._asked if s not in declared)]

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The selected agent takes ``action`` (an index of the action space): its move, or
        in a response window its declaration; the window is resolved by the engine (R-5.4)
        once every seat asked has declared.

        Raises:
            IllegalActionError: the action is not one of the agent's options (the engine's
                message says why); ``env()`` ends the episode instead.
            IndexError: ``action`` is outside the action space.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        assert table is not None and table.state is not None and action is not None
        index = int(action)
        if not 0 <= index < N_ACTIONS:
            raise IndexError(f"action {index} is outside 0-{N_ACTIONS - 1}")
        seat = self._seat[agent]
        chosen = ACTIONS[index]
        if chosen not in self.options(seat):
            raise IllegalActionError(table.why_not(seat, chosen).message)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        state = table.state
        if state.phase is Phase.RESPONSE:
            self._declared[seat] = chosen
            if len(self._declared) == len(self._asked):
                table.apply_move(*resolve(state, self._declared))
        else:
            table.apply_move(seat, chosen)
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ observations

    def player_view(self, agent: str) -> PlayerView:
        """The :class:`PlayerView` of ``agent`` now (R-9).

        Raises:
            ErqishiError: before the first ``reset``.
        """
        if self.table is None or self.table.state is None:
            raise ErqishiError("call reset() first")
        return view(self.table.state, self._seat[agent])

    def marks(self, agent: str) -> OwnMarks:
        """The own marks of ``agent`` (过张, 回笼, 过胡) now."""
        if self.table is None or self.table.state is None:
            raise ErqishiError("call reset() first")
        return OwnMarks.of(self.table.state, self._seat[agent])

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``{"observation": planes, "action_mask": mask}`` of ``agent`` from its own
        view and marks alone (new arrays on every call)."""
        table = self.table
        if table is None or table.state is None:
            raise ErqishiError("call reset() first")
        seat = self._seat[agent]
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask = action_mask(self.options(seat))  # the seat's own options: PlayerView.legal
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": self._encoder.encode_state(table.state, seat), "action_mask": mask}

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The selected seat's view in Chinese with the hand's latest events: printed
        (``"human"``) or returned (``"ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.table is None or self.table.state is None:
            return None
        agent = self.agent_selection
        text = view_text(self.player_view(agent), self.marks(agent), self.names, self.table.events[-6:])
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""

    def record(self) -> dict[str, object]:
        """The record of the episode so far (FORMATS.md): the hand, or with ``match`` the
        match of its finished hands.

        Raises:
            ErqishiError: before the first ``reset``.
        """
        if self.table is None:
            raise ErqishiError("call reset() first")
        if self.match:
            return self.table.match_record_json()
        return self.table.hand_record().to_json()

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
one. Seats without a choice are never asked: those with nothing but ``pass``, and those
whose only option is the 开 they owe (R-5.12), which is declared for them. With four
players the seat that sits a hand out is never asked in that hand.

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
index) follows the classic environments' ``TerminateIllegalWrapper``: ``env()`` ends the
episode, gives the acting agent ``illegal_reward`` and the others 0. The default is -1000
score units rather than the classic -1, because -1 is smaller than most losses of a hand
and would teach an unmasked learner to escape a loss with an illegal move. ``raw_env``
raises the engine's ``IllegalActionError`` instead. (``env()`` is :class:`ClassicEnv`: the
raw environment with the checks of PettingZoo's three classic wrappers built in, the
same behaviour without three layers of dispatch on every step.)

### Seeding and rendering

``reset(seed=s)`` makes the episode repeat exactly (every deal and dealer comes from one
``random.Random`` seeded with ``s``); ``reset()`` without a seed goes on with the next
episode of the same stream. Each episode deals from a generator of its own drawn from the
stream, so the episodes that follow deal the same cards whatever the agents did before
(how many hands a match dealt, an episode ended by an illegal action). ``render()``
prints (``"human"``) or returns (``"ansi"``) the selected seat's view in Chinese, with the
hand's latest events.

### Version History

* v0: Initial version.
"""

from __future__ import annotations

import numbers
import random
from dataclasses import replace
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from erqishi.core.engine import Action, Phase, PlayerView, State, seat_options, view
from erqishi.core.errors import ErqishiError, IllegalActionError
from erqishi.core.rules import RuleSet
from erqishi.play import Table, asked, owed_kai, resolve
from erqishi.rl.actions import ACTIONS, N_ACTIONS, in_action_space, index_of
from erqishi.rl.encoding import ObservationEncoder, OwnMarks, mask_bytes, observation_shape
from erqishi.rl.render import view_text

__all__ = ["DEFAULT_ILLEGAL_REWARD", "ClassicEnv", "env", "make_rules", "quan_count_alias", "raw_env"]

_INT8 = np.dtype(np.int8)
_OVER, _RESPONSE = Phase.OVER, Phase.RESPONSE
_Observation = dict[str, npt.NDArray[Any]]
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


def quan_count_alias(match_quan: int | None, quan_count: int | None) -> int | None:
    """``match_quan`` given under either name: ``quan_count`` is another name for it
    (``env(players=3, rules="leshan", quan_count=2)``).

    Raises:
        ValueError: both given, and different.
    """
    if quan_count is None:
        return match_quan
    if match_quan is not None and match_quan != quan_count:
        raise ValueError(f"match_quan={match_quan} and quan_count={quan_count} disagree: give one of them")
    return quan_count


def env(**kwargs: Any) -> ClassicEnv:
    """The environment as PettingZoo's classic environments give theirs: with the checks
    of ``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper`` and
    ``TerminateIllegalWrapper`` (an illegal action ends the episode, ``illegal_reward``,
    default -1000, to the agent that took it, 0 to the others). Keywords as
    :class:`raw_env`, plus ``illegal_reward``.

    The checks are built into one class, :class:`ClassicEnv`, instead of three wrapper
    layers, which cost more per step than the observation (see :class:`ClassicEnv`)."""
    return ClassicEnv(**kwargs)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """The unwrapped environment (see the module text).

    Args:
        players: seats (2, 3 or 4), over the rule set's own count.
        rules: a preset name, JSON options or a RuleSet (R-10).
        match: one episode is a whole match instead of one hand.
        match_quan: 圈 per match (the rule option ``match_quan``, R-2.4).
        render_mode: ``"human"`` (print) or ``"ansi"`` (return the text), or None.
        names: the seats' names in records and ``render()`` (default ``座0``…).
        quan_count: another name for ``match_quan``.

    Raises:
        ValueError: a bad ``render_mode``, or ``match_quan`` and ``quan_count`` disagree.
        ErqishiError: bad rules, players or names.

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
        *,
        quan_count: int | None = None,
    ) -> None:
        match_quan = quan_count_alias(match_quan, quan_count)
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
        self._declared: dict[int, Action] = {}
        self._paid = False  # some reward is not 0 (a hand ended at the last step)
        #: the selected seat's options as a mask (a copy), with the state and seat it is of
        self._legal: tuple[State, int, bytes] | None = None

    # ------------------------------------------------------------------ copies

    def __getstate__(self) -> dict[str, Any]:
        """The whole environment, its episode in progress included: ``pickle`` and
        ``copy.deepcopy`` give an environment that goes on from the same step (for search
        that copies an environment mid-episode). EzPickle's way, a new environment from the
        constructor's arguments, is for environments wrapping C code; this one is Python."""
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`__getstate__` saved."""
        self.__dict__.update(state)

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
        so the same seed and actions give the same episode.

        Raises:
            ValueError: ``seed`` is not a whole number 0 or more (as Gymnasium's seeding:
                ``random.Random`` would give -5 the episodes of 5).
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
                raise ValueError(f"seed must be a whole number 0 or more, got {seed!r}")
            self._rng = random.Random(int(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._encoder = ObservationEncoder()
        self._paid = False
        self._legal = None
        # each episode's table gets a generator of its own, seeded from the stream: the
        # episodes of a stream deal the same cards whatever the agents did in earlier ones
        # (dealing from the stream itself would make them depend on how many hands a match
        # dealt)
        self.table = Table(self.rules, random.Random(self._rng.getrandbits(64)), self.names, auto_close=False)
        self.table.start_hand()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def _ask(self) -> None:
        """The seats asked in the current state (:func:`erqishi.play.asked`), their options;
        a seat whose only option is the 开 it owes (R-5.12) has no choice: it is declared
        for it (:func:`~erqishi.play.owed_kai`, as :meth:`~erqishi.play.Table.forced`) and
        never selected."""
        table = self.table
        state = table.state if table is not None else None
        assert table is not None and state is not None
        self._asked_of = state
        self._asked = asked(state)
        declared: dict[int, Action] = {}
        self._declared = declared
        if state.phase is _RESPONSE:
            for s in self._asked:
                owed = owed_kai(state, s)
                if owed is not None:
                    declared[s] = owed

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
        return seat_options(table.state, seat)  # kept by the engine, per state and seat

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
            if state.phase is _OVER:
                last = table.hands[-1]
                for s, payment in enumerate(last.outcome.payments):
                    self.rewards[self.possible_agents[s]] += float(payment)
                self._paid = True
                if self.match and not table.match.is_over:
                    table.start_hand()
                    continue
                self.terminations = dict.fromkeys(self.agents, True)
                return
            if self._asked_of is not state:
                self._ask()
            if len(self._declared) < len(self._asked):
                break
            # nobody may do more than pass, or every seat asked owes its 开
            table.play(*resolve(state, self._declared))
        declared = self._declared
        for s in self._asked:
            if s not in declared:
                self.agent_selection = self.possible_agents[s]
                return

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The selected agent takes ``action`` (an index of the action space): its move, or
        in a response window its declaration; the window is resolved by the engine (R-5.4)
        once every seat asked has declared.

        Raises:
            IllegalActionError: the action is not one of the agent's options (the engine's
                message says why); ``env()`` ends the episode instead.
            IndexError: ``action`` is an integer outside the action space.
            TypeError: ``action`` is no integer (a float, a string, ``None`` while alive …).
            ErqishiError: before ``reset``, or once every agent is done.
        """
        table = self.table
        if table is None or table.state is None:
            raise ErqishiError("call reset() first")
        agent = self.agent_selection
        if not self.agents or agent not in self.terminations:
            raise ErqishiError("the episode is over: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = index_of(action)
        seat = self._seat[agent]
        if not self._is_option(seat, index):
            raise IllegalActionError(table.why_not(seat, ACTIONS[index]).message)
        self._play(agent, seat, index)

    def _is_option(self, seat: int, index: int) -> bool:
        """``ACTIONS[index]`` is one of the options of ``seat`` (:meth:`options`, the
        engine's): read from the mask last shown to the selected seat when it is of this
        state and seat."""
        table = self.table
        legal = self._legal
        if legal is not None and table is not None and legal[0] is table.state and legal[1] == seat:
            return bool(legal[2][index])
        return ACTIONS[index] in self.options(seat)

    def _play(self, agent: str, seat: int, index: int) -> None:
        """The selected ``agent`` (``seat``) takes the action ``index``, one of its options."""
        table = self.table
        assert table is not None and table.state is not None
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        state = table.state
        chosen = ACTIONS[index]
        if state.phase is _RESPONSE:
            self._declared[seat] = chosen
            if len(self._declared) == len(self._asked):
                table.play(*resolve(state, self._declared))
        else:
            table.play(seat, chosen)
        self._after_move()
        if self._paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ observations

    def player_view(self, agent: str) -> PlayerView:
        """The :class:`PlayerView` of ``agent`` now (R-9).

        Raises:
            ErqishiError: before the first ``reset``, or ``agent`` is none of the agents.
        """
        if self.table is None or self.table.state is None:
            raise ErqishiError("call reset() first")
        return view(self.table.state, self._seat_of(agent))

    def marks(self, agent: str) -> OwnMarks:
        """The own marks of ``agent`` (过张, 回笼, 过胡) now.

        Raises:
            ErqishiError: before the first ``reset``, or ``agent`` is none of the agents.
        """
        if self.table is None or self.table.state is None:
            raise ErqishiError("call reset() first")
        return OwnMarks.of(self.table.state, self._seat_of(agent))

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``{"observation": planes, "action_mask": mask}`` of ``agent`` from its own
        view and marks alone (new arrays on every call).

        Raises:
            ErqishiError: ``agent`` is none of the agents, or before the first ``reset``.
        """
        self._seat_of(agent)
        return self._observe(agent)

    def _seat_of(self, agent: str) -> int:
        """The seat of ``agent``.

        Raises:
            ErqishiError: no such agent, naming the agents.
        """
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ErqishiError(
                f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}",
                zh=f"没有 {agent!r} 这个 agent：agent 有 {'、'.join(self.possible_agents)}",
            )
        return seat

    def last(self, observe: bool = True) -> tuple[_Observation | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and
        info (PettingZoo's ``last``)."""
        agent = self.agent_selection
        return (
            self._observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        table = self.table
        state = table.state if table is not None else None
        if state is None:
            raise ErqishiError("call reset() first")
        seat = self._seat[agent]
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)  # gone once done
        if agent == self.agent_selection and not done:
            legal = self._legal
            if legal is None or legal[0] is not state or legal[1] != seat:
                # the selected seat is asked and has not declared (_after_move): its own
                # options, PlayerView.legal, as options() gives them
                raw = mask_bytes(seat_options(state, seat))
                self._legal = (state, seat, bytes(raw))
            else:
                raw = bytearray(legal[2])
            mask = np.ndarray((N_ACTIONS,), _INT8, raw)
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": self._encoder.encode_state(state, seat), "action_mask": mask}

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


#: The attributes that ``OrderEnforcingWrapper`` refuses before the first ``reset``.
_BEFORE_RESET = ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents")


class ClassicEnv(raw_env):
    """What :func:`env` returns: :class:`raw_env` with the checks of PettingZoo's classic
    wrappers built in, each as the wrapper makes it (PettingZoo 1.27; a test steps both
    side by side):

    - ``OrderEnforcingWrapper``: ``step``, ``observe``, ``render``, ``state`` and
      ``agent_iter`` before the first ``reset`` raise PettingZoo's errors, and reading
      ``agents``, ``agent_selection``, ``rewards``, ``terminations``, ``truncations``,
      ``infos`` or ``num_agents`` then is an ``AttributeError``; ``step`` once no agent is
      left only warns; ``agent_iter`` asserts a ``step`` between two agents.
    - ``AssertOutOfBoundsWrapper``: an action outside ``Discrete(884)`` (what Gymnasium's
      ``Discrete.contains`` refuses: not an integer, or out of range) is an
      ``AssertionError``, except ``None`` for an agent that is done.
    - ``TerminateIllegalWrapper``: an action outside the agent's mask (the engine's
      options) warns, ends the episode (every agent terminated and truncated), gives the
      agent ``illegal_reward`` and the others 0; a done agent steps with ``None``.

    One class instead of three layers: each layer re-dispatched every ``step`` and
    ``observe`` and every attribute read through ``__getattr__``, and
    ``AssertOutOfBoundsWrapper`` asked ``Discrete.contains`` (a numpy conversion) on every
    step, which together cost more than the observation. ``unwrapped`` is the environment
    itself; ``raw_env`` raises the engine's ``IllegalActionError`` instead.
    """

    def __init__(
        self,
        players: int | None = None,
        rules: str | RuleSet = "leshan",
        match: bool = False,
        match_quan: int | None = None,
        render_mode: str | None = None,
        names: list[str] | None = None,
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        *,
        quan_count: int | None = None,
    ) -> None:
        match_quan = quan_count_alias(match_quan, quan_count)
        super().__init__(players, rules, match, match_quan, render_mode, names)
        EzPickle.__init__(self, players, rules, match, match_quan, render_mode, names, illegal_reward)
        self.illegal_reward = float(illegal_reward)
        self._has_reset = False
        self._has_updated = False
        self._terminated = False  # ended by an illegal action
        for name in _BEFORE_RESET:
            delattr(self, name)  # until reset (OrderEnforcingWrapper)
        if type(self) is ClassicEnv:
            self.__class__ = ClassicEnvBeforeReset  # its message for them, until reset

    @property
    def num_agents(self) -> int:
        """The agents still in the episode."""
        if not self._has_reset:
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self.agents)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """As :meth:`raw_env.reset`."""
        if type(self) is ClassicEnvBeforeReset:
            self.__class__ = ClassicEnv
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """As :meth:`raw_env.observe`."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        self._seat_of(agent)
        return self._observe(agent)

    def render(self) -> str | None:
        """As :meth:`raw_env.render`."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> npt.NDArray[Any]:
        """No global state (as :class:`raw_env`), after the order check."""
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """The selected agent until every agent is done, a ``step`` between two."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedIterable(self, max_iter)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """As :meth:`raw_env.step`, with the wrappers' checks (see the class text)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = self.agent_selection
        done = self.terminations[agent] or self.truncations[agent]
        if type(action) is int and 0 <= action < N_ACTIONS:
            index = action
        elif action is None and done:
            index = -1
        elif in_action_space(action):
            index = int(action)  # type: ignore[arg-type]
        else:
            raise AssertionError("action is not in action space")
        if done:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        if not self._is_option(seat, index):
            EnvLogger.warn_on_illegal_move()
            self._cumulative_rewards[agent] = 0
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.truncations, 0)
            self.rewards[agent] = self.illegal_reward
            self._accumulate_rewards()
            self._deads_step_first()
            self._terminated = True
            return
        self._play(agent, seat, index)


class ClassicEnvBeforeReset(ClassicEnv):
    """A :class:`ClassicEnv` until its first ``reset``, which makes it a plain
    :class:`ClassicEnv`: reading ``rewards``, ``agents`` … before then says so, as
    ``OrderEnforcingWrapper`` does. Its own class because a ``__getattr__`` on a class,
    even one never reached, keeps CPython from specialising every attribute read of its
    instances (about a tenth of a step)."""

    def __getattr__(self, name: str) -> Any:
        """Only reached for a missing attribute: those ``reset`` sets, before it."""
        if name in _BEFORE_RESET or name == "num_agents":  # the property's own error lands here
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"'ClassicEnv' object has no attribute {name!r}")


class _OrderedIterable(AECIterable):  # type: ignore[misc]
    """``agent_iter`` of :class:`ClassicEnv` (OrderEnforcingWrapper's)."""

    def __iter__(self) -> _OrderedIterator:
        return _OrderedIterator(self.env, self.max_iter)


class _OrderedIterator(AECIterator):  # type: ignore[misc]
    """Asserts a ``step`` (or ``reset``) between two agents, as OrderEnforcingWrapper's."""

    env: ClassicEnv

    def __next__(self) -> str:
        env = self.env  # AECIterator.__next__, inlined (one call less per step)
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return env.agent_selection

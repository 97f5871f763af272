"""The Gymnasium single-agent environment: registered on import, Gymnasium's check_env, the
mask of the learning seat, rewards equal to its R-8 payment, opponents of every kind."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import erqishi.rl
from erqishi.bots import RandomBot
from erqishi.core import Card
from erqishi.core.engine import Action, PlayerView, seat_options
from erqishi.core.errors import IllegalActionError
from erqishi.rl import ENV_ID, N_ACTIONS, ErqishiEnv, ObservationPolicy
from erqishi.rl.actions import decode_action


def test_registered_on_import() -> None:
    assert erqishi.rl.ENV_ID == "erqishi/Erqishi-v0" and ENV_ID in gymnasium.registry
    env = gymnasium.make(ENV_ID, opponents="heuristic")
    assert isinstance(env.unwrapped, ErqishiEnv)


def test_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make(ENV_ID, opponents="random").unwrapped, skip_render_check=True)


def _episode(env: gymnasium.Env, seed: int, rng: random.Random) -> tuple[float, ErqishiEnv]:
    obs, info = env.reset(seed=seed)
    raw = env.unwrapped
    assert isinstance(raw, ErqishiEnv)
    total = 0.0
    while True:
        mask = info["action_mask"]
        state = raw.table.state
        assert {decode_action(int(i)) for i in np.flatnonzero(mask)} == set(seat_options(state, raw.seat))
        assert np.array_equal(raw.action_masks(), mask.astype(bool))
        assert obs in raw.observation_space
        legal = np.flatnonzero(mask)
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        total += reward
        if terminated or truncated:
            return total, raw


@pytest.mark.parametrize(("players", "seat"), [(3, 0), (2, 1), (4, 2)])
def test_the_reward_is_the_learning_seats_payment(players: int, seat: int) -> None:
    env = gymnasium.make(ENV_ID, opponents="heuristic", players=players, seat=seat)
    rng = random.Random(players)
    paid = 0
    for episode in range(6):
        total, raw = _episode(env, 50 + episode, rng)
        payments = raw.record()["result"]["payments"]  # type: ignore[index]
        assert total == float(payments[seat])
        assert sum(payments) == 0
        paid += payments[seat] != 0
    assert paid > 0


def test_opponents_of_every_kind() -> None:
    calls: list[int] = []

    def first(view: PlayerView, rng: random.Random) -> Action:
        calls.append(view.seat)
        return view.legal[0]

    env = gymnasium.make(ENV_ID, opponents=[RandomBot(), first], players=3, seat=1)
    _episode(env, 1, random.Random(1))
    env2 = gymnasium.make(ENV_ID, opponents=ObservationPolicy(lambda obs, mask: int(np.flatnonzero(mask)[-1])))
    _episode(env2, 2, random.Random(2))
    assert calls and set(calls) == {2}
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make(ENV_ID, opponents="nobody")


def test_seeded_episodes_repeat() -> None:
    def record(seed: int) -> dict[str, object]:
        env = gymnasium.make(ENV_ID, opponents="heuristic")
        _, raw = _episode(env, seed, random.Random(0))
        return raw.record()

    assert record(5) == record(5)


def test_an_action_outside_the_mask_ends_the_episode() -> None:
    env = gymnasium.make(ENV_ID, opponents="random", illegal_reward=-50.0)
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -50.0 and info["illegal_action"]
    assert env.action_space.n == N_ACTIONS


@pytest.mark.parametrize("action", [1.9, "5", None, np.array([3]), np.float32(2.0)])
def test_an_action_that_is_no_integer_is_refused_clearly(action: object) -> None:
    """An action is an index of ``Discrete(884)``: a float, a string, ``None`` or a 1-d array
    is a ``TypeError`` naming it, never played as some index."""
    env = ErqishiEnv(opponents="random")
    env.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an index 0-883"):
        env.step(action)  # type: ignore[arg-type]


def test_an_opponent_that_returns_no_index_is_named() -> None:
    """A callable opponent's answer must be an index of the space (or an Action): a negative
    one is not Python's indexing from the end, a huge one is no bare IndexError."""

    answers: list[tuple[object, type[Exception]]] = [(-884, IndexError), (10**6, IndexError), (2.5, TypeError)]
    for answer, error in answers:
        env = ErqishiEnv(opponents=lambda v, r, answer=answer: answer, seat=1)
        with pytest.raises(error, match=r"the action opponent .* chose"):
            env.reset(seed=3)
            for _ in range(200):
                env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_an_observation_policy_sees_the_marks_only_when_asked() -> None:
    """``ObservationPolicy(marks=False)`` shows the policy empty mark planes (17-20); by
    default it shows the seat's own marks."""
    from erqishi.rl.encoding import PLANES, OwnMarks

    seen: list[np.ndarray] = []

    def record(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append(obs)
        return int(mask.argmax())

    marks = OwnMarks(guozhang=0b101, huilong=0b10, guohu=12)
    e = ErqishiEnv(opponents="random")
    e.reset(seed=2)
    env_view = e._env.player_view(e.agent)
    rows = [PLANES.index(n) for n in ("guozhang", "huilong", "guohu", "guohu_score")]
    ObservationPolicy(record).choose(env_view, random.Random(0), marks)
    ObservationPolicy(record, marks=False).choose(env_view, random.Random(0), marks)
    assert seen[0][rows].any() and not seen[1][rows].any()


@pytest.mark.parametrize("seed", [848, 2202, 2338, 1, 2, 3, 4, 5])
def test_a_match_episode_returns_the_seats_match_total(seed: int) -> None:
    """With ``match=True`` the episode is the match (R-8.3: totals carry across its hands):
    its return is the learning seat's total in the match record, even when a hand ends
    before the seat's first decision (seeds 848, 2202 and 2338 begin with such a hand)."""
    env = gymnasium.make(ENV_ID, opponents="heuristic", players=3, seat=1, match=True, match_quan=1)
    _, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
    record = env.unwrapped.record()  # type: ignore[attr-defined]
    assert total == float(record["totals"][1])
    assert sum(record["totals"]) == 0


def test_quan_count_is_another_name_for_match_quan() -> None:
    from erqishi.rl import erqishi_v0

    assert erqishi_v0.env(quan_count=2).unwrapped.rules.match_quan == 2
    assert erqishi_v0.raw_env(players=3, rules="leshan", quan_count=3).rules.match_quan == 3
    assert ErqishiEnv(quan_count=2, match=True).rules.match_quan == 2
    with pytest.raises(ValueError, match="disagree"):
        erqishi_v0.raw_env(match_quan=2, quan_count=3)


def test_an_opponents_action_outside_its_options_is_named() -> None:
    """A bot whose answer is no action of the space, or not one of its options, is named
    with its seat (not a bare KeyError from the action table)."""

    class Outside:
        def choose(self, view: PlayerView, rng: random.Random) -> Action:
            return Action.parse("chi x1 x5")

    class NotAnOption:
        def choose(self, view: PlayerView, rng: random.Random) -> Action:
            held = set(view.hand)
            return next(Action.discard(c) for c in Card if c not in held)

    for bot, error in [(Outside(), TypeError), (NotAnOption(), IllegalActionError)]:
        env = ErqishiEnv(opponents=bot, seat=1)
        with pytest.raises(error, match=r"the opponent .* of seat [02]"):
            env.reset(seed=3)
            for _ in range(200):
                env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_bad_seats_and_callable_opponents_are_named() -> None:
    """A seat given as text is a TypeError naming ``seat``; an opponent function that
    answers outside the action space is named as its author wrote it."""
    with pytest.raises(TypeError, match="seat must be a seat number 0-2, got str '0'"):
        ErqishiEnv(seat="0")  # type: ignore[arg-type]

    def my_policy(view: object, rng: object) -> int:
        return 999

    env = ErqishiEnv(opponents=my_policy)
    with pytest.raises(IndexError, match="my_policy chose 999"):
        _, info = env.reset(seed=1)
        for _ in range(60):
            env.step(int(np.flatnonzero(info["action_mask"])[0]))
            info = {"action_mask": env.action_masks()}

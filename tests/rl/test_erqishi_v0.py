"""The PettingZoo AEC environment erqishi_v0: PettingZoo's own API and seed tests for every
player count and preset, the response window asked seat by seat, rewards that are the
record's R-8 payments, seeding, illegal actions and rendering."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from erqishi.bots import HeuristicBot
from erqishi.core import IllegalActionError
from erqishi.core.engine import PASS, ActionKind, Phase, State, seat_options, why_illegal
from erqishi.play import asked
from erqishi.rl import N_ACTIONS, erqishi_v0
from erqishi.rl.actions import action_index, decode_action


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", message=".*NumPy array.*")
    warnings.filterwarnings("ignore", message=".*Observation space for each agent.*")
    warnings.filterwarnings("ignore", message=".*illegal move.*")


def test_api_test_three_players() -> None:
    api_test(erqishi_v0.env(), num_cycles=1000)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 4},
        {"rules": "duikou"},
        {"rules": "meishan", "players": 4},
        {"rules": "app"},
        {"rules": "jianwei", "players": 2},
        {"rules": '{"yu": true}'},
        {"match": True, "match_quan": 1},
    ],
)
def test_api_test_any_preset_and_player_count(kwargs: dict[str, object]) -> None:
    api_test(erqishi_v0.env(**kwargs), num_cycles=300)


def test_seed_test() -> None:
    seed_test(erqishi_v0.env, num_cycles=200)


def _play(env: erqishi_v0.raw_env, rng: random.Random, check: bool = True, bot: bool = False) -> dict[str, float]:
    """An episode of random masked actions (or the heuristic bot's, from the seat's view);
    checks each step against the engine."""
    heuristic = HeuristicBot()
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        raw = env.unwrapped
        state = raw.table.state
        seat = int(agent.split("_")[1])
        legal = np.flatnonzero(obs["action_mask"])
        if check:
            # the mask is exactly the seat's own options; a seat is asked only with a choice
            assert {decode_action(int(i)) for i in legal} == set(seat_options(state, seat))
            assert seat in asked(state)
            if state.phase is Phase.RESPONSE:
                assert seat_options(state, seat) != (PASS,)
                assert raw.table.forced(seat) is None  # an owed 开 alone is no choice
            for other in env.possible_agents:
                if other != agent:
                    assert not raw.observe(other)["action_mask"].any()
        if bot:
            env.step(action_index(heuristic.choose(raw.player_view(agent), rng)))
        else:
            env.step(int(legal[rng.randrange(len(legal))]))
    return total


@pytest.mark.parametrize("kwargs", [{}, {"players": 2}, {"players": 4}, {"rules": "app"}])
def test_rewards_are_the_records_payments_and_sum_to_zero(kwargs: dict[str, object]) -> None:
    env = erqishi_v0.env(**kwargs)
    rng = random.Random(3)
    wins = 0
    for episode in range(10):
        env.reset(seed=100 + episode)
        total = _play(env, rng, bot=True)
        record = env.unwrapped.record()
        payments = record["result"]["payments"]  # type: ignore[index]
        assert [total[a] for a in env.possible_agents] == [float(p) for p in payments]
        assert sum(payments) == 0
        wins += record["result"]["kind"] == "win"  # type: ignore[index]
    assert wins > 0


def test_a_match_pays_every_hand() -> None:
    env = erqishi_v0.env(match=True, match_quan=1)
    env.reset(seed=9)
    total = _play(env, random.Random(9), check=False)
    table = env.unwrapped.table
    assert len(table.hands) >= 3  # every seat dealt once: one 圈
    assert [total[a] for a in env.possible_agents] == [float(t) for t in table.match.totals]
    assert sum(table.match.totals) == 0


def test_the_response_window_is_asked_seat_by_seat_and_reveals_nothing() -> None:
    """In a window with two or more seats asked, each is asked in seat order, and a seat's
    observation is the same before and after another declares (R-9)."""
    env = erqishi_v0.raw_env()
    rng = random.Random(1)
    windows = 0
    for state in _decisions(env, 40):
        seats = [s for s in asked(state) if env.table.forced(s) is None]  # a forced 开 is no choice
        if state.phase is Phase.RESPONSE and len(seats) >= 2:
            windows += 1
            before = {s: env.observe(f"player_{s}")["observation"] for s in seats}
            for s in seats:
                assert env.agent_selection == f"player_{s}"
                assert env.table.state is state  # nothing applied while declarations come in
                assert np.array_equal(env.observe(f"player_{s}")["observation"], before[s])
                _step_at_random(env, rng)
            continue
        _step_at_random(env, rng)
    assert windows > 5


def _decisions(env: erqishi_v0.raw_env, episodes: int) -> Iterator[State]:
    """The state at each decision of ``episodes`` seeded episodes (the caller steps)."""
    for episode in range(episodes):
        env.reset(seed=episode)
        while not all(env.terminations.values()):
            state = env.table.state
            assert state is not None
            yield state


def _step_at_random(env: erqishi_v0.raw_env, rng: random.Random) -> None:
    """The selected agent takes a random action of its mask."""
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(rng.choice(np.flatnonzero(mask))))


def test_reset_with_a_seed_repeats_the_episode() -> None:
    def episode(seed: int) -> dict[str, object]:
        env = erqishi_v0.env()
        env.reset(seed=seed)
        _play(env, random.Random(0), check=False)
        return env.unwrapped.record()

    assert episode(77) == episode(77)
    assert episode(77) != episode(78)


def test_the_episodes_of_a_stream_deal_the_same_cards_whatever_was_played_before() -> None:
    """After ``reset(seed=s)`` the next episodes' deals do not depend on the agents: a match
    played to its end and one ended by an illegal action after its first hand (how many
    hands each dealt differs) are followed by the same deal (fair paired evaluation)."""

    def next_deal(end_early: bool) -> object:
        env = erqishi_v0.env(match=True, match_quan=1)
        env.reset(seed=3)
        if end_early:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask == 0)[0]))  # ends the match (TerminateIllegal)
            assert env.unwrapped.table.hand_number == 1
        else:
            _play(env, random.Random(1), check=False)
            assert env.unwrapped.table.hand_number > 1
        env.reset()
        return env.unwrapped.table.deal

    assert next_deal(end_early=True) == next_deal(end_early=False)


def test_an_illegal_action_ends_the_episode_as_in_pettingzoo_classic() -> None:
    env = erqishi_v0.env(illegal_reward=-1000)
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1000
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)


def test_the_raw_env_refuses_an_illegal_action_with_the_engines_reason() -> None:
    env = erqishi_v0.raw_env()
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    index = int(np.flatnonzero(mask == 0)[0])
    seat = int(env.agent_selection.split("_")[1])
    reason = why_illegal(env.table.state, seat, decode_action(index), declaring=True).message
    with pytest.raises(IllegalActionError) as refused:
        env.step(index)
    assert str(refused.value) == reason
    with pytest.raises(IndexError):
        env.step(N_ACTIONS)


def test_render_shows_the_seats_view_in_chinese() -> None:
    env = erqishi_v0.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert "你的手牌" in text and "堂牌" in text
    seat = int(env.agent_selection.split("_")[1])
    own = "".join(str(c) for c in env.unwrapped.player_view(env.agent_selection).hand)
    assert own in text
    assert env.unwrapped.table.state.seats[seat] is not None


def test_spaces() -> None:
    env = erqishi_v0.env(players=4)
    env.reset(seed=0)
    for agent in env.possible_agents:
        assert env.action_space(agent).n == N_ACTIONS
        assert env.observation_space(agent)["observation"].shape == (109, 20)
        assert env.observe(agent) in env.observation_space(agent)


def _pettingzoo_wrapped(**kwargs: object) -> object:
    """The raw environment in PettingZoo's own three classic wrappers, as env() had it."""
    from pettingzoo.utils import wrappers

    raw = erqishi_v0.raw_env(**kwargs)  # type: ignore[arg-type]
    return wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1000.0))
    )


@pytest.mark.parametrize("kwargs", [{}, {"players": 4}, {"match": True, "match_quan": 1}])
def test_env_does_what_pettingzoos_classic_wrappers_do(kwargs: dict[str, object]) -> None:
    """env() builds the checks of OrderEnforcing, AssertOutOfBounds and TerminateIllegal
    into one class: stepping it and the raw environment in PettingZoo's wrappers with the
    same actions, legal ones and now and then a masked-out one, gives the same agents,
    observations, rewards, terminations and truncations after every step."""
    ours = erqishi_v0.env(**kwargs)  # type: ignore[arg-type]
    theirs = _pettingzoo_wrapped(**kwargs)
    rng = random.Random(11)
    illegal_episodes = 0
    for episode in range(12):
        ours.reset(seed=episode)
        theirs.reset(seed=episode)  # type: ignore[attr-defined]
        went_illegal = False
        illegal_at = rng.randrange(25) if episode % 3 == 0 else -1  # the step that breaks the rules
        for step, agent in enumerate(ours.agent_iter()):
            assert agent == theirs.agent_selection  # type: ignore[attr-defined]
            a, b = ours.last(), theirs.last()  # type: ignore[attr-defined]
            assert np.array_equal(a[0]["observation"], b[0]["observation"])
            assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
            assert a[1:] == b[1:]
            if a[2] or a[3]:
                action = None
            else:
                mask = a[0]["action_mask"]
                pick = 1 - mask if step == illegal_at else mask
                action = int(rng.choice(np.flatnonzero(pick)))
                went_illegal = went_illegal or not mask[action]
            ours.step(action)
            theirs.step(action)  # type: ignore[attr-defined]
            for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "agents"):
                assert getattr(ours, name) == getattr(theirs, name), name
        illegal_episodes += went_illegal
    assert illegal_episodes > 0


def test_env_refuses_what_the_wrappers_refuse() -> None:
    """Before reset: step, observe, and the per-step attributes are refused (OrderEnforcing);
    an action outside the space is an AssertionError (AssertOutOfBounds), for us and for
    PettingZoo's wrappers alike."""
    for env in (erqishi_v0.env(), _pettingzoo_wrapped()):
        with pytest.raises(AssertionError):
            env.step(0)  # type: ignore[attr-defined]
        with pytest.raises(AssertionError):
            env.observe("player_0")  # type: ignore[attr-defined]
        for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"):
            with pytest.raises(AttributeError):
                getattr(env, name)
        env.reset(seed=1)  # type: ignore[attr-defined]
        for bad in (N_ACTIONS, -1, 1.5, None, "3", np.float32(2)):
            with pytest.raises(AssertionError):
                env.step(bad)  # type: ignore[attr-defined]
        mask = env.observe(env.agent_selection)["action_mask"]  # type: ignore[attr-defined]
        env.step(np.int64(np.flatnonzero(mask)[0]))  # type: ignore[attr-defined]  # numpy integers are actions
        assert not any(env.terminations.values())  # type: ignore[attr-defined]


def test_observing_twice_gives_equal_independent_arrays() -> None:
    env = erqishi_v0.env()
    env.reset(seed=5)
    agent = env.agent_selection
    first = env.observe(agent)
    first["observation"][:] = 0.5  # a learner may write into what it got
    first["action_mask"][:] = 1
    second = env.observe(agent)
    assert second["observation"].max() <= 1.0 and not np.all(second["observation"] == 0.5)
    legal = {decode_action(int(i)) for i in np.flatnonzero(second["action_mask"])}
    assert legal == set(seat_options(env.unwrapped.table.state, int(agent.split("_")[1])))
    illegal = int(np.flatnonzero(second["action_mask"] == 0)[0])
    env.step(illegal)  # still refused: the writes above changed nothing the env keeps
    assert all(env.terminations.values())


def test_env_says_what_waits_for_reset_and_pickles_either_side_of_it() -> None:
    """OrderEnforcingWrapper's message before the first reset; after it the environment
    is a plain ClassicEnv (no __getattr__ slowing each attribute read). Either way it
    pickles into an environment that plays the same episode."""
    import pickle

    env = erqishi_v0.env()
    with pytest.raises(AttributeError, match="rewards cannot be accessed before reset"):
        env.rewards  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        env.nonsense  # type: ignore[attr-defined]  # noqa: B018
    assert isinstance(env, erqishi_v0.ClassicEnv)
    copy = pickle.loads(pickle.dumps(env))
    for e in (env, copy):
        e.reset(seed=5)
        assert type(e) is erqishi_v0.ClassicEnv and not hasattr(type(e), "__getattr__")
    played = []
    for e in (env, copy):
        moves = []
        for agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            index = int(np.flatnonzero(e.observe(agent)["action_mask"])[0])
            moves.append((agent, index))
            e.step(index)
        played.append(moves)
    assert played[0] == played[1] and played[0]
    again = pickle.loads(pickle.dumps(env))  # after reset too
    again.reset(seed=5)
    assert type(again) is erqishi_v0.ClassicEnv and not again.terminations[again.agent_selection]


def test_a_seat_whose_only_option_is_the_kai_it_owes_is_not_asked() -> None:
    """R-5.12 有开必开: a seat that holds a 坎 of the pending card and may do nothing else
    has no choice: it is never selected, and its 开 is made (the issue: "seats without a
    choice are not asked")."""
    from erqishi.core.engine import KAI

    env = erqishi_v0.raw_env()
    rng = random.Random(2)
    forced_windows = 0
    for state in _decisions(env, 150):
        forced = [s for s in env.table.waiting() if seat_options(state, s) == (KAI,)]
        if state.phase is Phase.RESPONSE and forced:
            forced_windows += 1
            done = len(env.table.actions)
            while env.table.state is state:
                assert env._seat[env.agent_selection] not in forced
                _step_at_random(env, rng)
            seat, action = env.table.actions[done]  # the window's effective move
            assert action.kind is ActionKind.HU or (seat, action) == (forced[0], KAI)
            continue
        _step_at_random(env, rng)
    assert forced_windows >= 3


def test_raw_env_refuses_what_is_no_action_clearly() -> None:
    """``raw_env`` (no PettingZoo wrappers) says what is wrong instead of playing a float, a
    string or a negative index as some action, or failing with a bare KeyError or
    AssertionError before ``reset`` and after the episode."""
    from erqishi.core.errors import ErqishiError

    env = erqishi_v0.raw_env()
    with pytest.raises(ErqishiError, match="call reset"):
        env.step(0)
    env.reset(seed=5)
    for bad, error in ((1.0, TypeError), ("3", TypeError), (np.float32(2), TypeError), (-1, IndexError)):
        with pytest.raises(error, match="0-883"):
            env.step(bad)  # type: ignore[arg-type]
    _play(env, random.Random(1), check=False)
    assert not env.agents
    assert not env.observe("player_0")["action_mask"].any()  # a done agent's mask is zeros
    with pytest.raises(ErqishiError, match="episode is over"):
        env.step(0)
    fresh = erqishi_v0.env()
    with pytest.raises(AttributeError, match="num_agents cannot be accessed before reset"):
        fresh.num_agents  # noqa: B018


@pytest.mark.parametrize("make", [erqishi_v0.raw_env, erqishi_v0.env])
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_made_mid_episode_goes_on_from_the_same_step(make: object, how: str) -> None:
    """Search copies an environment in the middle of a hand: the copy holds the episode
    (the table, whose turn, the rewards so far) and, given the same actions, shows the same
    observations, masks, rewards and ends as the original; the two never share state."""
    import copy
    import pickle

    env = make()  # type: ignore[operator]
    env.reset(seed=3)
    rng = random.Random(1)
    for _ in range(12):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    dup = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert dup.agent_selection == env.agent_selection and dup.table is not env.table
    steps = 0
    while env.agents:
        mine, theirs = env.last(), dup.last()
        assert np.array_equal(mine[0]["observation"], theirs[0]["observation"])
        assert np.array_equal(mine[0]["action_mask"], theirs[0]["action_mask"])
        assert mine[1:4] == theirs[1:4] and env.agent_selection == dup.agent_selection
        if mine[2] or mine[3]:
            env.step(None)
            dup.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
        env.step(action)
        dup.step(action)
        steps += 1
    assert steps > 0 and not dup.agents
    assert dup.table.hands[-1].record.to_json() == env.table.hands[-1].record.to_json()


def test_seeds_are_whole_numbers_0_or_more_and_agents_are_named() -> None:
    """As Gymnasium seeds: random.Random would give seed -5 the episodes of seed 5, so a
    negative seed is refused; a numpy integer seeds as the same int. Observing an agent
    that does not exist names the agents."""
    env = erqishi_v0.env()
    for bad in (-5, 1.5, "7", True):
        with pytest.raises(ValueError, match="seed must be a whole number 0 or more"):
            env.reset(seed=bad)  # type: ignore[arg-type]
    env.reset(seed=np.int64(7))
    first = env.last()[0]
    env.reset(seed=7)
    again = env.last()[0]
    assert first is not None and again is not None
    assert np.array_equal(first["observation"], again["observation"])
    with pytest.raises(ValueError, match="no agent 'player_9': the agents are player_0, player_1, player_2"):
        env.observe("player_9")
    with pytest.raises(ValueError, match="no agent"):
        env.unwrapped.player_view("seat 1")

"""The OpenSpiel game ``erqishi``: registered with pyspiel, OpenSpiel's random simulation
test, chance as the deal, per-player information states that hide the others' cards, the
resampler, returns equal to the engine's R-8 payments, and Python ISMCTS and MCTS games to
the end."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import erqishi.rl.openspiel_game  # noqa: F401 - registers the game
from erqishi.core.engine import seat_options, view
from erqishi.rl.actions import N_ACTIONS, action_index
from erqishi.rl.encoding import encode_observation, observation_shape
from erqishi.rl.openspiel_game import ErqishiState


def _deal(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def test_registered() -> None:
    assert "erqishi" in pyspiel.registered_names()
    game = pyspiel.load_game("erqishi")
    assert game.num_players() == 3 and game.num_distinct_actions() == N_ACTIONS
    assert game.get_type().provides_information_state_tensor


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_simulation(players: int) -> None:
    game = pyspiel.load_game("erqishi", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_information_states_and_returns() -> None:
    game = pyspiel.load_game("erqishi", {"players": 3, "rules": "leshan"})
    rng = np.random.RandomState(7)
    for _ in range(3):
        state = game.new_initial_state()
        _deal(state, rng)
        assert isinstance(state, ErqishiState)
        length = 0
        while not state.is_terminal():
            engine = state.engine_state
            player = state.current_player()
            legal = state.legal_actions()
            assert sorted(legal) == sorted(action_index(a) for a in seat_options(engine, player))
            for p in range(3):
                tensor = np.asarray(state.information_state_tensor(p))
                assert tensor.shape == (observation_shape(3)[0] * 20,)
                assert np.array_equal(tensor.reshape(observation_shape(3)), encode_observation_of(state, p))
                text = state.information_state_string(p)
                own = "".join(str(c) for c in view(engine, p).hand)
                assert text.count("hand=") == 1 and f"hand={own} " in text  # no other seat's concealed cards
            state.apply_action(int(rng.choice(legal)))
            length += 1
        assert length <= game.max_game_length()
        returns = state.returns()
        assert returns == [float(x) for x in state.engine_state.result.payments]
        assert sum(returns) == 0


def encode_observation_of(state: ErqishiState, player: int) -> np.ndarray:
    from erqishi.rl.encoding import OwnMarks

    engine = state.engine_state
    return encode_observation(view(engine, player), OwnMarks.of(engine, player))


def test_resample_keeps_the_players_information_state() -> None:
    game = pyspiel.load_game("erqishi")
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    _deal(state, rng)
    py_rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 25:
        player = state.current_player()
        sample = state.resample_from_infostate(player, py_rng.random)
        assert sample.current_player() == player
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 5


def test_python_ismcts_and_mcts_play_a_hand_to_the_end() -> None:
    """OpenSpiel's Python bots (its C++ MCTS and ISMCTS crash on Python games)."""
    game = pyspiel.load_game("erqishi", {"players": 3})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(1)),
        mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(2)),
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(3)),
    ]
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 5 and sum(state.returns()) == 0

"""The OpenSpiel game ``erqishi``: registered with pyspiel, OpenSpiel's random simulation
test, chance as the deal, per-player observations that hide the others' cards, perfect
recall information states (a function of what the player saw and did, nothing else, R-9),
the resampler, returns equal to the engine's R-8 payments, and Python ISMCTS and MCTS games
to the end."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Hashable
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

import erqishi.rl.openspiel_game  # noqa: F401 - registers the game
from erqishi.core.cards import Card
from erqishi.core.engine import PASS, Action, ActionKind, Phase, State, public_view, seat_options, view
from erqishi.core.rules import RuleSet
from erqishi.play import resolve
from erqishi.rl.actions import ACTIONS, N_ACTIONS, action_index
from erqishi.rl.encoding import OwnMarks, encode_observation, observation_shape
from erqishi.rl.openspiel_game import ErqishiState


def _deal(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def _slots(dealer: int, players: int) -> list[int]:
    """Where each dealt card goes, in deal order (R-2.3, FORMATS.md "Seats"): the dealer's
    21, each other playing seat's 20 in seat order from the dealer (with four players seat
    (dealer - 1) mod 4 sits out), then the stock (-1)."""
    seats = [(dealer + k) % players for k in range(players)]
    if players == 4:
        seats.remove((dealer - 1) % 4)
    out: list[int] = []
    for seat in seats:
        out += [seat] * (21 if seat == dealer else 20)
    return out + [-1] * (80 - len(out))


def _info_size(players: int) -> int:
    """The documented size of the information state tensor: the observation planes
    (21 + 22n, 20), the dealer (n), the own deal (21, 20), and one row of 2n + 133 for the
    deal and for each effective move: at most the discards (the opening and one per take,
    20 takes a seat) plus one window per discard and per flip (the stock, R-2.3)."""
    active = 3 if players == 4 else players
    stock = 80 - 21 - 20 * (active - 1)
    discards = 1 + 20 * active
    rows = 1 + 2 * discards + stock
    return (21 + 22 * players) * 20 + players + 21 * 20 + rows * (2 * players + 133)


def _digest(tensor: np.ndarray) -> bytes:
    return hashlib.blake2b(np.asarray(tensor, np.float32).tobytes(), digest_size=16).digest()


def test_registered() -> None:
    assert "erqishi" in pyspiel.registered_names()
    game = pyspiel.load_game("erqishi")
    assert game.num_players() == 3 and game.num_distinct_actions() == N_ACTIONS
    assert game.get_type().provides_information_state_tensor


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tensor_shapes(players: int) -> None:
    game = pyspiel.load_game("erqishi", {"players": players})
    assert game.information_state_tensor_shape() == [_info_size(players)]
    assert game.observation_tensor_shape() == list(observation_shape(players))
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    assert list(info.dict) == ["planes", "dealer", "deal", "moves"]
    assert info.tensor.size == _info_size(players)
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    assert list(obs.dict) == ["planes"] and obs.tensor.size == observation_shape(players)[0] * 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_simulation(players: int) -> None:
    game = pyspiel.load_game("erqishi", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_information_states_and_returns() -> None:
    game = pyspiel.load_game("erqishi", {"players": 3, "rules": "leshan"})
    rng = np.random.RandomState(7)
    planes = observation_shape(3)[0] * 20
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
                expected = encode_observation_of(state, p)
                obs = np.asarray(state.observation_tensor(p))
                assert obs.shape == (planes,) and np.array_equal(obs.reshape(observation_shape(3)), expected)
                info = np.asarray(state.information_state_tensor(p))
                assert info.shape == (_info_size(3),) and np.array_equal(info[:planes], obs)
                text = state.observation_string(p)
                own = "".join(str(c) for c in view(engine, p).hand)
                assert text.count("hand=") == 1 and f"hand={own} " in text  # no other seat's concealed cards
                assert state.information_state_string(p).startswith(f"p{p} dealer={engine.dealer} deal=")
            state.apply_action(int(rng.choice(legal)))
            length += 1
        assert length <= game.max_game_length()
        returns = state.returns()
        assert returns == [float(x) for x in state.engine_state.result.payments]
        assert sum(returns) == 0


def encode_observation_of(state: ErqishiState, player: int) -> np.ndarray:
    engine = state.engine_state
    return encode_observation(view(engine, player), OwnMarks.of(engine, player))


class _Recall:
    """What one player saw and did, kept from outside the game (the reference of perfect
    recall): the dealer once drawn (R-2.2), its own cards as they are dealt (R-2.3), its
    view after every change (R-9: nothing it cannot see), and each of its own actions."""

    def __init__(self, player: int, players: int) -> None:
        self.player = player
        self.players = players
        self.history: tuple[Hashable, ...] = ()
        self.last: Hashable = None
        self.dealer: int | None = None
        self.dealt: list[int] = []

    def seen(self, state: ErqishiState) -> Hashable:
        engine = state.engine_state
        if engine is not None:
            return ("view", view(engine, self.player))
        if self.dealer is None:
            return None
        slots = _slots(self.dealer, self.players)
        return (
            "deal",
            self.dealer,
            tuple(sorted(c for c, s in zip(self.dealt, slots, strict=False) if s == self.player)),
        )

    def moved(self, state: ErqishiState, actor: int, action: int) -> None:
        """Record the action ``actor`` took (a chance outcome when ``actor`` is CHANCE),
        then what the player sees in ``state``, the state after it."""
        if actor == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                self.dealer = action
            else:
                self.dealt.append(action)
        elif actor == self.player:
            self.history += (("act", action),)
        seen = self.seen(state)
        if seen != self.last:
            self.history += (seen,)
            self.last = seen


class _Bijection:
    """Checks that two keys determine each other over every pair recorded; ``shared``
    counts the pairs met again (nodes with the same information state)."""

    def __init__(self) -> None:
        self.forward: dict[Hashable, Hashable] = {}
        self.backward: dict[Hashable, Hashable] = {}
        self.shared = 0

    def add(self, a: Hashable, b: Hashable) -> None:
        self.shared += a in self.forward
        assert self.forward.setdefault(a, b) == b
        assert self.backward.setdefault(b, a) == a


@pytest.mark.parametrize("players", [2, 3, 4])
def test_information_state_is_perfect_recall(players: int) -> None:
    """Over seeded random hands, for every player at every node before the end: the
    information state string determines what the player saw and did and is determined by
    it (checked against a record kept from outside the game, :class:`_Recall`), the tensor
    and the string determine each other, each node's string extends the strings of the
    earlier nodes and grows with each of the player's own actions, and different actions
    of the player give it different strings and tensors."""
    game = pyspiel.load_game("erqishi", {"players": players})
    observer = make_observation(game, INFO_STATE_OBS_TYPE)
    rng = np.random.RandomState(100 + players)
    recall_vs_string, string_vs_tensor = _Bijection(), _Bijection()
    branching = 0
    for _ in range(2):
        state = game.new_initial_state()
        recalls = [_Recall(p, players) for p in range(players)]
        previous = [""] * players
        while True:
            for p in range(players):
                text = state.information_state_string(p)
                assert text.startswith(previous[p])
                previous[p] = text
                if state.is_terminal():
                    continue
                observer.set_from(state, p)
                assert observer.string_from(state, p) == text
                recall_vs_string.add((p, recalls[p].history), text)
                string_vs_tensor.add(text, (p, _digest(observer.tensor)))
            if state.is_terminal():
                break
            if rng.rand() < 0.03:  # the C++ path gives the same tensor
                p = int(rng.randint(players))
                observer.set_from(state, p)
                assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), observer.tensor)
            actor = state.current_player()
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = int(rng.choice(outcomes, p=probs))
            else:
                legal = state.legal_actions()
                action = int(rng.choice(legal))
                if len(legal) > 1 and rng.rand() < 0.3:  # distinct own actions, distinct information states
                    texts, digests = set(), set()
                    for a in rng.permutation(legal)[:6]:
                        child = state.clone()
                        child.apply_action(int(a))
                        texts.add(child.information_state_string(actor))
                        observer.set_from(child, actor)
                        digests.add(_digest(observer.tensor))
                    assert len(texts) == len(digests) == min(6, len(legal))
                    branching += 1
            before = state.information_state_string(actor) if actor >= 0 else ""
            state.apply_action(action)
            if actor >= 0:
                assert len(state.information_state_string(actor)) > len(before)  # its action is recalled
            for recall in recalls:
                recall.moved(state, actor, action)
    assert branching > 10
    # nodes that share an information state (the others' deal cards, the others' declarations)
    assert recall_vs_string.shared > 100 and string_vs_tensor.shared == recall_vs_string.shared


def test_information_state_string_tokens() -> None:
    """The string holds the player's own cards in the order dealt (R-2.3), each public move
    as it happens (R-9) and the player's own declarations, ``pass`` included (R-5.4)."""
    game = pyspiel.load_game("erqishi", {"players": 3})
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    outcomes: list[int] = []
    while state.is_chance_node():
        outcomes.append(int(rng.choice([o for o, _ in state.chance_outcomes()])))
        state.apply_action(outcomes[-1])
    slots = _slots(outcomes[0], 3)
    for p in range(3):
        own = "".join(str(Card(c)) for c, s in zip(outcomes[1:], slots, strict=True) if s == p)
        assert state.information_state_string(p).split()[:3] == [f"p{p}", f"dealer={outcomes[0]}", f"deal={own}"]
    passes = discards = 0
    while not state.is_terminal():
        engine = state.engine_state
        actor = state.current_player()
        action = ACTIONS[int(rng.choice(state.legal_actions()))]
        before = [state.information_state_string(p) for p in range(3)]
        state.apply_action(action_index(action))
        after = [state.information_state_string(p) for p in range(3)]
        if engine.phase is Phase.RESPONSE:
            assert after[actor].startswith(before[actor] + f" me:{action.kind.value}")
            passes += action == PASS
            for p in range(3):
                if p != actor and state.engine_state is engine:
                    assert after[p] == before[p]  # another seat's declaration is not seen
        elif action.kind is ActionKind.DISCARD:
            token = f" s{actor}:discard={action.cards[0]}"
            assert all(a.startswith(b + token) for a, b in zip(after, before, strict=True))
            discards += 1
    assert passes > 0 and discards > 0


class _Hand:
    """One hand through the game as one player sees it: its information state (string and
    tensor digest) at each node, keyed by the engine's step and whether it has declared in
    the window; and from outside, per step, the public view and its hand, the seats asked,
    the declarations and the effective move (:func:`erqishi.play.resolve`)."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.infos: dict[tuple[int, bool], tuple[str, bytes]] = {}
        self.public: dict[int, Hashable] = {}
        self.asked: dict[int, set[int]] = {}
        self.declared: dict[int, dict[int, Action]] = {}
        self.moves: dict[int, tuple[int, Action]] = {}

    def info(self, state: ErqishiState, observer: Any, declared: bool) -> tuple[tuple[int, bool], tuple[str, bytes]]:
        observer.set_from(state, self.player)
        key = (state.engine_state.steps, declared)
        return key, (state.information_state_string(self.player), _digest(observer.tensor))

    def seen(self, engine: State) -> Hashable:
        return public_view(engine), view(engine, self.player).hand


def _deal_outcomes(state: pyspiel.State, outcomes: list[int]) -> None:
    for outcome in outcomes:
        state.apply_action(outcome)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_information_state_hides_what_the_player_cannot_see(players: int) -> None:
    """Play a random hand, then the same public hand from a deal where two cards the
    player never sees (other seats' concealed cards, the deep stock) change places, every
    other seat passing unless it makes the move that was made: the other seats' hidden
    cards, the stock order, their declarations that the resolution did not show (R-5.4)
    and which seats were asked all differ, and up to where the public hands part, the
    player's information state string and tensor are the same at every node (R-9)."""
    game = pyspiel.load_game("erqishi", {"players": players})
    observer = make_observation(game, INFO_STATE_OBS_TYPE)
    rng = np.random.RandomState(200 + players)
    compared = varied_asked = varied_declarations = 0
    for _ in range(8):
        player = int(rng.randint(players))
        hand = _Hand(player)
        state = game.new_initial_state()
        outcomes: list[int] = []
        while state.is_chance_node():
            choices, probs = zip(*state.chance_outcomes(), strict=True)
            outcomes.append(int(rng.choice(choices, p=probs)))
            state.apply_action(outcomes[-1])
        first_deal = state.engine_state.deal
        declared = False
        steps = -1
        while not state.is_terminal():
            engine = state.engine_state
            if engine.steps != steps:
                declared, steps = False, engine.steps
            key, value = hand.info(state, observer, declared)
            assert hand.infos.setdefault(key, value) == value  # unchanged while the others declare
            hand.public.setdefault(steps, hand.seen(engine))
            seat = state.current_player()
            action = ACTIONS[int(rng.choice(state.legal_actions()))]
            hand.asked.setdefault(steps, set()).add(seat)
            state.apply_action(action_index(action))
            if engine.phase is Phase.RESPONSE:
                hand.declared.setdefault(steps, {})[seat] = action
                declared = declared or seat == player
                if state.engine_state is not engine:
                    hand.moves[steps] = resolve(engine, hand.declared[steps])
            else:
                hand.moves[steps] = (seat, action)

        # two cards the player does not see, at least for long: in other seats' hands all
        # the hand long (a seat that never played a copy), or deep in the stock
        final = state.engine_state
        slots = [-2, *_slots(outcomes[0], players)]  # outcome 0 is the dealer
        stock = [i for i, s in enumerate(slots) if s == -1]
        kept = {
            (s, c)
            for s in range(players)
            for c in range(20)
            if final.seats[s].hand[c] == sum(1 for o, t in zip(outcomes, slots, strict=True) if t == s and o == c)
        }
        hidden = [i for i, s in enumerate(slots) if s >= 0 and s != player and (s, outcomes[i]) in kept]
        hidden += stock[min(final.stock_pos, len(stock) - 6) :]
        pairs = [
            (i, j)
            for i in hidden
            for j in hidden
            if i < j and outcomes[i] != outcomes[j] and (slots[i] != slots[j] or slots[i] < 0)
        ]
        if not pairs:
            continue
        i, j = pairs[rng.randint(len(pairs))]
        swapped = list(outcomes)
        swapped[i], swapped[j] = outcomes[j], outcomes[i]
        state = game.new_initial_state()
        _deal_outcomes(state, swapped)
        deal = state.engine_state.deal
        assert deal != first_deal and deal.hands[player] == first_deal.hands[player]
        declared = False
        steps = -1
        asked: dict[int, set[int]] = {}
        matched = -1
        while not state.is_terminal():
            engine = state.engine_state
            if engine.steps != steps:
                declared, steps = False, engine.steps
            if hand.public.get(steps) != hand.seen(engine):
                break  # the public hands part here (or the first hand had no node here)
            matched = steps
            key, value = hand.info(state, observer, declared)
            if key in hand.infos:
                assert value == hand.infos[key]
                compared += 1
            seat = state.current_player()
            asked.setdefault(steps, set()).add(seat)
            if engine.phase is Phase.RESPONSE:
                if seat == player:
                    action = hand.declared[steps][player]
                else:
                    mover, move = hand.moves.get(steps, (engine.turn, PASS))
                    action = move if seat == mover else PASS
            else:
                mover, action = hand.moves[steps]
                assert seat == mover
            if action_index(action) not in state.legal_actions():
                break
            state.apply_action(action_index(action))
            declared = declared or (seat == player and engine.phase is Phase.RESPONSE)
        for k in hand.public:
            if k < matched:
                varied_asked += asked.get(k, set()) != hand.asked.get(k, set())
                shown = hand.moves.get(k, (-1, PASS))[0]
                decls = hand.declared.get(k, {})
                varied_declarations += any(a != PASS for s, a in decls.items() if s not in (player, shown))
    assert compared > 100 and varied_asked > 0 and varied_declarations > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resample_keeps_the_players_information_state(players: int) -> None:
    """For every player, at nodes of a random hand (its own decisions, and nodes where it
    waits or has declared): the resampled state gives it the same information state string
    and tensor, the same current player and legal actions when it is to move, the other
    seats' cards dealt anew (their own deals the right size, R-2.3), and it plays on to the
    end."""
    game = pyspiel.load_game("erqishi", {"players": players})
    observer = make_observation(game, INFO_STATE_OBS_TYPE)
    rng = np.random.RandomState(300 + players)
    state = game.new_initial_state()
    _deal(state, rng)
    dealer = state.engine_state.dealer
    sizes = [sum(1 for s in _slots(dealer, players) if s == p) for p in range(players)]
    py_rng = random.Random(1)
    checked = own = differ = 0
    while not state.is_terminal() and checked < 60:
        current = state.current_player()
        for player in range(players):
            sample = state.resample_from_infostate(player, py_rng.random)
            assert sample.information_state_string(player) == state.information_state_string(player)
            observer.set_from(state, player)
            expected = observer.tensor.copy()
            observer.set_from(sample, player)
            assert np.array_equal(observer.tensor, expected)
            if player == current:
                assert sample.current_player() == player and sample.legal_actions() == state.legal_actions()
                own += 1
            for other in range(players):
                token = sample.information_state_string(other).split()[2]
                assert token.startswith("deal=") and len(token) - len("deal=") == sizes[other]
                differ += sample.engine_state.seats[other].hand != state.engine_state.seats[other].hand
            checked += 1
            if checked % 15 == 0:
                while not sample.is_terminal():
                    sample.apply_action(int(rng.choice(sample.legal_actions())))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert own > 5 and 2 * differ > checked


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


@pytest.mark.parametrize("rules", ['{"yu": true, "cap": 80}', '{"preset": "app", "piao_fan": false}'])
def test_json_rules_with_several_options_survive_the_game_string(rules: str) -> None:
    """OpenSpiel splits a game's string at commas: the game writes JSON options' commas as
    ``;``, so the string loads back, and serialized states deserialize, to the same rules."""
    game = pyspiel.load_game("erqishi", {"rules": rules})
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules  # type: ignore[attr-defined]
    assert game.rules == RuleSet.load(rules)  # type: ignore[attr-defined]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_players_default_to_the_rule_set() -> None:
    """R-10: 对抠 (``duikou``) is the two-player game, so it has two seats unless told."""
    assert pyspiel.load_game("erqishi", {"rules": "duikou"}).num_players() == 2
    assert pyspiel.load_game("erqishi").num_players() == 3
    assert pyspiel.load_game("erqishi", {"rules": "leshan", "players": 4}).num_players() == 4
    assert pyspiel.load_game(str(pyspiel.load_game("erqishi", {"rules": "duikou"}))).num_players() == 2
    with pytest.raises(Exception, match="players must be 2, 3 or 4"):
        pyspiel.load_game("erqishi", {"players": 5})


def test_quan_counts_only_with_quanhu() -> None:
    """R-7.3, R-10: without 圈胡 the hand has no 圈 card (plane ``quan_card`` all 0); a 圈
    outside 0-10 is refused."""
    game = pyspiel.load_game("erqishi", {"rules": '{"quan_fan": false}', "quan": 1})
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(2))
    assert state.engine_state is not None and state.engine_state.quan is None
    planes = np.asarray(state.observation_tensor(state.current_player())).reshape(observation_shape(3))
    assert not planes[16].any()
    for quan in (11, -3):
        with pytest.raises(Exception, match="quan must be 1-10"):
            pyspiel.load_game("erqishi", {"quan": quan})


def test_actions_outside_the_game_are_refused() -> None:
    """A dealer that is no seat, a fifth copy dealt, an action index outside the space
    (negative ones too: not Python's indexing from the end) are errors at once."""
    game = pyspiel.load_game("erqishi")
    state = game.new_initial_state()
    with pytest.raises(Exception, match="the dealer is a seat 0-2"):
        state.apply_action(7)
    state.apply_action(0)
    for _ in range(4):
        state.apply_action(5)
    with pytest.raises(Exception, match="a copy left"):
        state.apply_action(5)
    with pytest.raises(Exception, match="a copy left"):
        state.apply_action(20)
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(4))
    for bad in (-2, -864, N_ACTIONS, 10**6):  # -1 is OpenSpiel's own "invalid action", refused by it
        with pytest.raises(Exception, match="outside 0-883"):
            state.clone().apply_action(bad)


def test_the_observation_tensor_shows_what_its_string_shows_while_dealing() -> None:
    """While dealing, the player's observation string lists the cards dealt to it so far;
    the tensor's hand planes hold the same cards."""
    game = pyspiel.load_game("erqishi")
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    state.apply_action(1)
    for _ in range(30):
        outcomes = state.chance_outcomes()
        state.apply_action(int(rng.choice([a for a, _ in outcomes])))
    for player in range(3):
        planes = np.asarray(state.observation_tensor(player)).reshape(observation_shape(3))
        shown = state.observation_string(player).split("own=")[1]
        counts = [0] * 20
        for ch in shown:
            counts[Card.parse(ch)] += 1
        assert [int(planes[:4, c].sum()) for c in range(20)] == counts
        assert not planes[4:].any()

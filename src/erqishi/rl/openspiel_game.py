"""贰柒拾 as an OpenSpiel Python game: ``import erqishi.rl.openspiel_game`` registers
``erqishi`` with :func:`pyspiel.register_game` (in the manner of OpenSpiel's
``python/games/kuhn_poker.py``), then ``pyspiel.load_game("erqishi", {"players": 3})``.

- **Chance**: the first node draws the dealer (R-2.2), then the deal is 80 chance nodes,
  one card identity each (probability: copies left / cards left), dealt as
  :meth:`~erqishi.core.engine.Deal.shuffled` deals: the dealer's 21 cards, each other
  seat's 20 in seat order from the dealer, then the stock, top first.
- **Moves**: one player at a time. A response window is one move per seat that has more
  than ``pass`` (:func:`erqishi.play.asked`, in seat order); declarations are kept apart
  and resolved by R-5.4 (:func:`erqishi.play.resolve`) once all are in, so no seat's
  information state holds another's declaration. Actions are the 884 of
  :mod:`erqishi.rl.actions`; the engine decides which are legal.
- **Information state** (string and tensor) and **observation** of a player: built from
  its :class:`~erqishi.core.engine.PlayerView` and its own 过张/回笼/过胡 marks alone: the
  tensor is :mod:`erqishi.rl.encoding`'s planes, flattened; both kinds are the same (the
  view and the marks hold everything the rules use for that player; they do not keep the
  order of its past decisions, so they are not strictly perfect recall).
- **Returns**: the R-8 payments of the hand, in score units, zero-sum (terminal only).
- **Resampling**: :meth:`ErqishiState.resample_from_infostate` deals the cards the player
  has not seen at random (:func:`erqishi.bots.search.determinize`, as the search bot
  does), keeps its own marks, and lets the seats that declared before it in the current
  window declare again in the sampled world (heuristic play): OpenSpiel's Python ISMCTS
  bot (``open_spiel.python.algorithms.ismcts``) plays the game with it, and its Python
  MCTS bot (``open_spiel.python.algorithms.mcts``, which sees the whole state) plays it
  too. OpenSpiel's C++ MCTS and ISMCTS bots crash on every Python game, OpenSpiel's own
  included: use the Python ones.

Parameters: ``players`` (2, 3, 4; default 3), ``rules`` (a preset or JSON options;
``leshan``), ``quan`` (the 圈 number for 圈胡, 1-10, or 0 for none; default 1).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel

from erqishi.bots.heuristic import HeuristicBot
from erqishi.bots.search import determinize
from erqishi.core.cards import COPIES, Card
from erqishi.core.engine import Action, Deal, Phase, State, active_seats, apply, new_hand, seat_options, view
from erqishi.core.errors import IllegalActionError
from erqishi.core.rules import RuleSet, TianhuRule, Tiers
from erqishi.play import asked, resolve
from erqishi.rl.actions import ACTIONS, INDEX, N_ACTIONS
from erqishi.rl.encoding import ObservationEncoder, OwnMarks, observation_shape, stock_size

__all__ = ["GAME_TYPE", "ErqishiGame", "ErqishiObserver", "ErqishiState", "max_game_length", "utility_bound"]

_CARDS = tuple(Card)

GAME_TYPE = pyspiel.GameType(
    short_name="erqishi",
    long_name="Erqishi (贰柒拾, Leshan 2-7-10)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={"players": 3, "rules": "leshan", "quan": 1},
)


def utility_bound(rules: RuleSet) -> float:
    """The most one seat can win or lose in a hand under ``rules`` (score units, R-7, R-8):
    the largest base (72 hu is the most a hand holds: six big 滚) times every 番 at once
    (天胡 ×4 or 地胡, 坤胡, 瞟胡, 双圈), capped, times what a winner collects."""
    base = {Tiers.SEED: 4 * 70, Tiers.APP: 100, Tiers.JIANWEI: 80}[rules.tiers]
    score = max(base * 2**6, 100 if rules.tianhu is TianhuRule.FIXED_100 else 0)
    if rules.cap is not None:
        score = min(score, rules.cap)
    active = len(active_seats(0, rules.players))
    return float(score * max(active - 1, rules.taipao_factor))


def max_game_length(rules: RuleSet) -> int:
    """A bound on the decisions of a hand: a seat takes at most 20 cards (at most 10
    melds, each from two or more hand cards, and a 开 onto each 对 under ``yu``), each take
    owes at most one discard, and every discard or flip opens one window in which each
    playing seat declares at most once."""
    active = len(active_seats(0, rules.players))
    discards = 1 + 20 * active
    windows = discards + stock_size(rules)
    return 1 + discards + windows * active


class _Snap:
    """The whole state of a game state, immutable: clones share it (OpenSpiel clones a
    Python state by deep-copying its attributes; this one copies as itself)."""

    __slots__ = ("dealer", "dealt", "declared", "quan", "rules", "state", "waiting")

    def __init__(
        self,
        rules: RuleSet,
        quan: int | None,
        dealer: int | None = None,
        dealt: tuple[int, ...] = (),
        state: State | None = None,
        declared: tuple[tuple[int, Action], ...] = (),
    ) -> None:
        self.rules = rules
        self.quan = quan
        self.dealer = dealer
        self.dealt = dealt
        self.state = state
        self.declared = declared
        if state is None or state.is_over:
            self.waiting: tuple[int, ...] = ()
        else:
            done = {seat for seat, _ in declared}
            self.waiting = tuple(s for s in asked(state) if s not in done)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Snap:
        return self


def _close_idle(state: State) -> State:
    """Resolve every response window in which nobody has more than ``pass`` (the card stays
    in its row, R-5.2, R-5.3), as the table does."""
    while not state.is_over and state.phase is Phase.RESPONSE and not asked(state):
        state = apply(state, *resolve(state, {}))
    return state


def _deal_slots(rules: RuleSet, dealer: int) -> tuple[int, ...]:
    """Where each dealt card goes, in deal order: a seat, or -1 for the stock."""
    seats = active_seats(dealer, rules.players)
    order = [s for s in seats if s >= dealer] + [s for s in seats if s < dealer]
    slots: list[int] = []
    for seat in order:
        slots += [seat] * (21 if seat == dealer else 20)
    return tuple(slots + [-1] * (COPIES * 20 - len(slots)))


class ErqishiState(pyspiel.State):  # type: ignore[misc]
    """A state of the game (see the module text)."""

    def __init__(self, game: ErqishiGame, snap: _Snap | None = None) -> None:
        super().__init__(game)
        self._s = snap if snap is not None else _Snap(game.rules, game.quan)

    # ------------------------------------------------------------------ OpenSpiel API

    @property
    def engine_state(self) -> State | None:
        """The engine state once the cards are dealt."""
        return self._s.state

    def current_player(self) -> int:
        """The seat to move, or CHANCE while dealing, TERMINAL once the hand is over."""
        s = self._s
        if s.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if s.state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return s.waiting[0]

    def _legal_actions(self, player: int) -> list[int]:
        s = self._s
        if s.state is None or s.state.is_over or not s.waiting or player != s.waiting[0]:
            return []
        return sorted(INDEX[a] for a in seat_options(s.state, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dealer (uniform over the seats), then each card identity with probability
        copies left / cards left."""
        s = self._s
        if s.dealer is None:
            n = s.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        left = [COPIES] * 20
        for c in s.dealt:
            left[c] -= 1
        total = sum(left)
        return [(c, k / total) for c, k in enumerate(left) if k]

    def _apply_action(self, action: int) -> None:
        s = self._s
        if s.state is None:
            if s.dealer is None:
                self._s = _Snap(s.rules, s.quan, dealer=int(action))
                return
            dealt = (*s.dealt, int(action))
            if len(dealt) < COPIES * 20:
                self._s = _Snap(s.rules, s.quan, s.dealer, dealt)
                return
            slots = _deal_slots(s.rules, s.dealer)
            hands: list[list[Card]] = [[] for _ in range(s.rules.players)]
            stock: list[Card] = []
            for c, seat in zip(dealt, slots, strict=True):
                (stock if seat < 0 else hands[seat]).append(_CARDS[c])
            deal = Deal(s.dealer, tuple(tuple(sorted(h)) for h in hands), tuple(stock))
            state = _close_idle(new_hand(deal, s.rules, s.quan))
            self._s = _Snap(s.rules, s.quan, s.dealer, dealt, state)
            return
        state = s.state
        player = s.waiting[0]
        chosen = ACTIONS[action]
        if state.phase is Phase.RESPONSE:
            if chosen not in seat_options(state, player):
                raise IllegalActionError(f"seat {player} may not declare {chosen} now")
            declared = (*s.declared, (player, chosen))
            if len(declared) < len(s.waiting) + len(s.declared):
                self._s = _Snap(s.rules, s.quan, s.dealer, s.dealt, state, declared)
                return
            state = apply(state, *resolve(state, dict(declared)))
        else:
            state = apply(state, player, chosen)
        self._s = _Snap(s.rules, s.quan, s.dealer, s.dealt, _close_idle(state))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._s.dealer is None:
                return f"dealer {action}"
            return f"deal {_CARDS[action].ascii}"
        return str(ACTIONS[action])

    def is_terminal(self) -> bool:
        """The hand is over (a win or a dead hand)."""
        state = self._s.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        """Each seat's R-8 payment once the hand is over (score units), else zeros."""
        state = self._s.state
        if state is None or state.result is None:
            return [0.0] * self._s.rules.players
        return [float(p) for p in state.result.payments]

    def __str__(self) -> str:
        s = self._s
        if s.state is None:
            return f"dealing: dealer {s.dealer}, {len(s.dealt)} cards dealt"
        st = s.state
        hands = " | ".join("".join(str(c) for c in seat.cards()) for seat in st.seats)
        pending = f" pending {st.pending}" if st.pending is not None else ""
        return f"{st.phase.value} turn {st.turn}{pending} stock {st.stock_left}: {hands}"

    # ------------------------------------------------------------------ for ISMCTS

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> ErqishiState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        at random (:func:`~erqishi.bots.search.determinize`), its own marks kept, and the
        seats before it in the current window declaring anew in the sampled world
        (heuristic play). Its information state is the same; the current player too when
        it is ``player_id``. Randomness comes from ``probability_sampler`` alone."""
        s = self._s
        game = self.get_game()
        if s.state is None or s.state.is_over:
            return ErqishiState(game, s)
        rng = random.Random(int(probability_sampler() * 2**53))
        real = s.state
        sampled = determinize(view(real, player_id), rng)
        mine = real.seats[player_id]
        seats = list(sampled.seats)
        seats[player_id] = seats[player_id].evolve(guozhang=mine.guozhang, discarded=mine.discarded, guohu=mine.guohu)
        sampled = replace(
            sampled,
            seats=tuple(seats),
            di_window=real.di_window,
            forbidden=real.forbidden if real.turn == player_id else sampled.forbidden,
            steps=real.steps,
            _cache={},
        )
        declared: list[tuple[int, Action]] = []
        if sampled.phase is Phase.RESPONSE and player_id in s.waiting:
            bot = HeuristicBot(look_at_waits=False)
            for seat in asked(sampled):
                if seat >= player_id:
                    break
                declared.append((seat, bot.choose(view(sampled, seat), rng)))
        return ErqishiState(game, _Snap(s.rules, s.quan, s.dealer, s.dealt, sampled, tuple(declared)))


class ErqishiObserver:
    """The observer of OpenSpiel's Python games: a player's information state or
    observation as a string and as the flattened planes of :mod:`erqishi.rl.encoding`
    (``dict["planes"]`` is the same memory, shaped ``(planes, 20)``).

    Raises:
        ValueError: parameters, or an observation type other than one player's (public
            and private) information.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, rules: RuleSet) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("erqishi observes one player's public and private information only")
        shape = observation_shape(rules.players)
        self.tensor = np.zeros(shape[0] * shape[1], np.float32)
        self.dict = {"planes": self.tensor.reshape(shape)}
        self._encoder = ObservationEncoder()

    def set_from(self, state: ErqishiState, player: int) -> None:
        """The planes of ``player`` in ``state`` (zeros while dealing)."""
        engine = state.engine_state
        if engine is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self._encoder.encode(view(engine, player), OwnMarks.of(engine, player)).ravel()

    def string_from(self, state: ErqishiState, player: int) -> str:
        """The player's view and own marks as text (its own cards only while dealing)."""
        engine = state.engine_state
        snap = state._s
        if engine is None:
            own = (
                [c for c, seat in zip(snap.dealt, _deal_slots(snap.rules, snap.dealer), strict=False) if seat == player]
                if snap.dealer is not None
                else []
            )
            return f"p{player} dealing dealer={snap.dealer} own={''.join(str(_CARDS[c]) for c in sorted(own))}"
        v = view(engine, player)
        marks = OwnMarks.of(engine, player)
        parts = [
            f"p{player}",
            f"{v.phase.value}",
            f"dealer={v.dealer}",
            f"turn={v.turn}",
            f"pending={v.pending.ascii if v.pending is not None else '-'}{'/flip' if v.pending_flip else ''}",
            f"stock={v.stock_left}",
            f"quan={v.quan}",
            f"hand={''.join(str(c) for c in v.hand)}",
        ]
        for sv in v.seats:
            melds = ",".join(("+" if g.yu else "") + "".join(str(c) for c in g.cards) for g in sv.melds)
            parts.append(f"s{sv.seat}[n={sv.hand_size} m={melds} r={''.join(str(c) for c in sv.row)} a={sv.announced}]")
        parts.append(f"marks={marks.guozhang}/{marks.huilong}/{marks.guohu}")
        return " ".join(parts)


class ErqishiGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``erqishi`` (see the module text)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 3))
        rules = RuleSet.load(str(params.get("rules", "leshan")))
        if rules.players != players:
            rules = replace(rules, players=players)
        quan = int(params.get("quan", 1))
        self.rules = rules
        self.quan = quan if 1 <= quan <= 10 else None
        bound = utility_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=20,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_game_length(rules),
        )
        super().__init__(
            GAME_TYPE, info, {"players": players, "rules": str(params.get("rules", "leshan")), "quan": quan}
        )

    def new_initial_state(self) -> ErqishiState:
        """A new hand, before the dealer is drawn."""
        return ErqishiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> ErqishiObserver:
        """The observer (see :class:`ErqishiObserver`)."""
        return ErqishiObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.rules)


pyspiel.register_game(GAME_TYPE, ErqishiGame)

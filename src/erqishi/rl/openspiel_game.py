"""贰柒拾 as an OpenSpiel Python game: ``import erqishi.rl.openspiel_game`` registers
``erqishi`` with :func:`pyspiel.register_game` (in the manner of OpenSpiel's
``python/games/kuhn_poker.py``), then ``pyspiel.load_game("erqishi", {"players": 3})``.

- **Chance**: the first node draws the dealer (R-2.2), then the deal is 80 chance nodes,
  one card identity each (probability: copies left / cards left), dealt as
  :meth:`~erqishi.core.engine.Deal.shuffled` deals: the dealer's 21 cards, each other
  seat's 20 in seat order from the dealer, then the stock, top first (R-2.3).
- **Moves**: one player at a time. A response window is one move per seat that has more
  than ``pass`` (:func:`erqishi.play.asked`, in seat order); declarations are kept apart
  and resolved by R-5.4 (:func:`erqishi.play.resolve`) once all are in, so no seat's
  information state holds another's declaration. Actions are the 884 of
  :mod:`erqishi.rl.actions`; the engine decides which are legal.
- **Observation** of a player (``perfect_recall=False``), string and tensor: built from
  its :class:`~erqishi.core.engine.PlayerView` and its own 过张/回笼/过胡 marks alone; the
  tensor is :mod:`erqishi.rl.encoding`'s planes, flattened.
- **Information state** of a player (``perfect_recall=True``), string and tensor: perfect
  recall. It holds the dealer (R-2.2), the player's own dealt cards in the order dealt
  (R-2.3: it saw them come one by one, as its observation shows while dealing, so the
  order is kept), the end of the deal, then in order every effective move of the hand
  with what it made public (R-9: a discard, a card nobody took, a 吃 with its cards and
  摆 groups, a 对, a 开, a win, the 八块 announcements of R-4.2, each flipped card of
  R-5.3, a dead hand of R-5.6), and the player's own declaration in each response
  window it was asked in (``pass`` too, and a declaration R-5.4 outranked), placed
  before the window's resolution. Nothing else: no
  other seat's concealed cards or unflipped stock, no other seat's declaration (the
  resolution shows only the move it applied, R-5.4), not whether another seat was asked.
  It is the same at every node the player cannot tell apart (a window in which other
  seats declare leaves it as it is), and each node's information state string starts
  with the string of every earlier node of the hand. The hands shown once the hand is
  over (R-9) are not added (nobody decides there; the observation does not show them
  either). See :class:`ErqishiObserver` for the string's tokens and the tensor's pieces
  (:func:`information_state_shapes`).
- **Returns**: the R-8 payments of the hand, in score units, zero-sum (terminal only).
- **Resampling**: :meth:`ErqishiState.resample_from_infostate` deals the cards the player
  has not seen at random (:func:`erqishi.bots.search.determinize`, as the search bot
  does), keeps its own marks, its own declarations and every public move, and lets the
  seats that declare before it in the current window declare again in the sampled world
  (heuristic play): the player's information state is the same. OpenSpiel's Python ISMCTS
  bot (``open_spiel.python.algorithms.ismcts``) plays the game with it, and its Python
  MCTS bot (``open_spiel.python.algorithms.mcts``, which sees the whole state) plays it
  too. OpenSpiel's C++ MCTS and ISMCTS bots crash on every Python game, OpenSpiel's own
  included: use the Python ones.

Parameters: ``players`` (2, 3, 4; default 0: the rule set's own, 3 but for ``duikou``'s
2), ``rules`` (a preset or JSON options; ``leshan``; OpenSpiel splits a game's string at
commas, so the string writes the commas of JSON options as ``;``, and either form loads),
``quan`` (the 圈 number for 圈胡, 1-10, or 0 for none; default 1; none when the rule set
does not play 圈胡). Other values are a ``ValueError``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from erqishi.bots.heuristic import HeuristicBot
from erqishi.bots.search import determinize
from erqishi.core.cards import COPIES, Card
from erqishi.core.engine import (
    Action,
    ActionKind,
    Deal,
    Phase,
    State,
    active_seats,
    apply,
    new_hand,
    seat_options,
    view,
)
from erqishi.core.errors import IllegalActionError
from erqishi.core.rules import RuleSet, TianhuRule, Tiers
from erqishi.play import asked, resolve
from erqishi.play.events import (
    Announced,
    DeadHand,
    Discarded,
    Event,
    Flipped,
    Passed,
    Took,
    Won,
    opening_events,
    step_events,
)
from erqishi.rl.actions import ACTIONS, INDEX, N_ACTIONS
from erqishi.rl.encoding import ObservationEncoder, OwnMarks, observation_shape, stock_size

__all__ = [
    "GAME_TYPE",
    "ErqishiGame",
    "ErqishiObserver",
    "ErqishiState",
    "information_state_shapes",
    "max_game_length",
    "max_moves",
    "utility_bound",
]

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
    parameter_specification={"players": 0, "rules": "leshan", "quan": 1},
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


def _max_discards(rules: RuleSet) -> int:
    """A bound on the discards of a hand: the opening, and one after each take; a seat
    takes at most 20 cards (at most 10 melds, each from two or more hand cards, and a 开
    onto each 对 under ``yu``)."""
    return 1 + 20 * len(active_seats(0, rules.players))


def max_game_length(rules: RuleSet) -> int:
    """A bound on the decisions of a hand: a seat takes at most 20 cards (at most 10
    melds, each from two or more hand cards, and a 开 onto each 对 under ``yu``), each take
    owes at most one discard, and every discard or flip opens one window in which each
    playing seat declares at most once."""
    active = len(active_seats(0, rules.players))
    discards = _max_discards(rules)
    windows = discards + stock_size(rules)
    return 1 + discards + windows * active


def max_moves(rules: RuleSet) -> int:
    """A bound on the effective moves of a hand (R-5; FORMATS.md "actions"): every discard
    (at most the opening and one per take, as in :func:`max_game_length`) and the close of
    every window (one per discard and one per flip, at most the stock, R-2.3, R-5.3):
    141 with three players or four, 121 with two.

    >>> from erqishi.core.rules import RuleSet
    >>> max_moves(RuleSet.load("leshan")), max_moves(RuleSet.load("duikou"))
    (141, 121)
    """
    discards = _max_discards(rules)
    return discards + discards + stock_size(rules)


#: The kinds of effective move, in the order of the ``moves`` tensor's columns.
_MOVE_KINDS = ("discard", "untaken", "chi", "dui", "kai", "hu")
#: The kinds of own declaration, in the order of the ``moves`` tensor's columns.
_DECL_KINDS = (ActionKind.PASS, ActionKind.CHI, ActionKind.DUI, ActionKind.KAI, ActionKind.HU)


def _move_width(players: int) -> int:
    return 2 * players + 133


def information_state_shapes(rules: RuleSet) -> dict[str, tuple[int, ...]]:
    """The pieces of the information state tensor, in order (see :class:`ErqishiObserver`):
    ``planes`` (the observation planes, :func:`~erqishi.rl.encoding.observation_shape`),
    ``dealer`` ``(players,)``, ``deal`` ``(21, 20)`` and ``moves`` ``(1 + max_moves(rules),
    2 × players + 133)``. The flat tensor is their concatenation: 21 901 floats with three
    players, 18 436 with two, 22 626 with four.

    >>> from erqishi.core.rules import RuleSet
    >>> information_state_shapes(RuleSet.load("leshan"))
    {'planes': (87, 20), 'dealer': (3,), 'deal': (21, 20), 'moves': (142, 139)}
    """
    n = rules.players
    return {
        "planes": observation_shape(n),
        "dealer": (n,),
        "deal": (21, 20),
        "moves": (1 + max_moves(rules), _move_width(n)),
    }


def _cards_text(cards: Iterable[Card]) -> str:
    return "".join(str(c) for c in cards)


def _chi_text(action: Action) -> str:
    """``二三`` or ``二三,一二三``: the two hand cards, then each 摆 group (R-5.7, R-5.8)."""
    return ",".join(_cards_text(g) for g in (action.cards, *action.bai))


@dataclass(frozen=True, slots=True)
class _Move:
    """One effective move of the hand and what it made public (R-9), as
    :func:`erqishi.play.events.step_events` tells it; the first entry of a hand (``kind``
    ``"deal"``) holds what the deal made public (R-4.3: 八块 and the first flip).

    Attributes:
        seat: who moved: the discarder, the taker, the winner, or for a card nobody took
            the seat that discarded or flipped it (-1 for the deal entry).
        kind: one of :data:`_MOVE_KINDS`, or ``"deal"``.
        card: the card discarded, taken, left or won on (-1 for none: 天胡, the deal).
        action: the move itself (a 吃's cards and 摆 groups).
        announced: the 八块 announcements it brought, ``(seat, quad cards)`` (R-4.2).
        flip: the card flipped next (R-5.3), -1 if none.
        dead: the hand ended dead (R-5.6).
        text: its tokens in the information state string.
    """

    seat: int
    kind: str
    card: int
    action: Action | None
    announced: tuple[tuple[int, int], ...]
    flip: int
    dead: bool
    text: str

    @staticmethod
    def of(events: list[Event], action: Action | None) -> _Move:
        """The move of one effective action's public events (the deal entry when
        ``action`` is None)."""
        seat, kind, card = -1, "deal", -1
        announced: list[tuple[int, int]] = []
        flip, flipper, dead = -1, -1, False
        for e in events:
            if isinstance(e, Discarded):
                seat, kind, card = e.seat, "discard", int(e.card)
            elif isinstance(e, Passed):
                seat, kind, card = e.seat, "untaken", int(e.card)
            elif isinstance(e, Took):
                seat, kind, card = e.seat, e.take.value, int(e.card)
            elif isinstance(e, Won):
                seat, kind, card = e.seat, "hu", -1 if e.card is None else int(e.card)
            elif isinstance(e, Announced):
                announced.append((e.seat, e.count))
            elif isinstance(e, Flipped):
                flip, flipper = int(e.card), e.seat
            elif isinstance(e, DeadHand):
                dead = True
        tokens: list[str] = ["dealt"] if kind == "deal" else []
        if kind != "deal":
            head = f"s{seat}:{kind}"
            if card >= 0:
                head += f"={_CARDS[card]}"
            if kind == "chi" and action is not None:
                head += f":{_chi_text(action)}"
            tokens.append(head)
        tokens += [f"s{s}:announce={count}" for s, count in announced]
        if flip >= 0:
            tokens.append(f"s{flipper}:flip={_CARDS[flip]}")
        if dead:
            tokens.append("dead")
        return _Move(seat, kind, card, action, tuple(announced), flip, dead, " ".join(tokens))


@dataclass(frozen=True, slots=True)
class _Declared:
    """One seat's own declaration in a response window (R-5.4), seen by that seat alone.

    Attributes:
        seat: who declared.
        action: what it declared.
        text: its token in that seat's information state string.
    """

    seat: int
    action: Action

    @property
    def text(self) -> str:
        """``me:pass``, ``me:dui``, ``me:kai``, ``me:hu`` or ``me:chi=二三[,摆…]``."""
        if self.action.kind is ActionKind.CHI:
            return f"me:chi={_chi_text(self.action)}"
        return f"me:{self.action.kind.value}"


_Entry = _Move | _Declared


def _advance(state: State, seat: int, action: Action) -> tuple[State, tuple[_Move, ...]]:
    """Apply the effective move ``(seat, action)``, then close every response window in
    which nobody has more than ``pass`` (the card stays in its row, R-5.2, R-5.3), as the
    table does; with the public moves it made."""
    moves: list[_Move] = []
    while True:
        after = apply(state, seat, action)
        moves.append(_Move.of(step_events(state, seat, action, after), action))
        state = after
        if state.is_over or state.phase is not Phase.RESPONSE or asked(state):
            return state, tuple(moves)
        seat, action = resolve(state, {})


def _start(deal: Deal, rules: RuleSet, quan: int | None) -> tuple[State, tuple[_Move, ...]]:
    """The hand's first state and its public entries: the deal's (R-4.3), then the
    windows nobody can respond to, closed."""
    state = new_hand(deal, rules, quan)
    first = _Move.of(opening_events(state, hand=1, quan=1)[1:], None)
    if state.is_over or state.phase is not Phase.RESPONSE or asked(state):
        return state, (first,)
    state, moves = _advance(state, *resolve(state, {}))
    return state, (first, *moves)


class _Snap:
    """The whole state of a game state, immutable: clones share it (OpenSpiel clones a
    Python state by deep-copying its attributes; this one copies as itself). ``log`` is
    the hand's story: every public move and every seat's own declarations, in order."""

    __slots__ = ("dealer", "dealt", "declared", "log", "quan", "rules", "state", "waiting")

    def __init__(
        self,
        rules: RuleSet,
        quan: int | None,
        dealer: int | None = None,
        dealt: tuple[int, ...] = (),
        state: State | None = None,
        declared: tuple[tuple[int, Action], ...] = (),
        log: tuple[_Entry, ...] = (),
    ) -> None:
        self.rules = rules
        self.quan = quan
        self.dealer = dealer
        self.dealt = dealt
        self.state = state
        self.declared = declared
        self.log = log
        if state is None or state.is_over:
            self.waiting: tuple[int, ...] = ()
        else:
            done = {seat for seat, _ in declared}
            self.waiting = tuple(s for s in asked(state) if s not in done)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Snap:
        return self

    def own_dealt(self, player: int) -> list[int]:
        """The cards dealt to ``player`` so far, in the order dealt (R-2.3)."""
        if self.dealer is None:
            return []
        slots = _deal_slots(self.rules, self.dealer)
        return [c for c, seat in zip(self.dealt, slots, strict=False) if seat == player]


def _deal_slots(rules: RuleSet, dealer: int) -> tuple[int, ...]:
    """Where each dealt card goes, in deal order: a seat, or -1 for the stock."""
    seats = active_seats(dealer, rules.players)
    order = [s for s in seats if s >= dealer] + [s for s in seats if s < dealer]
    slots: list[int] = []
    for seat in order:
        slots += [seat] * (21 if seat == dealer else 20)
    return tuple(slots + [-1] * (COPIES * 20 - len(slots)))


def _sampled_deal(snap: _Snap, player: int, sampled: State) -> tuple[int, ...]:
    """The chance outcomes of a deal that leads to ``sampled`` along the hand's public
    moves: ``player``'s own cards as they were dealt, each other seat's first hand (its
    concealed cards in ``sampled``, plus every card it laid from its hand or discarded:
    its meld cards less one taken card per take), the flipped stock cards as they came,
    then ``sampled``'s stock."""
    assert snap.dealer is not None and snap.state is not None
    first = [[0] * 20 for _ in range(snap.rules.players)]
    for seat, st in enumerate(sampled.seats):
        for c, k in enumerate(st.hand):
            first[seat][c] += k
        for group in st.melds:
            for c in group.cards:
                first[seat][c] += 1
    for entry in snap.log:
        if isinstance(entry, _Move) and entry.seat >= 0:
            if entry.kind == "discard":
                first[entry.seat][entry.card] += 1
            elif entry.kind in ("chi", "dui", "kai"):
                first[entry.seat][entry.card] -= 1
    hands = [[c for c in range(20) for _ in range(first[seat][c])] for seat in range(snap.rules.players)]
    slots = _deal_slots(snap.rules, snap.dealer)
    stock = [c for c, seat in zip(snap.dealt, slots, strict=True) if seat < 0][: snap.state.stock_pos]
    stock += [int(c) for c in sampled.deal.stock[sampled.stock_pos :]]
    dealt: list[int] = []
    taken = [0] * snap.rules.players
    for c, seat in zip(snap.dealt, slots, strict=True):
        if seat < 0:  # the stock comes last
            break
        if seat == player:
            dealt.append(c)
        else:
            dealt.append(hands[seat][taken[seat]])
            taken[seat] += 1
    return (*dealt, *stock)


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
                if not 0 <= action < s.rules.players:
                    raise ValueError(f"the dealer is a seat 0-{s.rules.players - 1}, got {action}")
                self._s = _Snap(s.rules, s.quan, dealer=int(action))
                return
            if not 0 <= action < 20 or s.dealt.count(action) >= COPIES:
                raise ValueError(f"a dealt card is a card value 0-19 with a copy left, got {action}")
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
            state, moves = _start(deal, s.rules, s.quan)
            self._s = _Snap(s.rules, s.quan, s.dealer, dealt, state, log=moves)
            return
        state = s.state
        if state.is_over:
            raise IllegalActionError("the hand is over")
        player = s.waiting[0]
        if not 0 <= action < N_ACTIONS:
            raise IllegalActionError(f"action {action} is outside 0-{N_ACTIONS - 1}")
        chosen = ACTIONS[action]
        if state.phase is Phase.RESPONSE:
            if chosen not in seat_options(state, player):
                raise IllegalActionError(f"seat {player} may not declare {chosen} now")
            declared = (*s.declared, (player, chosen))
            log: tuple[_Entry, ...] = (*s.log, _Declared(player, chosen))
            if len(declared) < len(s.waiting) + len(s.declared):
                self._s = _Snap(s.rules, s.quan, s.dealer, s.dealt, state, declared, log)
                return
            state, moves = _advance(state, *resolve(state, dict(declared)))
        else:
            log = s.log
            state, moves = _advance(state, player, chosen)
        self._s = _Snap(s.rules, s.quan, s.dealer, s.dealt, state, log=(*log, *moves))

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
        """A state ``player_id`` cannot tell from this one, with the same information
        state: the cards it has not seen dealt at random
        (:func:`~erqishi.bots.search.determinize`; the chance outcomes rebuilt to match),
        its own marks, its own declarations and every public move kept, and in the current
        window the seats asked before it declaring anew in the sampled world (heuristic
        play), its own declaration kept if it made one, the seats after it not yet
        declared. The other seats' declarations of earlier windows are not kept (they
        belong to the real cards). The current player is the same when it is
        ``player_id`` (as OpenSpiel's ISMCTS asks). A deal in which the current window
        would have nobody left to declare (possible only when ``player_id`` is not to
        move) is drawn again, up to 64 times, then this state itself is returned (a copy),
        as it is while dealing or once the hand is over. Randomness comes from
        ``probability_sampler`` alone."""
        s = self._s
        game = self.get_game()
        if s.state is None or s.state.is_over:
            return ErqishiState(game, s)
        rng = random.Random(int(probability_sampler() * 2**53))
        for _ in range(64):
            snap = self._sample(player_id, rng)
            if snap is not None:
                return ErqishiState(game, snap)
        return ErqishiState(game, s)

    def _sample(self, player_id: int, rng: random.Random) -> _Snap | None:
        """One draw of :meth:`resample_from_infostate`, or None when the sampled window
        would have nobody left to declare."""
        s = self._s
        real = s.state
        assert real is not None
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
        )
        own = next((a for seat, a in s.declared if seat == player_id), None)
        declared: list[tuple[int, Action]] = []
        if sampled.phase is Phase.RESPONSE:
            order = asked(sampled)
            if player_id in order:
                bot = HeuristicBot(look_at_waits=False)
                for seat in order:
                    if seat == player_id:
                        if own is not None:
                            declared.append((seat, own))
                        break
                    declared.append((seat, bot.choose(view(sampled, seat), rng)))
            if len(declared) == len(order):
                return None
        log: tuple[_Entry, ...] = tuple(e for e in s.log if isinstance(e, _Move) or e.seat == player_id)
        log += tuple(_Declared(seat, a) for seat, a in declared if seat != player_id)
        dealt = _sampled_deal(s, player_id, sampled)
        return _Snap(s.rules, s.quan, s.dealer, dealt, sampled, tuple(declared), log)


class ErqishiObserver:
    """The observer of OpenSpiel's Python games: a player's observation
    (``perfect_recall=False``) or information state (``perfect_recall=True``), as a
    string and as a flat ``float32`` tensor whose pieces ``dict[name]`` share its memory.

    **Observation**: the piece ``planes``, the planes of :mod:`erqishi.rl.encoding`
    (shape ``(21 + 22 × players, 20)``; while dealing only ``hand_1``…``hand_4``, of the
    cards dealt to the player so far), and a text of the same view and marks.

    **Information state** (perfect recall, R-9; every seat relative to the player,
    ``r = (seat − player) mod players``, as in the planes): the pieces of
    :func:`information_state_shapes`, in order:

    - ``planes``: the observation planes above;
    - ``dealer`` ``(players,)``: one-hot ``r`` of the dealer, once drawn (R-2.2);
    - ``deal`` ``(21, 20)``: row ``k`` one-hot the ``k``-th card dealt to the player (R-2.3);
    - ``moves`` ``(1 + max_moves(rules), 2n + 133)`` (``n`` players; :func:`max_moves`):
      row 0 is the deal, row ``i ≥ 1`` the ``i``-th effective move, zeros after the last.
      Columns, from 0: ``n`` one-hot ``r`` of who moved (for a card nobody took, the seat
      that discarded or flipped it); 6 one-hot kind: discard, untaken, 吃, 对, 开, 胡; 20
      one-hot the card discarded, taken, left or won on (none for 天胡); 20 for a 吃, the
      two hand cards (copies / 2, R-5.7); 20 its 摆 groups' cards (copies / 2, R-5.8);
      ``n`` the 八块 announced with the move, quad cards / 24 per ``r`` (R-4.2); 20
      one-hot the card flipped after it (R-5.3); 1 dead hand (R-5.6); then the player's
      own declaration in the window this move closed (R-5.4): 1 declared; 5 one-hot pass,
      吃, 对, 开, 胡; 20 its 吃's two hand cards and 20 its 摆 cards (copies / 2). Until
      the window closes, the row of the move that will close it holds the player's
      declaration alone.

    While dealing the planes hold the cards dealt to the player so far (``hand_1``…``hand_4``)
    and ``deal`` fills row by row.

    The information state string is space-separated tokens, in order: ``p{player}``;
    once the dealer is drawn ``dealer={seat}`` and ``deal={own cards in the order
    dealt}`` (growing while dealing); ``dealt`` once the deal is over; then as the hand
    goes, each public move: ``s{seat}:discard={card}``, ``s{seat}:untaken={card}``
    (nobody took it), ``s{seat}:chi={card}:{two hand cards}[,{摆 group}…]``,
    ``s{seat}:dui={card}``, ``s{seat}:kai={card}``, ``s{seat}:hu[={card}]`` (no card for
    天胡), each followed by what it brought: ``s{seat}:announce={quad cards}``,
    ``s{seat}:flip={card}``, ``dead``; and where the player made them, its own
    declarations ``me:pass``, ``me:chi={two hand cards}[,{摆 group}…]``, ``me:dui``,
    ``me:kai``, ``me:hu``. Seats are absolute, cards Chinese (R-1.2). Example (seat 0,
    three players): ``p0 dealer=1 deal=五七…陆 dealt s1:discard=九 s2:dui=九
    s2:discard=柒 me:dui s0:dui=柒 s0:discard=二 s0:untaken=二 s1:flip=七 …``.

    Raises:
        ValueError: parameters, or an observation type other than one player's (public
            and private) information.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, rules: RuleSet) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("erqishi observes one player's public and private information only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self._players = rules.players
        shapes = (
            information_state_shapes(rules) if self.perfect_recall else {"planes": observation_shape(rules.players)}
        )
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in shapes.values()), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        start = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size
        self._planes = self.dict["planes"].reshape(-1)
        self._encoder = ObservationEncoder()

    def set_from(self, state: ErqishiState, player: int) -> None:
        """The tensor of ``player`` in ``state`` (see the class text).

        Raises:
            ValueError: a hand with more moves than :func:`max_moves` allows (a wrong bound).
        """
        engine = state.engine_state
        snap = state._s
        self.tensor.fill(0.0)
        if engine is not None:
            self._planes[:] = self._encoder.encode(view(engine, player), OwnMarks.of(engine, player)).ravel()
        elif snap.dealer is not None:  # while dealing: the hand planes of the cards dealt to it so far
            planes = self.dict["planes"]
            own = snap.own_dealt(player)
            for c in set(own):
                planes[: own.count(c), c] = 1.0
        if not self.perfect_recall:
            return
        if snap.dealer is None:
            return
        n = self._players
        self.dict["dealer"][(snap.dealer - player) % n] = 1.0
        deal = self.dict["deal"]
        for k, c in enumerate(snap.own_dealt(player)):
            deal[k, c] = 1.0
        moves = self.dict["moves"]
        row = -1
        for entry in snap.log:
            if isinstance(entry, _Move):
                row += 1
                if row >= moves.shape[0]:
                    raise ValueError(f"more than {moves.shape[0] - 1} moves in a hand: max_moves is wrong")
                _write_move(moves[row], entry, player, n)
            elif entry.seat == player:
                if row + 1 >= moves.shape[0]:
                    raise ValueError(f"more than {moves.shape[0] - 1} moves in a hand: max_moves is wrong")
                _write_declared(moves[row + 1], entry.action, n)

    def string_from(self, state: ErqishiState, player: int) -> str:
        """The string of ``player`` in ``state`` (see the class text)."""
        if self.perfect_recall:
            return _information_state_string(state._s, player)
        return _observation_string(state, player)


def _write_chi(out: npt.NDArray[np.float32], action: Action) -> None:
    """A 吃's two hand cards into ``out[0:20]`` and its 摆 cards into ``out[20:40]``,
    copies / 2 (no card is used more than twice, :mod:`erqishi.rl.actions`)."""
    for c in action.cards:
        out[c] += 0.5
    for group in action.bai:
        for c in group:
            out[20 + c] += 0.5


def _write_move(out: npt.NDArray[np.float32], move: _Move, player: int, n: int) -> None:
    """One row of the ``moves`` piece, its public columns (see :class:`ErqishiObserver`)."""
    if move.kind != "deal":
        out[(move.seat - player) % n] = 1.0
        out[n + _MOVE_KINDS.index(move.kind)] = 1.0
        if move.card >= 0:
            out[n + 6 + move.card] = 1.0
        if move.kind == "chi" and move.action is not None:
            _write_chi(out[n + 26 : n + 66], move.action)
    for seat, count in move.announced:
        out[n + 66 + (seat - player) % n] = count / 24
    if move.flip >= 0:
        out[2 * n + 66 + move.flip] = 1.0
    if move.dead:
        out[2 * n + 86] = 1.0


def _write_declared(out: npt.NDArray[np.float32], action: Action, n: int) -> None:
    """The player's own declaration in one row of the ``moves`` piece."""
    base = 2 * n + 87
    out[base] = 1.0
    out[base + 1 + _DECL_KINDS.index(action.kind)] = 1.0
    if action.kind is ActionKind.CHI:
        _write_chi(out[base + 6 : base + 46], action)


def _information_state_string(snap: _Snap, player: int) -> str:
    """The information state string of ``player`` (see :class:`ErqishiObserver`)."""
    parts = [f"p{player}"]
    if snap.dealer is not None:
        parts.append(f"dealer={snap.dealer}")
        parts.append(f"deal={''.join(str(_CARDS[c]) for c in snap.own_dealt(player))}")
    for entry in snap.log:
        if isinstance(entry, _Declared) and entry.seat != player:
            continue
        if entry.text:
            parts.append(entry.text)
    return " ".join(parts)


def _observation_string(state: ErqishiState, player: int) -> str:
    """The player's view and own marks as text (its own cards only while dealing)."""
    engine = state.engine_state
    snap = state._s
    if engine is None:
        own = sorted(snap.own_dealt(player))
        return f"p{player} dealing dealer={snap.dealer} own={''.join(str(_CARDS[c]) for c in own)}"
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
        spec = str(params.get("rules", "leshan"))
        rules = RuleSet.load(spec.replace(";", ",") if spec.lstrip().startswith("{") else spec)
        players = int(params.get("players", 0)) or rules.players
        if players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4 (or 0: the rule set's own), got {players}")
        if rules.players != players:
            rules = replace(rules, players=players)
        quan = int(params.get("quan", 1))
        if not 0 <= quan <= 10:
            raise ValueError(f"quan must be 1-10, or 0 for none, got {quan}")
        self.rules = rules
        # the 圈 card counts only while 圈胡 is played (R-7.3, R-10 quan_fan)
        self.quan = quan if quan and rules.quan_fan else None
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
        # OpenSpiel splits a game's string at commas, so JSON options keep theirs as ";"
        super().__init__(GAME_TYPE, info, {"players": players, "rules": spec.replace(",", ";"), "quan": quan})

    def new_initial_state(self) -> ErqishiState:
        """A new hand, before the dealer is drawn."""
        return ErqishiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> ErqishiObserver:
        """The observer (see :class:`ErqishiObserver`): the information state when
        ``iig_obs_type.perfect_recall``, else the observation (the default).

        Raises:
            ValueError: as :class:`ErqishiObserver`.
        """
        return ErqishiObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.rules)


pyspiel.register_game(GAME_TYPE, ErqishiGame)

"""The ``search`` bot: determinized Monte Carlo search.

It samples the hidden cards consistently with its view (the other seats' concealed
hands, of the sizes it can see, and the stock order, from the cards it has not seen:
:func:`determinize`) and, in each sampled world, plays every candidate action out to the
end of the hand; it keeps the action with the best mean net payment (R-8, score units).
Every candidate is played in the same worlds (paired samples: the comparison sees the
difference the action makes, not the luck of the sample).

Playouts go through the engine's own moves (:func:`~erqishi.core.engine.legal_moves`,
:func:`~erqishi.core.engine.apply`) on the sampled state, without views: each seat
plays a cheap rule on its own counts (:func:`rollout_move`): it always wins, takes a
开 or 对, takes a 吃 that uses two single cards, and discards its least connected free
card. The budget is a fixed number of playouts per decision (96 by default), so seeded
games repeat exactly; an optional time limit exists but makes play machine-dependent.
Candidate discards are first cut to the heuristic's best few.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from erqishi.bots.heuristic import REACH, HeuristicBot
from erqishi.core import Card, IllegalActionError
from erqishi.core.engine import (
    HU,
    PASS,
    Action,
    ActionKind,
    Deal,
    Phase,
    PlayerView,
    SeatState,
    State,
    apply,
    legal_actions,
    legal_moves,
)
from erqishi.core.engine.legal import discard_mask, effective_responses
from erqishi.play._compiled import mypyc_attr

__all__ = ["SearchBot", "determinize", "rollout_move"]

_CARDS: Final = tuple(Card)
MAX_STEPS = 400


def _unseen(v: PlayerView) -> list[Card]:
    """The cards this seat has not seen: not in its hand, any meld, any row, or pending."""
    seen = v.seen()
    return [_CARDS[c] for c in range(20) for _ in range(max(0, 4 - seen[c]))]


#: how many deals :func:`determinize` draws at most looking for one the public moves allow
DEAL_TRIES: Final = 64


def determinize(v: PlayerView, rng: random.Random) -> State:
    """A full state consistent with the view: the hidden cards dealt at random.

    The deal never contradicts what the seat saw: no other seat holds three of a card
    that was ever left untaken in a row (it would have had to 开 it, R-5.12, and a
    concealed hand only loses cards), and a seat that announced its quad cards (八块,
    R-4.2) owns at least that many quads, its missing ones dealt to it as concealed 滚
    from identities all four of whose copies are unseen. Deals are drawn until one fits
    (:data:`DEAL_TRIES` at most; the last is kept if none does). What a seat cannot see
    is otherwise guessed simply: the other seats' 过张 and 过胡 are unknown (taken as
    none) and the identities in their rows count as their own discards.
    """
    unseen = _unseen(v)
    left_untaken = 0  # identities once pending and left in a row: nobody held three then
    for sv in v.seats:
        for c in sv.row:
            left_untaken |= 1 << c
    owed: list[tuple[int, int]] = []  # (index in v.seats, concealed 滚 its announcement needs)
    for i, sv in enumerate(v.seats):
        if sv.seat != v.seat and sv.announced:
            missing = sv.announced // 4 - sum(1 for g in sv.melds if len(g.cards) == 4)
            if missing > 0:
                owed.append((i, min(missing, sv.hand_size // 4)))
    fours = [c for c in range(20) if unseen.count(_CARDS[c]) == 4 and not left_untaken >> c & 1] if owed else []
    hands: list[list[Card]] = []
    pool: list[Card] = []
    for _ in range(DEAL_TRIES):
        pool = list(unseen)
        given: dict[int, list[Card]] = {}
        if owed:
            rng.shuffle(fours)
            taken = 0
            for i, k in owed:
                chosen = fours[taken : taken + k]
                taken += len(chosen)
                given[i] = [_CARDS[q] for q in chosen for _ in range(4)]
                for q in chosen:
                    for _ in range(4):
                        pool.remove(_CARDS[q])
        rng.shuffle(pool)
        hands, pos = [], 0
        fits = True
        for i, sv in enumerate(v.seats):
            if sv.seat == v.seat:
                hands.append(list(v.hand))
                continue
            mine = given.get(i, [])
            cards = mine + pool[pos : pos + sv.hand_size - len(mine)]
            pos += sv.hand_size - len(mine)
            hands.append(cards)
            if fits and left_untaken:
                for c in set(cards):
                    if left_untaken >> c & 1 and cards.count(c) >= 3:
                        fits = False
                        break
        pool = pool[pos:]
        if fits:
            break
    seats: list[SeatState] = []
    for sv, cards in zip(v.seats, hands, strict=True):
        counts = [0] * 20
        for c in cards:
            counts[c] += 1
        quads = sum(1 for n in counts if n == 4) + sum(1 for g in sv.melds if len(g.cards) == 4)
        discarded = 0
        if sv.seat != v.seat:  # a guess for the others; for itself, whatever it may declare stays open
            for c in sv.row:
                discarded |= 1 << c
        seats.append(
            SeatState(
                hand=tuple(counts),
                melds=sv.melds,
                row=sv.row,
                discarded=discarded,
                announced=sv.announced,
                quads=quads,
                card_count=len(cards) + sum(len(g.cards) for g in sv.melds),
            )
        )
    stock = tuple(pool[: v.stock_left])
    forbidden = 0
    if v.phase is Phase.DISCARD and v.turn == v.seat:
        allowed = {a.cards[0] for a in v.legal if a.kind is ActionKind.DISCARD}
        for c in set(v.hand) - allowed:
            forbidden |= 1 << c
    return State(
        rules=v.rules,
        deal=Deal(v.dealer, tuple(() for _ in v.seats), stock),
        quan=v.quan,
        seats=tuple(seats),
        order=v.order,
        stock_pos=0,
        phase=v.phase,
        turn=v.turn,
        pending=v.pending,
        pending_flip=v.pending_flip,
        forbidden=forbidden,
    )


_REACH_MASK: Final = tuple(sum(1 << p for p in REACH[c]) for c in range(20))
_DISCARD: Final = tuple(Action.discard(c) for c in _CARDS)
_HU_KIND: Final = ActionKind.HU
_PASS_KIND: Final = ActionKind.PASS
_CHI_KIND: Final = ActionKind.CHI
_DISCARD_KIND: Final = ActionKind.DISCARD
_RESPONSE: Final = Phase.RESPONSE
_DISCARD_PHASE: Final = Phase.DISCARD
_OVER: Final = Phase.OVER


def _least_connected(seat: SeatState, mask: int) -> int:
    """The card of ``mask`` (a bit set) worth least to the seat's hand: fewest free
    partners, a single before a pair, a small card before a big one, the lowest first."""
    hand = seat.hand
    free = seat.free_mask
    best = -1
    best_worth = 1 << 30
    while mask:
        low = mask & -mask
        mask ^= low
        c = low.bit_length() - 1
        worth = 4 * (_REACH_MASK[c] & free).bit_count() + (6 if hand[c] == 2 else 0) + (c >= 10)
        if worth < best_worth:
            best, best_worth = c, worth
    return best


def _accepts(seat: SeatState, action: Action) -> bool:
    """The playout rule for a response: always 胡, 开 and 对; a 吃 without 摆 whose two
    hand cards are single (it breaks no pair)."""
    if action.kind is not _CHI_KIND:
        return True
    if action.bai:
        return False
    a, b = action.cards
    hand = seat.hand
    return a != b and hand[a] == 1 and hand[b] == 1


def rollout_move(state: State) -> tuple[int, Action] | None:
    """The playouts' move in ``state`` (not over), from the engine's moves and each seat's
    own counts: the best-ranked response its seat accepts (:func:`_accepts`), else the
    pass, else the compulsory 开; the dealer's 天胡; the least connected discard. None when
    the seat to move has no legal move (a sampled world the real hand cannot reach)."""
    if state.phase is _RESPONSE:  # legal_moves(state), read straight from the responses
        effective, pass_ok = effective_responses(state)
        seats = state.seats
        for r in effective:
            if _accepts(seats[r.seat], r.action):
                return r.seat, r.action
        if pass_ok:
            return state.turn, PASS
        if not effective:
            return None
        last = effective[-1]
        return last.seat, last.action
    turn = state.turn
    if state.phase is _DISCARD_PHASE:  # the owed discard: the engine's one test of it, no action list
        me = state.seats[turn]
        mask = discard_mask(me, state.forbidden)
        if not mask:
            return None
        return turn, _DISCARD[_least_connected(me, mask)]
    acts = legal_actions(state, turn)
    if not acts:
        return None
    first = acts[0]
    if first.kind is _HU_KIND or len(acts) == 1:
        return turn, first
    me = state.seats[turn]
    mask = discard_mask(me, state.forbidden)
    if not mask:
        return turn, acts[-1]  # the opening pass
    return turn, _DISCARD[_least_connected(me, mask)]


def _root_move(state: State, me: int, mine: Action) -> tuple[int, Action] | None:
    """The first move of a playout: ``me`` declares ``mine``; in a response window the
    other seats answer by the playout rule and R-5.4 picks the effective move."""
    if state.phase is not _RESPONSE:
        return me, mine
    moves = legal_moves(state)
    if not moves:
        return None
    seats = state.seats
    for seat, action in moves:
        if action.kind is _PASS_KIND:
            return seat, action
        if seat == me:
            if action == mine:
                return seat, action
        elif _accepts(seats[seat], action):
            return seat, action
    return moves[-1]


def playout(state: State, me: int, mine: Action) -> float | None:
    """``me`` plays ``mine`` in the sampled ``state``, then every seat the playout rule to
    the end: my net payment, or None when the sampled world is one the real hand cannot
    reach (a guessed hand that leaves a seat without a legal move)."""
    try:
        move = _root_move(state, me, mine)
        steps = 0
        while move is not None:
            state = apply(state, move[0], move[1])
            steps += 1
            if state.phase is _OVER or steps >= MAX_STEPS:
                break
            move = rollout_move(state)
        else:
            return None
    except IllegalActionError:
        return None
    result = state.result
    return 0.0 if result is None else float(result.payments[me])


@mypyc_attr(allow_interpreted_subclasses=True)  # users subclass it, in both builds
class SearchBot:
    """Determinized Monte Carlo search over the actions it may declare (see the module)."""

    name = "search"

    def __init__(self, *, playouts: int = 96, seconds: float | None = None, width: int = 4) -> None:
        """Args:
        playouts: playouts per decision, at least one sampled world per candidate: each
            world plays every candidate once.
        seconds: an optional wall-clock limit per decision. Off by default: a time limit
            makes the choice depend on the machine's speed, and seeded games must repeat
            exactly.
        width: how many of the heuristic's best discards are searched.
        """
        self.playouts = playouts
        self.seconds = seconds
        self.width = width
        self.skipped = 0  # playouts dropped for an unreachable sampled world
        self._ranker = HeuristicBot()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate with the best mean net payment over the playouts."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if HU in legal:
            return HU  # a win now is certain; waiting is the heuristic's call, not the search's
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        n = len(candidates)
        totals = [0.0] * n
        counts = [0] * n
        worlds = max(1, -(-self.playouts // n))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        me = view.seat
        for k in range(worlds):
            if deadline is not None and k and time.perf_counter() > deadline:
                break
            state = determinize(view, rng)
            for i, action in enumerate(candidates):
                value = playout(state, me, action)
                if value is None:
                    self.skipped += 1
                    continue
                totals[i] += value
                counts[i] += 1
        means = [t / c if c else float("-inf") for t, c in zip(totals, counts, strict=True)]
        best = max(range(n), key=lambda i: (means[i], -i))
        return candidates[best]

    def _candidates(self, view: PlayerView) -> list[Action]:
        legal: Sequence[Action] = view.legal
        discards = [a for a in legal if a.kind is _DISCARD_KIND]
        if len(discards) > self.width:
            ranked = self._ranker._discard_scores(view, discards)
            keep = {a for _, a in ranked[: self.width]}
            return [a for a in legal if a.kind is not _DISCARD_KIND or a in keep]
        return list(legal)

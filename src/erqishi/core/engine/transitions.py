"""State transitions: a new hand from a deal, and ``apply`` (R-4 to R-8).

``apply`` accepts exactly what :func:`~erqishi.core.engine.legal.legal_actions` offers
and raises :class:`IllegalActionError` naming the rule (R-id) otherwise. Flips are done
here as soon as one is due (R-5.2, R-5.3, R-5.5); a flip due on an empty stock ends the
hand dead (R-5.6).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from erqishi.core._boundary import raise_if_mistyped
from erqishi.core.cards import Card
from erqishi.core.engine.actions import Action, ActionKind
from erqishi.core.engine.deal import Deal, active_seats, sitting_out_seat
from erqishi.core.engine.explain import explain_illegal
from erqishi.core.engine.legal import (
    GROUP_WITH,
    RANK_CHI,
    RANK_HU,
    Response,
    discard_mask,
    effective_responses,
    legal_actions,
    responses,
    tian_score,
    win_context,
)
from erqishi.core.engine.state import Outcome, OutcomeKind, Phase, SeatState, State
from erqishi.core.errors import IllegalActionError, InvalidHandError
from erqishi.core.hands import Group, GroupKind, WinContext, WinSource, classify_triple, settle
from erqishi.core.rules import LESHAN, RuleSet

#: the enum members the hot paths compare with, as constants (a compiled build reads
#: these directly instead of looking each up on its class)
_RESPONSE: Final = Phase.RESPONSE
_DISCARD_PHASE: Final = Phase.DISCARD
_OPENING: Final = Phase.OPENING
_OVER: Final = Phase.OVER
_PASS_KIND: Final = ActionKind.PASS
_DISCARD_KIND: Final = ActionKind.DISCARD
_HU_KIND: Final = ActionKind.HU
_KAI_KIND: Final = ActionKind.KAI
_DUI_KIND: Final = ActionKind.DUI
_TIAN: Final = WinSource.TIAN
__all__ = ["apply", "new_hand"]

_CARDS: Final = tuple(Card)


def new_hand(deal: Deal, rules: RuleSet = LESHAN, quan: int | None = None) -> State:
    """The state at the start of a hand (R-2.3, R-4.3, R-5.1).

    A dealer dealt two or more 滚 owes no opening discard: the 八块 is announced and the
    dealer's 下家 flips at once (the first flip then carries 地胡, R-6.3).

    Args:
        deal: the deal; checked against ``rules``.
        rules: the rule set.
        quan: the 圈 number (1-10) for 圈胡, or None.

    Raises:
        InvalidHandError: the deal is not a full deck dealt right for the player count,
            or ``quan`` is not 1-10.

    >>> import random
    >>> state = new_hand(Deal.shuffled(random.Random(1), dealer=0))
    >>> state.phase.value, state.turn, state.stock_left
    ('opening', 0, 19)
    """
    per_seat = deal.hand_counts(rules)  # checks the deal too
    if isinstance(quan, bool):  # no value in the message: the compiled build holds it as 0 or 1
        raise InvalidHandError("圈 number must be 1-10, got a true/false value")
    if quan is not None and not 1 <= quan <= 10:
        raise InvalidHandError(f"圈 number must be 1-10, got {quan!r}")
    seats = []
    for counts, cards in zip(per_seat, deal.hands, strict=True):
        quads = 0
        for n in counts:
            if n == 4:
                quads += 1
        seats.append(SeatState(hand=tuple(counts), quads=quads, card_count=len(cards)))
    state = State(
        rules=rules,
        deal=deal,
        quan=quan,
        seats=tuple(seats),
        order=active_seats(deal.dealer, rules.players),
        stock_pos=0,
        phase=_OPENING,
        turn=deal.dealer,
    )
    dealer = state.seats[deal.dealer]
    if not dealer.owes_discard and tian_score(state) == 0:
        # no opening discard; announce, and the dealer's 下家 flips
        seats[deal.dealer] = dealer.evolve(announced=4 * dealer.quads)
        return _flip(state, seats, state.xiajia(deal.dealer), di_window=True, steps=0)
    return state


def _next(
    state: State,
    seats: list[SeatState],
    stock_pos: int,
    phase: Phase,
    turn: int,
    pending: Card | None,
    pending_flip: bool,
    di_window: bool,
    forbidden: int,
    result: Outcome | None,
    steps: int,
) -> State:
    """The state that follows ``state`` in the same hand (rules, deal, 圈 and seat order
    carry over)."""
    return State(
        state.rules,
        state.deal,
        state.quan,
        tuple(seats),
        state.order,
        stock_pos,
        phase,
        turn,
        pending,
        pending_flip,
        di_window,
        forbidden,
        result,
        steps,
    )


def _flip(state: State, seats: list[SeatState], flipper: int, *, di_window: bool = False, steps: int) -> State:
    """Turn the top stock card up for ``flipper`` (R-5.3), or end the hand dead (R-5.6)."""
    pos = state.stock_pos
    stock = state.deal.stock
    if pos >= len(stock):
        dead = Outcome(OutcomeKind.DEAD, (0,) * state.rules.players)
        return _next(state, seats, pos, _OVER, -1, None, False, False, 0, dead, steps)
    return _next(state, seats, pos + 1, _RESPONSE, flipper, stock[pos], True, di_window, 0, None, steps)


def _discard(state: State, seats: list[SeatState], seat: int, card: Card, *, di_window: bool, steps: int) -> State:
    me = seats[seat]
    hand = list(me.hand)
    left = hand[card] - 1
    hand[card] = left
    bit = 1 << card
    free = me._free_mask
    if free >= 0:  # the discarded card was free (1-2 copies); it stays free with one left
        free = free | bit if left == 1 else free & ~bit
    seats[seat] = SeatState(
        tuple(hand),
        me.melds,
        me.row,
        me.discarded | bit,
        me.guozhang,
        me.guohu,
        me.announced,
        me.quads,
        me.card_count - 1,
        free,
        [],
    )
    return _next(state, seats, state.stock_pos, _RESPONSE, seat, card, False, di_window, 0, None, steps)


def _win(
    state: State,
    seats: list[SeatState],
    seat: int,
    win: Card | None,
    context: WinContext,
    discarder: int | None,
    steps: int,
) -> State:
    analysis = seats[seat].analyzer(state.rules).evaluate(win, context)
    payments = settle(
        analysis.score,
        context.source,
        seat,
        state.rules,
        discarder=discarder,
        sitting_out=sitting_out_seat(state.dealer, state.rules.players),
    )
    source_seat = None if context.source is _TIAN else state.turn
    outcome = Outcome(OutcomeKind.WIN, payments, seat, context.source, analysis, discarder, source_seat)
    return _next(
        state,
        seats,
        state.stock_pos,
        _OVER,
        -1,
        state.pending,
        state.pending_flip,
        state.di_window,
        0,
        outcome,
        steps,
    )


_MELD_KAI: Final = tuple(Group(GroupKind.KAI, (c,) * 4, exposed=True) for c in _CARDS)
_MELD_YU_KAI: Final = tuple(Group(GroupKind.KAI, (c,) * 4, exposed=True, yu=True) for c in _CARDS)
_MELD_DUI: Final = tuple(Group(GroupKind.DUI, (c,) * 3, exposed=True) for c in _CARDS)
_CHI_MELDS: Final[dict[tuple[int, int, int], Group]] = {}


def _chi_meld(a: int, b: int, c: int) -> Group:
    """The exposed 吃/摆 group of three cards (cached: groups are values)."""
    p, q, r = sorted((a, b, c))
    group = _CHI_MELDS.get((p, q, r))
    if group is None:
        cards = (_CARDS[p], _CARDS[q], _CARDS[r])
        kind = classify_triple(cards)
        assert kind is not None
        group = _CHI_MELDS[(p, q, r)] = Group(kind, cards, exposed=True)
    return group


def _take(state: State, seats: list[SeatState], seat: int, action: Action, x: Card, steps: int) -> State:
    """A 吃, 对 or 开 (R-5.5, R-5.7, R-5.11, R-5.12); then a discard is owed, or the card
    is kept (八块 …, R-4.1, R-4.2) and the 下家 flips."""
    me = seats[seat]
    hand = list(me.hand)
    melds = list(me.melds)
    quads = me.quads
    forbidden = 0
    if action.kind is _KAI_KIND:
        if hand[x] == 3:
            hand[x] = 0
            melds.append(_MELD_KAI[x])
        else:  # yu: onto an exposed 对; it grew on the table
            i = next(i for i, g in enumerate(melds) if g.kind is GroupKind.DUI and g.cards[0] == x)
            del melds[i]
            melds.append(_MELD_YU_KAI[x])
        quads += 1
    elif action.kind is _DUI_KIND:
        hand[x] -= 2
        melds.append(_MELD_DUI[x])
    else:  # chi
        a, b = action.cards
        hand[a] -= 1
        hand[b] -= 1
        melds.append(_chi_meld(a, b, x))
        for group in action.bai:
            for c in group:
                hand[c] -= 1
            melds.append(_chi_meld(group[0], group[1], group[2]))
        forbidden = GROUP_WITH[a][b]
    free = me._free_mask
    if free >= 0:  # only the cards taken changed: the free set follows from them
        changed = [x, *action.cards]
        for group in action.bai:
            changed += group
        for c in changed:
            n = hand[c]
            free = free | (1 << c) if n == 1 or n == 2 else free & ~(1 << c)
    me = SeatState(
        tuple(hand),
        tuple(melds),
        me.row,
        me.discarded,
        me.guozhang,
        -1,
        me.announced,
        quads,
        me.card_count + 1,
        free,
        [],
    )
    if me.owes_discard:
        seats[seat] = me
        return _next(state, seats, state.stock_pos, _DISCARD_PHASE, seat, None, False, False, forbidden, None, steps)
    seats[seat] = me.evolve(announced=4 * quads)
    return _flip(state, seats, state.xiajia(seat), steps=steps)


def _decline(seats: list[SeatState], declined: Iterable[Response], x: Card, row_seat: int = -1) -> None:
    """Consequences of declined responses: 过胡 (R-6.2) and 过张 (R-5.9); with
    ``row_seat``, the untaken card also goes into that seat's row (R-5.2, R-5.3)."""
    if not declined:
        if row_seat >= 0:
            me = seats[row_seat]
            seats[row_seat] = me.evolve(row=(*me.row, x))
        return
    bit = 1 << int(x)
    chi_seats = 0  # seats that declined a 吃, as bits
    guohu: list[int] | None = None  # per seat, the best declined win, once one is
    for r in declined:
        kind = r.rank[0]
        if kind == RANK_CHI:
            chi_seats |= 1 << r.seat
        elif kind == RANK_HU:
            if guohu is None:
                guohu = [-1] * len(seats)
            if r.score > guohu[r.seat]:
                guohu[r.seat] = r.score
    for s in range(len(seats)):
        chi = chi_seats >> s & 1
        hu = -1 if guohu is None else guohu[s]
        if chi or hu >= 0 or s == row_seat:
            me = seats[s]
            seats[s] = me.evolve(
                guohu=max(me.guohu, hu) if hu >= 0 else None,
                guozhang=me.guozhang | bit if chi else None,
                row=(*me.row, x) if s == row_seat else None,
            )


def apply(state: State, seat: int, action: Action) -> State:
    """Apply ``seat``'s ``action`` and return the new state (R-4 to R-8).

    On a pending card, a take or win means every response ranked ahead of it was
    declined, and a pass that every response was declined (过张 R-5.9, 过胡 R-6.2).

    Args:
        state: the current state (not changed).
        seat: the acting seat.
        action: one of ``legal_actions(state, seat)``.

    Raises:
        IllegalActionError: the action is not legal now; the message names the rule.

    >>> import random
    >>> from erqishi.core.engine import legal_moves
    >>> state = new_hand(Deal.shuffled(random.Random(1), dealer=0))
    >>> seat, action = legal_moves(state)[-1]
    >>> after = apply(state, seat, action)
    >>> (after.phase.value, after.turn, after.pending == action.cards[0])
    ('response', 0, True)
    >>> apply(after, 2, Action.parse("discard x1"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    erqishi.core.errors.IllegalActionError: R-5.2: no discard is owed; ...
    """
    try:
        phase = state.phase
        chosen: Response | None = None
        if phase is _RESPONSE:
            effective, pass_ok = effective_responses(state)
            if action.kind is _PASS_KIND:
                legal = pass_ok and seat in state.order
            else:
                for r in effective:  # the very action offered, the usual case: no equality test
                    if r.action is action and r.seat == seat:
                        chosen = r
                        break
                else:
                    for r in effective:
                        if r.seat == seat and r.action == action:
                            chosen = r
                            break
                legal = chosen is not None
        elif phase is _DISCARD_PHASE and action.kind is _DISCARD_KIND:
            legal = seat == state.turn and discard_mask(state.seats[seat], state.forbidden) >> action.cards[0] & 1 == 1
        else:
            legal = action in legal_actions(state, seat)
        if not legal:
            raise IllegalActionError(explain_illegal(state, seat, action))
        steps = state.steps + 1
        seats = list(state.seats)
        if phase is _OPENING:
            dealer = state.dealer
            tian = tian_score(state)
            if action.kind is _HU_KIND:
                return _win(state, seats, dealer, None, WinContext(_TIAN, quan=state.quan), None, steps)
            if tian:  # declining 天胡 is declining a win
                seats[dealer] = seats[dealer].evolve(guohu=max(seats[dealer].guohu, tian))
            if action.kind is _DISCARD_KIND:
                return _discard(state, seats, dealer, action.cards[0], di_window=True, steps=steps)
            seats[dealer] = seats[dealer].evolve(announced=4 * seats[dealer].quads)
            return _flip(state, seats, state.xiajia(dealer), di_window=True, steps=steps)
        if phase is _DISCARD_PHASE:
            return _discard(state, seats, seat, action.cards[0], di_window=False, steps=steps)
        # RESPONSE
        resp = responses(state)
        x = state.pending
        assert x is not None
        if action.kind is _PASS_KIND:
            src = state.turn
            _decline(seats, resp, x, row_seat=src)
            return _flip(state, seats, state.xiajia(src), steps=steps)
        assert chosen is not None
        _decline(seats, [r for r in resp if r.rank < chosen.rank], x)
        if action.kind is _HU_KIND:
            discarder = None if state.pending_flip else state.turn
            return _win(state, seats, seat, x, win_context(state, seat), discarder, steps)
        return _take(state, seats, seat, action, x, steps)
    except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
        raise_if_mistyped(apply, state, seat, action)
        raise

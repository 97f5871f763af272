"""State transitions: a new hand from a deal, and ``apply`` (R-4 to R-8).

``apply`` accepts exactly what :func:`~erqishi.core.engine.legal.legal_actions` offers
and raises :class:`IllegalActionError` naming the rule (R-id) otherwise. Flips are done
here as soon as one is due (R-5.2, R-5.3, R-5.5); a flip due on an empty stock ends the
hand dead (R-5.6).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from erqishi.core._fast import maker
from erqishi.core.cards import Card
from erqishi.core.engine.actions import Action, ActionKind
from erqishi.core.engine.deal import Deal, active_seats, sitting_out_seat
from erqishi.core.engine.legal import (
    GROUP_WITH,
    PARTNERS,
    Response,
    chi_actions,
    discard_mask,
    effective_responses,
    legal_actions,
    may_chi,
    responses,
    seat_options,
    tian_score,
    win_context,
)
from erqishi.core.engine.state import Outcome, OutcomeKind, Phase, SeatState, State
from erqishi.core.errors import IllegalActionError, InvalidHandError
from erqishi.core.hands import Group, GroupKind, WinContext, WinSource, classify_triple, settle
from erqishi.core.rules import LESHAN, RuleSet

__all__ = ["Refusal", "apply", "check_declaration", "explain_illegal", "new_hand", "why_illegal"]

_CARDS = tuple(Card)
_STATE = maker(State)


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
    deal.validate(rules)
    if quan is not None and (isinstance(quan, bool) or not 1 <= quan <= 10):
        raise InvalidHandError(f"圈 number must be 1-10, got {quan!r}")
    seats = []
    for cards in deal.hands:
        counts = [0] * 20
        for c in cards:
            counts[c] += 1
        seats.append(SeatState(hand=tuple(counts), quads=sum(1 for n in counts if n == 4), card_count=len(cards)))
    state = State(
        rules=rules,
        deal=deal,
        quan=quan,
        seats=tuple(seats),
        order=active_seats(deal.dealer, rules.players),
        stock_pos=0,
        phase=Phase.OPENING,
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
    return _STATE(
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
        {},
    )


def _flip(state: State, seats: list[SeatState], flipper: int, *, di_window: bool = False, steps: int) -> State:
    """Turn the top stock card up for ``flipper`` (R-5.3), or end the hand dead (R-5.6)."""
    pos = state.stock_pos
    stock = state.deal.stock
    if pos >= len(stock):
        dead = Outcome(OutcomeKind.DEAD, (0,) * state.rules.players)
        return _next(state, seats, pos, Phase.OVER, -1, None, False, False, 0, dead, steps)
    return _next(state, seats, pos + 1, Phase.RESPONSE, flipper, stock[pos], True, di_window, 0, None, steps)


def _discard(state: State, seats: list[SeatState], seat: int, card: Card, *, di_window: bool, steps: int) -> State:
    me = seats[seat]
    hand = list(me.hand)
    hand[card] -= 1
    seats[seat] = me.evolve(hand=tuple(hand), discarded=me.discarded | (1 << card), card_count=me.card_count - 1)
    return _next(state, seats, state.stock_pos, Phase.RESPONSE, seat, card, False, di_window, 0, None, steps)


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
    source_seat = None if context.source is WinSource.TIAN else state.turn
    outcome = Outcome(OutcomeKind.WIN, payments, seat, context.source, analysis, discarder, source_seat)
    return _next(
        state,
        seats,
        state.stock_pos,
        Phase.OVER,
        -1,
        state.pending,
        state.pending_flip,
        state.di_window,
        0,
        outcome,
        steps,
    )


_MELD_KAI = tuple(Group(GroupKind.KAI, (c,) * 4, exposed=True) for c in _CARDS)
_MELD_YU_KAI = tuple(Group(GroupKind.KAI, (c,) * 4, exposed=True, yu=True) for c in _CARDS)
_MELD_DUI = tuple(Group(GroupKind.DUI, (c,) * 3, exposed=True) for c in _CARDS)
_CHI_MELDS: dict[tuple[int, int, int], Group] = {}


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
    if action.kind is ActionKind.KAI:
        if hand[x] == 3:
            hand[x] = 0
            melds.append(_MELD_KAI[x])
        else:  # yu: onto an exposed 对; it grew on the table
            i = next(i for i, g in enumerate(melds) if g.kind is GroupKind.DUI and g.cards[0] == x)
            del melds[i]
            melds.append(_MELD_YU_KAI[x])
        quads += 1
    elif action.kind is ActionKind.DUI:
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
            melds.append(_chi_meld(*group))
        forbidden = GROUP_WITH[a][b]
    me = me.evolve(hand=tuple(hand), melds=tuple(melds), quads=quads, guohu=-1, card_count=me.card_count + 1)
    if me.owes_discard:
        seats[seat] = me
        return _next(state, seats, state.stock_pos, Phase.DISCARD, seat, None, False, False, forbidden, None, steps)
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
    guohu: dict[int, int] = {}
    guozhang: set[int] = set()
    for r in declined:
        kind = r.action.kind
        if kind is ActionKind.HU:
            guohu[r.seat] = max(guohu.get(r.seat, -1), r.score)
        elif kind is ActionKind.CHI:
            guozhang.add(r.seat)
    touched = set(guohu) | guozhang
    if row_seat >= 0:
        touched.add(row_seat)
    for s in touched:
        me = seats[s]
        seats[s] = me.evolve(
            guohu=max(me.guohu, guohu[s]) if s in guohu else None,
            guozhang=me.guozhang | bit if s in guozhang else None,
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
    phase = state.phase
    chosen: Response | None = None
    if phase is Phase.RESPONSE:
        effective, pass_ok = effective_responses(state)
        if action.kind is ActionKind.PASS:
            legal = pass_ok and seat in state.order
        else:
            chosen = next((r for r in effective if r.seat == seat and r.action == action), None)
            legal = chosen is not None
    elif phase is Phase.DISCARD and action.kind is ActionKind.DISCARD:
        legal = seat == state.turn and discard_mask(state.seats[seat], state.forbidden) >> action.cards[0] & 1 == 1
    else:
        legal = action in legal_actions(state, seat)
    if not legal:
        raise IllegalActionError(explain_illegal(state, seat, action))
    steps = state.steps + 1
    seats = list(state.seats)
    if phase is Phase.OPENING:
        dealer = state.dealer
        tian = tian_score(state)
        if action.kind is ActionKind.HU:
            return _win(state, seats, dealer, None, WinContext(WinSource.TIAN, quan=state.quan), None, steps)
        if tian:  # declining 天胡 is declining a win
            seats[dealer] = seats[dealer].evolve(guohu=max(seats[dealer].guohu, tian))
        if action.kind is ActionKind.DISCARD:
            return _discard(state, seats, dealer, action.cards[0], di_window=True, steps=steps)
        seats[dealer] = seats[dealer].evolve(announced=4 * seats[dealer].quads)
        return _flip(state, seats, state.xiajia(dealer), di_window=True, steps=steps)
    if phase is Phase.DISCARD:
        return _discard(state, seats, seat, action.cards[0], di_window=False, steps=steps)
    # RESPONSE
    resp = responses(state)
    x = state.pending
    assert x is not None
    if action.kind is ActionKind.PASS:
        src = state.turn
        _decline(seats, resp, x, row_seat=src)
        return _flip(state, seats, state.xiajia(src), steps=steps)
    assert chosen is not None
    _decline(seats, [r for r in resp if r.rank < chosen.rank], x)
    if action.kind is ActionKind.HU:
        discarder = None if state.pending_flip else state.turn
        return _win(state, seats, seat, x, win_context(state, seat), discarder, steps)
    return _take(state, seats, seat, action, x, steps)


# ---------------------------------------------------------------------------------
# Why an action is illegal


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is not legal now: the rule (``R-x.y``), a reason a front end can put in
    the player's language, the English message with the R-id, and the card concerned.

    Reasons: ``no_seat``, ``sits_out``, ``over``, ``not_dealer``, ``no_tianhu``,
    ``must_open``, ``not_turn``, ``must_discard``, ``no_card``, ``locked``,
    ``shangtu_xiaxie``, ``no_discard_owed``, ``must_kai``, ``no_pass``, ``own_discard``,
    ``outranked``, ``huilong``, ``no_win``, ``guohu``, ``no_yu``, ``no_kan``, ``no_pair``,
    ``no_discard_after``, ``not_chi_seat``, ``guozhang``, ``discarded``, ``no_group``,
    ``kan_of_card``, ``locked_partner``, ``missing_partner``, ``bai_impossible``,
    ``bai_choice``, ``not_legal``.
    """

    rule: str
    reason: str
    message: str
    card: Card | None = None

    def __str__(self) -> str:
        return self.message


def check_declaration(state: State, seat: int, action: Action) -> None:
    """Check what ``seat`` declares now against its own options (R-5, R-9): in a response
    window one of :func:`~erqishi.core.engine.legal.seat_options`, otherwise one of
    :func:`~erqishi.core.engine.legal.legal_actions`. A table asks this once per
    declaration; the engine resolves the window (R-5.4) and applies the move.

    Raises:
        IllegalActionError: naming why (:func:`explain_illegal`), without telling anything
            about another seat's hidden cards.
    """
    if action not in seat_options(state, seat):
        raise IllegalActionError(explain_illegal(state, seat, action, declaring=True))


def explain_illegal(state: State, seat: int, action: Action, *, declaring: bool = False) -> str:
    """A message naming why ``action`` by ``seat`` is not legal now, with the R-id
    (:func:`why_illegal`'s message).

    With ``declaring``, the reason a seat's own declaration is refused (R-9): it never
    names another seat's compulsory 开, which only the engine can see."""
    return why_illegal(state, seat, action, declaring=declaring).message


def why_illegal(state: State, seat: int, action: Action, *, declaring: bool = False) -> Refusal:
    """Why ``action`` by ``seat`` is not legal now, as a :class:`Refusal` (for an action
    that is legal, the reason is ``not_legal`` with a plain message).

    With ``declaring``, only what the seat may know is used (R-9)."""
    n = state.rules.players
    if not 0 <= seat < n:
        return Refusal("R-2.1", "no_seat", f"seat {seat} is not one of 0-{n - 1}")
    if seat not in state.order:
        return Refusal("R-10", "sits_out", f"R-10: seat {seat} sits this hand out")
    phase = state.phase
    if phase is Phase.OVER:
        return Refusal("R-5.6", "over", "the hand is over (won or dead): no action may follow (R-5.6, R-6.1)")
    me = state.seats[seat]
    if phase is Phase.OPENING:
        if seat != state.dealer:
            return Refusal(
                "R-5.1",
                "not_dealer",
                f"R-5.1: the hand starts with the dealer, seat {state.dealer}; seat {seat} may not act yet",
            )
        if action.kind is ActionKind.HU:
            return Refusal("R-6.3", "no_tianhu", "R-6.3: the dealer's 21 dealt cards are not a win (no 天胡)")
        if action.kind is ActionKind.DISCARD:
            return _why_discard(me, action.cards[0], 0, seat)
        if action.kind is ActionKind.PASS:
            return Refusal("R-5.1", "must_open", "R-5.1: the dealer must declare 天胡 or make the opening discard")
        return Refusal("R-5.1", "must_open", f"R-5.1: the dealer opens with 天胡 or a discard, not {action}")
    if phase is Phase.DISCARD:
        if seat != state.turn:
            return Refusal("R-5.5", "not_turn", f"R-5.5: seat {state.turn} owes a discard; seat {seat} may not act")
        if action.kind is not ActionKind.DISCARD:
            return Refusal("R-5.5", "must_discard", f"R-5.5: seat {seat} must discard after the take, not {action}")
        return _why_discard(me, action.cards[0], state.forbidden, seat)
    # RESPONSE
    x = state.pending
    assert x is not None
    where = "flip" if state.pending_flip else "discard"
    resp = responses(state)
    must = next((r for r in resp if r.compulsory and (r.seat == seat or not declaring)), None)
    if action.kind is ActionKind.DISCARD:
        return Refusal(
            "R-5.2", "no_discard_owed", f"R-5.2: no discard is owed; {x} ({x.ascii}) is pending after a {where}", x
        )
    if action.kind is ActionKind.PASS:
        if must is not None:
            return Refusal(
                "R-5.12", "must_kai", f"R-5.12 有开必开: seat {must.seat} holds a 坎 of {x} and must 开 it", x
            )
        return Refusal("R-5.2", "no_pass", f"pass is not legal for seat {seat} now", x)
    if not state.pending_flip and seat == state.turn:
        return Refusal("R-5.2", "own_discard", f"R-5.2: seat {seat} may not respond to its own discard", x)
    own = next((r for r in resp if r.seat == seat and r.action == action), None)
    if own is not None and must is not None and must.rank < own.rank:
        return Refusal(
            "R-5.12",
            "outranked",
            f"R-5.12 有开必开: seat {must.seat} must 开 {x}, which ranks ahead of {action} (R-5.4)",
            x,
        )
    bit = 1 << int(x)
    if action.kind is ActionKind.HU:
        if me.discarded & bit:
            return Refusal(
                "R-6.2",
                "huilong",
                f"R-6.2 回笼: seat {seat} discarded {x} earlier in this hand and may not win on it",
                x,
            )
        score = me.analyzer(state.rules).score(x, win_context(state, seat))
        if score == 0:
            return Refusal(
                "R-6.1",
                "no_win",
                f"R-6.1: seat {seat}'s cards with {x} are not a win (R-4.4 groups and at least 10 hu)",
                x,
            )
        return Refusal(
            "R-6.2",
            "guohu",
            f"R-6.2 过胡: seat {seat} declined a win worth {me.guohu} since its last take; "
            f"a win now must score more than that, not {score}",
            x,
        )
    if action.kind is ActionKind.KAI:
        if any(g.kind is GroupKind.DUI and g.cards[0] == x for g in me.melds):
            return Refusal(
                "R-5.13", "no_yu", f"R-5.13: a 4th {x} onto the exposed 对 is a 开 only with the yu option (下雨)", x
            )
        return Refusal(
            "R-5.12", "no_kan", f"R-5.12: 开 needs a 坎 of {x} in the hand (seat {seat} holds {me.hand[x]})", x
        )
    if action.kind is ActionKind.DUI:
        if me.hand[x] != 2:
            return Refusal(
                "R-5.11", "no_pair", f"R-5.11: 对 needs a pair of {x} in the hand (seat {seat} holds {me.hand[x]})", x
            )
        return Refusal("R-5.14", "no_discard_after", f"R-5.14: after 对 {x} seat {seat} would have no legal discard", x)
    # chi
    if not may_chi(state, seat):
        if state.pending_flip:
            return Refusal(
                "R-5.3",
                "not_chi_seat",
                f"R-5.3: only the flipper (seat {state.turn}) or the flipper's 下家 per flip_chi may 吃 a flip",
                x,
            )
        return Refusal(
            "R-5.2",
            "not_chi_seat",
            f"R-5.2: only the discarder's 下家 (seat {state.xiajia(state.turn)}) may 吃 a discard",
            x,
        )
    if me.guozhang & bit:
        return Refusal(
            "R-5.9",
            "guozhang",
            f"R-5.9 过张: seat {seat} declined to 吃 {x} earlier in this hand and may not 吃 it again",
            x,
        )
    if me.discarded & bit:
        return Refusal("R-5.9", "discarded", f"R-5.9: seat {seat} discarded {x} earlier and may not 吃 it", x)
    a, b = action.cards
    if (min(a, b), max(a, b)) not in PARTNERS[x]:
        return Refusal("R-5.7", "no_group", f"R-5.7: {a}{b} with {x} is not a 顺子, 二七十 or 花吃", x)
    if me.hand[x] > 2:
        return Refusal(
            "R-3.1", "kan_of_card", f"R-3.1, R-5.8: the 坎 of {x} in the hand is locked and could not be laid as 摆", x
        )
    for c in set(action.cards):
        if me.hand[c] > 2:
            return Refusal(
                "R-3.1", "locked_partner", f"R-3.1, R-5.7: {c} is in a locked 坎/滚 and may not be used in a 吃", c
            )
        if me.hand[c] < action.cards.count(c):
            return Refusal(
                "R-5.7", "missing_partner", f"R-5.7: seat {seat} does not hold {action.cards.count(c)} × {c}", c
            )
    choices = [c for c in chi_actions(me, int(x)) if c.cards == action.cards]
    if not choices:
        return Refusal(
            "R-5.14",
            "bai_impossible",
            f"R-5.14: after 吃 {x} with {a}{b} seat {seat} would have no legal discard, or 摆 is impossible (R-5.8)",
            x,
        )
    shown = "; ".join(str(c) for c in choices)
    return Refusal(
        "R-5.8", "bai_choice", f"R-5.8 摆: every held {x} must be laid in 摆 groups at once; legal choices: {shown}", x
    )


def _why_discard(me: SeatState, card: Card, forbidden: int, seat: int) -> Refusal:
    if me.hand[card] == 0:
        return Refusal("R-5.14", "no_card", f"seat {seat} holds no {card} ({card.ascii}) to discard", card)
    if me.hand[card] > 2:
        return Refusal("R-3.1", "locked", f"R-3.1: {card} ({card.ascii}) is in a 坎/滚 and may not be discarded", card)
    if (forbidden >> card) & 1:
        return Refusal(
            "R-5.10",
            "shangtu_xiaxie",
            f"R-5.10 上吐下泻: {card} ({card.ascii}) would make a group with the two cards just used to 吃",
            card,
        )
    return Refusal("R-5.14", "not_legal", f"discard of {card} is not legal now", card)

"""Why an action is not legal now, in words a front end can show (R-3 to R-6, R-9).

:func:`why_illegal` names the rule behind one refused action as a :class:`Refusal`;
:func:`refusals` lists, for one seat, the moves it might reach for now that the engine
refuses (a held card it may not discard, a 吃, 对 or 胡 it is not offered), each with
its reason, using only what that seat may know. Front ends show these; none re-checks a
rule itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from erqishi.core._compiled import reduce_fields
from erqishi.core.cards import Card
from erqishi.core.engine.actions import DUI, HU, Action, ActionKind
from erqishi.core.engine.legal import (
    PARTNERS,
    chi_actions,
    discard_mask,
    may_chi,
    responses,
    seat_options,
    win_context,
)
from erqishi.core.engine.state import Phase, SeatState, State
from erqishi.core.errors import IllegalActionError
from erqishi.core.hands import GroupKind

__all__ = ["Refusal", "check_declaration", "explain_illegal", "refusals", "why_illegal"]

_CARDS = tuple(Card)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is not legal now: the rule (``R-x.y``), a reason a front end can put in
    the player's language, the English message with the R-id, and the card concerned.

    Reasons: ``no_seat``, ``sits_out``, ``over``, ``not_dealer``, ``no_tianhu``,
    ``must_open``, ``not_turn``, ``must_discard``, ``no_card``, ``locked``,
    ``shangtu_xiaxie``, ``no_discard_owed``, ``must_kai``, ``no_pass``, ``own_discard``,
    ``outranked``, ``huilong``, ``no_win``, ``guohu``, ``no_yu``, ``no_kan``, ``no_pair``,
    ``no_discard_after``, ``not_chi_seat``, ``guozhang``, ``discarded``, ``no_group``,
    ``kan_of_card``, ``locked_partner``, ``missing_partner``, ``bai_impossible``, ``chi_no_discard``,
    ``bai_choice``, ``not_legal``.
    """

    rule: str
    reason: str
    message: str
    card: Card | None = None

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

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
        return Refusal("R-2.1", "no_seat", f"R-2.1: seat {seat} is not one of 0-{n - 1}")
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
        return Refusal("R-5.2", "no_pass", f"R-5.2: pass is not legal for seat {seat} now", x)
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
        if me.hand[x] > action.cards.count(x):  # a held copy of x must go down as 摆 with it
            return Refusal(
                "R-5.8",
                "bai_impossible",
                f"R-5.8 摆: after 吃 {x} with {a}{b} the held {x} cannot all be laid in 摆 groups"
                " (or doing so leaves no legal discard, R-5.14)",
                x,
            )
        return Refusal(
            "R-5.14", "chi_no_discard", f"R-5.14: after 吃 {x} with {a}{b} seat {seat} would have no legal discard", x
        )
    shown = "; ".join(str(c) for c in choices)
    return Refusal(
        "R-5.8", "bai_choice", f"R-5.8 摆: every held {x} must be laid in 摆 groups at once; legal choices: {shown}", x
    )


def _why_discard(me: SeatState, card: Card, forbidden: int, seat: int) -> Refusal:
    if me.hand[card] == 0:
        return Refusal("R-5.14", "no_card", f"R-5.14: seat {seat} holds no {card} ({card.ascii}) to discard", card)
    if me.hand[card] > 2:
        return Refusal("R-3.1", "locked", f"R-3.1: {card} ({card.ascii}) is in a 坎/滚 and may not be discarded", card)
    if (forbidden >> card) & 1:
        return Refusal(
            "R-5.10",
            "shangtu_xiaxie",
            f"R-5.10 上吐下泻: {card} ({card.ascii}) would make a group with the two cards just used to 吃",
            card,
        )
    return Refusal("R-5.14", "not_legal", f"R-5.14: discard of {card} is not legal now", card)


def refusals(state: State, seat: int) -> tuple[Refusal, ...]:
    """What ``seat`` might reach for now that the engine refuses, each with why, using only
    what the seat may know (R-9). A front end shows these on hover or tap.

    - Owing a discard (R-5.1, R-5.5): one per held card that may not be discarded: in a
      坎/滚 (``locked``, R-3.1) or 上吐下泻 (``shangtu_xiaxie``, R-5.10).
    - In a response window: a 胡 the cards would make but R-6.2 bars (``huilong``,
      ``guohu``); a 对 of a held pair not offered (``no_discard_after``, R-5.14); and, for
      each pair of held cards that makes a 吃 group with the pending card but is not
      offered: who may 吃 (``not_chi_seat``, R-5.2/R-5.3), 过张 (``guozhang``, R-5.9), a
      card the seat discarded (``discarded``, R-5.9), a locked 坎 (``kan_of_card``,
      ``locked_partner``, R-3.1), a held copy that cannot be laid as 摆 (``bai_impossible``,
      R-5.8) or no discard after (``chi_no_discard``, R-5.14). When
      the seat owes a 开 of the card (R-5.12) no 吃 is listed: it could not choose one.

    Returns:
        The refusals, discards by card, then 胡, 对, 吃 in that order; empty when the seat
        has nothing to decide or sits out.

    >>> import random
    >>> from erqishi.core.engine.transitions import new_hand
    >>> from erqishi.core.engine.deal import Deal
    >>> state = new_hand(Deal.shuffled(random.Random(1), dealer=0))
    >>> sorted({r.reason for r in refusals(state, 0)} - {"locked", "shangtu_xiaxie"})
    []
    """
    if seat not in state.order or state.phase is Phase.OVER:
        return ()
    me = state.seats[seat]
    phase = state.phase
    out: list[Refusal] = []
    if phase is not Phase.RESPONSE:
        if seat != state.turn or not (phase is Phase.DISCARD or me.owes_discard):
            return ()
        forbidden = state.forbidden if phase is Phase.DISCARD else 0
        mask = discard_mask(me, forbidden)
        for c in range(20):
            if me.hand[c] and not mask >> c & 1:
                out.append(_why_discard(me, _CARDS[c], forbidden, seat))
        return tuple(out)
    x = state.pending
    assert x is not None
    if not state.pending_flip and seat == state.turn:
        return ()
    options = seat_options(state, seat)
    kinds = {a.kind for a in options}
    if ActionKind.HU not in kinds and (me.discarded >> x & 1 or me.guohu >= 0):
        analyzer = me.analyzer(state.rules)
        if analyzer.could_win(int(x)) and analyzer.score(x, win_context(state, seat)) > 0:
            out.append(why_illegal(state, seat, HU, declaring=True))
    if me.hand[x] == 2 and ActionKind.DUI not in kinds:
        out.append(why_illegal(state, seat, DUI, declaring=True))
    if ActionKind.KAI in kinds:  # the 开 is owed: no 吃 to reach for
        return tuple(out)
    offered = {a.cards for a in options if a.kind is ActionKind.CHI}
    seen: set[tuple[str, str]] = set()
    for a, b in PARTNERS[x]:
        if me.hand[a] < 1 + (a == b) or me.hand[b] < 1:
            continue
        pair = (_CARDS[a], _CARDS[b])
        if pair in offered:
            continue
        refusal = why_illegal(state, seat, Action.chi(pair), declaring=True)
        if refusal.reason in ("not_legal", "bai_choice", "no_group", "missing_partner"):
            continue
        key = (refusal.reason, refusal.message)
        if key not in seen:
            seen.add(key)
            out.append(refusal)
    return tuple(out)

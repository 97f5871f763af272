"""The one move generator: every legal action of every seat (R-4 to R-6).

:func:`legal_actions` is the only place legality is decided; ``apply`` re-checks against
it. On a pending card every seat's responses are computed at once (:func:`responses`)
with their rank (R-5.4: 胡 > 开 > 对 > 吃, then seat order). A response can be the
*effective* action only if no compulsory 开 ranks ahead of it (R-5.12); a pass closes the
card and is legal only while nobody owes a 开.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Final

from erqishi.core._boundary import raise_if_mistyped, type_error
from erqishi.core.cards import Card
from erqishi.core.engine.actions import DUI, HU, KAI, PASS, Action
from erqishi.core.engine.state import Phase, SeatState, State
from erqishi.core.errors import IllegalActionError
from erqishi.core.hands import GroupKind, WinContext, WinSource, classify_triple
from erqishi.core.rules import DiscardChi, FlipChi

__all__ = [
    "RANK_CHI",
    "RANK_DUI",
    "RANK_HU",
    "RANK_KAI",
    "Response",
    "discard_mask",
    "effective_responses",
    "legal_actions",
    "legal_moves",
    "resolve_responses",
    "responses",
    "seat_options",
]

RANK_HU: Final = 0
RANK_KAI: Final = 1
RANK_DUI: Final = 2
RANK_CHI: Final = 3

_CARDS: Final = tuple(Card)


def _group_mask() -> tuple[tuple[int, ...], ...]:
    """For two cards a, b: the bit set of cards d with {a, b, d} a 吃 group (R-5.10)."""
    table = []
    for a in range(20):
        row = []
        for b in range(20):
            mask = 0
            for d in range(20):
                if classify_triple((_CARDS[a], _CARDS[b], _CARDS[d])) is not None:
                    mask |= 1 << d
            row.append(mask)
        table.append(tuple(row))
    return tuple(table)


#: GROUP_WITH[a][b]: cards d that make {a, b, d} a 顺子, 二七十 or 花吃.
GROUP_WITH: Final = _group_mask()


def _partners(x: int) -> tuple[tuple[int, int], ...]:
    """The pairs of cards that make a 吃 group with x (R-5.7), each sorted."""
    off = 10 if x >= 10 else 0
    r = x - off
    out: set[tuple[int, int]] = set()
    for da, db in ((-2, -1), (-1, 1), (1, 2)):
        if r + da >= 0 and r + db <= 9:
            out.add((off + r + da, off + r + db))
    if r in (1, 6, 9):
        a, b = (q for q in (1, 6, 9) if q != r)
        out.add((off + a, off + b))
    o = (x + 10) % 20
    out.add((min(x, o), max(x, o)))
    out.add((o, o))
    return tuple(sorted(out))


PARTNERS: Final = tuple(_partners(x) for x in range(20))
#: ``chi a b`` without 摆, by the two hand cards
_PLAIN_CHI: Final = tuple(tuple(Action.chi((_CARDS[a], _CARDS[b])) for b in range(20)) for a in range(20))


class Response:
    """One seat's possible response to the pending card (R-5.2 to R-5.4): a value (equal
    when every field is equal; not to be changed).

    Attributes:
        rank: (kind rank: 胡 0, 开 1, 对 2, 吃 3; position in seat order): lower ranks first.
        seat: the responding seat.
        action: the action.
        compulsory: a 开 owed under 有开必开 (R-5.12).
        score: for 胡, the score of the win (R-7.4, score units), else 0.
    """

    __slots__ = ("action", "compulsory", "rank", "score", "seat")

    def __init__(
        self, rank: tuple[int, int], seat: int, action: Action, compulsory: bool = False, score: int = 0
    ) -> None:
        self.rank = rank
        self.seat = seat
        self.action = action
        self.compulsory = compulsory
        self.score = score

    def _key(self) -> tuple[tuple[int, int], int, Action, bool, int]:
        return (self.rank, self.seat, self.action, self.compulsory, self.score)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Response):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Response(rank={self.rank!r}, seat={self.seat!r}, action={self.action!r}, "
            f"compulsory={self.compulsory!r}, score={self.score!r})"
        )


_RANK_OF: Final = attrgetter("rank")


def has_legal_discard(hand: tuple[int, ...] | list[int], forbidden: int = 0) -> bool:
    """Whether some card may be discarded: not in a 坎/滚 (R-3.1), not forbidden (R-5.10)."""
    for c in range(20):
        if 1 <= hand[c] <= 2 and not (forbidden >> c) & 1:
            return True
    return False


def _bai_groups(x: int) -> tuple[tuple[tuple[int, int, int], tuple[tuple[int, int], ...], int], ...]:
    """The 摆 groups that could hold x: (sorted cards, (card, copies) used, copies of x used)."""
    out = []
    for a, b in PARTNERS[x]:
        group = (x, a, b)
        p, q, r = sorted(group)
        uses = tuple((c, group.count(c)) for c in sorted(set(group)))
        out.append(((p, q, r), uses, group.count(x)))
    return tuple(out)


_BAI_GROUPS: Final = tuple(_bai_groups(x) for x in range(20))


def _bai_sets(
    hand: list[int], original: tuple[int, ...], x: int, need: int
) -> Iterator[tuple[tuple[int, int, int], ...]]:
    """Every way to lay ``need`` held copies of x in 摆 groups of free hand cards (R-5.8)."""
    if need == 0:
        yield ()
        return
    for group, uses, of_x in _BAI_GROUPS[x]:
        if of_x > need:
            continue
        if any(original[c] > 2 or hand[c] < k for c, k in uses):
            continue
        for c, k in uses:
            hand[c] -= k
        for rest in _bai_sets(hand, original, x, need - of_x):
            yield (group, *rest)
        for c, k in uses:
            hand[c] += k


_CHI_BAI: Final[dict[tuple[int, int, tuple[tuple[int, int, int], ...]], Action]] = {}


def _chi_bai(a: int, b: int, bai: tuple[tuple[int, int, int], ...]) -> Action:
    """``chi a b bai …`` (a, b sorted; the 摆 groups sorted within and between), cached."""
    key = (a, b, bai)
    action = _CHI_BAI.get(key)
    if action is None:
        action = _CHI_BAI[key] = Action.chi((_CARDS[a], _CARDS[b]), tuple(tuple(_CARDS[c] for c in g) for g in bai))
    return action


def chi_actions(seat: SeatState, x: int) -> list[Action]:
    """Every legal 吃 of card x by this seat, with each valid 摆 choice (R-5.7, R-5.8, R-5.14).

    Does not check who may 吃 or 过张 (the caller does).
    """
    hand = seat.hand
    held = hand[x]
    if held > 2:
        return []  # the held copies are a locked 坎/滚 that 摆 could not lay
    owes = seat.card_count + 1 > 20 + max(0, seat.quads - 1)
    free_mask = seat.free_mask  # cards that could be discarded: not in a 坎/滚
    out: list[Action] = []
    for a, b in PARTNERS[x]:
        ha = hand[a]
        if a == b:
            if ha != 2:
                continue
        elif not (1 <= ha <= 2 and 1 <= hand[b] <= 2):
            continue
        forbidden = GROUP_WITH[a][b]
        if held - (a == x) - (b == x) == 0:  # no held copy left: no 摆 (the usual case)
            if owes:
                left = free_mask
                if a == b or ha == 1:
                    left &= ~(1 << a)
                if a != b and hand[b] == 1:
                    left &= ~(1 << b)
                if not left & ~forbidden:
                    continue  # no legal discard would follow
            out.append(_PLAIN_CHI[a][b])
            continue
        rest = list(hand)
        rest[a] -= 1
        rest[b] -= 1
        if rest[x] == 1:  # one held copy of x to lay: one 摆 group (the usual 摆)
            for group, uses, of_x in _BAI_GROUPS[x]:
                if of_x != 1:
                    continue
                ok = True
                for c, k in uses:
                    if hand[c] > 2 or rest[c] < k:
                        ok = False
                        break
                if not ok:
                    continue
                if owes:
                    for c, k in uses:
                        rest[c] -= k
                    ok = has_legal_discard(rest, forbidden)
                    for c, k in uses:
                        rest[c] += k
                    if not ok:
                        continue  # no legal discard would follow
                out.append(_chi_bai(a, b, (group,)))
            continue
        seen: set[tuple[tuple[int, int, int], ...]] = set()
        for bai in _bai_sets(rest, hand, x, rest[x]):
            key = tuple(sorted(bai))
            if key in seen:
                continue
            seen.add(key)
            # ``rest`` has the 摆 groups taken out while the generator yields them
            if owes and not has_legal_discard(rest, forbidden):
                continue  # no legal discard would follow
            out.append(_chi_bai(a, b, key))
    return out


def may_chi(state: State, seat: int) -> bool:
    """Whether ``seat`` is one who may 吃 the pending card (R-5.2, R-5.3, R-10)."""
    rules = state.rules
    if state.pending_flip:
        if seat == state.turn:
            return True
        return rules.flip_chi is _FLIPPER_THEN_XIAJIA and seat == state.xiajia(state.turn)
    return rules.discard_chi is _DISCARD_XIAJIA and seat == state.xiajia(state.turn)


_CONTEXTS: Final[dict[tuple[WinSource, bool, int | None], WinContext]] = {}


def win_context(state: State, seat: int) -> WinContext:
    """The scoring context of ``seat`` winning on the pending card (R-6.3, R-6.4)."""
    if state.pending_flip:
        source = _SRC_OWN_FLIP if seat == state.turn else _SRC_FLIP
    else:
        source = _SRC_DISCARD
    key = (source, state.di_window and seat != state.dealer, state.quan)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        ctx = _CONTEXTS[key] = WinContext(*key)
    return ctx


#: (seat order, source seat, flip, flipper then 下家 may 吃, 下家 may 吃 a discard) ->
#: (the seats that answer, in rank order, and the seats that may 吃)
_SEATING: Final[dict[tuple[tuple[int, ...], int, bool, bool, bool], tuple[tuple[int, ...], tuple[int, ...]]]] = {}


#: the seatings of the hand played last: (its seat order, flip_xiajia, discard_xiajia, by
#: ``2 * source seat + flip`` the seating, filled as met, or None); a new hand's order
#: replaces the whole entry
_Seatings = list[tuple[tuple[int, ...], tuple[int, ...]] | None]
_LAST_SEATINGS: Final[list[tuple[tuple[int, ...], bool, bool, _Seatings]]] = []


def _seating(
    order: tuple[int, ...], src: int, flip: bool, flip_xiajia: bool, discard_xiajia: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who answers the pending card, in rank order (R-5.4), and who may 吃 it (R-5.2, R-5.3).
    The states of a hand share their seat order, so the last hand's seatings are kept by
    it (no key to build and hash at every response)."""
    last = _LAST_SEATINGS[0] if _LAST_SEATINGS else None
    if last is not None and last[0] is order and last[1] == flip_xiajia and last[2] == discard_xiajia:
        hit = last[3][2 * src + flip]
        if hit is not None:
            return hit
    found = _seating_of(order, src, flip, flip_xiajia, discard_xiajia)
    if last is None or last[0] is not order or last[1] != flip_xiajia or last[2] != discard_xiajia:
        table: _Seatings = [None] * 8
        last = (order, flip_xiajia, discard_xiajia, table)
        _LAST_SEATINGS[:] = [last]
    last[3][2 * src + flip] = found
    return found


def _seating_of(
    order: tuple[int, ...], src: int, flip: bool, flip_xiajia: bool, discard_xiajia: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`_seating`, memoized by all it depends on."""
    key = (order, src, flip, flip_xiajia, discard_xiajia)
    found = _SEATING.get(key)
    if found is None:
        i = order.index(src)
        seq = order[i:] + order[:i]
        nxt = seq[1 % len(seq)]
        chi_seats: tuple[int, ...]
        if flip:
            chi_seats = (src, nxt) if flip_xiajia else (src,)
        else:
            seq = seq[1:]
            chi_seats = (nxt,) if discard_xiajia else ()
        found = _SEATING[key] = (seq, chi_seats)
    return found


#: _RANK[kind rank][position in seat order], prebuilt
_RANK: Final = tuple(tuple((k, i) for i in range(8)) for k in range(4))
_FLIPPER_THEN_XIAJIA: Final = FlipChi.FLIPPER_THEN_XIAJIA
_DISCARD_XIAJIA: Final = DiscardChi.XIAJIA
_RESPONSE: Final = Phase.RESPONSE
_DISCARD_PHASE: Final = Phase.DISCARD
_OPENING: Final = Phase.OPENING
_OVER: Final = Phase.OVER
_SRC_DISCARD: Final = WinSource.DISCARD
_SRC_FLIP: Final = WinSource.FLIP
_SRC_OWN_FLIP: Final = WinSource.OWN_FLIP
_KIND_DUI: Final = GroupKind.DUI


def responses(state: State) -> tuple[Response, ...]:
    """Every response of every seat to the pending card, best-ranked first (R-5.4).

    Includes 胡 only where R-6.1 and R-6.2 (回笼, 过胡) allow it, 开 (compulsory from a
    坎, R-5.12; optional onto an exposed 对 with ``yu``), 对 (R-5.11) and 吃 with every 摆
    choice (R-5.7 to R-5.9) where a legal discard would follow (R-5.14).
    """
    memo = state._memo
    cached = memo.responses
    if cached is not None:
        return cached
    # by kind, each in seat rank order: joined 胡, 开, 对, 吃 they are in rank order
    # with no sort (a seat's several 吃 keep the order chi_actions gives them)
    hus: list[Response] = []
    kais: list[Response] = []
    duis: list[Response] = []
    chis: list[Response] = []
    pending = state.pending
    if state.phase is _RESPONSE and pending is not None:
        x = int(pending)
        bit = 1 << x
        rules = state.rules
        yu = rules.yu
        seats = state.seats
        src = state.turn
        flip = state.pending_flip
        seq, chi_seats = _seating(
            state.order, src, flip, rules.flip_chi is _FLIPPER_THEN_XIAJIA, rules.discard_chi is _DISCARD_XIAJIA
        )
        di = state.di_window
        dealer = state.deal.dealer
        quan = state.quan
        rank_hu, rank_kai, rank_dui, rank_chi = _RANK
        for idx, s in enumerate(seq):
            seat = seats[s]
            if not seat.discarded & bit:  # 回笼
                an = seat._analyzer
                analyzer = an[0] if an else seat.analyzer(rules)
                if analyzer.could_win(x):
                    source = (_SRC_OWN_FLIP if s == src else _SRC_FLIP) if flip else _SRC_DISCARD
                    key = (source, di and s != dealer, quan)
                    ctx = _CONTEXTS.get(key)
                    if ctx is None:
                        ctx = _CONTEXTS[key] = WinContext(*key)
                    score = analyzer.score_unchecked(x, ctx)
                    if score > 0 and score > seat.guohu:  # 过胡
                        hus.append(Response(rank_hu[idx], s, HU, False, score))
            count = seat.hand[x]
            if count == 3:
                kais.append(Response(rank_kai[idx], s, KAI, True))
            elif yu and any(g.kind is _KIND_DUI and g.cards[0] == x for g in seat.melds):
                kais.append(Response(rank_kai[idx], s, KAI, False))
            elif count == 2 and (seat.card_count + 1 <= 20 + max(0, seat.quads - 1) or seat.free_mask & ~bit):
                duis.append(Response(rank_dui[idx], s, DUI))  # a discard must follow
            if s in chi_seats and not (seat.guozhang | seat.discarded) & bit:
                for action in chi_actions(seat, x):
                    chis.append(Response(rank_chi[idx], s, action))
    result = (*hus, *kais, *duis, *chis)
    memo.responses = result
    return result


def effective_responses(state: State) -> tuple[tuple[Response, ...], bool]:
    """The responses that may be the effective action (no compulsory 开 ranks ahead of
    them, R-5.12), and whether a pass is legal (nobody owes a 开)."""
    memo = state._memo
    cached = memo.effective
    if cached is not None:
        return cached
    resp = responses(state)
    result = (resp, True)
    for r in resp:
        if r.compulsory:  # the first owed 开: nothing ranked after it may be made
            must = r.rank
            result = (tuple([q for q in resp if q.rank <= must]), False)
            break
    memo.effective = result
    return result


def tian_score(state: State) -> int:
    """The score of the dealer declaring 天胡 now, 0 if the 21 cards do not win (R-6.3)."""
    if state.phase is not _OPENING:
        return 0
    memo = state._memo
    cached = memo.tian
    if cached < 0:
        seat = state.seats[state.dealer]
        cached = memo.tian = seat.analyzer(state.rules).score(None, WinContext(WinSource.TIAN, quan=state.quan))
    return cached


_DISCARD: Final = tuple(Action.discard(c) for c in _CARDS)


def discard_mask(seat: SeatState, forbidden: int) -> int:
    """Bit set of the cards ``seat`` may discard: held, not in a 坎/滚 (R-3.1, R-5.14) and
    not ``forbidden`` (上吐下泻, R-5.10). The one test of a legal discard."""
    return seat.free_mask & ~forbidden


def _discards(seat: SeatState, forbidden: int) -> list[Action]:
    mask = discard_mask(seat, forbidden)
    return [_DISCARD[c] for c in range(20) if mask >> c & 1]


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now; ``apply`` accepts exactly these.

    OPENING: the dealer's 天胡 (``hu``), opening discards, or ``pass`` when the dealer
    owes no discard (R-4.3, R-5.1). DISCARD: the owing seat's legal discards (R-3.1,
    R-5.10). RESPONSE: the seat's responses that no compulsory 开 outranks, and ``pass``
    for every seat while nobody owes a 开 (R-5.2 to R-5.12). OVER: none.

    Args:
        state: the current state.
        seat: a seat number, 0 … players-1.

    Returns:
        The actions, in a fixed order (responses by rank, discards by card).
    """
    try:
        memo = state._memo
        known = memo.legal
        if known is None:
            known = memo.legal = [None] * len(state.seats)
        elif 0 <= seat < len(known):
            cached = known[seat]
            if cached is not None:
                return cached  # type: ignore[no-any-return]
        phase = state.phase
        result: tuple[Action, ...] = ()
        if phase is _RESPONSE:
            effective, pass_ok = effective_responses(state)
            acts = [r.action for r in effective if r.seat == seat]
            if pass_ok and seat in state.order:
                acts.append(PASS)
            result = tuple(acts)
        elif phase is not _OVER and seat == state.turn:
            me = state.seats[seat]
            if phase is _DISCARD_PHASE:
                result = tuple(_discards(me, state.forbidden))
            else:  # OPENING
                acts = [HU] if tian_score(state) > 0 else []
                if me.owes_discard:
                    acts.extend(_discards(me, 0))
                else:
                    acts.append(PASS)
                result = tuple(acts)
        if 0 <= seat < len(known):
            known[seat] = result
        return result
    except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
        raise_if_mistyped(legal_actions, state, seat)
        raise


def seat_options(state: State, seat: int) -> tuple[Action, ...]:
    """What ``seat`` may declare now, knowing only what it may know (R-9).

    Outside a response window this is :func:`legal_actions`. On a pending card it is all
    of the seat's own responses (R-5.2 to R-5.14) and ``pass`` unless the seat itself owes
    a 开 (R-5.12): whether another seat holds a 坎 that outranks them stays hidden. A
    table collects one declaration per seat and :func:`resolve_responses` picks the
    effective move (R-5.4).
    """
    try:
        if state.phase is not _RESPONSE:
            return legal_actions(state, seat)
        memo = state._memo
        known = memo.options
        if known is None:
            known = memo.options = [None] * len(state.seats)
        elif 0 <= seat < len(known):
            found = known[seat]
            if found is not None:
                return found  # type: ignore[no-any-return]
        result: tuple[Action, ...] = ()
        if seat in state.order:
            acts = []
            compulsory = False
            for r in responses(state):
                if r.seat == seat:
                    acts.append(r.action)
                    compulsory = compulsory or r.compulsory
            if not compulsory:
                acts.append(PASS)
            result = tuple(acts)
        if 0 <= seat < len(known):
            known[seat] = result
        return result
    except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
        raise_if_mistyped(seat_options, state, seat)
        raise


def resolve_responses(state: State, declared: dict[int, Action]) -> tuple[int, Action]:
    """The effective move of a response window from each seat's declaration (R-5.4): the
    best-ranked declared response, or a pass when every seat passed.

    Args:
        state: a state in the RESPONSE phase.
        declared: an action from :func:`seat_options` per seat (seats with nothing but
            ``pass`` may be left out).

    Raises:
        IllegalActionError: a declaration that is not one of the seat's options, or a
            missing declaration from a seat that owes a 开.
    """
    try:
        if not isinstance(declared, dict):  # what the compiled build refuses at the call
            raise type_error("dict", declared)
        if state.phase is not _RESPONSE:
            raise IllegalActionError("no card is pending: there are no responses to resolve")
        resp = responses(state)
        for seat, action in declared.items():
            if action not in seat_options(state, seat):
                raise IllegalActionError(f"seat {seat} may not declare {action} now")
        chosen = [r for r in resp if declared.get(r.seat) == r.action]
        if chosen:
            best = min(chosen, key=_RANK_OF)
            return best.seat, best.action
        owing = [r.seat for r in resp if r.compulsory]
        if owing:
            raise IllegalActionError(f"R-5.12 有开必开: seat {owing[0]} owes a 开 and did not declare it")
        return state.turn, PASS
    except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
        raise_if_mistyped(resolve_responses, state, declared)
        raise


def legal_moves(state: State) -> tuple[tuple[int, Action], ...]:
    """Every effective move ``(seat, action)`` of the current decision: one decision of the
    hand as records list them (FORMATS.md); a pass appears once, by the seat that
    discarded or flipped."""
    try:
        if state.phase is _OVER:
            return ()
        if state.phase is _RESPONSE:
            effective, pass_ok = effective_responses(state)
            moves = [(r.seat, r.action) for r in effective]
            if pass_ok:
                moves.append((state.turn, PASS))
            return tuple(moves)
        return tuple((state.turn, a) for a in legal_actions(state, state.turn))
    except Exception:  # a wrongly typed argument: refused as the compiled build refuses it
        raise_if_mistyped(legal_moves, state)
        raise

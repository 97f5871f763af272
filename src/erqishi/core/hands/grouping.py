"""Grouping: the ways a hand's cards form the seven groups of a win (R-3, R-3.1, R-3.2, R-4.4).

Only the search lives here; it knows nothing of tiers, 番 or scores. For one hand
(:class:`GroupSearch`) and one winning card it reports the candidate groupings
(:class:`Candidate`) with the facts that scoring needs: their hu, where the winning card
went, whether every group but the pair scores, whether some hu was earned in the hand,
and which identities are owned as groups of identical cards. ``scoring`` picks among them
(R-7.1); ``analysis`` puts the two together.

Exact over every grouping choice, and fast. The locks of R-3.1 fix every identity held
three or four times as a 坎 or 滚, so the *free* cards (not locked) hold at most two of
an identity, three for the winning card's identity when it joins a held pair. The free
cards of one size then have at most 4^10 count patterns; how they split into 顺子,
二七十 and at most one 桩子 is solved once per pattern and memoized (:func:`_size_solve`).
花吃 are the only groups that mix the sizes; at most one can stand on a rank, so the
search tries each choice of 花吃 over the few ranks where one fits, and looks the two
sizes up. The winning card's place (R-3.2: completing a 对 or 开, onto an exposed 对
under ``yu``, or joining the free cards) is tried every way.

Why one candidate per place of the winning card suffices: a grouping's score depends on
its hu (the base grows with hu in every tier table) and on its facts, and the only fact
that varies with the split of the free cards is whether every group scores (坤胡). A split
into 二七十 only (and the pair) has strictly the most hu, since any other split has fewer
二七十 and no more big ones; so the split with the most hu is the best, 坤胡 or not.

For waits, the cards that complete the free cards are found at once by looking the two
sizes up apart for each choice of 花吃 (:func:`_completing_cards`), not by trying each card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from itertools import product
from operator import attrgetter
from typing import Final

from erqishi.core._compiled import NATIVE, reduce_fields
from erqishi.core._fast import slot_setter
from erqishi.core.cards import COPIES, Card
from erqishi.core.hands.groups import CARD_HU, Group, GroupKind

__all__ = ["Candidate", "GroupSearch", "Placement"]


class Placement(IntEnum):
    """Where the winning card goes (R-3.2, R-5.13)."""

    #: 天胡: there is no winning card (R-3.2); three identical held cards are a 坎.
    NONE = 0
    #: into a group with free cards: a 顺子, 二七十, 花吃 or the 桩子 (leaving a 坎 whole).
    JOIN = 1
    #: completes a held pair into a 对.
    DUI = 2
    #: completes a held 坎 into a 开 (a 开 grown from a 坎 in the hand).
    KAI = 3
    #: onto an exposed 对, a 开 under the ``yu`` option (下雨, R-5.13): grown on the table.
    YU = 4


@dataclass(frozen=True, slots=True, init=False)
class Candidate:
    """One grouping found by the search, with the facts scoring needs (R-7.1, R-7.3).

    Attributes:
        hu: hu points of the whole grouping (R-3, R-7.1).
        win: the winning card's value (``Card`` value 0-19), None for 天胡.
        placement: where the winning card went.
        all_groups_score: every group except the pair scores at least 1 hu.
        hu_in_hand: some hu was earned in the hand: the grouping holds a 坎, a 滚 or a 开
            grown from a 坎 (an exposed one included), or the hand held all three of 二 七 十
            of one size just before the winning card.
        plan: how the free cards split (opaque; :meth:`GroupSearch.materialize` reads it).
        held: the identities owned as one group of identical cards before the winning
            card is placed, as two 20-bit sets (bit ``v`` for ``Card`` value ``v``): three
            copies (a 坎 or an exposed 对) and four (a 滚 or an exposed 开).
    """

    hu: int
    win: int | None
    placement: Placement
    all_groups_score: bool
    hu_in_hand: bool
    plan: tuple[tuple[tuple[int, bool], ...], tuple[int, ...], tuple[int, ...]]
    held: tuple[int, int]

    def __init__(
        self,
        hu: int,
        win: int | None,
        placement: Placement,
        all_groups_score: bool,
        hu_in_hand: bool,
        plan: tuple[tuple[tuple[int, bool], ...], tuple[int, ...], tuple[int, ...]],
        held: tuple[int, int],
    ) -> None:
        if NATIVE:  # stores into the native object (see erqishi.core._fast)
            self.hu = hu  # type: ignore[misc]
            self.win = win  # type: ignore[misc]
            self.placement = placement  # type: ignore[misc]
            self.all_groups_score = all_groups_score  # type: ignore[misc]
            self.hu_in_hand = hu_in_hand  # type: ignore[misc]
            self.plan = plan  # type: ignore[misc]
            self.held = held  # type: ignore[misc]
        else:
            _SET_CANDIDATE(self, hu, win, placement, all_groups_score, hu_in_hand, plan, held)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle and copy in both builds
        return reduce_fields(self)

    def identical(self, card: int) -> int:
        """Copies of ``card`` (a ``Card`` value) that this grouping holds as one group of
        identical cards: 3 (a 对 or 坎), 4 (a 开 or 滚) or 0."""
        if card == self.win:
            placement = self.placement
            if placement is _DUI:
                return 3
            if placement is _KAI or placement is _YU:
                return 4
        three, four = self.held
        return 4 if four >> card & 1 else 3 if three >> card & 1 else 0


_NONE: Final = Placement.NONE
_JOIN: Final = Placement.JOIN
_DUI: Final = Placement.DUI
_KAI: Final = Placement.KAI
_YU: Final = Placement.YU
_SET_CANDIDATE: Final = slot_setter(Candidate)

# ---------------------------------------------------------------------------------
# Free cards of one size: 2 bits per rank (counts 0-3), rank r at bits 2(r-1).

_UNIT: Final = tuple(1 << (2 * p) for p in range(10))
_LOW: Final = 0x55555  # the low bit of every 2-bit field
_EJS: Final = _UNIT[1] + _UNIT[6] + _UNIT[9]
_EJS_ID: Final = 8  # local group ids: 0-7 run from position p, 8 二七十, 10+p pair at position p
_PAIR_ID: Final = 10

_Entry = tuple[int, tuple[int, ...], int, tuple[int, ...]]
#: code -> (most 二七十 without a pair, its groups, most 二七十 with one pair, its groups);
#: -1 where no split exists.
#: the entry of the empty code, always in the table (the search's base case)
_EMPTY_ENTRY: Final[_Entry] = (0, (), -1, ())
_SIZE_TABLE: Final[dict[int, _Entry]] = {0: _EMPTY_ENTRY}
#: most entries the memos keep: [_SIZE_TABLE, _COMPLETIONS and _PAIR_REMOVALS each
#: (emptied when full, about 250 bytes an entry), _HUA_COMBOS (full: no more are kept,
#: about 3.5 kB an entry)]; a long-running
#: process lowers them (:func:`set_memo_limits`) so its memory stops growing early
MEMO_LIMITS: Final = [1 << 17, 20_000]


def _empty_splits() -> None:
    """Empty the split table but for the empty code."""
    _SIZE_TABLE.clear()
    _SIZE_TABLE[0] = _EMPTY_ENTRY


def _size_solve(code: int) -> _Entry:
    """Best split of one size's free cards into runs, 二七十 and at most one pair."""
    entry = _SIZE_TABLE.get(code)
    if entry is not None:
        return entry
    p = ((code & -code).bit_length() - 1) >> 1
    low = _UNIT[p]
    e0, e1 = -1, -1
    g0: tuple[int, ...] = ()
    g1: tuple[int, ...] = ()
    # the lowest card goes in a run starting at it, a 二七十 (when it is the 2), or the pair
    if p <= 7 and (code >> (2 * p + 2)) & 3 and (code >> (2 * p + 4)) & 3:
        sub = _size_solve(code - low - _UNIT[p + 1] - _UNIT[p + 2])
        if sub[0] > e0:
            e0, g0 = sub[0], (p, *sub[1])
        if sub[2] > e1:
            e1, g1 = sub[2], (p, *sub[3])
    if p == 1 and (code >> 12) & 3 and (code >> 18) & 3:
        sub = _size_solve(code - _EJS)
        if sub[0] >= 0 and sub[0] + 1 > e0:
            e0, g0 = sub[0] + 1, (_EJS_ID, *sub[1])
        if sub[2] >= 0 and sub[2] + 1 > e1:
            e1, g1 = sub[2] + 1, (_EJS_ID, *sub[3])
    if (code >> (2 * p)) & 3 >= 2:
        sub = _size_solve(code - 2 * low)
        if sub[0] > e1:
            e1, g1 = sub[0], (_PAIR_ID + p, *sub[1])
    entry = (e0, g0, e1, g1)
    if len(_SIZE_TABLE) >= MEMO_LIMITS[0]:
        _empty_splits()  # the common codes come back at once
    _SIZE_TABLE[code] = entry
    return entry


# A plan says how the free cards split: (花吃 as (position, big-heavy), small ids, big ids)
_Plan = tuple[tuple[tuple[int, bool], ...], tuple[int, ...], tuple[int, ...]]


def _split(s: int, b: int, need_pair: bool, huas: tuple[tuple[int, bool], ...]) -> tuple[int, _Plan] | None:
    ts = _SIZE_TABLE.get(s) or _size_solve(s)
    tb = _SIZE_TABLE.get(b) or _size_solve(b)
    if need_pair:
        h1 = 3 * ts[2] + 6 * tb[0] if ts[2] >= 0 and tb[0] >= 0 else -1
        h2 = 3 * ts[0] + 6 * tb[2] if ts[0] >= 0 and tb[2] >= 0 else -1
        if h1 < 0 and h2 < 0:
            return None
        if h1 >= h2:
            return h1, (huas, ts[3], tb[1])
        return h2, (huas, ts[1], tb[3])
    if ts[0] < 0 or tb[0] < 0:
        return None
    return 3 * ts[0] + 6 * tb[0], (huas, ts[1], tb[1])


def _stranded(ge1: int, ge2: int, other1: int, other2: int) -> tuple[int, int]:
    """Cards of one size that no group can take: (singles with no partner at all, pairs
    that can only be the 桩子). A single needs a same-size card within two ranks, the
    other two of 二七十, or two of the other size for a 花吃; a pair needs any of those
    or one of the other size. Arguments are low-bit masks of ranks held at least once
    (``ge1``) and twice (``ge2``), for this size and the other."""
    near = ((ge1 << 2) | (ge1 >> 2) | (ge1 << 4) | (ge1 >> 4)) & _LOW
    loose = ~near & ~(_EJS if ge1 & _EJS == _EJS else 0)
    return ge1 & ~ge2 & loose & ~other2, ge2 & loose & ~other1


#: from how many ranks that could hold a 花吃 :func:`_free_best` first asks :func:`_can_split`:
#: with fewer, trying each choice of 花吃 costs about as much as the search. Random play
#: measured with 1-4 and never (medians of 4 runs each, side by side): pure Python 1 -3%,
#: 2 and 3 alike, never a tenth slower; compiled 1 and 2 alike, 3 -3%, 4 -7%
_SEARCH_FROM: Final = 2


def _free_best(s: int, b: int, need_pair: bool) -> tuple[int, _Plan] | None:
    """Most hu from the free cards (small code ``s``, big code ``b``), with the split."""
    ge1s = (s | (s >> 1)) & _LOW
    ge2s = (s >> 1) & _LOW
    ge1b = (b | (b >> 1)) & _LOW
    ge2b = (b >> 1) & _LOW
    # cards no group can take (_stranded, inlined: this is the hot path)
    near = ((ge1s << 2) | (ge1s >> 2) | (ge1s << 4) | (ge1s >> 4)) & _LOW
    loose_s = ~near & ~(_EJS if ge1s & _EJS == _EJS else 0)
    if ge1s & ~ge2s & loose_s & ~ge2b:
        return None
    near = ((ge1b << 2) | (ge1b >> 2) | (ge1b << 4) | (ge1b >> 4)) & _LOW
    loose_b = ~near & ~(_EJS if ge1b & _EJS == _EJS else 0)
    if ge1b & ~ge2b & loose_b & ~ge2s:
        return None
    pairs_only = (ge2s & loose_s & ~ge1b) | (ge2b & loose_b & ~ge1s)
    if pairs_only and (not need_pair or pairs_only & (pairs_only - 1)):
        return None
    xxd = ge2s & ge1b  # ranks where a 花吃 of two small and one big can stand
    xdd = ge1s & ge2b  # … of one small and two big
    if not xxd | xdd:
        return _split(s, b, need_pair, ())
    if (xxd | xdd).bit_count() >= _SEARCH_FROM and not _can_split(s, b, need_pair):
        return None  # most such calls (the engine asking of hands far from a win) end here
    # each 花吃 takes 2 small + 1 big (xxd) or 1 small + 2 big (xdd); after them each size
    # must hold a multiple of 3 cards, but for the pair's size (3k + 2)
    n_s = (s & _LOW).bit_count() + 2 * ge2s.bit_count()
    fit = 3 * need_pair + n_s % 3
    memo = _HUA_COMBOS.get(xxd << 20 | xdd)
    combos = memo[fit] if memo is not None else _hua_combos(xxd, xdd, fit, n_s, need_pair)
    best: tuple[int, _Plan] | None = None
    best_hu = -1
    table = _SIZE_TABLE
    for ds, db, huas in combos:
        s1 = s - ds
        ts = table.get(s1) or _size_solve(s1)
        if ts[0] < 0 and ts[2] < 0:
            continue  # the small cards left do not split: the big ones need not be looked at
        b1 = b - db
        tb = table.get(b1) or _size_solve(b1)
        # as _split, inlined
        if need_pair:
            h1 = 3 * ts[2] + 6 * tb[0] if ts[2] >= 0 and tb[0] >= 0 else -1
            h2 = 3 * ts[0] + 6 * tb[2] if ts[0] >= 0 and tb[2] >= 0 else -1
            if h1 < 0 and h2 < 0:
                continue
            if h1 >= h2:
                if h1 > best_hu:
                    best_hu, best = h1, (h1, (huas, ts[3], tb[1]))
            elif h2 > best_hu:
                best_hu, best = h2, (h2, (huas, ts[1], tb[3]))
        else:
            if ts[0] < 0 or tb[0] < 0:
                continue
            h = 3 * ts[0] + 6 * tb[0]
            if h > best_hu:
                best_hu, best = h, (h, (huas, ts[1], tb[1]))
    return best


def _can_split(s: int, b: int, need_pair: bool) -> bool:
    """Whether the free cards (small code ``s``, big code ``b``) split into runs, 二七十,
    花吃 and, iff ``need_pair``, one pair (R-4.4): the same answer as :func:`_free_best`
    being not None, found by a search that covers the lowest card first (a card with no
    lower card of its size is in a run starting at it, a 二七十 when it is the 二, the
    pair, or a 花吃 of its rank) instead of trying every choice of 花吃.

    Not memoized: in random play a search takes about three calls (46 at most over 49,000
    searches), while a memo of the answers was asked 45 times a hand, had the answer 7
    times in a hundred and cost a lookup in a table of up to 131,072 entries each time (a
    cache miss). Without it (December 2026, ``benchmarks/run.py --quick --no-bots``, the
    builds side by side): random hands 7% faster compiled and the same in pure Python,
    scoring random deals 31% and 11% faster."""
    if not s and not b:
        return not need_pair
    return _cover_lowest(s, b, need_pair)


def _cover_lowest(s: int, b: int, need_pair: bool) -> bool:
    """:func:`_can_split` of cards that are not all gone: each way to cover the lowest card
    in turn, the first that leaves cards that split ending the search."""
    # the lowest card: of the size whose lowest rank is lower (small on a tie)
    big = not s or (b != 0 and (b & -b) < (s & -s))
    code, other = (b, s) if big else (s, b)
    p = ((code & -code).bit_length() - 1) >> 1
    unit = 1 << (2 * p)
    copies = (code >> (2 * p)) & 3
    other_copies = (other >> (2 * p)) & 3
    if p <= 7 and (code >> (2 * p + 2)) & 3 and (code >> (2 * p + 4)) & 3:  # a run from it
        rest = code - 21 * unit  # one card at p, p + 1 and p + 2 (units 1, 4 and 16)
        if _can_split(other, rest, need_pair) if big else _can_split(rest, other, need_pair):
            return True
    if p == 1 and (code >> 12) & 3 and (code >> 18) & 3:  # 二七十
        rest = code - _EJS
        if _can_split(other, rest, need_pair) if big else _can_split(rest, other, need_pair):
            return True
    if need_pair and copies >= 2:  # the pair
        rest = code - 2 * unit
        if _can_split(other, rest, False) if big else _can_split(rest, other, False):
            return True
    if copies >= 2 and other_copies >= 1:  # a 花吃 of two of this size
        rest, other_rest = code - 2 * unit, other - unit
        if _can_split(other_rest, rest, need_pair) if big else _can_split(rest, other_rest, need_pair):
            return True
    if other_copies >= 2:  # a 花吃 of two of the other size
        rest, other_rest = code - unit, other - 2 * unit
        if _can_split(other_rest, rest, need_pair) if big else _can_split(rest, other_rest, need_pair):
            return True
    return False


_Combo = tuple[int, int, tuple[tuple[int, bool], ...]]
_Choice = tuple[int, int, int, tuple[tuple[int, bool], ...]]  # with the small cards taken
#: (xxd ranks << 20 | xdd ranks; low-bit masks of 20 bits) -> by ``3 * need_pair + small
#: cards % 3``, every choice of 花吃 over them that leaves each size a fitting number of cards, in a fixed
#: order: (small taken, big taken, the 花吃 as (position, big-heavy))
_HUA_COMBOS: Final[dict[int, tuple[tuple[_Combo, ...], ...]]] = {}
#: only the choices over few ranks are kept (3^3 at most): they are most of the calls,
#: and the many rarer ones would cost memory
_HUA_MEMO_MAX: Final = 27


def _hua_combos(xxd: int, xdd: int, fit: int, n_s: int, need_pair: bool) -> Sequence[_Combo]:
    """Every choice of at most one 花吃 per rank where one can stand, in a fixed order,
    that leaves each size a fitting number of cards: a multiple of 3, but 3k + 2 for the
    pair's size (``fit`` is ``3 * need_pair + n_s % 3``, ``n_s`` the small cards).
    Memoized (every ``fit`` at once) for a few choices; worked out each time for more."""
    cand = xxd | xdd
    choices: list[list[_Choice]] = []
    n = 1
    while cand:
        low = cand & -cand
        cand ^= low
        pos = (low.bit_length() - 1) >> 1
        opts: list[_Choice] = [(0, 0, 0, ())]
        if xxd & low:
            opts.append((2 * low, low, 2, ((pos, False),)))
        if xdd & low:
            opts.append((low, 2 * low, 1, ((pos, True),)))
        choices.append(opts)
        n *= len(opts)
    every: list[tuple[_Combo, int]] = []
    keep = n <= _HUA_MEMO_MAX and len(_HUA_COMBOS) < MEMO_LIMITS[1]
    for combo in product(*choices):
        ds = db = taken = 0
        huas: tuple[tuple[int, bool], ...] = ()
        for d1, d2, k, h in combo:
            ds += d1
            db += d2
            taken += k
            huas += h
        if not keep:
            left = (n_s - taken) % 3
            if left != 0 and (left != 2 or not need_pair):
                continue
        every.append(((ds, db, huas), taken))
    if not keep:
        return [c for c, _ in every]
    by_fit = []
    for pair in (False, True):
        for r in range(3):
            by_fit.append(tuple(c for c, taken in every if (r - taken) % 3 == 0 or ((r - taken) % 3 == 2 and pair)))
    _HUA_COMBOS[xxd << 20 | xdd] = tuple(by_fit)
    return by_fit[fit]


# ---------------------------------------------------------------------------------
# Prebuilt concealed groups, and each with the winning card


def _cards(*values: int) -> tuple[Card, ...]:
    return tuple(_ALL_CARDS[v] for v in sorted(values))


_ALL_CARDS: Final = tuple(Card)


def _local_group(size_offset: int, gid: int) -> Group:
    if gid < _EJS_ID:
        v = size_offset + gid
        return Group(GroupKind.RUN, _cards(v, v + 1, v + 2))
    if gid == _EJS_ID:
        return Group(GroupKind.EJS, _cards(size_offset + 1, size_offset + 6, size_offset + 9))
    v = size_offset + gid - _PAIR_ID
    return Group(GroupKind.PAIR, _cards(v, v))


_LOCAL_IDS: Final = (*range(_EJS_ID + 1), *range(_PAIR_ID, _PAIR_ID + 10))
_LOCAL: Final = (
    {g: _local_group(0, g) for g in _LOCAL_IDS},
    {g: _local_group(10, g) for g in _LOCAL_IDS},
)
_HUA: Final = {
    (p, big): Group(GroupKind.HUA, _cards(p, p + 10, p + 10) if big else _cards(p, p, p + 10))
    for p in range(10)
    for big in (False, True)
}
_KAN: Final = tuple(Group(GroupKind.KAN, (c,) * 3) for c in Card)
_GUN: Final = tuple(Group(GroupKind.GUN, (c,) * 4) for c in Card)
#: the winning card completing a pair, a 坎, or an exposed 对 under yu (R-3.2, R-5.13)
_WIN_DUI: Final = tuple(Group(GroupKind.DUI, (c,) * 3, winning=True) for c in Card)
_WIN_KAI: Final = tuple(Group(GroupKind.KAI, (c,) * 4, winning=True) for c in Card)
_WIN_YU: Final = tuple(Group(GroupKind.KAI, (c,) * 4, exposed=True, winning=True, yu=True) for c in Card)
#: id of a prebuilt free group -> the same group holding the winning card
_WINNING_OF: Final = {
    id(g): replace(g, winning=True) for g in (*_LOCAL[0].values(), *_LOCAL[1].values(), *_HUA.values())
}
_BY_CARDS: Final = attrgetter("cards")

_KAN_HU: Final = CARD_HU[GroupKind.KAN]
_GUN_HU: Final = CARD_HU[GroupKind.GUN]
_DUI_HU: Final = CARD_HU[GroupKind.DUI]
_KAI_HU: Final = CARD_HU[GroupKind.KAI]


def _reach(w: int) -> int:
    """Identities a winning card w could share a group with (as a 20-bit set)."""
    off = 10 if w >= 10 else 0
    r = w - off
    mask = 1 << ((w + 10) % 20)
    for d in (-2, -1, 1, 2):
        if 0 <= r + d <= 9:
            mask |= 1 << (off + r + d)
    if r in (1, 6, 9):
        for q in (1, 6, 9):
            mask |= 1 << (off + q)
    return mask | (1 << w)


#: _REACH[c]: the cards a group could hold together with c (a symmetric relation)
_REACH: Final = tuple(_reach(w) for w in range(20))
_REACH_OF_BIT: Final = {1 << w: _REACH[w] for w in range(20)}
#: a per-size low-bit mask (bit 2p for rank p+1) -> the same ranks as a 10-bit set
_COMPACT: Final = {sum(_UNIT[p] for p in range(10) if m >> p & 1): m for m in range(1 << 10)}
#: a 10-bit set of ranks -> the mask of their 2-bit count fields in a size code
_FIELDS: Final = tuple(sum(3 * _UNIT[p] for p in range(10) if m >> p & 1) for m in range(1 << 10))


#: size code -> the ranks (10-bit sets) whose card added to it lets it split: without
#: the pair, and with one pair (memoized like ``_SIZE_TABLE``)
_COMPLETIONS: Final[dict[int, tuple[int, int]]] = {}


def _completions(code: int) -> tuple[int, int]:
    """Which one card completes the size code ``code``: (ranks after which it splits into
    runs and 二七十, ranks after which it splits into those and one pair), as 10-bit sets
    (bit p for rank p + 1)."""
    entry = _COMPLETIONS.get(code)
    if entry is None:
        plain = paired = 0
        for p in range(10):
            if (code >> (2 * p)) & 3 == 3:
                continue
            nxt = code + _UNIT[p]
            t = _SIZE_TABLE.get(nxt) or _size_solve(nxt)
            if t[0] >= 0:
                plain |= 1 << p
            if t[2] >= 0:
                paired |= 1 << p
        if len(_COMPLETIONS) >= MEMO_LIMITS[0]:
            _COMPLETIONS.clear()
        entry = _COMPLETIONS[code] = (plain, paired)
    return entry


#: size code -> the ranks (10-bit sets) whose pair taken from it lets it split: without
#: the pair, and with one pair left (memoized like ``_SIZE_TABLE``)
_PAIR_REMOVALS: Final[dict[int, tuple[int, int]]] = {}


def _pair_removals(code: int) -> tuple[int, int]:
    """Which held pair may leave the size code ``code``: (ranks after whose pair is taken
    it splits into runs and 二七十, ranks after which it splits into those and one pair),
    as 10-bit sets."""
    entry = _PAIR_REMOVALS.get(code)
    if entry is None:
        plain = paired = 0
        pairs = (code >> 1) & _LOW
        while pairs:
            low = pairs & -pairs
            pairs ^= low
            nxt = code - 2 * low
            t = _SIZE_TABLE.get(nxt) or _size_solve(nxt)
            p = (low.bit_length() - 1) >> 1
            if t[0] >= 0:
                plain |= 1 << p
            if t[2] >= 0:
                paired |= 1 << p
        if len(_PAIR_REMOVALS) >= MEMO_LIMITS[0]:
            _PAIR_REMOVALS.clear()
        entry = _PAIR_REMOVALS[code] = (plain, paired)
    return entry


def _completing_cards(s: int, b: int, need_pair: bool) -> tuple[int, int]:
    """The winning cards (20-bit sets) that leave the free cards (codes ``s``, ``b``)
    splitting into groups, found without trying each card: (cards that join the free
    cards: ``_free_best`` of them plus the card is not None; cards whose held pair
    leaves to make a 对: ``_free_best`` of them less that pair is not None).

    For each choice of 花吃 among the free cards the two sizes are looked up apart
    (:func:`_completions`, :func:`_pair_removals`); a card that makes a 花吃 the free
    cards alone could not (a small card beside one small and one big, or beside two big;
    the same for a big card) is tried in that 花吃 with each choice on the other ranks.
    Exact: a choice of 花吃 that suits the cards with or without the pair suits the free
    cards too."""
    ge1s, ge2s = (s | (s >> 1)) & _LOW, (s >> 1) & _LOW
    ge1b, ge2b = (b | (b >> 1)) & _LOW, (b >> 1) & _LOW
    cand = (ge2s & ge1b) | (ge1s & ge2b)
    choices: list[list[tuple[int, int, int]]] = []
    while cand:
        low = cand & -cand
        cand ^= low
        opts = [(0, 0, 0)]
        if ge2s & low and ge1b & low:
            opts.append((2 * low, low, low))
        if ge1s & low and ge2b & low:
            opts.append((low, 2 * low, low))
        choices.append(opts)
    # new 花吃 made with the card: (its rank's low bit, the card, small taken, big taken)
    news: list[tuple[int, int, int, int]] = []
    for mask, is_small, by_one in (
        (ge1s & ~ge2s & ge1b, True, True),
        (~ge1s & ge2b & _LOW, True, False),
        (ge1b & ~ge2b & ge1s, False, True),
        (~ge1b & ge2s & _LOW, False, False),
    ):
        while mask:
            low = mask & -mask
            mask ^= low
            p = (low.bit_length() - 1) >> 1
            if by_one:  # the card, one held of its size and one of the other
                news.append((low, p if is_small else p + 10, low, low))
            elif is_small:  # a small card and two held big ones
                news.append((low, p, 0, 2 * low))
            else:  # a big card and two held small ones
                news.append((low, p + 10, 2 * low, 0))
    found = dui = 0
    for combo in product(*choices) if choices else ((),):
        s1, b1, taken = s, b, 0
        for d1, d2, low in combo:
            s1 -= d1
            b1 -= d2
            taken |= low
        ts = _SIZE_TABLE.get(s1) or _size_solve(s1)
        tb = _SIZE_TABLE.get(b1) or _size_solve(b1)
        found |= _both_sizes(_completions(s1), _completions(b1), ts, tb, need_pair)
        dui |= _both_sizes(_pair_removals(s1), _pair_removals(b1), ts, tb, need_pair)
        for low, w, d1, d2 in news:
            if taken & low or found >> w & 1:
                continue
            s2, b2 = s1 - d1, b1 - d2
            ts2 = _SIZE_TABLE.get(s2) or _size_solve(s2)
            tb2 = _SIZE_TABLE.get(b2) or _size_solve(b2)
            if need_pair:
                ok = (ts2[0] >= 0 and tb2[2] >= 0) or (ts2[2] >= 0 and tb2[0] >= 0)
            else:
                ok = ts2[0] >= 0 and tb2[0] >= 0
            if ok:
                found |= 1 << w
    return found, dui


def _both_sizes(small: tuple[int, int], big: tuple[int, int], ts: _Entry, tb: _Entry, need_pair: bool) -> int:
    """The winning cards (a 20-bit set) of both sizes from each size's ``(plain, paired)``
    cards: a card of one size wins when the other size splits too, the pair on whichever
    side can hold it (R-4.4)."""
    plain_s, paired_s = small
    plain_b, paired_b = big
    if need_pair:
        got_s = (paired_s if tb[0] >= 0 else 0) | (plain_s if tb[2] >= 0 else 0)
        got_b = (paired_b if ts[0] >= 0 else 0) | (plain_b if ts[2] >= 0 else 0)
    else:
        got_s = plain_s if tb[0] >= 0 else 0
        got_b = plain_b if ts[0] >= 0 else 0
    return got_s | got_b << 10


def _all_ejs(plan: _Plan) -> bool:
    """The free cards split into 二七十 and the pair only (no 0-hu triple)."""
    huas, small_ids, big_ids = plan
    return not huas and (not small_ids or min(small_ids) >= _EJS_ID) and (not big_ids or min(big_ids) >= _EJS_ID)


class GroupSearch:
    """The grouping search for one hand: its concealed counts and exposed melds, fixed;
    the winning card varies per call. Work that depends on the hand alone is done once.

    The caller guarantees valid input (the analyzer validates): 20 counts, at most four
    copies of a card with the melds, every meld exposed.

    Args:
        counts: concealed hand, 20 counts indexed by ``Card`` value.
        used: copies of each card in hand and melds.
        melds: the exposed melds.
        n_cards: cards in the concealed hand.
        yu: the ``yu`` option: the winning card may go onto an exposed 对 (R-5.13).
    """

    __slots__ = (
        "_counts",
        "_fixed",
        "_fixed_hu",
        "_free_b",
        "_free_s",
        "_held3",
        "_held4",
        "_hu_in_hand",
        "_join_mask",
        "_join_pair",
        "_joining",
        "_kans",
        "_last_found",
        "_last_w",
        "_loose",
        "_meld_dui",
        "_meld_quads",
        "_melds",
        "_melds_score",
        "_n_fixed",
        "_n_free",
        "_n_gun",
        "_new_quad_found",
        "_new_quad_known",
        "_quick",
        "_rescue",
        "_total",
        "_used",
        "_yu",
    )

    def __init__(
        self, counts: tuple[int, ...], used: tuple[int, ...], melds: tuple[Group, ...], n_cards: int, yu: bool
    ) -> None:
        self._yu = yu
        self._used = used
        self._counts = counts
        self._melds = melds
        meld_quads = meld_cards = fixed_hu = 0
        held3 = held4 = meld_dui = 0  # 20-bit sets of identities
        melds_score = True
        grown_kai = False
        for g in melds:
            n = len(g.cards)
            meld_cards += n
            hu = g.hu
            fixed_hu += hu
            if not hu:
                melds_score = False
            if n == 4:  # an exposed 开
                held4 |= 1 << g.cards[0]
                meld_quads += 1
                if not g.yu:  # it grew from a 坎 in the hand
                    grown_kai = True
            elif g.kind is _KIND_DUI:
                bit = 1 << g.cards[0]
                held3 |= bit
                meld_dui |= bit
        self._meld_quads = meld_quads
        self._total = n_cards + meld_cards
        s = b = n_free = n_gun = n_kan = kans = guns = 0
        unit = _UNIT
        for v in range(20):
            c = counts[v]
            if not c:
                continue
            if c == 3:
                n_kan += 1
                fixed_hu += _KAN_HU[v]
                kans |= 1 << v
            elif c == 4:
                n_gun += 1
                fixed_hu += _GUN_HU[v]
                guns |= 1 << v
            else:
                n_free += c
                if v < 10:
                    s += c * unit[v]
                else:
                    b += c * unit[v - 10]
        self._fixed_hu = fixed_hu
        self._free_s = s
        self._free_b = b
        self._n_free = n_free
        self._n_gun = n_gun
        self._n_fixed = n_kan + n_gun + len(melds)
        # a winning card joining the free cards: one pair iff a quad is owned
        self._join_pair = n_gun + meld_quads >= 1
        self._fixed = kans | guns
        self._kans = kans
        self._held3 = held3 | kans
        self._held4 = held4 | guns
        self._meld_dui = meld_dui
        self._melds_score = melds_score
        self._hu_in_hand = bool(
            n_kan
            or n_gun
            or grown_kai
            or (counts[1] and counts[6] and counts[9])
            or (counts[11] and counts[16] and counts[19])
        )
        self._quick = False
        self._last_w = -1
        self._last_found: tuple[int, _Plan] | None = None
        self._joining: tuple[int, int] | None = None
        self._new_quad_known = False
        self._new_quad_found: tuple[int, _Plan] | None = None

    @property
    def quads(self) -> int:
        """Quads owned before the winning card: exposed 开 and concealed 滚 (R-4)."""
        return self._n_gun + self._meld_quads

    @property
    def card_total(self) -> int:
        """Cards in the concealed hand plus the exposed melds."""
        return self._total

    def _prepare_quick(self) -> None:
        """The quick tests of :meth:`could_win`, worked out once."""
        s, b = self._free_s, self._free_b
        ge1s, ge2s = (s | (s >> 1)) & _LOW, (s >> 1) & _LOW
        ge1b, ge2b = (b | (b >> 1)) & _LOW, (b >> 1) & _LOW
        # free single cards that no group can take: a winning card can only rescue those
        # within its reach, and only when it joins the free cards
        loose_s, pairs_s = _stranded(ge1s, ge2s, ge1b, ge2b)
        loose_b, pairs_b = _stranded(ge1b, ge2b, ge1s, ge2s)
        self._loose = bool(loose_s or loose_b)
        rescue = 0xFFFFF  # winning cards that reach every loose card (reach is symmetric)
        if loose_s or loose_b:
            ids = _COMPACT[loose_s] | _COMPACT[loose_b] << 10
            while ids:
                low = ids & -ids
                ids ^= low
                rescue &= _REACH_OF_BIT[low]
        self._rescue = rescue
        join_pair = self._join_pair
        triples = 7 - self._n_fixed - join_pair
        join_mask = rescue if triples >= 0 and self._n_free + 1 == 3 * triples + 2 * join_pair else 0
        # a held pair with no partner can only be the 桩子, or a 花吃 with a winning card
        # of its other size (a winning card of its own identity is not this case)
        pairs_only = _COMPACT[pairs_s] | _COMPACT[pairs_b] << 10
        if pairs_only:
            n_pairs = pairs_only.bit_count()
            huas = (pairs_only >> 10 | pairs_only << 10) & 0xFFFFF  # the other size of each
            if n_pairs > 1 + join_pair:
                join_mask = 0
            elif not join_pair or n_pairs == 2:
                join_mask &= huas
        self._join_mask = join_mask
        self._quick = True

    def _prepare_joining(self) -> tuple[int, int]:
        """The cards that complete a grouping by joining the free cards, and those that
        complete a held pair into a 对 (20-bit sets), worked out once (for waits). The
        card count fits both or neither (R-4.4)."""
        need_pair = self._join_pair
        triples = 7 - self._n_fixed - need_pair
        if triples < 0 or self._n_free + 1 != 3 * triples + 2 * need_pair:
            found = (0, 0)
        else:
            found = _completing_cards(self._free_s, self._free_b, need_pair)
        self._joining = found
        return found

    def could_win(self, w: int) -> bool:
        """A quick test: False means the card ``w`` (a ``Card`` value) surely completes no
        grouping of this hand; True means :meth:`candidates` must decide."""
        if not self._quick:
            self._prepare_quick()
        if self._loose and not self._rescue >> w & 1:
            return False
        if self._counts[w] < 2 and not (self._yu and self._meld_dui >> w & 1):
            if not self._join_mask >> w & 1:
                return False
            return self._join_found(w) is not None
        return True

    def _join_found(self, w: int) -> tuple[int, _Plan] | None:
        """The best split of the free cards with ``w`` joining them (the card count fits);
        the last one is kept, as the engine asks :meth:`could_win` and then the score."""
        if w == self._last_w:
            return self._last_found
        if w < 10:
            found = _free_best(self._free_s + _UNIT[w], self._free_b, self._join_pair)
        else:
            found = _free_best(self._free_s, self._free_b + _UNIT[w - 10], self._join_pair)
        self._last_w = w
        self._last_found = found
        return found

    def has_loose(self) -> bool:
        """Some free card no group can take, whatever the winning card joins (a 天胡 with
        such a card has no grouping)."""
        if not self._quick:
            self._prepare_quick()
        return self._loose

    def winning_candidates(self) -> list[tuple[int, list[Candidate]]]:
        """For every card with a copy left that completes some grouping, in card order, its
        candidates (as :meth:`candidates`; for waits, with the cards that join the free
        cards found at once)."""
        joining, duis = self._joining or self._prepare_joining()
        used = self._used
        quads = self._kans  # a 坎 the card makes a 开
        if self._yu:
            quads |= self._meld_dui
        out: list[tuple[int, list[Candidate]]] = []
        for w in range(20):
            joins = joining >> w & 1
            dui = duis >> w & 1
            if used[w] >= COPIES or not (joins or dui or quads >> w & 1):
                continue
            cands = self._candidates(w, bool(joins), bool(dui))
            if cands:
                out.append((w, cands))
        return out

    def candidates(self, w: int | None) -> list[Candidate]:
        """The candidate groupings of the hand with the winning card ``w`` (a ``Card``
        value; None for 天胡): per place of the winning card (R-3.2), the split of the free
        cards with the most hu. Empty when the cards form no grouping of R-4.4.

        The winning 贰 beside the 坎 贰贰贰 joins 贰柒拾 (13 hu, the 坎 whole) or makes a 开
        (10 hu, with 九九 the pair):

        >>> from erqishi.core import Card, HandAnalyzer
        >>> a = HandAnalyzer("四五六九九贰贰贰柒捌玖玖拾拾", ["六六六", "三四五"])
        >>> [(c.hu, c.placement.name, c.identical(Card.D2)) for c in a.candidates(Card.D2)]
        [(13, 'JOIN', 3), (10, 'KAI', 4)]
        """
        return self._candidates(w, True, True)

    def _candidates(self, w: int | None, join: bool, dui: bool) -> list[Candidate]:
        """:meth:`candidates`; the winning card may join the free cards only if ``join``,
        and complete a held pair only if ``dui``."""
        out: list[Candidate] = []
        n_fixed = self._n_fixed
        q0 = self._n_gun + self._meld_quads
        s0, b0, nf0 = self._free_s, self._free_b, self._n_free
        if w is None:
            self._add(out, s0, b0, nf0, n_fixed, q0, 0, None, _NONE)
            return out
        if not join:
            pass
        elif w == self._last_w:  # found by could_win, where the card count fitted
            if self._last_found is not None:
                self._add_found(out, self._last_found, w, 0, _JOIN)
        elif w < 10:
            self._add(out, s0 + _UNIT[w], b0, nf0 + 1, n_fixed, q0, 0, w, _JOIN)
        else:
            self._add(out, s0, b0 + _UNIT[w - 10], nf0 + 1, n_fixed, q0, 0, w, _JOIN)
        cw = self._counts[w]
        if cw == 3 or (self._yu and self._meld_dui >> w & 1):
            # the winning card makes a new quad and leaves the free cards as they are
            if not self._new_quad_known:
                self._new_quad_found = self._free_alone(n_fixed, q0 + 1)
                self._new_quad_known = True
            found = self._new_quad_found
            if found is not None:
                if cw == 3:  # 坎 + winning card = 开
                    self._add_found(out, found, w, _KAI_HU[w] - _KAN_HU[w], _KAI)
                else:  # 下雨 (R-5.13, option yu): the winning card onto an exposed 对 makes a 开
                    self._add_found(out, found, w, _KAI_HU[w] - _DUI_HU[w], _YU)
        elif cw == 2 and dui:  # pair + winning card = 对
            two = 2 * _UNIT[w % 10]
            if w < 10:
                self._add(out, s0 - two, b0, nf0 - 2, n_fixed + 1, q0, _DUI_HU[w], w, _DUI)
            else:
                self._add(out, s0, b0 - two, nf0 - 2, n_fixed + 1, q0, _DUI_HU[w], w, _DUI)
        return out

    def _free_alone(self, n_groups: int, quads: int) -> tuple[int, _Plan] | None:
        """The best split of the free cards as they are, beside ``n_groups`` fixed groups
        and ``quads`` quads (R-4.4), or None."""
        need_pair = quads >= 1
        t = 7 - n_groups - need_pair
        if t < 0 or self._n_free != 3 * t + 2 * need_pair:
            return None
        return _free_best(self._free_s, self._free_b, need_pair)

    def _add(
        self,
        out: list[Candidate],
        s: int,
        b: int,
        n_free: int,
        n_groups: int,
        quads: int,
        extra_hu: int,
        w: int | None,
        placement: Placement,
    ) -> None:
        """The candidates of one place of the winning card: ``s``/``b`` the free cards,
        ``n_groups`` the groups fixed so far, ``quads`` the quads, ``extra_hu`` the hu the
        winning card's group adds beyond the fixed groups."""
        need_pair = quads >= 1
        t = 7 - n_groups - need_pair
        if t < 0 or n_free != 3 * t + 2 * need_pair:
            return
        found = _free_best(s, b, need_pair)
        if found is not None:
            self._add_found(out, found, w, extra_hu, placement)

    def _add_found(
        self,
        out: list[Candidate],
        found: tuple[int, _Plan],
        w: int | None,
        extra_hu: int,
        placement: Placement,
    ) -> None:
        """The candidate of one place of the winning card, from the best split of the
        free cards. That split is also the one where every group scores, when there is
        one: a split into 二七十 only (and the pair) has strictly the most hu, as any other
        split has fewer 二七十 and no more big ones."""
        plan = found[1]
        out.append(
            Candidate(
                self._fixed_hu + extra_hu + found[0],
                w,
                placement,
                self._melds_score and _all_ejs(plan),
                self._hu_in_hand or placement is _KAI,
                plan,
                (self._held3, self._held4),
            )
        )

    def fits(self, w: int | None) -> int:
        """Whether the card count fits R-4.4 for some place of the winning card: 0 when it
        does (the cards then simply do not group), else the sign of the cards beyond the
        21 + max(0, q - 1) of a win (1 too many, -1 too few)."""
        q0 = self._n_gun + self._meld_quads
        nf0 = self._n_free
        shapes = [(nf0 + (w is not None), self._n_fixed, q0)]
        if w is not None:
            if self._yu and self._meld_dui >> w & 1:
                shapes.append((nf0, self._n_fixed, q0 + 1))
            if self._counts[w] == 3:
                shapes.append((nf0, self._n_fixed, q0 + 1))
            elif self._counts[w] == 2:
                shapes.append((nf0 - 2, self._n_fixed + 1, q0))
        for n_free, n_groups, quads in shapes:
            need_pair = quads >= 1
            t = 7 - n_groups - need_pair
            if t >= 0 and n_free == 3 * t + 2 * need_pair:
                return 0
        total = self._total + (w is not None)
        return 1 if total > 21 + max(0, q0 - 1) else -1

    def materialize(self, candidate: Candidate) -> tuple[Group, ...]:
        """The groups of ``candidate``: the exposed melds first (in their order), then the
        concealed groups in card order; exactly one group holds the winning card (none in
        a 天胡): a 对 or 开 it completes counts as exposed in kind (R-3.2)."""
        huas, small_ids, big_ids = candidate.plan
        w = candidate.win
        placement = candidate.placement
        concealed: list[Group] = []
        counts = self._counts
        fixed = self._fixed
        while fixed:
            bit = fixed & -fixed
            fixed ^= bit
            v = bit.bit_length() - 1
            if v != w or placement is not _KAI:
                concealed.append(_KAN[v] if counts[v] == 3 else _GUN[v])
        concealed.extend([_HUA[h] for h in huas])
        small, big = _LOCAL
        concealed.extend([small[i] for i in small_ids])
        concealed.extend([big[i] for i in big_ids])
        melds = self._melds
        if w is not None:
            if placement is _JOIN:
                concealed.sort(key=_BY_CARDS)
                card = _ALL_CARDS[w]
                for i, g in enumerate(concealed):
                    if card in g.cards and g.kind is not GroupKind.KAN and g.kind is not GroupKind.GUN:
                        concealed[i] = _WINNING_OF[id(g)]
                        break
                return melds + tuple(concealed)
            if placement is _YU:
                i = next(i for i, g in enumerate(melds) if g.kind is GroupKind.DUI and g.cards[0] == w)
                melds = (*melds[:i], _WIN_YU[w], *melds[i + 1 :])
            else:
                concealed.append(_WIN_KAI[w] if placement is _KAI else _WIN_DUI[w])
        concealed.sort(key=_BY_CARDS)
        return melds + tuple(concealed)


_KIND_DUI: Final = GroupKind.DUI
_KIND_KAI: Final = GroupKind.KAI


def set_memo_limits(splits: int | None = None, hua: int | None = None) -> None:
    """Bound the memos (see ``MEMO_LIMITS``; None keeps a bound): ``splits`` entries in
    each split table, ``hua`` sets of 花吃 choices. A table over its new bound is emptied."""
    if splits is not None:
        MEMO_LIMITS[0] = splits
        if len(_SIZE_TABLE) > splits:
            _empty_splits()
        for table in (_COMPLETIONS, _PAIR_REMOVALS):
            if len(table) > splits:
                table.clear()
    if hua is not None:
        MEMO_LIMITS[1] = hua
        if len(_HUA_COMBOS) > hua:
            _HUA_COMBOS.clear()


def memo_entries() -> tuple[int, int]:
    """The entries the memos hold: (the fullest split table, the 花吃 choice sets)."""
    return max(len(_SIZE_TABLE), len(_COMPLETIONS), len(_PAIR_REMOVALS)), len(_HUA_COMBOS)

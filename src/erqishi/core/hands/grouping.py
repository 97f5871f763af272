"""Hand analysis: is it a legal win, and its best grouping (R-3, R-4.4, R-6.1, R-7.1).

Exact over every grouping choice, and fast. The locks of R-3.1 fix every identity held
three or four times as a 坎 or 滚, so the *free* cards (not locked) hold at most two of
an identity, three for the winning card's identity when it joins a held pair. The free
cards of one size then have at most 4^10 count patterns; how they split into 顺子,
二七十 and at most one 桩子 is solved once per pattern and memoized (:func:`_size_solve`).
花吃 are the only groups that mix the sizes; at most one can stand on a rank, so the
analysis tries each choice of 花吃 over the few ranks where one fits, and looks the two
sizes up. The winning card's place (R-3.2: completing a 对 or 开, or joining the free
cards) is tried every way; 坤胡 is tried as its own grouping (R-7.1 picks the best score).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import product

from erqishi.core.cards import COPIES, Card, count_cards
from erqishi.core.errors import InvalidHandError
from erqishi.core.hands.groups import Group, GroupKind, parse_meld
from erqishi.core.hands.scoring import (
    MIN_HU,
    TIANHU_FIXED_SCORE,
    TIER_TABLES,
    Fan,
    Tier,
    WinContext,
    fan_weight,
    tier_of,
)
from erqishi.core.notation import parse_cards
from erqishi.core.rules import LESHAN, RuleSet, TianhuRule

__all__ = ["HandAnalyzer", "HandResult", "NoWinReason", "Wait", "analyze_hand"]


class NoWinReason(StrEnum):
    """Why valid cards do not win (R-4.4, R-6.1)."""

    TOO_MANY = "too_many"
    TOO_FEW = "too_few"
    NO_GROUPING = "no_grouping"
    UNDER_10 = "under_10"

    @property
    def chinese(self) -> str:
        """多牌, 少牌, 有散牌 (no grouping) or 不够十胡 (under 10 hu)."""
        return {
            "too_many": "多牌",
            "too_few": "少牌",
            "no_grouping": "有散牌",
            "under_10": "不够十胡",
        }[self.value]

    @property
    def english(self) -> str:
        """A short English explanation."""
        return {
            "too_many": "too many cards for seven groups",
            "too_few": "too few cards for seven groups",
            "no_grouping": "the cards do not all fit into groups",
            "under_10": "fewer than 10 hu",
        }[self.value]


@dataclass(frozen=True, slots=True)
class HandResult:
    """The analysis of one hand: whether it wins, its best grouping and its score.

    Attributes:
        is_win: the cards make a legal win of at least 10 hu (R-4.4, R-6.1).
        reason: why not, when ``is_win`` is False.
        groups: the best grouping (exposed melds first), empty when the cards do not
            group at all. For a hand under 10 hu, the grouping with the most hu.
        hu: hu points of ``groups`` (R-7.1).
        tier: the hu tier (R-7.2), None under 10 hu.
        fans: the doublings that apply, sorted by Unicode code point (R-7.3).
        fan_count: the number of doublings (双圈 counts 2).
        score: base × 2^fan_count (R-7.4), 0 when not a win.
        win_card: the winning card, None for 天胡.
        context: the win's context.
    """

    is_win: bool
    reason: NoWinReason | None
    groups: tuple[Group, ...]
    hu: int
    tier: Tier | None
    fans: tuple[Fan, ...]
    fan_count: int
    score: int
    win_card: Card | None
    context: WinContext

    @property
    def base(self) -> int:
        """The base value (规格) of the tier, 0 under 10 hu."""
        return 0 if self.tier is None else self.tier.base

    @property
    def fan_names(self) -> list[str]:
        """The 番 by Chinese name, as in records and ``cases/scoring.json``."""
        return [f.value for f in self.fans]


@dataclass(frozen=True, slots=True)
class Wait:
    """One winning card of a waiting hand (下叫) and the result of winning on it (R-6.1, R-7)."""

    card: Card
    result: HandResult

    @property
    def score(self) -> int:
        """The score (R-7.4) of the win on :attr:`card`."""
        return self.result.score


# ---------------------------------------------------------------------------------
# Free cards of one size: 2 bits per rank (counts 0-3), rank r at bits 2(r-1).

_UNIT = tuple(1 << (2 * p) for p in range(10))
_LOW = 0x55555  # the low bit of every 2-bit field
_EJS = _UNIT[1] + _UNIT[6] + _UNIT[9]
_EJS_ID = 8  # local group ids: 0-7 run from position p, 8 二七十, 10+p pair at position p
_PAIR_ID = 10

_Entry = tuple[int, tuple[int, ...], int, tuple[int, ...]]
#: code -> (most 二七十 without a pair, its groups, most 二七十 with one pair, its groups);
#: -1 where no split exists.
_SIZE_TABLE: dict[int, _Entry] = {0: (0, (), -1, ())}


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
    _SIZE_TABLE[code] = entry
    return entry


# 坤胡 needs every free triple to be a 二七十: patterns k x 二七十 (+ one pair)
_KUN0: dict[int, tuple[int, tuple[int, ...]]] = {k * _EJS: (k, (_EJS_ID,) * k) for k in range(3)}
_KUN1: dict[int, tuple[int, tuple[int, ...]]] = {
    _k * _EJS + 2 * _UNIT[_p]: (_k, (_EJS_ID,) * _k + (_PAIR_ID + _p,))
    for _k in range(3)
    for _p in range(10)
    if 2 + (_k if _p in (1, 6, 9) else 0) <= 3  # a free identity holds at most 3
}

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
    cand = (ge2s & ge1b) | (ge1s & ge2b)
    if not cand:
        return _split(s, b, need_pair, ())
    # each 花吃 takes 2 small + 1 big (xxd) or 1 small + 2 big (xdd); after them each size
    # must hold a multiple of 3 cards, but for the pair's size (3k + 2)
    n_s = (s & _LOW).bit_count() + 2 * ge2s.bit_count()
    choices: list[list[tuple[int, int, tuple[tuple[int, bool], ...], int]]] = []
    while cand:
        low = cand & -cand
        cand ^= low
        pos = (low.bit_length() - 1) >> 1
        opts: list[tuple[int, int, tuple[tuple[int, bool], ...], int]] = [(0, 0, (), 0)]
        if ge2s & low and ge1b & low:
            opts.append((2 * low, low, ((pos, False),), 2))
        if ge1s & low and ge2b & low:
            opts.append((low, 2 * low, ((pos, True),), 1))
        choices.append(opts)
    best: tuple[int, _Plan] | None = None
    for combo in product(*choices):
        ds = db = taken = 0
        huas: tuple[tuple[int, bool], ...] = ()
        for d1, d2, h, k in combo:
            ds += d1
            db += d2
            taken += k
            huas += h
        left = (n_s - taken) % 3
        if left != 0 and (left != 2 or not need_pair):
            continue
        got = _split(s - ds, b - db, need_pair, huas)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    return best


def _free_kun(s: int, b: int, need_pair: bool) -> tuple[int, _Plan] | None:
    """The split of the free cards into 二七十 only (and the pair), for 坤胡."""
    if need_pair:
        ks, kb = _KUN1.get(s), _KUN0.get(b)
        if ks is None or kb is None:
            ks, kb = _KUN0.get(s), _KUN1.get(b)
            if ks is None or kb is None:
                return None
    else:
        ks, kb = _KUN0.get(s), _KUN0.get(b)
        if ks is None or kb is None:
            return None
    return 3 * ks[0] + 6 * kb[0], ((), ks[1], kb[1])


# ---------------------------------------------------------------------------------
# Prebuilt concealed groups


def _cards(*values: int) -> tuple[Card, ...]:
    return tuple(Card(v) for v in sorted(values))


def _local_group(size_offset: int, gid: int) -> Group:
    if gid < _EJS_ID:
        v = size_offset + gid
        return Group(GroupKind.RUN, _cards(v, v + 1, v + 2))
    if gid == _EJS_ID:
        return Group(GroupKind.EJS, _cards(size_offset + 1, size_offset + 6, size_offset + 9))
    v = size_offset + gid - _PAIR_ID
    return Group(GroupKind.PAIR, _cards(v, v))


_LOCAL_IDS = (*range(_EJS_ID + 1), *range(_PAIR_ID, _PAIR_ID + 10))
_LOCAL = (
    {g: _local_group(0, g) for g in _LOCAL_IDS},
    {g: _local_group(10, g) for g in _LOCAL_IDS},
)
_HUA = {
    (p, big): Group(GroupKind.HUA, _cards(p, p + 10, p + 10) if big else _cards(p, p, p + 10))
    for p in range(10)
    for big in (False, True)
}

_SMALL_KIND_HU = {GroupKind.KAN: (3, 6), GroupKind.GUN: (9, 12), GroupKind.DUI: (1, 3), GroupKind.KAI: (6, 9)}


def _hu(kind: GroupKind, card: int) -> int:
    return _SMALL_KIND_HU[kind][card >= 10]


_ALL_CARDS = tuple(Card)


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
_REACH = tuple(_reach(w) for w in range(20))
_REACH_OF_BIT = {1 << w: _REACH[w] for w in range(20)}
#: a per-size low-bit mask (bit 2p for rank p+1) -> the same ranks as a 10-bit set
_COMPACT = {sum(_UNIT[p] for p in range(10) if m >> p & 1): m for m in range(1 << 10)}
#: marks the option where the winning card turns an exposed 对 into a 开 (yu, R-5.13)
_YU = "yu"
_KAN = tuple(Group(GroupKind.KAN, (c,) * 3) for c in Card)
_GUN = tuple(Group(GroupKind.GUN, (c,) * 4) for c in Card)
_KAN_HU = tuple(g.hu for g in _KAN)
_GUN_HU = tuple(g.hu for g in _GUN)


class HandAnalyzer:
    """A hand prepared for analysis: its concealed cards and exposed melds, fixed; the
    winning card and context vary per call. Cheap to call many times (waits, the engine).

    Args:
        hand: the concealed hand before the winning card, as cards or a card string.
        melds: the exposed melds, as :class:`Group` or meld strings (R-3).
        rules: the rule set (tiers, 天胡 worth, 圈胡 on or off).

    Raises:
        InvalidNotationError: a bad card token.
        InvalidHandError: a meld that is no group, or more than four copies of a card
            across hand and melds.

    >>> a = HandAnalyzer("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"])
    >>> r = a.evaluate(Card.X4); (r.is_win, r.hu, r.score)
    (True, 10, 10)
    """

    __slots__ = (
        "_counts",
        "_fixed_groups",
        "_fixed_hu",
        "_free_b",
        "_free_s",
        "_full",
        "_join_mask",
        "_join_pair",
        "_kun_ok",
        "_loose",
        "_meld_quads",
        "_meld_quan",
        "_melds",
        "_n_free",
        "_n_gun",
        "_n_kan",
        "_n_melds",
        "_piao_ok",
        "_quick",
        "_rescue",
        "_total",
        "_used",
        "rules",
    )

    def __init__(
        self,
        hand: Iterable[Card] | str,
        melds: Iterable[Group | str] = (),
        rules: RuleSet = LESHAN,
    ) -> None:
        cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
        if isinstance(melds, str):
            raise InvalidHandError(f"melds must be a list of meld strings, not one string ({melds!r})")
        meld_groups = tuple(parse_meld(m) if isinstance(m, str) else m for m in melds)
        for g in meld_groups:
            if not g.exposed:
                raise InvalidHandError(f"meld {g} must be an exposed group")
        counts = count_cards(cards)
        if meld_groups:
            all_counts = list(counts)
            for g in meld_groups:
                for card in g.cards:
                    all_counts[card] += 1
        else:
            all_counts = counts
        if max(all_counts) > COPIES:
            over = Card(all_counts.index(max(all_counts)))
            raise InvalidHandError(
                f"{all_counts[over]} copies of {over} ({over.ascii}) in hand and melds; the deck has {COPIES}"
            )
        self._setup(tuple(counts), tuple(all_counts), meld_groups, rules, len(cards))

    def _setup(
        self,
        counts: tuple[int, ...],
        all_counts: tuple[int, ...],
        meld_groups: tuple[Group, ...],
        rules: RuleSet,
        n_cards: int,
    ) -> None:
        self.rules = rules
        self._used = all_counts
        self._counts = counts
        self._melds = meld_groups
        self._n_melds = len(meld_groups)
        meld_quads = meld_cards = fixed_hu = 0
        for g in meld_groups:
            meld_cards += len(g.cards)
            fixed_hu += g.hu
            if len(g.cards) == 4:
                meld_quads += 1
        self._meld_quads = meld_quads
        self._total = n_cards + meld_cards
        s = b = n_free = n_kan = n_gun = 0
        unit = _UNIT
        for v in range(20):
            c = counts[v]
            if not c:
                continue
            if c == 3:
                n_kan += 1
                fixed_hu += _KAN_HU[v]
            elif c == 4:
                n_gun += 1
                fixed_hu += _GUN_HU[v]
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
        self._n_kan = n_kan
        self._n_gun = n_gun
        self._quick = False
        self._full = False

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
        # a winning card joining the free cards: one pair iff a quad is owned
        join_pair = self._n_gun + self._meld_quads >= 1
        triples = 7 - self._n_kan - self._n_gun - self._n_melds - join_pair
        self._join_pair = join_pair
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

    def _prepare(self) -> None:
        """What only a full analysis needs (groups, 番 conditions), worked out once."""
        counts = self._counts
        self._fixed_groups = tuple(_KAN[v] if c == 3 else _GUN[v] for v, c in enumerate(counts) if c >= 3)
        kun_ok = True
        meld_quan: dict[int, int] = {}
        for g in self._melds:
            if g.hu == 0:
                kun_ok = False
            if g.kind is GroupKind.DUI:
                meld_quan[g.cards[0]] = 1
            elif g.kind is GroupKind.KAI:
                meld_quan[g.cards[0]] = 2
        self._kun_ok = kun_ok
        holds_ejs = (counts[1] and counts[6] and counts[9]) or (counts[11] and counts[16] and counts[19])
        self._piao_ok = not (self._n_kan or self._n_gun or self._meld_quads or holds_ejs)
        self._meld_quan = meld_quan
        self._full = True

    @classmethod
    def from_counts(cls, counts: Sequence[int], melds: Sequence[Group] = (), rules: RuleSet = LESHAN) -> HandAnalyzer:
        """An analyzer from a count array (20 ints indexed by ``Card`` value) and exposed groups.

        Raises:
            InvalidHandError: as the constructor.
        """
        counts = tuple(counts)
        melds = tuple(melds)
        if len(counts) != len(_ALL_CARDS) or any(not g.exposed for g in melds):
            return cls([_ALL_CARDS[v] for v, c in enumerate(counts) for _ in range(c)], melds, rules)
        used = list(counts)
        for g in melds:
            for card in g.cards:
                used[card] += 1
        if min(counts) < 0 or max(used) > COPIES:
            return cls([_ALL_CARDS[v] for v, c in enumerate(counts) for _ in range(c)], melds, rules)
        self = cls.__new__(cls)
        self._setup(counts, tuple(used), melds, rules, sum(counts))
        return self

    @classmethod
    def trusted(
        cls, counts: tuple[int, ...], melds: tuple[Group, ...], rules: RuleSet, card_total: int
    ) -> HandAnalyzer:
        """An analyzer for a hand the caller guarantees valid (the engine): 20 counts, at
        most four copies with the melds, exposed melds, ``card_total`` cards in all."""
        self = cls.__new__(cls)
        used = counts
        if melds:
            used_list = list(counts)
            for g in melds:
                for card in g.cards:
                    used_list[card] += 1
            used = tuple(used_list)
        self._setup(counts, used, melds, rules, card_total - sum(len(g.cards) for g in melds))
        return self

    @property
    def counts(self) -> tuple[int, ...]:
        """Counts of the concealed hand, indexed by ``Card`` value."""
        return self._counts

    @property
    def melds(self) -> tuple[Group, ...]:
        """The exposed melds."""
        return self._melds

    @property
    def card_total(self) -> int:
        """Cards in the concealed hand plus the exposed melds."""
        return self._total

    def evaluate(self, win: Card | None, context: WinContext = WinContext()) -> HandResult:
        """Analyse the hand with ``win`` as the winning card (R-4.4, R-6.1, R-7).

        Args:
            win: the winning card; None only for 天胡 (``context.source`` TIAN).
            context: win source, 地胡, 圈 number.

        Returns:
            The :class:`HandResult` of the best grouping (R-7.1).

        Raises:
            InvalidHandError: 天胡 with a winning card, no winning card otherwise, or a
                fifth copy of the winning card.
        """
        w = self._check_win(win, context)
        self._check_context(context)
        best = self._best(w, context)
        if isinstance(best, NoWinReason):
            return HandResult(False, best, (), 0, None, (), 0, 0, win, context)
        score, hu, fans, fan_count, tier, option, plan = best
        groups = self._materialize(w, option, plan)
        if hu < MIN_HU:
            return HandResult(False, NoWinReason.UNDER_10, groups, hu, None, (), 0, 0, win, context)
        return HandResult(True, None, groups, hu, tier, fans, fan_count, score, win, context)

    def score(self, win: Card | None, context: WinContext = WinContext()) -> int:
        """The score (R-7.4) of winning on ``win``; 0 when it does not win.

        Raises:
            InvalidHandError: as :meth:`evaluate`.
        """
        w = self._check_win(win, context)
        if context.tian or context.di:
            self._check_context(context)
        return self.score_unchecked(w, context)

    def could_win(self, w: int) -> bool:
        """A quick test for the engine: False means the card ``w`` (a ``Card`` value) surely
        does not win this hand; True means :meth:`score_unchecked` must decide."""
        if not self._quick:
            self._prepare_quick()
        if self._loose and not self._rescue >> w & 1:
            return False
        if self._counts[w] < 2 and not (self.rules.yu and self._used[w] > self._counts[w]):
            if not self._join_mask >> w & 1:
                return False
            if w < 10:
                return _free_best(self._free_s + _UNIT[w], self._free_b, self._join_pair) is not None
            return _free_best(self._free_s, self._free_b + _UNIT[w - 10], self._join_pair) is not None
        return True

    def score_unchecked(self, w: int | None, context: WinContext) -> int:
        """:meth:`score` for a caller that guarantees valid input (the engine): ``w`` is
        the winning card's value, or None for 天胡; no fifth copy; a 天胡/地胡 context only
        with the dealt hand."""
        if w is None:  # 天胡: every card is dealt; a loose one stays loose
            if not self._quick:
                self._prepare_quick()
            if self._loose:
                return 0
        elif not self.could_win(w):
            return 0
        best = self._best(w, context)
        if isinstance(best, NoWinReason) or best[1] < MIN_HU:
            return 0
        return best[0]

    def waits(self, context: WinContext = WinContext()) -> tuple[Wait, ...]:
        """Every card that would win this hand, in card order, with its result (下叫).

        Raises:
            InvalidHandError: ``context`` is 天胡 (a 天胡 has no winning card).
        """
        if context.tian:
            raise InvalidHandError("天胡 has no winning card, so it has no waits")
        self._check_context(context)
        counts = self._counts
        used = list(counts)
        for g in self._melds:
            for c in g.cards:
                used[c] += 1
        out: list[Wait] = []
        for w in range(len(_ALL_CARDS)):
            if used[w] >= COPIES:
                continue
            best = self._best(w, context)
            if isinstance(best, NoWinReason) or best[1] < MIN_HU:
                continue
            score, hu, fans, fan_count, tier, option, plan = best
            card = _ALL_CARDS[w]
            result = HandResult(
                True,
                None,
                self._materialize(w, option, plan),
                hu,
                tier,
                fans,
                fan_count,
                score,
                card,
                context,
            )
            out.append(Wait(card, result))
        return tuple(out)

    def _check_context(self, context: WinContext) -> None:
        """天胡 is the dealer's 21 dealt cards; 地胡 a non-dealer's 20 dealt cards (R-2.3, R-6.3)."""
        if context.tian or context.di:
            name, size = ("天胡", 21) if context.tian else ("地胡", 20)
            if self._melds:
                raise InvalidHandError(f"{name} is won with the dealt hand, before any meld: no melds allowed")
            if self._total != size:
                raise InvalidHandError(
                    f"{name} is won with the {size} dealt cards of the "
                    f"{'dealer' if context.tian else 'non-dealer'}, not {self._total}"
                )

    @property
    def quads(self) -> int:
        """Quads owned before the winning card: exposed 开 and concealed 滚 (R-4)."""
        return self._n_gun + self._meld_quads

    def _check_win(self, win: Card | None, context: WinContext) -> int | None:
        if context.tian:
            if win is not None:
                raise InvalidHandError("天胡 has no winning card: the dealer's 21 dealt cards win as they are")
            return None
        if win is None:
            raise InvalidHandError("a winning card is needed (only 天胡 has none)")
        w = int(win)
        total = self._used[w]
        if total >= COPIES:
            raise InvalidHandError(
                f"winning card {win} ({win.ascii}) would be a fifth copy: {total} already in hand and melds"
            )
        return w

    def _best(
        self, w: int | None, context: WinContext
    ) -> tuple[int, int, tuple[Fan, ...], int, Tier | None, GroupKind | str | None, _Plan] | NoWinReason:
        if not self._full:
            self._prepare()
        rules = self.rules
        counts = self._counts
        n_fixed = self._n_kan + self._n_gun + self._n_melds
        q0 = self._n_gun + self._meld_quads
        s0, b0, nf0 = self._free_s, self._free_b, self._n_free
        # options: (free small, free big, free count, fixed groups, quads, extra hu, kind of W's group)
        options: list[tuple[int, int, int, int, int, int, GroupKind | str | None]] = []
        if w is None:
            options.append((s0, b0, nf0, n_fixed, q0, 0, None))
        else:
            cw = counts[w]
            if w < 10:
                options.append((s0 + _UNIT[w], b0, nf0 + 1, n_fixed, q0, 0, None))
            else:
                options.append((s0, b0 + _UNIT[w - 10], nf0 + 1, n_fixed, q0, 0, None))
            if rules.yu and w in self._meld_quan and self._meld_quan[w] == 1:
                # 下雨 (R-5.13, option yu): the winning card onto an exposed 对 makes a 开
                options.append((s0 + 0, b0, nf0, n_fixed, q0 + 1, _hu(GroupKind.KAI, w) - _hu(GroupKind.DUI, w), _YU))
            if cw == 3:  # 坎 + winning card = 开
                options.append(
                    (
                        s0,
                        b0,
                        nf0,
                        n_fixed,
                        q0 + 1,
                        _hu(GroupKind.KAI, w) - _hu(GroupKind.KAN, w),
                        GroupKind.KAI,
                    )
                )
            elif cw == 2:  # pair + winning card = 对
                two = 2 * _UNIT[w % 10]
                if w < 10:
                    options.append((s0 - two, b0, nf0 - 2, n_fixed + 1, q0, _hu(GroupKind.DUI, w), GroupKind.DUI))
                else:
                    options.append((s0, b0 - two, nf0 - 2, n_fixed + 1, q0, _hu(GroupKind.DUI, w), GroupKind.DUI))
        tiers = TIER_TABLES[rules.tiers]
        best: tuple[int, int, tuple[Fan, ...], int, Tier | None, GroupKind | str | None, _Plan] | None = None
        counted = False
        for s, b, nf, n_groups, q, extra, kind in options:
            need_pair = q >= 1
            t = 7 - n_groups - need_pair
            if t < 0 or nf != 3 * t + 2 * need_pair:
                continue
            counted = True
            found = _free_best(s, b, need_pair)
            if found is None:
                continue
            quan_card = 9 + context.quan if context.quan is not None and rules.quan_fan else -1
            fans: list[Fan] = []
            if context.tian:
                fans.append(Fan.TIANHU)
            if context.di:
                fans.append(Fan.DIHU)
            if self._piao_ok and kind is not GroupKind.KAI and kind is not _YU:
                fans.append(Fan.PIAOHU)
            if quan_card >= 0:
                if w == quan_card and kind is not None:
                    level = 1 if kind is GroupKind.DUI else 2
                else:
                    qc = counts[quan_card]
                    level = 1 if qc == 3 else 2 if qc == 4 else self._meld_quan.get(quan_card, 0)
                if level == 1:
                    fans.append(Fan.QUANHU)
                elif level == 2:
                    fans.append(Fan.SHUANGQUAN)
            variants = [(found, fans)]
            if self._kun_ok:
                kun = _free_kun(s, b, need_pair)
                if kun is not None:
                    variants.append((kun, [*fans, Fan.KUNHU]))
            for (free_hu, plan), fan_list in variants:
                hu = self._fixed_hu + extra + free_hu
                tier = tiers[hu] if hu < len(tiers) else tier_of(hu, rules)
                fan_tuple = tuple(sorted(fan_list))
                if context.tian and rules.tianhu is TianhuRule.FIXED_100:
                    fan_tuple = (Fan.TIANHU,)
                    fan_count = 0
                    score = TIANHU_FIXED_SCORE if tier is not None else 0
                else:
                    fan_count = 0
                    for f in fan_tuple:
                        fan_count += fan_weight(f, rules)
                    score = 0 if tier is None else tier.base << fan_count
                if (
                    best is None
                    or score > best[0]
                    or (score == best[0] and (hu > best[1] or (hu == best[1] and fan_tuple < best[2])))
                ):
                    best = (score, hu, fan_tuple, fan_count, tier, kind, plan)
        if best is not None:
            return best
        if counted:
            return NoWinReason.NO_GROUPING
        total = self._total + (w is not None)
        expected = 21 + max(0, q0 - 1)
        return NoWinReason.TOO_MANY if total > expected else NoWinReason.TOO_FEW

    def _materialize(self, w: int | None, kind: GroupKind | str | None, plan: _Plan) -> tuple[Group, ...]:
        if not self._full:
            self._prepare()
        huas, small_ids, big_ids = plan
        concealed: list[Group] = []
        for g in self._fixed_groups:
            if kind is GroupKind.KAI and g.cards[0] == w:
                continue
            concealed.append(g)
        concealed.extend(_HUA[h] for h in huas)
        concealed.extend(_LOCAL[0][i] for i in small_ids)
        concealed.extend(_LOCAL[1][i] for i in big_ids)
        concealed.sort(key=lambda g: g.cards)
        melds = self._melds
        if w is not None:
            card = Card(w)
            if kind is _YU:
                i = next(i for i, g in enumerate(melds) if g.kind is GroupKind.DUI and g.cards[0] == w)
                kai = Group(GroupKind.KAI, (card,) * 4, exposed=True, winning=True)
                melds = (*melds[:i], kai, *melds[i + 1 :])
            elif isinstance(kind, GroupKind):
                concealed.append(Group(kind, (card,) * (4 if kind is GroupKind.KAI else 3), winning=True))
                concealed.sort(key=lambda g: g.cards)
            else:
                for i, g in enumerate(concealed):
                    if card in g.cards and g.kind not in (GroupKind.KAN, GroupKind.GUN):
                        concealed[i] = replace(g, winning=True)
                        break
        return melds + tuple(concealed)


def analyze_hand(
    hand: Iterable[Card] | str,
    melds: Iterable[Group | str] = (),
    win: Card | str | None = None,
    context: WinContext = WinContext(),
    rules: RuleSet | str = LESHAN,
) -> HandResult:
    """Analyse one hand: legal win or not, best grouping, hu, 番 and score (R-3, R-4.4,
    R-6.1, R-7).

    Args:
        hand: the concealed hand before the winning card (cards or a card string).
        melds: exposed melds (groups or strings: 3 identical = 对, 4 = 开, else 吃).
        win: the winning card (card or string), None for 天胡.
        context: source, 天胡/地胡, 圈 number.
        rules: the rule set.

    Raises:
        InvalidNotationError: a bad card token.
        InvalidHandError: an empty hand, a meld that is no group, a fifth copy, a
            winning card with 天胡 or none without.

    >>> r = analyze_hand("二三四五六七七七壹贰叁陆陆陆捌玖拾", ["一一一"], "四")
    >>> r.is_win, r.hu, r.tier.name, r.score, [g.name for g in r.groups][:2]
    (True, 10, '小和', 10, ['对', '顺子'])
    """
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    if not cards:
        raise InvalidHandError("the hand is empty")
    win_card = Card.parse(win) if isinstance(win, str) else win
    return HandAnalyzer(cards, melds, RuleSet.load(rules)).evaluate(win_card, context)

"""The ``heuristic`` bot: plays like a sensible person (no look-ahead).

It values a hand by the hu it already holds (坎, 滚, melds, 二七十), how well its free
cards hang together (pairs and cards with partners for a 顺子, 二七十 or 花吃) and, near
the end, its waits (下叫) and their scores. It discards the card whose loss hurts least,
preferring safe cards (稳张: cards no one else can use, judged from what is visible);
it takes a card (吃, 对, 开) when the hand after the take and the best discard is worth
more than the hand now; it always wins, except that it lets a 小和 go when a win at
least four times as big is waiting and the stock is still long.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from erqishi.core import Card, Group, HandAnalyzer
from erqishi.core.engine import HU, PASS, Action, ActionKind, PlayerView
from erqishi.core.hands import GroupKind, WinContext
from erqishi.play._compiled import mypyc_attr

__all__ = ["HeuristicBot", "hand_value"]

_CARDS: Final = tuple(Card)


def _reach(c: int) -> tuple[int, ...]:
    """The cards that can share a 顺子, 二七十 or 花吃 with ``c`` (R-3)."""
    off = 10 if c >= 10 else 0
    r = c - off
    out = {(c + 10) % 20}
    for d in (-2, -1, 1, 2):
        if 0 <= r + d <= 9:
            out.add(off + r + d)
    if r in (1, 6, 9):
        out.update(off + q for q in (1, 6, 9) if q != r)
    return tuple(sorted(out))


#: For each card, the cards that can share a group with it (the search bot's playouts too).
REACH = tuple(_reach(c) for c in range(20))
_KAN_HU: Final = tuple(6 if c >= 10 else 3 for c in range(20))
_GUN_HU: Final = tuple(12 if c >= 10 else 9 for c in range(20))


_UNIT: Final = tuple(1 << (2 * p) for p in range(10))
_BLOCKS: Final[dict[int, tuple[int, int]]] = {0: (0, 0)}


def _blocks(code: int) -> tuple[int, int]:
    """Most (complete groups, partial groups) in one size's free cards, as 2g + p is
    largest: groups are 顺子 and 二七十; partials are a pair or two cards of one of them.
    ``code`` holds 2 bits per rank (counts 0-2)."""
    got = _BLOCKS.get(code)
    if got is not None:
        return got
    p = ((code & -code).bit_length() - 1) >> 1
    rest = code - _UNIT[p]

    def field(q: int) -> int:
        return (code >> (2 * q)) & 3 if 0 <= q <= 9 else 0

    best = _blocks(rest)  # the lowest card left loose
    options = []
    if p <= 7 and field(p + 1) and field(p + 2):
        options.append((_blocks(rest - _UNIT[p + 1] - _UNIT[p + 2]), 1, 0))
    if p == 1 and field(6) and field(9):
        options.append((_blocks(rest - _UNIT[6] - _UNIT[9]), 1, 0))
    if field(p) >= 2:
        options.append((_blocks(rest - _UNIT[p]), 0, 1))
    for q in (p + 1, p + 2, *((6, 9) if p == 1 else (9,) if p == 6 else ())):
        if q <= 9 and field(q):
            options.append((_blocks(rest - _UNIT[q]), 0, 1))
    for (g, part), dg, dp in options:
        cand = (g + dg, part + dp)
        if 2 * cand[0] + cand[1] > 2 * best[0] + best[1]:
            best = cand
    _BLOCKS[code] = best
    return best


def _shanten_free(counts: Sequence[int], need: int, quads: int) -> int:
    small = big = 0
    for c in range(20):
        n = counts[c]
        if 1 <= n <= 2:
            if c < 10:
                small += n * _UNIT[c]
            else:
                big += n * _UNIT[c - 10]
    gs, ps = _blocks(small)
    gb, pb = _blocks(big)
    hua = sum(1 for r in range(10) if 1 <= counts[r] <= 2 and 1 <= counts[r + 10] <= 2)
    groups = min(gs + gb, need)
    partials = ps + pb + hua
    if quads and need > groups and any(counts[c] == 2 for c in range(20)):
        groups += 1  # with a quad one pair is the 桩子, a whole group of its own
        partials -= 1
    partials = max(0, min(partials, need - groups))
    return 2 * (need - groups) - partials - 1


def shanten(counts: Sequence[int], melds: Sequence[Group]) -> int:
    """Roughly how many cards a hand lacks before it waits (下叫): 0 or less is close.

    Seven groups are needed (R-4.4); melds, 坎 and 滚 are groups already. The free cards
    (held once or twice) are split per size into groups and partial groups
    (:func:`_blocks`); a same-rank pair across the sizes counts as a partial 花吃, and
    complete 花吃 are tried first as whole groups; with a quad a pair is the 桩子.
    """
    fixed = len(melds)
    quads = sum(1 for g in melds if len(g.cards) == 4)
    for c in range(20):
        if counts[c] >= 3:
            fixed += 1
            quads += counts[c] == 4
    need = max(0, 7 - fixed)
    best = _shanten_free(counts, need, quads)
    # the same with every 花吃 that can stand taken out first
    rest = list(counts)
    huas = 0
    for r in range(10):
        a, b = rest[r], rest[r + 10]
        if 1 <= a <= 2 and 1 <= b <= 2 and a + b >= 3:
            take_small = 2 if a == 2 and (b == 1 or r % 2) else 1
            rest[r] -= take_small
            rest[r + 10] -= 3 - take_small
            huas += 1
    if huas:
        best = min(best, _shanten_free(rest, max(0, need - huas), quads) - 0)
    return best


def hand_value(counts: Sequence[int], melds: Sequence[Group]) -> float:
    """A quick value of a hand: closeness to a win first, then hu held and in reach.

    Args:
        counts: the concealed hand, 20 counts indexed by ``Card`` value.
        melds: the exposed melds.

    Returns:
        A number; higher is better (about 4 per step of :func:`shanten`, hu otherwise).
    """
    value = -4.0 * shanten(counts, melds) + 0.5 * sum(g.hu for g in melds)
    for c in range(20):
        n = counts[c]
        if n == 3:
            value += 0.5 * _KAN_HU[c]
        elif n == 4:
            value += 0.5 * _GUN_HU[c]
        elif n == 2:
            value += 0.3 if c < 10 else 0.6  # a pair may become a 对 or 坎
    for off, worth in ((0, 0.6), (10, 1.2)):  # pieces of 二七十 / 贰柒拾
        held = sum(1 for q in (1, 6, 9) if 1 <= counts[off + q] <= 2)
        if held >= 2:
            value += worth * (held - 1)
    return value


def _waits_value(counts: Sequence[int], melds: Sequence[Group], view: PlayerView, visible: Sequence[int]) -> float:
    cards = [_CARDS[c] for c in range(20) for _ in range(counts[c])]
    analyzer = HandAnalyzer(cards, melds, view.rules)
    total = 0.0
    for wait in analyzer.waits(WinContext(quan=view.quan)):
        left = 4 - visible[wait.card] - counts[wait.card]
        total += max(0, left) * wait.score
    return total


@mypyc_attr(allow_interpreted_subclasses=True)  # users subclass it, in both builds
class HeuristicBot:
    """A sensible, fast player (see the module text)."""

    name = "heuristic"

    def __init__(self, *, safety: float = 1.0, waits_weight: float = 0.08, look_at_waits: bool = True) -> None:
        """Args:
        safety: weight of a discard's danger (稳张 play).
        waits_weight: weight of the waits' value (score × copies left) of the best discards.
        look_at_waits: work out the waits of the best few discards (slower, stronger).

        Raises:
            TypeError: a weight that is no number, or ``look_at_waits`` no ``bool`` (in
                both builds).
        """
        for what, weight in (("safety", safety), ("waits_weight", waits_weight)):
            if not isinstance(weight, int | float):
                raise TypeError(f"{what} must be a number, got {type(weight).__name__} {weight!r}")
        if not isinstance(look_at_waits, bool):
            raise TypeError(f"look_at_waits must be a bool, got {type(look_at_waits).__name__} {look_at_waits!r}")
        self.safety = safety
        self.waits_weight = waits_weight
        self.look_at_waits = look_at_waits
        #: the last ranking of discards, (view, options, ranking): the learned bot ranks the
        #: discards of a view and then asks this bot's choice on the same view
        self._last_ranking: tuple[PlayerView, tuple[Action, ...], list[tuple[float, Action]]] | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action a sensible person would take (see the module text)."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if HU in legal and (not self.look_at_waits or not self._decline_small_win(view)):
            return HU
        return self._best_non_win(view, rng)

    # ---------------------------------------------------------------------------
    def _counts(self, view: PlayerView) -> list[int]:
        counts = [0] * 20
        for c in view.hand:
            counts[c] += 1
        return counts

    def _danger(self, card: int, view: PlayerView, visible: Sequence[int], counts: Sequence[int]) -> float:
        """How likely a discard helps someone (0 safe … 1)."""
        unseen = 4 - visible[card] - counts[card]
        if unseen <= 0:
            return 0.0
        danger = unseen / 4
        nxt = view.order[(view.order.index(view.seat) + 1) % len(view.order)]
        if card in view.seats[nxt].row:
            danger *= 0.5  # the 下家 discarded it: it may not 吃 or win on it
        return danger

    def _discard_scores(self, view: PlayerView, options: Sequence[Action]) -> list[tuple[float, Action]]:
        """The ``options`` (discards) of ``view`` ranked best first with their values (the
        same view and options asked again: the ranking already made, views being immutable)."""
        key = tuple(options)
        last = self._last_ranking
        if last is not None and last[0] is view and last[1] == key:
            return list(last[2])
        ranking = self._rank_discards(view, options)
        self._last_ranking = (view, key, ranking)
        return list(ranking)

    def _rank_discards(self, view: PlayerView, options: Sequence[Action]) -> list[tuple[float, Action]]:
        counts = self._counts(view)
        melds = view.seats[view.seat].melds
        visible = view.seen(own_hand=False)
        scored = []
        for action in options:
            c = action.cards[0]
            counts[c] -= 1
            value = hand_value(counts, melds)
            counts[c] += 1
            value -= self.safety * self._danger(c, view, visible, counts) * (2.0 if view.stock_left < 8 else 1.0)
            scored.append((value, action))
        scored.sort(key=lambda t: -t[0])
        if not self.look_at_waits:
            return scored
        # the waits (score x copies left) of every discard that leaves the hand near a
        # win, and of the best few whatever they are: they cost more to work out
        refined = []
        for rank, (value, action) in enumerate(scored):
            c = action.cards[0]
            counts[c] -= 1
            if rank < 3 or shanten(counts, melds) <= 1:
                value += self.waits_weight * _waits_value(counts, melds, view, visible)
            counts[c] += 1
            refined.append((value, action))
        refined.sort(key=lambda t: -t[0])
        return refined

    def _best_non_win(self, view: PlayerView, rng: random.Random) -> Action:
        legal = [a for a in view.legal if a.kind is not ActionKind.HU]
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        if discards:
            return self._discard_scores(view, discards)[0][1]
        if not legal:
            return view.legal[0]
        if len(legal) == 1:
            return legal[0]
        return self._best_take(view, legal)

    def _best_take(self, view: PlayerView, options: Sequence[Action]) -> Action:
        counts = self._counts(view)
        melds = view.seats[view.seat].melds
        x = view.pending
        assert x is not None
        now = hand_value(counts, melds)
        best_value, best = now + 0.5, PASS if PASS in options else options[0]
        for action in options:
            if action.kind is ActionKind.PASS:
                continue
            after = list(counts)
            new_melds = list(melds)
            if action.kind is ActionKind.KAI:
                after[x] = 0
                new_melds.append(Group(GroupKind.KAI, (x,) * 4, exposed=True))
            elif action.kind is ActionKind.DUI:
                after[x] -= 2
                new_melds.append(Group(GroupKind.DUI, (x,) * 3, exposed=True))
            else:
                for c in action.cards:
                    after[c] -= 1
                for group in action.bai:
                    for c in group:
                        after[c] -= 1
            # the discard that would follow: the least useful free card
            free = [c for c in range(20) if 1 <= after[c] <= 2]
            if free:
                worst = max(free, key=lambda c: -_single_worth(after, c))
                after[worst] -= 1
            value = hand_value(after, new_melds)
            if action.kind is ActionKind.KAI:
                value += 1.0
            if value > best_value:
                best_value, best = value, action
        return best

    def _decline_small_win(self, view: PlayerView) -> bool:
        if view.stock_left < 12:
            return False
        counts = self._counts(view)
        melds = view.seats[view.seat].melds
        x = view.pending
        if x is None:
            return False
        cards = [_CARDS[c] for c in range(20) for _ in range(counts[c])]
        analyzer = HandAnalyzer(cards, melds, view.rules)
        score = analyzer.score(x, WinContext(quan=view.quan))
        if score > 10:
            return False
        bigger = [w for w in analyzer.waits(WinContext(quan=view.quan)) if w.score >= 4 * max(score, 10)]
        return len(bigger) >= 2


def _single_worth(counts: Sequence[int], c: int) -> float:
    partners = sum(1 for p in REACH[c] if 1 <= counts[p] <= 2)
    return partners + (1.5 if counts[c] == 2 else 0.0)

"""An independent brute-force scorer, and the fast hand analyzer checked against it.

The reference below is written from ``RULES.md`` alone, and kept slow and plain:

- R-1.1: 20 card identities, 0-9 the small ranks 一…十, 10-19 the big ranks 壹…拾, 4 copies each.
- R-3: the groups and their hu; R-3.1: three identical held cards are a locked 坎, four a
  locked 滚; R-3.2: the winning card completes a held pair into a 对, a held 坎 into a 开, or
  goes into any other group (leaving a 坎 whole).
- R-4.4: a win is exactly 7 groups; no quad -> 7 triples; q >= 1 quads -> q quads,
  6 - q triples and one pair.
- R-6.1: a win needs at least 10 hu.
- R-7.1: the best grouping has the highest score, then the higher hu, then the fan list that
  sorts first; R-7.2 (tiers ``seed``): the base; R-7.3: the 番; R-7.4: score = base * 2**番.

The reference enumerates every partition of the concealed cards plus the winning card into
groups, adds the exposed melds, keeps the legal ones and scores each.  It is checked on the
worked cases of ``shared/cases/scoring.json``, then compared with ``analyze_hand`` and
``HandAnalyzer.waits`` on thousands of seeded random hands.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from erqishi.core import (
    Card,
    HandAnalyzer,
    HandResult,
    NoWinReason,
    WinContext,
    WinSource,
    analyze_hand,
)

CASES_FILE = Path(__file__).resolve().parents[2] / "shared" / "cases" / "scoring.json"

# the canonical characters, identity = index.
CHARS = "一二三四五六七八九十壹贰叁肆伍陆柒捌玖拾"
N_IDS = 20
COPIES = 4


def size_of(card: int) -> int:
    """0 = small (小), 1 = big (大)."""
    return card // 10


def rank_of(card: int) -> int:
    """Rank 1-10."""
    return card % 10 + 1


def ident(size: int, rank: int) -> int:
    """The identity of the card of ``size`` (0 small, 1 big) and ``rank`` (1-10)."""
    return size * 10 + rank - 1


def to_ids(text: str) -> list[int]:
    """Chinese card characters -> identities (independent of the project's parser)."""
    return [CHARS.index(ch) for ch in text]


def show(cards: Sequence[int]) -> str:
    """Identities -> Chinese card characters, via the project's ``str(Card)``."""
    return "".join(str(Card(c)) for c in cards)


# ---------------------------------------------------------------------------------------------
# groups
# ---------------------------------------------------------------------------------------------

# hu by kind, (small, big); run / hua / pair always 0.
HU_TABLE: dict[str, tuple[int, int]] = {
    "run": (0, 0),
    "ejs": (3, 6),
    "hua": (0, 0),
    "dui": (1, 3),
    "kan": (3, 6),
    "kai": (6, 9),
    "gun": (9, 12),
    "pair": (0, 0),
}
QUADS = ("kai", "gun")


@dataclass(frozen=True, order=True)
class BGroup:
    """One group of the reference: kind, sorted card identities, laid on the table, holds the
    winning card."""

    kind: str
    cards: tuple[int, ...]
    exposed: bool = False
    winning: bool = False

    @property
    def hu(self) -> int:
        return HU_TABLE[self.kind][size_of(self.cards[0])]


def is_run(cards: Sequence[int]) -> bool:
    """3 consecutive ranks of one size, no wrap (R-3)."""
    c = sorted(cards)
    return len(c) == 3 and size_of(c[0]) == size_of(c[2]) and c[1] == c[0] + 1 and c[2] == c[0] + 2


def is_ejs(cards: Sequence[int]) -> bool:
    """Ranks 2, 7, 10 of one size (R-3)."""
    c = sorted(cards)
    return len(c) == 3 and size_of(c[0]) == size_of(c[2]) and [rank_of(x) for x in c] == [2, 7, 10]


def is_hua(cards: Sequence[int]) -> bool:
    """One rank, both sizes, 3 cards (R-3)."""
    return len(cards) == 3 and len({rank_of(x) for x in cards}) == 1 and len({size_of(x) for x in cards}) == 2


def is_same(cards: Sequence[int], n: int) -> bool:
    """``n`` identical cards."""
    return len(cards) == n and len(set(cards)) == 1


def shape_fits(kind: str, cards: Sequence[int]) -> bool:
    """Whether ``cards`` have the shape that ``kind`` needs (R-3 table)."""
    if kind == "run":
        return is_run(cards)
    if kind == "ejs":
        return is_ejs(cards)
    if kind == "hua":
        return is_hua(cards)
    if kind in ("dui", "kan"):
        return is_same(cards, 3)
    if kind in QUADS:
        return is_same(cards, 4)
    if kind == "pair":
        return is_same(cards, 2)
    return False


def meld_group(cards: Sequence[int]) -> BGroup:
    """An exposed meld as ``cases/README.md`` reads it: 3 identical = 对, 4 identical = 开,
    otherwise a 吃/摆 group."""
    c = tuple(sorted(cards))
    if is_same(c, 3):
        return BGroup("dui", c, exposed=True)
    if is_same(c, 4):
        return BGroup("kai", c, exposed=True)
    for kind in ("run", "ejs", "hua"):
        if shape_fits(kind, c):
            return BGroup(kind, c, exposed=True)
    raise ValueError(f"not a meld: {show(c)}")


def free_shapes() -> list[tuple[int, ...]]:
    """Every card multiset that can be a group built from free (unlocked) cards: runs,
    二七十, 花吃, three identical (a 对 with the winning card) and pairs. Four identical never
    occurs among free cards: a free identity is held at most twice (R-3.1)."""
    shapes: list[tuple[int, ...]] = []
    for s in (0, 1):
        for r in range(1, 9):
            shapes.append((ident(s, r), ident(s, r + 1), ident(s, r + 2)))
        shapes.append((ident(s, 2), ident(s, 7), ident(s, 10)))
    for r in range(1, 11):
        shapes.append((ident(0, r), ident(0, r), ident(1, r)))
        shapes.append((ident(0, r), ident(1, r), ident(1, r)))
    for c in range(N_IDS):
        shapes.append((c, c, c))
        shapes.append((c, c))
    return shapes


SHAPES_WITH: dict[int, list[tuple[int, ...]]] = {c: [s for s in free_shapes() if c in s] for c in range(N_IDS)}


def classify_free(shape: tuple[int, ...], winning: bool) -> str:
    """Kind of a group of free cards; three identical must hold the winning card: a 对
    (R-3.2)."""
    if is_same(shape, 2):
        return "pair"
    if is_same(shape, 3):
        return "dui" if winning else "kan"
    for kind in ("run", "ejs", "hua"):
        if shape_fits(kind, shape):
            return kind
    raise AssertionError(shape)


def free_partitions(held: list[int], win: int | None) -> Iterator[list[BGroup]]:
    """Every way to cut the free held cards (``held`` = count per identity) and the winning card
    (if not yet used) into groups. Plain recursion: the lowest card left must go into some
    group; try every group shape holding it, with and without the winning card."""
    lowest = next((c for c in range(N_IDS) if held[c] > 0 or win == c), None)
    if lowest is None:
        yield []
        return
    for shape in SHAPES_WITH[lowest]:
        for use_win in (False, True) if win is not None and win in shape else (False,):
            need = Counter(shape)
            if use_win and win is not None:
                need[win] -= 1
            if any(held[c] < n for c, n in need.items()):
                continue
            for c, n in need.items():
                held[c] -= n
            group = BGroup(classify_free(shape, use_win), shape, winning=use_win)
            for rest in free_partitions(held, None if use_win else win):
                yield [group, *rest]
            for c, n in need.items():
                held[c] += n


def all_groupings(hand: Sequence[int], melds: Sequence[Sequence[int]], win: int | None) -> Iterator[list[BGroup]]:
    """Every grouping of hand + melds + winning card that respects R-3.1 and R-3.2 (not yet
    checked against R-4.4)."""
    held = [0] * N_IDS
    for c in hand:
        held[c] += 1
    exposed = [meld_group(m) for m in melds]
    # four held = 滚; three held = 坎, or with the winning card a 开.
    choices: list[list[tuple[BGroup, bool]]] = []  # (group, uses the winning card)
    for c in range(N_IDS):
        if held[c] == 4:
            choices.append([(BGroup("gun", (c,) * 4), False)])
        elif held[c] == 3:
            options = [(BGroup("kan", (c,) * 3), False)]
            if win == c:
                options.append((BGroup("kai", (c,) * 4, winning=True), True))
            choices.append(options)
    free = [n if n < 3 else 0 for n in held]

    def pick(i: int, chosen: list[BGroup], win_left: int | None) -> Iterator[list[BGroup]]:
        if i == len(choices):
            for rest in free_partitions(free, win_left):
                yield exposed + chosen + rest
            return
        for group, uses_win in choices[i]:
            yield from pick(i + 1, [*chosen, group], None if uses_win else win_left)

    yield from pick(0, [], win)


def legal_shape(groups: Sequence[BGroup]) -> bool:
    """R-4.4: exactly 7 groups; q = 0 -> 7 triples; q >= 1 -> q quads, 6 - q triples, 1 pair."""
    q = sum(1 for g in groups if g.kind in QUADS)
    pairs = sum(1 for g in groups if g.kind == "pair")
    triples = sum(1 for g in groups if len(g.cards) == 3)
    if len(groups) != 7:
        return False
    if q == 0:
        return triples == 7 and pairs == 0
    return triples == 6 - q and pairs == 1


# ---------------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ctx:
    """The win context in the reference's own terms."""

    source: str = "discard"  # discard / flip / own_flip / tian
    di: bool = False
    quan: int | None = None

    def api(self) -> WinContext:
        return WinContext(source=WinSource(self.source), di=self.di, quan=self.quan)

    def __str__(self) -> str:
        parts = [self.source]
        if self.di:
            parts.append("di")
        if self.quan is not None:
            parts.append(f"quan={self.quan}")
        return ",".join(parts)


def base_of(hu: int) -> int:
    """R-7.2, tiers ``seed``."""
    assert hu >= 10
    if hu <= 14:
        return 10
    if hu <= 20:
        return 20
    if hu <= 22:
        return 40
    if hu <= 27:
        return 50
    if hu <= 30:
        return 60
    rounded = (hu // 5) * 5 + (5 if hu % 5 >= 3 else 0)  # half up to a multiple of 5
    return 4 * rounded


def held_ejs(hand: Sequence[int]) -> bool:
    """The hand holds all three of 二 七 十 of one size (R-7.3 瞟胡)."""
    have = set(hand)
    return any(all(ident(s, r) in have for r in (2, 7, 10)) for s in (0, 1))


def fans_of(groups: Sequence[BGroup], hand: Sequence[int], ctx: Ctx) -> list[str]:
    """R-7.3, sorted by code point; 双圈 is one name worth 2 番."""
    fans: list[str] = []
    if ctx.source == "tian":
        fans.append("天胡")
    if ctx.di:
        fans.append("地胡")
    if all(g.hu >= 1 for g in groups if g.kind != "pair"):
        fans.append("坤胡")
    if not any(g.kind in ("kan", "gun", "kai") for g in groups) and not held_ejs(hand):
        fans.append("瞟胡")
    if ctx.quan is not None:
        quan_card = ident(1, ctx.quan)
        for g in groups:
            if g.cards[0] == quan_card and g.kind in ("dui", "kan"):
                fans.append("圈胡")
            if g.cards[0] == quan_card and g.kind in QUADS:
                fans.append("双圈")
    return sorted(fans)


def fan_count(fans: Sequence[str]) -> int:
    return sum(2 if f == "双圈" else 1 for f in fans)


@dataclass(frozen=True)
class Verdict:
    """The reference result."""

    win: bool
    hu: int = 0
    base: int = 0
    fans: tuple[str, ...] = ()
    score: int = 0
    groups: tuple[BGroup, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        if not self.win:
            return "no win"
        return f"win hu={self.hu} base={self.base} fans={list(self.fans)} score={self.score}"


def rate(groups: Sequence[BGroup], hand: Sequence[int], ctx: Ctx) -> Verdict:
    """Hu, base, 番 and score of one legal grouping with >= 10 hu (R-7.1 - R-7.4)."""
    hu = sum(g.hu for g in groups)
    fans = fans_of(groups, hand, ctx)
    base = base_of(hu)
    return Verdict(True, hu, base, tuple(fans), base * 2 ** fan_count(fans), tuple(groups))


def better(a: Verdict, b: Verdict) -> bool:
    """R-7.1: higher score, then higher hu, then the fan list that sorts first."""
    if a.score != b.score:
        return a.score > b.score
    if a.hu != b.hu:
        return a.hu > b.hu
    return list(a.fans) < list(b.fans)


def brute_force(hand: Sequence[int], melds: Sequence[Sequence[int]], win: int | None, ctx: Ctx) -> Verdict:
    """The reference: the best legal grouping of at least 10 hu, or no win."""
    best = Verdict(False)
    for groups in all_groupings(hand, melds, win):
        if not legal_shape(groups) or sum(g.hu for g in groups) < 10:
            continue
        v = rate(groups, hand, ctx)
        if not best.win or better(v, best):
            best = v
    return best


# ---------------------------------------------------------------------------------------------
# Deals, and the comparison with the analyzer
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One hand to analyse: concealed cards before the win, exposed melds, winning card."""

    hand: tuple[int, ...]
    melds: tuple[tuple[int, ...], ...]
    win: int | None
    ctx: Ctx

    def __str__(self) -> str:
        melds = " ".join(show(m) for m in self.melds) or "-"
        win = show([self.win]) if self.win is not None else "-"
        return f"hand={show(sorted(self.hand))} melds=[{melds}] win={win} ctx={self.ctx}"

    def all_cards(self) -> Counter[int]:
        cards = Counter(self.hand)
        for m in self.melds:
            cards.update(m)
        if self.win is not None:
            cards[self.win] += 1
        return cards

    def analyze(self) -> HandResult:
        return analyze_hand(
            [Card(c) for c in self.hand],
            [show(m) for m in self.melds],
            Card(self.win) if self.win is not None else None,
            self.ctx.api(),
        )

    def reference(self) -> Verdict:
        return brute_force(self.hand, self.melds, self.win, self.ctx)


def got_str(r: HandResult) -> str:
    if not r.is_win:
        return f"no win ({r.reason})"
    groups = " ".join(show([int(c) for c in g.cards]) for g in r.groups)
    return f"win hu={r.hu} base={r.base} fans={sorted(r.fan_names)} score={r.score} groups=[{groups}]"


def grouping_problems(deal: Deal, r: HandResult) -> list[str]:
    """Why the analyzer's reported grouping is not a legal, correctly scored partition of the
    deal (empty when it is)."""
    problems: list[str] = []
    groups = [BGroup(g.kind.value, tuple(sorted(int(c) for c in g.cards)), g.exposed, g.winning) for g in r.groups]
    if len(groups) != 7:
        problems.append(f"{len(groups)} groups, not 7")
    got_cards: Counter[int] = Counter()
    for g in groups:
        got_cards.update(g.cards)
    if got_cards != deal.all_cards():
        problems.append("groups are not a partition of hand + melds + win")
    for g, api in zip(groups, r.groups, strict=True):
        if not shape_fits(g.kind, g.cards):
            problems.append(f"{show(g.cards)} is no {g.kind}")
        elif api.hu != g.hu:
            problems.append(f"{show(g.cards)} {g.kind} reports {api.hu} hu, R-3 says {g.hu}")
        if g.kind in ("kan", "gun") and (g.exposed or g.winning):
            problems.append(f"{g.kind} {show(g.cards)} must be all in hand")
        if g.kind in ("dui", "kai") and not (g.exposed or g.winning):
            problems.append(f"{g.kind} {show(g.cards)} needs a card from outside")
    table = sorted(g for g in groups if g.exposed and not g.winning)
    if table != sorted(meld_group(m) for m in deal.melds):
        problems.append("exposed groups differ from the melds")
    winning = [g for g in groups if g.winning]
    if deal.win is None and winning:
        problems.append("a group holds a winning card in a 天胡")
    if deal.win is not None and (len(winning) != 1 or deal.win not in winning[0].cards):
        problems.append("not exactly one group holds the winning card")
    held = Counter(deal.hand)
    for c, n in held.items():  # locks
        if n >= 3 and not any(g.cards[0] == c and g.kind in ("kan", "kai", "gun") and not g.exposed for g in groups):
            problems.append(f"locked {show([c] * n)} was split")
    if not legal_shape(groups):
        problems.append("grouping breaks R-4.4")
    if sum(g.hu for g in groups) != r.hu:
        problems.append(f"group hu sum {sum(g.hu for g in groups)} != hu {r.hu}")
    if not problems and r.is_win:
        v = rate(groups, deal.hand, deal.ctx)
        if (list(v.fans), v.score) != (sorted(r.fan_names), r.score):
            problems.append(f"reported grouping scores {v} by R-7, analyzer says {r.fan_names} {r.score}")
    return problems


def compare(deal: Deal) -> str | None:
    """None when the analyzer agrees with the reference on ``deal``, else a report."""
    want = deal.reference()
    try:
        r = deal.analyze()
    except Exception as exc:  # report, do not stop the run
        return f"{deal}\n  expected: {want}\n  got: {type(exc).__name__}: {exc}"
    problems: list[str] = []
    if r.is_win != want.win:
        problems.append("is_win differs")
    elif want.win:
        if (r.hu, r.base, sorted(r.fan_names), r.score) != (want.hu, want.base, list(want.fans), want.score):
            problems.append("hu/base/fans/score differ")
        problems += grouping_problems(deal, r)
        if r.score != r.base * 2**r.fan_count:
            problems.append("score != base * 2**fan_count")
    else:
        if r.score != 0:
            problems.append("score of a non-win is not 0")
        # HandResult's documented contract: cards that group legally but under 10 hu
        # report UNDER_10 and the grouping with the most hu.
        legal = [
            sum(g.hu for g in groups)
            for groups in all_groupings(deal.hand, deal.melds, deal.win)
            if legal_shape(groups)
        ]
        if legal and (r.reason != NoWinReason.UNDER_10 or r.hu != max(legal)):
            problems.append(f"legal groupings top out at {max(legal)} hu: expected under_10 with that hu")
        if not legal and r.reason == NoWinReason.UNDER_10:
            problems.append("under_10 reported, but no legal grouping exists")
    if not problems:
        return None
    ref_groups = " ".join(show(g.cards) for g in want.groups)
    return f"{deal}\n  expected: {want} groups=[{ref_groups}]\n  got:      {got_str(r)}\n  " + "; ".join(problems)


# ---------------------------------------------------------------------------------------------
# Random deals
# ---------------------------------------------------------------------------------------------


def random_structure(rng: random.Random, tian: bool, tangled: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """Seven random groups of a complete R-4.4 hand, never more than 4 copies of a card:
    (tag, cards) with tag quad / pair / run / ejs / hua / same. Often the ranks are drawn
    from a narrow window, so that groups share identities and the cards group several ways."""
    while True:
        groups = try_structure(rng, tian, tangled)
        if groups is not None:
            return groups


def try_structure(rng: random.Random, tian: bool, tangled: bool) -> list[tuple[str, tuple[int, ...]]] | None:
    """One attempt of :func:`random_structure`; None when the cards run out."""
    counts = [0] * N_IDS
    q = rng.choice([0, 0, 1]) if tian else rng.choices([0, 1, 2, 3], [45, 28, 19, 8])[0]
    groups: list[tuple[str, tuple[int, ...]]] = []
    window = list(range(1, 11))
    weights = [30, 22, 18, 30]  # run, ejs, hua, same
    if tangled:  # mostly 二七十 and 花吃: cards that group several ways
        weights = [5, 45, 45, 5]
        if rng.random() < 0.5:
            window = [2, 7, 10, *rng.sample(range(1, 11), 3)]
    elif rng.random() < 0.5:
        start = rng.randint(1, 7)
        window = list(range(start, start + rng.randint(3, 4))) + rng.sample([2, 7, 10], rng.randint(0, 2))

    def take(tag: str, cards: tuple[int, ...]) -> None:
        need = Counter(cards)
        if all(counts[c] + n <= COPIES for c, n in need.items()):
            for c, n in need.items():
                counts[c] += n
            groups.append((tag, tuple(sorted(cards))))

    def some_card() -> int:
        return ident(rng.randrange(2), rng.choice(window))

    for _ in range(500):
        n_quads = sum(1 for t, _ in groups if t == "quad")
        if n_quads < q:
            take("quad", (some_card(),) * 4)
            continue
        if q and not any(t == "pair" for t, _ in groups):
            c = some_card()
            take("pair", (c, c))
            continue
        if len(groups) == 7:
            return groups
        tag = rng.choices(["run", "ejs", "hua", "same"], weights)[0]
        s, r = rng.randrange(2), rng.choice(window)
        if tag == "run":
            r = min(r, 8)
            take(tag, (ident(s, r), ident(s, r + 1), ident(s, r + 2)))
        elif tag == "ejs":
            take(tag, (ident(s, 2), ident(s, 7), ident(s, 10)))
        elif tag == "hua":
            take(tag, (ident(0, r), ident(1, r), ident(s, r)))
        else:
            take(tag, (ident(s, r),) * 3)
    return None


def random_context(rng: random.Random, deal_cards: Counter[int]) -> Ctx:
    """Source, sometimes 地胡, sometimes a 圈 (biased to a big card held 3 or 4 times)."""
    source = rng.choice(["discard", "flip", "own_flip"])
    di = rng.random() < 0.3
    if di:
        source = rng.choice(["discard", "flip"])
    return Ctx(source, di, random_quan(rng, deal_cards))


def random_quan(rng: random.Random, deal_cards: Counter[int]) -> int | None:
    if rng.random() >= 0.35:
        return None
    big_triples = [rank_of(c) for c, n in deal_cards.items() if n >= 3 and size_of(c) == 1]
    if big_triples and rng.random() < 0.75:
        return rng.choice(big_triples)
    return rng.randint(1, 10)


def perturb(rng: random.Random, deal: Deal) -> Deal:
    """A near-win: one card swapped for another identity (or, rarely, one card too many or
    too few), never a fifth copy, never an empty hand."""
    hand = list(deal.hand)
    win = deal.win
    counts = deal.all_cards()
    roll = rng.random()
    if roll < 0.08 and len(hand) > 1:
        hand.pop(rng.randrange(len(hand)))
        return Deal(tuple(hand), deal.melds, win, deal.ctx)
    if roll < 0.16:
        spare = [c for c in range(N_IDS) if counts[c] < COPIES]
        hand.append(rng.choice(spare))
        return Deal(tuple(hand), deal.melds, win, deal.ctx)
    swap_win = win is not None and rng.random() < 0.25
    old = win if swap_win else hand.pop(rng.randrange(len(hand)))
    assert old is not None
    counts[old] -= 1
    spare = [c for c in range(N_IDS) if counts[c] < COPIES and c != old]
    new = rng.choice(spare)
    if swap_win:
        win = new
    else:
        hand.append(new)
    return Deal(tuple(hand), deal.melds, win, deal.ctx)


def random_deal(rng: random.Random, allow_tian: bool = True, tangled: bool = False) -> Deal:
    """A complete structure, then melds, winning card and context; sometimes a near-win."""
    tian = allow_tian and rng.random() < 0.1
    groups = random_structure(rng, tian, tangled)
    if tian:
        hand = tuple(c for _, cards in groups for c in cards)
        quan = random_quan(rng, Counter(hand))
        deal = Deal(hand, (), None, Ctx("tian", False, quan))
    else:
        p_meld = rng.choice([0.0, 0.2, 0.4, 0.6, 0.9])
        tagged: list[tuple[str, tuple[int, ...]]] = []
        concealed: list[tuple[str, tuple[int, ...]]] = []
        for tag, cards in groups:
            if tag != "pair" and rng.random() < p_meld:
                tagged.append((tag, cards))
            else:
                concealed.append((tag, cards))
        if sum(len(cards) for _, cards in concealed) < 2:  # keep a hand after the winning card
            concealed.append(tagged.pop())
        melds = [cards for _, cards in tagged]
        pool = [c for _, cards in concealed for c in cards]
        # Often the winning card comes from identical cards (held 2 or 3 times after removal).
        sames = [cards[0] for tag, cards in concealed if tag in ("same", "quad")]
        win = rng.choice(sames) if sames and rng.random() < 0.4 else rng.choice(pool)
        pool.remove(win)
        rng.shuffle(pool)
        cards_all = Counter(pool + [win] + [c for m in melds for c in m])
        deal = Deal(tuple(pool), tuple(melds), win, random_context(rng, cards_all))
    if rng.random() < 0.35:
        deal = perturb(rng, deal)
    assert deal.hand and max(deal.all_cards().values()) <= COPIES
    # 天胡 is the dealer's 21 dealt cards and 地胡 a non-dealer's 20, both before any meld
    # other shapes are refused as input, so draw again.
    if deal.ctx.source == "tian" and len(deal.hand) != 21:
        return random_deal(rng, allow_tian, tangled)
    if deal.ctx.di and (deal.melds or len(deal.hand) != 20):
        return random_deal(rng, allow_tian, tangled)
    return deal


# ---------------------------------------------------------------------------------------------
# Tests: the reference on the worked cases
# ---------------------------------------------------------------------------------------------


def load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return cases


def case_deal(case: dict[str, Any]) -> Deal:
    c = case["context"]
    ctx = Ctx("tian" if c.get("tian") else c.get("win_source", "discard"), bool(c.get("di")), c.get("quan"))
    win = to_ids(case["win"])[0] if case["win"] is not None else None
    return Deal(tuple(to_ids(case["hand"])), tuple(tuple(to_ids(m)) for m in case["melds"]), win, ctx)


CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_reference_matches_worked_case(case: dict[str, Any]) -> None:
    """The brute force itself reproduces every hand-worked case (cases/scoring.json)."""
    deal = case_deal(case)
    want = case["expect"]
    got = deal.reference()
    msg = f"{case['id']}: {deal}\n  expected: {want}\n  brute force: {got}"
    assert got.win == want["win"], msg
    if want["win"]:
        assert (got.hu, got.base, list(got.fans), got.score) == (
            want["hu"],
            want["base"],
            want["fan"],
            want["score"],
        ), msg


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_analyzer_matches_reference_on_worked_case(case: dict[str, Any]) -> None:
    report = compare(case_deal(case))
    assert report is None, report


@pytest.mark.parametrize(
    ("hu", "base"),
    [
        (10, 10),
        (14, 10),
        (15, 20),
        (20, 20),
        (21, 40),
        (22, 40),
        (23, 50),
        (27, 50),
        (28, 60),
        (30, 60),
        (31, 120),
        (32, 120),
        (33, 140),
        (37, 140),
        (38, 160),
        (54, 220),
        (72, 280),
    ],
)
def test_reference_base_table(hu: int, base: int) -> None:
    """R-7.2 seed tiers, including the examples 33 -> 140 and 72 -> 280."""
    assert base_of(hu) == base


def test_reference_locks_and_winning_card() -> None:
    """R-3.1 / R-3.2 on small hand-made hands."""
    # Three held 五 are a 坎: the winning 五 goes into 四五六 and leaves the 坎 whole.
    assert kinds_of("四五五五六", "五") == [("kan", "run")]
    # ... or completes the 坎 into a 开 (never a 滚); a held pair is no 坎 either.
    assert kinds_of("五五五八八", "五") == [("kai", "pair")]
    # Two held 五 + the winning 五 are a 对, never a 坎.
    assert kinds_of("五五", "五") == [("dui",)]
    # 单吊: a held single and the winning card are the pair.
    assert kinds_of("五", "五") == [("pair",)]
    # Four held 五 are a 滚, never split (into two pairs, say).
    assert kinds_of("五五五五八", "八") == [("gun", "pair")]
    # A 天胡 has no winning card: three identical are a 坎.
    assert kinds_of("五五五", None) == [("kan",)]


def kinds_of(hand: str, win: str | None) -> list[tuple[str, ...]]:
    """The sorted group kinds of every grouping the reference tries."""
    w = to_ids(win)[0] if win else None
    return sorted({tuple(sorted(g.kind for g in gs)) for gs in all_groupings(to_ids(hand), [], w)})


# ---------------------------------------------------------------------------------------------
# Tests: the analyzer against the reference on random deals
# ---------------------------------------------------------------------------------------------

RANDOM_SEEDS = range(8)
DEALS_PER_SEED = 500  # 8 x 500 = 4,000 random hands per run


@pytest.mark.parametrize("seed", RANDOM_SEEDS)
def test_analyzer_matches_brute_force(seed: int) -> None:
    rng = random.Random(20_710 + seed)
    reports: list[str] = []
    for _ in range(DEALS_PER_SEED):
        deal = random_deal(rng)
        report = compare(deal)
        if report is not None:
            reports.append(report)
    assert not reports, f"{len(reports)} of {DEALS_PER_SEED} hands differ (seed {seed}):\n" + "\n".join(reports[:5])


def test_random_deals_cover_the_interesting_cases() -> None:
    """The generator really produces wins, non-wins, quads, 天胡, 地胡, 圈, melds, and winning
    cards held 2 or 3 times."""
    rng = random.Random(20_710)
    seen: Counter[str] = Counter()
    for _ in range(DEALS_PER_SEED):
        deal = random_deal(rng)
        v = deal.reference()
        seen["win" if v.win else "no win"] += 1
        seen["tian"] += deal.ctx.source == "tian"
        seen["di"] += deal.ctx.di
        seen["quan"] += deal.ctx.quan is not None
        seen["melds"] += bool(deal.melds)
        if deal.win is not None:
            seen[f"win held {Counter(deal.hand)[deal.win]}"] += 1
        if v.win:
            seen["quad win"] += any(g.kind in QUADS for g in v.groups)
            seen["fans"] += bool(v.fans)
            seen["quan fan"] += any(f in ("圈胡", "双圈") for f in v.fans)
            seen["piao"] += "瞟胡" in v.fans
            seen["kun"] += "坤胡" in v.fans
    for key in (
        "win",
        "no win",
        "tian",
        "di",
        "quan",
        "melds",
        "win held 2",
        "win held 3",
        "quad win",
        "quan fan",
        "piao",
        "kun",
    ):
        assert seen[key] > 0, f"{key} never generated: {dict(seen)}"
    assert seen["win"] >= DEALS_PER_SEED // 5, dict(seen)


def several_scores(deal: Deal) -> bool:
    """The deal has legal groupings of at least 10 hu with different (score, hu, 番)."""
    rated = {
        (v.score, v.hu, v.fans)
        for v in (
            rate(groups, deal.hand, deal.ctx)
            for groups in all_groupings(deal.hand, deal.melds, deal.win)
            if legal_shape(groups) and sum(g.hu for g in groups) >= 10
        )
    }
    return len(rated) > 1


AMBIGUOUS_SEEDS = range(2)
AMBIGUOUS_PER_SEED = 100


@pytest.mark.parametrize("seed", AMBIGUOUS_SEEDS)
def test_analyzer_picks_the_best_of_several_groupings(seed: int) -> None:
    """R-7.1 on deals whose cards group several ways with different scores (only ~1-2% of
    random deals are such; these are drawn until enough are found)."""
    rng = random.Random(2_710 + seed)
    reports: list[str] = []
    found = draws = 0
    while found < AMBIGUOUS_PER_SEED and draws < 40_000:
        draws += 1
        deal = random_deal(rng, tangled=draws % 2 == 0)
        if not several_scores(deal):
            continue
        found += 1
        report = compare(deal)
        if report is not None:
            reports.append(report)
    assert found == AMBIGUOUS_PER_SEED, f"only {found} ambiguous deals in {draws} draws"
    assert not reports, f"{len(reports)} of {found} hands differ (seed {seed}):\n" + "\n".join(reports[:5])


# found by searching random deals; in each the grouping with the most hu is not the one
# with the highest score (the winning card makes a 开 of the 圈 card for 双圈, or a 对 for 圈胡).
SCORE_BEFORE_HU = [
    ("四五六九九贰贰贰柒捌玖玖拾拾", ["六六六", "三四五"], "贰", Ctx("own_flip", quan=2)),
    ("二二六六七七十十贰叁肆伍陆柒拾拾拾", ["六陆陆"], "拾", Ctx("own_flip", quan=10)),
    ("二二七七十十贰贰贰肆伍陆陆柒柒捌捌玖拾拾", [], "贰", Ctx("flip", di=True, quan=2)),
    ("五五五九九贰贰贰柒捌玖玖拾拾", ["二七十", "八八八"], "贰", Ctx("discard", quan=2)),
    ("二二二三七七七七十十贰贰叁叁柒柒捌玖拾拾", [], "贰", Ctx("flip", quan=2)),
]


@pytest.mark.parametrize(("hand", "melds", "win", "ctx"), SCORE_BEFORE_HU)
def test_analyzer_prefers_score_over_hu(hand: str, melds: list[str], win: str, ctx: Ctx) -> None:
    deal = Deal(tuple(to_ids(hand)), tuple(tuple(to_ids(m)) for m in melds), to_ids(win)[0], ctx)
    most_hu = max(
        sum(g.hu for g in groups) for groups in all_groupings(deal.hand, deal.melds, deal.win) if legal_shape(groups)
    )
    assert deal.reference().hu < most_hu, "not a score-versus-hu case"
    report = compare(deal)
    assert report is None, report


def by_char(waits: dict[int, tuple[int, int, tuple[str, ...]]]) -> dict[str, tuple[int, int, tuple[str, ...]]]:
    """Waits keyed by the card's character, for messages."""
    return {show([c]): v for c, v in sorted(waits.items())}


WAIT_SEEDS = range(3)
WAIT_HANDS_PER_SEED = 150  # 3 x 150 = 450 waiting hands


def random_waiting_hand(rng: random.Random) -> Deal:
    """A hand one card short (the winning card taken away), sometimes with a card swapped."""
    while True:
        deal = random_deal(rng, allow_tian=False)
        if deal.win is not None and deal.ctx.source != "tian":
            return Deal(deal.hand, deal.melds, None, deal.ctx)


@pytest.mark.parametrize("seed", WAIT_SEEDS)
def test_waits_match_brute_force(seed: int) -> None:
    rng = random.Random(70_210 + seed)
    reports: list[str] = []
    for _ in range(WAIT_HANDS_PER_SEED):
        deal = random_waiting_hand(rng)
        counts = deal.all_cards()
        want: dict[int, tuple[int, int, tuple[str, ...]]] = {}
        for c in range(N_IDS):
            if counts[c] < COPIES:
                v = brute_force(deal.hand, deal.melds, c, deal.ctx)
                if v.win:
                    want[c] = (v.score, v.hu, v.fans)
        analyzer = HandAnalyzer([Card(c) for c in deal.hand], [show(m) for m in deal.melds])
        waits = analyzer.waits(deal.ctx.api())
        got = {int(w.card): (w.result.score, w.result.hu, tuple(sorted(w.result.fan_names))) for w in waits}
        if got != want:
            reports.append(f"{deal}\n  expected waits: {by_char(want)}\n  got waits:      {by_char(got)}")
        for w in waits:  # each wait's grouping is a real, correctly scored partition
            won = Deal(deal.hand, deal.melds, int(w.card), deal.ctx)
            problems = grouping_problems(won, w.result) if w.result.is_win else ["a wait that does not win"]
            if problems:
                reports.append(f"{won}\n  wait result: {got_str(w.result)}\n  " + "; ".join(problems))
    assert not reports, f"{len(reports)} problems in {WAIT_HANDS_PER_SEED} waiting hands (seed {seed}):\n" + "\n".join(
        reports[:5]
    )

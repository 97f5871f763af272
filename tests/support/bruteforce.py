"""An independent brute-force scorer, written from ``RULES.md`` alone, slow and plain.

- R-1.1: 20 card identities, 0-9 the small ranks 一…十, 10-19 the big ranks 壹…拾, 4 copies each.
- R-3: the groups and their hu; R-3.1: three identical held cards are a locked 坎, four a
  locked 滚; R-3.2: the winning card completes a held pair into a 对, a held 坎 into a 开, or
  goes into any other group (leaving a 坎 whole); R-5.13 / R-10 ``yu``: it may also go onto an
  exposed 对, making an exposed 开 that grew on the table.
- R-4.4: a win is exactly 7 groups; no quad -> 7 triples; q >= 1 quads -> q quads,
  6 - q triples and one pair.
- R-6.1: a win needs at least 10 hu.
- R-7.1: the best grouping has the highest score, then the higher hu, then the fan list that
  sorts first; R-7.2 and R-10 ``tiers``: the base; R-7.3 and the R-10 switches: the 番;
  R-7.4: score = base * 2**番; R-10 ``tianhu``: 天胡 one or two 番, or a flat 100.

The reference enumerates every partition of the concealed cards plus the winning card into
groups, adds the exposed melds, keeps the legal ones and scores each. It reads a rule set's
option values (:class:`BRules`), never the project's scoring code. ``tests/test_bruteforce.py``
checks it on the worked cases and compares it with the analyzer on seeded random hands.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erqishi.core import (
    Card,
    HandAnalyzer,
    HandResult,
    NoWinReason,
    RuleSet,
    WinContext,
    WinSource,
    analyze_hand,
)

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
# the rule options the reference reads
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BRules:
    """The options of R-10 that scoring depends on, in the reference's own terms."""

    tiers: str = "seed"  # seed / app / jianwei
    tianhu: str = "one_fan"  # one_fan / two_fan / fixed_100
    yu: bool = False
    quan_fan: bool = True
    shuang_quan: bool = True
    tian_di_fan: bool = True
    kun_fan: bool = True
    piao_fan: bool = True

    @classmethod
    def of(cls, rules: RuleSet) -> BRules:
        """The options of a project rule set (its values only)."""
        options = rules.to_options()
        return cls(**{k: options[k] for k in cls.__dataclass_fields__})

    def api(self) -> RuleSet:
        """The same options as a project rule set."""
        return RuleSet.from_options({k: getattr(self, k) for k in self.__dataclass_fields__})

    def __str__(self) -> str:
        default = BRules()
        changed = {k: getattr(self, k) for k in self.__dataclass_fields__ if getattr(self, k) != getattr(default, k)}
        return json.dumps(changed, ensure_ascii=False) if changed else "leshan"


LESHAN = BRules()


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
    winning card, a 开 that grew on the table from an exposed 对 (yu)."""

    kind: str
    cards: tuple[int, ...]
    exposed: bool = False
    winning: bool = False
    yu: bool = False

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


@dataclass(frozen=True)
class Meld:
    """An exposed meld: its cards, and for 4 identical whether it is a 开 made under ``yu``
    onto an exposed 对 (written ``三三三+三``)."""

    cards: tuple[int, ...]
    yu: bool = False

    def text(self) -> str:
        """Card notation for ``parse_meld`` (cases/README.md; ``+`` for the yu 开)."""
        if self.yu:
            return show(self.cards[:3]) + "+" + show(self.cards[3:])
        return show(self.cards)


def meld_group(meld: Meld) -> BGroup:
    """An exposed meld as ``cases/README.md`` reads it: 3 identical = 对, 4 identical = 开,
    otherwise a 吃/摆 group."""
    c = tuple(sorted(meld.cards))
    if is_same(c, 3):
        return BGroup("dui", c, exposed=True)
    if is_same(c, 4):
        return BGroup("kai", c, exposed=True, yu=meld.yu)
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


def all_groupings(
    hand: Sequence[int], melds: Sequence[Meld], win: int | None, rules: BRules = LESHAN
) -> Iterator[list[BGroup]]:
    """Every grouping of hand + melds + winning card that respects R-3.1, R-3.2 and R-5.13 (not
    yet checked against R-4.4)."""
    held = [0] * N_IDS
    for c in hand:
        held[c] += 1
    exposed = [meld_group(m) for m in melds]
    # under yu: the winning card onto an exposed 对 makes an exposed 开 (grown on the table)
    if rules.yu and win is not None:
        for i, g in enumerate(exposed):
            if g.kind == "dui" and g.cards[0] == win:
                onto = [*exposed[:i], BGroup("kai", (win,) * 4, True, True, True), *exposed[i + 1 :]]
                yield from _with_hand(held, onto, None)
    yield from _with_hand(held, exposed, win)


def _with_hand(held: list[int], exposed: list[BGroup], win: int | None) -> Iterator[list[BGroup]]:
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


def round_half_up_5(hu: int) -> int:
    """hu rounded half up to a multiple of 5 (R-7.2)."""
    return (hu // 5) * 5 + (5 if hu % 5 >= 3 else 0)


def base_of(hu: int, tiers: str = "seed") -> int:
    """R-7.2 (``seed``) and R-10 (``app``, ``jianwei``), from the tables as written."""
    assert hu >= 10
    if tiers == "seed":
        for top, base in ((14, 10), (20, 20), (22, 40), (27, 50), (30, 60)):
            if hu <= top:
                return base
        return 4 * round_half_up_5(hu)
    if tiers == "app":  # 10-14:10, 15-20:20, 21-24:40, 25-30:60, >=31:100
        for top, base in ((14, 10), (20, 20), (24, 40), (30, 60)):
            if hu <= top:
                return base
        return 100
    assert tiers == "jianwei"  # 10:10, 11-20:20, 21-30:40, >=31:80
    for top, base in ((10, 10), (20, 20), (30, 40)):
        if hu <= top:
            return base
    return 80


def held_ejs(hand: Sequence[int]) -> bool:
    """The hand holds all three of 二 七 十 of one size (R-7.3 瞟胡)."""
    have = set(hand)
    return any(all(ident(s, r) in have for r in (2, 7, 10)) for s in (0, 1))


def fans_of(groups: Sequence[BGroup], hand: Sequence[int], ctx: Ctx, rules: BRules = LESHAN) -> list[tuple[str, int]]:
    """R-7.3 under the R-10 switches: (name, 番) of each doubling that applies, sorted by
    name's code point. A switched-off 番 is not listed."""
    fans: list[tuple[str, int]] = []
    if rules.tian_di_fan:
        if ctx.source == "tian":
            fans.append(("天胡", 2 if rules.tianhu == "two_fan" else 1))
        if ctx.di:
            fans.append(("地胡", 1))
    if rules.kun_fan and all(g.hu >= 1 for g in groups if g.kind != "pair"):
        fans.append(("坤胡", 1))
    # 瞟胡: no 坎, no 滚, no 开 grown from a 坎 (a yu 开 grew on the table), and the hand did not
    # hold a whole 二七十 of one size before the winning card
    from_hand = any(g.kind in ("kan", "gun") or (g.kind == "kai" and not g.yu) for g in groups)
    if rules.piao_fan and not from_hand and not held_ejs(hand):
        fans.append(("瞟胡", 1))
    if rules.quan_fan and ctx.quan is not None:
        quan_card = ident(1, ctx.quan)
        for g in groups:
            if g.cards[0] == quan_card and g.kind in ("dui", "kan"):
                fans.append(("圈胡", 1))
            if g.cards[0] == quan_card and g.kind in QUADS:
                fans.append(("双圈", 2) if rules.shuang_quan else ("圈胡", 1))
    return sorted(fans)


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


def rate(groups: Sequence[BGroup], hand: Sequence[int], ctx: Ctx, rules: BRules = LESHAN) -> Verdict:
    """Hu, base, 番 and score of one legal grouping with >= 10 hu (R-7.1 - R-7.4, R-10)."""
    hu = sum(g.hu for g in groups)
    base = base_of(hu, rules.tiers)
    if ctx.source == "tian" and rules.tianhu == "fixed_100":
        # a flat 100 whatever the hu, no other 番, listed as 天胡 (unless tian_di_fan off)
        return Verdict(True, hu, base, ("天胡",) if rules.tian_di_fan else (), 100, tuple(groups))
    fans = fans_of(groups, hand, ctx, rules)
    n_fan = sum(n for _, n in fans)
    return Verdict(True, hu, base, tuple(name for name, _ in fans), base * 2**n_fan, tuple(groups))


def better(a: Verdict, b: Verdict) -> bool:
    """R-7.1: higher score, then higher hu, then the fan list that sorts first."""
    if a.score != b.score:
        return a.score > b.score
    if a.hu != b.hu:
        return a.hu > b.hu
    return list(a.fans) < list(b.fans)


def brute_force(
    hand: Sequence[int], melds: Sequence[Meld], win: int | None, ctx: Ctx, rules: BRules = LESHAN
) -> Verdict:
    """The reference: the best legal grouping of at least 10 hu, or no win."""
    best = Verdict(False)
    for groups in all_groupings(hand, melds, win, rules):
        if not legal_shape(groups) or sum(g.hu for g in groups) < 10:
            continue
        v = rate(groups, hand, ctx, rules)
        if not best.win or better(v, best):
            best = v
    return best


# ---------------------------------------------------------------------------------------------
# Deals, and the comparison with the analyzer
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One hand to analyse: concealed cards before the win, exposed melds, winning card,
    context and rules."""

    hand: tuple[int, ...]
    melds: tuple[Meld, ...]
    win: int | None
    ctx: Ctx
    rules: BRules = LESHAN

    def __str__(self) -> str:
        melds = " ".join(m.text() for m in self.melds) or "-"
        win = show([self.win]) if self.win is not None else "-"
        return f"hand={show(sorted(self.hand))} melds=[{melds}] win={win} ctx={self.ctx} rules={self.rules}"

    def all_cards(self) -> Counter[int]:
        cards = Counter(self.hand)
        for m in self.melds:
            cards.update(m.cards)
        if self.win is not None:
            cards[self.win] += 1
        return cards

    def analyzer(self) -> HandAnalyzer:
        return HandAnalyzer([Card(c) for c in self.hand], [m.text() for m in self.melds], self.rules.api())

    def analyze(self) -> HandResult:
        return analyze_hand(
            [Card(c) for c in self.hand],
            [m.text() for m in self.melds],
            Card(self.win) if self.win is not None else None,
            self.ctx.api(),
            self.rules.api(),
        )

    def reference(self) -> Verdict:
        return brute_force(self.hand, self.melds, self.win, self.ctx, self.rules)


def got_str(r: HandResult) -> str:
    if not r.is_win:
        return f"no win ({r.reason})"
    groups = " ".join(show([int(c) for c in g.cards]) for g in r.groups)
    return f"win hu={r.hu} base={r.base} fans={sorted(r.fan_names)} score={r.score} groups=[{groups}]"


def grouping_problems(deal: Deal, r: HandResult) -> list[str]:
    """Why the analyzer's reported grouping is not a legal, correctly scored partition of the
    deal (empty when it is)."""
    problems: list[str] = []
    groups = [
        BGroup(g.kind.value, tuple(sorted(int(c) for c in g.cards)), g.exposed, g.winning, g.yu) for g in r.groups
    ]
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
        if g.yu and not (g.kind == "kai" and g.exposed):
            problems.append(f"{g.kind} {show(g.cards)} marked yu")
    # the melds stay on the table; a yu 开 made by the winning card was its exposed 对
    table = sorted(
        BGroup("dui", g.cards[:3], exposed=True) if g.yu and g.winning else g
        for g in groups
        if g.exposed and (not g.winning or g.yu)
    )
    if table != sorted(meld_group(m) for m in deal.melds):
        problems.append("exposed groups differ from the melds")
    winning = [g for g in groups if g.winning]
    if deal.win is None and winning:
        problems.append("a group holds a winning card in a 天胡")
    if deal.win is not None and (len(winning) != 1 or deal.win not in winning[0].cards):
        problems.append("not exactly one group holds the winning card")
    if any(g.yu and g.winning for g in groups) and not deal.rules.yu:
        problems.append("the winning card went onto an exposed 对 without yu")
    held = Counter(deal.hand)
    for c, n in held.items():  # locks
        if n >= 3 and not any(g.cards[0] == c and g.kind in ("kan", "kai", "gun") and not g.exposed for g in groups):
            problems.append(f"locked {show([c] * n)} was split")
    if not legal_shape(groups):
        problems.append("grouping breaks R-4.4")
    if sum(g.hu for g in groups) != r.hu:
        problems.append(f"group hu sum {sum(g.hu for g in groups)} != hu {r.hu}")
    if not problems and r.is_win:
        v = rate(groups, deal.hand, deal.ctx, deal.rules)
        if (list(v.fans), v.score) != (sorted(r.fan_names), r.score):
            problems.append(f"reported grouping scores {v} by R-7, analyzer says {r.fan_names} {r.score}")
    return problems


def compare(deal: Deal) -> str | None:
    """None when the analyzer agrees with the reference on ``deal``, else a report. Checked:
    win or not, hu, base, 番, score, the grouping shown (a legal partition scoring as said),
    ``HandAnalyzer.score`` (the engine's path through ``could_win``), and the reason of a
    non-win with a legal grouping under 10 hu."""
    want = deal.reference()
    try:
        r = deal.analyze()
        win = Card(deal.win) if deal.win is not None else None
        quick = deal.analyzer().score(win, deal.ctx.api())
    except Exception as exc:  # report, do not stop the run
        return f"{deal}\n  expected: {want}\n  got: {type(exc).__name__}: {exc}"
    problems: list[str] = []
    if quick != r.score:
        problems.append(f"HandAnalyzer.score says {quick}, evaluate {r.score}")
    if r.is_win != want.win:
        problems.append("is_win differs")
    elif want.win:
        if (r.hu, r.base, sorted(r.fan_names), r.score) != (want.hu, want.base, list(want.fans), want.score):
            problems.append("hu/base/fans/score differ")
        problems += grouping_problems(deal, r)
        fixed_tian = deal.ctx.source == "tian" and deal.rules.tianhu == "fixed_100"
        if r.score != (100 if fixed_tian else r.base * 2**r.fan_count):
            problems.append("score != base * 2**fan_count")
    else:
        if r.score != 0:
            problems.append("score of a non-win is not 0")
        # HandResult's documented contract: cards that group legally but under 10 hu
        # report UNDER_10 and the grouping with the most hu.
        legal = [
            sum(g.hu for g in groups)
            for groups in all_groupings(deal.hand, deal.melds, deal.win, deal.rules)
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
        return Deal(tuple(hand), deal.melds, win, deal.ctx, deal.rules)
    if roll < 0.16:
        spare = [c for c in range(N_IDS) if counts[c] < COPIES]
        hand.append(rng.choice(spare))
        return Deal(tuple(hand), deal.melds, win, deal.ctx, deal.rules)
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
    return Deal(tuple(hand), deal.melds, win, deal.ctx, deal.rules)


def random_deal(rng: random.Random, allow_tian: bool = True, tangled: bool = False, rules: BRules = LESHAN) -> Deal:
    """A complete structure, then melds, winning card and context; sometimes a near-win.

    Under ``yu`` an exposed quad is sometimes a 开 made onto an exposed 对 (a yu meld), and
    sometimes the winning card is the fourth card onto an exposed 对."""
    tian = allow_tian and rng.random() < 0.1
    groups = random_structure(rng, tian, tangled)
    if tian:
        hand = tuple(c for _, cards in groups for c in cards)
        quan = random_quan(rng, Counter(hand))
        deal = Deal(hand, (), None, Ctx("tian", False, quan), rules)
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
        melds: list[Meld] = []
        yu_win: int | None = None
        for tag, cards in tagged:
            if tag == "quad" and rules.yu and yu_win is None and rng.random() < 0.35:
                melds.append(Meld(cards[:3]))  # the winning card goes onto this 对
                yu_win = cards[0]
            else:
                melds.append(Meld(cards, yu=tag == "quad" and rules.yu and rng.random() < 0.5))
        pool = [c for _, cards in concealed for c in cards]
        if yu_win is not None:
            win = yu_win
        else:
            # Often the winning card comes from identical cards (held 2 or 3 times after removal).
            sames = [cards[0] for tag, cards in concealed if tag in ("same", "quad")]
            win = rng.choice(sames) if sames and rng.random() < 0.4 else rng.choice(pool)
            pool.remove(win)
        rng.shuffle(pool)
        cards_all = Counter(pool + [win] + [c for m in melds for c in m.cards])
        deal = Deal(tuple(pool), tuple(melds), win, random_context(rng, cards_all), rules)
    if rng.random() < 0.35:
        deal = perturb(rng, deal)
    assert deal.hand and max(deal.all_cards().values()) <= COPIES
    # 天胡 is the dealer's 21 dealt cards and 地胡 a non-dealer's 20, both before any meld
    # other shapes are refused as input, so draw again.
    if deal.ctx.source == "tian" and len(deal.hand) != 21:
        return random_deal(rng, allow_tian, tangled, rules)
    if deal.ctx.di and (deal.melds or len(deal.hand) != 20):
        return random_deal(rng, allow_tian, tangled, rules)
    return deal


def random_waiting_hand(rng: random.Random, rules: BRules = LESHAN) -> Deal:
    """A hand one card short (the winning card taken away), sometimes with a card swapped."""
    while True:
        deal = random_deal(rng, allow_tian=False, rules=rules)
        if deal.win is not None and deal.ctx.source != "tian":
            return Deal(deal.hand, deal.melds, None, deal.ctx, rules)


# ---------------------------------------------------------------------------------------------
# The worked cases
# ---------------------------------------------------------------------------------------------


def case_deal(case: dict[str, Any]) -> Deal:
    """A worked case (``cases/README.md``) as a deal, under its ``ruleset`` if it names one."""
    c = case["context"]
    ctx = Ctx("tian" if c.get("tian") else c.get("win_source", "discard"), bool(c.get("di")), c.get("quan"))
    win = to_ids(case["win"])[0] if case["win"] is not None else None
    melds = tuple(Meld(tuple(to_ids(m.replace("+", ""))), yu="+" in m) for m in case["melds"])  # 三三三+三: a yu 开
    rules = BRules.of(RuleSet.load(case["ruleset"])) if "ruleset" in case else LESHAN
    return Deal(tuple(to_ids(case["hand"])), melds, win, ctx, rules)


def load_cases(shared: Path, name: str) -> list[dict[str, Any]]:
    """The worked cases of ``shared/cases/<name>``, read in place."""
    cases: list[dict[str, Any]] = json.loads((shared / "cases" / name).read_text(encoding="utf-8"))
    return cases

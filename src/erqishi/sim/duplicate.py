"""Duplicate evaluation: ``erqishi sim --duplicate``.

Every deal is played once per arrangement of the bots over the seats, so that each bot
holds every seat's cards of that deal, the way duplicate bridge and Mortal's evaluation
remove the luck of the deal: by default the ``n`` rotations (in game ``r`` of a deal, seat
``s`` is played by ``bots[(s + r) % n]``), with ``permutations`` all ``n!`` orders.

The deal (dealer, hands and stock order) of deal ``d`` comes from ``(seed, d)`` alone, and
the dealer moves round the seats from deal to deal. The generator of a seat's bot comes
from ``(seed, d, seat)``, the same in every arrangement, so two bots that would choose
alike in a seat choose alike whoever else sits at the table.

The result is an ordinary :class:`~erqishi.sim.stats.SimResult` (every game a hand, in
deal order, so it is stored, listed and replayed like every other run) with a
:class:`DuplicateSummary`: per bot name its mean payment per deal, which is its mean over
the deal's games (score units, R-8; a seat that sits a hand out with four players gets 0),
with a 95% interval over the deals, and for every pair of names the mean per-deal
difference with the 95% interval of those paired differences. The per-deal values of a
deal hold the same cards for every bot, so the paired interval is narrower than the
intervals of independent hands.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from erqishi.bots import make_bot
from erqishi.core import RuleSet
from erqishi.core.engine import Deal
from erqishi.play import play_hand, table_chooser
from erqishi.sim.runner import ChunkBackend, LocalPool, chunk_bounds, sim_hand, validate_bots
from erqishi.sim.stats import SimHand, SimResult, mean_ci95

__all__ = [
    "DuplicateSummary",
    "NameStats",
    "PairStats",
    "arrangements",
    "duplicate_rngs",
    "play_duplicate_deal",
    "render_duplicate",
    "run_duplicate",
    "summarize_duplicate",
]


def arrangements(
    players: int, *, permutations: bool = False, bots: Sequence[str] | None = None
) -> tuple[tuple[int, ...], ...]:
    """Per game of a deal, per seat, the index into the bot list playing it: the rotations,
    or every permutation. With ``bots`` (the bot list), an arrangement that seats the same
    names as an earlier one is left out: the same bot in the same seat with the same
    generator plays the same game, so it would be played twice for nothing (each name
    still sits in every seat equally often).

    >>> arrangements(3)
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    >>> len(arrangements(4, permutations=True))
    24
    >>> len(arrangements(4, permutations=True, bots=["a", "b", "c", "a"]))
    12
    >>> arrangements(4, bots=["a", "b", "a", "b"])
    ((0, 1, 2, 3), (1, 2, 3, 0))
    """
    if permutations:
        every: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(players)))
    else:
        every = tuple(tuple((s + r) % players for s in range(players)) for r in range(players))
    if bots is None:
        return every
    seen: set[tuple[str, ...]] = set()
    kept = []
    for entries in every:
        seating = tuple(bots[e] for e in entries)
        if seating not in seen:
            seen.add(seating)
            kept.append(entries)
    return tuple(kept)


def duplicate_rngs(seed: int, deal: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """The generators of deal ``deal`` of a duplicate run seeded ``seed``: one for the deal
    and one per seat, derived from ``(seed, deal)`` only (new ones on every call, each game
    of the deal starting from the same)."""
    base = random.Random(f"erqishi-duplicate:{seed}:{deal}")
    deal_rng = random.Random(base.getrandbits(64))
    seat_seeds = [base.getrandbits(64) for _ in range(players)]
    return deal_rng, [random.Random(s) for s in seat_seeds]


def play_duplicate_deal(
    seed: int, deal: int, bots: Sequence[str], rules: RuleSet, *, permutations: bool = False
) -> list[tuple[SimHand, dict[str, object]]]:
    """Play deal ``deal`` once per arrangement: each game's compact result (its ``index`` is
    ``deal * games + game``) and its record (FORMATS.md)."""
    n = rules.players
    plan = arrangements(n, permutations=permutations, bots=bots)
    deal_rng, _ = duplicate_rngs(seed, deal, n)
    the_deal = Deal.shuffled(deal_rng, deal % n, rules)
    out: list[tuple[SimHand, dict[str, object]]] = []
    for g, entries in enumerate(plan):
        seats = tuple(bots[e] for e in entries)
        _, seat_rngs = duplicate_rngs(seed, deal, n)
        played = play_hand(the_deal, table_chooser([make_bot(name) for name in seats], seat_rngs), rules, seats=seats)
        hand = sim_hand(deal * len(plan) + g, entries, seats, the_deal, played.outcome)
        out.append((hand, played.to_json()))
    return out


def _play_chunk(
    seed: int, start: int, stop: int, bots: tuple[str, ...], rules: RuleSet, permutations: bool
) -> list[list[tuple[SimHand, dict[str, object]]]]:
    return [play_duplicate_deal(seed, d, bots, rules, permutations=permutations) for d in range(start, stop)]


@dataclass(frozen=True, slots=True)
class NameStats:
    """One bot name in a duplicate run.

    Attributes:
        name: the bot name.
        deals: deals played.
        mean: mean payment per deal (its mean over the deal's games), score units.
        ci95: the 95% interval of ``mean`` over the deals (:func:`~erqishi.sim.mean_ci95`).
    """

    name: str
    deals: int
    mean: float
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """``{"deals", "mean_per_deal", "ci95"}``; ``ci95`` is null with fewer than two deals
        (no spread is known)."""
        ci = [self.ci95[0], self.ci95[1]] if self.deals >= 2 else None
        return {"deals": self.deals, "mean_per_deal": self.mean, "ci95": ci}


@dataclass(frozen=True, slots=True)
class PairStats:
    """The paired comparison of two bot names over the same deals.

    Attributes:
        a, b: the names.
        mean: mean over the deals of (a's value − b's value) for the deal, score units.
        ci95: the 95% interval of ``mean`` from those paired differences.
        deals: how many deals (paired differences) there are.
    """

    a: str
    b: str
    mean: float
    ci95: tuple[float, float]
    deals: int

    @property
    def significant(self) -> bool:
        """The interval leaves out 0; never with fewer than two deals (no spread is known)."""
        return self.deals >= 2 and (self.ci95[0] > 0 or self.ci95[1] < 0)

    def to_json(self) -> dict[str, Any]:
        """``{"a", "b", "mean_difference", "ci95", "significant"}``; ``ci95`` is null with
        fewer than two deals."""
        return {
            "a": self.a,
            "b": self.b,
            "mean_difference": self.mean,
            "ci95": [self.ci95[0], self.ci95[1]] if self.deals >= 2 else None,
            "significant": self.significant,
        }


@dataclass(frozen=True, slots=True)
class DuplicateSummary:
    """The duplicate statistics of a run (see the module text).

    Attributes:
        deals: deals played.
        games_per_deal: games of each deal (arrangements).
        permutations: every permutation was played (else the rotations).
        names: per bot name, its mean per deal.
        pairs: per pair of names (in bot-list order), the paired difference.
        per_deal: per deal, per name, its value for the deal (for checks and plots).
    """

    deals: int
    games_per_deal: int
    permutations: bool
    names: dict[str, NameStats]
    pairs: tuple[PairStats, ...]
    per_deal: tuple[dict[str, float], ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, without the per-deal values."""
        return {
            "deals": self.deals,
            "games_per_deal": self.games_per_deal,
            "arrangements": "permutations" if self.permutations else "rotations",
            "bots": {name: s.to_json() for name, s in self.names.items()},
            "pairs": [p.to_json() for p in self.pairs],
        }


def summarize_duplicate(
    bots: Sequence[str], hands: Sequence[SimHand], games_per_deal: int, *, permutations: bool = False
) -> DuplicateSummary:
    """The duplicate statistics of ``hands`` (every game of every deal, in order).

    A name's value for a deal is the mean over the deal's games of the payments of its
    seats (a name entered twice counts both seats, so the values of a deal sum to 0 when
    each name is entered once; a seat sitting out is paid 0).

    Raises:
        ValueError: the hands are not whole deals.
    """
    if games_per_deal < 1 or len(hands) % games_per_deal:
        raise ValueError(f"{len(hands)} games are not whole deals of {games_per_deal}")
    names = list(dict.fromkeys(bots))
    copies = {name: sum(1 for b in bots if b == name) for name in names}
    per_deal: list[dict[str, float]] = []
    for start in range(0, len(hands), games_per_deal):
        totals = dict.fromkeys(names, 0.0)
        for hand in hands[start : start + games_per_deal]:
            for seat, entry in enumerate(hand.entries):
                totals[bots[entry]] += hand.payments[seat]
        per_deal.append({name: totals[name] / (games_per_deal * copies[name]) for name in names})
    stats: dict[str, NameStats] = {}
    for name in names:
        mean, lo, hi = mean_ci95([d[name] for d in per_deal])
        stats[name] = NameStats(name, len(per_deal), mean, (lo, hi))
    pairs = []
    for a, b in itertools.combinations(names, 2):
        mean, lo, hi = mean_ci95([d[a] - d[b] for d in per_deal])
        pairs.append(PairStats(a, b, mean, (lo, hi), len(per_deal)))
    return DuplicateSummary(len(per_deal), games_per_deal, permutations, stats, tuple(pairs), tuple(per_deal))


def run_duplicate(
    deals: int,
    seed: int,
    bots: list[str],
    rules: RuleSet,
    *,
    permutations: bool = False,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    keep_records: bool = True,
    backend: ChunkBackend | None = None,
    on_hands: Callable[[list[tuple[int, SimHand, dict[str, object]]]], None] | None = None,
) -> SimResult:
    """Play ``deals`` deals in duplicate between ``bots`` (one name per seat; names may
    repeat): a :class:`SimResult` whose hands are every game in deal order and whose
    ``duplicate`` holds the :class:`DuplicateSummary`. The result is the same for any
    worker count.

    Args:
        deals: number of deals (≥ 0); ``deals × games per deal`` hands are played.
        seed: the run's seed; deal ``d`` is seeded from ``(seed, d)``.
        bots: bot names, ``len(bots) == rules.players``.
        rules: the rule set.
        permutations: every permutation of the bots over the seats instead of the rotations.
        workers: processes; 1 plays here, more use a local process pool.
        progress: called with the number of games just completed.
        keep_records: keep every game's record (for the store).
        backend: where to play the chunks of deals (``workers`` is then unused): a
            :class:`~erqishi.sim.runner.LocalPool` or a
            :class:`~erqishi.sim.ray_backend.RayBackend`; by default this process
            (``workers == 1``) or a local pool of ``workers``. The result is the same.
        on_hands: called with ``(index, hand, record)`` of the games just finished (game
            ``g`` of deal ``d`` is hand ``d × games + g``), as :func:`~erqishi.sim.run_sim`.

    Raises:
        ValueError: wrong bot count, unknown bot, negative ``deals`` or ``workers < 1``.
    """
    names = validate_bots(bots, rules)
    if deals < 0:
        raise ValueError(f"deals must be ≥ 0, got {deals}")
    if workers < 1:
        raise ValueError(f"workers must be ≥ 1, got {workers}")
    games = len(arrangements(rules.players, permutations=permutations, bots=names))
    results: list[list[tuple[SimHand, dict[str, object]]] | None] = [None] * deals
    if backend is None and (workers == 1 or deals <= 1):
        for d in range(deals):
            deal = results[d] = play_duplicate_deal(seed, d, names, rules, permutations=permutations)
            if on_hands is not None:
                on_hands([(d * games + g, *game) for g, game in enumerate(deal)])
            if progress is not None:
                progress(games)
    else:
        on = backend if backend is not None else LocalPool(workers)
        bounds = chunk_bounds(deals, on.workers)
        calls = [(seed, start, stop, names, rules, permutations) for start, stop in bounds]
        for k, chunk in on.map_chunks(_play_chunk, calls):
            first = bounds[k][0]
            for offset, item in enumerate(chunk):
                results[first + offset] = item
            if on_hands is not None:
                done = [((first + o) * games + g, *game) for o, deal in enumerate(chunk) for g, game in enumerate(deal)]
                on_hands(done)
            if progress is not None:
                progress(games * len(chunk))
    played = [game for deal in results if deal is not None for game in deal]
    assert len(played) == deals * games
    hands = tuple(h for h, _ in played)
    return SimResult(
        seed=seed,
        bots=names,
        rules=rules,
        hands=hands,
        records=tuple(rec for _, rec in played) if keep_records else (),
        duplicate=summarize_duplicate(names, hands, games, permutations=permutations),
    )


def render_duplicate(summary: DuplicateSummary, players: int | None = None) -> Group:
    """The duplicate statistics as rich tables: per bot name its mean payment per deal with
    the 95% interval; per pair of names the paired difference with its interval. With
    ``players`` 4 a line says that a hand a bot sits out counts 0 (so its mean per deal is
    not its mean per hand played)."""
    how = "每种排列各一次 once per permutation" if summary.permutations else "每种轮换各一次 once per rotation"
    # titles and keys are lines of their own: a table's own title wraps at the table's width
    title = Text(f"复式 duplicate: 每副牌平均收付（分）mean payment per deal (score units), 每副牌 every deal {how}")
    table = Table()
    table.add_column("牌手\nbot", overflow="fold")
    table.add_column("副数\ndeals", justify="right", overflow="fold")
    table.add_column("每副平均\nmean per deal", justify="right", overflow="fold")
    table.add_column("95% 区间\nCI", justify="right", overflow="fold")
    for name, s in summary.names.items():
        ci = f"[{s.ci95[0]:+.2f}, {s.ci95[1]:+.2f}]" if summary.deals >= 2 else "—"
        table.add_row(name, str(s.deals), f"{s.mean:+.2f}", ci)
    size = Text(f"{summary.deals} 副 deals × {summary.games_per_deal} 手 hands each")
    if players == 4:
        size.append("\n四人：轮空的一手记 0 four players: a hand a bot sits out counts 0 in its mean per deal")
    if not summary.pairs:
        return Group(title, table, size)
    pairs = Table()
    pairs.add_column("a − b", overflow="fold")
    pairs.add_column("平均\nmean", justify="right", overflow="fold")
    pairs.add_column("95% 区间\nCI", justify="right", overflow="fold")
    for p in summary.pairs:
        mark = " *" if p.significant else ""
        ci = f"[{p.ci95[0]:+.2f}, {p.ci95[1]:+.2f}]{mark}" if summary.deals >= 2 else "—"
        pairs.add_row(f"{p.a} − {p.b}", f"{p.mean:+.2f}", ci)
    if summary.deals < 2:
        key = "—: 只有一副牌，没有区间 one deal: no interval (the spread needs two deals or more)"
    elif any(p.significant for p in summary.pairs):  # the mark's key only where a mark is shown
        key = "* 区间不含 0 the interval leaves out 0"
    else:
        key = "没有区间不含 0 no interval leaves out 0"
    return Group(title, table, size, Text("每副牌的配对差 paired differences per deal (a − b)"), pairs, Text(key))

"""Results of a bot-vs-bot run and their summary: win rates, mean payments with 95%
confidence intervals, mean hu of wins, 番 frequencies and the dead-hand (荒庄) rate.

Payments are in score units per hand (R-8): what a seat received (positive) or paid
(negative) in one hand, 0 for a dead hand (R-8.3). They sum to 0 over the seats of a hand.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from rich.console import Group
from rich.table import Table
from rich.text import Text

from erqishi.core import RuleSet
from erqishi.play.narrate import TEMPLATES, term

if TYPE_CHECKING:
    from erqishi.sim.duplicate import DuplicateSummary

__all__ = [
    "BotStats",
    "EntryStats",
    "SimHand",
    "SimResult",
    "SimSummary",
    "mean_ci95",
    "render_summary",
    "summarize",
]

#: z for a two-sided 95% normal interval.
Z95 = 1.96

#: Student's t for a two-sided 95% interval (the 0.975 quantile), by degrees of freedom 1-30
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval with ``df`` degrees of freedom:
    from the table up to 30, beyond by the Cornish-Fisher expansion around z (within 0.001).

    Raises:
        ValueError: ``df`` below 1.

    >>> t95(1), t95(9), round(t95(100), 3), round(t95(10**6), 3)
    (12.706, 2.262, 1.984, 1.96)
    """
    if df < 1:
        raise ValueError(f"t95: degrees of freedom must be at least 1, got {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True, slots=True)
class SimHand:
    """One played hand of a run, compactly (the full record is kept apart).

    Attributes:
        index: the hand's number in the run, from 0.
        entries: per seat, the index into the run's bot list of the entry playing it.
        seats: per seat, the bot name playing it.
        active: per seat, whether it was dealt in (with 4 players one seat sits out, R-10).
        kind: ``"win"`` or ``"dead"``.
        winner: the winning seat, or None for a dead hand.
        payments: per seat, in score units (R-8), summing to 0.
        hu: the winner's hu (R-7.1), or None for a dead hand.
        fans: the names of the winner's 番 (R-7.3); empty for a dead hand.
    """

    index: int
    entries: tuple[int, ...]
    seats: tuple[str, ...]
    active: tuple[bool, ...]
    kind: Literal["win", "dead"]
    winner: int | None
    payments: tuple[int, ...]
    hu: int | None = None
    fans: tuple[str, ...] = ()


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% confidence interval ``(mean, lo, hi)``.

    Student's t: ``mean ± t95(n − 1) · sd / √n`` with the sample standard deviation
    (divisor n − 1); for thousands of values that is the normal ``1.96``, for a few it is
    wider, as it must be. With fewer than two values the spread is unknown: the interval
    is ``[mean, mean]`` (and ``(0, 0, 0)`` for no values), and callers must not read
    anything into it (see :attr:`~erqishi.sim.duplicate.PairStats.significant`).

    >>> mean_ci95([10, -10, 0, 0])[0], round(mean_ci95([10, -10, 0, 0])[2], 4)
    (0.0, 12.9905)
    """
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = math.fsum(values) / n
    if n < 2:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var) / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True, slots=True)
class BotStats:
    """The results of one bot (by name, or one entry of the bot list).

    Attributes:
        name: the bot name.
        hands: hands played (seats dealt in; a name entered twice counts both seats).
        wins: hands won.
        total_payment: the sum of payments, in score units.
        mean_payment: mean net payment per hand, in score units per hand (0 for a dead hand).
        ci95: the 95% confidence interval of ``mean_payment`` (see :func:`mean_ci95`).
        sd: the sample standard deviation of the payment per hand, in score units.
        mean_hu: the mean hu of the wins, or None without wins.
        fans: how often each 番 occurred among the wins, most frequent first.
        samples: the independent samples ``ci95`` rests on: the hands played, counted
            once each for a name entered at several seats (:func:`clustered_ci95`); with
            fewer than two there is no interval.
    """

    name: str
    hands: int
    wins: int
    total_payment: int
    mean_payment: float
    ci95: tuple[float, float]
    sd: float
    mean_hu: float | None
    fans: tuple[tuple[str, int], ...]
    samples: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per hand played (0 when no hands)."""
        return self.wins / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``hands``, ``mean_payment``, ``ci95``, ``win_rate`` and extras."""
        return {
            "hands": self.hands,
            "mean_payment": self.mean_payment,
            "ci95": [self.ci95[0], self.ci95[1]],
            "win_rate": self.win_rate,
            "wins": self.wins,
            "total_payment": self.total_payment,
            "sd": self.sd,
            "mean_hu": self.mean_hu,
            "fans": dict(self.fans),
        }


@dataclass(frozen=True, slots=True)
class EntryStats:
    """One entry of the bot list: its stats and how often it sat at each seat.

    Attributes:
        entry: the index into the run's bot list.
        stats: the entry's results.
        seat_hands: per seat, the hands the entry played there (dealt in).
    """

    entry: int
    stats: BotStats
    seat_hands: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the entry index, the bot stats and ``seat_hands``."""
        out: dict[str, Any] = {"entry": self.entry, "bot": self.stats.name, **self.stats.to_json()}
        out["seat_hands"] = list(self.seat_hands)
        return out


@dataclass(frozen=True, slots=True)
class SimSummary:
    """The summary of a run: per bot name, per entry, and the dead-hand rate."""

    bots: dict[str, BotStats]
    entries: tuple[EntryStats, ...]
    hands: int
    dead_hands: int

    @property
    def dead_rate(self) -> float:
        """Dead hands (荒庄, R-6.5) per hand played (0 when no hands)."""
        return self.dead_hands / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"bots": {NAME: {...}}, "dead_rate": d, "hands": n, "entries": [...]}``."""
        return {
            "bots": {name: s.to_json() for name, s in self.bots.items()},
            "dead_rate": self.dead_rate,
            "hands": self.hands,
            "entries": [e.to_json() for e in self.entries],
        }


def clustered_ci95(clusters: Sequence[tuple[float, int]]) -> tuple[float, float, float]:
    """The mean per seat and its 95% interval ``(mean, lo, hi)`` of samples that come in
    clusters sharing a hand: each cluster is ``(total, count)``, the sum of a bot's payments
    at its ``count`` seats of one hand. Seats of one hand are not independent (two seats of
    one bot at a table of three pay, between them, what the third seat wins), so the hand
    is the sample: the ratio estimator ``Σ total / Σ count`` with its linearised variance
    ``Σ (total − mean·count)² / (H (H − 1) m̄²)`` over the H hands, and Student's t with
    H − 1 degrees of freedom. With one seat per hand it is :func:`mean_ci95`.

    >>> clustered_ci95([(10, 1), (-10, 1), (0, 1), (0, 1)]) == mean_ci95([10, -10, 0, 0])
    True
    >>> clustered_ci95([(-5, 2), (-5, 2), (7, 2), (3, 2)])[0]  # per seat
    0.0
    """
    sums = [0.0] * 6
    for t, m in clusters:
        add_cluster(sums, t, m)
    return clustered_ci95_of_sums(sums)


def add_cluster(sums: list[float], total: float, count: int) -> None:
    """Add one hand's ``(total, count)`` to running sums ``[H, Σt, Σm, Σt², Σt·m, Σm²]``
    (a hand where the bot had no seat adds nothing)."""
    if count > 0:
        sums[0] += 1
        sums[1] += total
        sums[2] += count
        sums[3] += total * total
        sums[4] += total * count
        sums[5] += count * count


def clustered_ci95_of_sums(sums: Sequence[float]) -> tuple[float, float, float]:
    """:func:`clustered_ci95` from its running sums ``[H, Σt, Σm, Σt², Σt·m, Σm²]``
    (:func:`add_cluster`), for an interval after every hand of a run:
    ``Σ (t − mean·m)² = Σt² − 2·mean·Σt·m + mean²·Σm²``."""
    h, st, sm, stt, stm, smm = sums
    if h == 0 or sm == 0:
        return 0.0, 0.0, 0.0
    mean = st / sm
    if h < 2:
        return mean, mean, mean
    m_bar = sm / h
    spread = max(0.0, stt - 2 * mean * stm + mean * mean * smm)
    half = t95(int(h) - 1) * math.sqrt(spread / (h * (h - 1) * m_bar * m_bar))
    return mean, mean - half, mean + half


def _bot_stats(
    name: str,
    payments: Sequence[int],
    hus: Sequence[int],
    fans: Counter[str],
    clusters: Sequence[tuple[float, int]] | None = None,
) -> BotStats:
    mean, lo, hi = mean_ci95(payments) if clusters is None else clustered_ci95(clusters)
    n = len(payments)
    sd = math.sqrt(math.fsum((p - mean) ** 2 for p in payments) / (n - 1)) if n >= 2 else 0.0
    return BotStats(
        name=name,
        hands=n,
        wins=len(hus),
        total_payment=sum(payments),
        mean_payment=mean,
        ci95=(lo, hi),
        sd=sd,
        mean_hu=math.fsum(hus) / len(hus) if hus else None,
        fans=tuple(sorted(fans.items(), key=lambda kv: (-kv[1], kv[0]))),
        samples=n if clusters is None else sum(1 for _, m in clusters if m > 0),
    )


def summarize(bots: Sequence[str], hands: Sequence[SimHand]) -> SimSummary:
    """Summarize ``hands`` (in hand order) for the bot list ``bots``.

    Each entry of ``bots`` is tracked on its own, and every entry of the same name is
    pooled under that name (its mean per seat and hand). Seats that sat out a hand (4
    players) are not counted as played. The interval of a name entered more than once
    takes the hand as the sample (:func:`clustered_ci95`): its seats at one table are not
    independent.
    """
    n = len(bots)
    pay: list[list[int]] = [[] for _ in range(n)]
    hus: list[list[int]] = [[] for _ in range(n)]
    fans: list[Counter[str]] = [Counter() for _ in range(n)]
    seat_hands = [[0] * n for _ in range(n)]
    dead = 0
    for hand in hands:
        if hand.kind == "dead":
            dead += 1
        for seat, entry in enumerate(hand.entries):
            if not hand.active[seat]:
                continue
            seat_hands[entry][seat] += 1
            pay[entry].append(hand.payments[seat])
            if hand.kind == "win" and hand.winner == seat:
                hus[entry].append(hand.hu if hand.hu is not None else 0)
                fans[entry].update(hand.fans)
    entries = tuple(EntryStats(e, _bot_stats(bots[e], pay[e], hus[e], fans[e]), tuple(seat_hands[e])) for e in range(n))
    by_name: dict[str, BotStats] = {}
    for name in dict.fromkeys(bots):
        idx = [e for e in range(n) if bots[e] == name]
        # Pool in hand order so the result does not depend on how entries are listed.
        pooled: list[int] = []
        pooled_hu: list[int] = []
        clusters: list[tuple[float, int]] = []
        for hand in hands:
            total, count = 0, 0
            for seat, entry in enumerate(hand.entries):
                if entry in idx and hand.active[seat]:
                    pooled.append(hand.payments[seat])
                    total += hand.payments[seat]
                    count += 1
                    if hand.kind == "win" and hand.winner == seat:
                        pooled_hu.append(hand.hu if hand.hu is not None else 0)
            clusters.append((total, count))
        pooled_fans: Counter[str] = Counter()
        for e in idx:
            pooled_fans.update(fans[e])
        by_name[name] = _bot_stats(name, pooled, pooled_hu, pooled_fans, clusters if len(idx) > 1 else None)
    return SimSummary(by_name, entries, len(hands), dead)


@dataclass(frozen=True, slots=True)
class SimResult:
    """A finished run.

    Attributes:
        seed: the run's seed (every hand's seeds derive from it and the hand index).
        bots: the bot list, one entry per seat (hand i seats ``bots[(s + i) % n]`` at seat s).
        rules: the rule set.
        hands: every hand, in hand order.
        records: every hand's record (FORMATS.md), in hand order, or empty when not kept.
        summary: the statistics of ``hands``.
        duplicate: for a duplicate run (:mod:`erqishi.sim.duplicate`), the per-deal
            statistics; None otherwise.
    """

    seed: int
    bots: tuple[str, ...]
    rules: RuleSet
    hands: tuple[SimHand, ...]
    records: tuple[dict[str, object], ...] = ()
    summary: SimSummary = field(init=False)
    duplicate: DuplicateSummary | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "summary", summarize(self.bots, self.hands))

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON: ``{"bots": {NAME: {"hands", "mean_payment", "ci95",
        "win_rate", ...}}, "dead_rate": d, ...}`` plus the run's seed, bot list and rules;
        a duplicate run adds ``"duplicate"`` (per-deal means and intervals) and its per-hand
        ``ci95`` are null, under ``bots`` and ``entries`` (the games of one deal are not
        independent)."""
        out = self.summary.to_json()
        out["seed"] = self.seed
        out["bot_list"] = list(self.bots)
        out["rules"] = self.rules.to_spec()
        if self.duplicate is not None:
            out["duplicate"] = self.duplicate.to_json()
            # the games of a deal are not independent: no per-hand interval, per bot or per
            # entry of the bot list (see "duplicate" for the per-deal ones)
            for stats in [*out["bots"].values(), *out["entries"]]:
                stats["ci95"] = None
        return out


def _fmt(x: float) -> str:
    return f"{x:+.2f}" if x else "0.00"


def render_summary(result: SimResult | SimSummary, *, top_fans: int | None = None) -> Group:
    """The summary as rich tables that never cut a cell (any width from 60 columns): per
    bot name its hands, win rate, mean payment ± the 95% CI half-width (score units per
    hand, R-8) and the mean hu of wins, with the hands and the dead-hand rate below; then
    how often each bot won with each 番 (R-7.3), one row per 番 (the ``top_fans`` most
    frequent over all bots, or every one), or a line saying no win had a 番.

    Headers wrap at their spaces; numbers and names are single words, so a narrow terminal
    wraps a header or a cell between words, never inside one."""
    summary = result.summary if isinstance(result, SimResult) else result
    # in a duplicate run the games of one deal share its cards: not independent, so the
    # intervals are the per-deal ones of render_duplicate, none per hand
    duplicate = isinstance(result, SimResult) and result.duplicate is not None
    title = Text("战绩 bot results (每手收付，以分计 payments in score units per hand)")
    rows = []
    for name, s in summary.bots.items():
        half = (s.ci95[1] - s.ci95[0]) / 2
        if duplicate:
            mean = _fmt(s.mean_payment)
        else:
            mean = f"{_fmt(s.mean_payment)} ±{half:.2f}" if s.samples >= 2 else f"{_fmt(s.mean_payment)} ±—"
        rows.append(
            (
                name,
                str(s.hands),
                f"{s.win_rate:.1%}",
                mean,
                f"{s.mean_hu:.1f}" if s.mean_hu is not None else "—",
            )
        )
    heads = (
        "牌手\nbot",
        "手数\nhands",
        "胜率\nwin rate",
        "平均收付\nmean payment" if duplicate else "平均收付 ± 95% 区间\nmean payment ± 95% CI",
        "胡牌平均胡数\nmean hu of wins",
    )
    table = Table()
    for i, head in enumerate(heads):
        # no column is narrower than its longest word: a number is never split or cut
        widest = max((len(word) for row in rows for word in row[i].split()), default=1)
        table.add_column(head, justify="left" if i == 0 else "right", overflow="fold", min_width=widest)
    for row in rows:
        table.add_row(*row)
    size = Text(f"{summary.hands} 手 hands, 荒庄率 dead-hand rate {summary.dead_rate:.1%}")
    if duplicate:
        size.append(
            "\n复式：同一副牌的各手不独立，区间按副牌见下 "
            "duplicate: the games of a deal are not independent; the intervals are per deal, below"
        )
    elif any(s.samples < 2 for s in summary.bots.values()):
        size.append("\n±—: 只有一手，没有区间 one hand: no interval (the spread needs two hands or more)")
    totals: Counter[str] = Counter()
    for s in summary.bots.values():
        totals.update(dict(s.fans))
    fans = sorted(totals, key=lambda f: (-totals[f], f))[:top_fans]
    if not fans:
        return Group(title, table, size, Text("番 fan: 没有带番的胡牌 no win had a 番"))
    fan_title = Text("胡牌的番 番 of the wins (各番胡牌次数 times won with each)")
    fan_table = Table()
    fan_table.add_column("番", overflow="fold")
    for name in summary.bots:
        fan_table.add_column(name, justify="right", overflow="fold")
    for fan in fans:
        shown = term("fan", fan, "en") if f"fan_{fan}" in TEMPLATES else fan  # "瞟胡 (all hu from the table)"
        fan_table.add_row(shown, *(str(dict(s.fans).get(fan, 0)) for s in summary.bots.values()))
    return Group(title, table, size, fan_title, fan_table)

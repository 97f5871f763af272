"""Reports: ``erqishi sim … --report FILE.html`` and ``erqishi report --run ID``.

One self-contained HTML page per run, in Chinese and English side by side, with plotly
charts (plotly.js is inlined in the page, so it opens without a network): the running mean
payment per bot with its 95% interval, the win rate and the firing rate (抬炮 per hand) per
seat counted from the dealer, the hu of the wins, the 番 seen, how hands ended (with the
荒庄 rate) and the bots' ratings over the run's hands (:mod:`erqishi.sim.ratings`).

Payments are in score units per hand (R-8), 0 for a dead hand. Intervals are 95%
intervals ``mean ± t · sd / √n`` (sample sd, Student's t, as :func:`erqishi.sim.mean_ci95`);
for a bot entered at more than one seat the hand is the sample, its seats at one table not
being independent (:func:`erqishi.sim.stats.clustered_ci95`).

Everything comes from the hands' records (FORMATS.md: the deal's dealer, who was dealt in,
the result's winner, source, hu, 番 and payments), so a stored run and the run just played
give the same page. plotly is the ``report`` extra (``pip install 'erqishi[report]'``);
this module imports it only when a page is drawn.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import select

from erqishi.sim.ratings import RatingTable, games_of_hands, rate_games, reading
from erqishi.sim.stats import Z95, SimResult, add_cluster, clustered_ci95, clustered_ci95_of_sums
from erqishi.sim.store import RUN_STATUS_ZH, RecordNotKeptError, run_state
from erqishi.storage.schema import sim_hands, sim_runs

__all__ = [
    "FIGURE_IDS",
    "MAX_POINTS",
    "OUTCOMES",
    "NameSummary",
    "OutcomeShare",
    "ReportHand",
    "RunPoint",
    "RunReport",
    "SeatRate",
    "load_report",
    "name_summaries",
    "outcome_shares",
    "render_html",
    "report_from_result",
    "report_ratings",
    "running_means",
    "seat_rates",
    "write_report",
]

#: Points per line of the running-mean chart, at most (the last hand is always one).
MAX_POINTS = 400

#: How a hand ended, in the order the outcome chart shows them (R-6.4, R-6.5).
OUTCOMES: tuple[tuple[str, str, str], ...] = (
    ("discard", "抬炮", "won on a discard"),
    ("flip", "翻胡", "won on another's flip"),
    ("own_flip", "自摸", "won on an own flip"),
    ("tian", "天胡", "dealt a win"),
    ("dead", "荒庄", "dead hand"),
)


@dataclass(frozen=True, slots=True)
class ReportHand:
    """What the report needs of one hand, read from its record.

    Attributes:
        index: the hand's number in the run, from 0.
        seats: per seat, the bot playing it.
        active: per seat, whether it was dealt in (one seat sits out with four players).
        dealer: the dealer's seat.
        kind: ``"win"`` or ``"dead"``.
        winner: the winning seat, None for a dead hand.
        source: how the win came (``discard``, ``flip``, ``own_flip``, ``tian``), None for
            a dead hand.
        payments: per seat, in score units (R-8).
        hu: the winner's hu, None for a dead hand.
        fans: the winner's 番 names.
    """

    index: int
    seats: tuple[str, ...]
    active: tuple[bool, ...]
    dealer: int
    kind: Literal["win", "dead"]
    winner: int | None
    source: str | None
    payments: tuple[int, ...]
    hu: int | None
    fans: tuple[str, ...]

    @property
    def firer(self) -> int | None:
        """The seat that fired (抬炮): on a win on a discard, the one seat that paid (R-8.2)."""
        if self.source != "discard":
            return None
        payers = [s for s, p in enumerate(self.payments) if p < 0]
        return payers[0] if len(payers) == 1 else None

    @classmethod
    def from_record(cls, index: int, record: Mapping[str, Any]) -> ReportHand:
        """The hand of a record (FORMATS.md) with its ``result``.

        Raises:
            ValueError: the record lacks its seats, deal or result, or they do not fit.
        """
        try:
            seats = tuple(str(s) for s in record["seats"])
            deal = record["deal"]
            result = record["result"]
            active = tuple(bool(str(h).strip()) for h in deal["hands"])
            payments = tuple(int(p) for p in result["payments"])
            win = result["kind"] == "win"
            hand = cls(
                index=index,
                seats=seats,
                active=active,
                dealer=int(deal["dealer"]),
                kind="win" if win else "dead",
                winner=int(result["winner"]) if win else None,
                source=str(result["source"]) if win else None,
                payments=payments,
                hu=int(result["hu"]) if win else None,
                fans=tuple(str(f) for f in result.get("fan") or ()) if win else (),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"hand {index}: not a finished hand record ({type(exc).__name__}: {exc})") from None
        if not len(seats) == len(active) == len(payments):
            raise ValueError(f"hand {index}: {len(seats)} seats, {len(active)} hands and {len(payments)} payments")
        return hand


@dataclass(frozen=True, slots=True)
class RunReport:
    """A run, as the report shows it.

    Attributes:
        hands: every hand, in hand order.
        bots: the run's bot list (one entry per seat).
        seed: the run's seed.
        rules: the rule set as text (a preset name or JSON options).
        run_id: the stored run's id, or None for a run not stored.
        created: when it was stored (UTC), or None.
        duplicate: whether it was a duplicate run (every deal once per arrangement).
        planned: the hands the run was to play (None: as many as it has).
        status: ``done``, or ``interrupted``/``running`` for a run stored before its end.
        paired: a duplicate run's per-deal statistics as ``erqishi sim --json`` gives them
            (``DuplicateSummary.to_json``: each bot's mean per deal and the paired
            differences, with their 95% intervals), or None.
    """

    hands: tuple[ReportHand, ...]
    bots: tuple[str, ...]
    seed: int
    rules: str
    run_id: int | None = None
    created: datetime | None = None
    duplicate: bool = False
    planned: int | None = None
    status: str = "done"
    paired: dict[str, Any] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The bot names, each once, in the order of the bot list."""
        return tuple(dict.fromkeys(self.bots))


def report_from_result(result: SimResult, run_id: int | None = None, created: datetime | None = None) -> RunReport:
    """The report of a run just played (``run_sim`` / ``run_duplicate`` with its records).

    Raises:
        ValueError: the result kept no records (``keep_records=False``), or one is malformed.
    """
    if len(result.records) != len(result.hands):
        raise ValueError("a report needs every hand's record: run with keep_records=True")
    hands = tuple(ReportHand.from_record(h.index, rec) for h, rec in zip(result.hands, result.records, strict=True))
    paired = result.duplicate.to_json() if result.duplicate is not None else None
    return RunReport(
        hands, result.bots, result.seed, str(result.rules), run_id, created, paired is not None, paired=paired
    )


def load_report(url: str, run_id: int) -> RunReport:
    """The report of the stored run ``run_id`` in the database ``url`` (an SQLite file path
    or a URL).

    Raises:
        LookupError: no such run.
        RecordNotKeptError: a hand was stored without its record (a LookupError).
        ValueError: ``url`` is not a supported database, or a record is malformed.
        sqlalchemy.exc.OperationalError: the database cannot be opened or migrated.
    """
    with reading(url) as engine, engine.connect() as conn:
        run = conn.execute(select(sim_runs).where(sim_runs.c.id == run_id)).one_or_none()
        if run is None:
            raise LookupError(f"no sim run {run_id}")
        rows = conn.execute(
            select(sim_hands.c.idx, sim_hands.c.record).where(sim_hands.c.run_id == run_id).order_by(sim_hands.c.idx)
        ).all()
    hands = []
    for row in rows:
        if row.record is None:
            raise RecordNotKeptError(f"hand {row.idx} of sim run {run_id} was stored without its record")
        hands.append(ReportHand.from_record(int(row.idx), row.record))
    summary = run.summary if isinstance(run.summary, dict) else {}
    created: datetime = run.created
    status = run_state(summary)  # "done" (no status), or running/interrupted (its process gone)
    return RunReport(
        tuple(hands),
        tuple(str(b) for b in run.bots),
        int(run.seed),
        str(run.rules),
        int(run.id),
        created,
        "duplicate" in summary,
        int(run.hands),
        status,
        summary["duplicate"] if isinstance(summary.get("duplicate"), dict) else None,
    )


# -- the figures' numbers ----------------------------------------------------------------


def proportion_ci95(count: int, total: int) -> tuple[float, float]:
    """The 95% interval of the share ``count / total`` (Wilson's score interval: it stays
    within 0-1, and is not empty for 0 or all, as a normal interval of few hands is not).

    >>> [round(x, 3) for x in proportion_ci95(1, 4)]
    [0.046, 0.699]
    """
    if total <= 0:
        return 0.0, 0.0
    z = Z95
    p = count / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class RunPoint:
    """One point of a running mean: after ``hand`` hands of the run, the bot's mean payment
    per hand played so far (score units) and its 95% interval, over ``n`` payments."""

    hand: int
    n: int
    mean: float
    lo: float
    hi: float


def running_means(report: RunReport, max_points: int = MAX_POINTS) -> dict[str, list[RunPoint]]:
    """Per bot name, its running mean payment: a point after every hand (or after evenly
    spaced hands, at most ``max_points``, always the last). A name at several seats counts
    each seat's payment; seats not dealt in are not counted. The last point is the bot's
    mean over the run.

    Raises:
        ValueError: ``max_points < 2``.
    """
    if max_points < 2:
        raise ValueError(f"max_points must be ≥ 2, got {max_points}")
    total = len(report.hands)
    if total <= max_points:
        keep = set(range(total))
    else:
        keep = {round(k * (total - 1) / (max_points - 1)) for k in range(max_points)}
    # per name, over the hands so far: [hands, Σ t, Σ m, Σ t², Σ t·m, Σ m²] of its payments t
    # at its m seats of each hand (the hand is the sample: clustered_ci95)
    sums = {name: [0.0] * 6 for name in report.names}
    counts = dict.fromkeys(report.names, 0)
    out: dict[str, list[RunPoint]] = {name: [] for name in report.names}
    for k, hand in enumerate(report.hands):
        totals: dict[str, list[int]] = {}
        for seat, name in enumerate(hand.seats):
            if hand.active[seat] and name in sums:
                tm = totals.setdefault(name, [0, 0])
                tm[0] += hand.payments[seat]
                tm[1] += 1
        for name, (t, m) in totals.items():
            add_cluster(sums[name], t, m)
            counts[name] += m
        if k in keep:
            for name in report.names:
                if counts[name]:
                    mean, lo, hi = clustered_ci95_of_sums(sums[name])
                    out[name].append(RunPoint(k + 1, counts[name], mean, lo, hi))
    return out


@dataclass(frozen=True, slots=True)
class SeatRate:
    """A bot at one seat counted from the dealer (0 the dealer, 1 the next, …): the hands it
    played there, its wins and its 抬炮 (discards won on), with their rates per hand."""

    name: str
    seat: int
    hands: int
    wins: int
    fires: int

    @property
    def win_rate(self) -> float:
        """Wins per hand (0 without hands)."""
        return self.wins / self.hands if self.hands else 0.0

    @property
    def fire_rate(self) -> float:
        """抬炮 per hand (0 without hands)."""
        return self.fires / self.hands if self.hands else 0.0


def seat_rates(report: RunReport) -> list[SeatRate]:
    """Per bot name and seat from the dealer (``(seat − dealer) mod players``), the hands
    dealt in, wins and 抬炮; only seats where the bot played, by name then seat."""
    hands: Counter[tuple[str, int]] = Counter()
    wins: Counter[tuple[str, int]] = Counter()
    fires: Counter[tuple[str, int]] = Counter()
    for hand in report.hands:
        n = len(hand.seats)
        firer = hand.firer
        for seat, name in enumerate(hand.seats):
            if not hand.active[seat]:
                continue
            key = (name, (seat - hand.dealer) % n)
            hands[key] += 1
            wins[key] += hand.winner == seat
            fires[key] += firer == seat
    order = {name: i for i, name in enumerate(report.names)}
    keys = sorted(hands, key=lambda k: (order.get(k[0], len(order)), k[0], k[1]))
    return [SeatRate(name, seat, hands[(name, seat)], wins[(name, seat)], fires[(name, seat)]) for name, seat in keys]


@dataclass(frozen=True, slots=True)
class OutcomeShare:
    """How many hands ended one way (``key`` of :data:`OUTCOMES`), of ``total``."""

    key: str
    count: int
    total: int

    @property
    def rate(self) -> float:
        """The share of hands (0 without hands)."""
        return self.count / self.total if self.total else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval of ``rate`` (:func:`proportion_ci95`)."""
        return proportion_ci95(self.count, self.total)


def outcome_shares(report: RunReport) -> list[OutcomeShare]:
    """How the hands ended: per source of the win (R-6.4), and dead hands (荒庄, R-6.5)."""
    seen = Counter(h.source if h.kind == "win" else "dead" for h in report.hands)
    total = len(report.hands)
    keys = [k for k, _, _ in OUTCOMES] + sorted(k for k in seen if k not in {o[0] for o in OUTCOMES} and k)
    return [OutcomeShare(k, seen.get(k, 0), total) for k in keys]


@dataclass(frozen=True, slots=True)
class NameSummary:
    """A bot name over the run: hands dealt in, wins, mean payment per hand (score units)
    with its 95% interval, the hu of its wins, and its 番 (most frequent first)."""

    name: str
    hands: int
    wins: int
    mean: float
    ci95: tuple[float, float]
    hus: tuple[int, ...]
    fans: tuple[tuple[str, int], ...]
    #: the hands the interval rests on (a name at two seats of a hand counts it once)
    samples: int = 0

    @property
    def mean_hu(self) -> float | None:
        """The mean hu of the wins, None without wins."""
        return sum(self.hus) / len(self.hus) if self.hus else None


def name_summaries(report: RunReport) -> list[NameSummary]:
    """Per bot name (in bot-list order) its results over the run."""
    out = []
    for name in report.names:
        n = 0
        wins = 0
        hus: list[int] = []
        fans: Counter[str] = Counter()
        clusters: list[tuple[float, int]] = []  # per hand: the name's payments and seats
        for hand in report.hands:
            total = count = 0
            for seat, who in enumerate(hand.seats):
                if who != name or not hand.active[seat]:
                    continue
                total, count = total + hand.payments[seat], count + 1
                if hand.winner == seat:
                    wins += 1
                    hus.append(hand.hu or 0)
                    fans.update(hand.fans)
            clusters.append((total, count))
            n += count
        # a name at two seats of one table: the hand is the sample (clustered_ci95)
        mean, lo, hi = clustered_ci95(clusters)
        ranked = tuple(sorted(fans.items(), key=lambda kv: (-kv[1], kv[0])))
        samples = sum(1 for _, m in clusters if m > 0)
        out.append(NameSummary(name, n, wins, mean, (lo, hi), tuple(hus), ranked, samples))
    return out


def report_ratings(report: RunReport) -> RatingTable:
    """The bots' ratings over the run's hands alone (:func:`~erqishi.sim.ratings.rate_games`)."""
    return rate_games(games_of_hands(((h.seats, h.payments, h.active) for h in report.hands), key="run"))


# -- the page ----------------------------------------------------------------------------

_FONT = "'WenQuanYi Micro Hei', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
_COLORS = ("#c0392b", "#2c3e50", "#27ae60", "#8e44ad", "#d35400", "#16a085")
_CONFIG = {"displaylogo": False, "responsive": True}
_ERRORS = {"type": "data", "visible": True, "color": "#555555"}


def _seat_label(seat: int) -> str:
    return "庄家<br>dealer" if seat == 0 else f"庄家后第{seat}家<br>dealer+{seat}"


def _layout(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "font": {"family": _FONT, "size": 13},
        "height": 420,
        "margin": {"l": 70, "r": 20, "t": 30, "b": 70},
        "legend": {"orientation": "h", "y": -0.2, "traceorder": "normal"},
        "template": "plotly_white",
    }
    base.update(extra)
    return base


def _rgba(color: str, alpha: float) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _figures(report: RunReport, table: RatingTable) -> list[tuple[str, str, str, str, str, Any]]:
    """The charts: ``(id, title zh, title en, note zh, note en, figure)``."""
    import plotly.graph_objects as go

    names = report.names
    color = {name: _COLORS[i % len(_COLORS)] for i, name in enumerate(names)}
    figs: list[tuple[str, str, str, str, str, Any]] = []

    # a duplicate run plays each deal several times: its hands are not independent, so no
    # chart gets an interval over hands (the per-deal ones are in the table)
    dup = report.duplicate
    no_band_zh, no_band_en = (
        "复式：同一副牌的几局不独立，不画区间。",
        "Duplicate: the games of a deal are not independent, so no interval is drawn.",
    )
    running = go.Figure()
    means = running_means(report)
    # the first few hands' intervals are wide: the axis shows the band from 10 payments on
    steady = [p for points in means.values() for p in points if p.n >= 10] or [
        p for points in means.values() for p in points
    ]
    if dup:
        low, high = min((p.mean for p in steady), default=-1.0), max((p.mean for p in steady), default=1.0)
    else:
        low, high = min((p.lo for p in steady), default=-1.0), max((p.hi for p in steady), default=1.0)
    pad = max(1.0, (high - low) * 0.1)
    for name, points in means.items():
        xs = [p.hand for p in points]
        if not dup:
            running.add_trace(
                go.Scatter(
                    x=xs + xs[::-1],
                    y=[p.hi for p in points] + [p.lo for p in points][::-1],
                    fill="toself",
                    fillcolor=_rgba(color[name], 0.18),
                    line={"width": 0},
                    hoverinfo="skip",
                    showlegend=False,
                    name=f"{name} 95%",
                )
            )
        running.add_trace(
            go.Scatter(x=xs, y=[p.mean for p in points], mode="lines", name=name, line={"color": color[name]})
        )
    running.update_layout(
        _layout(
            xaxis={"title": {"text": "手数 hands played"}},
            yaxis={"title": {"text": "平均收付 mean payment"}, "range": [low - pad, high + pad]},
        )
    )
    figs.append(
        (
            "chart-running",
            "每手平均收付（累计）" if dup else "每手平均收付（累计，带 95% 区间）",
            "Running mean payment per hand" + ("" if dup else ", with its 95% interval"),
            "分数单位/手；荒庄为 0。" + (no_band_zh if dup else "阴影为 95% 区间。"),
            "Score units per hand; 0 for a dead hand. " + (no_band_en if dup else "The band is the 95% interval."),
            running,
        )
    )

    rates = seat_rates(report)
    for key, zh, en, attr, count_attr in (
        (
            "chart-win-rate",
            "各座位胜率（从庄家数起）",
            "Win rate per seat, counted from the dealer",
            "win_rate",
            "wins",
        ),
        (
            "chart-fire-rate",
            "各座位抬炮率（每手抬炮次数）",
            "Firing rate per seat (抬炮 per hand: discards won on)",
            "fire_rate",
            "fires",
        ),
    ):
        fig = go.Figure()
        for name in names:
            mine = [r for r in rates if r.name == name]
            ys = [getattr(r, attr) for r in mine]
            bounds = [proportion_ci95(getattr(r, count_attr), r.hands) for r in mine]
            fig.add_trace(
                go.Bar(
                    x=[_seat_label(r.seat) for r in mine],
                    y=ys,
                    name=name,
                    marker={"color": color[name]},
                    error_y=None
                    if dup
                    else {
                        **_ERRORS,
                        "array": [max(0.0, hi - y) for y, (_, hi) in zip(ys, bounds, strict=True)],
                        "arrayminus": [max(0.0, y - lo) for y, (lo, _) in zip(ys, bounds, strict=True)],
                    },
                    customdata=[[r.hands, getattr(r, count_attr)] for r in mine],
                    hovertemplate="%{y:.1%} (%{customdata[1]}/%{customdata[0]})",
                )
            )
        fig.update_layout(_layout(barmode="group", yaxis={"tickformat": ".0%", "rangemode": "tozero"}))
        note_zh, note_en = (no_band_zh, no_band_en) if dup else ("误差线为 95% 区间。", "Error bars: 95% intervals.")
        figs.append((key, zh, en, note_zh, note_en, fig))

    summaries = name_summaries(report)
    hu = go.Figure()
    for s in summaries:
        counts = Counter(s.hus)
        xs = sorted(counts)
        hu.add_trace(go.Bar(x=xs, y=[counts[x] for x in xs], name=s.name, marker={"color": color[s.name]}))
    hu.update_layout(
        _layout(
            barmode="stack",
            xaxis={"title": {"text": "胡数 hu"}, "dtick": 1},
            yaxis={"title": {"text": "胡牌次数 wins"}},
        )
    )
    figs.append(
        (
            "chart-hu",
            "胡牌的胡数分布",
            "Hu of the wins",
            "每次胡牌计胡家的胡数（R-7.1）。",
            "The winner's hu of each win (R-7.1).",
            hu,
        )
    )

    fan_totals: Counter[str] = Counter()
    for s in summaries:
        fan_totals.update(dict(s.fans))
    fan_names = sorted(fan_totals, key=lambda f: (fan_totals[f], f))
    fans = go.Figure()
    for s in summaries:
        won = dict(s.fans)
        fans.add_trace(
            go.Bar(
                y=fan_names,
                x=[won.get(f, 0) for f in fan_names],
                name=s.name,
                orientation="h",
                marker={"color": color[s.name]},
            )
        )
    fans.update_layout(_layout(barmode="stack", xaxis={"title": {"text": "胡牌次数 wins"}}))
    if not fan_names:
        fans.add_annotation(
            text="没有带番的胡牌 · no win had a 番", showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper"
        )
    figs.append(
        (
            "chart-fan",
            "出现的番",
            "The 番 seen",
            "带各番的胡牌次数（R-7.3）；一次胡牌可有几番。",
            "Wins with each 番 (R-7.3); a win may have several.",
            fans,
        )
    )

    shares = outcome_shares(report)
    labels = {k: f"{zh}<br>{en}" for k, zh, en in OUTCOMES}
    outcome = go.Figure(
        go.Bar(
            x=[labels.get(s.key, s.key) for s in shares],
            y=[s.rate for s in shares],
            marker={"color": ["#7f8c8d" if s.key == "dead" else "#2980b9" for s in shares]},
            error_y=None
            if dup
            else {
                **_ERRORS,
                "array": [max(0.0, s.ci95[1] - s.rate) for s in shares],
                "arrayminus": [max(0.0, s.rate - s.ci95[0]) for s in shares],
            },
            customdata=[[s.count, s.total] for s in shares],
            hovertemplate="%{y:.1%} (%{customdata[0]}/%{customdata[1]})<extra></extra>",
        )
    )
    outcome.update_layout(_layout(yaxis={"tickformat": ".0%", "rangemode": "tozero"}, showlegend=False))
    dead = next(s for s in shares if s.key == "dead")
    lo, hi = dead.ci95
    interval_zh = "" if dup else f"（95% 区间 {lo:.1%}–{hi:.1%}）"
    interval_en = "" if dup else f" (95% interval {lo:.1%}–{hi:.1%})"
    figs.append(
        (
            "chart-outcome",
            f"牌局结果；荒庄率 {dead.rate:.1%}{interval_zh}",
            f"How hands ended; dead-hand (荒庄) rate {dead.rate:.1%}{interval_en}",
            "胡牌按来源（R-6.4）分，荒庄（R-6.5）另列。" + (no_band_zh if dup else ""),
            "Wins by their source (R-6.4), and dead hands (R-6.5)." + (" " + no_band_en if dup else ""),
            outcome,
        )
    )

    ranked = list(table.ratings)
    ratings = go.Figure(
        go.Scatter(
            x=[r.player.name for r in ranked],
            y=[r.mu for r in ranked],
            mode="markers",
            marker={"size": 12, "color": [color.get(r.player.name, "#333333") for r in ranked]},
            error_y={**_ERRORS, "array": [3 * r.sigma for r in ranked]},
            customdata=[[r.sigma, r.ordinal, r.games] for r in ranked],
            hovertemplate="μ %{y:.2f}, σ %{customdata[0]:.2f}, μ−3σ %{customdata[1]:.2f}"
            " (%{customdata[2]})<extra></extra>",
            showlegend=False,
        )
    )
    ratings.update_layout(_layout(yaxis={"title": {"text": "μ ± 3σ"}}))
    figs.append(
        (
            "chart-ratings",
            "等级分（本次对局，OpenSkill Plackett-Luce）",
            "Ratings over this run (OpenSkill Plackett-Luce)",
            "每手一局，按收付排名（相同收付并列）。点为 μ，误差线为 ±3σ，下端即保守分 μ−3σ。",
            "Each hand a game, ranked by its payments (ties shared). The dot is μ, the bar ±3σ; "
            "its lower end is the conservative ordinal μ − 3σ.",
            ratings,
        )
    )
    return figs


def _fmt(x: float) -> str:
    return f"{x:+.2f}" if x else "0.00"


_STYLE = """
body { font-family: FONT; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin: 1.6em 0 0.2em; }
.en { color: #555; } p.note { margin: 0.2em 0; font-size: 0.92em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { vertical-align: bottom; } th span { display: block; font-weight: normal; color: #555; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; } dd { margin: 0; }
""".replace("FONT", _FONT)


def _th(zh: str, en: str) -> str:
    return f"<th>{html.escape(zh)}<span>{html.escape(en)}</span></th>"


def render_html(report: RunReport) -> str:
    """The report page: one self-contained HTML document (UTF-8 text), plotly.js inlined,
    no reference to anything outside the page. The same report gives the same page.

    Raises:
        ImportError: plotly is not installed (the ``report`` extra).
    """
    import plotly.io as pio
    from plotly.offline import get_plotlyjs

    table = report_ratings(report)
    summaries = name_summaries(report)
    ratings = {r.player.name: r for r in table.ratings}
    esc = html.escape
    if report.run_id is not None:
        run = f"第 {report.run_id} 次对局 · run {report.run_id}"
    else:
        run = "未保存的对局 · unsaved run"
    title = f" {report.run_id}" if report.run_id is not None else ""
    meta = [
        ("对局 run", run),
        ("机器人 bots", ", ".join(report.bots)),
        ("种子 seed", str(report.seed)),
        ("规则 rules", report.rules),
        ("手数 hands", str(len(report.hands)) + ("（复式 duplicate）" if report.duplicate else "")),
    ]
    if report.status != "done" or (report.planned is not None and report.planned != len(report.hands)):
        zh = RUN_STATUS_ZH.get(report.status, report.status)
        planned = report.planned if report.planned is not None else len(report.hands)
        meta.append(
            (
                "状态 status",
                f"{zh} {report.status}：{len(report.hands)} / {planned} 手 hands stored "
                "(未打完的对局 the run stopped before its end)",
            )
        )
    if report.created is not None:
        meta.append(("保存于 stored (UTC)", report.created.strftime("%Y-%m-%d %H:%M:%S")))
    parts = [
        "<!DOCTYPE html>",
        '<html lang="zh-CN">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>贰柒拾 机器人对局报告 · erqishi bot run report{title}</title>",
        f"<style>{_STYLE}</style>",
        f'<script type="text/javascript">{get_plotlyjs()}</script>',
        "</head>",
        "<body>",
        '<h1>贰柒拾 机器人对局报告 <span class="en">· erqishi bot run report</span></h1>',
        "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in meta) + "</dl>",
        '<h2>各机器人结果 <span class="en">· Results per bot</span></h2>',
        (
            '<p class="note">收付为分数单位/手（R-8），荒庄为 0。复式：同一副牌的各手不独立，'
            "不给每手的区间（按副牌的区间见下面的复式对比）。"
            '<span class="en"> Payments in score units per hand (R-8), 0 for a dead hand. Duplicate: the '
            "games of a deal are not independent, so no per-hand interval is given (the per-deal ones "
            "are in the duplicate comparison below).</span></p>"
            if report.duplicate
            else '<p class="note">收付为分数单位/手（R-8），荒庄为 0；区间为 95%。'
            '<span class="en"> Payments in score units per hand (R-8), 0 for a dead hand; 95% intervals.</span></p>'
        ),
        '<table id="summary"><thead><tr>'
        + _th("机器人", "bot")
        + _th("手数", "hands")
        + _th("胜率", "win rate")
        + (_th("平均收付", "mean payment") if report.duplicate else _th("平均收付 ± 95%", "mean payment ± 95%"))
        + _th("胡牌平均胡数", "mean hu of wins")
        + _th("保守分 μ−3σ", "ordinal")
        + _th("μ", "mean skill")
        + _th("σ", "uncertainty")
        + "</tr></thead><tbody>",
    ]
    for s in summaries:
        r = ratings.get(s.name)
        rate = f"{s.wins / s.hands:.1%}" if s.hands else "—"
        half = (s.ci95[1] - s.ci95[0]) / 2
        if report.duplicate:  # no per-hand interval (see the note)
            mean = _fmt(s.mean)
        else:
            mean = f"{_fmt(s.mean)} ±{half:.2f}" if s.samples >= 2 else f"{_fmt(s.mean)} ±—"
        cells = [
            esc(s.name),
            str(s.hands),
            rate,
            mean,
            f"{s.mean_hu:.1f}" if s.mean_hu is not None else "—",
            f"{r.ordinal:.2f}" if r else "—",
            f"{r.mu:.2f}" if r else "—",
            f"{r.sigma:.2f}" if r else "—",
        ]
        parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append("</tbody></table>")
    parts += _paired_html(report.paired)
    for div_id, zh, en, note_zh, note_en, fig in _figures(report, table):
        parts.append(f'<section id="{div_id}-section">')
        parts.append(f'<h2>{esc(zh)} <span class="en">· {esc(en)}</span></h2>')
        parts.append(f'<p class="note">{esc(note_zh)}<span class="en"> {esc(note_en)}</span></p>')
        parts.append(pio.to_html(fig, include_plotlyjs=False, full_html=False, div_id=div_id, config=_CONFIG))
        parts.append("</section>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def _interval_text(mean: float, ci: object) -> str:
    """``+1.23 [−0.50, +2.96]``, or the mean alone when no interval is known."""
    if isinstance(ci, list) and len(ci) == 2:
        return f"{_fmt(mean)} [{_fmt(float(ci[0]))}, {_fmt(float(ci[1]))}]"
    return f"{_fmt(mean)} [—]"


def _paired_html(paired: dict[str, Any] | None) -> list[str]:
    """The duplicate comparison of a duplicate run (its per-deal statistics), as a table:
    each bot's mean per deal and each pair's mean difference, with 95% intervals."""
    if not paired:
        return []
    esc = html.escape
    deals = int(paired.get("deals", 0))
    games = int(paired.get("games_per_deal", 0))
    how = "全排列 permutations" if paired.get("arrangements") == "permutations" else "轮换 rotations"
    parts = [
        '<h2 id="paired">复式对比 <span class="en">· Duplicate comparison</span></h2>',
        f'<p class="note">{deals} 副牌，每副 {games} 局（{esc(how)}）；按副牌算平均和 95% 区间，'
        "两两对比用同一副牌的差值。"
        f'<span class="en"> {deals} deals of {games} games each; means and 95% intervals per deal, '
        "each pair compared by its differences on the same deals.</span></p>",
        '<table id="paired-bots"><thead><tr>'
        + _th("机器人", "bot")
        + _th("每副牌平均收付 [95%]", "mean per deal [95%]")
        + "</tr></thead><tbody>",
    ]
    for name, stats in (paired.get("bots") or {}).items():
        if isinstance(stats, dict):
            cell = _interval_text(float(stats.get("mean_per_deal", 0.0)), stats.get("ci95"))
            parts.append(f"<tr><td>{esc(str(name))}</td><td>{cell}</td></tr>")
    parts.append("</tbody></table>")
    parts.append(
        '<table id="paired-pairs"><thead><tr>'
        + _th("对比", "pair")
        + _th("平均差 [95%]", "mean difference [95%]")
        + _th("显著", "significant")
        + "</tr></thead><tbody>"
    )
    for pair in paired.get("pairs") or []:
        if isinstance(pair, dict):
            cell = _interval_text(float(pair.get("mean_difference", 0.0)), pair.get("ci95"))
            sure = "是 yes" if pair.get("significant") else "否 no"
            who = f"{esc(str(pair.get('a')))} − {esc(str(pair.get('b')))}"
            parts.append(f"<tr><td>{who}</td><td>{cell}</td><td>{sure}</td></tr>")
    parts.append("</tbody></table>")
    return parts


def write_report(path: str | Path, report: RunReport) -> Path:
    """Write the page of ``report`` to ``path`` (UTF-8); the path written.

    Raises:
        OSError: the file cannot be written.
        ImportError: plotly is not installed (the ``report`` extra).
    """
    out = Path(path)
    out.write_text(render_html(report), encoding="utf-8")
    return out


#: The ids of the chart elements of a page, in page order.
FIGURE_IDS: tuple[str, ...] = (
    "chart-running",
    "chart-win-rate",
    "chart-fire-rate",
    "chart-hu",
    "chart-fan",
    "chart-outcome",
    "chart-ratings",
)

"""Bot-vs-bot runs (erqishi.sim): determinism across workers, seat rotation, payments
(R-8), the confidence-interval math, the run store and input validation."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from erqishi.core import RuleSet
from erqishi.records import parse_record, verify
from erqishi.sim import (
    SimHand,
    SimResult,
    list_runs,
    load_hand_record,
    load_run,
    mean_ci95,
    render_summary,
    run_sim,
    save_run,
)

LESHAN = RuleSet.load("leshan")


@pytest.fixture(scope="module")
def mixed() -> SimResult:
    """30 hands of heuristic vs two random bots."""
    return run_sim(30, 11, ["heuristic", "random", "random"], LESHAN)


def test_workers_do_not_change_the_summary() -> None:
    one = run_sim(60, 2024, ["random", "random", "random"], LESHAN, workers=1)
    ticks: list[int] = []
    two = run_sim(60, 2024, ["random", "random", "random"], LESHAN, workers=2, progress=ticks.append)
    assert json.dumps(one.to_json(), sort_keys=True) == json.dumps(two.to_json(), sort_keys=True)
    assert one.hands == two.hands
    assert one.records == two.records
    assert sum(ticks) == 60
    # a different seed plays different hands
    other = run_sim(60, 2025, ["random", "random", "random"], LESHAN)
    assert other.records != one.records


def test_progress_counts_every_hand_in_process() -> None:
    ticks: list[int] = []
    run_sim(5, 1, ["random"] * 3, LESHAN, progress=ticks.append)
    assert ticks == [1, 1, 1, 1, 1]


def test_seats_rotate(mixed: SimResult) -> None:
    entries = mixed.summary.entries
    assert [e.stats.name for e in entries] == ["heuristic", "random", "random"]
    for e in entries:
        assert e.seat_hands == (10, 10, 10)
        assert e.stats.hands == 30
    for hand in mixed.hands:
        assert hand.seats == tuple(["heuristic", "random", "random"][(s + hand.index) % 3] for s in range(3))
    # per name: a repeated name pools both of its entries
    assert mixed.summary.bots["heuristic"].hands == 30
    assert mixed.summary.bots["random"].hands == 60
    assert mixed.summary.hands == 30


def test_payments_sum_to_zero(mixed: SimResult) -> None:
    bots = mixed.summary.bots
    assert sum(s.total_payment for s in bots.values()) == 0
    assert sum(e.stats.total_payment for e in mixed.summary.entries) == 0
    assert math.isclose(sum(s.mean_payment * s.hands for s in bots.values()), 0.0, abs_tol=1e-9)
    for hand in mixed.hands:
        assert sum(hand.payments) == 0
        if hand.kind == "dead":
            assert hand.payments == (0, 0, 0) and hand.winner is None
    # the per-hand payments agree with the records
    for hand, record in zip(mixed.hands, mixed.records, strict=True):
        result = record["result"]
        assert isinstance(result, dict)
        assert tuple(result["payments"]) == hand.payments


def test_wins_hu_and_fans_come_from_the_winners(mixed: SimResult) -> None:
    wins = [h for h in mixed.hands if h.kind == "win"]
    s = mixed.summary
    assert sum(b.wins for b in s.bots.values()) == len(wins)
    assert math.isclose(s.dead_rate, (len(mixed.hands) - len(wins)) / len(mixed.hands))
    for name, b in s.bots.items():
        mine = [h for h in wins if h.winner is not None and h.seats[h.winner] == name]
        assert b.wins == len(mine)
        assert math.isclose(b.win_rate, len(mine) / b.hands)
        if mine:
            assert b.mean_hu is not None and math.isclose(b.mean_hu, sum(h.hu or 0 for h in mine) / len(mine))
            assert b.mean_hu >= 10
        else:
            assert b.mean_hu is None
        assert sum(c for _, c in b.fans) == sum(len(h.fans) for h in mine)


def test_ci_math_by_hand() -> None:
    # payments [10, -10, 0, 0]: mean 0; sample variance (100 + 100 + 0 + 0) / 3 = 200/3;
    # sd = √(200/3) ≈ 8.1650; Student's t for 3 degrees of freedom is 3.182 (a table value),
    # half-width 3.182 · sd / √4 = 1.591 · √(200/3) ≈ 12.9905 (1.96, the normal z, would be too narrow)
    mean, lo, hi = mean_ci95([10, -10, 0, 0])
    half = 1.591 * math.sqrt(200 / 3)
    assert mean == 0.0
    assert math.isclose(hi, half) and math.isclose(lo, -half)
    assert math.isclose(half, 12.9905, rel_tol=1e-5)
    # payments [30, -10, -10, 0]: mean 2.5; deviations 27.5, -12.5, -12.5, -2.5;
    # squares 756.25 + 156.25 + 156.25 + 6.25 = 1075; var 1075/3; half = 1.591 · √(1075/3)
    mean, lo, hi = mean_ci95([30, -10, -10, 0])
    assert mean == 2.5
    assert math.isclose(hi - mean, 1.591 * math.sqrt(1075 / 3))
    assert math.isclose(mean - lo, 1.591 * math.sqrt(1075 / 3))
    # many values: t is the normal z (within 0.001 beyond 30 degrees of freedom)
    values = [(-1) ** i * (i % 7) for i in range(5000)]
    m, _, hi = mean_ci95(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / 4999)
    assert math.isclose(hi - m, 1.96 * sd / math.sqrt(5000), rel_tol=1e-3)
    assert mean_ci95([7]) == (7.0, 7.0, 7.0)
    assert mean_ci95([]) == (0.0, 0.0, 0.0)


def test_summary_of_hand_made_hands() -> None:
    def hand(i: int, kind: str, winner: int | None, payments: tuple[int, int], fans: tuple[str, ...] = ()) -> SimHand:
        entries = (i % 2, (1 + i) % 2)
        return SimHand(
            index=i,
            entries=entries,
            seats=tuple(["a", "b"][e] for e in entries),
            active=(True, True),
            kind="win" if kind == "win" else "dead",
            winner=winner,
            payments=payments,
            hu=12 if kind == "win" else None,
            fans=fans,
        )

    # hand 0: a at seat 0 wins 10; hand 1: a at seat 1 loses 10 (b at seat 0 wins); 2, 3 dead.
    hands = (
        hand(0, "win", 0, (10, -10), ("自摸",)),
        hand(1, "win", 0, (10, -10)),
        hand(2, "dead", None, (0, 0)),
        hand(3, "dead", None, (0, 0)),
    )
    result = SimResult(seed=0, bots=("a", "b"), rules=RuleSet.load("duikou"), hands=hands)
    data = result.to_json()
    assert data["dead_rate"] == 0.5
    a, b = data["bots"]["a"], data["bots"]["b"]
    assert a["hands"] == b["hands"] == 4
    assert a["mean_payment"] == b["mean_payment"] == 0.0
    half = 1.591 * math.sqrt(200 / 3)  # t (3 df) 3.182 · sd / √4, as in test_ci_math_by_hand
    assert a["ci95"] == pytest.approx([-half, half])
    assert a["win_rate"] == b["win_rate"] == 0.25
    assert a["fans"] == {"自摸": 1} and b["fans"] == {}
    assert a["mean_hu"] == 12


def test_to_json_shape(mixed: SimResult) -> None:
    data = mixed.to_json()
    assert set(data["bots"]) == {"heuristic", "random"}
    for stats in data["bots"].values():
        assert {"hands", "mean_payment", "ci95", "win_rate"} <= set(stats)
        lo, hi = stats["ci95"]
        assert lo <= stats["mean_payment"] <= hi
    assert 0 <= data["dead_rate"] <= 1
    json.dumps(data)  # JSON-ready


def test_render_summary(mixed: SimResult) -> None:
    console = Console(width=160, record=True)
    console.print(render_summary(mixed))
    text = console.export_text()
    assert "heuristic" in text and "random" in text
    assert "dead-hand rate" in text


def test_store_round_trip(tmp_path: Path, mixed: SimResult) -> None:
    url = f"sqlite:///{tmp_path / 'sim.db'}"
    run_id = save_run(url, mixed, mixed.records)
    second = save_run(str(tmp_path / "sim.db"), mixed)  # a plain path works too
    runs = list_runs(url)
    assert [r.id for r in runs] == [run_id, second]
    stored = load_run(url, run_id)
    assert stored.seed == 11 and stored.hands == 30
    assert stored.bots == ("heuristic", "random", "random")
    assert RuleSet.load(stored.rules) == LESHAN
    assert stored.summary == json.loads(json.dumps(mixed.to_json()))
    for index in (0, 17, 29):
        record = load_hand_record(url, run_id, index)
        assert record == mixed.records[index]
        verdict = verify(parse_record(record))
        assert verdict.ok is True and verdict.finished is True
        assert verdict.result_matches is True  # the stored result is the replayed one
    with pytest.raises(LookupError, match="no hand 30"):
        load_hand_record(url, run_id, 30)
    with pytest.raises(LookupError, match="no sim run 999"):
        load_run(url, 999)


def test_store_rejects_mismatched_records_and_writes_nothing(tmp_path: Path, mixed: SimResult) -> None:
    url = f"sqlite:///{tmp_path / 'sim.db'}"
    with pytest.raises(ValueError, match="one record per hand"):
        save_run(url, mixed, mixed.records[:3])
    assert list_runs(url) == []


def test_store_is_all_or_nothing(tmp_path: Path, mixed: SimResult) -> None:
    url = f"sqlite:///{tmp_path / 'sim.db'}"
    bad = list(mixed.records)
    bad[-1] = {"unserializable": object()}  # fails while writing the last hand
    with pytest.raises(Exception):  # noqa: B017 - any database/serialization error
        save_run(url, mixed, bad)
    assert list_runs(url) == []


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (["random", "random"], "need 3 bots"),
        (["random", "random", "random", "random"], "need 3 bots"),
        (["random", "random", "alphago"], "unknown bot 'alphago'; bots are random, heuristic"),
    ],
)
def test_bad_bots(bots: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_sim(3, 0, bots, LESHAN)


def test_bad_counts() -> None:
    with pytest.raises(ValueError, match="workers"):
        run_sim(3, 0, ["random"] * 3, LESHAN, workers=0)
    with pytest.raises(ValueError, match="hands"):
        run_sim(-1, 0, ["random"] * 3, LESHAN)
    assert run_sim(0, 0, ["random"] * 3, LESHAN).summary.hands == 0


def test_two_and_four_players() -> None:
    duo = run_sim(4, 3, ["heuristic", "random"], RuleSet.load("duikou"))
    assert [e.seat_hands for e in duo.summary.entries] == [(2, 2), (2, 2)]
    four = run_sim(8, 3, ["random"] * 4, RuleSet.load('{"players": 4}'))
    # one seat sits out each hand: 8 hands × 3 seats dealt in
    assert sum(e.stats.hands for e in four.summary.entries) == 24
    assert sum(s.total_payment for s in four.summary.bots.values()) == 0


def _hand_made() -> SimResult:
    """Four hands worked by hand (seat s plays bots[s] every hand):

    heuristic pays 60, -20, 0, 120: mean +40.00, sd √(12000/3) = 63.25, half-width
    1.96 · 63.25 / 2 = 61.98; wins 2 of 4 (50.0%) with 15 and 23 hu (19.0).
    random pays -60, -20, 0, -60: mean -35.00, sd √(2700/3) = 30, half-width 29.40; no win.
    search pays 0, 40, 0, -60: mean -5.00, sd √(5100/3) = 41.23, half-width 40.41; wins 1
    (25.0%) with 12 hu. One dead hand of four: 25.0%.
    """
    names = ("heuristic", "random", "search")
    hands = (
        SimHand(0, (0, 1, 2), names, (True,) * 3, "win", 0, (60, -60, 0), 15, ("坤胡",)),
        SimHand(1, (0, 1, 2), names, (True,) * 3, "win", 2, (-20, -20, 40), 12, ("坤胡", "瞟胡")),
        SimHand(2, (0, 1, 2), names, (True,) * 3, "dead", None, (0, 0, 0)),
        SimHand(3, (0, 1, 2), names, (True,) * 3, "win", 0, (120, -60, -60), 23, ("天胡",)),
    )
    return SimResult(1, names, LESHAN, hands)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_render_summary_never_cuts_a_cell(width: int) -> None:
    """At any width from 60 columns every number and name appears whole: cells wrap
    between words, never inside one, and nothing is elided with "…"."""
    console = Console(width=width, record=True)
    console.print(render_summary(_hand_made()))
    text = console.export_text()
    assert "…" not in text
    assert all(cell_len(line) <= width for line in text.splitlines())
    words = set(re.split(r"[\s│┃]+", text))
    for word in ("heuristic", "random", "search", "4", "50.0%", "0.0%", "25.0%", "19.0", "12.0", "—"):
        assert word in words, (width, word)
    # half-widths: t (3 df) 3.182 · sd / √4; sds √4000, 30, √1700 (payments 60 -20 0 120,
    # -60 -20 0 -60, 0 40 0 -60)
    for word in ("+40.00", "±100.62", "-35.00", "±47.73", "-5.00", "±65.60"):
        assert word in words, (width, word)
    assert "dead-hand rate 25.0%" in " ".join(text.split())
    # the 番 table: per 番 (with its English gloss) how often each bot won with it
    # (heuristic, random, search: the last three cells)
    assert "(heavenly" in words
    rows = {
        cells[0]: cells[-3:]
        for line in text.splitlines()
        if (cells := [c for c in re.split(r"[\s│┃]+", line) if c]) and cells[0] in ("坤胡", "瞟胡", "天胡")
    }
    assert rows == {"坤胡": ["1", "0", "1"], "瞟胡": ["0", "0", "1"], "天胡": ["1", "0", "0"]}


def test_render_summary_without_fans_says_so() -> None:
    names = ("random", "random", "random")
    hands = (SimHand(0, (0, 1, 2), names, (True,) * 3, "win", 1, (-10, 20, -10), 10),)
    console = Console(width=60, record=True)
    console.print(render_summary(SimResult(1, names, LESHAN, hands)))
    assert "番 fan: 没有带番的胡牌 no win had a 番" in console.export_text()


def test_a_bot_at_two_seats_gets_the_interval_of_its_hands() -> None:
    """Worked by hand: with ``heuristic, heuristic, random`` the two heuristic seats pay,
    between them, exactly what the random seat wins (R-8: payments sum to 0), so per hand
    their mean per seat is −(random's payment)/2, and its 95% interval is random's halved
    (the same t and n, the spread halved). Counting each of the two seats as a sample of
    its own made it 1.8 times too wide (a review's count); the report says the same."""
    from erqishi.sim.report import name_summaries, report_from_result, running_means

    result = run_sim(300, 5, ["heuristic", "heuristic", "random"], RuleSet(), keep_records=True)
    pooled = result.summary.bots["heuristic"]
    alone = result.summary.bots["random"]
    assert pooled.mean_payment == pytest.approx(-alone.mean_payment / 2)
    half = (pooled.ci95[1] - pooled.ci95[0]) / 2
    assert half == pytest.approx((alone.ci95[1] - alone.ci95[0]) / 4)
    assert (pooled.hands, pooled.samples, alone.samples) == (600, 300, 300)
    report = report_from_result(result)
    summaries = {s.name: s for s in name_summaries(report)}
    assert summaries["heuristic"].ci95 == pytest.approx(pooled.ci95)
    assert summaries["heuristic"].samples == 300
    last = running_means(report)["heuristic"][-1]  # the running chart's band ends there too
    assert (last.lo, last.hi) == pytest.approx(pooled.ci95)

"""Duplicate evaluation (``erqishi sim --duplicate``): every deal played once per rotation
or permutation of the bots, the same cards each time, per-deal means with intervals from
the paired differences (computed here from the hands themselves), stored like any run."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.records import parse_record
from erqishi.sim import (
    SimResult,
    arrangements,
    load_hand_record,
    load_run,
    mean_ci95,
    run_duplicate,
    save_run,
)

LESHAN = RuleSet.load("leshan")
BOTS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def rotations() -> SimResult:
    return run_duplicate(6, 17, BOTS, LESHAN)


def test_arrangements() -> None:
    assert arrangements(2) == ((0, 1), (1, 0))
    rot = arrangements(4)
    assert all(sorted(a) == [0, 1, 2, 3] for a in rot) and len(rot) == 4
    for seat in range(4):  # every entry sits at every seat once
        assert sorted(a[seat] for a in rot) == [0, 1, 2, 3]
    assert set(arrangements(3, permutations=True)) == set(itertools.permutations(range(3)))


def test_every_deal_is_played_once_per_rotation_with_the_same_cards(rotations: SimResult) -> None:
    assert len(rotations.hands) == 6 * 3
    for d in range(6):
        games = rotations.hands[3 * d : 3 * d + 3]
        records = [parse_record(rotations.records[3 * d + g]) for g in range(3)]
        deals = {(r.deal.dealer, r.deal.hands, r.deal.stock) for r in records}
        assert len(deals) == 1  # the same deal in every game
        assert [g.entries for g in games] == list(arrangements(3))
        assert [g.seats for g in games] == [tuple(BOTS[e] for e in a) for a in arrangements(3)]
        for g in games:
            assert sum(g.payments) == 0
    dealers = [parse_record(rotations.records[3 * d]).deal.dealer for d in range(6)]
    assert dealers == [0, 1, 2, 0, 1, 2]


def test_the_summary_from_the_hands(rotations: SimResult) -> None:
    """A bot's value for a deal is its mean payment over the deal's games; the paired
    difference of two bots is the difference of their values, deal by deal."""
    per_deal = []
    for d in range(6):
        pay = {"heuristic": 0.0, "random": 0.0}
        for g in rotations.hands[3 * d : 3 * d + 3]:
            for seat, entry in enumerate(g.entries):
                pay[BOTS[entry]] += g.payments[seat]
        per_deal.append({"heuristic": pay["heuristic"] / 3, "random": pay["random"] / 6})
    dup = rotations.duplicate
    assert dup is not None and dup.deals == 6 and dup.games_per_deal == 3
    mean, lo, hi = mean_ci95([v["heuristic"] for v in per_deal])
    assert dup.names["heuristic"].mean == pytest.approx(mean)
    assert dup.names["heuristic"].ci95 == pytest.approx((lo, hi))
    (pair,) = dup.pairs
    mean, lo, hi = mean_ci95([v["heuristic"] - v["random"] for v in per_deal])
    assert (pair.a, pair.b) == ("heuristic", "random")
    assert pair.mean == pytest.approx(mean) and pair.ci95 == pytest.approx((lo, hi))
    # zero-sum: one heuristic and two randoms
    for v in per_deal:
        assert v["heuristic"] + 2 * v["random"] == pytest.approx(0.0)


def test_permutations_and_workers() -> None:
    # 3! orders of the bots, of which 3 seat different names (random is entered twice)
    one = run_duplicate(2, 5, ["random", "random", "heuristic"], LESHAN, permutations=True)
    assert len(one.hands) == 2 * 3 and one.duplicate is not None and one.duplicate.permutations
    two = run_duplicate(2, 5, ["random", "random", "heuristic"], LESHAN, permutations=True, workers=2)
    assert one.to_json() == two.to_json()


def test_stored_like_any_run(tmp_path: Path, rotations: SimResult) -> None:
    db = str(tmp_path / "dup.db")
    run_id = save_run(db, rotations)
    stored = load_run(db, run_id)
    assert stored.hands == 18 and stored.summary["duplicate"]["deals"] == 6
    assert stored.summary["duplicate"]["arrangements"] == "rotations"
    assert load_hand_record(db, run_id, 4) == rotations.records[4]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "runs.db")
    code = main(
        ["sim", "--duplicate", "-n", "3", "--bots", "random,heuristic", "--rules", "duikou", "--json", "--db", db]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["hands"] == 6 and data["run"]["id"] == 1
    dup = data["duplicate"]
    assert dup["deals"] == 3 and dup["games_per_deal"] == 2 and set(dup["bots"]) == {"random", "heuristic"}
    assert dup["pairs"][0]["mean_difference"] == pytest.approx(
        dup["bots"]["random"]["mean_per_deal"] - dup["bots"]["heuristic"]["mean_per_deal"]
    )
    code = main(["sim", "--duplicate", "--permutations", "-n", "1", "--no-db"])
    out = capsys.readouterr().out
    assert code == 0 and "paired differences" in out and "permutation" in out
    assert main(["sim", "--permutations", "-n", "1", "--no-db"]) == 2


def test_the_star_is_explained_only_where_a_pair_has_one() -> None:
    """The key "* 区间不含 0 the interval leaves out 0" goes with a starred pair; without one the
    caption says that no interval leaves out 0."""
    from rich.console import Console

    from erqishi.sim.duplicate import DuplicateSummary, NameStats, PairStats, render_duplicate

    def text(lo: float, hi: float) -> str:
        names = {n: NameStats(n, 10, 0.0, (-1.0, 1.0)) for n in ("a", "b")}
        summary = DuplicateSummary(10, 3, False, names, (PairStats("a", "b", (lo + hi) / 2, (lo, hi), 10),), ())
        console = Console(width=100, record=True)
        console.print(render_duplicate(summary))
        return console.export_text()

    tied = text(-1.91, 0.25)
    assert "*" not in tied and "no interval leaves out 0" in tied
    ahead = text(0.5, 2.0)
    assert "[+0.50, +2.00] *" in ahead and "* 区间不含 0 the interval leaves out 0" in ahead


def test_one_deal_is_never_significant() -> None:
    """With one deal the spread of the paired differences is unknown: no interval can leave
    out 0, whatever the difference (the review found "significant" from one deal)."""
    result = run_duplicate(1, 4, ["search", "random", "random"], LESHAN, workers=1)
    assert result.duplicate is not None
    assert all(not p.significant for p in result.duplicate.pairs)
    assert all(not p["significant"] for p in result.to_json()["duplicate"]["pairs"])


def test_no_interval_treats_the_games_of_a_deal_as_independent(capsys: pytest.CaptureFixture[str]) -> None:
    """The games of one deal share its cards, so a duplicate run gives no per-hand interval
    (the per-hand table shows means only, its JSON ``ci95`` is null) and none from a single
    deal (``—``, null); with two deals or more the per-deal intervals are there."""
    code = main(["sim", "--duplicate", "--permutations", "-n", "1", "--no-db", "-b", "heuristic,random,random"])
    out = capsys.readouterr().out
    assert code == 0
    per_hand = out.split("复式 duplicate:")[0]
    assert "±" not in per_hand and "intervals are per deal" in per_hand
    assert "[" not in out.split("复式 duplicate:")[1]  # one deal: "—", no [lo, hi]
    main(["sim", "--duplicate", "-n", "1", "--no-db", "--json", "-b", "heuristic,random,random"])
    data = json.loads(capsys.readouterr().out)
    assert all(s["ci95"] is None for s in data["bots"].values())
    assert all(s["ci95"] is None for s in data["duplicate"]["bots"].values())
    assert all(p["ci95"] is None for p in data["duplicate"]["pairs"])
    main(["sim", "--duplicate", "-n", "3", "--no-db", "--json", "-b", "heuristic,random,random"])
    data = json.loads(capsys.readouterr().out)
    assert all(s["ci95"] is None for s in data["bots"].values())
    assert all(e["ci95"] is None for e in data["entries"])  # nor per entry of the bot list
    assert all(len(s["ci95"]) == 2 for s in data["duplicate"]["bots"].values())
    main(["sim", "-n", "3", "--no-db", "--json", "-b", "heuristic,random,random"])
    assert all(len(s["ci95"]) == 2 for s in json.loads(capsys.readouterr().out)["bots"].values())


def test_a_bot_entered_twice_plays_each_seating_once() -> None:
    """With a name entered twice, two arrangements can seat the same bots in the same seats
    (with the same generators: the same game): each distinct seating is played once, and
    every name still sits in every seat equally often."""
    bots = ["random", "heuristic", "learned", "random"]
    rules = RuleSet.load('{"preset": "leshan", "players": 4}')
    assert len(arrangements(4, permutations=True, bots=bots)) == 12  # 4! / 2!
    result = run_duplicate(2, 9, bots, rules, permutations=True, keep_records=False)
    assert result.duplicate is not None and result.duplicate.games_per_deal == 12
    assert len(result.hands) == 24
    seatings = [tuple(bots[e] for e in h.entries) for h in result.hands[:12]]
    assert len(set(seatings)) == 12
    for seat in range(4):
        at_seat = Counter(s[seat] for s in seatings)
        assert at_seat == {"random": 6, "heuristic": 3, "learned": 3}

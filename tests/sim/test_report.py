"""Reports (issue 16, point 3): the numbers behind the charts, worked by hand on three
hands and checked against the run's own summary; the page from ``erqishi sim --report``
and ``erqishi report`` opened in headless Chromium, every chart drawn, nothing fetched."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.sim import run_sim, save_run
from erqishi.sim.report import (
    FIGURE_IDS,
    ReportHand,
    RunReport,
    load_report,
    name_summaries,
    outcome_shares,
    report_from_result,
    running_means,
    seat_rates,
)
from support.browser import launched_browser

# Three hands, the bots rotating over the seats:
#   0: seats A B C, dealer 0: B wins on C's discard (抬炮), hu 15: C pays 60.
#   1: seats B C A, dealer 0: B draws its win (自摸), hu 12, 瞟胡: C and A pay 20 each.
#   2: seats C A B, dealer 1: a dead hand (荒庄).
HANDS = (
    ReportHand(0, ("A", "B", "C"), (True,) * 3, 0, "win", 1, "discard", (0, 60, -60), 15, ()),
    ReportHand(1, ("B", "C", "A"), (True,) * 3, 0, "win", 0, "own_flip", (40, -20, -20), 12, ("瞟胡",)),
    ReportHand(2, ("C", "A", "B"), (True,) * 3, 1, "dead", None, None, (0, 0, 0), None, ()),
)
SMALL = RunReport(HANDS, ("A", "B", "C"), 1, "leshan")


def test_running_mean_by_hand() -> None:
    a = running_means(SMALL)["A"]
    # A received 0, paid 20, received 0: means 0, -10, -20/3
    assert [(p.hand, p.n) for p in a] == [(1, 1), (2, 2), (3, 3)]
    assert [p.mean for p in a] == pytest.approx([0, -10, -20 / 3])
    assert (a[0].lo, a[0].hi) == (0, 0)  # one value: no interval
    sd = math.sqrt(((20 / 3) ** 2 + (40 / 3) ** 2 + (20 / 3) ** 2) / 2)
    assert a[2].hi - a[2].mean == pytest.approx(4.303 * sd / math.sqrt(3))  # Student's t, 2 degrees of freedom
    assert [p.mean for p in running_means(SMALL)["B"]] == pytest.approx([60, 50, 100 / 3])


def test_running_mean_thins_points_and_keeps_the_last() -> None:
    many = RunReport(HANDS * 200, ("A", "B", "C"), 1, "leshan")
    points = running_means(many, max_points=50)["C"]
    assert len(points) == 50 and points[0].hand == 1 and points[-1].hand == 600
    assert points[-1].mean == pytest.approx((-60 - 20 + 0) / 3)


def test_seat_rates_counted_from_the_dealer() -> None:
    got = {(r.name, r.seat): (r.hands, r.wins, r.fires) for r in seat_rates(SMALL)}
    assert got == {
        ("A", 0): (2, 0, 0),  # hand 0 seat 0, hand 2 seat 1 with seat 1 dealing
        ("A", 2): (1, 0, 0),
        ("B", 0): (1, 1, 0),
        ("B", 1): (2, 1, 0),  # hand 0 seat 1 (its win); hand 2 seat 2 with seat 1 dealing
        ("C", 1): (1, 0, 0),
        ("C", 2): (2, 0, 1),  # hand 0: seat 2 fired; hand 2: seat 0, dealer 1
    }
    c2 = next(r for r in seat_rates(SMALL) if (r.name, r.seat) == ("C", 2))
    assert (c2.win_rate, c2.fire_rate) == (0, 0.5)


def test_outcomes_and_summaries_by_hand() -> None:
    shares = {s.key: (s.count, s.total) for s in outcome_shares(SMALL)}
    assert shares == {"discard": (1, 3), "flip": (0, 3), "own_flip": (1, 3), "tian": (0, 3), "dead": (1, 3)}
    dead = next(s for s in outcome_shares(SMALL) if s.key == "dead")
    # a share's interval is Wilson's: for 1 of 3 it is 0.0615-0.7923 (it stays within 0-1,
    # where the t interval of [1, 0, 0] would run from -1.10 to 1.77)
    assert dead.ci95 == pytest.approx((0.0615, 0.7923), abs=1e-4)
    b = next(s for s in name_summaries(SMALL) if s.name == "B")
    assert (b.hands, b.wins, b.hus, b.fans, b.mean_hu) == (3, 2, (15, 12), (("瞟胡", 1),), 13.5)
    assert b.mean == pytest.approx(100 / 3)


def test_a_played_run_agrees_with_its_summary(tmp_path: Path) -> None:
    result = run_sim(24, 5, ["random", "random", "heuristic"], RuleSet.load("leshan"))
    report = report_from_result(result)
    db = str(tmp_path / "r.db")
    run_id = save_run(db, result)
    stored = load_report(db, run_id)
    assert stored.hands == report.hands and stored.run_id == run_id and stored.created is not None
    for s in name_summaries(report):
        want = result.summary.bots[s.name]
        assert (s.hands, s.wins) == (want.hands, want.wins)
        assert s.mean == pytest.approx(want.mean_payment)
        assert s.ci95 == pytest.approx(want.ci95)
        assert running_means(report)[s.name][-1].mean == pytest.approx(want.mean_payment)
    dead = next(s for s in outcome_shares(report) if s.key == "dead")
    assert dead.rate == result.summary.dead_rate
    wins = sum(r.wins for r in seat_rates(report))
    assert wins == 24 - result.summary.dead_hands
    with pytest.raises(LookupError, match="no sim run 9"):
        load_report(db, 9)


# -- the page in a browser -------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _open(browser: Browser, page_file: Path) -> dict[str, object]:
    """Open the page; what it drew, logged and fetched."""
    page = browser.new_page()
    logged: list[str] = []
    fetched: list[str] = []
    page.on("console", lambda m: logged.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: logged.append(f"pageerror: {e}"))
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(page_file.resolve().as_uri())
    ids = list(FIGURE_IDS)
    page.wait_for_function(
        "ids => ids.every(id => document.querySelector('#' + id + ' svg.main-svg'))", arg=ids, timeout=30_000
    )
    # every chart but the 番 (a run may have no win with a 番) has a trace drawn
    page.wait_for_function(
        "ids => ids.every(id => id == 'chart-fan' || document.querySelector('#' + id + ' .trace'))",
        arg=ids,
        timeout=30_000,
    )
    # the marks drawn: bars and markers are .point, lines path.js-line
    drawn = page.evaluate(
        """ids => Object.fromEntries(ids.map(id => [id,
            document.querySelectorAll('#' + id + ' .trace .point, #' + id + ' .trace path.js-line').length]))""",
        ids,
    )
    found = {
        "drawn": drawn,
        "logged": logged,
        "fetched": [u for u in fetched if u != page_file.resolve().as_uri()],
        "text": page.inner_text("body"),
        "fan": page.inner_text("#chart-fan"),
        "rows": page.locator("#summary tbody tr").count(),
    }
    page.close()
    return found


def test_report_pages_open_in_chromium(browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, first = str(tmp_path / "sim.db"), tmp_path / "run.html"
    code, out, err = run(
        capsys,
        "sim",
        "-n",
        "18",
        "--seed",
        "4",
        "--bots",
        "heuristic,random,random",
        "--db",
        db,
        "--report",
        str(first),
    )
    assert code == 0 and "报告 report" in out and first.is_file(), err
    again = tmp_path / "again.html"
    assert run(capsys, "report", "--run", "1", "--db", db, "-o", str(again))[0] == 0
    assert again.read_bytes() == first.read_bytes()  # the same run, the same page
    html = again.read_text(encoding="utf-8")
    assert "<script src" not in html and "<link" not in html and "<img" not in html
    found = _open(browser, again)
    assert found["logged"] == [] and found["fetched"] == []
    drawn = found["drawn"]
    assert isinstance(drawn, dict) and all(drawn[i] > 0 for i in FIGURE_IDS if i != "chart-fan"), drawn
    assert drawn["chart-fan"] > 0 or "no win had a 番" in str(found["fan"])
    text = str(found["text"])
    for words in ("荒庄", "dead-hand", "抬炮", "Running mean payment", "等级分", "Ratings", "heuristic", "run 1"):
        assert words in text
    assert found["rows"] == 2  # heuristic, random


def test_report_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "sim.db")
    code, _, err = run(capsys, "report", "--run", "1", "--db", db, "-o", str(tmp_path / "x.html"))
    assert code == 2 and "no such file" in err and err.count("\n") == 1
    assert run(capsys, "sim", "-n", "3", "--bots", "random,random,random", "--db", db)[0] == 0
    code, _, err = run(capsys, "report", "--run", "7", "--db", db, "-o", str(tmp_path / "x.html"))
    assert code == 2 and "no sim run 7" in err and err.count("\n") == 1
    code, _, err = run(capsys, "report", "--run", "1", "--db", db, "-o", str(tmp_path / "no" / "x.html"))
    assert code == 2 and "cannot write the report" in err
    monkeypatch.setitem(sys.modules, "plotly.io", None)  # as without the report extra
    code, out, err = run(capsys, "sim", "-n", "3", "--no-db", "--report", str(tmp_path / "y.html"))
    assert code == 1 and "erqishi[report]" in err and "random" in out


def test_a_duplicate_report_gives_no_per_hand_interval() -> None:
    """The games of a duplicate deal are not independent: the report's per-bot table shows
    the mean payment per hand without an interval, and says why; a plain run keeps them."""
    from erqishi.sim import run_duplicate
    from erqishi.sim.report import render_html

    rules = RuleSet.load("leshan")
    page = render_html(report_from_result(run_duplicate(2, 5, ["heuristic", "random", "random"], rules)))
    table = page.split('<table id="summary">')[1].split("</table>")[0]
    assert "±" not in table and "not independent" in page
    # nor do the charts draw one: no band behind the running means, no error bars
    assert " 95%\"" not in page and "\"arrayminus\":[" not in page and "区间 " not in page
    plain = render_html(report_from_result(run_sim(6, 5, ["heuristic", "random", "random"], rules)))
    assert "±" in plain.split('<table id="summary">')[1].split("</table>")[0]
    assert " 95%\"" in plain and "\"arrayminus\":[" in plain

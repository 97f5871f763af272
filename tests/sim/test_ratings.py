"""Ratings (issue 16, point 2): every stored hand is a Plackett-Luce game ranked by its
payments; the updates are checked against Weng & Lin's formulas worked by hand, the
stored games against the list they should be, and the command's table for determinism."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert
from sqlalchemy.pool import NullPool

from erqishi.cli import main
from erqishi.core import RuleSet
from erqishi.sim import SimHand, SimResult, save_run
from erqishi.sim.ratings import (
    BETA,
    MU,
    SIGMA,
    Game,
    Player,
    game_ranks,
    rate_games,
    stored_games,
    stored_ratings,
    web_player,
)
from erqishi.storage import database_urls, upgrade
from erqishi.storage.schema import web_hands, web_matches

SEARCH, HEUR, RANDOM = Player("bot", "search"), Player("bot", "heuristic"), Player("bot", "random")
MING = Player("player", "小明")

# Weng & Lin (2011), Algorithm 4, for three players with the prior N(25, (25/3)²), β = 25/6:
# c² = Σ (σ² + β²); all e^{μ/c} are equal, so in a game ranked 1, 2, 3 the shares
# e_i / S_q are 1/3 for q the first (S over all three) and 1/2 for q the second.
S2, B2 = SIGMA**2, BETA**2
C = math.sqrt(3 * (S2 + B2))
STEP = S2 / C  # Ω_i = σ²/c · Σ_q (δ_iq − e_i/S_q)
#: Ω of the first, second and third: 1 − 1/3; −1/3 + (1 − 1/2); −1/3 − 1/2 + (1 − 1).
OMEGA = (2 / 3, 1 / 6, -5 / 6)
#: η_i = γ σ²/c² Σ_q (e_i/S_q)(1 − e_i/S_q), γ = σ/c: the first 2/9; the others 2/9 + 1/4.
ETA_SUM = (2 / 9, 17 / 36, 17 / 36)
K = (SIGMA / C) * S2 / C**2


def by_hand(place: int) -> tuple[float, float]:
    """μ and σ after one game from the prior, for the player placed ``place`` (0, 1, 2)."""
    return MU + STEP * OMEGA[place], math.sqrt(S2 * (1 - K * ETA_SUM[place]))


@pytest.mark.parametrize(
    ("payments", "ranks"),
    [
        ([60, 0, -60], [1, 2, 3]),  # 抬炮: the winner, the third player, the discarder
        ([-20, 40, -20], [2, 1, 2]),  # 自摸: the two payers share second place
        ([0, 0, 0], [1, 1, 1]),  # 荒庄: everyone ties
        ([0, -60, 60, 0], [2, 4, 1, 2]),
    ],
)
def test_ranks_by_payment_with_shared_ties(payments: list[int], ranks: list[int]) -> None:
    assert game_ranks(payments) == ranks


def test_one_game_is_weng_lin_by_hand() -> None:
    table = rate_games([Game(((SEARCH, 60), (HEUR, 0), (RANDOM, -60)))])
    got = {r.player: r for r in table.ratings}
    for place, who in enumerate((SEARCH, HEUR, RANDOM)):
        mu, sigma = by_hand(place)
        assert got[who].mu == pytest.approx(mu, abs=1e-9)
        assert got[who].sigma == pytest.approx(sigma, abs=1e-9)
        assert got[who].ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9)
    assert [r.player for r in table.ratings] == [SEARCH, HEUR, RANDOM]
    assert (got[SEARCH].wins, got[HEUR].wins, got[SEARCH].games, table.games) == (1, 0, 1, 1)


def test_ties_are_shared() -> None:
    dead = {r.player: r for r in rate_games([Game(((SEARCH, 0), (HEUR, 0), (RANDOM, 0)))]).ratings}
    for r in dead.values():  # symmetric: nobody moves, everyone is surer
        assert r.mu == pytest.approx(MU, abs=1e-12) and r.sigma < SIGMA
    zimo = {r.player: r for r in rate_games([Game(((SEARCH, -20), (HEUR, 40), (RANDOM, -20)))]).ratings}
    assert zimo[SEARCH].mu == pytest.approx(zimo[RANDOM].mu, abs=1e-12)
    assert zimo[HEUR].mu > MU > zimo[SEARCH].mu
    # equal priors: the changes of μ add up to 0
    assert sum(r.mu - MU for r in zimo.values()) == pytest.approx(0, abs=1e-9)


def test_one_player_at_two_seats_adds_both_seats_changes() -> None:
    table = rate_games([Game(((SEARCH, 60), (HEUR, 0), (HEUR, -60)))])
    got = {r.player: r for r in table.ratings}
    assert got[SEARCH].mu == pytest.approx(by_hand(0)[0], abs=1e-9)
    assert got[HEUR].mu == pytest.approx(MU + STEP * (OMEGA[1] + OMEGA[2]), abs=1e-9)
    assert got[HEUR].sigma == pytest.approx(SIGMA * math.sqrt((1 - K * ETA_SUM[1]) * (1 - K * ETA_SUM[2])), abs=1e-9)
    assert got[HEUR].games == 2 and got[SEARCH].games == 1


def test_the_stronger_player_rises_and_sigma_shrinks() -> None:
    games = [Game(((SEARCH, 60), (HEUR, 0), (RANDOM, -60)))] * 30 + [Game(((HEUR, 40), (SEARCH, -20), (RANDOM, -20)))]
    table = rate_games(games)
    assert [r.player for r in table.ratings] == [SEARCH, HEUR, RANDOM]
    first = {r.player: r.sigma for r in rate_games(games[:1]).ratings}
    assert all(r.sigma < first[r.player] for r in table.ratings)
    assert rate_games(games) == table  # the same games, the same digits
    drift = rate_games(games, tau=0.5)
    assert all(d.sigma > r.sigma for d, r in zip(drift.ratings, table.ratings, strict=True))
    with pytest.raises(ValueError, match="tau"):
        rate_games(games, tau=-1)


def test_web_names() -> None:
    assert web_player("heuristic-bot-3") == HEUR
    assert web_player("alphago-bot-1") == Player("player", "alphago-bot-1")  # no such bot
    assert web_player("  ") is None


# -- stored runs and matches -----------------------------------------------------------


def _hand(i: int, seats: tuple[str, ...], payments: tuple[int, ...]) -> SimHand:
    winner = next((s for s, p in enumerate(payments) if p > 0), None)
    return SimHand(i, (0, 1, 2), seats, (True,) * 3, "dead" if winner is None else "win", winner, payments)


def _web_match(db: str, seats: list[str], hands: list[tuple[datetime, int, list[int]]]) -> None:
    """A web match stored as the server stores one, with made-up hands (time, dealer, payments)."""
    engine = create_engine(database_urls(db)[1], poolclass=NullPool)
    with engine.begin() as conn:
        match_id = conn.execute(
            insert(web_matches).values(
                room="ABCDEF",
                created=hands[0][0],
                preset="leshan",
                rules={},
                seats=seats,
                seed=1,
                totals=[0] * len(seats),
            )
        ).inserted_primary_key[0]
        for i, (when, dealer, payments) in enumerate(hands):
            win = max(payments) > 0
            conn.execute(
                insert(web_hands).values(
                    match_id=match_id,
                    idx=i,
                    created=when,
                    quan=None,
                    dealer=dealer,
                    kind="win" if win else "dead",
                    winner=payments.index(max(payments)) if win else None,
                    score=max(payments),
                    payments=payments,
                    record={},
                )
            )
    engine.dispose()


@pytest.fixture
def stored(tmp_path: Path) -> str:
    """A database with a sim run of two hands and two web matches (one of four players),
    the web hands stored before the run (2001) and after it (2999)."""
    db = str(tmp_path / "all.db")
    upgrade(db)
    bots = ("search", "heuristic", "random")
    sim = SimResult(
        1,
        bots,
        RuleSet.load("leshan"),
        (_hand(0, bots, (60, 0, -60)), _hand(1, ("heuristic", "random", "search"), (-20, 40, -20))),
    )
    save_run(db, sim, records=())
    early, late = datetime(2001, 1, 1, tzinfo=UTC), datetime(2999, 1, 1, tzinfo=UTC)
    _web_match(db, ["小明", "heuristic-bot-2", ""], [(late, 0, [-60, 0, 60]), (early, 0, [40, -20, -20])])
    # four players: with seat 1 dealing, seat 0 sits out and is in no game
    _web_match(db, ["阿花", "小明", "random-bot-3", "老王"], [(late, 1, [0, 30, -30, 0])])
    return db


def test_stored_games_in_time_order(stored: str) -> None:
    expected = [
        # 2001: the web hand; its unnamed seat is dropped, the bot seat is the heuristic bot
        ((MING, 40), (HEUR, -20)),
        # the sim run (stored now), in hand order
        ((SEARCH, 60), (HEUR, 0), (RANDOM, -60)),
        ((HEUR, -20), (RANDOM, 40), (SEARCH, -20)),
        # 2999: the two web hands, by match id
        ((MING, -60), (HEUR, 0)),
        ((MING, 30), (RANDOM, -30), (Player("player", "老王"), 0)),
    ]
    games = stored_games([stored])
    assert [g.seats for g in games] == expected
    table = stored_ratings([stored])
    assert table.ratings == rate_games(Game(s) for s in expected).ratings
    # the order matters, so the test would see a wrong one
    assert table.ratings != rate_games(Game(s) for s in reversed(expected)).ratings
    assert {r.player.name for r in table.ratings} == {"search", "heuristic", "random", "小明", "老王"}
    ming = next(r for r in table.ratings if r.player == MING)
    assert (ming.games, ming.wins) == (3, 2)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ratings_command(stored: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ratings", "--db", stored, "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 5 and data["model"] == "openskill PlackettLuce"
    rows = data["ratings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    for r in rows:
        assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"])
    assert run(capsys, "ratings", "--db", stored, "--json")[1] == out  # same data, same table
    code, text, _ = run(capsys, "ratings", "--db", stored)
    assert code == 0
    for word in ("保守分", "ordinal", "机器人 bot", "玩家 player", "小明", "5 局 games"):
        assert word in text
    code, _, err = run(capsys, "ratings", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no such file" in err and err.count("\n") == 1


def test_ratings_default_databases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "ratings")
    assert code == 2 and "--db" in err
    bots = ("random", "random", "heuristic")
    save_run("erqishi-sim.db", SimResult(1, bots, RuleSet.load("leshan"), (_hand(0, bots, (0, -60, 60)),)), records=())
    code, out, _ = run(capsys, "ratings", "--json")
    rows = json.loads(out)["ratings"]
    assert code == 0 and [r["name"] for r in rows] == ["heuristic", "random"]
    assert rows[1]["games"] == 2

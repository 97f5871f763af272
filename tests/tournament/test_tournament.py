"""争霸赛 tournaments (erqishi.tournament): creating and registering, the rounds' state
machine, duplicate deals (every table of a round plays the same deals, R-2.2, R-2.3), the
standings and their tie-breaks worked by hand, the 擂台 final, the JSON round trip, and a
tournament that survives a restart of its store between rounds (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from erqishi.core import RuleSet
from erqishi.storage import StaleTournamentError, Store
from erqishi.tournament import (
    TableResult,
    Tournament,
    TournamentError,
    TournamentStatus,
    play_round,
    play_table,
    run_tournament,
)
from erqishi.tournament.persist import create_stored, load_stored, save_stored


def bots(n: int, levels: tuple[str, ...] = ("random",), **options: Any) -> Tournament:
    """A tournament of ``n`` bots (levels in turn), 1 圈 a round unless said."""
    options.setdefault("rounds", 2)
    options.setdefault("seed", 11)
    t = Tournament.create("测试赛", **options)
    for i in range(n):
        t = t.register_bot(levels[i % len(levels)])
    return t


# -- creating and registering -----------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"rounds": 0}, "rounds must be"),
        ({"match_quan": 0}, "圈 per round"),
        ({"match_quan": 101}, "圈 per round"),
        ({"rules": '{"dealer": "winner"}'}, "dealer: rotate"),
        ({"rules": "nosuch"}, "unknown rules preset"),
        ({"filler": "alphago"}, "unknown filler bot"),
        ({"start": datetime(2025, 3, 1, 20, 0)}, "time zone"),
    ],
)
def test_create_refuses_bad_values(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(TournamentError, match=fragment):
        Tournament.create("争霸赛", **options)


def test_create_and_register() -> None:
    start = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
    t = Tournament.create("  乐山 争霸赛 ", "app", rounds=4, match_quan=2, start=start, leitai=True, seed=5)
    assert (t.name, t.rounds, t.match_quan, t.total_rounds, t.start) == ("乐山 争霸赛", 4, 2, 5, start)
    assert t.rules == RuleSet.from_options({"match_quan": 2}, base="app")
    t = t.register("阿华").register_bot("search").register("Ann").register_bot("search")
    assert [(e.name, e.bot) for e in t.entrants] == [
        ("阿华", None),
        ("search#1", "search"),
        ("Ann", None),
        ("search#2", "search"),
    ]
    assert t.status is TournamentStatus.REGISTERING and not t.is_bots_only
    for name, fragment in [("ann", "taken"), ("Bot 2", "pass for a bot"), ("heuristic#1", "pass for a bot"),
                           ("\u200b", "visible"), ("x" * 25, "at most 24"),
                           ("ＡＮＮ", "taken"), ("阿\u534e", "taken")]:  # fmt: skip
        with pytest.raises(TournamentError, match=fragment):
            t.register(name)
    # names that read the same are one name: full-width letters, a combining accent
    accented = t.register("Ánn")
    with pytest.raises(TournamentError, match="taken"):
        accented.register("A\u0301nn")
    with pytest.raises(TournamentError) as long:
        t.register("x" * 25)
    assert "24" in long.value.zh and "48" not in long.value.zh  # the same limit in both languages
    with pytest.raises(TournamentError, match="unknown bot"):
        t.register_bot("alphago")
    with pytest.raises(TournamentError, match="tournament needs a name"):
        Tournament.create("\x1b\x07")


def test_the_rounds_state_machine() -> None:
    t = bots(1)
    with pytest.raises(TournamentError, match="at least 2 players"):
        t.start_round()
    t = bots(5, rounds=1, leitai=True)
    t = t.start_round()
    assert t.status is TournamentStatus.PLAYING
    with pytest.raises(TournamentError, match="registration is closed"):
        t.register("阿华")
    with pytest.raises(TournamentError, match="still being played"):
        t.start_round()
    # 5 players: tables of 3 and 2 (with one bot); bad results are refused
    sizes = sorted(len(tb.entrants) for tb in t.round(1).tables)
    assert sizes == [2, 3]
    with pytest.raises(TournamentError, match="sum to 0"):
        t.record(1, 0, TableResult((10, 0, 0), (1, 0, 0), (12, 0, 0), 3))
    with pytest.raises(TournamentError, match="3 whole numbers"):
        t.record(1, 0, TableResult((10, -10), (1, 0), (12, 0), 3))
    with pytest.raises(TournamentError, match="tables 0-1"):
        t.record(1, 2, TableResult((0, 0, 0), (0, 0, 0), (0, 0, 0), 3))
    t = t.record(1, 0, TableResult((20, -10, -10), (1, 0, 0), (15, 0, 0), 3))
    with pytest.raises(TournamentError, match="has its result already"):
        t.record(1, 0, TableResult((0, 0, 0), (0, 0, 0), (0, 0, 0), 3))
    assert t.status is TournamentStatus.PLAYING
    t = t.record(1, 1, TableResult((0, 0, 0), (0, 0, 0), (0, 0, 0), 3))
    assert t.status is TournamentStatus.BETWEEN_ROUNDS and t.champion is None
    t = t.start_round()  # the 擂台 final
    assert t.round(2).kind == "leitai" and len(t.round(2).tables) == 1
    t = t.record(2, 0, TableResult((0, 0, 0), (0, 0, 0), (0, 0, 0), 3))
    assert t.status is TournamentStatus.FINISHED and t.champion is not None
    with pytest.raises(TournamentError, match="finished"):
        t.start_round()


# -- duplicate deals --------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "quan"), [("leshan", 9, 2), ("duikou", 4, 1), ('{"players": 4}', 8, 1)])
def test_every_table_of_a_round_plays_the_same_deals(rules: str, players: int, quan: int) -> None:
    t = bots(players, rules=rules, match_quan=quan, rounds=2).start_round()
    seats = t.size
    tables = [play_table(t, 1, i) for i in range(len(t.round(1).tables))]
    assert len(tables) == players // seats >= 2
    hands = [[h.deal for h in p.record.hands] for p in tables]
    # every table: seats × 圈 hands (the deal rotates, dead hands too, R-2.2, R-2.4) ...
    assert all(len(h) == seats * quan for h in hands)
    # ... hand k dealt by seat k mod n, and the same deal (every seat's cards and the stock)
    for k, deal in enumerate(hands[0]):
        assert deal.dealer == k % seats
        for other in hands[1:]:
            assert other[k] == deal
    # another round, other deals
    t2 = t
    for p in tables:
        t2 = t2.record(1, p.table, p.result)
    t2 = t2.start_round()
    assert play_table(t2, 2, 0).record.hands[0].deal != hands[0][0]


def test_a_round_on_worker_processes_is_the_same() -> None:
    t = bots(6, ("random", "heuristic"), rounds=1)
    serial, played = play_round(t)
    pooled, _ = play_round(t, workers=2)
    assert serial == pooled
    assert [p.result for p in played] == [tb.result for tb in serial.round(1).tables]


# -- standings, worked by hand ----------------------------------------------------------


def state(names: list[str], rounds: list[list[tuple[list[int | None], list[int], list[int]]]], **extra: Any) -> Any:
    """A tournament state (JSON) with hand-made tables: per round, per table, (seats as
    entrant indices, totals per seat, hu per seat); a seat with hu > 0 won one hand."""
    data = {
        "format": 1,
        "kind": "tournament",
        "name": "手算",
        "rules": {"match_quan": 1},
        "rounds": extra.get("swiss", len(rounds)),
        "seed": 0,
        "start": None,
        "leitai": extra.get("leitai", False),
        "filler": "heuristic",
        "entrants": [{"name": n, "bot": "random"} for n in names],
        "played": [
            {
                "round": i + 1,
                "kind": "swiss" if i < extra.get("swiss", len(rounds)) else "leitai",
                "method": "hand",
                "repeats": 0,
                "tables": [
                    {
                        "seats": seats,
                        "result": {"totals": totals, "wins": [int(h > 0) for h in hu], "hu": hu, "hands": 3},
                    }
                    for seats, totals, hu in r
                ],
            }
            for i, r in enumerate(rounds)
        ],
    }
    return Tournament.from_json(data)


def test_standings_tie_breaks_best_round_then_head_to_head() -> None:
    # A B C D E F = 0 1 2 3 4 5
    # round 1: A B C = +20 +30 -50;  D E F = +10 +20 -30
    # round 2: A D E = +10 +20 -30;  B C F = 0 +10 -10
    # totals: A 30, B 30, C -40, D 30, E -10, F -40
    # best rounds: A 20, B 30, C 10, D 20, E 20, F -10
    # B leads A and D on best round (30 > 20). A and D: tied on 30 and 20; they shared round
    # 2 only: A 10 - D 20 → A -10, D +10: D before A. C and F: -40 each, best 10 vs -10: C.
    t = state(
        list("ABCDEF"),
        [
            [([0, 1, 2], [20, 30, -50], [12, 15, 0]), ([3, 4, 5], [10, 20, -30], [10, 11, 0])],
            [([0, 3, 4], [10, 20, -30], [10, 14, 0]), ([1, 2, 5], [0, 10, -10], [0, 16, 0])],
        ],
    )
    rows = [(s.place, s.name, s.total, s.best, s.h2h) for s in t.standings()]
    assert rows == [
        (1, "B", 30, 30, 0),
        (2, "D", 30, 20, 10),
        (3, "A", 30, 20, -10),
        (4, "E", -10, 20, 0),
        (5, "C", -40, 10, 0),
        (6, "F", -40, -10, 0),
    ]
    # after round 1 only: B 30; A and E 20 with best 20, never at one table (h2h 0), hu
    # A 12 > E 11: A first; D 10, F -30, C -50
    rows = [(s.place, s.name, s.total, s.hu) for s in t.standings(through=1)]
    assert rows == [(1, "B", 30, 15), (2, "A", 20, 12), (3, "E", 20, 11), (4, "D", 10, 10), (5, "F", -30, 0),
                    (6, "C", -50, 0)]  # fmt: skip


def test_standings_three_way_head_to_head_and_hu() -> None:
    # P Q R S T U = 0..5
    # round 1: P Q R = +20 +10 -30;  S T U = +10 +20 -30
    # round 2: P S T = +10 +20 -30;  Q R U = +20 -10 -10
    # P 30 (best 20), Q 30 (best 20), S 30 (best 20): three tied on total and best round.
    # head-to-head (own − other's score in shared rounds): P–Q round 1: +10 for P;
    # P–S round 2: 10 - 20 = -10 for P; Q–S never met. P = +10 - 10 = 0, Q = -10, S = +10.
    # T: -10, best 20. R: -40, best -10; U: -40, best -10: they shared round 2 (-10, -10):
    # h2h 0 each; hu decides: R 16 (won a hand), U 0.
    t = state(
        list("PQRSTU"),
        [
            [([0, 1, 2], [20, 10, -30], [11, 10, 0]), ([3, 4, 5], [10, 20, -30], [10, 12, 0])],
            [([0, 3, 4], [10, 20, -30], [10, 13, 0]), ([1, 2, 5], [20, -10, -10], [15, 16, 0])],
        ],
    )
    rows = [(s.place, s.name, s.total, s.h2h, s.hu, s.wins) for s in t.standings()]
    assert rows == [
        (1, "S", 30, 10, 23, 2),
        (2, "P", 30, 0, 21, 2),
        (3, "Q", 30, -10, 25, 2),
        (4, "T", -10, 0, 12, 1),
        (5, "R", -40, 0, 16, 1),
        (6, "U", -40, 0, 0, 0),
    ]


def test_players_tied_on_everything_share_a_place() -> None:
    # one table of three, twice: Z 0 with best 20 first; X and Y 0 with best 10, h2h 0
    # (10 - 10, then -10 - -10), hu 12 each: they share second place
    t = state(
        ["X", "Y", "Z"],
        [[([0, 1, 2], [10, 10, -20], [12, 12, 0])], [([2, 0, 1], [20, -10, -10], [15, 0, 0])]],
    )
    assert [(s.place, s.name, s.total) for s in t.standings()] == [(1, "Z", 0), (2, "X", 0), (2, "Y", 0)]


def test_leitai_final_the_champion_keeps_the_title_unless_beaten() -> None:
    # Swiss round: A +30, B +20, C -50 | D +10, E 0, F -10  → A, B, D lead
    swiss = [([0, 1, 2], [30, 20, -50], [15, 14, 0]), ([3, 4, 5], [10, 0, -10], [11, 0, 0])]
    names = list("ABCDEF")
    t = state(names, [swiss], swiss=1, leitai=True)
    assert t.status is TournamentStatus.BETWEEN_ROUNDS
    final = t.start_round().round(2)
    assert final.kind == "leitai" and final.tables[0].seats == (0, 1, 3)  # the leader sits first
    # a draw at the final table: A defends the title; B and D by final score, then Swiss place
    held = state(names, [swiss, [([0, 1, 3], [0, 0, 0], [0, 0, 0])]], swiss=1, leitai=True)
    assert held.champion == 0
    assert [(s.place, s.name, s.final) for s in held.ranking()] == [
        (1, "A", 0), (2, "B", 0), (3, "D", 0), (4, "E", None), (5, "F", None), (6, "C", None)
    ]  # fmt: skip
    # D scores most at the final: D takes the title; A above B on final score
    taken = state(names, [swiss, [([0, 1, 3], [10, -40, 30], [12, 0, 20])]], swiss=1, leitai=True)
    assert taken.champion == 3
    assert [s.name for s in taken.ranking()][:4] == ["D", "A", "B", "E"]
    # A ties the top challenger: the champion keeps the title
    tied = state(names, [swiss, [([0, 1, 3], [20, -40, 20], [12, 0, 20])]], swiss=1, leitai=True)
    assert tied.champion == 0 and [s.name for s in tied.ranking()][:3] == ["A", "D", "B"]


# -- JSON -------------------------------------------------------------------------------


def test_json_round_trip_at_every_step() -> None:
    t = bots(7, ("random", "heuristic"), rounds=2, leitai=True, start=datetime(2025, 3, 1, 12, tzinfo=UTC))
    seen = [t]
    while t.status is not TournamentStatus.FINISHED:
        t, _ = play_round(t)
        seen.append(t)
    for value in seen:
        text = json.dumps(value.to_json(), ensure_ascii=False)
        assert Tournament.from_json(json.loads(text)) == value
    assert t.champion is not None


@pytest.mark.parametrize(
    ("spoil", "fragment"),
    [
        (lambda d: d.pop("entrants"), "entrants"),
        (lambda d: d.update(kind="match"), "kind"),
        (lambda d: d["played"][0]["tables"][0]["seats"].__setitem__(0, 99), r"played\[0\].tables\[0\].seats"),
        (lambda d: d["played"][0]["tables"][0]["result"]["totals"].__setitem__(0, 5), "sum to 0"),
        (lambda d: d["played"][0]["tables"].pop(), "every entrant"),
        (lambda d: d.update(rules={"dealer": "winner"}), "dealer: rotate"),
    ],
)
def test_a_bad_state_names_its_field(spoil: Any, fragment: str) -> None:
    t, _ = play_round(bots(6))
    data = t.to_json()
    spoil(data)
    with pytest.raises(TournamentError, match=fragment):
        Tournament.from_json(data)


# -- the store: a restart between rounds loses nothing ----------------------------------


async def test_a_tournament_survives_a_restart_between_rounds(db_url: str) -> None:
    start = bots(9, ("random", "heuristic"), rounds=3, leitai=True, seed=4)
    straight = run_tournament(start)  # played in one go, never stored
    store = await Store.open(db_url)
    try:
        tid = await create_stored(store, start)
        t, played = play_round(start)
        version, ids = await save_stored(store, tid, t, played, version=1)
        assert version == 2 and len(ids) == 3
        with pytest.raises(StaleTournamentError):
            await save_stored(store, tid, t, version=1)
    finally:
        await store.close()
    # the server goes down; a new one opens the same database and carries on
    store = await Store.open(db_url)
    try:
        t, found = await load_stored(store, tid)
        assert t.status is TournamentStatus.BETWEEN_ROUNDS and found.summary.version == 2
        version = found.summary.version
        while t.status is not TournamentStatus.FINISHED:
            t, played = play_round(t)
            version, _ = await save_stored(store, tid, t, played, version=version)
        [summary] = await store.list_tournaments()
        assert (summary.id, summary.info.status, summary.info.played, summary.info.players) == (tid, "finished", 4, 9)
    finally:
        await store.close()
    store = await Store.open(db_url)
    try:
        again, found = await load_stored(store, tid)
        # the same tournament as the one never interrupted: deals, seatings, results
        assert again == t == straight
        assert found.summary.info.champion == straight.entrants[straight.champion or 0].name
        # every table's match is stored, with its hands, and linked to its table
        assert sorted(found.matches) == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2), (4, 0)]
        summary, hands, record = await store.get_match(found.matches[(2, 1)]) or (None, [], None)
        assert summary is not None and summary.room == f"T{tid}-2-2" and len(hands) == 3 and record is not None
        assert list(summary.seats) == list(again.seat_names(2, 1))
        assert list(summary.totals) == list(again.table(2, 1).result.totals)  # type: ignore[union-attr]
        assert await store.get_tournament(tid + 1) is None
    finally:
        await store.close()


def test_bot_rounds_refuse_people() -> None:
    t = bots(3).register("阿华")
    with pytest.raises(TournamentError, match="is a person"):
        play_round(t)

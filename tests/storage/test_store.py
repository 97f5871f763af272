"""The web server's store (erqishi.storage): database URLs, the migrations, round trips of
matches and hands played by the engine, listing, and that a failed write leaves nothing
behind; the store takes typed records (``HandRecord`` with its result, ``MatchRecord``)
and stores their JSON. Every store test runs on SQLite and on PostgreSQL (``postgres_url``, conftest.py),
each on a database of its own.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from conftest import shared_dir
from erqishi.core import RecordError, RuleSet
from erqishi.core.engine import Deal
from erqishi.play import PlayedHand, PlayedMatch, play_hand, play_match, random_chooser
from erqishi.records import HandRecord, MatchRecord, parse_record
from erqishi.storage import (
    HandSummary,
    MatchSummary,
    Store,
    UnknownMatchError,
    alembic_config,
    database_urls,
    mask_url,
    upgrade,
)
from erqishi.storage.__main__ import main as storage_main
from erqishi.storage.schema import metadata
from support.sql import as_json
from support.sql import rows as raw

SEATS = ("甲", "乙", "丙")
LESHAN = RuleSet.load("leshan")
MATCH_KEYS = ["id", "room", "created", "finished", "rules", "preset", "seats", "totals", "leaders", "hands"]
HAND_KEYS = ["id", "match", "index", "quan", "dealer", "kind", "winner", "score", "payments"]


# -- games to store ---------------------------------------------------------------------


def played(seed: int, dealer: int = 0, quan: int | None = 1) -> PlayedHand:
    """A hand played by random choosers from the shuffle of ``seed``."""
    deal = Deal.shuffled(random.Random(seed), dealer)
    return play_hand(deal, random_chooser(random.Random(seed + 1000)), quan=quan, seats=SEATS)


@cache
def hand_of_kind(kind: str) -> PlayedHand:
    """The first hand of seeds 0, 1, 2… that ends ``kind`` (``win`` or ``dead``)."""
    for seed in range(1000):
        hand = played(seed, seed % 3, quan=seed % 10 + 1)
        if hand.outcome.kind == kind:
            return hand
    raise AssertionError(f"no {kind} hand in 1000 seeds")


def hand_record(kind: str) -> dict[str, Any]:
    """A fresh copy of the record (with its result) of a hand that ends ``kind``, as JSON."""
    return copy.deepcopy(hand_of_kind(kind).to_json())


def typed(hand: PlayedHand) -> HandRecord:
    """The typed record of a played hand with the engine's result, as the server stores it."""
    return hand.record.with_result(hand.outcome)


def typed_match(game: PlayedMatch) -> MatchRecord:
    """The typed match record of a played match, every hand with its result."""
    return MatchRecord(game.match.rules, game.seats, tuple(typed(h) for h in game.hands), game.totals)


def short_match(seed: int) -> PlayedMatch:
    """A match of one 圈 (three hands at least) played by random choosers."""
    rules = RuleSet.from_options({"match_quan": 1})
    return play_match(random.Random(seed), random_chooser(random.Random(seed + 1)), rules, seats=SEATS)


# -- databases --------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new schema in the PostgreSQL test database
    (its URL sets ``search_path`` to it), dropped afterwards."""
    if request.param == "sqlite":
        yield str(tmp_path / "web.db")
        return
    url: str = request.getfixturevalue("postgres_schema_url")
    yield url


@pytest.fixture
async def store(store_url: str) -> Any:
    opened = await Store.open(store_url)
    yield opened
    await opened.close()


def stored_totals(url: str, match_id: int) -> list[int]:
    rows = raw(url, "SELECT totals FROM web_matches WHERE id = :id", id=match_id)
    assert len(rows) == 1
    totals: list[int] = as_json(rows[0][0])
    return totals


def hand_rows(url: str) -> int:
    count: int = raw(url, "SELECT count(*) FROM web_hands")[0][0]
    return count


def running_totals(hands: list[PlayedHand]) -> list[list[int]]:
    """The match totals after each hand: the sums of the payments so far."""
    totals = [0] * len(SEATS)
    out = []
    for hand in hands:
        totals = [t + p for t, p in zip(totals, hand.outcome.payments, strict=True)]
        out.append(totals)
    return out


async def new_match(store: Store, room: str = "K7M2QX", seats: tuple[str, ...] = SEATS) -> int:
    return await store.create_match(room=room, preset="leshan", rules=LESHAN.to_options(), seats=seats, seed=7)


# -- database URLs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("web.db", ("sqlite+aiosqlite:///web.db", "sqlite+pysqlite:///web.db")),
        (
            "/var/lib/erqishi/web.db",
            ("sqlite+aiosqlite:////var/lib/erqishi/web.db", "sqlite+pysqlite:////var/lib/erqishi/web.db"),
        ),
        ("sqlite:///web.db", ("sqlite+aiosqlite:///web.db", "sqlite+pysqlite:///web.db")),
        ("sqlite+aiosqlite:///data/web.db", ("sqlite+aiosqlite:///data/web.db", "sqlite+pysqlite:///data/web.db")),
        ("postgresql://u:pw@127.0.0.1:5432/db", ("postgresql+psycopg://u:pw@127.0.0.1:5432/db",) * 2),
        ("postgres://u:pw@db.example/erqishi", ("postgresql+psycopg://u:pw@db.example/erqishi",) * 2),
        ("postgresql+psycopg://u:pw@h/db?sslmode=disable", ("postgresql+psycopg://u:pw@h/db?sslmode=disable",) * 2),
        ("postgresql://u:p%40ss%2Fw@h/db", ("postgresql+psycopg://u:p%40ss%2Fw@h/db",) * 2),
    ],
)
def test_database_urls(url: str, expected: tuple[str, str]) -> None:
    assert database_urls(url) == expected


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("mysql://root:hunter2@db/erqishi", "mysql://root:***@db/erqishi"),
        ("postgresql+asyncpg://u:hunter2@h/db", "postgresql+asyncpg://u:***@h/db"),
        ("sqlite+pysqlcipher://:hunter2@/web.db", "sqlite+pysqlcipher://:***@/web.db"),
        ("http://u:hunter2@example.org/", "http://u:***@example.org/"),
        ("sqlite://", "sqlite://"),
        ("sqlite:///:memory:", ":memory:"),
        (":memory:", ":memory:"),
        ("", "no database URL"),
    ],
)
def test_database_urls_refuses_other_databases_without_showing_the_password(url: str, named: str) -> None:
    with pytest.raises(ValueError) as info:
        database_urls(url)
    message = str(info.value)
    assert named in message
    assert "hunter2" not in message


def test_mask_url() -> None:
    assert (
        mask_url("postgresql://erqishi:s3cret@127.0.0.1:5432/erqishi")
        == "postgresql://erqishi:***@127.0.0.1:5432/erqishi"
    )
    assert mask_url("postgresql://erqishi@127.0.0.1/erqishi") == "postgresql://erqishi@127.0.0.1/erqishi"
    assert mask_url("web.db") == "web.db"


# -- migrations -------------------------------------------------------------------------


def test_upgrade_creates_the_tables_and_stamps_the_head(store_url: str) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head == "0004"
    upgrade(store_url)
    engine = create_engine(database_urls(store_url)[1], poolclass=NullPool)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            assert {"web_matches", "web_hands", "sim_runs", "sim_hands", "alembic_version"} <= set(
                insp.get_table_names()
            )
            assert {c["name"] for c in insp.get_columns("web_matches")} == {
                "id", "room", "created", "finished", "preset", "rules", "seats", "seed", "totals", "leaders", "record",
                "live_key",
            }  # fmt: skip
            assert {c["name"] for c in insp.get_columns("web_hands")} == {
                "id", "match_id", "idx", "created", "quan", "dealer", "kind", "winner", "score", "payments", "record"
            }  # fmt: skip
            indexes = {i["name"]: i["column_names"] for i in insp.get_indexes("web_matches")}
            assert indexes["ix_web_matches_created_id"] == ["created", "id"]
            assert indexes["ix_web_matches_room"] == ["room"]
            assert indexes["ix_web_matches_live_key"] == ["live_key"]
            # the journal of the live rooms (migration 0003)
            assert {c["name"] for c in insp.get_columns("live_log")} == {"room", "seq", "kind", "created", "data"}
            assert insp.get_pk_constraint("live_log")["constrained_columns"] == ["room", "seq"]
            # the tournaments (migration 0004)
            assert {c["name"] for c in insp.get_columns("tournaments")} == {
                "id", "name", "created", "updated", "status", "players", "rounds", "played", "champion", "version",
                "state",
            }  # fmt: skip
            assert insp.get_pk_constraint("tournament_matches")["constrained_columns"] == [
                "tournament_id", "round_no", "table_no"
            ]  # fmt: skip
            assert {fk["referred_table"] for fk in insp.get_foreign_keys("tournament_matches")} == {
                "tournaments", "web_matches"
            }  # fmt: skip
            uniques = [u["column_names"] for u in insp.get_unique_constraints("web_hands")]
            assert ["match_id", "idx"] in uniques
            [fk] = insp.get_foreign_keys("web_hands")
            assert (fk["constrained_columns"], fk["referred_table"]) == (["match_id"], "web_matches")
            # the runs of `erqishi sim` (migration 0002)
            assert {c["name"] for c in insp.get_columns("sim_runs")} == {
                "id", "created", "seed", "hands", "bots", "rules", "summary"
            }  # fmt: skip
            assert {c["name"] for c in insp.get_columns("sim_hands")} == {
                "run_id", "idx", "seats", "kind", "winner", "payments", "record"
            }  # fmt: skip
            assert insp.get_pk_constraint("sim_hands")["constrained_columns"] == ["run_id", "idx"]
            [fk] = insp.get_foreign_keys("sim_hands")
            assert (fk["constrained_columns"], fk["referred_table"]) == (["run_id"], "sim_runs")
            # the migrations build exactly the tables the store's queries are written against
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [head]
    finally:
        engine.dispose()
    upgrade(store_url)  # a second run has nothing to do
    assert raw(store_url, "SELECT version_num FROM alembic_version") == [(head,)]


async def test_open_migrates_a_new_database(store_url: str) -> None:
    store = await Store.open(store_url)
    try:
        assert await store.list_matches() == []
        assert raw(store_url, "SELECT version_num FROM alembic_version") == [("0004",)]
    finally:
        await store.close()
    # reopening keeps what was stored
    store = await Store.open(store_url)
    try:
        match_id = await new_match(store)
        assert [m.id for m in await store.list_matches()] == [match_id]
    finally:
        await store.close()
    store = await Store.open(store_url)
    try:
        assert [m.id for m in await store.list_matches()] == [match_id]
    finally:
        await store.close()


def test_module_command_upgrades(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cli.db"
    assert storage_main(["upgrade", str(path)]) == 0
    assert raw(str(path), "SELECT version_num FROM alembic_version") == [("0004",)]
    assert storage_main(["upgrade", "mysql://root:hunter2@db/x"]) == 2
    err = capsys.readouterr().err
    assert "mysql://root:***@db/x" in err
    assert "hunter2" not in err


# -- summaries as JSON ------------------------------------------------------------------


def test_summaries_as_protocol_json() -> None:
    cst = timezone(timedelta(hours=8))
    match = MatchSummary(
        id=3,
        room="K7M2QX",
        created=datetime(2025, 3, 1, 8, 15, 30, 250000, tzinfo=UTC),
        finished=datetime(2025, 3, 1, 17, 0, 0, tzinfo=cst),
        preset="leshan",
        rules={"players": 3},
        seats=SEATS,
        seed=42,
        totals=(30, 60, -90),
        leaders=(1,),
        hands=12,
    )
    assert match.to_json() == {
        "id": 3,
        "room": "K7M2QX",
        "created": "2025-03-01T08:15:30.250Z",
        "finished": "2025-03-01T09:00:00.000Z",
        "rules": {"players": 3},
        "preset": "leshan",
        "seats": ["甲", "乙", "丙"],
        "totals": [30, 60, -90],
        "leaders": [1],
        "hands": 12,
    }
    assert list(match.to_json()) == MATCH_KEYS
    hand = HandSummary(
        id=9, match=3, index=0, quan=None, dealer=2, kind="dead", winner=None, score=0, payments=(0, 0, 0)
    )
    assert hand.to_json() == {
        "id": 9,
        "match": 3,
        "index": 0,
        "quan": None,
        "dealer": 2,
        "kind": "dead",
        "winner": None,
        "score": 0,
        "payments": [0, 0, 0],
    }
    assert list(hand.to_json()) == HAND_KEYS


# -- round trips ------------------------------------------------------------------------


async def test_match_round_trip(store: Store) -> None:
    before = datetime.now(UTC)
    rules = RuleSet.from_options({"match_quan": 4}).to_options()
    match_id = await store.create_match(room="AB12CD", preset="leshan", rules=rules, seats=SEATS, seed=2**63 - 1)
    after = datetime.now(UTC)
    got = await store.get_match(match_id)
    assert got is not None
    summary, hands, record = got
    assert (summary.id, summary.room, summary.preset, summary.rules) == (match_id, "AB12CD", "leshan", rules)
    assert (summary.seats, summary.seed, summary.totals) == (SEATS, 2**63 - 1, (0, 0, 0))
    assert (summary.finished, summary.leaders, summary.hands) == (None, None, 0)
    assert before - timedelta(seconds=1) <= summary.created <= after + timedelta(seconds=1)
    assert summary.created.utcoffset() == timedelta(0)
    assert hands == []
    assert record is None
    data = summary.to_json()
    assert list(data) == MATCH_KEYS
    assert data["created"].endswith("Z")
    assert abs(datetime.fromisoformat(data["created"]) - summary.created) < timedelta(milliseconds=1)
    assert data["finished"] is None
    assert await store.get_match(match_id + 1) is None


async def test_hands_round_trip(store: Store) -> None:
    games = [hand_of_kind("win"), hand_of_kind("dead"), played(5, dealer=1, quan=None)]
    match_id = await new_match(store)
    totals = running_totals(games)
    hand_ids = []
    for index, (game, after) in enumerate(zip(games, totals, strict=True)):
        hand_ids.append(await store.save_hand(match_id, index, typed(game), after))
    assert len(set(hand_ids)) == 3

    got = await store.get_match(match_id)
    assert got is not None
    summary, hands, _ = got
    assert summary.hands == 3
    assert summary.totals == tuple(totals[-1])
    assert [h.id for h in hands] == hand_ids
    for index, (game, hand) in enumerate(zip(games, hands, strict=True)):
        result = game.to_json()["result"]
        assert isinstance(result, dict)
        win = result["kind"] == "win"
        expected = HandSummary(
            id=hand_ids[index],
            match=match_id,
            index=index,
            quan=game.record.quan,
            dealer=game.record.deal.dealer,
            kind=result["kind"],
            winner=result["winner"] if win else None,
            score=result["score"] if win else 0,
            payments=tuple(result["payments"]),
        )
        assert hand == expected
        stored = await store.get_hand(hand_ids[index])
        assert stored is not None
        assert stored[0] == expected
        # the record comes back as it went in, keys in their order
        assert json.dumps(stored[1], ensure_ascii=False) == json.dumps(game.to_json(), ensure_ascii=False)
    assert hands[1].to_json()["kind"] == "dead"
    assert (hands[1].score, hands[1].winner) == (0, None)
    assert hands[0].winner is not None and hands[0].score > 0
    assert hands[2].quan is None and hands[2].dealer == 1
    assert await store.get_hand(max(hand_ids) + 1) is None


async def test_finish_match_round_trip(store: Store) -> None:
    game = short_match(3)
    assert len(game.hands) >= 3
    match_id = await new_match(store)
    for index, (hand, after) in enumerate(zip(game.hands, running_totals(list(game.hands)), strict=True)):
        await store.save_hand(match_id, index, typed(hand), after)
    before = datetime.now(UTC)
    await store.finish_match(match_id, typed_match(game), game.totals, game.match.leaders)
    after = datetime.now(UTC)
    got = await store.get_match(match_id)
    assert got is not None
    summary, hands, record = got
    assert summary.totals == game.totals
    assert summary.leaders == game.match.leaders
    assert summary.finished is not None
    assert before - timedelta(seconds=1) <= summary.finished <= after + timedelta(seconds=1)
    assert summary.to_json()["finished"].endswith("Z")
    assert summary.hands == len(hands) == len(game.hands)
    assert record == game.to_json()
    [listed] = await store.list_matches()
    assert listed == summary


async def test_listing_is_newest_first_and_pages(store: Store) -> None:
    game = hand_of_kind("dead")
    ids = []
    for n in range(5):
        match_id = await new_match(store, room=f"ROOM0{n}")
        for index in range(n):
            await store.save_hand(match_id, index, typed(game), [0, 0, 0])
        ids.append(match_id)
    newest_first = ids[::-1]
    listed = await store.list_matches()
    assert [m.id for m in listed] == newest_first
    assert [m.room for m in listed] == ["ROOM04", "ROOM03", "ROOM02", "ROOM01", "ROOM00"]
    assert [m.hands for m in listed] == [4, 3, 2, 1, 0]
    assert [m.id for m in await store.list_matches(limit=2)] == newest_first[:2]
    assert [m.id for m in await store.list_matches(limit=2, offset=2)] == newest_first[2:4]
    assert [m.id for m in await store.list_matches(limit=2, offset=4)] == newest_first[4:]
    assert await store.list_matches(limit=2, offset=5) == []
    assert await store.list_matches(limit=0) == []
    with pytest.raises(ValueError):
        await store.list_matches(limit=-1)


async def test_concurrent_saves_to_different_matches(store: Store) -> None:
    games = [hand_of_kind("win"), hand_of_kind("dead"), played(11)]
    matches = [await new_match(store, room=f"ROOM{n}") for n in range(3)]
    totals = running_totals(games)
    await asyncio.gather(
        *(
            store.save_hand(m, index, typed(game), after)
            for m in matches
            for index, (game, after) in enumerate(zip(games, totals, strict=True))
        )
    )
    for m in matches:
        got = await store.get_match(m)
        assert got is not None
        assert got[0].hands == 3
        assert [h.index for h in got[1]] == [0, 1, 2]


# -- failed writes leave nothing --------------------------------------------------------


async def test_unknown_match_raises_and_writes_nothing(store: Store, store_url: str) -> None:
    match_id = await new_match(store)
    record = typed(hand_of_kind("win"))
    with pytest.raises(UnknownMatchError) as info:
        await store.save_hand(match_id + 1, 0, record, [10, -5, -5])
    assert isinstance(info.value, KeyError)
    assert str(info.value) == f"no stored match {match_id + 1}"
    assert hand_rows(store_url) == 0
    assert stored_totals(store_url, match_id) == [0, 0, 0]
    with pytest.raises(KeyError):
        await store.finish_match(match_id + 1, typed_match(short_match(1)), short_match(1).totals, [0])
    assert raw(store_url, "SELECT count(*) FROM web_matches WHERE finished IS NOT NULL OR record IS NOT NULL") == [(0,)]


def _bad_card(r: dict[str, Any]) -> None:
    r["deal"]["hands"][0] += " x11"


def _fifth_copy(r: dict[str, Any]) -> None:
    first = r["deal"]["hands"][0].split()[0]
    r["deal"]["stock"] = " ".join([first, *r["deal"]["stock"].split()[1:]])
    r["deal"]["hands"][1] = " ".join([first] * 5 + r["deal"]["hands"][1].split()[5:])


def _bad_kind(r: dict[str, Any]) -> None:
    r["result"]["kind"] = "draw"


def _short_payments(r: dict[str, Any]) -> None:
    r["result"]["payments"] = r["result"]["payments"][:2]


def _no_winner(r: dict[str, Any]) -> None:
    del r["result"]["winner"]


def _format_2(r: dict[str, Any]) -> None:
    r["format"] = 2


def _not_json(r: dict[str, Any]) -> None:
    r["result"]["fan"] = {"清"}


def _bad_action(r: dict[str, Any]) -> None:
    r["actions"][0] = [0, "discard z9"]


BAD_RECORDS: list[tuple[str, str, Callable[[dict[str, Any]], None]]] = [
    ("bad card", "deal.hands[0]", _bad_card),
    ("fifth copy", "deal", _fifth_copy),
    ("result kind", "result.kind", _bad_kind),
    ("short payments", "result.payments", _short_payments),
    ("win without winner", "result.winner", _no_winner),
    ("format 2", "format", _format_2),
    ("not JSON", "result.fan", _not_json),
    ("bad action", "actions[0]", _bad_action),
]


@pytest.mark.parametrize(("field", "spoil"), [b[1:] for b in BAD_RECORDS], ids=[b[0] for b in BAD_RECORDS])
def test_a_bad_record_never_becomes_one_to_store(field: str, spoil: Callable[[dict[str, Any]], None]) -> None:
    """The store takes typed records only: a spoiled record is refused when it is read,
    naming the field, before anything could reach the store."""
    bad = hand_record("win")
    spoil(bad)
    with pytest.raises(RecordError, match=rf"^{re.escape(field)}: "):
        parse_record(bad)


async def test_a_hand_without_its_result_is_refused_and_nothing_written(store: Store, store_url: str) -> None:
    match_id = await new_match(store)
    good = hand_of_kind("win")
    await store.save_hand(match_id, 0, typed(good), list(good.outcome.payments))
    with pytest.raises(RecordError, match="result: is missing"):
        await store.save_hand(match_id, 1, replace(typed(good), result=None), [100, -50, -50])
    assert hand_rows(store_url) == 1
    assert stored_totals(store_url, match_id) == list(good.outcome.payments)
    game = short_match(5)
    first, *rest = typed_match(game).hands
    unfinished = replace(typed_match(game), hands=(replace(first, result=None), *rest))
    with pytest.raises(RecordError, match=r"hands\[0\]\.result: is missing"):
        await store.finish_match(match_id, unfinished, game.totals, game.match.leaders)
    assert raw(store_url, "SELECT finished, record FROM web_matches") == [(None, None)]


async def test_the_stored_record_is_the_typed_records_json(store: Store) -> None:
    """A record read from a file (the worked game-02 of ../shared/cases/records) is stored
    as its ``to_json()``: the file's own JSON, key for key, and its summary columns come
    from its result (kind win, winner 0, score 20, payments [60, -60, 0])."""
    text = (shared_dir() / "cases" / "records" / "game-02.json").read_text(encoding="utf-8")
    record = parse_record(json.loads(text))
    assert isinstance(record, HandRecord)
    match_id = await new_match(store, seats=("A", "B", "C"))
    hand_id = await store.save_hand(match_id, 0, record, [60, -60, 0])
    got = await store.get_hand(hand_id)
    assert got is not None
    summary, stored = got
    assert (summary.kind, summary.winner, summary.score, summary.payments) == ("win", 0, 20, (60, -60, 0))
    assert (summary.quan, summary.dealer) == (7, 1)
    assert json.dumps(stored, ensure_ascii=False) == json.dumps(json.loads(text), ensure_ascii=False)


async def test_a_match_record_is_not_a_hand_record(store: Store, store_url: str) -> None:
    match_id = await new_match(store)
    with pytest.raises(RecordError, match="hand record"):
        await store.save_hand(match_id, 0, typed_match(short_match(2)), [0, 0, 0])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="match"):
        await store.finish_match(match_id, typed(hand_of_kind("dead")), [0, 0, 0], [0, 1, 2])  # type: ignore[arg-type]
    assert hand_rows(store_url) == 0
    assert raw(store_url, "SELECT finished, record FROM web_matches") == [(None, None)]


async def test_totals_and_hand_are_written_together(store: Store, store_url: str) -> None:
    """A write that fails after the totals were updated in its transaction rolls them back."""
    first, second = hand_of_kind("win"), played(5)
    match_id = await new_match(store)
    await store.save_hand(match_id, 0, typed(first), list(first.outcome.payments))
    assert stored_totals(store_url, match_id) == list(first.outcome.payments)
    # index 0 again: the insert fails after the update of the totals
    with pytest.raises(ValueError, match="already has a hand 0"):
        await store.save_hand(match_id, 0, typed(second), [7, 8, -15])
    # four totals for three seats: found only once the match row is read
    with pytest.raises(ValueError, match="one entry per seat"):
        await store.save_hand(match_id, 1, typed(second), [1, 2, 3, -6])
    assert stored_totals(store_url, match_id) == list(first.outcome.payments)
    assert hand_rows(store_url) == 1
    stored = await store.get_match(match_id)
    assert stored is not None and stored[0].hands == 1
    # a record of three seats for a match of four
    four = await new_match(store, seats=("甲", "乙", "丙", "丁"))
    with pytest.raises(RecordError, match="seats"):
        await store.save_hand(four, 0, typed(second), [1, 1, 1, -3])
    assert stored_totals(store_url, four) == [0, 0, 0, 0]
    assert hand_rows(store_url) == 1
    # and a good save updates both
    await store.save_hand(match_id, 1, typed(second), [9, 9, -18])
    assert stored_totals(store_url, match_id) == [9, 9, -18]
    assert hand_rows(store_url) == 2


async def test_finish_match_checks_before_it_writes(store: Store, store_url: str) -> None:
    game = short_match(4)
    match_id = await new_match(store)
    wrong = [t + 1 for t in game.totals[:-1]] + [game.totals[-1] - 2]
    with pytest.raises(RecordError, match="totals"):
        await store.finish_match(match_id, typed_match(game), wrong, [0])
    with pytest.raises(ValueError, match="leaders"):
        await store.finish_match(match_id, typed_match(game), game.totals, [3])
    with pytest.raises(ValueError, match="one entry per seat"):
        await store.finish_match(match_id, replace(typed_match(game), totals=None), [*game.totals, 0], [0])
    assert raw(store_url, "SELECT finished, record, leaders FROM web_matches") == [(None, None, None)]
    assert stored_totals(store_url, match_id) == [0, 0, 0]


async def test_create_match_checks_its_input(store: Store, store_url: str) -> None:
    with pytest.raises(ValueError, match="seed"):
        await store.create_match(room="R", preset="leshan", rules={}, seats=SEATS, seed=2**63)
    with pytest.raises(ValueError, match="seats"):
        await store.create_match(room="R", preset="leshan", rules={}, seats=[], seed=1)
    with pytest.raises(ValueError, match="rules"):
        await store.create_match(room="R", preset="leshan", rules={"x": {1, 2}}, seats=SEATS, seed=1)
    assert raw(store_url, "SELECT count(*) FROM web_matches") == [(0,)]
    negative = await store.create_match(room="R", preset="leshan", rules={}, seats=SEATS, seed=-(2**63))
    got = await store.get_match(negative)
    assert got is not None and got[0].seed == -(2**63)


def test_an_sqlite_file_of_another_program_is_never_written_into(tmp_path: Path) -> None:
    """A file that holds another program's tables and none of erqishi's is refused by
    every way in (the migrations, the readers, the sim), and left exactly as it was."""
    import sqlite3

    from erqishi.cli import main
    from erqishi.storage import upgrade

    other = tmp_path / "web.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE users (name TEXT)")
        conn.execute("INSERT INTO users VALUES ('ann')")
    before = other.read_bytes()
    with pytest.raises(ValueError, match="not an erqishi database"):
        upgrade(str(other))
    for args in (["runs"], ["ratings"], ["sim", "-n", "2"]):
        assert main([*args, "--db", str(other)]) != 0
    assert other.read_bytes() == before
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()  # an empty file is a new database
    upgrade(str(empty))
    with sqlite3.connect(empty) as conn:
        assert ("alembic_version",) in conn.execute("SELECT name FROM sqlite_master").fetchall()

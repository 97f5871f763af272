"""争霸赛 in the web game (docs/tournament.md, "In the web game"): an organiser creates a
tournament, players register by name, the organiser starts each round; every table is a
room whose people's seats are reserved for their player tokens and whose bots fill the
rest; every table of a round plays the same deals (compared hand by hand in the stored
matches, and against the round's seed); the standings are the core's over the stored
results; a table's deals stay sealed until its round is over; bad requests are refused
one by one and change nothing; a server killed between rounds, or during one, loses
nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from erqishi.core.engine import Deal
from erqishi.play import Table
from erqishi.records import MatchRecord, parse_record
from erqishi.server.settings import Settings
from erqishi.server.tournaments import RECONCILE_SECONDS
from erqishi.tournament import TableResult, Tournament
from support.serveproc import ServeProcess
from support.sql import as_json, rows
from support.webclient import Client
from support.webserver import RunningServer, running_server

#: Bots move at once, an absent player is played by the bot after 0.3 s, hands follow at once.
FAST: dict[str, Any] = {
    "bot_delay": 0.0,
    "grace_seconds": 0.3,
    "next_hand_seconds": 0.1,
    "response_seconds": 30.0,
    "turn_seconds": 30.0,
    "rate_per_second": 1e4,
}
ARGS = ["--grace-seconds", "0.3", "--next-hand-seconds", "0.1", "--response-seconds", "30", "--turn-seconds", "30"]
NAMES = ["阿华", "小明", "Ann", "Bob"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    settings = Settings(db_url=str(tmp_path / "web.db"), spool=str(tmp_path / "spool"), seed=11, **FAST)
    with running_server(settings) as srv:
        yield srv


def stored(url: str, tournament_id: int) -> tuple[Tournament, dict[str, Any], dict[tuple[int, int], int], int]:
    """The tournament as the database holds it: its value, raw state, table matches, version."""
    ((state, version),) = rows(url, "SELECT state, version FROM tournaments WHERE id = :i", i=tournament_id)
    links = rows(
        url, "SELECT round_no, table_no, match_id FROM tournament_matches WHERE tournament_id = :i", i=tournament_id
    )
    data = as_json(state)
    return Tournament.from_json(data), data, {(r, t): m for r, t, m in links}, version


async def call(http: httpx.AsyncClient, method: str, path: str, body: Any = None, status: int = 200) -> Any:
    reply = await http.request(method, path, json=body)
    assert reply.status_code == status, f"{method} {path}: {reply.status_code} {reply.text}"
    return reply.json()


async def refused(http: httpx.AsyncClient, method: str, path: str, body: Any, status: int, code: str) -> str:
    """A request refused with one JSON error of ``code``; its message."""
    got = await call(http, method, path, body, status)
    assert got["type"] == "error" and got["code"] == code, got
    assert isinstance(got["message"], str) and got["message"]
    if status != 422:  # (422: the request's shape, in the validation library's English)
        assert re.search(r"[\u4e00-\u9fff]", got.get("message_zh", "")), got  # the Chinese page shows it
    message: str = got["message"]
    return message


async def state_of(http: httpx.AsyncClient, tournament_id: int) -> dict[str, Any]:
    got: dict[str, Any] = (await call(http, "GET", f"/api/tournaments/{tournament_id}"))["tournament"]
    return got


async def wait_until(
    http: httpx.AsyncClient, tournament_id: int, pred: Callable[[dict[str, Any]], bool], timeout: float = 40
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        with_state = await state_of(http, tournament_id)
        if pred(with_state):
            return with_state
        assert time.monotonic() < deadline, f"still {with_state['status']}: {json.dumps(with_state['played'])[:600]}"
        await asyncio.sleep(0.2)


async def setup(http: httpx.AsyncClient, names: list[str], **body: Any) -> tuple[int, str, list[str]]:
    """A tournament with ``names`` registered: its id, the organiser token, the player tokens."""
    made = await call(http, "POST", "/api/tournaments", {"v": 2, "name": "乐山争霸赛", **body}, 201)
    assert made["url"] == f"/t/{made['id']}" and made["register_url"] == made["url"]
    tokens = []
    for i, name in enumerate(names):
        got = await call(http, "POST", f"/api/tournaments/{made['id']}/register", {"v": 2, "name": name}, 201)
        assert (got["entrant"], got["name"]) == (i, name)
        tokens.append(got["token"])
    return made["id"], made["organiser_token"], tokens


def replayed(tournament: Tournament, record_json: Any) -> tuple[TableResult, list[Deal]]:
    """A stored match replayed through the one table: its result and its deals."""
    record = parse_record(record_json)
    assert isinstance(record, MatchRecord)
    table = Table(tournament.rules, random.Random(0), record.seats, auto_close=False, match=tournament.first_match())
    for hand in record.hands:
        table.start_hand(hand.deal, quan=hand.quan)
        for seat, action in hand.actions:
            table.apply_move(seat, action)
    assert table.match_over
    return TableResult.from_table(table), [h.deal for h in record.hands]


def check_round(url: str, tournament_id: int, number: int) -> Tournament:
    """Round ``number`` as stored: every table linked to its finished match, whose replay
    gives the result recorded; every table dealt the same deals, the round's."""
    tournament, _, links, _ = stored(url, tournament_id)
    r = tournament.round(number)
    expected = random.Random(tournament.deal_seed(number))
    deals_by_table = []
    for i, table in enumerate(r.tables):
        assert table.result is not None, f"round {number} table {i + 1} has no result"
        ((room, seed, finished, record),) = rows(
            url, "SELECT room, seed, finished, record FROM web_matches WHERE id = :m", m=links[(number, i)]
        )
        assert room == f"T{tournament_id}-{number}-{i + 1}" and finished is not None
        assert seed == tournament.deal_seed(number)
        result, deals = replayed(tournament, as_json(record))
        assert result == table.result
        deals_by_table.append(deals)
    first = deals_by_table[0]
    for deals in deals_by_table[1:]:
        assert deals == first, "the tables of a round were dealt different hands"
    assert first == [Deal.shuffled(expected, d.dealer, tournament.rules) for d in first]
    assert [d.dealer for d in first] == [k % tournament.size for k in range(len(first))]
    return tournament


# ---------------------------------------------------------------------- one process


async def test_rounds_seat_reserve_play_the_same_deals_and_rank(server: RunningServer, tmp_path: Path) -> None:
    url = str(tmp_path / "web.db")
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        tid, organiser, tokens = await setup(http, NAMES, rounds=2, match_quan=1, wait_seconds=1.5)
        page = await http.get(f"/api/tournaments/{tid}")
        assert organiser not in page.text and hashlib.sha256(organiser.encode()).hexdigest() not in page.text
        assert not any(t in page.text or hashlib.sha256(t.encode()).hexdigest() in page.text for t in tokens)
        s = page.json()["tournament"]
        assert s["status"] == "registering" and s["registering"] and s["next"] == "round"
        assert [e["name"] for e in s["entrants"]] == NAMES and s["rules_words"]["preset"]["zh"]

        s = (await call(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser}))["tournament"]
        assert s["status"] == "playing" and not s["registering"]
        await refused(
            http, "POST", f"/api/tournaments/{tid}/register", {"v": 2, "name": "迟到"}, 409, "registration_closed"
        )
        tables = s["played"][0]["tables"]
        assert [t["code"] for t in tables] == [f"T{tid}-1-1", f"T{tid}-1-2"]
        for t in tables:  # 4 players at 2 tables of three: 2 + 2, a bot in each, shown as one
            people = [seat for seat in t["seats"] if seat["entrant"] is not None]
            bots = [seat for seat in t["seats"] if seat["entrant"] is None]
            assert len(people) == 2 and len(bots) == 1 and bots[0]["bot"] == "heuristic"
            assert bots[0]["name"] == f"heuristic-bot-{bots[0]['seat'] + 1}"
        seat_of = {seat["entrant"]: (t, seat["seat"]) for t in tables for seat in t["seats"]}
        mine, my_seat = seat_of[0]
        other = next(t for t in tables if t is not mine)
        stranger_entrant = next(e for e, (t, _) in seat_of.items() if t is other and e is not None)

        # the room admits 阿华 into her seat with her player token, and nobody else
        ahua = Client(server.ws_url, mine["code"], "Hacker", tokens[0])
        await ahua.connect()
        first = ahua.last_state
        assert first["you"]["seat"] == my_seat and first["room"]["tournament"]["id"] == tid
        assert first["room"]["seats"][my_seat]["name"] == "阿华"  # (the registered name stays)
        for who in (None, tokens[stranger_entrant]):
            intruder = Client(server.ws_url, mine["code"])
            await intruder.connect(hello=False)
            await intruder.send({"v": 2, "type": "hello", **({"token": who} if who else {})})
            error = await intruder.wait_for(lambda m: m["type"] in ("error", "welcome"))
            assert error["type"] == "error" and error["code"] == "tournament_table", error
            await intruder.close()
        for message in ({"type": "sit", "seat": 0}, {"type": "start"}, {"type": "name", "name": "X"}):
            await ahua.send({"v": 2, **message})
            error = await ahua.wait_for(lambda m, k=message["type"]: m["type"] == "error" and m["ref"] == k)
            assert error["code"] == "tournament_table"
        # the table starts when its wait is over (the other person is played by the bot)
        await ahua.wait_for(lambda m: m["type"] == "state" and m["room"]["status"] == "playing", timeout=10)
        await ahua.send({"v": 2, "type": "dissolve"})
        error = await ahua.wait_for(lambda m: m["type"] == "error" and m["ref"] == "dissolve")
        assert error["code"] == "tournament_table"

        # the other table plays on by its bots; 阿华's waits for her: its result is in the
        # standings at once, its deals sealed until hers has played them too
        s = await wait_until(http, tid, lambda s: s["played"][0]["tables"][other["table"]]["result"] is not None)
        assert s["status"] == "playing" and s["played"][0]["tables"][mine["table"]]["result"] is None
        scored = {x["entrant"]: x["scores"] for x in s["standings"]}
        assert all(len(scored[e]) == (1 if t is other else 0) for e, (t, _) in seat_of.items() if e is not None)
        listed = (await call(http, "GET", "/api/matches"))["matches"]
        theirs = next(m for m in listed if m["tournament"]["table"] == other["table"])
        assert theirs["sealed"] and theirs["totals"] is None and theirs["tournament"]["name"] == "乐山争霸赛"
        await refused(http, "GET", f"/api/matches/{theirs['id']}", None, 403, "sealed")
        await refused(http, "GET", f"/api/matches/{theirs['id']}/record", None, 403, "sealed")
        hand_ids = [h for (h,) in rows(url, "SELECT id FROM web_hands WHERE match_id = :m", m=theirs["id"])]
        assert hand_ids
        for path in ("", "/replay", "/record"):
            await refused(http, "GET", f"/api/hands/{hand_ids[0]}{path}", None, 403, "sealed")

        await ahua.send({"v": 2, "type": "tuoguan", "on": True})  # the bot plays her seat now
        s = await wait_until(http, tid, lambda s: s["status"] == "between_rounds")
        await ahua.close()
        assert s["next"] == "round" and all(t["status"] == "finished" for t in s["played"][0]["tables"])
        tournament = check_round(url, tid, 1)
        assert s["standings"] == [x.to_json() for x in tournament.standings()]
        listed = (await call(http, "GET", "/api/matches"))["matches"]
        assert len(listed) == 2 and not any(m["sealed"] for m in listed)
        await call(http, "GET", f"/api/hands/{hand_ids[0]}/replay")

        # round 2: nobody at table with the same co-player again; then the tournament is over
        await call(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser})
        s = await wait_until(http, tid, lambda s: s["status"] == "finished")
        tournament = check_round(url, tid, 2)
        assert tournament.played[1].repeats == 0
        assert s["standings"] == [x.to_json() for x in tournament.standings()]
        assert s["ranking"] == [x.to_json() for x in tournament.ranking()]
        assert s["champion"] == s["ranking"][0]["name"] and s["next"] is None
        await refused(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser}, 409, "bad_state")
        listing = (await call(http, "GET", "/api/tournaments"))["tournaments"]
        assert (
            listing[0]["id"] == tid and listing[0]["status"] == "finished" and listing[0]["champion"] == s["champion"]
        )
        assert (await http.get(f"/t/{tid}", headers={"accept": "text/html"})).status_code == 200
        assert (await http.get("/t/new", headers={"accept": "text/html"})).status_code == 200
        missing = await http.get(f"/t/{tid + 1}", headers={"accept": "text/html"})
        assert missing.status_code == 404 and 'data-testid="error-page"' in missing.text


async def test_bad_requests_are_refused_and_change_nothing(server: RunningServer, tmp_path: Path) -> None:
    url = str(tmp_path / "web.db")
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        body = {"v": 2, "name": "杯赛"}
        for bad, status, code in [
            ({"rules": {"cap": "lots"}}, 400, "bad_rules"),
            ({"rules": {"dealer": "winner"}}, 400, "bad_rules"),  # duplicate deals need a rotating deal
            ({"preset": "nowhere"}, 422, "bad_message"),
            ({"start": "2025-03-01T19:30:00"}, 422, "bad_message"),  # (no time zone)
            ({"rounds": 0}, 422, "bad_message"),
            ({"match_quan": 11}, 422, "bad_message"),
            ({"name": " \u200b "}, 400, "bad_request"),
            ({"name": "x" * 65}, 422, "bad_message"),
            ({"surprise": 1}, 422, "bad_message"),
        ]:
            await refused(http, "POST", "/api/tournaments", {**body, **bad}, status, code)
        assert rows(url, "SELECT count(*) FROM tournaments") == [(0,)]
        await refused(http, "GET", "/api/tournaments/1", None, 404, "not_found")
        await refused(http, "POST", "/api/tournaments/1/register", {"v": 2, "name": "阿华"}, 404, "not_found")
        await refused(http, "GET", "/api/tournaments?limit=0", None, 400, "bad_request")

        tid, organiser, _ = await setup(http, ["阿华"])
        _, before, _, version = stored(url, tid)
        await refused(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser}, 409, "bad_state")
        for name, code in [
            ("阿华", "bad_name"),  # taken
            ("ＢＯＴ 2", "bad_name"),  # passes for a bot
            ("heuristic-bot-1", "bad_name"),
            ("机器人", "bad_name"),
            ("\u200b\u200b", "bad_name"),
            ("名" * 25, "bad_name"),
        ]:
            await refused(http, "POST", f"/api/tournaments/{tid}/register", {"v": 2, "name": name}, 400, code)
        await refused(http, "POST", f"/api/tournaments/{tid}/register", {"v": 2}, 422, "bad_message")
        await refused(http, "POST", f"/api/tournaments/{tid}/register", {"v": 1, "name": "小明"}, 422, "bad_message")
        await refused(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": "guess"}, 403, "not_organiser")
        await refused(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2}, 422, "bad_message")
        await refused(http, "GET", "/api/tournaments/0", None, 422, "bad_message")
        assert stored(url, tid)[1:] == (before, {}, version), "a refused request changed the tournament"
        assert (await state_of(http, tid))["version"] == version
        assert len(server.rooms.rooms) == 0


async def test_round_one_starts_by_itself_at_the_start_time(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        past = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1)
        tid, _, _ = await setup(http, ["阿华"], start=past.isoformat(), wait_seconds=0, rounds=1)
        s = await state_of(http, tid)
        assert s["start"] == past.isoformat() and s["status"] == "registering"
        await asyncio.sleep(RECONCILE_SECONDS + 0.5)  # (one player: it cannot start yet)
        assert (await state_of(http, tid))["status"] == "registering"
        await call(http, "POST", f"/api/tournaments/{tid}/register", {"v": 2, "name": "小明"}, 201)
        s = await wait_until(http, tid, lambda s: s["status"] != "registering", timeout=RECONCILE_SECONDS + 5)
        assert s["status"] in ("playing", "between_rounds") and len(s["played"]) == 1
        await refused(
            http, "POST", f"/api/tournaments/{tid}/register", {"v": 2, "name": "迟到"}, 409, "registration_closed"
        )
        s = await wait_until(http, tid, lambda s: s["status"] == "finished")  # (a round of 1: the tournament)
        assert s["champion"] in ("阿华", "小明")


# ---------------------------------------------------------------------- restarts


def serve(db: str, tmp_path: Path, *more: str) -> ServeProcess:
    return ServeProcess(db, [*ARGS, "--spool", str(tmp_path / "spool"), *more], tmp_path / "serve.log")


async def test_a_restart_between_rounds_loses_nothing(db_url: str, tmp_path: Path) -> None:
    srv = serve(db_url, tmp_path, "--bot-delay", "0")
    await asyncio.to_thread(srv.start)
    try:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            tid, organiser, tokens = await setup(http, NAMES[:3], rounds=2, wait_seconds=0, leitai=True)
            await call(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser})
            before = await wait_until(http, tid, lambda s: s["status"] == "between_rounds")
        srv.kill()
        await asyncio.to_thread(srv.start)
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            after = await state_of(http, tid)
            assert {**after, "played": None} == {**before, "played": None}
            assert [[t["result"] for t in r["tables"]] for r in after["played"]] == [
                [t["result"] for t in r["tables"]] for r in before["played"]
            ]
            await refused(
                http, "POST", f"/api/tournaments/{tid}/register", {"v": 2, "name": "迟到"}, 409, "registration_closed"
            )
            await refused(
                http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": tokens[0]}, 403, "not_organiser"
            )
            # the tokens still work after the restart: the organiser's starts round 2, a
            # player's still opens their reserved seat
            s = (await call(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser}))["tournament"]
            code = s["played"][1]["tables"][0]["code"]
            player = await Client(srv.ws_url, code, None, tokens[1]).connect()
            assert player.last_state["you"]["seat"] is not None
            await player.close()
            s = await wait_until(http, tid, lambda s: s["status"] == "between_rounds")
            assert s["next"] == "final"  # the 擂台: the leader defends against the next two
            s = (await call(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser}))["tournament"]
            assert s["played"][-1]["kind"] == "leitai"
            leader = s["standings"][0]["entrant"]
            assert s["played"][-1]["tables"][0]["seats"][0]["entrant"] == leader
            s = await wait_until(http, tid, lambda s: s["status"] == "finished")
        for number in (1, 2, 3):
            tournament = check_round(db_url, tid, number)
        assert s["ranking"] == [x.to_json() for x in tournament.ranking()]
        assert s["champion"] == tournament.entrants[tournament.champion or 0].name
    finally:
        srv.kill()


async def test_a_restart_during_a_round_still_records_it(tmp_path: Path) -> None:
    db = str(tmp_path / "web.db")
    srv = serve(db, tmp_path, "--bot-delay", "0.03")
    await asyncio.to_thread(srv.start)
    try:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            tid, organiser, _ = await setup(http, NAMES, rounds=1, match_quan=1, wait_seconds=0)
            await call(http, "POST", f"/api/tournaments/{tid}/start", {"v": 2, "token": organiser})
            # killed once both tables have a hand stored and are into the next
            deadline = time.monotonic() + 40
            while len(rows(db, "SELECT DISTINCT match_id FROM web_hands")) < 2:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
        srv.kill()
        assert stored(db, tid)[0].played[0].tables[0].result is None
        await asyncio.to_thread(srv.start)
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            s = await wait_until(http, tid, lambda s: s["status"] == "finished", timeout=60)
        tournament = check_round(db, tid, 1)  # (the same deals at both tables, the restored one too)
        assert s["standings"] == [x.to_json() for x in tournament.standings()]
        assert all(t.result is not None and t.result.hands == 3 for t in tournament.played[0].tables)
    finally:
        srv.kill()

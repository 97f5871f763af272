"""The game hall over real WebSockets (docs/protocol.md, "The hall"): 再来一局 and who is
ready, 托管 and auto-pass, the 解散 vote and a match ended early, quick phrases and their
rate limit, and that every refusal changes nothing. Expected values come from the rules
(R-5.12: a 开 owed is never passed; R-9: what a seat may know) and the protocol document,
not from the server's code."""

from __future__ import annotations

import asyncio
import functools
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erqishi.bots import make_bot
from erqishi.core.engine import PASS, ActionKind, Phase, State, seat_options
from erqishi.play import Table
from erqishi.records import HandRecord, MatchRecord, parse_record, replay_hand, verify
from erqishi.server.protocol import EMOTES, PHRASES, CreateRoom
from erqishi.server.room import Room
from erqishi.server.settings import Settings
from support.leaks import check_hides_cards
from support.webclient import Client, create_room, play_randomly
from support.webserver import FAST, RunningServer, get_json, running_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(Settings(db_url=str(tmp_path / "web.db"), seed=21, **FAST)) as srv:
        yield srv


def state(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "state")


async def seated(srv: RunningServer, names: list[str], *, bots: bool = False, **room: Any) -> tuple[str, list[Client]]:
    """A room (two players by default: 对口), one client per name in seats 0, 1…, the other
    seats filled with bots when ``bots``; the first client is the room's creator."""
    code = await create_room(srv.url, **{"preset": "duikou", "match_quan": 1, **room})
    clients = []
    for i, name in enumerate(names):
        client = await Client(srv.ws_url, code, name).connect()
        await client.send({"v": 2, "type": "sit", "seat": i})
        await client.wait_for(lambda m: state(m) and m["you"]["seat"] is not None)
        clients.append(client)
    if bots:
        await clients[0].send({"v": 2, "type": "bots"})
        await clients[0].wait_for(lambda m: state(m) and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    return code, clients


async def started(clients: list[Client]) -> None:
    await clients[0].send({"v": 2, "type": "start"})
    for c in clients:
        await c.wait_for(lambda m: state(m) and m["room"]["status"] == "playing" and m["room"]["match"] is not None)


async def refused(
    client: Client, body: dict[str, Any], code: str, srv: RunningServer, room: str, *, still: bool = True
) -> dict[str, Any]:
    """Send ``body``: it gets the error ``code`` and changes nothing in the room (while
    the table stands ``still``; a table a bot is playing moves on by itself)."""
    await asyncio.sleep(0.05)
    if still:  # a hand being stored changes the room when it is (its ``hand_id``): wait for that
        live = srv.rooms.get(room)
        for _ in range(200):
            if live is None or not live.unsaved:
                break
            await asyncio.sleep(0.025)
        await asyncio.sleep(0.05)
    before = snapshot(srv, room) if still else None
    seen = len(client.messages)
    await client.send({"v": 2, **body})
    error = await client.wait_for(lambda m: m["type"] == "error", start=seen)
    assert error["code"] == code, error
    assert error["ref"] == body["type"] and error["message"]
    await client.send({"v": 2, "type": "ping"})
    await client.wait_for(lambda m: m["type"] == "pong", start=seen)
    if before is not None:
        assert snapshot(srv, room) == before
    return error


def snapshot(srv: RunningServer, code: str) -> tuple[Any, ...]:
    room = srv.rooms.get(code)
    assert room is not None
    table = room.table
    return (
        room.version,
        room.status,
        table.state if table else None,
        tuple(table.actions) if table else (),
        dict(table.declared) if table else {},
        frozenset(room.tuoguan),
        frozenset(room.autopass),
        frozenset(room.again),
        room.vote,
    )


# ---------------------------------------------------------------------------- 再来一局


async def test_rematch_when_every_connected_person_is_ready(server: RunningServer) -> None:
    code, (host, guest) = await seated(server, ["host", "guest"], preset="leshan", bots=True)
    watcher = await Client(server.ws_url, code, "watcher").connect()
    await refused(guest, {"type": "again"}, "bad_state", server, code)  # (no match has ended)
    await started([host, guest])
    finals = await asyncio.gather(
        play_randomly(host, random.Random(1), seat=0, sit=False),
        play_randomly(guest, random.Random(2), seat=1, sit=False),
    )
    first = finals[0]["room"]["match"]
    over = finals[0]
    assert over["room"]["status"] == "finished" and over["game"]["match_over"] is not None
    # the bot's seat is ready at once; the people are not
    assert over["game"]["ready"] == [2] and over["you"]["host"] and not finals[1]["you"]["host"]
    assert over["room"]["host"] == 0
    # a spectator cannot be ready; only the host starts at once
    await refused(watcher, {"type": "again"}, "not_seated", server, code)
    await refused(guest, {"type": "start"}, "not_host", server, code)
    await refused(guest, {"type": "again", "ready": "yes"}, "bad_message", server, code)
    seen = len(host.messages)
    await guest.send({"v": 2, "type": "again"})
    shown = await host.wait_for(lambda m: state(m) and m["game"]["ready"] == [1, 2], start=seen)
    assert shown["room"]["status"] == "finished"
    # ready and not ready again: still waiting for the host
    await guest.send({"v": 2, "type": "again", "ready": False})
    await host.wait_for(lambda m: state(m) and m["game"]["ready"] == [2], start=seen)
    await guest.send({"v": 2, "type": "again"})
    await host.wait_for(lambda m: state(m) and m["game"]["ready"] == [1, 2], start=seen)
    await host.send({"v": 2, "type": "again"})
    again = await watcher.wait_for(
        lambda m: state(m) and m["room"]["status"] == "playing" and m["room"]["match"] not in (None, first)
    )
    # the same seats, a new match from its first hand
    assert again["game"]["hand"] == 1 and again["game"]["running"] == [] and again["game"]["totals"] == [0, 0, 0]
    assert [s["name"] for s in again["room"]["seats"]][:2] == ["host", "guest"]
    await refused(guest, {"type": "again"}, "bad_state", server, code)
    matches = (await get_json(server, "/api/matches"))["matches"]
    assert len(matches) == 2


async def test_a_rematch_waits_for_no_one_who_left(server: RunningServer) -> None:
    code, (host, guest) = await seated(server, ["host", "guest"])
    await started([host, guest])
    await asyncio.gather(
        play_randomly(host, random.Random(3), seat=0, sit=False),
        play_randomly(guest, random.Random(4), seat=1, sit=False),
    )
    seen, mine = len(host.messages), len(guest.messages)
    await guest.send({"v": 2, "type": "again"})
    await host.wait_for(lambda m: state(m) and m["game"]["ready"] == [1], start=seen)
    await asyncio.sleep(0.1)
    room = server.rooms.get(code)
    assert room is not None and room.status == "finished"  # the host is connected and not ready
    await host.close()  # the last one not ready leaves: the others play on
    await guest.wait_for(lambda m: state(m) and m["room"]["status"] == "playing" and m["game"]["hand"] == 1, start=mine)


# ---------------------------------------------------------------------------- 托管


async def test_tuoguan_plays_the_seat_until_it_is_taken_back(server: RunningServer) -> None:
    code, (person,) = await seated(server, ["person"], bots=True)
    watcher = await Client(server.ws_url, code, "watcher").connect()
    await refused(person, {"type": "tuoguan", "on": True}, "bad_state", server, code)  # (in the lobby)
    await started([person])
    await refused(watcher, {"type": "tuoguan", "on": True}, "not_seated", server, code)
    await refused(person, {"type": "tuoguan"}, "bad_message", server, code)
    seen = len(person.messages)
    await person.send({"v": 2, "type": "tuoguan", "on": True})
    # everyone sees the seat on 托管; its person is offered nothing while the bot plays
    await watcher.wait_for(lambda m: state(m) and m["room"]["seats"][0]["tuoguan"])
    on = await person.wait_for(lambda m: state(m) and m["room"]["seats"][0]["tuoguan"], start=seen)
    await refused(person, {"type": "act", "action": "pass", "seq": on["seq"]}, "bad_state", server, code, still=False)
    # the whole match is played with nobody at seat 0: between hands it is ready too
    over = await person.wait_for(lambda m: state(m) and m["game"]["match_over"] is not None, timeout=60, start=seen)
    mine = [m for m in person.messages[seen:] if state(m) and m["room"]["seats"][0]["tuoguan"]]
    assert all(m["game"]["legal"] == [] for m in mine)
    hands = over["game"]["hand"]
    assert hands >= 2 and sum(over["game"]["match_over"]["totals"]) == 0
    # every hand was played by the seat's bot: its moves are in the stored records
    await stored_hands(server, hands)
    matches = (await get_json(server, "/api/matches"))["matches"]
    detail = await get_json(server, f"/api/matches/{matches[0]['id']}")
    for hand in detail["hands"]:
        record = (await get_json(server, f"/api/hands/{hand['id']}"))["record"]
        assert any(seat == 0 for seat, action in record["actions"] if action != "pass")
    # taken back: the next match offers the person its moves again
    seen = len(watcher.messages)
    await person.send({"v": 2, "type": "tuoguan", "on": False})
    off = await watcher.wait_for(lambda m: state(m) and not m["room"]["seats"][0]["tuoguan"], start=seen)
    assert off["room"]["status"] == "finished"
    seen = len(person.messages)
    await person.send({"v": 2, "type": "start"})
    await person.wait_for(lambda m: state(m) and m["room"]["status"] == "playing" and m["game"]["legal"], start=seen)


async def test_autopass_passes_only_where_there_is_no_win_and_no_kai_owed(server: RunningServer) -> None:
    code, (person,) = await seated(server, ["person"], preset="leshan", bots=True)
    watcher = await Client(server.ws_url, code, "watcher").connect()
    await refused(watcher, {"type": "autopass", "on": True}, "not_seated", server, code)
    await person.send({"v": 2, "type": "autopass", "on": True})
    await person.wait_for(lambda m: state(m) and m["you"]["autopass"])
    await started([person])
    sent: set[tuple[int, int]] = set()  # (hand, step) where the person itself answered

    async def record_own(client: Client, st: dict[str, Any]) -> bool:
        game = st["game"]
        if game["legal"] and game["view"]["phase"] == "response":
            sent.add((game["hand"], game["step"]))
        return False

    final = await play_randomly(person, random.Random(6), seat=0, sit=False, on_state=record_own)
    assert not person.errors, person.errors
    await stored_hands(server, final["game"]["hand"])
    passed = {
        (m["game"]["hand"], m["game"]["step"])
        for m in person.states
        if m["game"] and m["game"]["declared"] == "pass" and m["room"]["status"] == "playing"
    } - sent
    offered = {
        (m["game"]["hand"], m["game"]["step"]): m["game"]["legal"]
        for m in person.states
        if m["game"] and m["game"]["legal"] and m["game"]["view"]["phase"] == "response"
    }
    # replay each stored hand: at every window passed for the person the engine offered
    # a pass and no 胡; every window the person was asked in offered a 胡 or no pass
    match = (await get_json(server, "/api/matches"))["matches"][0]
    hands = (await get_json(server, f"/api/matches/{match['id']}"))["hands"]
    assert len(hands) == final["game"]["hand"]
    auto = 0
    for hand in hands:
        record = parse_record((await get_json(server, f"/api/hands/{hand['id']}"))["record"])
        assert isinstance(record, HandRecord)
        states = replay_hand(record).states
        number = hand["index"] + 1
        for step, st in enumerate(states):
            if (number, step) in passed:
                options = seat_options(st, 0)
                assert PASS in options and all(a.kind is not ActionKind.HU for a in options), (number, step, options)
                auto += 1
            if (number, step) in offered:
                options = seat_options(st, 0)
                assert PASS not in options or any(a.kind is ActionKind.HU for a in options), (number, step, options)
    assert auto > 3, "the person was passed for in windows with a choice"


@functools.cache
def response_windows() -> dict[str, tuple[State, int]]:
    """From hands played by heuristic bots through the engine: a response window where a
    seat may pass and may take the card but not win (``take``), one where it may win and
    pass (``hu``), and one where it owes a 开 and may not pass (``kai``, R-5.12); each with
    that seat."""
    rules = CreateRoom(v=2).rules()
    bot = make_bot("heuristic")
    found: dict[str, tuple[State, int]] = {}
    for seed in range(300):
        rng = random.Random(seed)
        table = Table(rules, rng, ["a", "b", "c"], auto_close=False)
        table.start_hand()
        while table.in_hand and len(found) < 3:
            state = table.state
            assert state is not None
            if state.phase is Phase.RESPONSE:
                for seat in table.waiting():
                    options = seat_options(state, seat)
                    kinds = {a.kind for a in options}
                    if PASS in options and ActionKind.HU in kinds:
                        found.setdefault("hu", (state, seat))
                    elif PASS in options and len(options) > 1:
                        found.setdefault("take", (state, seat))
                    elif PASS not in options and ActionKind.KAI in kinds:
                        found.setdefault("kai", (state, seat))
            for seat in table.waiting():
                table.declare(seat, bot.choose(table.player_view(seat), rng))
            table.close_window()
        if len(found) == 3:
            return found
    raise AssertionError(f"300 hands gave only the windows {sorted(found)}")


@pytest.mark.parametrize(("window", "passed"), [("take", True), ("hu", False), ("kai", False)])
def test_autopass_leaves_a_win_and_an_owed_kai_to_the_player(window: str, passed: bool) -> None:
    """R-6 / R-5.12: auto-pass passes a window where the seat could take the card but not
    win; never one where it could win, nor one where it owes a 开 (the engine offers no
    pass then)."""
    state, seat = response_windows()[window]
    room = Room("HALL01", CreateRoom(v=2), Settings(), None, 1)
    table = Table(room.rules, random.Random(0), ["a", "b", "c"], auto_close=False)
    table.start_position(state)
    room.table, room.status = table, "playing"
    room.autopass = {seat}
    room._auto_pass()
    assert table.declared == ({seat: PASS} if passed else {})
    room.autopass = set()  # off: nothing is passed for anyone
    table.declared = {}
    room._auto_pass()
    assert table.declared == {}


# ---------------------------------------------------------------------------- 解散


async def test_a_refused_vote_changes_nothing_but_the_vote(server: RunningServer) -> None:
    code, (a, b) = await seated(server, ["a", "b"])
    watcher = await Client(server.ws_url, code, "watcher").connect()
    await refused(a, {"type": "dissolve"}, "bad_state", server, code)  # (nothing to end in the lobby)
    await started([a, b])
    await refused(watcher, {"type": "dissolve"}, "not_seated", server, code)
    await refused(b, {"type": "vote", "agree": True}, "bad_state", server, code)  # (no vote open)
    seen = len(b.messages)
    await a.send({"v": 2, "type": "dissolve"})
    asked = await b.wait_for(lambda m: state(m) and m["room"]["vote"] is not None, start=seen)
    vote = asked["room"]["vote"]
    assert vote["by"] == 0 and vote["asked"] == [1] and vote["agreed"] == []
    assert vote["timeout"] == "agree" and vote["total_ms"] == 60_000 and 0 < vote["remaining_ms"] <= 60_000
    await refused(a, {"type": "vote", "agree": True}, "bad_state", server, code)  # (the asker does not vote)
    await refused(b, {"type": "dissolve"}, "bad_state", server, code)  # (one vote at a time)
    await refused(watcher, {"type": "vote", "agree": True}, "not_seated", server, code)
    await refused(b, {"type": "vote", "agree": "no"}, "bad_message", server, code)
    before = server.rooms.get(code)
    assert before is not None and before.table is not None
    step = before.table.step
    await b.send({"v": 2, "type": "vote", "agree": False})
    # everyone is told who refused; the room plays on
    for client in (a, b, watcher):
        ended = await client.wait_for(lambda m: m["type"] == "vote_ended")
        assert (ended["result"], ended["reason"], ended["refused"], ended["seat"]) == ("refused", "refused", 1, 0)
    after = await a.wait_for(lambda m: state(m) and m["room"]["vote"] is None, start=seen)
    assert after["room"]["status"] == "playing" and after["game"]["step"] >= step
    room = server.rooms.get(code)
    assert room is not None and room.status == "playing" and room.recorder is not None


async def test_a_passed_vote_ends_the_room_and_stores_the_match_ended_early(server: RunningServer) -> None:
    code, (a, b) = await seated(server, ["a", "b"], match_quan=3)
    watcher = await Client(server.ws_url, code, "watcher").connect()
    await started([a, b])

    def between(m: dict[str, Any]) -> bool:
        return m["room"]["status"] == "between"

    # one hand is played to its end, and the next begun
    await asyncio.gather(
        play_randomly(a, random.Random(7), seat=0, sit=False, stop=between),
        play_randomly(b, random.Random(8), seat=1, sit=False, stop=between),
    )
    for client in (a, b):
        await client.send({"v": 2, "type": "next"})
    playing = await a.wait_for(lambda m: state(m) and m["room"]["status"] == "playing" and m["game"]["hand"] == 2)
    totals = playing["game"]["totals"]
    assert playing["game"]["running"] == [totals]  # the totals after hand 1
    await a.send({"v": 2, "type": "dissolve"})
    await b.wait_for(lambda m: state(m) and m["room"]["vote"] is not None)
    await b.send({"v": 2, "type": "vote", "agree": True})
    for client in (a, b, watcher):
        ended = await client.wait_for(lambda m: m["type"] == "vote_ended")
        assert (ended["result"], ended["reason"], ended["refused"], ended["agreed"]) == ("passed", "agreed", None, [1])
    final = await watcher.wait_for(lambda m: state(m) and m["room"]["status"] == "ended")
    assert final["room"]["vote"] is None and final["game"]["totals"] == totals and final["game"]["legal"] == []
    # nothing moves any more: no act, next, vote or seat change; talk still goes
    seq = (await a.wait_for(lambda m: state(m) and m["room"]["status"] == "ended"))["seq"]
    await refused(a, {"type": "act", "action": "pass", "seq": seq}, "bad_state", server, code)
    await refused(b, {"type": "dissolve"}, "bad_state", server, code)
    await refused(b, {"type": "again"}, "bad_state", server, code)
    await b.send({"v": 2, "type": "say", "phrase": "bye"})
    await watcher.wait_for(lambda m: m["type"] == "said" and m["phrase"] == "bye")
    # the match is stored as ended early, with its one finished hand; it is not running
    async with asyncio.timeout(10):
        while True:
            match = (await get_json(server, "/api/matches"))["matches"][0]
            if match["finished"] is not None:
                break
            await asyncio.sleep(0.05)
    assert match["status"] == "ended_early" and match["leaders"] is None
    assert match["hands"] == 1 and match["totals"] == totals
    detail = await get_json(server, f"/api/matches/{match['id']}")
    assert detail["match"]["status"] == "ended_early"
    record = parse_record(detail["record"])
    assert isinstance(record, MatchRecord) and len(record.hands) == 1
    verdict = verify(record)
    assert verdict.ok and verdict.to_json()["finished"] is False  # its 圈 were not all played
    # and the room's journal is closed: a server started again does not bring it back
    room = server.rooms.get(code)
    assert room is not None
    async with asyncio.timeout(10):
        while rows(server, "SELECT COUNT(*) FROM live_log WHERE room = ?", room.uid) != [(0,)]:
            await asyncio.sleep(0.05)


async def stored_hands(srv: RunningServer, count: int) -> None:
    """Wait until the newest match has ``count`` hands in the database (a moment after
    the players are shown the last one)."""
    async with asyncio.timeout(10):
        while (await get_json(srv, "/api/matches"))["matches"][0]["hands"] < count:
            await asyncio.sleep(0.05)


def rows(srv: RunningServer, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    path = srv.rooms.settings.db_url
    with sqlite3.connect(path) as conn:
        return list(conn.execute(sql, params))


async def test_a_vote_that_runs_out_counts_as_the_room_says(server: RunningServer) -> None:
    # refused at the timeout (a room option); the default counts it as agreed
    code, (a, b) = await seated(server, ["a", "b"], vote_seconds=0.6, vote_timeout="refuse")
    await started([a, b])
    await a.send({"v": 2, "type": "dissolve"})
    shown = await b.wait_for(lambda m: state(m) and m["room"]["vote"] is not None)
    assert shown["room"]["vote_timeout"] == "refuse" and shown["room"]["vote"]["timeout"] == "refuse"
    ended = await a.wait_for(lambda m: m["type"] == "vote_ended", timeout=5)
    assert (ended["result"], ended["reason"], ended["refused"], ended["silent"]) == ("refused", "timeout", None, [1])
    room = server.rooms.get(code)
    assert room is not None and room.status == "playing"
    code, (c, d) = await seated(server, ["c", "d"], vote_seconds=0.6)
    await started([c, d])
    await d.send({"v": 2, "type": "dissolve"})
    ended = await c.wait_for(lambda m: m["type"] == "vote_ended", timeout=5)
    assert (ended["result"], ended["reason"], ended["seat"], ended["silent"]) == ("passed", "timeout", 1, [0])
    await c.wait_for(lambda m: state(m) and m["room"]["status"] == "ended")


async def test_alone_with_bots_the_room_ends_at_once(server: RunningServer) -> None:
    _, (person,) = await seated(server, ["solo"], bots=True)
    await started([person])
    await person.send({"v": 2, "type": "dissolve"})
    ended = await person.wait_for(lambda m: m["type"] == "vote_ended")
    assert (ended["result"], ended["reason"]) == ("passed", "alone")
    await person.wait_for(lambda m: state(m) and m["room"]["status"] == "ended")
    async with asyncio.timeout(10):
        while (await get_json(server, "/api/matches"))["matches"][0]["status"] != "ended_early":
            await asyncio.sleep(0.05)


# ---------------------------------------------------------------------------- talk


async def test_phrases_and_emotes_reach_everyone_and_are_rate_limited(server: RunningServer) -> None:
    code, (a, b) = await seated(server, ["a", "b"])
    watcher = await Client(server.ws_url, code, "watcher").connect()
    welcome = next(m for m in a.messages if m["type"] == "welcome")
    # the phrases come with their Chinese and English, as the protocol lists them
    assert {p["id"]: (p["zh"], p["en"]) for p in welcome["talk"]["phrases"]} == PHRASES
    assert "快点嘛" in {p["zh"] for p in welcome["talk"]["phrases"]} and "巴适" in PHRASES["nice"]
    assert {e["id"] for e in welcome["talk"]["emotes"]} == set(EMOTES)
    await a.send({"v": 2, "type": "say", "phrase": "hurry"})
    await b.send({"v": 2, "type": "say", "emote": "thumbs"})
    for client in (a, b, watcher):
        await client.wait_for(lambda m: m["type"] == "said" and m["seat"] == 0)
        await client.wait_for(lambda m: m["type"] == "said" and m["seat"] == 1)
        got = sorted((m for m in client.messages if m["type"] == "said"), key=lambda m: int(m["seat"]))
        assert got == [
            {"v": 2, "type": "said", "seat": 0, "phrase": "hurry"},
            {"v": 2, "type": "said", "seat": 1, "emote": "thumbs"},
        ]
    # by id only: no text in a room without the option, nothing unknown, one thing at a time
    await refused(a, {"type": "say", "text": "hello"}, "bad_message", server, code)
    await refused(a, {"type": "say", "phrase": "insult"}, "bad_message", server, code)
    await refused(a, {"type": "say", "emote": "nope"}, "bad_message", server, code)
    await refused(a, {"type": "say", "phrase": "nice", "emote": "tea"}, "bad_message", server, code)
    await refused(a, {"type": "say"}, "bad_message", server, code)
    await refused(watcher, {"type": "say", "phrase": "nice"}, "not_seated", server, code)
    # on a new connection (the limit is per connection), a burst of three; the fourth is
    # refused and nobody hears it
    b2 = await Client(server.ws_url, code, token=b.token).connect()
    said = len([m for m in watcher.messages if m["type"] == "said"])
    for key in ("nice", "lovely", "again"):
        await b2.send({"v": 2, "type": "say", "phrase": key})
    error = await refused(b2, {"type": "say", "phrase": "lucky"}, "talk_limited", server, code)
    assert "wait" in error["message"]
    await asyncio.sleep(0.3)
    heard = [m.get("phrase") for m in watcher.messages if m["type"] == "said"][said:]
    assert heard == ["nice", "lovely", "again"]
    # the bucket refills: one more every two seconds
    await asyncio.sleep(2.1)
    await b2.send({"v": 2, "type": "say", "phrase": "lucky"})
    await watcher.wait_for(lambda m: m["type"] == "said" and m.get("phrase") == "lucky")
    for client in (a, b, b2, watcher):
        for message in client.messages:
            check_hides_cards(message)


async def test_free_text_when_the_room_allows_it_is_cleaned_and_short(server: RunningServer) -> None:
    code, (a, b) = await seated(server, ["a", "b"], free_text=True)
    shown = a.last_state["room"]
    assert shown["free_text"] is True and shown["vote_timeout"] == "agree"
    await a.send({"v": 2, "type": "say", "text": "  好\u200b牌\u202e  <b>x</b>\u0007 "})
    said = await b.wait_for(lambda m: m["type"] == "said")
    assert said["text"] == "好牌 <b>x</b>"  # control and invisible characters gone, spaces collapsed
    await refused(a, {"type": "say", "text": "字" * 41}, "bad_message", server, code)
    await refused(a, {"type": "say", "text": "\u200b\u3164 "}, "bad_message", server, code)


# ---------------------------------------------------------------------------- restarts


async def test_tuoguan_autopass_and_the_host_survive_a_restart(tmp_path: Path) -> None:
    settings = Settings(db_url=str(tmp_path / "web.db"), seed=5, **FAST)
    with running_server(settings) as srv:
        code, (a, b) = await seated(srv, ["a", "b"], vote_seconds=30)
        await started([a, b])
        await b.send({"v": 2, "type": "tuoguan", "on": True})
        await b.send({"v": 2, "type": "autopass", "on": True})
        await a.send({"v": 2, "type": "autopass", "on": True})
        await b.wait_for(lambda m: state(m) and m["you"]["autopass"] and m["room"]["seats"][1]["tuoguan"])
        await a.wait_for(lambda m: state(m) and m["you"]["autopass"])
        await a.send({"v": 2, "type": "dissolve"})  # a vote in progress is dropped by a restart
        await b.wait_for(lambda m: state(m) and m["room"]["vote"] is not None)
        await asyncio.sleep(0.3)  # (the journal reaches the database)
        tokens = [a.token, b.token]
        for c in (a, b):
            await c.close()
    with running_server(settings) as srv:
        again = [await Client(srv.ws_url, code, token=t).connect() for t in tokens]
        first, second = (c.last_state for c in again)
        assert first["you"]["seat"] == 0 and first["you"]["host"] and first["you"]["autopass"]
        assert second["you"]["seat"] == 1 and not second["you"]["host"] and second["you"]["autopass"]
        assert [s["tuoguan"] for s in first["room"]["seats"]] == [False, True]
        assert first["room"]["vote"] is None and first["room"]["vote_seconds"] == 30
        assert first["room"]["status"] in ("playing", "between") and first["game"] is not None


def test_after_a_match_a_seat_on_tuoguan_is_shown_ready() -> None:
    """A seat on 托管 does not hold a rematch up (docs/protocol.md "The hall"), so the ready
    list (``game.ready``) shows it: nobody is surprised by a match that starts."""
    room = Room("HALL02", CreateRoom(v=2), Settings(), None, 1)
    room.status = "finished"
    room.again = {0}
    room.tuoguan = {2}
    assert room._ready_seats() == [0, 2]

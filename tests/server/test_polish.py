"""The web game's finish (docs/web.md, docs/protocol.md): rooms whose rules their creator
chooses (R-10) and that the server then plays by, the rule options served from the rule
set's own data, the game's error pages for browsers (JSON for the API), records to
download as the CLI writes them (FORMATS.md), and bots named in words.

Expected values come from RULES.md (the options of R-10, the presets, R-8.2's cap), not
from the code under test."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from erqishi.core import RuleSet
from erqishi.records import dumps, parse_record, verify
from erqishi.records.names import bot_label, bot_seat, seat_label
from erqishi.server.settings import Settings
from support.webclient import Client, create_room, play_randomly
from support.webserver import FAST, RunningServer, running_server

HTML = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """One server for the module: each test makes its own rooms (and reads its own match:
    the newest)."""
    db = tmp_path_factory.mktemp("polish") / "web.db"
    with running_server(Settings(db_url=str(db), seed=5, **FAST)) as srv:
        yield srv


def r10_options(shared: Path) -> list[str]:
    """The option names of the table in RULES.md R-10, in its order."""
    text = (shared / "RULES.md").read_text(encoding="utf-8")
    section = text.split("## R-10", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, flags=re.M)


async def play_with_bots(srv: RunningServer, code: str, seed: int, *, stop: Any = None) -> dict[str, Any]:
    """Sit one random player at seat 0, bots in the other seats, and play the room's match
    (or until ``stop`` holds for a state)."""
    client = await Client(srv.ws_url, code, "阿华").connect()
    await client.send({"v": 2, "type": "sit", "seat": 0})
    await client.send({"v": 2, "type": "bots"})
    state = await play_randomly(client, random.Random(seed), seat=0, start=True, sit=False, stop=stop, timeout=60)
    await client.close()
    return state


# ------------------------------------------------------------------ rules of a room


async def test_the_rule_options_come_from_the_rule_set(server: RunningServer, shared: Path) -> None:
    """GET /api/rule-options: every option of R-10 but the player count (it has its own
    choice), the room's own first (圈 count, cap, 抬炮, each 番 switch), each with its values
    in words in both languages."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        body = (await http.get("/api/rule-options")).json()
    names = [o["name"] for o in body["options"]]
    assert set(names) | {"players"} == set(r10_options(shared))
    room = ["match_quan", "cap", "taipao_multiplier", "tian_di_fan", "kun_fan", "piao_fan", "quan_fan", "shuang_quan"]
    assert names[: len(room)] == room and body["room"] == room
    by_name = {o["name"]: o for o in body["options"]}
    for switch in ("quan_fan", "shuang_quan", "tian_di_fan", "kun_fan", "piao_fan"):
        option = by_name[switch]
        assert option["kind"] == "switch" and option["rule"] == "R-7.3"
        assert [c["value"] for c in option["choices"]] == [True, False]
        assert all(len(c["words"]) == 2 and all(c["words"]) for c in option["choices"])
    assert None in [c["value"] for c in by_name["cap"]["choices"]]  # no cap (R-10: "none, or an integer")
    assert by_name["match_quan"]["range"] == [1, 10]
    timers = {t["name"]: t for t in body["timers"]}
    assert timers["response_seconds"]["default"] == FAST["response_seconds"]
    assert timers["turn_seconds"]["default"] == FAST["turn_seconds"]


async def test_a_room_is_played_by_the_rules_its_creator_chose(server: RunningServer) -> None:
    """CreateRoom carries rule options over the preset: the room's rule set is the preset
    (R-10 ``app``: tiers app, cap 100) with those changed, shown in words to everyone, and
    the table plays by it: with ``cap`` 10 every payer of a win pays 10, or 3 × 10 on a 抬炮
    (R-8.2: the score is capped first, then multiplied)."""
    code = await create_room(server.url, preset="app", rules={"cap": 10, "piao_fan": False}, match_quan=1)
    async with httpx.AsyncClient(base_url=server.url) as http:
        room = (await http.get(f"/api/rooms/{code}")).json()
    assert room["preset"] == "app" and room["match_quan"] == 1
    assert room["rules"]["tiers"] == "app" and room["rules"]["cap"] == 10 and room["rules"]["piao_fan"] is False
    assert room["rules"]["kun_fan"] is True  # not changed
    words = {i["name"]: i for i in room["rules_words"]["items"]}
    assert words["cap"]["value"] == {"zh": "10", "en": "10"} and words["cap"]["changed"] is True
    assert words["piao_fan"]["value"] == {"zh": "无", "en": "off"} and words["piao_fan"]["changed"] is True
    assert words["kun_fan"]["changed"] is False
    assert "game hall" in room["rules_words"]["preset"]["en"]
    wanted = RuleSet.load({"preset": "app", "cap": 10, "piao_fan": False, "match_quan": 1})
    live = server.rooms.get(code)
    assert live is not None and live.rules == wanted
    # every state carries the room as text whose fixed part is encoded once: the same object
    assert json.loads(live.room_text()) == live.room_json() == {k: v for k, v in room.items() if k != "v"}

    await play_with_bots(server, code, 3)
    live = server.rooms.get(code)
    assert live is not None and live.table is not None and live.table.rules == wanted
    wins = [h.outcome for h in live.table.hands if h.outcome.winner is not None]
    for outcome in wins:
        paid = sorted(-p for p in outcome.payments if p < 0)
        assert paid in ([30], [10, 10], [10, 10, 10]), outcome.payments
    async with httpx.AsyncClient(base_url=server.url) as http:
        match = (await http.get("/api/matches")).json()["matches"][0]
    assert RuleSet.load(match["rules"]) == wanted  # and the history keeps that rule set


async def test_the_preset_name_form_still_makes_a_room(server: RunningServer) -> None:
    code = await create_room(server.url, preset="duikou")
    async with httpx.AsyncClient(base_url=server.url) as http:
        room = (await http.get(f"/api/rooms/{code}")).json()
    # R-10 duikou: two players, nobody 吃s a discard, only the flipper 吃s a flip, 抬炮 ×2
    assert room["players"] == 2 and room["rules"]["discard_chi"] == "none"
    assert room["rules"]["flip_chi"] == "flipper_only" and room["rules"]["taipao_multiplier"] == 2


@pytest.mark.parametrize(
    ("rules", "status", "named"),
    [
        ({"cap": "lots"}, 400, "cap"),
        ({"no_such_option": True}, 400, "no_such_option"),
        ({"piao_fan": "maybe"}, 400, "piao_fan"),
        ({"taipao_multiplier": 0}, 400, "taipao_multiplier"),
        ({"players": 5}, 422, "players"),
        ({"match_quan": 11}, 422, "match_quan"),
    ],
)
async def test_bad_rule_options_are_refused_naming_the_option(
    server: RunningServer, rules: dict[str, Any], status: int, named: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        reply = await http.post("/api/rooms", json={"v": 2, "rules": rules})
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert named in body["message"]
    if status == 400:  # a rule set's own error: in Chinese too, for the Chinese page
        assert body["code"] == "bad_rules"
        assert body["message_zh"].startswith("规则：") and named in body["message_zh"], body


async def test_rules_and_fields_given_twice_must_agree(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        reply = await http.post("/api/rooms", json={"v": 2, "match_quan": 2, "rules": {"match_quan": 3}})
        assert reply.status_code == 422 and "match_quan" in reply.json()["message"]
        reply = await http.post("/api/rooms", json={"v": 2, "rules": {"match_quan": 3, "players": 2}})
        assert reply.status_code == 201
        room = (await http.get(f"/api/rooms/{reply.json()['code']}")).json()
    assert room["match_quan"] == 3 and room["players"] == 2


async def test_a_room_keeps_its_own_timers(server: RunningServer) -> None:
    code = await create_room(server.url, response_seconds=7, turn_seconds=45)
    async with httpx.AsyncClient(base_url=server.url) as http:
        room = (await http.get(f"/api/rooms/{code}")).json()
        assert room["timers"] == {"response_seconds": 7, "turn_seconds": 45}
        for bad in ({"response_seconds": 1}, {"turn_seconds": 5000}):
            assert (await http.post("/api/rooms", json={"v": 2, **bad})).status_code == 422
    live = server.rooms.get(code)
    assert live is not None and live.clock.settings.response_seconds == 7 and live.clock.settings.turn_seconds == 45

    # a response window of this room counts down from its own time
    def answering(state: dict[str, Any]) -> bool:
        game = state.get("game") or {}
        timer = game.get("timer") or {}
        return (game.get("view") or {}).get("phase") == "response" and bool(timer)

    state = await play_with_bots(server, code, 1, stop=answering)
    assert state["game"]["timer"]["total_ms"] == 7000


# ------------------------------------------------------------------ error pages


async def test_a_browser_gets_the_games_error_pages_and_the_api_json(server: RunningServer) -> None:
    code = await create_room(server.url)
    async with httpx.AsyncClient(base_url=server.url) as http:
        page = await http.get("/no/such/page", headers=HTML)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert 'name="erqishi-error" content="404"' in page.text and 'data-kind="not_found"' in page.text
        assert "找不到这个页面" in page.text and "Page not found" in page.text  # both languages
        assert '<script type="module" src="/static/js/main.js">' in page.text  # the game's page
        assert "content-security-policy" in page.headers
        # the API and non-browser clients keep JSON errors
        for path, headers in (("/api/nope", HTML), ("/no/such/page", {"accept": "application/json"})):
            reply = await http.get(path, headers=headers)
            assert reply.status_code == 404 and reply.json()["code"] == "not_found", path
        assert (await http.get("/api/rooms/ZZZZZZ", headers=HTML)).json()["code"] == "not_found"
        # a room that is not there: its own page, naming the code, with no link to share
        missing = await http.get("/r/zzzzzz", headers=HTML)
        assert missing.status_code == 404 and 'data-kind="room_missing"' in missing.text
        assert "ZZZZZZ" in missing.text and "没有这个房间" in missing.text and "No such room" in missing.text
        assert "share-link" not in missing.text and "/r/ZZZZZZ" not in missing.text
        found = await http.get(f"/r/{code}", headers=HTML)
        assert found.status_code == 200 and "erqishi-error" not in found.text


async def test_a_fault_of_the_server_is_the_games_500_page(server: RunningServer) -> None:
    async def boom() -> None:
        raise RuntimeError("a fault for the test")

    server.app.add_api_route("/test-fault", boom)
    server.app.add_api_route("/api/test-fault", boom)
    # (the server closes the connection of a request that failed: a new one each)
    async with httpx.AsyncClient(base_url=server.url) as http:
        page = await http.get("/test-fault", headers=HTML)
        assert page.status_code == 500 and page.headers["content-type"].startswith("text/html")
        assert 'data-kind="server_error"' in page.text and "服务器出错了" in page.text
        assert "Something went wrong on the server" in page.text and "a fault for the test" not in page.text
        assert "content-security-policy" in page.headers and page.headers["x-frame-options"] == "DENY"
    async with httpx.AsyncClient(base_url=server.url) as http:
        reply = await http.get("/api/test-fault", headers=HTML)
        assert reply.status_code == 500 and reply.json()["code"] == "server_error"
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/healthz")).json()["ok"] is True  # and the server goes on


# ------------------------------------------------------------------ records and names


async def test_records_download_as_the_cli_writes_them(server: RunningServer) -> None:
    """GET /api/hands/ID/record and /api/matches/ID/record: the stored record (FORMATS.md)
    as a JSON file, in the text ``erqishi play`` saves (records.dumps); a match still going
    on is its hands so far."""
    code = await create_room(server.url, match_quan=1)
    await play_with_bots(
        server,
        code,
        9,
        stop=lambda s: bool(s.get("game") and s["game"].get("result", {}) and s["game"]["result"].get("hand_id")),
    )
    async with httpx.AsyncClient(base_url=server.url) as http:
        match = (await http.get("/api/matches")).json()["matches"][0]
        detail = (await http.get(f"/api/matches/{match['id']}")).json()
        hand = detail["hands"][0]
        stored = (await http.get(f"/api/hands/{hand['id']}")).json()["record"]
        reply = await http.get(f"/api/hands/{hand['id']}/record")
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("application/json")
        assert reply.headers["content-disposition"] == f'attachment; filename="erqishi-hand-{hand["id"]}.json"'
        assert reply.json() == stored and reply.text == dumps(stored)
        assert verify(parse_record(reply.json())).ok
        whole = await http.get(f"/api/matches/{match['id']}/record")
        data = whole.json()
        assert whole.status_code == 200 and "erqishi-match-" in whole.headers["content-disposition"]
        assert data["format"] == 1 and data["kind"] == "match" and data["hands"][0] == stored
        assert data["seats"] == match["seats"] and parse_record(data) is not None
        assert (await http.get("/api/hands/99999/record")).status_code == 404
        assert (await http.get("/api/matches/99999/record")).status_code == 404


async def test_bots_keep_their_machine_names_in_records_and_have_names_in_words(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        body = (await http.get("/api/presets")).json()
    assert set(body["bot_words"]) == set(body["bots"]) == {"random", "heuristic", "search", "learned"}
    assert body["bot_words"]["heuristic"]["name"] == ["稳健", "steady"]
    assert seat_label("heuristic-bot-2") == "机器人·稳健 2" and seat_label("heuristic-bot-2", "en") == "Bot (steady) 2"
    assert bot_label("search", 3, "en") == "Bot (expert) 3" and seat_label("random-bot-1", "en") == "Bot (novice) 1"
    assert seat_label("小明") == "小明" and bot_seat("小明") is None
    code = await create_room(server.url)
    client = await Client(server.ws_url, code, "阿华").connect()
    await client.send({"v": 2, "type": "sit", "seat": 0})
    await client.send({"v": 2, "type": "bots"})
    state = await client.wait_for(lambda m: m["type"] == "state" and m["room"]["seats"][2]["kind"] == "bot")
    await client.close()
    assert [s["name"] for s in state["room"]["seats"]] == ["阿华", "heuristic-bot-2", "heuristic-bot-3"]
    assert json.dumps(state, ensure_ascii=False).count("机器人·") == 0  # the words are the client's

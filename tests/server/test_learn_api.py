"""The lessons' JSON routes (docs/protocol.md): one source of truth with erqishi.learn,
stateless tries replayed by the engine, and bad input answered with 400 (422 for a body
that is not the schema) naming the field;
and the coach in a room (``coach: true``): its notes reach only the player they concern."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from erqishi.learn import LESSONS
from erqishi.server.settings import Settings
from support.webclient import Client, create_room, play_randomly
from support.webserver import RunningServer, running_server


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[RunningServer]:
    settings = Settings(db_url=str(tmp_path / "w.db"), seed=3, bot_delay=0.0, rate_per_second=1e4)
    with running_server(settings) as s:
        yield s


def test_the_lessons_are_the_package_s(srv: RunningServer) -> None:
    with httpx.Client(base_url=srv.url) as http:
        listed = http.get("/api/lessons").json()["lessons"]
        assert [x["id"] for x in listed] == [x.id for x in LESSONS]
        assert listed[0]["title"] == {"zh": LESSONS[0].title.zh, "en": LESSONS[0].title.en}
        one = http.get("/api/lessons/locked").json()["lesson"]
        assert one["kind"] == "move" and one["board"]["view"]["seat"] == 1
        # the engine's refusals: the three locked identities 五 九 柒
        assert sorted(r["card"] for r in one["board"]["refusals"]) == ["d7", "x5", "x9"]
        assert http.get("/api/lessons/nope").status_code == 404


def test_tries_are_replayed_and_bad_input_is_named(srv: RunningServer) -> None:
    with httpx.Client(base_url=srv.url) as http:
        url = "/api/lessons/shangtu/try"
        first = http.post(url, json={"action": "chi x3 x4"}).json()
        assert first["ok"] and not first["done"] and first["board"]["view"]["phase"] == "discard"
        refused = http.post(url, json={"moves": ["chi x3 x4"], "action": "discard x5"}).json()
        assert (refused["ok"], refused["reason"], refused["rule"]) == (False, "refused", "R-5.10")
        done = http.post(url, json={"moves": ["chi x3 x4"], "action": "discard x6", "mistakes": 1}).json()
        assert done["done"] and done["stars"] == 2
        for body, word in (
            ({"moves": ["pass"], "action": "discard x6"}, "moves[0]"),  # not a move of the lesson
            ({"action": "discard x99"}, "action"),  # bad notation
            ({"cards": ["x1"]}, "'action'"),  # the wrong kind of answer
            ({"action": "pass", "extra": 1}, "extra"),
        ):
            reply = http.post(url, json=body)
            assert reply.status_code in (400, 422) and word in reply.text, (body, reply.text)
        assert http.post("/api/lessons/cards/try", json={"cards": ["q9"]}).status_code == 400
        assert http.post("/api/lessons/play/try", json={"action": "pass"}).status_code == 400
        hint = http.post("/api/lessons/dui/hint", json={}).json()
        assert "对" in hint["text"]["zh"]


async def test_the_coach_speaks_only_to_the_player_it_concerns(srv: RunningServer) -> None:
    code = await create_room(srv.url, preset="leshan", match_quan=1, bots="heuristic", coach=True)
    notes: list[dict[str, Any]] = []

    def watch(state: dict[str, Any]) -> bool:
        game = state.get("game") or {}
        if game.get("coach"):
            notes.append(game["coach"])
        return False

    me = await Client(srv.ws_url, code, "学生").connect()
    await me.send({"v": 2, "type": "sit", "seat": 0})
    await me.send({"v": 2, "type": "bots"})
    last = await play_randomly(me, random.Random(4), seat=0, start=True, stop=watch, timeout=60)
    assert last["room"]["coach"] is True
    assert notes, "random moves in a whole match drew no note"
    assert all(set(n) == {"hand", "reason", "rule", "played", "better", "text"} for n in notes)
    assert {n["reason"] for n in notes} <= {"missed_hu", "passed_wait", "leaves_wait", "breaks_ejs", "further"}

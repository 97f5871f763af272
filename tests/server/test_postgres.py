"""The web server on a real PostgreSQL server (``scripts/postgres-test.sh`` starts one on
loopback): migrations run at start-up, a whole match is stored and read back."""

from __future__ import annotations

import asyncio
import random

import httpx

from erqishi.records import MatchRecord, parse_record, verify
from erqishi.server.settings import Settings
from support.webclient import Client, create_room, play_randomly
from support.webserver import running_server


async def test_a_match_is_stored_in_postgresql(postgres_schema_url: str) -> None:
    settings = Settings(db_url=postgres_schema_url, seed=9, bot_delay=0, rate_per_second=1e4)
    with running_server(settings) as srv:
        # public: its open room's code is listed with its matches (a private room's is not)
        code = await create_room(srv.url, preset="meishan", match_quan=1, bots="heuristic", public=True)
        person = await Client(srv.ws_url, code, "pg").connect()
        await person.send({"v": 2, "type": "sit", "seat": 2})
        await person.send({"v": 2, "type": "bots"})
        final = await play_randomly(person, random.Random(1), seat=2, start=True)
        totals = final["game"]["match_over"]["totals"]
        await asyncio.sleep(0.5)
        async with httpx.AsyncClient(base_url=srv.url) as http:
            matches = (await http.get("/api/matches")).json()["matches"]
            assert [m["room"] for m in matches] == [code]
            stored = [m["id"] for m in matches]
            assert matches[0]["preset"] == "meishan" and matches[0]["totals"] == totals
            detail = (await http.get(f"/api/matches/{matches[0]['id']}")).json()
            assert len(detail["hands"]) == final["game"]["hand"]
            record = parse_record(detail["record"])
            assert isinstance(record, MatchRecord)
            assert verify(record).to_json()["result"]["totals"] == totals
            frames = (await http.get(f"/api/hands/{detail['hands'][-1]['id']}/replay")).json()["frames"]
            assert frames[-1]["view"]["phase"] == "over"
    # the server started again on the same database finds it migrated and keeps the match
    with running_server(settings) as srv:
        async with httpx.AsyncClient(base_url=srv.url) as http:
            assert [m["id"] for m in (await http.get("/api/matches")).json()["matches"]] == stored

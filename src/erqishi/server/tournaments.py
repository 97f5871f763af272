"""争霸赛 tournaments in the web game (docs/tournament.md, "In the web game"): the organiser
creates one, players register by its link with a name, the organiser starts each round,
and every table of a round is a room of the normal machinery (timers, 托管, reconnect)
that plays the round's duplicate deals, its people's seats reserved for their player
tokens and bots in the others.

**Tokens.** Creating a tournament answers an organiser token, registering a player token
(each 256 random bits, shown once); the store keeps only their SHA-256 digests (as a room
keeps its seat tokens), in the tournament's state under ``web``, which the core ignores.
A table's room reserves each person's seat for the digest of that entrant's player
token (:class:`~erqishi.server.room.TableLink`): the player's browser opens the room with
the player token as its seat token, and nobody else may join (a table of duplicate play
is not watched: it would show the deals still to come at the others).

**Results.** A table's result is read from its stored match (the engine replays the
record), so the standings are those of the history. The service links each table's match
as soon as the database has it (``tournament_matches``), records the result once the
stored match is finished, and saves the tournament (with the version it read). It does so
when the journal reports a tournament room's ``match`` or ``finish`` entry, every few
seconds for tournaments in play, and at start-up: a server stopped during a round carries
on (the rooms come back from their journal, a table whose room is missing is opened
again; the deals are the round's either way), and one stopped between rounds loses
nothing (the state is in the store).

**Sealed deals.** While a round is played, its tables' stored matches are sealed: the
history lists them without totals and refuses their hands and records (``sealed``, 403),
since every table plays the same deals.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import random
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as FastAPIPath
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from erqishi.core.errors import ErqishiError
from erqishi.play import Table
from erqishi.records import MatchRecord, parse_record
from erqishi.server.lobby import token_digest
from erqishi.server.protocol import CreateRoom, CreateTournament, OrganiserToken, RegisterEntrant, error_message
from erqishi.server.room import TableLink
from erqishi.server.room_options import rules_words
from erqishi.server.settings import PROTOCOL_VERSION, Settings
from erqishi.storage import StaleTournamentError, Store, TournamentInfo
from erqishi.storage.live import LiveResult
from erqishi.storage.tournaments import tournament_room
from erqishi.tournament import TableResult, Tournament, TournamentError, TournamentStatus
from erqishi.tournament.persist import info_of
from erqishi.tournament.tournament import MAX_ENTRANTS, MIN_ENTRANTS

if TYPE_CHECKING:
    from erqishi.server.guard import Guard
    from erqishi.server.room import RoomManager
    from erqishi.storage.journal import Journal

__all__ = ["Refused", "Tournaments", "WebSide", "result_of_record", "table_of_code", "tournament_router"]

log = logging.getLogger("erqishi.server")

#: How often tournaments in play are looked at (results the journal's reports missed,
#: tables to open again, a start time reached), in seconds.
RECONCILE_SECONDS = 3.0
#: A tournament table's room code: ``T{id}-{round}-{table from 1}`` (as its stored match's).
_CODE = re.compile(r"^T(\d{1,18})-(\d{1,4})-(\d{1,4})$")

Id = Annotated[int, FastAPIPath(ge=1, le=2**63 - 1)]


def table_of_code(code: str) -> tuple[int, int, int] | None:
    """The tournament, round (from 1) and table (from 0) of a tournament table's room code,
    None for any other code.

    >>> table_of_code("T7-2-1"), table_of_code("K7M2QX")
    ((7, 2, 0), None)
    """
    found = _CODE.match(code.upper()) if isinstance(code, str) else None
    if found is None:
        return None
    return int(found[1]), int(found[2]), int(found[3]) - 1


class Refused(Exception):
    """A request the tournament refuses: a protocol error ``code`` with its HTTP status."""

    def __init__(self, code: str, status: int, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.code, self.status, self.message, self.zh = code, status, message, zh

    def response(self) -> JSONResponse:
        return JSONResponse(error_message(self.code, self.message, zh=self.zh), status_code=self.status)


@dataclass(slots=True)
class WebSide:
    """What the web server keeps of a tournament beside its state (``state["web"]``): the
    organiser token's digest, each entrant's player token digest (None for a bot), the
    tables' room settings (a ``POST /api/rooms`` body: rules, bot level, timers), how long
    a table waits for its players, and the preset the rules were chosen from."""

    organiser: str
    players: list[str | None]
    room: dict[str, Any]
    wait_seconds: float
    preset: str

    def to_json(self) -> dict[str, Any]:
        return {
            "organiser": self.organiser,
            "players": list(self.players),
            "room": self.room,
            "wait_seconds": self.wait_seconds,
            "preset": self.preset,
        }

    @classmethod
    def from_json(cls, data: Any, entrants: int) -> WebSide | None:
        """The web side of a stored state, None when it has none (a tournament of the
        command line) or it does not read."""
        if not isinstance(data, dict):
            return None
        try:
            players = [None if p is None else str(p) for p in data["players"]]
            players += [None] * (entrants - len(players))
            return cls(
                str(data["organiser"]),
                players[:entrants],
                dict(data["room"]),
                float(data["wait_seconds"]),
                str(data["preset"]),
            )
        except (KeyError, TypeError, ValueError):
            return None


@dataclass(slots=True)
class Loaded:
    """A tournament as read from the store: its value, web side, version, when it was
    created and saved, and the stored match of each ``(round, table)``."""

    id: int
    tournament: Tournament
    web: WebSide | None
    version: int
    created: datetime
    updated: datetime
    matches: dict[tuple[int, int], int] = field(default_factory=dict)


def result_of_record(tournament: Tournament, record_json: Any) -> TableResult:
    """A table's result from its stored match record: the record replayed through the one
    table (the engine checks every move), then :meth:`TableResult.from_table`.

    Raises:
        TournamentError: the record does not replay, or its match is not over.
    """
    try:
        record = parse_record(record_json)
        if not isinstance(record, MatchRecord):
            raise TournamentError("the stored record is not a match record")
        table = Table(
            tournament.rules, random.Random(0), record.seats, auto_close=False, match=tournament.first_match()
        )
        for hand in record.hands:
            table.start_hand(hand.deal, quan=hand.quan)
            for seat, action in hand.actions:
                table.apply_move(seat, action)
    except ErqishiError as exc:
        raise TournamentError(f"the stored match does not replay: {exc}") from None
    if not table.match_over:
        raise TournamentError("the stored match is not over")
    return TableResult.from_table(table)


def _now() -> datetime:
    return datetime.now(UTC)


class Tournaments:
    """The tournaments of one server (docs/tournament.md, "In the web game").

    Args:
        store: where tournaments and matches are kept.
        rooms: the server's rooms (each table of a round is one).
        settings: the server settings (``seed``: tournaments' seeds are drawn from it in tests).
    """

    def __init__(self, store: Store, rooms: RoomManager, settings: Settings) -> None:
        self.store = store
        self.rooms = rooms
        self.settings = settings
        self._seeds = random.Random(f"tournaments:{settings.seed}") if settings.seed is not None else None
        self._locks: dict[int, asyncio.Lock] = {}
        #: tournaments to look at: playing, or registering with a start time
        self.active: set[int] = set()
        #: rounds known to be complete (they stay so): their tables' matches are not sealed
        self._complete: set[tuple[int, int]] = set()
        self._names: dict[int, tuple[str, int]] = {}  # id -> (name, Swiss rounds)
        self._dirty: set[int] = set()
        self._drainer: asyncio.Task[None] | None = None
        self._loop: asyncio.Task[None] | None = None
        self._scanned = False

    # ------------------------------------------------------------------ life

    async def open(self, journal: Journal | None) -> None:
        """Pick up the tournaments in play and those waiting for their start time, bring
        each up to date (results stored while the server was down, tables to open again),
        then watch the journal and look at them every few seconds (a database that cannot
        be read at start-up is asked again then)."""
        await self._scan()
        for tournament_id in sorted(self.active):
            try:
                await self.reconcile(tournament_id)
            except Exception:
                log.exception("tournament %d could not be brought up to date; tried again shortly", tournament_id)
        if journal is not None:
            journal.listen(self._stored)
        self._loop = asyncio.get_running_loop().create_task(self._watch())

    async def _scan(self) -> None:
        """Note every tournament in play or registering (once)."""
        if self._scanned:
            return
        try:
            offset = 0
            while True:
                found = await self.store.list_tournaments(limit=200, offset=offset)
                for summary in found:
                    if summary.info.status in (TournamentStatus.PLAYING.value, TournamentStatus.REGISTERING.value):
                        self.active.add(summary.id)
                if len(found) < 200:
                    break
                offset += 200
        except Exception:
            log.warning("the tournaments in play cannot be read yet; asked again shortly", exc_info=True)
            return
        self._scanned = True

    async def close(self) -> None:
        """Stop watching."""
        for task in (self._loop, self._drainer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def _stored(self, result: LiveResult) -> None:
        """A journal report: a tournament table's match was stored or finished."""
        if result.entry.kind not in ("match", "finish"):
            return
        room = self.rooms.by_uid.get(result.entry.room)
        if room is not None and room.tournament is not None:
            self.poke(room.tournament.tournament)

    def poke(self, tournament_id: int) -> None:
        """Bring ``tournament_id`` up to date soon (once, however often it is poked)."""
        self._dirty.add(tournament_id)
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        while self._dirty:
            tournament_id = min(self._dirty)
            self._dirty.discard(tournament_id)
            try:
                await self.reconcile(tournament_id)
            except Exception:  # (the database is down, say: the watch tries again)
                log.warning("tournament %d: not brought up to date yet", tournament_id, exc_info=True)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(RECONCILE_SECONDS)
            await self._scan()
            for tournament_id in sorted(self.active):
                self._dirty.add(tournament_id)
            if self._dirty:
                await self._drain()

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------------ the store

    async def load(self, tournament_id: int) -> Loaded:
        """A stored tournament.

        Raises:
            Refused: ``not_found`` (404), or ``bad_state`` (500) for a state that does not read.
        """
        found = await self.store.get_tournament(tournament_id)
        if found is None:
            raise Refused("not_found", 404, f"no tournament {tournament_id}", f"没有编号为 {tournament_id} 的争霸赛")
        try:
            tournament = Tournament.from_json(found.state)
        except TournamentError as exc:
            log.error("tournament %d does not read: %s", tournament_id, exc)
            raise Refused(
                "bad_state",
                500,
                f"tournament {tournament_id} is stored in a form this server cannot read",
                f"争霸赛 {tournament_id} 存下的格式这个服务读不了",
            ) from None
        web = WebSide.from_json(found.state.get("web"), len(tournament.entrants))
        summary = found.summary
        self._names[tournament_id] = (tournament.name, tournament.rounds)
        for r in tournament.played:
            if r.is_complete:
                self._complete.add((tournament_id, r.number))
        return Loaded(
            tournament_id, tournament, web, summary.version, summary.created, summary.updated, dict(found.matches)
        )

    async def _save(self, loaded: Loaded, tournament: Tournament, web: WebSide | None) -> Loaded:
        """Save a new state over the version ``loaded`` read.

        Raises:
            Refused: ``busy`` (409) when another writer saved in between.
        """
        state = tournament.to_json()
        if web is not None:
            state["web"] = web.to_json()
        info: TournamentInfo = info_of(tournament)
        try:
            version, _ = await self.store.save_tournament(loaded.id, state, info, version=loaded.version)
        except StaleTournamentError:
            why = "the tournament changed meanwhile; try again"
            raise Refused("busy", 409, why, "争霸赛刚刚变了；请再试一次") from None
        for r in tournament.played:
            if r.is_complete:
                self._complete.add((loaded.id, r.number))
        if tournament.status in (TournamentStatus.PLAYING, TournamentStatus.REGISTERING):
            self.active.add(loaded.id)
        else:
            self.active.discard(loaded.id)
        return Loaded(loaded.id, tournament, web, version, loaded.created, _now(), loaded.matches)

    def _seed(self) -> int:
        return self._seeds.getrandbits(63) if self._seeds is not None else secrets.randbits(63)

    # ------------------------------------------------------------------ the organiser and players

    async def create(self, body: CreateTournament) -> tuple[int, str]:
        """A new tournament; its id and the organiser token (shown once).

        Raises:
            Refused: ``bad_rules`` or ``bad_request`` (400), the message naming the fault.
        """
        try:
            config = body.room()
        except (ErqishiError, ValidationError) as exc:
            raise Refused("bad_rules", 400, f"rules: {exc}", f"规则：{getattr(exc, 'zh', '') or '规则有误'}") from None
        try:
            tournament = Tournament.create(
                body.name,
                config.rules(),
                rounds=body.rounds,
                match_quan=body.match_quan,
                seed=self._seed(),
                start=body.start_time(),
                leitai=body.leitai,
                filler=body.bots,
            )
        except TournamentError as exc:
            code = "bad_rules" if str(exc).startswith("rules") or "dealer" in str(exc) else "bad_request"
            raise Refused(code, 400, str(exc), exc.zh) from None
        token = secrets.token_urlsafe(32)
        web = WebSide(token_digest(token), [], config.model_dump(mode="json"), body.wait_seconds, body.preset)
        state = {**tournament.to_json(), "web": web.to_json()}
        tournament_id = await self.store.create_tournament(state, info_of(tournament))
        self._names[tournament_id] = (tournament.name, tournament.rounds)
        self.active.add(tournament_id)
        return tournament_id, token

    async def register(self, tournament_id: int, name: str) -> tuple[int, str, str]:
        """A player registers; the entrant's index, its name as kept and its player token
        (shown once).

        Raises:
            Refused: ``not_found`` (404); ``registration_closed`` or ``full`` (409) once
                round 1 has started or the field is full; ``bad_name`` (400) for a name the
                tournament refuses (invisible, too long, taken, passing for a bot).
        """
        async with self._lock(tournament_id):
            loaded = await self.load(tournament_id)
            tournament, web = loaded.tournament, loaded.web
            if web is None:
                raise Refused(
                    "not_web",
                    409,
                    "this tournament was not made in the web game: nobody registers here",
                    "这场争霸赛不是在网页上办的：这里不能报名",
                )
            if tournament.played:
                why = "registration is closed: round 1 has started"
                raise Refused("registration_closed", 409, why, "报名已截止：第 1 轮已经开始")
            if len(tournament.entrants) >= MAX_ENTRANTS:
                raise Refused(
                    "full", 409, f"the tournament is full ({MAX_ENTRANTS} players)", f"争霸赛已满（{MAX_ENTRANTS} 人）"
                )
            try:
                tournament = tournament.register(name)
            except TournamentError as exc:
                raise Refused("bad_name", 400, str(exc), exc.zh) from None
            token = secrets.token_urlsafe(32)
            web.players.append(token_digest(token))
            await self._save(loaded, tournament, web)
        entrant = len(tournament.entrants) - 1
        return entrant, tournament.entrants[entrant].name, token

    def _check_organiser(self, loaded: Loaded, token: str) -> None:
        web = loaded.web
        if web is None or not hmac.compare_digest(web.organiser, token_digest(token)):
            raise Refused(
                "not_organiser",
                403,
                "only the tournament's organiser (with the organiser token) may do this",
                "只有争霸赛的主办人（持主办口令）能这样做",
            )

    async def start(self, tournament_id: int, token: str | None) -> Loaded:
        """Start the next round (or the 擂台 final): seat it, save it, open its tables.
        ``token`` None: the server itself, at the start time.

        Raises:
            Refused: ``not_found`` (404), ``not_organiser`` (403), or ``bad_state`` (409)
                while a round is played, once the tournament is finished, or with fewer
                than two players.
        """
        async with self._lock(tournament_id):
            loaded = await self.load(tournament_id)
            if token is not None:
                self._check_organiser(loaded, token)
            if loaded.web is None:
                raise Refused(
                    "not_web",
                    409,
                    "this tournament was not made in the web game: play it with `erqishi tournament`",
                    "这场争霸赛不是在网页上办的：用 `erqishi tournament` 来打",
                )
            try:
                tournament = loaded.tournament.start_round()
            except TournamentError as exc:
                raise Refused("bad_state", 409, str(exc), exc.zh) from None
            loaded = await self._save(loaded, tournament, loaded.web)
            self._open_tables(loaded)
        return loaded

    # ------------------------------------------------------------------ the tables

    def _open_tables(self, loaded: Loaded) -> None:
        """Open a room for every table of the round in play that has no result, no stored
        match and no room (all of them just after the round starts)."""
        tournament = loaded.tournament
        if tournament.status is not TournamentStatus.PLAYING or loaded.web is None:
            return
        current = tournament.played[-1]
        for i, table in enumerate(current.tables):
            code = tournament_room(loaded.id, current.number, i)
            if table.result is not None or (current.number, i) in loaded.matches or self.rooms.get(code) is not None:
                continue
            self._open_table(loaded, current.number, i)

    def link_of(self, loaded: Loaded, number: int, table: int) -> TableLink:
        """The :class:`TableLink` of a table: its seats' names and bots, the people's token
        digests, the round's deal seed, each seat's bot seed."""
        tournament, web = loaded.tournament, loaded.web
        seats = tournament.table(number, table).seats
        people: list[str | None] = []
        for e in seats:
            if e is None or tournament.entrants[e].bot is not None:
                people.append(None)
            else:
                digest = web.players[e] if web is not None and e < len(web.players) else None
                # (a person without a token, which a web tournament never has: nobody can sit)
                people.append(digest if digest is not None else token_digest(secrets.token_urlsafe(32)))
        return TableLink(
            loaded.id,
            number,
            table,
            tournament.seat_names(number, table),
            tournament.seat_bots(number, table),
            tuple(people),
            tournament.deal_seed(number),
            tuple(tournament.bot_seed(number, table, s) for s in range(tournament.size)),
            web.wait_seconds if web is not None else 60.0,
        )

    def _open_table(self, loaded: Loaded, number: int, table: int) -> None:
        assert loaded.web is not None
        config = CreateRoom.model_validate(loaded.web.room)
        code = tournament_room(loaded.id, number, table)
        self.rooms.create(config, code, tournament=self.link_of(loaded, number, table))
        log.info("tournament %d round %d: table %d opened as room %s", loaded.id, number, table + 1, code)

    async def reconcile(self, tournament_id: int) -> Loaded:
        """Bring a tournament up to date: link each table's stored match, record the
        result of each finished one (saving the tournament), open the tables that have
        no room, and start round 1 at its start time."""
        async with self._lock(tournament_id):
            loaded = await self.load(tournament_id)
            tournament = loaded.tournament
            status = tournament.status
            if status is TournamentStatus.REGISTERING:
                start = tournament.start
                if start is None or start > _now() or len(tournament.entrants) < MIN_ENTRANTS or loaded.web is None:
                    if start is None or loaded.web is None:
                        self.active.discard(tournament_id)
                    return loaded
                loaded = await self._save(loaded, tournament.start_round(), loaded.web)
                log.info("tournament %d: round 1 started at its start time", tournament_id)
                self._open_tables(loaded)
                return loaded
            if status is not TournamentStatus.PLAYING:
                self.active.discard(tournament_id)
                return loaded
            self.active.add(tournament_id)
            current = tournament.played[-1]
            changed = tournament
            for i, table in enumerate(current.tables):
                if table.result is not None:
                    continue
                room = self.rooms.get(tournament_room(tournament_id, current.number, i))
                match_id = loaded.matches.get((current.number, i))
                if match_id is None and room is not None and room.tournament is not None:
                    match_id = room.match_ids.get(1)
                    if match_id is not None:
                        try:
                            await self.store.link_tournament_match(tournament_id, current.number, i, match_id)
                            loaded.matches[(current.number, i)] = match_id
                        except ValueError:
                            log.exception(
                                "tournament %d round %d table %d: the match does not link",
                                tournament_id,
                                current.number,
                                i + 1,
                            )
                if match_id is None:
                    continue
                found = await self.store.get_match(match_id)
                if found is None or found[0].finished is None or found[2] is None:
                    continue
                try:
                    result = result_of_record(changed, found[2])
                except TournamentError as exc:
                    log.error("tournament %d round %d table %d: %s", tournament_id, current.number, i + 1, exc)
                    continue
                changed = changed.record(current.number, i, result)
            if changed is not tournament:
                loaded = await self._save(loaded, changed, loaded.web)
                if changed.status is not TournamentStatus.PLAYING:
                    log.info("tournament %d: round %d is complete", tournament_id, current.number)
            self._open_tables(loaded)
            return loaded

    # ------------------------------------------------------------------ reading

    async def sealed(self, code: object) -> bool:
        """Whether a stored match of the room ``code`` is sealed: a table of a tournament
        round still being played (its deals are the other tables' too)."""
        where = table_of_code(code) if isinstance(code, str) else None
        if where is None:
            return False
        tournament_id, number, _ = where
        if (tournament_id, number) in self._complete:
            return False
        try:
            loaded = await self.load(tournament_id)
        except Refused:
            return False
        played = loaded.tournament.played
        return number <= len(played) and not played[number - 1].is_complete

    def label(self, code: object) -> dict[str, Any] | None:
        """A stored match's tournament, round and table (the history names them), or None."""
        where = table_of_code(code) if isinstance(code, str) else None
        if where is None:
            return None
        tournament_id, number, table = where
        name, rounds = self._names.get(tournament_id, (None, None))
        return {
            "id": tournament_id,
            "name": name,
            "round": number,
            "table": table,
            "final": rounds is not None and number > rounds,
            "url": f"/t/{tournament_id}",
        }

    def state_json(self, loaded: Loaded) -> dict[str, Any]:
        """A tournament's public state (``GET /api/tournaments/{id}``): no token or digest."""
        t, web = loaded.tournament, loaded.web
        status = t.status
        config = CreateRoom.model_validate(web.room) if web is not None else None
        preset = web.preset if web is not None else (t.rules.name or "leshan")
        played = []
        for r in t.played:
            tables = []
            for i, table in enumerate(r.tables):
                code = tournament_room(loaded.id, r.number, i)
                room = self.rooms.get(code)
                names, bots = t.seat_names(r.number, i), t.seat_bots(r.number, i)
                if table.result is not None:
                    shown = "finished"
                elif room is not None:
                    shown = room.status
                else:
                    shown = "waiting"
                hand = room.table.hand_number if room is not None and room.table is not None else None
                tables.append(
                    {
                        "table": i,
                        "code": code,
                        "url": f"/r/{code}",
                        "status": shown,
                        "hand": hand,
                        "seats": [
                            {"seat": s, "entrant": e, "name": names[s], "bot": bots[s]}
                            for s, e in enumerate(table.seats)
                        ],
                        "result": table.result.to_json() if table.result is not None else None,
                        "match": loaded.matches.get((r.number, i)),
                    }
                )
            played.append(
                {
                    "round": r.number,
                    "kind": r.kind,
                    "method": r.method,
                    "repeats": r.repeats,
                    "complete": r.is_complete,
                    "tables": tables,
                }
            )
        finished = status is TournamentStatus.FINISHED
        champion = t.champion
        number = len(t.played) + 1
        upcoming = None
        if status in (TournamentStatus.REGISTERING, TournamentStatus.BETWEEN_ROUNDS):
            upcoming = "final" if number > t.rounds else "round"
        return {
            "v": PROTOCOL_VERSION,
            "tournament": {
                "id": loaded.id,
                "name": t.name,
                "status": status.value,
                "url": f"/t/{loaded.id}",
                "created": loaded.created.isoformat(),
                "updated": loaded.updated.isoformat(),
                "version": loaded.version,
                "start": t.start.isoformat() if t.start is not None else None,
                "preset": preset,
                "rules": t.rules.to_options(),
                "rules_words": rules_words(t.rules, preset),
                "players": t.size,
                "rounds": t.rounds,
                "total_rounds": t.total_rounds,
                "match_quan": t.match_quan,
                "leitai": t.leitai,
                "bots": t.filler,
                "wait_seconds": web.wait_seconds if web is not None else None,
                "timers": {
                    "response_seconds": config.response_seconds or self.settings.response_seconds,
                    "turn_seconds": config.turn_seconds or self.settings.turn_seconds,
                }
                if config is not None
                else None,
                "web": web is not None,
                "registering": status is TournamentStatus.REGISTERING and web is not None,
                "entrants": [{"entrant": i, "name": e.name, "bot": e.bot} for i, e in enumerate(t.entrants)],
                "min_entrants": MIN_ENTRANTS,
                "next": upcoming,
                "played": played,
                "standings": [s.to_json() for s in t.standings()],
                "ranking": [s.to_json() for s in t.ranking()] if finished else None,
                "champion": t.entrants[champion].name if champion is not None else None,
            },
        }


def tournament_router(service: Callable[[], Tournaments], guard: Guard, single: Callable[[], bool]) -> APIRouter:
    """The JSON API of tournaments (docs/protocol.md, "Tournaments").

    Args:
        service: the server's :class:`Tournaments` (once started).
        guard: the limits per client address (a tournament counts as a room created).
        single: whether the server is one process on its own (tournaments need that).
    """
    router = APIRouter()

    def one_process() -> None:
        if not single():
            raise Refused(
                "not_supported",
                501,
                "tournaments are played on a server of one process (erqishi serve without --redis)",
                "争霸赛只能在单进程的服务上打（erqishi serve 不带 --redis）",
            )

    @router.post("/api/tournaments", status_code=201, response_model=None)
    async def create(body: CreateTournament, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            one_process()
            address = request.client.host if request.client else "?"
            refused = guard.create_room(address)
            if refused is not None:
                return JSONResponse(refused.json(), status_code=refused.status)
            tournament_id, token = await service().create(body)
        except Refused as exc:
            return exc.response()
        url = f"/t/{tournament_id}"
        return {
            "v": PROTOCOL_VERSION,
            "id": tournament_id,
            "url": url,
            "register_url": url,
            "organiser_token": token,
            "organiser_url": f"{url}#organiser={token}",
        }

    @router.get("/api/tournaments", response_model=None)
    async def listing(limit: int = 50, offset: int = 0) -> dict[str, Any] | JSONResponse:
        if not 1 <= limit <= 200 or not 0 <= offset < 2**62:
            return Refused(
                "bad_request",
                400,
                "limit must be 1-200 and offset 0 or more (below 2^62)",
                "limit 应在 1-200 之间，offset 不小于 0（小于 2^62）",
            ).response()
        found = await service().store.list_tournaments(limit=limit, offset=offset)
        return {"v": PROTOCOL_VERSION, "tournaments": [s.to_json() for s in found]}

    @router.get("/api/tournaments/{tournament_id}", response_model=None)
    async def state(tournament_id: Id) -> dict[str, Any] | JSONResponse:
        try:
            return service().state_json(await service().load(tournament_id))
        except Refused as exc:
            return exc.response()

    @router.post("/api/tournaments/{tournament_id}/register", status_code=201, response_model=None)
    async def register(tournament_id: Id, body: RegisterEntrant) -> dict[str, Any] | JSONResponse:
        try:
            one_process()
            entrant, name, token = await service().register(tournament_id, body.name)
        except Refused as exc:
            return exc.response()
        return {"v": PROTOCOL_VERSION, "entrant": entrant, "name": name, "token": token}

    @router.post("/api/tournaments/{tournament_id}/start", response_model=None)
    async def start(tournament_id: Id, body: OrganiserToken) -> dict[str, Any] | JSONResponse:
        try:
            one_process()
            loaded = await service().start(tournament_id, body.token)
        except Refused as exc:
            return exc.response()
        return service().state_json(loaded)

    return router

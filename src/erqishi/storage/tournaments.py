"""争霸赛 tournaments in the store (tables ``tournaments`` and ``tournament_matches``,
migration 0004): each tournament's whole state as JSON, the columns its listing shows, and
which stored match each table of a round played.

The state is the JSON of :meth:`erqishi.tournament.Tournament.to_json`; this module does
not read it (storage sits below the tournament layer): the caller passes the listing
columns as a :class:`TournamentInfo`. Every save is one transaction: a round's match
records (``web_matches`` and ``web_hands``, so they show in the history and replay like
any match), their links and the tournament's new state are stored together or not at all.
Each save counts up the tournament's ``version``; a save that names the version it read
fails with :class:`StaleTournamentError` when another writer saved in between.

:class:`~erqishi.storage.Store` has these as methods (``create_tournament``,
``save_tournament``, ``get_tournament``, ``list_tournaments``, ``link_tournament_match``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from erqishi.records import MatchRecord
from erqishi.storage.schema import tournament_matches, tournaments, web_matches
from erqishi.storage.store import (
    _finish_match,
    _finish_values,
    _hand_values,
    _insert_hand,
    _insert_match,
    _iso,
    _match_values,
    _utc,
)

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

__all__ = [
    "StaleTournamentError",
    "StoredTournament",
    "TournamentInfo",
    "TournamentMatch",
    "TournamentSummary",
    "UnknownTournamentError",
    "create_tournament",
    "get_tournament",
    "link_tournament_match",
    "list_tournaments",
    "save_tournament",
    "tournament_room",
]

_NAME_CHARS = 64


class UnknownTournamentError(KeyError):
    """No tournament has this id."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(tournament_id)
        self.tournament_id = tournament_id

    def __str__(self) -> str:
        return f"no tournament {self.tournament_id}"


class StaleTournamentError(RuntimeError):
    """The tournament was saved by another writer since this one read it."""


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """The columns a tournament's listing shows, taken from its state by the caller.

    Attributes:
        name: its name.
        status: ``registering``, ``playing``, ``between_rounds`` or ``finished``.
        players: registered players.
        rounds: rounds to play in all.
        played: rounds started.
        champion: the champion's name once finished, else None.
    """

    name: str
    status: str
    players: int
    rounds: int
    played: int
    champion: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A stored tournament as listed: its id, when it was created and last saved (UTC),
    how often it was saved (``version``) and its :class:`TournamentInfo`."""

    id: int
    created: datetime
    updated: datetime
    version: int
    info: TournamentInfo

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON (times as ISO 8601 in UTC)."""
        return {
            "id": self.id,
            "name": self.info.name,
            "created": _iso(self.created),
            "updated": _iso(self.updated),
            "status": self.info.status,
            "players": self.info.players,
            "rounds": self.info.rounds,
            "played": self.info.played,
            "champion": self.info.champion,
            "version": self.version,
        }


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A stored tournament: its summary, its state (JSON) and, per ``(round, table)``
    (round from 1, table from 0), the id of the stored match that table played."""

    summary: TournamentSummary
    state: dict[str, Any]
    matches: dict[tuple[int, int], int]


@dataclass(frozen=True, slots=True)
class TournamentMatch:
    """A finished match of a tournament table, stored with the tournament's state.

    Attributes:
        round, table: where it was played (round from 1, table from 0).
        seed: the seed of its deals (signed 64-bit).
        record: the match record, every hand with its result (FORMATS.md).
    """

    round: int
    table: int
    seed: int
    record: MatchRecord


def tournament_room(tournament_id: int, round_no: int, table: int) -> str:
    """The ``room`` a tournament table's match is stored under: ``T{id}-{round}-{table}``
    (the table from 1).

    >>> tournament_room(7, 2, 0)
    'T7-2-1'
    """
    return f"T{tournament_id}-{round_no}-{table + 1}"


def _values(state: Mapping[str, Any], info: TournamentInfo) -> dict[str, Any]:
    try:
        data = json.loads(json.dumps(state, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the tournament state must be JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the tournament state must be a JSON object")
    if not isinstance(info.name, str) or not info.name or len(info.name) > _NAME_CHARS:
        raise ValueError(f"a tournament name has 1-{_NAME_CHARS} characters, got {info.name!r}")
    champion = info.champion[:_NAME_CHARS] if info.champion is not None else None
    return {
        "name": info.name,
        "status": info.status,
        "players": info.players,
        "rounds": info.rounds,
        "played": info.played,
        "champion": champion,
        "state": data,
    }


async def create_tournament(engine: AsyncEngine, state: Mapping[str, Any], info: TournamentInfo) -> int:
    """Store a new tournament (version 1); its id.

    Raises:
        ValueError: a state that is not a JSON object, or a bad name.
    """
    values = _values(state, info)
    now = datetime.now(UTC)
    async with engine.begin() as conn:
        new_id = await conn.scalar(
            insert(tournaments).values(created=now, updated=now, version=1, **values).returning(tournaments.c.id)
        )
    if new_id is None:
        raise RuntimeError("the database returned no id for the new tournament")
    return int(new_id)


async def _store_match(conn: AsyncConnection, tournament_id: int, match: TournamentMatch) -> int:
    record = match.record
    values = _match_values(
        room=tournament_room(tournament_id, match.round, match.table),
        preset=record.rules.name or "custom",
        rules=record.rules.to_options(),
        seats=record.seats,
        seed=match.seed,
    )
    match_id = await _insert_match(conn, values)
    totals = [0] * len(record.seats)
    for index, hand in enumerate(record.hands):
        if hand.result is not None:
            totals = [t + p for t, p in zip(totals, hand.result.payments, strict=True)]
        row, new_totals = _hand_values(index, hand, totals)
        await _insert_hand(conn, match_id, index, hand, row, new_totals)
    best = max(totals) if totals else 0
    final, lead, data = _finish_values(record, totals, [s for s, t in enumerate(totals) if t == best])
    await _finish_match(conn, match_id, record, final, lead, data)
    await _link(conn, tournament_id, match.round, match.table, match_id)
    return match_id


async def _link(conn: AsyncConnection, tournament_id: int, round_no: int, table: int, match_id: int) -> None:
    try:
        await conn.execute(
            insert(tournament_matches).values(
                tournament_id=tournament_id, round_no=round_no, table_no=table, match_id=match_id
            )
        )
    except IntegrityError:
        raise ValueError(
            f"tournament {tournament_id} round {round_no} table {table + 1} has a match already, "
            f"or match {match_id} belongs to another table"
        ) from None


async def save_tournament(
    engine: AsyncEngine,
    tournament_id: int,
    state: Mapping[str, Any],
    info: TournamentInfo,
    *,
    version: int | None = None,
    matches: Sequence[TournamentMatch] = (),
) -> tuple[int, list[int]]:
    """Save a tournament's new state, with the finished matches of its tables, in one
    transaction.

    Args:
        tournament_id: the tournament.
        state: its state (JSON).
        info: its listing columns.
        version: the version the caller read; None saves whatever was saved before.
        matches: finished matches of its tables to store (history, replays) and link.

    Returns:
        The new version and the ids of the stored matches, in order.

    Raises:
        UnknownTournamentError: (a ``KeyError``) no such tournament.
        StaleTournamentError: ``version`` is not the stored version.
        ValueError: a bad state or name, or a table that has a match already.
        RecordError: a match record without its hands' results.

    Nothing is written when it raises.
    """
    values = _values(state, info)
    async with engine.begin() as conn:
        where = tournaments.c.id == tournament_id
        if version is not None:
            where = where & (tournaments.c.version == version)
        new_version = await conn.scalar(
            update(tournaments)
            .where(where)
            .values(updated=datetime.now(UTC), version=tournaments.c.version + 1, **values)
            .returning(tournaments.c.version)
        )
        if new_version is None:
            found = await conn.scalar(select(tournaments.c.version).where(tournaments.c.id == tournament_id))
            if found is None:
                raise UnknownTournamentError(tournament_id)
            raise StaleTournamentError(
                f"tournament {tournament_id} was saved by someone else (version {found}, not {version})"
            )
        ids = [await _store_match(conn, tournament_id, m) for m in matches]
    return int(new_version), ids


async def link_tournament_match(
    engine: AsyncEngine, tournament_id: int, round_no: int, table: int, match_id: int
) -> None:
    """Note that ``match_id`` (a match stored by a room) was played at ``table`` of round
    ``round_no``.

    Raises:
        ValueError: the table has a match already, the match belongs to another table, or
            the tournament or match does not exist.
    """
    async with engine.begin() as conn:
        known = await conn.scalar(select(tournaments.c.id).where(tournaments.c.id == tournament_id))
        match = await conn.scalar(select(web_matches.c.id).where(web_matches.c.id == match_id))
        if known is None or match is None:
            raise ValueError(f"no tournament {tournament_id} or no match {match_id}")
        await _link(conn, tournament_id, round_no, table, match_id)


_COLUMNS = (
    tournaments.c.id,
    tournaments.c.created,
    tournaments.c.updated,
    tournaments.c.version,
    tournaments.c.name,
    tournaments.c.status,
    tournaments.c.players,
    tournaments.c.rounds,
    tournaments.c.played,
    tournaments.c.champion,
)


def _summary(row: Any) -> TournamentSummary:
    info = TournamentInfo(row.name, row.status, row.players, row.rounds, row.played, row.champion)
    return TournamentSummary(row.id, _utc(row.created), _utc(row.updated), row.version, info)


async def get_tournament(engine: AsyncEngine, tournament_id: int) -> StoredTournament | None:
    """A stored tournament with its state and its tables' matches, None if there is none."""
    async with engine.connect() as conn:
        row = (
            await conn.execute(select(*_COLUMNS, tournaments.c.state).where(tournaments.c.id == tournament_id))
        ).one_or_none()
        if row is None:
            return None
        links = (
            await conn.execute(
                select(tournament_matches.c.round_no, tournament_matches.c.table_no, tournament_matches.c.match_id)
                .where(tournament_matches.c.tournament_id == tournament_id)
                .order_by(tournament_matches.c.round_no, tournament_matches.c.table_no)
            )
        ).all()
    state: dict[str, Any] = row.state
    return StoredTournament(_summary(row), state, {(r.round_no, r.table_no): r.match_id for r in links})


async def list_tournaments(engine: AsyncEngine, limit: int = 50, offset: int = 0) -> list[TournamentSummary]:
    """Stored tournaments, newest first.

    Raises:
        ValueError: a negative ``limit`` or ``offset``.
    """
    if limit < 0 or offset < 0:
        raise ValueError(f"limit and offset must be 0 or more, got {limit} and {offset}")
    query = (
        select(*_COLUMNS).order_by(tournaments.c.created.desc(), tournaments.c.id.desc()).limit(limit).offset(offset)
    )
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [_summary(r) for r in rows]

"""erqishi's tables (SQLAlchemy 2 Core): the web server's matches and hands, and the bot
runs of ``erqishi sim``, in one schema.

This metadata describes the schema that the migrations build; it is what queries are
written against and what ``alembic revision --autogenerate`` compares with. It never
creates tables itself: every change goes through a migration in ``migrations/versions``.

``web_matches``: a match played in a room. ``rules`` is the options object, ``seats`` the
seat names, ``totals`` the running score per seat (updated with every stored hand),
``leaders`` the seats in the lead once the match is over, ``record`` the final match record
(FORMATS.md) once it is over; both are SQL NULL before (``none_as_null``: Python's None is
stored as NULL, not as the JSON ``null``). A match ended early by a 解散 vote has its
``finished`` time and record (the hands finished before the vote) but NULL ``leaders``.

``web_hands``: one finished hand of a match, ``idx`` counting from 0, with the summary the
history pages list (``quan``, ``dealer``, ``kind``, ``winner``, ``score``, ``payments``)
and its record with its ``result`` (FORMATS.md).

``web_matches.live_key`` names the match a live room played (``ROOM:N``: the room's
unique id and the match's number in it), NULL for matches stored otherwise: replaying
the server's journal twice never stores a match twice.

``live_log``: the journal of every room in progress (:mod:`erqishi.storage.live`): per room
(its unique id ``room``) the entries ``seq`` 1, 2, 3…, each of a ``kind`` with its JSON
``data`` (the room's settings, its seats and hashed seat tokens, each deal, the effective
actions and declarations); a room is restored at start-up by replaying them through the
engine, and its rows are deleted once it is closed.

``sim_runs``: one run of ``erqishi sim``: its ``seed``, number of ``hands``, ``bots`` (one
name per entry), ``rules`` (the rule set as text, for ``RuleSet.load``) and ``summary``
(``SimResult.to_json()``). ``sim_hands``: one played hand of a run, keyed by the run and
its index ``idx`` from 0, with the bot name per seat (``seats``), ``kind``, ``winner``,
``payments`` and its record (FORMATS.md), NULL when the run was stored without records.
Their columns are those that ``erqishi sim`` created before the tables moved here
(migration 0002 adopts such files as they are).

``tournaments``: one 争霸赛 tournament (:mod:`erqishi.tournament`): its whole ``state``
(``Tournament.to_json()``) and the columns the listing shows (``name``, ``status``,
``players``, ``rounds`` to play, rounds ``played``, the ``champion``'s name once it is
over); ``version`` counts the saves, so that two writers cannot overwrite each other.
``tournament_matches``: which stored match (``web_matches``) a table of a round played
(``round_no`` from 1, ``table_no`` from 0).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "live_log",
    "metadata",
    "sim_hands",
    "sim_runs",
    "tournament_matches",
    "tournaments",
    "web_hands",
    "web_matches",
]

#: Constraint names are spelled out so that migrations can refer to them on every backend.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

web_matches = Table(
    "web_matches",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True), nullable=True),
    Column("preset", String(32), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("totals", JSON, nullable=False),
    Column("leaders", JSON(none_as_null=True), nullable=True),
    Column("record", JSON(none_as_null=True), nullable=True),
    Column("live_key", String(48), nullable=True),
    # the history lists matches newest first
    Index(None, "created", "id"),
    # a room's matches
    Index(None, "room"),
    # one match per live room and number
    Index(None, "live_key", unique=True),
)

live_log = Table(
    "live_log",
    metadata,
    Column("room", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("data", JSON, nullable=False),
)

web_hands = Table(
    "web_hands",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Integer, ForeignKey("web_matches.id", ondelete="CASCADE"), nullable=False),
    Column("idx", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("quan", Integer, nullable=True),
    Column("dealer", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("score", Integer, nullable=False),
    Column("payments", JSON, nullable=False),
    Column("record", JSON, nullable=False),
    # one hand per index; also the index that lists and counts a match's hands
    UniqueConstraint("match_id", "idx"),
)

sim_runs = Table(
    "sim_runs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("bots", JSON, nullable=False),
    Column("rules", Text, nullable=False),
    Column("summary", JSON, nullable=False),
)

sim_hands = Table(
    "sim_hands",
    metadata,
    Column("run_id", Integer, ForeignKey("sim_runs.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seats", JSON, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("payments", JSON, nullable=False),
    Column("record", JSON(none_as_null=True), nullable=True),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("played", Integer, nullable=False),
    Column("champion", String(64), nullable=True),
    Column("version", Integer, nullable=False),
    Column("state", JSON, nullable=False),
    # the listing shows tournaments newest first
    Index(None, "created", "id"),
)

tournament_matches = Table(
    "tournament_matches",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("match_id", Integer, ForeignKey("web_matches.id", ondelete="CASCADE"), nullable=False),
    # a match is played at one table of one tournament
    Index(None, "match_id", unique=True),
)

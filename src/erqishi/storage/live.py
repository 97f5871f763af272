"""The journal of live rooms: what a room in progress writes as it goes, so that a server
that stops (a crash, ``kill -9``, a deploy) restores every room where it stood.

A room's journal is a sequence of :class:`LiveEntry`, numbered 1, 2, 3… per room (``seq``).
The server writes each entry before it sends anyone the state that follows from it: first
to a local spool file (:mod:`erqishi.storage.journal`), then, in order, to the database
(``live_log``, :meth:`erqishi.storage.Store.apply_live`). Entries are JSON; their kinds:

===========  ==========================================================================
``room``     the room was created: ``code``, ``config`` (the ``POST /api/rooms`` body),
             ``seed``
``lobby``    who is in the room: ``slots`` and the seated ``members`` with their hashed
             seat tokens, and ``hall``: the ``host`` (member id) and the seats on
             ``tuoguan`` and ``autopass`` (the newest ``lobby`` entry replaces the earlier
             ones)
``match``    a match began: ``match`` (its number in the room, from 1), ``names``,
             ``dealer`` (the first dealer), and for the history ``code``, ``preset``,
             ``rules``, ``seed``; stores a row of ``web_matches``
``deal``     a hand was dealt: ``match``, ``hand`` (1-based), ``record`` (a hand record
             without actions: rules, seats, 圈, the deal; FORMATS.md)
``moves``    effective actions: ``match``, ``hand``, ``from`` (how many the hand had
             before), ``moves`` (``[seat, action]`` in ASCII)
``declared`` the declarations made so far in the open response window: ``match``,
             ``hand``, ``step``, ``declared`` (``{seat: action}``)
``hand``     a hand ended: ``match``, ``index`` (from 0), ``record`` (with its result),
             ``totals``; stores a row of ``web_hands`` (only ``match`` and ``index`` stay
             in ``live_log``)
``finish``   the match ended: ``match``, ``record`` (the match record), ``totals``,
             ``leaders``; marks the ``web_matches`` row finished. With ``ended``
             ``"early"`` (a 解散 vote) the record holds the hands finished so far and the
             row is finished without leaders (its status ``ended_early``)
``closed``   the room was dropped: its journal is deleted
===========  ==========================================================================

With several server processes (``erqishi serve --redis``), ``live_log`` also holds per room
a row ``seq`` 0 of kind ``owner`` (``data``: ``{"owner": …}``), the fence: the process that
takes a room over writes itself there (:meth:`erqishi.storage.Store.take_room`) before it
reads the journal, and an entry whose ``owner`` is not the fence's is refused.

Applying an entry twice changes nothing (its ``(room, seq)`` is stored once, a match once
per ``live_key``, a hand once per match and index), so the spool can be replayed after
any crash. The server decides what the entries mean; the engine replays them (the
journal holds no state of its own, only the deal and what the players did).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

__all__ = ["LIVE_KINDS", "FencedError", "LiveEntry", "LiveKind", "LiveResult", "LiveRoom", "live_key"]


class FencedError(ValueError):
    """A journal entry written by a server process that no longer owns its room (another
    process took the room over): refused, so that it never forks the room's journal."""


LiveKind = Literal["room", "lobby", "match", "deal", "moves", "declared", "hand", "finish", "closed"]
#: Every kind of entry, in no particular order.
LIVE_KINDS: frozenset[str] = frozenset(get_args(LiveKind))

#: The kinds whose data the history tables need; ``live_log`` keeps only their keys.
HISTORY_KINDS = frozenset({"hand", "finish"})


def live_key(room: str, match: int) -> str:
    """The ``web_matches.live_key`` of match number ``match`` of the room with unique id
    ``room``.

    >>> live_key("3f2a9c0d1e4b5a69", 2)
    '3f2a9c0d1e4b5a69:2'
    """
    return f"{room}:{match}"


@dataclass(frozen=True, slots=True)
class LiveEntry:
    """One entry of a room's journal.

    Attributes:
        room: the room's unique id (1-32 characters; not its code, which may be reused).
        seq: its place in the room's journal, from 1.
        kind: what it records (the table of :mod:`erqishi.storage.live`).
        data: its JSON object.
        owner: with several server processes, the one that wrote it (its lease's value,
            :mod:`erqishi.server.cluster`): the database refuses it
            (:class:`FencedError`) once another process has taken the room over; None for
            a server on its own.

    Raises:
        ValueError: an empty or overlong room id, a ``seq`` below 1, an unknown kind, or
            ``data`` that is not an object (the message names the field).
    """

    room: str
    seq: int
    kind: LiveKind
    data: Mapping[str, Any] = field(default_factory=dict)
    owner: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.room, str) or not 1 <= len(self.room) <= 32:
            raise ValueError(f"room: a room id of 1-32 characters, got {self.room!r}")
        if type(self.seq) is not int or self.seq < 1:
            raise ValueError(f"seq: a number from 1, got {self.seq!r}")
        if self.kind not in LIVE_KINDS:
            raise ValueError(f"kind: one of {', '.join(sorted(LIVE_KINDS))}, got {self.kind!r}")
        if not isinstance(self.data, Mapping):
            raise ValueError(f"data: a JSON object, got {type(self.data).__name__}")

    @property
    def match(self) -> int | None:
        """The match number the entry belongs to, if it names one."""
        value = self.data.get("match")
        return value if type(value) is int else None

    def to_json(self) -> dict[str, Any]:
        """The entry as one JSON object (a line of the spool)."""
        out = {"room": self.room, "seq": self.seq, "kind": self.kind, "data": dict(self.data)}
        if self.owner is not None:
            out["owner"] = self.owner
        return out

    def stored_data(self) -> dict[str, Any]:
        """What ``live_log`` keeps of it: everything, but only the keys of a ``hand`` or
        ``finish`` (their records go to the history tables)."""
        if self.kind in HISTORY_KINDS:
            return {k: self.data[k] for k in ("match", "index") if k in self.data}
        return dict(self.data)

    @classmethod
    def from_json(cls, data: Any) -> LiveEntry:
        """Read an entry written by :meth:`to_json`.

        Raises:
            ValueError: not such an object (the message names the field).
        """
        if not isinstance(data, dict):
            raise ValueError(f"a journal entry is a JSON object, got {type(data).__name__}")
        kind = data.get("kind")
        if kind not in LIVE_KINDS:
            raise ValueError(f"kind: one of {', '.join(sorted(LIVE_KINDS))}, got {kind!r}")
        owner = data.get("owner")
        if owner is not None and not isinstance(owner, str):
            raise ValueError(f"owner: a string or absent, got {owner!r}")
        return cls(data.get("room"), data.get("seq"), kind, data.get("data"), owner)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class LiveResult:
    """What applying one entry to the database gave.

    Attributes:
        entry: the entry.
        applied: False when it was stored already (a replay).
        match_id: the ``web_matches`` id of its match (``match``, ``hand``, ``finish``).
        hand_id: the ``web_hands`` id (``hand``).
    """

    entry: LiveEntry
    applied: bool
    match_id: int | None = None
    hand_id: int | None = None


@dataclass(frozen=True, slots=True)
class LiveRoom:
    """A room in progress as the database holds it, for restoring it.

    Attributes:
        room: the room's unique id.
        entries: its journal in order (``hand`` and ``finish`` with their keys only).
        match_ids: the stored id of each of its matches, by match number.
        hand_ids: the stored hands of its newest match: hand index (from 0) to id.
    """

    room: str
    entries: tuple[LiveEntry, ...]
    match_ids: dict[int, int]
    hand_ids: dict[int, int]

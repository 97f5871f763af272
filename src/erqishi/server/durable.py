"""Durable rooms: what a room writes to its journal as it goes, and how a room is rebuilt
from it at start-up (:mod:`erqishi.storage.live` lists the kinds of entries).

:class:`Recorder` compares the room with what its journal already holds and writes the
difference (the lobby, a new match, a deal, the new effective actions, the declarations
of the open response window, finished hands and the finished match). The room calls it
before it sends any state, so nobody is ever shown what the journal does not hold.

:func:`replay_table` rebuilds the table of a match from its journal: the stored deals and
actions go through the one table and the engine again, which re-checks every one; the
journal holds no game state of its own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, cast

from erqishi.core.engine import Action, Match
from erqishi.core.errors import ErqishiError
from erqishi.core.rules import RuleSet
from erqishi.play import Table
from erqishi.records import HandRecord, parse_record
from erqishi.server.lobby import Lobby, Member, Slot
from erqishi.storage.journal import Journal
from erqishi.storage.live import LiveEntry, LiveKind

__all__ = ["Recorder", "RestoreError", "lobby_json", "replay_table", "restore_lobby"]


class RestoreError(ErqishiError):
    """A room's journal does not replay: the message names the entry and what is wrong."""


# -- the lobby --------------------------------------------------------------------------


def lobby_json(lobby: Lobby) -> dict[str, Any]:
    """What the journal keeps of a lobby: each seat's kind and member, the seated members
    (id, hashed token, name, seat, language), and the member counter (new members get
    new ids). Spectators are not kept: one who returns after a restart joins afresh."""
    members = [
        {"id": m.id, "digest": m.digest, "name": m.name, "seat": m.seat, "lang": m.lang}
        for m in lobby.members.values()
        if m.seat is not None
    ]
    return {
        "slots": [{"kind": s.kind, "member": s.member.id if s.member is not None else None} for s in lobby.slots],
        "members": members,
        "counter": getattr(lobby, "_counter", len(lobby.members)),
    }


def restore_lobby(lobby: Lobby, data: dict[str, Any], now: float | None = None) -> None:
    """Put the members and seats of :func:`lobby_json` back into an empty ``lobby``. Every
    restored member is disconnected since ``now``: the grace period starts again.

    Raises:
        RestoreError: the data does not fit the lobby (the message says what).
    """
    now = time.monotonic() if now is None else now
    slots = data.get("slots")
    if not isinstance(slots, list) or len(slots) != len(lobby.slots):
        raise RestoreError(f"lobby: {len(lobby.slots)} seats expected, got {slots!r}")
    members: dict[str, Member] = {}
    for m in data.get("members", []):
        member = Member(str(m["id"]), str(m["digest"]), str(m["name"]), seat=m["seat"], lang=str(m.get("lang", "zh")))
        member.gone_since = now
        members[member.id] = member
    for i, slot in enumerate(slots):
        kind = slot.get("kind")
        if kind not in ("empty", "human", "bot"):
            raise RestoreError(f"lobby: seat {i} has kind {kind!r}")
        sitter = members.get(slot.get("member")) if kind == "human" else None
        if kind == "human" and sitter is None:
            raise RestoreError(f"lobby: seat {i} names member {slot.get('member')!r}, who is not kept")
        lobby.slots[i] = Slot(kind, sitter)
    for member in members.values():
        lobby.members[member.id] = member
        lobby.by_digest[member.digest] = member
    counter = data.get("counter")
    if type(counter) is int and hasattr(lobby, "_counter"):
        lobby._counter = max(counter, lobby._counter)


# -- writing ----------------------------------------------------------------------------


class Recorder:
    """What of one room its journal holds, and the entries that bring it up to date.

    Args:
        room: the room's unique id.
        journal: where the entries go.
        seq: the number of the last entry already written (0 for a new room).
    """

    def __init__(self, room: str, journal: Journal, seq: int = 0) -> None:
        self.room = room
        self.journal = journal
        self.seq = seq
        self.lobby: dict[str, Any] | None = None
        self.match = 0  # the number of the match whose entries were written
        self.hand = 0  # the hand (1-based) whose deal was written
        self.moves = 0  # how many of that hand's actions were written
        self.declared: dict[str, str] = {}
        self.done = 0  # finished hands of the match written
        #: with several server processes, this process's lease value: the database
        #: refuses the entries once another process owns the room (None: one process)
        self.owner: str | None = None

    def write(self, entries: Sequence[tuple[LiveKind, dict[str, Any]]]) -> None:
        """Number the entries and hand them to the journal (spool first, then the database)."""
        if not entries:
            return
        out = []
        for kind, data in entries:
            self.seq += 1
            out.append(LiveEntry(self.room, self.seq, kind, data, self.owner))
        self.journal.append(out)

    def lobby_changes(self, lobby: Lobby, hall: dict[str, Any] | None = None) -> list[tuple[LiveKind, dict[str, Any]]]:
        """A ``lobby`` entry when the lobby (or ``hall``, the room's host and the seats on
        托管 or auto-pass: :meth:`erqishi.server.room.Room.hall_json`) differs from the one
        written."""
        data = lobby_json(lobby)
        if hall is not None:
            data["hall"] = hall
        # spectators coming and going move only the member counter: no entry for that (the
        # counter written with the seats is past every seated member's id, which is enough)
        if self.lobby is not None and {**data, "counter": None} == {**self.lobby, "counter": None}:
            return []
        self.lobby = data
        return [("lobby", data)]

    def ended_early(self, table: Table, number: int) -> list[tuple[LiveKind, dict[str, Any]]]:
        """The entries of match ``number`` ended early by a 解散 vote (its hands finished so
        far, ``ended`` ``"early"``: stored as finished without leaders), then the room's
        ``closed``; nothing is written for the room after them. A match already finished
        gets only ``closed``."""
        out: list[tuple[LiveKind, dict[str, Any]]] = []
        if number and self.match == number and not table.match_over:
            out.append(_finish(table, number, ended="early"))
        out.append(("closed", {}))
        return out

    def table_changes(
        self, table: Table, number: int, first: dict[str, Any]
    ) -> tuple[list[tuple[LiveKind, dict[str, Any]]], list[int]]:
        """The entries that bring the journal up to ``table`` (match ``number``), and the
        indexes of the hands newly finished. ``first`` is the ``match`` entry's data,
        written when the match is new."""
        out: list[tuple[LiveKind, dict[str, Any]]] = []
        if self.match != number:
            out.append(("match", first))
            self.match, self.hand, self.moves, self.declared, self.done = number, 0, 0, {}, 0
        state = table.state
        if table.hand_number != self.hand and table.deal is not None and state is not None:
            deal = HandRecord(table.rules, table.names, state.quan, table.deal, ())
            out.append(("deal", {"match": number, "hand": table.hand_number, "record": deal.to_json()}))
            self.hand, self.moves, self.declared = table.hand_number, 0, {}
        if len(table.actions) > self.moves:
            moves = [[seat, str(action)] for seat, action in table.actions[self.moves :]]
            out.append(("moves", {"match": number, "hand": self.hand, "from": self.moves, "moves": moves}))
            self.moves, self.declared = len(table.actions), {}
        declared = {str(seat): str(action) for seat, action in table.declared.items()}
        if declared != self.declared:
            out.append(("declared", {"match": number, "hand": self.hand, "step": self.moves, "declared": declared}))
            self.declared = declared
        finished = []
        while self.done < len(table.hands):
            hand = table.hands[self.done]
            out.append(
                (
                    "hand",
                    {
                        "match": number,
                        "index": hand.index,
                        "record": hand.record.to_json(),
                        "totals": list(hand.scored.totals),
                    },
                )
            )
            finished.append(hand.index)
            self.done += 1
        if finished and table.match_over and self.done == len(table.hands):
            out.append(_finish(table, number))
        return out, finished


# -- restoring --------------------------------------------------------------------------


def _need(cond: bool, entry: LiveEntry, message: str) -> None:
    if not cond:
        raise RestoreError(f"journal entry {entry.room}#{entry.seq} ({entry.kind}): {message}")


def replay_table(
    rules: RuleSet, names: Sequence[str], dealer: int, entries: Sequence[LiveEntry], rng: random.Random
) -> tuple[Table, int]:
    """The table of a match rebuilt from the journal entries that follow its ``match``
    entry: each deal is dealt again, each action applied and each declaration made through
    the table, which asks the engine about every one.

    Args:
        rules: the room's rule set.
        names: the seat names of the match.
        dealer: its first dealer.
        entries: the journal after the ``match`` entry, in order.
        rng: the generator of the hands still to be dealt.

    Returns:
        The table (``auto_close`` off, as a room plays it) and how many ``hand`` entries
        (finished hands written) the journal holds.

    Raises:
        RestoreError: an entry out of order or that the engine refuses (named).
    """
    table = Table(rules, rng, names, auto_close=False, match=Match(rules, dealer, totals=(0,) * rules.players))
    done = 0
    for entry in entries:
        data = entry.data
        try:
            if entry.kind == "deal":
                _need(not table.in_hand, entry, "a deal while a hand is being played")
                _need(data.get("hand") == table.hand_number + 1, entry, f"hand {data.get('hand')!r} out of order")
                record = parse_record(data.get("record"))
                _need(isinstance(record, HandRecord), entry, "the deal is no hand record")
                record = cast(HandRecord, record)
                table.start_hand(record.deal, quan=record.quan)
            elif entry.kind == "moves":
                _need(data.get("hand") == table.hand_number, entry, f"moves of hand {data.get('hand')!r}")
                _need(data.get("from") == table.step, entry, f"moves from {data.get('from')!r}, at {table.step}")
                for seat, action in data.get("moves", []):
                    table.apply_move(seat, Action.parse(action))
            elif entry.kind == "declared":
                _need(data.get("hand") == table.hand_number, entry, f"declarations of hand {data.get('hand')!r}")
                _need(data.get("step") == table.step, entry, f"declarations at {data.get('step')!r}, at {table.step}")
                table.declared = {}
                for seat, action in data.get("declared", {}).items():
                    table.declare(int(seat), Action.parse(action))
            elif entry.kind == "hand":
                done += 1
        except RestoreError:
            raise
        except (ErqishiError, ValueError, TypeError, KeyError) as exc:
            raise RestoreError(f"journal entry {entry.room}#{entry.seq} ({entry.kind}): {exc}") from None
    return table, done


def _finish(table: Table, number: int, **more: str) -> tuple[LiveKind, dict[str, Any]]:
    """The journal's ``finish`` entry of match ``number`` played at ``table``."""
    data: dict[str, Any] = {
        "match": number,
        "record": table.match_record().to_json(),
        "totals": list(table.match.totals),
        "leaders": list(table.match.leaders),
        **more,
    }
    return "finish", data

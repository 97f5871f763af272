"""Sending each connection of a room its own ``state`` (docs/protocol.md): the room, who
it is, and the game as its seat sees it (R-9), numbered per connection.

The hand's events only ever grow, so a connection is sent only those it has not been sent
yet (``game.log_from`` says where they start; a new connection gets them all). Each
seat's game is built and encoded once per broadcast however many connections share it,
each slice of the log once, and an unchanged state is not sent again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from erqishi.play import Viewer
from erqishi.server.connection import Connection
from erqishi.server.jsontext import dumps
from erqishi.server.lobby import Member
from erqishi.server.settings import PROTOCOL_VERSION

__all__ = ["Broadcaster"]


class Broadcaster:
    """The connections of one room and what each was last sent."""

    def __init__(self) -> None:
        self.conns: set[Connection] = set()

    def add(self, conn: Connection) -> None:
        """A new connection."""
        self.conns.add(conn)

    def discard(self, conn: Connection) -> None:
        """A connection closed."""
        self.conns.discard(conn)

    def send_all(self, message: dict[str, Any]) -> None:
        """Send ``message`` to every joined connection (a ``notice``)."""
        text = dumps(message)
        for conn in list(self.conns):
            if conn.member is not None:
                conn.send(text)

    def close(self) -> None:
        """Close every connection."""
        for conn in list(self.conns):
            conn.close()

    def send_states(
        self,
        *,
        room: dict[str, Any] | str,
        viewer_of: Callable[[Member], Viewer],
        game_for: Callable[[Viewer], dict[str, Any] | None],
        hand: int,
        log: Callable[[], Sequence[dict[str, Any]]],
        you: Callable[[Member], dict[str, Any]],
        window: tuple[int, int] | None,
        only: int | None = None,
    ) -> None:
        """Send a ``state`` to every joined connection (or only to those of seat ``only``)
        whose state changed.

        Args:
            room: the ``room`` object, or its JSON text.
            viewer_of: the viewer a member is (its seat, or a spectator).
            game_for: the ``game`` object for a viewer (without its log), None in the lobby.
            hand: the number of the hand the log belongs to (0 before the first).
            log: the hand's events as JSON (asked for once, if anyone needs a game).
            you: the ``you`` object of a member.
            window: the open decision window; an ``act`` must answer a state of it.
            only: send only to this seat's connections (a declaration changes only the
                declarer's state).
        """
        room_text = room if isinstance(room, str) else dumps(room)
        games: dict[Viewer, str | None] = {}
        events: Sequence[dict[str, Any]] | None = None
        slices: dict[int, str] = {}
        for conn in list(self.conns):
            member = conn.member
            if member is None:
                continue
            viewer = viewer_of(member)
            if only is not None and viewer != only:
                continue
            if viewer not in games:
                game = game_for(viewer)
                games[viewer] = None if game is None else dumps(game)
            game_text = games[viewer]
            you_text = dumps(you(member))
            if game_text is None:
                body = f'"room": {room_text}, "you": {you_text}, "game": null'
                if body == conn.last_state:
                    continue
                conn.last_state = body
            else:
                if events is None:
                    events = log()
                start = conn.log_sent if conn.log_hand == hand else 0
                base = f'"room": {room_text}, "you": {you_text}, "game": {game_text}'
                if base == conn.last_state and start == len(events):
                    continue  # nothing new for this connection
                conn.last_state = base
                if start not in slices:
                    slices[start] = dumps(list(events[start:]))
                conn.log_hand, conn.log_sent = hand, len(events)
                # the game object closes with the log: the events from ``log_from`` on
                body = f'{base[:-1]}, "log_from": {start}, "log": {slices[start]}}}'
            conn.seq += 1
            if conn.window != window:
                conn.window, conn.window_seq = window, conn.seq
            conn.send(f'{{"v": {PROTOCOL_VERSION}, "type": "state", "seq": {conn.seq}, {body}}}')
